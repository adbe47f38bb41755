/* sse.h — what the SSE/SSE2/SSE3/MMX semantics files (sse*.c, mmx.c)
 * share: operand access on 128-bit values and the registration of each
 * file's handlers.  Private to those files (and their unit tests).
 *
 * Values travel as __m128i.  Floating-point work is done by executing the
 * very same instruction on the host inside `asm volatile` (the host MXCSR is
 * the guest's while x86_run() runs), so rounding, DAZ/FTZ, NaN selection and
 * the sticky exception flags are those of the processor; volatile keeps the
 * compiler from folding, dropping or moving an operation across ldmxcsr.
 *
 * MMX forms run on the low 64 bits of an XMM value: no host MMX instruction
 * is executed, so the host x87 state the x87 handlers rely on is untouched.
 */
#ifndef VPMU_X86_SSE_H
#define VPMU_X86_SSE_H

#include <immintrin.h>

#include <Zydis/Zydis.h>

#include "ops.h"

#define SSE_INLINE static inline __attribute__((always_inline))

/* SI_KERNEL: the si_code Linux gives a #GP (ldmxcsr with reserved bits). */
#define SSE_SI_KERNEL 0x80

/* ---- register files ------------------------------------------------------ */

SSE_INLINE __m128i sse_ldx(const x86_xmm *x)
{
	return _mm_loadu_si128((const __m128i *)x);
}

SSE_INLINE void sse_stx(x86_xmm *x, __m128i v)
{
	_mm_storeu_si128((__m128i *)x, v);
}

SSE_INLINE __m128i sse_xget(const struct x86_cpu *c, unsigned reg)
{
	return sse_ldx(&c->xmm[reg]);
}

SSE_INLINE void sse_xput(struct x86_cpu *c, unsigned reg, __m128i v)
{
	sse_stx(&c->xmm[reg], v);
}

/* An MMX instruction makes every x87 register valid and TOP 0 (SDM vol. 1,
 * 9.5.1); emms empties the tag word.  MMX state itself lives in c->mmx[]. */
SSE_INLINE void sse_mmx_enter(struct x86_cpu *c)
{
	c->fpu.top = 0;
	c->fpu.tag = 0xff;
}

SSE_INLINE uint64_t sse_mget(struct x86_cpu *c, unsigned reg)
{
	sse_mmx_enter(c);
	return c->mmx[reg & 7];
}

SSE_INLINE void sse_mput(struct x86_cpu *c, unsigned reg, uint64_t v)
{
	sse_mmx_enter(c);
	c->mmx[reg & 7] = v;
}

/* ---- guest memory -------------------------------------------------------- */

/* Address of the memory operand of a legacy-SSE instruction whose 16-byte
 * operand must be aligned (SDM vol. 2, 2.4 "exception type" tables). */
SSE_INLINE uint64_t sse_ea16(struct x86_cpu *c, const struct x86_insn *i)
{
	uint64_t a = x86_ea(c, i);
	if (X86_UNLIKELY(a & 15))
		x86_check_align16(c, i);
	return a;
}

/* Load size (4, 8 or 16) bytes at a into the low end of a vector, rest 0. */
SSE_INLINE __m128i sse_ldm(uint64_t a, unsigned size)
{
	switch (size) {
	case 2:
		return _mm_cvtsi32_si128(x86_ld16(a));
	case 4:
		return _mm_cvtsi32_si128((int)x86_ld32(a));
	case 8:
		return _mm_cvtsi64_si128((long long)x86_ld64(a));
	default: {
		__m128i v;
		x86_read(&v, a, 16);
		return v;
	}
	}
}

SSE_INLINE void sse_stm(uint64_t a, unsigned size, __m128i v)
{
	switch (size) {
	case 4:
		x86_st32(a, (uint32_t)_mm_cvtsi128_si32(v));
		break;
	case 8:
		x86_st64(a, (uint64_t)_mm_cvtsi128_si64(v));
		break;
	default:
		x86_write(a, &v, 16);
		break;
	}
}

