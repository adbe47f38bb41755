/* hist_chain.h — call graphs of histogram entries (`vpmu report -g`):
 * each entry's samples' call chains merged into a tree of functions,
 * printed in perf report's --stdio graph form. */
#ifndef VPMU_HIST_CHAIN_H
#define VPMU_HIST_CHAIN_H

#include <stdio.h>

#include "core/hist.h"

struct hist_chain {
	const struct report_loc *loc; /* a frame's address (NULL at the root) */
	uint64_t period, nsamples;
	struct hist_chain **child;
	size_t nchild, cap;
};

/* Build every entry's tree from the chains of its samples; caller != 0
 * puts the outermost caller first.  Samples without a chain add their own
 * ip as a one-frame chain.  0, or -1 when out of memory. */
int hist_build_chains(struct hist *h, int caller);

/* Print e's tree under its entry line; percentages of total, branches
 * below limit percent left out. */
void hist_chain_print(FILE *f, const struct hist_entry *e, uint64_t total, double limit);

/* "name" of a frame: symbol ("name (inlined)" for an inline frame), or
 * the address in perf's style; buf of HIST_FRAME_NAME bytes holds any. */
#define HIST_FRAME_NAME 512
const char *hist_frame_name(const struct report_loc *l, char *buf, size_t n);

void hist_chains_free(struct hist *h);

#endif
