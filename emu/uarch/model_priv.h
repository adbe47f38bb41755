/* model_priv.h — between the files of emu/uarch/model*.c only: the state
 * of the pipeline model (struct uarch), the event counting every part of
 * it does, and the helpers the timing of an instruction and the walk down
 * a mispredicted path share. */
#ifndef VPMU_UARCH_MODEL_PRIV_H
#define VPMU_UARCH_MODEL_PRIV_H

#include <stdint.h>

#include "bpred.h"
#include "cal.h"
#include "memsys.h"
#include "model.h"

#define NDEP 36	    /* X86_DEP_* bits: 16 GPR, 16 XMM, flags, x87, FP control, MMX */
#define SQ 64	    /* store-forwarding table: recent stores by 8-byte chunk */
#define MO_SLOTS 64 /* memory-ordering tables: loads in flight and stores, by line */
#define FLUSH_EVERY 65536
/* Cycles ahead the issue queue tells issue cycles apart: a µop due to
 * issue later counts as issuing then (it is still queued when it would
 * matter, unless the queue drains for that long). */
#define IQ_SPAN 4096

/* Entries that free in program order — the reorder buffer, the load and
 * the store queue: the cycle each of the last `size` taken frees (the
 * owner retires), a ring. */
struct window {
	uint64_t *free;
	unsigned i; /* taken modulo the size */
	uint64_t taken;
};

/* A write-buffer entry, beside the cycle it frees (wbq.free): the aligned
 * block of mem.wbuf_line bytes its store wrote, if the write goes on below
 * the first level (only such a write waits to be carried down, taking
 * later stores to its block while it waits; else ~0), the bytes of the
 * block written, and whether the write goes over the bus. */
struct wbent {
	uint64_t block, mask;
	uint8_t bus;
};

/* An issue queue: a µop holds an entry from dispatch until it issues, in
 * any order — how many of those in it issue in each cycle past now, by
 * cycle modulo IQ_SPAN, count of them in all. */
struct iqueue {
	uint16_t *n;
	uint64_t now;
	unsigned count;
};

struct uth {
	uint64_t fetch;	     /* cycle the next instruction is fetched */
	uint32_t fetched;    /* instructions (trace cache: µops) fetched in that cycle */
	uint64_t iline;	     /* line of the last fetch */
	uint8_t ibuild;	     /* trace cache: it missed that line, so traces are built */
	uint64_t tc_mode_at; /* trace cache: cycles before this have had their mode counted */
	uint64_t ready[NDEP];
	uint64_t tainted; /* X86_DEP_* bits produced by a load that missed L1 (P4 replay) */
	uint64_t loaded;  /* in-order: X86_DEP_* bits a load produced last */
	struct window rob, ldq, stq; /* µops; loads; stores */
	struct window wbq;	     /* the write buffer: stores retired, not yet written */
	struct wbent *wbe;	     /* [mem.wbuf] what each entry of wbq holds */
	uint64_t wb_below;	     /* no write below the first level waits from this cycle */
	uint64_t drain;		     /* cycle the last store left the write buffer */
	/* the issue queues: the integer (or only) one and the floating-point
	 * one (core.fq) */
	struct iqueue iq[2];
	uint64_t retire;   /* cycle the last µop retired */
	uint32_t rcount;   /* µops retired in that cycle */
	uint64_t issue;	   /* in-order cores: cycle of the last issue */
	uint32_t icount;   /* µops issued in that cycle */
	uint64_t bub_from; /* in-order: no bubble is counted before this cycle (a syscall's) */
	uint8_t flushing;  /* in-order: a mispredicted branch flushed, the right path not issued */
	uint64_t counted;  /* cycles already added to CYCLES */
	int kernel;
	/* events not yet added to the shared counts (at the current
	 * privilege): flushed at every privilege change, every FLUSH_EVERY
	 * instructions and by uarch_flush() */
	uint64_t ev[UARCH_NEV];
	/* of ev[], what was signalled rather than summed for a summing sink
	 * (UARCH_WANT_SUM with n above sum_max): the rest of a summed
	 * event's ev[] is its sum (fold()) */
	uint64_t unsummed[UARCH_NEV];
	/* ev[] past which an event is signalled rather than summed: this
	 * processor's share of the sink's budget (~0: none) */
	uint64_t lim[UARCH_NEV];
	uint32_t unflushed;
	struct {
		uint64_t addr, ready, written; /* data ready; written to the first level */
		uint32_t size;
		int32_t known; /* address known (its address µop done), from ready */
	} sq[SQ];	       /* the last store touching each chunk (direct-mapped) */
	/* dual-thread mode, by data line (direct-mapped): the loads in flight
	 * (a run of overlapping ones: the first issue, the last retirement),
	 * and the last store written to the first level (model_clear.c) */
	struct {
		uint64_t line, issue, retire;
	} mo_ld[MO_SLOTS];
	struct {
		uint64_t line, at;
	} mo_st[MO_SLOTS];
};

