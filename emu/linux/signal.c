/* signal.c — the guest's signals: dispositions, masks, pending sets,
 * sigaltstack, and the host handlers that feed them.
 *
 * Model: the guest's sigaction table lives here.  The host disposition
 * mirrors it where that is exact (SIG_IGN stays SIG_IGN, so the kernel's
 * own semantics — SIGCHLD auto-reaping, SIGPIPE-less EPIPE — hold, and it
 * is inherited across exec; default-ignore and stop signals keep SIG_DFL);
 * every other catchable signal gets vpmu's handler.  The host signal mask
 * is the running guest thread's mask (so signalfd, sigwaitinfo and
 * sigsuspend work unchanged), except that the synchronous fault signals
 * are never blocked on the host: a guest fault must always reach vpmu.
 *
 * An asynchronous signal is queued by the handler and c->stop set, so
 * x86_run() returns at the next block boundary and the signal is delivered
 * there (sigframe.c builds the frame).  A blocking syscall it interrupts
 * returns EINTR and is restarted or not by the kernel's rules.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "lx_proc.h"

/* The process the host handlers serve: a signal handler has no other way
 * to reach it, and there is one guest process per host process. */
static struct lx_proc *lx_sig_proc;

#define FAULT_SIGS                                                                        \
	(LX_SIGBIT(SIGSEGV) | LX_SIGBIT(SIGBUS) | LX_SIGBIT(SIGFPE) | LX_SIGBIT(SIGILL) | \
	 LX_SIGBIT(SIGTRAP))
#define UNBLOCKABLE (LX_SIGBIT(SIGKILL) | LX_SIGBIT(SIGSTOP))
#define DFL_IGNORE \
	(LX_SIGBIT(SIGCHLD) | LX_SIGBIT(SIGURG) | LX_SIGBIT(SIGWINCH) | LX_SIGBIT(SIGCONT))
#define DFL_STOP (LX_SIGBIT(SIGSTOP) | LX_SIGBIT(SIGTSTP) | LX_SIGBIT(SIGTTIN) | LX_SIGBIT(SIGTTOU))
#define SYNC_FIRST                                                                         \
	(LX_SIGBIT(SIGSEGV) | LX_SIGBIT(SIGBUS) | LX_SIGBIT(SIGILL) | LX_SIGBIT(SIGTRAP) | \
	 LX_SIGBIT(SIGFPE) | LX_SIGBIT(SIGSYS))

/* sa_restorer for vpmu's own handlers (the kernel requires one on x86-64) */
void lx_host_restorer(void);
__asm__(".text\n"
	".type lx_host_restorer, @function\n"
	"lx_host_restorer:\n"
	"\tmov $15, %eax\n"
	"\tsyscall\n"
	"\thlt\n"
	".size lx_host_restorer, .-lx_host_restorer\n");

/* Raw calls: glibc's wrappers hide signals 32 and 33, which the guest's own
 * glibc uses and vpmu (single-threaded) does not. */
static long host_sigaction(int sig, const struct lx_sigaction *act, struct lx_sigaction *old)
{
	return lx_host_syscall(13, sig, (long)act, (long)old, 8, 0, 0);
}

static long host_sigmask(int how, const uint64_t *set, uint64_t *old)
{
	return lx_host_syscall(14, how, (long)set, (long)old, 8, 0, 0);
}

void lx_signal_sync_mask(struct lx_proc *p)
{
	uint64_t m = lx_cur(p)->blocked & ~FAULT_SIGS;

	host_sigmask(SIG_SETMASK, &m, NULL);
}

void lx_signal_idle_mask(struct lx_proc *p)
{
	uint64_t m = ~0ull;

	for (int i = 0; i < p->nth; i++)
		if (p->th[i]->state != LX_T_DEAD)
			m &= p->th[i]->blocked;
	m &= ~FAULT_SIGS;
	host_sigmask(SIG_SETMASK, &m, NULL);
}

