/* Unit tests for arch/p4/counter.c: the NetBurst counter and CCCR on small
 * event sequences worked out by hand — plain counting, the 40-bit wrap and
 * OVF flag, threshold, complement, edge, cascading, FORCE_OVF, the PMI on
 * the increment after an overflow, active-thread modes, input order,
 * spans across and beyond the per-cycle ring, and a sampling counter fed
 * out of order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "arch/p4/p4.h"

#define ANY (P4_THREAD_ANY << P4_CCCR_THREAD_SHIFT)
#define TH(n) ((uint32_t)(n) << P4_CCCR_THRESH_SHIFT)
#define ON (P4_CCCR_ENABLE | ANY)
#define NEG(n) ((P4_CTR_MASK + 1 - (n)) & P4_CTR_MASK) /* -n in 40 bits */

#define NREC 64

/* What the callbacks saw. */
struct rec {
	unsigned novf, npmi;
	int ovf_ctr[NREC];
	uint64_t ovf_cycle[NREC];
	int pmi_ctr[NREC];
	unsigned pmi_mask[NREC];
	uint64_t pmi_cycle[NREC];
	struct p4_engine *e;
	uint64_t reload; /* nonzero: the PMI handler writes this to the counter */
};

static void on_ovf(void *arg, int ctr, uint64_t cycle)
{
	struct rec *r = arg;

	assert_true(r->novf < NREC);
	r->ovf_ctr[r->novf] = ctr;
	r->ovf_cycle[r->novf++] = cycle;
}

static void on_pmi(void *arg, int ctr, unsigned mask, uint64_t cycle)
{
	struct rec *r = arg;

	assert_true(r->npmi < NREC);
	r->pmi_ctr[r->npmi] = ctr;
	r->pmi_mask[r->npmi] = mask;
	r->pmi_cycle[r->npmi++] = cycle;
	if (r->reload) {
		r->e->hw.ctr[ctr] = r->reload;
		r->e->hw.cccr[ctr] &= ~P4_CCCR_OVF;
	}
}

static struct p4_engine *mk(struct rec *r)
{
	struct p4_engine *e = calloc(1, sizeof(*e));

	assert_non_null(e);
	*r = (struct rec){ .e = e };
	e->overflow = on_ovf;
	e->pmi = on_pmi;
	e->arg = r;
	e->threads = 1;
	return e;
}

/* v in each cycle of [first, first + n), one input per cycle */
static void each(struct p4_engine *e, int ctr, uint64_t first, const uint32_t *v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p4_engine_input(e, ctr, first + i, v[i], 1);
}

static void test_plain_count(void **state)
{
	struct rec r;
	struct p4_engine *e = mk(&r);

	(void)state;
	e->hw.cccr[0] = ON;
	e->hw.cccr[1] = ON;
	e->hw.cccr[2] = ANY; /* not enabled */
	p4_engine_start(e);
	assert_false(e->cs[0].percycle);
	p4_engine_input(e, 0, 10, 3, 4);    /* 3 x 4 */
	p4_engine_input(e, 0, 20, 99, 1);   /* a 4-bit detector gives at most 15 */
	p4_engine_input(e, 0, 5, 0, 7);	    /* nothing */
	p4_engine_input(e, 0, 30, 2, 0);    /* no cycles */
	assert_int_equal(e->hw.ctr[0], 27); /* counted at input: no advance needed */
	assert_int_equal(e->cs[0].total, 27);
	/* a long span is one step on the fast path */
	p4_engine_input(e, 1, 0, 15, 0xffffffffu);
	assert_int_equal(e->hw.ctr[1], 15ull * 0xffffffffu);
	p4_engine_input(e, 2, 0, 5, 5);
	assert_int_equal(e->hw.ctr[2], 0);
	assert_int_equal(e->cs[2].total, 0);
	p4_engine_advance(e, 100);
	assert_int_equal(e->hw.ctr[0], 27);
	assert_int_equal(r.novf, 0);
	assert_int_equal(e->hw.cccr[0] & P4_CCCR_OVF, 0);
	free(e);
}

/* Summed inputs (p4_engine_add) leave an add-only counter as the inputs
 * one by one do, wrap and OVF included; a sampling counter whose PMI is
 * all that needs cycles (near-only) takes them short of its wrap; other
 * counters take no sums. */
