/* ia64.h — the Itanium 2 counter hardware, internal to arch/ia64.
 *
 * Register layouts from seed 001 (the PMC fields and their meaning) and
 * the Intel Itanium 2 Processor Reference Manual for Software Development
 * and Optimization, ch. 10 "Performance Monitoring" [i2rm]; EAR and BTB
 * configuration registers as Linux perfmon and libpfm lay them out for
 * Itanium 2 (pfmlib_itanium2.h) [pfm]; event codes, counter constraints
 * and unit masks from ../shared/reference/oprofile-events/ia64_itanium2.*
 * [op]; machine figures from ../shared/reference/machines.md [mach].
 *
 *   counter.c  PMC4-7 / PMD4-7: plm, pm with PSR.up/PSR.pp, ism with
 *              PSR.is, threshold on per-cycle values, 47-bit overflow,
 *              PMC0 freeze and overflow bits, oi and ev
 *   events.c   the event table: select codes, unit masks, and the model
 *              signals each counts (or why the model cannot produce it)
 *   pmu.c      the backend (arch.h): specs to PMC images, assignment
 *   run.c      the hardware at run time: routing, sampling
 *   ear.c      the EARs: PMC10 modes and thresholds, captures of both EARs
 *   btb.c      the branch trace buffer: PMC12 filters, PMD8-16 ring
 */
#ifndef VPMU_ARCH_IA64_H
#define VPMU_ARCH_IA64_H

#include <stdint.h>

#include "../../emu/uarch/events.h"
#include "../arch.h"

#define IA64_NCTR 4	 /* PMC4..PMC7 / PMD4..PMD7 [i2rm] 10.2 */
#define IA64_CTR_BITS 47 /* generic counters are 47 bits [i2rm] 10.2, [mach] */
#define IA64_CTR_MASK ((1ull << IA64_CTR_BITS) - 1)

/* PMC4..7 fields (seed 001; [pfm] pmc_ita2_counter_reg) */
#define IA64_PMC_PLM_MASK 0xfu /* bits 3:0, one bit per privilege level */
#define IA64_PMC_EV (1u << 4)  /* external notification on overflow (BPM pin) */
#define IA64_PMC_OI (1u << 5)  /* overflow interrupt, sets PMC0.fr */
#define IA64_PMC_PM (1u << 6)  /* privileged monitor: enabled by PSR.pp, not PSR.up */
/* Event select: seed 001 gives bits 14:8 (Itanium's 7-bit field);
 * Itanium 2 codes reach 0xdf and take bits 15:8 [pfm] */
#define IA64_PMC_ES_SHIFT 8
#define IA64_PMC_ES_MASK 0xffu
#define IA64_PMC_UMASK_SHIFT 16 /* bits 19:16 unit mask */
#define IA64_PMC_UMASK_MASK 0xfu
#define IA64_PMC_THRES_SHIFT 20 /* bits 22:20 on PMC4/5, 21:20 on PMC6/7 */
#define IA64_PMC_THRES_MASK 0x7u
#define IA64_PMC_ISM_SHIFT 24 /* bits 25:24 instruction set mask */
#define IA64_PMC_ISM_MASK 0x3u
#define IA64_ISM_NO_IA64 1u /* bit 24 set: not during IA-64 code (PSR.is 0) */
#define IA64_ISM_NO_IA32 2u /* bit 25 set: not during IA-32 code (PSR.is 1) */

/* PMC0 [i2rm] 10.2: bit 0 freeze, bits 7:4 overflow of PMD4..7 */
#define IA64_PMC0_FR 1u
#define IA64_PMC0_OVF_SHIFT 4

/* Privilege levels as PLM bits: guest code runs at level 3, the kernel
 * (system calls) at level 0 (seed 001). */
#define IA64_PLM_USER 0x8u
#define IA64_PLM_KERNEL 0x1u

/* PMC11, the data EAR [pfm] pmc11_ita2_reg */
#define IA64_DEAR_PLM_MASK 0xfu
#define IA64_DEAR_PM (1u << 6)
#define IA64_DEAR_MODE_SHIFT 7 /* bits 8:7: 0 L1D cache, 1 DTLB, 2 ALAT */
#define IA64_DEAR_MODE_MASK 0x3u
#define IA64_DEAR_UMASK_SHIFT 16 /* bits 19:16 */
#define IA64_DEAR_UMASK_MASK 0xfu
#define IA64_DEAR_ISM_SHIFT 24
enum { IA64_DEAR_CACHE, IA64_DEAR_TLB, IA64_DEAR_ALAT };
/* Cache mode captures loads whose latency is at least 4 << umask cycles
 * (DATA_EAR_CACHE_LAT4 .. LAT4096: umask 0 .. 10) [pfm] */
