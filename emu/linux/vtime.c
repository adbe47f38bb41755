/* vtime.c — the clocks a guest can read, under --vtime: all of them tell
 * emulated time, one nanosecond per retired instruction plus the time the
 * process spent in timed waits, so that a run which reads the time
 * repeats.  Without --vtime these calls reach the host.  (rdtsc is
 * emulated always: emu/x86/sys.c.)
 *
 * Timed waits keep their deadlines on the same clock (lx_wait_now()): a
 * wait ends when the process's other threads have run to its deadline,
 * or, with none left to run, when the host has waited the time left; the
 * clock then stands at the deadline.  A wait times out at the same point
 * of the run every time. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/times.h>
#include <time.h>

#include "lx_proc.h"

/* The wall clock starts here (s): 2037-01-01 00:00 UTC, later than any
 * file the host has written, so that make or tar finds no file from the
 * future, and still within a signed 32-bit time_t. */
#define VTIME_EPOCH 2114380800ll

/* Time the process ran: its instructions, after those of the images it
 * ran before (execve). */
static int64_t cpu_ns(const struct lx_proc *p, const struct x86_cpu *c)
{
	return (int64_t)c->cnt->insns + p->vt_cpu_base;
}

/* Time since the start of the run: ran and waited. */
static int64_t vtime_ns(const struct lx_proc *p, const struct x86_cpu *c)
{
	return cpu_ns(p, c) + p->vt_waited;
}

static int wall_clock(long clk)
{
	return clk == CLOCK_REALTIME || clk == CLOCK_REALTIME_COARSE || clk == CLOCK_TAI;
}

/* The thread whose CPU clock clk is (the caller's, cur, or another of
 * the process), or NULL when clk is no thread's clock of the process:
 * the kernel's dynamic CPU clocks (kernel/time/posix-cpu-timers.c) are
 * ~id << 3 | per-thread 4 | PROF 0, VIRT 1 or SCHED 2, with id 0 the
 * caller itself. */
static const struct lx_thread *clock_thread(const struct lx_proc *p, const struct lx_thread *cur,
					    long clk)
{
	long id = clk < 0 ? ~clk >> 3 : -1; /* ~(clk >> 3), as the kernel takes it */

	if (clk == CLOCK_THREAD_CPUTIME_ID)
		return cur;
	if (clk >= 0 || (clk & 3) == 3 || !(clk & 4))
		return NULL;
	if (id == 0)
		return cur;
	for (int i = 0; i < p->nth; i++)
		if (p->th[i]->tid == id && p->th[i]->state != LX_T_DEAD)
			return p->th[i];
	return NULL;
}

int lx_vtime_cpu_clock(const struct lx_proc *p, long clk)
{
	long pid = clk < 0 ? ~clk >> 3 : -1;

	if (clk == CLOCK_PROCESS_CPUTIME_ID || clk == CLOCK_THREAD_CPUTIME_ID)
		return 1;
	if (clk < 0 && (clk & 3) != 3 && !(clk & 4))
		return pid == 0 || pid == p->pid;
	return clock_thread(p, p->th[p->cur], clk) != NULL;
}

/* Thread t's CPU time: the instructions it ran (and runs, t the caller). */
static int64_t thread_ns(const struct lx_proc *p, const struct x86_cpu *c,
			 const struct lx_thread *t)
{
	uint64_t now = c->cnt->insns;

	if (t != c->os)
		return (int64_t)t->ran;
	return (int64_t)(t->ran + (now >= p->turn_from ? now - p->turn_from : 0));
}

/* Emulated clock clk, in ns: the wall clocks from the epoch, the CPU
 * clocks the time ran, the others from the start of the run. */
static int64_t vclock_ns(const struct lx_proc *p, const struct x86_cpu *c, long clk)
{
	const struct lx_thread *t = clock_thread(p, c->os, clk);

	if (t)
		return thread_ns(p, c, t);
	if (lx_vtime_cpu_clock(p, clk))
		return cpu_ns(p, c);
	return vtime_ns(p, c) + (wall_clock(clk) ? VTIME_EPOCH * 1000000000ll : 0);
}

int64_t lx_vtime_cpu(const struct lx_proc *p, const struct x86_cpu *c)
{
	return cpu_ns(p, c);
}

int lx_vtime_clock_tid(const struct lx_proc *p, const struct x86_cpu *c, long clk)
{
	const struct lx_thread *t = clock_thread(p, c->os, clk);

	return t ? t->tid : 0;
}

int64_t lx_vtime_thread_cpu(const struct lx_proc *p, const struct x86_cpu *c, int tid)
{
	for (int i = 0; i < p->nth; i++)
		if (p->th[i]->tid == tid && p->th[i]->state != LX_T_DEAD)
			return thread_ns(p, c, p->th[i]);
	return -1;
}

