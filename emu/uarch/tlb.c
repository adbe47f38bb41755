/* tlb.c — one TLB level: the cache structure of cache.c on page numbers.
 * Per set an array of page numbers, a round-robin pointer per set, a
 * seeded xorshift64* generator for pseudo-random replacement; round-robin
 * and random fill an invalid entry first.
 *
 * LRU keeps a last-use stamp per entry (0: never used, so invalid entries
 * go first) and replaces the least recent: the entries hold the most
 * recently used pages of their set, exactly as an MRU→LRU ordered list
 * would, but a hit writes one stamp instead of moving entries.  A small
 * direct-mapped memo from page number to entry finds most hits without a
 * search; it is only a hint, checked against the entry. */
#include <stdlib.h>
#include <string.h>

#include "tlb.h"
#include "mem.h"

#define PAGE_NONE UINT64_MAX /* no page number is all ones (page >= 2) */

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
	t->stamp = uarch_calloc(cfg->entries, sizeof(*t->stamp));
	t->rr = uarch_calloc(t->sets, sizeof(*t->rr));
	if (!t->pn || !t->stamp || !t->rr) {
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
	uarch_mfree(t->stamp);
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
	memset(t->stamp, 0, (size_t)t->cfg.entries * sizeof(*t->stamp));
	memset(t->memo, 0, sizeof(t->memo));
}

/* A page the memo did not find: search its set, fill it on a miss. */
int uarch_tlb_search(struct uarch_tlb *t, uint64_t pn, uint32_t *memo)
{
	uint32_t a = t->assoc, i;
	uint64_t set = t->sets == 1 ? 0 : t->set_mask ? (pn & t->set_mask) : pn % t->sets;
	uint64_t *s = t->pn + set * a;

	for (i = 0; i < a; i++)
		if (s[i] == pn)
			break;
	if (i < a) {
		uint32_t e = (uint32_t)(set * a) + i;
		if (t->cfg.repl == UARCH_REPL_LRU)
			t->stamp[e] = ++t->clock;
		*memo = e + 1;
		return 1;
	}
	if (t->cfg.repl == UARCH_REPL_LRU) {
		const uint64_t *st = t->stamp + set * a;

		i = 0;
		for (uint32_t k = 1; k < a; k++)
			if (st[k] < st[i])
				i = k;
		t->stamp[set * a + i] = ++t->clock;
	} else {
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
	}
	s[i] = pn;
	*memo = (uint32_t)(set * a) + i + 1;
	return 0;
}