struct uarch {
	struct uarch_machine m;
	/* figures of m the hot paths use, with their defaults applied */
	unsigned fetch_w, issue_w, retire_w; /* per cycle */
	unsigned ishift;		     /* log2 of the L1I line */
	int has_l1i;
	uint16_t units[UARCH_NUCLASS], occupy[UARCH_NUCLASS];
	struct uarch_memsys ms;
	struct uarch_bp *bp;
	struct uarch_counts *cnt;
	struct uarch_cal *cal; /* [UARCH_NUCLASS]: which cycles each class of units is busy */
	int nthreads;	       /* 2 in dual-thread mode, else 1 */
	uint8_t active;	       /* the logical processors with a thread to run, a bit each */
	unsigned rob, iq, fq, lq, sq, wb; /* per-thread shares (fq 0: one issue queue; wb 0:
					   * no write buffer) */
	unsigned wb_line, wb_shift;	  /* mem.wbuf_line and its log2 (0: no coalescing) */
	struct x86_cpu scratch;		  /* registers of a mispredicted path */
	struct uth th[2];
	/* a listening PMU: the signals of the current instruction, delivered
	 * when it retires (or when the buffer fills) */
	struct uarch_sigbuf *sig;
	/* count() signals n events ev when n >= sig_at[ev]: 0 for a
	 * signalled event, sum_max + 1 for a summed one, ~0 for one no sink
	 * wants */
	uint64_t sig_at[UARCH_NEV];
	uint64_t sum_cut; /* *sink.cut (~0: none): events from it on are signalled */
	uint8_t quiet;	  /* sink.quiet, unless its budget is loud */
	/* the events every instruction raises (tallied[]) are only added: no
	 * sink signals them and no cut splits them by cycle */
	uint8_t tally;
	uint8_t kind; /* RK_*: the case of uarch_retire() that runs */
	void (*retire)(struct uarch *u, int th, const struct x86_trace *tr); /* its code */
	void (*retire_block)(struct uarch *u, int th, const struct x86_trace *tr, unsigned n);
	struct uarch_sink sink;
	int sig_th; /* logical processor the buffered signals are being raised for */
	/* instruction records for a sink that wants them (want_insn): the
	 * fetch of the instruction being timed, and a mispredicted path's */
	uint8_t want_insn;
	uint32_t fetch_flags; /* UARCH_I_ICACHE_MISS, UARCH_I_ITB_MISS of the last fetch */
	uint8_t dsrc;	      /* where the instruction being timed found its loads' data */
	struct uarch_insn *wp;
	unsigned nwp;
	/* a block's records held for one delivery (uarch_sink.insn_batch),
	 * while batching: the retirement of the last */
	struct uarch_insn *ib;
	unsigned nib;
	uint8_t batching;
	uint64_t ib_retire;
};

#define WP_MAX 128			/* instructions a wrong-path walk fetches at most */
#define IB_MAX (X86_BLOCK_MAX + WP_MAX) /* a block's records and its wrong path's */

static inline uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* The cycle the store in entry e of t's store table had its address known. */
static inline uint64_t sq_known(const struct uth *t, unsigned e)
{
	return t->sq[e].ready + (uint64_t)(int64_t)t->sq[e].known;
}

/* Signal n events ev in each of dur cycles from cycle to the sink (if it
 * wants them: past the cut every event comes here), for access mem of the
 * instruction (uarch_sig.mem). */
void uarch_signal(struct uarch *u, struct uth *t, int th, unsigned ev, uint64_t n, uint64_t cycle,
		  uint64_t dur, uint8_t mem);

/* n events ev at cycle, raised for access mem of the instruction
 * (UARCH_SIG_NOMEM: none); signalled to a listening PMU as they happen (a
 * summed event is summed from ev[] when flushed, within its budget). */
static inline void count_mem(struct uarch *u, struct uth *t, int th, unsigned ev, uint64_t n,
			     uint64_t cycle, uint8_t mem)
{
	t->ev[ev] += n;
	if (n >= u->sig_at[ev] || cycle >= u->sum_cut || t->ev[ev] > t->lim[ev])
		uarch_signal(u, t, th, ev, n, cycle, 1, mem);
}

