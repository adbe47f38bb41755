/* itimer.c — interval timers on the emulated clock, under --vtime:
 * setitimer, getitimer, alarm and the POSIX timers (timer_create and the
 * rest).  Without --vtime they are the host's.
 *
 * A timer on the wait clock (ITIMER_REAL; CLOCK_REALTIME, MONOTONIC,
 * BOOTTIME, TAI) runs while the process runs and while it waits; one on
 * the CPU clock (ITIMER_VIRTUAL, ITIMER_PROF; CLOCK_PROCESS_CPUTIME_ID)
 * only while it runs, one on a thread's (CLOCK_THREAD_CPUTIME_ID, a
 * pthread_getcpuclockid clock) only while that thread runs (vtime.c);
 * once the thread is gone it is disarmed, as the kernel's.  Running moves
 * both one ns per instruction, so the run loop gives x86_run at most the
 * instructions left to the next expiry (lx_itimer_budget()) and fires
 * what is due between blocks (lx_itimer_check()): a timer goes off at the
 * same instruction in every run.
 *
 * A wait on the host (a read, pause, a lone thread's sleep) does not move
 * the wait clock, so it must end at the next expiry on it: a lone
 * thread's sleep, futex wait, pause and sigsuspend wait on the host until
 * then at most (lx_itimer_until(), lx_itimer_suspend()), and any other
 * call the host makes has a host timer armed for the time left.  When the
 * wait reaches the expiry, the clock moves on to it and the timer fires,
 * interrupting the call as the kernel's timer would.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "lx_proc.h"

#define NS 1000000000ll
#define SIGEV_THREAD_ID_ 4 /* not in glibc's <signal.h> under that name */
#define HOST_AGAIN 20000   /* ns: the host's timer tries again to find the wait */

/* ITIMER_REAL, ITIMER_VIRTUAL, ITIMER_PROF: their signals (setitimer(2)) */
static const int itimer_sig[LX_NITIMER] = { SIGALRM, SIGVTALRM, SIGPROF };

/* Timer tm's clock now (ns); -1: its thread is gone. */
static int64_t clock_now(const struct lx_proc *p, const struct x86_cpu *c,
			 const struct lx_timer *tm)
{
	if (tm->ctid)
		return lx_vtime_thread_cpu(p, c, tm->ctid);
	return tm->cpu ? lx_vtime_cpu(p, c) : lx_wait_now(p, c);
}

/* Whether an expiry of tm does something: raise a signal, or count for
 * a timerfd. */
static int fires(const struct lx_timer *tm)
{
	return tm->sig || tm->tfd;
}

/* Whether any timer that fires is armed (the fast paths). */
static void recount(struct lx_proc *p)
{
	p->tm.armed = 0;
	for (int k = 0; k < LX_NTIMERS; k++)
		p->tm.armed |= p->tm.t[k].next >= 0 && fires(&p->tm.t[k]);
}

int64_t lx_itimer_next(const struct lx_proc *p)
{
	int64_t n = -1;

	for (int k = 0; p->tm.armed && k < LX_NTIMERS; k++) {
		const struct lx_timer *tm = &p->tm.t[k];
		if (tm->next >= 0 && fires(tm) && !tm->cpu && (n < 0 || tm->next < n))
			n = tm->next;
	}
	return n;
}

uint64_t lx_itimer_budget(const struct lx_proc *p, const struct x86_cpu *c)
{
	uint64_t b = UINT64_MAX;

	for (int k = 0; p->tm.armed && k < LX_NTIMERS; k++) {
		const struct lx_timer *tm = &p->tm.t[k];
		int64_t left;

		/* another thread's CPU clock stands while this one runs */
		if (tm->next < 0 || !fires(tm) ||
		    (tm->ctid && tm->ctid != ((const struct lx_thread *)c->os)->tid))
			continue;
		left = tm->next - clock_now(p, c, tm);
		if (left < 1)
			left = 1;
		if ((uint64_t)left < b)
			b = (uint64_t)left;
	}
	return b;
}

/* Timer k expired, its clock at now: raise its signal (a timerfd's:
 * add the expiries to its count, which the descriptor's eventfd keeps)
 * and arm it again for the first period still ahead (those it missed are
 * overruns). */
