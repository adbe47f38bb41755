/* run.c — the 21264/EV67 counter hardware at run time: PCTR0 and PCTR1 in
 * aggregate mode counting the SL1-selected inputs (count.c), or ProfileMe
 * mode (pm.c) profiling fetched instructions; samples go to the session
 * through the callback.
 *
 * Aggregate-mode overflows interrupt ([hrm] 5-15: ISUM[PC0]/[PC1] when
 * IER_CM enables them); the interrupt is taken at the next instruction to
 * retire, the sample naming it (no precise address: that is ProfileMe's
 * job). */
#include <stdlib.h>
#include <string.h>

#include "../../emu/x86/x86.h"
#include "alpha.h"

/* The model signal each aggregate input counts. */
static const uint16_t input_sig[ALPHA_NEV] = {
	[ALPHA_EV_CYCLES] = UARCH_EV_CYCLES,  [ALPHA_EV_RETIRED] = UARCH_EV_INSNS,
	[ALPHA_EV_BCACHE] = UARCH_EV_L2_MISS, [ALPHA_EV_MBOX] = UARCH_EV_LD_ST_OVERLAP,
	[ALPHA_EV_PROFILEME] = UARCH_NEV,
};

/* Events short of its overflow that a sampling counter's sums stop at: a
 * signal smaller than this cannot carry it over before the sums on their
 * way (only a stall of more cycles is larger).  Within twice that its
 * events come one by one, and every retirement is delivered
 * (uarch_budget). */
#define NEAR_MARGIN 1024

struct arch_pmu {
	struct arch_pmu_cb cb;
	unsigned n;
	struct alpha_ctr ctr[2];
	int evsel_of[2]; /* aggregate: event on each counter (-1) */
	int pm_evsel;	 /* ProfileMe: its event (-1: aggregate mode) */
	struct alpha_pm pm;
	uint8_t pm_qual; /* ProfileMe: privileges profiled (bit 0 user, 1 kernel) */
	uint64_t last_retire;
	/* sampling in aggregate mode: the counters take sums within a
	 * budget; reserved: those with sums on their way */
	uint8_t budgeted, reserved;
	struct uarch_budget bud;
	uint64_t cut; /* uarch_sink.cut: 0 to have the sums now */
};

static void take_interrupts(struct arch_pmu *p, const struct uarch_delivery *d)
{
	for (int c = 0; c < 2; c++) {
		struct alpha_ctr *k = &p->ctr[c];
		while (k->pending) {
			struct arch_sample s = { 0 };
			k->pending--;
			if (!p->cb.sample || p->evsel_of[c] < 0)
				continue;
			s.ip = d->tr->i->pc;
			s.cycle = d->retire;
			s.period = k->period;
			s.evsel = (uint32_t)p->evsel_of[c];
			s.th = (uint8_t)d->th;
			s.kernel = (uint8_t)d->kernel;
			p->cb.sample(p->cb.arg, &s);
		}
	}
}

static void emit(void *arg, const struct alpha_pm_open *o)
{
	struct arch_pmu *p = arg;
	struct arch_sample s = { 0 };
	uint8_t raw[ALPHA_PM_BYTES];

	if (!p->cb.sample)
		return;
	alpha_pm_encode(&o->r, raw);
	s.ip = o->r.pc;
	s.cycle = o->r.retire;
	s.period = p->pm.period;
	s.evsel = (uint32_t)p->pm_evsel;
	s.kernel = o->kernel;
	s.precise = 1;
	s.dsrc = o->dsrc;
	s.raw = raw;
	s.nraw = ALPHA_PM_BYTES;
	p->cb.sample(p->cb.arg, &s);
}

/* Sampling counters near their overflow or with an interrupt to take:
 * their events must come one by one. */
static unsigned near_ctrs(const struct arch_pmu *p)
{
	unsigned near = 0;

	for (int c = 0; c < 2; c++)
		if (p->budgeted >> c & 1 && (p->ctr[c].left < 2 * NEAR_MARGIN || p->ctr[c].pending))
			near |= 1u << c;
	return near;
}

