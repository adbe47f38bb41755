/* stat.h — the pieces of `vpmu stat` (cmd/stat.c: options and flow;
 * stat_set.c: the rows, the event set behind them and what each run adds;
 * stat_print.c: perf's human layout; stat_csv.c: perf's -x and -j).
 *
 * A report is a list of rows, one per printed line: an event on the
 * counter hardware (scaled when multiplexed), an event of the timing
 * model, or a functional count of the interpreter; with --per-thread each
 * is split by logical processor (cpu 0, 1) and followed by the combined
 * row (cpu -1).  Values are summed over the -r runs; the printers show
 * the mean and the spread.
 */
#ifndef VPMU_CMD_STAT_H
#define VPMU_CMD_STAT_H

#include <stdint.h>
#include <stdio.h>

#include "core/pmu.h"
#include "core/session.h"

#define STAT_MAX_ROWS 96

enum stat_src { STAT_PMU, STAT_MODEL, STAT_FUNC, STAT_UNSUPPORTED };
enum stat_func {
	STAT_F_INSNS,
	STAT_F_BRANCHES,
	STAT_F_TAKEN,
	STAT_F_LOADS,
	STAT_F_STORES,
	STAT_F_SYSCALLS
};

struct stat_row {
	char name[128];
	int cpu; /* logical processor, or -1: the whole core */
	enum stat_src src;
	int idx[2], nidx;  /* PMU events (summed) / model event / enum stat_func */
	char why[256];	   /* STAT_UNSUPPORTED: the reason */
	double shift;	   /* the first run's value: sums are of differences to it */
	double sum, sumsq; /* scaled values less shift, over runs */
	int nrun;	   /* runs that counted it */
	uint64_t ena, run; /* cycles enabled and running, over runs (ena 0: not multiplexed) */
	int exact;	   /* counted in an --exact run of its own */
};

struct stat_report {
	const char *arch; /* machine */
	const char *set;  /* its --set overrides */
	char **argv;	  /* the workload as given */
	unsigned mhz;
	int timed, functional_only;
	int runs;	/* -r runs done */
	int exact_runs; /* deterministic runs per -r run (--exact), 1 otherwise */
	int mux_groups; /* event groups rotated on the counters (1: all fit) */
	uint64_t mux_cycles;
	double wall, wallsq;		     /* wall seconds, per run (sum, sum of squares) */
	double *walls;			     /* --table: each run's (runs of them), or NULL */
	double insns, cycles;		     /* summed over runs */
	double model[SESSION_MAX_EVENTS][3]; /* model events: cpu0, cpu1, both; over runs */
	int nmodel, nprocs;		     /* model events; guest processes of the last run */
	int plain;			     /* --no-big-num: counts without separators */
	struct stat_row row[STAT_MAX_ROWS];
	int nrow;
};

/* What the user asked for. */
struct stat_opts {
	const char *specs[ARCH_MAX_EVSEL]; /* -e */
	unsigned nspecs;
	int exact, per_thread, verbose, quiet, append, json;
	int plain;	 /* --no-big-num */
	int detailed;	 /* -d, -dd, -ddd: perf's detailed events (1 to 3) */
	const char *sep; /* -x: CSV with this separator */
	int repeat;
	int seeded; /* --seed given: it varies run to run */
	double mux_ms;
	const char *mode;	 /* --mode: an XScale monitoring mode (stat_mode.h) */
	const char *metrics;	 /* --metrics: a metric group (stat_metrics.h) */
	double interval_ms;	 /* -I: emulated milliseconds per interval (0: none) */
	uint64_t interval_count; /* --interval-count: the intervals printed (0: all) */
	int table;		 /* --table: each run's time */
	double delay_ms; /* -D: count from this emulated millisecond on (0: from the start) */
	char **both;	 /* --smt A : B: the whole command line shown (else NULL) */
	int null;	 /* -n: no counters, the times alone */
	int metric_only; /* --metric-only */
	int levels;	 /* --all-user, --all-kernel: EVSPEC_* of events naming none */
	int summary;	 /* --summary: with -I, the whole run's counts after them */
	const char *pre, *post; /* --pre, --post: commands around each run */
};

