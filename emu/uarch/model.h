/* model.h — the timing model of one core: consumes retired instructions
 * (struct x86_trace) of one or two logical processors, assigns cycles and
 * counts events (events.h). */
#ifndef VPMU_UARCH_MODEL_H
#define VPMU_UARCH_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "../x86/x86.h"
#include "events.h"
#include "params.h"

struct uarch;

/* The model of machine m, counting into *cnt (which may be shared memory). */
struct uarch *uarch_new(const struct uarch_machine *m, struct uarch_counts *cnt, uint64_t seed);
void uarch_free(struct uarch *u);
/* Bytes of room the model keeps per decoded instruction
 * (x86_cache_set_aux()): what it derives from the instruction once. */
size_t uarch_insn_aux_size(void);
/* Count into *cnt from now on (a forked child counts into its own slot). */
void uarch_set_counts(struct uarch *u, struct uarch_counts *cnt);
const struct uarch_machine *uarch_machine(const struct uarch *u);

/* Add the events counted so far to the counts (the model batches them;
 * done at every syscall and every 64K instructions; call before exit). */
void uarch_flush(struct uarch *u);
/* One instruction retired by logical processor th (0 or 1). */
void uarch_retire(struct uarch *u, int th, const struct x86_trace *t);
/* n instructions retired by th, in order (as n calls of uarch_retire()). */
void uarch_retire_block(struct uarch *u, int th, const struct x86_trace *t, unsigned n);
/* A system call by th: the kernel cost model (cycles and cache lines at
 * privilege level kernel), io = bytes the call moved to or from a file or
 * device (bus I/O transactions). */
/* Data a system call moved between memory and a file or device: the bus
 * carries it as I/O-agent line transactions, which snoop the caches. */
struct uarch_io {
	uint64_t addr; /* the buffer in guest memory (0: not one buffer, no snoop) */
	uint64_t len;  /* bytes */
	int out;       /* memory to the device (write), else into memory (read) */
};
void uarch_syscall(struct uarch *u, int th, long nr, const struct uarch_io *io);
/* A store of logical processor th's last retired instruction wrote into
 * code the front end had fetched, in the len bytes at addr: the pipeline
 * is cleared and refetches, and the trace cache (or instruction cache)
 * drops its lines there. */
void uarch_machine_clear_smc(struct uarch *u, int th, uint64_t addr, uint64_t len);
/* Logical processor th's clock: the cycle its next instruction is fetched
 * (SMT interleaves the two processors by it). */
uint64_t uarch_now(const struct uarch *u, int th);
/* Logical processor th, halted (no thread of its own to run), resumes at
 * cycle: its front end starts there; the cycles it was halted are not
 * its own (a thread created or woken by one on the other processor
 * starts no earlier than that processor's clock). */
void uarch_resume(struct uarch *u, int th, uint64_t cycle);
/* The logical processors that have a thread to run, a bit each (0: no
 * change): both make dual-thread mode (the reorder buffer and queues are
 * partitioned); signals wait only for those. */
void uarch_set_active(struct uarch *u, unsigned mask);
/* Translations changed (munmap, mprotect): drop TLB contents. */
void uarch_flush_tlbs(struct uarch *u);

/* What a PMU listening to the model receives: the signals (events.h) the
 * model raised since the last delivery, in the order raised.  A delivery
 * follows each retired instruction (tr, retiring in cycle retire), each
 * system call (tr NULL, kernel 1) and each walk down a mispredicted path
 * (tr NULL); a full buffer is delivered early (tr NULL). */
struct uarch_delivery {
	int th, kernel;		    /* logical processor, privilege */
	const struct x86_trace *tr; /* the instruction that retired, or NULL */
	uint64_t retire;	    /* cycle its last µop retired */
	uint64_t frontier;	    /* no later signal is stamped before this cycle */
	int threads;		    /* logical processors active: 1 or 2 */
	const struct uarch_sig *sig;
	unsigned nsig;
	/* Only for a sink with want_insn: the instructions fetched since the
	 * last delivery, in fetch order — the one that retired (tr), the
	 * walk down a mispredicted path (aborted), or with insn_batch those
	 * of a block — else NULL and 0. */
	const struct uarch_insn *insn;
	unsigned ninsn;
	uint8_t dsrc; /* where tr's loads found their data (uarch.h UARCH_DSRC_*; 0: none) */
};

/* One fetched instruction as the pipeline timed it (instruction sampling,
 * such as the 21264's ProfileMe, needs every stage).  Cycles: fetched,
 * mapped (register renaming, after the slot stage), last µop issued,
 * last µop complete (ready to retire) and retired; an aborted
 * instruction's retire is the cycle it was killed, and the stages it never
 * reached are 0. */
