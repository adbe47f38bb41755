/* model.c — the pipeline: µops, dependencies, execution units, the
 * reorder buffer, in-order retirement, branch prediction and the front end.
 *
 * A dataflow model rather than a cycle-by-cycle simulation: each µop gets
 * its dispatch, issue, complete and retire cycles from the cycles of what
 * it waits for — its source registers, a free unit of its class, a free
 * reorder-buffer and issue-queue entry (and load- or store-queue entry),
 * the fetch of its instruction — so that a chain of dependent adds costs
 * the add latency per link, independent work overlaps up to the unit
 * throughput and window size, and a mispredicted branch delays
 * everything fetched after it until it resolves.  An in-order core
 * (xscale, ia64) additionally issues in program order.
 *
 * Beside it: the model made and its queues shared out (model_new.c), the
 * µops of an instruction (model_uop.c), the walk down a mispredicted path
 * (model_wp.c), the events' way to the counts and a listening PMU
 * (model_sink.c), and the kernel's cost (model_syscall.c).
 */
#include <string.h>

#include "model_priv.h"

/* The cases uarch_retire() is compiled for, so that the compiler folds
 * them out of the per-µop work: the shape of the core — any (read at run
 * time), the P4's (out of order, replay, trace cache), other out-of-order
 * cores, in-order cores — and, but for any, whether tallied[] are tallied
 * (uarch.tally) and whether the sink wants instruction records (only on
 * other out-of-order cores: the 21264's ProfileMe; elsewhere any). */
enum { RK_ANY, RK_P4, RK_OOO, RK_INORDER, RK_SHAPE = 3, RK_TALLY = 4, RK_INSN = 8 };

/* The events every instruction raises one at a time (count1()). */
static const uint8_t tallied[] = {
	UARCH_EV_INSNS,	     UARCH_EV_UOPS,	    UARCH_EV_FP_UOPS,	 UARCH_EV_LOADS,
	UARCH_EV_STORES,     UARCH_EV_BRANCHES,	    UARCH_EV_BR_TAKEN,	 UARCH_EV_BR_COND,
	UARCH_EV_BR_IND,     UARCH_EV_BR_CALL,	    UARCH_EV_BR_RET,	 UARCH_EV_BR_CALL_IND,
	UARCH_EV_BR_JMP_IND, UARCH_EV_BR_T_PRED,    UARCH_EV_BR_NT_PRED, UARCH_EV_BR_T_MISP,
	UARCH_EV_BR_NT_MISP, UARCH_EV_UOPS_SPEC,    UARCH_EV_INSNS_WP,	 UARCH_EV_FP_X87,
	UARCH_EV_FP_MMX,     UARCH_EV_FP_INT,	    UARCH_EV_FP_PS,	 UARCH_EV_FP_PD,
	UARCH_EV_FP_SS,	     UARCH_EV_FP_SD,	    UARCH_EV_FP_MOVE,	 UARCH_EV_FP_LOAD,
	UARCH_EV_FP_X87_WP,  UARCH_EV_FP_MMX_WP,    UARCH_EV_FP_INT_WP,	 UARCH_EV_FP_PS_WP,
	UARCH_EV_FP_PD_WP,   UARCH_EV_FP_SS_WP,	    UARCH_EV_FP_SD_WP,	 UARCH_EV_FP_MOVE_WP,
	UARCH_EV_FP_LOAD_WP, UARCH_EV_UOPQ_DELIVER,
};

/* Whether size bytes at a cross a line of line bytes. */
static inline int crosses_line(uint64_t a, uint32_t size, unsigned line)
{
	return line && size <= line && (a & (line - 1)) + size > line;
}

/* Whether i's single access of size bytes at a crosses a line (a split
 * access; rep string operations report all their iterations as one
 * access, which is no single µop's). */
static inline int split_access(const struct x86_insn *i, uint64_t a, uint32_t size, unsigned line)
{
	return !(i->flags & (X86_I_REP | X86_I_REPNE)) && crosses_line(a, size, line);
}

/* Whether an access of size bytes at a is misaligned: a power of two up
 * to 16 bytes at an address no multiple of it (a rep string operation's
 * report covers all its iterations: never). */
static inline int misaligned(const struct x86_insn *i, uint64_t a, uint32_t size)
{
	return !(i->flags & (X86_I_REP | X86_I_REPNE)) && size <= 16 && !(size & (size - 1)) &&
	       a & (size - 1);
}

/* Whether a store at sa may forward to a load of size bytes at a that it
 * covers, where forwarding needs the same start (core.fwd_start): at sa,
 * and a 16-byte load 16-byte aligned (IA-32 Intel Architecture
 * Optimization Reference Manual, ch. 2, Figure 2-2). */
static inline int fwd_aligned(uint64_t sa, uint64_t a, uint32_t size)
{
	return a == sa && (size != 16 || !(a & 15));
}

/* Whether a load of size bytes at a overlaps, without being contained in,
 * an older store not yet written to the first level by cycle issue (its
 * data is in no cache yet and cannot be forwarded): the cycle the last
 * such store is written, 0 if none; *known is raised to the cycle the
 * last of them had its address known. */
static inline __attribute__((always_inline)) uint64_t
store_overlap(const struct uth *t, uint64_t a, uint32_t size, uint64_t issue, uint64_t *known)
{
	uint64_t written = 0;

	if (!size || size > 64)
		return 0;
	for (uint64_t c = a >> 3; c <= (a + size - 1) >> 3; c++) {
		unsigned e = (unsigned)c % SQ;
		uint64_t sa = t->sq[e].addr, ss = t->sq[e].size;
		if (!ss || t->sq[e].written <= issue)
			continue;
		if (a < sa + ss && sa < a + size && !(a >= sa && a + size <= sa + ss)) {
			written = max64(written, t->sq[e].written);
			*known = max64(*known, sq_known(t, e));
		}
	}
	return written;
}

/* tr's µops: its plan's, or cracked into tmp. */
static inline __attribute__((always_inline)) int uops_of(const struct x86_trace *tr,
							 struct uop *tmp, const struct uop **uops)
{
	struct plan *p = tr->i->aux;
	int n;

