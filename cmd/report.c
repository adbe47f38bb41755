/* report.c — `vpmu report`: read a sample file and print where the
 * samples fell, perf report --stdio style, or export them (folded stacks,
 * callgrind, JSON). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "opt.h"
#include "core/hist.h"
#include "core/hist_chain.h"
#include "core/report.h"
#include "core/report_branch.h"
#include "core/report_filter.h"
#include "core/report_out.h"

static const char report_usage[] =
	"usage: vpmu report [-i FILE] [-s KEYS] [-n] [--show-total-period] [-t SEP]\n"
	"                   [--percent-limit PCT] [--percentage relative|absolute]\n"
	"                   [-e EVENT] [-c NAMES] [-d NAMES] [-S NAMES]\n"
	"                   [--symbol-filter TEXT] [--pid PIDS] [--tid TIDS]\n"
	"                   [--time START,STOP] [-U] [-q]\n"
	"                   [-g [PARAMS]] [-G] [--call-graph PARAMS] [--max-stack N]\n"
	"                   [--children | --no-children]\n"
	"                   [--header | --header-only | --stats]\n"
	"                   [--format FORMAT] [--stdio] [--profileme] [--no-inline]\n"
	"                   [--demangle | --no-demangle] [-b]\n"
	"\n"
	"Read a sample file written by vpmu record and print where the samples fell.\n"
	"\n"
	"    -i, --input FILE       the sample file (default vpmu.data; - is standard\n"
	"                           input)\n"
	"    -s, --sort KEYS        comma-separated sort keys (default comm,dso,sym):\n"
	"                           comm dso sym symoff srcline srcfile daddr dsym ddso\n"
	"                           event thread pid tid cpu skid local_weight (the\n"
	"                           latency an EAR measured) latency (the same in\n"
	"                           powers of two) abort (ProfileMe: retired or\n"
	"                           aborted) mem (PEBS, data EAR, ProfileMe: the\n"
	"                           level the loads' data came from) missclass\n"
	"                           (their L1 miss: compulsory, capacity, conflict,\n"
	"                           when recorded with l1d.classify=1)\n"
	"    -n, --show-nr-samples  a column with the number of samples\n"
	"        --show-total-period\n"
	"                           a column with the sum of their periods (the\n"
	"                           events they stand for)\n"
	"    -t, --field-separator SEP\n"
	"                           separate columns by SEP instead of aligning them\n"
	"        --percent-limit PCT  leave out entries below PCT percent\n"
	"        --percentage relative|absolute\n"
	"                           percentages (and the headers' totals) of the\n"
	"                           samples the filters keep, or of all (default)\n"
	"    -e, --event EVENT      only the event named EVENT (default: each event\n"
	"                           in its own section)\n"
	"    -c, --comms NAMES      only samples of these threads (comma-separated)\n"
	"    -d, --dsos NAMES       only samples in these images\n"
	"    -S, --symbols NAMES    only samples in these functions\n"
	"        --symbol-filter TEXT\n"
	"                           only samples in functions whose name holds TEXT\n"
	"        --pid PIDS         only samples of these processes (comma-separated)\n"
	"        --tid TIDS         only samples of these threads\n"
	"        --time START,STOP  only samples of that span of their process's\n"
	"                           emulated time, in seconds (either may be left\n"
	"                           out: 0.001,; several separated by spaces), or\n"
	"                           percents of the samples' span: 0%-10%,30%-40%,\n"
	"                           10%/2 (the second tenth)\n"
	"    -U, --hide-unresolved  only samples in a known function\n"
	"    -q, --quiet            no comment lines: the entries alone\n"
	"    -g [PARAMS]            the call graph of each entry (needs record -g; the\n"
	"                           default, as perf's, for a file with call chains)\n"
	"    -G, --inverted         call graphs with the outermost caller first\n"
	"        --max-stack N      call chains cut to N frames (children, graphs)\n"
	"        --call-graph PARAMS\n"
	"                           call graph, comma-separated: none, or its form\n"
	"                           (graph, fractal, flat, folded), caller or callee\n"
	"                           order, the value shown (percent, period, count) and\n"
	"                           a percent below which branches are left out\n"
	"                           (default graph,callee,percent,0.5)\n"
	"        --children         also add each sample to the functions of its call\n"
	"                           chain: a Children column (the function and all it\n"
	"                           called) beside Self, sorted by it (the default,\n"
	"                           as perf's, for a file with call chains: record -g)\n"
	"        --no-children      one Overhead column, each sample in its own\n"
	"                           function only (the default without call chains)\n"
	"        --header           first the machine, its parameters, the command\n"
	"                           line, event totals and lost samples\n"
	"        --header-only      only that\n"
	"        --stats            only the records of the file by type and the\n"
	"                           samples of each event, as perf report --stats\n"
	"        --format FORMAT    stdio (default), folded (stack;frames count),\n"
	"                           callgrind or json\n"
	"        --no-inline        no frames for inlined functions in call graphs\n"
	"                           and folded stacks\n"
	"        --demangle         C++ and Rust names as written (ns::f()), the\n"
	"                           default\n"
	"        --no-demangle      names as the files have them (_ZN2ns1fEv)\n"
	"        --stdio            text output (the default)\n"
	"    -b, --branch-stack     count the branches of the samples' branch stacks\n"
	"                           (record -b) instead of the samples; sort keys\n"
	"                           dso_from symbol_from dso_to symbol_to mispredict\n"
	"                           (default comm,dso_from,symbol_from,dso_to,symbol_to)\n"
	"        --profileme        per instruction from Alpha ProfileMe records:\n"
	"                           abort rate, stage latencies, inum retire delay,\n"
	"                           window and (paired samples) concurrency\n"
	"    -h, --help             show this help\n";

enum format { F_STDIO, F_FOLDED, F_CALLGRIND, F_JSON };

/* long options without a letter of their own */
enum {
	OPT_CALL_GRAPH = 256,
	OPT_PID,
	OPT_TID,
	OPT_PERIOD,
	OPT_PERCENTAGE,
	OPT_TIME,
	OPT_MAX_STACK,
	OPT_DEMANGLE,
	OPT_NO_DEMANGLE,
	OPT_STATS,
	OPT_SYMBOL_FILTER
};

