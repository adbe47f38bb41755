/* Unit tests for arch/alpha/pm.c (ProfileMe) and arch/alpha/events.c: a
 * synthetic instruction stream with one long-latency load drives the
 * sampling engine; the window counters are checked against values
 * computed here from the stream — the inum retire delay bound (window
 * minus 2), exact retired counts with ideal counting and at most 4 off
 * with the quirks, the Bcache and Mbox window shifts — and the event
 * placement under SL1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/alpha/alpha.h"
#include "core/evspec.h"

#define N 20000
#define LOAD_PC 0x1010
#define MISS 120 /* the load's extra latency */

static struct uarch_insn stream[N];
static uint64_t retire_at[N];

/* A loop of 8 instructions, fetched 4 a cycle, retired in order up to 4 a
 * cycle; the 3rd of each iteration is a load that misses for MISS cycles,
 * the memory serving one miss every MISS / 4 cycles (a Bcache miss and,
 * every 8th time, a replay trap 3 cycles after issue). */
static void build(void)
{
	uint64_t fetch = 100, last = 0, load_done = 0;
	unsigned in_cycle = 0;

	for (unsigned i = 0; i < N; i++) {
		struct uarch_insn *in = &stream[i];
		unsigned slot = i % 8;
		uint64_t ready;

		if (i && i % 4 == 0)
			fetch++;
		in->pc = 0x1000 + 8 * slot;
		in->fetch = fetch;
		in->map = fetch + 2;
		in->issue = fetch + 4;
		ready = in->issue + 1;
		if (slot == 2) {
			/* one miss served at a time, every MISS / 4 cycles */
			ready += MISS;
			if (ready < load_done + MISS / 4)
				ready = load_done + MISS / 4;
			load_done = ready;
		}
		in->complete = ready;
		if (slot == 2)
			in->flags = UARCH_I_LOAD | UARCH_I_DC_MISS | UARCH_I_L2_MISS;
		in->retire = ready > last ? ready : last;
		if (in->retire == last && ++in_cycle > 4) {
			in->retire++;
			in_cycle = 1;
		} else if (in->retire != last) {
			in_cycle = 1;
		}
		last = in->retire;
		retire_at[i] = in->retire;
		if (last > MISS + 40 && fetch + 40 < last - MISS)
			fetch = last - MISS - 40; /* the window fills: fetch waits */
	}
}

struct got {
	struct alpha_pm_rec r[4096];
	unsigned n;
};

static void keep(void *arg, const struct alpha_pm_open *o)
{
	struct got *g = arg;
	if (g->n < 4096)
		g->r[g->n++] = o->r;
}

static void run(struct got *g, unsigned umask, uint64_t seed)
{
	static struct alpha_pm pm;

	memset(g, 0, sizeof(*g));
	alpha_pm_init(&pm, 37, umask, seed);
	pm.emit = keep;
	pm.arg = g;
	for (unsigned i = 0; i < N; i++) {
		if (stream[i].pc == LOAD_PC) {
			alpha_pm_bcache(&pm, stream[i].issue);
			if (i % 64 == 2)
				alpha_pm_mbox(&pm, stream[i].issue + 3);
		}
		alpha_pm_insn(&pm, &stream[i]);
		alpha_pm_advance(&pm, stream[i].fetch);
	}
	alpha_pm_finish(&pm);
}

static uint32_t exact_retired(uint64_t lo, uint64_t hi)
{
	uint32_t c = 0;
	for (unsigned i = 0; i < N; i++)
		c += retire_at[i] >= lo && retire_at[i] <= hi;
	return c;
}

static void test_inum_bound_and_largest_delay(void **state)
{
	static struct got g;
	uint32_t best = 0;
	uint64_t best_pc = 0;
	(void)state;

	run(&g, ALPHA_UM_INUM, 1);
	assert_true(g.n > 400);
	for (unsigned k = 0; k < g.n; k++) {
		const struct alpha_pm_rec *r = &g.r[k];
		assert_int_equal(r->cycles, r->retire - r->fetch + 1);
		assert_true(r->inum_delay <= r->cycles - 2);
		assert_int_equal(r->pctr0, r->cycles);
		assert_int_equal(r->pctr1, r->inum_delay);
		if (r->inum_delay > best) {
			best = r->inum_delay;
			best_pc = r->pc;
		}
	}
	assert_int_equal(best_pc, LOAD_PC);
}

static void test_retired_ideal_exact_quirk_within_4(void **state)
{
	static struct got ideal, quirk;
	unsigned differ = 0;
	(void)state;

	run(&ideal, ALPHA_UM_RETIRED | ALPHA_UM_IDEAL, 7);
	run(&quirk, ALPHA_UM_RETIRED, 7);
	/* the quirks draw from their own stream: the same instructions */
	assert_int_equal(ideal.n, quirk.n);
	for (unsigned k = 0; k < ideal.n; k++) {
		const struct alpha_pm_rec *a = &ideal.r[k], *b = &quirk.r[k];
		uint32_t exact = exact_retired(a->fetch, a->retire);

		assert_int_equal(a->pc, b->pc);
		assert_true(a->flags & ALPHA_PMF_IDEAL);
		assert_int_equal(a->retired, exact);
		assert_int_equal(a->pctr0, exact);
		assert_true(b->retired + 4 >= exact && b->retired <= exact + 4);
		differ += b->retired != exact;
		/* the true inum retire delay is at least the hardware's bound */
		assert_true(a->inum_delay >= b->inum_delay);
	}
	assert_true(differ > 0);
}

