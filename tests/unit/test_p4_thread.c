/* test_p4_thread.c — the P4 backend's per-thread qualification: an event
 * with a thread mask sets only that logical processor's T0/T1 OS/USR bits
 * in its ESCR, so it counts only that processor's signals, unless it is
 * thread-independent; two events on one ESCR must agree on the mask, as
 * on the hardware. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/arch.h"
#include "core/evspec.h"

#define NINSN 1000

/* Parse spec, give event i thread mask th[i], place them; the assign result. */
static int setup(const char *spec, const uint8_t *th, struct arch_evsel *ev, unsigned *n, int *ctr,
		 char *err, size_t errsz)
{
	const struct arch_backend *b = arch_find("p4");

	assert_non_null(b);
	*n = 0;
	assert_int_equal(evspec_parse(b, spec, ev, 8, n, err, errsz), 0);
	for (unsigned i = 0; i < *n; i++)
		ev[i].thread = th[i];
	return b->assign(ev, *n, ctr, err, errsz);
}

/* Count spec, event i with thread mask th[i], over signals of event ev:
 * 3 per cycle on T0 (user), 1 on T1 (kernel); into v, one per event. */
static void count(const char *spec, const uint8_t *th, unsigned ev, uint64_t *v)
{
	const struct arch_backend *b = arch_find("p4");
	struct arch_evsel e[8];
	struct arch_pmu_cb cb = { NULL, NULL, 0 };
	struct uarch_sink sink;
	unsigned n;
	int ctr[8];
	char err[256];

	assert_int_equal(setup(spec, th, e, &n, ctr, err, sizeof(err)), 0);
	struct arch_pmu *p = b->pmu_new(e, n, ctr, &cb);
	assert_non_null(p);
	b->pmu_sink(p, &sink);
	for (uint64_t k = 0; k < NINSN; k++) {
		struct uarch_sig sig[2] = { { k, 3, 1, (uint16_t)ev, 0, 0, UARCH_SIG_NOMEM },
					    { k, 1, 1, (uint16_t)ev, 1, 1, UARCH_SIG_NOMEM } };
		struct uarch_delivery d = { 0, 0, NULL, k, k, 2, sig, 2, NULL, 0, 0 };
		sink.deliver(sink.ctx, &d);
	}
	b->pmu_read(p, v);
	b->pmu_free(p);
}

static void counts_split_by_thread(void **state)
{
	static const uint8_t th[2] = { 1, 2 };
	uint64_t v[8] = { 0 };
	(void)state;

	/* INSTR_RETIRED has two ESCRs (CRU_ESCR0/1): one per thread fits */
	count("instructions,instructions", th, UARCH_EV_INSNS, v);
	assert_int_equal(v[0], 3 * NINSN);
	assert_int_equal(v[1], NINSN);
}

static void both_threads_by_default(void **state)
{
	static const uint8_t th[2] = { 1, 0 };
	uint64_t v[8] = { 0 };
	(void)state;

	/* :u on T0 only, and every level of both threads */
	count("instructions:u,instructions", th, UARCH_EV_INSNS, v);
	assert_int_equal(v[0], 3 * NINSN);
	assert_int_equal(v[1], 4 * NINSN);
}

/* A thread-independent event (SCALAR_DP_UOP, TI in the SDM) cannot be
 * told by processor: qualified by either, it counts both processors'
 * µops at the privilege levels its bits enable. */
static void shared_events_count_both(void **state)
{
	const struct arch_backend *b = arch_find("p4");
	static const uint8_t th[2] = { 1, 2 };
	struct arch_evsel ev[8];
	uint64_t v[8] = { 0 };
	unsigned n = 0;
	char err[256];
	(void)state;

	count("SCALAR_DP_UOP,SCALAR_DP_UOP", th, UARCH_EV_FP_SD, v);
	assert_int_equal(v[0], 4 * NINSN);
	assert_int_equal(v[1], 4 * NINSN);
	/* :u on T0: both processors' user-level µops */
	count("SCALAR_DP_UOP:u", th, UARCH_EV_FP_SD, v);
	assert_int_equal(v[0], 3 * NINSN);
	assert_int_equal(evspec_parse(b, "SCALAR_DP_UOP,instructions", ev, 8, &n, err, sizeof(err)),
			 0);
	assert_true(b->shared(&ev[0]));
	assert_false(b->shared(&ev[1])); /* thread-specific */
}

static void one_escr_one_mask(void **state)
{
	static const uint8_t th[3] = { 1, 2, 3 };
	struct arch_evsel ev[8];
	unsigned n;
	int ctr[8];
	char err[256];
	(void)state;

	/* three masks, two ESCRs: the hardware cannot count them at once */
	assert_int_equal(setup("instructions,instructions,instructions", th, ev, &n, ctr, err,
			       sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "does not fit"));
	/* the same mask twice shares one ESCR */
	static const uint8_t same[3] = { 1, 1, 2 };
	assert_int_equal(setup("instructions,instructions,instructions", same, ev, &n, ctr, err,
			       sizeof(err)),
			 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts_split_by_thread),
		cmocka_unit_test(both_threads_by_default),
		cmocka_unit_test(shared_events_count_both),
		cmocka_unit_test(one_escr_one_mask),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
