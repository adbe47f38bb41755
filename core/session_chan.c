/* session_chan.c — the sample channel (session_chan.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "recwire.h"
#include "session_chan.h"

/* Above the shared area's fd (emu/linux/shared.c), below common limits. */
#define CHAN_FD_MIN 910

static int move_high(int fd, int cloexec)
{
	int hi = fcntl(fd, cloexec ? F_DUPFD_CLOEXEC : F_DUPFD, CHAN_FD_MIN);

	if (hi < 0)
		return fd; /* a low limit on fds: keep it where it is */
	close(fd);
	return hi;
}

int session_chan_open(int *rfd, int *wfd)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	*rfd = move_high(sv[0], 1);
	*wfd = move_high(sv[1], 0);
	/* a dup'ed write end is not close-on-exec; one that stayed low is */
	if (fcntl(*wfd, F_SETFD, 0) < 0) {
		close(*rfd);
		close(*wfd);
		return -1;
	}
	return 0;
}

int session_chan_drain(int rfd, int timeout_ms, void (*fn)(void *arg, const void *msg, size_t len),
		       void *arg)
{
	struct pollfd pfd = { rfd, POLLIN, 0 };
	uint64_t buf[RECW_MAX / 8 + 1];

	if (timeout_ms > 0 && poll(&pfd, 1, timeout_ms) <= 0)
		return 0;
	for (;;) {
		ssize_t n = recv(rfd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n > 0) {
			fn(arg, buf, (size_t)n);
			continue;
		}
		if (n == 0)
			return 1;
		if (errno == EINTR)
			continue;
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : 1;
	}
}
