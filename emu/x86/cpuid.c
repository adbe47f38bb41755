/* cpuid.c — what CPUID answers on the emulated processor: a 90 nm Xeon
 * with Hyper-Threading and Intel 64 ("Irwindale": family 15, model 4,
 * stepping 3, 2 MB L2), the Pentium 4 that ran x86-64.
 *
 * The values are those such a processor reported (leaf 1 EDX BFEBFBFFh,
 * leaf 2 605B5001h/007D7040h, the deterministic cache leaf 4, brand string
 * right-justified in 48 bytes as NetBurst parts did), except where the
 * emulator deliberately differs:
 *  - leaf 1 ECX drops CX16 (bit 13): CMPXCHG16B is not emulated;
 *  - the initial APIC ID is 0 on every thread.
 * Nothing depends on the host: the feature set is x86-64 v1 + SSE3 with no
 * SSSE3, SSE4, POPCNT, XSAVE/OSXSAVE or AVX, so libraries choose code paths
 * the emulator implements.
 *
 * Leaves above the highest basic (5) or extended (80000008h) leaf return
 * what leaf 5 returns, as Intel processors do (SDM vol. 2, CPUID: "If a
 * value entered for CPUID.EAX is higher than the maximum input value ...,
 * the data for the highest basic information leaf is returned").
 */
#include <string.h>

#include "x86.h"

#define MAX_BASIC 5u
#define MAX_EXT 0x80000008u

const struct x86_model x86_model_p4_xeon = {
	.vendor = "GenuineIntel",
	.brand = "                  Intel(R) Xeon(TM) CPU 3.60GHz",
	.signature = 0x00000f43, /* family 15, model 4, stepping 3 */
	.logical = 2,
};

/* Leaf 1 (SDM vol. 2, CPUID, tables "Feature Information"). */
#define EDX1 \
	0xbfebfbffu	 /* FPU VME DE PSE TSC MSR PAE MCE CX8 APIC SEP MTRR PGE MCA CMOV PAT
			    PSE36 CLFSH DS ACPI MMX FXSR SSE SSE2 SS HTT TM PBE */
#define ECX1 0x00004599u /* SSE3 MONITOR DS-CPL EST TM2 CNXT-ID xTPR (CX16 removed) */
#define HTT (1u << 28)

/* Leaf 80000001h EDX: SYSCALL (11), XD (20), Intel 64 (29).  ECX is 0:
 * these cores had no LAHF/SAHF in 64-bit mode. */
#define EDX_EXT1 0x20100800u

static uint32_t str4(const char *s, size_t len, size_t at)
{
	uint32_t v = 0;
	for (size_t k = 0; k < 4; k++)
		if (at + k < len)
			v |= (uint32_t)(uint8_t)s[at + k] << (8 * k);
	return v;
}

static void leaf5(uint32_t out[4])
{
	/* MONITOR/MWAIT smallest and largest monitor line: 64 bytes */
	out[0] = 64;
	out[1] = 64;
	out[2] = 0;
	out[3] = 0;
}

void x86_cpuid(const struct x86_model *m, uint32_t leaf, uint32_t sub, uint32_t out[4])
{
	size_t vlen = strlen(m->vendor), blen = strlen(m->brand);
	uint32_t share = m->logical ? m->logical - 1 : 0;

	out[0] = out[1] = out[2] = out[3] = 0;
	switch (leaf) {
	case 0:
		out[0] = MAX_BASIC;
		out[1] = str4(m->vendor, vlen, 0);
		out[3] = str4(m->vendor, vlen, 4);
		out[2] = str4(m->vendor, vlen, 8);
		return;
	case 1:
		out[0] = m->signature;
		/* APIC ID 0, logical processors per package, CLFLUSH line
		 * size in 8-byte units, brand index 0 (brand string instead) */
		out[1] = (m->logical & 0xff) << 16 | 8u << 8;
		out[2] = ECX1;
		out[3] = m->logical > 1 ? EDX1 : EDX1 & ~HTT;
		return;
	case 2:
		/* one iteration; ITLB 64 (50h), DTLB 64 (5Bh), L1D 16 KB 8-way
		 * 64 B (60h), no L3 (40h), trace cache 12K uops 8-way (70h),
		 * L2 2 MB 8-way 64 B sectored (7Dh) */
		out[0] = 0x605b5001;
		out[3] = 0x007d7040;
		return;
	case 3:
		return; /* no processor serial number */
	case 4:
		/* EAX: type, level, self-initialising, threads sharing - 1;
		 * EBX: ways-1 <<22, partitions-1 <<12, line-1; ECX: sets-1 */
		if (sub == 0) { /* L1 data: 8 x 1 x 64 x 32 = 16 KB */
			out[0] = 0x121 | share << 14;
			out[1] = 7u << 22 | 0u << 12 | 63;
			out[2] = 31;
		} else if (sub == 1) { /* L2 unified: 8 x 2 x 64 x 2048 = 2 MB */
			out[0] = 0x143 | share << 14;
			out[1] = 7u << 22 | 1u << 12 | 63;
			out[2] = 2047;
		}
		return; /* sub >= 2: type 0, no more caches */
	case 5:
		leaf5(out);
		return;
	case 0x80000000:
		out[0] = MAX_EXT;
		return;
	case 0x80000001:
		out[3] = EDX_EXT1;
		return;
	case 0x80000002:
	case 0x80000003:
	case 0x80000004:
		for (size_t k = 0; k < 4; k++)
			out[k] = str4(m->brand, blen, (leaf - 0x80000002) * 16 + k * 4);
		return;
	case 0x80000005:
	case 0x80000007:
		return;
	case 0x80000006:
		out[2] = 2048u << 16 | 6u << 12 | 64; /* L2 KB, 8-way code, line */
		return;
	case 0x80000008:
		out[0] = 48u << 8 | 36; /* linear 48, physical 36 bits */
		return;
	default:
		leaf5(out); /* out of range, basic or extended */
		return;
	}
}
