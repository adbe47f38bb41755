/* wake.c — under --vtime, a parent with one thread sees its children's
 * ends when its own emulated clock has reached them:
 *   - a wait with WNOHANG reports a child that ended at or before the
 *     parent's clock, after waiting (as reap.c does) for every child that
 *     could still end by then; the earliest end first, else none yet;
 *   - a wait for a signal (sigsuspend, pause) that SIGCHLD would end
 *     lasts until the next child's end on the emulated clock: the clock
 *     moves on to it, and that child's SIGCHLD is the one delivered; so
 *     does a wait in another call (a read, poll, select, pselect under
 *     its own mask) or a sleep, unless it can go on first, or times out
 *     first on the emulated clock (then no end came by its deadline);
 *   - the host's SIGCHLDs are held (hold.c), even one that ends a wait,
 *     and a child reaped gets its own then, unless the guest had it.
 *   - a parent that runs while its children do looks every WAKE_EVERY
 *     of its instructions (from the start, not from when it last
 *     stopped): a child that ended by its clock sends its SIGCHLD then.
 * So a shell that polls with WNOHANG and sleeps in sigsuspend between
 * polls (dash's `wait`), or computes beside a background job (bash),
 * makes the same calls in every run, whichever child the host ends
 * first.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "lx_proc.h"

#define WAKE_NAP_NS 100000    /* between looks for a child's end */
#define WAKE_EVERY (1u << 20) /* instructions between looks of a parent that runs */

int lx_wake_virtual(const struct lx_proc *p)
{
	const struct lx_sigaction *a = &p->act[SIGCHLD];

	return p->cfg->vtime && p->sh && p->slot && p->nth == 1 && !p->kids_lost &&
	       a->handler != (uint64_t)SIG_IGN && !(a->flags & SA_NOCLDWAIT);
}

/* The unreaped child (pid, or any: 0) that ended first on the emulated
 * clock, at or before t (-1: whenever) or whose SIGCHLD the guest has had
 * (it has learnt of the end: a program that takes SIGCHLD in poll(2)
 * then waits with WNOHANG must find the child), leaving out those whose
 * SIGCHLD the guest has had that ended by clock had (-1: none left out):
 * its place in kids[] (its end in *end), -1 if none.  Of two that ended
 * together, the one forked first. */
static int first_end(const struct lx_proc *p, int pid, int64_t t, int64_t had, int64_t *end)
{
	int best = -1;

	for (int k = 0; k < p->nkids; k++) {
		const struct lx_slot *s;
		int64_t e;
		if (pid && p->kids[k].pid != pid)
			continue;
		s = lx_reap_slot(p, p->kids[k].pid);
		const int given = lx_hold_given(p, p->kids[k].pid);
		if (!lx_reap_ended(s) || ((e = lx_reap_clock(s)) > t && t >= 0 && !given) ||
		    (e <= had && given))
			continue;
		if (best < 0 || e < *end) {
			best = k;
			*end = e;
		}
	}
	return best;
}

static int is_kid(const struct lx_proc *p, int pid)
{
	for (int k = 0; k < p->nkids; k++)
		if (p->kids[k].pid == pid)
			return 1;
	return 0;
}

/* A WNOHANG wait that finds no child ended: wait4 returns 0, waitid 0
 * with the fields of its siginfo the kernel clears (kernel/exit.c,
 * waitid) zero. */
static long none_yet(struct lx_proc *p, long nr, const uint64_t a[6])
{
	siginfo_t si;

	if (nr == 247 && a[2]) {
		if (lx_copy_in(p, &si, a[2], sizeof(si)))
			return -EFAULT;
		si.si_signo = si.si_errno = si.si_code = 0;
		si.si_pid = 0;
		si.si_uid = 0;
		si.si_status = 0;
		if (lx_copy_out(p, a[2], &si, sizeof(si)))
			return -EFAULT;
	}
	return 0;
}

int lx_wake_pick(struct lx_proc *p, const struct x86_cpu *c, long nr, const uint64_t a[6], long *r)
{
	const unsigned opts = (unsigned)(nr == 61 ? a[2] : a[3]);
	const int nohang = (opts & WNOHANG) != 0;
	int pid, k;
	int64_t end;

	if (!lx_wake_virtual(p) || (opts & (WUNTRACED | WCONTINUED | WNOWAIT | __WCLONE)) ||
	    (nr == 247 && !(opts & WEXITED)))
		return -1;
	if (nr == 61)
		pid = (int)a[0] == -1 ? 0 : (int)a[0] > 0 ? (int)a[0] : -1;
	else
		pid = (int)a[0] == P_ALL ? 0 : (int)a[0] == P_PID ? (int)a[1] : -1;
	if (pid < 0)
		return -1;
	/* a report kept for later (reaped already, ahead of its turn):
	 * lx_reap_stashed() gives it once the clock has got to its end,
	 * unless a child ended earlier; a wait that blocks takes it then */
	const int stashed = p->nstash && (!pid || pid == p->stash[0].pid);
	if (!nohang && !stashed)
		return -1; /* (lx_reap_order() orders what the host gives) */
	const int64_t by = nohang ? lx_wait_now(p, c) : p->stash[0].end;
	const int kept = stashed && (p->stash[0].end <= by || lx_hold_given(p, p->stash[0].pid));
	if (!stashed && (pid ? !is_kid(p, pid) : !p->nkids))
		return -1;
	lx_reap_settle(p, by, p->nkids, 0);
	if ((k = first_end(p, pid, by, -1, &end)) >= 0 && (!kept || end < p->stash[0].end))
		return p->kids[k].pid;
	if (kept)
		return -1;
	*r = none_yet(p, nr, a);
	return 0;
}

