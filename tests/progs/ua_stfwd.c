/* ua_stfwd.c — store-to-load forwarding on a chain through memory.
 *
 *   ua_stfwd covered|partial|late|elsewhere ITERATIONS
 *
 * Each iteration stores a value, loads it back and adds one: the next
 * store's data.  covered: an 8-byte store and an 8-byte load of it, which
 * the store forwards; partial: a 4-byte store and an 8-byte load of the
 * same address, which it cannot (the bytes loaded must be a subset of
 * those stored), so the load waits until the store has been written.
 *
 * late: the store's address takes an index that a chain of four
 * multiplies by one, carried from iteration to iteration, leaves 0; the
 * load's address is at hand, the same as the store's, so the load issues
 * long before the store's address is known and must wait for it.
 * elsewhere: the same, the load 32 bytes away from the store. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long cell[8] __attribute__((aligned(64)));

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "covered") && strcmp(argv[1], "partial") &&
			  strcmp(argv[1], "late") && strcmp(argv[1], "elsewhere"))) {
		fprintf(stderr, "usage: ua_stfwd covered|partial|late|elsewhere ITERATIONS\n");
		return 2;
	}
	long n = atol(argv[2]);
	unsigned long v = 1;
	if (n <= 0)
		return 2;
	if (!strcmp(argv[1], "covered"))
		__asm__ volatile("1:\n\t"
				 "mov %0, (%2)\n\t"
				 "mov (%2), %0\n\t"
				 "add $1, %0\n\t"
				 "dec %1\n\t"
				 "jnz 1b"
				 : "+r"(v), "+r"(n)
				 : "r"(cell)
				 : "cc", "memory");
	else if (!strcmp(argv[1], "late") || !strcmp(argv[1], "elsewhere")) {
		unsigned long z = 0, w;
		const unsigned long *src = argv[1][0] == 'l' ? cell : cell + 4;
		__asm__ volatile("1:\n\t"
				 "imul $1, %2, %2\n\t"
				 "imul $1, %2, %2\n\t"
				 "imul $1, %2, %2\n\t"
				 "imul $1, %2, %2\n\t"
				 "mov %0, (%4,%2,8)\n\t"
				 "mov (%5), %3\n\t"
				 "lea 1(%0,%3), %0\n\t"
				 "dec %1\n\t"
				 "jnz 1b"
				 : "+r"(v), "+r"(n), "+r"(z), "=&r"(w)
				 : "r"(cell), "r"(src)
				 : "cc", "memory");
	} else
		__asm__ volatile("1:\n\t"
				 "mov %k0, (%2)\n\t"
				 "mov (%2), %0\n\t"
				 "add $1, %0\n\t"
				 "dec %1\n\t"
				 "jnz 1b"
				 : "+r"(v), "+r"(n)
				 : "r"(cell)
				 : "cc", "memory");
	printf("%lu\n", v);
	return 0;
}
