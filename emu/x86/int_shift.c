/* int_shift.c — SHL/SAL, SHR, SAR, ROL, ROR, RCL, RCR, SHLD, SHRD.
 *
 * SDM vol. 2, "SAL/SAR/SHL/SHR", "RCL/RCR/ROL/ROR", "SHLD", "SHRD": the
 * count is masked to 5 bits (6 with REX.W); a masked count of 0 changes
 * neither the value nor any flag.  The destination is still read first, so
 * a bad address faults whatever the count.
 *
 * Flags the SDM leaves undefined, chosen as Intel cores compute them (the
 * same formulas Bochs uses for P6 and later):
 *  - shifts: OF for counts > 1 with the count-1 formula, AF cleared
 *    (flags.c, lazily);
 *  - rotates: OF for counts > 1 with the count-1 formula applied to the
 *    result (ROL/RCL: MSB(res) ^ CF; ROR/RCR: MSB(res) ^ MSB-1(res));
 *  - SHLD/SHRD: OF likewise for any count, AF cleared; a 16-bit count above
 *    16 shifts the 48-bit value dst:src:dst (P6 behaviour).
 */
#include <Zydis/Zydis.h>

#include "int2.h"

/* The decoder lists the count as op[k] when it is explicit (C0/C1 imm8,
 * 0F A4/AC imm8).  The implicit forms — D0/D1 "by 1", D2/D3 and 0F A5/AD
 * "by CL" — may come without it; then the opcode byte tells them apart. */
static unsigned implicit_count(const struct x86_cpu *c, const struct x86_insn *i, int k)
{
	const uint8_t *p = (const uint8_t *)i->pc, *end = p + i->len;

	if (k == 2) /* shld/shrd without an immediate: always CL */
		return c->r[X86_RCX] & 0xff;
	for (; p < end; p++) {
		uint8_t b = *p;
		if ((b & 0xf0) == 0x40 || b == 0x66 || b == 0x67 || b == 0xf0 || b == 0xf2 ||
		    b == 0xf3 || b == 0x2e || b == 0x3e || b == 0x26 || b == 0x36 || b == 0x64 ||
		    b == 0x65)
			continue;
		return (b & 0xfe) == 0xd2 ? (unsigned)(c->r[X86_RCX] & 0xff) : 1;
	}
	return 1;
}

static inline unsigned count_of(struct x86_cpu *c, const struct x86_insn *i, int k, unsigned size)
{
	unsigned n = i->nops > k ? (unsigned)x86_get(c, i, k) : implicit_count(c, i, k);
	return n & (size == 8 ? 63 : 31);
}

/* A masked count of 0 leaves flags and value alone, but a register
 * destination is still written: a 32-bit one gets its upper half cleared
 * like any 32-bit write (as processors do). */
static inline void count0(struct x86_cpu *c, const struct x86_insn *i, uint64_t d)
{
	if (i->op[0].kind == X86_OP_GPR)
		x86_put(c, i, 0, d);
}

static inline uint64_t msb(uint64_t v, unsigned size)
{
	return (v >> (size * 8 - 1)) & 1;
}

static inline void set_cf_of(struct x86_cpu *c, uint64_t cf, uint64_t of)
{
	x86_set_flags(c, X86_CF | X86_OF, (cf ? X86_CF : 0) | (of ? X86_OF : 0));
}

static void h_shl(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned size = i->op[0].size;
	uint64_t d = x86_get(c, i, 0);
	unsigned n = count_of(c, i, 1, size);
	uint64_t r;

	if (!n) {
		count0(c, i, d);
		return;
	}
	r = (d << n) & x86_mask(size); /* n <= 63 */
	x86_put(c, i, 0, r);
	x86_setlf(c, X86_LF_SHL, size, d, n, r);
}

static void h_shr(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned size = i->op[0].size;
	uint64_t d = x86_get(c, i, 0);
	unsigned n = count_of(c, i, 1, size);
	uint64_t r;

	if (!n) {
		count0(c, i, d);
		return;
	}
	r = d >> n;
	x86_put(c, i, 0, r);
	x86_setlf(c, X86_LF_SHR, size, d, n, r);
}

static void h_sar(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned size = i->op[0].size;
	uint64_t d = x86_get(c, i, 0);
	unsigned n = count_of(c, i, 1, size);
	uint64_t r;

	if (!n) {
		count0(c, i, d);
		return;
	}
	r = (uint64_t)((int64_t)x86_sext(d, size) >> n) & x86_mask(size);
	x86_put(c, i, 0, r);
	x86_setlf(c, X86_LF_SAR, size, d, n, r);
}

static void h_rol(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned size = i->op[0].size, bits = size * 8;
	uint64_t d = x86_get(c, i, 0), r;
	unsigned n = count_of(c, i, 1, size), k;

	if (!n) {
		count0(c, i, d);
		return;
	}
	k = n & (bits - 1);
	r = k ? ((d << k) | (d >> (bits - k))) & x86_mask(size) : d;
	x86_put(c, i, 0, r);
	set_cf_of(c, r & 1, msb(r, size) ^ (r & 1));
}