/* The child whose end comes next for a parent at clock now: the first
 * to end of those unreaped, but for those whose SIGCHLD the parent has
 * had that ended by now: its place in kids[] (its end in *end), once it
 * has ended and no other can still end before it; -1 if there is none
 * to wait for, or a signal came meanwhile; -2 once call nr (arguments a,
 * NULL: none) would no longer wait. */
static int next_end(struct lx_proc *p, int64_t now, int64_t *end, long nr, const uint64_t *a)
{
	for (;;) {
		int k, any = 0;
		if (lx_signal_pending(p))
			return -1;
		if (a && !lx_block_waits(p, nr, a))
			return -2;
		for (k = 0; k < p->nkids && !any; k++) {
			const struct lx_slot *s = lx_reap_slot(p, p->kids[k].pid);
			any = !lx_hold_given(p, p->kids[k].pid) || !lx_reap_ended(s) ||
			      lx_reap_clock(s) > now;
		}
		if (!any)
			return -1;
		if ((k = first_end(p, 0, -1, now, end)) >= 0) {
			lx_reap_settle(p, *end, k, 0);
			int64_t e;
			if (first_end(p, 0, -1, now, &e) == k)
				return k;
			continue; /* one that ended earlier meanwhile */
		}
		struct timespec nap = { 0, WAKE_NAP_NS };
		lx_host_syscall(35, (long)&nap, 0, 0, 0, 0, 0);
	}
}

/* As next_end(), for a wait that times out at clock d: -1 also when no
 * child's end comes by then, every child that could still end by d
 * having ended or got past it (lx_reap_settle()). */
static int end_by(struct lx_proc *p, int64_t now, int64_t d, int64_t *end, long nr,
		  const uint64_t *a)
{
	int64_t since = lx_now_ns();

	for (;;) {
		int k;
		if (lx_signal_pending(p))
			return -1;
		if (a && !lx_block_waits(p, nr, a))
			return -2;
		if ((k = first_end(p, 0, d, now, end)) >= 0) {
			lx_reap_settle(p, *end, k, 0);
			int64_t e;
			if (first_end(p, 0, d, now, &e) == k)
				return k;
			continue; /* one that ended earlier meanwhile */
		}
		if (!lx_reap_unsettled(p, d, p->nkids, 0, &since))
			return -1;
		struct timespec nap = { 0, WAKE_NAP_NS };
		lx_host_syscall(35, (long)&nap, 0, 0, 0, 0, 0);
	}
}

/* Child pid's end as the kernel tells it (into *si), left to be reaped:
 * waits until it has gone (its slot is marked ended before it quite
 * has); 0 if it cannot be told. */
static int gone(int pid, siginfo_t *si)
{
	memset(si, 0, sizeof(*si));
	return !lx_host_syscall(247, P_PID, pid, (long)si, WEXITED | WNOWAIT | __WALL, 0, 0) &&
	       si->si_pid == pid;
}

/* Of the reports kept for later waits (reap.c), the one that ended
 * first, but for those whose SIGCHLD the parent has had that ended by
 * clock now: its place in stash[], -1 if none. */
static int first_kept(const struct lx_proc *p, int64_t now)
{
	int best = -1;

	for (int k = 0; k < p->nstash; k++) {
		const struct lx_report *r = &p->stash[k];
		if ((r->end <= now && lx_hold_given(p, r->pid)) ||
		    (best >= 0 && r->end >= p->stash[best].end))
			continue;
		best = k;
	}
	return best;
}

/* Whether a wait with signal mask mask can be ended by a child's SIGCHLD
 * on the emulated clock. */
static int wakes(const struct lx_proc *p, uint64_t mask)
{
	const uint64_t h = p->act[SIGCHLD].handler;

	return lx_wake_virtual(p) && h != (uint64_t)SIG_DFL && !(mask & LX_SIGBIT(SIGCHLD)) &&
	       (p->nkids || p->nstash) && lx_itimer_next(p) < 0;
}

/* Wait for the next child's end (or for call nr, arguments a, to be able
 * to go on; by clock d if d >= 0, when the call times out), move the
 * clock on to it and make its SIGCHLD pending: 1 if so, -2 if the call
 * can go on, 0 if neither. */
