/* x87_host.c — run one x87 instruction on the host's x87.
 *
 * Each op is the same instruction the guest executes, so results, rounding
 * under the guest's precision and rounding control, exception flags and
 * condition codes are bit-identical to hardware.  The sequence is:
 * fldenv of an environment holding the guest's control word and condition
 * codes, an empty stack and no exception flags (so the codes an
 * instruction leaves alone, or sets in a vendor-specific way, come out as
 * the hardware leaves them); the inputs, loaded with fldt (never raises);
 * the instruction; fnstsw; fnclex when the instruction left an unmasked
 * exception pending, before any waiting instruction could trap on the
 * host; then whatever the instruction left on the stack is popped to
 * memory until TOP is back at 0, so the host stack is empty afterwards
 * whether the instruction pushed, popped or was suppressed.
 */
#include "x87.h"

#define X87_RUN(LOADS, INSN)                                                                 \
	__asm__ volatile("fldenv %[env]\n\t" LOADS INSN "\n\t"                               \
			 "fnstsw %%ax\n\t"                                                   \
			 "mov %%ax, %[sw]\n\t"                                               \
			 "test $0x80, %%al\n\t"                                              \
			 "jz 2f\n\t"                                                         \
			 "fnclex\n"                                                          \
			 "2:\n\t"                                                            \
			 "test $0x3800, %%ax\n\t"                                            \
			 "jz 1f\n\t"                                                         \
			 "fstpt %[r0]\n\t"                                                   \
			 "fnstsw %%ax\n\t"                                                   \
			 "test $0x3800, %%ax\n\t"                                            \
			 "jz 1f\n\t"                                                         \
			 "fstpt %[r1]\n"                                                     \
			 "1:"                                                                \
			 : [sw] "=&r"(sw), [fl] "=&Q"(fl), [r0] "=m"(h->r[0].ld),            \
			   [r1] "=m"(h->r[1].ld), [o] "=m"(h->o)                             \
			 : [env] "m"(env), [a] "m"(h->a.ld), [b] "m"(h->b.ld), [m] "m"(h->m) \
			 : "st", "st(1)", "st(2)", "ax", "cc")

#define L0 ""
#define L1 "fldt %[a]\n\t"
#define L2 "fldt %[b]\n\tfldt %[a]\n\t"
#define LAHF "\n\tlahf\n\tmovzbl %%ah, %k[fl]"

#define C0(op, insn)               \
	case op:                   \
		X87_RUN(L0, insn); \
		break
#define C1(op, insn)               \
	case op:                   \
		X87_RUN(L1, insn); \
		break
#define C2(op, insn)               \
	case op:                   \
		X87_RUN(L2, insn); \
		break

