/* hist.c — aggregate samples into entries by the sort keys (hist.h). */
#include <stdlib.h>
#include <string.h>

#include "core/hist.h"
#include "emu/uarch/uarch.h"

#define NRAW 11

struct group {
	uint64_t raw[NRAW];
	const struct report_sample *s;
	uint64_t period, nsamples, self;
	uint32_t depth;
	size_t entry;
};

struct hist_priv {
	unsigned need; /* HIST_RAW_* of all keys */
	struct group *g;
	size_t ng, gcap;
	uint32_t *index; /* open addressing: group + 1, 0 empty */
	size_t icap;
	uint32_t *sample_group; /* per sample added, in order */
	const struct report_sample **samples;
	uint32_t *sample_frame; /* ... the frame it was added as */
	size_t nadded, addcap, scap, fcap;
	int cumulative; /* callers' frames were added */
	/* hist_add_frames(): groups' samples as seen from a caller, and the
	 * frames of the sample being added */
	struct report_sample **views;
	size_t nviews, vcap;
	struct report_sample *frames;
	size_t framecap;
};

struct hist *hist_new(const struct report *r, const struct hist_key *const *keys, int nkeys)
{
	struct hist *h = calloc(1, sizeof(*h));

	if (!h || !(h->priv = calloc(1, sizeof(*h->priv)))) {
		free(h);
		return NULL;
	}
	h->r = r;
	for (int i = 0; i < nkeys && i < HIST_MAXKEYS; i++) {
		h->keys[h->nkeys++] = keys[i];
		h->priv->need |= keys[i]->raw;
	}
	return h;
}

static void raw_of(unsigned need, const struct report_sample *s, uint64_t *raw)
{
	raw[0] = need & HIST_RAW_EV ? s->ev : 0;
	raw[0] |= need & HIST_RAW_CPU ? (uint64_t)s->cpu << 32 : 0;
	raw[1] = need & HIST_RAW_LOC ? (uintptr_t)s->loc : 0;
	raw[2] = need & HIST_RAW_DLOC ? (uintptr_t)s->dloc : 0;
	raw[3] = need & HIST_RAW_COMM ? (uintptr_t)s->comm : 0;
	raw[4] = need & HIST_RAW_PID ? (uint64_t)s->pid << 32 : 0;
	raw[4] |= need & HIST_RAW_TID ? s->tid : 0;
	raw[5] = need & HIST_RAW_SKID && s->has_trigger ? s->skid + 1 : 0;
	raw[6] = need & HIST_RAW_BRANCH && s->branch ? (uintptr_t)s->branch->from : 0;
	raw[7] = need & HIST_RAW_BRANCH && s->branch ? (uintptr_t)s->branch->to : 0;
	raw[8] = need & HIST_RAW_BRANCH && s->branch ? s->branch->flags : 0;
	raw[9] = need & HIST_RAW_WEIGHT ? s->weight : 0;
	raw[10] = need & HIST_RAW_PM ? s->pm_state : 0;
	raw[10] |= need & HIST_RAW_DLEVEL ? (uint64_t)UARCH_DSRC_LEVEL(s->dsrc) << 8 : 0;
	raw[10] |= need & HIST_RAW_DCLASS ? (uint64_t)UARCH_DSRC_CLASS(s->dsrc) << 16 : 0;
}

static size_t hash_raw(const uint64_t *raw, size_t cap)
{
	uint64_t h = 0x84222325cbf29ce4ull;

	for (int i = 0; i < NRAW; i++) {
		h ^= raw[i];
		h *= 0x9e3779b97f4a7c15ull;
		h ^= h >> 31;
	}
	return (size_t)h & (cap - 1);
}

static int rehash(struct hist_priv *p)
{
	size_t cap = p->icap ? 2 * p->icap : 1024;
	uint32_t *ix = calloc(cap, sizeof(*ix));

	if (!ix)
		return -1;
	for (size_t gi = 0; gi < p->ng; gi++) {
		size_t i = hash_raw(p->g[gi].raw, cap);

		while (ix[i])
			i = (i + 1) & (cap - 1);
		ix[i] = (uint32_t)gi + 1;
	}
	free(p->index);
	p->index = ix;
	p->icap = cap;
	return 0;
}