/* Source operand k of an XMM-destination instruction: an XMM register (all
 * 16 bytes), an MMX register (low 8), or msize bytes of memory (16: aligned
 * as legacy SSE requires). */
SSE_INLINE __m128i sse_src(struct x86_cpu *c, const struct x86_insn *i, int k, unsigned msize)
{
	const struct x86_op *o = &i->op[k];

	if (X86_LIKELY(o->kind == X86_OP_XMM))
		return sse_xget(c, o->reg);
	if (o->kind == X86_OP_MMX)
		return _mm_cvtsi64_si128((long long)sse_mget(c, o->reg));
	if (msize == 16)
		return sse_ldm(sse_ea16(c, i), 16);
	return sse_ldm(x86_ea(c, i), msize);
}

/* As sse_src, for the few instructions without an alignment requirement
 * (movups, movupd, movdqu, lddqu). */
SSE_INLINE __m128i sse_src_u(struct x86_cpu *c, const struct x86_insn *i, int k, unsigned msize)
{
	const struct x86_op *o = &i->op[k];

	if (X86_LIKELY(o->kind == X86_OP_XMM))
		return sse_xget(c, o->reg);
	return sse_ldm(x86_ea(c, i), msize);
}

/* An integer from a GPR or memory operand (size 4 or 8; memory size from
 * the operand, else def). */
SSE_INLINE uint64_t sse_gpr_or_mem(struct x86_cpu *c, const struct x86_insn *i, int k, unsigned def)
{
	const struct x86_op *o = &i->op[k];
	unsigned size = o->size ? o->size : def;

	if (o->kind == X86_OP_GPR)
		return c->r[o->reg] & x86_mask(size);
	return x86_ld(x86_ea(c, i), size);
}

/* ---- two-operand instructions -------------------------------------------
 * op[0] = op[0] OP op[1] with op[1] a register or msize bytes of memory.
 * f is an always-inline function wrapping the host instruction. */
typedef __m128i (*sse_op2_fn)(__m128i d, __m128i s);

SSE_INLINE void sse_op2(struct x86_cpu *c, const struct x86_insn *i, unsigned msize, sse_op2_fn f)
{
	unsigned d = i->op[0].reg;
	__m128i s = sse_src(c, i, 1, msize);

	sse_xput(c, d, f(sse_xget(c, d), s));
}

/* How an MMX form relates to the XMM form run on its 64-bit operands. */
enum {
	SSE_MMX_LANE,	/* lane-wise: the low 64 bits are the MMX result */
	SSE_MMX_UNPCKH, /* high unpack: the high 64 bits of the low unpack */
	SSE_MMX_PACK,	/* pack: run on (d | s << 64) twice, low 64 bits */
};

/* Integer instruction with an MMX form: op[0] is XMM or MMX; op[1] a
 * register, memory (16 or 8 bytes) or, for shifts, an immediate count. */
SSE_INLINE void sse_iop2(struct x86_cpu *c, const struct x86_insn *i, int mmx_mode, sse_op2_fn f)
{
	const struct x86_op *o = &i->op[1];
	unsigned d = i->op[0].reg;
	__m128i s, r;

	if (X86_LIKELY(i->op[0].kind == X86_OP_XMM)) {
		if (o->kind == X86_OP_IMM)
			s = _mm_cvtsi32_si128((int)(i->imm & 0xff));
		else
			s = sse_src(c, i, 1, 16);
		sse_xput(c, d, f(sse_xget(c, d), s));
		return;
	}
	if (o->kind == X86_OP_IMM)
		s = _mm_cvtsi32_si128((int)(i->imm & 0xff));
	else if (o->kind == X86_OP_MMX)
		s = _mm_cvtsi64_si128((long long)c->mmx[o->reg & 7]);
	else
		s = sse_ldm(x86_ea(c, i), 8);
	r = _mm_cvtsi64_si128((long long)c->mmx[d & 7]);
	switch (mmx_mode) {
	case SSE_MMX_UNPCKH:
		r = _mm_unpackhi_epi64(f(r, s), r);
		break;
	case SSE_MMX_PACK:
		r = _mm_unpacklo_epi64(r, s);
		r = f(r, r);
		break;
	default:
		r = f(r, s);
		break;
	}
	sse_mput(c, d, (uint64_t)_mm_cvtsi128_si64(r));
}

