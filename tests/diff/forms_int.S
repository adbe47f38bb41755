/* forms_int.S — integer instruction forms: ALU, unary, multiply/divide,
 * shifts and rotates, bit operations, exchange and compare-exchange, moves
 * and extensions, conditional moves and sets.  Control transfer, stack,
 * string and miscellaneous forms are in forms_ctl.S.
 *
 * Register conventions: sources in rcx/cl, destinations in rdx/dl; memory
 * operands at (%rbx) (O_MEM), indexed forms use r12 (O_IDX).
 */
#include "forms.h"

/* ---- the eight ALU operations: all sizes, all operand forms ------------- */

	.macro ALU fl, op
	F \fl, 0, 0, \op\()b %cl, %dl
	F \fl, 0, 0, \op\()w %cx, %dx
	F \fl, 0, 0, \op\()l %ecx, %edx
	F \fl, 0, 0, \op\()q %rcx, %rdx
	F \fl, 0, 0, \op\()b %ah, %ch
	F \fl, 0, 0, \op\()b %sil, %r9b
	F \fl, 0, 0, \op\()q %r10, %r11
	F \fl, 0, 0, \op\()l %edx, %edx
	F \fl, O_MEM, 0, \op\()b (%rbx), %dl
	F \fl, O_MEM, 0, \op\()w 2(%rbx), %dx
	F \fl, O_MEM, 0, \op\()l -4(%rbx), %edx
	F \fl, O_MEM, 0, \op\()q (%rbx), %rdx
	F \fl, O_MEM, 0, \op\()b %cl, 1(%rbx)
	F \fl, O_MEM, 0, \op\()w %cx, (%rbx)
	F \fl, O_MEM, 0, \op\()l %ecx, (%rbx)
	F \fl, O_MEM | O_IDX, 0, \op\()q %rcx, 8(%rbx,%r12,8)
	F \fl, 0, 0, \op\()b $0x5a, %dl
	F \fl, 0, 0, \op\()w $0x1234, %dx
	F \fl, 0, 0, \op\()w $-3, %dx
	F \fl, 0, 0, \op\()l $0x12345678, %edx
	F \fl, 0, 0, \op\()l $-3, %edx
	F \fl, 0, 0, \op\()q $-0x12345678, %rdx
	F \fl, 0, 0, \op\()q $3, %rdx
	F \fl, 0, 0, \op\()b $0x80, %al
	F \fl, 0, 0, \op\()w $0x8001, %ax
	F \fl, 0, 0, \op\()l $0x80000001, %eax
	F \fl, 0, 0, \op\()q $0x7fffffff, %rax
	F \fl, O_MEM, 0, \op\()b $7, 3(%rbx)
	F \fl, O_MEM, 0, \op\()w $-300, (%rbx)
	F \fl, O_MEM, 0, \op\()l $0x12345678, (%rbx)
	F \fl, O_MEM | O_IDX, 0, \op\()q $-5, (%rbx,%r12,4)
	.endm

	.irp op, add, adc, sub, sbb, cmp
	ALU FL_ALL, \op
	.endr
	.irp op, and, or, xor
	ALU FL_LOGIC, \op
	.endr

	F FL_LOGIC, 0, 0, testb %cl, %dl
	F FL_LOGIC, 0, 0, testw %cx, %dx
	F FL_LOGIC, 0, 0, testl %ecx, %edx
	F FL_LOGIC, 0, 0, testq %rcx, %rdx
	F FL_LOGIC, 0, 0, testb %ah, %dh
	F FL_LOGIC, 0, 0, testb $0x81, %dl
	F FL_LOGIC, 0, 0, testb $0x81, %al
	F FL_LOGIC, 0, 0, testw $0x8001, %dx
	F FL_LOGIC, 0, 0, testl $0x80000001, %edx
	F FL_LOGIC, 0, 0, testl $0x80000001, %eax
	F FL_LOGIC, 0, 0, testq $-2, %rdx
	F FL_LOGIC, O_MEM, 0, testl %ecx, (%rbx)
	F FL_LOGIC, O_MEM, 0, testq %rcx, (%rbx)
	F FL_LOGIC, O_MEM, 0, testb $0x40, 2(%rbx)
	F FL_LOGIC, O_MEM, 0, testw $0x4000, (%rbx)