	*uops = tmp;
	if (!p)
		return uarch_crack(tr, tmp);
	if (p->n && p->nmem == tr->nmem && p->load == tr->load && p->store == tr->store) {
		*uops = p->u;
		return p->n;
	}
	n = uarch_crack(tr, tmp);
	if (!p->n && n <= PLAN_UOPS) {
		memcpy(p->u, tmp, (size_t)n * sizeof(*tmp));
		p->nmem = tr->nmem;
		p->load = tr->load;
		p->store = tr->store;
		p->n = (uint8_t)n;
	}
	return n;
}

/* Two loads' sources as one: the deeper level, the first miss class. */
static uint8_t dsrc_merge(uint8_t a, uint8_t b)
{
	unsigned level = UARCH_DSRC_LEVEL(a) > UARCH_DSRC_LEVEL(b) ? UARCH_DSRC_LEVEL(a) :
								     UARCH_DSRC_LEVEL(b);
	unsigned cls = UARCH_DSRC_CLASS(a) ? UARCH_DSRC_CLASS(a) : UARCH_DSRC_CLASS(b);

	return (uint8_t)(cls << 4 | level);
}

static inline uint64_t take_unit(struct uarch *u, unsigned cls, uint64_t t)
{
	unsigned occ = u->occupy[cls];

	if (occ > 1)
		return uarch_cal_take_for(&u->cal[cls], t, u->units[cls], occ);
	return uarch_cal_take(&u->cal[cls], t, u->units[cls]);
}

/* Dispatch waited from cycle disp until slot for an entry (event ev):
 * allocation is in order, so the front end waited too. */
static uint64_t stall_dispatch(struct uarch *u, struct uth *t, int th, unsigned ev, uint64_t disp,
			       uint64_t slot)
{
	count_span(u, t, th, ev, disp, slot);
	if (slot - u->m.core.depth > t->fetch) {
		t->fetch = slot - u->m.core.depth;
		t->fetched = 0;
	}
	return slot;
}

/* Dispatch at cycle disp waits for an entry of window w (size entries):
 * returns the cycle it gets one. */
static inline uint64_t wait_entry(struct uarch *u, struct uth *t, int th, const struct window *w,
				  unsigned size, unsigned ev, uint64_t disp)
{
	uint64_t slot = w->free[w->i];

	if (slot <= disp || w->taken < size)
		return disp;
	return stall_dispatch(u, t, th, ev, disp, slot);
}

/* Issue queue q at cycle now: the µops that issued by then have left. */
static inline __attribute__((always_inline)) void iq_drain(struct iqueue *q, uint64_t now)
{
	for (uint64_t c = q->now + 1; c <= now && q->count; c++) {
		q->count -= q->n[c % IQ_SPAN];
		q->n[c % IQ_SPAN] = 0;
	}
	q->now = now;
}

/* Dispatch at cycle disp waits for an entry of issue queue q (size
 * entries): with the queue still full then, the first of the µops in it
 * to issue frees one. */
static inline __attribute__((always_inline)) uint64_t
iq_enter(struct uarch *u, struct uth *t, int th, struct iqueue *q, unsigned size, uint64_t disp)
{
	uint64_t slot;

	if (disp > q->now)
		iq_drain(q, disp);
	if (q->count < size)
		return disp;
	for (slot = q->now + 1; !q->n[slot % IQ_SPAN]; slot++)
		;
	iq_drain(q, slot);
	return stall_dispatch(u, t, th, UARCH_EV_STALL_IQ, disp, slot);
}

/* The µop that took an entry of q issues at cycle issue. */
static inline void iq_issue(struct iqueue *q, uint64_t issue)
{
	if (issue <= q->now)
		return; /* gone already (a µop of the same instruction dispatched later) */
	if (issue - q->now >= IQ_SPAN)
		issue = q->now + IQ_SPAN - 1;
	q->n[issue % IQ_SPAN]++;
	q->count++;
}

/* Take w's next entry, freed at cycle free. */
static inline void take_entry(struct window *w, unsigned size, uint64_t free)
{
	w->free[w->i] = free;
	w->taken++;
	if (++w->i >= size)
		w->i = 0;
}

/* The front end: fetch the instruction at pc (tc: from the trace cache,
 * which delivers µops); returns its fetch cycle. */
static inline __attribute__((always_inline)) uint64_t fetch(struct uarch *u, struct uth *t, int th,
							    uint64_t pc, unsigned nuops, int tc)
{
	unsigned shift = u->ishift, cost = tc ? nuops : 1;

	if (t->fetched + cost > u->fetch_w && t->fetched) {
		t->fetch++;
		t->fetched = 0;
	}
	u->fetch_flags = 0;
	if (u->has_l1i && pc >> shift != t->iline) {
		struct uarch_req r = { th, t->kernel, 0 };
		uint64_t avail = uarch_mem_fetch(&u->ms, &r, pc, t->fetch);
		u->fetch_flags = (u->ms.l1i_missed ? UARCH_I_ICACHE_MISS : 0) |
				 (u->ms.itlb_missed ? UARCH_I_ITB_MISS : 0);
		/* in this instruction's delivery: what an instruction EAR reads */
		if (u->ms.l1i_missed)
			count(u, t, th, UARCH_EV_FETCH_LAT, avail - t->fetch, t->fetch);
		if (u->ms.itlb_missed)
			count(u, t, th,
			      u->ms.itlb_walked ? UARCH_EV_ITLB_WALK : UARCH_EV_ITLB_L2_HIT, 1,
			      t->fetch);
		t->iline = pc >> shift;
		t->ibuild = u->ms.l1i_missed;
		if (avail > t->fetch) {
			count_span(u, t, th, UARCH_EV_STALL_FETCH, t->fetch, avail);
			/* a trace-cache miss switches it to build mode */
			if (tc && u->ms.l1i_missed) {
				count_span(u, t, th, UARCH_EV_TC_BUILD_CYCLES,
					   max64(t->fetch, t->tc_mode_at), avail);
				t->tc_mode_at = avail;
			}
			t->fetch = avail;
			t->fetched = 0;
		}
	}
	t->fetched += cost;
	return t->fetch;
}

