/* model_clear.c — machine clears: the whole pipeline emptied and refilled
 * (on the P4, for self-modifying code, memory ordering and floating-point
 * assists: SDM vol. 3B, table A-10, MACHINE_CLEAR). */
#include "model_priv.h"

/* Empty thread th's pipeline for cause (an event) once what is in flight
 * has retired, and refetch after cycles. */
static void clear(struct uarch *u, struct uth *t, int th, unsigned cause, uint64_t cycles)
{
	uint64_t at = max64(t->fetch, t->retire), restart = at + (cycles ? cycles : 1);

	count(u, t, th, cause, 1, at);
	count_span(u, t, th, UARCH_EV_MC_CYCLES, at, restart);
	t->fetch = restart;
	t->fetched = 0;
	t->iline = ~0ull;
}

void uarch_machine_clear_smc(struct uarch *u, int th, uint64_t addr, uint64_t len)
{
	struct uth *t = &u->th[th];
	struct uarch_cache *l1i = u->ms.c[UARCH_L1I];
	unsigned line = u->m.cache[UARCH_L1I].line;
	uint64_t at = max64(t->fetch, t->retire);
	int held = 0;

	/* the front end refills as after a mispredicted branch (≈) */
	clear(u, t, th, UARCH_EV_MC_SMC, u->m.bp.penalty);
	for (uint64_t a = addr / line * line; line && l1i && a < addr + len; a += line) {
		if (!u->m.l1i_is_tc)
			uarch_cache_invalidate(l1i, a);
		else if (uarch_cache_probe(l1i, a))
			held = 1;
	}
	/* a write to code the trace cache holds invalidates all of it (SDM
	 * vol. 3A, 11.6 "Self-Modifying Code"; TC_MISC:FLUSH) */
	if (held) {
		uarch_cache_flush(l1i);
		count(u, t, th, UARCH_EV_TC_FLUSH, 1, at);
	}
}

/* The instruction that retired at cycle retired met the conditions kinds
 * (X86_ASSIST_*): on a machine that takes assists, microcode handles them
 * once the pipeline has drained, and the front end refetches behind it. */
void uarch_assist(struct uarch *u, int th, unsigned kinds, uint64_t retired)
{
	static const unsigned ev[] = {
		UARCH_EV_SSE_ASSIST_IN,	   UARCH_EV_SSE_ASSIST_OUT,  UARCH_EV_X87_ASSIST_IN,
		UARCH_EV_X87_ASSIST_UNDER, UARCH_EV_X87_ASSIST_OVER, UARCH_EV_X87_ASSIST_SU,
		UARCH_EV_X87_ASSIST_SO,
	};
	struct uth *t = &u->th[th];

	for (unsigned k = 0; k < sizeof(ev) / sizeof(ev[0]); k++)
		if (kinds >> k & 1)
			count(u, t, th, ev[k], 1, retired);
	if (u->m.core.assist)
		clear(u, t, th, UARCH_EV_FP_ASSISTS, u->m.core.assist);
}

/* Memory ordering in dual-thread mode.  A load may read its line before
 * older instructions retire; if the other logical processor writes the
 * line in between, the value read may break the order of loads, and the
 * processor clears the pipeline behind the load (MACHINE_CLEAR:MOCLEAR;
 * the IA-32 Optimization Reference Manual's reason for PAUSE in spin-wait
 * loops).  The model keeps, per line slot, the loads in flight as one run
 * (its first issue, its last retirement) and the other processor's last
 * write to the first level, and checks each against the other as it is
 * timed, as the processors' clocks stay within a block of each other. */
static unsigned mo_slot(const struct uarch *u, uint64_t a, uint64_t *line)
{
	*line = a >> u->ms.l1_shift;
	return (unsigned)(*line % MO_SLOTS);
}

/* Processor th clears behind a load the other processor's store hit. */
static void mo_clear(struct uarch *u, int th)
{
	clear(u, &u->th[th], th, UARCH_EV_MC_MO, u->m.bp.penalty);
}

void uarch_mo_load(struct uarch *u, int th, uint64_t a, uint64_t issue, uint64_t retire)
{
	uint64_t line;
	unsigned s = mo_slot(u, a, &line);
	struct uth *t = &u->th[th];
	const struct uth *o = &u->th[!th];

	if (t->mo_ld[s].line == line && issue <= t->mo_ld[s].retire) {
		t->mo_ld[s].retire = max64(t->mo_ld[s].retire, retire);
	} else {
		t->mo_ld[s].line = line;
		t->mo_ld[s].issue = issue;
		t->mo_ld[s].retire = retire;
	}
	if (o->mo_st[s].line == line && o->mo_st[s].at > issue && o->mo_st[s].at < retire) {
		t->mo_ld[s].line = ~0ull; /* executed again */
		mo_clear(u, th);
	}
}

void uarch_mo_store(struct uarch *u, int th, uint64_t a, uint64_t at)
{
	uint64_t line;
	unsigned s = mo_slot(u, a, &line);
	struct uth *o = &u->th[!th];

	u->th[th].mo_st[s].line = line;
	u->th[th].mo_st[s].at = at;
	if (o->mo_ld[s].line == line && o->mo_ld[s].issue < at && at < o->mo_ld[s].retire) {
		o->mo_ld[s].line = ~0ull;
		mo_clear(u, !th);
	}
}
