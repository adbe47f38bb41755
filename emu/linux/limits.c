/* limits.c — the limits of a run (lx_limits.h): the guest process's side
 * (an instruction budget for x86_run, the stop request, ending cleanly)
 * and the session's (requesting a stop, finding who still runs).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "lx_limits.h"
#include "lx_proc.h"

static int slot_index(const struct lx_proc *p)
{
	return p->slot ? (int)(p->slot - p->sh->slot) : -1;
}

void lx_limit_ready(struct lx_proc *p, int on)
{
	struct lx_limits *l = lx_limits_of(p->sh);
	int i = slot_index(p);

	p->lim = l->owner ? l : NULL;
	p->lim_seen = 0;
	if (p->lim && i >= 0)
		l->ready[i] = on ? p->pid : 0;
}

int lx_limit_stopping(const struct lx_proc *p)
{
	return p->lim && p->lim->stop;
}

_Noreturn void lx_limit_end(struct lx_proc *p)
{
	/* called between blocks (outside x86_run): the counts are complete */
	lx_timing_flush(p);
	if (p->slot) {
		p->slot->status = LX_LIMIT_STATUS;
		p->slot->state = LX_SLOT_EXITED;
	}
	_exit(LX_LIMIT_STATUS);
}

static void request(struct lx_limits *l, enum lx_limit_why why)
{
	int32_t none = LX_LIMIT_NONE;

	__atomic_compare_exchange_n(&l->fired, &none, (int32_t)why, 0, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
	__atomic_store_n(&l->stop, 1, __ATOMIC_SEQ_CST);
}

/* Instructions of this process so far (every thread counts into one place). */
static uint64_t own_insns(const struct lx_proc *p)
{
	return p->slot ? p->slot->cnt.insns : p->own_cnt.insns;
}

uint64_t lx_limit_budget(struct lx_proc *p, uint64_t want)
{
	struct lx_limits *l = p->lim;
	uint64_t own, used, left;

	if (!l)
		return want;
	if (l->stop)
		lx_limit_end(p);
	if (want > LX_LIMIT_CHUNK)
		want = LX_LIMIT_CHUNK; /* so a stop request is seen without a signal */
	if (!l->max_insns)
		return want;
	/* the tree's total is summed again once per chunk of this process's
	 * own instructions; in between, own progress is added to it, which is
	 * exact for a single process and a close bound for several */
	own = own_insns(p);
	if (!p->lim_seen || own - p->lim_own >= LX_LIMIT_CHUNK) {
		struct x86_counts t;

		lx_shared_total(p->sh, &t);
		p->lim_total = t.insns;
		p->lim_own = own;
		p->lim_seen = 1;
	}
	used = p->lim_total + (own - p->lim_own);
	if (used >= l->max_insns) {
		request(l, LX_LIMIT_INSNS);
		lx_limit_end(p);
	}
	left = l->max_insns - used;
	return left < want ? left : want;
}

int lx_limit_signal(struct lx_proc *p, int sig, const siginfo_t *si)
{
	if (sig != LX_LIMIT_SIG || si->si_code > 0 || !p->lim || !p->lim->stop ||
	    si->si_pid != p->lim->owner)
		return 0;
	/* leave x86_run at the next block; a blocking call returns EINTR */
	lx_cur(p)->cpu.stop = 1;
	return 1;
}

/* ---- the session's side ---------------------------------------------------- */

static int alive(pid_t pid)
{
	return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

int lx_limits_stop(struct lx_shared *sh, enum lx_limit_why why)
{
	struct lx_limits *l = lx_limits_of(sh);
	uint32_t n = sh->next < LX_MAX_SLOTS ? sh->next : LX_MAX_SLOTS;
	int sent = 0;

	request(l, why);
	for (uint32_t i = 0; i < n; i++) {
		pid_t pid = l->ready[i];

		/* a process that execs clears its flag first; one that has
		 * not installed its handler yet sees the request on its own */
		if (pid > 0 && sh->slot[i].state == LX_SLOT_RUNNING && sh->slot[i].pid == pid &&
		    kill(pid, LX_LIMIT_SIG) == 0)
			sent++;
	}
	return sent;
}

int lx_limits_running(struct lx_shared *sh, int32_t *pids, int n)
{
	uint32_t ns = sh->next < LX_MAX_SLOTS ? sh->next : LX_MAX_SLOTS;
	int k = 0;

	for (uint32_t i = 0; i < ns; i++) {
		const struct lx_slot *s = &sh->slot[i];

		if (s->state != LX_SLOT_RUNNING || !alive(s->pid))
			continue;
		if (k < n)
			pids[k] = s->pid;
		k++;
	}
	return k;
}