struct args {
	const char *input, *sort, *event;
	struct report_opts o;
	struct report_filter filter;
	int header; /* 1 --header, 2 --header-only, 3 --stats */
	int profileme;
	int no_inline, no_demangle;
	int sort_given;
	int branch;   /* --branch-stack: a histogram of the samples' branches */
	int relative; /* --percentage relative */
	uint32_t max_stack;
	enum format format;
};

/* --call-graph's words (perf's; "function", its only key, changes
 * nothing): which setting each makes, and to what. */
enum { CG_ON, CG_ORDER, CG_MODE, CG_VALUE, CG_KEY };
static const struct {
	const char *word;
	int what, to;
} cg_words[] = {
	{ "none", CG_ON, 0 },
	{ "caller", CG_ORDER, 1 },
	{ "callee", CG_ORDER, 0 },
	{ "graph", CG_MODE, HIST_GRAPH },
	{ "fractal", CG_MODE, HIST_FRACTAL },
	{ "flat", CG_MODE, HIST_FLAT },
	{ "folded", CG_MODE, HIST_FOLDED },
	{ "percent", CG_VALUE, HIST_PERCENT },
	{ "period", CG_VALUE, HIST_PERIOD },
	{ "count", CG_VALUE, HIST_COUNT },
	{ "function", CG_KEY, 0 },
};

