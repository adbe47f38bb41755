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

/* How a call graph is printed, as perf report -g's print type and value
 * say: a tree with percentages of the total (graph) or of each branch's
 * parent (fractal), each path on its own (flat: a frame a line; folded:
 * in one line, frames separated by ';'); the value shown a percentage,
 * the events (period) or the samples (count); branches or paths below
 * limit percent left out. */
enum hist_graph { HIST_GRAPH, HIST_FRACTAL, HIST_FLAT, HIST_FOLDED };
enum hist_value { HIST_PERCENT, HIST_PERIOD, HIST_COUNT };
struct hist_graph_style {
	enum hist_graph mode;
	enum hist_value value;
	double limit;
};

/* Print e's tree under its entry line, total the event's period. */
void hist_chain_print(FILE *f, const struct hist_entry *e, uint64_t total,
		      const struct hist_graph_style *st);

/* "name" of a frame: symbol ("name (inlined)" for an inline frame), or
 * the address in perf's style; buf of HIST_FRAME_NAME bytes holds any. */
#define HIST_FRAME_NAME 512
const char *hist_frame_name(const struct report_loc *l, char *buf, size_t n);

void hist_chains_free(struct hist *h);

#endif
