/* example.c — the program `make example` runs under `vpmu stat`: a little
 * of everything a real program does (loops, calls through a pointer, heap,
 * floating point, stdio), with output that is the same on every run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10000;
	char *composite;
	double *roots;
	int primes = 0;
	double sum = 0;

	if (n < 2) {
		fprintf(stderr, "usage: %s [N >= 2]\n", argv[0]);
		return 2;
	}
	composite = calloc((size_t)n + 1, 1);
	roots = malloc(sizeof(*roots) * ((size_t)n + 1));
	if (!composite || !roots)
		return 1;
	/* sieve of Eratosthenes */
	for (int i = 2; (long)i * i <= n; i++)
		if (!composite[i])
			for (int j = i * i; j <= n; j += i)
				composite[j] = 1;
	for (int i = 2; i <= n; i++)
		if (!composite[i])
			roots[primes++] = sqrt((double)i) * (i % 2 ? 1 : -1);
	qsort(roots, (size_t)primes, sizeof(*roots), by_value);
	for (int i = 0; i < primes; i++)
		sum += roots[i];
	printf("%d primes up to %d; largest %d\n", primes, n,
	       (int)lround(roots[primes - 1] * roots[primes - 1]));
	printf("sum of signed square roots: %.6f\n", sum);
	free(composite);
	free(roots);
	return 0;
}
