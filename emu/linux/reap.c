/* reap.c — the order in which a wait for any child reports the children
 * that have ended (--vtime): the order they ended in on the emulated
 * clock, and a pipeline's processes in the order the data went through.
 *
 * Children run at once on the host, so which ends first there, and which
 * the parent's wait4(-1) reports first, is the host's race: another order
 * of the parent's own instructions, and other counts.  Each guest
 * process publishes its emulated clock in its slot (at every system call,
 * every turn of its run loop, at least every LX_VT_PUBLISH instructions,
 * and at its end), which only moves forward.
 * So when a wait for any child reaps child y, ended at clock t:
 *   - every other unreaped child that could still end before t (its clock
 *     not past t) is waited for until it has ended or passed t;
 *   - so is every child that fed y through a pipe, or fed one that did
 *     (pipe.c records who wrote to and read from each): in `a | b`, b can
 *     end before a on either clock, a having closed the pipe first
 *     (coreutils close their output before exit_group);
 *   - the children ended by then that ended before y (or at the same
 *     clock, forked earlier), and its feeders, are reaped too; all are
 *     reported one a wait, each after those that fed it, else in the
 *     order they ended.
 * A sleeping child publishes the clock it sleeps to; one that waits for
 * children of its own has got as far as they have (reach()), its clock
 * moving on to their ends as it reaps them (vtime.c).  A child that is
 * not y's feeder and sits in a host call with its clock still for
 * LX_REAP_STILL_NS (a server waiting for a client, a child waiting for
 * what the parent does next, or for children of its own that are so
 * blocked too), while no pipe joins it to a child still running and no
 * child that could end before t has moved for as long, is taken to end
 * later; a wait that sees no child's clock move for LX_REAP_PATIENCE_NS
 * gives up and reports what it has, as the host gave it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>

#include "lx_proc.h"

#define LX_REAP_PATIENCE_NS 200000000ll /* the longest wait with no child's clock moving */
#define LX_REAP_STILL_NS 10000000ll	/* a child blocked this long waits on the host */
#define LX_REAP_NAP_NS 100000		/* between looks */

void lx_reap_forked(struct lx_proc *p, int pid)
{
	if (p->nkids == LX_KIDS) { /* the oldest is forgotten */
		p->kids_lost = 1;
		memmove(p->kids, p->kids + 1, (LX_KIDS - 1) * sizeof(*p->kids));
		p->nkids--;
	}
	p->kids[p->nkids++] = (struct lx_kid){ pid, -2, 0 };
}

/* Forget child pid (reaped); its place among the children, -1 if none. */
static int forget(struct lx_proc *p, int pid)
{
	for (int k = 0; k < p->nkids; k++)
		if (p->kids[k].pid == pid) {
			memmove(p->kids + k, p->kids + k + 1,
				(size_t)(p->nkids - k - 1) * sizeof(*p->kids));
			p->nkids--;
			return k;
		}
	return -1;
}

const struct lx_slot *lx_reap_slot(const struct lx_proc *p, int pid)
{
	uint32_t n = p->sh->next < LX_MAX_SLOTS ? p->sh->next : LX_MAX_SLOTS;

	while (n--) {
		const struct lx_slot *s = &p->sh->slot[n];
		if (s->pid == pid && __atomic_load_n(&s->state, __ATOMIC_ACQUIRE) != LX_SLOT_FREE)
			return s;
	}
	return NULL;
}

int lx_reap_ended(const struct lx_slot *s)
{
	int32_t st = s ? __atomic_load_n(&s->state, __ATOMIC_ACQUIRE) : LX_SLOT_FREE;
	return st == LX_SLOT_EXITED || st == LX_SLOT_KILLED;
}

int64_t lx_reap_clock(const struct lx_slot *s)
{
	return s ? __atomic_load_n(&s->vt_at, __ATOMIC_ACQUIRE) : -1;
}

