/* hold.c — a child's SIGCHLD held back to a point of the parent's own
 * progress, so that where its handler runs does not depend on how the
 * host scheduled the two processes.
 *
 * A shell that forks and then waits gets the child's SIGCHLD during its
 * wait4 on an idle host (the handler runs after the call), and before
 * the wait4 on a busy one: the same instructions in another order, and
 * other counts.  While the process has one thread, a SIGCHLD the kernel
 * sent (si_code > 0) that does not interrupt a wait is held, and made
 * pending
 *   - a child's, when the wait4 or waitid that reaps that child returns
 *     (one the guest blocks, which the host keeps, is taken then:
 *     take_blocked()); a child whose SIGCHLD the host never sent (two
 *     ends in a row make one signal) gets one made from the wait's
 *     report, so that every child reaped sends one, however close
 *     together the children ended;
 *   - all, after a wait that reaped none;
 *   - when a call would wait (for a child, a descriptor, a signal or
 *     time): the call is interrupted at once, as if the signal had come
 *     during it (making it first and delivering the signal before would
 *     lose the wake-up of `while (!flag) pause();`);
 *   - after a call that came back with -EINTR;
 *   - when a second thread starts;
 *   - after LX_HOLD_INSNS instructions without any of these (a program
 *     that spins on a flag its handler sets).
 * signal(7) sets no bound on when a signal is delivered: this is one of
 * the orders Linux may give.
 * Where the emulated clock orders the children's ends (wake.c,
 * lx_wake_virtual()), the host's SIGCHLD for an end is held even when it
 * ends a wait; a wait for a signal or a child neither releases what is
 * held nor is cut short by it, another wait that SIGCHLD can end ends at
 * the next end, if that comes before its timeout (lx_wake_call(),
 * lx_wake_sleep()), a wait that reaped none releases nothing,
 * and a child reaped gets its SIGCHLD then unless the guest has had it
 * (lx_hold_given()); the host's for a child whose SIGCHLD the guest has
 * had is dropped; in place of the LX_HOLD_INSNS budget, wake.c looks for
 * ends every so many instructions.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "lx_proc.h"

#define LX_HOLD_INSNS (1ull << 24)

/* Whether si tells of a child's end. */
static int is_end(const siginfo_t *si)
{
	return si->si_code == CLD_EXITED || si->si_code == CLD_KILLED || si->si_code == CLD_DUMPED;
}

static int told(const struct lx_proc *p, int pid)
{
	for (unsigned k = 0; k < LX_HOLD_MAX; k++)
		if (p->told[k] == pid)
			return 1;
	return 0;
}

int lx_hold_given(const struct lx_proc *p, int pid)
{
	for (unsigned k = 0; pid > 0 && k < LX_HOLD_MAX; k++)
		if (p->given[k] == pid)
			return 1;
	return 0;
}

/* Remember that child pid's SIGCHLD was made pending before its reaping. */
static void give(struct lx_proc *p, int pid)
{
	unsigned k = 0;

	if (pid <= 0 || lx_hold_given(p, pid))
		return;
	while (k < LX_HOLD_MAX - 1 && p->given[k])
		k++;
	p->given[k] = pid; /* (with all in use, the last is forgotten) */
}

int lx_hold_take(struct lx_proc *p, int sig, const siginfo_t *si, const void *uc)
{
	const int end = sig == SIGCHLD && is_end(si) && si->si_pid > 0;

	if (end)
		p->told[p->ntold++ % LX_HOLD_MAX] = si->si_pid;
	if (end && lx_wake_virtual(p) && lx_hold_given(p, si->si_pid))
		return 1; /* the guest has had it */
	/* one that ends a wait comes as the kernel gives it: the call
	 * returns -EINTR (a call its own mask lets it through needs it
	 * pending at once); but where the emulated clock orders the ends
	 * (wake.c) it is held all the same, and the call's -EINTR releases
	 * it */
	if (sig != SIGCHLD || si->si_code <= 0 || p->nth != 1 ||
	    (lx_host_syscall_interrupted(uc) && !(end && lx_wake_virtual(p))))
		return 0;
	if (p->nheld < LX_HOLD_MAX)
		p->held_info[p->nheld++] = *si;
	p->held = LX_SIGBIT(SIGCHLD);
	lx_cur(p)->cpu.stop = 1; /* the main loop starts the count of lx_hold_budget */
	return 1;
}

/* SIGCHLD with info si pending (one already pending stays: a signal of
 * the standard set is not queued twice). */
