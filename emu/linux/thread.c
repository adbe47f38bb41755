/* thread.c — guest threads.  Every guest thread of a process runs on the
 * one host thread, each with its own x86_cpu sharing the block cache and
 * the counts.  Scheduling is deterministic: round-robin with a fixed
 * instruction quantum (LX_QUANTUM, checked at block boundaries), switching
 * early at futex waits, sched_yield, sleeps and thread exit.  Guest thread
 * ids are virtual: the main thread's is the pid (as on Linux), the n-th
 * thread created gets pid + n.  Futexes between guest threads are emulated.
 *
 * A blocking host syscall (read on an empty pipe, poll, wait4…) gives up
 * the thread's turn while another thread can run (block.c); only when none
 * can does it block for real.  Robust futex lists are not walked at
 * thread exit.  A single-threaded guest uses the host's futex directly
 * (so process-shared futexes across fork work) and never leaves x86_run
 * for scheduling.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../uarch/model.h"
#include "lx_proc.h"

#ifndef CLONE_SETTLS
#define CLONE_SETTLS 0x00080000
#define CLONE_PARENT_SETTID 0x00100000
#define CLONE_CHILD_CLEARTID 0x00200000
#define CLONE_CHILD_SETTID 0x01000000
#endif

int64_t lx_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int lx_live_threads(const struct lx_proc *p)
{
	int n = 0;

	for (int i = 0; i < p->nth; i++)
		n += p->th[i]->state != LX_T_DEAD;
	return n;
}

struct lx_thread *lx_thread_new(struct lx_proc *p)
{
	struct lx_thread *t;

	if (p->nth == p->cap_th) {
		int ncap = p->cap_th ? p->cap_th * 2 : 8;
		struct lx_thread **n = realloc(p->th, (size_t)ncap * sizeof(*n));

		if (!n)
			return NULL;
		p->th = n;
		p->cap_th = ncap;
	}
	t = aligned_alloc(64, (sizeof(*t) + 63) & ~(size_t)63);
	if (!t)
		return NULL;
	memset(t, 0, sizeof(*t));
	t->p = p;
	t->ss_flags = SS_DISABLE;
	t->deadline = -1;
	p->th[p->nth++] = t;
	return t;
}

long lx_sys_clone_thread(struct lx_proc *p, uint64_t flags, uint64_t stack, uint64_t ptid,
			 uint64_t ctid, uint64_t tls)
{
	struct lx_thread *t = lx_cur(p), *n;
	int32_t tid;

	/* the parent is inside x86_run: its live MXCSR is the host's */
	x86_fp_sync_out(&t->cpu);
	lx_hold_release(p); /* held only while there is one thread */
	n = lx_thread_new(p);
	if (!n)
		return -EAGAIN;
	t = lx_cur(p); /* p->th may have moved */
	n->cpu = t->cpu;
	n->cpu.jb = NULL;
	n->cpu.cur = NULL;
	n->cpu.blk = NULL;
	n->cpu.stop = 0;
	n->cpu.os = n;
	n->cpu.r[X86_RAX] = 0;
	lx_timing_attach(p, n);
	if (stack)
		n->cpu.r[X86_RSP] = stack;
	if (flags & CLONE_SETTLS)
		n->cpu.seg_base[X86_SEG_FS] = tls;
	n->tid = p->next_tid++;
	n->blocked = t->blocked;
	n->cpus = lx_cpus_of(p, t);
	n->vt_start = lx_wait_now(p, &t->cpu);
	lx_timing_resume(p, n);
	tid = n->tid;
	if ((flags & CLONE_PARENT_SETTID) && lx_copy_out(p, ptid, &tid, 4))
		goto fault;
	if ((flags & CLONE_CHILD_SETTID) && lx_copy_out(p, ctid, &tid, 4))
		goto fault;
	if (flags & CLONE_CHILD_CLEARTID)
		n->clear_tid = ctid;
	t->cpu.stop = 1; /* from now on, run in quanta */
	return tid;