_Noreturn void lx_die(struct lx_proc *p, int sig)
{
	struct rlimit no_core = { 0, 0 };
	struct lx_sigaction dfl = { (uint64_t)SIG_DFL, 0, 0, 0 };
	uint64_t m = LX_SIGBIT(sig);

	lx_timing_flush(p);
	lx_vtime_publish(p, &lx_cur(p)->cpu, -1);
	if (p->slot) {
		p->slot->status = sig;
		p->slot->state = LX_SLOT_KILLED;
	}
	/* vpmu's core file would only mislead */
	setrlimit(RLIMIT_CORE, &no_core);
	host_sigaction(sig, &dfl, NULL);
	host_sigmask(SIG_UNBLOCK, &m, NULL);
	lx_host_syscall(234, p->pid, lx_host_syscall(186, 0, 0, 0, 0, 0, 0), sig, 0, 0, 0);
	_exit(128 + sig);
}

static int dfl_terminates(int sig)
{
	return !(LX_SIGBIT(sig) & (DFL_IGNORE | DFL_STOP));
}

static void on_host_signal(int sig, siginfo_t *si, void *uc)
{
	struct lx_proc *p = lx_sig_proc;
	int saved = errno;

	if ((LX_SIGBIT(sig) & FAULT_SIGS) && si->si_code > 0) {
		/* synchronous: raised by an instruction */
		struct x86_cpu *c = &lx_cur(p)->cpu;

		if (sig == SIGSEGV && si->si_code == SEGV_ACCERR &&
		    lx_code_write_fault(p, (uint64_t)si->si_addr))
			return;
		if (p->guard)
			siglongjmp(p->guard_jb, 1);
		if (x86_in_guest(c))
			x86_host_fault(c, sig, si->si_code, (uint64_t)si->si_addr);
		/* a fault of vpmu itself: let it take the process down */
		struct lx_sigaction dfl = { (uint64_t)SIG_DFL, 0, 0, 0 };
		host_sigaction(sig, &dfl, NULL);
		return;
	}
	if (lx_itimer_host_signal(p, sig, si, uc) || lx_limit_signal(p, sig, si)) {
		errno = saved;
		return;
	}
	if (p->act[sig].handler == (uint64_t)SIG_IGN)
		return;
	if (p->act[sig].handler == (uint64_t)SIG_DFL) {
		if (dfl_terminates(sig))
			lx_die(p, sig);
		return;
	}
	siginfo_t info = *si;

	lx_vtime_child_info(p, &info);
	if (!lx_hold_take(p, sig, &info, uc)) {
		p->pend.info[sig] = info;
		__atomic_or_fetch(&p->pend.set, LX_SIGBIT(sig), __ATOMIC_SEQ_CST);
		lx_cur(p)->cpu.stop = 1;
	}
	errno = saved;
}

/* Set the host disposition that stands for the guest's. */
static void host_disposition(struct lx_proc *p, int sig)
{
	struct lx_sigaction ha = { 0 };
	uint64_t h = p->act[sig].handler;

	if (sig == SIGKILL || sig == SIGSTOP)
		return;
	if (LX_SIGBIT(sig) & FAULT_SIGS) {
		ha.handler = (uint64_t)on_host_signal;
		ha.flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK | SA_RESTORER;
	} else if (h == (uint64_t)SIG_IGN) {
		ha.handler = (uint64_t)SIG_IGN;
	} else if (h == (uint64_t)SIG_DFL && !dfl_terminates(sig)) {
		ha.handler = (uint64_t)SIG_DFL;
	} else {
		ha.handler = (uint64_t)on_host_signal;
		ha.flags = SA_SIGINFO | SA_ONSTACK | SA_RESTORER;
		ha.mask = ~FAULT_SIGS;
	}
	ha.restorer = (uint64_t)lx_host_restorer;
	host_sigaction(sig, &ha, NULL);
}

