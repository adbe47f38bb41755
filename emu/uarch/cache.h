/* cache.h — one level of cache, cachegrind-style compact: tags per set with
 * an order for LRU, a pointer for round-robin, a seeded generator for
 * pseudo-random replacement; sectored lines; write policies; miss
 * classification against a fully associative LRU shadow of the same size
 * (capacity) and the set of lines ever seen (compulsory). */
#ifndef VPMU_UARCH_CACHE_H
#define VPMU_UARCH_CACHE_H

#include <stdint.h>

#include "uarch.h"

struct uarch_cache_cfg {
	uint32_t size;	   /* bytes */
	uint32_t assoc;	   /* ways; 0 = fully associative */
	uint32_t line;	   /* bytes per line (power of two) */
	uint32_t sector;   /* bytes per sector; == line when not sectored */
	uint8_t repl;	   /* enum uarch_repl */
	uint8_t write;	   /* enum uarch_wpol */
	uint8_t inclusive; /* evictions back-invalidate the levels above */
	uint8_t classify;  /* keep the shadow structures for miss classes */
	/* the low address bits the tag compares (0: all): two lines alike
	 * in them cannot both be present, a reference to one drops the other
	 * (P4's first-level "data conflict" aliasing) */
	uint8_t alias;
	uint8_t context;  /* enum uarch_context: do two address spaces alias too */
	uint16_t latency; /* load-to-use cycles on a hit */
	uint16_t ports;	  /* accesses per cycle */
	/* bytes its data path moves per cycle (0: as many as an access
	 * wants): an access holds its port while the line of the level
	 * above goes over it */
	uint16_t width;
};

/* A way: the line number it holds (UARCH_CACHE_TAG_NONE: invalid), its
 * valid sectors (a bit each; 1 when not sectored) and its dirty bit. */
/* cfg.context, after the P4's L1 data cache context modes (SDM 3A 11.5.6):
 * adaptive, two address spaces (UARCH_SPACE_BIT) never alias; shared,
 * their lines alike in the alias bits drop each other. */
enum uarch_context { UARCH_CTX_ADAPTIVE, UARCH_CTX_SHARED };

struct uarch_cache_way {
	uint64_t tag;
	uint32_t sect;
	uint32_t dirty;
};

#define UARCH_CACHE_TAG_NONE UINT64_MAX /* no line number is all ones */

struct uarch_cache_cls;

/* The cache's state, visible for the inline hit paths below; everything
 * else goes through the functions. */
struct uarch_cache {
	struct uarch_cache_cfg cfg;
	uint32_t sets, assoc;
	uint32_t set_mask; /* sets - 1 when a power of two, else 0 */
	uint8_t line_shift, sector_shift;
	uint32_t sect_mask; /* sectors per line - 1 */
	uint8_t wback, walloc;
	struct uarch_cache_way *ways; /* sets * assoc */
	uint32_t *rr;		      /* round-robin pointer per set */
	/* per set, the way last hit or filled, where a lookup starts (not
	 * under LRU: there the first way is the most recently used) */
	uint32_t *last;
	uint64_t rng;
	struct uarch_cache_cls *cls; /* miss-class shadows (cfg.classify), else NULL */
	uint64_t alias_mask;	     /* line-number bits cfg.alias compares (0: no aliasing) */
};

/* What one access did. */
struct uarch_cache_res {
	uint8_t hit;	     /* line and sector present */
	uint8_t sector_miss; /* line present, sector not (sectored caches) */
	uint8_t miss_class;  /* enum uarch_miss (UARCH_HIT on a hit; needs cfg.classify) */
	uint8_t evicted;     /* a valid line was replaced */
	uint8_t dirty;	     /* ... and it was dirty: a write-back is due */
	uint8_t modified;    /* a hit: the line was dirty before this access */
	uint8_t alias;	     /* a line aliasing this one was dropped (cfg.alias) */
	uint64_t victim;     /* line address of the replaced line */
};

struct uarch_cache *uarch_cache_new(const struct uarch_cache_cfg *cfg, uint64_t seed);
void uarch_cache_free(struct uarch_cache *c);
/* Whether addr's line is present, without touching replacement state. */
int uarch_cache_probe(const struct uarch_cache *c, uint64_t addr);
/* Whether addr's sector is (a read of it would hit), likewise. */
int uarch_cache_holds(const struct uarch_cache *c, uint64_t addr);
/* The miss class (enum uarch_miss) of a write to addr that missed and
 * does not fill (no-allocate), shown to the classifying shadows as such
 * a write; UARCH_HIT if the cache does not classify. */
