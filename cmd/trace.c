/* trace.c — `vpmu trace`: run a program on the emulated machine and print
 * each system call it makes, with when it was made and how long it took,
 * perf-trace style; -s sums them up per thread, --call-graph puts each
 * call's chain under it (trace_chain.c).
 *
 * The calls are reported by the guest processes themselves (core/
 * systrace.h) through the session's sample channel as they are made, so
 * a guest that crashes or is killed still leaves every call it made. */
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmds.h"
#include "core/session.h"
#include "core/systrace.h"
#include "emu/linux/linux.h"
#include "opt.h"
#include "trace.h"

#define TRACE_ARGS_WIDTH 70 /* the results line up after the calls (perf's alignment) */
#define TRACE_HELD 64	    /* execve calls held for their outcome at once */

static const char trace_usage[] =
	"usage: vpmu trace [-s | -S [--errno-summary] [--summary-mode MODE]] [-e SYSCALLS]\n"
	"                  [--failure] [--duration MSEC] [--max-events N] [--sort-events]\n"
	"                  [--no-comm] [--call-graph fp|dwarf [--max-stack N] [--min-stack N]]\n"
	"                  [-o FILE] [-a MACHINE] [--set KEY=VAL[,KEY=VAL...]]\n"
	"                  [--no-timing] [--smt] [--seed N] [--vtime] [--timeout LIMIT]\n"
	"                  [--] PROGRAM [ARGS...]\n"
	"\n"
	"Run PROGRAM on the emulated machine and print each system call it makes:\n"
	"when it was made (ms), how long it took, the thread, the call with its\n"
	"arguments, and its result.\n"
	"\n"
	"    -e, --expr SYSCALLS\n"
	"                       trace only these calls: a comma list of names and\n"
	"                       shell patterns (open*); a leading ! traces all but them\n"
	"    -s, --summary      only a summary per thread: calls, errors and times\n"
	"    -S, --with-summary each call, then the summary\n"
	"        --errno-summary\n"
	"                       in the summary, each call's errors by errno\n"
	"        --summary-mode thread|total\n"
	"                       the summary per thread (the default), or of all\n"
	"                       the threads together\n"
	"        --failure      only the calls that failed\n"
	"        --duration MSEC\n"
	"                       only the calls that took longer than MSEC ms\n"
	"        --max-events N only the first N calls printed\n"
	"        --sort-events  print the calls by time once the program has ended\n"
	"                       (the processes' clocks interleaved), not as they come\n"
	"        --call-graph fp|dwarf\n"
	"                       each call's call chain under it, by frame pointers or\n"
	"                       DWARF unwind tables\n"
	"        --max-stack N  call chains cut to N frames (default 127)\n"
	"        --min-stack N  only the calls whose chain has N frames or more\n"
	"                       (--max-stack and --min-stack without --call-graph\n"
	"                       mean --call-graph dwarf)\n"
	"        --comm         the thread's process name before its ID (the default)\n"
	"        --no-comm      the thread ID alone\n"
	"    -o, --output FILE  write the trace to FILE (default: standard error)\n"
	"    -a, --arch MACHINE machine to time: p4 (default), ia64, xscale, xscale2,\n"
	"                       alpha; times are its emulated time, a call's the\n"
	"                       kernel cost model's\n"
	"        --set KEY=VAL  override machine parameters\n"
	"        --no-timing    no timing model (fastest): times are the host's\n"
	"        --smt          run the guest's threads on the two logical processors\n"
	"        --seed N       seed for AT_RANDOM and other guest randomness (default 0)\n"
	"        --vtime        time system calls report emulated, not host, time\n"
	"        --timeout LIMIT\n"
	"                       stop the program cleanly after LIMIT (wall-clock time\n"
	"                       such as 5s, or emulated instructions such as 1e9insn),\n"
	"                       exit with status 124\n"
	"    -h, --help         show this help\n";

/* An execve that replaces its image, and a call that sends a signal
 * (which may end its process in the call), report themselves before they
 * are made: held until their process is heard from again (the call's
 * return, or the new image) or the run ends. */
