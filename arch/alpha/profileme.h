/* profileme.h — the 21264 ProfileMe record of one profiled instruction, as
 * samples carry it (struct arch_sample.raw) and the sample file stores it
 * (SFILE_S_PROFILEME bytes; layout in vpmu-data(5)).  Readers (vpmu
 * report --profileme) decode it with alpha_pm_decode. */
#ifndef VPMU_ARCH_ALPHA_PROFILEME_H
#define VPMU_ARCH_ALPHA_PROFILEME_H

#include <stddef.h>
#include <stdint.h>

#define ALPHA_PM_VERSION 1
/* The second of a pair is 1..ALPHA_PM_PAIR_SPAN fetched instructions after
 * the first: over three times the 21264's 80-instruction in-flight window,
 * so that the concurrency estimate does not saturate when the window is
 * full (a vpmu choice; the hardware's pair distance is programmable). */
#define ALPHA_PM_PAIR_SPAN 256
#define ALPHA_PM_BYTES 112

/* flags: the model's UARCH_I_* (emu/uarch/model.h) in bits 0-15, and: */
#define ALPHA_PMF_ABORTED 0x1	       /* UARCH_I_ABORTED: killed on a mispredicted path */
#define ALPHA_PMF_STALLED (1u << 16)   /* PM_STALLED: waited between fetch and map */
#define ALPHA_PMF_KILLED_BM (1u << 17) /* PM_KILLED_BM: killed by the cycle it mapped */
#define ALPHA_PMF_IDEAL (1u << 18)     /* the counters are ideal, not the hardware's */
#define ALPHA_PMF_PARTNER (1u << 19)   /* the second instruction of a pair */

struct alpha_pm_rec {
	uint64_t pc;
	uint64_t seq;  /* sample number in its process */
	uint64_t pair; /* the second of a pair: seq of the first; else 0 */
	uint64_t inum; /* allocation number: batches of four, in fetch order */
	/* cycles: fetched, mapped, issued, ready to retire, retired (or
	 * killed); a stage never reached is 0 */
	uint64_t fetch, map, issue, complete, retire;
	uint32_t flags;
	/* the window's counter inputs ([hrm] 6.10.3.3): cycles, inum retire
	 * delay, retired instructions, Bcache misses, Mbox replay traps */
	uint32_t cycles, inum_delay, retired, bcache, mbox;
	uint32_t pctr0, pctr1; /* what the SL1 select puts in PCTR0/PCTR1 */
	uint16_t sl1;	       /* the select */
	uint16_t dist;	       /* the second of a pair: instructions after the first */
};

static inline void alpha_pm_put(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static inline uint64_t alpha_pm_get(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Little-endian: u32 version, u32 flags, 9 u64 (pc … retire), 7 u32
 * (cycles … pctr1), u16 sl1, u16 dist, 4 bytes zero. */
static inline void alpha_pm_encode(const struct alpha_pm_rec *r, uint8_t out[ALPHA_PM_BYTES])
{
	const uint64_t q[9] = { r->pc,	r->seq,	  r->pair,     r->inum,	 r->fetch,
				r->map, r->issue, r->complete, r->retire };
	const uint32_t w[7] = { r->cycles, r->inum_delay, r->retired, r->bcache,
				r->mbox,   r->pctr0,	  r->pctr1 };

	alpha_pm_put(out, ALPHA_PM_VERSION, 4);
	alpha_pm_put(out + 4, r->flags, 4);
	for (int i = 0; i < 9; i++)
		alpha_pm_put(out + 8 + 8 * i, q[i], 8);
	for (int i = 0; i < 7; i++)
		alpha_pm_put(out + 80 + 4 * i, w[i], 4);
	alpha_pm_put(out + 108, r->sl1, 2);
	alpha_pm_put(out + 110, r->dist, 2);
}

/* 0, or -1 when p is not a record this version reads. */
static inline int alpha_pm_decode(const uint8_t *p, size_t len, struct alpha_pm_rec *r)
{
	uint64_t *q[9] = { &r->pc,  &r->seq,   &r->pair,     &r->inum,	&r->fetch,
			   &r->map, &r->issue, &r->complete, &r->retire };
	uint32_t *w[7] = { &r->cycles, &r->inum_delay, &r->retired, &r->bcache,
			   &r->mbox,   &r->pctr0,      &r->pctr1 };

	if (len < ALPHA_PM_BYTES || alpha_pm_get(p, 4) != ALPHA_PM_VERSION)
		return -1;
	r->flags = (uint32_t)alpha_pm_get(p + 4, 4);
	for (int i = 0; i < 9; i++)
		*q[i] = alpha_pm_get(p + 8 + 8 * i, 8);
	for (int i = 0; i < 7; i++)
		*w[i] = (uint32_t)alpha_pm_get(p + 80 + 4 * i, 4);
	r->sl1 = (uint16_t)alpha_pm_get(p + 108, 2);
	r->dist = (uint16_t)alpha_pm_get(p + 110, 2);
	return 0;
}

#endif