static inline void count(struct uarch *u, struct uth *t, int th, unsigned ev, uint64_t n,
			 uint64_t cycle)
{
	count_mem(u, t, th, ev, n, cycle, UARCH_SIG_NOMEM);
}

/* One event ev in each cycle of [from, to): a duration. */
static inline void count_span(struct uarch *u, struct uth *t, int th, unsigned ev, uint64_t from,
			      uint64_t to)
{
	t->ev[ev] += to - from;
	if (1 >= u->sig_at[ev] || to > u->sum_cut || t->ev[ev] > t->lim[ev])
		uarch_signal(u, t, th, ev, 1, from, to - from, UARCH_SIG_NOMEM);
}

/* One event ev at cycle, of those every instruction raises: only added
 * while they are tallied (uarch.tally). */
static inline void count1_mem(struct uarch *u, struct uth *t, int th, unsigned ev, uint64_t cycle,
			      int tally, uint8_t mem)
{
	if (tally)
		t->ev[ev]++;
	else
		count_mem(u, t, th, ev, 1, cycle, mem);
}

static inline void count1(struct uarch *u, struct uth *t, int th, unsigned ev, uint64_t cycle,
			  int tally)
{
	count1_mem(u, t, th, ev, cycle, tally, UARCH_SIG_NOMEM);
}

/* Add thread th's events counted since the last flush to the counts, and
 * a summing sink's events to its sums. */
void uarch_flush_thread(struct uarch *u, int th);
/* No later signal is stamped before this cycle: an active processor's
 * fetch cycle or the start of its uncounted cycles, whichever is first. */
static inline uint64_t uarch_frontier(const struct uarch *u)
{
	uint64_t fr = ~0ull;

	for (int k = 0; k < 2; k++) {
		uint64_t f = u->th[k].fetch < u->th[k].counted ? u->th[k].fetch : u->th[k].counted;
		if (u->active >> k & 1 && f < fr)
			fr = f;
	}
	return fr;
}
/* Hand the summed events to the sink (uarch_sink.sums). */
void uarch_sums_out(struct uarch *u);
/* Hand the buffered signals to the sink: tr retired at cycle retire (tr
 * NULL: signals not tied to a retirement), with the instruction records
 * insn[ninsn] of a sink that wants them. */
void uarch_deliver(struct uarch *u, int th, const struct x86_trace *tr, uint64_t retire,
		   const struct uarch_insn *insn, unsigned ninsn);
/* Deliver the records held while batching and the buffered signals, as
 * of frontier. */
void uarch_deliver_held(struct uarch *u, uint64_t frontier);
/* Choose the case of uarch_retire() for the machine and the sink. */
void uarch_retire_mode(struct uarch *u);
/* model_clear.c: the instruction retired at cycle retired needed a
 * floating-point assist for kinds (X86_ASSIST_*). */
void uarch_assist(struct uarch *u, int th, unsigned kinds, uint64_t retired);
/* model_clear.c, in dual-thread mode: processor th's load of a, issued and
 * retired at those cycles; its store of a, written to the first level at
 * cycle at. */
void uarch_mo_load(struct uarch *u, int th, uint64_t a, uint64_t issue, uint64_t retire);
void uarch_mo_store(struct uarch *u, int th, uint64_t a, uint64_t at);
/* The front end down a mispredicted path, from cycle from until the branch
 * resolves at until: instructions are fetched (I-cache and ITLB effects)
 * and their loads issued to the memory system, with real cache and TLB
 * effects.  Integer register arithmetic is evaluated on a scratch copy of
 * the registers (as they are at the branch), so addresses formed on the
 * path are known; loaded values are not (nothing reads memory), so what
 * depends on them is skipped.  Nothing architectural happens, nothing
 * faults, the predictors are not trained; the µops count as speculative.
 * The walk follows decoded code only (never decodes), falls through
 * blocks and follows each branch where the front end would (wp_next()). */
void uarch_wrong_path(struct uarch *u, struct uth *t, int th, const struct x86_trace *tr,
		      uint64_t pc, uint64_t from, uint64_t until, int tally);

/* A µop to schedule. */
struct uop {
	uint64_t src; /* dependency bits read */
	uint64_t dst; /* dependency bits written */
	uint8_t cls;
	uint8_t kind; /* U_OP, U_LOAD, U_STA, U_STD */
	uint8_t mem;  /* trace access index for loads and stores */
	int8_t prev;  /* also waits for this earlier µop of the instruction (-1: none) */
	uint8_t fp;   /* its UARCH_EV_FP_* event, counted when it retires (0: none) */
};
enum { U_OP, U_LOAD, U_STA, U_STD };