union held {
	struct recw_syscall m;
	uint64_t room[RECW_MAX / 8];
};

struct tracer {
	FILE *out;
	int calls, failure; /* print each call; only failed ones */
	int64_t min_dur;    /* only those longer than this (ns; -1: all) */
	int64_t t0; /* times are from here: 0 of the emulated clock, or the host's at the start */
	struct trace_summary *sum; /* or NULL */
	union held held[TRACE_HELD];
	int nheld;
	uint64_t bad, nomem;
	struct trace_chains *chains;  /* --call-graph, or NULL */
	uint32_t min_stack;	      /* --min-stack: shorter chains are not printed */
	int no_comm;		      /* --no-comm: the thread ID alone */
	uint64_t max_lines, nprinted; /* --max-events (0: no limit), lines printed */
	/* --sort-events: the lines, printed by time once the run is over */
	int sort;
	struct line {
		int64_t start;
		size_t seq; /* the order the host made them in */
		char *text;
	} * lines;
	size_t nlines, cap;
};

/* A line kept for --sort-events; 0, or -1 out of memory. */
static int keep_line(struct tracer *tr, int64_t start, const char *text)
{
	if (tr->nlines == tr->cap) {
		size_t cap = tr->cap ? 2 * tr->cap : 1024;
		struct line *l = realloc(tr->lines, cap * sizeof(*l));
		if (!l)
			return -1;
		tr->lines = l;
		tr->cap = cap;
	}
	tr->lines[tr->nlines].start = start;
	tr->lines[tr->nlines].seq = tr->nlines;
	if (!(tr->lines[tr->nlines].text = strdup(text)))
		return -1;
	tr->nlines++;
	return 0;
}

