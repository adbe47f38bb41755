/* prefetch.h — a hardware data prefetcher in front of the last cache
 * level: streams of misses inside a 4 KB region, each followed some bytes
 * ahead once two misses close together have started it (the Pentium 4's,
 * IA-32 Intel Architecture Optimization Reference Manual, 248966-013,
 * ch. 1 "Hardware Prefetching" and ch. 6 "Hardware Prefetch").
 *
 * This part only decides which sectors to fetch; the memory system
 * (memsys.c) fetches them and times them.  Internal to emu/uarch. */
#ifndef VPMU_UARCH_PREFETCH_H
#define VPMU_UARCH_PREFETCH_H

#include <stdint.h>

#define UARCH_PF_MAX 64 /* streams tracked at most (mem.pf_streams) */
/* log2 of the region a stream stays in: it never crosses 4 KB, whatever
 * the paging mode (the manual's ch. 6) */
#define UARCH_PF_PAGE 12
#define UARCH_PF_FILLS 64 /* prefetches remembered in flight */

struct uarch_pf_stream {
	uint64_t region; /* address >> UARCH_PF_PAGE */
	uint64_t last;	 /* sector of the last miss, while not started */
	uint64_t next;	 /* started: the next sector to fetch */
	uint64_t used;	 /* replacement: the stamp of its last access */
	int dir;	 /* 0: not started; +1 or -1: the direction it runs */
};

/* A sector fetched and the cycle its data arrives. */
struct uarch_pf_fill {
	uint64_t sector, arrive;
};

struct uarch_pf {
	unsigned n;	  /* streams tracked (0: no prefetcher) */
	unsigned shift;	  /* log2 of the unit fetched (the last level's sector) */
	unsigned trigger; /* two misses at most this many bytes apart start a stream */
	unsigned ahead;	  /* bytes a started stream runs ahead of the accesses */
	uint64_t clock;
	struct uarch_pf_stream s[UARCH_PF_MAX]; /* unused: region ~0 */
	unsigned mru;				/* the stream accessed last */
	/* a ring, in the order the fills were made, which is the order they
	 * arrive in (uarch_pf_fetched()) */
	struct uarch_pf_fill fill[UARCH_PF_FILLS];
	unsigned fill_i;
};

/* A prefetcher of streams streams (capped at UARCH_PF_MAX) fetching units
 * of 1 << shift bytes. */
void uarch_pf_init(struct uarch_pf *pf, unsigned streams, unsigned shift, unsigned trigger,
		   unsigned ahead);
/* A demand access at the last level to addr at cycle t, which missed
 * there or not, with at most limit prefetches to be in flight: returns
 * how many sectors to fetch, the first at *first, each next one *dir
 * sectors on (addresses: sector << shift); those past the limit wait for
 * a later access. */
unsigned uarch_pf_access(struct uarch_pf *pf, uint64_t addr, int miss, uint64_t t, unsigned limit,
			 uint64_t *first, int *dir);
/* Sector fetched by the prefetcher, its data arriving at cycle arrive,
 * no earlier than the fills before it (the bus carries one after the
 * other). */
void uarch_pf_fetched(struct uarch_pf *pf, uint64_t sector, uint64_t arrive);
/* Prefetches in flight at cycle t. */
unsigned uarch_pf_inflight(const struct uarch_pf *pf, uint64_t t);
/* The cycle the data of addr's sector arrives if a prefetch of it is
 * still in flight at cycle t, else 0. */
uint64_t uarch_pf_pending(const struct uarch_pf *pf, uint64_t addr, uint64_t t);

#endif