static void test_add_sum(void **state)
{
	struct rec ra, rb;
	struct p4_engine *a = mk(&ra), *b = mk(&rb);
	static const uint32_t v[] = { 3, 15, 1, 7, 15, 2 };
	uint64_t sum = 0;

	(void)state;
	a->hw.cccr[0] = b->hw.cccr[0] = ON;
	a->hw.ctr[0] = b->hw.ctr[0] = NEG(20);
	b->hw.cccr[1] = ON | P4_CCCR_COMPARE;
	b->hw.cccr[2] = ON | P4_CCCR_OVF_PMI_T0;
	p4_engine_start(a);
	p4_engine_start(b);
	assert_true(p4_engine_addonly(b, 0));
	assert_false(p4_engine_addonly(b, 1)); /* per cycle */
	assert_false(p4_engine_addonly(b, 2)); /* its PMI needs the cycle */
	assert_false(p4_engine_addonly(b, 3)); /* not enabled */
	assert_true(p4_engine_nearonly(b, 2));
	assert_false(p4_engine_nearonly(b, 0)); /* no PMI */
	assert_false(p4_engine_nearonly(b, 1));
	assert_int_equal(p4_engine_room(b, 2), P4_CTR_MASK);
	for (unsigned k = 0; k < 6; k++) {
		p4_engine_input(a, 0, 100 + k, v[k], 2);
		sum += 2ull * v[k];
	}
	p4_engine_add(b, 0, sum);
	p4_engine_add(b, 1, 5);
	p4_engine_add(b, 2, 5);
	assert_int_equal(b->hw.ctr[0], a->hw.ctr[0]);
	assert_int_equal(b->cs[0].total, a->cs[0].total);
	assert_int_equal(b->hw.ctr[0], sum - 20);
	assert_true(b->hw.cccr[0] & P4_CCCR_OVF);
	assert_true(a->hw.cccr[0] & P4_CCCR_OVF);
	assert_int_equal(b->cs[1].total, 0);
	assert_int_equal(b->cs[2].total, 5);
	assert_int_equal(p4_engine_room(b, 2), P4_CTR_MASK - 5);
	b->hw.cccr[2] |= P4_CCCR_OVF; /* overflowed: each input in its cycle */
	assert_int_equal(p4_engine_room(b, 2), 0);
	free(a);
	free(b);
}

static void test_wrap(void **state)
{
	struct rec r;
	struct p4_engine *e = mk(&r);

	(void)state;
	/* fast path: -5 + 2 per cycle from cycle 100: -3, -1, +1 wraps at 102 */
	e->hw.cccr[0] = ON;
	e->hw.ctr[0] = NEG(5);
	/* per-cycle (compare, threshold 0: one per cycle with input) */
	e->hw.cccr[1] = ON | P4_CCCR_COMPARE | TH(0);
	e->hw.ctr[1] = NEG(2);
	p4_engine_start(e);
	p4_engine_input(e, 0, 100, 2, 4);
	assert_int_equal(e->hw.ctr[0], 3);
	assert_int_equal(e->cs[0].total, 8);
	assert_true(e->hw.cccr[0] & P4_CCCR_OVF);
	assert_int_equal(r.novf, 1);
	assert_int_equal(r.ovf_ctr[0], 0);
	assert_int_equal(r.ovf_cycle[0], 102);
	p4_engine_input(e, 0, 110, 1, 1); /* no wrap: OVF stays set, no callback */
	assert_true(e->hw.cccr[0] & P4_CCCR_OVF);
	assert_int_equal(r.novf, 1);

	/* per-cycle: -2 at cycles 7, 9, 12: -1, 0 (wrap at 9), 1 */
	p4_engine_input(e, 1, 12, 4, 1);
	p4_engine_input(e, 1, 7, 1, 1);
	p4_engine_input(e, 1, 9, 9, 1);
	assert_int_equal(e->hw.ctr[1], NEG(2)); /* not final yet */
	p4_engine_advance(e, 20);
	assert_int_equal(e->hw.ctr[1], 1);
	assert_int_equal(e->cs[1].total, 3);
	assert_true(e->hw.cccr[1] & P4_CCCR_OVF);
	assert_int_equal(r.novf, 2);
	assert_int_equal(r.ovf_ctr[1], 1);
	assert_int_equal(r.ovf_cycle[1], 9);
	free(e);
}