static void make_pending(struct lx_proc *p, const siginfo_t *si)
{
	uint64_t m = LX_SIGBIT(SIGCHLD);

	if (!(p->pend.set & m)) {
		p->pend.info[SIGCHLD] = *si;
		__atomic_or_fetch(&p->pend.set, m, __ATOMIC_SEQ_CST);
	}
	lx_cur(p)->cpu.stop = 1;
}

/* The host's SIGCHLD blocked around fn(p, pid, si) (its handler writes
 * what is held). */
static void blocked(struct lx_proc *p, void (*fn)(struct lx_proc *, int, const siginfo_t *),
		    int pid, const siginfo_t *si)
{
	uint64_t m = LX_SIGBIT(SIGCHLD), old;

	lx_host_syscall(14, SIG_BLOCK, (long)&m, (long)&old, 8, 0, 0);
	fn(p, pid, si);
	if (!p->nheld) {
		p->held = 0;
		p->held_seen = 0;
	}
	lx_host_syscall(14, SIG_SETMASK, (long)&old, 0, 8, 0, 0);
}

/* Child pid's SIGCHLDs held no longer. */
static void unhold(struct lx_proc *p, int pid)
{
	int n = 0;

	for (int k = 0; k < p->nheld; k++)
		if (p->held_info[k].si_pid != pid)
			p->held_info[n++] = p->held_info[k];
	p->nheld = n;
	if (!n) {
		p->held = 0;
		p->held_seen = 0;
	}
}

void lx_hold_pend(struct lx_proc *p, int pid, const siginfo_t *si)
{
	unhold(p, pid);
	give(p, pid);
	make_pending(p, si);
}

static void release_all(struct lx_proc *p, int pid, const siginfo_t *si)
{
	(void)pid;
	(void)si;
	make_pending(p, &p->held_info[0]);
	for (int k = 0; lx_wake_virtual(p) && k < p->nheld; k++)
		give(p, p->held_info[k].si_pid);
	p->nheld = 0;
}

int lx_hold_release(struct lx_proc *p)
{
	if (!p->held)
		return 0;
	blocked(p, release_all, 0, NULL);
	return 1;
}

void lx_hold_suspend(struct lx_proc *p, struct x86_cpu *c, uint64_t mask)
{
	uint64_t m = LX_SIGBIT(SIGCHLD), old;

	/* (blocked between the look at what is held and the wait, which
	 * takes mask atomically: none comes unseen in between) */
	lx_host_syscall(14, SIG_BLOCK, (long)&m, (long)&old, 8, 0, 0);
	while (!lx_signal_pending(p))
		if (!lx_hold_release(p))
			lx_itimer_suspend(p, c, mask);
	lx_host_syscall(14, SIG_SETMASK, (long)&old, 0, 8, 0, 0);
}

/* Child pid was reaped (si: its end as the wait reported it): its SIGCHLD
 * pending, the held one, or si if the host never sent one. */
static void release_child(struct lx_proc *p, int pid, const siginfo_t *si)
{
	siginfo_t info = *si;
	int k, n = 0, found = 0, given = 0;

	for (k = 0; k < LX_HOLD_MAX; k++)
		if (p->given[k] == pid) {
			p->given[k] = 0;
			given = 1;
		}
	for (k = 0; k < p->nheld; k++) {
		if (p->held_info[k].si_pid != pid)
			p->held_info[n++] = p->held_info[k];
		else if (!found++)
			info = p->held_info[k];
	}
	p->nheld = n;
	/* (where the emulated clock orders the ends, every child reaped
	 * whose SIGCHLD the guest has not had gets it now, sent or not) */
	if (!given && (found || !told(p, pid) || lx_wake_virtual(p)))
		make_pending(p, &info);
	for (k = 0; k < LX_HOLD_MAX; k++)
		if (p->told[k] == pid)
			p->told[k] = 0;
}

/* Whether call nr gives SIGCHLD by the emulated clock, not when the
 * host's came: a wait for a signal lasts until the next end
 * (lx_wake_sigchld()), a sleep until the next end before its own
 * (lx_wake_sleep()), a wait for a child gives its SIGCHLD when it reaps
 * it. */
static int by_clock(const struct lx_proc *p, long nr)
{
	return (nr == 34 || nr == 130 || nr == 35 || nr == 230 || nr == 61 || nr == 247) &&
	       lx_wake_virtual(p);
}