void lx_signal_init(struct lx_proc *p)
{
	static char altstack[64 * 1024]; /* the host handlers' stack */
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack), .ss_flags = 0 };
	uint64_t mask = 0;

	lx_sig_proc = p;
	sigaltstack(&ss, NULL);
	host_sigmask(SIG_BLOCK, NULL, &mask);
	lx_cur(p)->blocked = mask & ~UNBLOCKABLE;
	for (int sig = 1; sig <= LX_NSIG; sig++) {
		struct lx_sigaction old = { 0 };

		/* dispositions a new program inherits: SIG_IGN stays (execve(2)) */
		if (sig != SIGKILL && sig != SIGSTOP && host_sigaction(sig, NULL, &old) == 0 &&
		    old.handler == (uint64_t)SIG_IGN)
			p->act[sig].handler = (uint64_t)SIG_IGN;
		host_disposition(p, sig);
	}
	lx_signal_sync_mask(p);
}

long lx_sys_rt_sigaction(struct lx_proc *p, int sig, uint64_t act, uint64_t oact, uint64_t sz)
{
	struct lx_sigaction na;

	if (sz != 8)
		return -EINVAL;
	if (sig < 1 || sig > LX_NSIG || (act && (sig == SIGKILL || sig == SIGSTOP)))
		return -EINVAL;
	if (act && lx_copy_in(p, &na, act, sizeof(na)))
		return -EFAULT;
	if (oact && lx_copy_out(p, oact, &p->act[sig], sizeof(na)))
		return -EFAULT;
	if (act) {
		na.mask &= ~UNBLOCKABLE;
		p->act[sig] = na;
		host_disposition(p, sig);
		if (na.handler == (uint64_t)SIG_IGN ||
		    (na.handler == (uint64_t)SIG_DFL && (LX_SIGBIT(sig) & DFL_IGNORE))) {
			/* discarded when they become ignored (kernel/signal.c) */
			__atomic_and_fetch(&p->pend.set, ~LX_SIGBIT(sig), __ATOMIC_SEQ_CST);
			if (sig == SIGCHLD) {
				p->held = 0;
				p->nheld = 0;
			}
			for (int i = 0; i < p->nth; i++)
				p->th[i]->pend.set &= ~LX_SIGBIT(sig);
		}
	}
	return 0;
}

long lx_sys_rt_sigprocmask(struct lx_proc *p, int how, uint64_t set, uint64_t oset, uint64_t sz)
{
	struct lx_thread *t = lx_cur(p);
	uint64_t ns, old = t->blocked;

	if (sz != 8)
		return -EINVAL;
	if (set) {
		if (lx_copy_in(p, &ns, set, 8))
			return -EFAULT;
		switch (how) {
		case SIG_BLOCK:
			t->blocked |= ns;
			break;
		case SIG_UNBLOCK:
			t->blocked &= ~ns;
			break;
		case SIG_SETMASK:
			t->blocked = ns;
			break;
		default:
			return -EINVAL;
		}
		t->blocked &= ~UNBLOCKABLE;
	}
	if (oset && lx_copy_out(p, oset, &old, 8))
		return -EFAULT;
	if (set && t->blocked != old)
		lx_signal_sync_mask(p);
	return 0;
}

long lx_sys_rt_sigpending(struct lx_proc *p, uint64_t set, uint64_t sz)
{
	struct lx_thread *t = lx_cur(p);
	uint64_t host = 0, all;

	if (sz > 8)
		return -EINVAL;
	lx_host_syscall(127, (long)&host, 8, 0, 0, 0, 0);
	all = (host | p->pend.set | p->held | t->pend.set) & t->blocked;
	return lx_copy_out(p, set, &all, sz) ? -EFAULT : 0;
}

/* Deliverable signals of the current thread. */
static uint64_t deliverable(struct lx_proc *p, struct lx_thread *t)
{
	return (p->pend.set | t->pend.set) & ~t->blocked;
}

/* A stop request of the run's limits counts as pending: every wait of the
 * Linux layer ends on it, and lx_signal_deliver ends the process. */
int lx_signal_pending(struct lx_proc *p)
{
	return deliverable(p, lx_cur(p)) != 0 || lx_limit_stopping(p);
}

