/* stat.c — `vpmu stat`: run a program on the emulated machine and print,
 * perf-stat style, the functional counts the emulator knows exactly.
 * There is no timing model behind these numbers: only what the
 * interpreter retires, summed over every guest process.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "core/fmt.h"
#include "core/session.h"

static const char stat_usage[] =
	"usage: vpmu stat [-v] [-o FILE] [--seed N] [--vtime] [--] PROGRAM [ARGS...]\n"
	"\n"
	"Run PROGRAM on the emulated machine and print the counts it retired.\n"
	"\n"
	"    -o, --output FILE  write the counts to FILE instead of standard error\n"
	"        --seed N       seed for AT_RANDOM and other guest randomness (default 0)\n"
	"        --vtime        time system calls report emulated, not host, time\n"
	"    -v, --verbose      also report unknown system calls and the process count\n"
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

static int parse_seed(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	if (!*s || *s == '-')
		return -1;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

int cmd_stat(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 's' },
		{ "vtime", no_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct session_opts o = { 0 };
	struct session_result r;
	const char *outpath = NULL;
	FILE *out = stderr;
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:o:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			outpath = optarg;
			break;
		case 's':
			if (parse_seed(optarg, &o.seed)) {
				fprintf(stderr, "vpmu stat: --seed wants a number, not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 't':
			o.vtime = 1;
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

	if (outpath) {
		out = fopen(outpath, "w");
		if (!out) {
			fprintf(stderr, "vpmu stat: cannot open '%s': %s\n", outpath,
				strerror(errno));
			return 1;
		}
	}
	rc = session_run(&o, &r, stderr);
	if (rc) {
		if (out != stderr)
			fclose(out);
		return rc;
	}
	/* perf reports a workload killed by a signal this way, before the counts. */
	if (r.sig && !r.unsupported)
		fprintf(stderr, "%s: %s\n", o.prog, strsignal(r.sig));
	print_counts(out, o.argv, &r, o.verbose);
	if (out != stderr && fclose(out) != 0) {
		fprintf(stderr, "vpmu stat: writing '%s': %s\n", outpath, strerror(errno));
		return 1;
	}
	session_exit(&r);
}
