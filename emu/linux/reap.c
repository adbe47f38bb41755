/* reap.c — the order in which a wait for any child reports the children
 * of a pipeline (--vtime).
 *
 * In `a | b`, b ends after a has closed the pipe: at its exit, or earlier
 * (coreutils close their output before exit_group).  Either way a can
 * still be running, or be on its way out, when b becomes a zombie, so the
 * shell's wait4(-1) reports a, then b, or b, then a, as the host ran them:
 * another order of the shell's own instructions, and other counts.  So
 * when a wait for any child reaps a child while a child forked before it
 * fed it through a pipe (pipe.c records who wrote to and read from each)
 * and has not been reaped, the older one goes first: once it has marked
 * its end in its slot (which every guest process does before it exits on
 * the host), it is reaped and reported, and the younger one's report is
 * kept for the next wait that asks for it.  An older one that has not
 * ended after LX_REAP_PATIENCE_NS (it runs on: `(echo x; sleep 9) | head
 * -1`) leaves the order as the host gave it, as do children that no pipe
 * joins: their order is the program's own race.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include "lx_proc.h"

#define LX_REAP_PATIENCE_NS 200000000ll /* the longest wait for an older child's end */
#define LX_REAP_NAP_NS 100000		/* between looks */

void lx_reap_forked(struct lx_proc *p, int pid)
{
	if (p->nkids == LX_KIDS) { /* the oldest is forgotten */
		memmove(p->kids, p->kids + 1, (LX_KIDS - 1) * sizeof(*p->kids));
		p->nkids--;
	}
	p->kids[p->nkids++] = pid;
}

/* Forget child pid (reaped); its place among the children, -1 if none. */
static int forget(struct lx_proc *p, int pid)
{
	for (int k = 0; k < p->nkids; k++)
		if (p->kids[k] == pid) {
			memmove(p->kids + k, p->kids + k + 1,
				(size_t)(p->nkids - k - 1) * sizeof(*p->kids));
			p->nkids--;
			return k;
		}
	return -1;
}

/* Whether child pid has marked its end in its slot (the latest slot of
 * that pid: an exec leaves an older one behind). */
static int ended(const struct lx_proc *p, int pid)
{
	uint32_t n = p->sh->next < LX_MAX_SLOTS ? p->sh->next : LX_MAX_SLOTS;

	while (n--) {
		const struct lx_slot *s = &p->sh->slot[n];
		int32_t st = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);
		if (s->pid != pid || st == LX_SLOT_FREE)
			continue;
		return st == LX_SLOT_EXITED || st == LX_SLOT_KILLED;
	}
	return 0;
}

/* Whether wait nr (arguments a) is for any child. */
static int for_any(long nr, const uint64_t a[6])
{
	return nr == 61 ? (int)a[0] == -1 : (int)a[0] == P_ALL;
}

/* Give the guest the report of child pid (status, rusage ru) as wait nr
 * (arguments a) does: returns the wait's result. */
static long report(struct lx_proc *p, long nr, const uint64_t a[6], int pid, int status,
		   const struct rusage *ru)
{
	uint64_t rup = nr == 61 ? a[3] : a[4];

	if (rup && lx_copy_out(p, rup, ru, sizeof(*ru)))
		return -EFAULT;
	if (nr == 61) {
		if (a[1] && lx_copy_out(p, a[1], &status, sizeof(status)))
			return -EFAULT;
		return pid;
	}
	siginfo_t si = lx_child_end(pid, status);
	if (a[2] && lx_copy_out(p, a[2], &si, sizeof(si)))
		return -EFAULT;
	return 0;
}

int lx_reap_stashed(struct lx_proc *p, long nr, const uint64_t a[6], long *r, int *wst)
{
	const struct lx_report *k = &p->stash[0];
	int asks = nr == 61 ? (int)a[0] == k->pid : (int)a[0] == P_PID && (int)a[1] == k->pid;

	if (!p->nstash || !(for_any(nr, a) || asks))
		return 0;
	*wst = k->status;
	*r = report(p, nr, a, k->pid, k->status, &k->ru);
	if (*r >= 0 && !(nr == 247 && (a[3] & WNOWAIT)))
		memmove(p->stash, p->stash + 1, (size_t)--p->nstash * sizeof(*p->stash));
	return 1;
}

/* The oldest child forked before the one at place at that fed it through
 * a pipe (or has ended), once it has ended: its pid; 0 if none does in
 * time. */
static int older_end(struct lx_proc *p, int pid, int at)
{
	int64_t since = -1;

	for (int k = 0; k < at; k++) {
		int y = p->kids[k];
		if (ended(p, y))
			return y;
		if (!lx_pipe_feeds(p->sh, y, pid))
			continue;
		for (;;) {
			struct timespec nap = { 0, LX_REAP_NAP_NS };
			int64_t now = lx_now_ns();
			if (since < 0)
				since = now;
			else if (now - since > LX_REAP_PATIENCE_NS)
				return 0;
			lx_host_syscall(35, (long)&nap, 0, 0, 0, 0, 0);
			if (ended(p, y))
				return y;
		}
	}
	return 0;
}

long lx_reap_order(struct lx_proc *p, long nr, const uint64_t a[6], long r, int *wst)
{
	siginfo_t si;
	int pid = lx_reaped(p, nr, a, r, *wst, &si), at, older, status;
	struct rusage ru;

	if (pid <= 0)
		return r;
	at = forget(p, pid);
	if (!p->cfg->vtime || !p->sh || p->nth != 1 || !for_any(nr, a) || at <= 0 ||
	    p->nstash == LX_KIDS || !(older = older_end(p, pid, at)) ||
	    lx_host_syscall(61, older, (long)&status, __WALL, (long)&ru, 0, 0) != older)
		return r;
	/* the younger one's report, for a later wait */
	struct lx_report *k = &p->stash[p->nstash++];
	k->pid = pid;
	k->status = nr == 61 ? *wst :
		    si.si_code == CLD_EXITED ?
			       W_EXITCODE(si.si_status, 0) :
			       si.si_status | (si.si_code == CLD_DUMPED ? WCOREFLAG : 0);
	memset(&k->ru, 0, sizeof(k->ru));
	uint64_t rup = nr == 61 ? a[3] : a[4];
	if (rup)
		lx_copy_in(p, &k->ru, rup, sizeof(k->ru));
	forget(p, older);
	*wst = status;
	return report(p, nr, a, older, status, &ru);
}