struct uarch_insn {
	uint64_t pc;
	uint64_t fetch, map, issue, complete, retire;
	uint32_t flags; /* UARCH_I_* */
	uint8_t dsrc;	/* where its loads found their data (uarch.h UARCH_DSRC_*; 0: none) */
	/* the delivery's frontier had it come alone (a mispredicted path's
	 * records: all of them together) */
	uint64_t frontier;
};
#define UARCH_I_ABORTED 0x001	  /* on a mispredicted path, killed when the branch resolved */
#define UARCH_I_ICACHE_MISS 0x002 /* its fetch missed the instruction cache */
#define UARCH_I_ITB_MISS 0x004	  /* its fetch missed the instruction TLB */
#define UARCH_I_DTB_MISS 0x008	  /* an access of it missed the data TLB */
#define UARCH_I_BRANCH 0x010
#define UARCH_I_TAKEN 0x020
#define UARCH_I_MISPREDICT 0x040
#define UARCH_I_REPLAY 0x080	/* a load overlapping an older in-flight store (order trap) */
#define UARCH_I_UNALIGNED 0x100 /* an access not aligned to its size */
#define UARCH_I_DC_MISS 0x200	/* a load missed the L1 data cache */
#define UARCH_I_L2_MISS 0x400	/* a load missed the second level (Bcache) */
#define UARCH_I_LOAD 0x800	/* has a load */
#define UARCH_I_STORE 0x1000	/* has a store */

/* The events a sink takes as sums, not yet handed over: n × dur of every
 * signal with n <= sum_max, by logical processor and privilege. */
struct uarch_sums {
	int threads; /* logical processors active while they were raised */
	const uint64_t (*n)[2][2];
	uint64_t frontier; /* no event raised later is stamped before this cycle */
	uint64_t retire;   /* the latest cycle an instruction retired in */
};

struct uarch_sink {
	void (*deliver)(void *ctx, const struct uarch_delivery *d);
	void *ctx;
	uint8_t want[UARCH_NEV]; /* which events to signal */
	/* Optional: a signalled event's signals with n below sig_min[ev] are
	 * not raised (a load latency under an EAR's threshold) */
	uint32_t sig_min[UARCH_NEV];
	uint8_t want_insn; /* deliver struct uarch_insn records */
	/* Optional, with want_insn: a block's records (and its mispredicted
	 * path's) may come in one delivery without an instruction (tr NULL),
	 * each stamped with the frontier its own delivery would have had */
	uint8_t insn_batch;
	/* Optional (zero: every wanted event is signalled).  A counter that
	 * only adds its input needs no cycles, order or batching: events
	 * with sum[] set (and want[]) are summed instead of signalled and
	 * handed to sums() at every system call, change of active logical
	 * processors and uarch_flush(); a signal with n above sum_max is
	 * still signalled.  With quiet, a retirement that raised no signal
	 * is not delivered at all. */
	void (*sums)(void *ctx, const struct uarch_sums *s);
	uint8_t sum[UARCH_NEV];
	uint32_t sum_max;
	uint8_t quiet;
	/* Optional, for sums that depend on the cycle (multiplexed counters
	 * take turns): *cut is a cycle; an event stamped at or after it (a
	 * duration reaching it) is signalled even if summed, and the sums are
	 * handed over as soon as the frontier reaches it.  The sink may move
	 * *cut in deliver() and sums(); the model reads it after each. */
	uint64_t *cut;
	/* Optional, for sums that may only grow so far (a sampling counter
	 * must see the events that carry it over one by one): see struct
	 * uarch_budget. */
	struct uarch_budget *budget;
};

/* How far a sink's sums may grow before it takes them.  After each
 * sums() the model reads n[]: of event ev it sums at most n[ev] (~0: no
 * limit; 0: none, every one is signalled) until the next sums(), and
 * signals the rest (the sink, seeing them, moves *cut to take the sums:
 * a sink with a budget uses its cut only for that, so events every
 * instruction raises and that have no limit may be summed past it).
 * A retirement is delivered when it raised signals, or when loud, or
 * when the sink is not quiet; the model reads loud after each deliver()
 * and sums().  The model sets on while it keeps to the budget: a sink
 * wrapped by another (which sums only unlimited events) sees it clear. */
struct uarch_budget {
	uint64_t n[UARCH_NEV];
	uint8_t loud;
	uint8_t on;
};

/* Attach a listening PMU (NULL detaches).  0, or -1 out of memory. */
int uarch_set_sink(struct uarch *u, const struct uarch_sink *s);

#endif
