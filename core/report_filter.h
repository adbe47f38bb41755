/* report_filter.h — the --comms, --dsos, --symbols, --pid and --tid
 * filters of report and script: comma-separated lists of names a
 * sample's thread name, image (short name or path) or symbol, or numbers
 * its process or thread ID must be among; report's --hide-unresolved; and
 * --time, ranges of emulated time. */
#ifndef VPMU_REPORT_FILTER_H
#define VPMU_REPORT_FILTER_H

#include "core/report.h"

#define REPORT_MAX_TIMES 32 /* --time ranges */

enum report_filter_kind {
	REPORT_F_COMM,
	REPORT_F_DSO,
	REPORT_F_SYM,
	REPORT_F_PID,
	REPORT_F_TID,
	REPORT_F_N
};

struct report_filter {
	char **names[REPORT_F_N]; /* NULL: no filter of that kind */
	size_t n[REPORT_F_N];
	int resolved;	     /* -U: only samples in a known symbol */
	const char *sym_sub; /* --symbol-filter: only symbols holding it, or NULL */
	/* --time: ranges of emulated seconds, from and to (either may be
	 * open), or (percent) of fractions of the span the file's samples
	 * cover; their cycles once the file's clock is known */
	int ntimes, percent;
	double t_from[REPORT_MAX_TIMES], t_to[REPORT_MAX_TIMES];
	uint64_t c_from[REPORT_MAX_TIMES], c_to[REPORT_MAX_TIMES];
};

/* Add the names of list; 0 or -1 when out of memory (or, for the IDs,
 * when one is no number: errno EINVAL). */
int report_filter_add(struct report_filter *f, enum report_filter_kind k, const char *list);
/* perf's --time: START,STOP in seconds (either may be left out), several
 * separated by spaces; or percents of the span of the samples, a list of
 * A%-B% (from A to B percent) and A%/N (the Nth slice of A percent); 0,
 * or -1 (errno EINVAL) when it is not that. */
int report_filter_time(struct report_filter *f, const char *spec);
/* The time ranges in r's cycles; 0, or -1 when r has no clock. */
int report_filter_clock(struct report_filter *f, const struct report *r);
/* 1 when name a or name b (either may be NULL) is in f's list of kind k. */
int report_filter_among(const struct report_filter *f, enum report_filter_kind k, const char *a,
			const char *b);
/* 1 when s passes every filter given (a report_keep_fn: arg is f). */
int report_filter_keep(const struct report *r, const struct report_sample *s, void *f);
void report_filter_free(struct report_filter *f);

#endif
