/* report_branch.h — `vpmu report --branch-stack`: every entry of the
 * samples' branch stacks counted as a sample of its own (perf's branch
 * mode), and the sort keys that mode needs. */
#ifndef VPMU_REPORT_BRANCH_H
#define VPMU_REPORT_BRANCH_H

#include <stddef.h>

#include "core/hist.h"
#include "core/report.h"

/* The branch view of r into *view: r's metadata, with one sample per
 * entry of a branch stack (a copy of its sample with .branch set and
 * period 1, as perf counts branches) in file order, and the events'
 * sample counts and periods those copies' (view->samples and
 * view->events are malloc'd: report_branch_free).  0, or -1 with a
 * one-line message (no sample has a branch stack, out of memory). */
int report_branch_view(const struct report *r, struct report *view, char *err, size_t errsz);
void report_branch_free(struct report *view);
/* Branch keys only with --branch-stack (branch): 0, or -1 with a message. */
int report_branch_keys(const struct hist_key *const *keys, int nkeys, int branch, char *err,
		       size_t errsz);

#endif
