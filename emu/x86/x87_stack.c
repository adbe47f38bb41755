/* x87_stack.c — x87 state helpers, loads and stores, stack manipulation,
 * fcmov, and the control instructions (fldcw, fnstcw, fnstsw, fnclex,
 * fninit, fwait).  Registration of every x87 handler.
 *
 * Stack faults follow SDM vol. 1, 8.5.1.1: IE and SF set, C1 = 1 for
 * overflow, 0 for underflow; masked, the destination receives the QNaN
 * indefinite; unmasked, nothing else changes and the next waiting x87
 * instruction reports the exception (#MF, SIGFPE on Linux).
 */
#include <signal.h>

#include <Zydis/Zydis.h>

#include "x87.h"

/* si_code for an unmasked x87 exception, as Linux derives it
 * (arch/x86/kernel/traps.c, fpu__exception_code). */
static int x87_fpe_code(unsigned err)
{
	if (err & X87_IE)
		return FPE_FLTINV;
	if (err & X87_ZE)
		return FPE_FLTDIV;
	if (err & X87_OE)
		return FPE_FLTOVF;
	if (err & (X87_DE | X87_UE))
		return FPE_FLTUND;
	if (err & X87_PE)
		return FPE_FLTRES;
	return 0;
}

void x86_x87_wait(struct x86_cpu *c, const struct x86_insn *i)
{
	if (X86_UNLIKELY(c->fpu.fsw & X87_ES))
		x86_raise(c, SIGFPE, x87_fpe_code(c->fpu.fsw & ~c->fpu.fcw & X87_EXC), i->pc);
}

/* FOP: the low 11 bits of the first two opcode bytes (SDM vol. 1,
 * 8.1.10), read from the instruction past its prefixes. */
uint16_t x86_x87_fop(uint64_t pc)
{
	const uint8_t *p = (const uint8_t *)pc;
	int k;

	for (k = 0; k < 14; k++) {
		uint8_t b = p[k];
		if ((b & 0xf0) == 0x40 || b == 0x66 || b == 0x67 || b == 0xf0 || b == 0xf2 ||
		    b == 0xf3 || b == 0x26 || b == 0x2e || b == 0x36 || b == 0x3e || b == 0x64 ||
		    b == 0x65)
			continue;
		if ((b & 0xf8) != 0xd8)
			return 0;
		return (uint16_t)(((b & 7) << 8) | p[k + 1]);
	}
	return 0;
}

/* Non-control instructions record their address, opcode and memory
 * operand (SDM vol. 1, 8.1.8). */
void x86_x87_begin(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_x87_wait(c, i);
	c->fpu.fip = i->pc;
	c->fpu.fop = x86_x87_fop(i->pc);
	if (i->nops && i->op[0].kind == X86_OP_MEM)
		c->fpu.fdp = x86_ea(c, i);
}

int x86_x87_underflow(struct x86_cpu *c)
{
	x86_assist_note(c, X86_ASSIST_X87_SU);
	c->fpu.fsw = (uint16_t)((c->fpu.fsw | X87_IE | X87_SF) & ~X87_C1);
	x87_update_es(c);
	return (c->fpu.fcw & X87_IE) != 0;
}

int x86_x87_overflow(struct x86_cpu *c)
{
	x86_assist_note(c, X86_ASSIST_X87_SO);
	c->fpu.fsw |= X87_IE | X87_SF | X87_C1;
	x87_update_es(c);
	return (c->fpu.fcw & X87_IE) != 0;
}

void x86_x87_underflow_to(struct x86_cpu *c, unsigned dst, int pop)
{
	union x87_val v;

	if (!x86_x87_underflow(c))
		return;
	x87_indefinite(&v);
	x87_set(c, dst, &v);
	while (pop-- > 0)
		x87_pop(c);
}

/* Before a push: when ST(7) is in use the push overflows; the masked
 * response pushes the indefinite.  Returns 1 when the caller must stop. */
