/* script.c — `vpmu script`: the samples of a sample file one per line,
 * perf script style, with call chains in the multi-line form FlameGraph's
 * stackcollapse-perf.pl reads. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "opt.h"
#include "core/disasm.h"
#include "core/hist.h"
#include "core/report.h"
#include "core/report_filter.h"
#include "core/report_out.h"

static const char script_usage[] =
	"usage: vpmu script [-i FILE] [-F [+|-]FIELDS] [-G] [--max-stack N] [-e EVENT]\n"
	"                   [--comms NAMES] [--dsos NAMES] [--symbols NAMES] [--pid PIDS]\n"
	"                   [--tid TIDS] [--time START,STOP]\n"
	"                   [--demangle | --no-demangle] [--reltime | --deltatime] [--ns]\n"
	"                   [--header] [--show-mmap-events] [--show-comm-events]\n"
	"\n"
	"Print the samples of a sample file written by vpmu record, one per line.\n"
	"\n"
	"    -i, --input FILE     the sample file (default vpmu.data)\n"
	"    -F, --fields FIELDS  comma-separated fields to print: comm pid tid cpu\n"
	"                         time period event ip sym symoff dso addr srcline\n"
	"                         regs callchain weight trigger_ip skid brstack\n"
	"                         data_src insn (the instruction's bytes) disasm\n"
	"                         (its text, AT&T as objdump -d)\n"
	"                         (default comm,pid,tid,cpu,time,\n"
	"                         period,event,ip,sym,symoff,dso, and callchain\n"
	"                         when the samples have one); +FIELD adds a field to\n"
	"                         the default, -FIELD takes one away (-F +addr,-cpu)\n"
	"    -G, --hide-call-graph\n"
	"                         no call chains (as -F -callchain)\n"
	"        --max-stack N    call chains cut to N frames\n"
	"    -e, --event EVENT    only the samples of the event named EVENT\n"
	"        --comms NAMES    only samples of these threads (comma-separated)\n"
	"        --dsos NAMES     only samples in these images\n"
	"        --symbols NAMES  only samples in these functions\n"
	"        --pid PIDS       only samples of these processes (comma-separated)\n"
	"        --tid TIDS       only samples of these threads\n"
	"        --time START,STOP\n"
	"                         only samples of that span of their process's\n"
	"                         emulated time, in seconds (either may be left out:\n"
	"                         0.001,; several separated by spaces), or percents\n"
	"                         of the samples' span: 0%-10%,30%-40%, 10%/2 (the\n"
	"                         second tenth)\n"
	"        --reltime        times from the first sample's\n"
	"        --deltatime      times from the sample printed before\n"
	"        --ns             times to the nanosecond (as they always are)\n"
	"        --header         first the file's header, as vpmu report --header\n"
	"        --show-mmap-events\n"
	"                         also the images mapped, where they were recorded\n"
	"        --show-comm-events\n"
	"                         also the threads' names, where they were recorded\n"
	"        --demangle       C++ and Rust names as written (ns::f()), the default\n"
	"        --no-demangle    names as the files have them (_ZN2ns1fEv)\n"
	"    -h, --help           show this help\n";

enum {
	F_COMM = 1 << 0,
	F_PID = 1 << 1,
	F_TID = 1 << 2,
	F_CPU = 1 << 3,
	F_TIME = 1 << 4,
	F_PERIOD = 1 << 5,
	F_EVENT = 1 << 6,
	F_IP = 1 << 7,
	F_SYM = 1 << 8,
	F_SYMOFF = 1 << 9,
	F_DSO = 1 << 10,
	F_ADDR = 1 << 11,
	F_SRCLINE = 1 << 12,
	F_REGS = 1 << 13,
	F_CALLCHAIN = 1 << 14,
	F_WEIGHT = 1 << 15,
	F_TRIGGER = 1 << 16,
	F_SKID = 1 << 17,
	F_BRSTACK = 1 << 18,
	F_DATA_SRC = 1 << 19,
	F_INSN = 1 << 20,
	F_DISASM = 1 << 21,
};

static const char *const field_names[] = {
	"comm",	      "pid",	"tid",	   "cpu",      "time",	  "period", "event",	 "ip",
	"sym",	      "symoff", "dso",	   "addr",     "srcline", "regs",   "callchain", "weight",
	"trigger_ip", "skid",	"brstack", "data_src", "insn",	  "disasm",
};
#define NFIELDS (sizeof(field_names) / sizeof(field_names[0]))

/* record's REGS order */
static const char *const reg_names[] = { "flags", "ip",	 "ax",	"bx",  "cx",  "dx",
					 "si",	  "di",	 "bp",	"sp",  "r8",  "r9",
					 "r10",	  "r11", "r12", "r13", "r14", "r15" };

