/* cache.c — one cache level.
 *
 * Layout as in cachegrind's simulator (cg_sim.c): per set an array of ways;
 * under LRU the array is kept in MRU→LRU order, so a hit on the MRU line is
 * one compare and a miss shifts the set down and installs the line at the
 * front.  Tags are whole line numbers (addr >> log2(line)), so the set
 * index need not be a power of two (modulo then, mask otherwise).
 * Round-robin keeps a pointer per set; pseudo-random uses a seeded
 * xorshift64* generator, so runs repeat exactly.  Both fill an invalid way
 * before replacing a valid one.
 *
 * Sectored lines: a line holds `line / sector` sectors with one valid bit
 * each; a line that is present with the wanted sector missing is a sector
 * miss, which fills only that sector and replaces nothing.  The dirty bit
 * is per line.
 *
 * `inclusive`, `latency` and `ports` are figures for the hierarchy and the
 * pipeline that own the levels: the victim reported here is what they
 * back-invalidate.
 *
 * Miss classes (cfg.classify; Hill's three Cs) are kept at the fill unit
 * (the sector; the line when not sectored): compulsory = that unit was
 * never filled before; capacity = a fully associative LRU cache of the
 * same number of units, fed the same accesses under the same allocation
 * policy, misses too; conflict = otherwise.
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "mem.h"

#define TAG_NONE UARCH_CACHE_TAG_NONE

/* Fully associative LRU shadow: hash (open addressing, linear probing)
 * from unit number to node, nodes on a doubly linked MRU→LRU list. */
struct shadow {
	uint32_t cap, used, head, tail;
	uint64_t *key;
	uint32_t *prev, *next;
	uint32_t *slot; /* node + 1, 0 = empty */
	uint32_t mask;	/* slots - 1 */
};

/* Units ever filled (open addressing, TAG_NONE = empty, grows at 1/2). */
struct seen {
	uint64_t *key;
	size_t n, mask;
};

struct uarch_cache_cls {
	struct shadow sh;
	struct seen seen;
};

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static uint8_t log2u(uint64_t v)
{
	uint8_t n = 0;
	while (v > 1) {
		v >>= 1;
		n++;
	}
	return n;
}

static inline uint64_t hash64(uint64_t k)
{
	return k * 0x9e3779b97f4a7c15ull;
}

/* ---- classification shadows --------------------------------------------- */

static int shadow_init(struct shadow *s, uint32_t cap)
{
	uint32_t slots = 1;
	while (slots < 2 * cap)
		slots <<= 1;
	s->cap = cap;
	s->used = 0;
	s->head = s->tail = UINT32_MAX;
	s->mask = slots - 1;
	s->key = uarch_malloc(cap * sizeof(*s->key));
	s->prev = uarch_malloc(cap * sizeof(*s->prev));
	s->next = uarch_malloc(cap * sizeof(*s->next));
	s->slot = uarch_calloc(slots, sizeof(*s->slot));
	return s->key && s->prev && s->next && s->slot ? 0 : -1;
}

static void shadow_free(struct shadow *s)
{
	uarch_mfree(s->key);
	uarch_mfree(s->prev);
	uarch_mfree(s->next);
	uarch_mfree(s->slot);
}

static uint32_t shadow_find(const struct shadow *s, uint64_t k, uint32_t *pos)
{
	uint32_t p = (uint32_t)(hash64(k) >> 32) & s->mask;
	for (;; p = (p + 1) & s->mask) {
		uint32_t n = s->slot[p];
		if (!n || s->key[n - 1] == k) {
			*pos = p;
			return n;
		}
	}
}

/* Remove the entry at slot p, shifting later entries of its probe run back
 * (Knuth 6.4, algorithm R) so lookups need no tombstones. */
static void shadow_unslot(struct shadow *s, uint32_t p)
{
	uint32_t q = p;
	for (;;) {
		q = (q + 1) & s->mask;
		uint32_t n = s->slot[q];
		if (!n)
			break;
		uint32_t home = (uint32_t)(hash64(s->key[n - 1]) >> 32) & s->mask;
		/* move n into the hole unless its home lies cyclically in (p, q] */
		if ((p < q) ? (home <= p || home > q) : (home <= p && home > q)) {
			s->slot[p] = n;
			p = q;
		}
	}
	s->slot[p] = 0;
}

static void list_unlink(struct shadow *s, uint32_t n)
{
	if (s->prev[n] != UINT32_MAX)
		s->next[s->prev[n]] = s->next[n];
	else
		s->head = s->next[n];
	if (s->next[n] != UINT32_MAX)
		s->prev[s->next[n]] = s->prev[n];
	else
		s->tail = s->prev[n];
}

