/* forms_ctl.S — control transfers, the stack, string instructions with and
 * without rep prefixes, lea (including 32-bit addresses), flag and
 * sign-extension instructions, nops, endbr64, fences and prefetches.
 *
 * Branch forms (O_BR) target code + DIFF_TARGET; the runner puts an exit
 * there and after the instruction, and compares which one was reached.
 */
#include "forms.h"

/* ---- branches ----------------------------------------------------------------- */

	.irp cc, o, no, b, ae, e, ne, be, a, s, ns, p, np, l, ge, le, g
	F FL_ALL, O_BR, 0, j\cc .+DIFF_TARGET
	F FL_ALL, O_BR, 0, {disp32} j\cc .+DIFF_TARGET
	.endr
	F FL_ALL, O_BR, 0, jmp .+DIFF_TARGET
	F FL_ALL, O_BR, 0, {disp32} jmp .+DIFF_TARGET
	F FL_ALL, O_BR, 0, call .+DIFF_TARGET
	F FL_ALL, O_BR | O_TGT | O_MEM, 0, jmp *%rax
	F FL_ALL, O_BR | O_TGT | O_MEM, 0, jmp *(%rbx)
	F FL_ALL, O_BR | O_TGT | O_MEM, 0, call *%rax
	F FL_ALL, O_BR | O_TGT | O_MEM, 0, call *(%rbx)
	F FL_ALL, O_BR | O_RET, 0, ret
	F FL_ALL, O_BR | O_RET, 0, ret $16
	F FL_ALL, O_BR | O_RCX, 0, loop .+DIFF_TARGET
	F FL_ALL, O_BR | O_RCX, 0, loope .+DIFF_TARGET
	F FL_ALL, O_BR | O_RCX, 0, loopne .+DIFF_TARGET
	F FL_ALL, O_BR | O_RCX, 0, jrcxz .+DIFF_TARGET
	F FL_ALL, O_BR | O_RCX, 0, jecxz .+DIFF_TARGET

/* ---- stack ---------------------------------------------------------------------- */

	A push %rdx
	A push %r9
	A push %rsp
	A pushq $0x12
	A pushq $-0x12345678
	A pushw %dx
	AM pushq (%rbx)
	A pop %rdx
	A pop %r9
	A popw %dx
	A pop %rsp
	AM popq (%rbx)
	A pushfq
	A pushfw
	F FL_ALL, 0, CLS(C_POPF, 0, 0), popfq
	F FL_ALL, 0, CLS(C_POPF, 0, 0), popfw
	F FL_ALL, 0, CLS(C_LEAVE, 0, 0), leave
	A enter $16, $0
	A enter $0, $1
	F FL_ALL, 0, CLS(C_LEAVE, 0, 0), enter $8, $3

/* ---- strings: every size, with and without rep, both directions (DF is
 * random), small counts in rcx, repetitive data for the repe/repne forms -- */

	.irp sz, b, w, l, q
	F FL_ALL, O_STR, 0, movs\sz
	F FL_ALL, O_STR, 0, rep movs\sz
	F FL_ALL, O_STR, 0, stos\sz
	F FL_ALL, O_STR, 0, rep stos\sz
	F FL_ALL, O_STR, 0, lods\sz
	F FL_ALL, O_STR, 0, rep lods\sz
	F FL_ALL, O_STR, 0, cmps\sz
	F FL_ALL, O_STR, 0, repe cmps\sz
	F FL_ALL, O_STR, 0, repne cmps\sz
	F FL_ALL, O_STR, 0, scas\sz
	F FL_ALL, O_STR, 0, repe scas\sz
	F FL_ALL, O_STR, 0, repne scas\sz
	.endr

/* ---- lea ------------------------------------------------------------------------- */

	A lea 0x10(%rcx,%rdx,4), %rax
	A lea (%rcx), %eax
	A lea -8(%rcx,%rdx,8), %ax
	A lea 0x12345678(%rcx), %rax
	A lea -0x80(%rcx,%rdx,1), %r9
	A lea (,%rdx,8), %rax
	A lea 0x7fffffff(,%rdx,2), %rax
	A lea (%r12), %rax
	A lea 1(%r13,%r12,1), %rax
	A lea 0x10(%rip), %rax
	A lea 0x10(%ecx,%edx,2), %eax
	A lea (%ecx), %rax
	A lea -1(%ecx,%edx,8), %rax
	A lea 0x80000000(%ecx), %edx
	A lea 0x10(%eip), %rax