/* Whether slot k is a child of slot s's process still to be waited for:
 * not ended, or ended after clock c. */
static int child_of(const struct lx_slot *s, const struct lx_slot *k, int64_t c)
{
	int32_t st = __atomic_load_n(&k->state, __ATOMIC_ACQUIRE);

	return k != s && k->ppid == s->pid && st != LX_SLOT_FREE && st != LX_SLOT_EXECED &&
	       (!lx_reap_ended(k) || lx_reap_clock(k) > c);
}

/* How far slot s's process has got: its clock, or while it waits for its
 * children, the earliest they can end if later (it wakes no earlier: a
 * shell that runs a command ends after it, whatever its own clock says).
 * Its children that ended by its clock count as reaped. */
static int64_t reach(const struct lx_proc *p, const struct lx_slot *s, int depth)
{
	int64_t c = lx_reap_clock(s), lo = INT64_MAX;
	uint32_t n = p->sh->next < LX_MAX_SLOTS ? p->sh->next : LX_MAX_SLOTS;

	if (!s || lx_reap_ended(s) || depth > 8 ||
	    __atomic_load_n(&s->vt_wait, __ATOMIC_ACQUIRE) != LX_VT_KIDS)
		return c;
	for (uint32_t i = 0; i < n; i++) {
		const struct lx_slot *k = &p->sh->slot[i];
		if (child_of(s, k, c)) {
			int64_t kc = reach(p, k, depth + 1);
			lo = kc < lo ? kc : lo;
		}
	}
	return lo != INT64_MAX && lo > c ? lo : c;
}

/* Whether slot s's process sits in a host call, and if it waits for its
 * children, so do they all (else it waits for their work). */
