/* report_pm.c — `vpmu report --profileme`: the 21264 ProfileMe records
 * (arch/alpha/profileme.h) aggregated per instruction address.
 *
 * Useful concurrency comes from pairs: for a pair (A, B), B a distance d
 * in 1..ALPHA_PM_PAIR_SPAN fetched instructions after A, whether B
 * retired while A was in flight ([fetch, retire) of A) and whether A
 * retired while B was.  With d uniform, the fraction of hits times the span
 * estimates how many of the SPAN instructions after (before) an
 * instruction retire during its window; the two sides add up. */
#include <stdlib.h>
#include <string.h>

#include "arch/alpha/profileme.h"
#include "core/report.h"
#include "core/report_out.h"

struct pm_row {
	uint64_t ip;
	const struct report_loc *loc;
	uint64_t n, aborted, retired;
	uint64_t fm, mi, ic, cr; /* stage latency sums over retired samples */
	uint64_t inum, cycles;	 /* sums over all samples */
	uint64_t after_n, after_hit, before_n, before_hit;
};

struct pm_item {
	uint32_t pid;
	uint64_t seq;
	size_t rec; /* index into the decoded records */
};

static int by_ip(const void *a, const void *b)
{
	const struct pm_row *x = a, *y = b;
	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

static int by_total_delay(const void *a, const void *b)
{
	const struct pm_row *x = a, *y = b;
	if (x->inum != y->inum)
		return x->inum > y->inum ? -1 : 1;
	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

static int by_seq(const void *a, const void *b)
{
	const struct pm_item *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Whether the instruction of o retired while that of w was in flight. */
static int retired_within(const struct alpha_pm_rec *o, const struct alpha_pm_rec *w)
{
	return !(o->flags & ALPHA_PMF_ABORTED) && o->retire >= w->fetch && o->retire < w->retire;
}

static struct pm_row *row_of(struct pm_row *rows, size_t n, uint64_t ip)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (rows[mid].ip < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && rows[lo].ip == ip ? &rows[lo] : NULL;
}

static double avg(uint64_t sum, uint64_t n)
{
	return n ? (double)sum / (double)n : 0;
}

static void print(FILE *f, const struct report *r, struct pm_row *rows, size_t nrows,
		  const struct alpha_pm_rec *first, size_t nrec, size_t npairs,
		  const struct report_opts *o)
{
	static const char *const sl1[4] = { "retired instructions, cycles",
					    "cycles, inum retire delay",
					    "retired instructions, Bcache misses",
					    "cycles, Mbox replay traps" };
	const char *sep = o->sep;
	(void)r;

	fprintf(f, "# ProfileMe: %zu records, %zu pairs; PCTR0/PCTR1 (SL1 %u%u): %s; %s\n", nrec,
		npairs, (unsigned)(first->sl1 >> 1 & 1), (unsigned)(first->sl1 & 1),
		sl1[first->sl1 & 3],
		first->flags & ALPHA_PMF_IDEAL ? "ideal counting" : "the hardware's quirks");
	fprintf(f, "# stage latencies are averages over retired samples, in cycles; Concur: "
		   "instructions retiring while it is in flight (pairs)\n#\n");
	if (sep)
		fprintf(f,
			"# Samples%sAbort%%%sFetch>Map%sMap>Issue%sIssue>Ready%sReady>Retire%s"
			"InumDelay%sWindow%sConcur%sConcur/cyc%sAddress%sSymbol\n",
			sep, sep, sep, sep, sep, sep, sep, sep, sep, sep, sep);
	else
		fprintf(f, "# %7s %6s %9s %9s %11s %12s %9s %7s %7s %10s  %-18s %s\n", "Samples",
			"Abort%", "Fetch>Map", "Map>Issue", "Issue>Ready", "Ready>Retire",
			"InumDelay", "Window", "Concur", "Concur/cyc", "Address", "Symbol");
	for (size_t i = 0; i < nrows; i++) {
		const struct pm_row *w = &rows[i];
		char sym[64], conc[32], rate[32], buf[32];
		double c = 0;
		int have = w->after_n || w->before_n;

		if (w->after_n)
			c += ALPHA_PM_PAIR_SPAN * avg(w->after_hit, w->after_n);
		if (w->before_n)
			c += ALPHA_PM_PAIR_SPAN * avg(w->before_hit, w->before_n);
		snprintf(conc, sizeof(conc), have ? "%.1f" : "-", c);
		snprintf(rate, sizeof(rate), have && w->cycles ? "%.3f" : "-",
			 c / avg(w->cycles, w->n));
		if (w->loc && w->loc->sym)
			snprintf(sym, sizeof(sym), "%s+0x%llx", w->loc->sym,
				 (unsigned long long)(w->ip - w->loc->sym_start));
		else
			snprintf(sym, sizeof(sym), "%s",
				 w->loc ? report_loc_sym(w->loc, buf, sizeof(buf)) : "[unknown]");
		if (sep)
			fprintf(f,
				"%llu%s%.2f%s%.2f%s%.2f%s%.2f%s%.2f%s%.2f%s%.2f%s%s%s%s%s0x%llx%s%s\n",
				(unsigned long long)w->n, sep, 100.0 * avg(w->aborted, w->n), sep,
				avg(w->fm, w->retired), sep, avg(w->mi, w->retired), sep,
				avg(w->ic, w->retired), sep, avg(w->cr, w->retired), sep,
				avg(w->inum, w->n), sep, avg(w->cycles, w->n), sep, conc, sep, rate,
				sep, (unsigned long long)w->ip, sep, sym);
		else
			fprintf(f,
				"  %7llu %5.1f%% %9.2f %9.2f %11.2f %12.2f %9.2f %7.1f %7s %10s  "
				"0x%-16llx %s\n",
				(unsigned long long)w->n, 100.0 * avg(w->aborted, w->n),
				avg(w->fm, w->retired), avg(w->mi, w->retired),
				avg(w->ic, w->retired), avg(w->cr, w->retired), avg(w->inum, w->n),
				avg(w->cycles, w->n), conc, rate, (unsigned long long)w->ip, sym);
	}
}

int report_write_profileme(FILE *f, const struct report *r, int ev, report_keep_fn keep, void *arg,
			   const struct report_opts *o)
{
	struct alpha_pm_rec *rec = calloc(r->nsamples + 1, sizeof(*rec));
	const struct report_loc **loc = calloc(r->nsamples + 1, sizeof(*loc));
	struct pm_item *items = calloc(r->nsamples + 1, sizeof(*items));
	struct pm_row *rows = calloc(r->nsamples + 1, sizeof(*rows));
	uint32_t *pid = calloc(r->nsamples + 1, sizeof(*pid));
	size_t nrec = 0, nrows = 0, npairs = 0;
	int ret = -1;

	if (!rec || !loc || !items || !rows || !pid) {
		fprintf(stderr, "vpmu report: out of memory\n");
		goto out;
	}
	for (size_t i = 0; i < r->nsamples; i++) {
		const struct report_sample *s = &r->samples[i];
		if ((ev >= 0 && s->ev != (uint32_t)ev) || !s->npm || (keep && !keep(r, s, arg)))
			continue;
		if (alpha_pm_decode(r->pm + s->pm, s->npm, &rec[nrec]) < 0)
			continue;
		loc[nrec] = s->loc;
		pid[nrec] = s->pid;
		items[nrec] = (struct pm_item){ s->pid, rec[nrec].seq, nrec };
		nrec++;
	}
	if (!nrec) {
		fprintf(stderr,
			"vpmu report: no ProfileMe records in %s (record with -a alpha -e "
			"profileme)\n",
			r->path);
		goto out;
	}
	/* one row per address */
	for (size_t k = 0; k < nrec; k++)
		rows[k].ip = rec[k].pc;
	qsort(rows, nrec, sizeof(*rows), by_ip);
	for (size_t k = 0; k < nrec; k++)
		if (!nrows || rows[nrows - 1].ip != rows[k].ip)
			rows[nrows++].ip = rows[k].ip;
	memset(rows + nrows, 0, (nrec - nrows) * sizeof(*rows));
	for (size_t k = 0; k < nrec; k++) {
		const struct alpha_pm_rec *p = &rec[k];
		struct pm_row *w = row_of(rows, nrows, p->pc);

		w->loc = loc[k];
		w->n++;
		w->inum += p->inum_delay;
		w->cycles += p->cycles;
		if (p->flags & ALPHA_PMF_ABORTED) {
			w->aborted++;
			continue;
		}
		w->retired++;
		w->fm += p->map - p->fetch;
		w->mi += p->issue > p->map ? p->issue - p->map : 0;
		w->ic += p->complete > p->issue ? p->complete - p->issue : 0;
		w->cr += p->retire > p->complete ? p->retire - p->complete : 0;
	}
	/* pairs: the partner names its first by sequence number */
	qsort(items, nrec, sizeof(*items), by_seq);
	for (size_t k = 0; k < nrec; k++) {
		const struct alpha_pm_rec *b = &rec[k];
		struct pm_item key = { pid[k], b->pair, 0 }, *hit;
		const struct alpha_pm_rec *a;

		if (!(b->flags & ALPHA_PMF_PARTNER))
			continue;
		hit = bsearch(&key, items, nrec, sizeof(*items), by_seq);
		if (!hit)
			continue;
		a = &rec[hit->rec];
		npairs++;
		row_of(rows, nrows, a->pc)->after_n++;
		row_of(rows, nrows, a->pc)->after_hit += retired_within(b, a);
		row_of(rows, nrows, b->pc)->before_n++;
		row_of(rows, nrows, b->pc)->before_hit += retired_within(a, b);
	}
	qsort(rows, nrows, sizeof(*rows), by_total_delay);
	print(f, r, rows, nrows, &rec[0], nrec, npairs, o);
	ret = 0;
out:
	free(rec);
	free(loc);
	free(items);
	free(rows);
	free(pid);
	return ret;
}
