/* forms_x87.S — x87 forms: what libc, libm and long double code execute.
 * Loads, stores and integer conversions, arithmetic in all operand forms,
 * compares, the transcendental instructions, constants, stack and control
 * instructions.  Inputs: random extended values (specials included), random
 * stack depth and TOP (so overflow and underflow happen), random precision
 * and rounding control.  Exceptions stay masked.
 *
 * O_FU marks forms after which the SDM leaves C0, C2 and C3 undefined
 * (O_C2: except C2), O_C1U those after which C1 is undefined too.
 */
#include "forms.h"

#define X (FL_ALL)
#define FU (O_FU)
#define FM (O_FU | O_MEM)

/* ---- loads and stores --------------------------------------------------------- */

	F X, FM | O_M32, 0, flds (%rbx)
	F X, FM | O_M64, 0, fldl (%rbx)
	F X, FM | O_M80, 0, fldt (%rbx)
	F X, FU, 0, fld %st(0)
	F X, FU, 0, fld %st(3)
	F X, FM, 0, filds (%rbx)
	F X, FM, 0, fildl (%rbx)
	F X, FM, 0, fildll (%rbx)
	.irp op, fld1, fldz, fldpi, fldl2e, fldln2, fldl2t, fldlg2
	F X, FU, 0, \op
	.endr
	F X, FM, 0, fsts (%rbx)
	F X, FM, 0, fstl (%rbx)
	F X, FM, 0, fstps (%rbx)
	F X, FM, 0, fstpl (%rbx)
	F X, FM, 0, fstpt (%rbx)
	F X, FU, 0, fst %st(3)
	F X, FU, 0, fstp %st(3)
	F X, FU, 0, fstp %st(0)
	/* D9 D8+i: an alias of fstp st(i) */
	F X, FU, 0, .byte 0xd9, 0xd9
	F X, FM, 0, fists (%rbx)
	F X, FM, 0, fistl (%rbx)
	F X, FM, 0, fistps (%rbx)
	F X, FM, 0, fistpl (%rbx)
	F X, FM, 0, fistpll (%rbx)
	F X, FM, CLS(C_BCD, 0, 0), fbld (%rbx)
	F X, FM, 0, fbstp (%rbx)
	/* SSE3 */
	F X, FM, 0, fisttps (%rbx)
	F X, FM, 0, fisttpl (%rbx)
	F X, FM, 0, fisttpll (%rbx)

/* ---- arithmetic ---------------------------------------------------------------------- */

	.irp op, fadd, fsub, fsubr, fmul, fdiv, fdivr
	F X, FU, 0, \op %st(2), %st
	F X, FU, 0, \op %st, %st(2)
	F X, FU, 0, \op\()p %st, %st(3)
	F X, FU, 0, \op\()p
	F X, FM | O_M32, 0, \op\()s (%rbx)
	F X, FM | O_M64, 0, \op\()l (%rbx)
	.endr
	.irp op, fiadd, fisub, fisubr, fimul, fidiv, fidivr
	F X, FM, 0, \op\()s (%rbx)
	F X, FM, 0, \op\()l (%rbx)
	.endr
	.irp op, fchs, fabs, fsqrt, frndint, fscale, fxtract, f2xm1, fyl2x, fyl2xp1, fpatan
	F X, FU, 0, \op
	.endr
	.irp op, fsin, fcos, fsincos, fptan
	F X, FU | O_C2, 0, \op
	.endr
	/* partial remainder: C0 C1 C3 carry quotient bits, C2 incompleteness */
	A fprem
	A fprem1

/* ---- compares ------------------------------------------------------------------------- */

	A fcom %st(1)
	A fcom %st(3)
	A fcomp %st(2)
	A fcompp
	A fucom %st(1)
	A fucomp %st(3)
	A fucompp
	F X, O_MEM | O_M32, 0, fcoms (%rbx)
	F X, O_MEM | O_M64, 0, fcoml (%rbx)
	F X, O_MEM | O_M32, 0, fcomps (%rbx)
	F X, O_MEM | O_M64, 0, fcompl (%rbx)
	AM ficoms (%rbx)
	AM ficompl (%rbx)
	A ftst
	A fxam
	/* EFLAGS ZF PF CF from the compare, OF SF AF cleared; C0 C2 C3 kept */
	A fcomi %st(1), %st
	A fcomi %st(3), %st
	A fucomi %st(1), %st
	A fcomip %st(2), %st
	A fucomip %st(1), %st
	.irp cc, b, e, be, u, nb, ne, nbe, nu
	F X, FU, 0, fcmov\cc %st(2), %st
	.endr

/* ---- stack and control -------------------------------------------------------------------- */

	F X, FU, 0, fxch %st(3)
	F X, FU, 0, fxch
	F X, FU | O_C1U, 0, ffree %st(2)
	F X, FU | O_C1U, 0, ffreep %st(1)
	F X, FU, 0, fincstp
	F X, FU, 0, fdecstp
	F X, FU | O_C1U, 0, fnstsw %ax
	F X, FM | O_C1U, 0, fnstsw (%rbx)
	F X, FM | O_C1U, 0, fnstcw (%rbx)
	F X, FM | O_C1U, CLS(C_LDCW, 0, 0), fldcw (%rbx)
	F X, FM | O_C1U, CLS(C_FSTENV, 0, 0), fnstenv (%rbx)
	F X, O_MEM, CLS(C_FENV, 0, 0), fldenv (%rbx)
	F X, O_MEM, CLS(C_FSTENV, 0, 0), fnsave (%rbx)
	F X, O_MEM, CLS(C_FRSTOR, 0, 0), frstor (%rbx)
	A fninit
	F X, FU | O_C1U, 0, fnclex
	F X, FU | O_C1U, 0, fwait
	F X, FU | O_C1U, 0, fnop
	/* 8087/287 leftovers that execute as fnop */
	F X, FU | O_C1U, 0, fndisi
	F X, FU | O_C1U, 0, fneni
	F X, FU | O_C1U, 0, fnsetpm

	.section .note.GNU-stack, "", @progbits
