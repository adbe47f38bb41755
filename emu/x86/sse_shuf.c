/* sse_shuf.c — SSE/SSE2 element rearrangement: pack, unpack, shuffles by
 * immediate, word insert/extract and whole-register byte shifts, in their
 * XMM and (where the ISA has one) MMX forms.
 */
#include "sse.h"

/* ---- pack and unpack: the host instruction (see sse.h for MMX forms) ---- */

#define IOPM(name, insn, mode)                                            \
	SSE_ASM2(op_##name, insn)                                         \
	static void h_##name(struct x86_cpu *c, const struct x86_insn *i) \
	{                                                                 \
		sse_iop2(c, i, mode, op_##name);                          \
	}

IOPM(packsswb, "packsswb", SSE_MMX_PACK)
IOPM(packuswb, "packuswb", SSE_MMX_PACK)
IOPM(packssdw, "packssdw", SSE_MMX_PACK)
IOPM(punpcklbw, "punpcklbw", SSE_MMX_LANE)
IOPM(punpcklwd, "punpcklwd", SSE_MMX_LANE)
IOPM(punpckldq, "punpckldq", SSE_MMX_LANE)
IOPM(punpcklqdq, "punpcklqdq", SSE_MMX_LANE)
IOPM(punpckhbw, "punpcklbw", SSE_MMX_UNPCKH)
IOPM(punpckhwd, "punpcklwd", SSE_MMX_UNPCKH)
IOPM(punpckhdq, "punpckldq", SSE_MMX_UNPCKH)
IOPM(punpckhqdq, "punpckhqdq", SSE_MMX_LANE)

/* The MMX punpckh forms above use the low unpack (their result is its high
 * half); the XMM forms need the real high unpack. */
SSE_ASM2(op_punpckhbw_x, "punpckhbw")
SSE_ASM2(op_punpckhwd_x, "punpckhwd")
SSE_ASM2(op_punpckhdq_x, "punpckhdq")

static void h_punpckh(struct x86_cpu *c, const struct x86_insn *i)
{
	if (i->op[0].kind == X86_OP_MMX) {
		switch (i->mnem) {
		case ZYDIS_MNEMONIC_PUNPCKHBW:
			h_punpckhbw(c, i);
			break;
		case ZYDIS_MNEMONIC_PUNPCKHWD:
			h_punpckhwd(c, i);
			break;
		default:
			h_punpckhdq(c, i);
			break;
		}
		return;
	}
	switch (i->mnem) {
	case ZYDIS_MNEMONIC_PUNPCKHBW:
		sse_op2(c, i, 16, op_punpckhbw_x);
		break;
	case ZYDIS_MNEMONIC_PUNPCKHWD:
		sse_op2(c, i, 16, op_punpckhwd_x);
		break;
	default:
		sse_op2(c, i, 16, op_punpckhdq_x);
		break;
	}
}

SSE_ASM2(op_unpcklps, "unpcklps")
SSE_ASM2(op_unpckhps, "unpckhps")
SSE_ASM2(op_unpcklpd, "unpcklpd")
SSE_ASM2(op_unpckhpd, "unpckhpd")

static void h_unpcklps(struct x86_cpu *c, const struct x86_insn *i)
{
	sse_op2(c, i, 16, op_unpcklps);
}

static void h_unpckhps(struct x86_cpu *c, const struct x86_insn *i)
{
	sse_op2(c, i, 16, op_unpckhps);
}

static void h_unpcklpd(struct x86_cpu *c, const struct x86_insn *i)
{
	sse_op2(c, i, 16, op_unpcklpd);
}

static void h_unpckhpd(struct x86_cpu *c, const struct x86_insn *i)
{
	sse_op2(c, i, 16, op_unpckhpd);
}

/* ---- shuffles by immediate ---------------------------------------------- */

static inline x86_xmm as_xmm(__m128i v)
{
	x86_xmm x;

	sse_stx(&x, v);
	return x;
}

/* pshufd xmm, xmm/m128, imm8 */
static void h_pshufd(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_xmm s = as_xmm(sse_src(c, i, 1, 16)), r;
	unsigned imm = (unsigned)i->imm, k;

	for (k = 0; k < 4; k++)
		r.d[k] = s.d[(imm >> (2 * k)) & 3];
	c->xmm[i->op[0].reg] = r;
}

/* pshuflw (lo = 1) / pshufhw (lo = 0) xmm, xmm/m128, imm8 */
static inline void pshuf_half(struct x86_cpu *c, const struct x86_insn *i, int lo)
{
	x86_xmm s = as_xmm(sse_src(c, i, 1, 16)), r = s;
	unsigned imm = (unsigned)i->imm, b = lo ? 0 : 4, k;

	for (k = 0; k < 4; k++)
		r.w[b + k] = s.w[b + ((imm >> (2 * k)) & 3)];
	c->xmm[i->op[0].reg] = r;
}

static void h_pshuflw(struct x86_cpu *c, const struct x86_insn *i)
{
	pshuf_half(c, i, 1);
}

static void h_pshufhw(struct x86_cpu *c, const struct x86_insn *i)
{
	pshuf_half(c, i, 0);
}

/* pshufw mm, mm/m64, imm8 */
static void h_pshufw(struct x86_cpu *c, const struct x86_insn *i)
{
	uint64_t s = i->op[1].kind == X86_OP_MMX ? c->mmx[i->op[1].reg & 7] :
						   x86_ld64(x86_ea(c, i));
	unsigned imm = (unsigned)i->imm, k;
	uint64_t r = 0;

	for (k = 0; k < 4; k++)
		r |= ((s >> (16 * ((imm >> (2 * k)) & 3))) & 0xffff) << (16 * k);
	sse_mput(c, i->op[0].reg, r);
}

/* shufps xmm, xmm/m128, imm8: two elements from each operand */
static void h_shufps(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_xmm s = as_xmm(sse_src(c, i, 1, 16)), *d = &c->xmm[i->op[0].reg], r;
	unsigned imm = (unsigned)i->imm;

	r.d[0] = d->d[imm & 3];
	r.d[1] = d->d[(imm >> 2) & 3];
	r.d[2] = s.d[(imm >> 4) & 3];
	r.d[3] = s.d[(imm >> 6) & 3];
	*d = r;
}

/* shufpd xmm, xmm/m128, imm8 */
static void h_shufpd(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_xmm s = as_xmm(sse_src(c, i, 1, 16)), *d = &c->xmm[i->op[0].reg], r;
	unsigned imm = (unsigned)i->imm;

	r.q[0] = d->q[imm & 1];
	r.q[1] = s.q[(imm >> 1) & 1];
	*d = r;
}

/* ---- word insert / extract ---------------------------------------------- */

/* pinsrw xmm, r32/m16, imm8 and pinsrw mm, r32/m16, imm8 */
static void h_pinsrw(struct x86_cpu *c, const struct x86_insn *i)
{
	uint16_t v = i->op[1].kind == X86_OP_GPR ? (uint16_t)c->r[i->op[1].reg] :
						   x86_ld16(x86_ea(c, i));

	if (i->op[0].kind == X86_OP_MMX) {
		unsigned sh = 16 * (i->imm & 3);
		uint64_t m = c->mmx[i->op[0].reg & 7];

		sse_mput(c, i->op[0].reg, (m & ~(0xffffull << sh)) | ((uint64_t)v << sh));
	} else {
		c->xmm[i->op[0].reg].w[i->imm & 7] = v;
	}
}

/* pextrw r32, xmm, imm8 and pextrw r32, mm, imm8 (zero-extended); the
 * SSE4.1 store form pextrw m16, xmm, imm8 costs nothing more. */
static void h_pextrw(struct x86_cpu *c, const struct x86_insn *i)
{
	uint16_t v;

	if (i->op[1].kind == X86_OP_MMX)
		v = (uint16_t)(sse_mget(c, i->op[1].reg) >> (16 * (i->imm & 3)));
	else
		v = c->xmm[i->op[1].reg].w[i->imm & 7];
	if (i->op[0].kind == X86_OP_MEM)
		x86_st16(x86_ea(c, i), v);
	else
		x86_put_gpr(c, i->op[0].reg, i->op[0].size == 8 ? 8 : 4, v);
}

/* ---- byte shifts of the whole register ---------------------------------- */

/* pslldq / psrldq xmm, imm8: counts above 15 clear the register. */
static void h_pslldq(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_xmm *d = &c->xmm[i->op[0].reg], r = { .q = { 0, 0 } };
	unsigned n = (unsigned)i->imm & 0xff, k;

	for (k = n; k < 16; k++)
		r.b[k] = d->b[k - n];
	*d = r;
}

static void h_psrldq(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_xmm *d = &c->xmm[i->op[0].reg], r = { .q = { 0, 0 } };
	unsigned n = (unsigned)i->imm & 0xff, k;

	for (k = 0; k + n < 16; k++)
		r.b[k] = d->b[k + n];
	*d = r;
}

void x86_sse_shuf_register(x86_fn *tab)
{
	tab[ZYDIS_MNEMONIC_PACKSSWB] = h_packsswb;
	tab[ZYDIS_MNEMONIC_PACKUSWB] = h_packuswb;
	tab[ZYDIS_MNEMONIC_PACKSSDW] = h_packssdw;
	tab[ZYDIS_MNEMONIC_PUNPCKLBW] = h_punpcklbw;
	tab[ZYDIS_MNEMONIC_PUNPCKLWD] = h_punpcklwd;
	tab[ZYDIS_MNEMONIC_PUNPCKLDQ] = h_punpckldq;
	tab[ZYDIS_MNEMONIC_PUNPCKLQDQ] = h_punpcklqdq;
	tab[ZYDIS_MNEMONIC_PUNPCKHBW] = h_punpckh;
	tab[ZYDIS_MNEMONIC_PUNPCKHWD] = h_punpckh;
	tab[ZYDIS_MNEMONIC_PUNPCKHDQ] = h_punpckh;
	tab[ZYDIS_MNEMONIC_PUNPCKHQDQ] = h_punpckhqdq;
	tab[ZYDIS_MNEMONIC_UNPCKLPS] = h_unpcklps;
	tab[ZYDIS_MNEMONIC_UNPCKHPS] = h_unpckhps;
	tab[ZYDIS_MNEMONIC_UNPCKLPD] = h_unpcklpd;
	tab[ZYDIS_MNEMONIC_UNPCKHPD] = h_unpckhpd;
	tab[ZYDIS_MNEMONIC_PSHUFD] = h_pshufd;
	tab[ZYDIS_MNEMONIC_PSHUFLW] = h_pshuflw;
	tab[ZYDIS_MNEMONIC_PSHUFHW] = h_pshufhw;
	tab[ZYDIS_MNEMONIC_PSHUFW] = h_pshufw;
	tab[ZYDIS_MNEMONIC_SHUFPS] = h_shufps;
	tab[ZYDIS_MNEMONIC_SHUFPD] = h_shufpd;
	tab[ZYDIS_MNEMONIC_PINSRW] = h_pinsrw;
	tab[ZYDIS_MNEMONIC_PEXTRW] = h_pextrw;
	tab[ZYDIS_MNEMONIC_PSLLDQ] = h_pslldq;
	tab[ZYDIS_MNEMONIC_PSRLDQ] = h_psrldq;
}