static void test_threshold_gt(void **state)
{
	struct rec r;
	struct p4_engine *e = mk(&r);
	static const uint32_t v[] = { 1, 3, 2, 5, 0, 15 };

	(void)state;
	e->hw.cccr[3] = ON | P4_CCCR_COMPARE | TH(2);
	p4_engine_start(e);
	assert_true(e->cs[3].percycle);
	each(e, 3, 0, v, 6);
	assert_int_equal(e->hw.ctr[3], 0); /* counts only as cycles become final */
	p4_engine_advance(e, 3);	   /* 1, 3, 2: one above 2 */
	assert_int_equal(e->hw.ctr[3], 1);
	p4_engine_advance(e, 6); /* 5, 0, 15 */
	assert_int_equal(e->hw.ctr[3], 3);
	assert_int_equal(e->cs[3].total, 3);
	free(e);
}

static void test_complement_le(void **state)
{
	struct rec r;
	struct p4_engine *e = mk(&r);
	static const uint32_t v[] = { 1, 3, 2, 5 };

	(void)state;
	e->hw.cccr[4] = ON | P4_CCCR_COMPARE | P4_CCCR_COMPLEMENT | TH(2);
	e->hw.cccr[5] = ON | P4_CCCR_COMPARE | P4_CCCR_COMPLEMENT | TH(0);
	p4_engine_start(e);
	each(e, 4, 0, v, 4);
	/* 1 and 2 are <= 2, 3 and 5 are not; cycles 4..9 had no input: 0 <= 2 */
	p4_engine_advance(e, 10);
	assert_int_equal(e->hw.ctr[4], 2 + 6);
	/* counter 5 saw no input at all: every cycle is idle */
	assert_int_equal(e->hw.ctr[5], 10);
	/* idle cycles far past the ring */
	p4_engine_advance(e, 10 + 3 * P4_RING + 5);
	assert_int_equal(e->hw.ctr[4], 8 + 3 * P4_RING + 5);
	assert_int_equal(e->hw.ctr[5], 10 + 3 * P4_RING + 5);
	assert_int_equal(e->done, 10 + 3 * P4_RING + 5);
	free(e);
}

static void test_edge(void **state)
{
	struct rec r;
	struct p4_engine *e = mk(&r);
	static const uint32_t v[] = { 3, 3, 0, 3 };

	(void)state;
	/* > 2: true, true, false, true: rising edges at cycles 0 and 3 */
	e->hw.cccr[0] = ON | P4_CCCR_COMPARE | P4_CCCR_EDGE | TH(2);
	/* <= 0 with edge: false, false, true, false, then idle (true) from
	 * cycle 4: rising edges at 2 and 4 only */
	e->hw.cccr[1] = ON | P4_CCCR_COMPARE | P4_CCCR_COMPLEMENT | P4_CCCR_EDGE | TH(0);
	/* edge without compare is ignored: plain sum */
	e->hw.cccr[6] = ON | P4_CCCR_EDGE | P4_CCCR_FORCE_OVF;
	p4_engine_start(e);
	each(e, 0, 0, v, 2);
	each(e, 1, 0, v, 4);
	each(e, 6, 0, v, 4);
	p4_engine_advance(e, 2);
	assert_int_equal(e->hw.ctr[0], 1);
	/* the last compare output carries over to the next advance */
	each(e, 0, 2, v + 2, 2);
	p4_engine_advance(e, 10);
	assert_int_equal(e->hw.ctr[0], 2);
	assert_int_equal(e->hw.ctr[1], 2);
	assert_int_equal(e->hw.ctr[6], 9);
	p4_engine_advance(e, 5 * P4_RING);
	assert_int_equal(e->hw.ctr[0], 2);
	assert_int_equal(e->hw.ctr[1], 2);
	free(e);
}

