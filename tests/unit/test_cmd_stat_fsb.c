/* Unit tests for cmd/stat_fsb.c: the front-side-bus formulas of
 * `vpmu stat --metrics fsb` and the bus read from machine parameters. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cmd/stat_metrics.h"

/* cmocka's float comparison rounds to float: compare doubles here */
#define assert_near(a, b) assert_true(fabs((a) - (b)) <= 1e-9 * (1 + fabs(b)))

/* The default ia64 machine: 1 GHz, bus ratio 5, 3 address clocks, 16-byte
 * double-pumped bus, 128-byte L3 lines. */
static struct stat_fsb_bus ia64_bus(void)
{
	static const char *const kv[][2] = {
		{ "core.mhz", "1000" },	  { "l1d.line", "64" },	      { "l2.line", "128" },
		{ "l3.line", "128" },	  { "l4.line", "0" },	      { "mini.line", "32" },
		{ "mem.latency", "180" }, { "mem.bus_width", "16" },  { "mem.bus_ratio", "5" },
		{ "mem.pump", "2" },	  { "mem.addr_cycles", "3" },
	};
	struct stat_fsb_bus b = { 0 };

	for (size_t k = 0; k < sizeof(kv) / sizeof(kv[0]); k++)
		stat_fsb_bus_param(&b, kv[k][0], kv[k][1]);
	assert_int_equal(stat_fsb_bus_done(&b), 0);
	return b;
}

static void test_bus_from_params(void **state)
{
	struct stat_fsb_bus b = ia64_bus();

	(void)state;
	assert_int_equal(b.mhz, 1000);
	assert_int_equal(b.ratio, 5);
	assert_int_equal(b.addr_clocks, 3);
	assert_int_equal(b.line, 128); /* the deepest level present, not l4 or mini */
	assert_int_equal(b.bytes_per_clock, 32);
	assert_int_equal(b.line_clocks, 4); /* Caliper's 4.0 */
	assert_int_equal(b.partial_clocks, 1);
}

static void test_bus_rounds_up_and_refuses(void **state)
{
	struct stat_fsb_bus b = { 0 };

	(void)state;
	stat_fsb_bus_param(&b, "mem.bus_ratio", "4");
	stat_fsb_bus_param(&b, "mem.bus_width", "8");
	stat_fsb_bus_param(&b, "mem.pump", "1");
	stat_fsb_bus_param(&b, "l2.line", "36");
	assert_int_equal(stat_fsb_bus_done(&b), 0);
	assert_int_equal(b.line_clocks, 5); /* 36 bytes over 8 per clock */
	b = (struct stat_fsb_bus){ 0 };
	stat_fsb_bus_param(&b, "mem.bus_width", "16");
	stat_fsb_bus_param(&b, "l3.line", "128");
	assert_int_equal(stat_fsb_bus_done(&b), -1); /* no ratio */
}

/* 1,000,000 core cycles = 200,000 bus clocks at ratio 5. */
static void test_utilisation(void **state)
{
	struct stat_fsb_bus b = ia64_bus();
	struct stat_fsb_counts c = { .cycles = 1e6,
				     .all_any = 10000,
				     .all_self = 7500,
				     .all_io = 2500,
				     .lines = 9000,
				     .partials = 1000 };
	double v[STAT_FSB_NMETRIC];
	int ok[STAT_FSB_NMETRIC];

	(void)state;
	assert_true(stat_fsb_bus_clocks(&c, &b) == 200000);
	stat_fsb_compute(&c, &b, v, ok);
	assert_true(ok[STAT_FSB_ADDR_UTIL] && ok[STAT_FSB_DATA_UTIL]);
	/* 10000 * 3 / 200000 */
	assert_near(v[STAT_FSB_ADDR_UTIL], 15.0);
	/* (9000 * 4 + 1000 * 1) / 200000 */
	assert_near(v[STAT_FSB_DATA_UTIL], 18.5);
	assert_near(v[STAT_FSB_CPU_SHARE], 75.0);
	assert_near(v[STAT_FSB_IO_SHARE], 25.0);
}

static void test_latency_and_outstanding(void **state)
{
	struct stat_fsb_bus b = ia64_bus();
	/* 1000 reads of 180 cycles each: 180,000 read-cycles = HI * 8 + LO */
	struct stat_fsb_counts c = {
		.cycles = 200000, .reads = 1000, .out_hi = 20000, .out_lo = 20000
	};
	double v[STAT_FSB_NMETRIC];
	int ok[STAT_FSB_NMETRIC];

	(void)state;
	stat_fsb_compute(&c, &b, v, ok);
	assert_true(ok[STAT_FSB_LAT_CORE] && ok[STAT_FSB_LAT_BUS] && ok[STAT_FSB_OUTSTANDING]);
	assert_near(v[STAT_FSB_LAT_CORE], 180.0);
	assert_near(v[STAT_FSB_LAT_BUS], 36.0);
	assert_near(v[STAT_FSB_OUTSTANDING], 0.9);
}

static void test_bandwidth(void **state)
{
	struct stat_fsb_bus b = ia64_bus();
	/* every bus clock of 1 ms carries data: the 6.4 GB/s peak */
	struct stat_fsb_counts c = { .cycles = 1e6, .data_clocks = 200000 };
	double v[STAT_FSB_NMETRIC];
	int ok[STAT_FSB_NMETRIC];

	(void)state;
	stat_fsb_compute(&c, &b, v, ok);
	assert_true(ok[STAT_FSB_BANDWIDTH]);
	assert_near(v[STAT_FSB_BANDWIDTH], 6400.0);
	b.mhz = 500; /* the same cycles take twice the time */
	stat_fsb_compute(&c, &b, v, ok);
	assert_near(v[STAT_FSB_BANDWIDTH], 3200.0);
}

/* A zero denominator leaves its metrics absent, the others computed. */
static void test_absent(void **state)
{
	struct stat_fsb_bus b = ia64_bus();
	struct stat_fsb_counts none = { 0 }, noreads = { .cycles = 1000, .all_any = 0 };
	double v[STAT_FSB_NMETRIC];
	int ok[STAT_FSB_NMETRIC];

	(void)state;
	stat_fsb_compute(&none, &b, v, ok);
	for (int k = 0; k < STAT_FSB_NMETRIC; k++)
		assert_false(ok[k]);
	stat_fsb_compute(&noreads, &b, v, ok);
	assert_true(ok[STAT_FSB_ADDR_UTIL] && ok[STAT_FSB_OUTSTANDING]);
	assert_false(ok[STAT_FSB_LAT_CORE] || ok[STAT_FSB_CPU_SHARE] || ok[STAT_FSB_IO_SHARE]);
	assert_near(v[STAT_FSB_ADDR_UTIL], 0.0);
}

static void test_table(void **state)
{
	(void)state;
	for (int k = 0; k < STAT_FSB_NMETRIC; k++) {
		assert_non_null(stat_fsb_metrics[k].name);
		assert_non_null(stat_fsb_metrics[k].label);
		assert_non_null(stat_fsb_metrics[k].formula);
		assert_non_null(stat_fsb_metrics[k].unit);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bus_from_params),
		cmocka_unit_test(test_bus_rounds_up_and_refuses),
		cmocka_unit_test(test_utilisation),
		cmocka_unit_test(test_latency_and_outstanding),
		cmocka_unit_test(test_bandwidth),
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
