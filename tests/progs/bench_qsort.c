/* bench_qsort.c — CPU-bound benchmark for scripts/bench.sh: qsort N
 * pseudo-random integers (default 2,000,000) and print a checksum, so every
 * runner can be checked to have done the same work. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 0) : 2000000;
	uint64_t x = 88172645463325252ull, sum = 0;
	int *v = malloc(n * sizeof(*v));

	if (!v || n == 0)
		return 1;
	for (size_t i = 0; i < n; i++) {
		/* xorshift64 (Marsaglia 2003) */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v[i] = (int)(x >> 33);
	}
	qsort(v, n, sizeof(*v), cmp);
	for (size_t i = 1; i < n; i++)
		if (v[i - 1] > v[i])
			return 1;
	for (size_t i = 0; i < n; i += n / 64 + 1)
		sum = sum * 31 + (uint64_t)v[i];
	printf("sorted %zu integers, checksum %016llx\n", n, (unsigned long long)sum);
	free(v);
	return 0;
}