/* ---- unary --------------------------------------------------------------- */

	.irp op, inc, dec, neg, not
	A \op\()b %dl
	A \op\()b %ah
	A \op\()w %dx
	A \op\()l %edx
	A \op\()q %rdx
	A \op\()q %r13
	AM \op\()b (%rbx)
	AM \op\()w (%rbx)
	AM \op\()l (%rbx)
	AM \op\()q (%rbx)
	.endr

/* ---- multiply and divide ----------------------------------------------------- */

	.irp op, mul, imul
	F FL_MUL, 0, 0, \op\()b %cl
	F FL_MUL, 0, 0, \op\()w %cx
	F FL_MUL, 0, 0, \op\()l %ecx
	F FL_MUL, 0, 0, \op\()q %rcx
	F FL_MUL, 0, 0, \op\()b %ah
	F FL_MUL, O_MEM, 0, \op\()b (%rbx)
	F FL_MUL, O_MEM, 0, \op\()w (%rbx)
	F FL_MUL, O_MEM, 0, \op\()l (%rbx)
	F FL_MUL, O_MEM, 0, \op\()q (%rbx)
	.endr
	F FL_MUL, 0, 0, imulw %cx, %dx
	F FL_MUL, 0, 0, imull %ecx, %edx
	F FL_MUL, 0, 0, imulq %rcx, %rdx
	F FL_MUL, O_MEM, 0, imulw (%rbx), %dx
	F FL_MUL, O_MEM, 0, imull (%rbx), %edx
	F FL_MUL, O_MEM, 0, imulq 8(%rbx), %rdx
	F FL_MUL, 0, 0, imulw $300, %cx, %dx
	F FL_MUL, 0, 0, imulw $-3, %cx, %dx
	F FL_MUL, 0, 0, imull $0x12345, %ecx, %edx
	F FL_MUL, 0, 0, imull $-7, %ecx, %edx
	F FL_MUL, 0, 0, imulq $0x7fffffff, %rcx, %rdx
	F FL_MUL, 0, 0, imulq $-2, %rcx, %rdx
	F FL_MUL, O_MEM, 0, imull $7, (%rbx), %edx
	F FL_MUL, O_MEM, 0, imulq $-100000, (%rbx), %rdx

	/* divisor in rcx (arg 0) or at (%rbx) (arg 1); all six flags undefined */
	.macro DIVS op, c, cf
	F FL_NONE, 0, CLS(\c, 1, 0), \op\()b %cl
	F FL_NONE, 0, CLS(\c, 2, 0), \op\()w %cx
	F FL_NONE, 0, CLS(\c, 4, 0), \op\()l %ecx
	F FL_NONE, 0, CLS(\c, 8, 0), \op\()q %rcx
	F FL_NONE, O_MEM, CLS(\c, 1, 1), \op\()b (%rbx)
	F FL_NONE, O_MEM, CLS(\c, 2, 1), \op\()w (%rbx)
	F FL_NONE, O_MEM, CLS(\c, 4, 1), \op\()l (%rbx)
	F FL_NONE, O_MEM, CLS(\c, 8, 1), \op\()q (%rbx)
	/* divide error: divisor 0 or quotient too large: both sides fault */
	F FL_NONE, O_FAULT, CLS(\cf, 1, 0), \op\()b %cl
	F FL_NONE, O_FAULT, CLS(\cf, 2, 0), \op\()w %cx
	F FL_NONE, O_FAULT, CLS(\cf, 4, 0), \op\()l %ecx
	F FL_NONE, O_FAULT | O_MEM, CLS(\cf, 8, 1), \op\()q (%rbx)
	.endm
	DIVS div, C_DIV, C_DIVF
	DIVS idiv, C_IDIV, C_IDIVF