static int blocked(const struct lx_proc *p, const struct lx_slot *s, int depth)
{
	int32_t w = s ? __atomic_load_n(&s->vt_wait, __ATOMIC_ACQUIRE) : LX_VT_RUN;
	uint32_t n = p->sh->next < LX_MAX_SLOTS ? p->sh->next : LX_MAX_SLOTS;

	if (w != LX_VT_KIDS || depth > 8)
		return w != LX_VT_RUN;
	for (uint32_t i = 0; i < n; i++)
		if (child_of(s, &p->sh->slot[i], lx_reap_clock(s)) &&
		    !lx_reap_ended(&p->sh->slot[i]) && !blocked(p, &p->sh->slot[i], depth + 1))
			return 0;
	return 1;
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

/* A child reaped or to be reaped: its place in fork order, its clock at
 * its end. */
struct cand {
	int pid, at;
	int64_t end;
};

/* The children that fed child y through a pipe, or fed one that did:
 * their bits in kids[] order. */
static uint64_t feeders(const struct lx_proc *p, int y)
{
	uint64_t f = 0;
	int grew = 1;

	while (grew) {
		grew = 0;
		for (int k = 0; k < p->nkids; k++) {
			if (f >> k & 1)
				continue;
			int fed = lx_pipe_feeds(p->sh, p->kids[k].pid, y);
			for (int j = 0; !fed && j < p->nkids; j++)
				fed = (f >> j & 1) &&
				      lx_pipe_feeds(p->sh, p->kids[k].pid, p->kids[j].pid);
			if (fed) {
				f |= 1ull << k;
				grew = 1;
			}
		}
	}
	return f;
}

/* Whether unreaped child k (its slot s) may still end before y (ended
 * at clock t, at place at in fork order) or must end first (f: a
 * feeder); still: it has sat blocked on the host with its clock still. */
static int pending(int k, const struct lx_slot *s, int64_t now, int64_t t, int at, uint64_t f,
		   int still)
{
	if (lx_reap_ended(s))
		return 0;
	if (f >> k & 1)
		return 1;
	return t >= 0 && !still && (!s || now < t || (now == t && k < at));
}

/* Whether unreaped child k and another that has not ended are joined by
 * a pipe: blocked, k may be waiting for the other, not for the host. */
static int piped(const struct lx_proc *p, int k)
{
	for (int j = 0; j < p->nkids; j++)
		if (j != k && !lx_reap_ended(lx_reap_slot(p, p->kids[j].pid)) &&
		    (lx_pipe_feeds(p->sh, p->kids[j].pid, p->kids[k].pid) ||
		     lx_pipe_feeds(p->sh, p->kids[k].pid, p->kids[j].pid)))
			return 1;
	return 0;
}

/* (A child seen blocked with its clock still stays so from one wait to
 * the next.  It is only taken to wait on the host while no other child
 * that could still end before t has moved for as long, and while no
 * pipe joins it to a child still running: in `a | b` beside a child c
 * that ended, a blocked on the pipe while b reads (or b while a is not
 * scheduled) ends when the other lets it, not later.) */
int lx_reap_unsettled(struct lx_proc *p, int64_t t, int at, uint64_t f, int64_t *since)
{
	int64_t now = lx_now_ns();
	int wait = 0, moved = 0;

	for (int k = 0; k < p->nkids; k++) {
		struct lx_kid *kid = &p->kids[k];
		const struct lx_slot *s = lx_reap_slot(p, kid->pid);
		int64_t c = reach(p, s, 0) + lx_reap_ended(s);
		if (c != kid->clock && !lx_reap_ended(s) && c < t)
			p->kids_moved_at = now;
		if (c != kid->clock || !s || !blocked(p, s, 0)) {
			moved |= c != kid->clock;
			kid->clock = c;
			kid->still_from = now;
		}
	}
	for (int k = 0; k < p->nkids; k++) {
		const struct lx_slot *s = lx_reap_slot(p, p->kids[k].pid);
		int still = now - p->kids[k].still_from >= LX_REAP_STILL_NS &&
			    now - p->kids_moved_at >= LX_REAP_STILL_NS && !piped(p, k);
		wait |= pending(k, s, p->kids[k].clock - lx_reap_ended(s), t, at, f, still);
	}
	if (!wait)
		return 0;
	if (moved)
		*since = now;
	return now - *since <= LX_REAP_PATIENCE_NS;
}

void lx_reap_settle(struct lx_proc *p, int64_t t, int at, uint64_t f)
{
	int64_t since = lx_now_ns();

	while (lx_reap_unsettled(p, t, at, f, &since)) {
		struct timespec nap = { 0, LX_REAP_NAP_NS };
		lx_host_syscall(35, (long)&nap, 0, 0, 0, 0, 0);
	}
}

/* Whether c goes before d among those that neither feeds: the earlier
 * end, else the earlier fork. */
static int before(const struct cand *c, const struct cand *d)
{
	return c->end != d->end ? c->end < d->end : c->at < d->at;
}

/* Put c[n] (n <= 64) in the order they are reported: each after those
 * that fed it through pipes, maybe through others; else by before(). */
static void order(const struct lx_proc *p, struct cand *c, int n)
{
	uint64_t reach[64], left = n == 64 ? ~0ull : (1ull << n) - 1;
	struct cand out[64] = { { 0 } };

	for (int i = 0; i < n; i++) {
		reach[i] = 0;
		for (int j = 0; j < n; j++)
			if (j != i && lx_pipe_feeds(p->sh, c[i].pid, c[j].pid))
				reach[i] |= 1ull << j;
	}
	for (int grew = 1; grew;) {
		grew = 0;
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++)
				if ((reach[i] >> j & 1) && (reach[j] & ~reach[i])) {
					reach[i] |= reach[j];
					grew = 1;
				}
	}
	for (int k = 0; k < n; k++) {
		int m = -1, fed;
		for (int pass = 0; pass < 2 && m < 0; pass++) /* (pass 1: a cycle) */
			for (int i = 0; i < n; i++) {
				if (!(left >> i & 1))
					continue;
				fed = 0;
				for (int j = 0; j < n && !pass; j++)
					fed |= j != i && (left >> j & 1) && (reach[j] >> i & 1);
				if (!fed && (m < 0 || before(&c[i], &c[m])))
					m = i;
			}
		out[k] = c[m];
		left &= ~(1ull << m);
	}
	memcpy(c, out, (size_t)n * sizeof(*c));
}

