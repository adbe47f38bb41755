/* model_sink.c — the model's events on their way out: flushed into the
 * shared counts, summed or signalled to a listening PMU (struct
 * uarch_sink) and delivered with each retired instruction. */
#include <string.h>

#include "mem.h"
#include "model_priv.h"

/* The sink may have moved its cut (uarch_sink.cut) and made its budget
 * loud or quiet. */
static void read_cut(struct uarch *u)
{
	u->sum_cut = u->sink.cut ? *u->sink.cut : ~0ull;
	u->sig->cut = u->sum_cut;
	u->quiet = u->sink.quiet && !(u->sink.budget && u->sink.budget->loud);
}

/* The sink's budget for what is summed until its next sums(): half for
 * what the memory system sums, a quarter for each logical processor's
 * own (so however many are active, and whichever part raises an event,
 * the sums stay within it). */
static void read_budget(struct uarch *u)
{
	const struct uarch_budget *b = u->sink.budget;

	if (!b)
		return; /* no limit: left[] and lim[] stay ~0 (uarch_set_sink()) */
	for (unsigned ev = 0; ev < UARCH_NEV; ev++) {
		uint64_t n = u->sig->want[ev] == UARCH_WANT_SUM ? b->n[ev] : ~0ull;

		u->sig->left[ev] = n == ~0ull ? n : n / 2;
		for (int th = 0; th < 2; th++)
			u->th[th].lim[ev] = n == ~0ull ? n : u->th[th].ev[ev] + n / 4;
	}
}

void uarch_sums_out(struct uarch *u)
{
	struct uarch_sums s = { .threads = u->nthreads,
				.n = (const uint64_t(*)[2][2])u->sig->sum,
				.frontier = uarch_frontier(u),
				.retire = max64(u->th[0].retire, u->th[1].retire) };

	uarch_flush_thread(u, 0);
	uarch_flush_thread(u, 1);
	if (!u->sink.sums)
		return;
	u->sink.sums(u->sink.ctx, &s);
	memset(u->sig->sum, 0, sizeof(u->sig->sum));
	read_cut(u);
	read_budget(u);
}

void uarch_signal(struct uarch *u, struct uth *t, int th, unsigned ev, uint64_t n, uint64_t cycle,
		  uint64_t dur, uint8_t mem)
{
	if (!u->sig->want[ev] || n < u->sink.sig_min[ev])
		return;
	if (u->sig->want[ev] == UARCH_WANT_SUM)
		t->unsummed[ev] += n * dur;
	uarch_sig_add(u->sig, ev, th, t->kernel, n, cycle, dur, mem);
}

void uarch_flush_thread(struct uarch *u, int th)
{
	struct uth *t = &u->th[th];

	for (int e = 0; e < UARCH_NEV; e++) {
		if (u->sig && u->sig->want[e] == UARCH_WANT_SUM)
			u->sig->sum[e][th][t->kernel] += t->ev[e] - t->unsummed[e];
		u->cnt->n[e][th][t->kernel] += t->ev[e];
		if (t->lim[e] != ~0ull) /* what is left of its share of the budget */
			t->lim[e] = t->lim[e] > t->ev[e] ? t->lim[e] - t->ev[e] : 0;
		t->ev[e] = 0;
		t->unsummed[e] = 0;
	}
	t->unflushed = 0;
}

void uarch_flush(struct uarch *u)
{
	if (u->sig)
		uarch_sums_out(u);
	else
		uarch_flush_thread(u, 0), uarch_flush_thread(u, 1);
}

static void deliver_at(struct uarch *u, int th, const struct x86_trace *tr, uint64_t retire,
		       const struct uarch_insn *insn, unsigned ninsn, uint64_t frontier)
{
	struct uarch_delivery d = { .th = th,
				    .kernel = u->th[th].kernel,
				    .tr = tr,
				    .retire = retire,
				    .frontier = frontier,
				    .threads = u->nthreads,
				    .sig = u->sig->s,
				    .nsig = u->sig->n,
				    .insn = insn,
				    .ninsn = ninsn,
				    .dsrc = tr ? u->dsrc : 0 };

	u->sig->n = 0;
	u->sink.deliver(u->sink.ctx, &d);
	read_cut(u);
}

void uarch_deliver(struct uarch *u, int th, const struct x86_trace *tr, uint64_t retire,
		   const struct uarch_insn *insn, unsigned ninsn)
{
	deliver_at(u, th, tr, retire, insn, ninsn, uarch_frontier(u));
}

void uarch_deliver_held(struct uarch *u, uint64_t frontier)
{
	deliver_at(u, u->sig_th, NULL, u->nib ? u->ib_retire : 0, u->ib, u->nib, frontier);
	u->nib = 0;
}

/* (the records held so far come with the signals, which may be theirs) */
static void sig_full(void *arg)
{
	struct uarch *u = arg;

	uarch_deliver_held(u, uarch_frontier(u));
}

int uarch_set_sink(struct uarch *u, const struct uarch_sink *s)
{
	/* what was counted so far is summed for the sink it was raised for */
	uarch_flush_thread(u, 0);
	uarch_flush_thread(u, 1);
	memset(u->sig_at, 0xff, sizeof(u->sig_at));
	u->sum_cut = ~0ull;
	for (int th = 0; th < 2; th++)
		memset(u->th[th].lim, 0xff, sizeof(u->th[th].lim));
	if (!s) {
		uarch_mfree(u->sig);
		u->sig = u->ms.sig = NULL;
		u->want_insn = 0;
		uarch_retire_mode(u);
		return 0;
	}
	if (!u->sig && !(u->sig = uarch_calloc(1, sizeof(*u->sig))))
		return -1;
	if (s->want_insn && !u->wp && !(u->wp = uarch_calloc(WP_MAX, sizeof(*u->wp))))
		return -1;
	if (s->want_insn && s->insn_batch && !u->ib &&
	    !(u->ib = uarch_calloc(IB_MAX, sizeof(*u->ib))))
		return -1;
	u->want_insn = s->want_insn;
	u->nwp = u->nib = 0;
	u->sink = *s;
	memcpy(u->sig->want, s->want, sizeof(u->sig->want));
	u->sig->full = sig_full;
	u->sig->arg = u;
	u->sig->n = 0;
	for (unsigned ev = 0; ev < UARCH_NEV; ev++) {
		if (!s->want[ev])
			continue;
		u->sig->want[ev] = s->sums && s->sum[ev] ? UARCH_WANT_SUM : UARCH_WANT_SIG;
		u->sig_at[ev] = u->sig->want[ev] == UARCH_WANT_SUM ? (uint64_t)s->sum_max + 1 :
								     s->sig_min[ev];
	}
	u->sig->sum_max = s->sum_max;
	memset(u->sig->sum, 0, sizeof(u->sig->sum));
	u->ms.sig = u->sig;
	if (s->budget)
		s->budget->on = 1;
	memset(u->sig->left, 0xff, sizeof(u->sig->left));
	read_cut(u);
	read_budget(u);
	uarch_retire_mode(u);
	return 0;
}
