/* ops.h — what instruction handlers share: operand access, guest memory,
 * lazy flags, and the handler tables each semantics file fills.
 * Internal to emu/x86.
 */
#ifndef VPMU_X86_OPS_H
#define VPMU_X86_OPS_H

#include <string.h>

#include "x86.h"

#define X86_LIKELY(x) __builtin_expect(!!(x), 1)
#define X86_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* ---- guest memory: guest address = host address ------------------------ */

/* A guest address may be 0 or misaligned, and the host's fault is then the
 * guest's: a build with the undefined-behaviour sanitizer must let the
 * access fault instead of stopping at it (or at the arithmetic on a guest
 * pointer that leads to it).  Functions that reach guest memory through a
 * pointer of their own carry it too. */
#define X86_GUEST_MEM \
	__attribute__((no_sanitize("null", "nonnull-attribute", "alignment", "pointer-overflow")))

static inline X86_GUEST_MEM uint8_t x86_ld8(uint64_t a)
{
	return *(const volatile uint8_t *)a;
}
static inline X86_GUEST_MEM uint16_t x86_ld16(uint64_t a)
{
	uint16_t v;
	memcpy(&v, (const void *)a, 2);
	return v;
}
static inline X86_GUEST_MEM uint32_t x86_ld32(uint64_t a)
{
	uint32_t v;
	memcpy(&v, (const void *)a, 4);
	return v;
}
static inline X86_GUEST_MEM uint64_t x86_ld64(uint64_t a)
{
	uint64_t v;
	memcpy(&v, (const void *)a, 8);
	return v;
}
static inline X86_GUEST_MEM void x86_st8(uint64_t a, uint8_t v)
{
	*(volatile uint8_t *)a = v;
}
static inline X86_GUEST_MEM void x86_st16(uint64_t a, uint16_t v)
{
	memcpy((void *)a, &v, 2);
}
static inline X86_GUEST_MEM void x86_st32(uint64_t a, uint32_t v)
{
	memcpy((void *)a, &v, 4);
}
static inline X86_GUEST_MEM void x86_st64(uint64_t a, uint64_t v)
{
	memcpy((void *)a, &v, 8);
}

/* n bytes of guest memory at a into dst. */
static inline X86_GUEST_MEM void x86_read(void *dst, uint64_t a, size_t n)
{
	memcpy(dst, (const void *)a, n);
}

/* n bytes from src into guest memory at a. */
static inline X86_GUEST_MEM void x86_write(uint64_t a, const void *src, size_t n)
{
	memcpy((void *)a, src, n);
}

static inline uint64_t x86_ld(uint64_t a, unsigned size)
{
	switch (size) {
	case 1:
		return x86_ld8(a);
	case 2:
		return x86_ld16(a);
	case 4:
		return x86_ld32(a);
	default:
		return x86_ld64(a);
	}
}

static inline void x86_st(uint64_t a, unsigned size, uint64_t v)
{
	switch (size) {
	case 1:
		x86_st8(a, (uint8_t)v);
		break;
	case 2:
		x86_st16(a, (uint16_t)v);
		break;
	case 4:
		x86_st32(a, (uint32_t)v);
		break;
	default:
		x86_st64(a, v);
		break;
	}
}

static inline uint64_t x86_mask(unsigned size)
{
	return size >= 8 ? ~0ull : (1ull << (size * 8)) - 1;
}

static inline uint64_t x86_sext(uint64_t v, unsigned size)
{
	switch (size) {
	case 1:
		return (uint64_t)(int64_t)(int8_t)v;
	case 2:
		return (uint64_t)(int64_t)(int16_t)v;
	case 4:
		return (uint64_t)(int64_t)(int32_t)v;
	default:
		return v;
	}
}

/* Effective address of the instruction's memory operand: the offset is
 * truncated to the address size first, then the FS/GS base is added. */
static inline uint64_t x86_ea(const struct x86_cpu *c, const struct x86_insn *i)
{
	uint64_t a = c->r[i->base] + (c->r[i->index] << i->shift) + (uint64_t)i->disp;
	if (X86_UNLIKELY(i->asz == 4))
		a = (uint32_t)a;
	return a + c->seg_base[i->seg];
}

/* ---- operands ----------------------------------------------------------- */

/* Read explicit operand k, zero-extended (immediates: sign-extended then
 * masked to the operand's size). */
static inline uint64_t x86_get(struct x86_cpu *c, const struct x86_insn *i, int k)
{
	const struct x86_op *o = &i->op[k];
	switch (o->kind) {
	case X86_OP_GPR:
		return c->r[o->reg] & x86_mask(o->size);
	case X86_OP_GPR8H:
		return (c->r[o->reg] >> 8) & 0xff;
	case X86_OP_MEM:
		return x86_ld(x86_ea(c, i), o->size);
	case X86_OP_IMM:
	case X86_OP_REL:
		return (uint64_t)i->imm & x86_mask(o->size);
	default:
		return 0;
	}
}