static void fire(struct lx_proc *p, int k, int64_t now)
{
	struct lx_timer *tm = &p->tm.t[k];
	int64_t missed = tm->interval ? (now - tm->next) / tm->interval : 0;
	siginfo_t si, *q;

	tm->next = tm->interval ? tm->next + (missed + 1) * tm->interval : -1;
	if (tm->tfd) {
		uint64_t n = (uint64_t)missed + 1;

		lx_host_syscall(1, tm->fd[0], (long)&n, sizeof(n), 0, 0, 0);
		recount(p);
		return;
	}
	memset(&si, 0, sizeof(si));
	si.si_signo = tm->sig;
	if (k < LX_NITIMER) {
		si.si_code = SI_KERNEL; /* the kernel's itimers send SEND_SIG_PRIV */
	} else {
		si.si_code = SI_TIMER;
		si.si_timerid = k - LX_NITIMER;
		si.si_overrun = (int)missed;
		si.si_value.sival_ptr = (void *)tm->value;
	}
	/* a signal still pending from the last expiry takes this one in */
	if (lx_signal_queue(p, tm->tid, &si, &q) == 0 && k >= LX_NITIMER &&
	    q->si_code == SI_TIMER && q->si_timerid == si.si_timerid)
		tm->overrun = q->si_overrun += 1 + (int)missed;
	else
		tm->overrun = (int)missed;
	recount(p);
}

int lx_itimer_check(struct lx_proc *p, const struct x86_cpu *c)
{
	int n = 0;

	for (int k = 0; p->tm.armed && k < LX_NTIMERS; k++) {
		struct lx_timer *tm = &p->tm.t[k];
		int64_t now;

		if (tm->next < 0 || !fires(tm))
			continue;
		now = clock_now(p, c, tm);
		if (now < 0)
			tm->next = -1; /* its thread is gone */
		else if (now >= tm->next)
			fire(p, k, now), n++;
	}
	return n;
}

/* ---- waits on the host ---------------------------------------------------- */

int64_t lx_itimer_until(const struct lx_proc *p, int64_t deadline)
{
	int64_t e = lx_itimer_next(p);

	return e >= 0 && (deadline < 0 || e < deadline) ? e : deadline;
}

void lx_itimer_suspend(struct lx_proc *p, const struct x86_cpu *c, uint64_t mask)
{
	int64_t until = lx_itimer_next(p), left;
	struct timespec ts;

	if (until < 0) {
		lx_host_syscall(130, (long)&mask, 8, 0, 0, 0, 0);
		return;
	}
	left = lx_wait_left(p, c, until);
	ts = (struct timespec){ left / NS, left % NS };
	if (lx_host_syscall(271, 0, 0, (long)&ts, (long)&mask, 8, 0) == 0) {
		lx_wait_done(p, c, until);
		lx_itimer_check(p, c);
	}
}

static long host_settime(int id, int64_t ns)
{
	struct itimerspec v = { { 0, 0 }, { ns / NS, ns % NS } };

	return lx_host_syscall(223, id, 0, (long)&v, 0, 0, 0);
}

void lx_itimer_host_arm(struct lx_proc *p, const struct x86_cpu *c)
{
	int64_t next = lx_itimer_next(p), left;

	if (next < 0)
		return;
	if (p->tm.host_id < 0) {
		/* LX_ITIMER_SIG to this thread: vpmu never blocks it */
		struct {
			uint64_t value;
			int signo, notify, tid, pad[11];
		} ev = { 0,
			 LX_ITIMER_SIG,
			 SIGEV_THREAD_ID_,
			 (int)lx_host_syscall(186, 0, 0, 0, 0, 0, 0),
			 { 0 } };
		int id;

		if (lx_host_syscall(222, CLOCK_MONOTONIC, (long)&ev, (long)&id, 0, 0, 0) < 0)
			return;
		p->tm.host_id = id;
	}
	left = next - lx_wait_now(p, c);
	p->tm.host_armed = 1;
	host_settime(p->tm.host_id, left > 0 ? left : 1);
}

void lx_itimer_host_disarm(struct lx_proc *p)
{
	if (!p->tm.host_armed)
		return;
	p->tm.host_armed = 0;
	host_settime(p->tm.host_id, 0);
}