fault:
	n->state = LX_T_DEAD;
	return -EFAULT;
}

int lx_futex_wake(struct lx_proc *p, uint64_t uaddr, int n, uint32_t bitset)
{
	int woken = 0;

	/* waiters in the order they started waiting: p->th is kept in
	 * creation order and each thread waits on one futex at a time, so
	 * wake by lowest wait sequence */
	while (woken < n) {
		struct lx_thread *best = NULL;

		for (int i = 0; i < p->nth; i++) {
			struct lx_thread *t = p->th[i];

			if (t->state == LX_T_FUTEX && t->fx_addr == uaddr &&
			    (t->fx_bitset & bitset) && (!best || t->fx_seq < best->fx_seq))
				best = t;
		}
		if (!best)
			break;
		best->state = LX_T_RUN;
		best->cpu.r[X86_RAX] = 0;
		lx_timing_resume(p, best);
		woken++;
	}
	return woken;
}

static int64_t ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

/* Block the current thread until deadline (CLOCK_MONOTONIC ns, -1 none). */
static void block(struct lx_proc *p, int state, int64_t deadline)
{
	struct lx_thread *t = lx_cur(p);

	t->state = state;
	t->deadline = deadline;
	t->fx_seq = ++p->wait_seq;
	t->cpu.stop = 1;
}

static long futex_wait(struct lx_proc *p, uint64_t uaddr, uint32_t val, uint32_t bitset,
		       int64_t deadline)
{
	struct lx_thread *t = lx_cur(p);
	uint32_t cur;

	if (lx_copy_in(p, &cur, uaddr, 4))
		return -EFAULT;
	if (cur != val)
		return -EAGAIN;
	t->fx_addr = uaddr;
	t->fx_val = val;
	t->fx_bitset = bitset;
	block(p, LX_T_FUTEX, deadline);
	return 0; /* replaced when it wakes: 0, -ETIMEDOUT or -EINTR */
}

static int requeue(struct lx_proc *p, uint64_t from, uint64_t to, int nwake, int nmove)
{
	int n = lx_futex_wake(p, from, nwake, FUTEX_BITSET_MATCH_ANY), moved = 0;

	for (int i = 0; i < p->nth && moved < nmove; i++) {
		struct lx_thread *t = p->th[i];

		if (t->state == LX_T_FUTEX && t->fx_addr == from) {
			t->fx_addr = to;
			moved++;
		}
	}
	return n + moved;
}

/* FUTEX_WAKE_OP (futex(2)) */
static long wake_op(struct lx_proc *p, uint64_t uaddr, int n1, uint64_t uaddr2, int n2, uint32_t op)
{
	uint32_t old, nv, arg = (op >> 12) & 0xfff, cmparg = op & 0xfff;
	int kind = (op >> 28) & 7, cmp = (op >> 24) & 15, res;

	if (op & (1u << 31))
		arg = arg >= 31 ? 0 : 1u << arg; /* FUTEX_OP_OPARG_SHIFT */
	if (lx_copy_in(p, &old, uaddr2, 4))
		return -EFAULT;
	switch (kind) {
	case FUTEX_OP_SET:
		nv = arg;
		break;
	case FUTEX_OP_ADD:
		nv = old + arg;
		break;
	case FUTEX_OP_OR:
		nv = old | arg;
		break;
	case FUTEX_OP_ANDN:
		nv = old & ~arg;
		break;
	case FUTEX_OP_XOR:
		nv = old ^ arg;
		break;
	default:
		return -ENOSYS;
	}
	if (lx_copy_out(p, uaddr2, &nv, 4))
		return -EFAULT;
	res = lx_futex_wake(p, uaddr, n1, FUTEX_BITSET_MATCH_ANY);
	switch (cmp) {
	case FUTEX_OP_CMP_EQ:
		cmp = old == cmparg;
		break;
	case FUTEX_OP_CMP_NE:
		cmp = old != cmparg;
		break;
	case FUTEX_OP_CMP_LT:
		cmp = (int32_t)old < (int32_t)cmparg;
		break;
	case FUTEX_OP_CMP_LE:
		cmp = (int32_t)old <= (int32_t)cmparg;
		break;
	case FUTEX_OP_CMP_GT:
		cmp = (int32_t)old > (int32_t)cmparg;
		break;
	case FUTEX_OP_CMP_GE:
		cmp = (int32_t)old >= (int32_t)cmparg;
		break;
	default:
		return -ENOSYS;
	}
	if (cmp)
		res += lx_futex_wake(p, uaddr2, n2, FUTEX_BITSET_MATCH_ANY);
	return res;
}

