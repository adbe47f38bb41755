/* int_bits.c — BT, BTS, BTR, BTC, BSF, BSR, BSWAP.
 *
 * The emulated processor has neither BMI1 nor LZCNT: the decoder turns
 * F3 0F BC/BD into BSF/BSR as such a processor does; should a decoder hand
 * us TZCNT/LZCNT mnemonics anyway, they get the same (BSF/BSR) semantics.
 * POPCNT is not in the emulated CPUID and is left unimplemented.
 */
#include <Zydis/Zydis.h>

#include "int2.h"

/* ---- BT family (SDM vol. 2, "BT—Bit Test") -------------------------------
 * CF = the selected bit; OF, SF, AF and PF are undefined and left unchanged
 * (as Bochs models Intel cores); ZF is unaffected.  A register bit offset
 * on a memory operand is a signed offset from the operand's address and may
 * reach outside it; the access is one operand-size word. */

enum bt_op { BT_TEST, BT_SET, BT_RESET, BT_COMPLEMENT };

static inline uint64_t bt_apply(enum bt_op op, uint64_t v, uint64_t bit)
{
	switch (op) {
	case BT_SET:
		return v | bit;
	case BT_RESET:
		return v & ~bit;
	case BT_COMPLEMENT:
		return v ^ bit;
	default:
		return v;
	}
}

/* Locked read-modify-write of one bit: other guest processes may share
 * the page, so it has to be a host atomic. */
static X86_GUEST_MEM uint64_t bt_atomic(enum bt_op op, uint64_t a, unsigned size, uint64_t bit)
{
	switch (size) {
	case 2: {
		uint16_t *p = (uint16_t *)a, b = (uint16_t)bit;
		return op == BT_SET   ? __atomic_fetch_or(p, b, __ATOMIC_SEQ_CST) :
		       op == BT_RESET ? __atomic_fetch_and(p, (uint16_t)~b, __ATOMIC_SEQ_CST) :
					__atomic_fetch_xor(p, b, __ATOMIC_SEQ_CST);
	}
	case 4: {
		uint32_t *p = (uint32_t *)a, b = (uint32_t)bit;
		return op == BT_SET   ? __atomic_fetch_or(p, b, __ATOMIC_SEQ_CST) :
		       op == BT_RESET ? __atomic_fetch_and(p, ~b, __ATOMIC_SEQ_CST) :
					__atomic_fetch_xor(p, b, __ATOMIC_SEQ_CST);
	}
	default: {
		uint64_t *p = (uint64_t *)a;
		return op == BT_SET   ? __atomic_fetch_or(p, bit, __ATOMIC_SEQ_CST) :
		       op == BT_RESET ? __atomic_fetch_and(p, ~bit, __ATOMIC_SEQ_CST) :
					__atomic_fetch_xor(p, bit, __ATOMIC_SEQ_CST);
	}
	}
}

static inline void bt_common(struct x86_cpu *c, const struct x86_insn *i, enum bt_op op)
{
	unsigned size = i->op[0].size, bits = size * 8;
	uint64_t off = x86_get(c, i, 1), v, bit;

	if (i->op[0].kind != X86_OP_MEM) {
		bit = 1ull << (off & (bits - 1));
		v = x86_get(c, i, 0);
		if (op != BT_TEST)
			x86_put(c, i, 0, bt_apply(op, v, bit));
	} else {
		uint64_t a = x86_ea(c, i);
		if (i->op[1].kind != X86_OP_IMM) {
			/* signed bit offset: address += size * floor(off / bits),
			 * in the address size (SDM BT, "Operation") */
			int64_t so = (int64_t)x86_sext(off, size);
			uint64_t base = c->seg_base[i->seg];
			a = a - base + (uint64_t)((so >> (3 + x86_log2size(size))) * (int64_t)size);
			if (i->asz == 4)
				a = (uint32_t)a;
			a += base;
		}
		bit = 1ull << (off & (bits - 1));
		if (op != BT_TEST && (i->flags & X86_I_LOCK)) {
			v = bt_atomic(op, a, size, bit);
		} else {
			v = x86_ld(a, size);
			if (op != BT_TEST)
				x86_st(a, size, bt_apply(op, v, bit));
		}
	}
	x86_set_flags(c, X86_CF, (v & bit) ? X86_CF : 0);
}

static void h_bt(struct x86_cpu *c, const struct x86_insn *i)
{
	bt_common(c, i, BT_TEST);
}

static void h_bts(struct x86_cpu *c, const struct x86_insn *i)
{
	bt_common(c, i, BT_SET);
}

static void h_btr(struct x86_cpu *c, const struct x86_insn *i)
{
	bt_common(c, i, BT_RESET);
}

static void h_btc(struct x86_cpu *c, const struct x86_insn *i)
{
	bt_common(c, i, BT_COMPLEMENT);
}

/* ---- BSF / BSR -------------------------------------------------------------
 * Source 0: ZF = 1 and the destination is left unchanged (what Intel and
 * AMD processors do; the SDM calls it undefined), other flags unchanged.
 * Otherwise ZF = 0, the index is written, and the undefined CF, OF, AF are
 * cleared with SF and PF taken from the index (Bochs's model of Intel). */

static inline void bsx_result(struct x86_cpu *c, const struct x86_insn *i, uint64_t idx)
{
	x86_put(c, i, 0, idx);
	x86_set_flags(c, X86_ARITH, x86_szp(8, idx) & ~(uint32_t)X86_ZF);
}

static void h_bsf(struct x86_cpu *c, const struct x86_insn *i)
{
	uint64_t s = x86_get(c, i, 1);

	if (!s) {
		x86_set_flags(c, X86_ZF, X86_ZF);
		return;
	}
	bsx_result(c, i, (uint64_t)__builtin_ctzll(s));
}

static void h_bsr(struct x86_cpu *c, const struct x86_insn *i)
{
	uint64_t s = x86_get(c, i, 1);

	if (!s) {
		x86_set_flags(c, X86_ZF, X86_ZF);
		return;
	}
	bsx_result(c, i, (uint64_t)(63 - __builtin_clzll(s)));
}

/* ---- BSWAP -------------------------------------------------------------------
 * The 16-bit form is undefined (SDM); Intel and AMD processors clear the
 * low word, which is what this does. */
static void h_bswap(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned reg = i->op[0].reg;

	switch (i->op[0].size) {
	case 8:
		c->r[reg] = __builtin_bswap64(c->r[reg]);
		break;
	case 4:
		c->r[reg] = __builtin_bswap32((uint32_t)c->r[reg]);
		break;
	default:
		x86_put_gpr(c, reg, 2, 0);
		break;
	}
}

void x86_bits_register(x86_fn *tab)
{
	tab[ZYDIS_MNEMONIC_BT] = h_bt;
	tab[ZYDIS_MNEMONIC_BTS] = h_bts;
	tab[ZYDIS_MNEMONIC_BTR] = h_btr;
	tab[ZYDIS_MNEMONIC_BTC] = h_btc;
	tab[ZYDIS_MNEMONIC_BSF] = h_bsf;
	tab[ZYDIS_MNEMONIC_BSR] = h_bsr;
	tab[ZYDIS_MNEMONIC_TZCNT] = h_bsf;
	tab[ZYDIS_MNEMONIC_LZCNT] = h_bsr;
	tab[ZYDIS_MNEMONIC_BSWAP] = h_bswap;
}
