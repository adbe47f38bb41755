/* escr.c — the NetBurst ESCRs and counter/CCCR pairs, and which ESCR each
 * counter reads for each value of its CCCR's ESCR-select field.
 *
 * Sources: IA-32 SDM vol. 3B, "Performance monitoring (processors based on
 * Intel NetBurst microarchitecture)": the table of performance counter
 * MSRs and associated CCCR and ESCR MSRs (MSR addresses, ESCR select
 * values, which counters an ESCR feeds), "Cascading Counters"; the MSR
 * addresses agree with Linux's arch/x86/include/asm/msr-index.h.  Linux
 * also names an SSU_ESCR1 at 0x3bf, marked there as a guess not in the
 * manual; the SDM has 45 ESCRs and no SSU_ESCR1, and so has this table.
 *
 * Wiring (SDM): in the BPU, MS and FLAME blocks ESCRx0 feeds the block's
 * first counter pair (0,1 / 4,5 / 8,9) and ESCRx1 the second (2,3 / 6,7 /
 * 10,11); in the IQ block an ESCR0 (even) feeds counters 12, 13 and 16, an
 * ESCR1 (odd) 14, 15 and 17.
 */
#include <strings.h>

#include "p4.h"

#define BPU0             \
	{                \
		0, 1, -1 \
	}
#define BPU1             \
	{                \
		2, 3, -1 \
	}
#define MS0              \
	{                \
		4, 5, -1 \
	}
#define MS1              \
	{                \
		6, 7, -1 \
	}
#define FL0              \
	{                \
		8, 9, -1 \
	}
#define FL1                \
	{                  \
		10, 11, -1 \
	}
#define IQ0                \
	{                  \
		12, 13, 16 \
	}
#define IQ1                \
	{                  \
		14, 15, 17 \
	}

/* In MSR order.  sel: the CCCR ESCR-select value that picks the ESCR
 * within its block (SDM table of counter/CCCR/ESCR MSRs). */
const struct p4_escr_desc p4_escr[P4_NESCR] = {
	{ "BSU_ESCR0", 0x3a0, P4_BPU, 7, BPU0 },
	{ "BSU_ESCR1", 0x3a1, P4_BPU, 7, BPU1 },
	{ "FSB_ESCR0", 0x3a2, P4_BPU, 6, BPU0 },
	{ "FSB_ESCR1", 0x3a3, P4_BPU, 6, BPU1 },
	{ "FIRM_ESCR0", 0x3a4, P4_FLAME, 1, FL0 },
	{ "FIRM_ESCR1", 0x3a5, P4_FLAME, 1, FL1 },
	{ "FLAME_ESCR0", 0x3a6, P4_FLAME, 0, FL0 },
	{ "FLAME_ESCR1", 0x3a7, P4_FLAME, 0, FL1 },
	{ "DAC_ESCR0", 0x3a8, P4_FLAME, 5, FL0 },
	{ "DAC_ESCR1", 0x3a9, P4_FLAME, 5, FL1 },
	{ "MOB_ESCR0", 0x3aa, P4_BPU, 2, BPU0 },
	{ "MOB_ESCR1", 0x3ab, P4_BPU, 2, BPU1 },
	{ "PMH_ESCR0", 0x3ac, P4_BPU, 4, BPU0 },
	{ "PMH_ESCR1", 0x3ad, P4_BPU, 4, BPU1 },
	{ "SAAT_ESCR0", 0x3ae, P4_FLAME, 2, FL0 },
	{ "SAAT_ESCR1", 0x3af, P4_FLAME, 2, FL1 },
	{ "U2L_ESCR0", 0x3b0, P4_FLAME, 3, FL0 },
	{ "U2L_ESCR1", 0x3b1, P4_FLAME, 3, FL1 },
	{ "BPU_ESCR0", 0x3b2, P4_BPU, 0, BPU0 },
	{ "BPU_ESCR1", 0x3b3, P4_BPU, 0, BPU1 },
	{ "IS_ESCR0", 0x3b4, P4_BPU, 1, BPU0 },
	{ "IS_ESCR1", 0x3b5, P4_BPU, 1, BPU1 },
	{ "ITLB_ESCR0", 0x3b6, P4_BPU, 3, BPU0 },
	{ "ITLB_ESCR1", 0x3b7, P4_BPU, 3, BPU1 },
	{ "CRU_ESCR0", 0x3b8, P4_IQ, 4, IQ0 },
	{ "CRU_ESCR1", 0x3b9, P4_IQ, 4, IQ1 },
	/* IQ_ESCR0/1: only on family 0FH models 01H-02H (SDM); kept so the
	 * register file is complete, though no event here needs them */
	{ "IQ_ESCR0", 0x3ba, P4_IQ, 0, IQ0 },
	{ "IQ_ESCR1", 0x3bb, P4_IQ, 0, IQ1 },
	{ "RAT_ESCR0", 0x3bc, P4_IQ, 2, IQ0 },
	{ "RAT_ESCR1", 0x3bd, P4_IQ, 2, IQ1 },
	{ "SSU_ESCR0", 0x3be, P4_IQ, 3, IQ0 },
	{ "MS_ESCR0", 0x3c0, P4_MS, 0, MS0 },
	{ "MS_ESCR1", 0x3c1, P4_MS, 0, MS1 },
	{ "TBPU_ESCR0", 0x3c2, P4_MS, 2, MS0 },
	{ "TBPU_ESCR1", 0x3c3, P4_MS, 2, MS1 },
	{ "TC_ESCR0", 0x3c4, P4_MS, 1, MS0 },
	{ "TC_ESCR1", 0x3c5, P4_MS, 1, MS1 },
	{ "IX_ESCR0", 0x3c8, P4_BPU, 5, BPU0 },
	{ "IX_ESCR1", 0x3c9, P4_BPU, 5, BPU1 },
	{ "ALF_ESCR0", 0x3ca, P4_IQ, 1, IQ0 },
	{ "ALF_ESCR1", 0x3cb, P4_IQ, 1, IQ1 },
	{ "CRU_ESCR2", 0x3cc, P4_IQ, 5, IQ0 },
	{ "CRU_ESCR3", 0x3cd, P4_IQ, 5, IQ1 },
	{ "CRU_ESCR4", 0x3e0, P4_IQ, 6, IQ0 },
	{ "CRU_ESCR5", 0x3e1, P4_IQ, 6, IQ1 },
};

