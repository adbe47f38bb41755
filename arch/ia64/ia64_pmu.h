/* ia64_pmu.h — the Itanium 2 backend's pieces shared by pmu.c (specs,
 * assignment, generic names) and run.c (the hardware at run time). */
#ifndef VPMU_ARCH_IA64_PMU_H
#define VPMU_ARCH_IA64_PMU_H

#include "../arch.h"
#include "ia64.h"

#define IA64_NGENERIC 16
extern const struct arch_generic ia64_generic[IA64_NGENERIC];

struct arch_pmu *ia64_pmu_new(const struct arch_evsel *e, unsigned n, const int *ctr,
			      const struct arch_pmu_cb *cb);
void ia64_pmu_sink(struct arch_pmu *p, struct uarch_sink *s);
void ia64_pmu_read(struct arch_pmu *p, uint64_t *val);
void ia64_pmu_period(struct arch_pmu *p, unsigned i, uint64_t period);
void ia64_pmu_free(struct arch_pmu *p);
/* The PMC12 image the branch stack of e (perf's -b / -j) programs. */
uint32_t ia64_pmc12_of(const struct arch_evsel *e);

#endif
