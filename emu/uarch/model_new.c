/* model_new.c — the model's life: a machine's model made and freed, the
 * counts it adds to, and the partition of its queues between one and two
 * logical processors. */
#include <string.h>

#include "mem.h"
#include "model_priv.h"

struct uarch *uarch_new(const struct uarch_machine *m, struct uarch_counts *cnt, uint64_t seed)
{
	struct uarch *u = uarch_calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->m = *m;
	u->cnt = cnt;
	u->fetch_w = m->core.fetch ? m->core.fetch : 1;
	u->issue_w = m->core.issue ? m->core.issue : 1;
	u->retire_w = m->core.retire ? m->core.retire : 1;
	u->has_l1i = m->cache[UARCH_L1I].line != 0;
	u->wb_line = m->mem.wbuf ? m->mem.wbuf_line : 0;
	u->wb_shift = u->wb_line ? (unsigned)__builtin_ctz(u->wb_line) : 0;
	u->ishift = m->cache[UARCH_L1I].line ? (unsigned)__builtin_ctz(m->cache[UARCH_L1I].line) :
					       0;
	for (int c = 0; c < UARCH_NUCLASS; c++) {
		u->units[c] = m->core.units[c] ? m->core.units[c] : 1;
		u->occupy[c] = m->core.occupy[c] ? m->core.occupy[c] : 1;
	}
	memset(u->sig_at, 0xff, sizeof(u->sig_at));
	u->sum_cut = ~0ull;
	memset(u->th[0].lim, 0xff, sizeof(u->th[0].lim));
	memset(u->th[1].lim, 0xff, sizeof(u->th[1].lim));
	uarch_set_active(u, 1);
	if (uarch_memsys_init(&u->ms, &u->m, cnt, seed) < 0)
		goto fail;
	u->bp = uarch_bp_new(&u->m.bp);
	u->cal = uarch_calloc(UARCH_NUCLASS, sizeof(*u->cal));
	if (!u->bp || !u->cal)
		goto fail;
	for (int t = 0; t < 2; t++) {
		struct uth *h = &u->th[t];
		h->rob.free = uarch_calloc(u->rob, sizeof(uint64_t));
		h->ldq.free = uarch_calloc(u->lq, sizeof(uint64_t));
		h->stq.free = uarch_calloc(u->sq, sizeof(uint64_t));
		h->wbq.free = uarch_calloc(u->wb ? u->wb : 1, sizeof(uint64_t));
		h->wbe = uarch_calloc(u->wb ? u->wb : 1, sizeof(*h->wbe));
		h->iq[0].n = uarch_calloc(IQ_SPAN, sizeof(*h->iq[0].n));
		h->iq[1].n = uarch_calloc(IQ_SPAN, sizeof(*h->iq[1].n));
		h->iline = ~0ull;
		if (!h->rob.free || !h->ldq.free || !h->stq.free || !h->wbq.free || !h->wbe ||
		    !h->iq[0].n || !h->iq[1].n)
			goto fail;
	}
	uarch_retire_mode(u);
	return u;
fail:
	uarch_free(u);
	return NULL;
}

void uarch_free(struct uarch *u)
{
	if (!u)
		return;
	uarch_mfree(u->sig);
	uarch_mfree(u->wp);
	uarch_mfree(u->ib);
	uarch_memsys_free(&u->ms);
	uarch_bp_free(u->bp);
	uarch_mfree(u->cal);
	for (int t = 0; t < 2; t++) {
		uarch_mfree(u->th[t].rob.free);
		uarch_mfree(u->th[t].ldq.free);
		uarch_mfree(u->th[t].stq.free);
		uarch_mfree(u->th[t].wbq.free);
		uarch_mfree(u->th[t].wbe);
		uarch_mfree(u->th[t].iq[0].n);
		uarch_mfree(u->th[t].iq[1].n);
	}
	uarch_mfree(u);
}

void uarch_set_counts(struct uarch *u, struct uarch_counts *cnt)
{
	/* what is not flushed yet belongs to the old counts' owner (a forked
	 * child's parent flushes its own copy) */
	for (int th = 0; th < 2; th++) {
		memset(u->th[th].ev, 0, sizeof(u->th[th].ev));
		memset(u->th[th].unsummed, 0, sizeof(u->th[th].unsummed));
		u->th[th].unflushed = 0;
	}
	u->cnt = cnt;
	u->ms.cnt = cnt;
}

const struct uarch_machine *uarch_machine(const struct uarch *u)
{
	return &u->m;
}

/* A thread's share of n entries. */
static unsigned share(unsigned n, int threads)
{
	n /= (unsigned)threads;
	return n ? n : 1;
}

void uarch_set_active(struct uarch *u, unsigned mask)
{
	const int n = (mask & 3) == 3 ? 2 : 1;

	mask &= 3;
	if (!mask)
		return; /* none runs: the processors stay as they were */
	/* the frontier follows the processors that run: one halted keeps
	 * no signal waiting */
	u->active = (uint8_t)mask;
	/* dual-thread mode partitions the reorder buffer, the issue queue
	 * and the load and store buffers (P4: statically, in halves — Marr
	 * et al., Intel Technology Journal 6(1), 2002), and (≈) the write
	 * buffer; the shares are set once (rob 0) and when the mode changes
	 * (a scheduler asks before every block) */
	if (u->rob && u->nthreads == n)
		return;
	if (u->sig)
		uarch_sums_out(u); /* raised with the old number active */
	u->nthreads = n;
	u->rob = share(u->m.core.rob, u->nthreads);
	u->iq = share(u->m.core.iq, u->nthreads);
	u->fq = u->m.core.fq ? share(u->m.core.fq, u->nthreads) : 0;
	u->lq = share(u->m.core.lq, u->nthreads);
	u->sq = share(u->m.core.sq, u->nthreads);
	u->wb = u->m.mem.wbuf ? share(u->m.mem.wbuf, u->nthreads) : 0;
	for (int t = 0; t < 2; t++) {
		if (u->th[t].rob.i >= u->rob)
			u->th[t].rob.i = 0;
		if (u->th[t].ldq.i >= u->lq)
			u->th[t].ldq.i = 0;
		if (u->th[t].stq.i >= u->sq)
			u->th[t].stq.i = 0;
		if (u->th[t].wbq.i >= u->wb)
			u->th[t].wbq.i = 0;
	}
}

uint64_t uarch_now(const struct uarch *u, int th)
{
	return u->th[th].fetch;
}

void uarch_resume(struct uarch *u, int th, uint64_t cycle)
{
	struct uth *t = &u->th[th];

	/* it has a thread to run from now on: its signals come from cycle */
	u->active |= (uint8_t)(1u << th);
	if (cycle <= t->fetch)
		return;
	t->fetch = cycle;
	t->fetched = 0;
	t->retire = max64(t->retire, cycle);
	t->rcount = 0;
	if (cycle > t->counted) {
		count_span(u, t, th, UARCH_EV_HALTED, t->counted, cycle);
		t->counted = cycle;
	}
	t->issue = max64(t->issue, cycle);
	t->icount = 0;
	t->bub_from = max64(t->bub_from, cycle);
}

void uarch_flush_tlbs(struct uarch *u)
{
	uarch_mem_flush_tlbs(&u->ms);
}