static int parse_fields(const char *list, unsigned *out)
{
	*out = 0;
	for (const char *p = list;;) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < NFIELDS; i++)
			if (strlen(field_names[i]) == len && !strncmp(p, field_names[i], len))
				break;
		if (i == NFIELDS) {
			fprintf(stderr,
				"vpmu script: unknown field '%.*s' (comm pid tid cpu time period "
				"event ip sym symoff dso addr srcline regs callchain weight "
				"trigger_ip skid brstack data_src insn disasm)\n",
				(int)len, p);
			return -1;
		}
		*out |= 1u << i;
		p += len;
		if (!*p++)
			return 0;
	}
}

/* " sym+off (dso)" of a loc per the fields. */
static void where(struct report_loc *l, unsigned fl)
{
	if (fl & (F_SYM | F_SYMOFF)) {
		printf(" %s", l->sym ? l->sym : "[unknown]");
		if ((fl & F_SYMOFF) && l->sym)
			printf("+0x%" PRIx64, l->addr - l->sym_start);
	}
	if (fl & F_DSO)
		printf(" (%s)", l->path ? l->path : report_loc_dso(l));
}

/* perf's insn and disasm fields of the instruction at loc l: its bytes
 * and its text, from its image file; nothing where no image holds it. */
static void instruction(struct report_loc *l, unsigned fl)
{
	struct sym *sy = l->space ? report_space_sym(l->space) : NULL;
	const uint8_t *code = NULL;
	struct disasm_insn in;
	size_t n = 15;

	/* (an instruction near the end of its segment has fewer bytes after it) */
	while (sy && n && !(code = sym_code(sy, l->addr, n)))
		n--;
	if (code)
		disasm_one(code, n, l->addr, DISASM_ATT, sy, &in);
	if ((fl & F_INSN) && code) {
		printf(" insn:");
		for (unsigned k = 0; k < in.len; k++)
			printf(" %02x", in.bytes[k]);
	}
	if ((fl & F_DISASM) && code)
		printf(" %s", in.text);
}

/* The time field: absolute, from the first sample's (--reltime) or from
 * the one printed before (--deltatime). */
enum { T_ABS, T_REL, T_DELTA };
struct clock {
	int mode;
	double ghz; /* the file's clock (0: times in cycles) */
	uint64_t first, prev;
	int started;
};

static void print_time(struct clock *ck, uint64_t t)
{
	/* (another process's clock may stand behind: a negative delta) */
	int64_t v = ck->mode == T_ABS ? (int64_t)t :
		    ck->mode == T_REL ? (int64_t)(t - ck->first) :
					(int64_t)(t - (ck->started ? ck->prev : t));

	ck->prev = t;
	ck->started = 1;
	if (ck->ghz > 0)
		printf(" %.9f:", (double)v / (ck->ghz * 1e9));
	else
		printf(" %" PRId64 ":", v);
}

