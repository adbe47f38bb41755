/* stat_metrics.h — `vpmu stat --metrics NAME` (perf's --metrics): a named
 * group of events programmed together and the figures derived from them.
 * One group so far, fsb on the Itanium 2 (-a ia64): HP Caliper's sysbus
 * metrics (HP Caliper 5.3 User Guide, 5900-1558, "sysbus Event Set";
 * seed 003) from the Itanium 2 system bus events.
 *
 *   stat_metrics.c  the option: checks, events, the report (human, -x, -j)
 *   stat_fsb.c      the front-side-bus formulas, free of any I/O
 */
#ifndef VPMU_CMD_STAT_METRICS_H
#define VPMU_CMD_STAT_METRICS_H

#include <stddef.h>
#include <stdio.h>

#include "stat.h"

/* Check that group so->metrics applies (its machine, no -e, timing on),
 * put its events in so->specs and ask for --exact runs when they do not
 * fit the counters at once.  0, or -1 with a one-line message in err. */
int stat_metrics_setup(struct stat_opts *so, const struct session_opts *o, char *err, size_t errsz);

/* The report of a --metrics run in the format so asks for: the raw counts,
 * then each metric with its formula (human), or perf's metric-value and
 * metric-unit fields (-x, -j). */
void stat_metrics_print(FILE *out, const struct stat_report *rep, const struct stat_opts *so);

/* The group names, one per line with what each measures (for --help). */
void stat_metrics_list(FILE *out);

/* ---- the front-side-bus formulas (stat_fsb.c) ---- */

/* The counts the fsb group takes, summed over a run (or mean of runs). */
struct stat_fsb_counts {
	double cycles;	    /* CPU_CYCLES */
	double all_any;	    /* BUS_ALL:ANY, every transaction on the bus */
	double all_self;    /* BUS_ALL:SELF, this processor's */
	double all_io;	    /* BUS_ALL:IO, I/O agents' */
	double lines;	    /* BUS_MEMORY:EQ_128BYTE_ANY, full-line transfers */
	double partials;    /* BUS_MEMORY:LT_128BYTE_ANY, partial transfers */
	double hitm;	    /* BUS_HITM, implicit write-backs */
	double reads;	    /* BUS_MEM_READ:ALL_SELF, full-line reads */
	double out_hi;	    /* BUS_MEM_READ_OUT_HI: bits 4:3 of reads outstanding, per cycle */
	double out_lo;	    /* BUS_MEM_READ_OUT_LO: bits 2:0 */
	double data_clocks; /* BUS_DATA_CYCLE, bus clocks carrying data */
};

/* The bus as the machine's parameters set it (--set may change them). */
struct stat_fsb_bus {
	/* the parameters */
	unsigned mhz;	      /* core clock (core.mhz) */
	unsigned ratio;	      /* core clocks per bus clock (mem.bus_ratio) */
	unsigned addr_clocks; /* address clocks per transaction (mem.addr_cycles) */
	unsigned width, pump; /* bytes per transfer, transfers per bus clock */
	unsigned line;	      /* bytes of a line of the last cache level */
	/* derived by stat_fsb_bus_done */
	unsigned bytes_per_clock; /* width * pump */
	unsigned line_clocks;	  /* data clocks per line: line / bytes_per_clock, rounded up */
	unsigned partial_clocks;  /* data clocks per partial transfer: 1, as Caliper */
};

enum {
	STAT_FSB_ADDR_UTIL,
	STAT_FSB_DATA_UTIL,
	STAT_FSB_LAT_CORE,
	STAT_FSB_LAT_BUS,
	STAT_FSB_OUTSTANDING,
	STAT_FSB_CPU_SHARE,
	STAT_FSB_IO_SHARE,
	STAT_FSB_BANDWIDTH,
	STAT_FSB_NMETRIC
};

struct stat_fsb_metric {
	const char *name;    /* perf-style metric name */
	const char *label;   /* what it measures */
	const char *formula; /* in event names; A, D, L, R stand for bus parameters */
	const char *unit;
};
extern const struct stat_fsb_metric stat_fsb_metrics[STAT_FSB_NMETRIC];

/* Bus clocks in the run: core cycles / ratio. */
double stat_fsb_bus_clocks(const struct stat_fsb_counts *c, const struct stat_fsb_bus *b);

/* Every metric into v[STAT_FSB_*]; ok[k] 0 where a denominator is 0 (no
 * cycles, no transactions, no reads: the figure does not exist). */
void stat_fsb_compute(const struct stat_fsb_counts *c, const struct stat_fsb_bus *b, double *v,
		      int *ok);

/* The bus of a machine from its parameters as "key", "value" pairs
 * (uarch_params_each order does not matter); call once per pair. */
void stat_fsb_bus_param(struct stat_fsb_bus *b, const char *key, const char *value);
/* Finish: the derived fields, once every pair is in.  0, or -1 when the
 * parameters cannot describe a bus (a zero width or ratio). */
int stat_fsb_bus_done(struct stat_fsb_bus *b);

#endif
