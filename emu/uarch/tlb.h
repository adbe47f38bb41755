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

struct uarch_tlb;

struct uarch_tlb *uarch_tlb_new(const struct uarch_tlb_cfg *cfg, uint64_t seed);
void uarch_tlb_free(struct uarch_tlb *t);
/* Translate addr: 1 on a hit; on a miss the entry is filled and 0 returned. */
int uarch_tlb_access(struct uarch_tlb *t, uint64_t addr);
/* Drop every entry (munmap, mprotect). */
void uarch_tlb_flush(struct uarch_tlb *t);
const struct uarch_tlb_cfg *uarch_tlb_cfg(const struct uarch_tlb *t);

#endif
