/* x87_env.c — saving and restoring the x87 environment and state:
 * fnstenv/fldenv (SDM vol. 1, 8.1.10, figures 8-9 and 8-10),
 * fnsave/frstor (figures 8-11 and 8-12), fxsave/fxrstor (vol. 1, 10.5.1,
 * tables 10-1 and 10-2; vol. 2, FXSAVE).
 *
 * The emulated processor predates the FCS/FDS deprecation, so the
 * environment carries the code and data selectors, and FIP, FDP, FOP are
 * those of the last non-control x87 instruction.
 */
#include <signal.h>

#include <Zydis/Zydis.h>

#include "x87.h"

enum { X87_SEG_CS = 1, X87_SEG_DS = 3 }; /* indexes of x86_cpu.seg_sel */
#define X87_MXCSR_MASK 0x0000ffffu

/* The full tag word: 2 bits per physical register (SDM vol. 1, 8.1.7):
 * 00 valid, 01 zero, 10 special (NaN, infinity, denormal, unsupported),
 * 11 empty. */
static uint16_t x87_full_tag(const struct x86_cpu *c)
{
	uint16_t ftw = 0;
	unsigned p;

	for (p = 0; p < 8; p++) {
		union x87_val v;
		unsigned t, e;

		memcpy(&v, &c->fpu.st[p], 10);
		e = v.p.sexp & 0x7fff;
		if (!((c->fpu.tag >> p) & 1))
			t = 3;
		else if (e == 0x7fff)
			t = 2;
		else if (e == 0)
			t = v.p.mant ? 2 : 1;
		else
			t = (v.p.mant >> 63) ? 0 : 2;
		ftw |= (uint16_t)(t << (2 * p));
	}
	return ftw;
}

static uint8_t x87_abridge(uint16_t ftw)
{
	uint8_t tag = 0;
	unsigned p;

	for (p = 0; p < 8; p++)
		if (((ftw >> (2 * p)) & 3) != 3)
			tag |= (uint8_t)(1u << p);
	return tag;
}

static void x87_set_fsw(struct x86_cpu *c, uint16_t fsw)
{
	c->fpu.top = (fsw >> 11) & 7;
	c->fpu.fsw = fsw & (uint16_t)~X87_TOP_MASK;
}

static X86_GUEST_MEM void x87_put16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, 2);
}
static X86_GUEST_MEM void x87_put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}
static X86_GUEST_MEM void x87_put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}
static X86_GUEST_MEM uint16_t x87_get16(const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return v;
}
static X86_GUEST_MEM uint32_t x87_get32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}
static X86_GUEST_MEM uint64_t x87_get64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* The environment image: 28 bytes in the 32-bit protected-mode format
 * (the 64-bit format is the same), 14 bytes with a 16-bit operand size.
 * Reserved halves read as ones, as hardware stores them. */
static X86_GUEST_MEM unsigned x87_env_store(const struct x86_cpu *c, uint8_t *p, unsigned osz)
{
	uint16_t fcs = c->seg_sel[X87_SEG_CS], fds = c->seg_sel[X87_SEG_DS];

	if (osz == 2) {
		x87_put16(p + 0, c->fpu.fcw);
		x87_put16(p + 2, x87_fsw(c));
		x87_put16(p + 4, x87_full_tag(c));
		x87_put16(p + 6, (uint16_t)c->fpu.fip);
		x87_put16(p + 8, fcs);
		x87_put16(p + 10, (uint16_t)c->fpu.fdp);
		x87_put16(p + 12, fds);
		return 14;
	}
	x87_put32(p + 0, 0xffff0000u | c->fpu.fcw);
	x87_put32(p + 4, 0xffff0000u | x87_fsw(c));
	x87_put32(p + 8, 0xffff0000u | x87_full_tag(c));
	x87_put32(p + 12, (uint32_t)c->fpu.fip);
	x87_put32(p + 16, fcs | ((uint32_t)(c->fpu.fop & 0x7ff) << 16));
	x87_put32(p + 20, (uint32_t)c->fpu.fdp);
	x87_put32(p + 24, 0xffff0000u | fds);
	return 28;
}

