/* test_p4_routes.c — which model signals an event's mask routes to its
 * counter where bits combine: IOQ_ALLOCATION's source-agent field (a
 * request counts when it meets one bit of each field, SDM vol. 3B, table
 * OWN this processor's, OTHER the I/O agents', neither nothing), and
 * execution tagging (a FLAME event with tag enable marks its µops;
 * EXECUTION_EVENT's NBOGUSn count the retired ones, BOGUSn those on a
 * mispredicted path). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/arch.h"
#include "core/evspec.h"

enum { BRL = 5, BWL = 3, IO_RD = 7, IO_WR = 11 };

/* Count the events of spec over one delivery of sig (n of them), into v. */
static void count(const char *spec, unsigned nev, const struct uarch_sig *sig, unsigned n,
		  uint64_t *v)
{
	const struct arch_backend *b = arch_find("p4");
	struct arch_evsel ev[8];
	struct arch_pmu_cb cb = { NULL, NULL, 0 };
	struct uarch_sink sink;
	int ctr[8];
	char err[256];
	struct uarch_delivery d = { 0, 0, NULL, 20, 20, 1, sig, n, NULL, 0, 0 };
	unsigned got = 0;

	assert_non_null(b);
	assert_int_equal(evspec_parse(b, spec, ev, 8, &got, err, sizeof(err)), 0);
	assert_int_equal(got, nev);
	assert_int_equal(b->assign(ev, got, ctr, err, sizeof(err)), 0);
	struct arch_pmu *p = b->pmu_new(ev, got, ctr, &cb);
	assert_non_null(p);
	b->pmu_sink(p, &sink);
	sink.deliver(sink.ctx, &d);
	b->pmu_read(p, v);
	b->pmu_free(p);
}

/* One burst of each kind of bus request; IOQ_ALLOCATION has two ESCRs. */
static void count2(const char *spec, uint64_t *v)
{
	static const struct uarch_sig sig[4] = {
		{ 10, BRL, 1, UARCH_EV_BUS_BRL, 0, 0, UARCH_SIG_NOMEM },
		{ 11, BWL, 1, UARCH_EV_BUS_BWL, 0, 0, UARCH_SIG_NOMEM },
		{ 12, IO_RD, 1, UARCH_EV_BUS_IO_RD, 0, 1, UARCH_SIG_NOMEM },
		{ 13, IO_WR, 1, UARCH_EV_BUS_IO_WR, 0, 1, UARCH_SIG_NOMEM },
	};

	count(spec, 2, sig, 4, v);
}

#define IOQ "IOQ_ALLOCATION:DEFAULT:MEM_WB"

static void own_and_other(void **state)
{
	uint64_t v[8] = { 0 };
	(void)state;

	count2(IOQ ":ALL_READ:ALL_WRITE:OWN," IOQ ":ALL_READ:OTHER", v);
	assert_int_equal(v[0], BRL + BWL);
	assert_int_equal(v[1], IO_RD);
	count2(IOQ ":ALL_WRITE:OTHER," IOQ ":ALL_READ:OWN:OTHER", v);
	assert_int_equal(v[0], IO_WR);
	assert_int_equal(v[1], BRL + IO_RD);
}

static void one_bit_of_each_field(void **state)
{
	uint64_t v[8] = { 0 };
	(void)state;

	/* no source bit: nothing; the default mask: every request */
	count2(IOQ ":ALL_READ:ALL_WRITE,IOQ_ALLOCATION", v);
	assert_int_equal(v[0], 0);
	assert_int_equal(v[1], BRL + BWL + IO_RD + IO_WR);
}

/* X87_FP_UOP:ALL with tag enable and tag value 1 (bit 0), as a raw
 * image (Linux's packing, the ESCR in the high half: event 22, mask bit
 * 15, tag 1, tag enable), and the x87 µops it marks. */
#define X87_TAGGER "r2d00003000000000"
enum { X87 = 7, X87_WP = 2, SD = 5 };

static void execution_tagging(void **state)
{
	static const struct uarch_sig sig[3] = {
		{ 10, X87, 1, UARCH_EV_FP_X87, 0, 0, UARCH_SIG_NOMEM },
		{ 11, X87_WP, 1, UARCH_EV_FP_X87_WP, 0, 0, UARCH_SIG_NOMEM },
		{ 12, SD, 1, UARCH_EV_FP_SD, 0, 0, UARCH_SIG_NOMEM },
	};
	uint64_t v[8] = { 0 };
	(void)state;

	count(X87_TAGGER ",EXECUTION_EVENT:NBOGUS0,EXECUTION_EVENT:BOGUS0", 3, sig, 3, v);
	assert_int_equal(v[0], X87 + X87_WP); /* the FLAME event counts both */
	assert_int_equal(v[1], X87);
	assert_int_equal(v[2], X87_WP);
	/* tag bit 1 is no one's */
	count(X87_TAGGER ",EXECUTION_EVENT:NBOGUS1:BOGUS1", 2, sig, 3, v);
	assert_int_equal(v[1], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(own_and_other),
		cmocka_unit_test(one_bit_of_each_field),
		cmocka_unit_test(execution_tagging),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
