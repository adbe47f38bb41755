/* alpha.h — the Alpha 21264/EV67 counter hardware, internal to arch/alpha.
 * Register layout from the Alpha 21264/EV67 Hardware Reference Manual
 * (cited [hrm]): 5.2.x PCTR_CTL (Table 5-15 fields, Table 5-16 input
 * selects), 6.10 performance counter support (aggregate and ProfileMe
 * modes); ProfileMe window semantics from seed 000.
 *
 *   events.c    the events, encode/decode of PCTR_CTL images, assignment
 *               under the SL1 input select
 *   count.c     aggregate mode: PCTR0/PCTR1 on the model's signals
 *   pm.c        ProfileMe: fetch counter, sample selection (random
 *               interval, pairs), the window counters and their quirks
 *   run.c       the backend at run time (arch.h pmu_* functions)
 *   profileme.h the ProfileMe record as it goes into the sample file
 */
#ifndef VPMU_ARCH_ALPHA_H
#define VPMU_ARCH_ALPHA_H

#include <stdint.h>

#include "../arch.h"
#include "profileme.h"

/* PCTR_CTL fields [hrm] Table 5-15 */
#define ALPHA_PCTR_BITS 20 /* PCTR0[47:28], PCTR1[25:6]: 20-bit counters */
#define ALPHA_PCTR_MASK ((1ull << ALPHA_PCTR_BITS) - 1)
#define ALPHA_SL0 (1u << 4) /* 0 aggregate, 1 ProfileMe */
#define ALPHA_SL1_SHIFT 2   /* SL1[3:2]: the PCTR0/PCTR1 input pair */
#define ALPHA_SL1_MASK 0x3u
/* vpmu's raw image beyond PCTR_CTL's select bits (vpmu-pmu(7)) */
#define ALPHA_CFG_PCTR1 (1u << 8)   /* aggregate: the event is PCTR1's */
#define ALPHA_CFG_IDEAL (1u << 9)   /* ProfileMe: ideal window counting */
#define ALPHA_CFG_PAIRED (1u << 10) /* ProfileMe: paired sampling */

enum alpha_ev {
	ALPHA_EV_CYCLES,
	ALPHA_EV_RETIRED,
	ALPHA_EV_BCACHE,
	ALPHA_EV_MBOX,
	ALPHA_EV_PROFILEME,
	ALPHA_NEV
};

/* ProfileMe unit-mask bits */
#define ALPHA_UM_RETIRED 0x01 /* SL1 00: PCTR0 retired instructions, PCTR1 cycles */
#define ALPHA_UM_INUM 0x02    /* SL1 01: PCTR0 cycles, PCTR1 inum retire delay */
#define ALPHA_UM_BCACHE 0x04  /* SL1 10: PCTR0 retired, PCTR1 Bcache misses */
#define ALPHA_UM_MBOX 0x08    /* SL1 11: PCTR0 cycles, PCTR1 Mbox replay traps */
#define ALPHA_UM_PAIRS 0x0f
#define ALPHA_UM_IDEAL 0x10
#define ALPHA_UM_PAIRED 0x20

/* The input each counter counts for each SL1 in aggregate mode ([hrm]
 * Table 5-16; -1: "not defined"). */
extern const int8_t alpha_agg_input[2][4];

extern const struct arch_event alpha_events[ALPHA_NEV];

struct arch_pmu *alpha_pmu_new(const struct arch_evsel *e, unsigned n, const int *ctr,
			       const struct arch_pmu_cb *cb);
void alpha_pmu_sink(struct arch_pmu *p, struct uarch_sink *s);
void alpha_pmu_read(struct arch_pmu *p, uint64_t *val);
void alpha_pmu_period(struct arch_pmu *p, unsigned i, uint64_t period);
void alpha_pmu_free(struct arch_pmu *p);

/* ---- aggregate counting (count.c) ---- */

/* One counter in aggregate mode. */
struct alpha_ctr {
	uint16_t sig;	  /* the model signal it counts (UARCH_NEV: none) */
	uint8_t qual;	  /* bit kernel: counts at that privilege (bit 0 user, 1 kernel) */
	uint64_t total;	  /* events since programmed (what perf reports) */
	uint64_t period;  /* sampling: events per overflow (0: counting only) */
	uint64_t reload;  /* period the next overflow reloads */
	uint64_t left;	  /* events to the next overflow */
	uint32_t pending; /* overflows whose interrupt is not taken yet */
};

/* n events of c's signal at privilege kernel. */
void alpha_ctr_add(struct alpha_ctr *c, int kernel, uint64_t n);

/* ---- ProfileMe (pm.c) ---- */

#define ALPHA_PM_PEND 64    /* profiled instructions whose windows are open */
#define ALPHA_PM_RRING 2048 /* retire cycles remembered */
#define ALPHA_PM_SRING 2048 /* Bcache-miss and replay-trap cycles remembered */

struct alpha_pm_open {
	struct alpha_pm_rec r;
	uint8_t kernel;
	/* beside the record, the model's word: where the instruction's loads
	 * found their data (uarch.h UARCH_DSRC_*; 0: none) */
	uint8_t dsrc;
};

struct alpha_pm {
	uint64_t period; /* mean fetched instructions between samples */
	uint8_t sl1, ideal, paired;
	uint64_t rng, qrng; /* sampling, quirk delays: xorshift64 states */
	uint64_t countdown, pair_countdown, pair_of, pair_fetched;
	uint64_t fetched; /* instructions fetched (the fetch counter's input) */
	uint64_t seq;	  /* samples taken */
	uint64_t inum, batch_cycle;
	unsigned batch_fill;
	uint64_t last_inum_retire;
	uint64_t rring[ALPHA_PM_RRING];
	uint64_t nret;
	uint64_t bring[ALPHA_PM_SRING], nbc;
	uint64_t mring[ALPHA_PM_SRING], nmb;
	struct alpha_pm_open open[ALPHA_PM_PEND];
	unsigned nopen;
	uint64_t dropped; /* selections lost: too many windows open */
	/* a record complete (o->r), with what goes beside it */
	void (*emit)(void *arg, const struct alpha_pm_open *o);
	void *arg;
	int kernel; /* privilege of the instructions being fed */
};

void alpha_pm_init(struct alpha_pm *pm, uint64_t period, unsigned umask, uint64_t seed);
/* A fetched instruction, in fetch order. */
void alpha_pm_insn(struct alpha_pm *pm, const struct uarch_insn *in);
/* A Bcache miss / an Mbox replay trap at cycle. */
void alpha_pm_bcache(struct alpha_pm *pm, uint64_t cycle);
void alpha_pm_mbox(struct alpha_pm *pm, uint64_t cycle);
/* Nothing later is stamped before frontier: close the windows that ended. */
void alpha_pm_advance(struct alpha_pm *pm, uint64_t frontier);
/* Close every window (end of the run). */
void alpha_pm_finish(struct alpha_pm *pm);

#endif
