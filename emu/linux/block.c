/* block.c — blocking syscalls in a multi-threaded guest.  All guest
 * threads share one host thread, so a read on an empty pipe would stop the
 * thread that is about to fill it.  While another guest thread can run, a
 * call that would block is not made: the calling thread gives up its turn
 * and runs the syscall instruction again on its next turn (the kernel's
 * restart, in effect).  When no other thread can run but one waits with a
 * timeout, the caller waits too (LX_T_IO) and tries again when another
 * runs or the process has waited a while (thread.c).  When no other thread
 * will run at all, the call is made and blocks for real.
 *
 * Covered: read, readv, write, writev, recvfrom, recvmsg, sendto, sendmsg,
 * accept, accept4, connect-free waits (wait4, waitid), poll, ppoll,
 * epoll_wait, epoll_pwait, select, pselect6, rt_sigtimedwait.  Others
 * (msgrcv, semop, flock…) block every thread.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>

#include "lx_proc.h"

/* Whether another thread can run (1), or will once its timeout passes
 * (2); else 0. */
static int others_runnable(struct lx_proc *p)
{
	struct lx_thread *cur = lx_cur(p);
	int timed = 0;

	for (int i = 0; i < p->nth; i++) {
		struct lx_thread *t = p->th[i];

		if (t == cur)
			continue;
		if (t->state == LX_T_RUN || t->state == LX_T_IO)
			return 1;
		timed |= t->deadline >= 0 && (t->state == LX_T_FUTEX || t->state == LX_T_SLEEP);
	}
	return timed ? 2 : 0;
}

/* 1 when fd would not block for events (or is non-blocking itself). */
static int fd_ready(long fd, short events)
{
	struct pollfd pf = { (int)fd, events, 0 };
	long fl = lx_host_syscall(72, fd, F_GETFL, 0, 0, 0, 0);

	if (fl < 0 || (fl & O_NONBLOCK))
		return 1;
	return lx_host_syscall(7, (long)&pf, 1, 0, 0, 0, 0) != 0;
}

static int child_ready(long which, long id, long options)
{
	siginfo_t si;

	if (options & WNOHANG)
		return 1;
	si.si_pid = 0;
	options = (options & (WEXITED | WSTOPPED | WCONTINUED | __WALL | __WCLONE)) | WNOHANG |
		  WNOWAIT;
	/* an error (ECHILD…) is returned at once by the real call too */
	return lx_host_syscall(247, which, id, (long)&si, options, 0, 0) < 0 || si.si_pid != 0;
}

static int wait4_ready(long pid, long options)
{
	long which = P_PID, id = pid, o = WEXITED;

	if (pid == -1) {
		which = P_ALL;
		id = 0;
	} else if (pid == 0) {
		which = P_PGID;
		id = 0;
	} else if (pid < -1) {
		which = P_PGID;
		id = -pid;
	}
	if (options & WUNTRACED)
		o |= WSTOPPED;
	if (options & WCONTINUED)
		o |= WCONTINUED;
	return child_ready(which, id, o | (options & (WNOHANG | __WALL | __WCLONE)));
}

int64_t lx_poll_timeout(struct lx_proc *p, long nr, const uint64_t *a)
{
	struct timespec ts;
	struct {
		int64_t sec, usec;
	} tv;
	int ms, k;

	switch (nr) {
	case 7:	  /* poll(fds, n, ms) */
	case 232: /* epoll_wait(fd, ev, n, ms) */
	case 281: /* epoll_pwait(…, mask, size) */
		ms = (int)a[nr == 7 ? 2 : 3];
		return ms < 0 ? -1 : (int64_t)ms * 1000000;
	case 23: /* select(n, r, w, x, timeval) */
		if (!a[4])
			return -1;
		if (lx_copy_in(p, &tv, a[4], sizeof(tv)))
			return -2;
		if (tv.sec < 0 || tv.usec < 0)
			return -1; /* EINVAL from the call */
		return tv.sec * 1000000000 + tv.usec * 1000;
	case 128: /* rt_sigtimedwait(set, info, timespec, size) */
	case 270: /* pselect6(n, r, w, x, timespec, sigmask) */
	case 271: /* ppoll(fds, n, timespec, mask, size) */
	case 441: /* epoll_pwait2(fd, ev, n, timespec, mask, size) */
		k = nr == 270 ? 4 : nr == 441 ? 3 : 2;
		if (!a[k])
			return -1;
		if (lx_copy_in(p, &ts, a[k], sizeof(ts)))
			return -2;
		if (ts.tv_sec < 0 || ts.tv_nsec < 0)
			return -1; /* EINVAL from the call */
		return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	default:
		return -1;
	}
}

/* Whether the time of a call that would wait is up: its deadline is set
 * on its first try, from timeout_ns (-1: none). */
static int timed_out(struct lx_proc *p, struct lx_thread *t, int64_t timeout_ns)
{
	if (!t->io_waiting) {
		t->io_waiting = 1;
		t->io_deadline = timeout_ns < 0 ? -1 : lx_wait_deadline(p, &t->cpu, -1, timeout_ns);
	}
	return t->io_deadline >= 0 && lx_wait_now(p, &t->cpu) >= t->io_deadline;
}