/* Retire µop at cycle >= ready, in order, `retire` per cycle. */
static inline __attribute__((always_inline)) uint64_t retire_at(struct uarch *u, struct uth *t,
								int th, uint64_t ready)
{
	uint64_t r = max64(ready, t->retire);

	if (r == t->retire) {
		if (t->rcount >= u->retire_w) {
			r++;
			t->rcount = 0;
		}
	} else {
		t->rcount = 0;
	}
	t->rcount++;
	if (r > t->counted) {
		count_span(u, t, th, UARCH_EV_CYCLES, t->counted, r);
		t->counted = r;
	}
	t->retire = r;
	return r;
}

/* The block of mem.wbuf_line bytes a store of size bytes at a lies in,
 * its bytes there in *mask; ~0 if it lies in no one block or nothing
 * coalesces. */
static inline uint64_t wb_block(const struct uarch *u, uint64_t a, uint32_t size, uint64_t *mask)
{
	uint64_t off = a & (u->wb_line - 1);

	if (!u->wb_line || !size || off + size > u->wb_line)
		return ~0ull;
	*mask = (size >= 64 ? ~0ull : (1ull << size) - 1) << off;
	return a >> u->wb_shift;
}

/* The entry of the write buffer a store to block coalesces into, retiring
 * at cycle r: one whose write of that block is still waiting to go below
 * the first level (as the XScale's may "coalesce with any of the eight
 * entries", XScale Core Developer's Manual 6.1.3); -1 if none. */
static int wb_coalesce(const struct uarch *u, const struct uth *t, uint64_t block, uint64_t r)
{
	unsigned n = t->wbq.taken < u->wb ? (unsigned)t->wbq.taken : u->wb;

	for (unsigned k = 0; k < n; k++)
		if (t->wbe[k].block == block && t->wbq.free[k] > r)
			return (int)k;
	return -1;
}

/* A store µop retiring at cycle r takes a write-buffer entry, where it
 * waits to be written, in program order and one per cycle at most
 * (uarch_mem_store() says when the entry frees); with every entry taken,
 * retirement waits for the oldest to free, and with no buffer at all for
 * the write.  A store inside one block of mem.wbuf_line bytes whose write
 * below the first level is still waiting joins it instead: it writes the
 * first level, takes no entry and adds only its bytes to that write.
 * Returns the cycle the µop retires. */
static inline __attribute__((always_inline)) uint64_t
write_buffer(struct uarch *u, struct uth *t, int th, const struct uarch_req *req, uint64_t a,
	     uint32_t size, uint64_t r)
{
	struct window *w = &t->wbq;
	uint64_t go = r, drain, done, block = ~0ull, mask = 0;
	int into = -1;

	if (r < t->wb_below && (block = wb_block(u, a, size, &mask)) != ~0ull)
		into = wb_coalesce(u, t, block, r);
	if (into < 0 && u->wb && w->taken >= u->wb && w->free[w->i] > r)
		go = w->free[w->i];
	drain = max64(go, t->drain + 1);
	done = uarch_mem_store(&u->ms, req, a, size, drain, into >= 0);
	t->drain = drain;
	if (into >= 0) {
		struct wbent *e = &t->wbe[into];
		if (e->bus)
			uarch_mem_bus_grow(&u->ms, req, w->free[into],
					   (unsigned)__builtin_popcountll(e->mask),
					   (unsigned)__builtin_popcountll(e->mask | mask));
		e->mask |= mask;
		return r;
	}
	if (u->wb) {
		if (u->wb_line && u->ms.st_below) {
			if (block == ~0ull)
				block = wb_block(u, a, size, &mask);
			t->wb_below = max64(t->wb_below, done);
		}
		t->wbe[w->i] = (struct wbent){ u->ms.st_below ? block : ~0ull, mask, u->ms.st_bus };
		take_entry(w, u->wb, done);
	} else {
		go = done;
	}
	if (go <= r)
		return r;
	count_span(u, t, th, UARCH_EV_STALL_WBUF, r, go);
	return retire_at(u, t, th, go);
}

/* One instruction being timed: what its µops share. */
struct itime {
	const struct x86_trace *tr;
	struct uarch_req req;
	uint64_t f;	      /* fetch cycle */
	uint64_t done[8];     /* each µop's complete cycle */
	uint64_t rlast;	      /* the last µop's retire cycle */
	uint64_t branch_done; /* the branch µop's complete cycle */
	/* the instruction record (want_insn; else only its flags are kept) */
	struct uarch_insn rec;
};

/* The kind of operand an in-order core's issue waited for last: an
 * X86_DEP_* bit, or the µop before it in its instruction (-2; ld: that
 * one loads, fp: this one is a floating-point operation) — the
 * BUBBLE_EXE_* event of the wait and, for an integer register an
 * operation wrote, BUBBLE_EXE_GRGR too. */
static inline unsigned exe_wait(const struct uth *t, int crit, int ld, int fp, int *grgr)
{
	*grgr = 0;
	if (crit == -2) {
		*grgr = !fp && !ld;
		return fp ? UARCH_EV_BUBBLE_EXE_FR : UARCH_EV_BUBBLE_EXE_GR;
	}
	if (crit < 16) {
		*grgr = !(t->loaded >> crit & 1);
		return UARCH_EV_BUBBLE_EXE_GR;
	}
	if (1ull << crit == X86_DEP_FLAGS)
		return UARCH_EV_BUBBLE_EXE_PR;
	if (1ull << crit == X86_DEP_FPCTL)
		return UARCH_EV_BUBBLE_EXE_ARCR;
	return UARCH_EV_BUBBLE_EXE_FR;
}

/* An in-order core issues a µop in cycle issue: the cycles since its last
 * issue in which nothing issued are bubbles (the Itanium 2's stall
 * accounting, BACK_END_BUBBLE), the front end's until the µop arrived
 * from it at cycle arrive — the flush's after a mispredicted branch —
 * then the back end's: operands (until cycle ready, crit the last one,
 * -1 none: exe_wait()), units, entries. */
