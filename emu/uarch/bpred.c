/* bpred.c — branch prediction: direction predictors (static, bimodal,
 * gshare, the Alpha 21264 tournament predictor), the BTB, per-thread return
 * stacks and the indirect-target cache.
 *
 * Conventions (the pipeline relies on them):
 *  - uarch_bp_predict changes no state.  uarch_bp_update trains with the
 *    real outcome: counters named by the prediction's state[], then the
 *    histories (global, local), the BTB, the indirect cache, the return
 *    stack.  The pipeline calls predict then update, in program order, for
 *    every retired branch, and predict alone for wrong-path branches.
 *  - predict reads nothing from *p.  p->target is the predicted next pc:
 *    the fall-through when predicted not taken, else the target the BTB,
 *    return stack or indirect cache holds, or the fall-through when none
 *    does (fetch goes on sequentially until decode redirects it).
 *  - The static predictor judges backward/forward from the encoded target
 *    (the caller passes it for direct branches), else from the target the
 *    BTB holds; with neither it predicts not taken.
 *  - btb_hit: the fetch-time structure (BTB, return stack, indirect cache)
 *    supplied the target.  A taken direct branch whose target the BTB does
 *    not hold is not a mispredict (decode computes the target) but costs a
 *    front-end redirect, which the pipeline charges when btb_hit is 0.
 *    With btb = 0 targets are always known: btb_hit is 1 (and the static
 *    predictor, which has no target to judge, predicts not taken).
 *  - uarch_bp_update returns 1 for a wrong direction (conditional branches)
 *    or a wrong target of an indirect jump, indirect call or return.  A
 *    configuration without the structure that would hold such a target
 *    (btb = 0 and ind = 0; for returns ras = 0 and btb = 0) knows targets
 *    always, as the cfg documents.
 *  - The global history holds the outcomes of conditional branches only
 *    (newest in bit 0), per logical processor; the tables are shared.
 *  - Counters start weakly not-taken (2-bit: 1, 3-bit: 3), choice counters
 *    weakly towards the local predictor (1), histories at 0, the BTB, the
 *    indirect cache and the return stacks empty.
 *  - Tables are indexed by the low bits of the byte address (the 21264 uses
 *    VPC[11:2] for its 4-byte instructions; x86 branches can be 2 bytes
 *    apart, so no bits are dropped).  Sizes need not be powers of two:
 *    other sizes index modulo the size.
 */
#include <stdlib.h>

#include "bpred.h"
#include "mem.h"

#define BP_THREADS 2
#define BP_MEMO 4096

struct bp_btb_ent {
	uint64_t tag; /* branch pc */
	uint64_t target;
	uint64_t stamp; /* last use, for LRU; 0 = invalid */
};

struct uarch_bp {
	struct uarch_bp_cfg cfg;
	uint8_t *pht;		/* 2-bit: bimodal, gshare, tournament global */
	uint8_t *lpht;		/* 3-bit: tournament local */
	uint8_t *choice;	/* 2-bit: tournament choice (>= 2 picks global) */
	uint16_t *lhist;	/* tournament local histories */
	uint32_t gmask;		/* ghist bits */
	uint32_t lmask;		/* lbits bits */
	struct bp_btb_ent *btb; /* btb_sets × btb_ways */
	uint32_t btb_sets, btb_ways;
	uint64_t btb_clock;
	/* [BP_MEMO]: 1 + the entry last found for a branch of each slot, 0
	 * none — a hint, checked against the entry, so that a hit in a set
	 * of many ways (a fully associative BTB) is not a search */
	uint32_t *btb_memo;
	uint64_t *ind; /* indirect targets, 0 = empty */
	uint64_t *ras; /* BP_THREADS × cfg.ras */
	uint32_t ras_top[BP_THREADS];
	uint32_t ghist[BP_THREADS];
};

/* Slot of x in a table of n entries. */
static inline uint32_t bp_idx(uint64_t x, uint32_t n)
{
	return (n & (n - 1)) == 0 ? (uint32_t)(x & (n - 1)) : (uint32_t)(x % n);
}

static inline uint8_t bp_sat_inc(uint8_t c, uint8_t max)
{
	return c < max ? c + 1 : c;
}

static inline uint8_t bp_sat_dec(uint8_t c)
{
	return c > 0 ? c - 1 : c;
}

static uint8_t *bp_table(uint32_t n, uint8_t init)
{
	uint8_t *t = uarch_malloc(n ? n : 1);

	if (t)
		for (uint32_t i = 0; i < n; i++)
			t[i] = init;
	return t;
}

