/* rp_inline.c — call chains through inlined code and a call that ends its
 * function, for the call-graph tests of vpmu report:
 *
 *   main -> spin -> churn (inlined: always_inline), where the time goes,
 *   on the line marked CHURN; then
 *   main -> finish -> die, die being noreturn: finish's call of die is its
 *   last instruction, so the return address is the first byte of
 *   whatever function follows finish and only its byte before (the call)
 *   names finish (functions are not aligned, so no padding follows the
 *   call).  die spins on the line marked DIE before it exits.
 *
 * vpmu-cflags: -O2 -fno-omit-frame-pointer -falign-functions=1
 */
#include <stdio.h>
#include <stdlib.h>

static inline __attribute__((always_inline)) unsigned churn(unsigned x, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		x = x * 1103515245u + 12345u + i; /* CHURN */
	return x;
}

__attribute__((noinline)) unsigned spin(unsigned x, unsigned n)
{
	unsigned v = churn(x, n);

	__asm__ volatile("" : "+r"(v)); /* work after the inlined loop */
	return v ^ 5;
}

__attribute__((noinline, noreturn)) void die(unsigned x, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		x = x * 69069u + i; /* DIE */
	printf("%u\n", x);
	exit(0);
}

__attribute__((noinline, noreturn)) void finish(unsigned x, unsigned n)
{
	__asm__ volatile("" : "+r"(x));
	die(x + 1, n);
}

__attribute__((noinline)) unsigned after_finish(unsigned x)
{
	return x * 3;
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 1000000;
	unsigned x = spin(7, n);

	x += after_finish(x);
	finish(x, n);
}
