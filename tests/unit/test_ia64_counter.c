/* Unit tests for arch/ia64/counter.c: each field of the PMC4..7 layout
 * (seed 001) on small hand-worked inputs — plm by privilege level, pm
 * with PSR.up/PSR.pp, ism with PSR.is, the threshold on per-cycle values
 * (3 bits on PMC4/5, 2 on PMC6/7), the 47-bit wrap, oi with PMC0's
 * freeze and overflow bits, ev's notification, and rearming. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "arch/ia64/ia64.h"

#define ES(x) ((uint32_t)(x) << IA64_PMC_ES_SHIFT)
#define TH(x) ((uint32_t)(x) << IA64_PMC_THRES_SHIFT)
#define ISM(x) ((uint32_t)(x) << IA64_PMC_ISM_SHIFT)
#define BOTH (IA64_PLM_USER | IA64_PLM_KERNEL)

struct rec {
	unsigned npmi, nnotify;
	int pmi_ctr;
	uint64_t pmi_cycle;
};

static void on_pmi(void *arg, int ctr, uint64_t cycle)
{
	struct rec *r = arg;
	r->npmi++;
	r->pmi_ctr = ctr;
	r->pmi_cycle = cycle;
}

static void on_notify(void *arg, int ctr, uint64_t cycle)
{
	struct rec *r = arg;
	(void)ctr;
	(void)cycle;
	r->nnotify++;
}

/* An engine with pmc[] written, PSR.up set, IA-32 code running. */
static struct ia64_engine *mk(struct rec *r, uint32_t p4, uint32_t p5, uint32_t p6, uint32_t p7)
{
	struct ia64_engine *e = calloc(1, sizeof(*e));

	assert_non_null(e);
	e->hw.pmc[0] = p4;
	e->hw.pmc[1] = p5;
	e->hw.pmc[2] = p6;
	e->hw.pmc[3] = p7;
	e->hw.psr_up = 1;
	e->hw.psr_is = 1;
	e->pmi = on_pmi;
	e->notify = on_notify;
	e->arg = r;
	ia64_engine_start(e, NULL);
	return e;
}

static void test_plm(void **state)
{
	struct rec r = { 0 };
	/* PMC4 user only, PMC5 kernel only, PMC6 both, PMC7 plm 0 */
	struct ia64_engine *e = mk(&r, ES(0x12) | IA64_PLM_USER, ES(0x12) | IA64_PLM_KERNEL,
				   ES(0x12) | BOTH, ES(0x12));
	(void)state;
	for (int c = 0; c < 4; c++) {
		ia64_engine_input(e, c, 10, 5, 1, 3); /* guest code */
		ia64_engine_input(e, c, 11, 7, 1, 0); /* a system call */
		ia64_engine_input(e, c, 12, 1, 1, 1); /* levels 1, 2: plm bits 1, 2 */
	}
	assert_int_equal(e->cs[0].total, 5);
	assert_int_equal(e->cs[1].total, 7);
	assert_int_equal(e->cs[2].total, 12);
	assert_int_equal(e->cs[3].total, 0); /* plm 0 disables the monitor */
	free(e);
}

static void test_pm(void **state)
{
	struct rec r = { 0 };
	struct ia64_engine *e = mk(&r, ES(0x12) | BOTH, ES(0x12) | BOTH | IA64_PMC_PM, 0, 0);
	(void)state;
	ia64_engine_input(e, 0, 1, 1, 1, 3);
	ia64_engine_input(e, 1, 1, 1, 1, 3);
	assert_int_equal(e->cs[0].total, 1); /* user monitor: PSR.up */
	assert_int_equal(e->cs[1].total, 0); /* privileged monitor: PSR.pp is clear */
	e->hw.psr_pp = 1;
	e->hw.psr_up = 0;
	ia64_engine_input(e, 0, 2, 1, 1, 3);
	ia64_engine_input(e, 1, 2, 1, 1, 3);
	assert_int_equal(e->cs[0].total, 1);
	assert_int_equal(e->cs[1].total, 1);
	free(e);
}

static void test_ism(void **state)
{
	struct rec r = { 0 };
	/* 00 both; 01 (bit 24) not IA-64; 10 (bit 25) not IA-32; 11 never */
	struct ia64_engine *e = mk(&r, ES(0x12) | BOTH | ISM(0), ES(0x12) | BOTH | ISM(1),
				   ES(0x12) | BOTH | ISM(2), ES(0x12) | BOTH | ISM(3));
	(void)state;
	for (int c = 0; c < 4; c++)
		ia64_engine_input(e, c, 1, 1, 1, 3); /* IA-32 code: PSR.is 1 */
	e->hw.psr_is = 0;
	for (int c = 0; c < 4; c++)
		ia64_engine_input(e, c, 2, 10, 1, 0); /* IA-64 code */
	assert_int_equal(e->cs[0].total, 11);
	assert_int_equal(e->cs[1].total, 1);
	assert_int_equal(e->cs[2].total, 10);
	assert_int_equal(e->cs[3].total, 0);
	free(e);
}

