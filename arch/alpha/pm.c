/* pm.c — ProfileMe ([hrm] 6.10.3, seed 000): in ProfileMe mode the fetch
 * counter counts fetched instructions, squashed and wrong-path ones
 * included; its overflow picks the instruction being fetched, whose
 * progress the hardware then records — stage cycles, retired or aborted,
 * the events it met — while PCTR0 and PCTR1 count the SL1-selected inputs
 * over its window (fetch to retire or abort).
 *
 * The interval between samples is random around the requested period
 * (drawn from the run's seed), so samples do not alias with loops; with
 * pairing a second instruction, a random 1..ALPHA_PM_PAIR_SPAN fetched
 * instructions after the first, is profiled too, so that what retires
 * while an instruction is in flight can be estimated.
 *
 * Window counting follows the manual's quirks unless ideal counting is
 * asked for:
 *  - inum retire delay (6.10.3.3.2): counted only while the retire pointer
 *    waits on the profiled inum inside the window, from the cycle after
 *    fetch at the earliest — a lower bound on the true delay, at most the
 *    window length minus 2;
 *  - retired instructions (6.10.3.3.3): the increment lags each retire by
 *    a variable delay (0..3 cycles here), so the window's count includes
 *    some retires before it and misses some at its end, within ±4;
 *  - Bcache misses (6.10.3.3.4): phase-shifted three cycles early;
 *  - Mbox replay traps (6.10.3.3.5): the window shifted one cycle later,
 *    the first trap counted in the 7th cycle after fetch.
 * Ideal counting counts each input exactly over [fetch, retire] and
 * reports the true inum retire delay. */
#include <string.h>

#include "alpha.h"

#define RETIRE_LAG 4   /* retire-to-increment delays are 0..RETIRE_LAG-1 cycles (≈) */
#define RETIRE_SLOP 4  /* [hrm] 6.10.3.3.3: "plus or minus 4 retired instructions" */
#define BCACHE_EARLY 3 /* [hrm] 6.10.3.3.4 */
#define MBOX_FIRST 7   /* [hrm] 6.10.3.3.5: first trap counted 7 cycles after fetch */
#define MBOX_LATE 1    /* [hrm] 6.10.3.3.5: window shifted one cycle later */
#define MAP_STAGE 2    /* fetch, slot, map: mapped 2 cycles after fetch unstalled [hrm] 2.2 */

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Fetched instructions to the next sample: uniform in [P/2, 3P/2). */
static uint64_t interval(struct alpha_pm *pm)
{
	uint64_t p = pm->period ? pm->period : 1;

	if (p < 2)
		return 1;
	return p / 2 + rnd(&pm->rng) % p;
}

void alpha_pm_init(struct alpha_pm *pm, uint64_t period, unsigned umask, uint64_t seed)
{
	memset(pm, 0, sizeof(*pm));
	pm->period = period;
	pm->sl1 = umask & ALPHA_UM_RETIRED ? 0 :
		  umask & ALPHA_UM_BCACHE  ? 2 :
		  umask & ALPHA_UM_MBOX	   ? 3 :
					     1;
	pm->ideal = !!(umask & ALPHA_UM_IDEAL);
	pm->paired = !!(umask & ALPHA_UM_PAIRED);
	/* two streams: the quirks' delays must not move the samples, so a
	 * run with ideal counting profiles the same instructions */
	pm->rng = (seed ^ 0x2545f4914f6cdd1dull) | 1;
	pm->qrng = (seed ^ 0x9e3779b97f4a7c15ull) * 0xff51afd7ed558ccdull | 1;
	pm->countdown = interval(pm);
}

static void select_insn(struct alpha_pm *pm, const struct uarch_insn *in, uint64_t inum,
			uint64_t rx, uint64_t ir, int partner)
{
	struct alpha_pm_open *o;
	struct alpha_pm_rec *r;
	uint64_t end = in->retire, len, from;

	if (pm->nopen == ALPHA_PM_PEND) {
		pm->dropped++;
		return;
	}
	o = &pm->open[pm->nopen++];
	memset(o, 0, sizeof(*o));
	o->kernel = (uint8_t)pm->kernel;
	o->dsrc = in->dsrc;
	r = &o->r;
	r->pc = in->pc;
	r->seq = ++pm->seq;
	r->inum = inum;
	r->fetch = in->fetch;
	r->map = in->map;
	r->issue = in->issue;
	r->complete = in->complete;
	r->retire = in->retire;
	r->flags = in->flags & 0xffff;
	if (in->map > in->fetch + MAP_STAGE)
		r->flags |= ALPHA_PMF_STALLED;
	if ((in->flags & UARCH_I_ABORTED) && !in->map)
		r->flags |= ALPHA_PMF_KILLED_BM;
	if (pm->ideal)
		r->flags |= ALPHA_PMF_IDEAL;
	if (partner) {
		r->flags |= ALPHA_PMF_PARTNER;
		r->pair = pm->pair_of;
		r->dist = (uint16_t)partner;
	}
	r->sl1 = pm->sl1;
	len = end >= in->fetch ? end - in->fetch + 1 : 1;
	r->cycles = (uint32_t)len;
	if (pm->ideal) {
		r->inum_delay = (uint32_t)(ir - rx);
	} else {
		/* cycles in the window the retire pointer waited on this inum */
		from = rx > in->fetch + 1 ? rx : in->fetch + 1;
		r->inum_delay = ir > from ? (uint32_t)(ir - from) : 0;
		if (r->inum_delay > (len >= 2 ? len - 2 : 0))
			r->inum_delay = (uint32_t)(len >= 2 ? len - 2 : 0);
	}
	if (!partner && pm->paired && !pm->pair_countdown) {
		/* one pair in progress at a time */
		pm->pair_countdown = 1 + rnd(&pm->rng) % ALPHA_PM_PAIR_SPAN;
		pm->pair_of = r->seq;
		pm->pair_fetched = pm->fetched;
	}
}

