/* e2e_coproc.c — a parent that talks to a child it keeps running, with a
 * SIGCHLD handler installed, waiting for each answer with no timeout.
 *
 *   e2e_coproc select|pselect|poll|ppoll|epoll [ROUNDS]
 *
 * The child reads requests from one pipe and writes each back in upper
 * case on another, until the end of the first.  The parent sends ROUNDS
 * (default 3) requests, waits for each answer in the call named, prints
 * it, then closes its end and reaps the child: "one ... done".  The
 * child ends only after the last answer, so a wait that lasted until a
 * child's end would never return. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t chld;

static void on_chld(int sig)
{
	(void)sig;
	chld++;
}

static void serve(int in, int out)
{
	char b[64];
	ssize_t n;

	while ((n = read(in, b, sizeof(b))) > 0) {
		for (ssize_t k = 0; k < n; k++)
			b[k] = (char)toupper((unsigned char)b[k]);
		if (write(out, b, (size_t)n) != n)
			_exit(2);
	}
	_exit(n < 0);
}

/* Wait in call how until fd is readable: 0; 1 when a signal cut the wait
 * short, -1 on another error. */
static int wait_readable(const char *how, int fd, int ep)
{
	struct pollfd pf = { fd, POLLIN, 0 };
	struct epoll_event ev;
	fd_set in;
	sigset_t none;
	int r;

	FD_ZERO(&in);
	FD_SET(fd, &in);
	sigemptyset(&none);
	if (!strcmp(how, "select"))
		r = select(fd + 1, &in, NULL, NULL, NULL);
	else if (!strcmp(how, "pselect"))
		r = pselect(fd + 1, &in, NULL, NULL, NULL, &none);
	else if (!strcmp(how, "poll"))
		r = poll(&pf, 1, -1);
	else if (!strcmp(how, "ppoll"))
		r = ppoll(&pf, 1, NULL, &none);
	else
		r = epoll_wait(ep, &ev, 1, -1);
	return r > 0 ? 0 : r < 0 && errno == EINTR ? 1 : -1;
}

int main(int argc, char **argv)
{
	static const char *const word[] = { "one", "two", "three", "four", "five" };
	int req[2], ans[2], rounds = argc > 2 ? atoi(argv[2]) : 3, ep = -1;
	struct sigaction sa;
	char b[64];

	if (argc < 2 || rounds < 1 || rounds > 5) {
		fprintf(stderr, "usage: e2e_coproc select|pselect|poll|ppoll|epoll [ROUNDS]\n");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_chld;
	sigaction(SIGCHLD, &sa, NULL);
	if (pipe(req) || pipe(ans))
		return 2;
	pid_t pid = fork();
	if (pid == 0) {
		close(req[1]);
		close(ans[0]);
		serve(req[0], ans[1]);
	}
	close(req[0]);
	close(ans[1]);
	if (!strcmp(argv[1], "epoll")) {
		struct epoll_event ev = { .events = EPOLLIN, .data.fd = ans[0] };
		ep = epoll_create1(0);
		if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, ans[0], &ev))
			return 2;
	}
	for (int k = 0; k < rounds; k++) {
		size_t len = strlen(word[k]);
		if (write(req[1], word[k], len) != (ssize_t)len)
			return 2;
		/* (EINTR: a SIGCHLD that came early; the answer is still due) */
		int w;
		while ((w = wait_readable(argv[1], ans[0], ep)) == 1)
			;
		if (w)
			return 2;
		ssize_t n = read(ans[0], b, sizeof(b) - 1);
		if (n <= 0)
			return 2;
		b[n] = 0;
		printf("%s ", b);
	}
	close(req[1]);
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return 2;
	printf("done\n");
	return 0;
}
