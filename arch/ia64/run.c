/* run.c — the Itanium 2 counter hardware at run time: PMC4..7, PMC11 and
 * the processor status bits programmed from the events, each model signal
 * routed to the counters whose event counts it (weighted: some unit masks
 * subtract a subset), the data EAR, and sampling:
 *
 *  - an overflow of a counter with oi raises the performance-monitor
 *    interrupt and sets PMC0.fr, which freezes every counter and the EARs
 *    until the handler clears it ([i2rm] 10.2); the handler runs a
 *    modelled latency later, at the instruction retiring then, records
 *    the sample, reloads the counter and unfreezes;
 *  - the data EAR (PMC11, cache mode) captures each retired load whose
 *    latency reaches 4 << umask cycles: its instruction address (PMD17),
 *    data address (PMD2) and latency (PMD3); DATA_EAR_EVENTS counts the
 *    captures, and its samples carry what the EAR holds, frozen at the
 *    capture that overflowed the counter.
 *
 * Privilege levels: guest code runs at level 3 as IA-32 code (PSR.is 1),
 * system calls at level 0 in the IA-64 kernel (PSR.is 0).  vpmu is a
 * per-process session: user monitors, PSR.up set, PSR.pp clear.
 */
#include <stdlib.h>
#include <string.h>

#include "../../emu/x86/x86.h"
#include "ia64_pmu.h"

/* Cycles from an overflow to the handler running: the interrupt is taken
 * at an instruction boundary after delivery through the processor's
 * interrupt logic (≈, a modelled figure like the P4's). */
#define PMI_LATENCY 40
#define MAXROUTE 8

struct route {
	uint8_t ctr;
	int8_t w;
};

struct arch_pmu {
	struct ia64_engine eng;
	struct arch_pmu_cb cb;
	unsigned n;
	int ctr[ARCH_MAX_EVSEL];
	int evsel_of[IA64_NCTR];
	uint64_t period[IA64_NCTR]; /* what the next reload writes (0: counting only) */
	uint64_t loaded[IA64_NCTR]; /* the period the counter now runs */
	uint8_t nroute[UARCH_NEV];
	struct route route[UARCH_NEV][MAXROUTE];
	/* a delivery's net count per counter and level (0 kernel, 1 user),
	 * for counters without per-cycle values */
	int64_t pend[IA64_NCTR][2];
	uint64_t pend_at[IA64_NCTR];
	uint64_t last;
	uint8_t pmi_pending[IA64_NCTR];
	uint64_t pmi_due[IA64_NCTR];
	/* the data EAR: PMC11, its counter, PMD17 / PMD2 / PMD3 */
	int dear_ctr;
	uint32_t pmc11, dear_lat;
	uint64_t dear_iaddr, dear_daddr;
	uint32_t dear_latency;
};

static void add_route(struct arch_pmu *p, unsigned sig, int ctr, int8_t w)
{
	if (sig >= UARCH_NEV || p->nroute[sig] >= MAXROUTE)
		return;
	p->route[sig][p->nroute[sig]++] = (struct route){ (uint8_t)ctr, w };
}

static void on_pmi(void *arg, int ctr, uint64_t cycle)
{
	struct arch_pmu *p = arg;

	if (p->evsel_of[ctr] < 0 || !p->period[ctr] || p->pmi_pending[ctr])
		return; /* no handler: the counters stay frozen, as PMC0.fr says */
	p->pmi_pending[ctr] = 1;
	p->pmi_due[ctr] = cycle + PMI_LATENCY;
}

/* The processor status a signal of privilege kernel sees. */
static unsigned level(struct arch_pmu *p, int kernel)
{
	p->eng.hw.psr_is = kernel ? 0 : 1; /* the kernel is IA-64 code, the guest IA-32 */
	return kernel ? 0 : 3;
}

