/* sse_int.c — SSE2 packed-integer arithmetic, comparisons, logic and
 * shifts, in their XMM and MMX forms.
 *
 * Each handler runs the host's own instruction (sse.h, SSE_ASM2) on the
 * operands; MMX forms run the XMM instruction on the 64-bit operands held
 * in the low halves, which gives the MMX result for every lane-wise
 * operation (including psadbw and pmuludq, whose low quadword only depends
 * on the low quadwords).  Shifts by immediate use the register-count form
 * with the zero-extended imm8 as count, which the SDM defines identically.
 */
#include "sse.h"

#define IOP(name, insn)                                                   \
	SSE_ASM2(op_##name, insn)                                         \
	static void h_##name(struct x86_cpu *c, const struct x86_insn *i) \
	{                                                                 \
		sse_iop2(c, i, SSE_MMX_LANE, op_##name);                  \
	}

IOP(paddb, "paddb")
IOP(paddw, "paddw")
IOP(paddd, "paddd")
IOP(paddq, "paddq")
IOP(psubb, "psubb")
IOP(psubw, "psubw")
IOP(psubd, "psubd")
IOP(psubq, "psubq")
IOP(paddsb, "paddsb")
IOP(paddsw, "paddsw")
IOP(paddusb, "paddusb")
IOP(paddusw, "paddusw")
IOP(psubsb, "psubsb")
IOP(psubsw, "psubsw")
IOP(psubusb, "psubusb")
IOP(psubusw, "psubusw")
IOP(pmullw, "pmullw")
IOP(pmulhw, "pmulhw")
IOP(pmulhuw, "pmulhuw")
IOP(pmuludq, "pmuludq")
IOP(pmaddwd, "pmaddwd")
IOP(pavgb, "pavgb")
IOP(pavgw, "pavgw")
IOP(psadbw, "psadbw")
IOP(pminub, "pminub")
IOP(pmaxub, "pmaxub")
IOP(pminsw, "pminsw")
IOP(pmaxsw, "pmaxsw")
IOP(pcmpeqb, "pcmpeqb")
IOP(pcmpeqw, "pcmpeqw")
IOP(pcmpeqd, "pcmpeqd")
IOP(pcmpgtb, "pcmpgtb")
IOP(pcmpgtw, "pcmpgtw")
IOP(pcmpgtd, "pcmpgtd")
IOP(pand, "pand")
IOP(pandn, "pandn")
IOP(por, "por")
IOP(pxor, "pxor")
IOP(psllw, "psllw")
IOP(pslld, "pslld")
IOP(psllq, "psllq")
IOP(psrlw, "psrlw")
IOP(psrld, "psrld")
IOP(psrlq, "psrlq")
IOP(psraw, "psraw")
IOP(psrad, "psrad")

void x86_sse_int_register(x86_fn *tab)
{
#define R(m, h) tab[ZYDIS_MNEMONIC_##m] = h_##h
	R(PADDB, paddb);
	R(PADDW, paddw);
	R(PADDD, paddd);
	R(PADDQ, paddq);
	R(PSUBB, psubb);
	R(PSUBW, psubw);
	R(PSUBD, psubd);
	R(PSUBQ, psubq);
	R(PADDSB, paddsb);
	R(PADDSW, paddsw);
	R(PADDUSB, paddusb);
	R(PADDUSW, paddusw);
	R(PSUBSB, psubsb);
	R(PSUBSW, psubsw);
	R(PSUBUSB, psubusb);
	R(PSUBUSW, psubusw);
	R(PMULLW, pmullw);
	R(PMULHW, pmulhw);
	R(PMULHUW, pmulhuw);
	R(PMULUDQ, pmuludq);
	R(PMADDWD, pmaddwd);
	R(PAVGB, pavgb);
	R(PAVGW, pavgw);
	R(PSADBW, psadbw);
	R(PMINUB, pminub);
	R(PMAXUB, pmaxub);
	R(PMINSW, pminsw);
	R(PMAXSW, pmaxsw);
	R(PCMPEQB, pcmpeqb);
	R(PCMPEQW, pcmpeqw);
	R(PCMPEQD, pcmpeqd);
	R(PCMPGTB, pcmpgtb);
	R(PCMPGTW, pcmpgtw);
	R(PCMPGTD, pcmpgtd);
	R(PAND, pand);
	R(PANDN, pandn);
	R(POR, por);
	R(PXOR, pxor);
	/* The FP logic forms are the same bit operations (no MXCSR effect). */
	R(ANDPS, pand);
	R(ANDPD, pand);
	R(ANDNPS, pandn);
	R(ANDNPD, pandn);
	R(ORPS, por);
	R(ORPD, por);
	R(XORPS, pxor);
	R(XORPD, pxor);
	R(PSLLW, psllw);
	R(PSLLD, pslld);
	R(PSLLQ, psllq);
	R(PSRLW, psrlw);
	R(PSRLD, psrld);
	R(PSRLQ, psrlq);
	R(PSRAW, psraw);
	R(PSRAD, psrad);
#undef R
}
