/* e2e_hello_nolibc.S — freestanding: write(1, "hello\n", 6); exit_group(7).
 * Exactly 8 instructions retire (the last syscall retires as on hardware),
 * none a branch, load or store; 2 syscalls. */
	.text
	.globl _start
_start:
	mov	$1, %eax		/* SYS_write */
	mov	$1, %edi
	lea	msg(%rip), %rsi
	mov	$6, %edx
	syscall
	mov	$231, %eax		/* SYS_exit_group */
	mov	$7, %edi
	syscall
	.section .rodata
msg:	.ascii	"hello\n"
	.section .note.GNU-stack,"",@progbits
