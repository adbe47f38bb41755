/* sse_move.c — SSE/SSE2/SSE3 data movement: full, partial and scalar
 * moves, GPR<->XMM/MMX moves, non-temporal and masked stores, sign-mask
 * extraction and the SSE3 duplicating loads.  No floating-point arithmetic
 * happens here, so nothing touches MXCSR.
 */
#include "int2.h"
#include "sse.h"

/* Whole-register moves: movaps/movapd/movdqa (aligned), movups/movupd/
 * movdqu (not), and the non-temporal stores movntps/movntpd/movntdq
 * (aligned; SDM vol. 2, MOVNTDQ "Exceptions").  Either operand may be
 * memory. */
static inline void move128(struct x86_cpu *c, const struct x86_insn *i, int aligned)
{
	__m128i v;

	if (i->op[1].kind == X86_OP_XMM)
		v = sse_xget(c, i->op[1].reg);
	else
		v = sse_ldm(aligned ? sse_ea16(c, i) : x86_ea(c, i), 16);
	if (i->op[0].kind == X86_OP_XMM)
		sse_xput(c, i->op[0].reg, v);
	else
		sse_stm(aligned ? sse_ea16(c, i) : x86_ea(c, i), 16, v);
}

static void h_mov_aligned(struct x86_cpu *c, const struct x86_insn *i)
{
	move128(c, i, 1);
}

static void h_mov_unaligned(struct x86_cpu *c, const struct x86_insn *i)
{
	move128(c, i, 0);
}

/* movss/movsd: register to register merges the low element; a load zeroes
 * the rest of the register; a store writes the element only. */
static inline void move_scalar(struct x86_cpu *c, const struct x86_insn *i, unsigned size)
{
	x86_xmm *d;

	if (i->op[0].kind == X86_OP_MEM) {
		sse_stm(x86_ea(c, i), size, sse_xget(c, i->op[1].reg));
		return;
	}
	d = &c->xmm[i->op[0].reg];
	if (i->op[1].kind == X86_OP_MEM) {
		sse_stx(d, sse_ldm(x86_ea(c, i), size));
	} else if (size == 4) {
		d->d[0] = c->xmm[i->op[1].reg].d[0];
	} else {
		d->q[0] = c->xmm[i->op[1].reg].q[0];
	}
}

static void h_movss(struct x86_cpu *c, const struct x86_insn *i)
{
	move_scalar(c, i, 4);
}

void x86_sse_movsd(struct x86_cpu *c, const struct x86_insn *i)
{
	if (X86_UNLIKELY(i->nops == 0)) { /* A5: the string movsd has no explicit operands */
		x86_str_movsd(c, i);
		return;
	}
	move_scalar(c, i, 8);
}

/* movlps/movlpd (half = 0) and movhps/movhpd (half = 1): one quadword
 * between memory and half of a register, the other half untouched. */
static inline void move_half(struct x86_cpu *c, const struct x86_insn *i, int half)
{
	if (i->op[0].kind == X86_OP_MEM)
		x86_st64(x86_ea(c, i), c->xmm[i->op[1].reg].q[half]);
	else if (i->op[1].kind == X86_OP_MEM)
		c->xmm[i->op[0].reg].q[half] = x86_ld64(x86_ea(c, i));
	else /* not encodable as movlps (that is movhlps); keep it defined */
		c->xmm[i->op[0].reg].q[half] = c->xmm[i->op[1].reg].q[half];
}

static void h_movlps(struct x86_cpu *c, const struct x86_insn *i)
{
	move_half(c, i, 0);
}

static void h_movhps(struct x86_cpu *c, const struct x86_insn *i)
{
	move_half(c, i, 1);
}

static void h_movhlps(struct x86_cpu *c, const struct x86_insn *i)
{
	c->xmm[i->op[0].reg].q[0] = c->xmm[i->op[1].reg].q[1];
}

static void h_movlhps(struct x86_cpu *c, const struct x86_insn *i)
{
	c->xmm[i->op[0].reg].q[1] = c->xmm[i->op[1].reg].q[0];
}

/* movd/movq in all their forms: GPR, memory, XMM and MMX, 4 or 8 bytes.
 * The value is zero-extended into an XMM or MMX destination; GPR writes
 * follow the usual rules (32-bit writes zero-extend). */