static void print_sample(const struct report *r, const struct report_sample *s, unsigned fl,
			 struct clock *ck)
{
	if (fl & F_COMM)
		printf("%16s", s->comm);
	if ((fl & F_PID) && (fl & F_TID))
		printf(" %5" PRIu32 "/%-5" PRIu32, s->pid, s->tid);
	else if (fl & (F_PID | F_TID))
		printf(" %5" PRIu32, fl & F_PID ? s->pid : s->tid);
	if (fl & F_CPU)
		printf(" [%03" PRIu32 "]", s->cpu);
	if (fl & F_TIME)
		print_time(ck, s->time);
	if (fl & F_PERIOD)
		printf(" %10" PRIu64, s->period);
	if (fl & F_EVENT)
		printf(" %s:", r->events[s->ev].attr.name);
	if (fl & F_ADDR)
		printf(" %16" PRIx64, s->dloc ? s->addr : 0);
	if (fl & F_WEIGHT)
		printf(" %6" PRIu64, s->weight);
	if (fl & F_DATA_SRC) {
		/* where its loads found their data, and its L1 miss's class */
		char lv[16];
		printf(" %s|%s", hist_dsrc_level(s->dsrc, lv, sizeof(lv)),
		       hist_dsrc_class(s->dsrc));
	}
	/* "-" where the sample names no trigger */
	if ((fl & F_TRIGGER) && s->has_trigger)
		printf(" %16" PRIx64, s->trigger_ip);
	else if (fl & F_TRIGGER)
		printf(" %16s", "-");
	if ((fl & F_SKID) && s->has_trigger)
		printf(" %4" PRIu64, s->skid);
	else if (fl & F_SKID)
		printf(" %4s", "-");
	if ((fl & F_CALLCHAIN) && s->nchain) {
		/* perf's stack form: one frame per line, a blank line after */
		printf("\n");
		for (uint32_t k = 0; k < s->nchain; k++) {
			struct report_loc *l = r->chains[s->chain + k];

			printf("\t%16" PRIx64, l->addr);
			where(l, fl);
			printf("\n");
		}
	} else {
		if (fl & F_IP)
			printf(" %16" PRIx64, s->ip);
		where(s->loc, fl);
	}
	if (fl & (F_INSN | F_DISASM))
		instruction(s->loc, fl);
	if (fl & F_BRSTACK)
		/* perf's brstack: FROM/TO/M|P|-/in_tx/abort/cycles, newest first;
		 * a branch recorded not taken has TO 0 */
		for (uint32_t k = 0; k < s->nbr; k++) {
			const struct report_branch *b = &r->branches[s->br + k];

			printf(" 0x%" PRIx64 "/0x%" PRIx64 "/%c/-/-/0", b->from->addr,
			       b->to ? b->to->addr : 0,
			       b->flags & SFILE_BR_MISPRED   ? 'M' :
			       b->flags & SFILE_BR_PREDICTED ? 'P' :
							       '-');
		}
	if (fl & F_REGS)
		for (uint32_t k = 0; k < s->nregs; k++)
			printf(" %s:%#" PRIx64, k < 18 ? reg_names[k] : "?", r->regs[s->regs + k]);
	if ((fl & F_SRCLINE) && report_loc_line(s->loc) == 0)
		printf("\n  %s:%u", s->loc->srcfile, s->loc->line);
	printf("\n");
}

/* An MMAP or COMM record, as perf script --show-mmap-events and
 * --show-comm-events print theirs (the file keeps no time for them). */
static void print_side(const struct report *r, const struct report_side *d)
{
	const char *comm = report_comm(r, d->tid);

	printf("%16s %5" PRIu32 "/%-5" PRIu32, comm ? comm : "", d->pid, d->tid);
	if (d->type == SFILE_MMAP)
		printf(" PERF_RECORD_MMAP %" PRIu32 "/%" PRIu32 ": [%#" PRIx64 "(%#" PRIx64
		       ") @ %#" PRIx64 "]: %c %s\n",
		       d->pid, d->tid, d->start, d->len, d->pgoff, d->prot & 4 ? 'x' : 'r',
		       d->text);
	else
		printf(" PERF_RECORD_COMM: %s:%" PRIu32 "/%" PRIu32 "\n", d->text, d->pid, d->tid);
}