/* Build the rows and the event set of a report (set->n 0: no counter
 * hardware used).  0, or -1 with a one-line message in err. */
int stat_setup(struct stat_report *rep, struct pmu_set *set, const struct stat_opts *so,
	       const struct session_opts *o, char *err, size_t errsz);
/* Add one run: val and time of set's events (session indices), the run's
 * result.  exact: the values came from one run per group. */
void stat_add(struct stat_report *rep, const uint64_t *val, const uint64_t (*time)[2],
	      const struct session_result *r, int exact);

/* A row's mean, and its relative spread over the runs (percent of the
 * mean, the standard deviation of the mean, as perf). */
double stat_mean(const struct stat_row *w);
double stat_noise(const struct stat_row *w);
/* Count v as the text output prints it: with thousands separators, or
 * plain with --no-big-num. */
const char *stat_count_text(const struct stat_report *rep, double v, char *buf, size_t n);
/* Whether it has a value to print; otherwise why ("<not counted>" ...). */
const char *stat_absent(const struct stat_row *w);
/* The derived figure of a row: 1 with its value and unit, or 0. */
int stat_metric(const struct stat_report *rep, const struct stat_row *w, double *val,
		const char **unit);
/* Running cycles and percentage of enabled for the -x/-j fields. */
void stat_running(const struct stat_report *rep, const struct stat_row *w, uint64_t *run,
		  double *pct);

void stat_print(FILE *out, const struct stat_report *rep, const struct stat_opts *so);
/* Its parts: the line naming the command, and the times and notes after
 * the counts. */
void stat_print_head(FILE *out, const struct stat_report *rep);
void stat_print_tail(FILE *out, const struct stat_report *rep, const struct stat_opts *so);
/* --metric-only (stat_metric_only.c): the derived figures alone, in the
 * text, -x or -j format. */
void stat_print_metric_only(FILE *out, const struct stat_report *rep, const struct stat_opts *so);
/* -I --metric-only: the line of interval t (ending at ts seconds), in the
 * columns of the figures of rep, after their header (first). */
void stat_metric_only_ival(FILE *out, const struct stat_report *rep, const struct stat_report *t,
			   double ts, int first, const struct stat_opts *so);
void stat_print_csv(FILE *out, const struct stat_report *rep, const char *sep);
void stat_print_json(FILE *out, const struct stat_report *rep);
/* One row of each format; lead: JSON keys put first (or NULL). */
void stat_print_row(FILE *out, const struct stat_report *rep, const struct stat_row *w);
void stat_csv_row(FILE *out, const struct stat_report *rep, const struct stat_row *w,
		  const char *sep);
void stat_json_row(FILE *out, const struct stat_report *rep, const struct stat_row *w,
		   const char *lead);

/* -I (stat_ival.c): the counts of the counter hardware's events per
 * interval of emulated time, as the guest processes send them while they
 * run (core/pmu_ival.h), summed over processes. */
struct stat_ival {
	uint64_t len;  /* emulated cycles per interval */
	unsigned n;    /* events of the set */
	size_t nint;   /* intervals with a record */
	uint64_t *rec; /* per interval: val[n], ena[n], run[n] */
	int overflow;  /* more intervals than STAT_IVAL_MAX, or out of memory */
	uint64_t last; /* 0, or the last interval kept: later ones are added to it (-D) */
};
#define STAT_IVAL_MAX (1u << 20)
/* session_opts.on_msg for -I: arg is a struct stat_ival. */
void stat_ival_msg(void *arg, const void *msg, size_t len);
/* The counts (val[n]) and enabled and running cycles (time[n]) of the
 * intervals from index from on. */
void stat_ival_sum(const struct stat_ival *iv, size_t from, uint64_t *val, uint64_t (*time)[2]);
/* -D: rows that are not the counter hardware's cannot leave out the
 * start: marked not supported, with the reason. */
void stat_delay_rows(struct stat_report *rep);
/* Print the report's rows once per interval, perf stat -I's way; -1 with
 * a message when the intervals could not be kept. */
int stat_ival_print(FILE *out, const struct stat_report *rep, const struct stat_ival *iv,
		    const struct stat_opts *so);
void stat_ival_free(struct stat_ival *iv);

#endif