long lx_sys_rt_sigsuspend(struct lx_proc *p, uint64_t set, uint64_t sz)
{
	struct lx_thread *t = lx_cur(p);
	uint64_t ns, hm;

	if (sz != 8)
		return -EINVAL;
	if (lx_copy_in(p, &ns, set, 8))
		return -EFAULT;
	t->saved_mask = t->blocked;
	t->restore_mask = 1;
	t->blocked = ns & ~UNBLOCKABLE;
	hm = t->blocked & ~FAULT_SIGS;
	/* the host's wait takes the mask atomically, so a signal cannot slip
	 * in between the check and the wait; its handler queues it */
	if (!lx_wake_sigchld(p, &t->cpu, t->blocked))
		lx_hold_suspend(p, &t->cpu, hm);
	return -EINTR;
}

int lx_signal_call_mask(struct lx_proc *p, long nr, const uint64_t *a, uint64_t *m)
{
	uint64_t set = 0, sz = 0;
	struct {
		uint64_t set, sz;
	} ps;

	switch (nr) {
	case 270: /* pselect6(n, r, w, x, ts, {set, size}) */
		if (!a[5] || lx_copy_in(p, &ps, a[5], sizeof(ps)))
			return 0;
		set = ps.set;
		sz = ps.sz;
		break;
	case 271: /* ppoll(fds, n, ts, set, size) */
		set = a[3];
		sz = a[4];
		break;
	case 281: /* epoll_pwait(fd, ev, n, ms, set, size) */
	case 441: /* epoll_pwait2(fd, ev, n, ts, set, size) */
		set = a[4];
		sz = a[5];
		break;
	}
	if (!set || sz != 8 || lx_copy_in(p, m, set, 8))
		return 0;
	*m &= ~UNBLOCKABLE;
	return 1;
}

int lx_signal_wait_mask(struct lx_proc *p, long nr, const uint64_t *a)
{
	struct lx_thread *t = lx_cur(p);
	uint64_t m;

	if (!lx_signal_call_mask(p, nr, a, &m))
		return 0;
	if (!((p->pend.set | t->pend.set) & ~m))
		return 0;
	if (t->restore_mask)
		return 1; /* swapped in already */
	t->saved_mask = t->blocked;
	t->restore_mask = 1;
	t->blocked = m;
	return 1;
}

/* Take the lowest pending signal of set for thread t (synchronous ones
 * first, as kernel/signal.c next_signal does); 0 when none. */
static int dequeue(struct lx_proc *p, struct lx_thread *t, uint64_t set, siginfo_t *si)
{
	uint64_t tp = t->pend.set & set, pp = p->pend.set & set, any = tp | pp;
	int sig;

	if (!any)
		return 0;
	if (any & SYNC_FIRST)
		any &= SYNC_FIRST;
	sig = __builtin_ctzll(any) + 1;
	if (tp & LX_SIGBIT(sig)) {
		*si = t->pend.info[sig];
		t->pend.set &= ~LX_SIGBIT(sig);
	} else {
		*si = p->pend.info[sig];
		__atomic_and_fetch(&p->pend.set, ~LX_SIGBIT(sig), __ATOMIC_SEQ_CST);
	}
	return sig;
}

long lx_sys_rt_sigtimedwait(struct lx_proc *p, uint64_t set, uint64_t info, uint64_t sz)
{
	struct lx_thread *t = lx_cur(p);
	uint64_t s;
	siginfo_t si;
	int sig;

	if (sz != 8)
		return -EINVAL;
	if (lx_copy_in(p, &s, set, 8))
		return -EFAULT;
	sig = dequeue(p, t, s, &si);
	if (!sig)
		return 0; /* the host's mask mirrors the guest's: the call waits there */
	t->io_waiting = 0;
	if (info && lx_copy_out(p, info, &si, sizeof(si)))
		return -EFAULT;
	return sig;
}

static int on_altstack(const struct lx_thread *t, uint64_t sp)
{
	return t->ss_size && sp - t->ss_sp <= t->ss_size;
}