static void test_cascade(void **state)
{
	struct rec r;
	struct p4_engine *e = mk(&r);

	(void)state;
	/* counter 0 at -3 overflows with its third count, at cycle 2;
	 * counter 2 (cascaded from 0) counts from cycle 3 on */
	e->hw.cccr[0] = ON;
	e->hw.ctr[0] = NEG(3);
	e->hw.cccr[2] = ANY | P4_CCCR_CASCADE;
	/* counter 1's partner is 3, not 0: it never starts */
	e->hw.cccr[1] = ANY | P4_CCCR_CASCADE;
	/* the other direction in the MS block: 6 starts 4 */
	e->hw.cccr[6] = ON;
	e->hw.ctr[6] = NEG(3);
	e->hw.cccr[4] = ANY | P4_CCCR_CASCADE;
	p4_engine_start(e);
	assert_true(e->cs[0].percycle);
	assert_true(e->cs[6].percycle);
	assert_false(e->cs[2].active);
	for (int c = 0; c < 7; c++)
		p4_engine_input(e, c, 0, 1, 10);
	p4_engine_advance(e, 2);
	assert_int_equal(e->hw.ctr[0], P4_CTR_MASK);
	assert_int_equal(e->hw.ctr[2], 0);
	assert_false(e->cs[2].active);
	p4_engine_advance(e, 10);
	assert_int_equal(e->hw.ctr[0], 7);
	assert_true(e->cs[2].active);
	assert_int_equal(e->hw.ctr[2], 7);
	assert_int_equal(e->cs[2].total, 7);
	assert_int_equal(e->hw.ctr[1], 0);
	assert_false(e->cs[1].active);
	assert_int_equal(e->hw.ctr[4], 7);
	assert_int_equal(r.novf, 2);
	assert_int_equal(r.ovf_cycle[0], 2);
	assert_int_equal(r.ovf_cycle[1], 2);
	/* once started it keeps counting */
	p4_engine_input(e, 2, 20, 3, 1);
	p4_engine_advance(e, 30);
	assert_int_equal(e->hw.ctr[2], 10);
	free(e);
}

static void test_cascade_chain_iq(void **state)
{
	struct rec r;
	struct p4_engine *e = mk(&r);

	(void)state;
	/* 12 overflows at cycle 0, starting 14; 14 (at -1) overflows with
	 * its first count at cycle 1, starting 16 at cycle 2 */
	e->hw.cccr[12] = ON;
	e->hw.ctr[12] = P4_CTR_MASK;
	e->hw.cccr[14] = ANY | P4_CCCR_CASCADE;
	e->hw.ctr[14] = P4_CTR_MASK;
	e->hw.cccr[16] = ANY | P4_CCCR_CASCADE;
	p4_engine_start(e);
	p4_engine_input(e, 16, 0, 1, 10);
	p4_engine_input(e, 14, 0, 1, 10);
	p4_engine_input(e, 12, 0, 1, 10);
	p4_engine_advance(e, 10);
	assert_int_equal(e->hw.ctr[12], 9);
	assert_int_equal(e->cs[14].total, 9);
	assert_int_equal(e->hw.ctr[14], 8);
	assert_int_equal(e->hw.ctr[16], 8);
	assert_int_equal(r.novf, 2);
	assert_int_equal(r.ovf_ctr[0], 12);
	assert_int_equal(r.ovf_cycle[0], 0);
	assert_int_equal(r.ovf_ctr[1], 14);
	assert_int_equal(r.ovf_cycle[1], 1);
	free(e);
}

static void test_force_ovf(void **state)
{
	struct rec r;
	struct p4_engine *e = mk(&r);

	(void)state;
	e->hw.cccr[8] = ON | P4_CCCR_FORCE_OVF;
	/* complement of threshold 0 counts each idle cycle: each overflows */
	e->hw.cccr[9] = ON | P4_CCCR_FORCE_OVF | P4_CCCR_COMPARE | P4_CCCR_COMPLEMENT | TH(0);
	p4_engine_start(e);
	p4_engine_input(e, 8, 5, 3, 1);
	p4_engine_input(e, 8, 0, 2, 1);
	p4_engine_input(e, 8, 2, 1, 1);
	p4_engine_input(e, 9, 1, 7, 2);
	p4_engine_advance(e, 6);
	assert_int_equal(e->hw.ctr[8], 6); /* the count itself does not wrap */
	assert_true(e->hw.cccr[8] & P4_CCCR_OVF);
	assert_int_equal(e->hw.ctr[9], 4);
	/* counter 8 at 0, 2, 5, then counter 9 at 0, 3, 4, 5 */
	assert_int_equal(r.novf, 7);
	static const int wc[] = { 8, 8, 8, 9, 9, 9, 9 };
	static const uint64_t wt[] = { 0, 2, 5, 0, 3, 4, 5 };
	for (unsigned i = 0; i < 7; i++) {
		assert_int_equal(r.ovf_ctr[i], wc[i]);
		assert_int_equal(r.ovf_cycle[i], wt[i]);
	}
	assert_int_equal(r.npmi, 0);
	free(e);
}