static int x87_full(struct x86_cpu *c)
{
	union x87_val v;

	if (!x87_valid(c, 7))
		return 0;
	if (x86_x87_overflow(c)) {
		x87_indefinite(&v);
		x87_push(c, &v);
	}
	return 1;
}

/* Push the result of a host load, unless an unmasked exception
 * suppressed it. */
static void x87_push_host(struct x86_cpu *c, enum x87_hop op, struct x87_host *h)
{
	uint16_t sw = x86_x87_host(c, op, h);

	/* an unmasked invalid operand suppresses the load; an unmasked
	 * denormal does not: the host says which by what it pushed */
	if (h->nout == 1)
		x87_push(c, &h->r[0]);
	x87_flags(c, sw, X87_CC);
}

/* ---- loads -------------------------------------------------------------- */

static void h_fld(struct x86_cpu *c, const struct x86_insn *i)
{
	const struct x86_op *o = &i->op[0];
	struct x87_host h;
	union x87_val v;

	x86_x87_begin(c, i);
	if (o->kind == X86_OP_ST) {
		/* an empty source is an underflow even when the stack is also
		 * full (the indefinite is pushed over ST(7)) */
		if (!x87_valid(c, o->reg)) {
			if (!x86_x87_underflow(c))
				return;
			x87_indefinite(&v);
		} else {
			x87_get(c, o->reg, &v);
			if (x87_full(c))
				return;
			c->fpu.fsw &= (uint16_t)~X87_C1;
		}
		x87_push(c, &v);
		return;
	}
	if (x87_full(c))
		return;
	if (o->size == 10) {
		memset(&v, 0, sizeof(v));
		x86_read(&v, x86_ea(c, i), 10);
		x87_push(c, &v);
		c->fpu.fsw &= (uint16_t)~X87_C1;
		return;
	}
	memset(&h.m, 0, sizeof(h.m));
	x86_read(&h.m, x86_ea(c, i), o->size == 4 ? 4 : 8);
	x87_push_host(c, o->size == 4 ? X87_H_FLDS : X87_H_FLDL, &h);
}

static void h_fild(struct x86_cpu *c, const struct x86_insn *i)
{
	const struct x86_op *o = &i->op[0];
	struct x87_host h;

	x86_x87_begin(c, i);
	if (x87_full(c))
		return;
	memset(&h.m, 0, sizeof(h.m));
	x86_read(&h.m, x86_ea(c, i), o->size);
	x87_push_host(c, o->size == 2 ? X87_H_FILDS : o->size == 4 ? X87_H_FILDL : X87_H_FILDQ, &h);
}

static void h_fbld(struct x86_cpu *c, const struct x86_insn *i)
{
	struct x87_host h;

	x86_x87_begin(c, i);
	if (x87_full(c))
		return;
	memset(&h.m, 0, sizeof(h.m));
	x86_read(&h.m, x86_ea(c, i), 10);
	x87_push_host(c, X87_H_FBLD, &h);
}

static void x87_const(struct x86_cpu *c, const struct x86_insn *i, enum x87_hop op)
{
	struct x87_host h;

	x86_x87_begin(c, i);
	if (x87_full(c))
		return;
	x87_push_host(c, op, &h);
}

static void h_fld1(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_const(c, i, X87_H_FLD1);
}
static void h_fldz(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_const(c, i, X87_H_FLDZ);
}
static void h_fldpi(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_const(c, i, X87_H_FLDPI);
}
static void h_fldl2e(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_const(c, i, X87_H_FLDL2E);
}
static void h_fldl2t(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_const(c, i, X87_H_FLDL2T);
}
static void h_fldlg2(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_const(c, i, X87_H_FLDLG2);
}
static void h_fldln2(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_const(c, i, X87_H_FLDLN2);
}

/* ---- stores ------------------------------------------------------------- */

/* Store ST(0) to memory through host op (size bytes), popping pop times.
 * Masked underflow converts the indefinite, which gives the destination
 * format's indefinite (QNaN, integer or BCD indefinite) as hardware
 * stores it. */
