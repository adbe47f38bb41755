/* int_atomic.c — XADD, CMPXCHG, CMPXCHG8B.
 *
 * With a LOCK prefix the memory access is a host atomic on the guest
 * address: guest memory is host memory, and other guest processes (each
 * its own host process) may share the page.  Without LOCK a plain
 * read-modify-write is what the processor guarantees too.
 * CMPXCHG16B is not in the emulated CPUID (no CX16) and is not handled.
 */
#include <Zydis/Zydis.h>

#include "int2.h"

static X86_GUEST_MEM uint64_t atomic_fetch_add(uint64_t a, unsigned size, uint64_t v)
{
	switch (size) {
	case 1:
		return __atomic_fetch_add((uint8_t *)a, (uint8_t)v, __ATOMIC_SEQ_CST);
	case 2:
		return __atomic_fetch_add((uint16_t *)a, (uint16_t)v, __ATOMIC_SEQ_CST);
	case 4:
		return __atomic_fetch_add((uint32_t *)a, (uint32_t)v, __ATOMIC_SEQ_CST);
	default:
		return __atomic_fetch_add((uint64_t *)a, v, __ATOMIC_SEQ_CST);
	}
}

/* Compare-and-swap; returns the old memory value. */
static X86_GUEST_MEM uint64_t atomic_cas(uint64_t a, unsigned size, uint64_t expect, uint64_t v)
{
	switch (size) {
	case 1: {
		uint8_t e = (uint8_t)expect;
		__atomic_compare_exchange_n((uint8_t *)a, &e, (uint8_t)v, 0, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST);
		return e;
	}
	case 2: {
		uint16_t e = (uint16_t)expect;
		__atomic_compare_exchange_n((uint16_t *)a, &e, (uint16_t)v, 0, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST);
		return e;
	}
	case 4: {
		uint32_t e = (uint32_t)expect;
		__atomic_compare_exchange_n((uint32_t *)a, &e, (uint32_t)v, 0, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST);
		return e;
	}
	default: {
		uint64_t e = expect;
		__atomic_compare_exchange_n((uint64_t *)a, &e, v, 0, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST);
		return e;
	}
	}
}

/* XADD r/m, r: TEMP = SRC + DEST; SRC = DEST; DEST = TEMP (SDM order, so
 * "xadd eax, eax" leaves the sum).  Flags as ADD. */
static void h_xadd(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned size = i->op[0].size;
	uint64_t s = x86_get(c, i, 1), d;

	if (i->op[0].kind == X86_OP_MEM && (i->flags & X86_I_LOCK)) {
		d = atomic_fetch_add(x86_ea(c, i), size, s);
	} else {
		d = x86_get(c, i, 0);
		if (i->op[0].kind == X86_OP_MEM)
			x86_put(c, i, 0, d + s);
	}
	x86_put(c, i, 1, d);
	if (i->op[0].kind != X86_OP_MEM)
		x86_put(c, i, 0, d + s);
	x86_setlf(c, X86_LF_ADD, size, d, s, d + s);
}

/* CMPXCHG r/m, r: compare the accumulator with DEST (flags as CMP acc, DEST);
 * equal: DEST = SRC; else the accumulator = DEST.  A register destination
 * is not written when the comparison fails (as Bochs models Intel). */
static void h_cmpxchg(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned size = i->op[0].size;
	uint64_t acc = c->r[X86_RAX] & x86_mask(size), s = x86_get(c, i, 1), d;

	if (i->op[0].kind == X86_OP_MEM) {
		uint64_t a = x86_ea(c, i);
		if (i->flags & X86_I_LOCK) {
			d = atomic_cas(a, size, acc, s);
		} else {
			d = x86_ld(a, size);
			/* the processor writes DEST back on failure: a
			 * read-only page faults either way */
			x86_st(a, size, d == acc ? s : d);
		}
	} else {
		d = x86_get(c, i, 0);
		if (d == acc)
			x86_put(c, i, 0, s);
	}
	if (d != acc)
		x86_put_gpr(c, X86_RAX, size, d);
	x86_setlf(c, X86_LF_SUB, size, acc, d, acc - d);
}

/* CMPXCHG8B m64: EDX:EAX against m64; equal: m64 = ECX:EBX, ZF = 1; else
 * EDX:EAX = m64, ZF = 0.  Other flags unchanged. */
static void h_cmpxchg8b(struct x86_cpu *c, const struct x86_insn *i)
{
	uint64_t a = x86_ea(c, i), d;
	uint64_t expect = ((c->r[X86_RDX] & 0xffffffffull) << 32) | (uint32_t)c->r[X86_RAX];
	uint64_t repl = ((c->r[X86_RCX] & 0xffffffffull) << 32) | (uint32_t)c->r[X86_RBX];

	if (i->flags & X86_I_LOCK) {
		d = atomic_cas(a, 8, expect, repl);
	} else {
		d = x86_ld64(a);
		x86_st64(a, d == expect ? repl : d);
	}
	if (d != expect) {
		c->r[X86_RAX] = (uint32_t)d;
		c->r[X86_RDX] = d >> 32;
	}
	x86_set_flags(c, X86_ZF, d == expect ? X86_ZF : 0);
}

void x86_atomic_register(x86_fn *tab)
{
	tab[ZYDIS_MNEMONIC_XADD] = h_xadd;
	tab[ZYDIS_MNEMONIC_CMPXCHG] = h_cmpxchg;
	tab[ZYDIS_MNEMONIC_CMPXCHG8B] = h_cmpxchg8b;
}