static int parse_callgraph(const char *s, struct args *a)
{
	char word[64];

	a->o.callgraph = 1;
	for (const char *p = s; *p;) {
		size_t len = strcspn(p, ","), k;
		char *end;
		double v;

		snprintf(word, sizeof(word), "%.*s", (int)(len < 63 ? len : 63), p);
		for (k = 0; k < sizeof(cg_words) / sizeof(cg_words[0]); k++)
			if (!strcmp(word, cg_words[k].word))
				break;
		if (k < sizeof(cg_words) / sizeof(cg_words[0])) {
			int to = cg_words[k].to;
			switch (cg_words[k].what) {
			case CG_ON:
				a->o.callgraph = to;
				break;
			case CG_ORDER:
				a->o.caller = to;
				break;
			case CG_MODE:
				a->o.graph.mode = (enum hist_graph)to;
				break;
			case CG_VALUE:
				a->o.graph.value = (enum hist_value)to;
				break;
			}
		} else if ((v = strtod(word, &end)), end != word && !*end && v >= 0 && v <= 100) {
			a->o.graph.limit = v;
		} else {
			fprintf(stderr,
				"vpmu report: --call-graph takes none, graph, fractal, flat, "
				"folded, caller, callee, percent, period, count and a percent "
				"limit, not '%s'\n",
				word);
			return -1;
		}
		p += len;
		if (*p)
			p++;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "sort", required_argument, NULL, 's' },
		{ "show-nr-samples", no_argument, NULL, 'n' },
		{ "show-total-period", no_argument, NULL, OPT_PERIOD },
		{ "field-separator", required_argument, NULL, 't' },
		{ "percent-limit", required_argument, NULL, 'P' },
		{ "percentage", required_argument, NULL, OPT_PERCENTAGE },
		{ "event", required_argument, NULL, 'e' },
		{ "comms", required_argument, NULL, 'c' },
		{ "dsos", required_argument, NULL, 'd' },
		{ "symbols", required_argument, NULL, 'S' },
		{ "symbol-filter", required_argument, NULL, OPT_SYMBOL_FILTER },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "tid", required_argument, NULL, OPT_TID },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "max-stack", required_argument, NULL, OPT_MAX_STACK },
		{ "hide-unresolved", no_argument, NULL, 'U' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "inverted", no_argument, NULL, 'G' },
		{ "call-graph", required_argument, NULL, OPT_CALL_GRAPH },
		{ "children", no_argument, NULL, 'K' },
		{ "no-children", no_argument, NULL, 'k' },
		{ "header", no_argument, NULL, 'H' },
		{ "header-only", no_argument, NULL, 'O' },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "format", required_argument, NULL, 'f' },
		{ "stdio", no_argument, NULL, 'x' },
		{ "profileme", no_argument, NULL, 'M' },
		{ "no-inline", no_argument, NULL, 'I' },
		{ "demangle", no_argument, NULL, OPT_DEMANGLE },
		{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
		{ "branch-stack", no_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const fmts[] = { "stdio", "folded", "callgrind", "json" };
	int c;
	char *end;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:s:nt:e:c:d:S:UqgGbh", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			a->input = optarg;
			break;
		case 's':
			a->sort = optarg;
			a->sort_given = 1;
			break;
		case 'n':
			a->o.nsamples_col = 1;
			break;
		case OPT_PERIOD:
			a->o.period_col = 1;
			break;
		case OPT_PERCENTAGE:
			if (strcmp(optarg, "relative") && strcmp(optarg, "absolute")) {
				fprintf(stderr,
					"vpmu report: --percentage wants relative or absolute, "
					"not '%s'\n",
					optarg);
				return -1;
			}
			a->relative = !strcmp(optarg, "relative");
			break;
		case 't':
			a->o.sep = optarg;
			break;
		case 'P':
			a->o.percent_limit = strtod(optarg, &end);
			if (end == optarg || (*end && strcmp(end, "%")) || a->o.percent_limit < 0) {
				fprintf(stderr,
					"vpmu report: --percent-limit wants a percentage, not '%s'\n",
					optarg);
				return -1;
			}
			break;
		case 'e':
			a->event = optarg;
			break;
		case 'c':
		case 'd':
		case 'S':
		case OPT_PID:
		case OPT_TID:
			if (opt_filter("report", &a->filter,
				       c == 'c'	    ? REPORT_F_COMM :
				       c == 'd'	    ? REPORT_F_DSO :
				       c == 'S'	    ? REPORT_F_SYM :
				       c == OPT_PID ? REPORT_F_PID :
						      REPORT_F_TID,
				       optarg))
				return -1;
			break;
		case OPT_TIME:
			if (opt_time("report", &a->filter, optarg))
				return -1;
			break;
		case OPT_MAX_STACK:
			if (opt_max_stack("report", optarg, &a->max_stack))
				return -1;
			break;
		case 'U':
			a->filter.resolved = 1;
			break;
		case 'q':
			a->o.quiet = 1;
			break;
		case 'g':
			a->o.callgraph = 1;
			/* perf's -g takes --call-graph's PARAMS too (-g caller) */
			if (optind < argc && argv[optind][0] != '-' &&
			    parse_callgraph(argv[optind++], a))
				return -1;
			break;
		case 'G':
			a->o.callgraph = a->o.caller = 1;
			break;
		case OPT_CALL_GRAPH:
			if (parse_callgraph(optarg, a))
				return -1;
			break;
		case 'K':
		case 'k':
			a->o.children = c == 'K';
			break;
		case 'H':
			a->header = 1;
			break;
		case 'O':
			a->header = 2;
			break;
		case OPT_STATS:
			a->header = 3;
			break;
		case OPT_SYMBOL_FILTER:
			a->filter.sym_sub = optarg;
			break;
		case 'f':
			for (c = 0; c < 4 && strcmp(optarg, fmts[c]); c++)
				;
			if (c == 4) {
				fprintf(stderr,
					"vpmu report: unknown format '%s' (stdio, folded, callgrind, json)\n",
					optarg);
				return -1;
			}
			a->format = (enum format)c;
			break;
		case 'x':
			a->format = F_STDIO;
			break;
		case 'M':
			a->profileme = 1;
			break;
		case OPT_DEMANGLE:
		case OPT_NO_DEMANGLE:
			a->no_demangle = c == OPT_NO_DEMANGLE;
			break;
		case 'I':
			a->no_inline = 1;
			break;
		case 'b':
			a->branch = 1;
			break;
		case 'h':
			fputs(report_usage, stdout);
			return 1;
		case ':':
		default:
			opt_bad("report", c, argv);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr,
			"vpmu report: unexpected argument '%s' (the file is given with -i)\n",
			argv[optind]);
		return -1;
	}
	return 0;
}

