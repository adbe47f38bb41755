/* Unit tests for emu/uarch/bpred.c: synthetic outcome sequences through each
 * direction predictor, the BTB, the return stack and the indirect cache.
 * Counts are computed by hand where the start state makes them exact
 * (counters start weakly not-taken, histories at 0, see bpred.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "emu/uarch/bpred.h"

static struct uarch_bp *mk(enum uarch_bp_kind kind, uint32_t pht, uint8_t ghist)
{
	struct uarch_bp_cfg c = { .kind = kind, .pht = pht, .ghist = ghist };
	struct uarch_bp *bp = uarch_bp_new(&c);

	assert_non_null(bp);
	return bp;
}

/* The 21264's tables (HRM §2.1.1.2). */
static struct uarch_bp *mk_alpha(void)
{
	struct uarch_bp_cfg c = {
		.kind = UARCH_BP_TOURNAMENT,
		.pht = 4096,
		.ghist = 12,
		.lhist = 1024,
		.lbits = 10,
		.lpht = 1024,
		.choice = 4096,
	};
	struct uarch_bp *bp = uarch_bp_new(&c);

	assert_non_null(bp);
	return bp;
}

/* One conditional branch at pc, target tgt, predicted then resolved;
 * returns 1 on a mispredict.  *out (optional) gets the prediction. */
static int cond(struct uarch_bp *bp, int t, uint64_t pc, uint64_t tgt, int taken,
		struct uarch_bp_pred *out)
{
	struct uarch_bp_pred p;
	int w;

	uarch_bp_predict(bp, t, pc, pc + 2, 0, UARCH_BR_COND, &p);
	w = uarch_bp_update(bp, t, pc, UARCH_BR_COND, taken, taken ? tgt : pc + 2, &p);
	if (out)
		*out = p;
	return w;
}

/* A branch of another kind; *hit (optional) gets btb_hit. */
static int other(struct uarch_bp *bp, int t, uint64_t pc, enum uarch_br kind, uint64_t target,
		 int *hit)
{
	struct uarch_bp_pred p;

	uarch_bp_predict(bp, t, pc, pc + 5, 0, kind, &p);
	if (hit)
		*hit = p.btb_hit;
	return uarch_bp_update(bp, t, pc, kind, 1, target, &p);
}

/* Deterministic pseudo-random bits (an LCG's high bit). */
static int rnd(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 30) & 1;
}

/* Period-8 loop branch: taken 7 times, then not. */
static int loop8(int i)
{
	return i % 8 != 7;
}

static void test_static(void **state)
{
	struct uarch_bp_cfg c = { .kind = UARCH_BP_STATIC, .btb = 64, .btb_assoc = 4 };
	struct uarch_bp *bp = uarch_bp_new(&c);
	int miss = 0;

	(void)state;
	assert_non_null(bp);
	/* backward loop branch, 10 trips of 10 iterations: the first (not yet
	 * in the BTB, so not known to be backward) and the 10 exits miss */
	for (int i = 0; i < 100; i++)
		miss += cond(bp, 0, 0x1000, 0x0f00, i % 10 != 9, NULL);
	assert_int_equal(miss, 11);
	/* forward branch always taken: always missed */
	miss = 0;
	for (int i = 0; i < 5; i++)
		miss += cond(bp, 0, 0x1100, 0x1180, 1, NULL);
	assert_int_equal(miss, 5);
	/* a branch to itself counts as backward */
	miss = 0;
	for (int i = 0; i < 5; i++)
		miss += cond(bp, 0, 0x1200, 0x1200, 1, NULL);
	assert_int_equal(miss, 1);
	uarch_bp_free(bp);
}

static void test_bimodal_biased(void **state)
{
	struct uarch_bp *bp = mk(UARCH_BP_BIMODAL, 1024, 0);
	int miss = 0;

	(void)state;
	/* always taken: only the first (counter 1 → predicts not taken) */
	for (int i = 0; i < 1000; i++)
		miss += cond(bp, 0, 0x2000, 0x1f00, 1, NULL);
	assert_int_equal(miss, 1);
	uarch_bp_free(bp);

	/* loop of period 8: the first taken, then one exit per period */
	bp = mk(UARCH_BP_BIMODAL, 1024, 0);
	miss = 0;
	for (int i = 0; i < 800; i++)
		miss += cond(bp, 0, 0x2000, 0x1f00, loop8(i), NULL);
	assert_int_equal(miss, 101);
	uarch_bp_free(bp);
}

