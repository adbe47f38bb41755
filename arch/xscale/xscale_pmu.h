/* xscale_pmu.h — the XScale backend's pieces shared by pmu.c (specs,
 * assignment, the two backends) and run.c (the hardware at run time). */
#ifndef VPMU_ARCH_XSCALE_PMU_H
#define VPMU_ARCH_XSCALE_PMU_H

#include "../arch.h"
#include "xscale.h"

/* The raw image `-e r<hex>` takes: the evtCount value in bits 7:0 (0xFE:
 * the clock counter, as Linux numbers it) and, above bit 32, the PMNC bits
 * the event needs (only D, for CCNT). */
#define XS_CONFIG_CODE_MASK 0xffull
#define XS_CONFIG_PMNC_SHIFT 32

/* The variant a backend drives (arch_xscale: XSC1, arch_xscale2: XSC2). */
enum xs_variant xs_variant_of(unsigned ncounters);

struct arch_pmu *xs_pmu_new1(const struct arch_evsel *e, unsigned n, const int *ctr,
			     const struct arch_pmu_cb *cb);
struct arch_pmu *xs_pmu_new2(const struct arch_evsel *e, unsigned n, const int *ctr,
			     const struct arch_pmu_cb *cb);
void xs_pmu_sink(struct arch_pmu *p, struct uarch_sink *s);
void xs_pmu_read(struct arch_pmu *p, uint64_t *val);
void xs_pmu_period(struct arch_pmu *p, unsigned i, uint64_t period);
void xs_pmu_free(struct arch_pmu *p);

#endif
