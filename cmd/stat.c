/* stat.c — `vpmu stat`: run a program on the emulated machine and print,
 * perf-stat style, what it counted: the timing model's events of the chosen
 * machine (cycles, µops, misses…), or with --no-timing only the functional
 * counts the interpreter retires.  Summed over every guest process.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "core/evspec.h"
#include "core/fmt.h"
#include "core/pmu.h"
#include "core/session.h"
#include "opt.h"

static const char stat_usage[] =
	"usage: vpmu stat [-v] [-a MACHINE] [-e EVENTS]... [--exact] [--set KEY=VAL[,KEY=VAL...]]\n"
	"                 [--smt] [--no-timing] [-o FILE] [--seed N] [--vtime] [--timeout LIMIT]\n"
	"                 [--] PROGRAM [ARGS...]\n"
	"\n"
	"Run PROGRAM on the emulated machine and print what it counted.\n"
	"\n"
	"    -a, --arch MACHINE machine to time: p4 (default), ia64, xscale, alpha\n"
	"    -e, --event EVENTS count these events on the machine's counter hardware:\n"
	"                       comma-separated generic names (cycles, instructions,\n"
	"                       L1-dcache-load-misses, ...), native EVENT[:UMASK...],\n"
	"                       raw r<hex> register images, {groups}, modifiers\n"
	"                       :u :k :p :pp (see vpmu list)\n"
	"        --exact        events that do not fit on the counters at once are\n"
	"                       counted in one deterministic run per group that fits\n"
	"        --set KEY=VAL  override machine parameters (see -v for every key)\n"
	"        --smt          run the guest's threads on the two logical processors\n"
	"                       and count per processor (p4)\n"
	"        --no-timing    functional counts only (no timing model; fastest)\n"
	"    -o, --output FILE  write the counts to FILE instead of standard error\n"
	"        --seed N       seed for AT_RANDOM and other guest randomness (default 0)\n"
	"        --vtime        time system calls report emulated, not host, time\n"
	"        --timeout LIMIT\n"
	"                       stop the program cleanly after LIMIT, print what it\n"
	"                       counted, exit with status 124; LIMIT is wall-clock\n"
	"                       time (5, 5s, 500ms, 2m, 1h) or emulated instructions\n"
	"                       summed over its processes (1000000insn, 1e9insn);\n"
	"                       may be given twice, once of each kind\n"
	"    -v, --verbose      also print every model event, the machine parameters,\n"
	"                       unknown system calls and the process count\n"
	"    -h, --help         show this help\n";

static void line(FILE *out, uint64_t v, const char *name, const char *comment)
{
	char num[32];

	if (comment)
		fprintf(out, "%18s      %-24s #  %s\n", fmt_count(v, num, sizeof(num)), name,
			comment);
	else
		fprintf(out, "%18s      %s\n", fmt_count(v, num, sizeof(num)), name);
}

static void print_counts(FILE *out, char **argv, const struct session_result *r, int verbose)
{
	const struct session_counts *c = &r->cnt;
	char cmd[512], note[64];

	fprintf(out, "\n Performance counter stats for '%s':\n\n",
		fmt_argv(argv, cmd, sizeof(cmd)));
	if (r->seconds > 0)
		snprintf(note, sizeof(note), "%8.2f guest MIPS",
			 (double)c->insns / r->seconds / 1e6);
	line(out, c->insns, "instructions", r->seconds > 0 ? note : NULL);
	line(out, c->branches, "branches", NULL);
	if (c->branches)
		snprintf(note, sizeof(note), "%7.2f%% of all branches",
			 100.0 * (double)c->taken / (double)c->branches);
	line(out, c->taken, "taken-branches", c->branches ? note : NULL);
	line(out, c->loads, "loads", NULL);
	line(out, c->stores, "stores", NULL);
	line(out, c->syscalls, "syscalls", NULL);
	fprintf(out, "\n%18.9f seconds time elapsed\n", r->seconds);
	if (verbose)
		fprintf(out, "%18d guest process%s\n", r->nprocs, r->nprocs == 1 ? "" : "es");
	fprintf(out, "\n");
}

static uint64_t ev_total(const struct session_result *r, int k)
{
	const uint64_t(*v)[2] = r->ev.v[k];
	return v[0][0] + v[0][1] + v[1][0] + v[1][1];
}

static uint64_t ev_of(const struct session_result *r, const char *name)
{
	int k = session_event_find(name);
	return k < 0 ? 0 : ev_total(r, k);
}

static void ratio_note(char *buf, size_t n, uint64_t a, uint64_t b, const char *what)
{
	if (b)
		snprintf(buf, n, "%7.2f%% %s", 100.0 * (double)a / (double)b, what);
	else
		buf[0] = 0;
}

static void param_line(void *arg, const char *key, const char *value)
{
	fprintf(arg, "  %-24s %s\n", key, value);
}

/* Counts of the timing model, perf-stat shaped: the generic events first,
 * with the derived figures perf gives (IPC, miss ratios, clock). */
