/* cg_transpose_nolibc.c — 256x256 matrix transposes, naive (column-order
 * stores, 1 KiB apart) and in 16x16 tiles, then unaligned 8-byte loads
 * that straddle cache lines.  Prints a checksum; exit status 0.
 * vpmu-cflags: -O2 -fno-tree-vectorize -fno-tree-loop-distribute-patterns -mgeneral-regs-only
 */
#include "cg_nolibc.h"

#define N 256
#define T 16

static uint32_t A[N][N] __attribute__((aligned(4096)));
static uint32_t B[N][N] __attribute__((aligned(4096)));

static __attribute__((noinline)) void naive(void)
{
	for (unsigned i = 0; i < N; i++)
		for (unsigned j = 0; j < N; j++)
			B[j][i] = A[i][j];
}

static __attribute__((noinline)) void tiled(void)
{
	for (unsigned ii = 0; ii < N; ii += T)
		for (unsigned jj = 0; jj < N; jj += T)
			for (unsigned i = ii; i < ii + T; i++)
				for (unsigned j = jj; j < jj + T; j++)
					A[j][i] = B[i][j] + 1;
}

/* 8-byte loads at offset 60 of each line: both lines every time */
static __attribute__((noinline)) uint64_t straddle(const unsigned char *p, unsigned lines)
{
	uint64_t sum = 0;
	for (unsigned k = 0; k < lines; k++) {
		uint64_t v;
		__builtin_memcpy(&v, p + 64 * k + 60, 8);
		sum += v;
	}
	return sum;
}

int cg_main(void)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < N; i++)
		for (unsigned j = 0; j < N; j++)
			A[i][j] = i * N + j;
	for (int r = 0; r < 2; r++) {
		naive();
		tiled();
	}
	for (unsigned i = 0; i < N; i += 7)
		sum += A[i][(i * 3) % N] + B[(i * 5) % N][i];
	for (int r = 0; r < 4; r++)
		sum += straddle((const unsigned char *)B, N * N * 4 / 64 - 1);
	cg_print("transpose", sum);
	return 0;
}
