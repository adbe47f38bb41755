/* int2.h — the second half of the integer instruction set (int_*.c) and
 * the string instructions (string.c): registration and the few helpers
 * those files share.  Private to emu/x86.
 */
#ifndef VPMU_X86_INT2_H
#define VPMU_X86_INT2_H

#include "ops.h"

/* mul/imul/div/idiv, shifts and rotates, bit instructions, xadd/cmpxchg,
 * flag and stack-frame instructions (int_muldiv.c, int_shift.c,
 * int_bits.c, int_atomic.c, int_misc.c). */
void x86_int2_register(x86_fn *tab);

/* Per-file registration, called by x86_int2_register(). */
void x86_muldiv_register(x86_fn *tab);
void x86_shift_register(x86_fn *tab);
void x86_bits_register(x86_fn *tab);
void x86_atomic_register(x86_fn *tab);
void x86_misc_register(x86_fn *tab);

/* The string forms of the two mnemonics Zydis shares with SSE2 (A5 movsd,
 * A7 cmpsd).  x86_str_register() leaves those table slots to the SSE
 * handlers, which call these when the instruction has no explicit
 * operands (the string form never has any). */
void x86_str_movsd(struct x86_cpu *c, const struct x86_insn *i);
void x86_str_cmpsd(struct x86_cpu *c, const struct x86_insn *i);

/* Even parity of the low byte (PF). */
static inline uint32_t x86_pf(uint64_t v)
{
	return __builtin_parity((unsigned)(v & 0xff)) ? 0 : X86_PF;
}

/* ZF, SF and PF of a result of the given size. */
static inline uint32_t x86_szp(unsigned size, uint64_t res)
{
	uint64_t m = x86_mask(size);
	uint32_t f = x86_pf(res);
	if (!(res & m))
		f |= X86_ZF;
	if (res & (1ull << (size * 8 - 1)))
		f |= X86_SF;
	return f;
}

#endif