/* Write a general register as the ISA does: 32-bit writes zero-extend,
 * 8/16-bit writes merge. */
static inline void x86_put_gpr(struct x86_cpu *c, unsigned reg, unsigned size, uint64_t v)
{
	switch (size) {
	case 8:
		c->r[reg] = v;
		break;
	case 4:
		c->r[reg] = (uint32_t)v;
		break;
	case 2:
		c->r[reg] = (c->r[reg] & ~0xffffull) | (v & 0xffff);
		break;
	default:
		c->r[reg] = (c->r[reg] & ~0xffull) | (v & 0xff);
		break;
	}
}

static inline void x86_put(struct x86_cpu *c, const struct x86_insn *i, int k, uint64_t v)
{
	const struct x86_op *o = &i->op[k];
	switch (o->kind) {
	case X86_OP_GPR:
		x86_put_gpr(c, o->reg, o->size, v);
		break;
	case X86_OP_GPR8H:
		c->r[o->reg] = (c->r[o->reg] & ~0xff00ull) | ((v & 0xff) << 8);
		break;
	case X86_OP_MEM:
		x86_st(x86_ea(c, i), o->size, v);
		break;
	default:
		break;
	}
}

/* Pointer to the 16 bytes of an XMM operand, or the guest memory of a
 * memory operand (loads of fewer bytes read only o->size bytes). */
static inline x86_xmm *x86_xmm_reg(struct x86_cpu *c, const struct x86_insn *i, int k)
{
	return &c->xmm[i->op[k].reg];
}

/* Read an XMM-or-memory operand into *v (memory: op size bytes, rest zero). */
static inline void x86_get_xmm(struct x86_cpu *c, const struct x86_insn *i, int k, x86_xmm *v)
{
	const struct x86_op *o = &i->op[k];
	if (o->kind == X86_OP_XMM) {
		*v = c->xmm[o->reg];
	} else if (o->kind == X86_OP_MEM) {
		v->q[0] = v->q[1] = 0;
		x86_read(v, x86_ea(c, i), o->size > 16 ? 16 : o->size);
	} else if (o->kind == X86_OP_GPR) {
		v->q[0] = c->r[o->reg] & x86_mask(o->size);
		v->q[1] = 0;
	} else if (o->kind == X86_OP_MMX) {
		v->q[0] = c->mmx[o->reg];
		v->q[1] = 0;
	}
}

/* Raise #GP for a misaligned 16-byte SSE memory operand (movaps & co.):
 * on Linux that is SIGSEGV with si_code SI_KERNEL and address 0. */
void x86_check_align16(struct x86_cpu *c, const struct x86_insn *i);

/* ---- lazy flags --------------------------------------------------------- */

static inline unsigned x86_log2size(unsigned size)
{
	return size == 8 ? 3 : size == 4 ? 2 : size == 2 ? 1 : 0;
}

static inline void x86_setlf(struct x86_cpu *c, unsigned kind, unsigned size, uint64_t dst,
			     uint64_t src, uint64_t res)
{
	c->lf_op = (kind << 2) | x86_log2size(size);
	c->lf_dst = dst;
	c->lf_src = src;
	c->lf_res = res;
}

uint32_t x86_flags(struct x86_cpu *c);	      /* the six arithmetic flags, materialised */
int x86_cond(struct x86_cpu *c, unsigned cc); /* condition code 0..15 (Jcc encoding) */
/* Set arithmetic flags eagerly: bits in mask take their value from val. */
void x86_set_flags(struct x86_cpu *c, uint32_t mask, uint32_t val);

/* ---- handler tables ------------------------------------------------------
 * Each semantics file registers its handlers by Zydis mnemonic; the decoder
 * looks them up.  A mnemonic with no handler decodes to the unsupported
 * handler, which stops the run with a report. */
void x86_int_register(x86_fn *tab);  /* int.c & co.: integer, control, stack */
void x86_int2_register(x86_fn *tab); /* int_*.c: mul/div, shifts, bits, atomics, flags ops */
void x86_str_register(x86_fn *tab);  /* string.c: movs/stos/lods/cmps/scas */
void x86_sse_register(x86_fn *tab);  /* sse*.c: SSE/SSE2/SSE3, MXCSR, MMX */
void x86_x87_register(x86_fn *tab);  /* x87*.c */
void x86_sys_register(x86_fn *tab);  /* sys.c: syscall, cpuid, rdtsc, fences, fxsave */

void x86_ctl_register(x86_fn *tab); /* ctl.c: jumps, calls, stack */

/* Hot forms get specialised handlers chosen at decode time. */
void x86_int_specialise(struct x86_insn *i);

/* The handler that reports an unimplemented instruction. */
void x86_h_unsupported(struct x86_cpu *c, const struct x86_insn *i);

#endif