uint8_t uarch_cache_miss_class(struct uarch_cache *c, uint64_t addr);
/* Mark addr's line clean (a snoop that read it); returns 1 if it was dirty. */
int uarch_cache_clean(struct uarch_cache *c, uint64_t addr);
/* Drop addr's line (back-invalidation, snoop); returns 1 if it was dirty. */
int uarch_cache_invalidate(struct uarch_cache *c, uint64_t addr);
/* Drop every line (a flush of the whole cache). */
void uarch_cache_flush(struct uarch_cache *c);
const struct uarch_cache_cfg *uarch_cache_cfg(const struct uarch_cache *c);

/* uarch_cache_access and uarch_cache_access_present past their first-way
 * hit: set is tag's set, bit the sector's bit. */
void uarch_cache_access_slow(struct uarch_cache *c, uint64_t addr, int write,
			     struct uarch_cache_res *res, uint64_t set, uint64_t tag, uint32_t bit);
int uarch_cache_access_present_slow(struct uarch_cache *c, uint64_t addr, int write,
				    struct uarch_cache_res *res, uint64_t set, uint64_t tag,
				    uint32_t bit);

/* The set number of line number tag. */
static inline uint64_t uarch_cache_set_no(const struct uarch_cache *c, uint64_t tag)
{
	return c->set_mask ? (tag & c->set_mask) : c->sets == 1 ? 0 : tag % c->sets;
}

/* The ways of set number set. */
static inline struct uarch_cache_way *uarch_cache_ways(const struct uarch_cache *c, uint64_t set)
{
	return c->ways + set * c->assoc;
}

/* The way of set number set a lookup tries first: under LRU the most
 * recently used, else the last hit or filled. */
static inline struct uarch_cache_way *uarch_cache_first(const struct uarch_cache *c, uint64_t set)
{
	return uarch_cache_ways(c, set) + (c->last ? c->last[set] : 0);
}

/* The common hit: way f, the set's first (uarch_cache_first), holds the
 * line with the sector present and no shadow needs updating; 1 if so
 * (the access is done), else 0 and nothing changed. */
static inline int uarch_cache_first_hit(struct uarch_cache *c, struct uarch_cache_way *f,
					uint64_t tag, uint32_t bit, int write,
					struct uarch_cache_res *res)
{
	if (f->tag != tag || !(f->sect & bit) || c->cls)
		return 0;
	*res = (struct uarch_cache_res){ .hit = 1, .modified = (uint8_t)f->dirty };
	if (write && c->wback)
		f->dirty = 1;
	return 1;
}

/* Look up addr (one access, not crossing a line: callers split) and update
 * state per the policies: a write under a no-allocate policy does not fill.
 * Inline: the common case (uarch_cache_first_hit). */
static inline void uarch_cache_access(struct uarch_cache *c, uint64_t addr, int write,
				      struct uarch_cache_res *res)
{
	uint64_t tag = addr >> c->line_shift, set = uarch_cache_set_no(c, tag);
	uint32_t bit = 1u << ((addr >> c->sector_shift) & c->sect_mask);

	if (uarch_cache_first_hit(c, uarch_cache_first(c, set), tag, bit, write, res))
		return;
	uarch_cache_access_slow(c, addr, write, res, set, tag, bit);
}

/* uarch_cache_access if addr's line is present (returns 1), else nothing
 * (returns 0): a store that only writes lines the cache holds. */
static inline int uarch_cache_access_present(struct uarch_cache *c, uint64_t addr, int write,
					     struct uarch_cache_res *res)
{
	uint64_t tag = addr >> c->line_shift, set = uarch_cache_set_no(c, tag);
	uint32_t bit = 1u << ((addr >> c->sector_shift) & c->sect_mask);

	if (uarch_cache_first_hit(c, uarch_cache_first(c, set), tag, bit, write, res))
		return 1;
	return uarch_cache_access_present_slow(c, addr, write, res, set, tag, bit);
}

/* Whether a read of addr would hit the set's first way
 * (uarch_cache_first) and change nothing: no replacement or shadow
 * update. */
static inline int uarch_cache_mru_hit(const struct uarch_cache *c, uint64_t addr)
{
	uint64_t tag = addr >> c->line_shift;
	const struct uarch_cache_way *f = uarch_cache_first(c, uarch_cache_set_no(c, tag));

	return f->tag == tag && (f->sect & 1u << ((addr >> c->sector_shift) & c->sect_mask)) &&
	       !c->cls;
}

#endif