static int grow(void **a, size_t *cap, size_t need, size_t item)
{
	size_t c = *cap ? *cap : 1024;
	void *q;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	q = realloc(*a, c * item);
	if (!q)
		return -1;
	*a = q;
	*cap = c;
	return 0;
}

/* Sample s seen from frame f of its chain (f > 0: a caller's) into *v. */
static void frame_view(const struct report *r, const struct report_sample *s, uint32_t f,
		       struct report_sample *v)
{
	*v = *s;
	if (f) {
		v->loc = r->chains[s->chain + f];
		v->chain = s->chain + f;
		v->nchain = s->nchain - f;
	}
}

/* A copy of v that lives as long as h (a group's sample seen from a
 * caller), or NULL when out of memory. */
static const struct report_sample *keep_view(struct hist_priv *p, const struct report_sample *v)
{
	struct report_sample *c = malloc(sizeof(*c));

	if (!c || grow((void **)&p->views, &p->vcap, p->nviews + 1, sizeof(*p->views))) {
		free(c);
		return NULL;
	}
	*c = *v;
	p->views[p->nviews++] = c;
	return c;
}

/* Sample s added as frame f (v: s seen from there). */
static int add_frame(struct hist *h, const struct report_sample *s, uint32_t f,
		     const struct report_sample *v)
{
	struct hist_priv *p = h->priv;
	uint64_t raw[NRAW];
	size_t i;
	uint32_t gi, depth = v->nchain ? v->nchain : 1;

	raw_of(p->need, v, raw);
	if (2 * (p->ng + 1) > p->icap && rehash(p))
		return -1;
	for (i = hash_raw(raw, p->icap); p->index[i]; i = (i + 1) & (p->icap - 1))
		if (!memcmp(p->g[p->index[i] - 1].raw, raw, sizeof(raw)))
			break;
	if (!p->index[i]) {
		const struct report_sample *gs = f ? keep_view(p, v) : s;

		if (!gs || grow((void **)&p->g, &p->gcap, p->ng + 1, sizeof(*p->g)))
			return -1;
		p->g[p->ng] = (struct group){ .s = gs };
		memcpy(p->g[p->ng].raw, raw, sizeof(raw));
		p->index[i] = (uint32_t)++p->ng;
	}
	gi = p->index[i] - 1;
	p->g[gi].period += s->period;
	p->g[gi].nsamples++;
	if (!f)
		p->g[gi].self += s->period;
	if (depth > p->g[gi].depth)
		p->g[gi].depth = depth;
	if (grow((void **)&p->sample_group, &p->addcap, p->nadded + 1, sizeof(*p->sample_group)) ||
	    grow((void **)&p->samples, &p->scap, p->nadded + 1, sizeof(*p->samples)) ||
	    grow((void **)&p->sample_frame, &p->fcap, p->nadded + 1, sizeof(*p->sample_frame)))
		return -1;
	p->sample_group[p->nadded] = gi;
	p->sample_frame[p->nadded] = f;
	p->samples[p->nadded++] = s;
	if (!f) {
		h->period += s->period;
		h->nsamples++;
	}
	return 0;
}

int hist_add(struct hist *h, const struct report_sample *s)
{
	return add_frame(h, s, 0, s);
}

static int keys_equal(const struct hist *h, const struct report_sample *a,
		      const struct report_sample *b)
{
	for (int k = 0; k < h->nkeys; k++)
		if (h->keys[k]->cmp(a, b))
			return 0;
	return 1;
}

int hist_add_frames(struct hist *h, const struct report_sample *s,
		    int (*keep)(const struct report *r, const struct report_sample *v, void *arg),
		    void *arg)
{
	struct hist_priv *p = h->priv;
	uint32_t n = s->nchain ? s->nchain : 1;
	struct report_sample *v;

	if (grow((void **)&p->frames, &p->framecap, n, sizeof(*p->frames)))
		return -1;
	v = p->frames;
	p->cumulative = 1;
	int added = 0;
	for (uint32_t f = 0; f < n; f++) {
		int seen = 0;

		frame_view(h->r, s, f, &v[f]);
		for (uint32_t g = 0; g < f && !seen; g++)
			seen = keys_equal(h, &v[g], &v[f]);
		if (seen || (keep && !keep(h->r, &v[f], arg)))
			continue;
		if (add_frame(h, s, f, &v[f]))
			return -1;
		added = 1;
	}
	return added;
}

