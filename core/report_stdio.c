/* report_stdio.c — perf report --stdio's layout: section header, column
 * header with its dotted underline, one line per entry, call graphs. */
#include <ctype.h>
#include <inttypes.h>
#include <string.h>

#include "core/fmt.h"
#include "core/hist_chain.h"
#include "core/report_out.h"

#define CELL 512

static double percent(const struct report *r, const struct hist_entry *e, uint64_t period)
{
	uint64_t total = r->events[e->s->ev].period;

	return total ? 100.0 * (double)period / (double)total : 0.0;
}

double report_percent(const struct report *r, const struct hist_entry *e)
{
	return percent(r, e, e->period);
}

double report_self_percent(const struct report *r, const struct hist_entry *e)
{
	return percent(r, e, e->self);
}

void report_print_section(FILE *f, const struct report *r, const struct hist *h, int ev,
			  const struct report_opts *o)
{
	if (o->quiet) {
		report_print_table(f, r, h, o);
		return;
	}
	if (ev >= 0) {
		fprintf(f, "# Samples: %" PRIu64 " of event '%s'\n", r->events[ev].nsamples,
			r->events[ev].attr.name);
		fprintf(f, "# Event count (approx.): %" PRIu64 "\n", r->events[ev].period);
	} else {
		uint64_t n = 0;

		for (size_t i = 0; i < r->nevents; i++)
			n += r->events[i].nsamples;
		fprintf(f, "# Samples: %" PRIu64 " of %zu events\n", n, r->nevents);
	}
	fprintf(f, "#\n");
	report_print_table(f, r, h, o);
}

static int shown(const struct report *r, const struct hist_entry *e, const struct report_opts *o)
{
	return report_percent(r, e) >= o->percent_limit;
}

static const char *cell(const struct report *r, const struct hist_key *k,
			const struct report_sample *s, char *buf)
{
	const char *v = k->str(r, s, buf + 4, CELL - 4);

	if (!k->sym_column)
		return v;
	/* perf marks user-space symbols "[.] " */
	if (v != buf + 4)
		snprintf(buf + 4, CELL - 4, "%s", v);
	memcpy(buf, "[.] ", 4);
	return buf;
}