long lx_sys_sigaltstack(struct lx_proc *p, uint64_t ss, uint64_t oss)
{
	struct lx_thread *t = lx_cur(p);
	stack_t n, o;
	int on = on_altstack(t, t->cpu.r[X86_RSP]);

	memset(&o, 0, sizeof(o));
	o.ss_sp = (void *)t->ss_sp;
	o.ss_size = t->ss_size;
	o.ss_flags = on ? SS_ONSTACK : t->ss_size ? (t->ss_flags & SS_AUTODISARM) : SS_DISABLE;
	if (ss) {
		if (lx_copy_in(p, &n, ss, sizeof(n)))
			return -EFAULT;
		if (on)
			return -EPERM;
		int mode = n.ss_flags & ~SS_AUTODISARM;

		if (mode != SS_DISABLE && mode != SS_ONSTACK && mode != 0)
			return -EINVAL;
		if (mode == SS_DISABLE) {
			t->ss_sp = 0;
			t->ss_size = 0;
			t->ss_flags = SS_DISABLE;
		} else {
			if (n.ss_size < LX_MINSIGSTKSZ)
				return -ENOMEM;
			t->ss_sp = (uint64_t)n.ss_sp;
			t->ss_size = n.ss_size;
			t->ss_flags = n.ss_flags & SS_AUTODISARM;
		}
	}
	if (oss && lx_copy_out(p, oss, &o, sizeof(o)))
		return -EFAULT;
	return 0;
}

static void queue_thread(struct lx_thread *t, int sig, int code, int pid)
{
	siginfo_t *si = &t->pend.info[sig];

	memset(si, 0, sizeof(*si));
	si->si_signo = sig;
	si->si_code = code;
	si->si_pid = pid;
	si->si_uid = getuid();
	t->pend.set |= LX_SIGBIT(sig);
}

/* Whether sig, sent now, would be dropped: ignored, explicitly or by default. */
static int ignored(const struct lx_proc *p, int sig)
{
	return p->act[sig].handler == (uint64_t)SIG_IGN ||
	       (p->act[sig].handler == (uint64_t)SIG_DFL && (LX_SIGBIT(sig) & DFL_IGNORE));
}

/* A signal queued for thread t interrupts a futex wait or sleep it does
 * not block; a call to try again is tried again. */
static void wake(struct lx_thread *t, int sig)
{
	if (t->state == LX_T_RUN || (t->blocked & LX_SIGBIT(sig)))
		return;
	if (t->state != LX_T_IO)
		t->cpu.r[X86_RAX] = (uint64_t)-EINTR;
	t->state = LX_T_RUN;
	lx_timing_resume(t->p, t); /* (at the sender's clock) */
}

static struct lx_thread *thread_of(struct lx_proc *p, int tid)
{
	for (int i = 0; i < p->nth; i++)
		if (p->th[i]->tid == tid && p->th[i]->state != LX_T_DEAD)
			return p->th[i];
	return NULL;
}

long lx_sys_tgkill(struct lx_proc *p, int tgid, int tid, int sig)
{
	struct lx_thread *t;

	if (sig < 0 || sig > LX_NSIG || tid <= 0)
		return -EINVAL;
	if (tgid != -1 && tgid != p->pid)
		return lx_host_syscall(234, tgid, tid, sig, 0, 0, 0);
	if (!(t = thread_of(p, tid)))
		return tgid == -1 ? lx_host_syscall(200, tid, sig, 0, 0, 0, 0) : -ESRCH;
	if (!sig || ignored(p, sig))
		return 0;
	if (sig == SIGKILL || sig == SIGSTOP)
		return lx_host_syscall(62, p->pid, sig, 0, 0, 0, 0);
	queue_thread(t, sig, SI_TKILL, p->pid);
	wake(t, sig);
	return 0;
}

int lx_signal_queue(struct lx_proc *p, int tid, const siginfo_t *si, siginfo_t **pending)
{
	int sig = si->si_signo;
	struct lx_thread *t = tid ? thread_of(p, tid) : NULL;
	struct lx_sigq *q = t ? &t->pend : &p->pend;

	if ((tid && !t) || ignored(p, sig))
		return -1;
	if (q->set & LX_SIGBIT(sig)) {
		*pending = &q->info[sig];
		return 0;
	}
	q->info[sig] = *si;
	__atomic_or_fetch(&q->set, LX_SIGBIT(sig), __ATOMIC_SEQ_CST);
	if (t)
		wake(t, sig);
	lx_cur(p)->cpu.stop = 1;
	return 1;
}