static void h_ror(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned size = i->op[0].size, bits = size * 8;
	uint64_t d = x86_get(c, i, 0), r;
	unsigned n = count_of(c, i, 1, size), k;

	if (!n) {
		count0(c, i, d);
		return;
	}
	k = n & (bits - 1);
	r = k ? ((d >> k) | (d << (bits - k))) & x86_mask(size) : d;
	x86_put(c, i, 0, r);
	set_cf_of(c, msb(r, size), msb(r, size) ^ msb(r << 1, size));
}

/* RCL/RCR rotate the (bits+1)-bit value CF:dst; 8- and 16-bit counts are
 * taken modulo 9 and 17 after masking. */
static inline unsigned rc_count(unsigned n, unsigned size)
{
	return size == 1 ? n % 9 : size == 2 ? n % 17 : n;
}

/* Rotate through carry, left or right: the operand and CF as one
 * (bits + 1)-bit value.  OF is MSB(result) xor CF after rcl, and the xor
 * of the result's two top bits after rcr. */
static void rc(struct x86_cpu *c, const struct x86_insn *i, int left)
{
	unsigned size = i->op[0].size, bits = size * 8, w = bits + 1;
	uint64_t d = x86_get(c, i, 0), r, cf;
	unsigned n = count_of(c, i, 1, size), k;
	unsigned __int128 v, m = ((unsigned __int128)1 << w) - 1;

	if (!n) {
		count0(c, i, d);
		return;
	}
	cf = (x86_flags(c) & X86_CF) != 0;
	k = rc_count(n, size);
	v = ((unsigned __int128)cf << bits) | d;
	if (k)
		v = (left ? (v << k) | (v >> (w - k)) : (v >> k) | (v << (w - k))) & m;
	r = (uint64_t)v & x86_mask(size);
	cf = (uint64_t)(v >> bits) & 1;
	x86_put(c, i, 0, r);
	set_cf_of(c, cf, left ? msb(r, size) ^ cf : msb(r, size) ^ msb(r << 1, size));
}

static void h_rcl(struct x86_cpu *c, const struct x86_insn *i)
{
	rc(c, i, 1);
}

static void h_rcr(struct x86_cpu *c, const struct x86_insn *i)
{
	rc(c, i, 0);
}

static inline void dshift_flags(struct x86_cpu *c, unsigned size, uint64_t r, uint64_t cf,
				uint64_t of)
{
	x86_set_flags(c, X86_ARITH, x86_szp(size, r) | (cf ? X86_CF : 0) | (of ? X86_OF : 0));
}

static void h_shld(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned size = i->op[0].size, bits = size * 8;
	uint64_t d = x86_get(c, i, 0), s = x86_get(c, i, 1), r, cf;
	unsigned n = count_of(c, i, 2, size);

	if (!n) {
		count0(c, i, d);
		return;
	}
	if (size == 2) {
		uint64_t v = (d << 32) | (s << 16) | d;
		r = (v >> (32 - n)) & 0xffff;
		cf = (v >> (48 - n)) & 1;
	} else {
		r = ((d << n) | (s >> (bits - n))) & x86_mask(size);
		cf = (d >> (bits - n)) & 1;
	}
	x86_put(c, i, 0, r);
	dshift_flags(c, size, r, cf, cf ^ msb(r, size));
}

static void h_shrd(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned size = i->op[0].size, bits = size * 8;
	uint64_t d = x86_get(c, i, 0), s = x86_get(c, i, 1), r, cf;
	unsigned n = count_of(c, i, 2, size);

	if (!n) {
		count0(c, i, d);
		return;
	}
	if (size == 2) {
		uint64_t v = (d << 32) | (s << 16) | d;
		r = (v >> n) & 0xffff;
		cf = (v >> (n - 1)) & 1;
	} else {
		r = ((d >> n) | (s << (bits - n))) & x86_mask(size);
		cf = (d >> (n - 1)) & 1;
	}
	x86_put(c, i, 0, r);
	dshift_flags(c, size, r, cf, msb(r, size) ^ msb(r << 1, size));
}

void x86_shift_register(x86_fn *tab)
{
	tab[ZYDIS_MNEMONIC_SHL] = h_shl;
	tab[ZYDIS_MNEMONIC_SHR] = h_shr;
	tab[ZYDIS_MNEMONIC_SAR] = h_sar;
	tab[ZYDIS_MNEMONIC_ROL] = h_rol;
	tab[ZYDIS_MNEMONIC_ROR] = h_ror;
	tab[ZYDIS_MNEMONIC_RCL] = h_rcl;
	tab[ZYDIS_MNEMONIC_RCR] = h_rcr;
	tab[ZYDIS_MNEMONIC_SHLD] = h_shld;
	tab[ZYDIS_MNEMONIC_SHRD] = h_shrd;
}
