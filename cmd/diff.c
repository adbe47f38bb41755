/* diff.c — `vpmu diff [BASELINE [DATA...]]`: sample files side by side,
 * perf-diff style.  For each event they all have (by name), the entries of
 * each by the sort keys (default dso,sym), with the baseline's share of
 * the event and how each other file's differs: runs of one program before
 * and after changes, or one program on several machines.  The runs are
 * deterministic, so a difference is the program's or the machine's,
 * never noise. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "opt.h"
#include "core/hist.h"
#include "core/report.h"
#include "core/report_filter.h"

static const char diff_usage[] =
	"usage: vpmu diff [-s KEYS] [-c delta-abs|delta|ratio|wdiff:W1,W2] [-o N]\n"
	"                 [-p] [-F] [-b] [-t SEP] [-q] [-C NAMES] [-d NAMES]\n"
	"                 [-S NAMES] [--time START,STOP] [BASELINE [DATA...]]\n"
	"\n"
	"Compare the samples of files written by vpmu record (default\n"
	"vpmu.data.old, the one record kept, and vpmu.data; up to eight): per\n"
	"event and entry, the baseline's share and each other file's difference\n"
	"from it.\n"
	"\n"
	"    -s, --sort KEYS        comma-separated sort keys (default dso,sym; the\n"
	"                           keys of vpmu report)\n"
	"    -c, --compute METHOD   delta-abs (default: the difference in percentage\n"
	"                           points, largest change first), delta (the same,\n"
	"                           by the baseline's share), ratio (DATA's\n"
	"                           period over BASELINE's) or wdiff:W1,W2 (DATA's\n"
	"                           period times W2 less BASELINE's times W1,\n"
	"                           largest first)\n"
	"    -o, --order N          sort by column N: 0 the baseline's share, 1 the\n"
	"                           first other file's computed one (the default), 2\n"
	"                           the second's, ...\n"
	"    -p, --period           the summed periods too (Base period, Period)\n"
	"    -F, --formula          how each computed value was computed\n"
	"    -b, --baseline-only    only entries the baseline has\n"
	"    -t, --field-separator SEP\n"
	"                           separate columns by SEP instead of aligning them\n"
	"    -q, --quiet            no comment lines: the entries alone\n"
	"    -C, --comms NAMES      only samples of these threads (comma-separated)\n"
	"    -d, --dsos NAMES       only samples in these images\n"
	"    -S, --symbols NAMES    only samples in these functions\n"
	"        --time START,STOP  only samples of that span of emulated time, as\n"
	"                           vpmu report's --time; percents are of each\n"
	"                           file's own samples\n"
	"    -h, --help             show this help\n";

enum compute { C_DELTA_ABS, C_DELTA, C_RATIO, C_WDIFF };

#define DIFF_MAXF 8 /* files: the baseline and up to seven others */

struct opts {
	const char *file[DIFF_MAXF];
	int nfile;
	const char *sort;
	enum compute compute;
	long long weight[2]; /* wdiff's W1, W2 */
	int order;	     /* -o: 0 by the baseline, f by file f's computed value */
	int period, formula, baseline_only;
	const char *sep;
	int quiet;
	struct report_filter filter;
};

#define CELL 512
#define KEY_SEP '\x1f' /* between the cells of an entry's key text */

/* An entry of any file: its cells, and its period in each. */
struct row {
	char *key; /* the cells joined by KEY_SEP */
	uint64_t period[DIFF_MAXF];
	double pct[DIFF_MAXF], delta[DIFF_MAXF];
	long long wdiff[DIFF_MAXF];
};

struct table {
	struct row *row;
	size_t n, cap;
};

/* Entry e's cells (perf's "[.] " before a symbol) joined by KEY_SEP. */
static char *key_text(const struct report *r, const struct hist *h, const struct hist_entry *e)
{
	char buf[CELL], out[HIST_MAXKEYS * CELL];
	size_t len = 0;

	for (int k = 0; k < h->nkeys; k++) {
		const struct hist_key *key = h->keys[k];
		const char *v = key->str(r, e->s, buf, sizeof(buf));
		int w = snprintf(out + len, sizeof(out) - len, "%s%s%s", k ? "\x1f" : "",
				 key->sym_column ? "[.] " : "", v);

		if (w > 0)
			len += (size_t)w < sizeof(out) - len ? (size_t)w : sizeof(out) - len - 1;
	}
	return strdup(out);
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct row *)a)->key, ((const struct row *)b)->key);
}

