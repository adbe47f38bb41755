/* pmu_mux.h — counter multiplexing: a session's events split into groups
 * that each fit the counters (the backend's assign() decides), one
 * programmed backend PMU per group, the groups taking turns of
 * pmu_set.mux_cycles emulated cycles as perf rotates event groups on the
 * timer tick; a signal counts in the group whose turn holds its cycle.
 * An event of its own also joins every other group with room for it
 * (pmu_set.mux_also), its counts and running times adding up.  Each
 * event's enabled and running cycles are kept so counts can be scaled
 * (value * enabled / running) and the fraction printed.
 *
 * With one group (everything fits) the group's PMU listens to the model
 * directly: no forwarding, and enabled = running = 0 ("not multiplexed").
 */
#ifndef VPMU_CORE_PMU_MUX_H
#define VPMU_CORE_PMU_MUX_H

#include <stddef.h>
#include <stdint.h>

#include "pmu.h"

/* Split s into groups that fit: s->mux[i] is event i's group, s->ctr[i]
 * its counter within the group; whole event groups ({...}) stay together,
 * in order; s->mux_also[i] the other groups event i also counts in.  Returns the number of groups, or -1 with the backend's reason
 * when one event group does not fit on its own. */
int pmu_mux_plan(struct pmu_set *s, char *err, size_t errsz);

/* The events of group g of a planned set, as a set of their own (indices
 * and leaders renumbered); idx[k] receives the index in s of its event k. */
void pmu_mux_group(const struct pmu_set *s, int g, struct pmu_set *out, int *idx);

struct pmu_mux;

/* The hardware of every group of s (planned and unpacked); samples reach
 * cb with the event index of s.  NULL when out of memory. */
struct pmu_mux *pmu_mux_new(const struct pmu_set *s, const struct arch_pmu_cb *cb);
/* What the model must deliver (the union of the groups' wants).  With
 * shared (a model two processes share, each with a copy of m, whose
 * turns differ), every event is signalled, none summed. */
void pmu_mux_sink(struct pmu_mux *m, struct uarch_sink *sink, int shared);
/* Counts of s's events, and when multiplexed their enabled and running
 * cycles (time[i][0], time[i][1]; both 0 when not multiplexed). */
void pmu_mux_read(struct pmu_mux *m, uint64_t *val, uint64_t (*time)[2]);
/* Reload value of s's event i from its next overflow on (arch.h
 * pmu_period); -1 when the backend cannot change periods. */
int pmu_mux_period(struct pmu_mux *m, unsigned i, uint64_t period);
void pmu_mux_free(struct pmu_mux *m);

#endif
