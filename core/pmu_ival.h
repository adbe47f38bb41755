/* pmu_ival.h — vpmu stat -I in a guest process: a sink between the timing
 * model and the counter hardware that, once the model is past each
 * multiple of the interval (pmu_set.ival_cycles), reads the counts and
 * sends the session what changed since its previous message (recwire.h,
 * RECW_INTERVAL), filed under the interval that multiple ends.  The
 * counter hardware has then seen every event stamped before the multiple
 * and none after: the model sums up to it (the cut), and what it signals
 * from there on waits.  The boundaries are emulated cycles, so a rerun
 * sends the same messages; the last message, sent when the process stops
 * counting, makes a process's messages add up to its final counts. */
#ifndef VPMU_CORE_PMU_IVAL_H
#define VPMU_CORE_PMU_IVAL_H

#include <stdint.h>

#include "pmu_mux.h"

struct pmu_ival;

/* Between the model and inner (the hardware of m, n events), sending to
 * fd every len cycles.  NULL when out of memory. */
struct pmu_ival *pmu_ival_new(struct pmu_mux *m, unsigned n, uint64_t len, int fd,
			      const struct uarch_sink *inner);
/* The sink the model delivers to instead of inner. */
void pmu_ival_sink(struct pmu_ival *iv, struct uarch_sink *sink);
/* Send what was counted since the last message (the process stops
 * counting here, or forks or executes). */
void pmu_ival_flush(struct pmu_ival *iv);
void pmu_ival_free(struct pmu_ival *iv);

#endif
