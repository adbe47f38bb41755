/* Unit tests for emu/linux/random.c: the getrandom(2) stream is fixed by
 * the seed, apart from the AT_RANDOM bytes, and a forked child's stream
 * is its own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "emu/linux/lx_proc.h"

static void test_same_seed_same_bytes(void **state)
{
	uint64_t a, b, c;
	uint8_t x[100], y[100], z[100];

	(void)state;
	lx_random_init(&a, 42);
	lx_random_init(&b, 42);
	lx_random_init(&c, 43);
	lx_random_fill(&a, x, sizeof(x));
	lx_random_fill(&b, y, sizeof(y));
	lx_random_fill(&c, z, sizeof(z));
	assert_memory_equal(x, y, sizeof(x));
	assert_memory_not_equal(x, z, sizeof(x));
	/* the stream goes on: the next draw is new bytes */
	lx_random_fill(&a, y, sizeof(y));
	assert_memory_not_equal(x, y, sizeof(x));
}

static void test_apart_from_at_random(void **state)
{
	uint64_t s;
	uint8_t at[16], g[16];

	(void)state;
	lx_random_bytes(7, at);
	lx_random_init(&s, 7);
	lx_random_fill(&s, g, sizeof(g));
	assert_memory_not_equal(at, g, sizeof(g));
}

static void test_odd_lengths(void **state)
{
	uint64_t s;
	uint8_t b[13];

	(void)state;
	memset(b, 0xee, sizeof(b));
	lx_random_init(&s, 1);
	lx_random_fill(&s, b, 5); /* writes 5 bytes, no more */
	for (int k = 5; k < 13; k++)
		assert_int_equal(b[k], 0xee);
}

static void test_fork_streams(void **state)
{
	uint64_t p1, p2, c1, c2;
	uint8_t a[16], b[16];

	(void)state;
	lx_random_init(&p1, 3);
	lx_random_init(&p2, 3);
	lx_random_fork(&p1, &c1);
	lx_random_fork(&p2, &c2);
	assert_int_equal(p1, p2); /* deterministic on both sides */
	assert_int_equal(c1, c2);
	lx_random_fill(&p1, a, sizeof(a));
	lx_random_fill(&c1, b, sizeof(b));
	assert_memory_not_equal(a, b, sizeof(a));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_seed_same_bytes),
		cmocka_unit_test(test_apart_from_at_random),
		cmocka_unit_test(test_odd_lengths),
		cmocka_unit_test(test_fork_streams),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