static void test_bimodal_alternating(void **state)
{
	struct uarch_bp *bp = mk(UARCH_BP_BIMODAL, 1024, 0);
	int miss = 0;

	(void)state;
	/* T,N,T,N… from counter 1: it swings 1↔2 and is always wrong */
	for (int i = 0; i < 1000; i++)
		miss += cond(bp, 0, 0x3000, 0x2f00, i % 2 == 0, NULL);
	assert_int_equal(miss, 1000);
	uarch_bp_free(bp);

	/* N,T,N,T…: it swings 0↔1, every taken missed, every not-taken right */
	bp = mk(UARCH_BP_BIMODAL, 1024, 0);
	miss = 0;
	for (int i = 0; i < 1000; i++)
		miss += cond(bp, 0, 0x3000, 0x2f00, i % 2 == 1, NULL);
	assert_int_equal(miss, 500);
	uarch_bp_free(bp);
}

static void test_bimodal_aliasing(void **state)
{
	struct uarch_bp *bp = mk(UARCH_BP_BIMODAL, 1000, 0);
	int miss = 0;

	(void)state;
	/* 1000 counters index modulo 1000: pc and pc+1000 share one counter,
	 * one branch always taken and the other never: each pulls it across
	 * the threshold, so both are always wrong */
	for (int i = 0; i < 100; i++) {
		miss += cond(bp, 0, 0x4000, 0x3f00, 1, NULL);
		miss += cond(bp, 0, 0x4000 + 1000, 0x3f00, 0, NULL);
	}
	assert_int_equal(miss, 200);
	uarch_bp_free(bp);
	/* with 1024 counters they do not collide */
	bp = mk(UARCH_BP_BIMODAL, 1024, 0);
	miss = 0;
	for (int i = 0; i < 100; i++) {
		miss += cond(bp, 0, 0x4000, 0x3f00, 1, NULL);
		miss += cond(bp, 0, 0x4000 + 1000, 0x3f00, 0, NULL);
	}
	assert_int_equal(miss, 1);
	uarch_bp_free(bp);
}

static void test_gshare_alternating(void **state)
{
	struct uarch_bp *bp = mk(UARCH_BP_GSHARE, 4096, 2);
	int miss = 0;

	(void)state;
	/* history 00: T missed; 01: N right; 10: T missed once, then right */
	for (int i = 0; i < 1000; i++)
		miss += cond(bp, 0, 0x5000, 0x4f00, i % 2 == 0, NULL);
	assert_int_equal(miss, 2);
	uarch_bp_free(bp);

	/* without history gshare is a bimodal table: always wrong */
	bp = mk(UARCH_BP_GSHARE, 4096, 0);
	miss = 0;
	for (int i = 0; i < 1000; i++)
		miss += cond(bp, 0, 0x5000, 0x4f00, i % 2 == 0, NULL);
	assert_int_equal(miss, 1000);
	uarch_bp_free(bp);
}

static void test_gshare_period(void **state)
{
	struct uarch_bp *g = mk(UARCH_BP_GSHARE, 4096, 8);
	struct uarch_bp *b = mk(UARCH_BP_BIMODAL, 4096, 0);
	int mg = 0, mb = 0;

	(void)state;
	for (int i = 0; i < 800; i++) {
		cond(g, 0, 0x6000, 0x5f00, loop8(i), NULL);
		cond(b, 0, 0x6000, 0x5f00, loop8(i), NULL);
	}
	/* warmed up: 8 history bits see the whole period */
	for (int i = 800; i < 1600; i++) {
		mg += cond(g, 0, 0x6000, 0x5f00, loop8(i), NULL);
		mb += cond(b, 0, 0x6000, 0x5f00, loop8(i), NULL);
	}
	assert_int_equal(mg, 0);
	assert_int_equal(mb, 100);
	uarch_bp_free(g);
	uarch_bp_free(b);
}

/* A period-8 loop branch after an always-taken branch: the loop branch's
 * local history (10 bits) holds the whole period; the 12-bit global history
 * holds only its last 6 outcomes and cannot tell 6 from 7 taken in a row.
 * (An always-taken neighbour, because its local history, all ones, is
 * never one of the loop's: a random one would alias in the local counters,
 * which the 21264 indexes by history alone.)  Once trained the tournament
 * predictor must use the local component and make no mispredicts. */