/* The x87 or SIMD event (UARCH_EV_FP_*, 0: none) of a µop of kind okind
 * of i: loads, store data and moves by what they do, operations by the
 * data they work on. */
static inline unsigned uarch_fp_event(const struct x86_insn *i, int okind)
{
	unsigned k = i->simd & X86_SIMD_KIND;

	if (!k || okind == U_STA)
		return 0;
	if (okind == U_LOAD)
		return UARCH_EV_FP_LOAD;
	if (okind == U_STD)
		return UARCH_EV_FP_MOVE;
	if (i->simd & X86_SIMD_MOVE) /* a move to memory: its store data */
		return i->mact & 2 ? 0 : UARCH_EV_FP_MOVE;
	return UARCH_EV_FP_X87 + k - X86_SIMD_X87;
}
_Static_assert(UARCH_EV_FP_PS - UARCH_EV_FP_X87 == X86_SIMD_PS - X86_SIMD_X87 &&
		       UARCH_EV_FP_SD - UARCH_EV_FP_X87 == X86_SIMD_SD - X86_SIMD_X87,
	       "the FP µop events follow enum X86_SIMD_*");
/* An FP µop event's count on a mispredicted path */
#define UARCH_FP_WP(ev) ((ev) + (UARCH_EV_FP_X87_WP - UARCH_EV_FP_X87))
_Static_assert(UARCH_FP_WP(UARCH_EV_FP_LOAD) == UARCH_EV_FP_LOAD_WP,
	       "the wrong-path FP µop events follow the retired ones");

/* An instruction's µops, kept in the room its decoded form has for them
 * (x86_insn.aux) once cracked for an access pattern: the pattern
 * (trace nmem, load, store) is the instruction's own but for string
 * operations, which crack anew when it differs. */
#define PLAN_UOPS 4
struct plan {
	uint8_t n; /* µops (0: not cracked yet) */
	uint8_t nmem, load, store;
	struct uop u[PLAN_UOPS];
};

/* Crack tr into u[] (room for 8): loads first, the operation, then the
 * store's address and data; returns the number of µops. */
int uarch_crack(const struct x86_trace *tr, struct uop *u);
/* Whether an instruction of class xc is microcoded (the complex µop
 * class): the classes from X86_XC_X87_COMPLEX on. */
static inline int uarch_microcoded(unsigned xc)
{
	return xc >= X86_XC_X87_COMPLEX;
}

/* The µop-queue events of an instruction's n µops at cycle, but the
 * trace cache's deliveries when not building (the common case, which
 * the callers count): from the microcode ROM if microcoded (rom), with a
 * switch to the ROM (UARCH_EV_MS_XFER); else from the trace cache while
 * it builds. */
static inline void uopq_other(struct uarch *u, struct uth *t, int th, unsigned n, int rom,
			      uint64_t cycle)
{
	if (rom) {
		count(u, t, th, UARCH_EV_UOPQ_ROM, n, cycle);
		count(u, t, th, UARCH_EV_MS_XFER, 1, cycle);
	} else {
		count(u, t, th, UARCH_EV_UOPQ_BUILD, n, cycle);
	}
}

/* Registers an instruction's memory addresses depend on. */
static inline uint64_t addr_deps(const struct x86_insn *i)
{
	uint64_t d = 0;
	switch (i->imp) {
	case X86_IMP_PUSH:
	case X86_IMP_POP:
		return X86_DEP_GPR(X86_RSP);
	case X86_IMP_LEAVE:
		return X86_DEP_GPR(X86_RBP);
	case X86_IMP_NONE:
		break;
	default:
		return X86_DEP_GPR(X86_RSI) | X86_DEP_GPR(X86_RDI) | X86_DEP_GPR(X86_RCX);
	}
	if (i->base < 16)
		d |= X86_DEP_GPR(i->base);
	if (i->index < 16)
		d |= X86_DEP_GPR(i->index);
	return d;
}

static inline enum uarch_br br_kind(unsigned xc)
{
	switch (xc) {
	case X86_XC_JMP:
		return UARCH_BR_JMP;
	case X86_XC_JMP_IND:
		return UARCH_BR_IND;
	case X86_XC_CALL:
		return UARCH_BR_CALL;
	case X86_XC_CALL_IND:
		return UARCH_BR_CALL_IND;
	case X86_XC_RET:
		return UARCH_BR_RET;
	default:
		return UARCH_BR_COND;
	}
}

static inline int is_branch(unsigned xc)
{
	return xc >= X86_XC_JCC && xc <= X86_XC_RET;
}

#endif