static void test_detector_cap(void **state)
{
	struct rec r;
	struct p4_engine *e = mk(&r);

	(void)state;
	/* two inputs in one cycle reach the counter as one 4-bit value */
	e->hw.cccr[0] = ON | P4_CCCR_FORCE_OVF;
	e->hw.cccr[1] = ON | P4_CCCR_COMPARE | P4_CCCR_COMPLEMENT | TH(14);
	p4_engine_start(e);
	for (int c = 0; c < 2; c++) {
		p4_engine_input(e, c, 3, 8, 1);
		p4_engine_input(e, c, 3, 8, 1);
	}
	p4_engine_advance(e, 4);
	assert_int_equal(e->hw.ctr[0], 15);
	assert_int_equal(e->hw.ctr[1], 3); /* idle cycles 0-2; 15 > 14 */
	free(e);
}

static void test_pmi(void **state)
{
	struct rec r;
	struct p4_engine *e = mk(&r);

	(void)state;
	/* -2, counts at 10, 11, 12, 13: overflow at 11, PMI to T1 at 12 */
	e->hw.cccr[5] = ON | P4_CCCR_OVF_PMI_T1;
	e->hw.ctr[5] = NEG(2);
	/* -1: overflow at 3; the next count is at 40, in a later advance */
	e->hw.cccr[2] = ON | P4_CCCR_OVF_PMI_T0;
	e->hw.ctr[2] = P4_CTR_MASK;
	/* -5 + 3 a cycle: -2, +1 (overflow at 1), PMI to both at 2 */
	e->hw.cccr[13] = ON | P4_CCCR_OVF_PMI_T0 | P4_CCCR_OVF_PMI_T1;
	e->hw.ctr[13] = NEG(5);
	/* overflows, no PMI asked for */
	e->hw.cccr[7] = ON | P4_CCCR_COMPARE | TH(0);
	e->hw.ctr[7] = P4_CTR_MASK;
	p4_engine_start(e);
	assert_true(e->cs[5].percycle);
	p4_engine_input(e, 5, 10, 1, 4);
	p4_engine_input(e, 2, 3, 1, 1);
	p4_engine_input(e, 13, 0, 3, 3);
	p4_engine_input(e, 7, 0, 1, 3);
	p4_engine_advance(e, 20);
	assert_int_equal(r.npmi, 2);
	assert_int_equal(r.pmi_ctr[0], 5);
	assert_int_equal(r.pmi_mask[0], 2);
	assert_int_equal(r.pmi_cycle[0], 12);
	assert_int_equal(r.pmi_ctr[1], 13);
	assert_int_equal(r.pmi_mask[1], 3);
	assert_int_equal(r.pmi_cycle[1], 2);
	assert_int_equal(e->hw.ctr[13], 4);
	assert_true(e->cs[2].pmi_armed);
	p4_engine_input(e, 2, 40, 1, 1);
	p4_engine_advance(e, 50);
	assert_int_equal(r.npmi, 3);
	assert_int_equal(r.pmi_ctr[2], 2);
	assert_int_equal(r.pmi_mask[2], 1);
	assert_int_equal(r.pmi_cycle[2], 40);
	assert_false(e->cs[2].pmi_armed);
	/* overflows, counter by counter: 2 at 3, 5 at 11, 7 at 0, 13 at 1 */
	assert_int_equal(r.novf, 4);
	free(e);
}

/* A sampling handler reloading -3 at each PMI: overflows at 2, 6, 10 and
 * PMIs one count later at 3, 7, 11. */
