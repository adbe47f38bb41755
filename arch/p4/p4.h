/* p4.h — the Pentium 4 / Xeon (NetBurst) counter hardware, internal to
 * arch/p4.  Register layouts from the IA-32 SDM vol. 3B, "Performance
 * monitoring (processors based on Intel NetBurst microarchitecture)":
 * ESCR (figure "Event Selection Control Register"), CCCR (figure "Counter
 * Configuration Control Register"), and the ESCR/counter wiring tables.
 *
 *   escr.c     the 45 ESCRs and 18 counter/CCCR pairs, and their wiring
 *   events.c   the events: ESCR event select, which ESCRs detect them,
 *              event-mask bits and the model signals each bit counts
 *   bsq.c      the BSQ events' masks: one encoded request kind each
 *   tcmode.c   TC_DELIVER_MODE: both processors' trace-cache modes, per cycle
 *   counter.c  counting: threshold, complement, edge, thread mode,
 *              cascade, FORCE_OVF, overflow and PMI, on per-cycle values
 *   pmu.c      the backend (arch.h): encode/decode/assign, tagging,
 *              IEBS and PEBS sampling
 */
#ifndef VPMU_ARCH_P4_H
#define VPMU_ARCH_P4_H

#include <stdint.h>

#include "../../emu/uarch/events.h"

#define P4_NESCR 45
#define P4_NCTR 18
#define P4_CTR_BITS 40 /* SDM: counters are 40 bits wide */
#define P4_CTR_MASK ((1ull << P4_CTR_BITS) - 1)

enum p4_group { P4_BPU, P4_MS, P4_FLAME, P4_IQ };

/* ESCR fields */
#define P4_ESCR_EVENT_SHIFT 25 /* bits 30:25 event select */
#define P4_ESCR_EVENT_MASK 0x3fu
#define P4_ESCR_EMASK_SHIFT 9 /* bits 24:9 event mask */
#define P4_ESCR_EMASK_MASK 0xffffu
/* IOQ_ALLOCATION's and IOQ_ACTIVE_ENTRIES' source-agent field (event-mask
 * bits 13, 14; SDM vol. 3B, table A-9) */
#define P4_IOQ_OWN (1u << 13)
#define P4_IOQ_OTHER (1u << 14)
/* ... and their PREFETCH bit (15): hardware prefetch requests count too */
#define P4_IOQ_PREFETCH (1u << 15)
#define P4_ESCR_TAG_SHIFT 5 /* bits 8:5 tag value */
#define P4_ESCR_TAG_MASK 0xfu
#define P4_ESCR_TAG_ENABLE (1u << 4)
#define P4_ESCR_T0_OS (1u << 3)
#define P4_ESCR_T0_USR (1u << 2)
#define P4_ESCR_T1_OS (1u << 1)
#define P4_ESCR_T1_USR (1u << 0)

/* CCCR fields */
#define P4_CCCR_ENABLE (1u << 12)
#define P4_CCCR_ESEL_SHIFT 13 /* bits 15:13 ESCR select */
#define P4_CCCR_ESEL_MASK 0x7u
#define P4_CCCR_THREAD_SHIFT 16 /* bits 17:16 active thread */
#define P4_CCCR_THREAD_MASK 0x3u
enum { P4_THREAD_NONE, P4_THREAD_SINGLE, P4_THREAD_BOTH, P4_THREAD_ANY };
#define P4_CCCR_COMPARE (1u << 18)
#define P4_CCCR_COMPLEMENT (1u << 19)
#define P4_CCCR_THRESH_SHIFT 20 /* bits 23:20 threshold */
#define P4_CCCR_THRESH_MASK 0xfu
#define P4_CCCR_EDGE (1u << 24)
#define P4_CCCR_FORCE_OVF (1u << 25)
#define P4_CCCR_OVF_PMI_T0 (1u << 26)
#define P4_CCCR_OVF_PMI_T1 (1u << 27)
#define P4_CCCR_CASCADE (1u << 30)
#define P4_CCCR_OVF (1u << 31)

/* Linux perf's raw config for NetBurst: HT << 63 | ESCR << 32 | CCCR,
 * the ESCR's event-select field holding Linux's event index (enum
 * P4_EVENTS) rather than the hardware code, the CCCR's low bits the PEBS
 * metric (arch/x86/include/asm/perf_event_p4.h). */
#define P4_CONFIG_HT (1ull << 63)
#define P4_CONFIG_METRIC_MASK 0x3fu

/* MSRs of the precise-sampling machinery (SDM vol. 3B, PEBS for NetBurst) */
#define P4_MSR_PEBS_ENABLE 0x3f1
#define P4_MSR_PEBS_MATRIX_VERT 0x3f2

