/* ear.c — the Itanium 2 event address registers' configuration
 * (ia64.h): PMC10's two layouts and its latency thresholds, and the
 * privilege and instruction-set qualification PMC10 and PMC11 share
 * ([i2rm] 10.3; layouts [pfm] pmc10_ita2_cache_reg / pmc10_ita2_tlb_reg,
 * pmc11_ita2_reg; threshold encodings [pfm] L1I_EAR_CACHE_*). */
#include "ia64.h"

int ia64_iear_mode(uint32_t pmc10)
{
	if (pmc10 & IA64_IEAR_CACHE)
		return IA64_EAR_CACHE_MODE; /* ct = 1x */
	return pmc10 & IA64_IEAR_CT_NONE ? IA64_EAR_OFF : IA64_EAR_TLB_MODE;
}

/* Cache mode umask (bits 12:5): 11 followed by a run of ones sets the
 * threshold; 01xxxxxx takes every miss, 00xxxxxx misses that hit the
 * RAB.  Other encodings are undefined. */
static const struct {
	uint8_t umask;
	uint16_t lat;
} thresholds[] = {
	{ 0xff, 4 },   { 0xfe, 8 },   { 0xfc, 16 },   { 0xf8, 32 },
	{ 0xf0, 128 }, { 0xe0, 256 }, { 0xc0, 1024 }, { 0x80, 4096 },
};

int ia64_iear_threshold(uint32_t pmc10)
{
	unsigned um = pmc10 >> IA64_IEAR_UMASK_SHIFT & 0xffu;

	if ((um & 0xc0u) == 0x40u)
		return 0;
	if ((um & 0xc0u) == 0)
		return -2;
	for (unsigned k = 0; k < sizeof(thresholds) / sizeof(thresholds[0]); k++)
		if (thresholds[k].umask == um)
			return thresholds[k].lat;
	return -1;
}

int ia64_ear_level_ok(unsigned plm, unsigned ism, unsigned cpl)
{
	if (!(plm >> (cpl & 3) & 1))
		return 0;
	/* ism: bit 0 set leaves out IA-64 code (the kernel, cpl 0), bit 1
	 * IA-32 code (the guest) */
	return !(ism & (cpl ? IA64_ISM_NO_IA32 : IA64_ISM_NO_IA64));
}

void ia64_ears_start(struct ia64_ears *x, uint32_t pmc10, uint32_t pmc11)
{
	*x = (struct ia64_ears){ 0 };
	x->pmc10 = pmc10;
	x->pmc11 = pmc11;
	x->iear_lat = ia64_iear_mode(pmc10) == IA64_EAR_CACHE_MODE ? ia64_iear_threshold(pmc10) :
								     -1;
	x->dear_lat = 4u << (pmc11 >> IA64_DEAR_UMASK_SHIFT & IA64_DEAR_UMASK_MASK);
}

static int iear_level(const struct ia64_ears *x, unsigned cpl)
{
	return ia64_ear_level_ok(x->pmc10 & IA64_IEAR_PLM_MASK,
				 x->pmc10 >> IA64_IEAR_ISM_SHIFT & 3u, cpl);
}

static int dear_level(const struct ia64_ears *x, unsigned cpl)
{
	return ia64_ear_level_ok(x->pmc11 & IA64_DEAR_PLM_MASK,
				 x->pmc11 >> IA64_DEAR_ISM_SHIFT & 3u, cpl);
}

/* PMD0 holds the 32-byte fetch block with the status in bits 1:0. */
static void iear_put(struct ia64_ears *x, uint64_t pc, unsigned stat, uint32_t pmd1)
{
	x->pmd0 = (pc & ~0x1full) | stat;
	x->pmd1 = pmd1;
	x->iaddr = pc;
}

int ia64_iear_fetch(struct ia64_ears *x, unsigned cpl, uint64_t pc, uint32_t lat)
{
	if (x->iear_lat < 0 || !iear_level(x, cpl) || lat < (uint32_t)x->iear_lat || !lat)
		return 0;
	iear_put(x, pc, 1, lat > IA64_IEAR_LAT_MAX ? IA64_IEAR_LAT_MAX | IA64_IEAR_LAT_OV : lat);
	return 1;
}

int ia64_iear_tlb(struct ia64_ears *x, unsigned cpl, uint64_t pc, int walked)
{
	unsigned stat = walked ? IA64_IEAR_TLB_VHPT : IA64_IEAR_TLB_L2;
	unsigned um = x->pmc10 >> IA64_IEAR_UMASK_SHIFT & 0x7fu;

	if (ia64_iear_mode(x->pmc10) != IA64_EAR_TLB_MODE || !iear_level(x, cpl) || !(um & stat))
		return 0;
	iear_put(x, pc, stat, 0);
	return 1;
}

int ia64_dear_load(struct ia64_ears *x, unsigned cpl, uint64_t pc, uint64_t daddr, uint32_t lat)
{
	if ((x->pmc11 >> IA64_DEAR_MODE_SHIFT & IA64_DEAR_MODE_MASK) != IA64_DEAR_CACHE ||
	    !dear_level(x, cpl) || lat < x->dear_lat)
		return 0;
	x->dear_iaddr = pc;
	x->dear_daddr = daddr;
	x->dear_latency = lat;
	x->dear_stat = 1;
	return 1;
}

int ia64_dear_tlb(struct ia64_ears *x, unsigned cpl, uint64_t pc, uint64_t daddr, int walked)
{
	unsigned stat = walked ? IA64_DEAR_TLB_VHPT : IA64_DEAR_TLB_L2;
	unsigned um = x->pmc11 >> IA64_DEAR_UMASK_SHIFT & IA64_DEAR_UMASK_MASK;

	if ((x->pmc11 >> IA64_DEAR_MODE_SHIFT & IA64_DEAR_MODE_MASK) != IA64_DEAR_TLB ||
	    !dear_level(x, cpl) || !(um & stat))
		return 0;
	x->dear_iaddr = pc;
	x->dear_daddr = daddr;
	x->dear_latency = 0;
	x->dear_stat = (uint8_t)(stat >> 1); /* PMD3.stat: 1 L2 DTLB, 2 VHPT, 3 fault */
	return 1;
}
