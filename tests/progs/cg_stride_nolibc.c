/* cg_stride_nolibc.c — strided walks over a 1 MiB array: sequential line
 * walks, a 4 KiB+64 stride, page-stride column updates that pile onto few
 * sets, and a small region re-read many times.  Reads, writes and
 * read-modify-writes.  Prints a checksum; exit status 0.
 * vpmu-cflags: -O2 -fno-tree-vectorize -fno-tree-loop-distribute-patterns -mgeneral-regs-only
 */
#include "cg_nolibc.h"

#define WORDS (1 << 18) /* 1 MiB of uint32_t */

static uint32_t a[WORDS] __attribute__((aligned(4096)));

static __attribute__((noinline)) uint64_t seq_read(unsigned words, unsigned step, int passes)
{
	uint64_t sum = 0;
	for (int p = 0; p < passes; p++)
		for (unsigned i = 0; i < words; i += step)
			sum += a[i];
	return sum;
}

int cg_main(void)
{
	uint64_t sum = 0;
	unsigned i;

	/* fill: one store per word */
	for (i = 0; i < WORDS; i++)
		a[i] = i * 2654435761u;
	/* one word per 64-byte line, whole array, 3 passes */
	sum += seq_read(WORDS, 16, 3);
	/* 4160-byte stride around the array: read-modify-write */
	for (i = 0, sum += 1; i < 65536; i++) {
		unsigned k = (i * 1040u) & (WORDS - 1);
		a[k] += (uint32_t)i;
	}
	/* columns 8 KiB apart: every access of a column maps to one set */
	for (unsigned col = 0; col < 2048; col += 16)
		for (unsigned row = 0; row < 128; row++)
			a[row * 2048 + col] ^= row + col;
	/* a 16 KiB region, every word, 20 times */
	sum += seq_read(4096, 1, 20);
	/* 8 KiB region, one byte per 32 bytes, backwards */
	for (int p = 0; p < 30; p++)
		for (int j = 8191; j >= 0; j -= 32)
			sum += ((volatile uint8_t *)a)[j];
	cg_print("stride", sum);
	return 0;
}
