/* uarch.h — the timing model of the emulated machine.
 *
 * emu/x86 executes instructions functionally; in timed mode it hands every
 * retired instruction to the model as a struct uarch_rec (what it did:
 * memory addresses, branch outcome, rep iterations).  The model splits it
 * into µops, runs them through caches, TLBs, predictors, the pipeline and
 * the bus, assigns cycles, and raises event signals for the PMUs.
 *
 * Components, each with its own header, configuration struct and tests:
 *   cache.h   one cache level (any geometry, replacement, write policy)
 *   tlb.h     one TLB level
 *   bpred.h   direction predictors (bimodal, gshare, 21264 tournament),
 *             BTB, return stack, indirect targets
 *   params.h  the parameter sets of the four machines and --set KEY=VAL
 *   (pipeline, memory system, SMT: the model proper, uarch.c & co.)
 * Names: uarch_<component>_*.  Nothing here knows files, symbols or output.
 */
#ifndef VPMU_UARCH_H
#define VPMU_UARCH_H

#include <stdint.h>

/* Replacement policies (cache and TLB). */
enum uarch_repl { UARCH_REPL_LRU, UARCH_REPL_RR, UARCH_REPL_RANDOM };

/* Write policies: write-back or write-through, allocate on a write miss or not. */
enum uarch_wpol { UARCH_WB_ALLOC, UARCH_WB_NOALLOC, UARCH_WT_ALLOC, UARCH_WT_NOALLOC };

/* Branch kinds as the predictors see them. */
enum uarch_br {
	UARCH_BR_COND,	   /* jcc, loop, jrcxz */
	UARCH_BR_JMP,	   /* direct unconditional */
	UARCH_BR_IND,	   /* indirect jmp */
	UARCH_BR_CALL,	   /* direct call */
	UARCH_BR_CALL_IND, /* indirect call */
	UARCH_BR_RET,
};

/* A second address space on the core (the second of two programs, whose
 * data lie at the same guest addresses as the first's): its data
 * addresses carry this bit, standing for page frames of their own. */
#define UARCH_SPACE_BIT (1ull << 47)

/* Miss classes (Hill's three Cs) for report views. */
enum uarch_miss { UARCH_HIT, UARCH_MISS_COMPULSORY, UARCH_MISS_CAPACITY, UARCH_MISS_CONFLICT };

/* Where an instruction's loads found their data: the deepest level any of
 * its lines came from (1: the first data level, 2 the second, ...;
 * UARCH_DSRC_MEM memory) and, for a first-level miss of a cache that
 * classifies (<cache>.classify), the first such miss's class (enum
 * uarch_miss). */
#define UARCH_DSRC_MEM 15
#define UARCH_DSRC_LEVEL(d) ((d)&0xf)
#define UARCH_DSRC_CLASS(d) ((d) >> 4)

#endif
