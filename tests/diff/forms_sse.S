/* forms_sse.S — SSE, SSE2 and SSE3 forms: floating-point arithmetic,
 * compares and conversions, moves, shuffles, packed integer operations,
 * MXCSR and fxsave/fxrstor.  Inputs are random bits mixed with NaNs,
 * infinities, denormals and conversion limits, under random rounding modes,
 * DAZ and FTZ; MXCSR (exception flags included) is compared after each.
 *
 * Register conventions: destination xmm1, source xmm2 or (%rbx) (16-byte
 * aligned unless the form says otherwise).
 */
#include "forms.h"

/* ---- floating-point arithmetic ------------------------------------------------- */

	.irp op, add, sub, mul, div, min, max, sqrt
	.irp t, ps, pd, ss, sd
	A \op\t %xmm2, %xmm1
	AM \op\t (%rbx), %xmm1
	.endr
	.endr
	A addps %xmm9, %xmm12
	A mulsd %xmm15, %xmm8
	A divpd %xmm1, %xmm1

	/* approximations: the SDM bounds the error (1.5 * 2^-12) */
	F FL_ALL, O_APPROX | O_PS, 0, rcpps %xmm2, %xmm1
	F FL_ALL, O_APPROX | O_PS | O_MEM, 0, rcpps (%rbx), %xmm1
	F FL_ALL, O_APPROX | O_PS, 0, rsqrtps %xmm2, %xmm1
	F FL_ALL, O_APPROX | O_PS | O_MEM, 0, rsqrtps (%rbx), %xmm1
	F FL_ALL, O_APPROX, 0, rcpss %xmm2, %xmm1
	F FL_ALL, O_APPROX | O_MEM, 0, rcpss (%rbx), %xmm1
	F FL_ALL, O_APPROX, 0, rsqrtss %xmm2, %xmm1
	F FL_ALL, O_APPROX | O_MEM, 0, rsqrtss (%rbx), %xmm1

	.irp op, and, andn, or, xor
	.irp t, ps, pd
	A \op\t %xmm2, %xmm1
	AM \op\t (%rbx), %xmm1
	.endr
	.endr
	A xorps %xmm1, %xmm1

	/* SSE3 */
	.irp op, addsubps, addsubpd, haddps, haddpd, hsubps, hsubpd, movddup, movshdup, movsldup
	A \op %xmm2, %xmm1
	AM \op (%rbx), %xmm1
	.endr
	AM movddup 8(%rbx), %xmm1
	AM lddqu (%rbx), %xmm1
	AM lddqu 3(%rbx), %xmm1

/* ---- compares --------------------------------------------------------------------- */

	.irp t, ps, pd, ss, sd
	.irp p, 0, 1, 2, 3, 4, 5, 6, 7
	A cmp\t $\p, %xmm2, %xmm1
	.endr
	AM cmp\t $1, (%rbx), %xmm1
	AM cmp\t $4, (%rbx), %xmm1
	.endr
	/* ZF PF CF from the compare, OF SF AF cleared */
	.irp op, comiss, ucomiss, comisd, ucomisd
	A \op %xmm2, %xmm1
	AM \op (%rbx), %xmm1
	.endr

/* ---- conversions -------------------------------------------------------------------- */

	.irp t, ss, sd
	A cvtsi2\t\()l %ecx, %xmm1
	A cvtsi2\t\()q %rcx, %xmm1
	AM cvtsi2\t\()l (%rbx), %xmm1
	AM cvtsi2\t\()q (%rbx), %xmm1
	A cvt\t\()2si %xmm2, %edx
	A cvt\t\()2si %xmm2, %rdx
	A cvtt\t\()2si %xmm2, %edx
	A cvtt\t\()2si %xmm2, %rdx
	AM cvt\t\()2si (%rbx), %edx
	AM cvtt\t\()2si (%rbx), %rdx
	.endr
	.irp op, cvtss2sd, cvtsd2ss, cvtps2pd, cvtpd2ps, cvtdq2ps, cvtps2dq, cvttps2dq, cvtdq2pd, cvtpd2dq, cvttpd2dq
	A \op %xmm2, %xmm1
	AM \op (%rbx), %xmm1
	.endr