static inline void bubbles(struct uarch *u, struct uth *t, int th, uint64_t arrive, uint64_t ready,
			   uint64_t issue, int crit, int ld, int fp)
{
	uint64_t from = max64(t->issue + 1, t->bub_from);

	if (issue > from) {
		uint64_t fe = arrive < from ? from : arrive > issue ? issue : arrive;
		uint64_t opnd = ready < fe ? fe : ready > issue ? issue : ready;
		if (fe > from)
			count_span(u, t, th,
				   t->flushing ? UARCH_EV_BUBBLE_FLUSH : UARCH_EV_BUBBLE_FE, from,
				   fe);
		if (issue > fe)
			count_span(u, t, th, UARCH_EV_BUBBLE_EXE, fe, issue);
		if (opnd > fe && crit != -1) {
			int grgr;
			count_span(u, t, th, exe_wait(t, crit, ld, fp, &grgr), fe, opnd);
			if (grgr)
				count_span(u, t, th, UARCH_EV_BUBBLE_EXE_GRGR, fe, opnd);
		}
	}
	t->flushing = 0;
}

/* What uarch_retire()'s case kind (RK_*) fixes: constants for the
 * compiler, but for RK_ANY, which reads them at run time. */
static inline int kind_ooo(const struct uarch *u, int kind)
{
	int shape = kind & RK_SHAPE;
	return shape == RK_ANY ? u->m.core.ooo : shape != RK_INORDER;
}

static inline int kind_replays(const struct uarch *u, int kind)
{
	int shape = kind & RK_SHAPE;
	return shape == RK_ANY || shape == RK_INORDER ? u->m.core.replay : shape == RK_P4;
}

static inline int kind_tc(const struct uarch *u, int kind)
{
	int shape = kind & RK_SHAPE;
	return shape == RK_ANY || shape == RK_INORDER ? u->m.l1i_is_tc : shape == RK_P4;
}

static inline int kind_want_insn(const struct uarch *u, int kind)
{
	return (kind & RK_SHAPE) == RK_ANY ? u->want_insn : (kind & RK_INSN) != 0;
}

static inline int kind_tally(const struct uarch *u, int kind)
{
	return (kind & RK_SHAPE) == RK_ANY ? u->tally : (kind & RK_TALLY) != 0;
}

/* Time µop k of it, o, of kind okind (o->kind, a constant for the
 * compiler to fold, as kind is). */