void uarch_bp_free(struct uarch_bp *bp)
{
	if (!bp)
		return;
	uarch_mfree(bp->pht);
	uarch_mfree(bp->lpht);
	uarch_mfree(bp->choice);
	uarch_mfree(bp->lhist);
	uarch_mfree(bp->btb);
	uarch_mfree(bp->btb_memo);
	uarch_mfree(bp->ind);
	uarch_mfree(bp->ras);
	uarch_mfree(bp);
}

/* NULL when out of memory or when cfg cannot describe a predictor: a table
 * the kind needs has no entries, more than 32 global or 16 local history
 * bits, or a BTB whose entries are not a multiple of its ways.  Callers
 * check the machine with uarch_params_check first, which says why. */
struct uarch_bp *uarch_bp_new(const struct uarch_bp_cfg *cfg)
{
	struct uarch_bp *bp;
	int tour = cfg->kind == UARCH_BP_TOURNAMENT;
	int counters = cfg->kind == UARCH_BP_BIMODAL || cfg->kind == UARCH_BP_GSHARE || tour;

	if (cfg->kind > UARCH_BP_TOURNAMENT || cfg->ghist > 32 || cfg->lbits > 16)
		return NULL;
	if ((counters && !cfg->pht) || (tour && (!cfg->lhist || !cfg->lpht || !cfg->choice)))
		return NULL;
	if (cfg->btb && cfg->btb_assoc && cfg->btb % cfg->btb_assoc)
		return NULL;
	bp = uarch_calloc(1, sizeof(*bp));
	if (!bp)
		return NULL;
	bp->cfg = *cfg;
	bp->gmask = cfg->ghist >= 32 ? UINT32_MAX : (UINT32_C(1) << cfg->ghist) - 1;
	bp->lmask = (UINT32_C(1) << cfg->lbits) - 1;
	if (counters && !(bp->pht = bp_table(cfg->pht, 1)))
		goto fail;
	if (tour) {
		bp->lpht = bp_table(cfg->lpht, 3);
		bp->choice = bp_table(cfg->choice, 1);
		bp->lhist = uarch_calloc(cfg->lhist, sizeof(*bp->lhist));
		if (!bp->lpht || !bp->choice || !bp->lhist)
			goto fail;
	}
	if (cfg->btb) {
		bp->btb_ways = cfg->btb_assoc ? cfg->btb_assoc : cfg->btb;
		bp->btb_sets = cfg->btb / bp->btb_ways;
		bp->btb = uarch_calloc(cfg->btb, sizeof(*bp->btb));
		bp->btb_memo = uarch_calloc(BP_MEMO, sizeof(*bp->btb_memo));
		if (!bp->btb || !bp->btb_memo)
			goto fail;
	}
	if (cfg->ind && !(bp->ind = uarch_calloc(cfg->ind, sizeof(*bp->ind))))
		goto fail;
	if (cfg->ras && !(bp->ras = uarch_calloc((size_t)BP_THREADS * cfg->ras, sizeof(*bp->ras))))
		goto fail;
	return bp;
fail:
	uarch_bp_free(bp);
	return NULL;
}

const struct uarch_bp_cfg *uarch_bp_cfg(const struct uarch_bp *bp)
{
	return &bp->cfg;
}

/* ---- direction ------------------------------------------------------- */

static struct bp_btb_ent *bp_btb_find(const struct uarch_bp *bp, uint64_t pc);

/* state[] of a conditional branch:
 *   bimodal, gshare: [0] counter index
 *   tournament:      [0] local counter, [1] global counter, [2] choice
 *                    counter, [3] bit 0 local prediction, bit 1 global
 * (Inlined: uarch_bp_taken, which the walk down a mispredicted path asks at
 * every conditional branch, then keeps no record in memory.) */
