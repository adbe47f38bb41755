/* model_clear.c — machine clears: the whole pipeline emptied and refilled
 * (on the P4, for self-modifying code and for floating-point assists: SDM
 * vol. 3B, table A-10, MACHINE_CLEAR). */
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
	unsigned line = u->m.cache[UARCH_L1I].line;
	/* the front end refills as after a mispredicted branch (≈) */
	clear(u, t, th, UARCH_EV_MC_SMC, u->m.bp.penalty);
	for (uint64_t a = addr / line * line; line && u->ms.c[UARCH_L1I] && a < addr + len;
	     a += line)
		uarch_cache_invalidate(u->ms.c[UARCH_L1I], a);
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
