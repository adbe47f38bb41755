/* bsq.c — BSQ_ALLOCATION's and BSQ_ACTIVE_ENTRIES' event mask: not a set
 * of bits each counting its own signals but one encoded request kind.
 *
 * IA-32 SDM vol. 3B, appendix A, BSQ_allocation: the mask has four
 * sub-groups, and software specifies an encoding for each: the request
 * type (bits 0-1: 0 read, 1 read invalidate, 2 write, 3 write-back), its
 * length (bits 2-3: 0, 1 or 8 chunks as 0, 1, 3), the memory type (bits
 * 11-13: 0 UC, 1 WC, 4 WT, 5 WP, 6 WB) and the independent bits 5-10 (I/O,
 * lock, cacheable, split, demand — clear: a prefetch — and ordered).  A
 * request counts when it has every field as encoded.  An entry "for a data
 * chunk is any request less than 64 bytes" (note 5).
 *
 * The model's own bus requests (the I/O agents' are not this processor's
 * to queue) are of six kinds, all to write-back memory and cacheable: four
 * on demand, and the reads and reads for ownership of the hardware
 * prefetcher and of the adjacent-line fetch;
 * a mask that encodes any other kind asks for something the model does
 * not make, and is refused with the reason rather than counted as 0.
 */
#include "p4.h"

/* The mask's fields. */
#define BSQ_TYPE(m) ((m)&3u)
#define BSQ_LEN(m) ((m) >> 2 & 3u)
#define BSQ_MEM(m) ((m) >> 11 & 7u)
#define BSQ_IO (1u << 5)
#define BSQ_LOCK (1u << 6)
#define BSQ_CACHE (1u << 7)
#define BSQ_SPLIT (1u << 8)
#define BSQ_DEMAND (1u << 9)
#define BSQ_ORDERED (1u << 10)

enum { BSQ_CHUNK = 1, BSQ_LINE = 3 }; /* request lengths: 1 chunk, 8 chunks */
enum { BSQ_MEM_WB = 6 };

#define BSQ_ENC(type, len) ((type) | (len) << 2 | BSQ_CACHE | BSQ_DEMAND | BSQ_MEM_WB << 11)

static const struct {
	uint16_t mask;	 /* its encoding */
	uint16_t alloc;	 /* the signal of its allocations */
	uint16_t active; /* the signal of its entries active, each cycle */
} kinds[] = {
	/* a sector read on a load's or an instruction fetch's miss */
	{ BSQ_ENC(0, BSQ_LINE), UARCH_EV_BUS_BRL, UARCH_EV_MEM_BRL_LAT },
	/* a read for ownership on a store's miss */
	{ BSQ_ENC(1, BSQ_LINE), UARCH_EV_BUS_BRIL, UARCH_EV_MEM_BRIL_LAT },
	/* a modified line evicted */
	{ BSQ_ENC(3, BSQ_LINE), UARCH_EV_BUS_BWL, UARCH_EV_MEM_BWL_LAT },
	/* a store's bytes written through with no level below the first */
	{ BSQ_ENC(2, BSQ_CHUNK), UARCH_EV_BUS_BWP, UARCH_EV_MEM_BWP_LAT },
	/* the sector reads of the prefetcher and the adjacent-line fetch,
	 * for ownership on a store's miss */
	{ BSQ_ENC(0, BSQ_LINE) & ~BSQ_DEMAND, UARCH_EV_PF_BRL, UARCH_EV_MEM_PF_BRL_LAT },
	{ BSQ_ENC(1, BSQ_LINE) & ~BSQ_DEMAND, UARCH_EV_PF_BRIL, UARCH_EV_MEM_PF_BRIL_LAT },
};

int p4_bsq_signal(uint32_t mask, int active, unsigned *sig, const char **why)
{
	unsigned mem = BSQ_MEM(mask);

	*sig = UARCH_NEV;
	if (BSQ_LEN(mask) == 2) {
		*why = "request length 2 is not an encoding (0, 1 or 8 chunks are 0, 1 and 3)";
		return -1;
	}
	if (mem == 2 || mem == 3 || mem == 7) {
		*why = "memory types 2, 3 and 7 are not encodings (UC 0, WC 1, WT 4, WP 5, WB 6)";
		return -1;
	}
	for (unsigned k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		if (kinds[k].mask != mask)
			continue;
		*sig = active ? kinds[k].active : kinds[k].alloc;
		return 0;
	}
	if (mem != BSQ_MEM_WB)
		*why = "memory types other than write-back are not modelled";
	else if (!(mask & BSQ_DEMAND) && (BSQ_TYPE(mask) > 1 || BSQ_LEN(mask) != BSQ_LINE))
		*why = "the model's prefetches are reads and reads for ownership of 8 chunks";
	else if (mask & BSQ_IO)
		*why = "the model makes no input/output requests of its own";
	else if (mask & BSQ_LOCK)
		*why = "bus locks are not modelled";
	else if (mask & BSQ_SPLIT)
		*why = "the model makes no split chunk requests";
	else if (mask & BSQ_ORDERED)
		*why = "the model makes no ordered requests";
	else if (!(mask & BSQ_CACHE))
		*why = "write-back memory is cacheable: the model makes no uncacheable requests";
	else
		*why = "the model's requests to write-back memory are reads and reads for "
		       "ownership of 8 chunks (on demand or prefetched), write-backs of 8 and "
		       "partial writes of 1";
	return 1;
}
