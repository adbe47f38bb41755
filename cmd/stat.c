/* stat.c — `vpmu stat`: run a program on the emulated machine and print,
 * perf-stat style, what it counted (summed over every guest process): the
 * options and the flow of runs (-r, --exact).  The rows and events are
 * built in stat_set.c, printed by stat_print.c and stat_csv.c.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cmds.h"
#include "core/evspec.h"
#include "core/pmu_mux.h"
#include "core/session.h"
#include "opt.h"
#include "stat.h"
#include "stat_metrics.h"
#include "stat_mode.h"

static const char stat_usage[] =
	"usage: vpmu stat [-e EVENTS]... [--all-user | --all-kernel] [-d[d[d]]] [-a MACHINE]\n"
	"                 [-r N] [-x SEP | -j] [-o FILE [--append]] [-v | -q]\n"
	"                 [-A | --per-thread] [--smt] [--exact] [--mux-interval MS]\n"
	"                 [--set KEY=VAL[,KEY=VAL...]] [--no-timing] [--seed N] [--vtime]\n"
	"                 [--timeout LIMIT] [--mode NAME] [-M NAME] [-I MSEC [--interval-count N]]\n"
	"                 [-B | --no-big-num] [-n] [--pre CMD] [--post CMD] [--metric-only]\n"
	"                 [--summary] [-D MSEC] [--table]\n"
	"                 [--] PROGRAM [ARGS...] [: PROGRAM2 [ARGS2...]]\n"
	"\n"
	"Run PROGRAM on the emulated machine and print what it counted.\n"
	"\n"
	"    -e, --event EVENTS count these events on the machine's counter hardware:\n"
	"                       comma-separated generic names (cycles, instructions,\n"
	"                       L1-dcache-load-misses, ...), native EVENT[:UMASK...],\n"
	"                       raw r<hex> register images, {groups}, modifiers\n"
	"                       :u :k :p :pp (see vpmu list); default: the machine's\n"
	"                       default set\n"
	"        --all-user     every event without :u or :k counts at user level (:u)\n"
	"        --all-kernel   ... at kernel level (:k)\n"
	"    -d, --detailed     also count perf's detailed events: L1-dcache and LLC\n"
	"                       loads and load misses; -dd adds the L1-icache, dTLB\n"
	"                       and iTLB ones, -ddd the L1-dcache prefetches (those\n"
	"                       the machine lacks are shown <not supported>)\n"
	"    -a, --arch MACHINE machine to time: p4 (default), ia64, xscale, xscale2,\n"
	"                       alpha\n"
	"    -r, --repeat N     run the program N times, print means and their spread\n"
	"        --table        with -r, each run's time elapsed, as a table\n"
	"                       (identical runs unless --seed is given: it then\n"
	"                       grows by one each run)\n"
	"    -x, --field-separator SEP\n"
	"                       one line per count, fields separated by SEP, as perf\n"
	"    -j, --json         one JSON object per count, as perf\n"
	"    -I, --interval-print MSEC\n"
	"                       print the counts of every MSEC milliseconds of\n"
	"                       emulated time (printed when the program ends)\n"
	"        --interval-count N\n"
	"                       with -I, only the first N intervals\n"
	"        --summary      with -I, the whole run's counts after the intervals\n"
	"    -D, --delay MSEC   count from MSEC milliseconds of emulated time on\n"
	"                       (the counter hardware's events)\n"
	"    -B, --big-num      counts with thousands separators (the default)\n"
	"        --no-big-num   counts as plain numbers\n"
	"    -o, --output FILE  write the counts to FILE instead of standard error\n"
	"        --append       append to FILE instead of replacing it\n"
	"    -v, --verbose      also print every model event, the machine parameters,\n"
	"                       unknown system calls and the process count\n"
	"    -q, --quiet        print no counts, only errors\n"
	"    -n, --null         count nothing: the times alone\n"
	"        --metric-only  print the derived figures alone (insn per cycle, ...),\n"
	"                       a column each\n"
	"        --pre CMD      run CMD (by the shell, on the host) before each run;\n"
	"                       stop if it fails\n"
	"        --post CMD     run CMD after each run; stop if it fails\n"
	"    -A, --no-aggr, --per-thread\n"
	"                       count each event per logical processor (CPU0, CPU1)\n"
	"                       and print both rows and the combined one\n"
	"        --smt          run the guest's threads on the two logical processors\n"
	"                       (p4); implies --per-thread; with PROGRAM : PROGRAM2,\n"
	"                       run the two programs at once, one on each\n"
	"        --exact        events that do not fit on the counters at once are\n"
	"                       counted in one deterministic run per group that fits,\n"
	"                       instead of multiplexed\n"
	"        --mux-interval MS\n"
	"                       emulated milliseconds between rotations of\n"
	"                       multiplexed event groups (default 0.1)\n"
	"        --set KEY=VAL  override machine parameters (see -v for every key)\n"
	"        --no-timing    functional counts only (no timing model; fastest)\n"
	"        --seed N       seed for AT_RANDOM and other guest randomness (default 0)\n"
	"        --vtime        time system calls report emulated, not host, time\n"
	"        --timeout LIMIT\n"
	"                       stop the program cleanly after LIMIT, print what it\n"
	"                       counted, exit with status 124; LIMIT is wall-clock\n"
	"                       time (5, 5s, 500ms, 2m, 1h) or emulated instructions\n"
	"                       summed over its processes (1000000insn, 1e9insn);\n"
	"                       may be given twice, once of each kind\n"
	"    -h, --help         show this help\n"
	"        --mode NAME    (-a xscale, xscale2) a performance monitoring mode of\n"
	"                       the XScale manual: PMN0, PMN1 and CCNT as it sets\n"
	"                       them, and the statistics it derives; NAME is one of:\n";

static const char stat_metrics_usage[] =
	"    -M, --metrics NAME (-a ia64) count a metric group's events (in --exact\n"
	"                       runs when they do not fit the counters) and print the\n"
	"                       figures derived from them with their formulas; NAME\n"
	"                       is one of:\n";

/* Run the program once per group of events that fits the counters; the
 * values land at their indices in set, r holds the last run with the wall
 * time of all.  0, or a status after a message. */