static inline __attribute__((always_inline)) int
bp_dir_predict(const struct uarch_bp *bp, int t, uint64_t pc, struct uarch_bp_pred *p)
{
	const struct uarch_bp_cfg *c = &bp->cfg;
	uint32_t h = bp->ghist[t] & bp->gmask;

	switch (c->kind) {
	case UARCH_BP_STATIC: {
		/* backward taken, forward not: the encoded target when the
		 * caller knows it, else the one the BTB holds */
		uint64_t tgt = p->enc;
		const struct bp_btb_ent *e = !tgt && bp->btb ? bp_btb_find(bp, pc) : NULL;

		if (e)
			tgt = e->target;
		return tgt && tgt <= pc;
	}
	case UARCH_BP_BIMODAL:
		p->state[0] = bp_idx(pc, c->pht);
		return bp->pht[p->state[0]] >= 2;
	case UARCH_BP_GSHARE:
		p->state[0] = bp_idx(pc ^ h, c->pht);
		return bp->pht[p->state[0]] >= 2;
	default: {
		/* 21264/EV67 HRM §2.1.1.2: the local history (1K × 10 bits,
		 * indexed by the pc) indexes 1K 3-bit counters; the 12-bit
		 * global path history indexes 4K 2-bit global counters and 4K
		 * 2-bit choice counters, which pick local or global. */
		uint32_t lh = bp->lhist[bp_idx(pc, c->lhist)] & bp->lmask;
		uint32_t lc = bp_idx(lh, c->lpht);
		uint32_t gc = bp_idx(h, c->pht);
		uint32_t cc = bp_idx(h, c->choice);
		int lp = bp->lpht[lc] >= 4; /* 3-bit counter: its top bit */
		int gp = bp->pht[gc] >= 2;

		p->state[0] = lc;
		p->state[1] = gc;
		p->state[2] = cc;
		p->state[3] = (uint32_t)lp | (uint32_t)gp << 1;
		p->component = bp->choice[cc] >= 2;
		return p->component ? gp : lp;
	}
	}
}

static void bp_train2(uint8_t *ctr, int taken)
{
	*ctr = taken ? bp_sat_inc(*ctr, 3) : bp_sat_dec(*ctr);
}

static void bp_dir_update(struct uarch_bp *bp, int t, uint64_t pc, int taken,
			  const struct uarch_bp_pred *p)
{
	const struct uarch_bp_cfg *c = &bp->cfg;

	switch (c->kind) {
	case UARCH_BP_STATIC:
		break;
	case UARCH_BP_BIMODAL:
	case UARCH_BP_GSHARE:
		bp_train2(&bp->pht[p->state[0]], taken);
		break;
	default: {
		/* Kessler, "The Alpha 21264 microprocessor", IEEE Micro 19(2),
		 * 1999, "Branch prediction": the true direction enters the
		 * local history and the referenced local, global and choice
		 * counters train when the branch retires; the choice counter
		 * moves towards whichever predictor was right when they
		 * disagree. */
		int lp = p->state[3] & 1, gp = (p->state[3] >> 1) & 1;
		uint8_t *l = &bp->lpht[p->state[0]];
		uint16_t *lh = &bp->lhist[bp_idx(pc, c->lhist)];

		*l = taken ? bp_sat_inc(*l, 7) : bp_sat_dec(*l);
		bp_train2(&bp->pht[p->state[1]], taken);
		if (lp != gp)
			bp_train2(&bp->choice[p->state[2]], gp == taken);
		*lh = (uint16_t)(((uint32_t)*lh << 1 | (uint32_t)taken) & bp->lmask);
		break;
	}
	}
	bp->ghist[t] = bp->ghist[t] << 1 | (uint32_t)taken;
}

/* ---- targets --------------------------------------------------------- */

/* The BTB set of the branch at pc, and its memo slot. */
static struct bp_btb_ent *bp_btb_set(const struct uarch_bp *bp, uint64_t pc)
{
	return bp->btb + (size_t)bp_idx(pc, bp->btb_sets) * bp->btb_ways;
}

static uint32_t *bp_btb_memo(const struct uarch_bp *bp, uint64_t pc)
{
	return &bp->btb_memo[(pc ^ pc >> 12) & (BP_MEMO - 1)];
}

static struct bp_btb_ent *bp_btb_find(const struct uarch_bp *bp, uint64_t pc)
{
	uint32_t *memo = bp_btb_memo(bp, pc);
	struct bp_btb_ent *set, *e = *memo ? &bp->btb[*memo - 1] : NULL;

	/* (an entry holding pc lies in pc's set) */
	if (e && e->stamp && e->tag == pc)
		return e;
	set = bp_btb_set(bp, pc);
	for (uint32_t w = 0; w < bp->btb_ways; w++)
		if (set[w].stamp && set[w].tag == pc) {
			*memo = (uint32_t)(&set[w] - bp->btb) + 1;
			return &set[w];
		}
	return NULL;
}

/* Record pc → target as most recently used, replacing the LRU way. */
static void bp_btb_insert(struct uarch_bp *bp, uint64_t pc, uint64_t target)
{
	struct bp_btb_ent *e = bp_btb_find(bp, pc);

	if (!e) {
		struct bp_btb_ent *set = bp_btb_set(bp, pc);
		e = &set[0];
		for (uint32_t w = 1; w < bp->btb_ways; w++)
			if (set[w].stamp < e->stamp)
				e = &set[w];
		e->tag = pc;
		*bp_btb_memo(bp, pc) = (uint32_t)(e - bp->btb) + 1;
	}
	e->target = target;
	e->stamp = ++bp->btb_clock;
}

