/* p4_pmu.h — the P4 backend's pieces shared by pmu.c (specs, assignment),
 * generic.c (perf's generic names) and run.c (the hardware at run time). */
#ifndef VPMU_ARCH_P4_PMU_H
#define VPMU_ARCH_P4_PMU_H

#include "../arch.h"
#include "p4.h"

#define P4_LINUX_NEVENTS 46 /* entries of Linux's enum P4_EVENTS */

/* Linux's enum P4_PEBS_METRIC: what replay tagging marks, the
 * PEBS_ENABLE and PEBS_MATRIX_VERT values selecting it (Linux
 * p4_pebs_bind_map, from the SDM's replay-tagging table), and the model
 * signals of such µops retired and on a mispredicted path. */
enum {
	P4_METRIC_NONE,
	P4_METRIC_L1_LD_MISS,
	P4_METRIC_L2_LD_MISS,
	P4_METRIC_DTLB_LD_MISS,
	P4_METRIC_DTLB_ST_MISS,
	P4_METRIC_DTLB_ALL_MISS,
	P4_METRIC_MISPRED_BRANCH,
	P4_METRIC_MOB_LD_REPLAY,
	P4_METRIC_SPLIT_LD,
	P4_METRIC_SPLIT_ST,
	P4_NMETRIC
};
struct p4_metric {
	const char *name;
	uint32_t pebs, vert;
	uint16_t retired[2]; /* summed; UARCH_NEV: none */
	uint16_t bogus;	     /* UARCH_NEV: not modelled */
};
extern const struct p4_metric p4_metrics[P4_NMETRIC];

#define P4_PEBS_UOP_TAG (1u << 24) /* PEBS_ENABLE: replay tagging on */
#define P4_PEBS_ENABLE (1u << 25)  /* PEBS_ENABLE: precise sampling on */

#define P4_NGENERIC 19
extern const struct arch_generic p4_generic[P4_NGENERIC];

unsigned p4_raw_id(unsigned ev);
int p4_event_by_raw_id(unsigned id);

/* The ESCR's T0_OS, T0_USR, T1_OS, T1_USR bits for e: its thread mask
 * (none: both logical processors) and its :u/:k modifiers. */
uint32_t p4_escr_qual(const struct arch_evsel *e);

struct arch_pmu *p4_pmu_new(const struct arch_evsel *e, unsigned n, const int *ctr,
			    const struct arch_pmu_cb *cb);
void p4_pmu_sink(struct arch_pmu *p, struct uarch_sink *s);
void p4_pmu_read(struct arch_pmu *p, uint64_t *val);
void p4_pmu_period(struct arch_pmu *p, unsigned i, uint64_t period);
void p4_pmu_free(struct arch_pmu *p);

#endif