static inline __attribute__((always_inline)) void uop_time(struct uarch *u, struct uth *t, int th,
							   struct itime *it, const struct uop *o,
							   int k, const int kind, const int okind)
{
	const int ooo = kind_ooo(u, kind), replays = kind_replays(u, kind);
	const int want_insn = kind_want_insn(u, kind), tally = kind_tally(u, kind);
	const struct uarch_core_cfg *cc = &u->m.core;
	const struct x86_trace *tr = it->tr;
	const struct x86_insn *i = tr->i;
	unsigned l1line = u->m.cache[UARCH_L1D].line;
	uint64_t disp = it->f + cc->depth, ready, issue, complete;
	int replay = 0, l1miss = 0, dtlbmiss = 0, l2miss = 0;

	disp = wait_entry(u, t, th, &t->rob, u->rob, UARCH_EV_STALL_ROB, disp);
	/* a load takes a load-queue entry, a store (its address µop,
	 * for both) a store-queue entry, until it retires */
	if (okind == U_LOAD)
		disp = wait_entry(u, t, th, &t->ldq, u->lq, UARCH_EV_STALL_LQ, disp);
	else if (okind == U_STA)
		disp = wait_entry(u, t, th, &t->stq, u->sq, UARCH_EV_STALL_SQ, disp);
	/* floating-point operations wait in their own queue if there is one
	 * (the 21264's; loads, stores and packed-integer work go to the
	 * integer queue) */
	const int fpq = u->fq && o->cls >= UARCH_UC_FADD && o->cls <= UARCH_UC_FMOV;
	struct iqueue *q = &t->iq[fpq];
	disp = iq_enter(u, t, th, q, fpq ? u->fq : u->iq, disp);
	if (k == 0 && want_insn)
		it->rec.map = disp - cc->depth + (cc->depth < 2 ? cc->depth : 2);
	ready = disp;
	int crit = -1; /* (in order: what issue waited for last, exe_wait()) */
	for (uint64_t s = o->src; s; s &= s - 1) {
		int b = __builtin_ctzll(s);
		if (t->ready[b] > ready) {
			ready = t->ready[b];
			crit = b;
		}
	}
	replay = (o->src & t->tainted) != 0;
	if (o->prev >= 0 && it->done[o->prev] > ready) {
		ready = it->done[o->prev];
		crit = -2;
	}
	const uint64_t opnd_ready = ready;
	if (!ooo) {
		/* in order, issue waits for the operands: the cycles
		 * past the one it could otherwise issue in stall */
		uint64_t could = max64(disp, t->issue);
		if (could == t->issue && t->icount >= u->issue_w)
			could++;
		if (ready > could)
			count_span(u, t, th, UARCH_EV_STALL_DATA, could, ready);
	}
	if (!ooo) {
		/* in order: not before the previous µop issued, `issue` per cycle */
		if (ready < t->issue)
			ready = t->issue;
		if (ready == t->issue && t->icount >= u->issue_w)
			ready++;
	}
	issue = take_unit(u, o->cls, ready);
	iq_issue(q, issue);
	if (!ooo) {
		bubbles(u, t, th, it->f + cc->depth, opnd_ready, issue, crit,
			crit == -2 && o[o->prev - k].kind == U_LOAD,
			o->cls >= UARCH_UC_FADD && o->cls <= UARCH_UC_SIMD_MUL);
		if (issue == t->issue) {
			t->icount++;
		} else {
			t->issue = issue;
			t->icount = 1;
		}
	}
	complete = issue + cc->lat[o->cls];
	if (okind == U_LOAD) {
		int miss = 0;
		uint64_t a = tr->addr[o->mem], at = issue, blocked;
		uint64_t fwd = 0, known = 0;
		/* store-to-load forwarding from a covering older store; a load
		 * that only partly overlaps a store, or one a store crossing a
		 * line covers, cannot take its data: it reads the first level
		 * once the store has written it (IA-32 Intel Architecture
		 * Optimization Reference Manual, ch. 1, "Store Forwarding":
		 * the bytes loaded must be a subset of those stored, and the
		 * store must not wrap around a cache line boundary; with
		 * core.fwd_start the load starts where the store does); and
		 * none before the store's address is known: the load issued
		 * ahead of it (predicted not to alias) is replayed
		 * (MOB_LOAD_REPLAY's NO_STA) */
		unsigned e = (unsigned)(a >> 3) % SQ;
		uint32_t lsz = tr->size[o->mem];
		if (t->sq[e].size && a >= t->sq[e].addr &&
		    a + lsz <= t->sq[e].addr + t->sq[e].size) {
			int split = crosses_line(t->sq[e].addr, t->sq[e].size, l1line);
			int unaligned = cc->fwd_start && !fwd_aligned(t->sq[e].addr, a, lsz);
			known = sq_known(t, e);
			if (!split && !unaligned)
				fwd = t->sq[e].ready + 1;
			else if (t->sq[e].written > issue) {
				if (split)
					count(u, t, th, UARCH_EV_LD_FWD_SPLIT, 1, issue);
				if (unaligned)
					count(u, t, th, UARCH_EV_LD_FWD_ALIGN, 1, issue);
				at = t->sq[e].written;
			}
		}
		if ((blocked = store_overlap(t, a, tr->size[o->mem], issue, &known))) {
			count(u, t, th, UARCH_EV_LD_ST_OVERLAP, 1, issue);
			it->rec.flags |= UARCH_I_REPLAY;
			at = max64(at, blocked);
		}
		if (known + 1 > issue + cc->lat[o->cls]) { /* (as fwd below) */
			count(u, t, th, UARCH_EV_LD_NO_STA, 1, issue);
			it->rec.flags |= UARCH_I_REPLAY;
		}
		complete = uarch_mem_load(&u->ms, &it->req, a, tr->size[o->mem], at, &miss);
		u->dsrc = dsrc_merge(u->dsrc, u->ms.ld_dsrc);
		dtlbmiss = u->ms.dtlb_missed ? 1 + u->ms.dtlb_walked : 0;
		l2miss = u->ms.l2_missed;
		if (complete < at + cc->lat[o->cls])
			complete = at + cc->lat[o->cls];
		if (fwd && !miss && !blocked) {
			/* it waits for the store's data (the P4 replays it:
			 * MOB_LOAD_REPLAY's NO_STD) */
			if (fwd > issue + cc->lat[o->cls])
				count(u, t, th, UARCH_EV_LD_FWD_WAIT, 1, issue);
			complete = max64(issue + cc->lat[o->cls], max64(fwd, known + 1));
		}
		l1miss = miss;
		if (miss && replays) {
			/* P4 replay: scheduled for an L1 hit, the load goes
			 * round the replay loop and re-executes on the load
			 * port each trip until its data has arrived (Boggs et
			 * al., Intel Technology Journal 8(1), 2004, "replay");
			 * the loop is taken as the load latency plus the 3-cycle
			 * check (≈) */
			uint64_t loop = cc->lat[UARCH_UC_LOAD] + 3;
			for (uint64_t trip = at + loop; trip < complete; trip += loop) {
				trip = take_unit(u, UARCH_UC_LOAD, trip);
				count(u, t, th, UARCH_EV_REPLAYS, 1, trip);
			}
		}
		if (miss && replays)
			t->tainted |= o->dst;
	}
	if (replay && replays)
		count(u, t, th, UARCH_EV_REPLAYS, 1, issue);
	it->done[k] = complete;
	if (want_insn) {
		it->rec.issue = max64(it->rec.issue, issue);
		it->rec.complete = max64(it->rec.complete, complete);
		if (okind == U_LOAD)
			it->rec.flags |= UARCH_I_LOAD | (l1miss ? UARCH_I_DC_MISS : 0) |
					 (l2miss ? UARCH_I_L2_MISS : 0) |
					 (dtlbmiss ? UARCH_I_DTB_MISS : 0);
		if (okind == U_STA)
			it->rec.flags |= UARCH_I_STORE;
		if ((okind == U_LOAD || okind == U_STA) &&
		    misaligned(i, tr->addr[o->mem], tr->size[o->mem]))
			it->rec.flags |= UARCH_I_UNALIGNED;
	}
	for (uint64_t d = o->dst; d; d &= d - 1)
		t->ready[__builtin_ctzll(d)] = complete;
	if (!ooo)
		t->loaded = okind == U_LOAD ? t->loaded | o->dst : t->loaded & ~o->dst;
	if (okind != U_LOAD || !l1miss)
		t->tainted &= ~o->dst; /* (a load that hits replaces a tainted value) */
	uint64_t r = retire_at(u, t, th, complete);
	int st_dtlb = 0; /* a store's first-level DTLB miss: 1, 2 walked */
	if (okind == U_STD) {
		uint64_t a = tr->addr[o->mem];
		uint32_t sz = tr->size[o->mem];
		r = write_buffer(u, t, th, &it->req, a, sz, r);
		if (u->ms.dtlb_missed)
			st_dtlb = 1 + u->ms.dtlb_walked;
		/* its address µop's completion, from the data's (clamped to
		 * 2^31 cycles either way) */
		int64_t known = (int64_t)(it->done[k - 1] - complete);
		known = known > INT32_MAX ? INT32_MAX : known < INT32_MIN ? INT32_MIN : known;
		/* remember it under each chunk it covers (small stores) */
		for (uint64_t c = a >> 3; sz <= 64 && c <= (a + sz - 1) >> 3; c++) {
			unsigned e = (unsigned)c % SQ;
			t->sq[e].addr = a;
			t->sq[e].known = (int32_t)known;
			t->sq[e].size = sz;
			t->sq[e].ready = complete;
			t->sq[e].written = t->drain;
		}
	}
	/* retirement events carry the cycle the µop retires */
	count1(u, t, th, UARCH_EV_UOPS, r, tally);
	if (okind == U_OP && o->cls >= UARCH_UC_FADD && o->cls <= UARCH_UC_SIMD_MUL)
		count1(u, t, th, UARCH_EV_FP_UOPS, r, tally);
	if (o->fp)
		count1(u, t, th, o->fp, r, tally);
	/* (a load's or a store's, signalled for its access: uarch_sig.mem) */
	if (okind == U_LOAD) {
		const uint8_t m = o->mem;
		count1_mem(u, t, th, UARCH_EV_LOADS, r, tally, m);
		count_mem(u, t, th, UARCH_EV_LOAD_LAT, complete - issue, r, m);
		if (dtlbmiss) /* right after its load-latency signal (events.h) */
			count_mem(u, t, th,
				  dtlbmiss > 1 ? UARCH_EV_DTLB_WALK : UARCH_EV_DTLB_L2_HIT, 1, r,
				  m);
		if (l1miss) {
			count_mem(u, t, th, UARCH_EV_L1D_LD_MISS, 1, r, m);
			count_mem(u, t, th, UARCH_EV_L1D_LD_MISS_SPEC, 1, r, m);
		}
		if (dtlbmiss)
			count_mem(u, t, th, UARCH_EV_LD_DTLB_MISS, 1, r, m);
		if (l2miss)
			count_mem(u, t, th, UARCH_EV_LD_L2_MISS, 1, r, m);
		if (split_access(i, tr->addr[o->mem], tr->size[o->mem], l1line))
			count_mem(u, t, th, UARCH_EV_LD_SPLIT, 1, r, m);
		if (misaligned(i, tr->addr[o->mem], tr->size[o->mem]))
			count_mem(u, t, th, UARCH_EV_LD_MISALIGNED, 1, r, m);
		if (u->nthreads > 1)
			uarch_mo_load(u, th, tr->addr[o->mem], issue, r);
	} else if (okind == U_STD) {
		const uint8_t m = o->mem;
		count1_mem(u, t, th, UARCH_EV_STORES, r, tally, m);
		if (split_access(i, tr->addr[o->mem], tr->size[o->mem], l1line))
			count_mem(u, t, th, UARCH_EV_ST_SPLIT, 1, r, m);
		if (misaligned(i, tr->addr[o->mem], tr->size[o->mem]))
			count_mem(u, t, th, UARCH_EV_ST_MISALIGNED, 1, r, m);
		if (st_dtlb) {
			count_mem(u, t, th, UARCH_EV_ST_DTLB_MISS, 1, r, m);
			it->rec.flags |= UARCH_I_DTB_MISS;
			/* after its stores signal (events.h) */
			count_mem(u, t, th, st_dtlb > 1 ? UARCH_EV_DTLB_WALK : UARCH_EV_DTLB_L2_HIT,
				  1, r, m);
		}
		if (u->nthreads > 1)
			uarch_mo_store(u, th, tr->addr[o->mem], t->drain);
	}
	it->rlast = r;
	take_entry(&t->rob, u->rob, r);
	if (okind == U_LOAD)
		take_entry(&t->ldq, u->lq, r);
	else if (okind == U_STD)
		take_entry(&t->stq, u->sq, r);
	if (okind == U_OP && o->cls == UARCH_UC_BRANCH)
		it->branch_done = complete;
}