#define IA64_DEAR_LAT_MAX_UMASK 10

/* PMC11 in TLB mode: umask bits select which L1 DTLB misses are captured
 * [pfm] (DATA_EAR_TLB_*); PMD3.stat says which one a capture was */
#define IA64_DEAR_TLB_L2 0x2u	 /* hit the L2 DTLB */
#define IA64_DEAR_TLB_VHPT 0x4u	 /* the hardware page walker (VHPT) found it */
#define IA64_DEAR_TLB_FAULT 0x8u /* the software TLB-miss handler did */

/* PMC10, the instruction EAR [pfm] pmc10_ita2_{cache,tlb}_reg: plm 3:0,
 * pm 4, then ct 13 (1: cache mode, umask 12:5) or ct 13:12 = 00 (TLB mode,
 * umask 11:5; 01 monitors nothing), ism 15:14 */
#define IA64_IEAR_PLM_MASK 0xfu
#define IA64_IEAR_PM (1u << 4)
#define IA64_IEAR_UMASK_SHIFT 5
#define IA64_IEAR_CACHE (1u << 13)
#define IA64_IEAR_CT_NONE (1u << 12) /* with bit 13 clear: nothing monitored */
#define IA64_IEAR_ISM_SHIFT 14
#define IA64_IEAR_FIELDS 0x3fe0u /* ct and umask: what a unit mask value sets */
/* TLB mode umask (L1I_EAR_TLB_*) and PMD0.stat of a TLB capture */
#define IA64_IEAR_TLB_L2 0x1u
#define IA64_IEAR_TLB_VHPT 0x2u
#define IA64_IEAR_TLB_FAULT 0x4u
/* PMD1: latency 11:0, bit 12 the latency overflowed [pfm] pmd1_ita2_reg */
#define IA64_IEAR_LAT_MAX 0xfffu
#define IA64_IEAR_LAT_OV (1u << 12)

enum { IA64_EAR_OFF, IA64_EAR_CACHE_MODE, IA64_EAR_TLB_MODE };
/* PMC10's mode. */
int ia64_iear_mode(uint32_t pmc10);
/* Cache mode: the latency threshold the umask field encodes (0: every L1I
 * miss), -1 for an encoding the manual leaves undefined, -2 for RAB hits
 * (00xxxxxx). */
int ia64_iear_threshold(uint32_t pmc10);
/* Whether an EAR with this plm/ism configuration captures at level cpl
 * (IA-32 code at 3, the IA-64 kernel at 0). */
int ia64_ear_level_ok(unsigned plm, unsigned ism, unsigned cpl);

/* Both EARs' configuration and what they hold: PMD0/PMD1 (instruction
 * EAR), PMD17/PMD2/PMD3 (data EAR). */
struct ia64_ears {
	uint32_t pmc10, pmc11;
	int iear_lat;	   /* PMC10 cache-mode threshold; -1: no cache mode capture */
	uint32_t dear_lat; /* PMC11 cache-mode threshold, 4 << umask */
	uint64_t pmd0;	   /* 32-byte fetch block | stat */
	uint32_t pmd1;	   /* latency | overflow */
	uint64_t iaddr;	   /* the instruction whose fetch PMD0 names */
	uint64_t dear_iaddr, dear_daddr;
	uint32_t dear_latency;
	uint8_t dear_stat; /* cache mode 1; TLB mode 1 L2 DTLB, 2 VHPT */
};

void ia64_ears_start(struct ia64_ears *x, uint32_t pmc10, uint32_t pmc11);
/* Each offers the EAR one event at level cpl: 1 when it captured it.
 * A fetch of pc that missed the L1I taking lat cycles (cache mode); one
 * that missed the L1 ITLB, walked when the page walker translated it
 * (TLB mode); a load of daddr by pc of latency lat (PMC11 cache mode);
 * an access that missed the L1 DTLB (PMC11 TLB mode). */