int cmd_script(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "fields", required_argument, NULL, 'F' },
		{ "event", required_argument, NULL, 'e' },
		{ "comms", required_argument, NULL, 'C' },
		{ "dsos", required_argument, NULL, 'D' },
		{ "symbols", required_argument, NULL, 'S' },
		{ "pid", required_argument, NULL, 'P' },
		{ "tid", required_argument, NULL, 'T' },
		{ "time", required_argument, NULL, 'W' },
		{ "max-stack", required_argument, NULL, 'M' },
		{ "hide-call-graph", no_argument, NULL, 'G' },
		{ "demangle", no_argument, NULL, 'd' },
		{ "no-demangle", no_argument, NULL, 'N' },
		{ "reltime", no_argument, NULL, 'R' },
		{ "deltatime", no_argument, NULL, 'L' },
		{ "ns", no_argument, NULL, 'n' },
		{ "header", no_argument, NULL, 'H' },
		{ "show-mmap-events", no_argument, NULL, 'm' },
		{ "show-comm-events", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *input = "vpmu.data", *event = NULL;
	struct report_filter filt = { 0 };
	unsigned fl = 0, given = 0, add = 0, del = 0, f;
	uint32_t max_stack = 0;
	char err[1024], warn[1024];
	struct report *r;
	int c, rc = 0, only = -1, raw_names = 0, header = 0;
	unsigned side = 0; /* bits 1 << SFILE_MMAP, SFILE_COMM: those records shown */
	size_t next_side = 0;
	struct clock ck = { T_ABS, 0, 0, 0, 0 };

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:F:e:Gh", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'F':
			if (*optarg != '+' && *optarg != '-') {
				if (parse_fields(optarg, &fl))
					goto bad;
				given = 1;
				break;
			}
			/* perf's +FIELD and -FIELD: the default with it, or
			 * without (a field without a sign takes the last one) */
			for (char *p = optarg, sign = *p; *p;) {
				size_t len = strcspn(p, ",");
				char item[32];

				if (*p == '+' || *p == '-')
					sign = *p++, len--;
				snprintf(item, sizeof(item), "%.*s", (int)len, p);
				if (parse_fields(item, &f))
					goto bad;
				add = sign == '+' ? add | f : add & ~f;
				del = sign == '-' ? del | f : del & ~f;
				p += len + (p[len] == ',');
			}
			break;
		case 'G':
			del |= F_CALLCHAIN;
			break;
		case 'R':
		case 'L': /* (the last of the two counts) */
			ck.mode = c == 'R' ? T_REL : T_DELTA;
			break;
		case 'n': /* (times are printed to the nanosecond anyway) */
			break;
		case 'H':
			header = 1;
			break;
		case 'm':
			side |= 1u << SFILE_MMAP;
			break;
		case 'c':
			side |= 1u << SFILE_COMM;
			break;
		case 'd':
		case 'N':
			raw_names = c == 'N';
			break;
		case 'M':
			if (opt_max_stack("script", optarg, &max_stack))
				goto bad;
			break;
		case 'W':
			if (opt_time("script", &filt, optarg))
				goto bad;
			break;
		case 'e':
			event = optarg;
			break;
		case 'C':
		case 'D':
		case 'S':
		case 'P':
		case 'T':
			if (opt_filter("script", &filt,
				       c == 'C' ? REPORT_F_COMM :
				       c == 'D' ? REPORT_F_DSO :
				       c == 'S' ? REPORT_F_SYM :
				       c == 'P' ? REPORT_F_PID :
						  REPORT_F_TID,
				       optarg))
				goto bad;
			break;
		case 'h':
			fputs(script_usage, stdout);
			report_filter_free(&filt);
			return 0;
		case ':':
		default:
			opt_bad("script", c, argv);
			goto bad;
		}
	}
	if (optind < argc) {
		fprintf(stderr,
			"vpmu script: unexpected argument '%s' (the file is given with -i)\n",
			argv[optind]);
		goto bad;
	}
	if (!given)
		fl = F_COMM | F_PID | F_TID | F_CPU | F_TIME | F_PERIOD | F_EVENT | F_IP | F_SYM |
		     F_SYMOFF | F_DSO | F_CALLCHAIN;
	fl = (fl | add) & ~del;
	r = report_open(input,
			(fl & F_REGS ? REPORT_REGS : 0) | (fl & F_ADDR ? 0 : REPORT_NO_DATA) |
				(fl & F_CALLCHAIN ? 0 : REPORT_NO_CHAINS) |
				(raw_names ? REPORT_NO_DEMANGLE : 0) | (side ? REPORT_SIDE : 0),
			err, sizeof(err));
	if (!r) {
		fprintf(stderr, "vpmu script: %s\n", err);
		goto bad;
	}
	if (opt_time_clock("script", &filt, r)) {
		report_close(r);
		goto bad;
	}
	if (max_stack)
		report_max_stack(r, max_stack);
	if (report_damage_str(r, warn, sizeof(warn)))
		fprintf(stderr, "vpmu script: %s\n", warn);
	if (report_stale_str(r, warn, sizeof(warn)))
		fprintf(stderr, "vpmu script: %s\n", warn);
	if (event && (only = report_event_find(r, event)) < 0) {
		fprintf(stderr, "vpmu script: %s has no event '%s'\n", input, event);
		rc = 1;
	}
	ck.ghz = report_clock_ghz(r);
	ck.first = r->nsamples ? r->samples[0].time : 0;
	if (!rc && header)
		report_print_header(stdout, r);
	for (size_t i = 0; !rc && i <= r->nsamples; i++) {
		for (; next_side < r->nside && r->side[next_side].before <= i; next_side++)
			if (side >> r->side[next_side].type & 1)
				print_side(r, &r->side[next_side]);
		if (i == r->nsamples)
			break;
		const struct report_sample *s = &r->samples[i];

		if ((only < 0 || s->ev == (uint32_t)only) && report_filter_keep(r, s, &filt))
			print_sample(r, s, fl, &ck);
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "vpmu script: cannot write the output\n");
		rc = 1;
	}
	report_close(r);
	report_filter_free(&filt);
	return rc;
bad:
	report_filter_free(&filt);
	return 1;
}