/* After the walk down a mispredicted path: its records, stamped with the
 * frontier of their delivery, and its signals, delivered; while
 * batching, the records are held with the block's, and signals without
 * records go at once, with what is held, as of that frontier. */
static void wrong_path_out(struct uarch *u, int th)
{
	const uint64_t fr = u->nwp ? uarch_frontier(u) : 0;

	for (unsigned k = 0; k < u->nwp; k++)
		u->wp[k].frontier = fr;
	if (!u->batching) {
		if (u->sig && (u->sig->n || u->nwp))
			uarch_deliver(u, th, NULL, 0, u->wp, u->nwp);
	} else if (!u->nwp) {
		if (u->sig->n)
			uarch_deliver_held(u, uarch_frontier(u));
	} else {
		if (u->nib + u->nwp > IB_MAX)
			uarch_deliver_held(u, u->ib[u->nib - 1].frontier);
		memcpy(u->ib + u->nib, u->wp, u->nwp * sizeof(*u->wp));
		u->nib += u->nwp;
	}
}

/* uarch_retire() for a core of shape kind (RK_*): the compiler folds
 * what the kind fixes. */
static inline __attribute__((always_inline)) void retire(struct uarch *u, int th,
							 const struct x86_trace *tr, const int kind)
{
	const int tc = kind_tc(u, kind), want_insn = kind_want_insn(u, kind);
	const int tally = kind_tally(u, kind);
	const struct uarch_core_cfg *cc = &u->m.core;
	const struct x86_insn *i = tr->i;
	struct uth *t = &u->th[th];
	struct itime it;
	struct uop tmp[8];
	const struct uop *uops;
	int n = uops_of(tr, tmp, &uops);
	unsigned xc = i->xclass;
	struct uarch_bp_pred pred;
	int mispredict = 0;

	it.tr = tr;
	it.req = (struct uarch_req){ th, t->kernel, 0 };
	it.rlast = it.branch_done = 0;
	if (want_insn)
		it.rec = (struct uarch_insn){ 0 };
	else
		it.rec.flags = 0;
	u->sig_th = th;
	u->dsrc = 0;
	it.f = fetch(u, t, th, i->pc, (unsigned)n, tc);
	if (tc) {
		int rom = uarch_microcoded(xc);
		if (rom | t->ibuild) {
			uopq_other(u, t, th, (unsigned)n, rom, it.f);
			/* the cycle's mode (TC_DELIVER_MODE), once a cycle */
			if (it.f >= t->tc_mode_at) {
				count(u, t, th,
				      rom ? UARCH_EV_TC_ROM_CYCLES : UARCH_EV_TC_BUILD_CYCLES, 1,
				      it.f);
				t->tc_mode_at = it.f + 1;
			}
		} else if (tally)
			t->ev[UARCH_EV_UOPQ_DELIVER] += (unsigned)n;
		else
			count(u, t, th, UARCH_EV_UOPQ_DELIVER, (unsigned)n, it.f);
	}
	if (is_branch(xc)) {
		enum uarch_br k = br_kind(xc);
		uint64_t enc = i->op[0].kind == X86_OP_REL ? (uint64_t)i->imm : 0;
		uarch_bp_predict(u->bp, th, i->pc, i->pc + i->len, enc, k, &pred);
		mispredict = uarch_bp_update(u->bp, th, i->pc, k, tr->taken, tr->next, &pred);
		/* the built trace ends: the target's fetch looks the trace cache up */
		if (tc && tr->next != i->pc + i->len)
			t->ibuild = 0;
	}

	for (int k = 0; k < n; k++) {
		switch (uops[k].kind) {
		case U_OP:
			uop_time(u, t, th, &it, &uops[k], k, kind, U_OP);
			break;
		case U_LOAD:
			uop_time(u, t, th, &it, &uops[k], k, kind, U_LOAD);
			break;
		case U_STA:
			uop_time(u, t, th, &it, &uops[k], k, kind, U_STA);
			break;
		default:
			uop_time(u, t, th, &it, &uops[k], k, kind, U_STD);
			break;
		}
	}
	count1(u, t, th, UARCH_EV_INSNS, it.rlast, tally);
	if (is_branch(xc)) {
		enum uarch_br k = br_kind(xc);
		count1(u, t, th, UARCH_EV_BRANCHES, it.rlast, tally);
		if (tr->taken)
			count1(u, t, th, UARCH_EV_BR_TAKEN, it.rlast, tally);
		if (k == UARCH_BR_COND)
			count1(u, t, th, UARCH_EV_BR_COND, it.rlast, tally);
		if (k == UARCH_BR_IND || k == UARCH_BR_CALL_IND)
			count1(u, t, th, UARCH_EV_BR_IND, it.rlast, tally);
		if (k == UARCH_BR_CALL || k == UARCH_BR_CALL_IND)
			count1(u, t, th, UARCH_EV_BR_CALL, it.rlast, tally);
		if (k == UARCH_BR_RET)
			count1(u, t, th, UARCH_EV_BR_RET, it.rlast, tally);
		if (tr->taken && !pred.btb_hit)
			count(u, t, th, UARCH_EV_BTB_MISS, 1, it.rlast);
		/* direction and outcome (unconditional branches are taken) */
		if (k != UARCH_BR_COND || tr->taken)
			count1(u, t, th, mispredict ? UARCH_EV_BR_T_MISP : UARCH_EV_BR_T_PRED,
			       it.rlast, tally);
		else
			count1(u, t, th, mispredict ? UARCH_EV_BR_NT_MISP : UARCH_EV_BR_NT_PRED,
			       it.rlast, tally);
		if (k == UARCH_BR_CALL_IND)
			count1(u, t, th, UARCH_EV_BR_CALL_IND, it.rlast, tally);
		if (k == UARCH_BR_IND)
			count1(u, t, th, UARCH_EV_BR_JMP_IND, it.rlast, tally);
		if (mispredict) {
			count(u, t, th, UARCH_EV_BR_MISP, 1, it.rlast);
			if (k == UARCH_BR_COND)
				count(u, t, th, UARCH_EV_BR_COND_MISP, 1, it.rlast);
			if (k == UARCH_BR_RET)
				count(u, t, th, UARCH_EV_BR_RET_MISP, 1, it.rlast);
			if (k == UARCH_BR_CALL_IND)
				count(u, t, th, UARCH_EV_BR_CALL_IND_MISP, 1, it.rlast);
			if (k == UARCH_BR_IND)
				count(u, t, th, UARCH_EV_BR_JMP_IND_MISP, 1, it.rlast);
		}
	}
	if (++t->unflushed >= FLUSH_EVERY)
		uarch_flush_thread(u, th);
	if (u->sig && want_insn) {
		it.rec.pc = i->pc;
		it.rec.fetch = it.f;
		it.rec.retire = it.rlast;
		it.rec.dsrc = u->dsrc;
		it.rec.flags |= u->fetch_flags | (is_branch(xc) ? UARCH_I_BRANCH : 0) |
				(tr->taken ? UARCH_I_TAKEN : 0) |
				(mispredict ? UARCH_I_MISPREDICT : 0);
		it.rec.frontier = uarch_frontier(u);
		if (u->batching) {
			if (u->nib == IB_MAX)
				uarch_deliver_held(u, u->ib[u->nib - 1].frontier);
			u->ib[u->nib++] = it.rec;
			u->ib_retire = it.rlast;
		} else {
			uarch_deliver(u, th, tr, it.rlast, &it.rec, 1);
		}
	} else if (u->sig && (u->sig->n || !u->quiet)) {
		uarch_deliver(u, th, tr, it.rlast, NULL, 0);
	}
	if (mispredict) {
		/* the front end went down the predicted path until the branch
		 * resolved, then restarts on the right one */
		unsigned pen = u->m.bp.penalty, depth = cc->depth;
		uint64_t restart = it.branch_done + (pen > depth ? pen - depth : 1);

		u->nwp = 0;
		t->flushing = 1;
		uarch_wrong_path(u, t, th, tr, pred.target, it.f + 1, it.branch_done, tally);
		wrong_path_out(u, th);
		u->nwp = 0;
		if (restart > t->fetch) {
			t->fetch = restart;
			t->fetched = 0;
		}
	} else if (tr->taken && !tc) {
		/* a taken branch ends the fetch group */
		t->fetch++;
		t->fetched = 0;
	} else if (xc == X86_XC_PAUSE && it.rlast > t->fetch) {
		/* the front end waits for a PAUSE to retire, so a spin-wait
		 * loop has no loads in flight ahead of it to be caught by the
		 * store that ends the wait (IA-32 Intel Architecture
		 * Optimization Reference Manual, ch. 7, "Spin-wait and idle
		 * loops": PAUSE de-pipelines the loop) */
		t->fetch = it.rlast;
		t->fetched = 0;
	}
	/* everything summed is stamped before the cut: the sink takes it
	 * (tallying, the cut only asks for the sums) */
	if (t->fetch >= u->sum_cut && uarch_frontier(u) >= u->sum_cut)
		uarch_sums_out(u);
}

