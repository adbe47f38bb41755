/* diff.c — `vpmu diff [BASELINE [DATA]]`: two sample files side by side,
 * perf-diff style.  For each event the two have (by name), the entries of
 * both by the sort keys (default dso,sym), with the baseline's share of
 * the event and how the other file's differs: two runs of one program
 * before and after a change, or one program on two machines.  The runs
 * are deterministic, so a difference is the program's or the machine's,
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
	"                 [-S NAMES] [BASELINE [DATA]]\n"
	"\n"
	"Compare the samples of two files written by vpmu record (default\n"
	"vpmu.data.old, the one record kept, and vpmu.data): per event and entry,\n"
	"the baseline's share and the other file's difference from it.\n"
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
	"                           computed one (the default)\n"
	"    -p, --period           the summed periods too (Base period, Period)\n"
	"    -F, --formula          how each computed value was computed\n"
	"    -b, --baseline-only    only entries the baseline has\n"
	"    -t, --field-separator SEP\n"
	"                           separate columns by SEP instead of aligning them\n"
	"    -q, --quiet            no comment lines: the entries alone\n"
	"    -C, --comms NAMES      only samples of these threads (comma-separated)\n"
	"    -d, --dsos NAMES       only samples in these images\n"
	"    -S, --symbols NAMES    only samples in these functions\n"
	"    -h, --help             show this help\n";

enum compute { C_DELTA_ABS, C_DELTA, C_RATIO, C_WDIFF };

struct opts {
	const char *file[2];
	const char *sort;
	enum compute compute;
	long long weight[2]; /* wdiff's W1, W2 */
	int order;	     /* -o: 0 by the baseline, 1 by the computed value */
	int period, formula, baseline_only;
	const char *sep;
	int quiet;
	struct report_filter filter;
};

#define CELL 512
#define KEY_SEP '\x1f' /* between the cells of an entry's key text */

