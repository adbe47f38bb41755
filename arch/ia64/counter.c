/* counter.c — the Itanium 2 generic counters PMC4..7 / PMD4..7 (ia64.h):
 * qualification by privilege level, monitor kind and instruction set,
 * thresholds on per-cycle values of multi-occurrence events, the 47-bit
 * wrap, and PMC0's overflow and freeze bits (seed 001; [i2rm] 10.2). */
#include <string.h>

#include "ia64.h"

/* Threshold field: 3 bits on PMC4/5, 2 bits (21:20) on PMC6/7 (seed 001:
 * "PMC[4,5] define 3 threshold bits 22:20, while PMC[6,7] define 2"). */
static unsigned threshold(const struct ia64_engine *e, int c)
{
	unsigned t = e->hw.pmc[c] >> IA64_PMC_THRES_SHIFT & IA64_PMC_THRES_MASK;
	return c < 2 ? t : t & 3u;
}

void ia64_engine_start(struct ia64_engine *e, const uint8_t *kind)
{
	e->done = 0;
	for (int c = 0; c < IA64_NCTR; c++) {
		struct ia64_cstate *s = &e->cs[c];
		s->kind = kind ? kind[c] : IA64_K_PLAIN;
		s->percycle = threshold(e, c) || s->kind == IA64_K_OUT_HI ||
			      s->kind == IA64_K_OUT_LO;
		s->total = 0;
		memset(s->v, 0, sizeof(s->v));
		e->hw.pmd[c] &= IA64_CTR_MASK;
	}
}

int ia64_engine_counts(const struct ia64_engine *e, int c, unsigned cpl)
{
	uint32_t pmc = e->hw.pmc[c];
	unsigned ism = pmc >> IA64_PMC_ISM_SHIFT & IA64_PMC_ISM_MASK;

	if (e->hw.pmc0 & IA64_PMC0_FR)
		return 0; /* frozen: no monitor counts */
	if (!(pmc >> (cpl & 3) & 1))
		return 0; /* plm: plm 0 disables the monitor */
	if (!((pmc & IA64_PMC_PM) ? e->hw.psr_pp : e->hw.psr_up))
		return 0; /* a user monitor runs on PSR.up, a privileged one on PSR.pp */
	/* ism: bit 24 low enables IA-64 code, bit 25 low IA-32 code (seed 001) */
	if (ism & (e->hw.psr_is ? IA64_ISM_NO_IA32 : IA64_ISM_NO_IA64))
		return 0;
	return 1;
}

/* Overflow of counter c at cycle: PMC0's overflow bit, then the BPM pin
 * (ev, whatever oi says) and with oi the interrupt and the freeze bit. */
static void overflow(struct ia64_engine *e, int c, uint64_t cycle)
{
	uint32_t pmc = e->hw.pmc[c];

	e->hw.pmc0 |= 1ull << (IA64_PMC0_OVF_SHIFT + c);
	if ((pmc & IA64_PMC_EV) && e->notify)
		e->notify(e->arg, c, cycle);
	if (pmc & IA64_PMC_OI) {
		e->hw.pmc0 |= IA64_PMC0_FR;
		if (e->pmi)
			e->pmi(e->arg, c, cycle);
	}
}

static void add(struct ia64_engine *e, int c, uint64_t n, uint64_t cycle)
{
	uint64_t v = e->hw.pmd[c] + n;

	e->cs[c].total += n;
	e->hw.pmd[c] = v & IA64_CTR_MASK;
	if (v > IA64_CTR_MASK)
		overflow(e, c, cycle);
}

void ia64_engine_input(struct ia64_engine *e, int c, uint64_t cycle, int32_t v, uint32_t dur,
		       unsigned cpl)
{
	struct ia64_cstate *s;

	if (c < 0 || c >= IA64_NCTR || !dur || !ia64_engine_counts(e, c, cpl))
		return;
	s = &e->cs[c];
	if (!s->percycle) {
		if (v > 0)
			add(e, c, (uint64_t)v * dur, cycle);
		return;
	}
	if (cycle < e->done) {
		uint64_t skip = e->done - cycle;
		if (skip >= dur)
			return; /* wholly in cycles already final (should not happen) */
		cycle = e->done;
		dur -= (uint32_t)skip;
	}
	if (cycle + dur > e->done + IA64_RING)
		ia64_engine_advance(e, cycle + dur - IA64_RING);
	for (uint64_t k = cycle; k < cycle + dur; k++)
		s->v[k % IA64_RING] += v;
}

void ia64_engine_add(struct ia64_engine *e, int c, uint64_t n, uint64_t cycle, unsigned cpl)
{
	if (c < 0 || c >= IA64_NCTR || !n || e->cs[c].percycle || !ia64_engine_counts(e, c, cpl))
		return;
	add(e, c, n, cycle);
}

void ia64_engine_advance(struct ia64_engine *e, uint64_t frontier)
{
	int any = 0;

	for (int c = 0; c < IA64_NCTR; c++)
		any |= e->cs[c].percycle;
	if (!any || frontier <= e->done) {
		if (frontier > e->done)
			e->done = frontier;
		return;
	}
	for (uint64_t k = e->done; k < frontier; k++) {
		for (int c = 0; c < IA64_NCTR; c++) {
			struct ia64_cstate *s = &e->cs[c];
			int32_t *slot = &s->v[k % IA64_RING];
			uint32_t x = *slot > 0 ? (uint32_t)*slot : 0;
			unsigned t;

			if (!s->percycle)
				continue;
			*slot = 0;
			if (s->kind == IA64_K_OUT_HI)
				x = x >> 3 & 3u;
			else if (s->kind == IA64_K_OUT_LO)
				x &= 7u;
			t = threshold(e, c);
			if (t)
				x = x > t; /* one per cycle whose value exceeds it (seed 001) */
			if (x && !(e->hw.pmc0 & IA64_PMC0_FR))
				add(e, c, x, k);
		}
	}
	e->done = frontier;
}

void ia64_engine_rearm(struct ia64_engine *e, int c, uint64_t pmd)
{
	e->hw.pmd[c] = pmd & IA64_CTR_MASK;
	e->hw.pmc0 &= ~(1ull << (IA64_PMC0_OVF_SHIFT + c));
	e->hw.pmc0 &= ~(uint64_t)IA64_PMC0_FR;
}
