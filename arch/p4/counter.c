/* counter.c — what a NetBurst counter does with the output of the event
 * detector its CCCR selects: threshold compare, complement, edge,
 * active-thread qualification, 40-bit wrap and the OVF flag, FORCE_OVF,
 * the overflow PMI and cascading (IA-32 SDM vol. 3B, NetBurst performance
 * monitoring: the CCCR figure, "Filtering Events", "Cascading Counters",
 * "Generating an Interrupt on Overflow"; seed 004, "Counter
 * configuration" and "Other features").
 *
 * Two ways of counting.  A counter that only adds its input (COMPARE=0)
 * and whose overflow cycle nothing depends on — no FORCE_OVF, no PMI, not
 * waiting for a cascade start and no cascaded counter waiting for it —
 * adds v * dur when the input arrives: the order of inputs does not
 * matter and a long span costs one step.  Its overflow, when it wraps, is
 * reported at the cycle inside the input that carried it over; without
 * a PMI nothing needs that cycle, and p4_engine_add() takes the inputs
 * already summed (the model's sums, model.h).  Every
 * other counter (cs.percycle) keeps each cycle's detector output in cs.v[]
 * (cycle % P4_RING) and counts when p4_engine_advance() makes the cycles
 * final, in cycle order, so compare, edge, overflow, PMI and cascade start
 * happen at exact cycles.
 *
 * A counter that is per-cycle only for its PMI (a sampling counter) needs
 * the order of its inputs only near its wrap.  While its OVF flag is clear
 * (not overflowed, or reloaded since), and what its ring holds plus 15
 * increments in every cycle up to the end of each input it has taken
 * cannot carry it over, it adds an input at once (far()): the wrap it is
 * heading for then lies past every input so taken, and the ring holds
 * every later one in cycle order.  Such a counter, and a PEBS counter
 * (near-only, both), may also take inputs already summed short of its
 * wrap (p4_engine_add(), run.c's budget); cs.reserve says how many may
 * still come that way, and far() leaves room for them.
 *
 * Choices the manuals leave open:
 *  - The detector output is at most 15 a cycle (seed 004: a 4-bit bus).
 *    Per-cycle counters cap the sum of a cycle's inputs; the fast path,
 *    and a sampling counter adding an input at once, cap each input (they
 *    never see two inputs as one cycle).  The two differ only where more
 *    than 15 pile onto one cycle, as late inputs do at e->done after a
 *    span longer than the ring moved it ahead.
 *  - Active-thread mode reads e->threads when the cycles are counted: at
 *    p4_engine_advance() for per-cycle counters, at p4_engine_input() for
 *    fast ones and for inputs a sampling counter adds at once.  A cycle
 *    the mode rules out is not seen by the counter at all: no increment,
 *    and the edge detector keeps its last output.
 *  - A cascaded counter counts from the cycle after its partner's
 *    overflow.  A FORCE_OVF overflow is an overflow in every respect (OVF
 *    flag, callback, PMI, cascade start); the count itself still only
 *    wraps at 2^40.
 *  - The PMI is raised at the cycle of the next increment after the
 *    overflow, once that increment is in the counter.
 *  - Callbacks may rewrite e->hw.ctr[ctr] (a sampling handler reloading
 *    its period) and clear the OVF flag; the counter continues from the
 *    value written.  Other CCCR changes take effect at the next
 *    p4_engine_start().  Callbacks must not call back into the engine.
 *  - Within one p4_engine_advance() the callbacks come counter by counter
 *    (a cascaded counter after the one that starts it), each counter's in
 *    cycle order.
 *  - An input stamped before e->done is moved to start at e->done, its
 *    length kept, so a late input loses no counts.
 */
#include <string.h>

#include "p4.h"

/* CCCR bits 27:26, OVF_PMI_T1:OVF_PMI_T0, as the pmi callback's mask. */
#define P4_CCCR_PMI_SHIFT 26
#define P4_CCCR_PMI (P4_CCCR_OVF_PMI_T0 | P4_CCCR_OVF_PMI_T1)