static void test_pmi_reload(void **state)
{
	struct rec r;
	struct p4_engine *e = mk(&r);

	(void)state;
	r.reload = NEG(3);
	e->hw.cccr[17] = ON | P4_CCCR_OVF_PMI_T0;
	e->hw.ctr[17] = NEG(3);
	p4_engine_start(e);
	p4_engine_input(e, 17, 0, 1, 12);
	p4_engine_advance(e, 12);
	assert_int_equal(r.novf, 3);
	assert_int_equal(r.npmi, 3);
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(r.ovf_cycle[i], 2 + 4 * i);
		assert_int_equal(r.pmi_cycle[i], 3 + 4 * i);
		assert_int_equal(r.pmi_mask[i], 1);
	}
	assert_int_equal(e->hw.ctr[17], NEG(3));
	assert_int_equal(e->cs[17].total, 12);
	assert_int_equal(e->hw.cccr[17] & P4_CCCR_OVF, 0); /* the handler cleared it */
	free(e);
}

static void test_thread_modes(void **state)
{
	/* counted cycles out of 5, by mode and active logical processors */
	static const struct {
		unsigned mode;
		int threads;
		uint64_t want;
	} cases[] = {
		{ P4_THREAD_NONE, 1, 0 },   { P4_THREAD_NONE, 2, 0 }, { P4_THREAD_SINGLE, 1, 5 },
		{ P4_THREAD_SINGLE, 2, 0 }, { P4_THREAD_BOTH, 1, 0 }, { P4_THREAD_BOTH, 2, 5 },
		{ P4_THREAD_ANY, 1, 5 },    { P4_THREAD_ANY, 2, 5 },
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rec r;
		struct p4_engine *e = mk(&r);
		uint32_t m = cases[i].mode << P4_CCCR_THREAD_SHIFT;

		e->threads = cases[i].threads;
		e->hw.cccr[0] = P4_CCCR_ENABLE | m;			      /* fast path */
		e->hw.cccr[1] = P4_CCCR_ENABLE | m | P4_CCCR_COMPARE | TH(0); /* per cycle */
		p4_engine_start(e);
		p4_engine_input(e, 0, 0, 1, 5);
		p4_engine_input(e, 1, 0, 1, 5);
		p4_engine_advance(e, 5);
		assert_int_equal(e->hw.ctr[0], cases[i].want);
		assert_int_equal(e->hw.ctr[1], cases[i].want);
		free(e);
	}
}

/* Inputs (cycle, v, dur) giving per-cycle values c0=2, c5=1, c6=2, c7=1,
 * c20=2, c21=2, c30=1. */
static const struct {
	uint64_t cycle;
	uint32_t v, dur;
} ooo_in[] = { { 0, 2, 1 }, { 5, 1, 3 }, { 6, 1, 1 }, { 20, 2, 2 }, { 30, 1, 1 } };

static void ooo_run(const unsigned *order, struct rec *r, uint64_t *ctr)
{
	struct p4_engine *e = mk(r);

	e->hw.cccr[0] = ON | P4_CCCR_COMPARE | TH(1);
	e->hw.cccr[1] = ON | P4_CCCR_COMPARE | P4_CCCR_EDGE | TH(1);
	e->hw.cccr[4] = ON;
	e->hw.cccr[5] = ON | P4_CCCR_FORCE_OVF;
	p4_engine_start(e);
	for (unsigned i = 0; i < 5; i++) {
		const int cs[] = { 0, 1, 4, 5 };

		for (unsigned j = 0; j < 4; j++)
			p4_engine_input(e, cs[j], ooo_in[order[i]].cycle, ooo_in[order[i]].v,
					ooo_in[order[i]].dur);
	}
	p4_engine_advance(e, 40);
	ctr[0] = e->hw.ctr[0];
	ctr[1] = e->hw.ctr[1];
	ctr[2] = e->hw.ctr[4];
	ctr[3] = e->hw.ctr[5];
	free(e);
}

