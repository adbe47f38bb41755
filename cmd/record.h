/* record.h — parts of `vpmu record` in files of their own. */
#ifndef VPMU_CMD_RECORD_H
#define VPMU_CMD_RECORD_H

#include <stdint.h>

#include "core/pmu.h"
#include "core/session.h"

/* --calibrate=N: set each event's period in set so that a recording run
 * of o gives want samples of it (within 1%), running the program muted
 * to count and to check; prints the periods chosen unless quiet.  0, or
 * the status of a run that could not start. */
int record_calibrate(const struct session_opts *o, struct pmu_set *set, uint64_t want, int quiet);

/* -j FILTERS (any, any_ret, u, k, comma-separated) into ARCH_BR_*; 0
 * after printing why the list is wrong. */
uint32_t record_branch_filter(const char *arg);
/* Every event of set records the branch stack branch asks for (0: none):
 * 0, or -1 after printing why the machine cannot. */
int record_set_branches(struct pmu_set *set, uint32_t branch);

#endif