static int wake(struct lx_proc *p, const struct x86_cpu *c, long nr, const uint64_t *a, int64_t d)
{
	const uint64_t m = LX_SIGBIT(SIGCHLD);
	const int64_t now = lx_wait_now(p, c);
	uint64_t old;
	siginfo_t si;
	int64_t end = 0;
	int k = -1, kept, pid = 0;

	/* the host's SIGCHLD waits meanwhile: hold.c takes it after */
	lx_host_syscall(14, SIG_BLOCK, (long)&m, (long)&old, 8, 0, 0);
	if ((kept = first_kept(p, now)) >= 0 && (d < 0 || p->stash[kept].end <= d)) {
		/* reaped already: its end, unless a child ends before it */
		const struct lx_report *r = &p->stash[kept];
		lx_reap_settle(p, r->end, p->nkids, 0);
		if ((k = first_end(p, 0, r->end, now, &end)) < 0 || end == r->end) {
			k = -1;
			pid = r->pid;
			end = r->end;
			si = lx_child_end(pid, r->status);
		}
	} else {
		k = d < 0 ? next_end(p, now, &end, nr, a) : end_by(p, now, d, &end, nr, a);
	}
	/* gone, a child has closed its files, and the call may go on first:
	 * the end of a pipe it wrote comes before its SIGCHLD (kernel/exit.c:
	 * exit_files, then exit_notify) */
	if (k >= 0 && gone(p->kids[k].pid, &si))
		pid = si.si_pid;
	if (pid && a && !lx_block_waits(p, nr, a)) {
		pid = 0;
		k = -2;
	}
	if (pid) {
		lx_vtime_child_info(p, &si);
		lx_wait_done(p, c, end);
		lx_hold_pend(p, pid, &si);
	}
	lx_host_syscall(14, SIG_SETMASK, (long)&old, 0, 8, 0, 0);
	return pid ? 1 : k == -2 ? -2 : 0;
}

int lx_wake_sigchld(struct lx_proc *p, const struct x86_cpu *c, uint64_t mask)
{
	return wakes(p, mask) && wake(p, c, -1, NULL, -1) == 1;
}

int lx_wake_call(struct lx_proc *p, const struct x86_cpu *c, long nr, const uint64_t *a)
{
	uint64_t mask;
	const int own = lx_signal_call_mask(p, nr, a, &mask);

	if (!own)
		mask = lx_cur(p)->blocked;
	const int64_t t = lx_poll_timeout(p, nr, a);
	if (!wakes(p, mask) || nr == 35 || nr == 230 || (nr == 128 && t != -1) || t == -2 ||
	    !lx_block_waits(p, nr, a))
		return -1;
	switch (wake(p, c, nr, a, t < 0 ? -1 : lx_wait_deadline(p, c, -1, t))) {
	case 1:
		if (own)
			lx_signal_wait_mask(p, nr, a); /* its handler runs under the call's mask */
		return 1;
	case -2:
		return 0;
	default:
		/* (no end by its deadline: it times out as made, what is
		 * held staying so) */
		return t >= 0 && !lx_signal_pending(p) ? 0 : -1;
	}
}

int lx_wake_sleep(struct lx_proc *p, const struct x86_cpu *c, int64_t d)
{
	return wakes(p, lx_cur(p)->blocked) && wake(p, c, -1, NULL, d) == 1;
}

/* The first child (or report kept for later) that ended by clock now
 * whose SIGCHLD the parent has not had: 1 with its pid, end and siginfo,
 * else 0. */
static int due(struct lx_proc *p, int64_t now, int *pid, siginfo_t *si)
{
	int64_t end = 0;
	int k = first_end(p, 0, now, now, &end), kept = first_kept(p, now);

	if (kept >= 0 && (p->stash[kept].end > now || (k >= 0 && end < p->stash[kept].end)))
		kept = -1;
	if (kept >= 0) {
		*pid = p->stash[kept].pid;
		*si = lx_child_end(*pid, p->stash[kept].status);
		return 1;
	}
	if (k < 0 || !gone(p->kids[k].pid, si))
		return 0;
	*pid = si->si_pid;
	return 1;
}

void lx_wake_look(struct lx_proc *p, const struct x86_cpu *c)
{
	const uint64_t m = LX_SIGBIT(SIGCHLD);
	const int64_t clock = lx_wait_now(p, c);
	uint64_t old;
	siginfo_t si;
	int pid;

	if (!wakes(p, lx_cur(p)->blocked))
		return;
	/* the host's SIGCHLD waits meanwhile: hold.c takes it after */
	lx_host_syscall(14, SIG_BLOCK, (long)&m, (long)&old, 8, 0, 0);
	lx_reap_settle(p, clock, p->nkids, 0);
	if (due(p, clock, &pid, &si)) {
		lx_vtime_child_info(p, &si);
		lx_hold_pend(p, pid, &si);
	}
	lx_host_syscall(14, SIG_SETMASK, (long)&old, 0, 8, 0, 0);
}

uint64_t lx_wake_due(struct lx_proc *p, const struct x86_cpu *c)
{
	const uint64_t now = c->cnt->insns;

	if (now >= p->wake_at) {
		lx_wake_look(p, c);
		p->wake_at = (now / WAKE_EVERY + 1) * WAKE_EVERY;
	}
	return p->wake_at - now;
}