static void test_tournament_local(void **state)
{
	struct uarch_bp *bp = mk_alpha();
	struct uarch_bp_pred p;
	int miss = 0, gwrong = 0, chose_global_wrong = 0;

	(void)state;
	for (int i = 0; i < 16000; i++) {
		int taken = loop8(i);

		cond(bp, 0, 0x7100, 0x7000, 1, NULL);
		if (i < 8000) {
			cond(bp, 0, 0x7200, 0x7000, taken, NULL);
			continue;
		}
		miss += cond(bp, 0, 0x7200, 0x7000, taken, &p);
		if ((int)((p.state[3] >> 1) & 1) != taken) {
			gwrong++;
			chose_global_wrong += p.component;
		}
	}
	assert_int_equal(miss, 0);
	/* global is wrong on every 7th taken in a row (history all ones) */
	assert_int_equal(gwrong, 1000);
	assert_int_equal(chose_global_wrong, 0);
	uarch_bp_free(bp);
}

/* B's outcome equals A's, A random: B's own history is noise, but the
 * newest global history bit is A's outcome.  The choice counters must move
 * to the global component for B. */
static void test_tournament_global(void **state)
{
	struct uarch_bp *bp = mk_alpha();
	struct uarch_bp_pred p;
	uint32_t s = 7;
	int n = 0, miss = 0, global = 0, disagree = 0, chose_wrong = 0;

	(void)state;
	for (int i = 0; i < 20000; i++) {
		int a = rnd(&s);

		cond(bp, 0, 0x8100, 0x8000, a, NULL);
		if (i < 10000) {
			cond(bp, 0, 0x8200, 0x8000, a, NULL);
			continue;
		}
		miss += cond(bp, 0, 0x8200, 0x8000, a, &p);
		n++;
		global += p.component;
		if ((p.state[3] & 1) != ((p.state[3] >> 1) & 1)) {
			disagree++;
			chose_wrong += p.taken != a;
		}
	}
	/* the local component alone would be wrong about half the time */
	assert_true(disagree > n / 4);
	/* the choice picks the right one nearly always: the only loss is the
	 * all-equal history, where A's random outcome trains the same global
	 * counter as B (the global table is indexed by history alone) */
	assert_true(chose_wrong * 100 < disagree);
	assert_true(miss * 100 < n);
	assert_true(global * 100 > n * 95);
	uarch_bp_free(bp);
}

/* The choice counter moves both ways.  Phase 1: B equals the random A
 * before it, the global component wins, mostly also at the all-ones
 * history.
 * Phase 2: A always taken, B a period-8 loop: at the all-ones history
 * (6 taken B in view) global is ambiguous and the same choice counter
 * must go back to local; no mispredicts once trained. */
static void test_tournament_switch(void **state)
{
	struct uarch_bp *bp = mk_alpha();
	struct uarch_bp_pred p;
	uint32_t s = 3;
	int miss = 0, ones = 0, ones_global = 0;

	(void)state;
	for (int i = 0; i < 10000; i++) {
		int a = rnd(&s);

		cond(bp, 0, 0x9100, 0x9000, a, NULL);
		cond(bp, 0, 0x9200, 0x9000, a, &p);
		if (i >= 5000 && p.state[2] == 0xfff) {
			ones++;
			ones_global += p.component;
		}
	}
	/* mostly global: A's own random outcomes at that history train the
	 * same choice counter (indexed by history alone) */
	assert_true(ones > 0);
	assert_true(ones_global * 2 > ones);
	ones = ones_global = 0;
	for (int i = 0; i < 30000; i++) {
		cond(bp, 0, 0x9100, 0x9000, 1, NULL);
		if (i < 20000) {
			cond(bp, 0, 0x9200, 0x9000, loop8(i), NULL);
			continue;
		}
		miss += cond(bp, 0, 0x9200, 0x9000, loop8(i), &p);
		if (p.state[2] == 0xfff) {
			ones++;
			ones_global += p.component;
		}
	}
	assert_int_equal(miss, 0);
	/* two of every 8: after 6 and after 7 taken in a row */
	assert_int_equal(ones, 2500);
	assert_int_equal(ones_global, 0);
	uarch_bp_free(bp);
}

