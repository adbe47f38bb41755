/* Unit tests for emu/uarch/prefetch.c: which sectors the hardware
 * prefetcher asks for, with the p4 machine's figures (8 streams, 64-byte
 * sectors, started by two misses within 256 bytes, 256 bytes ahead). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "emu/uarch/prefetch.h"

#define PAGE 0x10000000ull /* the start of a 4 KB region */

static struct uarch_pf pf;

/* An access at cycle 0 with up to limit reads to be in flight; returns
 * the sectors asked for, the first in *first. */
static unsigned acc_room(uint64_t addr, int miss, unsigned limit, uint64_t *first, int *dir)
{
	*first = 0;
	*dir = 0;
	return uarch_pf_access(&pf, addr, miss, 0, limit, first, dir);
}

static unsigned acc(uint64_t addr, int miss, uint64_t *first, int *dir)
{
	return acc_room(addr, miss, 64, first, dir);
}

/* Two misses a sector apart start a stream: it fetches the four sectors
 * (256 bytes) past the second; each access after that adds what brings it
 * back to 256 bytes ahead, and nothing is asked for twice. */
static void forward_stream(void **state)
{
	uint64_t f;
	int d;
	(void)state;

	uarch_pf_init(&pf, 8, 6, 256, 256);
	assert_int_equal(acc(PAGE, 1, &f, &d), 0);
	assert_int_equal(acc(PAGE + 64, 1, &f, &d), 4);
	assert_int_equal(d, 1);
	assert_int_equal(f, (PAGE >> 6) + 2);
	/* the next sector was fetched: its access is a hit */
	assert_int_equal(acc(PAGE + 128, 0, &f, &d), 1);
	assert_int_equal(f, (PAGE >> 6) + 6);
	assert_int_equal(acc(PAGE + 128, 0, &f, &d), 0);
	assert_int_equal(acc(PAGE + 320, 0, &f, &d), 3);
	assert_int_equal(f, (PAGE >> 6) + 7);
}

/* A stream never crosses its 4 KB region; the next region's own misses
 * start another. */
static void stays_in_region(void **state)
{
	uint64_t f;
	int d;
	(void)state;

	uarch_pf_init(&pf, 8, 6, 256, 256);
	acc(PAGE + 4096 - 256, 1, &f, &d);
	assert_int_equal(acc(PAGE + 4096 - 192, 1, &f, &d), 2);
	assert_int_equal(f, ((PAGE + 4096) >> 6) - 2);
	assert_int_equal(acc(PAGE + 4096 - 64, 0, &f, &d), 0);
	assert_int_equal(acc(PAGE + 4096, 1, &f, &d), 0);
	assert_int_equal(acc(PAGE + 4096 + 64, 1, &f, &d), 4);
}

/* Descending misses start a backward stream. */
static void backward_stream(void **state)
{
	uint64_t f;
	int d;
	(void)state;

	uarch_pf_init(&pf, 8, 6, 256, 256);
	acc(PAGE + 2048, 1, &f, &d);
	assert_int_equal(acc(PAGE + 2048 - 128, 1, &f, &d), 4);
	assert_int_equal(d, -1);
	assert_int_equal(f, ((PAGE + 2048 - 128) >> 6) - 1);
	/* down to the region's first sector and no further */
	acc(PAGE + 192, 0, &f, &d);
	assert_int_equal(acc(PAGE + 64, 0, &f, &d), 0);
	assert_int_equal(acc(PAGE, 0, &f, &d), 0);
}

/* Misses further apart than the trigger distance, hits alone, and the
 * same sector twice start nothing. */
static void needs_two_close_misses(void **state)
{
	uint64_t f;
	int d;
	(void)state;

	uarch_pf_init(&pf, 8, 6, 256, 256);
	for (uint64_t a = PAGE; a < PAGE + 4096; a += 320)
		assert_int_equal(acc(a, 1, &f, &d), 0);
	assert_int_equal(acc(PAGE + 8192, 0, &f, &d), 0);
	assert_int_equal(acc(PAGE + 8192 + 64, 0, &f, &d), 0);
	assert_int_equal(acc(PAGE + 12288, 1, &f, &d), 0);
	assert_int_equal(acc(PAGE + 12288, 1, &f, &d), 0);
	assert_int_equal(acc(PAGE + 12288 + 256, 1, &f, &d), 4);
	/* none tracked: no prefetcher */
	uarch_pf_init(&pf, 0, 6, 256, 256);
	acc(PAGE, 1, &f, &d);
	assert_int_equal(acc(PAGE + 64, 1, &f, &d), 0);
}

/* Nine regions in turn with eight streams: the least recently used one
 * is forgotten, so its next miss starts it over. */
static void replaces_least_recent(void **state)
{
	uint64_t f;
	int d;
	(void)state;

	uarch_pf_init(&pf, 8, 6, 256, 256);
	for (uint64_t k = 0; k < 9; k++)
		assert_int_equal(acc(PAGE + k * 4096, 1, &f, &d), 0);
	assert_int_equal(acc(PAGE + 64, 1, &f, &d), 0); /* region 0: forgotten */
	assert_int_equal(acc(PAGE + 8 * 4096 + 64, 1, &f, &d), 4);
}

/* With room for fewer reads than it wants, a stream asks for what fits
 * and the rest at its next access; reads still in flight take room. */
static void waits_for_room(void **state)
{
	uint64_t f;
	int d;
	(void)state;

	uarch_pf_init(&pf, 8, 6, 256, 256);
	acc(PAGE, 1, &f, &d);
	assert_int_equal(acc_room(PAGE + 64, 1, 1, &f, &d), 1);
	assert_int_equal(f, (PAGE >> 6) + 2);
	assert_int_equal(acc_room(PAGE + 64, 0, 0, &f, &d), 0);
	uarch_pf_fetched(&pf, (PAGE >> 6) + 2, 100);
	uarch_pf_fetched(&pf, (PAGE >> 6) + 3, 136);
	assert_int_equal(uarch_pf_access(&pf, PAGE + 64, 0, 99, 3, &f, &d), 1);
	assert_int_equal(f, (PAGE >> 6) + 3);
	assert_int_equal(uarch_pf_access(&pf, PAGE + 64, 0, 136, 8, &f, &d), 2);
	assert_int_equal(f, (PAGE >> 6) + 4);
}

/* A fetched sector is pending until its data arrives. */
static void pending_until_arrival(void **state)
{
	(void)state;

	uarch_pf_init(&pf, 8, 6, 256, 256);
	assert_int_equal(uarch_pf_pending(&pf, PAGE, 0), 0);
	uarch_pf_fetched(&pf, PAGE >> 6, 500);
	uarch_pf_fetched(&pf, (PAGE >> 6) + 1, 536);
	assert_int_equal(uarch_pf_pending(&pf, PAGE + 8, 100), 500);
	assert_int_equal(uarch_pf_pending(&pf, PAGE + 64, 499), 536);
	assert_int_equal(uarch_pf_pending(&pf, PAGE, 500), 0);
	assert_int_equal(uarch_pf_pending(&pf, PAGE + 128, 100), 0);
	assert_int_equal(uarch_pf_inflight(&pf, 100), 2);
	assert_int_equal(uarch_pf_inflight(&pf, 500), 1);
	assert_int_equal(uarch_pf_inflight(&pf, 536), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(forward_stream),	 cmocka_unit_test(stays_in_region),
		cmocka_unit_test(backward_stream),	 cmocka_unit_test(needs_two_close_misses),
		cmocka_unit_test(replaces_least_recent), cmocka_unit_test(waits_for_room),
		cmocka_unit_test(pending_until_arrival),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