/* Whether a syscall returning EINTR comes back after a handler with
 * SA_RESTART (signal(7): these never do). */
static int restartable(long nr)
{
	switch (nr) {
	case 7:	  /* poll */
	case 23:  /* select */
	case 34:  /* pause */
	case 35:  /* nanosleep */
	case 128: /* rt_sigtimedwait */
	case 130: /* rt_sigsuspend */
	case 208: /* io_getevents */
	case 220: /* semtimedop */
	case 230: /* clock_nanosleep */
	case 232: /* epoll_wait */
	case 270: /* pselect6 */
	case 271: /* ppoll */
	case 281: /* epoll_pwait */
	case 441: /* epoll_pwait2 */
		return 0;
	}
	return 1;
}

long lx_signal_eintr(struct lx_proc *p, long nr, long res)
{
	struct lx_thread *t = lx_cur(p);
	uint64_t d = deliverable(p, t);

	if (res != -EINTR)
		return res;
	/* nothing to run a handler for: restart, as for an ignored signal */
	if (!d)
		return 1;
	int sig = __builtin_ctzll(d & SYNC_FIRST ? d & SYNC_FIRST : d) + 1;
	if ((p->act[sig].flags & SA_RESTART) && restartable(nr))
		return 1;
	return 0;
}

void lx_signal_deliver(struct lx_proc *p)
{
	struct lx_thread *t = lx_cur(p);
	siginfo_t si;
	int sig;

	if (lx_limit_stopping(p))
		lx_limit_end(p);
	while ((sig = dequeue(p, t, ~t->blocked, &si))) {
		struct lx_sigaction *a = &p->act[sig];

		if (a->handler == (uint64_t)SIG_IGN)
			continue;
		if (a->handler == (uint64_t)SIG_DFL) {
			if (LX_SIGBIT(sig) & DFL_IGNORE)
				continue;
			if (LX_SIGBIT(sig) & DFL_STOP) {
				lx_host_syscall(62, p->pid, SIGSTOP, 0, 0, 0, 0);
				continue;
			}
			lx_die(p, sig);
		}
		if (lx_frame_setup(p, t, sig, &si) < 0)
			lx_die(p, SIGSEGV); /* no room for the frame: force_sigsegv */
		if (a->flags & SA_RESETHAND) {
			a->handler = (uint64_t)SIG_DFL;
			host_disposition(p, sig);
		}
	}
	if (t->restore_mask) {
		/* sigsuspend woken by a signal that ran no handler */
		t->blocked = t->saved_mask;
		t->restore_mask = 0;
	}
	lx_signal_sync_mask(p);
}

void lx_signal_fault(struct lx_proc *p)
{
	struct lx_thread *t = lx_cur(p);
	struct x86_fault *f = &t->cpu.fault;
	int sig = f->sig;
	struct lx_sigaction *a = &p->act[sig];
	siginfo_t si;

	t->cpu.rip = f->pc;
	memset(&si, 0, sizeof(si));
	si.si_signo = sig;
	si.si_code = f->code;
	si.si_addr = (void *)f->addr;
	/* force_sig_fault: a blocked or ignored fault kills */
	if ((t->blocked & LX_SIGBIT(sig)) || a->handler == (uint64_t)SIG_IGN ||
	    a->handler == (uint64_t)SIG_DFL) {
		if (p->slot)
			p->slot->fault = *f;
		lx_die(p, sig);
	}
	if (sig == SIGTRAP && f->pc != t->cpu.rip)
		t->cpu.rip = f->pc; /* unreachable: traps resume after */
	if (lx_frame_setup(p, t, sig, &si) < 0) {
		if (p->slot)
			p->slot->fault = *f;
		lx_die(p, SIGSEGV);
	}
	if (a->flags & SA_RESETHAND) {
		a->handler = (uint64_t)SIG_DFL;
		host_disposition(p, sig);
	}
	lx_signal_sync_mask(p);
}
