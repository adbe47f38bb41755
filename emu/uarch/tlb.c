/* tlb.c — one TLB level: the cache structure of cache.c on page numbers.
 * Per set an array of page numbers (MRU→LRU under LRU), a round-robin
 * pointer per set, a seeded xorshift64* generator for pseudo-random
 * replacement; round-robin and random fill an invalid entry first. */
#include <stdlib.h>
#include <string.h>

#include "tlb.h"
#include "mem.h"

#define PAGE_NONE UINT64_MAX /* no page number is all ones (page >= 2) */

struct uarch_tlb {
	struct uarch_tlb_cfg cfg;
	uint32_t sets, assoc;
	uint32_t set_mask; /* sets - 1 when a power of two, else 0 */
	uint8_t page_shift;
	uint64_t *pn; /* sets * assoc page numbers */
	uint32_t *rr; /* round-robin pointer per set */
	uint64_t rng;
};

struct uarch_tlb *uarch_tlb_new(const struct uarch_tlb_cfg *cfg, uint64_t seed)
{
	struct uarch_tlb *t;

	if (!cfg->entries || cfg->page < 2 || (cfg->page & (cfg->page - 1)))
		return NULL;
	if (cfg->assoc && (cfg->assoc > cfg->entries || cfg->entries % cfg->assoc))
		return NULL;
	if (cfg->repl > UARCH_REPL_RANDOM)
		return NULL;
	t = uarch_calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->cfg = *cfg;
	t->assoc = cfg->assoc ? cfg->assoc : cfg->entries;
	t->sets = cfg->entries / t->assoc;
	t->set_mask = (t->sets & (t->sets - 1)) ? 0 : t->sets - 1;
	while ((1ull << t->page_shift) < cfg->page)
		t->page_shift++;
	t->rng = seed ? seed : 0x2545f4914f6cdd1dull;
	t->pn = uarch_malloc((size_t)cfg->entries * sizeof(*t->pn));
	t->rr = uarch_calloc(t->sets, sizeof(*t->rr));
	if (!t->pn || !t->rr) {
		uarch_tlb_free(t);
		return NULL;
	}
	memset(t->pn, 0xff, (size_t)cfg->entries * sizeof(*t->pn));
	return t;
}

void uarch_tlb_free(struct uarch_tlb *t)
{
	if (!t)
		return;
	uarch_mfree(t->pn);
	uarch_mfree(t->rr);
	uarch_mfree(t);
}

const struct uarch_tlb_cfg *uarch_tlb_cfg(const struct uarch_tlb *t)
{
	return &t->cfg;
}

void uarch_tlb_flush(struct uarch_tlb *t)
{
	memset(t->pn, 0xff, (size_t)t->cfg.entries * sizeof(*t->pn));
}

int uarch_tlb_access(struct uarch_tlb *t, uint64_t addr)
{
	uint64_t pn = addr >> t->page_shift;
	uint64_t set = t->sets == 1 ? 0 : t->set_mask ? (pn & t->set_mask) : pn % t->sets;
	uint64_t *s = t->pn + set * t->assoc;
	uint32_t a = t->assoc, i;

	if (t->cfg.repl == UARCH_REPL_LRU) {
		/* one pass: search from the MRU end, moving each entry passed
		 * down one place; pn goes to the front whether it hits (its
		 * old place is the last one rewritten) or misses (the LRU
		 * entry falls off the end) */
		uint64_t carry = pn;
		for (i = 0; i < a; i++) {
			uint64_t x = s[i];
			s[i] = carry;
			if (x == pn)
				return 1;
			carry = x;
		}
		return 0;
	}
	for (i = 0; i < a; i++)
		if (s[i] == pn)
			return 1;
	for (i = 0; i < a; i++)
		if (s[i] == PAGE_NONE)
			break;
	if (i == a) {
		if (t->cfg.repl == UARCH_REPL_RR) {
			i = t->rr[set];
			t->rr[set] = i + 1 == a ? 0 : i + 1;
		} else {
			/* xorshift64* (Vigna 2016), as in cache.c */
			t->rng ^= t->rng >> 12;
			t->rng ^= t->rng << 25;
			t->rng ^= t->rng >> 27;
			i = (uint32_t)(((t->rng * 0x2545f4914f6cdd1dull) >> 32) % a);
		}
	}
	s[i] = pn;
	return 0;
}