/* Child y (at place at in fork order, ended at clock t) and the children
 * ended that go before it or fed it, into c[] (room for 64) in the order
 * they are to be reported; returns how many. */
static int ahead(struct lx_proc *p, int y, int at, int64_t t, struct cand *c)
{
	uint64_t f = feeders(p, y);
	int n = 0;

	lx_reap_settle(p, t, at, f);
	c[n++] = (struct cand){ y, at, t };
	for (int k = 0; k < p->nkids && n < 64; k++) {
		const struct lx_slot *s = lx_reap_slot(p, p->kids[k].pid);
		int64_t end = lx_reap_clock(s);
		if (lx_reap_ended(s) && ((f >> k & 1) || end < t || (end == t && k < at)))
			c[n++] = (struct cand){ p->kids[k].pid, k < at ? k : k + 1, end };
	}
	order(p, c, n);
	return n;
}

/* Reap child pid, which has ended (its status, usage in *status, *ru):
 * returns what wait4 does, after any signal that interrupted it (one the
 * parent holds, or gets after). */
static long reap(int pid, int *status, struct rusage *ru)
{
	long r;

	while ((r = lx_host_syscall(61, pid, (long)status, __WALL, (long)ru, 0, 0)) == -EINTR)
		;
	return r;
}

/* Keep the report of child pid (status, usage ru, ended at clock end)
 * for a later wait. */
static void stash(struct lx_proc *p, int pid, int status, const struct rusage *ru, int64_t end)
{
	struct lx_report *k = &p->stash[p->nstash++];

	k->pid = pid;
	k->end = end;
	k->status = status;
	k->ru = *ru;
}

long lx_reap_order(struct lx_proc *p, long nr, const uint64_t a[6], long r, int *wst)
{
	siginfo_t si;
	int pid = lx_reaped(p, nr, a, r, *wst, &si), at, n, first = 0, fstatus = 0, status;
	struct cand c[64];
	struct rusage ru, fru, yru;
	const struct lx_slot *ys;

	if (pid <= 0)
		return r;
	at = forget(p, pid);
	if (!p->cfg->vtime || !p->sh || p->nth != 1 || !for_any(nr, a) || at < 0 || p->nstash ||
	    !(ys = lx_reap_slot(p, pid)))
		return r;
	n = ahead(p, pid, at, lx_reap_clock(ys), c);
	if (c[0].pid == pid)
		return r; /* (those after it stay for the waits to come) */
	/* y's report as the host gave it, for its turn */
	uint64_t rup = nr == 61 ? a[3] : a[4];
	memset(&yru, 0, sizeof(yru));
	if (rup)
		lx_copy_in(p, &yru, rup, sizeof(yru));
	int ystatus = nr == 61 ? *wst :
		      si.si_code == CLD_EXITED ?
				 W_EXITCODE(si.si_status, 0) :
				 si.si_status | (si.si_code == CLD_DUMPED ? WCOREFLAG : 0);
	for (int k = 0; k < n; k++) {
		if (c[k].pid == pid) {
			stash(p, pid, ystatus, &yru, c[k].end);
		} else if (reap(c[k].pid, &status, &ru) == c[k].pid) {
			forget(p, c[k].pid);
			if (first) {
				stash(p, c[k].pid, status, &ru, c[k].end);
			} else {
				first = c[k].pid;
				fstatus = status;
				fru = ru;
			}
		}
	}
	if (!first) { /* none reaped after all: y, as the host gave it */
		p->nstash = 0;
		return r;
	}
	*wst = fstatus;
	return report(p, nr, a, first, fstatus, &fru);
}