uint16_t x86_x87_host(const struct x86_cpu *c, enum x87_hop op, struct x87_host *h)
{
	/* 28-byte environment (SDM vol. 1, figure 8-9): FCW, FSW with TOP 0,
	 * every tag empty */
	const uint32_t env[7] = { 0xffff0000u | c->fpu.fcw,
				  0xffff0000u | (c->fpu.fsw & X87_CC),
				  0xffffffffu,
				  0,
				  0,
				  0,
				  0xffff0000u };
	uint16_t sw = 0;
	unsigned fl = 0;

	switch (op) {
		C0(X87_H_FLDS, "flds %[m]");
		C0(X87_H_FLDL, "fldl %[m]");
		C0(X87_H_FILDS, "filds %[m]");
		C0(X87_H_FILDL, "fildl %[m]");
		C0(X87_H_FILDQ, "fildll %[m]");
		C0(X87_H_FBLD, "fbld %[m]");
		C0(X87_H_FLD1, "fld1");
		C0(X87_H_FLDZ, "fldz");
		C0(X87_H_FLDPI, "fldpi");
		C0(X87_H_FLDL2E, "fldl2e");
		C0(X87_H_FLDL2T, "fldl2t");
		C0(X87_H_FLDLG2, "fldlg2");
		C0(X87_H_FLDLN2, "fldln2");

		C1(X87_H_FSTS, "fsts %[o]");
		C1(X87_H_FSTL, "fstl %[o]");
		C1(X87_H_FISTS, "fists %[o]");
		C1(X87_H_FISTL, "fistl %[o]");
		C1(X87_H_FISTPQ, "fistpll %[o]");
		C1(X87_H_FISTTPS, "fisttps %[o]");
		C1(X87_H_FISTTPL, "fisttpl %[o]");
		C1(X87_H_FISTTPQ, "fisttpll %[o]");
		C1(X87_H_FBSTP, "fbstp %[o]");

		C1(X87_H_FADDS, "fadds %[m]");
		C1(X87_H_FMULS, "fmuls %[m]");
		C1(X87_H_FSUBS, "fsubs %[m]");
		C1(X87_H_FSUBRS, "fsubrs %[m]");
		C1(X87_H_FDIVS, "fdivs %[m]");
		C1(X87_H_FDIVRS, "fdivrs %[m]");
		C1(X87_H_FADDL, "faddl %[m]");
		C1(X87_H_FMULL, "fmull %[m]");
		C1(X87_H_FSUBL, "fsubl %[m]");
		C1(X87_H_FSUBRL, "fsubrl %[m]");
		C1(X87_H_FDIVL, "fdivl %[m]");
		C1(X87_H_FDIVRL, "fdivrl %[m]");
		C1(X87_H_FIADDS, "fiadds %[m]");
		C1(X87_H_FIMULS, "fimuls %[m]");
		C1(X87_H_FISUBS, "fisubs %[m]");
		C1(X87_H_FISUBRS, "fisubrs %[m]");
		C1(X87_H_FIDIVS, "fidivs %[m]");
		C1(X87_H_FIDIVRS, "fidivrs %[m]");
		C1(X87_H_FIADDL, "fiaddl %[m]");
		C1(X87_H_FIMULL, "fimull %[m]");
		C1(X87_H_FISUBL, "fisubl %[m]");
		C1(X87_H_FISUBRL, "fisubrl %[m]");
		C1(X87_H_FIDIVL, "fidivl %[m]");
		C1(X87_H_FIDIVRL, "fidivrl %[m]");

		/* ST(0) = ST(0) op ST(1): the st(0)-destination forms, which AT&T
	 * syntax spells the same way as Intel's */
		C2(X87_H_FADD, "fadd %%st(1), %%st");
		C2(X87_H_FMUL, "fmul %%st(1), %%st");
		C2(X87_H_FSUB, "fsub %%st(1), %%st");
		C2(X87_H_FSUBR, "fsubr %%st(1), %%st");
		C2(X87_H_FDIV, "fdiv %%st(1), %%st");
		C2(X87_H_FDIVR, "fdivr %%st(1), %%st");

		C1(X87_H_FCOMS, "fcoms %[m]");
		C1(X87_H_FCOML, "fcoml %[m]");
		C1(X87_H_FICOMS, "ficoms %[m]");
		C1(X87_H_FICOML, "ficoml %[m]");
		C2(X87_H_FCOM, "fcom %%st(1)");
		C2(X87_H_FUCOM, "fucom %%st(1)");
		C2(X87_H_FCOMI, "fcomi %%st(1), %%st" LAHF);
		C2(X87_H_FUCOMI, "fucomi %%st(1), %%st" LAHF);
		C1(X87_H_FTST, "ftst");
		C1(X87_H_FXAM, "fxam");

		C1(X87_H_FSQRT, "fsqrt");
		C1(X87_H_FRNDINT, "frndint");
		C1(X87_H_F2XM1, "f2xm1");
		C1(X87_H_FSIN, "fsin");
		C1(X87_H_FCOS, "fcos");
		C1(X87_H_FPTAN, "fptan");
		C1(X87_H_FSINCOS, "fsincos");
		C1(X87_H_FXTRACT, "fxtract");

		C2(X87_H_FSCALE, "fscale");
		C2(X87_H_FPREM, "fprem");
		C2(X87_H_FPREM1, "fprem1");
		C2(X87_H_FYL2X, "fyl2x");
		C2(X87_H_FYL2XP1, "fyl2xp1");
		C2(X87_H_FPATAN, "fpatan");
	default:
		break;
	}
	h->nout = (8 - (sw >> 11)) & 7;
	h->eflags = fl & (X86_ZF | X86_PF | X86_CF);
	return sw;
}
