/* ua_skid.c — seed 004's PEBS vs IEBS experiment: one load that misses
 * the first-level data cache inside a long block of loads that hit.
 *
 *   ua_skid ITERATIONS
 *
 * Each iteration loads one new line of a 16 MB array (a miss), then 256
 * loads of one hot line (hits, 3 bytes each from `hit_block` on), so an
 * interrupt's skid shows as the distance, in instructions, from the
 * missing load (`miss_load`) to where samples land. */
#include <stdio.h>
#include <stdlib.h>

#define BYTES (16u << 20)

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 0) : 100000;
	char *a = calloc(1, BYTES), *hot = calloc(1, 64);

	if (!a || !hot || n <= 0) {
		fprintf(stderr, "usage: ua_skid ITERATIONS\n");
		return 2;
	}
	for (long i = 0; i < n; i++) {
		char *p = a + (size_t)(i * 4160) % BYTES;

		__asm__ volatile(".globl miss_load\n"
				 "miss_load:\n\t"
				 "mov (%0), %%eax\n\t"
				 ".globl hit_block\n"
				 "hit_block:\n\t"
				 ".rept 256\n\t"
				 "mov (%1), %%ecx\n\t"
				 ".endr"
				 :
				 : "r"(p), "r"(hot)
				 : "eax", "ecx", "memory");
	}
	printf("%ld\n", n);
	return 0;
}