static void list_push(struct shadow *s, uint32_t n)
{
	s->prev[n] = UINT32_MAX;
	s->next[n] = s->head;
	if (s->head != UINT32_MAX)
		s->prev[s->head] = n;
	s->head = n;
	if (s->tail == UINT32_MAX)
		s->tail = n;
}

/* Reference unit k; 1 if the shadow held it.  A miss installs k only when
 * fill is set (the real cache allocates). */
static int shadow_access(struct shadow *s, uint64_t k, int fill)
{
	uint32_t pos, n = shadow_find(s, k, &pos);
	if (n) {
		if (s->head != n - 1) {
			list_unlink(s, n - 1);
			list_push(s, n - 1);
		}
		return 1;
	}
	if (!fill)
		return 0;
	if (s->used < s->cap) {
		n = s->used++;
	} else {
		uint32_t vpos;
		n = s->tail;
		shadow_find(s, s->key[n], &vpos);
		shadow_unslot(s, vpos);
		list_unlink(s, n);
		shadow_find(s, k, &pos); /* the hole may have moved k's slot */
	}
	s->key[n] = k;
	s->slot[pos] = n + 1;
	list_push(s, n);
	return 0;
}

static int seen_init(struct seen *s)
{
	s->n = 0;
	s->mask = 1023;
	s->key = uarch_malloc((s->mask + 1) * sizeof(*s->key));
	if (!s->key)
		return -1;
	memset(s->key, 0xff, (s->mask + 1) * sizeof(*s->key));
	return 0;
}

static void seen_put(uint64_t *tab, size_t mask, uint64_t k)
{
	size_t p = (size_t)(hash64(k) >> 20) & mask;
	while (tab[p] != TAG_NONE && tab[p] != k)
		p = (p + 1) & mask;
	tab[p] = k;
}

/* Whether k was recorded before; records it when add is set. */
static int seen_test(struct seen *s, uint64_t k, int add)
{
	size_t p = (size_t)(hash64(k) >> 20) & s->mask;
	for (; s->key[p] != TAG_NONE; p = (p + 1) & s->mask)
		if (s->key[p] == k)
			return 1;
	if (!add)
		return 0;
	if (2 * (s->n + 1) > s->mask + 1) {
		size_t nmask = 2 * s->mask + 1;
		uint64_t *nk = uarch_malloc((nmask + 1) * sizeof(*nk));
		if (!nk) {
			/* out of memory: keep filling the table while it has room,
			 * then stop recording (classes degrade, nothing breaks) */
			if (s->n + 2 > s->mask)
				return 0;
			goto put;
		}
		memset(nk, 0xff, (nmask + 1) * sizeof(*nk));
		for (size_t i = 0; i <= s->mask; i++)
			if (s->key[i] != TAG_NONE)
				seen_put(nk, nmask, s->key[i]);
		uarch_mfree(s->key);
		s->key = nk;
		s->mask = nmask;
	}
put:
	seen_put(s->key, s->mask, k);
	s->n++;
	return 0;
}

/* ---- the cache ------------------------------------------------------------ */

struct uarch_cache *uarch_cache_new(const struct uarch_cache_cfg *cfg, uint64_t seed)
{
	struct uarch_cache *c;
	uint32_t sector = cfg->sector ? cfg->sector : cfg->line;
	uint64_t lines;

	if (!is_pow2(cfg->line) || cfg->line < 4 || !cfg->size || cfg->size % cfg->line)
		return NULL;
	if (!is_pow2(sector) || sector > cfg->line || cfg->line / sector > 32)
		return NULL;
	if (cfg->repl > UARCH_REPL_RANDOM || cfg->write > UARCH_WT_NOALLOC)
		return NULL;
	lines = cfg->size / cfg->line;
	if (cfg->assoc && (cfg->assoc > lines || lines % cfg->assoc))
		return NULL;

	c = uarch_calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->cfg = *cfg;
	c->cfg.sector = sector;
	c->assoc = cfg->assoc ? cfg->assoc : (uint32_t)lines;
	c->sets = (uint32_t)(lines / c->assoc);
	c->set_mask = is_pow2(c->sets) ? c->sets - 1 : 0;
	c->line_shift = log2u(cfg->line);
	c->sector_shift = log2u(sector);
	c->sect_mask = (cfg->line / sector) - 1;
	c->wback = cfg->write == UARCH_WB_ALLOC || cfg->write == UARCH_WB_NOALLOC;
	c->walloc = cfg->write == UARCH_WB_ALLOC || cfg->write == UARCH_WT_ALLOC;
	if (cfg->alias > c->line_shift)
		c->alias_mask =
			((1ull << (cfg->alias - c->line_shift)) - 1) |
			(cfg->context == UARCH_CTX_ADAPTIVE ? UARCH_SPACE_BIT >> c->line_shift : 0);
	c->rng = seed ? seed : 0x2545f4914f6cdd1dull; /* xorshift state must not be 0 */
	c->ways = uarch_malloc(lines * sizeof(*c->ways));
	c->rr = uarch_calloc(c->sets, sizeof(*c->rr));
	if (cfg->repl != UARCH_REPL_LRU)
		c->last = uarch_calloc(c->sets, sizeof(*c->last));
	if (!c->ways || !c->rr || (cfg->repl != UARCH_REPL_LRU && !c->last))
		goto fail;
	for (uint64_t i = 0; i < lines; i++)
		c->ways[i] = (struct uarch_cache_way){ TAG_NONE, 0, 0 };
	if (cfg->classify) {
		c->cls = uarch_calloc(1, sizeof(*c->cls));
		if (!c->cls || shadow_init(&c->cls->sh, (uint32_t)(cfg->size / sector)) ||
		    seen_init(&c->cls->seen))
			goto fail;
	}
	return c;
fail:
	uarch_cache_free(c);
	return NULL;
}