static long vt_clock_gettime(struct lx_proc *p, const struct x86_cpu *c, long clk, uint64_t ts)
{
	struct timespec t;
	int64_t ns = vclock_ns(p, c, clk);

	if ((clk < 0 || clk > CLOCK_TAI) && !lx_vtime_cpu_clock(p, clk))
		return -EINVAL;
	t.tv_sec = ns / 1000000000;
	t.tv_nsec = ns % 1000000000;
	return lx_copy_out(p, ts, &t, sizeof(t)) ? -EFAULT : 0;
}

static long vt_gettimeofday(struct lx_proc *p, const struct x86_cpu *c, uint64_t tv, uint64_t tz)
{
	int64_t ns = vclock_ns(p, c, CLOCK_REALTIME);
	int64_t v[2] = { ns / 1000000000, (ns % 1000000000) / 1000 };
	int32_t z[2] = { 0, 0 };

	if (tv && lx_copy_out(p, tv, v, sizeof(v)))
		return -EFAULT;
	if (tz && lx_copy_out(p, tz, z, sizeof(z)))
		return -EFAULT;
	return 0;
}

static long vt_time(struct lx_proc *p, const struct x86_cpu *c, uint64_t tp)
{
	int64_t s = vclock_ns(p, c, CLOCK_REALTIME) / 1000000000;

	if (tp && lx_copy_out(p, tp, &s, 8))
		return -EFAULT;
	return s;
}

/* What the slots of process pid say, over the images it ran (a process
 * that executed a program has a slot for each): its instructions, in ns,
 * the time of the children it reaped, and its clock where it ended (or
 * has got to). */
static void slots_ns(const struct lx_proc *p, int pid, int64_t *ran, int64_t *children,
		     int64_t *end)
{
	uint32_t n = p->sh->next < LX_MAX_SLOTS ? p->sh->next : LX_MAX_SLOTS;

	*ran = *children = 0;
	*end = -1;
	for (uint32_t i = 0; i < n; i++) {
		const struct lx_slot *s = &p->sh->slot[i];
		if (s->state == LX_SLOT_FREE || s->pid != pid)
			continue;
		*ran += (int64_t)s->cnt.insns;
		*children += s->children_ns;
		if (s->vt_at > *end)
			*end = s->vt_at;
	}
}

int lx_vtime_of_pid(const struct lx_proc *p, int pid, int64_t *ran, int64_t *children,
		    int64_t *start)
{
	uint32_t n = p->sh ? (p->sh->next < LX_MAX_SLOTS ? p->sh->next : LX_MAX_SLOTS) : 0;
	int64_t end;

	for (uint32_t i = 0; i < n; i++) {
		const struct lx_slot *s = &p->sh->slot[i];
		if (s->state != LX_SLOT_FREE && s->pid == pid) {
			slots_ns(p, pid, ran, children, &end);
			*start = s->vt_start; /* (its first image's) */
			return 1;
		}
	}
	return 0;
}

int64_t lx_vtime_children(const struct lx_proc *p)
{
	int64_t ran, children, end;

	if (!p->slot)
		return 0;
	slots_ns(p, p->pid, &ran, &children, &end);
	return children;
}

void lx_vtime_publish(struct lx_proc *p, const struct x86_cpu *c, int64_t until)
{
	int64_t now = vtime_ns(p, c);

	if (until > now)
		now = until;
	/* (only forward: a sleep a signal cut short leaves the clock behind) */
	if (p->cfg->vtime && p->slot && now > p->slot->vt_at)
		__atomic_store_n(&p->slot->vt_at, now, __ATOMIC_RELEASE);
}

void lx_vtime_reaped(struct lx_proc *p, const struct x86_cpu *c, int pid)
{
	int64_t ran, children, end;

	if (!p->cfg->vtime || !p->slot || pid <= 0)
		return;
	slots_ns(p, pid, &ran, &children, &end);
	p->slot->children_ns += ran + children;
	/* the parent learnt of the end no earlier than it happened: a lone
	 * thread stood waiting until then (with others, they ran on) */
	if (p->nth == 1)
		lx_wait_done(p, c, end);
}

/* kernel/signal.c do_notify_parent: si_utime and si_stime in ticks */
void lx_vtime_child_info(const struct lx_proc *p, siginfo_t *si)
{
	int64_t ran, children, end;

	if (!p->cfg->vtime || !p->sh || si->si_signo != SIGCHLD || si->si_code <= 0)
		return;
	slots_ns(p, si->si_pid, &ran, &children, &end);
	si->si_utime = (clock_t)(ran / LX_TICK_NS);
	si->si_stime = 0;
}

/* The guest ran in user mode all along (the kernel cost model's cycles
 * are the timing model's, not the clock's) and not while it waited; so
 * did the children it reaped. */
static long vt_times(struct lx_proc *p, const struct x86_cpu *c, uint64_t buf)
{
	const int64_t tick = LX_TICK_NS;
	int64_t ticks = cpu_ns(p, c) / tick;
	struct tms t = { .tms_utime = (clock_t)ticks,
			 .tms_cutime = (clock_t)(lx_vtime_children(p) / tick) };

	if (buf && lx_copy_out(p, buf, &t, sizeof(t)))
		return -EFAULT;
	return (long)ticks;
}