static void test_out_of_order(void **state)
{
	static const unsigned orders[3][5] = { { 0, 1, 2, 3, 4 },
					       { 4, 3, 2, 1, 0 },
					       { 2, 4, 0, 3, 1 } };
	/* > 1: cycles 0, 6, 20, 21; rising: 0, 6, 20; sum 11; FORCE_OVF
	 * overflows in every cycle with input */
	static const uint64_t want[4] = { 4, 3, 11, 11 };
	static const uint64_t want_ovf[7] = { 0, 5, 6, 7, 20, 21, 30 };

	(void)state;
	for (unsigned o = 0; o < 3; o++) {
		struct rec r;
		uint64_t ctr[4];

		ooo_run(orders[o], &r, ctr);
		for (unsigned i = 0; i < 4; i++)
			assert_int_equal(ctr[i], want[i]);
		assert_int_equal(r.novf, 7);
		for (unsigned i = 0; i < 7; i++) {
			assert_int_equal(r.ovf_ctr[i], 5);
			assert_int_equal(r.ovf_cycle[i], want_ovf[i]);
		}
	}
}

/* A sampling counter fed out of order counts at once while far from its
 * wrap and keeps cycles near it: its overflows and PMIs fall in the same
 * cycles as when the same inputs come in cycle order.  The handler
 * reloads as run.c does, after the engine returns (counts since the
 * overflow stay counted), so a wrong "far" shows as a shifted wrap. */
#define SAMP_SPANS 20000
#define SAMP_MAX 4096
#define SAMP_PERIOD 12000

struct samp {
	uint64_t ovf[SAMP_MAX], pmi[SAMP_MAX];
	unsigned novf, npmi;
	int due;
};

static void samp_ovf(void *arg, int ctr, uint64_t cycle)
{
	struct samp *s = arg;

	(void)ctr;
	assert_true(s->novf < SAMP_MAX);
	s->ovf[s->novf++] = cycle;
}

static void samp_pmi(void *arg, int ctr, unsigned mask, uint64_t cycle)
{
	struct samp *s = arg;

	(void)ctr, (void)mask;
	assert_true(s->npmi < SAMP_MAX);
	s->pmi[s->npmi++] = cycle;
	s->due = 1;
}

static void samp_reload(struct p4_engine *e, struct samp *s)
{
	if (!s->due)
		return;
	s->due = 0;
	e->hw.ctr[3] = (e->hw.ctr[3] + NEG(SAMP_PERIOD)) & P4_CTR_MASK;
	e->hw.cccr[3] &= ~P4_CCCR_OVF;
}

static struct p4_engine *samp_engine(struct samp *s)
{
	struct p4_engine *e = calloc(1, sizeof(*e));

	assert_non_null(e);
	memset(s, 0, sizeof(*s));
	e->overflow = samp_ovf;
	e->pmi = samp_pmi;
	e->arg = s;
	e->threads = 1;
	e->hw.cccr[3] = ON | P4_CCCR_OVF_PMI_T0;
	e->hw.ctr[3] = NEG(SAMP_PERIOD);
	p4_engine_start(e);
	return e;
}

static void test_sampling_order(void **state)
{
	static struct {
		uint64_t cycle;
		uint32_t v, dur;
	} in[SAMP_SPANS];
	static struct samp a, b;
	struct p4_engine *ea = samp_engine(&a), *eb = samp_engine(&b);
	uint64_t t = 0, seed = 12345;

	(void)state;
	/* disjoint spans (never two inputs in one cycle), gaps between */
	for (unsigned k = 0; k < SAMP_SPANS; k++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		t += (seed >> 33) % 4;
		in[k].cycle = t;
		in[k].v = 1 + (uint32_t)(seed >> 40) % 15;
		in[k].dur = 1 + (uint32_t)(seed >> 48) % (k % 1000 < 500 ? 4 : 60);
		t += in[k].dur;
	}
	/* a: in cycle order, each made final at once */
	for (unsigned k = 0; k < SAMP_SPANS; k++) {
		p4_engine_input(ea, 3, in[k].cycle, in[k].v, in[k].dur);
		p4_engine_advance(ea, in[k].cycle + in[k].dur);
		samp_reload(ea, &a);
	}
	/* b: groups of 8, every other one reversed, final only up to the
	 * group's first cycle (a group counts less than a period: the reload
	 * comes in time) */
	for (unsigned g = 0; g < SAMP_SPANS; g += 8) {
		for (unsigned j = 0; j < 8; j++) {
			unsigned k = g + (g / 8 % 2 ? 7 - j : j);
			if (k < SAMP_SPANS)
				p4_engine_input(eb, 3, in[k].cycle, in[k].v, in[k].dur);
		}
		if (g + 8 < SAMP_SPANS)
			p4_engine_advance(eb, in[g + 8].cycle);
		samp_reload(eb, &b);
	}
	p4_engine_advance(eb, t);
	samp_reload(eb, &b);
	assert_true(eb->cs[3].far_end > 0); /* some inputs were counted at once */
	assert_true(a.novf > 200);
	assert_int_equal(a.novf, b.novf);
	assert_int_equal(a.npmi, b.npmi);
	for (unsigned k = 0; k < a.novf; k++)
		assert_int_equal(a.ovf[k], b.ovf[k]);
	for (unsigned k = 0; k < a.npmi; k++)
		assert_int_equal(a.pmi[k], b.pmi[k]);
	assert_int_equal(ea->cs[3].total, eb->cs[3].total);
	free(ea);
	free(eb);
}

