/* e2e_loop.c — a deterministic workload of known shape: N iterations of a
 * loop with one data-dependent branch (determinism and count tests). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	volatile long acc = 0;

	for (long i = 0; i < n; i++)
		if (i % 3 == 0)
			acc += i;
	printf("%ld\n", (long)acc);
	return 0;
}
