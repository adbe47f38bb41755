/* x87_trans.c — x87 square root, rounding, scaling, partial remainders and
 * the transcendental instructions.  Each runs as the same host
 * instruction, so results (including the x87's own argument reduction and
 * out-of-range behaviour of fsin & co.) are those of the hardware.
 */
#include <Zydis/Zydis.h>

#include "x87.h"

/* A stack fault clears C2 in the instructions that report a partial
 * result or an out-of-range operand there, as the hardware does. */
static int x87_reports_c2(enum x87_hop op)
{
	return op == X87_H_FSIN || op == X87_H_FCOS || op == X87_H_FPTAN || op == X87_H_FSINCOS ||
	       op == X87_H_FPREM || op == X87_H_FPREM1;
}

static void x87_clear_c2(struct x86_cpu *c, enum x87_hop op)
{
	if (x87_reports_c2(op))
		c->fpu.fsw &= (uint16_t)~X87_C2;
}

/* ST(0) = op(ST(0)). */
static void x87_unary(struct x86_cpu *c, const struct x86_insn *i, enum x87_hop op)
{
	struct x87_host h;
	uint16_t sw;

	x86_x87_begin(c, i);
	if (!x87_valid(c, 0)) {
		x87_clear_c2(c, op);
		x86_x87_underflow_to(c, 0, 0);
		return;
	}
	x87_get(c, 0, &h.a);
	sw = x86_x87_host(c, op, &h);
	if (!x87_aborted(c, sw, X87_ABORT_REG))
		x87_set(c, 0, &h.r[0]);
	x87_flags(c, sw, X87_CC);
}

static void h_fsqrt(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_unary(c, i, X87_H_FSQRT);
}
static void h_frndint(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_unary(c, i, X87_H_FRNDINT);
}
static void h_f2xm1(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_unary(c, i, X87_H_F2XM1);
}
static void h_fsin(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_unary(c, i, X87_H_FSIN);
}
static void h_fcos(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_unary(c, i, X87_H_FCOS);
}

/* fptan, fsincos, fxtract: replace ST(0) and push a second result.  The
 * host tells whether it pushed (it does not when the operand is out of
 * range, C2 = 1, or an unmasked exception suppressed the result). */
static void x87_unary_push(struct x86_cpu *c, const struct x86_insn *i, enum x87_hop op)
{
	struct x87_host h;
	union x87_val v;
	uint16_t sw;

	x86_x87_begin(c, i);
	if (!x87_valid(c, 0) || x87_valid(c, 7)) {
		int masked;
		x87_clear_c2(c, op);
		masked = x87_valid(c, 0) ? x86_x87_overflow(c) : x86_x87_underflow(c);
		if (masked) {
			x87_indefinite(&v);
			x87_set(c, 0, &v);
			x87_push(c, &v);
		}
		return;
	}
	x87_get(c, 0, &h.a);
	sw = x86_x87_host(c, op, &h);
	if (h.nout == 2) {
		x87_set(c, 0, &h.r[1]);
		x87_push(c, &h.r[0]);
	} else {
		x87_set(c, 0, &h.r[0]);
	}
	x87_flags(c, sw, X87_CC);
}

static void h_fptan(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_unary_push(c, i, X87_H_FPTAN);
}
static void h_fsincos(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_unary_push(c, i, X87_H_FSINCOS);
}
static void h_fxtract(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_unary_push(c, i, X87_H_FXTRACT);
}

/* fscale, fprem, fprem1: ST(0) = op(ST(0), ST(1)), no pop. */
static void x87_binary(struct x86_cpu *c, const struct x86_insn *i, enum x87_hop op)
{
	struct x87_host h;
	uint16_t sw;

	x86_x87_begin(c, i);
	if (!x87_valid(c, 0) || !x87_valid(c, 1)) {
		x87_clear_c2(c, op);
		x86_x87_underflow_to(c, 0, 0);
		return;
	}
	x87_get(c, 0, &h.a);
	x87_get(c, 1, &h.b);
	sw = x86_x87_host(c, op, &h);
	x87_flags(c, sw, X87_CC);
	if (!x87_aborted(c, sw, X87_ABORT_REG))
		x87_set(c, 0, &h.r[0]);
}

static void h_fscale(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_binary(c, i, X87_H_FSCALE);
}
/* C2 = reduction incomplete; C0, C3, C1 = quotient bits 2, 1, 0 */
static void h_fprem(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_binary(c, i, X87_H_FPREM);
}
static void h_fprem1(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_binary(c, i, X87_H_FPREM1);
}

/* fyl2x, fyl2xp1, fpatan: ST(1) = op(ST(1), ST(0)), then pop. */
static void x87_binary_pop(struct x86_cpu *c, const struct x86_insn *i, enum x87_hop op)
{
	struct x87_host h;
	uint16_t sw;

	x86_x87_begin(c, i);
	if (!x87_valid(c, 0) || !x87_valid(c, 1)) {
		x86_x87_underflow_to(c, 1, 1);
		return;
	}
	x87_get(c, 0, &h.a);
	x87_get(c, 1, &h.b);
	sw = x86_x87_host(c, op, &h);
	x87_flags(c, sw, X87_CC);
	if (h.nout != 1)
		return; /* suppressed by an unmasked exception */
	x87_set(c, 1, &h.r[0]);
	x87_pop(c);
}

static void h_fyl2x(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_binary_pop(c, i, X87_H_FYL2X);
}
static void h_fyl2xp1(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_binary_pop(c, i, X87_H_FYL2XP1);
}
static void h_fpatan(struct x86_cpu *c, const struct x86_insn *i)
{
	x87_binary_pop(c, i, X87_H_FPATAN);
}

void x86_x87_trans_register(x86_fn *tab)
{
	tab[ZYDIS_MNEMONIC_FSQRT] = h_fsqrt;
	tab[ZYDIS_MNEMONIC_FRNDINT] = h_frndint;
	tab[ZYDIS_MNEMONIC_F2XM1] = h_f2xm1;
	tab[ZYDIS_MNEMONIC_FSIN] = h_fsin;
	tab[ZYDIS_MNEMONIC_FCOS] = h_fcos;
	tab[ZYDIS_MNEMONIC_FPTAN] = h_fptan;
	tab[ZYDIS_MNEMONIC_FSINCOS] = h_fsincos;
	tab[ZYDIS_MNEMONIC_FXTRACT] = h_fxtract;
	tab[ZYDIS_MNEMONIC_FSCALE] = h_fscale;
	tab[ZYDIS_MNEMONIC_FPREM] = h_fprem;
	tab[ZYDIS_MNEMONIC_FPREM1] = h_fprem1;
	tab[ZYDIS_MNEMONIC_FYL2X] = h_fyl2x;
	tab[ZYDIS_MNEMONIC_FYL2XP1] = h_fyl2xp1;
	tab[ZYDIS_MNEMONIC_FPATAN] = h_fpatan;
}
