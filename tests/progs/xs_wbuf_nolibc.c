/* xs_wbuf_nolibc.c — bursts of 24 stores to 24 lines the data cache does
 * not hold, a loop of 64 loads that hit between bursts: the XScale's data
 * cache does not allocate on a write, so each store takes a write-buffer
 * entry until it has crossed the bus, and a burst fills the eight entries (the data/bus request buffer full mode of
 * tests/e2e/run-xscale.sh).
 * vpmu-cflags: -O2 -fno-tree-vectorize -mgeneral-regs-only
 */
#include "cg_nolibc.h"

#define BYTES (1 << 20)
#define BURSTS 4096

static uint32_t a[BYTES / 4] __attribute__((aligned(4096)));
static uint32_t hot[64];

int cg_main(void)
{
	uint64_t sum = 0;
	char *p = (char *)a;

	for (int b = 0; b < BURSTS; b++, p += 24 * 32) {
		if (p + 24 * 32 > (char *)a + BYTES)
			p = (char *)a;
		/* 24 stores, 32 bytes apart: no two share an entry */
		__asm__ volatile("movl %1, 0(%0)\n\t"
				 "movl %1, 32(%0)\n\t"
				 "movl %1, 64(%0)\n\t"
				 "movl %1, 96(%0)\n\t"
				 "movl %1, 128(%0)\n\t"
				 "movl %1, 160(%0)\n\t"
				 "movl %1, 192(%0)\n\t"
				 "movl %1, 224(%0)\n\t"
				 "movl %1, 256(%0)\n\t"
				 "movl %1, 288(%0)\n\t"
				 "movl %1, 320(%0)\n\t"
				 "movl %1, 352(%0)\n\t"
				 "movl %1, 384(%0)\n\t"
				 "movl %1, 416(%0)\n\t"
				 "movl %1, 448(%0)\n\t"
				 "movl %1, 480(%0)\n\t"
				 "movl %1, 512(%0)\n\t"
				 "movl %1, 544(%0)\n\t"
				 "movl %1, 576(%0)\n\t"
				 "movl %1, 608(%0)\n\t"
				 "movl %1, 640(%0)\n\t"
				 "movl %1, 672(%0)\n\t"
				 "movl %1, 704(%0)\n\t"
				 "movl %1, 736(%0)"
				 :
				 : "r"(p), "r"(b)
				 : "memory");
		/* time for the buffer to drain before the next burst */
		for (int k = 0; k < 64; k++)
			sum += ((volatile uint32_t *)hot)[k];
	}
	cg_print("wbuf", sum);
	return 0;
}
