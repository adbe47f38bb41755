/* forms.h — assembler macros that build the form table.
 *
 *   F flags, opts, cls, instruction
 *
 * emits the instruction's bytes into .rodata.diff_code, its text into
 * .rodata.diff_text and a struct diff_form record (diff.h) into section
 * diff_forms, which the runner walks from __start_diff_forms to
 * __stop_diff_forms.  The shorthands below cover the common cases.
 */
#include "diff.h"

.macro F fl:req, op:req, cls:req, insn:vararg
	.pushsection diff_forms, "aw"
	.balign 8
	.quad .Lcode\@, .Lend\@, .Ltext\@
	.long \fl, \op, \cls, 0
	.popsection
	.pushsection .rodata.diff_code, "a"
.Lcode\@:
	\insn
.Lend\@:
	.popsection
	.pushsection .rodata.diff_text, "a"
.Ltext\@:
	.asciz "\insn"
	.popsection
	.endm

	/* all flags defined (or unaffected); no special inputs */
	.macro A insn:vararg
	F FL_ALL, 0, 0, \insn
	.endm
	/* same, memory operand at (%rbx) */
	.macro AM insn:vararg
	F FL_ALL, O_MEM, 0, \insn
	.endm

	/* forms name the scratch memory's absolute address literally */
	.if DIFF_MEM != 0x30001800
	.error "DIFF_MEM moved: update the absolute addresses in the forms"
	.endif

	/* Two instructions as one form: a flag producer and its consumer, so
	 * that flags are read back from the emulator's lazy state. */
	.macro PAIR fl:req, op:req, cls:req, a:req, b:req
	.pushsection diff_forms, "aw"
	.balign 8
	.quad .Lcode\@, .Lend\@, .Ltext\@
	.long \fl, \op, \cls, 0
	.popsection
	.pushsection .rodata.diff_code, "a"
.Lcode\@:
	\a
	\b
.Lend\@:
	.popsection
	.pushsection .rodata.diff_text, "a"
.Ltext\@:
	.asciz "\a; \b"
	.popsection
	.endm

	/* A producer followed by jcc (condition code cc, name ccn) whose
	 * target is the form's start + DIFF_TARGET. */
	.macro PJ fl:req, cc:req, ccn:req, p:vararg
	.pushsection diff_forms, "aw"
	.balign 8
	.quad .Lcode\@, .Lend\@, .Ltext\@
	.long \fl, O_BR, 0, 0
	.popsection
	.pushsection .rodata.diff_code, "a"
.Lcode\@:
	\p
	.byte 0x70 + \cc, .Lcode\@ + DIFF_TARGET - . - 1
.Lend\@:
	.popsection
	.pushsection .rodata.diff_text, "a"
.Ltext\@:
	.asciz "\p; j\ccn"
	.popsection
	.endm
