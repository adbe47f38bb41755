/* int_misc.c — flag instructions (PUSHF/POPF, LAHF/SAHF, CLC/STC/CMC,
 * CLD/STD), ENTER, XLAT; and x86_int2_register() for all int_*.c files.
 */
#include <Zydis/Zydis.h>

#include "int2.h"

/* RFLAGS bits a CPL-3 POPF may change with IOPL 0 (SDM vol. 2, POPF,
 * "Operation", protected mode CPL > IOPL): IF, IOPL, VIP, VIF, VM and RF
 * are kept.  NT (bit 14) is writable there too. */
#define X86_NT (1u << 14)
#define POPF_MASK (X86_ARITH | X86_TF | X86_DF | X86_NT | X86_AC | X86_ID)

static void h_pushf(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned size = i->osz == 2 ? 2 : 8;
	uint64_t sp = c->r[X86_RSP] - size;

	/* VM and RF read as 0 in the pushed image (SDM PUSHF); neither is
	 * ever set in user mode here. */
	x86_st(sp, size, x86_rflags(c));
	c->r[X86_RSP] = sp;
}

static void h_popf(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned size = i->osz == 2 ? 2 : 8;
	uint64_t v = x86_ld(c->r[X86_RSP], size), old = x86_rflags(c);
	uint64_t mask = POPF_MASK & x86_mask(size);

	c->r[X86_RSP] += size;
	x86_set_rflags(c, (old & ~mask) | (v & mask));
}

/* LAHF/SAHF: AH <-> SF:ZF:0:AF:0:PF:1:CF.  The NetBurst cores with Intel 64
 * did not support them in 64-bit mode (CPUID 80000001h ECX bit 0 is clear
 * in cpuid.c, so software does not use them); executing them is harmless. */
static void h_lahf(struct x86_cpu *c, const struct x86_insn *i)
{
	uint64_t ah = (x86_flags(c) & (X86_SF | X86_ZF | X86_AF | X86_PF | X86_CF)) | 2;
	(void)i;
	c->r[X86_RAX] = (c->r[X86_RAX] & ~0xff00ull) | (ah << 8);
}

static void h_sahf(struct x86_cpu *c, const struct x86_insn *i)
{
	uint32_t ah = (uint32_t)(c->r[X86_RAX] >> 8) & 0xff;
	(void)i;
	x86_set_flags(c, X86_SF | X86_ZF | X86_AF | X86_PF | X86_CF, ah);
}

static void h_clc(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)i;
	x86_set_flags(c, X86_CF, 0);
}

static void h_stc(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)i;
	x86_set_flags(c, X86_CF, X86_CF);
}

static void h_cmc(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)i;
	x86_set_flags(c, X86_CF, x86_flags(c) ^ X86_CF);
}

static void h_cld(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)i;
	c->eflags &= ~(uint32_t)X86_DF;
}

static void h_std(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)i;
	c->eflags |= X86_DF;
}

/* ENTER imm16, imm8 (SDM vol. 2, ENTER, 64-bit mode): push rBP, copy
 * nesting-1 frame pointers from the enclosing frame, push the new frame
 * pointer, rBP = frame, rSP -= size.  Registers change only once every
 * access has succeeded, so a fault leaves them as they were. */
static void h_enter(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned sz = i->osz == 2 ? 2 : 8, level = i->imm2 & 31;
	uint64_t alloc = (uint64_t)i->imm & 0xffff;
	uint64_t sp = c->r[X86_RSP], bp = c->r[X86_RBP], frame;

	sp -= sz;
	x86_st(sp, sz, bp);
	frame = sp;
	if (level) {
		for (unsigned k = 1; k < level; k++) {
			bp -= sz;
			sp -= sz;
			x86_st(sp, sz, x86_ld(bp, sz));
		}
		sp -= sz;
		x86_st(sp, sz, frame);
	}
	x86_put_gpr(c, X86_RBP, sz, frame);
	c->r[X86_RSP] = sp - alloc;
}

/* XLAT: AL = [rBX + zero-extended AL], in the address size, with the
 * segment override (DS default). */
static void h_xlat(struct x86_cpu *c, const struct x86_insn *i)
{
	uint64_t a = c->r[X86_RBX] + (c->r[X86_RAX] & 0xff);

	if (i->asz == 4)
		a = (uint32_t)a;
	x86_put_gpr(c, X86_RAX, 1, x86_ld8(a + c->seg_base[i->seg]));
}

void x86_misc_register(x86_fn *tab)
{
	tab[ZYDIS_MNEMONIC_PUSHF] = h_pushf;
	tab[ZYDIS_MNEMONIC_PUSHFQ] = h_pushf;
	tab[ZYDIS_MNEMONIC_POPF] = h_popf;
	tab[ZYDIS_MNEMONIC_POPFQ] = h_popf;
	tab[ZYDIS_MNEMONIC_LAHF] = h_lahf;
	tab[ZYDIS_MNEMONIC_SAHF] = h_sahf;
	tab[ZYDIS_MNEMONIC_CLC] = h_clc;
	tab[ZYDIS_MNEMONIC_STC] = h_stc;
	tab[ZYDIS_MNEMONIC_CMC] = h_cmc;
	tab[ZYDIS_MNEMONIC_CLD] = h_cld;
	tab[ZYDIS_MNEMONIC_STD] = h_std;
	tab[ZYDIS_MNEMONIC_ENTER] = h_enter;
	tab[ZYDIS_MNEMONIC_XLAT] = h_xlat;
}

void x86_int2_register(x86_fn *tab)
{
	x86_muldiv_register(tab);
	x86_shift_register(tab);
	x86_bits_register(tab);
	x86_atomic_register(tab);
	x86_misc_register(tab);
}
