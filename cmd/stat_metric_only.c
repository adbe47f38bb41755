/* stat_metric_only.c — stat --metric-only: perf's table of the derived
 * figures alone, a column each, headed by its unit (and, for a share, the
 * event it is a share of), in the text, -x and -j formats; with -I, a
 * line of them per interval. */
#include <stdio.h>
#include <string.h>

#include "core/fmt.h"
#include "stat.h"

#define MO_MAX 64 /* columns */
/* a column of -I's lines: its head's width, room for a figure at least */
#define MO_WIDTH(head) (width(head) > 8 ? width(head) : 8)

struct mo_col {
	char head[96];
	char val[32];
};

/* Columns a terminal shows s in (UTF-8: µ is one). */
static int width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* The columns: each combined row that has a derived figure. */
static int columns(const struct stat_report *rep, struct mo_col *c)
{
	int n = 0;

	for (int i = 0; i < rep->nrow && n < MO_MAX; i++) {
		const struct stat_row *w = &rep->row[i];
		const char *unit;
		double v;

		if (w->cpu >= 0 || !stat_metric(rep, w, &v, &unit))
			continue;
		if (!strncmp(unit, "of ", 3)) /* a share: of what, whose */
			snprintf(c[n].head, sizeof(c[n].head), "%s %s", w->name, unit);
		else
			snprintf(c[n].head, sizeof(c[n].head), "%s", unit);
		snprintf(c[n].val, sizeof(c[n].val), strcmp(unit, "GHz") ? "%.2f" : "%.3f", v);
		n++;
	}
	return n;
}

void stat_print_metric_only(FILE *out, const struct stat_report *rep, const struct stat_opts *so)
{
	struct mo_col c[MO_MAX];
	int n = columns(rep, c);

	if (so->json) {
		fputc('{', out);
		for (int k = 0; k < n; k++) {
			fputs(k ? ", " : "", out);
			fmt_json_str(out, c[k].head);
			fprintf(out, " : \"%s\"", c[k].val);
		}
		fputs("}\n", out);
		return;
	}
	if (so->sep) {
		for (int k = 0; k < n; k++)
			fprintf(out, "%s%s", c[k].head, so->sep);
		fputc('\n', out);
		for (int k = 0; k < n; k++)
			fprintf(out, "%s%s", c[k].val, so->sep);
		fputc('\n', out);
		return;
	}
	stat_print_head(out, rep);
	for (int row = 0; row < 2; row++) {
		for (int k = 0; k < n; k++) {
			int w = width(c[k].head) > width(c[k].val) ? width(c[k].head) :
								     width(c[k].val);
			const char *s = row ? c[k].val : c[k].head;
			fprintf(out, "  %*s%s", w - width(s), "", s);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
	stat_print_tail(out, rep, so);
}

/* The column of a figure headed head in c (n of them), or -1. */
static int column_of(const struct mo_col *c, int n, const char *head)
{
	for (int k = 0; k < n; k++)
		if (!strcmp(c[k].head, head))
			return k;
	return -1;
}

void stat_metric_only_ival(FILE *out, const struct stat_report *rep, const struct stat_report *t,
			   double ts, int first, const struct stat_opts *so)
{
	struct mo_col head[MO_MAX], c[MO_MAX];
	int n = columns(rep, head), m = columns(t, c);

	if (so->json) {
		fprintf(out, "{\"interval\" : %.9f", ts);
		for (int k = 0; k < m; k++) {
			fputs(", ", out);
			fmt_json_str(out, c[k].head);
			fprintf(out, " : \"%s\"", c[k].val);
		}
		fputs("}\n", out);
		return;
	}
	if (first) {
		fputs(so->sep ? "time" : "#           time", out);
		for (int k = 0; k < n; k++)
			if (so->sep)
				fprintf(out, "%s%s", so->sep, head[k].head);
			else
				fprintf(out, "  %*s%s",
					MO_WIDTH(head[k].head) - width(head[k].head), "",
					head[k].head);
		fputc('\n', out);
	}
	if (so->sep)
		fprintf(out, "%.9f", ts);
	else
		fprintf(out, "%16.9f", ts);
	/* (the columns of the whole run's figures; one the interval has
	 * none of stays empty) */
	for (int k = 0; k < n; k++) {
		int j = column_of(c, m, head[k].head);
		const char *v = j < 0 ? "" : c[j].val;
		if (so->sep)
			fprintf(out, "%s%s", so->sep, v);
		else
			fprintf(out, "  %*s%s", MO_WIDTH(head[k].head) - width(v), "", v);
	}
	fputc('\n', out);
}
