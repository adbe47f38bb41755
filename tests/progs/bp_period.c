/* bp_period.c — one conditional branch with a periodic pattern: taken
 * period-1 times, then not taken once (a loop exit), repeated.  A 2-bit
 * counter mispredicts once per period; a local history at least period
 * long (the 21264's 10 bits) or a global history that sees the whole
 * period learns it.  Arguments: iterations (default 100000), period
 * (default 8).  The output depends only on the arguments. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long taken_n, exit_n;

/* The empty asm keeps the if one conditional branch (see bp_alternate.c). */
__attribute__((noinline)) static void run(unsigned long n, unsigned long period)
{
	unsigned long k = 0;

	for (unsigned long i = 0; i < n; i++) {
		unsigned long x = ++k == period;

		__asm__ volatile("" : "+r"(x));
		if (x) {
			exit_n++;
			k = 0;
		} else {
			taken_n++;
		}
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	long period = argc > 2 ? atol(argv[2]) : 8;

	if (n < 0 || period < 1) {
		fprintf(stderr, "bp_period: usage: bp_period [ITERATIONS [PERIOD>=1]]\n");
		return 2;
	}
	run((unsigned long)n, (unsigned long)period);
	printf("bp_period: %ld iterations, period %ld, %lu in pattern, %lu exits\n", n, period,
	       taken_n, exit_n);
	return 0;
}