int lx_itimer_host_signal(struct lx_proc *p, int sig, const siginfo_t *si, void *uc)
{
	const struct x86_cpu *c = &lx_cur(p)->cpu;
	int64_t next;

	if (sig != LX_ITIMER_SIG || si->si_code != SI_TIMER || p->tm.host_id < 0 ||
	    si->si_timerid != p->tm.host_id)
		return 0;
	if (!p->tm.host_armed)
		return 1; /* went off as it was disarmed */
	if (!lx_host_syscall_interrupted(uc)) {
		/* before the call began to wait, or after it ended: the
		 * expiry is the wait's only if the wait is still to come */
		host_settime(p->tm.host_id, HOST_AGAIN);
		return 1;
	}
	next = lx_itimer_next(p);
	if (next < 0)
		return 1;
	/* the host waited the time left: the clock stands at the expiry */
	lx_wait_done(p, c, next);
	lx_itimer_check(p, c);
	lx_itimer_host_arm(p, c); /* the next one, in case the wait goes on */
	return 1;
}

void lx_itimer_init(struct lx_proc *p)
{
	/* a forked child inherits no timer (fork(2)), nor the host's */
	for (int k = 0; k < LX_NTIMERS; k++)
		p->tm.t[k] = (struct lx_timer){ .next = -1 };
	p->tm.armed = 0;
	p->tm.host_id = -1;
	p->tm.host_armed = 0;
}

/* ---- the system calls ------------------------------------------------------ */

/* Timer tm's value and interval now (ns; value 0: disarmed). */
static void get(const struct lx_proc *p, const struct x86_cpu *c, struct lx_timer *tm,
		int64_t *value, int64_t *interval)
{
	int64_t now = clock_now(p, c, tm);

	if (now < 0)
		tm->next = -1; /* its thread is gone */
	if (tm->next >= 0 && !fires(tm) && now >= tm->next) {
		/* SIGEV_NONE fires nothing: its expiries pass as they come */
		tm->next = tm->interval ?
				   tm->next + ((now - tm->next) / tm->interval + 1) * tm->interval :
				   -1;
	}
	*interval = tm->interval;
	*value = tm->next < 0 ? 0 : tm->next > now ? tm->next - now : 1;
}

/* Arm tm to expire value ns from now (0: disarm), then every interval. */
static void set(struct lx_proc *p, const struct x86_cpu *c, struct lx_timer *tm, int64_t value,
		int64_t interval)
{
	tm->next = value ? clock_now(p, c, tm) + value : -1;
	tm->interval = value ? interval : 0;
	tm->overrun = 0;
	recount(p);
	lx_cur(p)->cpu.stop = 1; /* leave x86_run: its budget changes */
}

/* Arm setitimer's timer which (ITIMER_REAL, _VIRTUAL, _PROF). */
static void set_itimer(struct lx_proc *p, const struct x86_cpu *c, int which, int64_t value,
		       int64_t interval)
{
	p->tm.t[which].sig = itimer_sig[which];
	p->tm.t[which].cpu = which != ITIMER_REAL;
	set(p, c, &p->tm.t[which], value, interval);
}

static void to_timeval(int64_t ns, struct timeval *tv)
{
	tv->tv_sec = ns / NS;
	tv->tv_usec = ns % NS / 1000;
}

static int from_timeval(const struct timeval *tv, int64_t *ns)
{
	if (tv->tv_sec < 0 || tv->tv_usec < 0 || tv->tv_usec >= 1000000)
		return -EINVAL;
	*ns = tv->tv_sec * NS + tv->tv_usec * 1000;
	return 0;
}

static int from_timespec(const struct timespec *ts, int64_t *ns)
{
	if (ts->tv_sec < 0 || ts->tv_nsec < 0 || ts->tv_nsec >= NS)
		return -EINVAL;
	*ns = ts->tv_sec * NS + ts->tv_nsec;
	return 0;
}

static long sys_getitimer(struct lx_proc *p, const struct x86_cpu *c, long which, uint64_t cur)
{
	struct itimerval v;
	int64_t value, interval;

	if (which < 0 || which >= LX_NITIMER)
		return -EINVAL;
	get(p, c, &p->tm.t[which], &value, &interval);
	to_timeval(interval, &v.it_interval);
	to_timeval(value, &v.it_value);
	return lx_copy_out(p, cur, &v, sizeof(v)) ? -EFAULT : 0;
}

