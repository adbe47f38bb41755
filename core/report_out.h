/* report_out.h — what `vpmu report` prints: perf's --stdio tables with
 * call graphs, the header (--header), and the export formats (folded
 * stacks, callgrind, JSON). */
#ifndef VPMU_REPORT_OUT_H
#define VPMU_REPORT_OUT_H

#include <stdio.h>

#include "core/hist.h"
#include "core/hist_chain.h"

struct report_opts {
	int nsamples_col;	       /* -n */
	int period_col;		       /* --show-total-period */
	const char *sep;	       /* -t SEP, or NULL for aligned columns */
	double percent_limit;	       /* --percent-limit */
	int callgraph;		       /* -g */
	int caller;		       /* call graph with the outermost caller first */
	struct hist_graph_style graph; /* its form, value and limit */
	int children;		       /* --children: Children and Self columns */
	int quiet;		       /* -q: no "#" comment lines */
};

/* Percentage of e's period within its event; report_self_percent: of
 * its self period (hist_entry.self). */
double report_percent(const struct report *r, const struct hist_entry *e);
double report_self_percent(const struct report *r, const struct hist_entry *e);

/* The "# Samples: N of event 'E'" section header of event ev (-1: all
 * events in one table, the event sort key) and the table of h. */
void report_print_section(FILE *f, const struct report *r, const struct hist *h, int ev,
			  const struct report_opts *o);
void report_print_table(FILE *f, const struct report *r, const struct hist *h,
			const struct report_opts *o);
/* --header: machine, parameters, command line, totals, lost samples. */
void report_print_header(FILE *f, const struct report *r);
/* --stats: the records of the file by type, then each event's samples,
 * as perf report --stats prints its events. */
void report_print_stats(FILE *f, const struct report *r);

/* Folded stacks ("comm;outer;...;inner count"), the samples of event ev
 * (-1: all) passing keep (NULL: all).  The counts sum to the samples. */
typedef int (*report_keep_fn)(const struct report *r, const struct report_sample *s, void *arg);
void report_write_folded(FILE *f, const struct report *r, int ev, report_keep_fn keep, void *arg);
/* Callgrind format (callgrind_annotate, kcachegrind): one event column per
 * event, costs by source line, calls from the call chains.  -1 when out
 * of memory. */
int report_write_callgrind(FILE *f, const struct report *r, int ev, report_keep_fn keep, void *arg);
/* --profileme: per instruction, from the ProfileMe records of the samples
 * of event ev (-1: all) passing keep: abort rate, average stage latencies,
 * inum retire delay, window, and from paired samples the instructions
 * retiring while it is in flight.  Needs the report opened with
 * REPORT_PROFILEME; -1 (message on stderr) when it has no records, or out
 * of memory. */
int report_write_profileme(FILE *f, const struct report *r, int ev, report_keep_fn keep, void *arg,
			   const struct report_opts *o);
/* JSON: the header and, per hist, its entries. */
void report_write_json(FILE *f, const struct report *r, struct hist *const *h, const int *ev,
		       size_t nh, const struct report_opts *o);

#endif
