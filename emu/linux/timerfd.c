/* timerfd.c — timerfd_create(2) timers on the emulated clock, under
 * --vtime (without it they are the host's).
 *
 * The guest's descriptor is a host eventfd, which keeps the count of
 * expiries not yet read as a timerfd does: a read returns it (8 bytes)
 * and zeroes it, blocks while it is 0 (EAGAIN when non-blocking), and
 * poll, select and epoll see it readable after an expiry.  The timer
 * itself is one of the process's timers (itimer.c), which adds each
 * expiry to the eventfd where it would raise a signal: so expiries come
 * at the same instruction in every run, and a wait on the host (a read of
 * the descriptor, epoll_wait) ends at the next one.
 *
 * The timer lives as long as one of its descriptors is open: the one
 * the guest was given and the duplicates dup, dup2, dup3 and fcntl's
 * F_DUPFD make of it, up to LX_TFD_FDS in all (more are duplicates the
 * timer does not know of).  Closing the last (close, dup2 onto it,
 * close_range) ends it.  A forked child shares the count but not the
 * timer, which its parent keeps running (the child's timerfd_settime
 * finds no timerfd: EINVAL); an execve ends it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/timerfd.h>

#include "lx_proc.h"

/* The timerfd whose descriptor is fd, or NULL. */
static struct lx_timer *timerfd_of(struct lx_proc *p, long fd)
{
	for (int k = LX_TIMERFD0; k < LX_NTIMERS; k++)
		for (int j = 0; p->tm.t[k].used && j < p->tm.t[k].nfd; j++)
			if (p->tm.t[k].fd[j] == fd)
				return &p->tm.t[k];
	return NULL;
}

static long create(struct lx_proc *p, long clk, long flags)
{
	/* the clocks timerfd_create(2) takes */
	const unsigned clocks = 1u << CLOCK_REALTIME | 1u << CLOCK_MONOTONIC |
				1u << CLOCK_BOOTTIME | 1u << CLOCK_REALTIME_ALARM |
				1u << CLOCK_BOOTTIME_ALARM;
	struct lx_timer *tm = NULL;
	long fd;

	if (clk < 0 || clk > 31 || !(clocks >> clk & 1) ||
	    (flags & ~(long)(TFD_NONBLOCK | TFD_CLOEXEC)))
		return -EINVAL;
	for (int k = LX_TIMERFD0; k < LX_NTIMERS && !tm; k++)
		if (!p->tm.t[k].used)
			tm = &p->tm.t[k];
	if (!tm)
		return -EMFILE;
	/* TFD_NONBLOCK and TFD_CLOEXEC are O_NONBLOCK and O_CLOEXEC, as
	 * eventfd2's flags are */
	fd = lx_host_syscall(290, 0, flags, 0, 0, 0, 0);
	if (fd < 0)
		return fd;
	*tm = (struct lx_timer){ .next = -1, .used = 1, .tfd = 1, .nfd = 1, .fd = { (int)fd } };
	tm->wall = clk == CLOCK_REALTIME || clk == CLOCK_REALTIME_ALARM;
	return fd;
}

/* Expiries not yet read are dropped when the timer is set anew. */
static void drop_count(const struct lx_timer *tm)
{
	struct pollfd pf = { tm->fd[0], POLLIN, 0 };
	uint64_t n;

	if (lx_host_syscall(7, (long)&pf, 1, 0, 0, 0, 0) == 1 && (pf.revents & POLLIN))
		lx_host_syscall(0, tm->fd[0], (long)&n, sizeof(n), 0, 0, 0);
}

/* Not a timerfd of ours: EBADF for no descriptor, else EINVAL. */
static long not_ours(long fd)
{
	return lx_host_syscall(72, fd, F_GETFD, 0, 0, 0, 0) < 0 ? -EBADF : -EINVAL;
}

static long settime(struct lx_proc *p, const struct x86_cpu *c, long fd, long flags, uint64_t nv,
		    uint64_t ov)
{
	struct lx_timer *tm = timerfd_of(p, fd);
	struct itimerspec v, old;
	long r;

	if (!tm)
		return not_ours(fd);
	if (flags & ~(long)(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET))
		return -EINVAL;
	if (lx_copy_in(p, &v, nv, sizeof(v)))
		return -EFAULT;
	r = lx_itimer_arm(p, c, tm, &v, flags & TFD_TIMER_ABSTIME, &old);
	if (r)
		return r;
	drop_count(tm);
	return ov && lx_copy_out(p, ov, &old, sizeof(old)) ? -EFAULT : 0;
}

static long gettime(struct lx_proc *p, const struct x86_cpu *c, long fd, uint64_t cur)
{
	struct lx_timer *tm = timerfd_of(p, fd);
	struct itimerspec v;

	if (!tm)
		return not_ours(fd);
	lx_itimer_value(p, c, tm, &v);
	return lx_copy_out(p, cur, &v, sizeof(v)) ? -EFAULT : 0;
}

int lx_timerfd_syscall(struct lx_proc *p, const struct x86_cpu *c, long nr, const uint64_t a[4],
		       long *ret)
{
	switch (nr) {
	case 283:
		*ret = create(p, (long)(int)a[0], (long)(int)a[1]);
		return 1;
	case 286:
		*ret = settime(p, c, (long)(int)a[0], (long)(int)a[1], a[2], a[3]);
		return 1;
	case 287:
		*ret = gettime(p, c, (long)(int)a[0], a[1]);
		return 1;
	default:
		return 0;
	}
}

void lx_timerfd_closed(struct lx_proc *p, unsigned lo, unsigned hi)
{
	for (int k = LX_TIMERFD0; k < LX_NTIMERS; k++) {
		struct lx_timer *tm = &p->tm.t[k];
		int n = 0;

		if (!tm->used)
			continue;
		for (int j = 0; j < tm->nfd; j++)
			if ((unsigned)tm->fd[j] < lo || (unsigned)tm->fd[j] > hi)
				tm->fd[n++] = tm->fd[j];
		tm->nfd = (uint8_t)n;
		if (!n)
			*tm = (struct lx_timer){ .next = -1 };
	}
}

void lx_timerfd_dup(struct lx_proc *p, long from, long to)
{
	struct lx_timer *tm = to >= 0 && to != from ? timerfd_of(p, from) : NULL;

	if (tm && tm->nfd < LX_TFD_FDS)
		tm->fd[tm->nfd++] = (int)to;
}
