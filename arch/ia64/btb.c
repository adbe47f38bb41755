/* btb.c — the Itanium 2 branch trace buffer (ia64.h): PMC12 selects the
 * branches, PMD8-15 hold the last eight entries as a ring and PMD16 its
 * index and full bit ([i2rm] 10.3; field layout [pfm] pmc12_ita2_reg,
 * pmd8_15_ita2_reg, pmd16_ita2_reg).
 *
 * A taken branch writes two entries, the branch (b = 1) and then its
 * target (b = 0); a branch not taken writes the branch alone with slot 3,
 * so the ring holds four branch/target pairs at most.  The mp bit of both
 * entries says the branch was mispredicted (direction or target).  The
 * guest's branches are IA-32 ones: slot is 0 for every taken branch, and
 * PMD16's per-entry extension bits (slot-1 branches of IA-64 bundles,
 * back-end flushes) stay 0. */
#include <string.h>

#include "ia64.h"

void ia64_btb_start(struct ia64_btb *b, uint32_t pmc12)
{
	memset(b, 0, sizeof(*b));
	b->pmc12 = pmc12;
}

/* A two-bit mask field: bit 1 selects the "right" case, bit 0 the "wrong"
 * (taken mask: bit 1 taken, bit 0 not taken). */
static int mask_ok(uint32_t pmc12, unsigned shift, int good)
{
	return (pmc12 >> shift >> (good ? 1 : 0) & 1) != 0;
}

int ia64_btb_wants(uint32_t pmc12, const struct ia64_branch *br)
{
	unsigned brt = pmc12 >> IA64_BTB_BRT_SHIFT & 3u;

	if (!(pmc12 >> (br->cpl & 3) & 1))
		return 0; /* plm */
	if (!mask_ok(pmc12, IA64_BTB_TM_SHIFT, br->taken))
		return 0;
	if (!mask_ok(pmc12, IA64_BTB_PTM_SHIFT, !br->mp_tgt))
		return 0;
	if (!mask_ok(pmc12, IA64_BTB_PPM_SHIFT, !br->mp_dir))
		return 0;
	return brt == 0 || brt == br->type;
}

static void put(struct ia64_btb *b, uint64_t addr, uint64_t bits)
{
	b->pmd[b->bbi] = (addr & ~0xfull) | bits;
	b->addr[b->bbi] = addr;
	b->bbi = (uint8_t)((b->bbi + 1) % IA64_BTB_NENT);
	if (!b->bbi)
		b->full = 1;
}

int ia64_btb_record(struct ia64_btb *b, const struct ia64_branch *br)
{
	uint64_t mp = br->mp_dir || br->mp_tgt ? IA64_BTB_MP : 0;

	if (!ia64_btb_wants(b->pmc12, br))
		return 0;
	if (!br->taken) {
		put(b, br->from,
		    IA64_BTB_B | mp | (uint64_t)IA64_BTB_SLOT_NT << IA64_BTB_SLOT_SHIFT);
		return 1;
	}
	put(b, br->from, IA64_BTB_B | mp);
	put(b, br->to, mp);
	return 1;
}

uint64_t ia64_btb_pmd16(const struct ia64_btb *b)
{
	return b->bbi | (b->full ? IA64_BTB_FULL : 0);
}

unsigned ia64_btb_read(const struct ia64_btb *b, struct arch_branch *out, unsigned max)
{
	unsigned n = b->full ? IA64_BTB_NENT : b->bbi, got = 0;
	unsigned k = 0; /* entries walked back from the newest */

	while (k < n && got < max) {
		unsigned i = (b->bbi + IA64_BTB_NENT - 1 - k) % IA64_BTB_NENT;
		uint64_t e = b->pmd[i];

		if (e & IA64_BTB_B) {
			/* a branch without its target after it: not taken */
			if ((e >> IA64_BTB_SLOT_SHIFT & 3u) == IA64_BTB_SLOT_NT)
				out[got++] = (struct arch_branch){ b->addr[i], 0,
								   (uint8_t) !!(e & IA64_BTB_MP) };
			k++;
			continue;
		}
		if (k + 1 >= n)
			break; /* the oldest entry is a target whose branch was overwritten */
		unsigned j = (i + IA64_BTB_NENT - 1) % IA64_BTB_NENT;
		if (b->pmd[j] & IA64_BTB_B)
			out[got++] = (struct arch_branch){ b->addr[j], b->addr[i],
							   (uint8_t) !!(b->pmd[j] & IA64_BTB_MP) };
		k += 2;
	}
	return got;
}