/* ---- shifts and rotates: count 1, immediate (0, in range, >= width,
 * masked), %cl; the class computes which flags the count defines ------- */

	.macro SH op, c
	F FL_ALL, 0, CLS(\c, 1, 1), \op\()b %dl
	F FL_ALL, 0, CLS(\c, 2, 1), \op\()w %dx
	F FL_ALL, 0, CLS(\c, 4, 1), \op\()l %edx
	F FL_ALL, 0, CLS(\c, 8, 1), \op\()q %rdx
	F FL_ALL, 0, CLS(\c, 1, 1), \op\()b %ah
	F FL_ALL, 0, CLS(\c, 1, 3), \op\()b $3, %dl
	F FL_ALL, 0, CLS(\c, 1, 8), \op\()b $8, %dl
	F FL_ALL, 0, CLS(\c, 1, 12), \op\()b $12, %dl
	F FL_ALL, 0, CLS(\c, 2, 9), \op\()w $9, %dx
	F FL_ALL, 0, CLS(\c, 2, 17), \op\()w $17, %dx
	F FL_ALL, 0, CLS(\c, 4, 0), \op\()l $0, %edx
	F FL_ALL, 0, CLS(\c, 4, 17), \op\()l $17, %edx
	F FL_ALL, 0, CLS(\c, 4, 31), \op\()l $31, %edx
	F FL_ALL, 0, CLS(\c, 4, 0x21), \op\()l $0x21, %edx
	F FL_ALL, 0, CLS(\c, 8, 33), \op\()q $33, %rdx
	F FL_ALL, 0, CLS(\c, 8, 63), \op\()q $63, %rdx
	F FL_ALL, 0, CLS(\c, 8, 0x45), \op\()q $0x45, %rdx
	F FL_ALL, 0, CLS(\c, 1, 0xff), \op\()b %cl, %dl
	F FL_ALL, 0, CLS(\c, 2, 0xff), \op\()w %cl, %dx
	F FL_ALL, 0, CLS(\c, 4, 0xff), \op\()l %cl, %edx
	F FL_ALL, 0, CLS(\c, 8, 0xff), \op\()q %cl, %rdx
	F FL_ALL, O_MEM, CLS(\c, 1, 1), \op\()b 1(%rbx)
	F FL_ALL, O_MEM, CLS(\c, 2, 0xff), \op\()w %cl, (%rbx)
	F FL_ALL, O_MEM, CLS(\c, 4, 0xff), \op\()l %cl, (%rbx)
	F FL_ALL, O_MEM, CLS(\c, 8, 7), \op\()q $7, (%rbx)
	.endm
	SH shl, C_SHL
	SH shr, C_SHR
	SH sar, C_SAR
	SH rol, C_ROT
	SH ror, C_ROT
	SH rcl, C_RCX
	SH rcr, C_RCX

	.macro SHD op
	F FL_ALL, 0, CLS(C_SHD, 2, 0xff), \op\()w %cl, %cx, %dx
	F FL_ALL, 0, CLS(C_SHD, 4, 0xff), \op\()l %cl, %ecx, %edx
	F FL_ALL, 0, CLS(C_SHD, 8, 0xff), \op\()q %cl, %rcx, %rdx
	F FL_ALL, 0, CLS(C_SHD, 2, 1), \op\()w $1, %cx, %dx
	F FL_ALL, 0, CLS(C_SHD, 2, 5), \op\()w $5, %cx, %dx
	F FL_ALL, 0, CLS(C_SHD, 2, 16), \op\()w $16, %cx, %dx
	F FL_ALL, 0, CLS(C_SHD, 4, 0), \op\()l $0, %ecx, %edx
	F FL_ALL, 0, CLS(C_SHD, 4, 1), \op\()l $1, %ecx, %edx
	F FL_ALL, 0, CLS(C_SHD, 4, 31), \op\()l $31, %ecx, %edx
	F FL_ALL, 0, CLS(C_SHD, 4, 0x2c), \op\()l $0x2c, %ecx, %edx
	F FL_ALL, 0, CLS(C_SHD, 8, 1), \op\()q $1, %rcx, %rdx
	F FL_ALL, 0, CLS(C_SHD, 8, 40), \op\()q $40, %rcx, %rdx
	F FL_ALL, 0, CLS(C_SHD, 8, 63), \op\()q $63, %rcx, %rdx
	F FL_ALL, O_MEM, CLS(C_SHD, 4, 0xff), \op\()l %cl, %ecx, (%rbx)
	F FL_ALL, O_MEM, CLS(C_SHD, 8, 13), \op\()q $13, %rcx, (%rbx)
	.endm
	SHD shld
	SHD shrd