/* The clock a futex wait's timeout is on: FUTEX_WAIT's is relative (-1),
 * FUTEX_WAIT_BITSET's absolute on the monotonic or the realtime clock. */
static int timeout_clock(int op)
{
	if ((op & FUTEX_CMD_MASK) == FUTEX_WAIT)
		return -1;
	return op & FUTEX_CLOCK_REALTIME ? CLOCK_REALTIME : CLOCK_MONOTONIC;
}

/* A FUTEX_WAIT or FUTEX_WAIT_BITSET by the host, under --vtime: the
 * timeout (ts, or none) is on the emulated clock, where the clock stands
 * if the wait times out; an emulated timer's expiry before it ends the
 * wait when its signal is to be handled (itimer.c). */
static long futex_host_vtime(struct lx_proc *p, uint64_t uaddr, int op, uint32_t val, uint64_t ts,
			     uint32_t val3)
{
	struct x86_cpu *c = &lx_cur(p)->cpu;
	int cmd = op & FUTEX_CMD_MASK;
	struct timespec t;
	int64_t d = -1, h, until;
	long r;

	if (ts) {
		if (lx_copy_in(p, &t, ts, sizeof(t)))
			return -EFAULT;
		if (t.tv_sec < 0 || (uint64_t)t.tv_nsec >= 1000000000)
			return -EINVAL;
		d = lx_wait_deadline(p, c, timeout_clock(op), ts_ns(&t));
	}
	for (;;) {
		until = lx_itimer_until(p, d);
		if (until >= 0) {
			h = lx_now_ns() + lx_wait_left(p, c, until);
			t.tv_sec = h / 1000000000;
			t.tv_nsec = h % 1000000000;
		}
		r = lx_host_syscall(202, (long)uaddr, FUTEX_WAIT_BITSET | (op & FUTEX_PRIVATE_FLAG),
				    val, until >= 0 ? (long)&t : 0, 0,
				    cmd == FUTEX_WAIT ? FUTEX_BITSET_MATCH_ANY : val3);
		if (r != -ETIMEDOUT)
			return r;
		lx_wait_done(p, c, until);
		if (until == d)
			return r;
		if (lx_itimer_check(p, c) && lx_signal_pending(p))
			return -EINTR;
	}
}