/* Usage other than time is the host process's (vpmu's) and would differ
 * from run to run: it reads zero. */
static long put_rusage(struct lx_proc *p, int64_t ns, uint64_t buf)
{
	struct rusage u;

	memset(&u, 0, sizeof(u));
	u.ru_utime.tv_sec = ns / 1000000000;
	u.ru_utime.tv_usec = ns % 1000000000 / 1000;
	return lx_copy_out(p, buf, &u, sizeof(u)) ? -EFAULT : 0;
}

static long vt_getrusage(struct lx_proc *p, const struct x86_cpu *c, long who, uint64_t buf)
{
	int64_t ns = cpu_ns(p, c);

	if (who != RUSAGE_SELF && who != RUSAGE_CHILDREN && who != RUSAGE_THREAD)
		return -EINVAL;
	if (who == RUSAGE_CHILDREN)
		ns = lx_vtime_children(p);
	else if (who == RUSAGE_THREAD)
		ns = thread_ns(p, c, c->os);
	return put_rusage(p, ns, buf);
}

void lx_vtime_child_rusage(struct lx_proc *p, int pid, uint64_t buf)
{
	int64_t ran, children, end;

	if (!p->cfg->vtime || !p->sh || pid <= 0 || !buf)
		return;
	slots_ns(p, pid, &ran, &children, &end);
	put_rusage(p, ran + children, buf);
}

/* The emulated system booted when the run began and runs nothing else:
 * the load averages (the host's, over host time) read zero, and of the
 * host's memory and swap, sized as they are, all is free and none shared
 * or buffered, one process running.  (The host's free memory changes
 * from run to run, and programs size their buffers by it: glibc's
 * sysconf(_SC_AVPHYS_PAGES) reads it here.) */
static long vt_sysinfo(struct lx_proc *p, const struct x86_cpu *c, uint64_t buf)
{
	struct sysinfo si;
	long r = lx_host_syscall(99, (long)&si, 0, 0, 0, 0, 0);

	if (r < 0)
		return r;
	si.uptime = vtime_ns(p, c) / 1000000000;
	memset(si.loads, 0, sizeof(si.loads));
	si.freeram = si.totalram;
	si.sharedram = si.bufferram = 0;
	si.freeswap = si.totalswap;
	si.freehigh = si.totalhigh;
	si.procs = 1;
	return lx_copy_out(p, buf, &si, sizeof(si)) ? -EFAULT : 0;
}

int64_t lx_clock_ns(const struct lx_proc *p, const struct x86_cpu *c, int clk)
{
	struct timespec t;

	if (p->cfg->vtime)
		return vclock_ns(p, c, clk);
	clock_gettime(clk, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

int64_t lx_wait_now(const struct lx_proc *p, const struct x86_cpu *c)
{
	return p->cfg->vtime ? vtime_ns(p, c) : lx_now_ns();
}

int64_t lx_wait_deadline(const struct lx_proc *p, const struct x86_cpu *c, int clk, int64_t t)
{
	int64_t d;

	if (clk < 0)
		d = lx_wait_now(p, c) + t;
	else if (p->cfg->vtime)
		d = t - (wall_clock(clk) ? VTIME_EPOCH * 1000000000ll : 0);
	else if (clk == CLOCK_MONOTONIC)
		d = t; /* the host's own clock: the deadline as it is (as Linux takes it) */
	else
		d = lx_now_ns() + (t - lx_clock_ns(p, c, clk));
	return d > 0 ? d : 0; /* long past; never -1, which is no deadline */
}

int64_t lx_wait_left(const struct lx_proc *p, const struct x86_cpu *c, int64_t deadline)
{
	int64_t left = deadline - lx_wait_now(p, c);

	return left > 0 ? left : 0;
}

void lx_vtime_set(struct lx_proc *p, const struct x86_cpu *c, int64_t ns)
{
	p->vt_waited = ns - cpu_ns(p, c);
}

void lx_wait_done(struct lx_proc *p, const struct x86_cpu *c, int64_t deadline)
{
	if (p->cfg->vtime && deadline > vtime_ns(p, c)) {
		int64_t w = deadline - vtime_ns(p, c);
		p->vt_waited += w;
		p->vt_slept += w;
	}
}

int lx_vtime_syscall(struct lx_proc *p, const struct x86_cpu *c, long nr, const uint64_t a[2],
		     long *ret)
{
	switch (nr) {
	case 228:
		*ret = vt_clock_gettime(p, c, (long)(int)a[0], a[1]);
		return 1;
	case 96:
		*ret = vt_gettimeofday(p, c, a[0], a[1]);
		return 1;
	case 201:
		*ret = vt_time(p, c, a[0]);
		return 1;
	case 100:
		*ret = vt_times(p, c, a[0]);
		return 1;
	case 98:
		*ret = vt_getrusage(p, c, (long)(int)a[0], a[1]);
		return 1;
	case 99:
		*ret = vt_sysinfo(p, c, a[0]);
		return 1;
	default:
		return 0;
	}
}
