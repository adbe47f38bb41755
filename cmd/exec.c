/* exec.c — the hidden `__exec` command: a guest called execve(), and the
 * Linux layer re-executes vpmu on the new image so it keeps running under
 * the emulator, counting into the same shared area.
 *
 * Command line (built by emu/linux when the guest execs):
 *
 *   vpmu __exec --shared-fd N --seed S [-v] [--cpus MASK]
 *               [--vtime --vtime-base NS --vtime-cpu NS --vtime-start NS
 *                --vtime-slept NS [--vtime-itimers T]] [--clock-base CYCLES]
 *               -- PATH ARGV0 ARGS...
 *
 *   N      fd of the lx_shared area, inherited across the host execve
 *   S      the run's seed (decimal or 0x-prefixed hex)
 *   MASK   the logical processors sched_setaffinity gave the thread that
 *          called execve, a bit each (execve keeps them)
 *   NS     the emulated monotonic clock when the guest called execve, the
 *          process's CPU time then, the clock when the process began, the
 *          time it has spent in timed waits
 *   CYCLES the timing model's clock when the guest called execve, where
 *          the new image's goes on from (the times of its samples and
 *          system calls)
 *   PATH   the file the guest passed to execve (already resolved)
 *   ARGV0… the guest's argv as it passed it; the environment of this
 *          process is the guest's envp.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "core/session.h"

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	if (!*s || *s == '-')
		return -1;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

/* --NAME NS, nanoseconds of the emulated clock: 0, or -1 after saying so. */
static int parse_ns(const char *name, const char *s, int64_t *v)
{
	uint64_t ns;

	if (parse_u64(s, &ns) || ns > INT64_MAX) {
		fprintf(stderr, "vpmu __exec: bad --%s '%s'\n", name, s);
		return -1;
	}
	*v = (int64_t)ns;
	return 0;
}

int cmd_exec(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "shared-fd", required_argument, NULL, 'f' },
		{ "seed", required_argument, NULL, 's' },
		{ "vtime", no_argument, NULL, 't' },
		{ "vtime-base", required_argument, NULL, 'b' },
		{ "vtime-itimers", required_argument, NULL, 'i' },
		{ "vtime-cpu", required_argument, NULL, 'c' },
		{ "vtime-start", required_argument, NULL, 'S' },
		{ "vtime-slept", required_argument, NULL, 'w' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "cpus", required_argument, NULL, 'p' },
		{ "clock-base", required_argument, NULL, 'k' },
		{ NULL, 0, NULL, 0 },
	};
	struct session_opts o = { 0 };
	uint64_t fd = UINT64_MAX;
	char end;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+v", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (parse_u64(optarg, &fd) || fd > INT32_MAX) {
				fprintf(stderr, "vpmu __exec: bad --shared-fd '%s'\n", optarg);
				return 1;
			}
			break;
		case 's':
			if (parse_u64(optarg, &o.seed)) {
				fprintf(stderr, "vpmu __exec: bad --seed '%s'\n", optarg);
				return 1;
			}
			break;
		case 't':
			o.vtime = 1;
			break;
		case 'b':
			if (parse_ns("vtime-base", optarg, &o.vtime_base))
				return 1;
			break;
		case 'c':
			if (parse_ns("vtime-cpu", optarg, &o.vtime_cpu))
				return 1;
			break;
		case 'S':
			if (parse_ns("vtime-start", optarg, &o.vtime_start))
				return 1;
			break;
		case 'w':
			if (parse_ns("vtime-slept", optarg, &o.vtime_slept))
				return 1;
			break;
		case 'k':
			if (parse_u64(optarg, &o.clock_base)) {
				fprintf(stderr, "vpmu __exec: bad --clock-base '%s'\n", optarg);
				return 1;
			}
			break;
		case 'i': /* ITIMER_REAL, _VIRTUAL, _PROF: ns left and interval each */
			if (sscanf(optarg,
				   "%" SCNd64 ",%" SCNd64 ",%" SCNd64 ",%" SCNd64 ",%" SCNd64
				   ",%" SCNd64 "%c",
				   &o.itimer[0][0], &o.itimer[0][1], &o.itimer[1][0],
				   &o.itimer[1][1], &o.itimer[2][0], &o.itimer[2][1], &end) != 6) {
				fprintf(stderr, "vpmu __exec: bad --vtime-itimers '%s'\n", optarg);
				return 1;
			}
			break;
		case 'v':
			o.verbose = 1;
			break;
		case 'p':
			if (parse_u64(optarg, &o.cpus)) {
				fprintf(stderr, "vpmu __exec: bad --cpus '%s'\n", optarg);
				return 1;
			}
			break;
		default:
			return 1;
		}
	}
	if (fd == UINT64_MAX || argc - optind < 2) {
		fprintf(stderr,
			"usage: vpmu __exec --shared-fd N --seed S [-v] [--cpus MASK] [--vtime "
			"--vtime-base NS --vtime-cpu NS --vtime-start NS --vtime-slept NS "
			"[--vtime-itimers T]] [--clock-base CYCLES] "
			"-- PATH ARGV0 "
			"[ARGS...]\n");
		return 1;
	}
	o.prog = argv[optind];
	o.argv = &argv[optind + 1];
	session_continue(&o, (int)fd);
}