/* Waiting to be started by its partner's overflow: SDM "Cascading
 * Counters" sets CASCADE with ENABLE clear on the second counter. */
static int cascade_armed(uint32_t cccr)
{
	return (cccr & P4_CCCR_CASCADE) && !(cccr & P4_CCCR_ENABLE);
}

/* The counter whose overflow starts counter c when c is cascaded: the
 * corresponding counter of the other pair in the same block (SDM
 * "Cascading Counters": BPU 0-3, MS 4-7, FLAME 8-11 pair 0<->2 and 1<->3
 * within the block; in the IQ block 12<->14 and 13<->15, and counters 16
 * and 17 are started by 14 and 15 but start no other counter). */
static int cascade_from(int c)
{
	if (c < 12)
		return (c & ~3) | ((c & 3) ^ 2);
	if (c < 16)
		return c ^ 2;
	return c - 2;
}

/* CCCR bits 17:16 against the number of active logical processors. */
static int thread_ok(uint32_t cccr, int threads)
{
	switch ((cccr >> P4_CCCR_THREAD_SHIFT) & P4_CCCR_THREAD_MASK) {
	case P4_THREAD_NONE:
		return threads == 0;
	case P4_THREAD_SINGLE:
		return threads == 1;
	case P4_THREAD_BOTH:
		return threads == 2;
	default:
		return 1;
	}
}

/* The increment one cycle's detector output v makes, through the
 * threshold comparator and edge detector (SDM "Filtering Events");
 * *prev holds the comparator's output for the previous cycle. */
static unsigned filter(uint32_t cccr, unsigned v, uint8_t *prev)
{
	unsigned th, out, inc;

	if (!(cccr & P4_CCCR_COMPARE))
		return v; /* complement, threshold and edge act only with compare */
	th = (cccr >> P4_CCCR_THRESH_SHIFT) & P4_CCCR_THRESH_MASK;
	out = (cccr & P4_CCCR_COMPLEMENT) ? v <= th : v > th;
	inc = (cccr & P4_CCCR_EDGE) ? (out && !*prev) : out;
	*prev = (uint8_t)out;
	return inc;
}

/* Counter c overflowed at cycle t.  start[] (NULL on the fast path, whose
 * counters have no cascaded partner) receives the first counting cycle
 * of counters this overflow starts. */
static void overflowed(struct p4_engine *e, int c, uint64_t t, uint64_t *start)
{
	int d;

	e->hw.cccr[c] |= P4_CCCR_OVF; /* sticky until software clears it */
	if (e->hw.cccr[c] & P4_CCCR_PMI)
		e->cs[c].pmi_armed = 1;
	for (d = 0; start && d < P4_NCTR; d++) {
		if (d == c || cascade_from(d) != c || e->cs[d].active || !e->cs[d].percycle ||
		    !cascade_armed(e->hw.cccr[d]))
			continue;
		e->cs[d].active = 1;
		start[d] = t + 1;
	}
	if (e->overflow)
		e->overflow(e->arg, c, t);
}

/* One increment inc at cycle t, with the PMI a previous overflow armed
 * and the overflow this one may cause. */
static void step(struct p4_engine *e, int c, uint64_t t, uint64_t inc, uint64_t *start)
{
	uint64_t x = (e->hw.ctr[c] & P4_CTR_MASK) + inc;
	int wrap = x > P4_CTR_MASK;

	e->hw.ctr[c] = x & P4_CTR_MASK;
	if (e->cs[c].pmi_armed) {
		/* SDM, OVF_PMI flag: the PMI comes with the next event count
		 * after the counter has overflowed. */
		unsigned mask = (e->hw.cccr[c] >> P4_CCCR_PMI_SHIFT) & 3;

		e->cs[c].pmi_armed = 0;
		if (mask && e->pmi)
			e->pmi(e->arg, c, mask, t);
	}
	if (wrap || (e->hw.cccr[c] & P4_CCCR_FORCE_OVF))
		overflowed(e, c, t, start);
}

