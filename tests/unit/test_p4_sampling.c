/* test_p4_sampling.c — the Pentium 4 backend's sampling on a synthetic
 * stream of retiring instructions: the seed's PEBS vs IEBS experiment in
 * miniature (seed 004, figure 5).  One load in every 32 instructions
 * misses L1; PEBS samples name that load every time, period + 1 misses
 * apart, IEBS samples land a PMI latency later, on other instructions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/arch.h"
#include "core/evspec.h"

#define NINSN 20000
#define MISS_PC 0x401000
#define OTHER_PC 0x402000

struct got {
	unsigned n, at_miss, precise;
	uint64_t skid_sum;
	uint64_t last_rax;
};

static void on_sample(void *arg, const struct arch_sample *s)
{
	struct got *g = arg;
	g->n++;
	g->at_miss += s->ip == MISS_PC;
	g->precise += s->precise;
	if (s->nregs)
		g->last_rax = s->regs[2];
}

/* Run the stream through a PMU programmed with spec, period. */
static void run(const char *spec, uint64_t period, struct got *g, uint64_t *count)
{
	const struct arch_backend *b = arch_find("p4");
	struct arch_evsel ev[4];
	unsigned n = 0;
	int ctr[4];
	char err[256];
	struct arch_pmu_cb cb = { on_sample, g, 0 };
	struct uarch_sink sink;
	struct x86_insn miss = { .pc = MISS_PC }, other = { .pc = OTHER_PC };
	struct x86_pre pre = { 0 };

	memset(g, 0, sizeof(*g));
	assert_non_null(b);
	assert_int_equal(evspec_parse(b, spec, ev, 4, &n, err, sizeof(err)), 0);
	ev[0].period = period;
	assert_int_equal(b->assign(ev, n, ctr, err, sizeof(err)), 0);
	struct arch_pmu *p = b->pmu_new(ev, n, ctr, &cb);
	assert_non_null(p);
	b->pmu_sink(p, &sink);
	assert_true(sink.want[UARCH_EV_L1D_LD_MISS]);
	for (uint64_t k = 0; k < NINSN; k++) {
		int is_miss = k % 32 == 7;
		struct uarch_sig sig = { k, 1, 1, UARCH_EV_L1D_LD_MISS, 0, 0, UARCH_SIG_NOMEM };
		struct x86_trace tr = { .i = is_miss ? &miss : &other, .pre = &pre };
		struct uarch_delivery d = {
			0, 0, &tr, k, k, 1, &sig, is_miss ? 1u : 0u, NULL, 0, 0
		};
		pre.r[0] = 0x1000 + k; /* rax before the instruction */
		tr.nmem = 1;
		tr.load = 1;
		tr.addr[0] = 0x1000 + k;
		sink.deliver(sink.ctx, &d);
	}
	b->pmu_read(p, count);
	b->pmu_free(p);
}

static void pebs_names_the_missing_load(void **state)
{
	struct got g;
	uint64_t count;
	(void)state;
	run("L1-dcache-load-misses:pp", 10, &g, &count);
	assert_int_equal(count, (NINSN + 31) / 32);
	/* overflow on the 10th miss, the assist on the 11th, which the
	 * counter reset replaces: a record every 11 misses */
	assert_int_equal(g.n, count / 11);
	assert_int_equal(g.at_miss, g.n); /* 100% on the missing load */
	assert_int_equal(g.precise, g.n);
	/* the registers are those before the load: rax of the last record
	 * is that of miss number 11 * n (the load at instruction 32m + 7) */
	assert_int_equal(g.last_rax, 0x1000 + 32 * (11 * (uint64_t)g.n - 1) + 7);
}

static void iebs_skids(void **state)
{
	struct got g;
	uint64_t count;
	(void)state;
	run("L1-dcache-load-misses", 10, &g, &count);
	assert_int_equal(count, (NINSN + 31) / 32);
	assert_true(g.n >= count / 10 - 2);
	assert_int_equal(g.at_miss, 0); /* none on the load: a latency later */
	assert_int_equal(g.precise, 0);
}

static void counting_needs_no_period(void **state)
{
	struct got g;
	uint64_t count;
	(void)state;
	run("r4a00020000000001", 0, &g, &count);
	assert_int_equal(count, (NINSN + 31) / 32);
	assert_int_equal(g.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pebs_names_the_missing_load),
		cmocka_unit_test(iebs_skids),
		cmocka_unit_test(counting_needs_no_period),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
