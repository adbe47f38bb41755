/* sse_fp.c — SSE/SSE2/SSE3 floating-point arithmetic, comparisons and the
 * flag-setting scalar compares.
 *
 * Every operation executes the same instruction on the host (sse.h): the
 * host MXCSR is the guest's inside x86_run(), so rounding, DAZ/FTZ, the
 * QNaN/SNaN rules, the minps/maxps "second operand wins" quirk and the
 * sticky exception flags are those of the processor.  A memory source is
 * read first (4, 8 or 16 bytes as the form says) and the register form of
 * the instruction is run on it; for scalar forms only the low element of
 * the source takes part, so that is the same operation.
 */
#include "int2.h"
#include "sse.h"

/* ---- assists -------------------------------------------------------------
 * Whether an operation's destination is also a source (FP_DST_IN) and its
 * result can underflow (FP_UNDER: the SDM's list for #U, vol. 1,
 * 11.5.2.5). */
enum { FP_DST_IN = 1, FP_UNDER = 2 };

void x86_sse_fp_assist(struct x86_cpu *c, sse_op2_fn f, __m128i a, __m128i s, int in, int out)
{
	unsigned kinds = out ? X86_ASSIST_SSE_OUT : 0;

	if (in) {
		unsigned csr = sse_de_clear();
		f(a, s);
		if (sse_de_raised(csr))
			kinds |= X86_ASSIST_SSE_IN;
	}
	if (kinds)
		x86_assist_note(c, kinds);
}

/* sse_op2 for an arithmetic operation of form (SSE_FP_*), noting its
 * assists. */
SSE_INLINE void fp_op2(struct x86_cpu *c, const struct x86_insn *i, unsigned msize, sse_op2_fn f,
		       int form, int io)
{
	unsigned d = i->op[0].reg;
	__m128i s = sse_src(c, i, 1, msize), a = sse_xget(c, d), r = f(a, s);
	int in = sse_denormal(s, form) | ((io & FP_DST_IN) && sse_denormal(a, form));
	int out = (io & FP_UNDER) && sse_denormal(r, form);

	sse_xput(c, d, r);
	if (X86_UNLIKELY(in | out))
		x86_sse_fp_assist(c, f, a, s, in, out);
}

