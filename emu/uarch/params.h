/* params.h — machine parameters: one struct per machine holding every
 * figure of the timing model, the four built-in sets (p4, ia64, xscale,
 * alpha), and the --set KEY=VAL[,KEY=VAL…] overrides (keys named
 * <structure>.<field>, e.g. l1d.size, bp.penalty, core.rob). */
#ifndef VPMU_UARCH_PARAMS_H
#define VPMU_UARCH_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "bpred.h"
#include "cache.h"
#include "tlb.h"

/* µop classes: what the pipeline schedules and what latencies attach to. */
enum uarch_uclass {
	UARCH_UC_INT,	/* simple integer ALU, moves, lea */
	UARCH_UC_SHIFT, /* shifts and rotates */
	UARCH_UC_IMUL,
	UARCH_UC_IDIV,
	UARCH_UC_BRANCH,
	UARCH_UC_LOAD,
	UARCH_UC_STA,  /* store address */
	UARCH_UC_STD,  /* store data */
	UARCH_UC_FADD, /* x87/SSE floating add, compare, convert */
	UARCH_UC_FMUL,
	UARCH_UC_FDIV, /* divide and square root */
	UARCH_UC_FMOV, /* FP/SIMD register moves, shuffles, logic */
	UARCH_UC_SIMD, /* packed integer */
	UARCH_UC_SIMD_MUL,
	UARCH_UC_COMPLEX, /* microcoded: cpuid, string setup, transcendental x87… */
	UARCH_NUCLASS
};

struct uarch_core_cfg {
	uint8_t ooo;	 /* 1: out-of-order (p4, alpha); 0: in-order (xscale, ia64) */
	uint8_t threads; /* logical processors on the core (2: Hyper-Threading) */
	uint16_t fetch;	 /* instructions (or µops from a trace cache) per cycle */
	uint16_t issue;	 /* µops issued per cycle */
	uint16_t retire; /* µops retired per cycle */
	uint16_t rob; /* reorder buffer / in-flight window; halved per thread in dual-thread mode */
	uint16_t iq;  /* issue-queue entries (integer queue when fq is not 0) */
	uint16_t fq;  /* floating-point issue-queue entries (0: FP µops share iq) */
	uint16_t lq, sq;		/* load and store queue entries */
	uint16_t depth;			/* front-end stages, fetch to first possible issue */
	uint16_t lat[UARCH_NUCLASS];	/* result latency, cycles */
	uint16_t units[UARCH_NUCLASS];	/* units that can start one per cycle */
	uint16_t occupy[UARCH_NUCLASS]; /* cycles a unit stays busy (1 = pipelined; divides > 1) */
	uint8_t replay;		 /* P4 replay: dependents of a missing load are re-executed */
	uint8_t fwd_start;	 /* a store forwards only to a load that starts where it does (and,
			    * 16 bytes, is 16-byte aligned) */
	uint32_t mhz;		 /* core clock, for seconds and GHz figures */
	uint16_t syscall_cycles; /* kernel-mode cycles charged per syscall (cost model) */
	uint16_t syscall_lines;	 /* kernel cache lines touched per syscall (cost model) */
	uint16_t assist;	 /* cycles from a floating-point assist's retirement to the refetch
			  * after it (0: the machine takes no assists) */
};

struct uarch_mem_cfg {
	uint16_t mshr;	     /* outstanding misses (fill buffers) */
	uint16_t wbuf;	     /* write-buffer entries */
	uint16_t wbuf_line;  /* bytes an entry holds: stores to the same aligned block
			      * coalesce into it while it waits (0: no coalescing) */
	uint16_t latency;    /* memory access latency, core cycles, from request to first data */
	uint16_t bus_width;  /* bytes per transfer */
	uint16_t bus_ratio;  /* core cycles per bus clock */
	uint8_t pump;	     /* transfers per bus clock (4: quad-pumped) */
	uint8_t addr_cycles; /* bus clocks of address phase per transaction */
	/* the hardware data prefetcher in front of the last level (prefetch.h):
	 * streams it follows (0: none), the distance in bytes within which two
	 * misses start one, and the bytes it runs ahead of the accesses */
	uint16_t pf_streams, pf_trigger, pf_ahead;
	uint8_t pf_adjacent; /* a data read missing the last level reads the rest of its line */
};

#define UARCH_NCACHE 6
enum { UARCH_L1I, UARCH_L1D, UARCH_L2, UARCH_L3, UARCH_L4, UARCH_MINI };
#define UARCH_NTLB 4
enum { UARCH_ITLB, UARCH_DTLB, UARCH_ITLB2, UARCH_DTLB2 };

struct uarch_machine {
	const char *name; /* "p4", "ia64", "xscale", "alpha" */
	const char *desc;
	struct uarch_core_cfg core;
	struct uarch_bp_cfg bp;
	struct uarch_cache_cfg cache[UARCH_NCACHE]; /* size 0 = absent */
	struct uarch_tlb_cfg tlb[UARCH_NTLB];	    /* entries 0 = absent */
	struct uarch_mem_cfg mem;
	uint8_t l1i_is_tc; /* p4: the L1I slot is the trace cache, looked up by address
			     * (12K µops taken as 12 KB of code); fetch width counts µops */
};

/* The built-in machine called name, or NULL. */
const struct uarch_machine *uarch_machine_find(const char *name);
/* The built-in machines, NULL-terminated. */
extern const struct uarch_machine *const uarch_machines[];

/* Apply "KEY=VAL[,KEY=VAL…]" to m.  Returns 0, or -1 with a one-line message
 * in err (unknown key with the closest suggestion, bad value, value out of
 * range, inconsistent geometry such as size not a multiple of assoc*line). */
int uarch_params_set(struct uarch_machine *m, const char *spec, char *err, size_t errsz);
/* Check a whole machine for consistency; same convention. */
int uarch_params_check(const struct uarch_machine *m, char *err, size_t errsz);
/* Every parameter as "key=value", in a stable order, through fn. */
void uarch_params_each(const struct uarch_machine *m,
		       void (*fn)(void *arg, const char *key, const char *value), void *arg);

#endif
