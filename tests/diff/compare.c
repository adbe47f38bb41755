/* compare.c — what must match between the host's and the emulator's run,
 * and the report of a mismatch.
 *
 * Flags: only those the SDM defines for the form and its inputs (shift and
 * rotate counts decide which).  x87: TOP, tags, the valid registers bit for
 * bit, FCW, and FSW without the condition codes the form leaves undefined.
 * MXCSR and all XMM registers bit for bit, except for rcp/rsqrt whose
 * results the SDM bounds rather than defines.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"

static const char *const gpr_name[16] = {
	"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
	"r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15",
};

uint32_t diff_flag_mask(const struct diff_form *f, const struct diff_state *in)
{
	unsigned c = f->cls & 0xff, size = (f->cls >> 8) & 0xff, arg = f->cls >> 16;
	unsigned count = arg == 0xff ? (unsigned)(in->r[X86_RCX] & 0xff) : arg;
	unsigned n = count & (size == 8 ? 63 : 31);
	uint32_t m;

	/* SDM SAL/SAR/SHL/SHR, RCL/RCR/ROL/ROR, SHLD, SHRD "Flags Affected":
	 * a masked count of 0 affects no flag; OF only for a count of 1; AF
	 * undefined for shifts; CF undefined for SHL/SHR counts >= the width. */
	switch (c) {
	case C_SHL:
	case C_SHR:
	case C_SAR:
	case C_SHD:
		if (!n)
			return FL_ALL;
		m = FL_ALL & ~FL_AF;
		if (n != 1)
			m &= ~FL_OF;
		if ((c == C_SHL || c == C_SHR) && n >= size * 8)
			m &= ~FL_CF;
		return m;
	case C_ROT:
	case C_RCX:
		if (!n)
			return FL_ALL;
		return n == 1 ? FL_ALL : FL_ALL & ~FL_OF;
	default:
		return f->flags;
	}
}

