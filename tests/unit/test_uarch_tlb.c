/* Unit tests for emu/uarch/tlb.c: hits within a page, set conflicts,
 * replacement policies, flush. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "emu/uarch/tlb.h"

#define PG 4096ull

static struct uarch_tlb *mk(uint32_t entries, uint32_t assoc, uint32_t page, uint8_t repl,
			    uint64_t seed)
{
	struct uarch_tlb_cfg cfg = {
		.entries = entries, .assoc = assoc, .page = page, .repl = repl, .walk = 20
	};
	return uarch_tlb_new(&cfg, seed);
}

/* 4 entries, 2-way: pages 0, 2, 4 share set 0; page 1 is set 1. */
static void test_lru_sets(void **state)
{
	struct uarch_tlb *t = mk(4, 2, PG, UARCH_REPL_LRU, 1);

	(void)state;
	assert_non_null(t);
	assert_int_equal(uarch_tlb_cfg(t)->walk, 20);
	assert_false(uarch_tlb_access(t, 0x10));
	assert_true(uarch_tlb_access(t, PG - 1)); /* same page */
	assert_false(uarch_tlb_access(t, 2 * PG));
	assert_false(uarch_tlb_access(t, 1 * PG));
	assert_true(uarch_tlb_access(t, 0));	   /* page 0 now MRU of set 0 */
	assert_false(uarch_tlb_access(t, 4 * PG)); /* replaces page 2 */
	assert_true(uarch_tlb_access(t, 0));
	assert_false(uarch_tlb_access(t, 2 * PG)); /* replaces page 4 */
	assert_true(uarch_tlb_access(t, 1 * PG));  /* set 1 untouched */
	assert_false(uarch_tlb_access(t, 4 * PG));
	uarch_tlb_free(t);
}

static void test_flush(void **state)
{
	struct uarch_tlb *t = mk(8, 0, PG, UARCH_REPL_LRU, 1);

	(void)state;
	for (uint64_t p = 0; p < 8; p++)
		assert_false(uarch_tlb_access(t, p * PG + 123));
	for (uint64_t p = 0; p < 8; p++)
		assert_true(uarch_tlb_access(t, p * PG)); /* fully associative: all fit */
	uarch_tlb_flush(t);
	for (uint64_t p = 0; p < 8; p++)
		assert_false(uarch_tlb_access(t, p * PG));
	assert_false(uarch_tlb_access(t, 8 * PG)); /* 9 pages in 8 entries */
	assert_false(uarch_tlb_access(t, 0));
	uarch_tlb_free(t);
}

/* Round-robin ignores use: after filling 4 ways, replacement goes 0, 1, … */
static void test_round_robin(void **state)
{
	struct uarch_tlb *t = mk(4, 4, PG, UARCH_REPL_RR, 1);

	(void)state;
	for (uint64_t p = 1; p <= 4; p++)
		assert_false(uarch_tlb_access(t, p * PG));
	assert_true(uarch_tlb_access(t, 1 * PG));
	assert_false(uarch_tlb_access(t, 5 * PG)); /* replaces page 1 (way 0) */
	assert_false(uarch_tlb_access(t, 1 * PG)); /* replaces page 2 (way 1) */
	assert_true(uarch_tlb_access(t, 3 * PG));
	assert_false(uarch_tlb_access(t, 2 * PG)); /* replaces page 3 */
	assert_true(uarch_tlb_access(t, 4 * PG));
	uarch_tlb_free(t);
}

static void test_random_and_pages(void **state)
{
	struct uarch_tlb *a = mk(16, 4, 2 * 1024 * 1024, UARCH_REPL_RANDOM, 5);
	struct uarch_tlb *b = mk(16, 4, 2 * 1024 * 1024, UARCH_REPL_RANDOM, 5);
	int hits = 0;

	(void)state;
	/* large pages: everything within 2 MB is one entry */
	assert_false(uarch_tlb_access(a, 0x200000));
	assert_true(uarch_tlb_access(a, 0x3fffff));
	assert_false(uarch_tlb_access(b, 0x200000));
	for (int i = 0; i < 3000; i++) {
		uint64_t addr = (uint64_t)((i * 31) % 37) << 21;
		int ha = uarch_tlb_access(a, addr);
		assert_int_equal(ha, uarch_tlb_access(b, addr));
		hits += ha;
	}
	assert_true(hits > 0 && hits < 3000);
	uarch_tlb_free(a);
	uarch_tlb_free(b);
}

/* LRU against a reference: per set a list in MRU→LRU order, a hit moves
 * its page to the front, a miss drops the last one.  Page streams over a
 * few pages more than fit, some a multiple of the memo size apart, with
 * flushes between them. */
static void test_lru_reference(void **state)
{
	static const uint32_t geo[][2] = { { 64, 0 }, { 16, 4 }, { 12, 2 }, { 8, 1 } };

	(void)state;
	for (size_t g = 0; g < sizeof(geo) / sizeof(geo[0]); g++) {
		uint32_t n = geo[g][0], ways = geo[g][1] ? geo[g][1] : n, sets = n / ways;
		struct uarch_tlb *t = mk(n, geo[g][1], PG, UARCH_REPL_LRU, 1);
		uint64_t ref[64];
		uint64_t x = 88172645463325252ull;

		assert_non_null(t);
		for (int round = 0; round < 3; round++) {
			for (uint32_t k = 0; k < n; k++)
				ref[k] = UINT64_MAX;
			for (int i = 0; i < 20000; i++) {
				uint64_t pn, *s;
				uint32_t j;

				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				pn = (x % (n + n / 2 + 3)) * (i & 1 ? 64 : 1);
				s = ref + (pn % sets) * ways;
				for (j = 0; j < ways && s[j] != pn; j++)
					;
				assert_int_equal(uarch_tlb_access(t, pn * PG + (x & 4095)),
						 j < ways);
				for (j = j < ways ? j : ways - 1; j; j--)
					s[j] = s[j - 1];
				s[0] = pn;
			}
			uarch_tlb_flush(t);
		}
		uarch_tlb_free(t);
	}
}

static void test_bad_config(void **state)
{
	(void)state;
	assert_null(mk(0, 0, PG, UARCH_REPL_LRU, 1));
	assert_null(mk(6, 4, PG, UARCH_REPL_LRU, 1));
	assert_null(mk(8, 2, 3000, UARCH_REPL_LRU, 1));
	assert_null(mk(8, 2, PG, 7, 1));
	/* 3 sets (not a power of two) work by modulo: pages 0 and 3 collide */
	struct uarch_tlb *t = mk(3, 1, PG, UARCH_REPL_LRU, 1);
	assert_non_null(t);
	assert_false(uarch_tlb_access(t, 0));
	assert_false(uarch_tlb_access(t, PG));
	assert_false(uarch_tlb_access(t, 3 * PG));
	assert_true(uarch_tlb_access(t, PG));
	assert_false(uarch_tlb_access(t, 0));
	uarch_tlb_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lru_sets),      cmocka_unit_test(test_flush),
		cmocka_unit_test(test_round_robin),   cmocka_unit_test(test_random_and_pages),
		cmocka_unit_test(test_lru_reference), cmocka_unit_test(test_bad_config),
	};
	return cmocka_run_group_tests_name("uarch_tlb", tests, NULL, NULL);
}