static void x87_store(struct x86_cpu *c, const struct x86_insn *i, enum x87_hop op, unsigned size,
		      int pop)
{
	uint64_t ea = x86_ea(c, i);
	struct x87_host h;
	uint16_t sw;
	int empty = !x87_valid(c, 0);

	if (empty) {
		if (!x86_x87_underflow(c))
			return;
		x87_indefinite(&h.a);
	} else {
		x87_get(c, 0, &h.a);
	}
	sw = x86_x87_host(c, op, &h);
	x87_flags(c, sw, X87_CC);
	if (x87_aborted(c, sw, X87_ABORT_MEM))
		return;
	x86_write(ea, &h.o, size);
	if (pop)
		x87_pop(c);
}

static void x87_fst(struct x86_cpu *c, const struct x86_insn *i, int pop)
{
	const struct x86_op *o = &i->op[0];
	union x87_val v;

	x86_x87_begin(c, i);
	if (o->kind == X86_OP_ST || o->size == 10) {
		if (!x87_valid(c, 0)) {
			if (!x86_x87_underflow(c))
				return;
			x87_indefinite(&v);
		} else {
			x87_get(c, 0, &v);
			c->fpu.fsw &= (uint16_t)~X87_C1;
		}
		if (o->kind == X86_OP_ST)
			x87_set(c, o->reg, &v);
		else
			x86_write(x86_ea(c, i), &v, 10);
		if (pop)
			x87_pop(c);
		return;
	}
	x87_store(c, i, o->size == 4 ? X87_H_FSTS : X87_H_FSTL, o->size, pop);
}

static void h_fst(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_fst(c, i, 0);
}
static void h_fstp(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_fst(c, i, 1);
}

/* D9 D8+i, the alias of fstp st(i) that does not check for an empty
 * ST(0): from an empty register it stores nothing and only pops. */
static void h_fstpnce(struct x86_cpu *c, const struct x86_insn *i)
{
	if (x87_valid(c, 0)) {
		x87_fst(c, i, 1);
		return;
	}
	x86_x87_begin(c, i);
	c->fpu.fsw &= (uint16_t)~X87_C1;
	x87_pop(c);
}

static void h_fist(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned size = i->op[0].size;

	x86_x87_begin(c, i);
	x87_store(c, i, size == 2 ? X87_H_FISTS : X87_H_FISTL, size, 0);
}

static void h_fistp(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned size = i->op[0].size;

	x86_x87_begin(c, i);
	x87_store(c, i, size == 2 ? X87_H_FISTS : size == 4 ? X87_H_FISTL : X87_H_FISTPQ, size, 1);
}

static void h_fisttp(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned size = i->op[0].size;

	x86_x87_begin(c, i);
	x87_store(c, i,
		  size == 2 ? X87_H_FISTTPS :
		  size == 4 ? X87_H_FISTTPL :
			      X87_H_FISTTPQ,
		  size, 1);
}

static void h_fbstp(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_x87_begin(c, i);
	x87_store(c, i, X87_H_FBSTP, 10, 1);
}

/* ---- stack -------------------------------------------------------------- */

/* The ST(i) operand of a one-register form: with ST(0) visible too it is
 * the other one (Zydis lists "st0, st(i)"). */
static unsigned x87_sti(const struct x86_insn *i)
{
	if (i->nops == 0)
		return 1;
	return i->op[i->nops - 1].reg;
}

static void h_fxch(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned r = x87_sti(i);
	union x87_val a, b;

	x86_x87_begin(c, i);
	x87_get(c, 0, &a);
	x87_get(c, r, &b);
	if (!x87_valid(c, 0) || !x87_valid(c, r)) {
		if (!x86_x87_underflow(c))
			return;
		if (!x87_valid(c, 0))
			x87_indefinite(&a);
		if (!x87_valid(c, r))
			x87_indefinite(&b);
	} else {
		c->fpu.fsw &= (uint16_t)~X87_C1;
	}
	x87_set(c, 0, &b);
	x87_set(c, r, &a);
}