int ia64_iear_fetch(struct ia64_ears *x, unsigned cpl, uint64_t pc, uint32_t lat);
int ia64_iear_tlb(struct ia64_ears *x, unsigned cpl, uint64_t pc, int walked);
int ia64_dear_load(struct ia64_ears *x, unsigned cpl, uint64_t pc, uint64_t daddr, uint32_t lat);
int ia64_dear_tlb(struct ia64_ears *x, unsigned cpl, uint64_t pc, uint64_t daddr, int walked);

/* PMC12, the branch trace buffer configuration [pfm] pmc12_ita2_reg */
#define IA64_BTB_PLM_MASK 0xfu
#define IA64_BTB_PM (1u << 6)
#define IA64_BTB_DS (1u << 7) /* 1: PMD8-15 hold prediction state, not addresses */
#define IA64_BTB_TM_SHIFT 8   /* taken mask: 2 taken, 1 not taken, 3 both, 0 none */
#define IA64_BTB_PTM_SHIFT 10 /* target mask: 2 predicted right, 1 wrong, 3 both */
#define IA64_BTB_PPM_SHIFT 12 /* predicate (direction) mask, likewise */
#define IA64_BTB_BRT_SHIFT 14 /* type: 0 all, 1 IP-relative, 2 returns, 3 other indirect */
#define IA64_BTB_ALL (3u << IA64_BTB_TM_SHIFT | 3u << IA64_BTB_PTM_SHIFT | 3u << IA64_BTB_PPM_SHIFT)
#define IA64_BTB_TAKEN \
	(2u << IA64_BTB_TM_SHIFT | 3u << IA64_BTB_PTM_SHIFT | 3u << IA64_BTB_PPM_SHIFT)
enum { IA64_BR_IPREL = 1, IA64_BR_RET = 2, IA64_BR_IND = 3 };

/* PMD8-15 (ds 0): b bit 0 (1 the branch, 0 its target), mp bit 1
 * (mispredicted), slot 3:2 (3: a branch not taken), address 63:4 */
#define IA64_BTB_NENT 8
#define IA64_BTB_B 1u
#define IA64_BTB_MP 2u
#define IA64_BTB_SLOT_SHIFT 2
#define IA64_BTB_SLOT_NT 3u
/* PMD16: bbi 2:0 the entry written next, full bit 3 (sticky) */
#define IA64_BTB_FULL (1u << 3)

struct ia64_branch {
	uint64_t from, to; /* to: where control went (the fall-through when not taken) */
	uint8_t type;	   /* IA64_BR_* */
	uint8_t taken;
	uint8_t mp_dir; /* direction (predicate) mispredicted */
	uint8_t mp_tgt; /* target mispredicted */
	uint8_t cpl;	/* privilege level it retired at */
};

struct ia64_btb {
	uint32_t pmc12;
	uint64_t pmd[IA64_BTB_NENT];
	/* The byte address of each entry: IA-32 instructions are not aligned
	 * to the 16-byte bundles the PMD's address field holds. */
	uint64_t addr[IA64_BTB_NENT];
	uint8_t bbi, full;
};

void ia64_btb_start(struct ia64_btb *b, uint32_t pmc12);
/* Whether PMC12 captures branch br. */
int ia64_btb_wants(uint32_t pmc12, const struct ia64_branch *br);
/* Capture br if PMC12 selects it: 1 when it was written. */
int ia64_btb_record(struct ia64_btb *b, const struct ia64_branch *br);
uint64_t ia64_btb_pmd16(const struct ia64_btb *b);
/* The captured branches newest first, as source/target pairs (a branch
 * not taken has to 0): at most max, returns how many. */
unsigned ia64_btb_read(const struct ia64_btb *b, struct arch_branch *out, unsigned max);

/* The raw form `-e r<hex>` takes: bits 31:0 the PMC4..7 image, bits 63:32
 * the low half of the register the event needs (PMC11 for
 * DATA_EAR_EVENTS, PMC10 for L1I_EAR_EVENTS, PMC12 for BRANCH_EVENT); a
 * vpmu convention, as a counter and its EAR or BTB are two registers. */
#define IA64_CONFIG_AUX_SHIFT 32

/* ---- the event table (events.c) ---- */

#define IA64_NSIG 10
/* A model signal counted with a weight (+1, or -1 to subtract a subset
 * raised in the same cycle, e.g. correctly predicted = all - mispredicted). */
struct ia64_sig {
	uint16_t ev; /* UARCH_EV_*; UARCH_NEV ends the list */
	int8_t w;
};