/* Values per cycle 1, 2, 3, 5, 0, 7 (a multi-occurrence event). */
static void feed(struct ia64_engine *e, int c)
{
	static const int32_t v[] = { 1, 2, 3, 5, 0, 7 };
	for (int k = 0; k < 6; k++)
		if (v[k])
			ia64_engine_input(e, c, 100 + (uint64_t)k, v[k], 1, 3);
	/* two signals in one cycle add up before the comparison */
	ia64_engine_input(e, c, 106, 1, 1, 3);
	ia64_engine_input(e, c, 106, 2, 1, 3);
}

static void test_threshold(void **state)
{
	struct rec r = { 0 };
	/* PMC4 threshold 2; PMC5 threshold 6; PMC6 threshold field 6 reads
	 * as 2 (two bits); PMC7 field 4 reads as 0: no threshold */
	struct ia64_engine *e = mk(&r, ES(0x59) | BOTH | TH(2), ES(0x59) | BOTH | TH(6),
				   ES(0x59) | BOTH | TH(6), ES(0x59) | BOTH | TH(4));
	(void)state;
	for (int c = 0; c < 4; c++)
		feed(e, c);
	ia64_engine_advance(e, 200);
	assert_int_equal(e->cs[0].total, 4); /* 3, 5, 7 and 1+2 exceed 2 */
	assert_int_equal(e->cs[1].total, 1); /* only 7 exceeds 6 */
	assert_int_equal(e->cs[2].total, 4);
	assert_int_equal(e->cs[3].total, 21); /* the sum */
	free(e);
}

static void test_threshold_span(void **state)
{
	struct rec r = { 0 };
	/* an occupancy: 1 in [0,10) and 1 in [5,8): value 2 in cycles 5..7 */
	struct ia64_engine *e = mk(&r, ES(0x94) | BOTH | TH(1), 0, 0, 0);
	(void)state;
	ia64_engine_input(e, 0, 0, 1, 10, 3);
	ia64_engine_input(e, 0, 5, 1, 3, 3);
	ia64_engine_advance(e, 7);
	assert_int_equal(e->cs[0].total, 2); /* cycles 5, 6 final; 7 not yet */
	ia64_engine_advance(e, 20);
	assert_int_equal(e->cs[0].total, 3);
	free(e);
}

static void test_wrap_no_oi(void **state)
{
	struct rec r = { 0 };
	struct ia64_engine *e = mk(&r, ES(0x12) | BOTH, 0, 0, 0);
	(void)state;
	e->hw.pmd[0] = IA64_CTR_MASK - 1; /* two before the wrap */
	ia64_engine_input(e, 0, 1, 5, 1, 3);
	assert_int_equal(e->hw.pmd[0], 3); /* 47 bits wrap */
	assert_int_equal(e->cs[0].total, 5);
	assert_true(e->hw.pmc0 & 1u << (IA64_PMC0_OVF_SHIFT + 0));
	assert_false(e->hw.pmc0 & IA64_PMC0_FR); /* no oi: no freeze */
	assert_int_equal(r.npmi, 0);
	assert_int_equal(r.nnotify, 0);
	ia64_engine_input(e, 0, 2, 1, 1, 3);
	assert_int_equal(e->cs[0].total, 6); /* goes on counting */
	free(e);
}

/* A sum (ia64_engine_add) counts as its events one by one would: plm,
 * the 47-bit wrap, beyond 32 bits at once; never into a counter with
 * per-cycle values, nor while frozen. */
