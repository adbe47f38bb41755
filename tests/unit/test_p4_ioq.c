/* test_p4_ioq.c — IOQ_ALLOCATION's source-agent field: a request counts
 * when it meets one bit of each field (SDM vol. 3B, table A-9), so OWN
 * counts this processor's reads and writes, OTHER the I/O agents', both
 * bits both, and neither bit nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/arch.h"
#include "core/evspec.h"

enum { BRL = 5, BWL = 3, IO_RD = 7, IO_WR = 11 };

/* Count the two events of spec (IOQ_ALLOCATION has two ESCRs) over one
 * burst of each kind of request, into v[0] and v[1]. */
static void count2(const char *spec, uint64_t *v)
{
	const struct arch_backend *b = arch_find("p4");
	struct arch_evsel ev[8];
	struct arch_pmu_cb cb = { NULL, NULL, 0 };
	struct uarch_sink sink;
	unsigned n = 0;
	int ctr[8];
	char err[256];
	struct uarch_sig sig[4] = {
		{ 10, BRL, 1, UARCH_EV_BUS_BRL, 0, 0, UARCH_SIG_NOMEM },
		{ 11, BWL, 1, UARCH_EV_BUS_BWL, 0, 0, UARCH_SIG_NOMEM },
		{ 12, IO_RD, 1, UARCH_EV_BUS_IO_RD, 0, 1, UARCH_SIG_NOMEM },
		{ 13, IO_WR, 1, UARCH_EV_BUS_IO_WR, 0, 1, UARCH_SIG_NOMEM },
	};
	struct uarch_delivery d = { 0, 0, NULL, 20, 20, 1, sig, 4, NULL, 0, 0 };

	assert_non_null(b);
	assert_int_equal(evspec_parse(b, spec, ev, 8, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(b->assign(ev, n, ctr, err, sizeof(err)), 0);
	struct arch_pmu *p = b->pmu_new(ev, n, ctr, &cb);
	assert_non_null(p);
	b->pmu_sink(p, &sink);
	sink.deliver(sink.ctx, &d);
	b->pmu_read(p, v);
	b->pmu_free(p);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(own_and_other),
		cmocka_unit_test(one_bit_of_each_field),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