static void print_call(struct tracer *tr, const struct systrace_call *c, const char *result)
{
	const struct recw_syscall *m = c->m;
	char call[4096], line[4400], *chain = NULL;

	if ((tr->max_lines && !tr->sort && tr->nprinted >= tr->max_lines) ||
	    m->nchain < tr->min_stack)
		return;
	systab_format_call(call, sizeof(call), m->nr, m->a, c->str);
	int n = snprintf(line, sizeof(line), "%10.3f (%9.6f ms): %s%s%u %-*s = %s\n",
			 (double)(m->start - tr->t0) / 1e6, (double)m->dur / 1e6,
			 tr->no_comm ? "" : m->comm, tr->no_comm ? "" : "/", m->tid,
			 TRACE_ARGS_WIDTH, call, result);
	if (tr->chains && m->nchain && !(chain = trace_chains_format(tr->chains, m)))
		tr->nomem++;
	if (!tr->sort) {
		fputs(line, tr->out);
		if (chain)
			fputs(chain, tr->out);
		tr->nprinted++;
	} else if (chain) {
		/* (one text: the line and its chain stay together) */
		size_t ll = n < 0 ? 0 : (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1;
		char *both = malloc(ll + strlen(chain) + 1);
		if (both) {
			memcpy(both, line, ll);
			strcpy(both + ll, chain);
		}
		if (!both || keep_line(tr, m->start, both) < 0)
			tr->nomem++;
		free(both);
	} else if (keep_line(tr, m->start, line) < 0) {
		tr->nomem++;
	}
	free(chain);
}

/* (equal times in the order the host made them) */
static int by_start(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* --sort-events: the lines kept, by the time each call was made. */
static void print_sorted(struct tracer *tr)
{
	qsort(tr->lines, tr->nlines, sizeof(*tr->lines), by_start);
	for (size_t k = 0; k < tr->nlines; k++) {
		if (!tr->max_lines || k < tr->max_lines)
			fputs(tr->lines[k].text, tr->out);
		free(tr->lines[k].text);
	}
	free(tr->lines);
}

/* A call made and done: printed and summed as the options ask. */
static void complete(struct tracer *tr, const struct systrace_call *c, int64_t ret, int64_t dur)
{
	const struct recw_syscall *m = c->m;
	char res[160];
	int failed = ret < 0 && ret >= -4095;

	if (tr->sum && trace_summary_add(tr->sum, m->comm, m->tid, m->nr, ret, dur) < 0)
		tr->nomem++;
	if (!tr->calls || (tr->failure && !failed) || dur <= tr->min_dur)
		return;
	systab_format_ret(res, sizeof(res), m->nr, ret);
	print_call(tr, c, res);
}

/* A call that never returned: printed with '?' (it has no duration, and
 * no error, for --duration and --failure to pass). */
static void unfinished(struct tracer *tr, const struct systrace_call *c)
{
	if (tr->calls && !tr->failure && tr->min_dur < 0)
		print_call(tr, c, "?");
}

/* Held calls: 1 an execve, 2 a call that sends a signal; 0 none. */
static int held_kind(int32_t nr)
{
	if (nr == 59 || nr == 322)
		return 1;
	return nr == 62 || nr == 129 || nr == 200 || nr == 234 || nr == 297 ? 2 : 0;
}

/* held[k] never came back: an execve succeeded, a call that sent a
 * signal ended its process (as one that does not return). */
static void release(struct tracer *tr, int k)
{
	struct systrace_call c;

	if (!systrace_decode(&tr->held[k].m, tr->held[k].m.h.len, &c)) {
		if (held_kind(c.m->nr) == 1)
			complete(tr, &c, 0, 0);
		else
			unfinished(tr, &c);
	}
	tr->held[k] = tr->held[--tr->nheld];
}

static void hold(struct tracer *tr, const struct recw_syscall *m)
{
	if (tr->nheld == TRACE_HELD)
		release(tr, 0);
	memcpy(&tr->held[tr->nheld++], m, m->h.len);
}

static void on_call(struct tracer *tr, const struct systrace_call *c)
{
	const struct recw_syscall *m = c->m;

	for (int k = 0; k < tr->nheld; k++) {
		if (tr->held[k].m.pid != m->pid)
			continue;
		if (tr->held[k].m.tid == m->tid && tr->held[k].m.nr == m->nr && !m->noreturn) {
			/* it came back: as one call, from where it began */
			struct recw_syscall *h = &tr->held[k].m;
			h->ret = m->ret;
			h->dur = m->dur + (m->start - h->start);
			struct systrace_call hc;
			if (!systrace_decode(h, h->h.len, &hc))
				complete(tr, &hc, h->ret, h->dur);
			tr->held[k] = tr->held[--tr->nheld];
			return;
		}
		release(tr, k--);
	}
	if (!m->noreturn)
		complete(tr, c, m->ret, m->dur);
	else if (held_kind(m->nr))
		hold(tr, m);
	else
		unfinished(tr, c);
}

static void on_msg(void *arg, const void *msg, size_t len)
{
	struct tracer *tr = arg;
	const struct recw_hdr *h = msg;
	struct systrace_call c;

	if (len >= sizeof(*h) && h->type == RECW_MMAP && tr->chains) {
		if (len != sizeof(struct recw_mmap) || trace_chains_mmap(tr->chains, msg) < 0)
			tr->bad++;
		return;
	}
	if (len < sizeof(*h) || h->type != RECW_SYSCALL || systrace_decode(msg, len, &c) < 0) {
		tr->bad++;
		return;
	}
	on_call(tr, &c);
}

/* The calls -e chooses: those of its lists (or all, with none but lists
 * after a !) but those of the lists after a !. */
struct expr {
	uint8_t add[SYSTRACE_MASK], drop[SYSTRACE_MASK];
	int adds;
};

/* One -e's list into x; 0, or -1 after saying why not. */
static int parse_expr(const char *list, struct expr *x)
{
	int neg = *list == '!';
	uint8_t *mask = neg ? x->drop : x->add;
	char *words = strdup(list + neg), *save = NULL;
	int rc = 0, nwords = 0;

	if (!words) {
		fprintf(stderr, "vpmu trace: out of memory\n");
		return -1;
	}
	x->adds |= !neg;
	for (char *w = strtok_r(words, ",", &save); w && !rc; w = strtok_r(NULL, ",", &save)) {
		int found = 0;

		nwords++;
		for (long nr = 0; nr < SYSTAB_MAX; nr++) {
			const struct systab_call *sc = systab_call(nr);
			if (!sc || fnmatch(w, sc->name, 0))
				continue;
			found = 1;
			mask[nr >> 3] |= (uint8_t)(1u << (nr & 7));
		}
		if (!found) {
			const char *near = systab_closest(w);
			if (near)
				fprintf(stderr,
					"vpmu trace: -e: no system call '%s'. Did you mean '%s'?\n",
					w, near);
			else
				fprintf(stderr, "vpmu trace: -e: no system call '%s'\n", w);
			rc = -1;
		}
	}
	if (!rc && !nwords) {
		fprintf(stderr, "vpmu trace: -e wants system call names\n");
		rc = -1;
	}
	free(words);
	return rc;
}

int cmd_trace(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "expr", required_argument, NULL, 'e' },
		{ "summary", no_argument, NULL, 's' },
		{ "with-summary", no_argument, NULL, 'S' },
		{ "errno-summary", no_argument, NULL, 'N' },
		{ "sort-events", no_argument, NULL, 'O' },
		{ "max-events", required_argument, NULL, 'M' },
		{ "call-graph", required_argument, NULL, 'G' },
		{ "max-stack", required_argument, NULL, 'K' },
		{ "min-stack", required_argument, NULL, 'k' },
		{ "comm", no_argument, NULL, 'c' },
		{ "summary-mode", required_argument, NULL, 'm' },
		{ "no-comm", no_argument, NULL, 'C' },
		{ "failure", no_argument, NULL, 'f' },
		{ "duration", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "arch", required_argument, NULL, 'a' },
		{ "set", required_argument, NULL, 'E' },
		{ "no-timing", no_argument, NULL, 'F' },
		{ "smt", no_argument, NULL, 'T' },
		{ "seed", required_argument, NULL, 'R' },
		{ "vtime", no_argument, NULL, 't' },
		{ "timeout", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct session_opts o = { .timed = 1, .arch = "p4" };
	struct session_result r;
	struct tracer tr = { .calls = 1, .min_dur = -1 };
	uint8_t mask[SYSTRACE_MASK];
	struct expr expr = { 0 };
	const char *outpath = NULL;
	int c, summary = 0, errnos = 0, status, sum_total = 0;
	uint32_t max_stack = 0;
	uint64_t min;
	char err[512], *end;
	double ms;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+:e:sSo:a:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (parse_expr(optarg, &expr) < 0)
				return 1;
			break;
		case 's':
			summary = 1;
			tr.calls = 0;
			break;
		case 'S': /* (the last of -s and -S counts) */
			summary = 1;
			tr.calls = 1;
			break;
		case 'G':
			if (!strcmp(optarg, "fp"))
				o.sys_callgraph = LX_CG_FP;
			else if (!strcmp(optarg, "dwarf"))
				o.sys_callgraph = LX_CG_DWARF;
			else {
				fprintf(stderr,
					"vpmu trace: --call-graph wants fp or dwarf, not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'K':
			if (opt_max_stack("trace", optarg, &max_stack))
				return 1;
			break;
		case 'k':
			if (opt_u64(optarg, &min) || !min || min > RECW_MAX_CHAIN) {
				fprintf(stderr,
					"vpmu trace: --min-stack wants a number of frames from 1 "
					"to %d, not '%s'\n",
					RECW_MAX_CHAIN, optarg);
				return 1;
			}
			tr.min_stack = (uint32_t)min;
			break;
		case 'f':
			tr.failure = 1;
			break;
		case 'm':
			if (strcmp(optarg, "thread") && strcmp(optarg, "total")) {
				fprintf(stderr,
					"vpmu trace: --summary-mode wants thread or total, not '%s'\n",
					optarg);
				return 1;
			}
			sum_total = !strcmp(optarg, "total");
			break;
		case 'c':
		case 'C': /* (the last of the two counts) */
			tr.no_comm = c == 'C';
			break;
		case 'N':
			errnos = 1;
			break;
		case 'O':
			tr.sort = 1;
			break;
		case 'M':
			if (opt_u64(optarg, &tr.max_lines) || !tr.max_lines) {
				fprintf(stderr,
					"vpmu trace: --max-events wants a number of calls, not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'd':
			ms = strtod(optarg, &end);
			if (end == optarg || *end || !(ms >= 0) || ms > 1e9) {
				fprintf(stderr,
					"vpmu trace: --duration wants milliseconds (0.5, 10), not "
					"'%s'\n",
					optarg);
				return 1;
			}
			tr.min_dur = (int64_t)(ms * 1e6);
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'a':
			o.arch = optarg;
			break;
		case 'E':
			o.set = optarg;
			break;
		case 'F':
			o.timed = 0;
			break;
		case 'T':
			o.smt = 1;
			break;
		case 'R':
			if (opt_seed("trace", optarg, &o))
				return 1;
			break;
		case 't':
			o.vtime = 1;
			break;
		case 'L':
			if (opt_timeout("trace", optarg, &o))
				return 1;
			break;
		case 'h':
			fputs(trace_usage, stdout);
			return 0;
		case ':':
		default:
			opt_bad("trace", c, argv);
			return 1;
		}
	}
	if ((errnos || sum_total) && !summary) {
		fprintf(stderr, "vpmu trace: %s is of the summary: give -s or -S\n",
			errnos ? "--errno-summary" : "--summary-mode");
		return 1;
	}
	if (optind >= argc) {
		fputs(trace_usage, stderr);
		return 1;
	}
	if (session_check_machine(o.arch, o.set, o.smt, err, sizeof(err)) < 0) {
		fprintf(stderr, "vpmu trace: %s\n", err);
		return 1;
	}
	if (o.smt && !o.timed) {
		fprintf(stderr, "vpmu trace: --smt needs the timing model: drop --no-timing\n");
		return 1;
	}
	tr.out = stderr;
	if (outpath && !(tr.out = fopen(outpath, "we"))) {
		fprintf(stderr, "vpmu trace: %s: %m\n", outpath);
		return 1;
	}
	if ((max_stack || tr.min_stack) && !o.sys_callgraph)
		o.sys_callgraph = LX_CG_DWARF; /* (as perf trace's) */
	if (!tr.calls)
		o.sys_callgraph = LX_CG_NONE; /* (-s prints no call: no chain to take) */
	if ((summary && !(tr.sum = trace_summary_new())) ||
	    (o.sys_callgraph && !(tr.chains = trace_chains_new()))) {
		fprintf(stderr, "vpmu trace: out of memory\n");
		return 1;
	}
	o.sys_max_stack = max_stack < RECW_MAX_CHAIN ? max_stack : RECW_MAX_CHAIN;
	o.prog = argv[optind];
	o.argv = &argv[optind];
	o.on_msg = on_msg;
	o.rec_arg = &tr;
	for (size_t k = 0; k < sizeof(mask); k++)
		mask[k] = (uint8_t)((expr.adds ? expr.add[k] : 0xff) & ~expr.drop[k]);
	o.sys_mask = mask;
	if (!o.timed) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		tr.t0 = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	}
	status = session_run(&o, &r, stderr);
	while (tr.nheld)
		release(&tr, 0);
	if (tr.sort)
		print_sorted(&tr);
	if (!status && tr.sum)
		trace_summary_print(tr.sum, tr.out, errnos, sum_total);
	trace_summary_free(tr.sum);
	trace_chains_free(tr.chains);
	if (tr.bad)
		fprintf(stderr, "vpmu trace: %llu malformed messages from the guest ignored\n",
			(unsigned long long)tr.bad);
	if (tr.nomem)
		fprintf(stderr, "vpmu trace: out of memory: %llu calls left out of the summary\n",
			(unsigned long long)tr.nomem);
	if (fflush(tr.out) || ferror(tr.out) || (outpath && fclose(tr.out))) {
		fprintf(stderr, "vpmu trace: %s: write error\n", outpath ? outpath : "stderr");
		return 1;
	}
	if (status)
		return status;
	if (r.timeout)
		opt_timeout_note(&o, &r);
	else if (r.sig && !r.unsupported)
		fprintf(stderr, "%s: %s\n", o.prog, strsignal(r.sig));
	session_exit(&r);
}
