/* cg_nolibc.h — what the freestanding cache test programs (cg_*_nolibc.c)
 * share: an entry point that moves the stack into .bss before anything
 * else, so every address the program touches is fixed at link time and
 * the same under any emulator or instrumenter; write/exit by syscall; a
 * hex printer.  No string instructions, no SSE (see vpmu-cflags in each
 * program), so the instruction stream is plain loads and stores. */
#ifndef CG_NOLIBC_H
#define CG_NOLIBC_H

#include <stdint.h>

#define CG_STACK (64 * 1024)

char cg_stack[CG_STACK] __attribute__((aligned(64)));
int cg_main(void);

__asm__(".text\n"
	".globl _start\n"
	"_start:\n"
	"	lea cg_stack+65536(%rip), %rsp\n"
	"	call cg_main\n"
	"	mov %eax, %edi\n"
	"	mov $231, %eax\n" /* exit_group */
	"	syscall\n"
	"	hlt\n");

static inline long cg_write(const void *buf, unsigned long n)
{
	long r;
	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "a"(1L), "D"(1L), "S"(buf), "d"(n)
			 : "rcx", "r11", "memory");
	return r;
}

/* Print "label=<16 hex digits>\n". */
static __attribute__((noinline)) void cg_print(const char *label, uint64_t v)
{
	char buf[64];
	int n = 0;

	while (*label && n < 40)
		buf[n++] = *label++;
	buf[n++] = '=';
	for (int k = 60; k >= 0; k -= 4)
		buf[n++] = "0123456789abcdef"[(v >> k) & 15];
	buf[n++] = '\n';
	cg_write(buf, (unsigned long)n);
}

/* xorshift64 (Marsaglia 2003) for data layouts. */
static inline uint64_t cg_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

#endif