long lx_sys_futex(struct lx_proc *p, uint64_t uaddr, int op, uint32_t val, uint64_t ts,
		  uint64_t uaddr2, uint32_t val3)
{
	int cmd = op & FUTEX_CMD_MASK;
	struct timespec t;
	int64_t deadline = -1;

	if (lx_live_threads(p) <= 1) {
		if (p->cfg->vtime && (ts || lx_itimer_next(p) >= 0) &&
		    (cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET))
			return futex_host_vtime(p, uaddr, op, val, ts, val3);
		return lx_host_syscall(202, (long)uaddr, op, val, (long)ts, (long)uaddr2, val3);
	}
	if (uaddr & 3)
		return -EINVAL;
	switch (cmd) {
	case FUTEX_WAIT:
	case FUTEX_WAIT_BITSET:
		if (cmd == FUTEX_WAIT_BITSET && !val3)
			return -EINVAL;
		if (ts) {
			if (lx_copy_in(p, &t, ts, sizeof(t)))
				return -EFAULT;
			if (t.tv_sec < 0 || (uint64_t)t.tv_nsec >= 1000000000)
				return -EINVAL;
			deadline =
				lx_wait_deadline(p, &lx_cur(p)->cpu, timeout_clock(op), ts_ns(&t));
		}
		return futex_wait(p, uaddr, val, cmd == FUTEX_WAIT ? FUTEX_BITSET_MATCH_ANY : val3,
				  deadline);
	case FUTEX_WAKE:
		return lx_futex_wake(p, uaddr, (int)val, FUTEX_BITSET_MATCH_ANY);
	case FUTEX_WAKE_BITSET:
		if (!val3)
			return -EINVAL;
		return lx_futex_wake(p, uaddr, (int)val, val3);
	case FUTEX_CMP_REQUEUE: {
		uint32_t cur;

		if (lx_copy_in(p, &cur, uaddr, 4))
			return -EFAULT;
		if (cur != val3)
			return -EAGAIN;
	}
		/* fall through */
	case FUTEX_REQUEUE:
		return requeue(p, uaddr, uaddr2, (int)val, (int)(uint32_t)ts);
	case FUTEX_WAKE_OP:
		return wake_op(p, uaddr, (int)val, uaddr2, (int)(uint32_t)ts, val3);
	default:
		/* priority-inheritance futexes need a real kernel */
		return -ENOSYS;
	}
}

long lx_sys_sched_yield(struct lx_proc *p)
{
	if (lx_live_threads(p) > 1) {
		lx_cur(p)->yield = 1;
		lx_cur(p)->cpu.stop = 1;
	}
	return 0;
}

long lx_sys_nanosleep_mt(struct lx_proc *p, int64_t deadline)
{
	block(p, LX_T_SLEEP, deadline);
	return 0;
}

void lx_thread_exit(struct lx_proc *p, int status)
{
	struct lx_thread *t = lx_cur(p);
	uint32_t zero = 0;

	if (lx_live_threads(p) <= 1)
		lx_exit_group(p, status);
	if (t->clear_tid && !lx_copy_out(p, t->clear_tid, &zero, 4))
		lx_futex_wake(p, t->clear_tid, 1, FUTEX_BITSET_MATCH_ANY);
	t->state = LX_T_DEAD;
	t->deadline = -1; /* the scheduler's idle wait is for the living */
	t->cpu.stop = 1;
}

/* Wake waiters whose time is up or that a signal interrupts. */
static int wake_waiters(struct lx_proc *p, int64_t now, int poll_values)
{
	int any = 0;

	for (int i = 0; i < p->nth; i++) {
		struct lx_thread *t = p->th[i];
		uint64_t sigs = (p->pend.set | t->pend.set) & ~t->blocked;
		uint32_t v;

		if (t->state != LX_T_FUTEX && t->state != LX_T_SLEEP)
			continue;
		if (sigs) {
			t->cpu.r[X86_RAX] = (uint64_t)-EINTR;
		} else if (t->deadline >= 0 && now >= t->deadline) {
			t->cpu.r[X86_RAX] = t->state == LX_T_FUTEX ? (uint64_t)-ETIMEDOUT : 0;
		} else if (poll_values && t->state == LX_T_FUTEX &&
			   !lx_copy_in(p, &v, t->fx_addr, 4) && v != t->fx_val) {
			/* changed behind our back (another process): a
			 * spurious wake-up, which futex(2) allows */
			t->cpu.r[X86_RAX] = 0;
		} else {
			continue;
		}
		t->state = LX_T_RUN;
		/* what the others ran ended the wait: its halted processor
		 * resumes where the running one stands */
		lx_timing_resume(p, t);
		any = 1;
	}
	return any;
}

/* Threads whose call would have blocked (LX_T_IO) try it again when
 * another thread runs, or after the process has waited a while (after). */