/* A poll-like call with its timeout replaced by zero: its result when
 * something is ready or the guest's timeout has passed; 0 to retry. */
static long poll_now(struct lx_proc *p, long nr, const uint64_t *a, long *res)
{
	struct lx_thread *t = lx_cur(p);
	struct timespec zero = { 0, 0 };
	int64_t timeout_ns = lx_poll_timeout(p, nr, a);
	long r;

	if (timeout_ns == -2)
		return *res = -EFAULT, 1;
	switch (nr) {
	case 7:
		r = lx_host_syscall(7, (long)a[0], (long)a[1], 0, 0, 0, 0);
		break;
	case 271:
		r = lx_host_syscall(271, (long)a[0], (long)a[1], (long)&zero, (long)a[3],
				    (long)a[4], 0);
		break;
	default:
		r = lx_host_syscall(nr, (long)a[0], (long)a[1], (long)a[2], 0, (long)a[4],
				    (long)a[5]);
		break;
	}
	if ((r == 0 || r == -EINTR) && lx_signal_wait_mask(p, nr, a))
		r = -EINTR; /* a signal its own mask lets through came */
	else if (r == 0 && !timed_out(p, t, timeout_ns))
		return 0;
	t->io_waiting = 0;
	*res = r;
	return 1;
}

/* rt_sigtimedwait found none of its signals pending (signal.c): 1 when
 * its time is up (answered: -EAGAIN), else 0 to try again. */
static int sigwait_now(struct lx_proc *p, const uint64_t *a, long *res)
{
	struct lx_thread *t = lx_cur(p);
	int64_t timeout_ns = lx_poll_timeout(p, 128, a);

	if (timeout_ns == -2)
		return *res = -EFAULT, 1;
	if (!timed_out(p, t, timeout_ns))
		return 0;
	t->io_waiting = 0;
	*res = -EAGAIN;
	return 1;
}

#define SEL_WORDS 16 /* descriptors select_now() takes: 1024, FD_SETSIZE */

/* select or pselect6 with its timeout replaced by zero, on copies of the
 * descriptor sets (the call rewrites them): as poll_now(), the sets going
 * back to the guest with the answer; -1 when there are too many
 * descriptors for the copies. */
static long select_now(struct lx_proc *p, long nr, const uint64_t *a, long *res)
{
	struct lx_thread *t = lx_cur(p);
	int64_t timeout_ns = lx_poll_timeout(p, nr, a);
	uint64_t set[3][SEL_WORDS];
	long n = (int)a[0], r, s[3] = { 0, 0, 0 };
	size_t bytes;

	if (n < 0 || n > SEL_WORDS * 64)
		return -1;
	if (timeout_ns == -2)
		return *res = -EFAULT, 1;
	bytes = (size_t)(n + 63) / 64 * 8;
	for (int k = 0; k < 3; k++) {
		if (!a[1 + k])
			continue;
		if (lx_copy_in(p, set[k], a[1 + k], bytes))
			return *res = -EFAULT, 1;
		s[k] = (long)set[k];
	}
	if (nr == 23) {
		struct timeval zero = { 0, 0 };
		r = lx_host_syscall(23, n, s[0], s[1], s[2], (long)&zero, 0);
	} else {
		struct timespec zero = { 0, 0 };
		r = lx_host_syscall(270, n, s[0], s[1], s[2], (long)&zero, (long)a[5]);
	}
	if ((r == 0 || r == -EINTR) && lx_signal_wait_mask(p, nr, a))
		return t->io_waiting = 0, *res = -EINTR, 1; /* the sets stay as given */
	if (r == 0 && !timed_out(p, t, timeout_ns))
		return 0;
	t->io_waiting = 0;
	for (int k = 0; k < 3 && r >= 0; k++)
		if (s[k] && lx_copy_out(p, a[1 + k], set[k], bytes))
			r = -EFAULT;
	if (r == 0 && nr == 23 && a[4]) {
		struct timeval left = { 0, 0 }; /* Linux tells the time left */
		lx_copy_out(p, a[4], &left, sizeof(left));
	}
	*res = r;
	return 1;
}