static struct uarch_bp *mk_tgt(uint32_t btb, uint32_t assoc, uint32_t ras, uint32_t ind)
{
	struct uarch_bp_cfg c = {
		.kind = UARCH_BP_BIMODAL,
		.pht = 1024,
		.ghist = 12,
		.btb = btb,
		.btb_assoc = assoc,
		.ras = ras,
		.ind = ind,
	};
	struct uarch_bp *bp = uarch_bp_new(&c);

	assert_non_null(bp);
	return bp;
}

/* depth nested calls from distinct sites, then the returns; returns the
 * mispredicted returns. */
static int nest(struct uarch_bp *bp, int depth)
{
	int miss = 0;

	for (int d = 0; d < depth; d++)
		assert_int_equal(other(bp, 0, 0x10000 + 0x100 * (uint64_t)d, UARCH_BR_CALL, 0x20000,
				       NULL),
				 0);
	for (int d = depth - 1; d >= 0; d--)
		miss += other(bp, 0, 0x30004 + (uint64_t)d, UARCH_BR_RET,
			      0x10000 + 0x100 * (uint64_t)d + 5, NULL);
	return miss;
}

static void test_ras(void **state)
{
	struct uarch_bp *bp = mk_tgt(64, 4, 16, 0);

	(void)state;
	assert_int_equal(nest(bp, 16), 0);
	assert_int_equal(nest(bp, 1), 0);
	/* 20 deep in 16 entries: the 4 oldest return addresses were overwritten */
	assert_int_equal(nest(bp, 20), 4);
	assert_int_equal(nest(bp, 16), 0);
	uarch_bp_free(bp);

	/* no return stack: returns use the BTB (last target of that ret) */
	bp = mk_tgt(64, 4, 0, 0);
	assert_int_equal(nest(bp, 4), 4);
	assert_int_equal(nest(bp, 4), 0);
	uarch_bp_free(bp);
}

/* Direct jumps at pcs cycled rounds times; returns the BTB hits. */
static int jumps(struct uarch_bp *bp, const uint64_t *pcs, int n, int rounds)
{
	int hits = 0, hit;

	for (int r = 0; r < rounds; r++)
		for (int i = 0; i < n; i++) {
			/* a BTB miss on a direct jump is a redirect, not a mispredict */
			assert_int_equal(other(bp, 0, pcs[i], UARCH_BR_JMP, pcs[i] + 0x40, &hit),
					 0);
			hits += hit;
		}
	return hits;
}

static void test_btb(void **state)
{
	/* 8 entries, 2 ways: 4 sets, pcs 4 apart share a set */
	static const uint64_t set0[] = { 0xa000, 0xa004, 0xa008 };
	static const uint64_t fa[] = { 0xb000, 0xb001, 0xb002, 0xb003, 0xb004,
				       0xb005, 0xb006, 0xb007, 0xb008 };
	struct uarch_bp *bp = mk_tgt(8, 2, 0, 0);

	(void)state;
	assert_int_equal(jumps(bp, set0, 2, 10), 18);
	uarch_bp_free(bp);
	/* three in one 2-way set under LRU: every access misses */
	bp = mk_tgt(8, 2, 0, 0);
	assert_int_equal(jumps(bp, set0, 3, 10), 0);
	uarch_bp_free(bp);
	/* LRU keeps the reused one: a, b, a, c evicts b, not a */
	bp = mk_tgt(8, 2, 0, 0);
	{
		static const uint64_t seq[] = { 0xa000, 0xa004, 0xa000, 0xa008, 0xa000 };

		assert_int_equal(jumps(bp, seq, 5, 1), 2);
	}
	uarch_bp_free(bp);
	/* fully associative, 8 entries: 8 fit, 9 cycled thrash */
	bp = mk_tgt(8, 0, 0, 0);
	assert_int_equal(jumps(bp, fa, 8, 10), 72);
	uarch_bp_free(bp);
	bp = mk_tgt(8, 0, 0, 0);
	assert_int_equal(jumps(bp, fa, 9, 10), 0);
	uarch_bp_free(bp);
	/* branches whose remembered entries share one slot still all hit */
	bp = mk_tgt(4, 0, 0, 0);
	{
		static const uint64_t memo1[] = { 0x0001, 0x1000, 0x2003 };

		assert_int_equal(jumps(bp, memo1, 3, 10), 27);
	}
	uarch_bp_free(bp);
	/* a large fully associative BTB under LRU: 4096 fit, 4097 thrash */
	{
		static uint64_t many[4097];

		for (int i = 0; i < 4097; i++)
			many[i] = 0x400000 + 16 * (uint64_t)i;
		bp = mk_tgt(4096, 0, 0, 0);
		assert_int_equal(jumps(bp, many, 4096, 3), 2 * 4096);
		uarch_bp_free(bp);
		bp = mk_tgt(4096, 0, 0, 0);
		assert_int_equal(jumps(bp, many, 4097, 3), 0);
		uarch_bp_free(bp);
	}
	/* direct-mapped: 8 apart conflict */
	bp = mk_tgt(8, 1, 0, 0);
	{
		static const uint64_t dm[] = { 0xc000, 0xc008 };

		assert_int_equal(jumps(bp, dm, 2, 10), 0);
	}
	uarch_bp_free(bp);
	/* no BTB: targets always known */
	bp = mk_tgt(0, 0, 0, 0);
	assert_int_equal(jumps(bp, fa, 9, 2), 18);
	uarch_bp_free(bp);
}