/* The budget until the next sums: what a counter can take short of
 * NEAR_MARGIN, none near its overflow (and then every retirement is
 * delivered).  Only while the model keeps to it (bud.on). */
static void plan_budget(struct arch_pmu *p)
{
	unsigned near = near_ctrs(p);

	if (!p->bud.on)
		return;
	p->reserved = 0;
	for (int c = 0; c < 2; c++)
		if (p->budgeted >> c & 1)
			p->bud.n[p->ctr[c].sig] = ~0ull;
	for (int c = 0; c < 2; c++) {
		uint64_t *b = &p->bud.n[p->ctr[c].sig];
		uint64_t share = near >> c & 1 ? 0 : p->ctr[c].left - NEAR_MARGIN;

		if (!(p->budgeted >> c & 1))
			continue;
		if (share < *b)
			*b = share;
		if (share)
			p->reserved |= (uint8_t)(1u << c);
	}
	p->bud.loud = near != 0;
	p->cut = ~0ull;
}

/* A block's records (insn_batch): the windows close as they would have
 * with each record delivered alone, or a mispredicted path's together. */
static void take_records(struct arch_pmu *p, const struct uarch_insn *in, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		alpha_pm_insn(&p->pm, &in[k]);
		if (p->pm.nopen && (k + 1 == n || !(in[k].flags & UARCH_I_ABORTED) ||
				    !(in[k + 1].flags & UARCH_I_ABORTED)))
			alpha_pm_advance(&p->pm, in[k].frontier);
	}
}

static void deliver(void *ctx, const struct uarch_delivery *d)
{
	struct arch_pmu *p = ctx;
	unsigned touched = 0;

	if (p->pm_evsel >= 0) {
		for (unsigned k = 0; k < d->nsig; k++) {
			const struct uarch_sig *s = &d->sig[k];
			if (s->ev == UARCH_EV_L2_MISS)
				alpha_pm_bcache(&p->pm, s->cycle);
			else if (s->ev == UARCH_EV_LD_ST_OVERLAP)
				alpha_pm_mbox(&p->pm, s->cycle);
		}
		p->pm.kernel = d->kernel;
		if (p->pm_qual >> d->kernel & 1)
			take_records(p, d->insn, d->ninsn);
		if (p->pm.nopen && d->frontier != ~0ull) /* (most deliveries find none open) */
			alpha_pm_advance(&p->pm, d->frontier);
		return;
	}
	for (unsigned k = 0; k < d->nsig; k++) {
		const struct uarch_sig *s = &d->sig[k];
		for (int c = 0; c < 2; c++)
			if (p->ctr[c].sig == s->ev) {
				alpha_ctr_add(&p->ctr[c], s->kernel, (uint64_t)s->n * s->dur);
				touched |= 1u << c;
			}
	}
	if (d->tr)
		take_interrupts(p, d);
	/* the sums, before a counter with sums on their way counts on (its
	 * share ran out), or once the interrupt that made it loud is taken */
	if (p->bud.on && ((touched & p->reserved) || (p->bud.loud && !near_ctrs(p))))
		p->cut = 0;
}

struct arch_pmu *alpha_pmu_new(const struct arch_evsel *e, unsigned n, const int *ctr,
			       const struct arch_pmu_cb *cb)
{
	struct arch_pmu *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->cb = *cb;
	p->n = n;
	p->pm_evsel = -1;
	p->evsel_of[0] = p->evsel_of[1] = -1;
	p->ctr[0].sig = p->ctr[1].sig = UARCH_NEV;
	for (unsigned i = 0; i < n && i < ARCH_MAX_EVSEL; i++) {
		uint8_t qual = (uint8_t)((e[i].excl_user ? 0 : 1) | (e[i].excl_kernel ? 0 : 2));
		struct alpha_ctr *k;
		int c = ctr[i] & 1;

		if (e[i].event == ALPHA_EV_PROFILEME) {
			p->pm_evsel = (int)i;
			p->pm_qual = qual;
			alpha_pm_init(&p->pm, e[i].period, e[i].umask, cb->seed);
			p->pm.emit = emit;
			p->pm.arg = p;
			continue;
		}
		if (ctr[i] < 0 || ctr[i] >= 8)
			continue;
		k = &p->ctr[c];
		p->evsel_of[c] = (int)i;
		k->sig = input_sig[e[i].event];
		k->qual = qual;
		if (e[i].period) {
			/* the counter is preloaded so it overflows after period
			 * events; 20 bits hold at most 2^20 */
			k->period = k->reload = e[i].period > ALPHA_PCTR_MASK + 1 ?
							ALPHA_PCTR_MASK + 1 :
							e[i].period;
			k->left = k->period;
		}
	}
	return p;
}