#define FOP(name, insn, msize, form, io)                                  \
	SSE_ASM2(op_##name, insn)                                         \
	static void h_##name(struct x86_cpu *c, const struct x86_insn *i) \
	{                                                                 \
		fp_op2(c, i, msize, op_##name, form, io);                 \
	}

#define FOP4(op, io)                             \
	FOP(op##ss, #op "ss", 4, SSE_FP_SS, io)  \
	FOP(op##sd, #op "sd", 8, SSE_FP_SD, io)  \
	FOP(op##ps, #op "ps", 16, SSE_FP_PS, io) \
	FOP(op##pd, #op "pd", 16, SSE_FP_PD, io)

/* the approximations take no assist: they read a denormal as zero */
#define FOP_APPROX(name, insn, msize)                                     \
	SSE_ASM2(op_##name, insn)                                         \
	static void h_##name(struct x86_cpu *c, const struct x86_insn *i) \
	{                                                                 \
		sse_op2(c, i, msize, op_##name);                          \
	}

FOP4(add, FP_DST_IN | FP_UNDER)
FOP4(sub, FP_DST_IN | FP_UNDER)
FOP4(mul, FP_DST_IN | FP_UNDER)
FOP4(div, FP_DST_IN | FP_UNDER)
FOP4(min, FP_DST_IN)
FOP4(max, FP_DST_IN)
FOP4(sqrt, 0)
FOP_APPROX(rcpss, "rcpss", 4)
FOP_APPROX(rcpps, "rcpps", 16)
FOP_APPROX(rsqrtss, "rsqrtss", 4)
FOP_APPROX(rsqrtps, "rsqrtps", 16)
FOP(addsubps, "addsubps", 16, SSE_FP_PS, FP_DST_IN | FP_UNDER)
FOP(addsubpd, "addsubpd", 16, SSE_FP_PD, FP_DST_IN | FP_UNDER)
FOP(haddps, "haddps", 16, SSE_FP_PS, FP_DST_IN | FP_UNDER)
FOP(haddpd, "haddpd", 16, SSE_FP_PD, FP_DST_IN | FP_UNDER)
FOP(hsubps, "hsubps", 16, SSE_FP_PS, FP_DST_IN | FP_UNDER)
FOP(hsubpd, "hsubpd", 16, SSE_FP_PD, FP_DST_IN | FP_UNDER)

/* cmpps/cmppd/cmpss/cmpsd xmm, xmm/m, imm8: the legacy-SSE encodings use
 * imm8[2:0] only (SDM vol. 2, CMPPS "Operation"); asm needs the predicate
 * as a constant, hence one instruction per predicate. */
#define CMP_CASE(insn, n)                                                     \
	case n:                                                               \
		__asm__ volatile(insn " $" #n ", %1, %0" : "+x"(d) : "x"(s)); \
		break
#define CMP_FN(name, insn)                                        \
	SSE_INLINE __m128i name(__m128i d, __m128i s, unsigned p) \
	{                                                         \
		switch (p & 7) {                                  \
			CMP_CASE(insn, 0);                        \
			CMP_CASE(insn, 1);                        \
			CMP_CASE(insn, 2);                        \
			CMP_CASE(insn, 3);                        \
			CMP_CASE(insn, 4);                        \
			CMP_CASE(insn, 5);                        \
			CMP_CASE(insn, 6);                        \
			CMP_CASE(insn, 7);                        \
		}                                                 \
		return d;                                         \
	}

CMP_FN(cmp_ps, "cmpps")
CMP_FN(cmp_pd, "cmppd")
CMP_FN(cmp_ss, "cmpss")
CMP_FN(cmp_sd, "cmpsd")

/* A compare reads both operands, so a denormal in either may need an
 * assist (its result is a mask: none underflows). */
#define CMP_H(name, fn, msize, form)                                               \
	static void h_##name(struct x86_cpu *c, const struct x86_insn *i)          \
	{                                                                          \
		unsigned d = i->op[0].reg, p = (unsigned)i->imm;                   \
		__m128i a = sse_xget(c, d), s = sse_src(c, i, 1, msize);           \
		sse_xput(c, d, fn(a, s, p));                                       \
		if (X86_UNLIKELY(sse_denormal(a, form) | sse_denormal(s, form))) { \
			unsigned csr = sse_de_clear();                             \
			fn(a, s, p);                                               \
			if (sse_de_raised(csr))                                    \
				x86_assist_note(c, X86_ASSIST_SSE_IN);             \
		}                                                                  \
	}

CMP_H(cmpps, cmp_ps, 16, SSE_FP_PS)
CMP_H(cmppd, cmp_pd, 16, SSE_FP_PD)
CMP_H(cmpss, cmp_ss, 4, SSE_FP_SS)
CMP_H(cmpsd, cmp_sd, 8, SSE_FP_SD)

void x86_sse_cmpsd(struct x86_cpu *c, const struct x86_insn *i)
{
	if (X86_UNLIKELY(i->nops == 0)) { /* A7: the string cmpsd has no explicit operands */
		x86_str_cmpsd(c, i);
		return;
	}
	h_cmpsd(c, i);
}

/* comiss/ucomiss/comisd/ucomisd xmm, xmm/m: ZF, PF, CF from the compare
 * (unordered sets all three), OF, SF, AF cleared (SDM vol. 2, COMISS); a
 * denormal operand may need an assist, as for cmpps. */
#define COMI(name, insn, msize, form)                                               \
	SSE_INLINE unsigned op_##name(__m128i a, __m128i b)                         \
	{                                                                           \
		uint8_t z, p, cf;                                                   \
		__asm__ volatile(insn " %4, %3\n\tsetz %0\n\tsetp %1\n\tsetc %2"    \
				 : "=r"(z), "=r"(p), "=r"(cf)                       \
				 : "x"(a), "x"(b)                                   \
				 : "cc");                                           \
		return (z ? X86_ZF : 0) | (p ? X86_PF : 0) | (cf ? X86_CF : 0);     \
	}                                                                           \
	static void h_##name(struct x86_cpu *c, const struct x86_insn *i)           \
	{                                                                           \
		__m128i a = sse_xget(c, i->op[0].reg), b = sse_src(c, i, 1, msize); \
		x86_set_flags(c, X86_ARITH, op_##name(a, b));                       \
		if (X86_UNLIKELY(sse_denormal(a, form) | sse_denormal(b, form))) {  \
			unsigned csr = sse_de_clear();                              \
			op_##name(a, b);                                            \
			if (sse_de_raised(csr))                                     \
				x86_assist_note(c, X86_ASSIST_SSE_IN);              \
		}                                                                   \
	}

COMI(comiss, "comiss", 4, SSE_FP_SS)
COMI(ucomiss, "ucomiss", 4, SSE_FP_SS)
COMI(comisd, "comisd", 8, SSE_FP_SD)
COMI(ucomisd, "ucomisd", 8, SSE_FP_SD)

void x86_sse_fp_register(x86_fn *tab)
{
#define R(m, h) tab[ZYDIS_MNEMONIC_##m] = h_##h
#define R4(M, m)         \
	R(M##SS, m##ss); \
	R(M##SD, m##sd); \
	R(M##PS, m##ps); \
	R(M##PD, m##pd)
	R4(ADD, add);
	R4(SUB, sub);
	R4(MUL, mul);
	R4(DIV, div);
	R4(MIN, min);
	R4(MAX, max);
	R4(SQRT, sqrt);
	R(RCPSS, rcpss);
	R(RCPPS, rcpps);
	R(RSQRTSS, rsqrtss);
	R(RSQRTPS, rsqrtps);
	R(ADDSUBPS, addsubps);
	R(ADDSUBPD, addsubpd);
	R(HADDPS, haddps);
	R(HADDPD, haddpd);
	R(HSUBPS, hsubps);
	R(HSUBPD, hsubpd);
	R(CMPPS, cmpps);
	R(CMPPD, cmppd);
	R(CMPSS, cmpss);
	R(COMISS, comiss);
	R(UCOMISS, ucomiss);
	R(COMISD, comisd);
	R(UCOMISD, ucomisd);
#undef R4
#undef R
	tab[ZYDIS_MNEMONIC_CMPSD] = x86_sse_cmpsd;
}