void uarch_cache_free(struct uarch_cache *c)
{
	if (!c)
		return;
	if (c->cls) {
		shadow_free(&c->cls->sh);
		uarch_mfree(c->cls->seen.key);
		uarch_mfree(c->cls);
	}
	uarch_mfree(c->ways);
	uarch_mfree(c->rr);
	uarch_mfree(c->last);
	uarch_mfree(c);
}

const struct uarch_cache_cfg *uarch_cache_cfg(const struct uarch_cache *c)
{
	return &c->cfg;
}

/* xorshift64* (Vigna, "An experimental exploration of Marsaglia's
 * xorshift generators", 2016). */
static inline uint64_t next_rand(struct uarch_cache *c)
{
	c->rng ^= c->rng >> 12;
	c->rng ^= c->rng << 25;
	c->rng ^= c->rng >> 27;
	return c->rng * 0x2545f4914f6cdd1dull;
}

/* The way a miss fills, per the replacement policy.  Under LRU that is the
 * last (LRU) way, which is also where invalid ways collect. */
static uint32_t pick_victim(struct uarch_cache *c, const struct uarch_cache_way *w)
{
	uint32_t a = c->assoc;
	if (c->cfg.repl == UARCH_REPL_LRU)
		return a - 1;
	for (uint32_t i = 0; i < a; i++)
		if (w[i].tag == TAG_NONE)
			return i;
	if (c->cfg.repl == UARCH_REPL_RR) {
		uint32_t *p = &c->rr[(size_t)(w - c->ways) / a];
		uint32_t v = *p;
		*p = v + 1 == a ? 0 : v + 1;
		return v;
	}
	return (uint32_t)((next_rand(c) >> 32) % a);
}

/* Miss class of a reference that missed (or sector-missed) in the cache. */
static uint8_t classify_miss(struct uarch_cache *c, uint64_t unit, int fill)
{
	int before = seen_test(&c->cls->seen, unit, fill);
	int in_shadow = shadow_access(&c->cls->sh, unit, fill);
	if (!before)
		return UARCH_MISS_COMPULSORY;
	return in_shadow ? UARCH_MISS_CONFLICT : UARCH_MISS_CAPACITY;
}

/* The way of set w holding a line that aliases line tag (cfg.alias; it
 * holds no other line), or -1. */
static int alias_way(const struct uarch_cache *c, const struct uarch_cache_way *w, uint64_t tag)
{
	for (uint32_t i = 0; i < c->assoc; i++)
		if (w[i].tag != TAG_NONE && w[i].tag != tag && !((w[i].tag ^ tag) & c->alias_mask))
			return (int)i;
	return -1;
}

/* Drop way i of set w, which aliased the line referenced: res says so
 * (and what a write-back needs); under LRU the hole goes to the LRU end. */
static void drop_alias(struct uarch_cache *c, struct uarch_cache_way *w, uint32_t i,
		       struct uarch_cache_res *res)
{
	res->alias = 1;
	res->evicted = 1;
	res->dirty = (uint8_t)w[i].dirty;
	res->victim = w[i].tag << c->line_shift;
	if (c->cfg.repl == UARCH_REPL_LRU) {
		for (; i + 1 < c->assoc; i++)
			w[i] = w[i + 1];
	}
	w[i] = (struct uarch_cache_way){ TAG_NONE, 0, 0 };
}

/* Everything but a plain hit on the first way (cache.h has that inline). */
void uarch_cache_access_slow(struct uarch_cache *c, uint64_t addr, int write,
			     struct uarch_cache_res *res, uint64_t set, uint64_t tag, uint32_t bit)
{
	struct uarch_cache_way *w = uarch_cache_ways(c, set);
	uint32_t a = c->assoc, i;
	int fill;

	*res = (struct uarch_cache_res){ .hit = 1 };
	for (i = 0; i < a; i++)
		if (w[i].tag == tag)
			break;
	if (i < a && (w[i].sect & bit))
		goto hit;

