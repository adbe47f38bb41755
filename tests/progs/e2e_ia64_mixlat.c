/* e2e_ia64_mixlat.c — loads of two latencies, interleaved: each iteration
 * follows one link of a 32 KB ring (larger than a 16 KB L1D, inside the
 * L2: an L2 hit once warm) and one link of a chain through 64 MB, one
 * line after the next (larger than any cache: a memory access each time),
 * each chain dependent on its previous load.
 *
 *   e2e_ia64_mixlat [ITERATIONS]
 *
 * Prints both arrays' address ranges (they differ natively, by design):
 * the data EAR test tells the two kinds of loads apart by address. */
#include <stdio.h>
#include <stdlib.h>

#define SMALL (32u << 10)
#define BIG (64u << 20)

int main(int argc, char **argv)
{
	long iters = argc > 1 ? atol(argv[1]) : 20000;
	char *s = aligned_alloc(4096, SMALL), *b = aligned_alloc(4096, BIG);
	char *p, *q;

	if (!s || !b || iters < 1 || iters > (long)(BIG / 128))
		return 2;
	for (size_t i = 0; i < SMALL; i += 64)
		*(char **)(s + i) = s + (i + 64) % SMALL;
	for (size_t i = 0; i < BIG; i += 128)
		*(char **)(b + i) = b + (i + 128) % BIG;
	p = s;
	q = b;
	for (long k = 0; k < iters; k++) {
		p = *(char **)p;
		q = *(char **)q;
	}
	printf("small %lx %lx\nbig %lx %lx\nend %ld %ld\n", (unsigned long)s,
	       (unsigned long)(s + SMALL), (unsigned long)b, (unsigned long)(b + BIG),
	       (long)(p - s), (long)(q - b));
	return 0;
}