struct ia64_umask_desc {
	const char *name;
	uint32_t val; /* PMC umask field; for EAR events the EAR register's fields */
	struct ia64_sig sig[IA64_NSIG];
	const char *desc;
	const char *unsupported;
};

enum ia64_kind {
	IA64_K_PLAIN,
	IA64_K_DEAR,   /* DATA_EAR_EVENTS: counts data EAR captures */
	IA64_K_OUT_HI, /* per-cycle value's bits 4:3 */
	IA64_K_OUT_LO, /* per-cycle value's bits 2:0 */
	IA64_K_IEAR,   /* L1I_EAR_EVENTS: counts instruction EAR captures */
	IA64_K_BTB,    /* BRANCH_EVENT: counts branches the BTB captured */
};

struct ia64_event_desc {
	const char *name;
	uint8_t code;	 /* PMC.es */
	uint8_t ctrmask; /* counters it can use: bit k = PMC(4+k) */
	uint8_t kind;	 /* enum ia64_kind */
	const struct ia64_umask_desc *um;
	uint8_t num;
	uint32_t defmask;
	struct ia64_sig sig[IA64_NSIG]; /* events without unit masks */
	const char *desc;
	const char *unsupported;
};

extern const struct ia64_event_desc ia64_events[];
extern const unsigned ia64_nevents;

/* The unit mask entry of event d whose value is val, or NULL. */
const struct ia64_umask_desc *ia64_umask_of(const struct ia64_event_desc *d, uint32_t val);
/* Index of the event with select code es (the first of equals), or -1. */
int ia64_event_by_code(unsigned es);

/* ---- counting (counter.c) ---- */

#define IA64_RING 8192 /* cycles of per-cycle values a counter keeps pending */

struct ia64_hw {
	uint64_t pmc0;		 /* freeze and overflow bits */
	uint32_t pmc[IA64_NCTR]; /* PMC4..7 */
	uint64_t pmd[IA64_NCTR]; /* PMD4..7, 47 bits */
	uint8_t psr_up, psr_pp;	 /* user and privileged monitors enabled */
	uint8_t psr_is;		 /* 1: the processor executes IA-32 instructions */
};

struct ia64_cstate {
	uint8_t percycle; /* threshold or a bit-field transform: per-cycle values */
	uint8_t kind;	  /* enum ia64_kind (transform) */
	uint64_t total;	  /* increments since programmed (the 64-bit value reported) */
	int32_t v[IA64_RING];
};

struct ia64_engine {
	struct ia64_hw hw;
	struct ia64_cstate cs[IA64_NCTR];
	uint64_t done; /* cycles before this are final for per-cycle counters */
	/* Counter ctr overflowed at cycle with oi set: the interrupt (PMC0.fr
	 * is set, every counter is frozen until software clears it). */
	void (*pmi)(void *arg, int ctr, uint64_t cycle);
	/* Counter ctr overflowed with ev set: the BPM pin strobes. */
	void (*notify)(void *arg, int ctr, uint64_t cycle);
	void *arg;
};

/* Take the registers in e->hw as written; kind[k] is counter k's event
 * kind (enum ia64_kind), NULL: all plain. */
void ia64_engine_start(struct ia64_engine *e, const uint8_t *kind);
/* Whether counter ctr counts now an event of privilege level cpl (0-3):
 * plm, pm with PSR.up/PSR.pp, ism with PSR.is, PMC0.fr. */
int ia64_engine_counts(const struct ia64_engine *e, int ctr, unsigned cpl);
/* The event's value v in each cycle of [cycle, cycle + dur) at level cpl. */
void ia64_engine_input(struct ia64_engine *e, int ctr, uint64_t cycle, int32_t v, uint32_t dur,
		       unsigned cpl);
/* n events at level cpl for a counter without per-cycle values (a sum;
 * an overflow is stamped at cycle). */
void ia64_engine_add(struct ia64_engine *e, int ctr, uint64_t n, uint64_t cycle, unsigned cpl);
/* Every cycle before frontier is complete. */
void ia64_engine_advance(struct ia64_engine *e, uint64_t frontier);
/* Software's interrupt handler: write PMD ctr, clear its overflow bit and
 * PMC0.fr (counting resumes). */
void ia64_engine_rearm(struct ia64_engine *e, int ctr, uint64_t pmd);

#endif
