/* Unit tests for the XScale backends (arch/xscale/pmu.c, run.c): event
 * specs, raw images and counter placement on xscale and xscale2, and the
 * hardware at run time fed hand-made model signals — counts, the B/BL
 * difference, per-cycle and once-per-run conditions, write-backs per half
 * line, the clock divider, and overflow-interrupt samples. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "arch/arch.h"
#include "core/evspec.h"

static int parse(const struct arch_backend *b, const char *spec, struct arch_evsel *e, unsigned *n,
		 char *err)
{
	*n = 0;
	return evspec_parse(b, spec, e, ARCH_MAX_EVSEL, n, err, 256);
}

static void specs_and_errors(void **state)
{
	const struct arch_backend *b = arch_find("xscale");
	struct arch_evsel e[ARCH_MAX_EVSEL];
	char err[256];
	unsigned n;

	(void)state;
	assert_non_null(b);
	assert_int_equal(parse(b, "CPU_CYCLES,CPU_CYCLES:DIV64,r8000000fe,rb", e, &n, err), 0);
	assert_int_equal(e[0].config, 0xfe);
	assert_int_equal(e[1].config, 0x8000000feull);
	assert_int_equal(e[2].event, e[1].event);
	assert_int_equal(e[2].umask, e[1].umask);
	assert_string_equal(b->events[e[3].event].name, "DCACHE_MISS");
	assert_int_equal(parse(b, "instructions", e, &n, err), 0);
	assert_string_equal(b->events[e[0].event].name, "INSN_EXECUTED");
	/* no mode exclusion, no precise mechanism, no divider but on CCNT */
	assert_int_equal(parse(b, "cycles:u", e, &n, err), -1);
	assert_non_null(strstr(err, "every processor mode"));
	assert_int_equal(parse(b, "INSN_EXECUTED:p", e, &n, err), -1);
	assert_int_equal(parse(b, "r80000000b", e, &n, err), -1);
	assert_int_equal(parse(b, "r13", e, &n, err), -1);
	assert_non_null(strstr(err, "no XScale event"));
	assert_int_equal(parse(b, "BCU_FULL", e, &n, err), -1);
	assert_non_null(strstr(err, "not supported"));
	assert_int_equal(parse(b, "RMW", e, &n, err), -1);
}

static void placement(void **state)
{
	const struct arch_backend *b1 = arch_find("xscale"), *b2 = arch_find("xscale2");
	struct arch_evsel e[ARCH_MAX_EVSEL];
	int ctr[ARCH_MAX_EVSEL];
	char err[256];
	unsigned n;

	(void)state;
	assert_int_equal(parse(b1, "INSN_EXECUTED,CPU_CYCLES,DCACHE_MISS", e, &n, err), 0);
	assert_int_equal(b1->assign(e, n, ctr, err, sizeof(err)), 0);
	assert_int_equal(ctr[0], 1);
	assert_int_equal(ctr[1], 0);
	assert_int_equal(ctr[2], 2);
	/* a third event counter does not exist on XSC1; four do on XSC2 */
	assert_int_equal(parse(b1, "INSN_EXECUTED,DCACHE_MISS,DCACHE_ACCESS", e, &n, err), 0);
	assert_int_equal(b1->assign(e, n, ctr, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "DCACHE_ACCESS"));
	assert_int_equal(b2->assign(e, n, ctr, err, sizeof(err)), 0);
	assert_int_equal(parse(b2, "INSN_EXECUTED,DCACHE_MISS,DCACHE_ACCESS,ITLB_MISS,DTLB_MISS", e,
			       &n, err),
			 0);
	assert_int_equal(b2->assign(e, n, ctr, err, sizeof(err)), -1);
	/* one clock counter */
	assert_int_equal(parse(b1, "cycles,CPU_CYCLES:DIV64", e, &n, err), 0);
	assert_int_equal(b1->assign(e, n, ctr, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "CCNT"));
}

/* ---- the hardware at run time ---- */

struct got {
	unsigned n;
	struct arch_sample s[16];
};

static void on_sample(void *arg, const struct arch_sample *s)
{
	struct got *g = arg;

	if (g->n < 16)
		g->s[g->n++] = *s;
}

struct rig {
	const struct arch_backend *b;
	struct arch_evsel e[ARCH_MAX_EVSEL];
	int ctr[ARCH_MAX_EVSEL];
	unsigned n;
	struct arch_pmu *p;
	struct uarch_sink sink;
	struct got got;
};

static void rig_new(struct rig *r, const char *arch, const char *spec, uint64_t period)
{
	char err[256];

	memset(r, 0, sizeof(*r));
	r->b = arch_find(arch);
	assert_int_equal(parse(r->b, spec, r->e, &r->n, err), 0);
	r->e[0].period = period;
	assert_int_equal(r->b->assign(r->e, r->n, r->ctr, err, sizeof(err)), 0);
	struct arch_pmu_cb cb = { .sample = on_sample, .arg = &r->got };
	r->p = r->b->pmu_new(r->e, r->n, r->ctr, &cb);
	assert_non_null(r->p);
	r->b->pmu_sink(r->p, &r->sink);
}

