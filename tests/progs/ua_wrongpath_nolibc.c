/* ua_wrongpath_nolibc.c — a branch on random bits, mispredicted about
 * half the time, then a branch that is always taken and 48 register adds:
 * down a mispredicted path the front end meets the second branch, which
 * the predictors know, and goes on into the adds until the first branch
 * resolves (the wrong-path check of tests/e2e/run-stat.sh).
 * vpmu-cflags: -O2 -fno-tree-vectorize -mgeneral-regs-only
 */
#include "cg_nolibc.h"

#define ITERS 20000

int cg_main(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ull, sum = 0;

	for (int n = 0; n < ITERS; n++) {
		x ^= x << 13; /* xorshift64 */
		x ^= x >> 7;
		x ^= x << 17;
		__asm__ volatile("test $1, %[x]\n\t"
				 "jz 1f\n\t"
				 "add $1, %[s]\n"
				 "1:\n\t"
				 "test %[one], %[one]\n\t"
				 "jnz 2f\n\t"
				 "add $2, %[s]\n"
				 "2:\n\t"
				 ".rept 48\n\t"
				 "add %[x], %[s]\n\t"
				 ".endr"
				 : [s] "+r"(sum)
				 : [x] "r"(x), [one] "r"(1ull));
	}
	cg_print("wrongpath", sum);
	return 0;
}