static long sys_setitimer(struct lx_proc *p, const struct x86_cpu *c, long which, uint64_t nv,
			  uint64_t ov)
{
	struct itimerval v = { { 0, 0 }, { 0, 0 } };
	int64_t value, interval;
	long r;

	if (which < 0 || which >= LX_NITIMER)
		return -EINVAL;
	if (nv && lx_copy_in(p, &v, nv, sizeof(v)))
		return -EFAULT;
	if (from_timeval(&v.it_value, &value) || from_timeval(&v.it_interval, &interval))
		return -EINVAL;
	if (ov && (r = sys_getitimer(p, c, which, ov)))
		return r;
	set_itimer(p, c, (int)which, value, interval);
	return 0;
}

static long sys_alarm(struct lx_proc *p, const struct x86_cpu *c, unsigned secs)
{
	struct lx_timer *tm = &p->tm.t[ITIMER_REAL];
	int64_t value, interval;
	long left;

	get(p, c, tm, &value, &interval);
	/* the seconds left, rounded as alarm_setitimer() rounds them */
	left = (long)(value / NS) + (value % NS >= 500000000 || (value && value < NS));
	set_itimer(p, c, ITIMER_REAL, (int64_t)secs * NS, 0);
	return left;
}

/* The POSIX timer with the guest's id, or NULL. */
static struct lx_timer *posix_timer(struct lx_proc *p, long id)
{
	if (id < 0 || id >= LX_NPOSIX || !p->tm.t[LX_NITIMER + id].used)
		return NULL;
	return &p->tm.t[LX_NITIMER + id];
}

static int has_thread(const struct lx_proc *p, int tid)
{
	for (int i = 0; i < p->nth; i++)
		if (p->th[i]->tid == tid && p->th[i]->state != LX_T_DEAD)
			return 1;
	return 0;
}

static long sys_timer_create(struct lx_proc *p, const struct x86_cpu *c, long clk, uint64_t sevp,
			     uint64_t idp)
{
	struct {
		uint64_t value;
		int signo, notify, tid;
	} ev;
	struct lx_timer tm = { .next = -1, .used = 1, .sig = SIGALRM };
	int k, id;

	switch (clk) {
	case CLOCK_REALTIME:
	case CLOCK_MONOTONIC:
	case CLOCK_BOOTTIME:
	case CLOCK_REALTIME_ALARM:
	case CLOCK_BOOTTIME_ALARM:
	case CLOCK_TAI:
		break;
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_MONOTONIC_COARSE:
		return -EOPNOTSUPP; /* clocks without timers */
	default:
		if (!lx_vtime_cpu_clock(p, clk))
			return -EINVAL;
		tm.cpu = 1;
		tm.ctid = lx_vtime_clock_tid(p, c, clk);
	}
	tm.wall = clk == CLOCK_REALTIME || clk == CLOCK_REALTIME_ALARM || clk == CLOCK_TAI;
	for (k = LX_NITIMER; k < LX_TIMERFD0 && p->tm.t[k].used; k++)
		;
	if (k == LX_TIMERFD0)
		return -EAGAIN;
	id = k - LX_NITIMER;
	tm.value = (uint64_t)id; /* no sigevent: SIGALRM with the id (timer_create(2)) */
	if (sevp) {
		if (lx_copy_in(p, &ev, sevp, sizeof(ev)))
			return -EFAULT;
		tm.value = ev.value;
		tm.sig = ev.signo;
		switch (ev.notify) {
		case SIGEV_NONE:
			tm.sig = 0;
			break;
		case SIGEV_THREAD_ID_:
			if (!has_thread(p, ev.tid))
				return -EINVAL;
			tm.tid = ev.tid;
			/* fall through */
		case SIGEV_SIGNAL:
		case SIGEV_THREAD: /* the kernel sends SIGEV_THREAD's signal too */
			if (ev.signo < 1 || ev.signo > LX_NSIG)
				return -EINVAL;
			break;
		default:
			return -EINVAL;
		}
	}
	if (lx_copy_out(p, idp, &id, sizeof(id)))
		return -EFAULT;
	p->tm.t[k] = tm;
	return 0;
}

void lx_itimer_value(struct lx_proc *p, const struct x86_cpu *c, struct lx_timer *tm,
		     struct itimerspec *v)
{
	int64_t value, interval;

	get(p, c, tm, &value, &interval);
	v->it_interval = (struct timespec){ interval / NS, interval % NS };
	v->it_value = (struct timespec){ value / NS, value % NS };
}

