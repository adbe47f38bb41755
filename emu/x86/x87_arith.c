/* x87_arith.c — x87 basic arithmetic (add, sub, mul, div and their
 * reversed, popping and integer forms), compares (fcom, fucom, ficom,
 * fcomi, fucomi), ftst, fxam, fchs, fabs.
 */
#include <Zydis/Zydis.h>

#include "x87.h"

/* The six operations in the order the X87_H_* tables use. */
enum { X87_ADD, X87_MUL, X87_SUB, X87_SUBR, X87_DIV, X87_DIVR };

/* The first opcode byte of the instruction (0xd8-0xdf), past prefixes. */
static unsigned x87_opcode(const struct x86_insn *i)
{
	return 0xd8 | (x86_x87_fop(i->pc) >> 8);
}

/* Memory source of size bytes into h->m. */
static void x87_load_m(const struct x86_cpu *c, const struct x86_insn *i, struct x87_host *h,
		       unsigned size)
{
	memset(&h->m, 0, sizeof(h->m));
	x86_read(&h->m, x86_ea(c, i), size);
}

/* dst = dst op src, then pop: the register forms.  Zydis shows both
 * registers ("st0, st(i)" or "st(i), st0"); with a single visible one
 * the opcode byte says which is the destination (D8: ST(0)). */
static void x87_arith(struct x86_cpu *c, const struct x86_insn *i, int k, int isint, int pop)
{
	const struct x86_op *o = &i->op[0];
	struct x87_host h;
	unsigned dst, src;
	uint16_t sw;

	x86_x87_begin(c, i);
	if (i->nops && o->kind == X86_OP_MEM) {
		enum x87_hop op;
		if (isint)
			op = (o->size == 2 ? X87_H_FIADDS : X87_H_FIADDL) + k;
		else
			op = (o->size == 4 ? X87_H_FADDS : X87_H_FADDL) + k;
		x87_load_m(c, i, &h, o->size);
		if (!x87_valid(c, 0)) {
			x86_x87_underflow_to(c, 0, 0);
			return;
		}
		x87_get(c, 0, &h.a);
		sw = x86_x87_host(c, op, &h);
		if (!x87_aborted(c, sw, X87_ABORT_REG))
			x87_set(c, 0, &h.r[0]);
		x87_flags(c, sw, X87_CC);
		return;
	}
	if (i->nops >= 2) {
		dst = i->op[0].reg;
		src = i->op[1].reg;
	} else if (i->nops == 1) {
		int to_st0 = x87_opcode(i) == 0xd8;
		dst = to_st0 ? 0 : o->reg;
		src = to_st0 ? o->reg : 0;
	} else {
		dst = 1;
		src = 0;
	}
	if (!x87_valid(c, dst) || !x87_valid(c, src)) {
		x86_x87_underflow_to(c, dst, pop);
		return;
	}
	x87_get(c, dst, &h.a);
	x87_get(c, src, &h.b);
	sw = x86_x87_host(c, X87_H_FADD + k, &h);
	x87_flags(c, sw, X87_CC);
	if (x87_aborted(c, sw, X87_ABORT_REG))
		return;
	x87_set(c, dst, &h.r[0]);
	if (pop)
		x87_pop(c);
}

#define X87_ARITH(name, k, isint, pop)                                    \
	static void h_##name(struct x86_cpu *c, const struct x86_insn *i) \
	{                                                                 \
		x87_arith(c, i, k, isint, pop);                           \
	}
X87_ARITH(fadd, X87_ADD, 0, 0)
X87_ARITH(faddp, X87_ADD, 0, 1)
X87_ARITH(fiadd, X87_ADD, 1, 0)
X87_ARITH(fmul, X87_MUL, 0, 0)
X87_ARITH(fmulp, X87_MUL, 0, 1)
X87_ARITH(fimul, X87_MUL, 1, 0)
X87_ARITH(fsub, X87_SUB, 0, 0)
X87_ARITH(fsubp, X87_SUB, 0, 1)
X87_ARITH(fisub, X87_SUB, 1, 0)
X87_ARITH(fsubr, X87_SUBR, 0, 0)
X87_ARITH(fsubrp, X87_SUBR, 0, 1)
X87_ARITH(fisubr, X87_SUBR, 1, 0)
X87_ARITH(fdiv, X87_DIV, 0, 0)
X87_ARITH(fdivp, X87_DIV, 0, 1)
X87_ARITH(fidiv, X87_DIV, 1, 0)
X87_ARITH(fdivr, X87_DIVR, 0, 0)
X87_ARITH(fdivrp, X87_DIVR, 0, 1)
X87_ARITH(fidivr, X87_DIVR, 1, 0)