	res->hit = 0;
	fill = !write || c->walloc;
	if (c->cls)
		res->miss_class = classify_miss(c, addr >> c->sector_shift, fill);
	if (i < a) {
		/* line present, sector missing: fill the sector only */
		res->sector_miss = 1;
		if (!fill)
			return;
		w[i].sect |= bit;
		goto touch;
	}
	if (c->alias_mask) {
		int j = alias_way(c, w, tag);
		/* "the second reference cannot begin until the first one is
		 * kicked out of the cache" ([opt] "Aliasing Cases"): the alias
		 * goes, and the line takes its way */
		if (j >= 0 && fill) {
			i = (uint32_t)j;
			res->alias = 1;
			goto victim;
		}
		if (j >= 0)
			drop_alias(c, w, (uint32_t)j, res);
	}
	if (!fill)
		return;
	i = pick_victim(c, w);
victim:
	if (w[i].tag != TAG_NONE) {
		res->evicted = 1;
		res->dirty = (uint8_t)w[i].dirty;
		res->victim = w[i].tag << c->line_shift;
	}
	w[i] = (struct uarch_cache_way){ tag, bit, 0 };
	goto touch;

hit:
	res->modified = (uint8_t)w[i].dirty;
	if (c->cls)
		shadow_access(&c->cls->sh, addr >> c->sector_shift, 1);
touch:
	if (write && c->wback)
		w[i].dirty = 1;
	if (c->last)
		c->last[set] = i;
	if (c->cfg.repl == UARCH_REPL_LRU && i) {
		/* a plain loop: sets are short, and a memmove call costs more */
		struct uarch_cache_way t = w[i];
		for (; i; i--)
			w[i] = w[i - 1];
		w[0] = t;
	}
}

int uarch_cache_access_present_slow(struct uarch_cache *c, uint64_t addr, int write,
				    struct uarch_cache_res *res, uint64_t set, uint64_t tag,
				    uint32_t bit)
{
	struct uarch_cache_way *w = uarch_cache_ways(c, set);

	for (uint32_t i = 0; i < c->assoc; i++)
		if (w[i].tag == tag) {
			uarch_cache_access_slow(c, addr, write, res, set, tag, bit);
			return 1;
		}
	*res = (struct uarch_cache_res){ 0 };
	if (c->alias_mask) {
		int j = alias_way(c, w, tag);
		if (j >= 0)
			drop_alias(c, w, (uint32_t)j, res);
	}
	return 0;
}

static struct uarch_cache_way *find(const struct uarch_cache *c, uint64_t addr)
{
	uint64_t tag = addr >> c->line_shift, set = uarch_cache_set_no(c, tag);
	struct uarch_cache_way *w = uarch_cache_ways(c, set), *f = uarch_cache_first(c, set);

	if (f->tag == tag)
		return f;
	for (uint32_t i = 0; i < c->assoc; i++)
		if (w[i].tag == tag)
			return &w[i];
	return NULL;
}

int uarch_cache_probe(const struct uarch_cache *c, uint64_t addr)
{
	return find(c, addr) != NULL;
}

int uarch_cache_holds(const struct uarch_cache *c, uint64_t addr)
{
	const struct uarch_cache_way *w = find(c, addr);

	return w && (w->sect & 1u << ((addr >> c->sector_shift) & c->sect_mask));
}

uint8_t uarch_cache_miss_class(struct uarch_cache *c, uint64_t addr)
{
	return c->cls ? classify_miss(c, addr >> c->sector_shift, 0) : UARCH_HIT;
}

int uarch_cache_clean(struct uarch_cache *c, uint64_t addr)
{
	struct uarch_cache_way *w = find(c, addr);
	int dirty = w && w->dirty;

	if (w)
		w->dirty = 0;
	return dirty;
}

void uarch_cache_flush(struct uarch_cache *c)
{
	for (size_t k = 0; k < (size_t)c->sets * c->assoc; k++)
		c->ways[k] = (struct uarch_cache_way){ TAG_NONE, 0, 0 };
}

int uarch_cache_invalidate(struct uarch_cache *c, uint64_t addr)
{
	struct uarch_cache_way *w = find(c, addr);
	int dirty;

	if (!w)
		return 0;
	dirty = (int)w->dirty;
	if (c->cfg.repl == UARCH_REPL_LRU) {
		/* keep MRU→LRU order: the hole goes to the LRU end */
		struct uarch_cache_way *set = uarch_cache_ways(c, uarch_cache_set_no(c, w->tag));
		size_t i = (size_t)(w - set);
		memmove(w, w + 1, (c->assoc - 1 - i) * sizeof(*w));
		w = &set[c->assoc - 1];
	}
	*w = (struct uarch_cache_way){ TAG_NONE, 0, 0 };
	return dirty;
}
