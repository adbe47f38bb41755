/* report_export.c — folded stacks (FlameGraph's input) and the callgrind
 * format, from the samples of a report. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist_chain.h"
#include "core/report_out.h"
#include "core/report_priv.h"

static int wanted(const struct report *r, const struct report_sample *s, int ev,
		  report_keep_fn keep, void *arg)
{
	return (ev < 0 || s->ev == (uint32_t)ev) && (!keep || keep(r, s, arg));
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

struct stack {
	const char *text;
	uint64_t count;
};

static int by_text(const void *x, const void *y)
{
	return strcmp((*(struct stack *const *)x)->text, (*(struct stack *const *)y)->text);
}

/* Folded stacks are counted by their text: samples with the same stack
 * share an entry (found by the text's hash and then the text). */
void report_write_folded(FILE *f, const struct report *r, int ev, report_keep_fn keep, void *arg)
{
	struct report_priv p = { 0 };
	struct stack **all = NULL;
	size_t n = 0, cap = 0;
	char line[8192], buf[HIST_FRAME_NAME];
	struct report_loc **chain = malloc(REPORT_MAX_FRAMES * sizeof(*chain));

	for (size_t i = 0; chain && i < r->nsamples; i++) {
		const struct report_sample *s = &r->samples[i];
		size_t len, at;
		uint64_t h;
		struct stack *st;

		if (!wanted(r, s, ev, keep, arg))
			continue;
		len = report_sample_frames(r, s, chain, REPORT_MAX_FRAMES);
		at = (size_t)snprintf(line, sizeof(line), "%s", s->comm);
		for (size_t k = len; k-- > 0 && at < sizeof(line);)
			at += (size_t)snprintf(line + at, sizeof(line) - at, ";%s",
					       hist_frame_name(chain[k], buf, sizeof(buf)));
		h = hash_str(line);
		for (st = report_map_get(&p.locs, h, 0); st && strcmp(st->text, line);)
			st = report_map_get(&p.locs, h, (uintptr_t)st);
		if (!st) {
			/* a chain of entries with the same hash: (h, previous) */
			struct stack *last = NULL, *q;

			for (q = report_map_get(&p.locs, h, 0); q;
			     q = report_map_get(&p.locs, h, (uintptr_t)q))
				last = q;
			st = report_alloc(&p, sizeof(*st));
			if (!st || !(st->text = report_strdup(&p, line)))
				goto oom;
			st->count = 0;
			if (report_map_put(&p.locs, h, last ? (uintptr_t)last : 0, st))
				goto oom;
			if (n == cap) {
				struct stack **a =
					realloc(all, (cap = cap ? 2 * cap : 256) * sizeof(*a));

				if (!a)
					goto oom;
				all = a;
			}
			all[n++] = st;
		}
		st->count++;
	}
	if (!chain)
		goto oom;
	if (n)
		qsort(all, n, sizeof(*all), by_text);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s %" PRIu64 "\n", all[i]->text, all[i]->count);
	goto out;
oom:
	fprintf(stderr, "vpmu report: out of memory\n");
out:
	free(chain);
	free(all);
	report_spaces_free(&p);
}

/* ---- callgrind ----------------------------------------------------------- */

struct cost {
	const struct report_loc *at;	 /* where the cost is */
	const struct report_loc *callee; /* NULL: self cost; else a call */
	uint64_t calls;
	uint64_t v[]; /* per event */
};

static const char *cg_file(struct report_loc *l)
{
	return report_loc_line(l) == 0 ? l->srcfile : "???";
}

static unsigned cg_line(struct report_loc *l)
{
	return report_loc_line(l) == 0 ? l->line : 0;
}

static void cg_where(FILE *f, const char *pre, struct report_loc *l)
{
	char buf[HIST_FRAME_NAME];

	fprintf(f, "%sob=%s\n%sfl=%s\n%sfn=%s\n", pre, l->path ? l->path : "[unknown]", pre,
		cg_file(l), pre, hist_frame_name(l, buf, sizeof(buf)));
}