static void flush_pending(struct arch_pmu *p)
{
	for (int c = 0; c < IA64_NCTR; c++)
		for (int k = 0; k < 2; k++)
			if (p->pend[c][k]) {
				if (p->pend[c][k] > 0)
					ia64_engine_input(&p->eng, c, p->pend_at[c],
							  (int32_t)p->pend[c][k], 1, level(p, !k));
				p->pend[c][k] = 0;
			}
}

/* PMC11 in cache mode, level cpl: whether a load of latency lat is captured. */
static int dear_takes(const struct arch_pmu *p, unsigned cpl, uint32_t lat)
{
	unsigned ism = p->pmc11 >> IA64_DEAR_ISM_SHIFT & 3u;

	if (p->eng.hw.pmc0 & IA64_PMC0_FR)
		return 0; /* frozen with the counters */
	if (!(p->pmc11 >> cpl & 1) || (ism & (cpl ? IA64_ISM_NO_IA32 : IA64_ISM_NO_IA64)))
		return 0;
	if ((p->pmc11 >> IA64_DEAR_MODE_SHIFT & IA64_DEAR_MODE_MASK) != IA64_DEAR_CACHE)
		return 0;
	return lat >= p->dear_lat;
}

/* The k-th load of tr (the model signals loads in program order). */
static int load_index(const struct x86_trace *tr, unsigned k)
{
	for (int i = 0; i < tr->nmem; i++)
		if ((tr->load >> i & 1) && !k--)
			return i;
	return -1;
}

static void dear_signal(struct arch_pmu *p, const struct uarch_delivery *d,
			const struct uarch_sig *s, unsigned nth)
{
	unsigned cpl = level(p, s->kernel);
	int i;

	if (!d->tr || !dear_takes(p, cpl, s->n) || (i = load_index(d->tr, nth)) < 0)
		return;
	p->dear_iaddr = d->tr->i->pc;
	p->dear_daddr = d->tr->addr[i];
	p->dear_latency = s->n;
	ia64_engine_input(&p->eng, p->dear_ctr, s->cycle, 1, 1, cpl);
}

static void take_sample(struct arch_pmu *p, int c, const struct uarch_delivery *d)
{
	struct arch_sample s = { 0 };
	int i = p->evsel_of[c];

	s.ip = d->tr->i->pc; /* the interrupt is taken before it */
	s.cycle = d->retire;
	s.period = p->loaded[c];
	s.evsel = (uint32_t)i;
	s.th = (uint8_t)d->th;
	s.kernel = (uint8_t)d->kernel;
	if (c == p->dear_ctr) {
		s.ip = p->dear_iaddr;
		s.addr = p->dear_daddr;
		s.latency = p->dear_latency;
		s.precise = 1;
	}
	p->pmi_pending[c] = 0;
	p->loaded[c] = p->period[c];
	ia64_engine_rearm(&p->eng, c, (0 - p->period[c]) & IA64_CTR_MASK);
	if (p->cb.sample)
		p->cb.sample(p->cb.arg, &s);
}

static void deliver(void *ctx, const struct uarch_delivery *d)
{
	struct arch_pmu *p = ctx;
	unsigned nload = 0;

	for (unsigned k = 0; k < d->nsig; k++) {
		const struct uarch_sig *s = &d->sig[k];
		uint64_t end = s->cycle + s->dur;

		if (s->ev == UARCH_EV_LOAD_LAT) {
			if (p->dear_ctr >= 0)
				dear_signal(p, d, s, nload);
			nload++;
		}
		for (unsigned r = 0; r < p->nroute[s->ev]; r++) {
			const struct route *o = &p->route[s->ev][r];
			if (p->eng.cs[o->ctr].percycle) {
				ia64_engine_input(&p->eng, o->ctr, s->cycle, (int32_t)s->n * o->w,
						  s->dur, level(p, s->kernel));
			} else {
				p->pend[o->ctr][!s->kernel] += (int64_t)s->n * s->dur * o->w;
				if (end - 1 > p->pend_at[o->ctr])
					p->pend_at[o->ctr] = end - 1;
			}
		}
		if (end > p->last)
			p->last = end;
	}
	flush_pending(p);
	if (d->retire > p->last)
		p->last = d->retire;
	ia64_engine_advance(&p->eng, d->frontier);
	if (!d->tr)
		return;
	for (int c = 0; c < IA64_NCTR; c++)
		if (p->pmi_pending[c] && d->retire >= p->pmi_due[c])
			take_sample(p, c, d);
}

