/* cg_icache_nolibc.S — a code footprint larger than a 32 KiB I1: 384
 * functions of ~150 bytes called in a scrambled order through a table
 * (call through memory), 60 rounds.  Instruction lengths vary, so many
 * instructions straddle cache lines.  Each function makes a variety of
 * data accesses: stack frames (push, pop, leave, ret, push from memory),
 * 1/2/4/8-byte loads and stores, read-modify-writes (add, inc, not, xchg),
 * setcc to memory, cmov and imul from memory, unaligned 8-byte loads.
 * Prints a checksum of the work; exit status 0. */
	.altmacro

	.macro	fn n
	.p2align 0
fn_\n:
	push	%rbp
	mov	%rsp, %rbp
	push	%rbx
	mov	$\n, %eax
	imul	$0x9e37, %eax, %eax
	and	$1023, %eax
	lea	data(%rip), %rdx
	add	%eax, (%rdx,%rax,4)
	movzbl	3(%rdx,%rax,4), %ecx
	movswl	6(%rdx,%rax,2), %esi
	cmp	%ecx, 8(%rdx,%rax,4)
	setg	2(%rdx,%rax,1)
	cmovl	12(%rdx,%rax,4), %esi
	imul	16(%rdx,%rax,4), %esi
	addw	$3, 20(%rdx,%rax,2)
	incq	64(%rdx,%rax,8)
	xor	%esi, %r14d
	push	24(%rdx,%rax,4)
	pop	%rcx
	add	%rcx, %r14
	mov	61(%rdx,%rax,2), %r8
	add	%r8, %r14
	notq	128(%rdx,%rax,8)
	xchg	%ecx, 28(%rdx,%rax,4)
	mov	%r14b, 5(%rdx,%rax,1)
	pop	%rbx
	leave
	ret
	.endm

	.macro	entry n
	.quad	fn_\n
	.endm

	.text
	.globl	_start
_start:
	lea	stack_top(%rip), %rsp
	xor	%r14d, %r14d
	mov	$60, %r12d
1:	xor	%r15d, %r15d
2:	lea	order(%rip), %r13
	call	*(%r13,%r15,8)
	inc	%r15
	cmp	$384, %r15
	jne	2b
	dec	%r12d
	jnz	1b

	/* r14 as 16 hex digits and a newline */
	lea	buf(%rip), %rdi
	mov	$60, %ecx
3:	mov	%r14, %rax
	shr	%cl, %rax
	and	$15, %eax
	movzbl	digits(%rax), %eax
	mov	%al, (%rdi)
	inc	%rdi
	sub	$4, %ecx
	jns	3b
	movb	$10, (%rdi)
	mov	$1, %eax		/* write(1, buf, 17) */
	mov	$1, %edi
	lea	buf(%rip), %rsi
	mov	$17, %edx
	syscall
	mov	$231, %eax		/* exit_group(0) */
	xor	%edi, %edi
	syscall
	hlt

	.set	i, 0
	.rept	384
	fn	%i
	.set	i, i + 1
	.endr

	.section .rodata
digits:	.ascii	"0123456789abcdef"
	.p2align 3
order:	/* fn_(i * 97 mod 384): every function once, scattered */
	.set	i, 0
	.rept	384
	entry	%((i * 97) % 384)
	.set	i, i + 1
	.endr

	.bss
	.p2align 6
data:	.skip	16384
buf:	.skip	32
	.p2align 6
stack:	.skip	16384
stack_top:

	.section .note.GNU-stack,"",@progbits