struct p4_escr_desc {
	const char *name; /* BSU_ESCR0 */
	uint16_t msr;
	uint8_t group; /* enum p4_group */
	uint8_t sel;   /* value of the CCCR's ESCR-select field that picks it */
	int8_t ctr[3]; /* counters it feeds (-1: none) */
};

struct p4_ctr_desc {
	const char *name; /* BPU_COUNTER0 */
	uint16_t msr, cccr_msr;
	uint8_t group;
	int8_t cascade_from; /* the counter whose overflow starts it when cascaded */
};

extern const struct p4_escr_desc p4_escr[P4_NESCR];
extern const struct p4_ctr_desc p4_ctr[P4_NCTR];

/* Index of the ESCR called name (case-insensitive), or -1. */
int p4_escr_find(const char *name);
/* The ESCR that counter ctr reads when its CCCR selects sel, or -1. */
int p4_escr_for(int ctr, unsigned sel);

/* Tagging roles (seed 004, "Obtaining nonspeculative event counts"), and
 * the events whose mask bits do not each count on their own. */
enum p4_tag {
	P4_TAG_NONE,
	P4_TAG_FRONT_END,  /* front_end_event: counts µops the front end tagged */
	P4_TAG_EXECUTION,  /* execution_event: counts µops with execution tag bits */
	P4_TAG_REPLAY,	   /* replay_event: counts µops replay tagging marked */
	P4_TAG_FE_TAGGER,  /* uop_type: with tag enable, tags µops at the front end */
	P4_TAG_EX_TAGGER,  /* FLAME µop events: with tag enable, set execution tag bits */
	P4_TAG_SOURCE,	   /* IOQ events: OWN and OTHER pick whose requests count */
	P4_TAG_BSQ,	   /* BSQ_ALLOCATION: the mask encodes one request kind (bsq.c) */
	P4_TAG_BSQ_ACTIVE, /* BSQ_ACTIVE_ENTRIES: the same, entries active each cycle */
	P4_TAG_TC_MODE,	   /* TC_DELIVER_MODE: each bit a pair of modes (tcmode.c) */
};

#define P4_NSIG 7
/* One event-mask bit. */
struct p4_ebit {
	const char *name; /* Linux / SDM mnemonic, upper case */
	uint8_t bit;
	uint16_t sig[P4_NSIG]; /* model signals it counts, summed; UARCH_NEV ends the list */
	const char *desc;
	const char *unsupported; /* NULL, or why the model cannot produce it */
};

struct p4_event_desc {
	const char *name; /* upper case, the SDM's name */
	uint8_t code;	  /* ESCR event select */
	uint8_t linux_id; /* index in Linux's enum P4_EVENTS */
	int8_t escr[2];	  /* ESCRs that detect it (-1: none) */
	const struct p4_ebit *bits;
	uint8_t nbits;
	uint16_t defmask;
	uint8_t tag;	/* enum p4_tag */
	uint8_t shared; /* thread-independent: counts both processors' activity */
	const char *desc;
	const char *unsupported; /* NULL, or why no bit of it can be produced */
};

extern const struct p4_event_desc p4_events[];
extern const unsigned p4_nevents;

/* The model signal that counts the bus requests a BSQ event's mask
 * encodes (active: their entries active, each cycle) in *sig: 0; 1 if
 * the model makes no such request or keeps no entry for it, -1 if the
 * mask is no encoding, *why saying why. */
int p4_bsq_signal(uint32_t mask, int active, unsigned *sig, const char **why);

/* ---- TC_DELIVER_MODE (tcmode.c) ---- */

/* What a processor's spans tell: active (counting cycles), in kernel
 * mode, building traces, inactive though active (microcode ROM, clearing). */
enum { P4_TCM_ACTIVE, P4_TCM_KERNEL, P4_TCM_BUILD, P4_TCM_IDLE, P4_TCM_NKIND };

struct p4_tcm_span {
	uint64_t from, to;
};

/* A ring of spans, grown as a processor runs ahead of the other. */
struct p4_tcm_list {
	struct p4_tcm_span *s;
	unsigned cap, head, n;
};

struct p4_tcm {
	struct p4_tcm_list l[2][P4_TCM_NKIND];
	uint64_t done; /* cycles before this are handed out */
};

/* A stretch of cycles in which both processors keep their modes. */
struct p4_tcm_seg {
	uint64_t from, dur;
	int bit;    /* TC_DELIVER_MODE's mask bit for the pair; -1: both inactive */
	int kernel; /* processor 0's privilege (processor 1's if 0 is inactive) */
};

/* Whether model signal ev tells a processor's mode. */
int p4_tcm_source(unsigned ev);
/* Free m's lists (not m). */
void p4_tcm_free(struct p4_tcm *m);
/* Take such a signal. */
void p4_tcm_note(struct p4_tcm *m, const struct uarch_sig *s);
/* The next stretch before cycle to, into *g: 0 when none is left (every
 * signal for the cycles before to must have been noted). */