/* ---- bit operations ------------------------------------------------------------ */

	.irp op, bt, bts, btr, btc
	F FL_BT, 0, 0, \op\()w %cx, %dx
	F FL_BT, 0, 0, \op\()l %ecx, %edx
	F FL_BT, 0, 0, \op\()q %rcx, %rdx
	F FL_BT, 0, 0, \op\()w $13, %dx
	F FL_BT, 0, 0, \op\()l $31, %edx
	F FL_BT, 0, 0, \op\()l $40, %edx
	F FL_BT, 0, 0, \op\()q $45, %rdx
	F FL_BT, O_MEM, CLS(C_BTM, 2, 0), \op\()w %cx, (%rbx)
	F FL_BT, O_MEM, CLS(C_BTM, 4, 0), \op\()l %ecx, (%rbx)
	F FL_BT, O_MEM, CLS(C_BTM, 8, 0), \op\()q %rcx, (%rbx)
	F FL_BT, O_MEM, 0, \op\()w $17, (%rbx)
	F FL_BT, O_MEM, 0, \op\()l $35, (%rbx)
	F FL_BT, O_MEM, 0, \op\()q $70, 8(%rbx)
	.endr
	.irp op, bts, btr, btc
	F FL_BT, O_MEM, CLS(C_BTM, 8, 0), lock \op\()q %rcx, (%rbx)
	F FL_BT, O_MEM, 0, lock \op\()l $5, (%rbx)
	.endr

	.irp op, bsf, bsr
	F FL_BSF, 0, 0, \op\()w %cx, %dx
	F FL_BSF, 0, 0, \op\()l %ecx, %edx
	F FL_BSF, 0, 0, \op\()q %rcx, %rdx
	F FL_BSF, O_MEM, 0, \op\()l (%rbx), %edx
	F FL_BSF, O_MEM, 0, \op\()q (%rbx), %rdx
	.endr
	/* F3 0F BC: tzcnt on BMI1 hosts, bsf on the emulated processor; the
	 * two agree on the result for a non-zero source (gcc emits it for ctz) */
	F FL_NONE, 0, CLS(C_NZ, 4, 0), rep bsfl %ecx, %edx
	F FL_NONE, 0, CLS(C_NZ, 8, 0), rep bsfq %rcx, %rdx

	A bswap %edx
	A bswap %rdx
	A bswap %r9d
	A bswap %r9

/* ---- exchange, compare-exchange, locked read-modify-write ----------------------- */

	A xchgb %cl, %dl
	A xchgb %ah, %dl
	A xchgw %cx, %dx
	A xchgl %ecx, %edx
	A xchgq %rcx, %rdx
	A xchg %eax, %edx
	A xchg %rax, %r9
	A xchg %ax, %dx
	A xchgl %eax, %eax
	AM xchgb %cl, (%rbx)
	AM xchgw %cx, (%rbx)
	AM xchgl %ecx, (%rbx)
	AM xchgq (%rbx), %rcx

	A xaddb %cl, %dl
	A xaddw %cx, %dx
	A xaddl %ecx, %edx
	A xaddq %rcx, %rdx
	AM xaddl %ecx, (%rbx)
	AM lock xaddb %cl, (%rbx)
	AM lock xaddw %cx, (%rbx)
	AM lock xaddq %rcx, (%rbx)

	F FL_ALL, 0, CLS(C_CMPX, 1, 0), cmpxchgb %cl, %dl
	F FL_ALL, 0, CLS(C_CMPX, 2, 0), cmpxchgw %cx, %dx
	F FL_ALL, 0, CLS(C_CMPX, 4, 0), cmpxchgl %ecx, %edx
	F FL_ALL, 0, CLS(C_CMPX, 8, 0), cmpxchgq %rcx, %rdx
	F FL_ALL, O_MEM, CLS(C_CMPX, 4, 1), cmpxchgl %ecx, (%rbx)
	F FL_ALL, O_MEM, CLS(C_CMPX, 1, 1), lock cmpxchgb %cl, (%rbx)
	F FL_ALL, O_MEM, CLS(C_CMPX, 2, 1), lock cmpxchgw %cx, (%rbx)
	F FL_ALL, O_MEM, CLS(C_CMPX, 4, 1), lock cmpxchgl %ecx, (%rbx)
	F FL_ALL, O_MEM, CLS(C_CMPX, 8, 1), lock cmpxchgq %rcx, (%rbx)
	F FL_ALL, O_MEM, CLS(C_CMPX2, 8, 0), cmpxchg8b (%rbx)
	F FL_ALL, O_MEM, CLS(C_CMPX2, 8, 0), lock cmpxchg8b (%rbx)
	F FL_ALL, O_MEM | O_CX16, CLS(C_CMPX2, 16, 0), cmpxchg16b (%rbx)
	F FL_ALL, O_MEM | O_CX16, CLS(C_CMPX2, 16, 0), lock cmpxchg16b (%rbx)

	AM lock addl %ecx, (%rbx)
	AM lock addq $-9, (%rbx)
	AM lock orb $0x81, (%rbx)
	AM lock adcq %rcx, (%rbx)
	AM lock sbbw %cx, (%rbx)
	F FL_LOGIC, O_MEM, 0, lock andl $0xf0f0f0f0, (%rbx)
	AM lock subq $5, (%rbx)
	F FL_LOGIC, O_MEM, 0, lock xorb %cl, (%rbx)
	F FL_LOGIC, O_MEM, 0, lock orq %rcx, (%rbx)
	AM lock incl (%rbx)
	AM lock decq (%rbx)
	AM lock negw (%rbx)
	AM lock notb (%rbx)