/* ---- compares ----------------------------------------------------------- */

enum { X87_CMP_FCOM, X87_CMP_FUCOM, X87_CMP_FICOM };

/* Compare ST(0) with the memory operand or ST(i) (ST(1) when none is
 * given), set C0, C2, C3 (C1 cleared), then pop pops times.  Masked stack
 * underflow reports unordered. */
static void x87_compare(struct x86_cpu *c, const struct x86_insn *i, int kind, int pops)
{
	const struct x86_op *o = &i->op[0];
	struct x87_host h;
	enum x87_hop op;
	uint16_t sw;
	int ok;

	x86_x87_begin(c, i);
	if (i->nops && o->kind == X86_OP_MEM) {
		if (kind == X87_CMP_FICOM)
			op = o->size == 2 ? X87_H_FICOMS : X87_H_FICOML;
		else
			op = o->size == 4 ? X87_H_FCOMS : X87_H_FCOML;
		x87_load_m(c, i, &h, o->size);
		ok = x87_valid(c, 0);
	} else {
		unsigned r = i->nops ? i->op[i->nops - 1].reg : 1;
		op = kind == X87_CMP_FUCOM ? X87_H_FUCOM : X87_H_FCOM;
		x87_get(c, r, &h.b);
		ok = x87_valid(c, 0) && x87_valid(c, r);
	}
	if (!ok) {
		/* unordered, whether or not the exception is masked */
		int masked = x86_x87_underflow(c);
		c->fpu.fsw |= X87_C0 | X87_C2 | X87_C3;
		if (!masked)
			return;
	} else {
		x87_get(c, 0, &h.a);
		sw = x86_x87_host(c, op, &h);
		/* the condition codes are set even when an unmasked exception
		 * suppresses the pop (as the hardware does) */
		x87_flags(c, sw, X87_CC);
		if (x87_aborted(c, sw, X87_ABORT_REG))
			return;
	}
	while (pops-- > 0)
		x87_pop(c);
}

#define X87_CMP(name, kind, pops)                                         \
	static void h_##name(struct x86_cpu *c, const struct x86_insn *i) \
	{                                                                 \
		x87_compare(c, i, kind, pops);                            \
	}
X87_CMP(fcom, X87_CMP_FCOM, 0)
X87_CMP(fcomp, X87_CMP_FCOM, 1)
X87_CMP(fcompp, X87_CMP_FCOM, 2)
X87_CMP(fucom, X87_CMP_FUCOM, 0)
X87_CMP(fucomp, X87_CMP_FUCOM, 1)
X87_CMP(fucompp, X87_CMP_FUCOM, 2)
X87_CMP(ficom, X87_CMP_FICOM, 0)
X87_CMP(ficomp, X87_CMP_FICOM, 1)

/* fcomi family: ZF, PF, CF from the compare, OF, SF, AF cleared (SDM
 * vol. 2, FCOMI). */
static void x87_comi(struct x86_cpu *c, const struct x86_insn *i, int unordered, int pop)
{
	unsigned r = i->nops ? i->op[i->nops - 1].reg : 1;
	struct x87_host h;
	uint16_t sw;

	x86_x87_begin(c, i);
	if (!x87_valid(c, 0) || !x87_valid(c, r)) {
		/* unordered, whether or not the exception is masked */
		int masked = x86_x87_underflow(c);
		x86_set_flags(c, X86_ARITH, X86_ZF | X86_PF | X86_CF);
		if (!masked)
			return;
	} else {
		x87_get(c, 0, &h.a);
		x87_get(c, r, &h.b);
		sw = x86_x87_host(c, unordered ? X87_H_FUCOMI : X87_H_FCOMI, &h);
		/* C1 as the guest had it: the host's operand loads clear it */
		x87_flags(c, sw, X87_C0 | X87_C2 | X87_C3);
		x86_set_flags(c, X86_ARITH, h.eflags);
		if (x87_aborted(c, sw, X87_ABORT_REG))
			return;
	}
	if (pop)
		x87_pop(c);
}

static void h_fcomi(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_comi(c, i, 0, 0);
}
static void h_fcomip(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_comi(c, i, 0, 1);
}
static void h_fucomi(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_comi(c, i, 1, 0);
}
static void h_fucomip(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_comi(c, i, 1, 1);
}

static void h_ftst(struct x86_cpu *c, const struct x86_insn *i)
{
	struct x87_host h;
	uint16_t sw;

	x86_x87_begin(c, i);
	if (!x87_valid(c, 0)) {
		x86_x87_underflow(c);
		c->fpu.fsw |= X87_C0 | X87_C2 | X87_C3;
		return;
	}
	x87_get(c, 0, &h.a);
	sw = x86_x87_host(c, X87_H_FTST, &h);
	x87_flags(c, sw, X87_CC);
}