static void test_btb_predicted_target(void **state)
{
	struct uarch_bp *bp = mk_tgt(1, 1, 0, 0);
	struct uarch_bp_pred p;

	(void)state;
	/* trained taken, in the BTB: its target comes from the BTB */
	for (int i = 0; i < 3; i++)
		cond(bp, 0, 0xd000, 0xd100, 1, NULL);
	uarch_bp_predict(bp, 0, 0xd000, 0xd002, 0, UARCH_BR_COND, &p);
	assert_int_equal(p.taken, 1);
	assert_int_equal(p.btb_hit, 1);
	assert_int_equal(p.target, 0xd100);
	/* evicted from the one-entry BTB: still predicted taken, fetch goes on
	 * sequentially, btb_hit tells the pipeline to charge a redirect; the
	 * direction was right, so no mispredict */
	cond(bp, 0, 0xd001, 0xd180, 1, NULL);
	uarch_bp_predict(bp, 0, 0xd000, 0xd002, 0, UARCH_BR_COND, &p);
	assert_int_equal(p.taken, 1);
	assert_int_equal(p.btb_hit, 0);
	assert_int_equal(p.target, 0xd002);
	assert_int_equal(uarch_bp_update(bp, 0, 0xd000, UARCH_BR_COND, 1, 0xd100, &p), 0);
	/* predicted not taken: fall through */
	uarch_bp_predict(bp, 0, 0xd200, 0xd202, 0, UARCH_BR_COND, &p);
	assert_int_equal(p.taken, 0);
	assert_int_equal(p.target, 0xd202);
	/* actually taken: a direction mispredict */
	assert_int_equal(uarch_bp_update(bp, 0, 0xd200, UARCH_BR_COND, 1, 0xd300, &p), 1);
	uarch_bp_free(bp);
}

/* A conditional branch alternating T/N, then an indirect jump whose target
 * follows it; returns the indirect mispredicts. */
static int ind_follow(struct uarch_bp *bp, int n)
{
	int miss = 0;

	for (int k = 1; k <= n; k++) {
		int a = k % 2;

		cond(bp, 0, 0xe000, 0xe100, a, NULL);
		miss += other(bp, 0, 0xe200, UARCH_BR_IND, a ? 0xe400 : 0xe500, NULL);
	}
	return miss;
}

static void test_indirect(void **state)
{
	struct uarch_bp *bp = mk_tgt(64, 4, 0, 0);

	(void)state;
	/* the BTB holds the last target, which is always the other one */
	assert_int_equal(ind_follow(bp, 100), 100);
	uarch_bp_free(bp);
	/* indexed by pc ^ 12 history bits: the first 12 histories are new,
	 * after that the history alternates between two seen values */
	bp = mk_tgt(64, 4, 0, 4096);
	assert_int_equal(ind_follow(bp, 100), 12);
	uarch_bp_free(bp);
	/* no BTB, no indirect cache: targets always known */
	bp = mk_tgt(0, 0, 0, 0);
	assert_int_equal(ind_follow(bp, 100), 0);
	uarch_bp_free(bp);
}

/* Two logical processors: per-thread histories and return stacks, shared
 * tables. */
