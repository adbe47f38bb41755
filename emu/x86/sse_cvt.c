/* sse_cvt.c — SSE/SSE2 conversions between integers, single and double
 * precision, including the MMX-operand forms (cvtpi2ps & co.).
 *
 * The host's own conversion instruction does the work (sse.h), so MXCSR
 * rounding, truncation, the integer indefinite (0x80000000 / 1 << 63) on
 * overflow and NaN, DAZ/FTZ and the exception flags are exact.
 */
#include "sse.h"

#define CVT(name, insn, msize)                                            \
	SSE_ASM2(op_##name, insn)                                         \
	static void h_##name(struct x86_cpu *c, const struct x86_insn *i) \
	{                                                                 \
		sse_op2(c, i, msize, op_##name);                          \
	}

/* Between single and double precision: a denormal source the processor
 * uses may need an assist, and so may a denormal result of a narrowing
 * one (out: its form, SSE_FP_*; -1: widening, no result is denormal). The
 * conversions to integers raise no denormal-operand exception (SDM vol.
 * 2, CVTPS2DQ and the others: invalid and precision only). */
#define CVT_FP(name, insn, msize, in, out)                                                    \
	SSE_ASM2(op_##name, insn)                                                             \
	static void h_##name(struct x86_cpu *c, const struct x86_insn *i)                     \
	{                                                                                     \
		unsigned d = i->op[0].reg;                                                    \
		__m128i s = sse_src(c, i, 1, msize), a = sse_xget(c, d), r = op_##name(a, s); \
		int den_in = sse_denormal(s, in), den_out = out >= 0 && sse_denormal(r, out); \
		sse_xput(c, d, r);                                                            \
		if (X86_UNLIKELY(den_in | den_out))                                           \
			x86_sse_fp_assist(c, op_##name, a, s, den_in, den_out);               \
	}

CVT_FP(cvtss2sd, "cvtss2sd", 4, SSE_FP_SS, -1)
CVT_FP(cvtsd2ss, "cvtsd2ss", 8, SSE_FP_SD, SSE_FP_SS)
CVT_FP(cvtps2pd, "cvtps2pd", 8, SSE_FP_PS2, -1)
CVT_FP(cvtpd2ps, "cvtpd2ps", 16, SSE_FP_PD, SSE_FP_PS2)
CVT(cvtdq2ps, "cvtdq2ps", 16)
CVT(cvtps2dq, "cvtps2dq", 16)
CVT(cvttps2dq, "cvttps2dq", 16)
CVT(cvtdq2pd, "cvtdq2pd", 8)
CVT(cvtpd2dq, "cvtpd2dq", 16)
CVT(cvttpd2dq, "cvttpd2dq", 16)

/* cvtsi2ss/cvtsi2sd xmm, r/m32 or r/m64: the low element is replaced, the
 * rest of the register kept. */
#define CVT_FROM_INT(name, insn)                                                        \
	static void h_##name(struct x86_cpu *c, const struct x86_insn *i)               \
	{                                                                               \
		unsigned d = i->op[0].reg;                                              \
		uint64_t v = sse_gpr_or_mem(c, i, 1, 4);                                \
		__m128i x = sse_xget(c, d);                                             \
		if (i->op[1].size == 8)                                                 \
			__asm__ volatile(insn "q %1, %0" : "+x"(x) : "r"(v));           \
		else                                                                    \
			__asm__ volatile(insn "l %1, %0" : "+x"(x) : "r"((uint32_t)v)); \
		sse_xput(c, d, x);                                                      \
	}

CVT_FROM_INT(cvtsi2ss, "cvtsi2ss")
CVT_FROM_INT(cvtsi2sd, "cvtsi2sd")

/* cvt(t)ss2si / cvt(t)sd2si r32/r64, xmm/m32|m64 */
#define CVT_TO_INT(name, insn, msize)                                        \
	static void h_##name(struct x86_cpu *c, const struct x86_insn *i)    \
	{                                                                    \
		__m128i s = sse_src(c, i, 1, msize);                         \
		if (i->op[0].size == 8) {                                    \
			uint64_t r;                                          \
			__asm__ volatile(insn " %1, %0" : "=r"(r) : "x"(s)); \
			x86_put_gpr(c, i->op[0].reg, 8, r);                  \
		} else {                                                     \
			uint32_t r;                                          \
			__asm__ volatile(insn " %1, %0" : "=r"(r) : "x"(s)); \
			x86_put_gpr(c, i->op[0].reg, 4, r);                  \
		}                                                            \
	}

CVT_TO_INT(cvtss2si, "cvtss2si", 4)
CVT_TO_INT(cvttss2si, "cvttss2si", 4)
CVT_TO_INT(cvtsd2si, "cvtsd2si", 8)
CVT_TO_INT(cvttsd2si, "cvttsd2si", 8)

/* ---- MMX-operand forms ----------------------------------------------------
 * Each is the SSE2 packed conversion restricted to two elements.  The
 * source vector carries zeros in the unused lanes (0 converts exactly and
 * raises nothing), so the flags are those of the two real elements.  An MMX
 * register operand switches the x87 unit to MMX mode (sse_mget/sse_mput);
 * a memory operand does not (SDM vol. 2, CVTPI2PS). */

/* Low 64 bits of an XMM register, or 8 bytes of memory. */
static inline __m128i src_lo64(struct x86_cpu *c, const struct x86_insn *i)
{
	if (i->op[1].kind == X86_OP_XMM)
		return _mm_move_epi64(sse_xget(c, i->op[1].reg));
	return sse_src(c, i, 1, 8);
}

/* cvtpi2ps xmm, mm/m64: the high half of xmm is kept */
static void h_cvtpi2ps(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_xmm *d = &c->xmm[i->op[0].reg];
	__m128i r = op_cvtdq2ps(_mm_setzero_si128(), sse_src(c, i, 1, 8));

	d->q[0] = (uint64_t)_mm_cvtsi128_si64(r);
}

/* cvtpi2pd xmm, mm/m64 */
static void h_cvtpi2pd(struct x86_cpu *c, const struct x86_insn *i)
{
	sse_xput(c, i->op[0].reg, op_cvtdq2pd(_mm_setzero_si128(), sse_src(c, i, 1, 8)));
}

/* cvt(t)ps2pi mm, xmm/m64 */
static void h_cvtps2pi(struct x86_cpu *c, const struct x86_insn *i)
{
	__m128i r = op_cvtps2dq(_mm_setzero_si128(), src_lo64(c, i));

	sse_mput(c, i->op[0].reg, (uint64_t)_mm_cvtsi128_si64(r));
}

static void h_cvttps2pi(struct x86_cpu *c, const struct x86_insn *i)
{
	__m128i r = op_cvttps2dq(_mm_setzero_si128(), src_lo64(c, i));

	sse_mput(c, i->op[0].reg, (uint64_t)_mm_cvtsi128_si64(r));
}

/* cvt(t)pd2pi mm, xmm/m128 (aligned) */
static void h_cvtpd2pi(struct x86_cpu *c, const struct x86_insn *i)
{
	__m128i r = op_cvtpd2dq(_mm_setzero_si128(), sse_src(c, i, 1, 16));

	sse_mput(c, i->op[0].reg, (uint64_t)_mm_cvtsi128_si64(r));
}

static void h_cvttpd2pi(struct x86_cpu *c, const struct x86_insn *i)
{
	__m128i r = op_cvttpd2dq(_mm_setzero_si128(), sse_src(c, i, 1, 16));

	sse_mput(c, i->op[0].reg, (uint64_t)_mm_cvtsi128_si64(r));
}

void x86_sse_cvt_register(x86_fn *tab)
{
#define R(m, h) tab[ZYDIS_MNEMONIC_##m] = h_##h
	R(CVTSS2SD, cvtss2sd);
	R(CVTSD2SS, cvtsd2ss);
	R(CVTPS2PD, cvtps2pd);
	R(CVTPD2PS, cvtpd2ps);
	R(CVTDQ2PS, cvtdq2ps);
	R(CVTPS2DQ, cvtps2dq);
	R(CVTTPS2DQ, cvttps2dq);
	R(CVTDQ2PD, cvtdq2pd);
	R(CVTPD2DQ, cvtpd2dq);
	R(CVTTPD2DQ, cvttpd2dq);
	R(CVTSI2SS, cvtsi2ss);
	R(CVTSI2SD, cvtsi2sd);
	R(CVTSS2SI, cvtss2si);
	R(CVTTSS2SI, cvttss2si);
	R(CVTSD2SI, cvtsd2si);
	R(CVTTSD2SI, cvttsd2si);
	R(CVTPI2PS, cvtpi2ps);
	R(CVTPI2PD, cvtpi2pd);
	R(CVTPS2PI, cvtps2pi);
	R(CVTTPS2PI, cvttps2pi);
	R(CVTPD2PI, cvtpd2pi);
	R(CVTTPD2PI, cvttpd2pi);
#undef R
}
