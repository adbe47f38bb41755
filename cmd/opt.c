/* opt.c — option values and complaints shared by the commands (opt.h). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"

/* perf's options for what is not a program vpmu runs, and why a command
 * that runs one (stat, record, trace, mem) takes none of them. */
static const struct {
	char s;	       /* the short option, or 0 */
	const char *l; /* the long one */
	const char *why;
} not_run[] = {
	{ 'p', "--pid", "attaches to a running process" },
	{ 't', "--tid", "attaches to a running thread" },
	{ 'C', "--cpu", "picks host CPUs" },
	{ 0, "--all-cpus", "counts the whole host" },
	{ 0, "--cgroup", "counts a host cgroup" },
};

/* Whether the unknown option (short s, or the long one at arg) is one of
 * not_run[], said so for cmd. */
static int said_not_run(const char *cmd, int s, const char *arg)
{
	static const char *const runs[] = { "stat", "record", "trace", "mem" };
	size_t k, i;

	for (k = 0; k < sizeof(runs) / sizeof(runs[0]) && strcmp(cmd, runs[k]); k++)
		;
	if (k == sizeof(runs) / sizeof(runs[0]))
		return 0;
	for (i = 0; i < sizeof(not_run) / sizeof(not_run[0]); i++) {
		size_t n = strlen(not_run[i].l);
		if (s ? s == not_run[i].s :
			arg && !strncmp(arg, not_run[i].l, n) && (!arg[n] || arg[n] == '='))
			break;
	}
	if (i == sizeof(not_run) / sizeof(not_run[0]))
		return 0;
	char name[32];
	if (not_run[i].s)
		snprintf(name, sizeof(name), "-%c/%s", not_run[i].s, not_run[i].l);
	else
		snprintf(name, sizeof(name), "%s", not_run[i].l);
	fprintf(stderr,
		"vpmu %s: %s %s; vpmu measures only a program it runs on its emulated machine: "
		"vpmu %s [OPTIONS] PROGRAM [ARGS]\n",
		cmd, name, not_run[i].why, cmd);
	return 1;
}

void opt_bad(const char *cmd, int c, char *const *argv)
{
	if (c != ':' && said_not_run(cmd, optopt, optopt ? NULL : argv[optind - 1]))
		return;
	if (c == ':')
		fprintf(stderr, "vpmu %s: option '%s' needs an argument\n", cmd, argv[optind - 1]);
	else if (optopt)
		fprintf(stderr, "vpmu %s: unknown option '-%c' (vpmu %s -h lists them)\n", cmd,
			optopt, cmd);
	else
		fprintf(stderr, "vpmu %s: unknown option '%s' (vpmu %s -h lists them)\n", cmd,
			argv[optind - 1], cmd);
}

int opt_filter(const char *cmd, struct report_filter *f, enum report_filter_kind k,
	       const char *list)
{
	errno = 0;
	if (!report_filter_add(f, k, list))
		return 0;
	if (errno == EINVAL)
		fprintf(stderr, "vpmu %s: --%s wants %s IDs (comma-separated), not '%s'\n", cmd,
			k == REPORT_F_PID ? "pid" : "tid", k == REPORT_F_PID ? "process" : "thread",
			list);
	else
		fprintf(stderr, "vpmu %s: out of memory\n", cmd);
	return -1;
}

int opt_time(const char *cmd, struct report_filter *f, const char *spec)
{
	errno = 0;
	if (!report_filter_time(f, spec))
		return 0;
	fprintf(stderr,
		"vpmu %s: --time wants START,STOP in seconds of emulated time (either may be "
		"left out; several separated by spaces) or percents (A%%-B%%, A%%/N; several "
		"separated by ','), not '%s'\n",
		cmd, spec);
	return -1;
}

int opt_time_clock(const char *cmd, struct report_filter *f, const struct report *r)
{
	if (!report_filter_clock(f, r))
		return 0;
	fprintf(stderr, "vpmu %s: --time: %s names no clock (core.mhz)\n", cmd, r->path);
	return -1;
}

int opt_max_stack(const char *cmd, const char *s, uint32_t *max)
{
	uint64_t v;

	if (!opt_u64(s, &v) && v >= 1 && v <= UINT32_MAX) {
		*max = (uint32_t)v;
		return 0;
	}
	fprintf(stderr, "vpmu %s: --max-stack wants a number of frames (1 or more), not '%s'\n",
		cmd, s);
	return -1;
}

int opt_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	if (!*s || *s == '-' || *s == '+')
		return -1;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

/* LIMIT: a number (decimal, may have a fraction or exponent) with a unit:
 * none or s, ms, m, h for wall-clock time; insn or insns for emulated
 * instructions (then a whole number). */
static int parse_timeout(const char *s, struct session_opts *o)
{
	static const struct {
		const char *unit;
		double scale;
	} wall[] = { { "", 1 }, { "s", 1 }, { "ms", 1e-3 }, { "m", 60 }, { "h", 3600 } };
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !(v > 0) || *s == '-' || *s == '+' || strchr(s, 'x') ||
	    strchr(s, 'X') || (end[0] && end[0] >= '0' && end[0] <= '9'))
		return -1;
	if (!strcmp(end, "insn") || !strcmp(end, "insns")) {
		if (v != (double)(uint64_t)v || v >= 0x1p63)
			return -1;
		o->max_insns = (uint64_t)v;
		return 0;
	}
	for (size_t i = 0; i < sizeof(wall) / sizeof(wall[0]); i++)
		if (!strcmp(end, wall[i].unit) && v * wall[i].scale < 1e9) {
			o->timeout = v * wall[i].scale;
			return 0;
		}
	return -1;
}

void opt_timeout_note(const struct session_opts *o, const struct session_result *r)
{
	if (r->timeout == SESSION_TIMEOUT_WALL)
		fprintf(stderr, "%s: stopped by --timeout after %.3f s of wall-clock time\n",
			o->prog, o->timeout);
	else if (r->timeout == SESSION_TIMEOUT_INSNS)
		fprintf(stderr, "%s: stopped by --timeout after %llu emulated instructions\n",
			o->prog, (unsigned long long)o->max_insns);
}

int opt_timeout(const char *cmd, const char *s, struct session_opts *o)
{
	if (!parse_timeout(s, o))
		return 0;
	fprintf(stderr,
		"vpmu %s: --timeout wants a time (5s, 500ms, 2m, 1h) or an instruction count "
		"(1000000insn), not '%s'\n",
		cmd, s);
	return -1;
}

int opt_seed(const char *cmd, const char *s, struct session_opts *o)
{
	if (!opt_u64(s, &o->seed))
		return 0;
	fprintf(stderr, "vpmu %s: --seed wants a number, not '%s'\n", cmd, s);
	return -1;
}