/* A block of instructions; a sink that takes their records at once
 * (insn_batch) gets them in one delivery. */
static inline __attribute__((always_inline)) void
retire_block(struct uarch *u, int th, const struct x86_trace *tr, unsigned n, const int kind)
{
	const int batch = kind_want_insn(u, kind) && u->sig && u->sink.insn_batch;

	u->batching = (uint8_t)batch;
	for (unsigned k = 0; k < n; k++)
		retire(u, th, &tr[k], kind);
	/* as of the last record's frontier (signals raised after it would
	 * have come with the next instruction's, and still do) */
	if (batch) {
		u->batching = 0;
		if (u->nib)
			uarch_deliver_held(u, u->ib[u->nib - 1].frontier);
	}
}

/* One instance for each shape, each a function of its own (the compiler
 * inlines the helpers into each as into one), and one for a block of
 * instructions (uarch_retire_block()). */
#define RETIRE_AS(name, kind)                                                                      \
	static __attribute__((noinline)) void name(struct uarch *u, int th,                        \
						   const struct x86_trace *tr)                     \
	{                                                                                          \
		retire(u, th, tr, kind);                                                           \
	}                                                                                          \
	static __attribute__((noinline)) void name##_block(struct uarch *u, int th,                \
							   const struct x86_trace *tr, unsigned n) \
	{                                                                                          \
		retire_block(u, th, tr, n, kind);                                                  \
	}