/* ---- flags, sign extension, table lookup ------------------------------------------- */

	A lahf
	A sahf
	A cmc
	A clc
	A stc
	A cld
	A std
	A cbtw
	A cwtl
	A cltq
	A cwtd
	A cltd
	A cqto
	AM xlat

/* ---- no-ops, endbr64, rdssp, fences, prefetches ------------------------------------------- */

	A nop
	A xchg %ax, %ax
	A pause
	A endbr64
	A endbr32
	/* without shadow stacks (none here, none on the host's process) the
	   register keeps its random value */
	A rdsspq %rax
	A rdsspq %r11
	A rdsspd %ecx
	A nopl (%rax)
	A nopw (%rax,%rax,1)
	A nopl 0x40(%rax)
	A nopl 0x40(%rax,%rax,1)
	A nopw 0x40(%rax,%rax,1)
	A nopl 0x12345678(%rax)
	A nopl 0x12345678(%rax,%rax,1)
	A nopw 0x12345678(%rax,%rax,1)
	A nopw %cs:0x12345678(%rax,%rax,1)
	/* gcc's padding: data16 prefixes before cs nopw (gas will not repeat 66) */
	A .byte 0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x78, 0x56, 0x34, 0x12
	A .byte 0x66, 0x66, 0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x78, 0x56, 0x34, 0x12
	A nopl %eax
	A lfence
	A mfence
	A sfence
	AM prefetcht0 (%rbx)
	AM prefetcht1 (%rbx)
	AM prefetcht2 (%rbx)
	AM prefetchnta (%rbx)
	AM prefetch (%rbx)
	AM prefetchw (%rbx)

/* ---- faults: #UD, #GP of privileged instructions at CPL 3, traps ------------------ */

	F FL_ALL, O_FAULT, 0, ud2
	F FL_ALL, O_FAULT, 0, ud0 %eax, %eax
	F FL_ALL, O_FAULT, 0, ud1 %eax, %eax
	F FL_ALL, O_FAULT, 0, hlt
	F FL_ALL, O_FAULT, 0, cli
	F FL_ALL, O_FAULT, 0, sti
	F FL_ALL, O_FAULT, 0, clts
	F FL_ALL, O_FAULT, 0, invd
	F FL_ALL, O_FAULT, 0, wbinvd
	F FL_ALL, O_FAULT, 0, rdmsr
	F FL_ALL, O_FAULT, 0, wrmsr
	F FL_ALL, O_FAULT, 0, rdpmc
	F FL_ALL, O_FAULT, 0, swapgs
	F FL_ALL, O_FAULT, 0, sysretq
	F FL_ALL, O_FAULT, 0, int3
	F FL_ALL, O_FAULT, 0, int $3
	F FL_ALL, O_FAULT, 0, int $4
	F FL_ALL, O_FAULT, 0, int $0x20
	F FL_ALL, O_FAULT, 0, lldt %ax
	F FL_ALL, O_FAULT, 0, ltr %ax
	F FL_ALL, O_FAULT, 0, lmsw %ax
	F FL_ALL, O_FAULT, 0, monitor %rax, %ecx, %edx
	F FL_ALL, O_FAULT, 0, mwait %eax, %ecx
	F FL_ALL, O_FAULT | O_STR, 0, in $0x80, %al
	F FL_ALL, O_FAULT | O_STR, 0, out %al, $0x80
	F FL_ALL, O_FAULT | O_STR, 0, inb %dx, %al
	F FL_ALL, O_FAULT | O_STR, 0, outl %eax, %dx
	F FL_ALL, O_FAULT | O_STR, 0, insb
	F FL_ALL, O_FAULT | O_STR, 0, outsb
	F FL_ALL, O_FAULT | O_STR, 0, insw
	F FL_ALL, O_FAULT | O_STR, 0, insl
	F FL_ALL, O_FAULT | O_STR, 0, rep outsw
	F FL_ALL, O_FAULT | O_STR, 0, outsl
	F FL_ALL, O_FAULT | O_MEM, 0, invlpg (%rbx)
	F FL_ALL, O_FAULT | O_MEM, 0, lgdt (%rbx)
	F FL_ALL, O_FAULT | O_MEM, 0, lidt (%rbx)

	.section .note.GNU-stack, "", @progbits