/* fxam: the class in C3, C2, C0 and the sign in C1; an empty register
 * reads 1,0,1 (SDM vol. 2, FXAM). */
static void h_fxam(struct x86_cpu *c, const struct x86_insn *i)
{
	struct x87_host h;
	uint16_t sw;

	x86_x87_begin(c, i);
	x87_get(c, 0, &h.a);
	if (!x87_valid(c, 0)) {
		sw = X87_C3 | X87_C0 | ((h.a.p.sexp & 0x8000) ? X87_C1 : 0);
	} else {
		sw = x86_x87_host(c, X87_H_FXAM, &h);
	}
	x87_flags(c, sw & ~X87_EXC, X87_CC);
}

/* fchs and fabs only touch the sign bit and raise nothing but a stack
 * fault. */
static void x87_sign(struct x86_cpu *c, const struct x86_insn *i, int abs)
{
	union x87_val v;

	x86_x87_begin(c, i);
	if (!x87_valid(c, 0)) {
		x86_x87_underflow_to(c, 0, 0);
		return;
	}
	x87_get(c, 0, &v);
	v.p.sexp = abs ? (uint16_t)(v.p.sexp & 0x7fff) : (uint16_t)(v.p.sexp ^ 0x8000);
	x87_set(c, 0, &v);
	c->fpu.fsw &= (uint16_t)~X87_C1;
}

static void h_fchs(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_sign(c, i, 0);
}
static void h_fabs(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_sign(c, i, 1);
}

void x86_x87_arith_register(x86_fn *tab)
{
	tab[ZYDIS_MNEMONIC_FADD] = h_fadd;
	tab[ZYDIS_MNEMONIC_FADDP] = h_faddp;
	tab[ZYDIS_MNEMONIC_FIADD] = h_fiadd;
	tab[ZYDIS_MNEMONIC_FMUL] = h_fmul;
	tab[ZYDIS_MNEMONIC_FMULP] = h_fmulp;
	tab[ZYDIS_MNEMONIC_FIMUL] = h_fimul;
	tab[ZYDIS_MNEMONIC_FSUB] = h_fsub;
	tab[ZYDIS_MNEMONIC_FSUBP] = h_fsubp;
	tab[ZYDIS_MNEMONIC_FISUB] = h_fisub;
	tab[ZYDIS_MNEMONIC_FSUBR] = h_fsubr;
	tab[ZYDIS_MNEMONIC_FSUBRP] = h_fsubrp;
	tab[ZYDIS_MNEMONIC_FISUBR] = h_fisubr;
	tab[ZYDIS_MNEMONIC_FDIV] = h_fdiv;
	tab[ZYDIS_MNEMONIC_FDIVP] = h_fdivp;
	tab[ZYDIS_MNEMONIC_FIDIV] = h_fidiv;
	tab[ZYDIS_MNEMONIC_FDIVR] = h_fdivr;
	tab[ZYDIS_MNEMONIC_FDIVRP] = h_fdivrp;
	tab[ZYDIS_MNEMONIC_FIDIVR] = h_fidivr;
	tab[ZYDIS_MNEMONIC_FCOM] = h_fcom;
	tab[ZYDIS_MNEMONIC_FCOMP] = h_fcomp;
	tab[ZYDIS_MNEMONIC_FCOMPP] = h_fcompp;
	tab[ZYDIS_MNEMONIC_FUCOM] = h_fucom;
	tab[ZYDIS_MNEMONIC_FUCOMP] = h_fucomp;
	tab[ZYDIS_MNEMONIC_FUCOMPP] = h_fucompp;
	tab[ZYDIS_MNEMONIC_FICOM] = h_ficom;
	tab[ZYDIS_MNEMONIC_FICOMP] = h_ficomp;
	tab[ZYDIS_MNEMONIC_FCOMI] = h_fcomi;
	tab[ZYDIS_MNEMONIC_FCOMIP] = h_fcomip;
	tab[ZYDIS_MNEMONIC_FUCOMI] = h_fucomi;
	tab[ZYDIS_MNEMONIC_FUCOMIP] = h_fucomip;
	tab[ZYDIS_MNEMONIC_FTST] = h_ftst;
	tab[ZYDIS_MNEMONIC_FXAM] = h_fxam;
	tab[ZYDIS_MNEMONIC_FCHS] = h_fchs;
	tab[ZYDIS_MNEMONIC_FABS] = h_fabs;
}