int lx_hold_before(struct lx_proc *p, const struct x86_cpu *c, long nr)
{
	const uint64_t a[6] = { c->r[X86_RDI], c->r[X86_RSI], c->r[X86_RDX],
				c->r[X86_R10], c->r[X86_R8],  c->r[X86_R9] };
	int w;

	if (by_clock(p, nr))
		return 0;
	if (lx_wake_virtual(p) && (w = lx_wake_call(p, c, nr, a)) >= 0)
		return w;
	if (!p->held || !lx_block_waits(p, nr, a))
		return 0;
	lx_hold_release(p);
	switch (nr) {
	case 34:	  /* pause */
	case 128:	  /* rt_sigtimedwait */
	case 130:	  /* rt_sigsuspend */
		return 0; /* they look at what is pending themselves */
	case 270:	  /* pselect6 */
	case 271:	  /* ppoll */
	case 281:	  /* epoll_pwait */
	case 441:	  /* epoll_pwait2 */
		/* (a signal their own mask lets through comes under it) */
		return lx_signal_wait_mask(p, nr, a) || lx_signal_pending(p);
	default:
		return lx_signal_pending(p);
	}
}

/* A SIGCHLD the host keeps pending because the guest blocks it, taken
 * into held: a child a wait reaped has sent it already (kernel/exit.c
 * exit_notify signals the parent before the child becomes a zombie), so
 * it is pending in the guest from that wait on, not from the unblocking
 * that would let the host deliver it.  (Only with a handler of the
 * guest's, as one that reads SIGCHLD from a signalfd must find it.) */
static void take_blocked(struct lx_proc *p)
{
	uint64_t m = LX_SIGBIT(SIGCHLD);
	struct timespec zero = { 0, 0 };
	siginfo_t si;
	uint64_t h = p->act[SIGCHLD].handler;

	if (p->nth != 1 || !(lx_cur(p)->blocked & m) || h == (uint64_t)SIG_DFL ||
	    h == (uint64_t)SIG_IGN)
		return;
	if (lx_host_syscall(128, (long)&m, (long)&si, (long)&zero, 8, 0, 0) != SIGCHLD)
		return;
	lx_vtime_child_info(p, &si);
	if (is_end(&si) && si.si_pid > 0)
		p->told[p->ntold++ % LX_HOLD_MAX] = si.si_pid;
	if (p->nheld < LX_HOLD_MAX)
		p->held_info[p->nheld++] = si;
	p->held = m;
}

siginfo_t lx_child_end(int pid, int status)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	si.si_signo = SIGCHLD;
	si.si_pid = pid;
	si.si_uid = (uid_t)lx_host_syscall(102, 0, 0, 0, 0, 0, 0); /* getuid */
	si.si_code = WIFEXITED(status) ? CLD_EXITED : WCOREDUMP(status) ? CLD_DUMPED : CLD_KILLED;
	si.si_status = WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status);
	return si;
}

int lx_reaped(struct lx_proc *p, long nr, const uint64_t a[6], long r, int wst, siginfo_t *si)
{
	siginfo_t info;

	if (nr == 61 && r > 0) {
		if (!WIFEXITED(wst) && !WIFSIGNALED(wst))
			return 0;
		info = lx_child_end((int)r, wst);
	} else if (nr != 247 || r || !a[2] || (a[3] & WNOWAIT) ||
		   lx_copy_in(p, &info, a[2], sizeof(info)) || !is_end(&info)) {
		return 0;
	}
	if (si) {
		lx_vtime_child_info(p, &info);
		*si = info;
	}
	return info.si_pid;
}

void lx_hold_waited(struct lx_proc *p, long nr, const uint64_t a[6], long r, int wst)
{
	siginfo_t si;
	int pid;

	take_blocked(p);
	pid = lx_reaped(p, nr, a, r, wst, &si);
	if (pid > 0 && p->nth == 1)
		blocked(p, release_child, pid, &si);
	else if (p->held && !lx_wake_virtual(p)) /* (else hidden ends stay held) */
		lx_hold_release(p);
}

void lx_hold_after(struct lx_proc *p, long nr, long r)
{
	if (p->held && r == -EINTR && !by_clock(p, nr))
		lx_hold_release(p);
}

uint64_t lx_hold_budget(struct lx_proc *p, const struct x86_cpu *c)
{
	uint64_t now = c->cnt->insns + 1, ran;

	/* (where the clock orders the ends, lx_wake_due() looks for them) */
	if (!p->held || lx_wake_virtual(p))
		return UINT64_MAX;
	if (!p->held_seen)
		p->held_seen = now;
	ran = now - p->held_seen;
	if (ran < LX_HOLD_INSNS)
		return LX_HOLD_INSNS - ran;
	lx_hold_release(p);
	return UINT64_MAX;
}