/* One delivery of signals sig[0..n) (tr NULL: no instruction retired). */
static void feed(struct rig *r, const struct uarch_sig *sig, unsigned n, const struct x86_trace *tr,
		 uint64_t retire)
{
	struct uarch_delivery d = {
		.tr = tr, .retire = retire, .frontier = retire, .threads = 1, .sig = sig, .nsig = n
	};

	r->sink.deliver(r->sink.ctx, &d);
}

#define SIG(ev, n, cycle, dur)                                            \
	{                                                                 \
		(cycle), (n), (dur), UARCH_EV_##ev, 0, 0, UARCH_SIG_NOMEM \
	}

static uint64_t read0(struct rig *r, unsigned i)
{
	uint64_t v[ARCH_MAX_EVSEL] = { 0 };

	r->b->pmu_read(r->p, v);
	return v[i];
}

static void counting(void **state)
{
	struct rig r;

	(void)state;
	rig_new(&r, "xscale2", "BR_INST_EXECUTED,CYCLES_DATA_STALL,DCACHE_FULL_STALL_CNT,DCACHE_WB",
		0);
	assert_true(r.sink.want[UARCH_EV_BRANCHES]);
	assert_true(r.sink.want[UARCH_EV_STALL_FILLBUF]);
	assert_true(r.sink.want[UARCH_EV_STALL_WBUF]);
	assert_false(r.sink.want[UARCH_EV_INSNS]);
	{
		/* a conditional branch, a return, an indirect call */
		const struct uarch_sig s[] = {
			SIG(BRANCHES, 1, 10, 1), SIG(BRANCHES, 1, 11, 1), SIG(BR_RET, 1, 11, 1),
			SIG(BRANCHES, 1, 12, 1), SIG(BR_IND, 1, 12, 1),
		};
		feed(&r, s, 5, NULL, 12);
	}
	{
		/* stalls [20,25) and [23,30) overlap: 10 cycles, one run; then a
		 * separate run [31,33) and an adjacent one [33,34), a full
		 * write buffer's; then a write-buffer stall alone [36,38) */
		const struct uarch_sig s[] = {
			SIG(STALL_DATA, 1, 20, 5),    SIG(STALL_DATA, 1, 23, 7),
			SIG(STALL_FILLBUF, 1, 20, 5), SIG(STALL_FILLBUF, 1, 23, 7),
			SIG(STALL_FILLBUF, 1, 31, 2), SIG(STALL_WBUF, 1, 33, 1),
			SIG(STALL_WBUF, 1, 36, 2),    SIG(WRITEBACKS, 1, 40, 1),
			SIG(WRITEBACKS, 1, 41, 1),
		};
		feed(&r, s, 9, NULL, 41);
	}
	assert_int_equal(read0(&r, 0), 1); /* B/BL: the conditional branch only */
	assert_int_equal(read0(&r, 1), 10);
	assert_int_equal(read0(&r, 2), 3);
	assert_int_equal(read0(&r, 3), 4); /* two lines, two halves each */
	r.b->pmu_free(r.p);
}

static void clock_divider(void **state)
{
	struct rig r;
	const struct uarch_sig s[] = { SIG(CYCLES, 1, 0, 1000), SIG(CYCLES, 1, 1000, 600) };

	(void)state;
	rig_new(&r, "xscale", "CPU_CYCLES:DIV64", 0);
	feed(&r, s, 2, NULL, 1600);
	assert_int_equal(read0(&r, 0), 1600 / 64);
	r.b->pmu_free(r.p);
	rig_new(&r, "xscale", "CPU_CYCLES", 0);
	feed(&r, s, 2, NULL, 1600);
	assert_int_equal(read0(&r, 0), 1600);
	r.b->pmu_free(r.p);
}

static void overflow_samples(void **state)
{
	struct rig r;
	struct x86_insn insn[40];
	struct x86_trace tr[40];

	(void)state;
	memset(insn, 0, sizeof(insn));
	memset(tr, 0, sizeof(tr));
	/* sample every 10 instructions; one retires every 4 cycles */
	rig_new(&r, "xscale", "INSN_EXECUTED,CPU_CYCLES", 10);
	for (unsigned k = 0; k < 40; k++) {
		const struct uarch_sig s = SIG(INSNS, 1, 4 * k, 1);
		insn[k].pc = 0x1000 + 4 * k;
		tr[k].i = &insn[k];
		feed(&r, &s, 1, &tr[k], 4 * k);
	}
	assert_int_equal(read0(&r, 0), 40);
	/* the 10th instruction (k = 9, cycle 36) overflows; the IRQ is taken a
	 * modelled latency later, at a later instruction: samples 10 apart */
	assert_true(r.got.n >= 3);
	for (unsigned k = 0; k < r.got.n; k++) {
		assert_int_equal(r.got.s[k].evsel, 0);
		assert_int_equal(r.got.s[k].period, 10);
		assert_true(r.got.s[k].ip > 0x1000 + 4 * (10 * k + 9));
		assert_true(r.got.s[k].ip < 0x1000 + 4 * (10 * k + 9 + 10));
	}
	r.b->pmu_free(r.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(specs_and_errors), cmocka_unit_test(placement),
		cmocka_unit_test(counting),	    cmocka_unit_test(clock_divider),
		cmocka_unit_test(overflow_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