/* Counter c increments by inc in each of n cycles from cycle t.  Steps
 * one by one only where every increment matters (an armed PMI,
 * FORCE_OVF); otherwise jumps to the next wrap. */
static void count(struct p4_engine *e, int c, uint64_t t, uint64_t inc, uint64_t n, uint64_t *start)
{
	if (!inc || !n)
		return;
	e->cs[c].total += inc * n;
	while (n) {
		uint64_t x, fit;

		if (e->cs[c].pmi_armed || (e->hw.cccr[c] & P4_CCCR_FORCE_OVF)) {
			step(e, c, t++, inc, start);
			n--;
			continue;
		}
		x = e->hw.ctr[c] & P4_CTR_MASK;
		fit = (P4_CTR_MASK - x) / inc; /* increments before the wrap */
		if (fit >= n) {
			e->hw.ctr[c] = x + inc * n;
			return;
		}
		e->hw.ctr[c] = x + inc * fit;
		t += fit;
		n -= fit;
		step(e, c, t++, inc, start); /* the one that wraps */
		n--;
	}
}

/* Make cycles [e->done, frontier) final for per-cycle counter c, counting
 * those from cycle from on when ok (thread mode allows it); the ring
 * slots of all of them are emptied. */
static void settle(struct p4_engine *e, int c, uint64_t frontier, uint64_t from, int ok,
		   uint64_t *start)
{
	struct p4_cstate *cs = &e->cs[c];
	uint32_t cccr = e->hw.cccr[c];
	uint64_t wend = frontier - e->done > P4_RING ? e->done + P4_RING : frontier;
	uint64_t t, rt = 0, rinc = 0, rn = 0; /* a run of equal increments */
	unsigned inc;

	if (!(cccr & P4_CCCR_COMPARE)) {
		/* without compare an empty cycle adds nothing: stop where the
		 * ring does */
		if (cs->ring_end < wend)
			wend = cs->ring_end > e->done ? cs->ring_end : e->done;
		if (frontier > wend)
			frontier = wend;
	}

	for (t = e->done; t < wend; t++) {
		uint8_t *slot = &cs->v[t % P4_RING];
		unsigned v = *slot;

		*slot = 0;
		cs->pend -= v;
		if (!ok || t < from)
			continue;
		inc = filter(cccr, v, &cs->prev);
		if (inc == rinc && rt + rn == t) {
			rn++;
			continue;
		}
		count(e, c, rt, rinc, rn, start);
		rt = t;
		rinc = inc;
		rn = 1;
	}
	count(e, c, rt, rinc, rn, start);

	/* No input can lie past the ring: those cycles all read 0. */
	t = wend > from ? wend : from;
	if (!ok || t >= frontier)
		return;
	inc = filter(cccr, 0, &cs->prev);
	count(e, c, t, inc, 1, start);
	if (++t < frontier) {
		inc = filter(cccr, 0, &cs->prev); /* the edge detector now holds */
		count(e, c, t, inc, frontier - t, start);
	}
}

void p4_engine_start(struct p4_engine *e)
{
	int c;

	for (c = 0; c < P4_NCTR; c++) {
		uint32_t cccr = e->hw.cccr[c];
		struct p4_cstate *cs = &e->cs[c];

		memset(cs, 0, sizeof(*cs));
		e->hw.ctr[c] &= P4_CTR_MASK;
		cs->active = !!(cccr & P4_CCCR_ENABLE);
		cs->percycle = (cccr & (P4_CCCR_COMPARE | P4_CCCR_FORCE_OVF)) ||
			       ((cccr & P4_CCCR_PMI) && !(e->pebs_ctrs & (1u << c))) ||
			       cascade_armed(cccr);
		cs->pmi_only = cs->percycle && cs->active &&
			       !(cccr & (P4_CCCR_COMPARE | P4_CCCR_FORCE_OVF | P4_CCCR_CASCADE));
	}
	/* a counter that starts another must overflow at the exact cycle */
	for (c = 0; c < P4_NCTR; c++)
		if (cascade_armed(e->hw.cccr[c])) {
			e->cs[cascade_from(c)].percycle = 1;
			e->cs[cascade_from(c)].pmi_only = 0;
		}
	e->percycle = 0;
	for (c = 0; c < P4_NCTR; c++)
		if (e->cs[c].percycle)
			e->percycle |= 1u << c;
}

