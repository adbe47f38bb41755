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
	uint16_t latency;  /* load-to-use cycles on a hit */
	uint16_t ports;	   /* accesses per cycle */
};

struct uarch_cache;

/* What one access did. */
struct uarch_cache_res {
	uint8_t hit;	     /* line and sector present */
	uint8_t sector_miss; /* line present, sector not (sectored caches) */
	uint8_t miss_class;  /* enum uarch_miss (UARCH_HIT on a hit; needs cfg.classify) */
	uint8_t evicted;     /* a valid line was replaced */
	uint8_t dirty;	     /* ... and it was dirty: a write-back is due */
	uint8_t modified;    /* a hit: the line was dirty before this access */
	uint64_t victim;     /* line address of the replaced line */
};

struct uarch_cache *uarch_cache_new(const struct uarch_cache_cfg *cfg, uint64_t seed);
void uarch_cache_free(struct uarch_cache *c);
/* Look up addr (one access, not crossing a line: callers split) and update
 * state per the policies: a write under a no-allocate policy does not fill. */
void uarch_cache_access(struct uarch_cache *c, uint64_t addr, int write,
			struct uarch_cache_res *res);
/* uarch_cache_access if addr's line is present (returns 1), else nothing
 * (returns 0): a store that only writes lines the cache holds. */
int uarch_cache_access_present(struct uarch_cache *c, uint64_t addr, int write,
			       struct uarch_cache_res *res);
/* Whether a read of addr would hit the first (under LRU the most recently
 * used) way and change nothing: no replacement or shadow update. */
int uarch_cache_mru_hit(const struct uarch_cache *c, uint64_t addr);
/* Whether addr's line is present, without touching replacement state. */
int uarch_cache_probe(const struct uarch_cache *c, uint64_t addr);
/* Mark addr's line clean (a snoop that read it); returns 1 if it was dirty. */
int uarch_cache_clean(struct uarch_cache *c, uint64_t addr);
/* Drop addr's line (back-invalidation, snoop); returns 1 if it was dirty. */
int uarch_cache_invalidate(struct uarch_cache *c, uint64_t addr);
const struct uarch_cache_cfg *uarch_cache_cfg(const struct uarch_cache *c);

#endif