/* qsort has no context argument: the keys of the hist being sorted. */
static _Thread_local const struct hist *sorting;

static int keys_cmp(const struct report_sample *a, const struct report_sample *b)
{
	for (int k = 0; k < sorting->nkeys; k++) {
		int c = sorting->keys[k]->cmp(a, b);

		if (c)
			return c;
	}
	return 0;
}

static int group_cmp(const void *x, const void *y)
{
	const struct group *a = *(struct group *const *)x, *b = *(struct group *const *)y;

	return keys_cmp(a->s, b->s);
}

static int entry_cmp(const void *x, const void *y)
{
	const struct hist_entry *a = x, *b = y;

	if (a->period != b->period)
		return a->period < b->period ? 1 : -1;
	if (sorting->priv->cumulative && a->depth != b->depth)
		return a->depth < b->depth ? -1 : 1; /* the caller first */
	return keys_cmp(a->s, b->s);
}

int hist_finish(struct hist *h)
{
	struct hist_priv *p = h->priv;
	struct group **order = malloc((p->ng ? p->ng : 1) * sizeof(*order));
	size_t *rank;

	if (!order)
		return -1;
	free(h->entries);
	h->entries = calloc(p->ng ? p->ng : 1, sizeof(*h->entries));
	rank = malloc((p->ng ? p->ng : 1) * sizeof(*rank));
	if (!h->entries || !rank) {
		free(order);
		free(rank);
		return -1;
	}
	for (size_t i = 0; i < p->ng; i++)
		order[i] = &p->g[i];
	sorting = h;
	qsort(order, p->ng, sizeof(*order), group_cmp);
	h->nentries = 0;
	for (size_t i = 0; i < p->ng; i++) {
		struct hist_entry *e;

		if (!i || keys_cmp(order[i - 1]->s, order[i]->s))
			h->entries[h->nentries++] = (struct hist_entry){ .s = order[i]->s };
		e = &h->entries[h->nentries - 1];
		e->period += order[i]->period;
		e->nsamples += order[i]->nsamples;
		e->self += order[i]->self;
		if (order[i]->depth > e->depth)
			e->depth = order[i]->depth;
		order[i]->entry = h->nentries - 1;
	}
	/* Sort entries by period, then map groups to their final place. */
	for (size_t i = 0; i < h->nentries; i++)
		h->entries[i].chain = (struct hist_chain *)(uintptr_t)i; /* old index */
	qsort(h->entries, h->nentries, sizeof(*h->entries), entry_cmp);
	for (size_t i = 0; i < h->nentries; i++) {
		rank[(uintptr_t)h->entries[i].chain] = i;
		h->entries[i].chain = NULL;
	}
	for (size_t i = 0; i < p->ng; i++)
		p->g[i].entry = rank[p->g[i].entry];
	sorting = NULL;
	free(order);
	free(rank);
	return 0;
}

struct hist_entry *hist_entry_of(const struct hist *h, size_t k)
{
	return &h->entries[h->priv->g[h->priv->sample_group[k]].entry];
}

const struct report_sample *hist_sample(const struct hist *h, size_t k)
{
	return k < h->priv->nadded ? h->priv->samples[k] : NULL;
}

size_t hist_sample_frames(const struct hist *h, size_t k, struct report_loc **out, size_t max)
{
	struct report_sample v;

	frame_view(h->r, h->priv->samples[k], h->priv->sample_frame[k], &v);
	return report_sample_frames(h->r, &v, out, max);
}

void hist_free(struct hist *h)
{
	if (!h)
		return;
	free(h->entries);
	if (h->priv) {
		free(h->priv->g);
		free(h->priv->index);
		free(h->priv->sample_group);
		free(h->priv->samples);
		free(h->priv->sample_frame);
		for (size_t i = 0; i < h->priv->nviews; i++)
			free(h->priv->views[i]);
		free(h->priv->views);
		free(h->priv->frames);
	}
	free(h->priv);
	free(h);
}
