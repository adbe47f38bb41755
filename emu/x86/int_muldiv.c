/* int_muldiv.c — MUL, IMUL (one-, two- and three-operand forms), DIV, IDIV.
 *
 * Flags (SDM vol. 2, MUL/IMUL): CF = OF = the result does not fit the
 * destination.  SF, ZF, AF and PF are undefined; they are set here as the
 * Intel P6/NetBurst cores are documented to by Bochs: SF, ZF and PF from the
 * low half of the product, AF cleared.  DIV/IDIV leave all six flags
 * undefined; they are left unchanged here.
 * A zero divisor or a quotient that does not fit raises #DE, which Linux
 * delivers as SIGFPE, FPE_INTDIV, si_addr = the faulting instruction.
 */
#include <signal.h>

#include <Zydis/Zydis.h>

#include "int2.h"

typedef unsigned __int128 u128;
typedef __int128 s128;

static inline void mul_flags(struct x86_cpu *c, unsigned size, uint64_t lo, int overflow)
{
	uint32_t f = x86_szp(size, lo);
	if (overflow)
		f |= X86_CF | X86_OF;
	x86_set_flags(c, X86_ARITH, f);
}

/* Store a double-width result into the implicit rDX:rAX (AX for bytes). */
static inline void put_wide(struct x86_cpu *c, unsigned size, uint64_t lo, uint64_t hi)
{
	if (size == 1) {
		x86_put_gpr(c, X86_RAX, 2, (lo & 0xff) | ((hi & 0xff) << 8));
	} else {
		x86_put_gpr(c, X86_RAX, size, lo);
		x86_put_gpr(c, X86_RDX, size, hi);
	}
}

static void h_mul(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned size = i->op[0].size;
	uint64_t src = x86_get(c, i, 0), acc = c->r[X86_RAX] & x86_mask(size);
	uint64_t lo, hi;

	if (size == 8) {
		u128 p = (u128)acc * src;
		lo = (uint64_t)p;
		hi = (uint64_t)(p >> 64);
	} else {
		uint64_t p = acc * src; /* at most 64 bits for sizes 1, 2, 4 */
		lo = p & x86_mask(size);
		hi = p >> (size * 8);
	}
	put_wide(c, size, lo, hi);
	mul_flags(c, size, lo, hi != 0);
}

/* Signed full product of two sign-extended operands: low half, and whether
 * the high half is more than the sign extension of the low half. */
static inline uint64_t smul(unsigned size, uint64_t a, uint64_t b, uint64_t *hi, int *ovf)
{
	int64_t sa = (int64_t)x86_sext(a, size), sb = (int64_t)x86_sext(b, size);
	uint64_t lo;

	if (size == 8) {
		s128 p = (s128)sa * sb;
		lo = (uint64_t)p;
		*hi = (uint64_t)((u128)p >> 64);
		*ovf = p != (s128)(int64_t)lo;
	} else {
		int64_t p = sa * sb; /* fits: |p| <= 2^62 */
		lo = (uint64_t)p & x86_mask(size);
		*hi = ((uint64_t)p >> (size * 8)) & x86_mask(size);
		*ovf = p != (int64_t)x86_sext(lo, size);
	}
	return lo;
}

static void h_imul(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned size = i->op[0].size;
	uint64_t a, b, lo, hi;
	int ovf;

	if (i->nops == 1) { /* rDX:rAX = rAX * r/m */
		a = c->r[X86_RAX] & x86_mask(size);
		b = x86_get(c, i, 0);
		lo = smul(size, a, b, &hi, &ovf);
		put_wide(c, size, lo, hi);
	} else {
		if (i->nops == 2) { /* r = r * r/m */
			a = x86_get(c, i, 0);
			b = x86_get(c, i, 1);
		} else { /* r = r/m * imm (imm8 or imm16/32 sign-extended) */
			a = x86_get(c, i, 1);
			b = (uint64_t)i->imm & x86_mask(size);
		}
		lo = smul(size, a, b, &hi, &ovf);
		x86_put(c, i, 0, lo);
	}
	mul_flags(c, size, lo, ovf);
}

static _Noreturn void divide_error(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_raise(c, SIGFPE, FPE_INTDIV, i->pc);
}

/* Dividend rDX:rAX (AX for bytes), zero-extended to 128 bits. */
static inline u128 dividend(const struct x86_cpu *c, unsigned size)
{
	if (size == 1)
		return c->r[X86_RAX] & 0xffff;
	if (size == 8)
		return ((u128)c->r[X86_RDX] << 64) | c->r[X86_RAX];
	return ((u128)(c->r[X86_RDX] & x86_mask(size)) << (size * 8)) |
	       (c->r[X86_RAX] & x86_mask(size));
}

/* Quotient into rAX (AL), remainder into rDX (AH). */
static inline void put_qr(struct x86_cpu *c, unsigned size, uint64_t q, uint64_t r)
{
	put_wide(c, size, q, r);
}

static void h_div(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned size = i->op[0].size;
	uint64_t d = x86_get(c, i, 0);
	u128 n = dividend(c, size), q;

	if (!d)
		divide_error(c, i);
	q = n / d;
	if (q > x86_mask(size))
		divide_error(c, i);
	put_qr(c, size, (uint64_t)q, (uint64_t)(n % d));
}

static void h_idiv(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned size = i->op[0].size, bits = size * 8;
	int64_t d = (int64_t)x86_sext(x86_get(c, i, 0), size);
	u128 un = dividend(c, size);
	s128 n, q, lim = (s128)1 << (bits - 1);

	if (!d)
		divide_error(c, i);
	/* sign-extend the 2*bits-wide dividend */
	n = bits == 64 ? (s128)un : (s128)((un << (128 - 2 * bits))) >> (128 - 2 * bits);
	/* INT128_MIN / d overflows every destination (and would trap in C) */
	if (n == -(s128)(((u128)1 << 127) - 1) - 1)
		divide_error(c, i);
	q = n / d;
	if (q >= lim || q < -lim) /* SDM: quotient must fit, -2^(bits-1) included */
		divide_error(c, i);
	put_qr(c, size, (uint64_t)q & x86_mask(size), (uint64_t)(n % d) & x86_mask(size));
}

void x86_muldiv_register(x86_fn *tab)
{
	tab[ZYDIS_MNEMONIC_MUL] = h_mul;
	tab[ZYDIS_MNEMONIC_IMUL] = h_imul;
	tab[ZYDIS_MNEMONIC_DIV] = h_div;
	tab[ZYDIS_MNEMONIC_IDIV] = h_idiv;
}