static void h_movdq(struct x86_cpu *c, const struct x86_insn *i)
{
	const struct x86_op *d = &i->op[0], *s = &i->op[1];
	unsigned n = 8;
	uint64_t v;

	if (i->mnem == ZYDIS_MNEMONIC_MOVD) {
		/* Zydis calls some REX.W forms movd; the GPR/memory side says */
		const struct x86_op *g = (d->kind == X86_OP_GPR || d->kind == X86_OP_MEM) ? d : s;
		n = g->size == 8 ? 8 : 4;
	}
	switch (s->kind) {
	case X86_OP_XMM:
		v = c->xmm[s->reg].q[0];
		break;
	case X86_OP_MMX:
		v = sse_mget(c, s->reg);
		break;
	case X86_OP_GPR:
		v = c->r[s->reg];
		break;
	default:
		v = x86_ld(x86_ea(c, i), n);
		break;
	}
	v &= x86_mask(n);
	switch (d->kind) {
	case X86_OP_XMM:
		c->xmm[d->reg].q[0] = v;
		c->xmm[d->reg].q[1] = 0;
		break;
	case X86_OP_MMX:
		sse_mput(c, d->reg, v);
		break;
	case X86_OP_GPR:
		x86_put_gpr(c, d->reg, n, v);
		break;
	default:
		x86_st(x86_ea(c, i), n, v);
		break;
	}
}

static void h_movq2dq(struct x86_cpu *c, const struct x86_insn *i)
{
	c->xmm[i->op[0].reg].q[0] = sse_mget(c, i->op[1].reg);
	c->xmm[i->op[0].reg].q[1] = 0;
}

static void h_movdq2q(struct x86_cpu *c, const struct x86_insn *i)
{
	sse_mput(c, i->op[0].reg, c->xmm[i->op[1].reg].q[0]);
}

/* movnti m32/m64, r32/r64 */
static void h_movnti(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned n = i->op[1].size == 8 ? 8 : 4;

	x86_st(x86_ea(c, i), n, c->r[i->op[1].reg]);
}

/* movntq m64, mm */
static void h_movntq(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_st64(x86_ea(c, i), sse_mget(c, i->op[1].reg));
}

/* maskmovdqu xmm1, xmm2 / maskmovq mm1, mm2: store the bytes of op[0]
 * whose mask byte in op[1] has its top bit set, to DS:rDI (implicit). */
static void h_maskmov(struct x86_cpu *c, const struct x86_insn *i)
{
	uint64_t a = c->r[X86_RDI];
	x86_xmm v, m;
	unsigned n, k;

	if (i->asz == 4)
		a = (uint32_t)a;
	a += c->seg_base[i->seg];
	if (i->op[0].kind == X86_OP_MMX) {
		v.q[0] = sse_mget(c, i->op[0].reg);
		m.q[0] = c->mmx[i->op[1].reg & 7];
		n = 8;
	} else {
		v = c->xmm[i->op[0].reg];
		m = c->xmm[i->op[1].reg];
		n = 16;
	}
	for (k = 0; k < n; k++)
		if (m.b[k] & 0x80)
			x86_st8(a + k, v.b[k]);
}

/* movmskps/movmskpd/pmovmskb r32/r64, xmm (pmovmskb also mm): sign bits. */
static void h_movmskps(struct x86_cpu *c, const struct x86_insn *i)
{
	int v = _mm_movemask_ps(_mm_castsi128_ps(sse_xget(c, i->op[1].reg)));

	x86_put_gpr(c, i->op[0].reg, i->op[0].size == 8 ? 8 : 4, (uint32_t)v);
}

static void h_movmskpd(struct x86_cpu *c, const struct x86_insn *i)
{
	int v = _mm_movemask_pd(_mm_castsi128_pd(sse_xget(c, i->op[1].reg)));

	x86_put_gpr(c, i->op[0].reg, i->op[0].size == 8 ? 8 : 4, (uint32_t)v);
}

