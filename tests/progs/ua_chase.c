/* ua_chase.c — pointer chase over a working set (latency ladder).
 *
 *   ua_chase BYTES ITERATIONS [STRIDE]
 *
 * Nodes STRIDE bytes apart (default 128: one node per line at every level
 * of the four machines) are linked in a random cyclic order, so each load
 * depends on the previous one and no prefetch pattern helps; the loop then
 * follows ITERATIONS links.  Cycles per link = load-to-use latency of the
 * level the working set fits in.  Prints the final node's index, which
 * depends only on the arguments. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: ua_chase BYTES ITERATIONS [STRIDE]\n");
		return 2;
	}
	size_t bytes = strtoull(argv[1], NULL, 0), iters = strtoull(argv[2], NULL, 0);
	size_t stride = argc > 3 ? strtoull(argv[3], NULL, 0) : 128;
	size_t n = bytes / stride;
	char *mem = aligned_alloc(4096, (bytes + 4095) & ~(size_t)4095);
	size_t *order = malloc(n * sizeof(*order));
	uint64_t x = 88172645463325252ull;

	if (n < 2 || !mem || !order)
		return 2;
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n - 1; i > 0; i--) { /* Fisher-Yates with xorshift */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		size_t j = x % (i + 1), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		*(void **)(mem + order[i] * stride) = mem + order[(i + 1) % n] * stride;
	void *p = mem + order[0] * stride;
	/* the timed loop: one dependent load per link */
	__asm__ volatile("1:\n\t"
			 "mov (%0), %0\n\t"
			 "dec %1\n\t"
			 "jnz 1b"
			 : "+r"(p), "+r"(iters)
			 :
			 : "cc", "memory");
	printf("%zu\n", (size_t)((char *)p - mem) / stride);
	return 0;
}