/* Signals a program raises by itself (faults, abort): it dies the same
 * way in every run, so the other groups are still counted; any other
 * signal came from outside, as a limit did, and ends the runs. */
static int self_inflicted(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE ||
	       sig == SIGABRT || sig == SIGTRAP || sig == SIGSYS;
}

static int run_exact(struct session_opts *o, const struct pmu_set *set, int groups, uint64_t *val,
		     uint64_t (*time)[2], struct session_result *r)
{
	static struct pmu_set sub;
	double wall = 0;
	int idx[ARCH_MAX_EVSEL], g;

	for (g = 0; g < groups; g++) {
		int rc;
		pmu_mux_group(set, g, &sub, idx);
		o->pmu = &sub;
		rc = session_run(o, r, stderr);
		o->pmu = NULL;
		if (rc)
			return rc;
		wall += r->seconds;
		for (unsigned k = 0; k < sub.n; k++)
			val[idx[k]] = r->pmu[k];
		if ((r->sig && !self_inflicted(r->sig)) || r->timeout || r->unsupported)
			break;
	}
	/* the groups that never ran: enabled, never running, <not counted> */
	while (++g < groups) {
		pmu_mux_group(set, g, &sub, idx);
		for (unsigned k = 0; k < sub.n; k++)
			time[idx[k]][0] = 1;
	}
	r->seconds = wall;
	return 0;
}

/* PROGRAM ARGS : PROGRAM2 ARGS2 (a lone ':' as perf separates workloads):
 * the two programs --smt runs at once.  0, or 1 after a message. */
static int split_pair(int argc, char **argv, struct session_opts *o, struct stat_opts *so)
{
	static char **first;
	int at = optind;

	while (at < argc && strcmp(argv[at], ":"))
		at++;
	if (at == argc)
		return 0;
	if (!o->smt) {
		fprintf(stderr, "vpmu stat: ':' separates two programs to run at once on the two "
				"logical processors: it needs --smt\n");
		return 1;
	}
	if (at == optind || at + 1 == argc) {
		fprintf(stderr, "vpmu stat: --smt PROGRAM : PROGRAM2: no program %s ':'\n",
			at == optind ? "before" : "after");
		return 1;
	}
	first = calloc((size_t)(at - optind + 1), sizeof(*first));
	if (!first) {
		fprintf(stderr, "vpmu stat: out of memory\n");
		return 1;
	}
	memcpy(first, &argv[optind], (size_t)(at - optind) * sizeof(*first));
	so->both = &argv[optind];
	o->argv = first;
	o->prog2 = argv[at + 1];
	o->argv2 = &argv[at + 1];
	return 0;
}

