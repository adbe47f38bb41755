/* bp_alternate.c — one conditional branch whose outcome alternates (taken,
 * not taken, taken…) across the iterations of a loop: a 2-bit counter
 * mispredicts it on every (or every other) execution, a predictor with two
 * or more bits of history learns it.  Argument: iterations (default
 * 100000).  The output depends only on the argument. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long odd_n, even_n;

/* The empty asm hides the pattern from the compiler, so the if stays one
 * conditional branch (no cmov, no unrolling into straight-line code). */
__attribute__((noinline)) static void run(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		unsigned long x = i & 1;

		__asm__ volatile("" : "+r"(x));
		if (x)
			odd_n++;
		else
			even_n++;
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;

	if (n < 0) {
		fprintf(stderr, "bp_alternate: iterations must be >= 0\n");
		return 2;
	}
	run((unsigned long)n);
	printf("bp_alternate: %ld iterations, %lu odd, %lu even\n", n, odd_n, even_n);
	return 0;
}
