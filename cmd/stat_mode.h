/* stat_mode.h — `vpmu stat --mode NAME` on the XScale: the performance
 * monitoring modes of the Intel XScale Core Developer's Manual (January
 * 2004) §8.4.1-§8.4.7, each a pair of events on PMN0 and PMN1 with CCNT
 * counting the cycles, and the statistics the manual derives from them. */
#ifndef VPMU_CMD_STAT_MODE_H
#define VPMU_CMD_STAT_MODE_H

#include <stddef.h>
#include <stdio.h>

#include "stat.h"

/* Check that mode so->mode applies (an xscale machine, no -e, timing on)
 * and put its events in so->specs.  0, or -1 with a one-line message. */
int stat_mode_setup(struct stat_opts *so, const struct session_opts *o, char *err, size_t errsz);

/* The report of a mode run: PMN0, PMN1, CCNT and the derived statistics
 * with their formulas, then the times. */
void stat_mode_print(FILE *out, const struct stat_report *rep, const struct stat_opts *so);

/* The mode names, one per line with what each measures (for --help). */
void stat_mode_list(FILE *out);

#endif