static void print_timed(FILE *out, char **argv, const struct session_opts *o,
			const struct session_result *r, unsigned mhz)
{
	uint64_t cyc = ev_of(r, "cycles"), ins = ev_of(r, "instructions");
	uint64_t br = ev_of(r, "branches"), ld = ev_of(r, "loads");
	char cmd[512], note[96];

	fprintf(out, "\n Performance counter stats for '%s' (machine %s):\n\n",
		fmt_argv(argv, cmd, sizeof(cmd)), o->arch);
	snprintf(note, sizeof(note), "%8.3f GHz (emulated clock)", mhz / 1000.0);
	line(out, cyc, "cycles", note);
	if (cyc)
		snprintf(note, sizeof(note), "%8.2f insn per cycle", (double)ins / (double)cyc);
	line(out, ins, "instructions", cyc ? note : NULL);
	if (cyc)
		snprintf(note, sizeof(note), "%8.2f µops per cycle",
			 (double)ev_of(r, "uops") / (double)cyc);
	line(out, ev_of(r, "uops"), "uops", cyc ? note : NULL);
	line(out, br, "branches", NULL);
	ratio_note(note, sizeof(note), ev_of(r, "branch-misses"), br, "of all branches");
	line(out, ev_of(r, "branch-misses"), "branch-misses", note[0] ? note : NULL);
	ratio_note(note, sizeof(note), ev_of(r, "L1-dcache-load-misses"), ld, "of all loads");
	line(out, ev_of(r, "L1-dcache-load-misses"), "L1-dcache-load-misses",
	     note[0] ? note : NULL);
	ratio_note(note, sizeof(note), ev_of(r, "L1-icache-load-misses"),
		   ev_of(r, "L1-icache-loads"), "of all I-cache lookups");
	line(out, ev_of(r, "L1-icache-load-misses"), "L1-icache-load-misses",
	     note[0] ? note : NULL);
	ratio_note(note, sizeof(note), ev_of(r, "cache-misses"), ev_of(r, "cache-references"),
		   "of all LLC references");
	line(out, ev_of(r, "cache-misses"), "LLC-misses", note[0] ? note : NULL);
	line(out, ev_of(r, "dTLB-load-misses"), "dTLB-load-misses", NULL);
	line(out, r->cnt.syscalls, "syscalls", NULL);
	if (o->smt || o->verbose) {
		fprintf(out, "\n%18s      %-28s %18s %18s\n", "", "event", "cpu0", "cpu1");
		for (int k = 0; k < r->ev.n; k++) {
			char a[32], b[32];
			const uint64_t(*v)[2] = r->ev.v[k];

			if (!o->verbose && !ev_total(r, k))
				continue;
			fprintf(out, "%18s      %-28s %18s %18s\n", "", session_event_name(k),
				fmt_count(v[0][0] + v[0][1], a, sizeof(a)),
				fmt_count(v[1][0] + v[1][1], b, sizeof(b)));
		}
	}
	if (mhz)
		fprintf(out, "\n%18.9f seconds emulated time\n", (double)cyc / (mhz * 1e6));
	fprintf(out, "%18.9f seconds time elapsed\n", r->seconds);
	if (r->seconds > 0)
		fprintf(out, "%18.2f guest MIPS\n", (double)r->cnt.insns / r->seconds / 1e6);
	if (o->verbose) {
		fprintf(out, "\n machine %s parameters:\n", o->arch);
		session_machine_params(o->arch, o->set, param_line, out);
		fprintf(out, "%18d guest process%s\n", r->nprocs, r->nprocs == 1 ? "" : "es");
	}
	fprintf(out, "\n");
}