long lx_itimer_arm(struct lx_proc *p, const struct x86_cpu *c, struct lx_timer *tm,
		   const struct itimerspec *v, int abs, struct itimerspec *old)
{
	int64_t value, interval;

	if (from_timespec(&v->it_value, &value) || from_timespec(&v->it_interval, &interval))
		return -EINVAL;
	if (old)
		lx_itimer_value(p, c, tm, old);
	if (clock_now(p, c, tm) < 0)
		return -ESRCH; /* on the clock of a thread that is gone */
	if (value && abs) {
		/* a time on the timer's clock: how far ahead it lies */
		int64_t at = value - (tm->wall ? lx_clock_ns(p, c, CLOCK_REALTIME) -
							 lx_clock_ns(p, c, CLOCK_MONOTONIC) :
						 0);
		value = at > clock_now(p, c, tm) ? at - clock_now(p, c, tm) : 1;
	}
	set(p, c, tm, value, interval);
	return 0;
}

static long sys_timer_gettime(struct lx_proc *p, const struct x86_cpu *c, long id, uint64_t cur)
{
	struct lx_timer *tm = posix_timer(p, id);
	struct itimerspec v;

	if (!tm)
		return -EINVAL;
	lx_itimer_value(p, c, tm, &v);
	return lx_copy_out(p, cur, &v, sizeof(v)) ? -EFAULT : 0;
}

static long sys_timer_settime(struct lx_proc *p, const struct x86_cpu *c, long id, long flags,
			      uint64_t nv, uint64_t ov)
{
	struct lx_timer *tm = posix_timer(p, id);
	struct itimerspec v, old;
	long r;

	if (!tm)
		return -EINVAL;
	if (lx_copy_in(p, &v, nv, sizeof(v)))
		return -EFAULT;
	r = lx_itimer_arm(p, c, tm, &v, flags & TIMER_ABSTIME, &old);
	return r ? r : ov && lx_copy_out(p, ov, &old, sizeof(old)) ? -EFAULT : 0;
}

int lx_itimer_exec_arg(const struct lx_proc *p, const struct x86_cpu *c, char *buf, size_t size)
{
	int64_t v[LX_NITIMER][2];
	int any = 0;

	for (int k = 0; k < LX_NITIMER; k++) {
		struct lx_timer tm = p->tm.t[k];
		get(p, c, &tm, &v[k][0], &v[k][1]);
		any |= v[k][0] != 0;
	}
	snprintf(buf, size, "%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64,
		 v[0][0], v[0][1], v[1][0], v[1][1], v[2][0], v[2][1]);
	return any;
}

void lx_itimer_exec_set(struct lx_proc *p, const struct x86_cpu *c, const int64_t it[LX_NITIMER][2])
{
	for (int k = 0; k < LX_NITIMER; k++) {
		if (it[k][0] <= 0 || it[k][1] < 0)
			continue;
		set_itimer(p, c, k, it[k][0], it[k][1]);
	}
}

int lx_itimer_syscall(struct lx_proc *p, const struct x86_cpu *c, long nr, const uint64_t a[4],
		      long *ret)
{
	struct lx_timer *tm;

	switch (nr) {
	case 36:
		*ret = sys_getitimer(p, c, (long)(int)a[0], a[1]);
		return 1;
	case 37:
		*ret = sys_alarm(p, c, (unsigned)a[0]);
		return 1;
	case 38:
		*ret = sys_setitimer(p, c, (long)(int)a[0], a[1], a[2]);
		return 1;
	case 222:
		*ret = sys_timer_create(p, c, (long)(int)a[0], a[1], a[2]);
		return 1;
	case 223:
		*ret = sys_timer_settime(p, c, (long)(int)a[0], (long)(int)a[1], a[2], a[3]);
		return 1;
	case 224:
		*ret = sys_timer_gettime(p, c, (long)(int)a[0], a[1]);
		return 1;
	case 225:
		tm = posix_timer(p, (long)(int)a[0]);
		*ret = tm ? tm->overrun : -EINVAL;
		return 1;
	case 226:
		tm = posix_timer(p, (long)(int)a[0]);
		if (tm) {
			*tm = (struct lx_timer){ .next = -1 };
			recount(p);
		}
		*ret = tm ? 0 : -EINVAL;
		return 1;
	default:
		return 0;
	}
}
