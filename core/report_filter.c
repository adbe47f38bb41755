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

/* A time in seconds at *p up to the ',' or the end; an empty one is
 * open: dflt. */
static int seconds(const char **p, double dflt, double *v)
{
	char *end;

	if (!**p || **p == ',') {
		*v = dflt;
		return 0;
	}
	*v = strtod(*p, &end);
	if (end == *p || (*end && *end != ',') || !(*v >= 0) || *v > 1e9)
		return -1;
	*p = end;
	return 0;
}

int report_filter_time(struct report_filter *f, const char *spec)
{
	const char *p = spec;

	if (seconds(&p, 0, &f->t_from) || *p++ != ',' || seconds(&p, 1e9, &f->t_to) || *p ||
	    f->t_to < f->t_from) {
		errno = EINVAL;
		return -1;
	}
	f->timed = 1;
	return 0;
}

int report_filter_clock(struct report_filter *f, const struct report *r)
{
	double hz = report_clock_ghz(r) * 1e9;

	if (!f->timed)
		return 0;
	if (!(hz > 0))
		return -1;
	f->c_from = (uint64_t)ceil(f->t_from * hz);
	f->c_to = f->t_to >= 1e9 ? UINT64_MAX : (uint64_t)floor(f->t_to * hz);
	return 0;
}

int report_filter_keep(const struct report *r, const struct report_sample *s, void *arg)
{
	const struct report_filter *f = arg;
	const struct report_loc *l = s->loc;
	char pid[16], tid[16];

	(void)r;
	if (f->timed && (s->time < f->c_from || s->time > f->c_to))
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