/* ---- moves and extensions --------------------------------------------------------- */

	A movb %cl, %dl
	A movw %cx, %dx
	A movl %ecx, %edx
	A movq %rcx, %rdx
	A movb %ah, %dl
	A movb %cl, %ah
	A movb %sil, %dil
	A movq %r8, %r15
	AM movb (%rbx), %dl
	AM movw (%rbx), %dx
	AM movl (%rbx), %edx
	AM movq (%rbx), %rdx
	AM movb %cl, (%rbx)
	AM movw %cx, (%rbx)
	AM movl %ecx, (%rbx)
	AM movq %rcx, (%rbx)
	F FL_ALL, O_MEM | O_IDX, 0, movq %rcx, -8(%rbx,%r12,8)
	F FL_ALL, O_MEM | O_IDX, 0, movl 0x10(%rbx,%r12,2), %edx
	F FL_ALL, O_MEM | O_IDX, 0, movq 0x30001800(,%r12,8), %rdx
	A movb $0x81, %dl
	A movw $0x8001, %dx
	A movl $0x80000001, %edx
	A movq $-2, %rdx
	A movabsq $0x123456789abcdef0, %rdx
	A movl $5, %r9d
	AM movb $1, (%rbx)
	AM movw $-2, (%rbx)
	AM movl $0x12345678, (%rbx)
	AM movq $-0x1234, (%rbx)
	A movabsb 0x30001800, %al
	A movabsw 0x30001800, %ax
	A movabsl 0x30001800, %eax
	A movabsq 0x30001800, %rax
	A movabsb %al, 0x30001800
	A movabsq %rax, 0x30001800
	/* RIP-relative: the scratch memory starts one page after the code */
	A movl 0x1800(%rip), %edx
	A movq %rdx, 0x1800(%rip)
	A addq 0x1900(%rip), %rdx
	A movb $7, 0x1a00(%rip)
	AM movnti %ecx, (%rbx)
	AM movnti %rcx, (%rbx)

	A movzbl %cl, %edx
	A movzbw %cl, %dx
	A movzbq %cl, %rdx
	A movzwl %cx, %edx
	A movzwq %cx, %rdx
	A movzbl %ah, %edx
	A movzbl %sil, %r9d
	AM movzbl (%rbx), %edx
	AM movzwl (%rbx), %edx
	AM movzbq (%rbx), %rdx
	A movsbl %cl, %edx
	A movsbw %cl, %dx
	A movsbq %cl, %rdx
	A movswl %cx, %edx
	A movswq %cx, %rdx
	A movslq %ecx, %rdx
	A movsbl %ah, %edx
	A movsxd %ecx, %edx
	AM movsbl (%rbx), %edx
	AM movswq (%rbx), %rdx
	AM movslq (%rbx), %rdx

/* ---- conditional moves and sets: all sixteen conditions -------------------------- */

	.irp cc, o, no, b, ae, e, ne, be, a, s, ns, p, np, l, ge, le, g
	A cmov\cc\()w %cx, %dx
	A cmov\cc\()l %ecx, %edx
	A cmov\cc\()q %rcx, %rdx
	AM cmov\cc\()l (%rbx), %edx
	A set\cc %dl
	A set\cc %ah
	AM set\cc 1(%rbx)
	.endr

	.section .note.GNU-stack, "", @progbits