/* Counts of the events asked for with -e, perf-stat shaped. */
static void print_pmu(FILE *out, char **argv, const struct session_opts *o, const struct pmu_set *s,
		      const uint64_t *val, int runs, const struct session_result *r, unsigned mhz)
{
	char cmd[512], num[32], note[96];
	int cyc = -1, ins = -1;

	for (unsigned i = 0; i < s->n; i++) {
		if (!strcmp(s->ev[i].name, "cycles") || !strcmp(s->ev[i].name, "cpu-cycles"))
			cyc = (int)i;
		if (!strcmp(s->ev[i].name, "instructions"))
			ins = (int)i;
	}
	fprintf(out, "\n Performance counter stats for '%s' (machine %s):\n\n",
		fmt_argv(argv, cmd, sizeof(cmd)), o->arch);
	for (unsigned i = 0; i < s->n; i++) {
		note[0] = 0;
		if ((int)i == ins && cyc >= 0 && val[cyc])
			snprintf(note, sizeof(note), "%8.2f insn per cycle",
				 (double)val[i] / (double)val[cyc]);
		else if ((int)i == cyc && mhz)
			snprintf(note, sizeof(note), "%8.3f GHz (emulated clock)", mhz / 1000.0);
		fprintf(out, "%18s      %-32s%s%s%s\n", fmt_count(val[i], num, sizeof(num)),
			s->ev[i].name, note[0] ? " #  " : "", note, runs > 1 ? "  (exact)" : "");
	}
	fprintf(out, "\n%18.9f seconds time elapsed\n", r->seconds);
	if (r->seconds > 0)
		fprintf(out, "%18.2f guest MIPS\n", (double)r->cnt.insns / r->seconds / 1e6);
	if (runs > 1)
		fprintf(out, "%18d deterministic runs (--exact): every count is exact\n", runs);
	fprintf(out, "\n");
}

/* Run the program once per pack of whole groups that fits the counters;
 * values in s's order.  0, or a status after a message. */
static int run_exact(struct session_opts *o, struct pmu_set *all, uint64_t *val,
		     struct session_result *r, int *runs)
{
	unsigned i = 0;
	char err[512];

	*runs = 0;
	while (i < all->n) {
		struct pmu_set pack = { .b = all->b };
		unsigned j = i, fit = i;
		/* grow by whole groups while they fit */
		while (j < all->n) {
			unsigned end = j + 1;
			while (end < all->n && all->ev[end].group == all->ev[j].group)
				end++;
			pack.n = 0;
			for (unsigned k = i; k < end; k++) {
				pack.ev[pack.n] = all->ev[k];
				pack.ev[pack.n].group -= (int)i;
				pack.n++;
			}
			if (all->b->assign(pack.ev, pack.n, pack.ctr, err, sizeof(err)) < 0)
				break;
			fit = j = end;
		}
		if (fit == i) {
			fprintf(stderr, "vpmu stat: %s\n", err);
			return 1;
		}
		pack.n = 0;
		for (unsigned k = i; k < fit; k++) {
			pack.ev[pack.n] = all->ev[k];
			pack.ev[pack.n].group -= (int)i;
			pack.n++;
		}
		all->b->assign(pack.ev, pack.n, pack.ctr, err, sizeof(err));
		o->pmu = &pack;
		int rc = session_run(o, r, stderr);
		o->pmu = NULL;
		if (rc)
			return rc;
		for (unsigned k = i; k < fit; k++)
			val[k] = r->pmu[k - i];
		(*runs)++;
		i = fit;
	}
	return 0;
}