/* Add file f's entries of event ev (its hist) to t, whose rows are
 * sorted by key; they are again after.  0, or -1 when out of memory. */
static int add_entries(struct table *t, const struct report *r, const struct hist *h, int ev, int f)
{
	uint64_t total = r->events[ev].period;
	size_t nsorted = t->n;

	for (size_t i = 0; i < h->nentries; i++) {
		struct row key = { .key = key_text(r, h, &h->entries[i]) }, *hit;

		if (!key.key)
			return -1;
		hit = bsearch(&key, t->row, nsorted, sizeof(*t->row), by_key);
		if (hit) {
			free(key.key);
		} else {
			if (t->n == t->cap) {
				size_t cap = t->cap ? 2 * t->cap : 64;
				struct row *nr = realloc(t->row, cap * sizeof(*nr));
				if (!nr) {
					free(key.key);
					return -1;
				}
				t->row = nr;
				t->cap = cap;
			}
			hit = &t->row[t->n++];
			*hit = key;
		}
		hit->period[f] += h->entries[i].period;
		hit->pct[f] = total ? 100.0 * (double)hit->period[f] / (double)total : 0;
	}
	qsort(t->row, t->n, sizeof(*t->row), by_key);
	return 0;
}

static const struct opts *sort_opts; /* (qsort has no argument) */

/* -o F (F > 0): by file F's computed value, delta-abs the largest change
 * first, wdiff the largest value first; delta and ratio (and -o 0) by the
 * baseline's largest share first; then by the other files' shares in
 * their order, then the key. */