int report_write_callgrind(FILE *f, const struct report *r, int ev, report_keep_fn keep, void *arg)
{
	struct report_priv p = { 0 };
	struct cost **all = NULL;
	size_t n = 0, cap = 0, nev = r->nevents, lo, hi;
	uint64_t *total = calloc(nev ? nev : 1, sizeof(*total));
	int rc = -1;

	if (!total)
		goto out;
	for (size_t i = 0; i < r->nsamples; i++) {
		const struct report_sample *s = &r->samples[i];
		/* inlined code is its function's, as in callgrind's own files
		 * (no inline frames) */
		struct report_loc *const *chain = s->nchain ? r->chains + s->chain : &s->loc;
		size_t len = s->nchain ? s->nchain : 1;

		if (!wanted(r, s, ev, keep, arg))
			continue;
		total[s->ev] += s->period;
		/* self cost at the sample's ip, then each caller's call cost */
		for (size_t k = 0; k < len; k++) {
			const struct report_loc *at = k ? chain[k] : s->loc;
			const struct report_loc *callee = k ? chain[k - 1] : NULL;
			struct cost *c = report_map_get(&p.locs, (uintptr_t)at, (uintptr_t)callee);

			if (!c) {
				c = report_alloc(&p, sizeof(*c) + nev * sizeof(c->v[0]));
				if (!c)
					goto out;
				memset(c, 0, sizeof(*c) + nev * sizeof(c->v[0]));
				c->at = at;
				c->callee = callee;
				if (report_map_put(&p.locs, (uintptr_t)at, (uintptr_t)callee, c))
					goto out;
				if (n == cap) {
					struct cost **a = realloc(all, (cap = cap ? 2 * cap : 256) *
									       sizeof(*a));

					if (!a)
						goto out;
					all = a;
				}
				all[n++] = c;
			}
			c->v[s->ev] += s->period;
			c->calls++;
		}
	}
	fprintf(f, "# callgrind format\nversion: 1\ncreator: vpmu report\n");
	if (r->argv) {
		fprintf(f, "cmd:");
		for (size_t i = 0; i < r->argc; i++)
			fprintf(f, " %s", r->argv[i]);
		fprintf(f, "\n");
	}
	/* one column per event; only the chosen one with -e */
	lo = ev < 0 ? 0 : (size_t)ev;
	hi = ev < 0 ? nev : (size_t)ev + 1;
	fprintf(f, "positions: line\nevents:");
	for (size_t e = lo; e < hi; e++) {
		fputc(' ', f);
		for (const char *c = r->events[e].attr.name; *c; c++)
			fputc((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') ||
					      (*c >= 'A' && *c <= 'Z') ?
				      *c :
				      '_',
			      f);
	}
	fprintf(f, "\nsummary:");
	for (size_t e = lo; e < hi; e++)
		fprintf(f, " %" PRIu64, total[e]);
	fprintf(f, "\n");
	for (size_t i = 0; i < n; i++) {
		struct cost *c = all[i];
		struct report_loc *at = (struct report_loc *)c->at;

		fprintf(f, "\n");
		cg_where(f, "", at);
		if (c->callee) {
			struct report_loc *ce = (struct report_loc *)c->callee;

			cg_where(f, "c", ce);
			fprintf(f, "calls=%" PRIu64 " %u\n", c->calls, cg_line(ce));
		}
		fprintf(f, "%u", cg_line(at));
		for (size_t e = lo; e < hi; e++)
			fprintf(f, " %" PRIu64, c->v[e]);
		fprintf(f, "\n");
	}
	rc = 0;
out:
	if (rc)
		fprintf(stderr, "vpmu report: out of memory\n");
	free(all);
	free(total);
	report_spaces_free(&p);
	return rc;
}