int lx_block_would_wait(struct lx_proc *p, long nr, const uint64_t *a, long *res)
{
	int ready, others = others_runnable(p);

	if (!others) {
		lx_cur(p)->io_waiting = 0;
		return 0;
	}
	switch (nr) {
	case 0:	  /* read */
	case 19:  /* readv */
	case 43:  /* accept */
	case 288: /* accept4 */
		ready = fd_ready((long)a[0], POLLIN);
		break;
	case 45: /* recvfrom */
	case 47: /* recvmsg */
		ready = (nr == 45 ? (a[3] & MSG_DONTWAIT) : (a[2] & MSG_DONTWAIT)) ||
			fd_ready((long)a[0], POLLIN);
		break;
	case 1:	 /* write */
	case 20: /* writev */
		ready = fd_ready((long)a[0], POLLOUT);
		break;
	case 44: /* sendto */
	case 46: /* sendmsg */
		ready = (nr == 44 ? (a[3] & MSG_DONTWAIT) : (a[2] & MSG_DONTWAIT)) ||
			fd_ready((long)a[0], POLLOUT);
		break;
	case 61: /* wait4 */
		ready = wait4_ready((long)(int)a[0], (long)a[2]);
		break;
	case 247: /* waitid */
		ready = child_ready((long)a[0], (long)a[1], (long)a[3]);
		break;
	case 7:
	case 232:
	case 271:
	case 281:
		if (poll_now(p, nr, a, res))
			return -1; /* answered: *res */
		ready = 0;
		break;
	case 128:
		if (sigwait_now(p, a, res))
			return -1;
		ready = 0;
		break;
	case 23:
	case 270:
		ready = (int)select_now(p, nr, a, res);
		if (ready > 0)
			return -1; /* answered: *res */
		if (ready < 0)
			return 0; /* too many descriptors: every thread waits */
		break;
	default:
		return 0;
	}
	if (!ready && others == 2) {
		lx_cur(p)->state = LX_T_IO;
		lx_cur(p)->deadline = -1; /* the time it waits is the others' */
	}
	return !ready;
}

#define POLL_COPY 1024 /* pollfd entries ready_now() copies */

/* Whether poll-like call nr (arguments a) has a descriptor ready, or
 * fails at once: the same call with no time to wait, on copies of what it
 * rewrites (poll's entries, select's sets), an epoll instance polled
 * itself, its events left to the call.  Too many descriptors to copy
 * count as ready: the call is then made as it is. */
static int ready_now(struct lx_proc *p, long nr, const uint64_t *a)
{
	struct pollfd pf[POLL_COPY];
	uint64_t set[3][SEL_WORDS];
	struct timespec zero = { 0, 0 };
	long n, s[3] = { 0, 0, 0 };

	switch (nr) {
	case 7:	  /* poll */
	case 271: /* ppoll */
		n = (long)a[1];
		if (n > POLL_COPY || (n && lx_copy_in(p, pf, a[0], (size_t)n * sizeof(*pf))))
			return 1;
		return lx_host_syscall(7, (long)pf, n, 0, 0, 0, 0) != 0;
	case 23:  /* select */
	case 270: /* pselect6 */
		n = (int)a[0];
		if (n < 0 || n > SEL_WORDS * 64)
			return 1;
		for (int k = 0; k < 3; k++) {
			if (!a[1 + k])
				continue;
			if (lx_copy_in(p, set[k], a[1 + k], (size_t)(n + 63) / 64 * 8))
				return 1;
			s[k] = (long)set[k];
		}
		return lx_host_syscall(270, n, s[0], s[1], s[2], (long)&zero, 0) != 0;
	case 232: /* epoll_wait */
	case 281: /* epoll_pwait */
	case 441: /* epoll_pwait2 */
		pf[0] = (struct pollfd){ (int)a[0], POLLIN, 0 };
		return lx_host_syscall(7, (long)pf, 1, 0, 0, 0, 0) != 0;
	default:
		return 0;
	}
}

int lx_block_waits(struct lx_proc *p, long nr, const uint64_t *a)
{
	switch (nr) {
	case 0:	  /* read */
	case 19:  /* readv */
	case 43:  /* accept */
	case 288: /* accept4 */
		return !fd_ready((long)a[0], POLLIN);
	case 45: /* recvfrom */
	case 47: /* recvmsg */
		return !(nr == 45 ? (a[3] & MSG_DONTWAIT) : (a[2] & MSG_DONTWAIT)) &&
		       !fd_ready((long)a[0], POLLIN);
	case 1:	 /* write */
	case 20: /* writev */
		return !fd_ready((long)a[0], POLLOUT);
	case 44: /* sendto */
	case 46: /* sendmsg */
		return !(nr == 44 ? (a[3] & MSG_DONTWAIT) : (a[2] & MSG_DONTWAIT)) &&
		       !fd_ready((long)a[0], POLLOUT);
	case 61: /* wait4 */
		return !wait4_ready((long)(int)a[0], (long)a[2]);
	case 247: /* waitid */
		return !child_ready((long)a[0], (long)a[1], (long)a[3]);
	case 7:	  /* poll */
	case 23:  /* select */
	case 128: /* rt_sigtimedwait */
	case 232: /* epoll_wait */
	case 270: /* pselect6 */
	case 271: /* ppoll */
	case 281: /* epoll_pwait */
	case 441: /* epoll_pwait2 */
		return lx_poll_timeout(p, nr, a) != 0 && !ready_now(p, nr, a);
	case 202: { /* futex: FUTEX_WAIT, FUTEX_WAIT_BITSET on the value it expects */
		uint32_t v;
		int cmd = (int)a[1] & FUTEX_CMD_MASK;
		return (cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET) &&
		       !lx_copy_in(p, &v, a[0], 4) && v == (uint32_t)a[2];
	}
	case 34:  /* pause */
	case 35:  /* nanosleep */
	case 130: /* rt_sigsuspend */
	case 230: /* clock_nanosleep */
		return 1;
	default:
		return 0;
	}
}
