/* report_filter.c — --comms, --dsos, --symbols, --pid, --tid,
 * --hide-unresolved, --time (report_filter.h). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/report_filter.h"

int report_filter_add(struct report_filter *f, enum report_filter_kind k, const char *list)
{
	for (const char *p = list;;) {
		size_t len = strcspn(p, ",");
		char **a = realloc(f->names[k], (f->n[k] + 1) * sizeof(*a));

		if (!a)
			return -1;
		f->names[k] = a;
		if (k == REPORT_F_PID || k == REPORT_F_TID) {
			/* (as the samples' IDs print: no leading zeros) */
			char id[16];

			if (!len || strspn(p, "0123456789") < len || len > 10) {
				errno = EINVAL;
				return -1;
			}
			snprintf(id, sizeof(id), "%lu", strtoul(p, NULL, 10));
			a[f->n[k]] = strdup(id);
		} else {
			a[f->n[k]] = strndup(p, len);
		}
		if (!a[f->n[k]])
			return -1;
		f->n[k]++;
		p += len;
		if (!*p++)
			return 0;
	}
}

int report_filter_among(const struct report_filter *f, enum report_filter_kind k, const char *a,
			const char *b)
{
	for (size_t i = 0; i < f->n[k]; i++)
		if ((a && !strcmp(f->names[k][i], a)) || (b && !strcmp(f->names[k][i], b)))
			return 1;
	return 0;
}

/* A time in seconds at *p up to a ',', a space or the end; an empty
 * one is open: dflt. */
static int seconds(const char **p, double dflt, double *v)
{
	char *end;

	if (!**p || **p == ',' || **p == ' ') {
		*v = dflt;
		return 0;
	}
	*v = strtod(*p, &end);
	if (end == *p || (*end && *end != ',' && *end != ' ') || !(*v >= 0) || *v > 1e9)
		return -1;
	*p = end;
	return 0;
}

/* A percent at *p: "A%" (0 to 100); 0, or -1. */
static int percent(const char **p, double *v)
{
	char *end;

	*v = strtod(*p, &end);
	if (end == *p || *end != '%' || !(*v >= 0) || *v > 100)
		return -1;
	*p = end + 1;
	return 0;
}

/* One range of spec at *p into f's next: seconds "S,E" (up to a space)
 * or, with f->percent, "A%-B%" or "A%/N" (up to a ','); 0, or -1. */
static int one_range(struct report_filter *f, const char **p)
{
	double *from = &f->t_from[f->ntimes], *to = &f->t_to[f->ntimes];

	if (f->ntimes == REPORT_MAX_TIMES)
		return -1;
	if (f->percent) {
		char *end;
		if (percent(p, from))
			return -1;
		if (**p == '/') {
			double n = strtod(*p + 1, &end);
			if (end == *p + 1 || !(n >= 1) || n > 1e6 || n != (double)(long)n ||
			    *from * n > 100)
				return -1;
			*to = *from * n;
			*from *= n - 1;
			*p = end;
		} else if (*(*p)++ != '-' || percent(p, to)) {
			return -1;
		}
		if (**p && (*(*p)++ != ',' || !**p)) /* (a ',' goes before another) */
			return -1;
	} else {
		if (seconds(p, 0, from) || *(*p)++ != ',' || seconds(p, 1e9, to) ||
		    (**p && **p != ' '))
			return -1;
		while (**p == ' ')
			(*p)++;
	}
	if (*to < *from)
		return -1;
	f->ntimes++;
	return 0;
}

int report_filter_time(struct report_filter *f, const char *spec)
{
	const char *p = spec;

	f->ntimes = 0;
	f->percent = strchr(spec, '%') != NULL;
	while (*p == ' ')
		p++;
	do {
		if (one_range(f, &p)) {
			f->ntimes = 0;
			errno = EINVAL;
			return -1;
		}
	} while (*p);
	return 0;
}

int report_filter_clock(struct report_filter *f, const struct report *r)
{
	double hz = report_clock_ghz(r) * 1e9;
	uint64_t first = UINT64_MAX, last = 0;

	if (!f->ntimes)
		return 0;
	if (f->percent) { /* of the span from the first sample to the last */
		for (size_t k = 0; k < r->nsamples; k++) {
			first = r->samples[k].time < first ? r->samples[k].time : first;
			last = r->samples[k].time > last ? r->samples[k].time : last;
		}
		if (first > last)
			first = last = 0;
		for (int k = 0; k < f->ntimes; k++) {
			double span = (double)(last - first);
			f->c_from[k] = first + (uint64_t)ceil(span * f->t_from[k] / 100);
			f->c_to[k] = first + (uint64_t)floor(span * f->t_to[k] / 100);
		}
		return 0;
	}
	if (!(hz > 0))
		return -1;
	for (int k = 0; k < f->ntimes; k++) {
		f->c_from[k] = (uint64_t)ceil(f->t_from[k] * hz);
		f->c_to[k] = f->t_to[k] >= 1e9 ? UINT64_MAX : (uint64_t)floor(f->t_to[k] * hz);
	}
	return 0;
}

/* Whether cycle t is in one of f's ranges. */
static int in_time(const struct report_filter *f, uint64_t t)
{
	for (int k = 0; k < f->ntimes; k++)
		if (t >= f->c_from[k] && t <= f->c_to[k])
			return 1;
	return 0;
}

int report_filter_keep(const struct report *r, const struct report_sample *s, void *arg)
{
	const struct report_filter *f = arg;
	const struct report_loc *l = s->loc;
	char pid[16], tid[16];

	(void)r;
	if (f->ntimes && !in_time(f, s->time))
		return 0;
	if (f->names[REPORT_F_PID] || f->names[REPORT_F_TID]) {
		snprintf(pid, sizeof(pid), "%u", s->pid);
		snprintf(tid, sizeof(tid), "%u", s->tid);
		if ((f->names[REPORT_F_PID] && !report_filter_among(f, REPORT_F_PID, pid, NULL)) ||
		    (f->names[REPORT_F_TID] && !report_filter_among(f, REPORT_F_TID, tid, NULL)))
			return 0;
	}
	if (f->names[REPORT_F_COMM] && !report_filter_among(f, REPORT_F_COMM, s->comm, NULL))
		return 0;
	if (f->names[REPORT_F_DSO] &&
	    !report_filter_among(f, REPORT_F_DSO, report_loc_dso(l), l->path))
		return 0;
	if (f->names[REPORT_F_SYM] && !report_filter_among(f, REPORT_F_SYM, l->sym, NULL))
		return 0;
	if (f->resolved && !l->sym)
		return 0;
	if (f->sym_sub && (!l->sym || !strstr(l->sym, f->sym_sub)))
		return 0;
	return 1;
}

void report_filter_free(struct report_filter *f)
{
	for (int k = 0; k < REPORT_F_N; k++) {
		for (size_t i = 0; i < f->n[k]; i++)
			free(f->names[k][i]);
		free(f->names[k]);
		f->names[k] = NULL;
		f->n[k] = 0;
	}
}
