/* ua_shadow.c — loads in the shadow of a frequently mispredicted branch
 * (seed 004, "Obtaining nonspeculative event counts").
 *
 *   ua_shadow ITERATIONS
 *
 * Each iteration takes a branch on a pseudo-random bit.  One side loads
 * the next unread line of a large array; the array index advances only
 * when that side really runs, so when the front end goes down it on a
 * misprediction, the load touches a line not yet in the cache (a
 * speculative L1 miss) that the real execution later finds cached.
 * Speculative L1 misses far outnumber retired ones. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	size_t lines = (size_t)n + 64;
	char *big = calloc(lines, 64);
	unsigned long x = 88172645463325252ull, sum = 0;
	size_t k = 0;

	if (!big)
		return 2;
	for (long i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (x & 1) {
			sum += (unsigned char)big[k * 64];
			k++;
		}
		__asm__ volatile("" : "+r"(sum), "+r"(k));
	}
	printf("%lu %zu\n", sum, k);
	return 0;
}