static void test_add_sum(void **state)
{
	struct rec r = { 0 };
	struct ia64_engine *e =
		mk(&r, ES(0x12) | IA64_PLM_USER, ES(0x12) | BOTH | TH(1), ES(0x12) | BOTH, 0);
	(void)state;
	ia64_engine_add(e, 0, 5, 1, 3);
	ia64_engine_add(e, 0, 7, 2, 0); /* plm: user only */
	assert_int_equal(e->cs[0].total, 5);
	ia64_engine_add(e, 1, 9, 3, 3); /* a threshold: per-cycle values, not sums */
	assert_int_equal(e->cs[1].total, 0);
	e->hw.pmd[2] = IA64_CTR_MASK - 1;
	ia64_engine_add(e, 2, 5ull << 32, 4, 3);
	assert_int_equal(e->cs[2].total, 5ull << 32);
	assert_int_equal(e->hw.pmd[2], ((5ull << 32) - 2) & IA64_CTR_MASK);
	assert_true(e->hw.pmc0 & 1u << (IA64_PMC0_OVF_SHIFT + 2));
	e->hw.pmc0 |= IA64_PMC0_FR;
	ia64_engine_add(e, 0, 1, 5, 3);
	assert_int_equal(e->cs[0].total, 5);
	free(e);
}

static void test_oi_freeze(void **state)
{
	struct rec r = { 0 };
	struct ia64_engine *e =
		mk(&r, ES(0x12) | BOTH, ES(0x59) | BOTH | IA64_PMC_OI, ES(0x12) | BOTH, 0);
	(void)state;
	e->hw.pmd[1] = IA64_CTR_MASK; /* one before the wrap */
	ia64_engine_input(e, 0, 1, 4, 1, 3);
	ia64_engine_input(e, 1, 9, 2, 1, 3);
	assert_int_equal(r.npmi, 1);
	assert_int_equal(r.pmi_ctr, 1);
	assert_int_equal(r.pmi_cycle, 9);
	assert_true(e->hw.pmc0 & IA64_PMC0_FR);
	assert_true(e->hw.pmc0 & 1u << (IA64_PMC0_OVF_SHIFT + 1));
	assert_false(e->hw.pmc0 & 1u << (IA64_PMC0_OVF_SHIFT + 0));
	/* frozen: no counter counts, not only the one that overflowed */
	ia64_engine_input(e, 0, 10, 4, 1, 3);
	ia64_engine_input(e, 1, 10, 4, 1, 3);
	ia64_engine_input(e, 2, 10, 4, 1, 3);
	assert_int_equal(e->cs[0].total, 4);
	assert_int_equal(e->cs[1].total, 2);
	assert_int_equal(e->cs[2].total, 0);
	assert_false(ia64_engine_counts(e, 2, 3));
	/* the handler reloads and unfreezes */
	ia64_engine_rearm(e, 1, IA64_CTR_MASK - 9);
	assert_int_equal(e->hw.pmc0, 0);
	ia64_engine_input(e, 2, 11, 4, 1, 3);
	assert_int_equal(e->cs[2].total, 4);
	ia64_engine_input(e, 1, 12, 10, 1, 3);
	assert_int_equal(r.npmi, 2);
	free(e);
}

static void test_ev_notify(void **state)
{
	struct rec r = { 0 };
	struct ia64_engine *e = mk(&r, ES(0x12) | BOTH | IA64_PMC_EV,
				   ES(0x12) | BOTH | IA64_PMC_EV | IA64_PMC_OI, 0, 0);
	(void)state;
	e->hw.pmd[0] = IA64_CTR_MASK;
	e->hw.pmd[1] = IA64_CTR_MASK;
	ia64_engine_input(e, 0, 1, 1, 1, 3);
	assert_int_equal(r.nnotify, 1); /* whatever oi says */
	assert_int_equal(r.npmi, 0);
	ia64_engine_input(e, 1, 2, 1, 1, 3);
	assert_int_equal(r.nnotify, 2);
	assert_int_equal(r.npmi, 1);
	free(e);
}

static void test_frozen_percycle(void **state)
{
	struct rec r = { 0 };
	/* a per-cycle counter sees the freeze when its cycles are final */
	struct ia64_engine *e =
		mk(&r, ES(0x59) | BOTH | TH(1), ES(0x12) | BOTH | IA64_PMC_OI, 0, 0);
	(void)state;
	ia64_engine_input(e, 0, 5, 3, 1, 3);
	e->hw.pmd[1] = IA64_CTR_MASK;
	ia64_engine_input(e, 1, 4, 1, 1, 3); /* overflow: frozen */
	ia64_engine_advance(e, 10);
	assert_int_equal(e->cs[0].total, 0);
	free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plm),
		cmocka_unit_test(test_pm),
		cmocka_unit_test(test_ism),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_threshold_span),
		cmocka_unit_test(test_wrap_no_oi),
		cmocka_unit_test(test_add_sum),
		cmocka_unit_test(test_oi_freeze),
		cmocka_unit_test(test_ev_notify),
		cmocka_unit_test(test_frozen_percycle),
	};
	return cmocka_run_group_tests_name("ia64_counter", tests, NULL, NULL);
}