/* The column header and its dotted underline. */
static void column_header(FILE *f, const struct hist *h, const struct report_opts *o, const int *w,
			  int wn, int wp)
{
	const char *sep = o->sep;

	if (o->children && sep)
		fprintf(f, "# Children%sSelf", sep);
	else
		fprintf(f, o->children ? "# Children      Self" : "# Overhead");
	if (o->nsamples_col && sep)
		fprintf(f, "%sSamples", sep);
	else if (o->nsamples_col)
		fprintf(f, "  %*s", wn, "Samples");
	if (o->period_col && sep)
		fprintf(f, "%sPeriod", sep);
	else if (o->period_col)
		fprintf(f, "  %*s", wp, "Period");
	for (int k = 0; k < h->nkeys; k++) {
		const char *hd = h->keys[k]->header;

		if (sep)
			fprintf(f, "%s%s", sep, hd);
		else if (k + 1 < h->nkeys)
			fprintf(f, "  %-*s", w[k], hd);
		else
			fprintf(f, "  %s", hd);
	}
	fprintf(f, "\n");
	if (!sep) {
		fprintf(f, o->children ? "# ........  ........" : "# ........");
		if (o->nsamples_col)
			fprintf(f, "  %.*s", wn, "................................");
		if (o->period_col)
			fprintf(f, "  %.*s", wp, "................................");
		for (int k = 0; k < h->nkeys; k++) {
			fprintf(f, "  ");
			for (int j = 0; j < w[k]; j++)
				fputc('.', f);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "#\n");
}

void report_print_table(FILE *f, const struct report *r, const struct hist *h,
			const struct report_opts *o)
{
	int w[HIST_MAXKEYS], wn = 7, wp = 6;
	char buf[CELL], num[32];
	const char *sep = o->sep;

	for (int k = 0; k < h->nkeys; k++)
		w[k] = (int)strlen(h->keys[k]->header);
	for (size_t i = 0; i < h->nentries && !sep; i++) {
		const struct hist_entry *e = &h->entries[i];

		if (!shown(r, e, o))
			continue;
		for (int k = 0; k < h->nkeys; k++) {
			int l = (int)strlen(cell(r, h->keys[k], e->s, buf));

			if (l > w[k])
				w[k] = l;
		}
		snprintf(num, sizeof(num), "%" PRIu64, e->nsamples);
		if ((int)strlen(num) > wn)
			wn = (int)strlen(num);
		snprintf(num, sizeof(num), "%" PRIu64, e->period);
		if ((int)strlen(num) > wp)
			wp = (int)strlen(num);
	}
	if (!o->quiet)
		column_header(f, h, o, w, wn, wp);
	for (size_t i = 0; i < h->nentries; i++) {
		const struct hist_entry *e = &h->entries[i];

		if (!shown(r, e, o))
			continue;
		if (sep)
			fprintf(f, "%.2f%%", report_percent(r, e));
		else
			fprintf(f, "  %7.2f%%", report_percent(r, e));
		if (o->children && sep)
			fprintf(f, "%s%.2f%%", sep, report_self_percent(r, e));
		else if (o->children)
			fprintf(f, "  %7.2f%%", report_self_percent(r, e));
		if (o->nsamples_col && sep)
			fprintf(f, "%s%" PRIu64, sep, e->nsamples);
		else if (o->nsamples_col)
			fprintf(f, "  %*" PRIu64, wn, e->nsamples);
		if (o->period_col && sep)
			fprintf(f, "%s%" PRIu64, sep, e->period);
		else if (o->period_col)
			fprintf(f, "  %*" PRIu64, wp, e->period);
		for (int k = 0; k < h->nkeys; k++) {
			const char *v = cell(r, h->keys[k], e->s, buf);

			if (sep)
				fprintf(f, "%s%s", sep, v);
			else if (k + 1 < h->nkeys)
				fprintf(f, "  %-*s", w[k], v);
			else
				fprintf(f, "  %s", v);
		}
		fprintf(f, "\n");
		if (o->callgraph && e->chain)
			hist_chain_print(f, e, r->events[e->s->ev].period, &o->graph);
	}
	fprintf(f, "\n");
}

void report_print_header(FILE *f, const struct report *r)
{
	char b1[32], b2[32], b3[32];
	unsigned maj = SFILE_VERSION_MAJOR, min = SFILE_VERSION_MINOR;

	fprintf(f, "# ========\n");
	fprintf(f, "# data file: %s (format %u.%u)%s\n", r->path, maj, min,
		r->finished ? "" : ", no FINISHED record: the run did not end cleanly");
	fprintf(f, "# machine : %s\n", r->machine ? r->machine : "(not recorded)");
	for (size_t i = 0; i < r->nparams; i++)
		fprintf(f, "#   %s = %s\n", r->params[i].key, r->params[i].value);
	if (r->argv) {
		fprintf(f, "# cmdline :");
		for (size_t i = 0; i < r->argc; i++)
			fprintf(f, " %s", r->argv[i]);
		fprintf(f, "\n");
	}
	for (size_t i = 0; i < r->nevents; i++) {
		const struct report_event *e = &r->events[i];
		const struct sfile_attr *a = &e->attr;

		fprintf(f,
			"# event : name = %s, id = %" PRIu32 ", machine = %s, config = %#" PRIx64
			", config1 = %#" PRIx64 ", %s = %" PRIu64
			", precise = %u, sample_type = %#" PRIx64 "\n",
			a->name, a->id, a->machine, a->config, a->config1,
			a->flags & SFILE_ATTR_FREQ ? "freq" : "period", a->period, a->precise,
			a->sample_type);
		if (e->have_totals)
			fprintf(f, "#   total : %s events, enabled %s cycles, running %s cycles\n",
				fmt_count(e->totals.value, b1, sizeof(b1)),
				fmt_count(e->totals.enabled, b2, sizeof(b2)),
				fmt_count(e->totals.running, b3, sizeof(b3)));
		fprintf(f, "#   samples : %" PRIu64 ", lost : %" PRIu64 "\n", e->nsamples, e->lost);
	}
	fprintf(f, "# records : %" PRIu64 " in %" PRIu64 " blocks, %" PRIu64 " damaged bytes\n",
		r->stats.records, r->stats.blocks, r->stats.damaged_bytes);
	fprintf(f, "# ========\n#\n");
}

void report_print_stats(FILE *f, const struct report *r)
{
	const struct sfile_rstats *st = &r->stats;
	uint64_t total = st->unknown;
	char name[24];

	for (unsigned t = 1; t < SFILE_NTYPES; t++)
		total += st->by_type[t];
	fprintf(f, "Aggregated stats:\n");
	fprintf(f, "%20s events: %10" PRIu64 "\n", "TOTAL", total);
	for (unsigned t = 1; t < SFILE_NTYPES; t++) {
		if (!st->by_type[t])
			continue;
		size_t k = 0;
		for (const char *p = sfile_type_name(t); *p && k + 1 < sizeof(name); p++)
			name[k++] = (char)toupper((unsigned char)*p);
		name[k] = 0;
		fprintf(f, "%20s events: %10" PRIu64 "  (%4.1f%%)\n", name, st->by_type[t],
			100.0 * (double)st->by_type[t] / (double)total);
	}
	if (st->unknown)
		fprintf(f, "%20s events: %10" PRIu64 "  (%4.1f%%)\n", "UNKNOWN", st->unknown,
			100.0 * (double)st->unknown / (double)total);
	for (size_t e = 0; e < r->nevents; e++) {
		fprintf(f, "%s stats:\n", r->events[e].attr.name ? r->events[e].attr.name : "?");
		fprintf(f, "%20s events: %10" PRIu64 "\n", "SAMPLE", r->events[e].nsamples);
		if (r->events[e].lost)
			fprintf(f, "%20s samples: %9" PRIu64 "\n", "LOST", r->events[e].lost);
	}
}
