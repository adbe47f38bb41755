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

/* n's frames after its first: straight runs as plain lines, branches as
 * perf draws them ("|--45.00%--name"). */
static void print_below(FILE *f, struct hist_chain *n, const char *indent, uint64_t total,
			double limit)
{
	char buf[HIST_FRAME_NAME], ind[1024];
	size_t k;

	for (;;) {
		k = shown(n, total, limit);
		if (k == 1 && n->child[0]->period == n->period) {
			n = n->child[0];
			fprintf(f, "%s%s\n", indent, hist_frame_name(n->loc, buf, sizeof(buf)));
			continue;
		}
		break;
	}
	for (size_t i = 0; i < k; i++) {
		struct hist_chain *c = n->child[i];
		int last = i + 1 == k;
		char pct[32];
		int w = snprintf(pct, sizeof(pct), "--%.2f%%--",
				 total ? 100.0 * (double)c->period / (double)total : 0.0);

		fprintf(f, "%s|\n", indent);
		fprintf(f, "%s%s%s%s\n", indent, last ? " " : "|", pct,
			hist_frame_name(c->loc, buf, sizeof(buf)));
		snprintf(ind, sizeof(ind), "%s%s%*s", indent, last ? " " : "|", w, "");
		print_below(f, c, ind, total, limit);
	}
}

void hist_chain_print(FILE *f, const struct hist_entry *e, uint64_t total, double limit)
{
	static const char pad[] = "            ";
	struct hist_chain *root = e->chain;
	char buf[HIST_FRAME_NAME], ind[64];
	size_t k;

	if (!root)
		return;
	k = shown(root, total, limit);
	fprintf(f, "%s|\n", pad);
	if (k == 1) {
		fprintf(f, "%s---%s\n", pad,
			hist_frame_name(root->child[0]->loc, buf, sizeof(buf)));
		snprintf(ind, sizeof(ind), "%s   ", pad);
		print_below(f, root->child[0], ind, total, limit);
	} else {
		print_below(f, root, pad, total, limit);
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