struct arch_pmu *ia64_pmu_new(const struct arch_evsel *e, unsigned n, const int *ctr,
			      const struct arch_pmu_cb *cb)
{
	struct arch_pmu *p = calloc(1, sizeof(*p));
	uint8_t kind[IA64_NCTR] = { 0 };

	if (!p)
		return NULL;
	p->cb = *cb;
	p->n = n;
	p->dear_ctr = -1;
	for (int c = 0; c < IA64_NCTR; c++)
		p->evsel_of[c] = -1;
	for (unsigned i = 0; i < n && i < ARCH_MAX_EVSEL; i++) {
		const struct ia64_event_desc *d = &ia64_events[e[i].event];
		const struct ia64_umask_desc *um = d->num ? ia64_umask_of(d, e[i].umask) : NULL;
		const struct ia64_sig *sig = um ? um->sig : d->sig;
		int c = ctr[i];

		p->ctr[i] = c;
		if (c < 0 || c >= IA64_NCTR)
			continue;
		p->evsel_of[c] = (int)i;
		p->eng.hw.pmc[c] = (uint32_t)e[i].config;
		kind[c] = d->kind;
		if (e[i].period) {
			p->period[c] = p->loaded[c] = e[i].period & IA64_CTR_MASK;
			p->eng.hw.pmd[c] = (0 - e[i].period) & IA64_CTR_MASK;
			p->eng.hw.pmc[c] |= IA64_PMC_OI;
		}
		if (d->kind == IA64_K_DEAR) {
			p->dear_ctr = c;
			p->pmc11 = (uint32_t)(e[i].config >> IA64_CONFIG_AUX_SHIFT);
			p->dear_lat = 4u
				      << (p->pmc11 >> IA64_DEAR_UMASK_SHIFT & IA64_DEAR_UMASK_MASK);
			continue;
		}
		for (int k = 0; k < IA64_NSIG && sig[k].ev != UARCH_NEV; k++)
			add_route(p, sig[k].ev, c, sig[k].w);
	}
	p->eng.hw.psr_up = 1;
	p->eng.hw.psr_pp = 0;
	p->eng.hw.psr_is = 1;
	p->eng.pmi = on_pmi;
	p->eng.arg = p;
	ia64_engine_start(&p->eng, kind);
	return p;
}

void ia64_pmu_sink(struct arch_pmu *p, struct uarch_sink *s)
{
	s->deliver = deliver;
	s->ctx = p;
	memset(s->want, 0, sizeof(s->want));
	for (unsigned ev = 0; ev < UARCH_NEV; ev++)
		s->want[ev] = p->nroute[ev] > 0;
	if (p->dear_ctr >= 0)
		s->want[UARCH_EV_LOAD_LAT] = 1;
}

void ia64_pmu_read(struct arch_pmu *p, uint64_t *val)
{
	ia64_engine_advance(&p->eng, p->last + 1);
	for (unsigned i = 0; i < p->n; i++) {
		int c = p->ctr[i];
		val[i] = c >= 0 && c < IA64_NCTR && p->evsel_of[c] == (int)i ? p->eng.cs[c].total :
									       0;
	}
}

void ia64_pmu_period(struct arch_pmu *p, unsigned i, uint64_t period)
{
	/* the interrupt handler's reload writes it (take_sample) */
	if (i < p->n && period && p->ctr[i] >= 0 && p->ctr[i] < IA64_NCTR)
		p->period[p->ctr[i]] = period & IA64_CTR_MASK ? period & IA64_CTR_MASK : 1;
}

void ia64_pmu_free(struct arch_pmu *p)
{
	free(p);
}
