/* sse.c — SSE, SSE2, SSE3 and MMX: MXCSR, state and cache-control
 * instructions, and the registration of every handler of sse_*.c.
 *
 * Implemented (legacy-SSE encodings, XMM and, where the ISA has them, MMX
 * operands):
 *   moves (sse_move.c)   movd movq movdqa movdqu movaps movups movapd movupd
 *                        movss movsd movhps movlps movhpd movlpd movhlps
 *                        movlhps movntdq movntps movntpd movnti movntq
 *                        maskmovdqu maskmovq movmskps movmskpd pmovmskb
 *                        movq2dq movdq2q lddqu movddup movshdup movsldup
 *   integer (sse_int.c)  padd/psub b w d q, padds/paddus/psubs/psubus b w,
 *                        pmullw pmulhw pmulhuw pmuludq pmaddwd pavgb pavgw
 *                        psadbw pminub pmaxub pminsw pmaxsw, pcmpeq/pcmpgt
 *                        b w d, pand pandn por pxor (and the andps/andpd/
 *                        andnps/andnpd/orps/orpd/xorps/xorpd bit operations),
 *                        psll/psrl w d q and psra w d by imm8 and by register
 *   shuffles (sse_shuf.c) packsswb packuswb packssdw, punpckl/punpckh bw wd
 *                        dq qdq, unpcklps unpckhps unpcklpd unpckhpd, pshufd
 *                        pshufhw pshuflw pshufw shufps shufpd, pinsrw pextrw,
 *                        pslldq psrldq
 *   floating point (sse_fp.c) add sub mul div min max sqrt ss/sd/ps/pd,
 *                        rcpss rcpps rsqrtss rsqrtps, cmpps cmppd cmpss cmpsd
 *                        (predicates 0-7), comiss comisd ucomiss ucomisd,
 *                        addsubps addsubpd haddps haddpd hsubps hsubpd
 *   conversions (sse_cvt.c) cvtsi2ss cvtsi2sd (32/64-bit), cvt(t)ss2si
 *                        cvt(t)sd2si (32/64-bit), cvtss2sd cvtsd2ss cvtps2pd
 *                        cvtpd2ps cvtdq2ps cvtps2dq cvttps2dq cvtdq2pd
 *                        cvtpd2dq cvttpd2dq cvtpi2ps cvt(t)ps2pi cvtpi2pd
 *                        cvt(t)pd2pi
 *   here                 ldmxcsr stmxcsr emms sfence lfence mfence clflush
 *                        prefetchnta prefetcht0/1/2 prefetchw prefetch
 *
 * Deliberately not implemented: SSSE3, SSE4.1/4.2, AES, PCLMUL, AVX and
 * later (not reported by our CPUID, so programs do not select them; the
 * one SSE4.1 form that costs nothing, pextrw to memory, is accepted), the
 * AMD extensions (SSE4a, 3DNow! arithmetic), the 3DNow!/MMX-extension
 * pmulhrw & co., and fisttp (x87).  A program that uses one stops with the
 * unsupported-instruction report.
 *
 * The MMX registers are kept apart from the x87 stack (x86.h); an MMX
 * instruction still sets TOP to 0 and marks every tag valid, and emms
 * empties the tag word, so fxsave shows what the processor would.
 */
#include <signal.h>

#include "sse.h"

/* Bits of MXCSR a ldmxcsr may set: MXCSR_MASK 0xffff, DAZ included, as on
 * the emulated Pentium 4 (SDM vol. 1, 11.6.6); others raise #GP. */
#define SSE_MXCSR_MASK 0xffffu

static void h_ldmxcsr(struct x86_cpu *c, const struct x86_insn *i)
{
	uint32_t v = x86_ld32(x86_ea(c, i));

	if (v & ~SSE_MXCSR_MASK)
		x86_raise(c, SIGSEGV, SSE_SI_KERNEL, 0);
	/* the host register is the guest's while x86_run() runs */
	__asm__ volatile("ldmxcsr %0" : : "m"(v) : "memory");
}

static void h_stmxcsr(struct x86_cpu *c, const struct x86_insn *i)
{
	uint32_t v;

	__asm__ volatile("stmxcsr %0" : "=m"(v) : : "memory");
	x86_st32(x86_ea(c, i), v);
}

static void h_emms(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)i;
	c->fpu.tag = 0;
}

/* Fences: the host's own, so guest memory ordering holds whatever threads
 * the host runs the guest on. */
static void h_sfence(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)c;
	(void)i;
	__asm__ volatile("sfence" : : : "memory");
}

static void h_lfence(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)c;
	(void)i;
	__asm__ volatile("lfence" : : : "memory");
}

static void h_mfence(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)c;
	(void)i;
	__asm__ volatile("mfence" : : : "memory");
}

/* clflush m8: no architectural effect, but it checks the address like a
 * read (SDM vol. 2, CLFLUSH), so an unmapped line faults as natively. */
static X86_GUEST_MEM void h_clflush(struct x86_cpu *c, const struct x86_insn *i)
{
	const volatile char *p = (const volatile char *)x86_ea(c, i);

	__asm__ volatile("clflush %0" : : "m"(*p) : "memory");
}

/* Prefetches are hints that never fault. */
static void h_prefetch(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)c;
	(void)i;
}

void x86_sse_register(x86_fn *tab)
{
	x86_sse_move_register(tab);
	x86_sse_int_register(tab);
	x86_sse_shuf_register(tab);
	x86_sse_fp_register(tab);
	x86_sse_cvt_register(tab);
	tab[ZYDIS_MNEMONIC_LDMXCSR] = h_ldmxcsr;
	tab[ZYDIS_MNEMONIC_STMXCSR] = h_stmxcsr;
	tab[ZYDIS_MNEMONIC_EMMS] = h_emms;
	tab[ZYDIS_MNEMONIC_SFENCE] = h_sfence;
	tab[ZYDIS_MNEMONIC_LFENCE] = h_lfence;
	tab[ZYDIS_MNEMONIC_MFENCE] = h_mfence;
	tab[ZYDIS_MNEMONIC_CLFLUSH] = h_clflush;
	tab[ZYDIS_MNEMONIC_PREFETCHNTA] = h_prefetch;
	tab[ZYDIS_MNEMONIC_PREFETCHT0] = h_prefetch;
	tab[ZYDIS_MNEMONIC_PREFETCHT1] = h_prefetch;
	tab[ZYDIS_MNEMONIC_PREFETCHT2] = h_prefetch;
	tab[ZYDIS_MNEMONIC_PREFETCHW] = h_prefetch;
	tab[ZYDIS_MNEMONIC_PREFETCH] = h_prefetch;
}