/* The summed signals (uarch_sink.sum) into the counters that count them. */
static void take_sums(void *ctx, const struct uarch_sums *s)
{
	struct arch_pmu *p = ctx;

	for (int c = 0; c < 2; c++)
		if (p->ctr[c].sig != UARCH_NEV)
			for (int q = 0; q < 4; q++)
				alpha_ctr_add(&p->ctr[c], q & 1,
					      s->n[p->ctr[c].sig][q >> 1][q & 1]);
	plan_budget(p);
}

void alpha_pmu_sink(struct arch_pmu *p, struct uarch_sink *s)
{
	memset(s, 0, sizeof(*s));
	s->deliver = deliver;
	s->ctx = p;
	if (p->pm_evsel >= 0) {
		s->want[UARCH_EV_L2_MISS] = s->want[UARCH_EV_LD_ST_OVERLAP] = 1;
		s->want_insn = s->insn_batch = 1;
		return;
	}
	/* a counter just adds its input ([hrm] 6.10.2: none goes uncounted),
	 * so it takes sums and needs no empty delivery; sampling takes each
	 * interrupt at the retirement after the overflow, so a sampling
	 * counter's sums stop short of it, and from there every retirement
	 * is delivered (loud) */
	s->sums = take_sums;
	s->sum_max = UINT32_MAX;
	s->quiet = 1;
	for (int c = 0; c < 2; c++) {
		unsigned sig = p->ctr[c].sig;

		if (sig == UARCH_NEV)
			continue;
		s->want[sig] = s->sum[sig] = 1;
		if (p->ctr[c].period)
			p->budgeted |= (uint8_t)(1u << c);
	}
	for (unsigned ev = 0; ev < UARCH_NEV; ev++)
		p->bud.n[ev] = ~0ull;
	for (int c = 0; c < 2; c++)
		if (p->budgeted >> c & 1)
			p->bud.n[p->ctr[c].sig] = 0; /* until the first sums */
	p->bud.loud = p->budgeted != 0;
	p->cut = ~0ull;
	if (p->budgeted) {
		s->cut = &p->cut;
		s->budget = &p->bud;
	}
}

void alpha_pmu_read(struct arch_pmu *p, uint64_t *val)
{
	for (unsigned i = 0; i < p->n; i++)
		val[i] = 0;
	if (p->pm_evsel >= 0) {
		/* the windows still open end with the run */
		alpha_pm_finish(&p->pm);
		val[p->pm_evsel] = p->pm.fetched;
		return;
	}
	for (int c = 0; c < 2; c++)
		if (p->evsel_of[c] >= 0)
			val[p->evsel_of[c]] = p->ctr[c].total;
}

void alpha_pmu_period(struct arch_pmu *p, unsigned i, uint64_t period)
{
	if (!period || i >= p->n)
		return;
	if ((int)i == p->pm_evsel) {
		p->pm.period = period;
		return;
	}
	for (int c = 0; c < 2; c++)
		if (p->evsel_of[c] == (int)i && p->ctr[c].period)
			p->ctr[c].reload = period > ALPHA_PCTR_MASK + 1 ? ALPHA_PCTR_MASK + 1 :
									  period;
}

void alpha_pmu_free(struct arch_pmu *p)
{
	free(p);
}
