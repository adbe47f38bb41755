/* stat_ival.c — `vpmu stat -I MSEC`: the counts per interval of emulated
 * time.  Each guest process sends, when its clock reaches a boundary, what
 * its counters counted since its previous message (core/pmu_ival.h); the
 * messages of every process are summed by interval, and printed once the
 * run is over, in perf stat -I's layout: the time in seconds of emulated
 * time at the end of the interval, then the row as without -I.  The last
 * interval ends with the run (--interval-count N: only the first N are
 * printed, as perf stops printing after them; -D: none before it).
 * Multiplexed events are scaled per interval by that interval's enabled
 * and running cycles.  -D alone is one interval that ends at it, left
 * out. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/recwire.h"
#include "stat.h"

static uint64_t *rec_of(const struct stat_ival *iv, size_t i)
{
	return iv->rec + i * 3 * iv->n;
}

void stat_ival_msg(void *arg, const void *msg, size_t len)
{
	struct stat_ival *iv = arg;
	const struct recw_interval *m = msg;
	uint64_t *r, index;

	if (len < sizeof(*m) || m->h.type != RECW_INTERVAL || m->n != iv->n)
		return;
	index = iv->last && m->index > iv->last ? iv->last : m->index;
	if (index >= STAT_IVAL_MAX) {
		iv->overflow = 1;
		return;
	}
	if (index >= iv->nint) {
		size_t n = (size_t)index + 1, cap = iv->nint;
		uint64_t *nr;

		while (cap < n)
			cap = cap ? 2 * cap : 64;
		nr = realloc(iv->rec, cap * 3 * iv->n * sizeof(*nr));
		if (!nr) {
			iv->overflow = 1;
			return;
		}
		memset(nr + iv->nint * 3 * iv->n, 0, (cap - iv->nint) * 3 * iv->n * sizeof(*nr));
		iv->rec = nr;
		iv->nint = cap;
	}
	r = rec_of(iv, (size_t)index);
	for (unsigned k = 0; k < iv->n; k++) {
		r[k] += m->val[k];
		r[iv->n + k] += m->ena[k];
		r[2 * iv->n + k] += m->run[k];
	}
}

void stat_ival_sum(const struct stat_ival *iv, size_t from, uint64_t *val, uint64_t (*time)[2])
{
	for (unsigned k = 0; k < iv->n; k++)
		val[k] = time[k][0] = time[k][1] = 0;
	for (size_t i = from; i < iv->nint; i++) {
		const uint64_t *r = rec_of(iv, i);
		for (unsigned k = 0; k < iv->n; k++) {
			val[k] += r[k];
			time[k][0] += r[iv->n + k];
			time[k][1] += r[2 * iv->n + k];
		}
	}
}

void stat_delay_rows(struct stat_report *rep)
{
	for (int i = 0; i < rep->nrow; i++) {
		struct stat_row *w = &rep->row[i];
		if (w->src != STAT_FUNC && w->src != STAT_MODEL)
			continue;
		w->src = STAT_UNSUPPORTED;
		snprintf(w->why, sizeof(w->why), "%s",
			 "counted by the emulator, not the counter hardware, which -D starts late");
	}
}

void stat_ival_free(struct stat_ival *iv)
{
	free(iv->rec);
	iv->rec = NULL;
	iv->nint = 0;
}

/* Row w of rep with the counts of record r (NULL: nothing counted);
 * 0 when the row has no interval counts (the interpreter's). */
static int interval_row(struct stat_row *w, const struct stat_ival *iv, const uint64_t *r)
{
	double v = 0;
	int counted = 1;

	if (w->src == STAT_UNSUPPORTED)
		return 1;
	if (w->src != STAT_PMU)
		return 0;
	w->ena = w->run = 0;
	for (int j = 0; j < w->nidx; j++) {
		int x = w->idx[j];
		uint64_t val = r ? r[x] : 0, e = r ? r[iv->n + x] : 0, u = r ? r[2 * iv->n + x] : 0;

		w->ena += e;
		w->run += u;
		if (e && !u)
			counted = 0;
		else
			v += e ? (double)val * (double)e / (double)u : (double)val;
	}
	w->shift = v;
	w->sum = w->sumsq = 0;
	w->nrun = counted;
	return 1;
}

int stat_ival_print(FILE *out, const struct stat_report *rep, const struct stat_ival *iv,
		    const struct stat_opts *so)
{
	static struct stat_report t, heads;
	double hz = rep->mhz * 1e6;
	uint64_t end = (uint64_t)rep->cycles;
	size_t nint = iv->len ? (size_t)((end + iv->len - 1) / iv->len) : 0, nprint = nint;
	/* -D: the intervals before it are not printed */
	size_t skip = so->delay_ms > 0 ? (size_t)llround(so->delay_ms / so->interval_ms) : 0;
	int per_cpu = 0;

	if (iv->overflow) {
		fprintf(stderr,
			"vpmu stat: more than %u intervals (or out of memory for them): "
			"give -I a longer interval\n",
			STAT_IVAL_MAX);
		return -1;
	}
	for (int i = 0; i < rep->nrow; i++)
		per_cpu |= rep->row[i].cpu >= 0;
	if (!so->sep && !so->json && !so->metric_only)
		fprintf(out, per_cpu ? "#           time CPU                counts unit events\n" :
				       "#           time             counts unit events\n");
	if (so->interval_count && so->interval_count < nprint - (skip < nprint ? skip : nprint))
		nprint = skip + (size_t)so->interval_count;
	for (size_t i = skip; i < nprint; i++) {
		uint64_t stop = (i + 1) * iv->len < end ? (i + 1) * iv->len : end;
		double ts = (double)stop / hz;
		const uint64_t *r = i < iv->nint ? rec_of(iv, i) : NULL;
		char lead[64];

		t = *rep;
		t.runs = 1;
		t.nmodel = 0; /* the model's own counts are not kept per interval */
		t.cycles = (double)(stop - i * iv->len);
		t.wall = 0;
		/* what a process sent after the run's last cycle (its own clock
		 * ran further) closes the last interval */
		if (i + 1 == nint && iv->nint > nint) {
			static uint64_t sum[3 * RECW_MAX_IVAL];
			memset(sum, 0, sizeof(sum));
			for (size_t j = i; j < iv->nint; j++)
				for (unsigned k = 0; k < 3 * iv->n; k++)
					sum[k] += rec_of(iv, j)[k];
			r = sum;
		}
		snprintf(lead, sizeof(lead), "\"interval\" : %.9f, ", ts);
		if (so->metric_only) {
			if (i ==
			    skip) { /* the figures an interval has: the model's counts are not kept */
				heads = *rep;
				heads.nmodel = 0;
			}
			for (int k = 0; k < t.nrow; k++)
				interval_row(&t.row[k], iv, r);
			stat_metric_only_ival(out, &heads, &t, ts, i == skip, so);
			continue;
		}
		for (int k = 0; k < t.nrow; k++) {
			struct stat_row *w = &t.row[k];

			if (!interval_row(w, iv, r))
				continue;
			if (so->sep) {
				fprintf(out, "%.9f%s", ts, so->sep);
				stat_csv_row(out, &t, w, so->sep);
			} else if (so->json) {
				stat_json_row(out, &t, w, lead);
			} else {
				fprintf(out, "%16.9f ", ts);
				stat_print_row(out, &t, w);
			}
		}
	}
	return 0;
}