int cmd_stat(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 's' },
		{ "vtime", no_argument, NULL, 't' },
		{ "arch", required_argument, NULL, 'a' },
		{ "set", required_argument, NULL, 'S' },
		{ "smt", no_argument, NULL, 'T' },
		{ "no-timing", no_argument, NULL, 'F' },
		{ "timeout", required_argument, NULL, 'L' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "event", required_argument, NULL, 'e' },
		{ "exact", no_argument, NULL, 'X' },
		{ NULL, 0, NULL, 0 },
	};
	struct session_opts o = { .timed = 1, .arch = "p4" };
	struct session_result r;
	static struct pmu_set set;
	const char *outpath = NULL, *specs[ARCH_MAX_EVSEL];
	unsigned nspecs = 0;
	uint64_t val[ARCH_MAX_EVSEL] = { 0 };
	FILE *out = stderr;
	int c, rc, exact = 0, runs = 1;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:o:a:e:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (nspecs < ARCH_MAX_EVSEL)
				specs[nspecs++] = optarg;
			break;
		case 'X':
			exact = 1;
			break;
		case 'o':
			outpath = optarg;
			break;
		case 's':
			if (opt_u64(optarg, &o.seed)) {
				fprintf(stderr, "vpmu stat: --seed wants a number, not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 't':
			o.vtime = 1;
			break;
		case 'a':
			o.arch = optarg;
			break;
		case 'S':
			o.set = optarg;
			break;
		case 'T':
			o.smt = 1;
			break;
		case 'F':
			o.timed = 0;
			break;
		case 'L':
			if (opt_timeout(optarg, &o)) {
				fprintf(stderr,
					"vpmu stat: --timeout wants a time (5s, 500ms, 2m, 1h) or "
					"an instruction count (1000000insn), not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'v':
			o.verbose = 1;
			break;
		case 'h':
			fputs(stat_usage, stdout);
			return 0;
		case ':':
			fprintf(stderr, "vpmu stat: option '%s' needs an argument\n",
				argv[optind - 1]);
			return 1;
		default:
			if (optopt)
				fprintf(stderr, "vpmu stat: unknown option '-%c'\n", optopt);
			else
				fprintf(stderr, "vpmu stat: unknown option '%s'\n",
					argv[optind - 1]);
			fputs(stat_usage, stderr);
			return 1;
		}
	}
	if (optind >= argc) {
		fputs(stat_usage, stderr);
		return 1;
	}
	o.prog = argv[optind];
	o.argv = &argv[optind];
	if (nspecs) {
		char err[512];
		set.b = arch_find(o.arch);
		if (!set.b) {
			fprintf(stderr,
				"vpmu stat: machine '%s' has no counter hardware model yet; -e needs "
				"-a p4\n",
				o.arch);
			return 1;
		}
		if (!o.timed) {
			fprintf(stderr, "vpmu stat: -e counts the timing model's events: drop "
					"--no-timing\n");
			return 1;
		}
		for (unsigned k = 0; k < nspecs; k++)
			if (evspec_parse(set.b, specs[k], set.ev, ARCH_MAX_EVSEL, &set.n, err,
					 sizeof(err)) < 0) {
				fprintf(stderr, "vpmu stat: %s\n", err);
				return 1;
			}
		if (set.b->assign(set.ev, set.n, set.ctr, err, sizeof(err)) < 0) {
			if (!exact) {
				fprintf(stderr,
					"vpmu stat: %s (--exact counts them in separate "
					"deterministic runs)\n",
					err);
				return 1;
			}
		} else {
			exact = 0;
			o.pmu = &set;
		}
	}

	if (outpath) {
		out = fopen(outpath, "w");
		if (!out) {
			fprintf(stderr, "vpmu stat: cannot open '%s': %s\n", outpath,
				strerror(errno));
			return 1;
		}
	}
	if (exact)
		rc = run_exact(&o, &set, val, &r, &runs);
	else
		rc = session_run(&o, &r, stderr);
	if (rc) {
		if (out != stderr)
			fclose(out);
		return rc;
	}
	/* perf reports a workload killed by a signal this way, before the counts. */
	if (r.timeout)
		opt_timeout_note(&o, &r);
	else if (r.sig && !r.unsupported)
		fprintf(stderr, "%s: %s\n", o.prog, strsignal(r.sig));
	if (nspecs) {
		if (!exact)
			memcpy(val, r.pmu, sizeof(uint64_t) * set.n);
		print_pmu(out, o.argv, &o, &set, val, runs, &r, session_machine_mhz(o.arch, o.set));
	} else if (o.timed)
		print_timed(out, o.argv, &o, &r, session_machine_mhz(o.arch, o.set));
	else
		print_counts(out, o.argv, &r, o.verbose);
	if (out != stderr && fclose(out) != 0) {
		fprintf(stderr, "vpmu stat: writing '%s': %s\n", outpath, strerror(errno));
		return 1;
	}
	session_exit(&r);
}