static void test_smt(void **state)
{
	struct uarch_bp *bp = mk(UARCH_BP_GSHARE, 4096, 2);
	struct uarch_bp *r;
	int m0 = 0, m1 = 0;

	(void)state;
	/* thread 0 alternates (alone: 2 mispredicts, see gshare test), thread
	 * 1 is always taken (histories 0, 1, 3: 3 mispredicts) */
	for (int i = 0; i < 1000; i++) {
		m0 += cond(bp, 0, 0x400, 0x300, i % 2 == 0, NULL);
		m1 += cond(bp, 1, 0x800, 0x700, 1, NULL);
	}
	assert_int_equal(m0, 2);
	assert_int_equal(m1, 3);
	uarch_bp_free(bp);

	/* both threads 10 deep in a 16-entry stack each */
	r = mk_tgt(64, 4, 16, 0);
	for (int d = 0; d < 10; d++)
		for (int t = 0; t < 2; t++)
			other(r, t, 0x10000 + 0x100 * (uint64_t)d + (uint64_t)t, UARCH_BR_CALL,
			      0x20000, NULL);
	m0 = 0;
	for (int d = 9; d >= 0; d--)
		for (int t = 0; t < 2; t++)
			m0 += other(r, t, 0x30000, UARCH_BR_RET,
				    0x10000 + 0x100 * (uint64_t)d + (uint64_t)t + 5, NULL);
	assert_int_equal(m0, 0);
	uarch_bp_free(r);
}

static void test_bad_cfg(void **state)
{
	struct uarch_bp_cfg c = { .kind = UARCH_BP_BIMODAL, .pht = 0 };

	(void)state;
	assert_null(uarch_bp_new(&c));
	c = (struct uarch_bp_cfg){ .kind = UARCH_BP_TOURNAMENT,
				   .pht = 4096,
				   .lhist = 1024,
				   .lbits = 17,
				   .lpht = 1024,
				   .choice = 4096 };
	assert_null(uarch_bp_new(&c));
	c = (struct uarch_bp_cfg){ .kind = UARCH_BP_STATIC, .btb = 10, .btb_assoc = 4 };
	assert_null(uarch_bp_new(&c));
	c = (struct uarch_bp_cfg){ .kind = 9 };
	assert_null(uarch_bp_new(&c));
	c = (struct uarch_bp_cfg){ .kind = UARCH_BP_STATIC, .btb = 12, .btb_assoc = 4, .ras = 3 };
	{
		struct uarch_bp *bp = uarch_bp_new(&c);

		assert_non_null(bp);
		assert_int_equal(uarch_bp_cfg(bp)->btb, 12);
		uarch_bp_free(bp);
	}
}

/* uarch_bp_taken() is the direction uarch_bp_predict() gives, at every
 * step of a pattern each kind learns part of the time. */
static void test_taken_matches_predict(void **state)
{
	struct uarch_bp *bps[] = { mk(UARCH_BP_STATIC, 0, 0), mk(UARCH_BP_BIMODAL, 256, 0),
				   mk(UARCH_BP_GSHARE, 1024, 8), mk_alpha() };
	(void)state;
	for (unsigned b = 0; b < sizeof(bps) / sizeof(bps[0]); b++) {
		unsigned agree = 0, taken = 0;
		for (int n = 0; n < 300; n++) {
			uint64_t pc = 0x1000 + 0x40 * (uint64_t)(n % 3),
				 tgt = n % 2 ? 0x800 : 0x2000;
			struct uarch_bp_pred p;
			uarch_bp_predict(bps[b], 0, pc, pc + 2, tgt, UARCH_BR_COND, &p);
			agree += uarch_bp_taken(bps[b], 0, pc, tgt) == p.taken;
			taken += p.taken;
			uarch_bp_update(bps[b], 0, pc, UARCH_BR_COND, n % 5 != 0, tgt, &p);
		}
		assert_int_equal(agree, 300);
		assert_true(taken > 0 && taken < 300); /* both directions seen */
		uarch_bp_free(bps[b]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_static),
		cmocka_unit_test(test_bimodal_biased),
		cmocka_unit_test(test_bimodal_alternating),
		cmocka_unit_test(test_bimodal_aliasing),
		cmocka_unit_test(test_gshare_alternating),
		cmocka_unit_test(test_gshare_period),
		cmocka_unit_test(test_tournament_local),
		cmocka_unit_test(test_tournament_global),
		cmocka_unit_test(test_tournament_switch),
		cmocka_unit_test(test_ras),
		cmocka_unit_test(test_btb),
		cmocka_unit_test(test_btb_predicted_target),
		cmocka_unit_test(test_indirect),
		cmocka_unit_test(test_smt),
		cmocka_unit_test(test_bad_cfg),
		cmocka_unit_test(test_taken_matches_predict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