/* The hist of event ev (-1: every event) over the samples the filters
 * keep, which add up in kept[] (by event). */
static struct hist *build(const struct report *r, const struct hist_key **keys, int nkeys, int ev,
			  struct args *a, struct report_event *kept)
{
	struct hist *h = hist_new(r, keys, nkeys);

	if (!h)
		return NULL;
	for (size_t i = 0; i < r->nsamples; i++) {
		const struct report_sample *s = &r->samples[i];
		int in;

		if (ev >= 0 && s->ev != (uint32_t)ev)
			continue;
		if (a->o.children)
			in = hist_add_frames(h, s, report_filter_keep, &a->filter);
		else if ((in = report_filter_keep(r, s, &a->filter)) && hist_add(h, s))
			in = -1;
		if (in < 0)
			goto fail;
		if (in && s->ev < r->nevents) {
			kept[s->ev].nsamples++;
			kept[s->ev].period += s->period;
		}
	}
	if (hist_finish(h) || (a->o.callgraph && hist_build_chains(h, a->o.caller)))
		goto fail;
	return h;
fail:
	hist_chains_free(h);
	hist_free(h);
	return NULL;
}

/* Text or JSON: one hist per event (or one for all with the event key). */
static int tables(const struct report *r, const struct hist_key **keys, int nkeys, int only,
		  struct args *a)
{
	struct hist *h[64];
	int ev[64], nh = 0, all = 0, rc = 0;
	struct report_event *kept = calloc(r->nevents + 1, sizeof(*kept));
	struct report view = *r;

	for (int k = 0; k < nkeys; k++)
		all |= !strcmp(keys[k]->name, "event");
	if (only >= 0 || all) {
		ev[nh++] = only;
	} else {
		for (size_t i = 0; i < r->nevents && nh < 64; i++)
			ev[nh++] = (int)i;
	}
	for (int i = 0; i < nh; i++) {
		if (!kept || !(h[i] = build(r, keys, nkeys, ev[i], a, kept))) {
			fprintf(stderr, "vpmu report: out of memory\n");
			nh = i;
			rc = 1;
			break;
		}
	}
	if (!rc && a->relative) {
		/* perf's --percentage relative: of what the filters kept,
		 * in the headers too */
		for (size_t i = 0; i < r->nevents; i++) {
			uint64_t n = kept[i].nsamples, p = kept[i].period;
			kept[i] = r->events[i];
			kept[i].nsamples = n;
			kept[i].period = p;
		}
		view.events = kept;
		r = &view;
	}
	if (!rc && a->format == F_JSON) {
		report_write_json(stdout, r, h, ev, (size_t)nh, &a->o);
	} else if (!rc) {
		uint64_t lost = 0;

		for (size_t i = 0; i < r->nevents; i++)
			lost += r->events[i].lost;
		if (!a->o.quiet)
			printf("#\n# Total Lost Samples: %llu\n#\n", (unsigned long long)lost);
		for (int i = 0; i < nh; i++)
			report_print_section(stdout, r, h[i], ev[i], &a->o);
	}
	for (int i = 0; i < nh; i++) {
		hist_chains_free(h[i]);
		hist_free(h[i]);
	}
	free(kept);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct args a = { .input = "vpmu.data", .sort = "comm,dso,sym" };
	const struct hist_key *keys[HIST_MAXKEYS];
	int nkeys, only = -1, rc = 0;
	char err[1024], warn[1024];
	struct report *r;
	struct report bview = { 0 };
	const struct report *tr; /* what the tables count */

