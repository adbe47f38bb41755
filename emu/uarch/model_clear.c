/* model_clear.c — machine clears: the whole pipeline emptied and refilled
 * (on the P4, for self-modifying code: SDM vol. 3B, table A-10,
 * MACHINE_CLEAR). */
#include "model_priv.h"

void uarch_machine_clear_smc(struct uarch *u, int th, uint64_t addr, uint64_t len)
{
	struct uth *t = &u->th[th];
	unsigned line = u->m.cache[UARCH_L1I].line;
	/* once what is in flight has retired, the front end refills as after
	 * a mispredicted branch (≈) */
	uint64_t at = max64(t->fetch, t->retire);
	uint64_t restart = at + (u->m.bp.penalty ? u->m.bp.penalty : 1);

	count(u, t, th, UARCH_EV_MC_SMC, 1, at);
	count_span(u, t, th, UARCH_EV_MC_CYCLES, at, restart);
	t->fetch = restart;
	t->fetched = 0;
	t->iline = ~0ull;
	for (uint64_t a = addr / line * line; line && u->ms.c[UARCH_L1I] && a < addr + len;
	     a += line)
		uarch_cache_invalidate(u->ms.c[UARCH_L1I], a);
}