static void h_pmovmskb(struct x86_cpu *c, const struct x86_insn *i)
{
	int v;

	if (i->op[1].kind == X86_OP_MMX)
		v = _mm_movemask_epi8(_mm_cvtsi64_si128((long long)sse_mget(c, i->op[1].reg))) &
		    0xff;
	else
		v = _mm_movemask_epi8(sse_xget(c, i->op[1].reg));
	x86_put_gpr(c, i->op[0].reg, i->op[0].size == 8 ? 8 : 4, (uint32_t)v);
}

/* SSE3 duplicating loads.  movddup reads 8 bytes (no alignment check);
 * movshdup/movsldup read 16 (aligned, exception type 4). */
static void h_movddup(struct x86_cpu *c, const struct x86_insn *i)
{
	__m128i s = sse_src(c, i, 1, 8);

	sse_xput(c, i->op[0].reg, _mm_unpacklo_epi64(s, s));
}

static void h_movshdup(struct x86_cpu *c, const struct x86_insn *i)
{
	sse_xput(c, i->op[0].reg, _mm_shuffle_epi32(sse_src(c, i, 1, 16), 0xf5));
}

static void h_movsldup(struct x86_cpu *c, const struct x86_insn *i)
{
	sse_xput(c, i->op[0].reg, _mm_shuffle_epi32(sse_src(c, i, 1, 16), 0xa0));
}

void x86_sse_move_register(x86_fn *tab)
{
	tab[ZYDIS_MNEMONIC_MOVAPS] = h_mov_aligned;
	tab[ZYDIS_MNEMONIC_MOVAPD] = h_mov_aligned;
	tab[ZYDIS_MNEMONIC_MOVDQA] = h_mov_aligned;
	tab[ZYDIS_MNEMONIC_MOVNTPS] = h_mov_aligned;
	tab[ZYDIS_MNEMONIC_MOVNTPD] = h_mov_aligned;
	tab[ZYDIS_MNEMONIC_MOVNTDQ] = h_mov_aligned;
	tab[ZYDIS_MNEMONIC_MOVUPS] = h_mov_unaligned;
	tab[ZYDIS_MNEMONIC_MOVUPD] = h_mov_unaligned;
	tab[ZYDIS_MNEMONIC_MOVDQU] = h_mov_unaligned;
	tab[ZYDIS_MNEMONIC_LDDQU] = h_mov_unaligned;
	tab[ZYDIS_MNEMONIC_MOVSS] = h_movss;
	tab[ZYDIS_MNEMONIC_MOVSD] = x86_sse_movsd;
	tab[ZYDIS_MNEMONIC_MOVLPS] = h_movlps;
	tab[ZYDIS_MNEMONIC_MOVLPD] = h_movlps;
	tab[ZYDIS_MNEMONIC_MOVHPS] = h_movhps;
	tab[ZYDIS_MNEMONIC_MOVHPD] = h_movhps;
	tab[ZYDIS_MNEMONIC_MOVHLPS] = h_movhlps;
	tab[ZYDIS_MNEMONIC_MOVLHPS] = h_movlhps;
	tab[ZYDIS_MNEMONIC_MOVD] = h_movdq;
	tab[ZYDIS_MNEMONIC_MOVQ] = h_movdq;
	tab[ZYDIS_MNEMONIC_MOVQ2DQ] = h_movq2dq;
	tab[ZYDIS_MNEMONIC_MOVDQ2Q] = h_movdq2q;
	tab[ZYDIS_MNEMONIC_MOVNTI] = h_movnti;
	tab[ZYDIS_MNEMONIC_MOVNTQ] = h_movntq;
	tab[ZYDIS_MNEMONIC_MASKMOVDQU] = h_maskmov;
	tab[ZYDIS_MNEMONIC_MASKMOVQ] = h_maskmov;
	tab[ZYDIS_MNEMONIC_MOVMSKPS] = h_movmskps;
	tab[ZYDIS_MNEMONIC_MOVMSKPD] = h_movmskpd;
	tab[ZYDIS_MNEMONIC_PMOVMSKB] = h_pmovmskb;
	tab[ZYDIS_MNEMONIC_MOVDDUP] = h_movddup;
	tab[ZYDIS_MNEMONIC_MOVSHDUP] = h_movshdup;
	tab[ZYDIS_MNEMONIC_MOVSLDUP] = h_movsldup;
}
