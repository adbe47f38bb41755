/* Unit tests for emu/linux/mm.c: the guest mapping bookkeeping and the
 * top-down allocator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sys/mman.h>

#include "emu/linux/lx_mm.h"

#define P LX_PAGE
#define RW (PROT_READ | PROT_WRITE)

static void test_find_top_down(void **state)
{
	struct lx_mm mm;

	(void)state;
	lx_mm_init(&mm);
	/* empty: the highest fit */
	assert_int_equal(lx_mm_find(&mm, 4 * P, 0x1000000, 0x2000000), 0x2000000 - 4 * P);
	assert_int_equal(lx_mm_add(&mm, 0x2000000 - 4 * P, 0x2000000, RW, LX_MAP_ANON), 0);
	/* next one goes right below */
	assert_int_equal(lx_mm_find(&mm, 2 * P, 0x1000000, 0x2000000), 0x2000000 - 6 * P);
	/* a hole too small is skipped, one big enough is used */
	assert_int_equal(lx_mm_add(&mm, 0x2000000 - 10 * P, 0x2000000 - 7 * P, RW, LX_MAP_ANON), 0);
	assert_int_equal(lx_mm_find(&mm, 2 * P, 0x1000000, 0x2000000), 0x2000000 - 6 * P);
	assert_int_equal(lx_mm_find(&mm, 3 * P, 0x1000000, 0x2000000), 0x2000000 - 7 * P);
	assert_int_equal(lx_mm_find(&mm, 4 * P, 0x1000000, 0x2000000), 0x2000000 - 14 * P);
	/* nothing fits */
	assert_int_equal(lx_mm_find(&mm, 0x1000000, 0x1000000, 0x2000000), 0);
	assert_int_equal(lx_mm_find(&mm, 0, 0x1000000, 0x2000000), 0);
	/* a range straddling the top lowers it */
	assert_int_equal(lx_mm_add(&mm, 0x3000000 - P, 0x3000000 + P, RW, LX_MAP_ANON), 0);
	assert_int_equal(lx_mm_find(&mm, P, 0x2000000, 0x3000000), 0x3000000 - 2 * P);
	lx_mm_free(&mm);
}

static void test_add_replaces_and_merges(void **state)
{
	struct lx_mm mm;

	(void)state;
	lx_mm_init(&mm);
	lx_mm_add(&mm, 0x10000, 0x20000, RW, LX_MAP_ANON);
	lx_mm_add(&mm, 0x20000, 0x30000, RW, LX_MAP_ANON);
	assert_int_equal(mm.n, 1); /* same prot and kind: one range */
	assert_int_equal(mm.v[0].start, 0x10000);
	assert_int_equal(mm.v[0].end, 0x30000);
	lx_mm_add(&mm, 0x18000, 0x19000, PROT_READ, LX_MAP_FILE);
	assert_int_equal(mm.n, 3);
	assert_int_equal(lx_mm_lookup(&mm, 0x18800)->prot, PROT_READ);
	assert_int_equal(lx_mm_lookup(&mm, 0x17fff)->prot, RW);
	assert_int_equal(lx_mm_lookup(&mm, 0x19000)->prot, RW);
	assert_null(lx_mm_lookup(&mm, 0x30000));
	assert_null(lx_mm_lookup(&mm, 0xffff));
	lx_mm_free(&mm);
}

static void test_del_splits(void **state)
{
	struct lx_mm mm;

	(void)state;
	lx_mm_init(&mm);
	lx_mm_add(&mm, 0x10000, 0x40000, RW, LX_MAP_ANON);
	lx_mm_del(&mm, 0x20000, 0x30000);
	assert_int_equal(mm.n, 2);
	assert_true(lx_mm_is_free(&mm, 0x20000, 0x30000));
	assert_false(lx_mm_is_free(&mm, 0x1f000, 0x21000));
	assert_true(lx_mm_covered(&mm, 0x10000, 0x20000));
	assert_false(lx_mm_covered(&mm, 0x10000, 0x30001));
	/* deleting across several ranges and their edges */
	lx_mm_add(&mm, 0x50000, 0x60000, RW, LX_MAP_FILE);
	lx_mm_del(&mm, 0x18000, 0x58000);
	assert_int_equal(mm.n, 2);
	assert_int_equal(mm.v[0].end, 0x18000);
	assert_int_equal(mm.v[1].start, 0x58000);
	lx_mm_free(&mm);
}

static void test_protect(void **state)
{
	struct lx_mm mm;

	(void)state;
	lx_mm_init(&mm);
	lx_mm_add(&mm, 0x10000, 0x20000, RW, LX_MAP_ANON);
	lx_mm_add(&mm, 0x20000, 0x30000, PROT_READ, LX_MAP_ANON);
	/* making the middle RW merges everything into one range and must
	 * terminate (a merged range extends past the protected span) */
	assert_int_equal(lx_mm_protect(&mm, 0x20000, 0x28000, RW), 0);
	assert_int_equal(lx_mm_lookup(&mm, 0x27fff)->prot, RW);
	assert_int_equal(lx_mm_lookup(&mm, 0x28000)->prot, PROT_READ);
	assert_int_equal(mm.n, 2);
	/* foreign ranges never count as the guest's */
	lx_mm_add(&mm, 0x30000, 0x31000, PROT_NONE, LX_MAP_FOREIGN);
	assert_false(lx_mm_covered(&mm, 0x2f000, 0x31000));
	assert_int_equal(lx_mm_protect(&mm, 0x10000, 0x31000, PROT_READ), 0);
	assert_int_equal(lx_mm_lookup(&mm, 0x30000)->kind, LX_MAP_FOREIGN);
	assert_int_equal(lx_mm_lookup(&mm, 0x30000)->prot, PROT_NONE);
	lx_mm_free(&mm);
}

static void test_many(void **state)
{
	struct lx_mm mm;
	uint64_t top = LX_MMAP_TOP;

	(void)state;
	lx_mm_init(&mm);
	/* alternate prot so nothing merges: 2000 distinct ranges */
	for (int i = 0; i < 2000; i++) {
		uint64_t a = lx_mm_find(&mm, P, LX_MMAP_LOW, LX_MMAP_TOP);

		assert_int_equal(a, top - P);
		top = a;
		lx_mm_add(&mm, a, a + P, i & 1 ? RW : PROT_READ, LX_MAP_ANON);
	}
	assert_int_equal(mm.n, 2000);
	/* free one in the middle: the allocator reuses it first */
	lx_mm_del(&mm, LX_MMAP_TOP - 1000 * P, LX_MMAP_TOP - 999 * P);
	assert_int_equal(lx_mm_find(&mm, P, LX_MMAP_LOW, LX_MMAP_TOP), LX_MMAP_TOP - 1000 * P);
	assert_int_equal(lx_mm_find(&mm, 2 * P, LX_MMAP_LOW, LX_MMAP_TOP), top - 2 * P);
	lx_mm_free(&mm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_top_down),
		cmocka_unit_test(test_add_replaces_and_merges),
		cmocka_unit_test(test_del_splits),
		cmocka_unit_test(test_protect),
		cmocka_unit_test(test_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