/* Whether sampling counter c may add v in each cycle of [done, end) at
 * once: see the top of the file.  From its wrap until its interrupt
 * handler reloads it and clears OVF (the PMI armed meanwhile), the ring
 * holds every input in cycle order. */
static int far(const struct p4_engine *e, const struct p4_cstate *cs, int c, uint64_t v,
	       uint64_t dur, uint64_t end)
{
	uint64_t room = P4_CTR_MASK - (e->hw.ctr[c] & P4_CTR_MASK);
	uint64_t hi = end > cs->far_end ? end : cs->far_end;

	/* the sums on their way are counted as if in the ring */
	if (!cs->pmi_only || (e->hw.cccr[c] & P4_CCCR_OVF) || cs->reserve > room)
		return 0;
	room -= cs->reserve;
	if (v * dur + cs->pend > room)
		return 0;
	return (room - v * dur - cs->pend) / P4_DETECTOR_MAX >= hi - e->done;
}

/* The state of counter ctr for an input of v in each of dur cycles from
 * *cycle, NULL if it counts nothing; v capped, a late cycle moved to
 * e->done. */
static struct p4_cstate *input_of(struct p4_engine *e, int ctr, uint64_t *cycle, uint32_t *v,
				  uint32_t dur)
{
	if (ctr < 0 || ctr >= P4_NCTR || !*v || !dur)
		return NULL;
	if (*v > P4_DETECTOR_MAX)
		*v = P4_DETECTOR_MAX;
	if (*cycle < e->done)
		*cycle = e->done;
	return &e->cs[ctr];
}

int p4_engine_at_once(struct p4_engine *e, int ctr, uint64_t cycle, uint32_t v, uint32_t dur)
{
	struct p4_cstate *cs = input_of(e, ctr, &cycle, &v, dur);
	uint64_t end;

	if (!cs)
		return 1; /* nothing to count */
	if (!cs->percycle) {
		if (cs->active && thread_ok(e->hw.cccr[ctr], e->threads))
			count(e, ctr, cycle, v, dur, NULL);
		return 1;
	}
	end = cycle + dur;
	if (end < cycle || !far(e, cs, ctr, v, dur, end))
		return 0;
	if (thread_ok(e->hw.cccr[ctr], e->threads)) {
		/* far(): it cannot wrap, so no step of count() is needed */
		e->hw.ctr[ctr] = (e->hw.ctr[ctr] & P4_CTR_MASK) + (uint64_t)v * dur;
		cs->total += (uint64_t)v * dur;
	}
	if (end > cs->far_end)
		cs->far_end = end;
	return 1;
}

void p4_engine_queue(struct p4_engine *e, int ctr, uint64_t cycle, uint32_t v, uint32_t dur)
{
	struct p4_cstate *cs = input_of(e, ctr, &cycle, &v, dur);
	uint64_t end;

	if (!cs || (!cs->active && !cascade_armed(e->hw.cccr[ctr])))
		return;
	end = cycle + dur;
	if (end < cycle)
		end = UINT64_MAX;
	if (end > cs->ring_end)
		cs->ring_end = end;
	for (;;) {
		uint64_t lim = end - e->done > P4_RING ? e->done + P4_RING : end;

		for (; cycle < lim; cycle++) {
			uint8_t *slot = &cs->v[cycle % P4_RING];
			unsigned s = *slot + v;

			s = s > P4_DETECTOR_MAX ? P4_DETECTOR_MAX : s;
			cs->pend += s - *slot;
			*slot = (uint8_t)s;
		}
		if (cycle >= end)
			return;
		/* The rest lies past the ring: make room for as much of it as
		 * fits, never past the cycles still to be filled. */
		p4_engine_advance(e, end - P4_RING < cycle ? end - P4_RING : cycle);
	}
}