int p4_tcm_next(struct p4_tcm *m, uint64_t to, struct p4_tcm_seg *g);

/* ---- counting (counter.c) ---- */

/* The registers as software writes them. */
struct p4_hw {
	uint32_t escr[P4_NESCR];
	uint32_t cccr[P4_NCTR];
	uint64_t ctr[P4_NCTR]; /* 40 bits */
	uint32_t pebs_enable, pebs_matrix_vert;
};

#define P4_RING 8192 /* cycles of per-cycle values a counter keeps pending */

/* Run-time state of a counter beyond its registers. */
/* Seed 004, "Structure and function": each event detector has an output
 * bus at most 4 bits wide, a maximum increment per cycle of 15. */
#define P4_DETECTOR_MAX 15u

struct p4_cstate {
	uint8_t active;	    /* counting: enabled, or started by a cascade */
	uint8_t percycle;   /* needs cycles: compare, FORCE_OVF, a PMI, a cascade */
	uint8_t prev;	    /* last compare output (edge detection) */
	uint8_t pmi_armed;  /* overflowed with OVF_PMI set: PMI at the next increment */
	uint8_t pmi_only;   /* per-cycle only for its PMI (no compare, FORCE_OVF or cascade) */
	uint64_t ring_end;  /* end of the last input left in v[] (v[] is empty from here) */
	uint64_t pend;	    /* sum of v[] */
	uint64_t far_end;   /* end of the last input counted at once */
	uint64_t reserve;   /* increments still to come as sums (p4_engine_add) */
	uint64_t total;	    /* increments since programmed (64 bits: the value perf reports) */
	uint8_t v[P4_RING]; /* per-cycle detector output, cycle % P4_RING (capped at 15) */
};

struct p4_engine {
	struct p4_hw hw;
	struct p4_cstate cs[P4_NCTR];
	uint64_t done;	   /* cycles before this are final for per-cycle counters */
	uint32_t percycle; /* bit c: cs[c].percycle */
	int threads;	   /* logical processors active now, 1 or 2 (thread mode) */
	/* Counters whose overflow PMI is the PEBS assist: it is taken on the
	 * retirement of the µop that makes the next count, so the counter
	 * counts each input as it arrives (in retirement order) rather than
	 * per cycle, unless COMPARE, FORCE_OVF or cascading need cycles. */
	uint32_t pebs_ctrs;
	/* A counter overflowed at cycle (the CCCR's OVF flag is set). */
	void (*overflow)(void *arg, int ctr, uint64_t cycle);
	/* A performance-monitor interrupt to the logical processors in mask
	 * (bit 0: T0, bit 1: T1) from counter ctr at cycle. */
	void (*pmi)(void *arg, int ctr, unsigned mask, uint64_t cycle);
	void *arg;
};

/* Take the registers in e->hw as written (counters enabled or armed for
 * cascade as their CCCRs say); callbacks may be NULL. */
void p4_engine_start(struct p4_engine *e);
/* The output of counter ctr's event detector: v in each cycle of
 * [cycle, cycle + dur), already qualified by the ESCR (event, mask,
 * T0/T1 OS/USR).  Cycles before e->done are taken as e->done. */
void p4_engine_input(struct p4_engine *e, int ctr, uint64_t cycle, uint32_t v, uint32_t dur);
/* The two halves of p4_engine_input(): count the input at once if its
 * cycles cannot matter (returns 1), else keep it for its cycles. */
int p4_engine_at_once(struct p4_engine *e, int ctr, uint64_t cycle, uint32_t v, uint32_t dur);
void p4_engine_queue(struct p4_engine *e, int ctr, uint64_t cycle, uint32_t v, uint32_t dur);
/* Every cycle before frontier is complete (per-cycle counters count
 * them, e->threads qualifying them by the CCCR's active-thread mode). */
void p4_engine_advance(struct p4_engine *e, uint64_t frontier);
/* Whether counter ctr only adds its input (not per-cycle, no overflow
 * PMI): the order and cycles of its inputs do not matter. */
int p4_engine_addonly(const struct p4_engine *e, int ctr);
/* Whether counter ctr is a sampling counter that needs the order of its
 * inputs only near its wrap: its overflow PMI is all that needs cycles
 * (cs.pmi_only), or it is a PEBS counter counting in retirement order. */
int p4_engine_nearonly(const struct p4_engine *e, int ctr);
/* Increments a near-only counter can take, in any order, before its
 * wrap; 0 when each must come in order (overflowed, PMI armed, inputs
 * pending for their cycles). */
uint64_t p4_engine_room(const struct p4_engine *e, int ctr);
/* Inputs of an add-only counter, or of a near-only one within its room
 * (less its reserve), each at most P4_DETECTOR_MAX, summing to n. */
void p4_engine_add(struct p4_engine *e, int ctr, uint64_t n);

#endif