static void test_ring_boundary(void **state)
{
	struct rec r;
	struct p4_engine *e = mk(&r);

	(void)state;
	e->hw.cccr[0] = ON | P4_CCCR_COMPARE | TH(0);
	e->hw.cccr[1] = ON | P4_CCCR_COMPARE | TH(0);
	e->hw.cccr[2] = ON | P4_CCCR_COMPARE | TH(0);
	e->hw.cccr[3] = ON; /* fast path: the same spans */
	p4_engine_start(e);
	/* fits the ring [50, 50 + P4_RING), through its last slots and on
	 * from slot 0 */
	p4_engine_advance(e, 50);
	p4_engine_input(e, 0, P4_RING - 3, 1, 10);
	assert_int_equal(e->done, 50);
	p4_engine_input(e, 3, P4_RING - 3, 1, 10);
	p4_engine_advance(e, P4_RING + 20);
	assert_int_equal(e->hw.ctr[0], 10);

	/* ends 15 cycles past the ring: the engine finalises up to where it
	 * fits rather than drop it */
	uint64_t at = e->done + P4_RING - 5;
	p4_engine_input(e, 1, at, 1, 20);
	p4_engine_input(e, 3, at, 1, 20);
	assert_int_equal(e->done, at + 20 - P4_RING);
	p4_engine_advance(e, at + 40);
	assert_int_equal(e->hw.ctr[1], 20);

	/* starting far ahead, and three rings long */
	at = e->done + 5 * P4_RING;
	p4_engine_input(e, 2, at, 1, 3 * P4_RING);
	p4_engine_input(e, 3, at, 1, 3 * P4_RING);
	p4_engine_advance(e, at + 4 * P4_RING);
	assert_int_equal(e->hw.ctr[2], 3 * P4_RING);
	assert_int_equal(e->hw.ctr[3], 30 + 3 * P4_RING);
	assert_int_equal(r.novf, 0);
	free(e);
}

static void test_late_input(void **state)
{
	struct rec r;
	struct p4_engine *e = mk(&r);

	(void)state;
	e->hw.cccr[0] = ON | P4_CCCR_COMPARE | TH(2);
	p4_engine_start(e);
	p4_engine_advance(e, 100);
	/* stamped 50-51, counted at 100-101 */
	p4_engine_input(e, 0, 50, 3, 2);
	p4_engine_advance(e, 101);
	assert_int_equal(e->hw.ctr[0], 1);
	p4_engine_advance(e, 102);
	assert_int_equal(e->hw.ctr[0], 2);
	p4_engine_advance(e, 200);
	assert_int_equal(e->hw.ctr[0], 2);
	free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_count),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_add_sum),
		cmocka_unit_test(test_threshold_gt),
		cmocka_unit_test(test_complement_le),
		cmocka_unit_test(test_edge),
		cmocka_unit_test(test_cascade),
		cmocka_unit_test(test_cascade_chain_iq),
		cmocka_unit_test(test_force_ovf),
		cmocka_unit_test(test_detector_cap),
		cmocka_unit_test(test_pmi),
		cmocka_unit_test(test_pmi_reload),
		cmocka_unit_test(test_thread_modes),
		cmocka_unit_test(test_out_of_order),
		cmocka_unit_test(test_ring_boundary),
		cmocka_unit_test(test_late_input),
		cmocka_unit_test(test_sampling_order),
	};
	return cmocka_run_group_tests_name("p4_counter", tests, NULL, NULL);
}
