/* e2e_avx_nolibc.S — executes an AVX instruction, which the emulated
 * processor does not have (its CPUID reports no AVX): vpmu must stop with
 * the one-line unsupported-instruction report and exit status 132.
 * Natively (on an AVX host) it exits 0. */
	.text
	.globl _start
_start:
	xor	%edi, %edi
	vpxor	%ymm0, %ymm0, %ymm0
	mov	$231, %eax		/* SYS_exit_group */
	syscall
	.section .note.GNU-stack,"",@progbits