static void h_ffree(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_x87_begin(c, i);
	c->fpu.tag &= (uint8_t) ~(1u << x87_phys(c, i->op[0].reg));
	c->fpu.fsw &= (uint16_t)~X87_C1;
}

static void h_ffreep(struct x86_cpu *c, const struct x86_insn *i)
{
	h_ffree(c, i);
	x87_pop(c);
}

static void h_fincstp(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_x87_begin(c, i);
	c->fpu.top = (c->fpu.top + 1) & 7;
	c->fpu.fsw &= (uint16_t)~X87_C1;
}

static void h_fdecstp(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_x87_begin(c, i);
	c->fpu.top = (c->fpu.top - 1) & 7;
	c->fpu.fsw &= (uint16_t)~X87_C1;
}

/* fcmovcc: the condition comes from the mnemonic (Jcc encoding). */
static void x87_fcmov(struct x86_cpu *c, const struct x86_insn *i, unsigned cc)
{
	unsigned r = x87_sti(i);
	union x87_val v;

	x86_x87_begin(c, i);
	if (!x87_valid(c, 0) || !x87_valid(c, r)) {
		x86_x87_underflow_to(c, 0, 0);
		return;
	}
	if (x86_cond(c, cc)) {
		x87_get(c, r, &v);
		x87_set(c, 0, &v);
	}
}

#define X87_FCMOV(name, cc)                                               \
	static void h_##name(struct x86_cpu *c, const struct x86_insn *i) \
	{                                                                 \
		x87_fcmov(c, i, cc);                                      \
	}
X87_FCMOV(fcmovb, 0x2)
X87_FCMOV(fcmovnb, 0x3)
X87_FCMOV(fcmove, 0x4)
X87_FCMOV(fcmovne, 0x5)
X87_FCMOV(fcmovbe, 0x6)
X87_FCMOV(fcmovnbe, 0x7)
X87_FCMOV(fcmovu, 0xa)
X87_FCMOV(fcmovnu, 0xb)

/* ---- control ------------------------------------------------------------ */

/* FCW bit 6 reads as 1, bits 7 and 13-15 as 0 (reserved). */
static uint16_t x87_fcw_value(uint16_t v)
{
	return (uint16_t)((v & 0x1f7f) | 0x40);
}

static void h_fldcw(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_x87_wait(c, i);
	c->fpu.fcw = x87_fcw_value(x86_ld16(x86_ea(c, i)));
	x87_host_fldcw(c->fpu.fcw);
	/* a newly unmasked pending flag traps at the next waiting insn */
	x87_update_es(c);
}

static void h_fnstcw(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_st16(x86_ea(c, i), c->fpu.fcw);
}

static void h_fnstsw(struct x86_cpu *c, const struct x86_insn *i)
{
	if (i->nops && i->op[0].kind == X86_OP_MEM)
		x86_st16(x86_ea(c, i), x87_fsw(c));
	else
		x86_put_gpr(c, X86_RAX, 2, x87_fsw(c));
}

static void h_fnclex(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)i;
	c->fpu.fsw &= (uint16_t) ~(X87_EXC | X87_SF | X87_ES | X87_B);
}

/* fninit (SDM vol. 2, FINIT): the registers keep their contents. */
void x86_x87_init(struct x86_cpu *c)
{
	c->fpu.fcw = 0x037f;
	c->fpu.fsw = 0;
	c->fpu.top = 0;
	c->fpu.tag = 0;
	c->fpu.fop = 0;
	c->fpu.fip = 0;
	c->fpu.fdp = 0;
}

void x86_fpu_reset(struct x86_cpu *c)
{
	x86_x87_init(c);
	c->mxcsr = 0x1f80;
}

static void h_fninit(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)i;
	x86_x87_init(c);
	x87_host_fldcw(c->fpu.fcw);
}

static void h_fwait(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_x87_wait(c, i);
}

static void h_fnop(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_x87_begin(c, i);
}