static uint16_t get16(const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return v;
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static unsigned long long get64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static void hex(const uint8_t *p, size_t n)
{
	for (size_t i = n; i-- > 0;)
		printf("%02x", p[i]);
}

static void show_inputs(const struct diff_state *in)
{
	printf("    in:");
	for (unsigned i = 0; i < 16; i++)
		printf("%s %s=%016llx", i && !(i % 4) ? "\n       " : "", gpr_name[i],
		       (unsigned long long)in->r[i]);
	printf("\n        rflags=%#llx mxcsr=%#x fcw=%#x fsw=%#x ftw=%#x\n",
	       (unsigned long long)in->rflags, get32(in->fx + FX_MXCSR), get16(in->fx + FX_FCW),
	       get16(in->fx + FX_FSW), in->fx[FX_FTW]);
	for (unsigned i = 0; i < 3; i++) {
		printf("        xmm%u=", i);
		hex(in->fx + FX_XMM + 16 * i, 16);
		printf("  st%u=", i);
		hex(in->fx + FX_ST + 16 * i, 10);
		printf("\n");
	}
}

/* rcp/rsqrt: both sides are within 1.5*2^-12 of the true value (SDM
 * RCPPS), so within 3*2^-12 of each other; specials must be identical. */
static int approx_equal(uint32_t a, uint32_t b)
{
	float x, y;
	if (a == b)
		return 1;
	memcpy(&x, &a, 4);
	memcpy(&y, &b, 4);
	if (!isfinite(x) || !isfinite(y) || x == 0 || y == 0)
		return 0;
	return fabsf(x - y) <= 3.0f / 4096 * fabsf(x);
}

static int xmm_equal(const struct diff_form *f, const uint8_t *a, const uint8_t *b)
{
	if (!(f->opts & O_APPROX))
		return memcmp(a, b, 16) == 0;
	unsigned lanes = f->opts & O_PS ? 4 : 1;
	for (unsigned l = 0; l < 4; l++) {
		uint32_t x = get32(a + 4 * l), y = get32(b + 4 * l);
		if (l < lanes ? !approx_equal(x, y) : x != y)
			return 0;
	}
	return 1;
}

/* Bytes of the memory image the form leaves to the implementation. */
static int mem_ignored(const struct diff_form *f, size_t off)
{
	size_t m = off - (DIFF_MEM - DIFF_BUF);
	unsigned c = f->cls & 0xff;

	if (off < DIFF_MEM - DIFF_BUF)
		return 0;
	/* fxsave: FOP, FIP, FDP are only meaningful after an x87 exception
	 * (AMD saves them only then); MXCSR_MASK describes the processor, like
	 * CPUID (the emulated one has its own); bytes 464-511 are left to
	 * software (SDM vol. 1, table 10-2) */
	if (c == C_FXSAVE)
		return (m >= 6 && m < 24) || (m >= 28 && m < 32) || (m >= 464 && m < 512);
	/* fnstenv: FIP, FCS, FOP, FDP, FDS (SDM vol. 1, figure 8-9) */
	if (c == C_FSTENV)
		return m >= 12 && m < 28;
	return 0;
}

#define MISMATCH(...)                            \
	do {                                     \
		n++;                             \
		if (print) {                     \
			if (n == 1)              \
				show_inputs(in); \
			printf(__VA_ARGS__);     \
		}                                \
	} while (0)

static int compare_fp(const struct diff_form *f, const struct diff_state *in,
		      const struct diff_state *h, const struct diff_state *e, int n, int print)
{
	uint16_t fswm = 0xffff, hfsw = get16(h->fx + FX_FSW), efsw = get16(e->fx + FX_FSW);
	unsigned top = (hfsw >> 11) & 7;

	if (f->opts & O_FU)
		fswm &= (uint16_t) ~(f->opts & O_C2 ? 0x4100 : 0x4500); /* C0 (C2) C3 */
	if (f->opts & O_C1U)
		fswm &= (uint16_t)~0x0200;
	if ((hfsw ^ efsw) & fswm)
		MISMATCH("    fsw: host %#06x emu %#06x (compared bits %#06x)\n", hfsw, efsw, fswm);
	if (get16(h->fx + FX_FCW) != get16(e->fx + FX_FCW))
		MISMATCH("    fcw: host %#06x emu %#06x\n", get16(h->fx + FX_FCW),
			 get16(e->fx + FX_FCW));
	if (h->fx[FX_FTW] != e->fx[FX_FTW])
		MISMATCH("    ftw: host %#04x emu %#04x\n", h->fx[FX_FTW], e->fx[FX_FTW]);
	if (top == ((efsw >> 11) & 7)) {
		for (unsigned i = 0; i < 8; i++) {
			const uint8_t *a = h->fx + FX_ST + 16 * i, *b = e->fx + FX_ST + 16 * i;
			if (!(h->fx[FX_FTW] & (1u << ((top + i) & 7))) || !memcmp(a, b, 10))
				continue;
			if (print) {
				long double x = 0, y = 0;
				memcpy(&x, a, 10);
				memcpy(&y, b, 10);
				MISMATCH("    st%u: host %04x%016llx (%Lg) emu %04x%016llx (%Lg)\n",
					 i, get16(a + 8), get64(a), x, get16(b + 8), get64(b), y);
			} else {
				n++;
			}
		}
	}
	if (get32(h->fx + FX_MXCSR) != get32(e->fx + FX_MXCSR))
		MISMATCH("    mxcsr: host %#x emu %#x\n", get32(h->fx + FX_MXCSR),
			 get32(e->fx + FX_MXCSR));
	for (unsigned i = 0; i < 16; i++) {
		const uint8_t *a = h->fx + FX_XMM + 16 * i, *b = e->fx + FX_XMM + 16 * i;
		if (xmm_equal(f, a, b))
			continue;
		if (print) {
			MISMATCH("    xmm%u: host ", i);
			hex(a, 16);
			printf(" emu ");
			hex(b, 16);
			printf(" (in ");
			hex(in->fx + FX_XMM + 16 * i, 16);
			printf(")\n");
		} else {
			n++;
		}
	}
	return n;
}

int diff_compare(const struct diff_form *f, const struct diff_state *in, const uint8_t *mem,
		 const struct diff_out *host, const struct diff_out *emu, int print)
{
	const struct diff_state *h = &host->s, *e = &emu->s;
	uint64_t fm = diff_flag_mask(f, in) | X86_DF;
	int n = 0;

	if (emu->lost) {
		MISMATCH("    emulator: %s\n", emu->why);
		return n;
	}
	if (host->fault || emu->fault) {
		if (host->fault != emu->fault || host->code != emu->code)
			MISMATCH(
				"    fault: host signal %d code %d at %#llx, emu signal %d code %d\n",
				host->fault, host->code, (unsigned long long)host->pc, emu->fault,
				emu->code);
	} else {
		for (unsigned i = 0; i < 16; i++)
			if (h->r[i] != e->r[i])
				MISMATCH("    %s: host %016llx emu %016llx\n", gpr_name[i],
					 (unsigned long long)h->r[i], (unsigned long long)e->r[i]);
		if ((h->rflags ^ e->rflags) & fm)
			MISMATCH("    rflags: host %#llx emu %#llx (compared bits %#llx)\n",
				 (unsigned long long)(h->rflags & fm),
				 (unsigned long long)(e->rflags & fm), (unsigned long long)fm);
		if (h->exit != e->exit)
			MISMATCH("    rip: host %s emu %s\n", h->exit ? "branched" : "fell through",
				 e->exit ? "branched" : "fell through");
		n = compare_fp(f, in, h, e, n, print);
	}
	for (size_t k = 0; k < DIFF_BUFSZ; k++) {
		if (host->mem[k] == emu->mem[k] || mem_ignored(f, k))
			continue;
		if (print) {
			size_t a = k & ~(size_t)7;
			MISMATCH("    mem %#llx: host ", (unsigned long long)(DIFF_BUF + a));
			hex(host->mem + a, 8);
			printf(" emu ");
			hex(emu->mem + a, 8);
			printf(" (in ");
			hex(mem + a, 8);
			printf(")\n");
			k = a + 7;
		} else {
			n++;
			break;
		}
	}
	return n;
}
