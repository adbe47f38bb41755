/* ua_misalign.c — loads and stores at addresses no multiple of their size.
 *
 *   ua_misalign ITERATIONS
 *
 * Each iteration makes two misaligned loads (4 bytes at offset 1, 8 bytes
 * at offset 60, which also crosses a 64-byte line), one aligned load, one
 * misaligned store (2 bytes at offset 3) and one aligned store. */
#include <stdio.h>
#include <stdlib.h>

static char buf[128] __attribute__((aligned(64)));

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	unsigned long sum = 0;

	for (unsigned k = 0; k < sizeof(buf); k++)
		buf[k] = (char)(k * 7 + 1);

	for (long i = 0; i < n; i++) {
		unsigned long a, b;
		__asm__ volatile("movl 1(%2), %k0\n\t"
				 "addq 60(%2), %0\n\t"
				 "movl 8(%2), %k1\n\t"
				 "movw %w0, 3(%2)\n\t"
				 "movl %k1, 16(%2)"
				 : "=&r"(a), "=&r"(b)
				 : "r"(buf)
				 : "memory");
		sum += a + b;
	}
	printf("%lu\n", sum);
	return 0;
}