static void retry_io(struct lx_proc *p, int after)
{
	int io = 0, run = 0;

	for (int i = 0; i < p->nth; i++) {
		io |= p->th[i]->state == LX_T_IO;
		run |= p->th[i]->state == LX_T_RUN;
	}
	if (io && (run || after))
		for (int i = 0; i < p->nth; i++)
			if (p->th[i]->state == LX_T_IO) {
				p->th[i]->state = LX_T_RUN;
				lx_timing_resume(p, p->th[i]);
			}
}

void lx_schedule(struct lx_proc *p, int rotate)
{
	struct lx_thread *cur = lx_cur(p);
	int n = 0, at = 0, idled = 0;

	/* drop finished threads (none of them is inside x86_run now) */
	for (int i = 0; i < p->nth; i++) {
		struct lx_thread *t = p->th[i];

		if (t->state == LX_T_DEAD && t != cur) {
			free(t);
			continue;
		}
		if (t == cur)
			at = n;
		p->th[n++] = t;
	}
	p->nth = n;
	p->cur = at;
	cur->yield = 0;
	if (p->uarch && p->sh->smt) {
		/* two logical processors: run next the runnable thread whose
		 * processor is furthest behind, so their clocks stay within a
		 * block of each other; dual-thread mode while both processors
		 * have a runnable thread */
		int best = -1;
		unsigned lps = 0;
		for (int i = 0; i < p->nth; i++) {
			struct lx_thread *t = p->th[i];
			if (t->state != LX_T_RUN)
				continue;
			lps |= 1u << t->lp;
			if (best < 0 ||
			    uarch_now(p->uarch, t->lp) < uarch_now(p->uarch, p->th[best]->lp))
				best = i;
		}
		uarch_set_active(p->uarch, lps);
		if (best >= 0) {
			at = best;
			rotate = 0;
		}
	}
	for (int idle = 0;; idle++) {
		int need_time = 0;

		if (lx_limit_stopping(p))
			lx_limit_end(p); /* the run stops while every thread waits */
		lx_itimer_check(p, &cur->cpu);

		for (int i = 0; i < p->nth; i++)
			need_time |= p->th[i]->deadline >= 0 && p->th[i]->state != LX_T_RUN;
		wake_waiters(p, need_time ? lx_wait_now(p, &cur->cpu) : 0, idle > 0);
		retry_io(p, idle > 0);
		for (int k = rotate ? 1 : 0; k <= p->nth; k++) {
			int i = (at + k) % p->nth;

			if (p->th[i]->state == LX_T_RUN) {
				if (p->th[i] != cur)
					p->cur = i;
				if (idled || p->th[i]->blocked != cur->blocked)
					lx_signal_sync_mask(p);
				if (cur->state == LX_T_DEAD) {
					/* the exited thread is no longer running */
					for (int j = 0; j < p->nth; j++)
						if (p->th[j] == cur) {
							free(cur);
							memmove(&p->th[j], &p->th[j + 1],
								(size_t)(p->nth - j - 1) *
									sizeof(p->th[0]));
							p->nth--;
							if (p->cur > j)
								p->cur--;
							break;
						}
				}
				return;
			}
		}
		/* everyone waits: sleep until the next deadline, at most 1 ms,
		 * so signals and changes made by other processes are seen (the
		 * emulated clock moves on by what was meant to pass, not by
		 * what the host took) */
		int64_t wait = 1000000;
		int64_t now = lx_wait_now(p, &cur->cpu), timer = lx_itimer_next(p);

		if (timer >= 0 && timer - now < wait)
			wait = timer - now;
		for (int i = 0; i < p->nth; i++)
			if (p->th[i]->state != LX_T_RUN && p->th[i]->deadline >= 0 &&
			    p->th[i]->deadline - now < wait)
				wait = p->th[i]->deadline - now;
		if (!idled++)
			lx_signal_idle_mask(p);
		if (wait > 0) {
			struct timespec ts = { 0, wait };

			nanosleep(&ts, NULL);
			lx_wait_done(p, &cur->cpu, now + wait);
		}
	}
}
