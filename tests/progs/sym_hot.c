/* sym_hot.c — a program whose profile is known, for the symbol, source
 * line and disassembly tests: hot_loop() takes nearly all the time, on the
 * line marked HOT, through two inline functions (mix() inlined into
 * hot_loop(), rotl() inlined into mix()); sym_table is the global object
 * its loads fall in.  Other functions give the disassembler a spread of
 * instruction forms (a jump table, floating point, string operations). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned sym_table[256];
static double sym_weights[8] = { 1.5, 2.25, 3.125, 0.5, 4.0, 0.75, 1.0, 2.0 };

static inline __attribute__((always_inline)) unsigned rotl(unsigned x, int k)
{
	return (x << k) | (x >> (32 - k)); /* ROTL */
}

static inline __attribute__((always_inline)) unsigned mix(unsigned h, unsigned v)
{
	h ^= rotl(v * 0x9e3779b1u, 13); /* MIX */
	return h * 5 + 0xe6546b64u;
}

__attribute__((noinline)) unsigned hot_loop(unsigned n)
{
	unsigned h = 2166136261u;

	for (unsigned i = 0; i < n; i++)
		h = mix(h, sym_table[i & 255] + i); /* HOT */
	return h;
}

__attribute__((noinline)) int classify(int c)
{
	switch (c % 9) {
	case 0:
		return c * 3;
	case 1:
		return c + 17;
	case 2:
		return c ^ 0x55;
	case 3:
		return c >> 2;
	case 4:
		return -c;
	case 5:
		return c * c;
	case 6:
		return c - 100;
	case 7:
		return c | 0x100;
	default:
		return 7;
	}
}

__attribute__((noinline)) double weigh(const unsigned *v, int n)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += sym_weights[i & 7] * (double)v[i] / (1.0 + (double)(i & 3));
	return s;
}

__attribute__((noinline)) long double weigh_long(int n)
{
	long double s = 1;

	for (int i = 1; i <= n; i++)
		s = s * 1.0001L + (long double)i / 3;
	return s;
}

__attribute__((noinline)) size_t copy_and_count(char *dst, const char *src, size_t n)
{
	memcpy(dst, src, n);
	memset(dst + n, 0, 8);
	return strlen(dst);
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 300000;
	char buf[64];
	int acc = 0;

	for (unsigned i = 0; i < 256; i++)
		sym_table[i] = i * 2654435761u;
	for (int c = 0; c < 50; c++)
		acc += classify(c);
	printf("hash %08x\n", hot_loop(n));
	printf("classify %d\n", acc);
	printf("weigh %.3f\n", weigh(sym_table, 64));
	printf("weigh_long %.3Lf\n", weigh_long(100));
	printf("copy %zu\n", copy_and_count(buf, "symbolised", 10));
	return 0;
}
