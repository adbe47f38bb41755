/* tlb.h — one TLB level: entries, associativity, page size, replacement. */
#ifndef VPMU_UARCH_TLB_H
#define VPMU_UARCH_TLB_H

#include <stdint.h>

#include "uarch.h"

struct uarch_tlb_cfg {
	uint32_t entries;
	uint32_t assoc; /* 0 = fully associative */
	uint32_t page;	/* bytes */
	uint8_t repl;	/* enum uarch_repl */
	uint16_t walk;	/* first level: page-walk cycles on top of the walk's own cache
			  * accesses; second level: the cost of a hit there */
};

/* memo slots: a power of two, many more than a TLB has entries, so that
 * the pages of a large working set seldom share one */
#define UARCH_TLB_MEMO 1024

/* The TLB's state, visible for the inline hit path below. */
struct uarch_tlb {
	struct uarch_tlb_cfg cfg;
	uint32_t sets, assoc;
	uint32_t set_mask; /* sets - 1 when a power of two, else 0 */
	uint8_t page_shift;
	uint64_t *pn;	 /* sets * assoc page numbers */
	uint64_t *stamp; /* LRU: last use per entry, 0 = never */
	uint64_t clock;	 /* LRU: the last stamp given */
	uint32_t *rr;	 /* round-robin pointer per set */
	uint64_t rng;
	/* 1 + the entry that last held a page of each slot (page number
	 * modulo the slots), 0 = none: a hint, checked against the entry */
	uint32_t memo[UARCH_TLB_MEMO];
};

struct uarch_tlb *uarch_tlb_new(const struct uarch_tlb_cfg *cfg, uint64_t seed);
void uarch_tlb_free(struct uarch_tlb *t);
/* Drop every entry (munmap, mprotect). */
void uarch_tlb_flush(struct uarch_tlb *t);
const struct uarch_tlb_cfg *uarch_tlb_cfg(const struct uarch_tlb *t);
/* uarch_tlb_access for a page number its memo slot does not find. */
int uarch_tlb_search(struct uarch_tlb *t, uint64_t pn, uint32_t *memo);

/* 1 (the hit recorded) if the memo finds addr's page; else 0, nothing
 * changed: uarch_tlb_access's quick part. */
static inline int uarch_tlb_hit(struct uarch_tlb *t, uint64_t addr)
{
	uint64_t pn = addr >> t->page_shift;
	uint32_t e = t->memo[pn & (UARCH_TLB_MEMO - 1)];

	if (e && t->pn[e - 1] == pn) {
		if (t->cfg.repl == UARCH_REPL_LRU)
			t->stamp[e - 1] = ++t->clock;
		return 1;
	}
	return 0;
}

/* Translate addr: 1 on a hit; on a miss the entry is filled and 0 returned. */
static inline int uarch_tlb_access(struct uarch_tlb *t, uint64_t addr)
{
	uint64_t pn = addr >> t->page_shift;

	return uarch_tlb_hit(t, addr) ||
	       uarch_tlb_search(t, pn, &t->memo[pn & (UARCH_TLB_MEMO - 1)]);
}

#endif