static int by_change(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	const int f = sort_opts->order;
	enum compute c = sort_opts->compute;

	if (f && c == C_DELTA_ABS && fabs(x->delta[f]) != fabs(y->delta[f]))
		return fabs(x->delta[f]) < fabs(y->delta[f]) ? 1 : -1;
	if (f && c == C_WDIFF && x->wdiff[f] != y->wdiff[f])
		return x->wdiff[f] < y->wdiff[f] ? 1 : -1;
	for (int k = 0; k < sort_opts->nfile; k++)
		if (x->period[k] != y->period[k])
			return x->period[k] < y->period[k] ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* The value columns before the keys: perf diff's, in its order, those
 * of each other file (f) after the baseline's. */
enum vcol { V_BASE, V_BASE_PERIOD, V_CHANGE, V_PERIOD, V_FORMULA, V_N };
struct col {
	enum vcol v;
	int f;
};
#define NCOL (2 + 3 * (DIFF_MAXF - 1))

static const char *vcol_head(enum vcol v, enum compute c)
{
	static const char *const heads[] = { "Delta Abs", "Delta", "Ratio", "Weighted diff" };

	switch (v) {
	case V_BASE:
		return "Baseline";
	case V_BASE_PERIOD:
		return "Base period";
	case V_CHANGE:
		return heads[c];
	case V_PERIOD:
		return "Period";
	default:
		return "Formula";
	}
}

/* The cell of row w in value column c. */
static const char *vcell(const struct row *w, struct col c, const struct opts *o, char *buf,
			 size_t n)
{
	const int f = c.f;
	const double p0 = (double)w->period[0], p1 = (double)w->period[f];

	buf[0] = 0;
	switch (c.v) {
	case V_BASE:
		if (w->period[0])
			snprintf(buf, n, "%.2f%%", w->pct[0]);
		return buf;
	case V_BASE_PERIOD:
	case V_PERIOD:
		snprintf(buf, n, "%llu", (unsigned long long)w->period[f]);
		return buf;
	case V_CHANGE:
		if (o->compute == C_RATIO && w->period[0] && w->period[f])
			snprintf(buf, n, "%.6f", p1 / p0);
		else if (o->compute == C_WDIFF)
			snprintf(buf, n, "%lld", w->wdiff[f]);
		else if (o->compute != C_RATIO)
			snprintf(buf, n, "%+.2f%%", w->delta[f]);
		return strcmp(buf, "+0.00%") && strcmp(buf, "-0.00%") ? buf : "";
	default:
		if (o->compute == C_RATIO && w->period[0] && w->period[f])
			snprintf(buf, n, "%.0f / %.0f", p1, p0);
		else if (o->compute == C_WDIFF)
			snprintf(buf, n, "%.0f * %lld - %.0f * %lld", p1, o->weight[1], p0,
				 o->weight[0]);
		else if (o->compute != C_RATIO)
			snprintf(buf, n, "%.2f %% - %.2f %%", w->pct[f], w->pct[0]);
		return buf;
	}
}

/* Cell k of row w's key into buf. */
static const char *cell(const struct row *w, int k, char *buf, size_t n)
{
	const char *s = w->key;

	for (; k > 0 && s; k--)
		if ((s = strchr(s, KEY_SEP)))
			s++;
	snprintf(buf, n, "%.*s", s ? (int)strcspn(s, "\x1f") : 0, s ? s : "");
	return buf;
}

static void print_table(const struct hist *h, struct table *t, const char *evname,
			const struct opts *o)
{
	const char *sep = o->sep;
	struct col vc[NCOL];
	int nv = 0, wv[NCOL], w[HIST_MAXKEYS];
	char buf[CELL];

	vc[nv++] = (struct col){ V_BASE, 0 };
	if (o->period)
		vc[nv++] = (struct col){ V_BASE_PERIOD, 0 };
	for (int f = 1; f < o->nfile; f++) {
		vc[nv++] = (struct col){ V_CHANGE, f };
		if (o->period)
			vc[nv++] = (struct col){ V_PERIOD, f };
		if (o->formula)
			vc[nv++] = (struct col){ V_FORMULA, f };
	}
	for (size_t i = 0; i < t->n; i++) {
		struct row *r = &t->row[i];
		for (int f = 1; f < o->nfile; f++) {
			r->delta[f] = r->pct[f] - r->pct[0];
			r->wdiff[f] = (long long)r->period[f] * o->weight[1] -
				      (long long)r->period[0] * o->weight[0];
		}
	}
	sort_opts = o;
	qsort(t->row, t->n, sizeof(*t->row), by_change);
	for (int v = 0; v < nv; v++) {
		wv[v] = (int)strlen(vcol_head(vc[v].v, o->compute));
		wv[v] = vc[v].v == V_BASE ? 10 : vc[v].v == V_CHANGE && wv[v] < 7 ? 7 : wv[v];
		for (size_t i = 0; i < t->n && !sep; i++) {
			int l = (int)strlen(vcell(&t->row[i], vc[v], o, buf, sizeof(buf)));
			wv[v] = l > wv[v] ? l : wv[v];
		}
	}
	for (int k = 0; k < h->nkeys; k++) {
		w[k] = (int)strlen(h->keys[k]->header);
		for (size_t i = 0; i < t->n && !sep; i++) {
			int l = (int)strlen(cell(&t->row[i], k, buf, sizeof(buf)));
			w[k] = l > w[k] ? l : w[k];
		}
	}
	if (!o->quiet) {
		printf("# Event '%s'\n#\n#", evname);
		for (int v = 0; v < nv; v++)
			if (sep)
				printf("%s%s", v ? sep : " ", vcol_head(vc[v].v, o->compute));
			else if (v == 0)
				printf(" %s", vcol_head(vc[v].v, o->compute));
			else
				printf("  %*s", wv[v], vcol_head(vc[v].v, o->compute));
		for (int k = 0; k < h->nkeys; k++)
			if (sep)
				printf("%s%s", sep, h->keys[k]->header);
			else
				printf("  %-*s", k + 1 < h->nkeys ? w[k] : 0, h->keys[k]->header);
		if (!sep) {
			static const char dots[] = ".............................................."
						   ".............................................."
						   "..............................................";
			printf("\n# ........");
			for (int v = 1; v < nv; v++)
				printf("  %.*s", wv[v], dots);
			for (int k = 0; k < h->nkeys; k++)
				printf("  %.*s", w[k], dots);
		}
		printf("\n#\n");
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct row *r = &t->row[i];

		if (o->baseline_only && !r->period[0])
			continue;
		for (int v = 0; v < nv; v++)
			if (sep)
				printf("%s%s", v ? sep : "", vcell(r, vc[v], o, buf, sizeof(buf)));
			else
				printf("%s%*s", v ? "  " : "", wv[v],
				       vcell(r, vc[v], o, buf, sizeof(buf)));
		for (int k = 0; k < h->nkeys; k++)
			if (sep)
				printf("%s%s", sep, cell(r, k, buf, sizeof(buf)));
			else
				printf("  %-*s", k + 1 < h->nkeys ? w[k] : 0,
				       cell(r, k, buf, sizeof(buf)));
		putchar('\n');
	}
	if (!o->quiet)
		putchar('\n');
}

/* The hist of r's event ev over the samples the filters keep. */
static struct hist *build(const struct report *r, const struct hist_key **keys, int nkeys, int ev,
			  struct opts *o)
{
	struct hist *h = hist_new(r, keys, nkeys);

	if (!h)
		return NULL;
	report_filter_clock(&o->filter, r); /* --time in this file's cycles (checked) */
	for (size_t i = 0; i < r->nsamples; i++) {
		const struct report_sample *s = &r->samples[i];

		if (s->ev == (uint32_t)ev && report_filter_keep(r, s, &o->filter) &&
		    hist_add(h, s)) {
			hist_free(h);
			return NULL;
		}
	}
	if (hist_finish(h)) {
		hist_free(h);
		return NULL;
	}
	return h;
}

/* Event ev of r[0] against its namesakes in the other files: 1 printed,
 * 0 one of them has none, -1 out of memory. */
static int diff_event(struct report *const *r, int ev, const struct hist_key **keys, int nkeys,
		      struct opts *o)
{
	const char *name = r[0]->events[ev].attr.name;
	int at[DIFF_MAXF] = { ev }, rc = 1;
	struct hist *h[DIFF_MAXF] = { NULL };
	struct table t = { NULL, 0, 0 };

	for (int f = 1; f < o->nfile; f++)
		if ((at[f] = report_event_find(r[f], name)) < 0) {
			fprintf(stderr, "vpmu diff: event '%s' is not in %s\n", name, o->file[f]);
			return 0;
		}
	for (int f = 0; f < o->nfile && rc > 0; f++)
		if (!(h[f] = build(r[f], keys, nkeys, at[f], o)) ||
		    add_entries(&t, r[f], h[f], at[f], f))
			rc = -1;
	if (rc > 0)
		print_table(h[0], &t, name, o);
	for (size_t i = 0; i < t.n; i++)
		free(t.row[i].key);
	free(t.row);
	for (int f = 0; f < o->nfile; f++)
		hist_free(h[f]);
	return rc;
}

static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option opts[] = {
		{ "sort", required_argument, NULL, 's' },
		{ "compute", required_argument, NULL, 'c' },
		{ "order", required_argument, NULL, 'o' },
		{ "period", no_argument, NULL, 'p' },
		{ "formula", no_argument, NULL, 'F' },
		{ "baseline-only", no_argument, NULL, 'b' },
		{ "field-separator", required_argument, NULL, 't' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "comms", required_argument, NULL, 'C' },
		{ "time", required_argument, NULL, 'W' },
		{ "dsos", required_argument, NULL, 'd' },
		{ "symbols", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const computes[] = { "delta-abs", "delta", "ratio" };
	const char *order = NULL;
	int c;
	char end;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:c:o:pFbt:qC:d:S:h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			o->sort = optarg;
			break;
		case 'c':
			for (c = 0; c < 3 && strcmp(optarg, computes[c]); c++)
				;
			/* wdiff:W1,W2 (perf's weighted diff), two whole weights */
			if (c == 3 &&
			    sscanf(optarg, "wdiff:%lld,%lld%c", &o->weight[0], &o->weight[1],
				   &end) == 2 &&
			    llabs(o->weight[0]) < 1000000 && llabs(o->weight[1]) < 1000000)
				c = C_WDIFF;
			else if (c == 3) {
				fprintf(stderr,
					"vpmu diff: -c takes delta-abs, delta, ratio or wdiff:W1,W2 "
					"(whole weights below a million), not '%s'\n",
					optarg);
				return 1;
			}
			o->compute = (enum compute)c;
			break;
		case 'o':
			order = optarg;
			break;
		case 'p':
			o->period = 1;
			break;
		case 'F':
			o->formula = 1;
			break;
		case 'b':
			o->baseline_only = 1;
			break;
		case 't':
			o->sep = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'W':
			if (opt_time("diff", &o->filter, optarg))
				return 1;
			break;
		case 'C':
		case 'd':
		case 'S':
			if (opt_filter("diff", &o->filter,
				       c == 'C' ? REPORT_F_COMM :
				       c == 'd' ? REPORT_F_DSO :
						  REPORT_F_SYM,
				       optarg))
				return 1;
			break;
		case 'h':
			fputs(diff_usage, stdout);
			return -1;
		case ':':
		default:
			opt_bad("diff", c, argv);
			return 1;
		}
	}
	if (argc - optind > DIFF_MAXF) {
		fprintf(stderr, "vpmu diff: %d files at most ('%s' is one more)\n", DIFF_MAXF,
			argv[optind + DIFF_MAXF]);
		return 1;
	}
	if (argc - optind >= 2) {
		o->nfile = argc - optind;
		for (int f = 0; f < o->nfile; f++)
			o->file[f] = argv[optind + f];
	} else if (argc - optind == 1) { /* as perf: the one file against vpmu.data */
		o->file[0] = argv[optind];
	}
	if (order) {
		/* (a column of the files given: 0 the baseline) */
		if (strlen(order) != 1 || order[0] < '0' || order[0] >= '0' + o->nfile) {
			fprintf(stderr,
				"vpmu diff: -o takes 0 (the baseline) to %d (the last file), "
				"not '%s'\n",
				o->nfile - 1, order);
			return 1;
		}
		o->order = order[0] - '0';
	}
	return 0;
}

