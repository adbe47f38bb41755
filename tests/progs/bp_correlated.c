/* bp_correlated.c — two conditional branches in a row testing the same
 * pseudo-random bit: A is unpredictable, B always goes A's way.  B's own
 * history is noise, but the newest global history bit is A's outcome, so
 * gshare and the global side of the 21264 tournament predictor learn B
 * while a 2-bit counter or a local history cannot.  Argument: iterations
 * (default 100000).  The bits come from a fixed xorshift seed, so the
 * output depends only on the argument. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long a_n, b_n;

/* The empty asms hide that both ifs test the same value, so the compiler
 * keeps two conditional branches instead of merging them. */
__attribute__((noinline)) static void run(unsigned long n)
{
	uint64_t r = 0x9e3779b97f4a7c15u;

	for (unsigned long i = 0; i < n; i++) {
		unsigned long x;

		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		x = (unsigned long)(r >> 32) & 1;
		__asm__ volatile("" : "+r"(x));
		if (x)
			a_n++;
		__asm__ volatile("" : "+r"(x));
		if (x)
			b_n++;
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;

	if (n < 0) {
		fprintf(stderr, "bp_correlated: iterations must be >= 0\n");
		return 2;
	}
	run((unsigned long)n);
	printf("bp_correlated: %ld iterations, A taken %lu, B taken %lu\n", n, a_n, b_n);
	return 0;
}
