/* rp_hot.c — a program with a known profile for the report and script
 * tests: hot() does nearly all the work, on the line marked HOT, through
 * mix(), which is inlined into it; rp_table is the global array its loads
 * read; two callers (outer_a, outer_b) reach hot() from main. */
#include <stdio.h>
#include <stdlib.h>

unsigned rp_table[1024];
unsigned rp_other[64];

static inline __attribute__((always_inline)) unsigned mix(unsigned h, unsigned v)
{
	return (h ^ v) * 0x9e3779b1u; /* MIX */
}

__attribute__((noinline)) unsigned hot(unsigned n)
{
	unsigned h = 2166136261u;

	for (unsigned i = 0; i < n; i++)
		h = mix(h, rp_table[i & 1023]); /* HOT */
	return h;
}

__attribute__((noinline)) unsigned outer_a(unsigned n)
{
	return hot(n) + 1;
}

__attribute__((noinline)) unsigned outer_b(unsigned n)
{
	return hot(n / 2) + rp_other[n & 63];
}

__attribute__((noinline)) unsigned cold(unsigned n)
{
	return n * 3 + 1;
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 100000;

	for (unsigned i = 0; i < 1024; i++)
		rp_table[i] = i * 2654435761u;
	printf("%u %u %u\n", outer_a(n), outer_b(n), cold(n));
	return 0;
}