int cmd_diff(int argc, char **argv)
{
	struct opts o = {
		.file = { "vpmu.data.old", "vpmu.data" }, .nfile = 2, .sort = "dso,sym", .order = 1
	};
	const struct hist_key *keys[HIST_MAXKEYS];
	struct report *r[DIFF_MAXF] = { NULL };
	char err[1024];
	int nkeys, rc = parse(argc, argv, &o), shown = 0;

	if (rc) {
		report_filter_free(&o.filter);
		return rc < 0 ? 0 : rc;
	}
	if (hist_keys_parse(o.sort, keys, &nkeys, err, sizeof(err))) {
		fprintf(stderr, "vpmu diff: %s\n", err);
		rc = 1;
		goto out;
	}
	for (int k = 0; k < nkeys; k++)
		if (hist_key_is_branch(keys[k])) {
			fprintf(stderr, "vpmu diff: '%s' sorts branches, not samples\n",
				keys[k]->name);
			rc = 1;
			goto out;
		}
	for (int f = 0; f < o.nfile; f++) {
		if (!(r[f] = report_open(o.file[f], REPORT_NO_CHAINS, err, sizeof(err)))) {
			fprintf(stderr, "vpmu diff: %s\n", err);
			rc = 1;
			goto out;
		}
		if (report_damage_str(r[f], err, sizeof(err)))
			fprintf(stderr, "vpmu diff: %s\n", err);
		if (report_stale_str(r[f], err, sizeof(err)))
			fprintf(stderr, "vpmu diff: %s: %s\n", o.file[f], err);
		if (opt_time_clock("diff", &o.filter, r[f])) {
			rc = 1;
			goto out;
		}
	}
	if (!o.quiet) {
		printf("# Data files:\n#  [0] %s (Baseline)\n", o.file[0]);
		for (int f = 1; f < o.nfile; f++)
			printf("#  [%d] %s\n", f, o.file[f]);
		printf("#\n");
	}
	for (size_t ev = 0; ev < r[0]->nevents && rc == 0; ev++) {
		int d = diff_event(r, (int)ev, keys, nkeys, &o);
		if (d < 0) {
			fprintf(stderr, "vpmu diff: out of memory\n");
			rc = 1;
		}
		shown += d > 0;
	}
	for (int f = 1; f < o.nfile && rc == 0; f++)
		for (size_t ev = 0; ev < r[f]->nevents; ev++)
			if (report_event_find(r[0], r[f]->events[ev].attr.name) < 0)
				fprintf(stderr, "vpmu diff: event '%s' of %s is not in %s\n",
					r[f]->events[ev].attr.name, o.file[f], o.file[0]);
	if (!rc && !shown) {
		fprintf(stderr, "vpmu diff: %s and %s have no event in common\n", o.file[0],
			o.nfile > 2 ? "the other files" : o.file[1]);
		rc = 1;
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "vpmu diff: cannot write the output\n");
		rc = 1;
	}
out:
	for (int f = 0; f < o.nfile; f++)
		if (r[f])
			report_close(r[f]);
	report_filter_free(&o.filter);
	return rc;
}