/* ---- moves ------------------------------------------------------------------------------ */

	.irp op, movaps, movups, movapd, movupd, movdqa, movdqu
	A \op %xmm2, %xmm1
	AM \op (%rbx), %xmm1
	AM \op %xmm1, 16(%rbx)
	.endr
	AM movups 1(%rbx), %xmm1
	AM movupd %xmm1, 5(%rbx)
	AM movdqu 3(%rbx), %xmm1
	AM movdqu %xmm11, 7(%rbx)
	/* misaligned 16-byte operands of aligned forms: #GP on both sides */
	F FL_ALL, O_MEM | O_FAULT, 0, movaps 8(%rbx), %xmm1
	F FL_ALL, O_MEM | O_FAULT, 0, movdqa %xmm1, 8(%rbx)
	F FL_ALL, O_MEM | O_FAULT, 0, addps 4(%rbx), %xmm1
	F FL_ALL, O_MEM | O_FAULT, 0, pxor 8(%rbx), %xmm1

	.irp op, movss, movsd
	A \op %xmm2, %xmm1
	AM \op (%rbx), %xmm1
	AM \op %xmm1, 4(%rbx)
	.endr
	A movd %ecx, %xmm1
	AM movd (%rbx), %xmm1
	A movd %xmm1, %edx
	AM movd %xmm1, (%rbx)
	A movq %rcx, %xmm1
	A movq %xmm1, %rdx
	AM movq (%rbx), %xmm1
	AM movq %xmm1, (%rbx)
	A movq %xmm2, %xmm1
	A movq %r10, %xmm13
	.irp op, movlps, movhps, movlpd, movhpd
	AM \op (%rbx), %xmm1
	AM \op %xmm1, 8(%rbx)
	.endr
	A movhlps %xmm2, %xmm1
	A movlhps %xmm2, %xmm1
	AM movntps %xmm1, (%rbx)
	AM movntpd %xmm1, (%rbx)
	AM movntdq %xmm1, (%rbx)
	F FL_ALL, 0, CLS(C_MASKMOV, 0, 0), maskmovdqu %xmm2, %xmm1
	A movmskps %xmm2, %edx
	A movmskpd %xmm2, %edx
	A pmovmskb %xmm2, %edx
	A pextrw $3, %xmm2, %edx
	A pextrw $7, %xmm2, %edx
	A pinsrw $5, %ecx, %xmm1
	AM pinsrw $2, (%rbx), %xmm1

/* ---- shuffles and unpacks ------------------------------------------------------------- */

	A pshufd $0x1b, %xmm2, %xmm1
	AM pshufd $0xd2, (%rbx), %xmm1
	A pshufhw $0x39, %xmm2, %xmm1
	A pshuflw $0x93, %xmm2, %xmm1
	AM pshuflw $0x0f, (%rbx), %xmm1
	A shufps $0x4e, %xmm2, %xmm1
	AM shufps $0xb1, (%rbx), %xmm1
	A shufpd $1, %xmm2, %xmm1
	AM shufpd $2, (%rbx), %xmm1
	.irp op, unpcklps, unpckhps, unpcklpd, unpckhpd
	A \op %xmm2, %xmm1
	AM \op (%rbx), %xmm1
	.endr

/* ---- packed integer ------------------------------------------------------------------------ */

	.irp op, paddb, paddw, paddd, paddq, psubb, psubw, psubd, psubq, paddsb, paddsw, paddusb, paddusw, psubsb, psubsw, psubusb, psubusw
	A \op %xmm2, %xmm1
	AM \op (%rbx), %xmm1
	.endr
	.irp op, pmullw, pmulhw, pmulhuw, pmuludq, pmaddwd, pavgb, pavgw, psadbw, pminub, pmaxub, pminsw, pmaxsw
	A \op %xmm2, %xmm1
	AM \op (%rbx), %xmm1
	.endr
	.irp op, pcmpeqb, pcmpeqw, pcmpeqd, pcmpgtb, pcmpgtw, pcmpgtd, pand, pandn, por, pxor
	A \op %xmm2, %xmm1
	AM \op (%rbx), %xmm1
	.endr
	A pcmpeqd %xmm1, %xmm1
	A pxor %xmm14, %xmm14
	.irp op, packsswb, packssdw, packuswb, punpcklbw, punpcklwd, punpckldq, punpcklqdq, punpckhbw, punpckhwd, punpckhdq, punpckhqdq
	A \op %xmm2, %xmm1
	AM \op (%rbx), %xmm1
	.endr

	/* shifts by register (small counts mostly) and by immediate */
	.macro PSH op, sz
	F FL_ALL, 0, CLS(C_XCNT, \sz, 0), \op %xmm2, %xmm1
	F FL_ALL, O_MEM, CLS(C_XCNT, \sz, 0), \op (%rbx), %xmm1
	A \op $0, %xmm1
	A \op $1, %xmm1
	A \op $7, %xmm1
	A \op $(\sz * 8 - 1), %xmm1
	A \op $(\sz * 8), %xmm1
	A \op $200, %xmm1
	.endm
	PSH psllw, 2
	PSH pslld, 4
	PSH psllq, 8
	PSH psrlw, 2
	PSH psrld, 4
	PSH psrlq, 8
	PSH psraw, 2
	PSH psrad, 4
	.irp op, pslldq, psrldq
	A \op $0, %xmm1
	A \op $3, %xmm1
	A \op $15, %xmm1
	A \op $16, %xmm1
	A \op $200, %xmm1
	.endr

/* ---- MXCSR, fxsave/fxrstor, cache control ------------------------------------------------- */

	F FL_ALL, O_MEM, CLS(C_LDMX, 0, 0), ldmxcsr (%rbx)
	AM stmxcsr (%rbx)
	F FL_ALL, O_MEM, CLS(C_FXSAVE, 0, 0), fxsave (%rbx)
	F FL_ALL, O_MEM, CLS(C_FXSAVE, 0, 0), fxsave64 (%rbx)
	F FL_ALL, O_MEM, CLS(C_FXRS, 0, 0), fxrstor (%rbx)
	F FL_ALL, O_MEM, CLS(C_FXRS, 0, 0), fxrstor64 (%rbx)
	AM clflush (%rbx)

	.section .note.GNU-stack, "", @progbits