RETIRE_AS(retire_any, RK_ANY)
RETIRE_AS(retire_p4, RK_P4)
RETIRE_AS(retire_p4_tally, RK_P4 | RK_TALLY)
RETIRE_AS(retire_ooo, RK_OOO)
RETIRE_AS(retire_ooo_tally, RK_OOO | RK_TALLY)
RETIRE_AS(retire_ooo_insn, RK_OOO | RK_INSN)
RETIRE_AS(retire_ooo_insn_tally, RK_OOO | RK_INSN | RK_TALLY)
RETIRE_AS(retire_inorder, RK_INORDER)
RETIRE_AS(retire_inorder_tally, RK_INORDER | RK_TALLY)

static const struct {
	void (*one)(struct uarch *u, int th, const struct x86_trace *tr);
	void (*block)(struct uarch *u, int th, const struct x86_trace *tr, unsigned n);
} retire_as[] = {
#define AS(name)                   \
	{                          \
		name, name##_block \
	}
	[RK_ANY] = AS(retire_any),
	[RK_ANY | RK_TALLY] = AS(retire_any),
	[RK_P4] = AS(retire_p4),
	[RK_P4 | RK_TALLY] = AS(retire_p4_tally),
	[RK_OOO] = AS(retire_ooo),
	[RK_OOO | RK_TALLY] = AS(retire_ooo_tally),
	[RK_INORDER] = AS(retire_inorder),
	[RK_INORDER | RK_TALLY] = AS(retire_inorder_tally),
	[RK_OOO | RK_INSN] = AS(retire_ooo_insn),
	[RK_OOO | RK_INSN | RK_TALLY] = AS(retire_ooo_insn_tally),
#undef AS
};

/* What uarch_retire() takes as fixed until the machine or the sink
 * changes: the shape of the core, and whether tallied[] need only adding
 * (no cut but one that only asks for the sums, no sink signals them one
 * at a time, and none has a budget). */
void uarch_retire_mode(struct uarch *u)
{
	const struct uarch_core_cfg *cc = &u->m.core;

	u->tally = !u->sig || !u->sink.cut || u->sink.budget;
	for (unsigned k = 0; k < sizeof(tallied); k++)
		if (u->sig_at[tallied[k]] <= 1 ||
		    (u->sink.budget && u->sink.budget->n[tallied[k]] != ~0ull))
			u->tally = 0;
	if (!cc->ooo)
		u->kind = RK_INORDER;
	else if (cc->replay && u->m.l1i_is_tc)
		u->kind = RK_P4;
	else if (!cc->replay && !u->m.l1i_is_tc)
		u->kind = RK_OOO;
	else
		u->kind = RK_ANY;
	if (u->want_insn)
		u->kind = u->kind == RK_OOO ? RK_OOO | RK_INSN : RK_ANY;
	if (u->kind != RK_ANY && u->tally)
		u->kind |= RK_TALLY;
	u->retire = retire_as[u->kind].one;
	u->retire_block = retire_as[u->kind].block;
}

/* Instructions of a block in which the emulator noted some that need a
 * floating-point assist (x86.h): one by one, each such followed by its
 * clear. */
static __attribute__((noinline)) void retire_assisted(struct uarch *u, int th,
						      const struct x86_trace *tr, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		unsigned kinds = x86_assists(tr[k].cpu, tr[k].i);
		u->retire(u, th, &tr[k]);
		if (kinds)
			uarch_assist(u, th, kinds, u->th[th].retire);
	}
}

void uarch_retire(struct uarch *u, int th, const struct x86_trace *tr)
{
	if (__builtin_expect(tr->cpu && tr->cpu->nassist, 0))
		retire_assisted(u, th, tr, 1);
	else
		u->retire(u, th, tr);
}

void uarch_retire_block(struct uarch *u, int th, const struct x86_trace *tr, unsigned n)
{
	if (__builtin_expect(n && tr->cpu && tr->cpu->nassist, 0))
		retire_assisted(u, th, tr, n);
	else
		u->retire_block(u, th, tr, n);
}