/* An entry of either file: its cells, and its period in each. */
struct row {
	char *key; /* the cells joined by KEY_SEP */
	uint64_t period[2];
	double pct[2], delta;
	long long wdiff;
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

/* Add file f's entries of event ev (its hist) to t; rows of file 0 are
 * sorted by key when file 1's come.  0, or -1 when out of memory. */
static int add_entries(struct table *t, const struct report *r, const struct hist *h, int ev, int f,
		       size_t nbase)
{
	uint64_t total = r->events[ev].period;

	for (size_t i = 0; i < h->nentries; i++) {
		struct row key = { key_text(r, h, &h->entries[i]), { 0, 0 }, { 0, 0 }, 0, 0 }, *hit;

		if (!key.key)
			return -1;
		hit = f ? bsearch(&key, t->row, nbase, sizeof(*t->row), by_key) : NULL;
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
	return 0;
}

static const struct opts *sort_opts; /* (qsort has no argument) */

/* -o 1: delta-abs the largest change first, wdiff the largest value
 * first, delta and ratio (and -o 0) the baseline's largest share first;
 * then the other's, then the key. */
static int by_change(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	double dx = fabs(x->delta), dy = fabs(y->delta);
	enum compute c = sort_opts->compute;

	if (sort_opts->order && c == C_DELTA_ABS && dx != dy)
		return dx < dy ? 1 : -1;
	if (sort_opts->order && c == C_WDIFF && x->wdiff != y->wdiff)
		return x->wdiff < y->wdiff ? 1 : -1;
	if (x->period[0] != y->period[0])
		return x->period[0] < y->period[0] ? 1 : -1;
	if (x->period[1] != y->period[1])
		return x->period[1] < y->period[1] ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* The value columns before the keys: perf diff's, in its order. */
enum vcol { V_BASE, V_BASE_PERIOD, V_CHANGE, V_PERIOD, V_FORMULA, V_N };

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

/* The cell of row w in value column v. */
static const char *vcell(const struct row *w, enum vcol v, const struct opts *o, char *buf,
			 size_t n)
{
	const double p0 = (double)w->period[0], p1 = (double)w->period[1];

	buf[0] = 0;
	switch (v) {
	case V_BASE:
		if (w->period[0])
			snprintf(buf, n, "%.2f%%", w->pct[0]);
		return buf;
	case V_BASE_PERIOD:
	case V_PERIOD:
		snprintf(buf, n, "%llu", (unsigned long long)w->period[v == V_PERIOD]);
		return buf;
	case V_CHANGE:
		if (o->compute == C_RATIO && w->period[0] && w->period[1])
			snprintf(buf, n, "%.6f", p1 / p0);
		else if (o->compute == C_WDIFF)
			snprintf(buf, n, "%lld", w->wdiff);
		else if (o->compute != C_RATIO)
			snprintf(buf, n, "%+.2f%%", w->delta);
		return strcmp(buf, "+0.00%") && strcmp(buf, "-0.00%") ? buf : "";
	default:
		if (o->compute == C_RATIO && w->period[0] && w->period[1])
			snprintf(buf, n, "%.0f / %.0f", p1, p0);
		else if (o->compute == C_WDIFF)
			snprintf(buf, n, "%.0f * %lld - %.0f * %lld", p1, o->weight[1], p0,
				 o->weight[0]);
		else if (o->compute != C_RATIO)
			snprintf(buf, n, "%.2f %% - %.2f %%", w->pct[1], w->pct[0]);
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
	enum vcol vc[V_N];
	int nv = 0, wv[V_N], w[HIST_MAXKEYS];
	char buf[CELL];

	vc[nv++] = V_BASE;
	if (o->period)
		vc[nv++] = V_BASE_PERIOD;
	vc[nv++] = V_CHANGE;
	if (o->period)
		vc[nv++] = V_PERIOD;
	if (o->formula)
		vc[nv++] = V_FORMULA;
	for (size_t i = 0; i < t->n; i++) {
		struct row *r = &t->row[i];
		r->delta = r->pct[1] - r->pct[0];
		r->wdiff = (long long)r->period[1] * o->weight[1] -
			   (long long)r->period[0] * o->weight[0];
	}
	sort_opts = o;
	qsort(t->row, t->n, sizeof(*t->row), by_change);
	for (int v = 0; v < nv; v++) {
		wv[v] = (int)strlen(vcol_head(vc[v], o->compute));
		wv[v] = vc[v] == V_BASE ? 10 : vc[v] == V_CHANGE && wv[v] < 7 ? 7 : wv[v];
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
				printf("%s%s", v ? sep : " ", vcol_head(vc[v], o->compute));
			else if (v == 0)
				printf(" %s", vcol_head(vc[v], o->compute));
			else
				printf("  %*s", wv[v], vcol_head(vc[v], o->compute));
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

/* Event ev of r[0] against its namesake in r[1], if any: 1 printed, 0
 * none there, -1 out of memory. */
static int diff_event(struct report *const r[2], int ev, const struct hist_key **keys, int nkeys,
		      struct opts *o)
{
	const char *name = r[0]->events[ev].attr.name;
	int other = report_event_find(r[1], name), rc = 0;
	struct hist *h[2] = { NULL, NULL };
	struct table t = { NULL, 0, 0 };

	if (other < 0) {
		fprintf(stderr, "vpmu diff: event '%s' is only in %s\n", name, o->file[0]);
		return 0;
	}
	if (!(h[0] = build(r[0], keys, nkeys, ev, o)) ||
	    !(h[1] = build(r[1], keys, nkeys, other, o)) || add_entries(&t, r[0], h[0], ev, 0, 0)) {
		rc = -1;
		goto out;
	}
	qsort(t.row, t.n, sizeof(*t.row), by_key);
	if (add_entries(&t, r[1], h[1], other, 1, t.n)) {
		rc = -1;
		goto out;
	}
	print_table(h[0], &t, name, o);
	rc = 1;
out:
	for (size_t i = 0; i < t.n; i++)
		free(t.row[i].key);
	free(t.row);
	hist_free(h[0]);
	hist_free(h[1]);
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
		{ "dsos", required_argument, NULL, 'd' },
		{ "symbols", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const computes[] = { "delta-abs", "delta", "ratio" };
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
			if (strcmp(optarg, "0") && strcmp(optarg, "1")) {
				fprintf(stderr,
					"vpmu diff: -o takes 0 (the baseline) or 1 (the other "
					"file), not '%s'\n",
					optarg);
				return 1;
			}
			o->order = optarg[0] == '1';
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
	if (argc - optind > 2) {
		fprintf(stderr, "vpmu diff: two files at most ('%s' is a third)\n",
			argv[optind + 2]);
		return 1;
	}
	if (argc - optind == 2) {
		o->file[0] = argv[optind];
		o->file[1] = argv[optind + 1];
	} else if (argc - optind == 1) { /* as perf: the one file against vpmu.data */
		o->file[0] = argv[optind];
	}
	return 0;
}

int cmd_diff(int argc, char **argv)
{
	struct opts o = { .file = { "vpmu.data.old", "vpmu.data" }, .sort = "dso,sym", .order = 1 };
	const struct hist_key *keys[HIST_MAXKEYS];
	struct report *r[2] = { NULL, NULL };
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
	for (int f = 0; f < 2; f++) {
		if (!(r[f] = report_open(o.file[f], REPORT_NO_CHAINS, err, sizeof(err)))) {
			fprintf(stderr, "vpmu diff: %s\n", err);
			rc = 1;
			goto out;
		}
		if (report_damage_str(r[f], err, sizeof(err)))
			fprintf(stderr, "vpmu diff: %s\n", err);
		if (report_stale_str(r[f], err, sizeof(err)))
			fprintf(stderr, "vpmu diff: %s: %s\n", o.file[f], err);
	}
	if (!o.quiet)
		printf("# Data files:\n#  [0] %s (Baseline)\n#  [1] %s\n#\n", o.file[0], o.file[1]);
	for (size_t ev = 0; ev < r[0]->nevents && rc == 0; ev++) {
		int d = diff_event(r, (int)ev, keys, nkeys, &o);
		if (d < 0) {
			fprintf(stderr, "vpmu diff: out of memory\n");
			rc = 1;
		}
		shown += d > 0;
	}
	for (size_t ev = 0; ev < r[1]->nevents && rc == 0; ev++)
		if (report_event_find(r[0], r[1]->events[ev].attr.name) < 0)
			fprintf(stderr, "vpmu diff: event '%s' is only in %s\n",
				r[1]->events[ev].attr.name, o.file[1]);
	if (!rc && !shown) {
		fprintf(stderr, "vpmu diff: %s and %s have no event in common\n", o.file[0],
			o.file[1]);
		rc = 1;
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "vpmu diff: cannot write the output\n");
		rc = 1;
	}
out:
	for (int f = 0; f < 2; f++)
		if (r[f])
			report_close(r[f]);
	report_filter_free(&o.filter);
	return rc;
}