static uint32_t bp_ind_idx(const struct uarch_bp *bp, int t, uint64_t pc)
{
	return bp_idx(pc ^ (bp->ghist[t] & bp->gmask), bp->cfg.ind);
}

/* Target of a taken branch as the front end sees it at fetch. */
static void bp_tgt_predict(const struct uarch_bp *bp, int t, uint64_t pc, enum uarch_br kind,
			   struct uarch_bp_pred *p)
{
	const struct uarch_bp_cfg *c = &bp->cfg;
	const struct bp_btb_ent *e;

	if (kind == UARCH_BR_RET && c->ras) {
		p->target = bp->ras[(size_t)t * c->ras + bp->ras_top[t]];
		p->btb_hit = p->target != 0;
		return;
	}
	if ((kind == UARCH_BR_IND || kind == UARCH_BR_CALL_IND) && c->ind) {
		p->state[2] = bp_ind_idx(bp, t, pc);
		p->target = bp->ind[p->state[2]];
		p->btb_hit = p->target != 0;
		return;
	}
	if (!c->btb) {
		p->btb_hit = 1; /* targets always known */
		return;
	}
	e = bp_btb_find(bp, pc);
	if (e) {
		p->target = e->target;
		p->btb_hit = 1;
	}
}

int uarch_bp_taken(const struct uarch_bp *bp, int thread, uint64_t pc, uint64_t target)
{
	struct uarch_bp_pred p = { .enc = target };

	return bp_dir_predict(bp, thread & (BP_THREADS - 1), pc, &p);
}

void uarch_bp_predict(struct uarch_bp *bp, int thread, uint64_t pc, uint64_t next, uint64_t target,
		      enum uarch_br kind, struct uarch_bp_pred *p)
{
	int t = thread & (BP_THREADS - 1);

	p->target = 0;
	p->taken = 1;
	p->btb_hit = 0;
	p->component = 0;
	p->state[0] = p->state[1] = p->state[2] = p->state[3] = 0;
	p->enc = target;
	if (kind == UARCH_BR_COND)
		p->taken = (uint8_t)bp_dir_predict(bp, t, pc, p);
	if (kind == UARCH_BR_CALL || kind == UARCH_BR_CALL_IND) {
		/* the return address the call pushes */
		p->state[0] = (uint32_t)next;
		p->state[1] = (uint32_t)(next >> 32);
	}
	bp_tgt_predict(bp, t, pc, kind, p);
	if (!p->taken || !p->target)
		p->target = next;
}

/* Whether this configuration ever predicts kind's target (else: known). */
static int bp_tgt_predicted(const struct uarch_bp_cfg *c, enum uarch_br kind)
{
	switch (kind) {
	case UARCH_BR_IND:
	case UARCH_BR_CALL_IND:
		return c->ind || c->btb;
	case UARCH_BR_RET:
		return c->ras || c->btb;
	default:
		return 0; /* direct: decode computes the target */
	}
}

int uarch_bp_update(struct uarch_bp *bp, int thread, uint64_t pc, enum uarch_br kind, int taken,
		    uint64_t target, const struct uarch_bp_pred *p)
{
	const struct uarch_bp_cfg *c = &bp->cfg;
	int t = thread & (BP_THREADS - 1);
	int wrong;

	if (kind != UARCH_BR_COND)
		taken = 1;
	taken = !!taken;
	if (kind == UARCH_BR_COND)
		wrong = taken != p->taken;
	else
		wrong = bp_tgt_predicted(c, kind) && target != p->target;

	/* the indirect index came from the history before this branch */
	if ((kind == UARCH_BR_IND || kind == UARCH_BR_CALL_IND) && c->ind)
		bp->ind[p->state[2]] = target;
	else if (kind == UARCH_BR_RET && c->ras)
		bp->ras_top[t] = bp->ras_top[t] ? bp->ras_top[t] - 1 : c->ras - 1;
	else if (taken && c->btb)
		bp_btb_insert(bp, pc, target);

	if (kind == UARCH_BR_COND)
		bp_dir_update(bp, t, pc, taken, p);
	if ((kind == UARCH_BR_CALL || kind == UARCH_BR_CALL_IND) && c->ras) {
		/* circular: a push beyond capacity overwrites the oldest entry */
		uint32_t top = bp->ras_top[t] + 1 == c->ras ? 0 : bp->ras_top[t] + 1;

		bp->ras_top[t] = top;
		bp->ras[(size_t)t * c->ras + top] = (uint64_t)p->state[1] << 32 | p->state[0];
	}
	return wrong;
}