static X86_GUEST_MEM unsigned x87_env_load(struct x86_cpu *c, const uint8_t *p, unsigned osz)
{
	uint16_t fcw, fsw, ftw;

	fcw = x87_get16(p);
	if (osz == 2) {
		fsw = x87_get16(p + 2);
		ftw = x87_get16(p + 4);
		c->fpu.fip = x87_get16(p + 6);
		c->fpu.fdp = x87_get16(p + 10);
		c->fpu.fop = 0; /* not in this format: cleared */
	} else {
		fsw = x87_get16(p + 4);
		ftw = x87_get16(p + 8);
		c->fpu.fip = x87_get32(p + 12);
		c->fpu.fop = (uint16_t)((x87_get32(p + 16) >> 16) & 0x7ff);
		c->fpu.fdp = x87_get32(p + 20);
	}
	c->fpu.fcw = (uint16_t)((fcw & 0x1f7f) | 0x40);
	x87_set_fsw(c, fsw);
	c->fpu.tag = x87_abridge(ftw);
	/* ES follows the flags and masks just loaded */
	x87_update_es(c);
	return osz == 2 ? 14 : 28;
}

static void h_fnstenv(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_env_store(c, (uint8_t *)x86_ea(c, i), i->osz);
	/* then all exceptions are masked (SDM vol. 2, FSTENV) */
	c->fpu.fcw |= X87_EXC;
	x87_host_fldcw(c->fpu.fcw);
	x87_update_es(c);
}

static void h_fldenv(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_x87_wait(c, i);
	x87_env_load(c, (const uint8_t *)x86_ea(c, i), i->osz);
	x87_host_fldcw(c->fpu.fcw);
}

static X86_GUEST_MEM void h_fnsave(struct x86_cpu *c, const struct x86_insn *i)
{
	uint8_t *p = (uint8_t *)x86_ea(c, i);
	unsigned k, n = x87_env_store(c, p, i->osz);

	for (k = 0; k < 8; k++)
		memcpy(p + n + 10 * k, &c->fpu.st[x87_phys(c, k)], 10);
	/* then the x87 is initialised as by fninit */
	x86_x87_init(c);
	x87_host_fldcw(c->fpu.fcw);
}

static X86_GUEST_MEM void h_frstor(struct x86_cpu *c, const struct x86_insn *i)
{
	const uint8_t *p = (const uint8_t *)x86_ea(c, i);
	unsigned k, n;

	x86_x87_wait(c, i);
	n = x87_env_load(c, p, i->osz);
	for (k = 0; k < 8; k++)
		memcpy(&c->fpu.st[x87_phys(c, k)], p + n + 10 * k, 10);
	x87_host_fldcw(c->fpu.fcw);
}

/* ---- fxsave / fxrstor --------------------------------------------------- */

static X86_GUEST_MEM void x87_fxsave_fmt(struct x86_cpu *c, uint8_t *p, int is64)
{
	unsigned k;

	x87_put16(p + 0, c->fpu.fcw);
	x87_put16(p + 2, x87_fsw(c));
	p[4] = c->fpu.tag;
	p[5] = 0;
	x87_put16(p + 6, c->fpu.fop & 0x7ff);
	if (is64) {
		x87_put64(p + 8, c->fpu.fip);
		x87_put64(p + 16, c->fpu.fdp);
	} else {
		x87_put32(p + 8, (uint32_t)c->fpu.fip);
		x87_put32(p + 12, c->seg_sel[X87_SEG_CS]);
		x87_put32(p + 16, (uint32_t)c->fpu.fdp);
		x87_put32(p + 20, c->seg_sel[X87_SEG_DS]);
	}
	x87_put32(p + 24, c->mxcsr);
	x87_put32(p + 28, X87_MXCSR_MASK);
	for (k = 0; k < 8; k++) {
		memset(p + 32 + 16 * k, 0, 16);
		memcpy(p + 32 + 16 * k, &c->fpu.st[x87_phys(c, k)], 10);
	}
	for (k = 0; k < 16; k++)
		memcpy(p + 160 + 16 * k, &c->xmm[k], 16);
}

