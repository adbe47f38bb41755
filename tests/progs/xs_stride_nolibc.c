/* xs_stride_nolibc.c — reads one word every 32 bytes through a 1 MiB
 * array, 8 passes: each read touches a new 32-byte line and 1 MiB is far
 * more than a 32 KB data cache holds, so on an XScale nearly every data
 * access misses (tests/e2e/run-xscale.sh).  The array is filled only by
 * the loader (zero pages in .bss): the loop is the program's only data
 * traffic.
 * vpmu-cflags: -O2 -fno-tree-vectorize -fno-tree-loop-distribute-patterns -mgeneral-regs-only
 */
#include "cg_nolibc.h"

#define BYTES (1 << 20)

static volatile uint32_t a[BYTES / 4] __attribute__((aligned(4096)));

int cg_main(void)
{
	uint64_t sum = 0;

	for (int p = 0; p < 8; p++)
		for (unsigned i = 0; i < BYTES / 4; i += 32 / 4)
			sum += a[i];
	cg_print("stride", sum);
	return 0;
}
