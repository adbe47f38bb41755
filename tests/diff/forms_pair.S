/* forms_pair.S — flag producers followed by flag consumers.  A single
 * instruction only shows the flags as x86_rflags() materialises them; here
 * setcc, jcc, adc and pushf read them straight from the lazy state the
 * producer left, through the interpreter's condition fast paths.
 *
 * Producers are limited to those whose flags read by the consumer are all
 * defined (shifts by 1 only; no multiplies), so every result is defined.
 */
#include "forms.h"

	/* all sixteen setcc, adc and sbb (CF) after producer prod.  (Macro
	 * names are case-insensitive in gas: none may spell a mnemonic.) */
	.macro USE fl, prod:vararg
	PAIR \fl, 0, 0, "\prod", "seto %al"
	PAIR \fl, 0, 0, "\prod", "setno %al"
	PAIR \fl, 0, 0, "\prod", "setb %al"
	PAIR \fl, 0, 0, "\prod", "setae %al"
	PAIR \fl, 0, 0, "\prod", "sete %al"
	PAIR \fl, 0, 0, "\prod", "setne %al"
	PAIR \fl, 0, 0, "\prod", "setbe %al"
	PAIR \fl, 0, 0, "\prod", "seta %al"
	PAIR \fl, 0, 0, "\prod", "sets %al"
	PAIR \fl, 0, 0, "\prod", "setns %al"
	PAIR \fl, 0, 0, "\prod", "setp %al"
	PAIR \fl, 0, 0, "\prod", "setnp %al"
	PAIR \fl, 0, 0, "\prod", "setl %al"
	PAIR \fl, 0, 0, "\prod", "setge %al"
	PAIR \fl, 0, 0, "\prod", "setle %al"
	PAIR \fl, 0, 0, "\prod", "setg %al"
	PAIR \fl, 0, 0, "\prod", "adcl $0, %eax"
	PAIR \fl, 0, 0, "\prod", "sbbq %rax, %rax"
	.endm

	/* ... and pushf, where every flag is defined */
	.macro USEALL prod:vararg
	USE FL_ALL, \prod
	PAIR FL_ALL, 0, 0, "\prod", "pushfq"
	.endm

	/* all sixteen jcc after producer p */
	.macro JCCS prod:vararg
	PJ FL_ALL, 0, o, \prod
	PJ FL_ALL, 1, no, \prod
	PJ FL_ALL, 2, b, \prod
	PJ FL_ALL, 3, ae, \prod
	PJ FL_ALL, 4, e, \prod
	PJ FL_ALL, 5, ne, \prod
	PJ FL_ALL, 6, be, \prod
	PJ FL_ALL, 7, a, \prod
	PJ FL_ALL, 8, s, \prod
	PJ FL_ALL, 9, ns, \prod
	PJ FL_ALL, 10, p, \prod
	PJ FL_ALL, 11, np, \prod
	PJ FL_ALL, 12, l, \prod
	PJ FL_ALL, 13, ge, \prod
	PJ FL_ALL, 14, le, \prod
	PJ FL_ALL, 15, g, \prod
	.endm

	USEALL cmpb %cl, %dl
	USEALL cmpw %cx, %dx
	USEALL cmpl %ecx, %edx
	USEALL cmpq %rcx, %rdx
	USEALL cmpl $0x80000000, %edx
	USEALL subl %ecx, %edx
	USEALL subq %rcx, %rdx
	USEALL addb %cl, %dl
	USEALL addl %ecx, %edx
	USEALL addq %rcx, %rdx
	USEALL adcl %ecx, %edx
	USEALL sbbq %rcx, %rdx
	USEALL incb %dl
	USEALL incl %edx
	USEALL decq %rdx
	USEALL negl %edx
	USE FL_LOGIC, andl %ecx, %edx
	USE FL_LOGIC, andq %rcx, %rdx
	USE FL_LOGIC, testb %cl, %dl
	USE FL_LOGIC, testl %ecx, %edx
	USE FL_LOGIC, testq %rcx, %rdx
	USE FL_LOGIC, orw %cx, %dx
	USE FL_LOGIC, xorq %rcx, %rdx
	USE (FL_LOGIC & ~FL_OF), shll %edx
	USE (FL_LOGIC & ~FL_OF), shrq %rdx
	USE (FL_LOGIC & ~FL_OF), sarl %edx
	/* shifts by 1 define OF too, but the consumers above would read it
	 * only through o/no/l/ge/le/g, which is what these check */
	PAIR FL_LOGIC, 0, CLS(C_SHL, 4, 1), "shll %edx", "seto %al"
	PAIR FL_LOGIC, 0, CLS(C_SHR, 8, 1), "shrq %rdx", "setl %al"
	PAIR FL_LOGIC, 0, CLS(C_SAR, 4, 1), "sarl %edx", "setg %al"

	JCCS cmpl %ecx, %edx
	JCCS cmpq %rcx, %rdx
	JCCS cmpb %cl, %dl
	JCCS subq %rcx, %rdx
	JCCS testl %ecx, %edx
	JCCS andq %rcx, %rdx
	JCCS addl %ecx, %edx
	JCCS decl %edx

	.section .note.GNU-stack, "", @progbits
