/* test_arch_budget.c — sampling counters that take the timing model's
 * sums within a budget (model.h uarch_budget) sample exactly where they
 * do when every event comes signalled, on each backend whose counters
 * take them: the same samples, at the same instructions and cycles, and
 * the same counts, on the model's own stream of a loop that misses L1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/arch.h"
#include "core/evspec.h"
#include "emu/uarch/model.h"
#include "emu/x86/x86.h"

#define NKEEP 4096
struct kept {
	unsigned n;
	struct arch_sample s[NKEEP];
};

static void keep(void *arg, const struct arch_sample *s)
{
	struct kept *k = arg;
	if (k->n < NKEEP)
		k->s[k->n++] = *s;
}

/* The sink of the PMU hidden behind one that keeps no budget: every event
 * comes signalled, every retirement delivered (as behind a multiplexer). */
static struct uarch_sink inner;
static void pass(void *ctx, const struct uarch_delivery *d)
{
	(void)ctx;
	inner.deliver(inner.ctx, d);
}

/* A loop of a load missing L1 each time, over 4 MB, a dependent add, a
 * store, a branch taken in an irregular pattern, a system call now and
 * then, timed on machine's model with its PMU sampling spec every period
 * events; budget 0: behind a sink that keeps no budget. */
static void model_run(const char *machine, const char *spec, uint64_t period, int budget,
		      struct kept *k, uint64_t *count)
{
	static const uint8_t code[][3] = {
		{ 0x48, 0x8b, 0x03 }, /* mov rax, [rbx] */
		{ 0x48, 0x01, 0xc1 }, /* add rcx, rax */
		{ 0x48, 0x89, 0x0a }, /* mov [rdx], rcx */
		{ 0x75, 0xf7 },	      /* jne 0x401000 */
	};
	const struct arch_backend *b = arch_find(machine);
	struct arch_evsel ev[4];
	unsigned n = 0;
	int ctr[4];
	char err[256];
	struct arch_pmu_cb cb = { keep, k, 0 };
	struct uarch_counts *cnt = calloc(1, sizeof(*cnt));
	struct uarch *u = b ? uarch_new(uarch_machine_find(b->machine), cnt, 1) : NULL;
	struct uarch_sink outer;
	struct x86_insn ins[4];
	struct arch_pmu *p;

	memset(k, 0, sizeof(*k));
	assert_non_null(cnt);
	assert_non_null(u);
	assert_int_equal(evspec_parse(b, spec, ev, 4, &n, err, sizeof(err)), 0);
	for (unsigned i = 0; i < n; i++)
		ev[i].period = period;
	assert_int_equal(b->assign(ev, n, ctr, err, sizeof(err)), 0);
	p = b->pmu_new(ev, n, ctr, &cb);
	assert_non_null(p);
	b->pmu_sink(p, &inner);
	assert_non_null(inner.budget); /* sampling counters that take sums */
	outer = inner;
	if (!budget) {
		outer.deliver = pass;
		outer.sums = NULL;
		memset(outer.sum, 0, sizeof(outer.sum));
		outer.quiet = 0;
		outer.cut = NULL;
		outer.budget = NULL;
	}
	assert_int_equal(uarch_set_sink(u, &outer), 0);
	assert_int_equal(inner.budget->on, budget);
	for (int j = 0; j < 4; j++)
		assert_int_equal(x86_decode_one(0x401000 + 3 * (uint64_t)j, code[j], j < 3 ? 3 : 2,
						&ins[j]),
				 j < 3 ? 3 : 2);
	for (unsigned j = 0; j < 800000; j++) {
		const struct x86_insn *i = &ins[j % 4];
		struct x86_trace t = { .i = i, .next = i->pc + i->len };
		if (i->xclass == X86_XC_JCC && (j / 4 * 2654435761u) >> 30) {
			t.taken = 1;
			t.next = 0x401000;
		}
		if (i->mact) {
			t.nmem = 1;
			t.addr[0] = (i->mact & 1 ? 0x10000000ull : 0x20000000ull) +
				    (uint64_t)j * 16 % (4u << 20);
			t.size[0] = 8;
			t.load = i->mact & 1;
			t.store = (uint8_t)(i->mact >> 1);
		}
		uarch_retire(u, 0, &t);
		if (j % 100000 == 99999)
			uarch_syscall(u, 0, 39, NULL);
	}
	uarch_flush(u);
	b->pmu_read(p, count);
	uarch_free(u);
	b->pmu_free(p);
	free(cnt);
}

static void same_samples(const char *machine, const char *spec, uint64_t period)
{
	struct kept *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	uint64_t ca[4] = { 0 }, cb[4] = { 0 };

	assert_non_null(a && b);
	model_run(machine, spec, period, 1, a, ca);
	model_run(machine, spec, period, 0, b, cb);
	assert_true(a->n >= 5 && a->n < NKEEP);
	assert_int_equal(a->n, b->n);
	assert_memory_equal(ca, cb, sizeof(ca));
	for (unsigned j = 0; j < a->n; j++)
		if (a->s[j].ip != b->s[j].ip || a->s[j].cycle != b->s[j].cycle ||
		    a->s[j].evsel != b->s[j].evsel)
			fail_msg(
				"%s %s: sample %u: %#llx at %llu, without the budget %#llx at %llu",
				machine, spec, j, (unsigned long long)a->s[j].ip,
				(unsigned long long)a->s[j].cycle, (unsigned long long)b->s[j].ip,
				(unsigned long long)b->s[j].cycle);
	free(a);
	free(b);
}

/* Periods past twice the margin the sums stop short of (the backends'
 * NEAR_MARGIN), so that the counters are quiet for a while; two events
 * on one budget; a PEBS counter. */
static void p4_samples(void **state)
{
	(void)state;
	same_samples("p4", "cycles", 100003);
	same_samples("p4", "instructions", 40009);
	same_samples("p4", "cycles,uops", 60013);
	same_samples("p4", "L1-dcache-load-misses:pp", 33001);
}

static void xscale_samples(void **state)
{
	(void)state;
	same_samples("xscale", "cycles", 100003);
	same_samples("xscale", "instructions,cycles", 20011);
	same_samples("xscale2", "branches,instructions,cycles", 7001);
}

static void ia64_samples(void **state)
{
	(void)state;
	same_samples("ia64", "cycles", 100003);
	same_samples("ia64", "instructions,cycles", 20011);
	same_samples("ia64", "branches,instructions", 7001);
}

static void alpha_samples(void **state)
{
	(void)state;
	same_samples("alpha", "cycles", 100003);
	same_samples("alpha", "instructions,cycles", 20011);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(p4_samples),
		cmocka_unit_test(alpha_samples),
		cmocka_unit_test(xscale_samples),
		cmocka_unit_test(ia64_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
