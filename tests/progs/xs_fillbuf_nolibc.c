/* xs_fillbuf_nolibc.c — six independent loads from six new 32-byte lines,
 * then their sum, through a 1 MiB array, 4 passes: six misses in flight
 * where an XScale has four fill buffers, so the fifth and sixth wait for
 * one (the data/bus request buffer full mode of tests/e2e/run-xscale.sh).
 * vpmu-cflags: -O2 -fno-tree-vectorize -mgeneral-regs-only
 */
#include "cg_nolibc.h"

#define BYTES (1 << 20)

static uint32_t a[BYTES / 4] __attribute__((aligned(4096)));

int cg_main(void)
{
	uint64_t sum = 0;

	for (int pass = 0; pass < 4; pass++)
		for (const char *p = (const char *)a; p + 192 <= (const char *)a + BYTES;
		     p += 192) {
			uint32_t x0, x1, x2, x3, x4, x5;
			/* all six issue before any is used */
			__asm__ volatile("mov 0(%6), %0\n\t"
					 "mov 32(%6), %1\n\t"
					 "mov 64(%6), %2\n\t"
					 "mov 96(%6), %3\n\t"
					 "mov 128(%6), %4\n\t"
					 "mov 160(%6), %5"
					 : "=&r"(x0), "=&r"(x1), "=&r"(x2), "=&r"(x3), "=&r"(x4),
					   "=&r"(x5)
					 : "r"(p)
					 : "memory");
			sum += (uint64_t)x0 + x1 + x2 + x3 + x4 + x5;
		}
	cg_print("fillbuf", sum);
	return 0;
}
