/* hist_chain.c — merge call chains into per-entry trees and print them. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist_chain.h"
#include "core/report_priv.h"

/* Lookup tables while trees are built: each loc's canonical frame (the
 * first loc seen of its function), and each node's children by frame. */
struct build {
	struct report_map canon;  /* (loc, 0) -> canonical loc */
	struct report_map byhash; /* (hash of function, 0) -> canonical loc */
	struct report_map kids;	  /* (node, canonical loc) -> child */
};

static uint64_t hash_str(uint64_t h, const char *s)
{
	while (s && *s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

/* A frame is its function (by name and image), or its address. */
static int same_frame(const struct report_loc *a, const struct report_loc *b)
{
	if (a == b)
		return 1;
	if (a->inlined != b->inlined)
		return 0;
	if (!a->sym || !b->sym)
		return !a->sym && !b->sym && a->addr == b->addr;
	return !strcmp(a->sym, b->sym) &&
	       (a->path == b->path || (a->path && b->path && !strcmp(a->path, b->path)));
}

/* The loc standing for l's frame: one per function (or address). */
static const struct report_loc *canonical(struct build *b, const struct report_loc *l)
{
	const struct report_loc *c = report_map_get(&b->canon, (uintptr_t)l, 0);
	uint64_t h;

	if (c)
		return c;
	h = l->sym ? hash_str(hash_str(0xcbf29ce484222325ull, l->sym), l->path) +
			     (uint64_t)l->inlined :
		     l->addr * 2 + 1;
	c = report_map_get(&b->byhash, h, 0);
	if (!c || !same_frame(c, l)) {
		/* new, or (unlikely) a hash shared with another function */
		if (!c && report_map_put(&b->byhash, h, 0, (void *)l))
			return NULL;
		c = l;
	}
	return report_map_put(&b->canon, (uintptr_t)l, 0, (void *)c) ? NULL : c;
}

static struct hist_chain *child_of(struct build *b, struct hist_chain *n,
				   const struct report_loc *l)
{
	struct hist_chain *c;

	if (!(l = canonical(b, l)))
		return NULL;
	if ((c = report_map_get(&b->kids, (uintptr_t)n, (uintptr_t)l)))
		return c;
	if (n->nchild == n->cap) {
		size_t cap = n->cap ? 2 * n->cap : 2;
		struct hist_chain **a = realloc(n->child, cap * sizeof(*a));

		if (!a)
			return NULL;
		n->child = a;
		n->cap = cap;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->loc = l;
	n->child[n->nchild++] = c;
	return report_map_put(&b->kids, (uintptr_t)n, (uintptr_t)l, c) ? NULL : c;
}

static void free_tree(struct hist_chain *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->nchild; i++)
		free_tree(n->child[i]);
	free(n->child);
	free(n);
}

int hist_build_chains(struct hist *h, int caller)
{
	struct build b = { 0 };
	struct report_loc **chain = malloc(REPORT_MAX_FRAMES * sizeof(*chain));
	int rc = -1;

	if (!chain)
		return -1;

	for (size_t k = 0; hist_sample(h, k); k++) {
		const struct report_sample *s = hist_sample(h, k);
		struct hist_entry *e = hist_entry_of(h, k);
		struct hist_chain *n;
		size_t len = hist_sample_frames(h, k, chain, REPORT_MAX_FRAMES);

		if (!e->chain && !(e->chain = calloc(1, sizeof(*e->chain))))
			goto out;
		n = e->chain;
		n->period += s->period;
		n->nsamples++;
		for (size_t i = 0; i < len; i++) {
			const struct report_loc *l = chain[caller ? len - 1 - i : i];

			if (!(n = child_of(&b, n, l)))
				goto out;
			n->period += s->period;
			n->nsamples++;
		}
	}
	rc = 0;
out:
	free(chain);
	report_map_free(&b.canon);
	report_map_free(&b.byhash);
	report_map_free(&b.kids);
	return rc;
}

const char *hist_frame_name(const struct report_loc *l, char *buf, size_t n)
{
	if (l->sym && l->inlined) {
		snprintf(buf, n, "%s (inlined)", l->sym);
		return buf;
	}
	if (l->sym)
		return l->sym;
	snprintf(buf, n, "0x%" PRIx64, l->addr);
	return buf;
}

static int by_period(const void *x, const void *y)
{
	const struct hist_chain *a = *(struct hist_chain *const *)x;
	const struct hist_chain *b = *(struct hist_chain *const *)y;

	return a->period < b->period ? 1 : a->period > b->period ? -1 : 0;
}

/* A node's value as the style shows it: period of total, the period,
 * or the sample count. */
static const char *value(char *buf, size_t n, const struct hist_graph_style *st, uint64_t period,
			 uint64_t count, uint64_t total)
{
	if (st->value == HIST_PERIOD)
		snprintf(buf, n, "%" PRIu64, period);
	else if (st->value == HIST_COUNT)
		snprintf(buf, n, "%" PRIu64, count);
	else
		snprintf(buf, n, "%.2f%%", total ? 100.0 * (double)period / (double)total : 0.0);
	return buf;
}

/* The children of n worth printing (at least limit percent of total). */
static size_t shown(struct hist_chain *n, uint64_t total, double limit)
{
	size_t k = 0;

	if (!n->nchild)
		return 0;
	qsort(n->child, n->nchild, sizeof(*n->child), by_period);
	while (k < n->nchild &&
	       (!total || 100.0 * (double)n->child[k]->period / (double)total >= limit))
		k++;
	return k;
}

/* What n's children are shares of: the total, or (fractal) their sum. */
static uint64_t share_of(const struct hist_chain *n, uint64_t total,
			 const struct hist_graph_style *st)
{
	uint64_t sum = 0;

	if (st->mode != HIST_FRACTAL)
		return total;
	for (size_t i = 0; i < n->nchild; i++)
		sum += n->child[i]->period;
	return sum;
}

/* n's frames after its first: straight runs as plain lines, branches as
 * perf draws them ("|--45.00%--name"). */
static void print_below(FILE *f, struct hist_chain *n, const char *indent, uint64_t total,
			const struct hist_graph_style *st)
{
	char buf[HIST_FRAME_NAME], ind[1024];
	size_t k;

	for (;;) {
		k = shown(n, share_of(n, total, st), st->limit);
		if (k == 1 && n->child[0]->period == n->period) {
			n = n->child[0];
			fprintf(f, "%s%s\n", indent, hist_frame_name(n->loc, buf, sizeof(buf)));
			continue;
		}
		break;
	}
	uint64_t of = share_of(n, total, st);
	for (size_t i = 0; i < k; i++) {
		struct hist_chain *c = n->child[i];
		int last = i + 1 == k;
		char v[32], lab[40];
		int w = snprintf(lab, sizeof(lab), "--%s--",
				 value(v, sizeof(v), st, c->period, c->nsamples, of));

		fprintf(f, "%s|\n", indent);
		fprintf(f, "%s%s%s%s\n", indent, last ? " " : "|", lab,
			hist_frame_name(c->loc, buf, sizeof(buf)));
		snprintf(ind, sizeof(ind), "%s%s%*s", indent, last ? " " : "|", w, "");
		print_below(f, c, ind, total, st);
	}
}

/* A path from the root that samples ended at: its own period and
 * samples (those of the node less its children's) and its frames. */
struct path {
	uint64_t period, count;
	const struct hist_chain **node;
	size_t n;
};

struct paths {
	struct path *p;
	size_t n, cap;
	const struct hist_chain *stack[REPORT_MAX_FRAMES];
	uint64_t min; /* the least period shown */
};

/* The paths through n (depth frames below the root); -1 out of memory. */
static int collect(struct paths *ps, const struct hist_chain *n, size_t depth)
{
	uint64_t period = n->period, count = n->nsamples;

	for (size_t i = 0; i < n->nchild; i++) {
		period -= n->child[i]->period;
		count -= n->child[i]->nsamples;
	}
	if (depth && period && period >= ps->min) {
		if (ps->n == ps->cap) {
			size_t cap = ps->cap ? 2 * ps->cap : 16;
			struct path *p = realloc(ps->p, cap * sizeof(*p));
			if (!p)
				return -1;
			ps->p = p;
			ps->cap = cap;
		}
		struct path *p = &ps->p[ps->n];
		if (!(p->node = malloc(depth * sizeof(*p->node))))
			return -1;
		memcpy(p->node, ps->stack, depth * sizeof(*p->node));
		p->n = depth;
		p->period = period;
		p->count = count;
		ps->n++;
	}
	for (size_t i = 0; i < n->nchild && depth < REPORT_MAX_FRAMES; i++) {
		ps->stack[depth] = n->child[i];
		if (collect(ps, n->child[i], depth + 1) < 0)
			return -1;
	}
	return 0;
}

static int by_path_period(const void *x, const void *y)
{
	const struct path *a = x, *b = y;

	return a->period < b->period ? 1 : a->period > b->period ? -1 : 0;
}

/* flat and folded: each path on its own, the largest first. */
static void print_paths(FILE *f, const struct hist_chain *root, uint64_t total,
			const struct hist_graph_style *st)
{
	struct paths *ps = calloc(1, sizeof(*ps));
	char buf[HIST_FRAME_NAME], v[32];

	if (!ps)
		return;
	ps->min = (uint64_t)((double)total * st->limit / 100.0);
	if (collect(ps, root, 0) == 0) {
		qsort(ps->p, ps->n, sizeof(*ps->p), by_path_period);
		for (size_t k = 0; k < ps->n; k++) {
			const struct path *p = &ps->p[k];
			value(v, sizeof(v), st, p->period, p->count, total);
			if (st->mode == HIST_FLAT) {
				fprintf(f, "           %s\n", v);
				for (size_t i = 0; i < p->n; i++)
					fprintf(f, "                %s\n",
						hist_frame_name(p->node[i]->loc, buf, sizeof(buf)));
				fprintf(f, "\n");
			} else {
				fprintf(f, " %s ", v);
				for (size_t i = 0; i < p->n; i++)
					fprintf(f, "%s%s", i ? ";" : "",
						hist_frame_name(p->node[i]->loc, buf, sizeof(buf)));
				fprintf(f, "\n");
			}
		}
	}
	for (size_t k = 0; k < ps->n; k++)
		free(ps->p[k].node);
	free(ps->p);
	free(ps);
}

void hist_chain_print(FILE *f, const struct hist_entry *e, uint64_t total,
		      const struct hist_graph_style *st)
{
	static const char pad[] = "            ";
	struct hist_chain *root = e->chain;
	char buf[HIST_FRAME_NAME], ind[64];
	size_t k;

	if (!root)
		return;
	if (st->mode == HIST_FRACTAL)
		total = root->period; /* (each entry a profile of its own) */
	if (st->mode == HIST_FLAT || st->mode == HIST_FOLDED) {
		print_paths(f, root, total, st);
		if (st->mode == HIST_FOLDED)
			fprintf(f, "\n");
		return;
	}
	k = shown(root, share_of(root, total, st), st->limit);
	if (k == 1) {
		/* one chain at the top: "---" (else each branch draws its own
		 * "|" line above it, as perf's) */
		fprintf(f, "%s|\n", pad);
		fprintf(f, "%s---%s\n", pad,
			hist_frame_name(root->child[0]->loc, buf, sizeof(buf)));
		snprintf(ind, sizeof(ind), "%s   ", pad);
		print_below(f, root->child[0], ind, total, st);
	} else {
		print_below(f, root, pad, total, st);
	}
	fprintf(f, "\n");
}

void hist_chains_free(struct hist *h)
{
	for (size_t i = 0; i < h->nentries; i++) {
		free_tree(h->entries[i].chain);
		h->entries[i].chain = NULL;
	}
}
