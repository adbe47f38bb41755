/* test_p4_routes.c — which model signals an event's mask routes to its
 * counter where bits combine: IOQ_ALLOCATION's source-agent field (a
 * request counts when it meets one bit of each field, SDM vol. 3B, table
 * OWN this processor's, OTHER the I/O agents', neither nothing), and
 * execution tagging (a FLAME event with tag enable marks its µops;
 * EXECUTION_EVENT's NBOGUSn count the retired ones, BOGUSn those on a
 * mispredicted path), the BSQ events' mask, one encoded request kind
 * (SDM: "specify an encoding for each sub-group"), and TC_DELIVER_MODE's
 * bits, each a pair of the processors' modes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/arch.h"
#include "arch/p4/p4.h"
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

/* PREFETCH adds the hardware prefetchers' reads to the reads a mask
 * selects, and to nothing else. */
static void prefetch_bit(void **state)
{
	enum { PF = 13 };
	static const struct uarch_sig sig[3] = {
		{ 10, BRL, 1, UARCH_EV_BUS_BRL, 0, 0, UARCH_SIG_NOMEM },
		{ 11, PF, 1, UARCH_EV_PF_BRL, 0, 0, UARCH_SIG_NOMEM },
		{ 12, BWL, 1, UARCH_EV_BUS_BWL, 0, 0, UARCH_SIG_NOMEM },
	};
	uint64_t v[8] = { 0 };
	(void)state;

	count(IOQ ":ALL_READ:OWN," IOQ ":ALL_READ:OWN:PREFETCH", 2, sig, 3, v);
	assert_int_equal(v[0], BRL);
	assert_int_equal(v[1], BRL + PF);
	count(IOQ ":ALL_WRITE:OWN:PREFETCH," IOQ ":ALL_READ:OTHER:PREFETCH", 2, sig, 3, v);
	assert_int_equal(v[0], BWL);
	assert_int_equal(v[1], 0);
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

/* The encodings of the model's four request kinds: type, length (8
 * chunks, or 1), cacheable, demand, write-back memory. */
#define BSQ_COMMON ":REQ_CACHE_TYPE:REQ_DEM_TYPE:MEM_TYPE1:MEM_TYPE2"
#define BSQ_RFO "REQ_TYPE0:REQ_LEN0:REQ_LEN1" BSQ_COMMON
#define BSQ_WB "REQ_TYPE0:REQ_TYPE1:REQ_LEN0:REQ_LEN1" BSQ_COMMON
#define BSQ_PARTIAL "REQ_TYPE1:REQ_LEN0" BSQ_COMMON
enum { RFO = 9, BWP = 2 };

static void bsq_kinds(void **state)
{
	static const struct uarch_sig sig[10] = {
		{ 2, 1, 8, UARCH_EV_MEM_BRL_LAT, 0, 0, UARCH_SIG_NOMEM },
		{ 4, 1, 6, UARCH_EV_MEM_BRL_LAT, 0, 0, UARCH_SIG_NOMEM },
		{ 5, 1, 9, UARCH_EV_MEM_BRIL_LAT, 0, 0, UARCH_SIG_NOMEM },
		{ 10, BRL, 1, UARCH_EV_BUS_BRL, 0, 0, UARCH_SIG_NOMEM },
		{ 11, RFO, 1, UARCH_EV_BUS_BRIL, 0, 0, UARCH_SIG_NOMEM },
		{ 12, BWL, 1, UARCH_EV_BUS_BWL, 0, 0, UARCH_SIG_NOMEM },
		{ 13, BWP, 1, UARCH_EV_BUS_BWP, 0, 0, UARCH_SIG_NOMEM },
		{ 14, 1, 5, UARCH_EV_MEM_BWL_LAT, 0, 0, UARCH_SIG_NOMEM },
		{ 15, 1, 2, UARCH_EV_MEM_BWL_LAT, 0, 0, UARCH_SIG_NOMEM },
		{ 16, 1, 3, UARCH_EV_MEM_BWP_LAT, 0, 0, UARCH_SIG_NOMEM },
	};
	uint64_t v[8] = { 0 };
	(void)state;

	/* the default is the reads; each kind counts under its own mask only
	 * (one ESCR each: one mask at a time) */
	count("BSQ_ALLOCATION,BSQ_ACTIVE_ENTRIES", 2, sig, 10, v);
	assert_int_equal(v[0], BRL);
	assert_int_equal(v[1], 8 + 6);
	count("BSQ_ALLOCATION:" BSQ_RFO ",BSQ_ACTIVE_ENTRIES:" BSQ_RFO, 2, sig, 10, v);
	assert_int_equal(v[0], RFO);
	assert_int_equal(v[1], 9);
	/* writes are outstanding too: two write-backs in cycles 15 and 16 */
	count("BSQ_ALLOCATION:" BSQ_WB ",BSQ_ACTIVE_ENTRIES:" BSQ_WB, 2, sig, 10, v);
	assert_int_equal(v[0], BWL);
	assert_int_equal(v[1], 5 + 2);
	count("BSQ_ALLOCATION:" BSQ_PARTIAL ",BSQ_ACTIVE_ENTRIES:" BSQ_PARTIAL, 2, sig, 10, v);
	assert_int_equal(v[0], BWP);
	assert_int_equal(v[1], 3);
}

/* What the model does not make is refused, with the field that says so;
 * what no encoding names is an error. */
static void bsq_refused(void **state)
{
	static const struct {
		uint32_t mask;
		int active, rc;
		const char *why; /* (rc 0: what it counts is sig) */
		unsigned sig;
	} t[] = {
		{ 0x328c, 0, 0, NULL, UARCH_EV_BUS_BRL },
		{ 0x328c, 1, 0, NULL, UARCH_EV_MEM_BRL_LAT },
		{ 0x328f, 1, 0, NULL, UARCH_EV_MEM_BWL_LAT },
		{ 0x3286, 1, 0, NULL, UARCH_EV_MEM_BWP_LAT },
		{ 0x21, 0, 1, "memory types", 0 },
		{ 0x308c, 0, 0, NULL, UARCH_EV_PF_BRL },
		{ 0x308d, 1, 0, NULL, UARCH_EV_MEM_PF_BRIL_LAT },
		{ 0x308f, 0, 1, "prefetches are reads", 0 },
		{ 0x32ac, 0, 1, "input/output", 0 },
		{ 0x32cc, 0, 1, "bus locks", 0 },
		{ 0x338c, 0, 1, "split", 0 },
		{ 0x368c, 0, 1, "ordered", 0 },
		{ 0x320c, 0, 1, "uncacheable", 0 },
		{ 0x3284, 0, 1, "partial writes of 1", 0 }, /* a partial read */
		{ 0x328e, 1, 1, "partial writes of 1", 0 }, /* a full-line write */
		{ 0x3288, 0, -1, "length 2", 0 },
		{ 0x128c, 0, -1, "memory types 2", 0 },
		{ 0x3a8c, 0, -1, "memory types 2", 0 },
	};
	(void)state;

	for (unsigned k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		unsigned sig = 0;
		const char *why = NULL;
		assert_int_equal(p4_bsq_signal(t[k].mask, t[k].active, &sig, &why), t[k].rc);
		if (t[k].rc) {
			assert_int_equal(sig, UARCH_NEV);
			assert_non_null(strstr(why, t[k].why));
		} else {
			assert_int_equal(sig, t[k].sig);
		}
	}
}

/* TC_DELIVER_MODE: the pair of both processors' modes, cycle by cycle,
 * from each one's cycles (active), build, ROM and clearing spans. */
#define SPAN(from, to, ev, th, k)                                             \
	{                                                                     \
		from, 1, (to) - (from), UARCH_EV_##ev, th, k, UARCH_SIG_NOMEM \
	}

static void tc_modes_one(void **state)
{
	static const struct uarch_sig sig[5] = {
		SPAN(0, 50, CYCLES, 0, 1),	     SPAN(50, 100, CYCLES, 0, 0),
		SPAN(10, 20, TC_BUILD_CYCLES, 0, 1), SPAN(30, 31, TC_ROM_CYCLES, 0, 1),
		SPAN(55, 65, MC_CYCLES, 0, 0),
	};
	uint64_t v[8] = { 0 };
	(void)state;

	/* processor 1 is inactive throughout; ROM and clearing make 0 so */
	count("TC_DELIVER_MODE,TC_DELIVER_MODE:BI", 2, sig, 5, v);
	assert_int_equal(v[0], 100 - 10 - 1 - 10);
	assert_int_equal(v[1], 10);
	count("TC_DELIVER_MODE:DD:DB:DI:BD:BB:BI:ID:IB,TC_DELIVER_MODE:DI:u", 2, sig, 5, v);
	assert_int_equal(v[0], 100 - 1 - 10);
	assert_int_equal(v[1], 50 - 10);
}

static void tc_modes_two(void **state)
{
	static const struct uarch_sig sig[5] = {
		SPAN(0, 100, CYCLES, 0, 0),	     SPAN(20, 100, CYCLES, 1, 0),
		SPAN(10, 30, TC_BUILD_CYCLES, 0, 0), SPAN(25, 40, TC_BUILD_CYCLES, 1, 0),
		SPAN(60, 62, TC_ROM_CYCLES, 1, 0),
	};
	static const struct {
		const char *spec;
		uint64_t want[2];
	} t[] = {
		{ "TC_DELIVER_MODE:DD,TC_DELIVER_MODE:DI", { 20 + 38, 10 + 2 } },
		{ "TC_DELIVER_MODE:BI,TC_DELIVER_MODE:BD", { 10, 5 } },
		{ "TC_DELIVER_MODE:BB,TC_DELIVER_MODE:DB", { 5, 10 } },
		{ "TC_DELIVER_MODE:ID:IB,TC_DELIVER_MODE:DD:DB:DI:BD:BB:BI:ID:IB", { 0, 100 } },
	};
	(void)state;

	for (unsigned k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		uint64_t v[8] = { 0 };
		count(t[k].spec, 2, sig, 5, v);
		assert_int_equal(v[0], t[k].want[0]);
		assert_int_equal(v[1], t[k].want[1]);
	}
}

/* Processor 0 builds in every other cycle, 5,000 times, before the
 * frontier lets any out: each span is kept (the lists grow). */
static void tc_modes_many(void **state)
{
	enum { N = 5000 };
	static struct uarch_sig sig[N + 1];
	uint64_t v[8] = { 0 };
	(void)state;

	sig[0] = (struct uarch_sig)SPAN(0, 4 * N, CYCLES, 0, 0);
	for (unsigned k = 0; k < N; k++)
		sig[k + 1] = (struct uarch_sig)SPAN(2 * k, 2 * k + 1, TC_BUILD_CYCLES, 0, 0);
	count("TC_DELIVER_MODE:BI,TC_DELIVER_MODE:DI", 2, sig, N + 1, v);
	assert_int_equal(v[0], N);
	assert_int_equal(v[1], 4 * N - N);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(own_and_other), cmocka_unit_test(one_bit_of_each_field),
		cmocka_unit_test(prefetch_bit),	 cmocka_unit_test(execution_tagging),
		cmocka_unit_test(bsq_kinds),	 cmocka_unit_test(bsq_refused),
		cmocka_unit_test(tc_modes_one),	 cmocka_unit_test(tc_modes_two),
		cmocka_unit_test(tc_modes_many),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