/* Counters 0x300 + n, CCCRs 0x360 + n (SDM).  Cascading (SDM "Cascading
 * Counters"): within a block counters 0 and 2 cascade in either order, as
 * do 1 and 3.  In the IQ block 16 can be cascaded only from 14 and 17 only
 * from 15, and neither 16 nor 17 can start a cascade with the CCCR's
 * cascade bit, so 14 is cascaded from 12 and 15 from 13 only. */
#define CTR(name, n, g, from)                           \
	{                                               \
		name, 0x300 + (n), 0x360 + (n), g, from \
	}
const struct p4_ctr_desc p4_ctr[P4_NCTR] = {
	CTR("BPU_COUNTER0", 0, P4_BPU, 2),	CTR("BPU_COUNTER1", 1, P4_BPU, 3),
	CTR("BPU_COUNTER2", 2, P4_BPU, 0),	CTR("BPU_COUNTER3", 3, P4_BPU, 1),
	CTR("MS_COUNTER0", 4, P4_MS, 6),	CTR("MS_COUNTER1", 5, P4_MS, 7),
	CTR("MS_COUNTER2", 6, P4_MS, 4),	CTR("MS_COUNTER3", 7, P4_MS, 5),
	CTR("FLAME_COUNTER0", 8, P4_FLAME, 10), CTR("FLAME_COUNTER1", 9, P4_FLAME, 11),
	CTR("FLAME_COUNTER2", 10, P4_FLAME, 8), CTR("FLAME_COUNTER3", 11, P4_FLAME, 9),
	CTR("IQ_COUNTER0", 12, P4_IQ, 14),	CTR("IQ_COUNTER1", 13, P4_IQ, 15),
	CTR("IQ_COUNTER2", 14, P4_IQ, 12),	CTR("IQ_COUNTER3", 15, P4_IQ, 13),
	CTR("IQ_COUNTER4", 16, P4_IQ, 14),	CTR("IQ_COUNTER5", 17, P4_IQ, 15),
};

int p4_escr_find(const char *name)
{
	if (!name)
		return -1;
	for (int k = 0; k < P4_NESCR; k++)
		if (!strcasecmp(p4_escr[k].name, name))
			return k;
	return -1;
}

int p4_escr_for(int ctr, unsigned sel)
{
	if (ctr < 0 || ctr >= P4_NCTR)
		return -1;
	for (int k = 0; k < P4_NESCR; k++) {
		const struct p4_escr_desc *e = &p4_escr[k];
		if (e->sel != sel || e->group != p4_ctr[ctr].group)
			continue;
		for (int j = 0; j < 3; j++)
			if (e->ctr[j] == ctr)
				return k;
	}
	return -1;
}
