/* xs_iloop_nolibc.c — a loop of a few dozen bytes of code run two million
 * times: after the first pass every fetch hits the instruction cache, so
 * an XScale's instruction-cache miss rate is ≈0 (tests/e2e/run-xscale.sh).
 * Register arithmetic only, no memory traffic in the loop.
 * vpmu-cflags: -O2 -fno-tree-vectorize -mgeneral-regs-only
 */
#include "cg_nolibc.h"

int cg_main(void)
{
	uint64_t x = 88172645463325252ull, sum = 0;

	for (unsigned i = 0; i < 2000000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		sum += x & 0xff;
	}
	cg_print("iloop", sum);
	return 0;
}