/* Long options without a letter of their own. */
enum {
	OPT_MUX_INTERVAL = 256,
	OPT_NO_BIG_NUM,
	OPT_APPEND,
	OPT_PRE,
	OPT_POST,
	OPT_METRIC_ONLY,
	OPT_INTERVAL_COUNT,
	OPT_TABLE,
	OPT_ALL_USER,
	OPT_ALL_KERNEL,
	OPT_SUMMARY,
};

static int parse_opts(int argc, char **argv, struct session_opts *o, struct stat_opts *so,
		      const char **outpath)
{
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "detailed", no_argument, NULL, 'd' },
		{ "arch", required_argument, NULL, 'a' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "append", no_argument, NULL, OPT_APPEND },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "per-thread", no_argument, NULL, 'P' },
		{ "no-aggr", no_argument, NULL, 'P' },
		{ "smt", no_argument, NULL, 'T' },
		{ "exact", no_argument, NULL, 'X' },
		{ "mux-interval", required_argument, NULL, OPT_MUX_INTERVAL },
		{ "set", required_argument, NULL, 'S' },
		{ "no-timing", no_argument, NULL, 'F' },
		{ "seed", required_argument, NULL, 's' },
		{ "vtime", no_argument, NULL, 't' },
		{ "timeout", required_argument, NULL, 'L' },
		{ "mode", required_argument, NULL, 'm' },
		{ "metrics", required_argument, NULL, 'M' },
		{ "big-num", no_argument, NULL, 'B' },
		{ "no-big-num", no_argument, NULL, OPT_NO_BIG_NUM },
		{ "interval-print", required_argument, NULL, 'I' },
		{ "interval-count", required_argument, NULL, OPT_INTERVAL_COUNT },
		{ "delay", required_argument, NULL, 'D' },
		{ "table", no_argument, NULL, OPT_TABLE },
		{ "null", no_argument, NULL, 'n' },
		{ "pre", required_argument, NULL, OPT_PRE },
		{ "post", required_argument, NULL, OPT_POST },
		{ "metric-only", no_argument, NULL, OPT_METRIC_ONLY },
		{ "all-user", no_argument, NULL, OPT_ALL_USER },
		{ "all-kernel", no_argument, NULL, OPT_ALL_KERNEL },
		{ "summary", no_argument, NULL, OPT_SUMMARY },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:e:da:r:x:jo:vqhI:M:BAnD:", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (so->nspecs == ARCH_MAX_EVSEL) {
				fprintf(stderr, "vpmu stat: too many -e options\n");
				return 1;
			}
			so->specs[so->nspecs++] = optarg;
			break;
		case 'd':
			if (so->detailed < 3)
				so->detailed++;
			break;
		case 'a':
			o->arch = optarg;
			break;
		case 'r':
			errno = 0;
			so->repeat = (int)strtol(optarg, &end, 10);
			if (errno || *end || !*optarg || so->repeat < 1 || so->repeat > 10000) {
				fprintf(stderr,
					"vpmu stat: -r wants a number of runs from 1 to 10000, "
					"not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'x':
			so->sep = optarg;
			break;
		case 'j':
			so->json = 1;
			break;
		case 'o':
			*outpath = optarg;
			break;
		case OPT_APPEND:
			so->append = 1;
			break;
		case 'v':
			so->verbose = o->verbose = 1;
			break;
		case 'q':
			so->quiet = 1;
			break;
		case 'n':
			so->null = 1;
			break;
		case OPT_PRE:
			so->pre = optarg;
			break;
		case OPT_POST:
			so->post = optarg;
			break;
		case OPT_METRIC_ONLY:
			so->metric_only = 1;
			break;
		case OPT_SUMMARY:
			so->summary = 1;
			break;
		case OPT_ALL_USER:
		case OPT_ALL_KERNEL: /* (the last of the two counts) */
			so->levels = c == OPT_ALL_USER ? EVSPEC_USER : EVSPEC_KERNEL;
			break;
		case 'A':
		case 'P':
			so->per_thread = 1;
			break;
		case 'T':
			o->smt = so->per_thread = 1;
			break;
		case 'X':
			so->exact = 1;
			break;
		case OPT_MUX_INTERVAL:
			so->mux_ms = strtod(optarg, &end);
			if (*end || !*optarg || !(so->mux_ms > 0) || so->mux_ms > 1e6) {
				fprintf(stderr,
					"vpmu stat: --mux-interval wants emulated milliseconds "
					"(4, 0.5), not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'S':
			o->set = optarg;
			break;
		case 'F':
			o->timed = 0;
			break;
		case 's':
			if (opt_seed("stat", optarg, o))
				return 1;
			so->seeded = 1;
			break;
		case 't':
			o->vtime = 1;
			break;
		case 'L':
			if (opt_timeout("stat", optarg, o))
				return 1;
			break;
		case 'm':
			so->mode = optarg;
			break;
		case 'M':
			so->metrics = optarg;
			break;
		case 'B':
		case OPT_NO_BIG_NUM:
			so->plain = c == OPT_NO_BIG_NUM;
			break;
		case 'I':
			so->interval_ms = strtod(optarg, &end);
			if (*end || !*optarg || !(so->interval_ms >= 0.001) ||
			    so->interval_ms > 1e6) {
				fprintf(stderr,
					"vpmu stat: -I wants emulated milliseconds from 0.001 to "
					"1000000 (10, 0.5), not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'D':
			so->delay_ms = strtod(optarg, &end);
			if (*end || !*optarg || !(so->delay_ms >= 0) || so->delay_ms > 1e6) {
				fprintf(stderr,
					"vpmu stat: -D wants emulated milliseconds from 0 to 1000000 "
					"(10, 0.5), not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case OPT_TABLE:
			so->table = 1;
			break;
		case OPT_INTERVAL_COUNT:
			if (opt_u64(optarg, &so->interval_count) || !so->interval_count) {
				fprintf(stderr,
					"vpmu stat: --interval-count wants a number of intervals, "
					"not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'h':
			fputs(stat_usage, stdout);
			stat_mode_list(stdout);
			fputs(stat_metrics_usage, stdout);
			stat_metrics_list(stdout);
			return -1;
		case ':':
		default:
			opt_bad("stat", c, argv);
			return 1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr,
			"usage: vpmu stat [OPTIONS] [--] PROGRAM [ARGS...]: no program given "
			"(vpmu stat -h lists the options)\n");
		return 1;
	}
	if (so->sep && so->json) {
		fprintf(stderr, "vpmu stat: -x and -j are two output formats: choose one\n");
		return 1;
	}
	if (so->append && !*outpath) {
		fprintf(stderr, "vpmu stat: --append needs -o FILE\n");
		return 1;
	}
	if (so->null && (so->nspecs || so->detailed || so->mode || so->metrics ||
			 so->interval_ms > 0 || so->per_thread)) {
		fprintf(stderr, "vpmu stat: -n counts nothing: drop %s\n",
			so->nspecs	    ? "-e" :
			so->detailed	    ? "-d" :
			so->mode	    ? "--mode" :
			so->metrics	    ? "-M" :
			so->interval_ms > 0 ? "-I" :
					      "--per-thread");
		return 1;
	}
	if (so->metric_only && (so->null || so->mode || so->metrics)) {
		fprintf(stderr, "vpmu stat: --metric-only prints the default figures: drop %s\n",
			so->null ? "-n" :
			so->mode ? "--mode" :
				   "-M");
		return 1;
	}
	if (so->per_thread && !o->timed) {
		fprintf(stderr, "vpmu stat: --per-thread splits the timing model's counts by "
				"logical processor: drop --no-timing\n");
		return 1;
	}
	if ((so->interval_count || so->summary) && !(so->interval_ms > 0)) {
		fprintf(stderr, "vpmu stat: %s the intervals of -I: give -I\n",
			so->interval_count ? "--interval-count counts" : "--summary sums up");
		return 1;
	}
	if (so->delay_ms > 0 &&
	    (so->exact || !o->timed || so->mode || so->metrics || so->null || so->metric_only)) {
		fprintf(stderr, "vpmu stat: -D starts the counter hardware late: drop %s\n",
			so->exact   ? "--exact" :
			!o->timed   ? "--no-timing" :
			so->mode    ? "--mode" :
			so->metrics ? "--metrics" :
			so->null    ? "-n" :
				      "--metric-only");
		return 1;
	}
	if (so->interval_ms > 0 &&
	    (so->repeat > 1 || so->exact || !o->timed || so->mode || so->metrics || so->quiet)) {
		fprintf(stderr,
			"vpmu stat: -I prints one run's counts of the counter hardware "
			"as it counts them: drop %s\n",
			so->repeat > 1 ? "-r" :
			so->exact      ? "--exact" :
			!o->timed      ? "--no-timing" :
			so->mode       ? "--mode" :
			so->metrics    ? "--metrics" :
					 "-q");
		return 1;
	}
	o->prog = argv[optind];
	o->argv = &argv[optind];
	return split_pair(argc, argv, o, so);
}

/* perf's --pre and --post: cmd by the shell, on the host; 0, or 1 after
 * saying it failed. */
static int hook(const char *opt, const char *cmd)
{
	int st;

	fflush(NULL);
	st = system(cmd);
	if (st == 0)
		return 0;
	if (st == -1)
		fprintf(stderr, "vpmu stat: %s '%s': %s\n", opt, cmd, strerror(errno));
	else if (WIFSIGNALED(st))
		fprintf(stderr, "vpmu stat: %s '%s' was killed by signal %d\n", opt, cmd,
			WTERMSIG(st));
	else
		fprintf(stderr, "vpmu stat: %s '%s' failed (status %d)\n", opt, cmd,
			WEXITSTATUS(st));
	return 1;
}

int cmd_stat(int argc, char **argv)
{
	struct session_opts o = { .timed = 1, .arch = "p4" };
	struct stat_opts so = { .repeat = 1, .mux_ms = 0.1 };
	static struct stat_report rep;
	static struct pmu_set set;
	static struct session_result r;
	static struct stat_ival ival;
	uint64_t val[ARCH_MAX_EVSEL] = { 0 }, time[ARCH_MAX_EVSEL][2] = { { 0 } };
	const char *outpath = NULL;
	uint64_t seed;
	FILE *out = stderr;
	char err[512];
	int rc;

	rc = parse_opts(argc, argv, &o, &so, &outpath);
	if (rc)
		return rc < 0 ? 0 : rc;
	if ((so.mode && stat_mode_setup(&so, &o, err, sizeof(err)) < 0) ||
	    (so.metrics && stat_metrics_setup(&so, &o, err, sizeof(err)) < 0) ||
	    stat_setup(&rep, &set, &so, &o, err, sizeof(err)) < 0) {
		fprintf(stderr, "vpmu stat: %s\n", err);
		return 1;
	}
	if (so.both)
		rep.argv = so.both;
	rep.plain = so.plain;
	const uint64_t delay = (uint64_t)(so.delay_ms * rep.mhz * 1000.0); /* cycles */
	if (so.interval_ms > 0 || delay) {
		if (!set.n) {
			fprintf(stderr,
				"vpmu stat: %s counts on the machine's counter hardware: "
				"machine '%s' has none\n",
				so.interval_ms > 0 ? "-I" : "-D", o.arch);
			return 1;
		}
		set.ival_cycles =
			so.interval_ms > 0 ? (uint64_t)(so.interval_ms * rep.mhz * 1000.0) : delay;
		if (!set.ival_cycles)
			set.ival_cycles = 1;
		if (so.interval_ms > 0 && delay % set.ival_cycles) {
			fprintf(stderr, "vpmu stat: -D with -I: the delay must be a whole number "
					"of intervals\n");
			return 1;
		}
		if (!(so.interval_ms > 0)) {
			stat_delay_rows(&rep);
			ival.last = 1; /* (from the delay on, one interval) */
		}
		ival.len = set.ival_cycles;
		ival.n = set.n;
		o.on_msg = stat_ival_msg;
		o.rec_arg = &ival;
	}
	if (outpath) {
		/* close-on-exec: not the guest's (session.c) */
		out = fopen(outpath, so.append ? "ae" : "we");
		if (!out) {
			fprintf(stderr, "vpmu stat: cannot open '%s': %s\n", outpath,
				strerror(errno));
			return 1;
		}
	}
	if (so.table && !(rep.walls = calloc((size_t)so.repeat, sizeof(*rep.walls)))) {
		fprintf(stderr, "vpmu stat: out of memory\n");
		return 1;
	}
	seed = o.seed;
	for (int k = 0; k < so.repeat; k++) {
		/* a given seed varies run to run; otherwise every run is the same */
		o.seed = seed + (so.seeded ? (uint64_t)k : 0);
		if (so.pre && (rc = hook("--pre", so.pre))) {
			if (out != stderr)
				fclose(out);
			return rc;
		}
		if (rep.exact_runs > 1) {
			memset(time, 0, sizeof(time));
			rc = run_exact(&o, &set, rep.exact_runs, val, time, &r);
		} else {
			o.pmu = set.n ? &set : NULL;
			rc = session_run(&o, &r, stderr);
			memcpy(val, r.pmu, sizeof(val));
			memcpy(time, r.pmu_time, sizeof(time));
			if (delay && !(so.interval_ms > 0)) {
				/* what was counted after the first interval, the delay */
				stat_ival_sum(&ival, 1, val, time);
				if (ival.overflow && !rc) {
					fprintf(stderr,
						"vpmu stat: out of memory for -D's counts\n");
					rc = 1;
				}
				stat_ival_free(&ival);
				ival.overflow = 0;
			}
		}
		if (rc) {
			if (out != stderr)
				fclose(out);
			return rc;
		}
		if (so.post && (rc = hook("--post", so.post))) {
			if (out != stderr)
				fclose(out);
			return rc;
		}
		const double cycles = rep.cycles;
		stat_add(&rep, val, (const uint64_t(*)[2])time, &r, rep.exact_runs > 1);
		if (delay && !(so.interval_ms > 0)) {
			/* the time counted is the run's less the delay; the model's
			 * counts (the figures' denominators) are of all of it */
			rep.cycles -= fmin(rep.cycles - cycles, (double)delay);
			rep.nmodel = 0;
		}
		if (r.sig || r.timeout || r.unsupported)
			break;
	}
	/* perf reports a workload killed by a signal this way, before the counts. */
	if (r.timeout)
		opt_timeout_note(&o, &r);
	else if (r.sig && !r.unsupported)
		fprintf(stderr, "%s: %s\n", o.prog, strsignal(r.sig));
	if (so.quiet)
		;
	else if (so.metric_only && !(so.interval_ms > 0))
		stat_print_metric_only(out, &rep, &so);
	else if (so.metrics)
		stat_metrics_print(out, &rep, &so);
	else if (so.interval_ms > 0) {
		rc = stat_ival_print(out, &rep, &ival, &so);
		stat_ival_free(&ival);
		if (rc < 0) {
			if (out != stderr)
				fclose(out);
			return 1;
		}
		if (so.summary) { /* then the whole run's, as without -I */
			fputc('\n', out);
			if (so.metric_only)
				stat_print_metric_only(out, &rep, &so);
			else if (so.sep)
				stat_print_csv(out, &rep, so.sep);
			else if (so.json)
				stat_print_json(out, &rep);
			else
				stat_print(out, &rep, &so);
		}
	} else if (so.sep)
		stat_print_csv(out, &rep, so.sep);
	else if (so.json)
		stat_print_json(out, &rep);
	else if (so.mode)
		stat_mode_print(out, &rep, &so);
	else
		stat_print(out, &rep, &so);
	if (out != stderr && fclose(out) != 0) {
		fprintf(stderr, "vpmu stat: writing '%s': %s\n", outpath, strerror(errno));
		return 1;
	}
	session_exit(&r);
}