void p4_engine_input(struct p4_engine *e, int ctr, uint64_t cycle, uint32_t v, uint32_t dur)
{
	if (!p4_engine_at_once(e, ctr, cycle, v, dur))
		p4_engine_queue(e, ctr, cycle, v, dur);
}

int p4_engine_addonly(const struct p4_engine *e, int ctr)
{
	return ctr >= 0 && ctr < P4_NCTR && e->cs[ctr].active && !e->cs[ctr].percycle &&
	       !(e->hw.cccr[ctr] & P4_CCCR_PMI);
}

int p4_engine_nearonly(const struct p4_engine *e, int ctr)
{
	const struct p4_cstate *cs;

	if (ctr < 0 || ctr >= P4_NCTR)
		return 0;
	cs = &e->cs[ctr];
	return cs->active && (e->hw.cccr[ctr] & P4_CCCR_PMI) &&
	       (cs->pmi_only || (!cs->percycle && (e->pebs_ctrs & (1u << ctr))));
}

uint64_t p4_engine_room(const struct p4_engine *e, int ctr)
{
	const struct p4_cstate *cs = &e->cs[ctr];

	if ((e->hw.cccr[ctr] & P4_CCCR_OVF) || cs->pmi_armed || cs->pend)
		return 0;
	return P4_CTR_MASK - (e->hw.ctr[ctr] & P4_CTR_MASK);
}

void p4_engine_add(struct p4_engine *e, int ctr, uint64_t n)
{
	/* as the fast path of p4_engine_input() for inputs summing to n:
	 * without a PMI nothing depends on the cycle of a wrap, and a
	 * near-only counter's sums stop short of it (a wrap would still be
	 * counted, at e->done) */
	if (n && (p4_engine_addonly(e, ctr) || p4_engine_nearonly(e, ctr)) &&
	    thread_ok(e->hw.cccr[ctr], e->threads))
		count(e, ctr, e->done, n, 1, NULL);
}

void p4_engine_advance(struct p4_engine *e, uint64_t frontier)
{
	uint64_t start[P4_NCTR];
	uint32_t todo = 0;
	int c, progress;

	if (frontier <= e->done)
		return;
	/* without compare, a counter whose ring is empty has nothing to settle */
	for (uint32_t m = e->percycle; m; m &= m - 1) {
		c = __builtin_ctz(m);
		if ((e->hw.cccr[c] & P4_CCCR_COMPARE) || e->cs[c].ring_end > e->done)
			todo |= 1u << c;
	}
	if (!todo) { /* every input is already counted */
		e->done = frontier;
		return;
	}
	memset(start, 0, sizeof(start));
	/* A cascaded counter only starts inside this span once the counter
	 * that starts it has been counted, so count in rounds. */
	do {
		progress = 0;
		for (c = 0; c < P4_NCTR; c++) {
			if (!(todo & (1u << c)) || !e->cs[c].active)
				continue;
			settle(e, c, frontier, start[c] > e->done ? start[c] : e->done,
			       thread_ok(e->hw.cccr[c], e->threads), start);
			todo &= ~(1u << c);
			progress = 1;
		}
	} while (progress);
	/* never started: their pending cycles are dropped */
	for (c = 0; c < P4_NCTR; c++)
		if (todo & (1u << c))
			settle(e, c, frontier, frontier, 0, start);
	e->done = frontier;
}
