/* tramp.S — run one instruction natively from a given architectural state.
 *
 * void diff_native_run(struct diff_state *s, const void *code)
 *
 * Loads x87/MXCSR/XMM (fxrstor64), RFLAGS and all sixteen general registers
 * (rsp included: the forms get a scratch stack) from *s and jumps to code.
 * The code ends with `jmp *abs64` to diff_native_ret0 (fell through) or
 * diff_native_ret1 (branched to the target); both store the state back
 * into *s and return to the caller with the host's FP state restored.
 *
 * Between the jump and the return no general register is free, so the
 * state pointer, the host stack pointer and one spilled register live in
 * the three .bss words below.  The runner is single-threaded.
 */
#include "diff.h"

	.bss
	.balign 8
diff_tramp_state:	.quad 0		/* struct diff_state * of the run */
diff_tramp_code:	.quad 0		/* code to jump to */
diff_tramp_host_rsp:	.quad 0		/* host stack, below the saved FP state */
diff_tramp_rax:		.quad 0		/* guest rax while rax holds the state */

	.text
	.globl diff_native_run
	.type diff_native_run, @function
diff_native_run:
	push %rbp
	push %rbx
	push %r12
	push %r13
	push %r14
	push %r15
	/* entry rsp = 8 mod 16; six pushes and 520 bytes make it 16-aligned */
	sub $520, %rsp
	fxsave64 (%rsp)
	mov %rsp, diff_tramp_host_rsp(%rip)
	mov %rdi, diff_tramp_state(%rip)
	mov %rsi, diff_tramp_code(%rip)
	fxrstor64 DS_FX(%rdi)
	pushq DS_FLAGS(%rdi)
	popfq
	mov DS_R + 0(%rdi), %rax
	mov DS_R + 8(%rdi), %rcx
	mov DS_R + 16(%rdi), %rdx
	mov DS_R + 24(%rdi), %rbx
	mov DS_R + 32(%rdi), %rsp
	mov DS_R + 40(%rdi), %rbp
	mov DS_R + 48(%rdi), %rsi
	mov DS_R + 64(%rdi), %r8
	mov DS_R + 72(%rdi), %r9
	mov DS_R + 80(%rdi), %r10
	mov DS_R + 88(%rdi), %r11
	mov DS_R + 96(%rdi), %r12
	mov DS_R + 104(%rdi), %r13
	mov DS_R + 112(%rdi), %r14
	mov DS_R + 120(%rdi), %r15
	mov DS_R + 56(%rdi), %rdi
	jmp *diff_tramp_code(%rip)
	.size diff_native_run, . - diff_native_run

	/* Only mov and jmp until RFLAGS is saved: they leave the flags alone. */
	.globl diff_native_ret0
	.type diff_native_ret0, @function
diff_native_ret0:
	mov %rax, diff_tramp_rax(%rip)
	mov diff_tramp_state(%rip), %rax
	movq $0, DS_EXIT(%rax)
	jmp 1f
	.size diff_native_ret0, . - diff_native_ret0

	.globl diff_native_ret1
	.type diff_native_ret1, @function
diff_native_ret1:
	mov %rax, diff_tramp_rax(%rip)
	mov diff_tramp_state(%rip), %rax
	movq $1, DS_EXIT(%rax)
1:
	mov %rcx, DS_R + 8(%rax)
	mov %rdx, DS_R + 16(%rax)
	mov %rbx, DS_R + 24(%rax)
	mov %rsp, DS_R + 32(%rax)
	mov %rbp, DS_R + 40(%rax)
	mov %rsi, DS_R + 48(%rax)
	mov %rdi, DS_R + 56(%rax)
	mov %r8, DS_R + 64(%rax)
	mov %r9, DS_R + 72(%rax)
	mov %r10, DS_R + 80(%rax)
	mov %r11, DS_R + 88(%rax)
	mov %r12, DS_R + 96(%rax)
	mov %r13, DS_R + 104(%rax)
	mov %r14, DS_R + 112(%rax)
	mov %r15, DS_R + 120(%rax)
	mov diff_tramp_rax(%rip), %rcx
	mov %rcx, DS_R + 0(%rax)
	mov diff_tramp_host_rsp(%rip), %rsp
	pushfq
	popq DS_FLAGS(%rax)
	fxsave64 DS_FX(%rax)
	cld
	fxrstor64 (%rsp)
	add $520, %rsp
	pop %r15
	pop %r14
	pop %r13
	pop %r12
	pop %rbx
	pop %rbp
	ret
	.size diff_native_ret1, . - diff_native_ret1

	.section .note.GNU-stack, "", @progbits