/* Define `static __m128i name(d, s)` running "insn %s, %d" on the host.
 * volatile: floating-point instructions read and write MXCSR. */
#define SSE_ASM2(name, insn)                                         \
	SSE_INLINE __m128i name(__m128i d, __m128i s)                \
	{                                                            \
		__asm__ volatile(insn " %1, %0" : "+x"(d) : "x"(s)); \
		return d;                                            \
	}

/* ---- assists (x86.h: X86_ASSIST_SSE_*) ----------------------------------
 * The elements a floating-point operation reads or writes: a single, a
 * double, the low two singles, four singles, two doubles. */
enum { SSE_FP_SS, SSE_FP_SD, SSE_FP_PS2, SSE_FP_PS, SSE_FP_PD };

SSE_INLINE int sse_den32(uint32_t x)
{
	return (x & 0x7fffffffu) - 1 < 0x007fffffu; /* exponent 0, fraction not */
}

SSE_INLINE int sse_den64(uint64_t x)
{
	return (x & ~(1ull << 63)) - 1 < 0x000fffffffffffffull;
}

/* Whether an element of v that form covers is denormal. */
SSE_INLINE int sse_denormal(__m128i v, int form)
{
	uint64_t lo = (uint64_t)_mm_cvtsi128_si64(v), hi;

	switch (form) {
	case SSE_FP_SS:
		return sse_den32((uint32_t)lo);
	case SSE_FP_SD:
		return sse_den64(lo);
	case SSE_FP_PS2:
		return sse_den32((uint32_t)lo) | sse_den32((uint32_t)(lo >> 32));
	}
	hi = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v));
	if (form == SSE_FP_PD)
		return sse_den64(lo) | sse_den64(hi);
	return sse_den32((uint32_t)lo) | sse_den32((uint32_t)(lo >> 32)) | sse_den32((uint32_t)hi) |
	       sse_den32((uint32_t)(hi >> 32));
}

/* Whether the processor used a denormal source: its denormal-operand flag
 * (DE, MXCSR bit 1) says so, not under DAZ (SDM vol. 1, 10.2.3.4), nor
 * where another exception comes first (a zero divisor).  The caller runs
 * the operation again between sse_de_clear() and sse_de_raised(), which
 * restores MXCSR as the first run left it. */
SSE_INLINE unsigned sse_de_clear(void)
{
	unsigned csr = __builtin_ia32_stmxcsr();

	__builtin_ia32_ldmxcsr(csr & ~2u);
	return csr;
}

SSE_INLINE int sse_de_raised(unsigned csr)
{
	int de = (__builtin_ia32_stmxcsr() & 2) != 0;

	__builtin_ia32_ldmxcsr(csr);
	return de;
}

/* Note the assists of f(a, s), which has run: in, a source element was
 * denormal (used, if f run again with DE clear raises it); out, a result
 * element was (FTZ clear). */
void x86_sse_fp_assist(struct x86_cpu *c, sse_op2_fn f, __m128i a, __m128i s, int in, int out);

/* ---- per-file registration (called by x86_sse_register) ---------------- */
void x86_sse_move_register(x86_fn *tab);
void x86_sse_int_register(x86_fn *tab);
void x86_sse_shuf_register(x86_fn *tab);
void x86_sse_fp_register(x86_fn *tab);
void x86_sse_cvt_register(x86_fn *tab);

/* movsd and cmpsd: Zydis gives the SSE2 forms and the string forms (A5,
 * A7) one mnemonic each.  These handlers own the table slots and pass the
 * string forms (no explicit operands) to x86_str_movsd/x86_str_cmpsd. */
void x86_sse_movsd(struct x86_cpu *c, const struct x86_insn *i);
void x86_sse_cmpsd(struct x86_cpu *c, const struct x86_insn *i);

#endif