	a.o.graph.limit = 0.5;
	/* (unless given: perf's defaults, by the file) */
	a.o.children = a.o.callgraph = -1;
	rc = parse_args(argc, argv, &a);
	if (rc) {
		report_filter_free(&a.filter);
		return rc < 0 ? 1 : 0;
	}
	if (a.branch && !a.sort_given)
		a.sort = "comm,dso_from,symbol_from,dso_to,symbol_to"; /* perf's */
	if (hist_keys_parse(a.sort, keys, &nkeys, err, sizeof(err)) ||
	    report_branch_keys(keys, nkeys, a.branch, err, sizeof(err))) {
		fprintf(stderr, "vpmu report: %s\n", err);
		report_filter_free(&a.filter);
		return 1;
	}
	r = report_open(a.input,
			(a.format == F_JSON || a.format == F_STDIO ? 0 : REPORT_NO_DATA) |
				(a.profileme ? REPORT_PROFILEME : 0) |
				(a.no_inline ? REPORT_NO_INLINE : 0) |
				(a.no_demangle ? REPORT_NO_DEMANGLE : 0),
			err, sizeof(err));
	if (!r) {
		fprintf(stderr, "vpmu report: %s\n", err);
		report_filter_free(&a.filter);
		return 1;
	}
	tr = r;
	if (a.max_stack)
		report_max_stack(r, a.max_stack);
	if (opt_time_clock("report", &a.filter, r)) {
		report_close(r);
		report_filter_free(&a.filter);
		return 1;
	}
	if (a.o.children < 0 || a.o.callgraph < 0) {
		/* perf's defaults: Children and call graphs where there are chains */
		int chains = 0;
		for (size_t i = 0; i < r->nsamples && !a.branch && !a.profileme && !chains; i++)
			chains = r->samples[i].nchain > 1;
		if (a.o.children < 0)
			a.o.children = chains;
		if (a.o.callgraph < 0)
			a.o.callgraph = chains && a.format == F_STDIO;
	}
	if (report_damage_str(r, warn, sizeof(warn)))
		fprintf(stderr, "vpmu report: %s\n", warn);
	if (report_stale_str(r, warn, sizeof(warn)))
		fprintf(stderr, "vpmu report: %s\n", warn);
	if (a.event && (only = report_event_find(r, a.event)) < 0) {
		fprintf(stderr, "vpmu report: %s has no event '%s'\n", a.input, a.event);
		rc = 1;
	} else if (a.header == 3) {
		report_print_stats(stdout, r);
	} else if (a.header && a.format == F_STDIO) {
		report_print_header(stdout, r);
	}
	if (!rc && !r->nsamples && a.header != 3)
		fprintf(stderr, "vpmu report: %s holds no samples\n", a.input);
	if (!rc && a.branch && a.header < 2) {
		/* the tables count branches: a view of r with one sample per branch */
		if (report_branch_view(r, &bview, err, sizeof(err))) {
			fprintf(stderr, "vpmu report: %s\n", err);
			rc = 1;
		} else {
			tr = &bview;
		}
	}
	if (rc || a.header >= 2)
		;
	else if (a.profileme)
		rc = report_write_profileme(stdout, r, only, report_filter_keep, &a.filter, &a.o) ?
			     1 :
			     0;
	else if (a.format == F_FOLDED)
		report_write_folded(stdout, r, only, report_filter_keep, &a.filter);
	else if (a.format == F_CALLGRIND)
		rc = report_write_callgrind(stdout, r, only, report_filter_keep, &a.filter);
	else
		rc = tables(tr, keys, nkeys, only, &a);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "vpmu report: cannot write the output\n");
		rc = 1;
	}
	report_branch_free(&bview);
	report_close(r);
	report_filter_free(&a.filter);
	return rc;
}