static void test_bcache_and_mbox_windows(void **state)
{
	static struct got ideal, quirk;
	(void)state;

	run(&ideal, ALPHA_UM_BCACHE | ALPHA_UM_IDEAL, 3);
	run(&quirk, ALPHA_UM_MBOX, 3);
	assert_int_equal(ideal.n, quirk.n);
	for (unsigned k = 0; k < ideal.n; k++) {
		const struct alpha_pm_rec *a = &ideal.r[k], *b = &quirk.r[k];
		uint32_t bc = 0, bq = 0, mi = 0, mq = 0;

		for (unsigned i = 2; i < N; i += 8) {
			uint64_t c = stream[i].issue;
			bc += c >= a->fetch && c <= a->retire;
			bq += c + 3 >= a->fetch && c + 3 <= a->retire;
			if (i % 64 == 2) {
				mi += c + 3 >= a->fetch && c + 3 <= a->retire;
				mq += c + 3 >= b->fetch + 7 && c + 3 <= b->retire + 1;
			}
		}
		assert_int_equal(a->bcache, bc);
		assert_int_equal(a->pctr1, bc);
		assert_int_equal(b->mbox, mq);
		assert_int_equal(b->pctr1, mq);
		assert_int_equal(a->mbox, mi);
		(void)bq;
	}
}

static void test_paired_and_deterministic(void **state)
{
	static struct got a, b, c;
	unsigned partners = 0;
	(void)state;

	run(&a, ALPHA_UM_INUM | ALPHA_UM_PAIRED, 11);
	run(&b, ALPHA_UM_INUM | ALPHA_UM_PAIRED, 11);
	run(&c, ALPHA_UM_INUM | ALPHA_UM_PAIRED, 12);
	assert_int_equal(a.n, b.n);
	assert_memory_equal(a.r, b.r, a.n * sizeof(a.r[0]));
	assert_true(a.n != c.n || memcmp(a.r, c.r, a.n * sizeof(a.r[0])));
	for (unsigned k = 0; k < a.n; k++) {
		const struct alpha_pm_rec *r = &a.r[k];
		if (!(r->flags & ALPHA_PMF_PARTNER))
			continue;
		partners++;
		assert_true(r->dist >= 1 && r->dist <= ALPHA_PM_PAIR_SPAN);
		assert_true(r->pair && r->pair < r->seq);
	}
	assert_true(partners > 100);
}

static void test_record_roundtrip(void **state)
{
	struct alpha_pm_rec r, back;
	uint8_t raw[ALPHA_PM_BYTES];
	(void)state;

	memset(&r, 0, sizeof(r));
	memset(&back, 0, sizeof(back));
	r = (struct alpha_pm_rec){ 0x401234, 5,	  4, 17, 100, 102, 110, 230, 231, 0x20005,
				   132,	     120, 9, 1,	 0,   132, 120, 1,   42 };
	alpha_pm_encode(&r, raw);
	assert_int_equal(alpha_pm_decode(raw, sizeof(raw), &back), 0);
	assert_int_equal(back.pc, r.pc);
	assert_int_equal(back.retire, r.retire);
	assert_int_equal(back.flags, r.flags);
	assert_int_equal(back.inum_delay, r.inum_delay);
	assert_int_equal(back.pctr1, r.pctr1);
	assert_int_equal(back.sl1, r.sl1);
	assert_int_equal(back.dist, r.dist);
	assert_int_equal(alpha_pm_decode(raw, sizeof(raw) - 1, &back), -1);
	raw[0] = 9;
	assert_int_equal(alpha_pm_decode(raw, sizeof(raw), &back), -1);
}

static int place(const char *spec, int *ctr)
{
	const struct arch_backend *b = arch_find("alpha");
	struct arch_evsel ev[ARCH_MAX_EVSEL];
	unsigned n = 0;
	char err[256];

	if (evspec_parse(b, spec, ev, ARCH_MAX_EVSEL, &n, err, sizeof(err)) < 0)
		return -2;
	return b->assign(ev, n, ctr, err, sizeof(err));
}

static void test_sl1_placement(void **state)
{
	int ctr[4];
	(void)state;

	assert_int_equal(place("instructions,cycles", ctr), 0);
	assert_int_equal(ctr[0], 0 + 2 * 0); /* PCTR0, SL1 00 */
	assert_int_equal(ctr[1], 1 + 2 * 0); /* PCTR1 */
	assert_int_equal(place("cycles,MBOX_REPLAY", ctr), 0);
	assert_int_equal(ctr[0], 0 + 2 * 3);
	assert_int_equal(ctr[1], 1 + 2 * 3);
	assert_int_equal(place("instructions,BCACHE_MISS", ctr), 0);
	assert_int_equal(ctr[1], 1 + 2 * 2);
	assert_int_equal(place("cycles,BCACHE_MISS", ctr), -1);
	assert_int_equal(place("BCACHE_MISS,MBOX_REPLAY", ctr), -1);
	assert_int_equal(place("cycles,instructions,cycles", ctr), -1);
	assert_int_equal(place("profileme,cycles", ctr), -1);
	assert_int_equal(place("profileme:mbox:ideal", ctr), 0);
	assert_int_equal(ctr[0], 8 + 3);
	/* PCTR1's input with SL1 01 is not defined (Table 5-16) */
	assert_int_equal(place("r104", ctr), -2);
	assert_int_equal(place("profileme:inum:mbox", ctr), -2);
	assert_int_equal(place("cycles:pp", ctr), -2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inum_bound_and_largest_delay),
		cmocka_unit_test(test_retired_ideal_exact_quirk_within_4),
		cmocka_unit_test(test_bcache_and_mbox_windows),
		cmocka_unit_test(test_paired_and_deterministic),
		cmocka_unit_test(test_record_roundtrip),
		cmocka_unit_test(test_sl1_placement),
	};

	build();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