/* 8087/287 leftovers that the x87 executes as no-operations without
 * waiting (SDM vol. 1, 8.3.13 / Appendix). */
static void h_fnop_legacy(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)c;
	(void)i;
}

void x86_x87_stack_register(x86_fn *tab)
{
	tab[ZYDIS_MNEMONIC_FLD] = h_fld;
	tab[ZYDIS_MNEMONIC_FILD] = h_fild;
	tab[ZYDIS_MNEMONIC_FBLD] = h_fbld;
	tab[ZYDIS_MNEMONIC_FLD1] = h_fld1;
	tab[ZYDIS_MNEMONIC_FLDZ] = h_fldz;
	tab[ZYDIS_MNEMONIC_FLDPI] = h_fldpi;
	tab[ZYDIS_MNEMONIC_FLDL2E] = h_fldl2e;
	tab[ZYDIS_MNEMONIC_FLDL2T] = h_fldl2t;
	tab[ZYDIS_MNEMONIC_FLDLG2] = h_fldlg2;
	tab[ZYDIS_MNEMONIC_FLDLN2] = h_fldln2;
	tab[ZYDIS_MNEMONIC_FST] = h_fst;
	tab[ZYDIS_MNEMONIC_FSTP] = h_fstp;
	tab[ZYDIS_MNEMONIC_FSTPNCE] = h_fstpnce;
	tab[ZYDIS_MNEMONIC_FIST] = h_fist;
	tab[ZYDIS_MNEMONIC_FISTP] = h_fistp;
	tab[ZYDIS_MNEMONIC_FISTTP] = h_fisttp;
	tab[ZYDIS_MNEMONIC_FBSTP] = h_fbstp;
	tab[ZYDIS_MNEMONIC_FXCH] = h_fxch;
	tab[ZYDIS_MNEMONIC_FFREE] = h_ffree;
	tab[ZYDIS_MNEMONIC_FFREEP] = h_ffreep;
	tab[ZYDIS_MNEMONIC_FINCSTP] = h_fincstp;
	tab[ZYDIS_MNEMONIC_FDECSTP] = h_fdecstp;
	tab[ZYDIS_MNEMONIC_FCMOVB] = h_fcmovb;
	tab[ZYDIS_MNEMONIC_FCMOVNB] = h_fcmovnb;
	tab[ZYDIS_MNEMONIC_FCMOVE] = h_fcmove;
	tab[ZYDIS_MNEMONIC_FCMOVNE] = h_fcmovne;
	tab[ZYDIS_MNEMONIC_FCMOVBE] = h_fcmovbe;
	tab[ZYDIS_MNEMONIC_FCMOVNBE] = h_fcmovnbe;
	tab[ZYDIS_MNEMONIC_FCMOVU] = h_fcmovu;
	tab[ZYDIS_MNEMONIC_FCMOVNU] = h_fcmovnu;
	tab[ZYDIS_MNEMONIC_FLDCW] = h_fldcw;
	tab[ZYDIS_MNEMONIC_FNSTCW] = h_fnstcw;
	tab[ZYDIS_MNEMONIC_FNSTSW] = h_fnstsw;
	tab[ZYDIS_MNEMONIC_FNCLEX] = h_fnclex;
	tab[ZYDIS_MNEMONIC_FNINIT] = h_fninit;
	tab[ZYDIS_MNEMONIC_FWAIT] = h_fwait;
	tab[ZYDIS_MNEMONIC_FNOP] = h_fnop;
	tab[ZYDIS_MNEMONIC_FENI8087_NOP] = h_fnop_legacy;
	tab[ZYDIS_MNEMONIC_FDISI8087_NOP] = h_fnop_legacy;
	tab[ZYDIS_MNEMONIC_FSETPM287_NOP] = h_fnop_legacy;
}

void x86_x87_register(x86_fn *tab)
{
	x86_x87_stack_register(tab);
	x86_x87_arith_register(tab);
	x86_x87_trans_register(tab);
	x86_x87_env_register(tab);
}