static X86_GUEST_MEM void x87_fxrstor_fmt(struct x86_cpu *c, const uint8_t *p, int is64)
{
	unsigned k;

	c->fpu.fcw = (uint16_t)((x87_get16(p) & 0x1f7f) | 0x40);
	x87_set_fsw(c, x87_get16(p + 2));
	c->fpu.tag = p[4];
	c->fpu.fop = x87_get16(p + 6) & 0x7ff;
	if (is64) {
		c->fpu.fip = x87_get64(p + 8);
		c->fpu.fdp = x87_get64(p + 16);
	} else {
		c->fpu.fip = x87_get32(p + 8);
		c->fpu.fdp = x87_get32(p + 16);
	}
	c->mxcsr = x87_get32(p + 24) & X87_MXCSR_MASK;
	for (k = 0; k < 8; k++)
		memcpy(&c->fpu.st[x87_phys(c, k)], p + 32 + 16 * k, 10);
	for (k = 0; k < 16; k++)
		memcpy(&c->xmm[k], p + 160 + 16 * k, 16);
	x87_update_es(c);
}

void x86_fxsave_to(struct x86_cpu *c, void *buf512)
{
	x87_fxsave_fmt(c, buf512, 1);
}

void x86_fxrstor_from(struct x86_cpu *c, const void *buf512)
{
	x87_fxrstor_fmt(c, buf512, 1);
}

/* A misaligned FXSAVE area is #GP: SIGSEGV, SI_KERNEL, address 0. */
static uint64_t x87_fx_area(struct x86_cpu *c, const struct x86_insn *i)
{
	uint64_t ea = x86_ea(c, i);

	if (ea & 15)
		x86_raise(c, SIGSEGV, 0x80, 0);
	return ea;
}

static void x87_fxsave(struct x86_cpu *c, const struct x86_insn *i, int is64)
{
	uint64_t ea = x87_fx_area(c, i);

	c->mxcsr = x87_host_stmxcsr(); /* the live one, inside x86_run() */
	x87_fxsave_fmt(c, (uint8_t *)ea, is64);
}

static void x87_fxrstor(struct x86_cpu *c, const struct x86_insn *i, int is64)
{
	const uint8_t *p = (const uint8_t *)x87_fx_area(c, i);

	/* reserved MXCSR bits set: #GP (SDM vol. 2, FXRSTOR) */
	if (x87_get32(p + 24) & ~X87_MXCSR_MASK)
		x86_raise(c, SIGSEGV, 0x80, 0);
	x87_fxrstor_fmt(c, p, is64);
	x87_host_fldcw(c->fpu.fcw);
	x87_host_ldmxcsr(c->mxcsr);
}

static void h_fxsave(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_fxsave(c, i, 0);
}
static void h_fxsave64(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_fxsave(c, i, 1);
}
static void h_fxrstor(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_fxrstor(c, i, 0);
}
static void h_fxrstor64(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_fxrstor(c, i, 1);
}

void x86_x87_env_register(x86_fn *tab)
{
	tab[ZYDIS_MNEMONIC_FNSTENV] = h_fnstenv;
	tab[ZYDIS_MNEMONIC_FLDENV] = h_fldenv;
	tab[ZYDIS_MNEMONIC_FNSAVE] = h_fnsave;
	tab[ZYDIS_MNEMONIC_FRSTOR] = h_frstor;
	tab[ZYDIS_MNEMONIC_FXSAVE] = h_fxsave;
	tab[ZYDIS_MNEMONIC_FXSAVE64] = h_fxsave64;
	tab[ZYDIS_MNEMONIC_FXRSTOR] = h_fxrstor;
	tab[ZYDIS_MNEMONIC_FXRSTOR64] = h_fxrstor64;
}