void alpha_pm_insn(struct alpha_pm *pm, const struct uarch_insn *in)
{
	uint64_t inum, rx, ir;

	pm->fetched++;
	/* inums come in batches of four, a batch per fetch cycle: the rest of
	 * a batch stays empty and retires with the inum before it */
	if (!pm->batch_fill || pm->batch_fill == 4 || in->fetch != pm->batch_cycle) {
		pm->inum = (pm->inum + 3) & ~3ull;
		pm->batch_cycle = in->fetch;
		pm->batch_fill = 0;
	}
	inum = pm->inum++;
	pm->batch_fill++;
	/* every inum retires in order, an aborted one's too */
	rx = pm->last_inum_retire;
	ir = in->retire > rx ? in->retire : rx;
	pm->last_inum_retire = ir;
	if (!(in->flags & UARCH_I_ABORTED))
		pm->rring[pm->nret++ % ALPHA_PM_RRING] = in->retire;
	if (pm->pair_countdown && --pm->pair_countdown == 0)
		select_insn(pm, in, inum, rx, ir, (int)(pm->fetched - pm->pair_fetched));
	if (pm->period && --pm->countdown == 0) {
		select_insn(pm, in, inum, rx, ir, 0);
		pm->countdown = interval(pm);
	}
}

void alpha_pm_bcache(struct alpha_pm *pm, uint64_t cycle)
{
	pm->bring[pm->nbc++ % ALPHA_PM_SRING] = cycle;
}

void alpha_pm_mbox(struct alpha_pm *pm, uint64_t cycle)
{
	pm->mring[pm->nmb++ % ALPHA_PM_SRING] = cycle;
}

/* Events of ring[] (n so far) stamped in [lo, hi]. */
static uint32_t in_range(const uint64_t *ring, uint64_t n, uint64_t lo, uint64_t hi)
{
	uint64_t k = n < ALPHA_PM_SRING ? n : ALPHA_PM_SRING;
	uint32_t c = 0;

	for (uint64_t i = 0; i < k; i++)
		c += ring[i] >= lo && ring[i] <= hi;
	return c;
}

/* Retires in [lo, hi]: the ring is in retire order, so scan back from the
 * newest until older than lo. */
static uint32_t retires(const struct alpha_pm *pm, uint64_t lo, uint64_t hi)
{
	uint64_t k = pm->nret < ALPHA_PM_RRING ? pm->nret : ALPHA_PM_RRING;
	uint32_t c = 0;

	for (uint64_t i = 1; i <= k; i++) {
		uint64_t at = pm->rring[(pm->nret - i) % ALPHA_PM_RRING];
		if (at < lo)
			break;
		c += at <= hi;
	}
	return c;
}

static void close_window(struct alpha_pm *pm, struct alpha_pm_open *o)
{
	struct alpha_pm_rec *r = &o->r;
	uint64_t f = r->fetch, end = r->retire;
	uint32_t exact = retires(pm, f, end);

	if (pm->ideal) {
		r->retired = exact;
		r->bcache = in_range(pm->bring, pm->nbc, f, end);
		r->mbox = in_range(pm->mring, pm->nmb, f, end);
	} else {
		uint64_t lag = rnd(&pm->qrng) % RETIRE_LAG;
		uint32_t seen = retires(pm, f >= lag ? f - lag : 0, end >= lag ? end - lag : 0);

		if (seen > exact + RETIRE_SLOP)
			seen = exact + RETIRE_SLOP;
		if (seen + RETIRE_SLOP < exact)
			seen = exact - RETIRE_SLOP;
		r->retired = seen;
		r->bcache = in_range(pm->bring, pm->nbc, f >= BCACHE_EARLY ? f - BCACHE_EARLY : 0,
				     end >= BCACHE_EARLY ? end - BCACHE_EARLY : 0);
		r->mbox = end + MBOX_LATE >= f + MBOX_FIRST ?
				  in_range(pm->mring, pm->nmb, f + MBOX_FIRST, end + MBOX_LATE) :
				  0;
	}
	switch (r->sl1) {
	case 0:
		r->pctr0 = r->retired, r->pctr1 = r->cycles;
		break;
	case 1:
		r->pctr0 = r->cycles, r->pctr1 = r->inum_delay;
		break;
	case 2:
		r->pctr0 = r->retired, r->pctr1 = r->bcache;
		break;
	default:
		r->pctr0 = r->cycles, r->pctr1 = r->mbox;
	}
	r->pctr0 &= (uint32_t)ALPHA_PCTR_MASK;
	r->pctr1 &= (uint32_t)ALPHA_PCTR_MASK;
	if (pm->emit)
		pm->emit(pm->arg, o);
}

void alpha_pm_advance(struct alpha_pm *pm, uint64_t frontier)
{
	unsigned k = 0;

	for (unsigned i = 0; i < pm->nopen; i++) {
		/* the Mbox window reaches one cycle past the end */
		if (pm->open[i].r.retire + MBOX_LATE < frontier)
			close_window(pm, &pm->open[i]);
		else
			pm->open[k++] = pm->open[i];
	}
	pm->nopen = k;
}

void alpha_pm_finish(struct alpha_pm *pm)
{
	for (unsigned i = 0; i < pm->nopen; i++)
		close_window(pm, &pm->open[i]);
	pm->nopen = 0;
}
