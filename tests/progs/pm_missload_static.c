/* pm_missload_static: a loop of cheap integer work around one load that
 * always misses the caches (and the Bcache): it walks 64 MB with a stride
 * of a page plus a line.  The load carries the global label pm_load so
 * whole-command tests can find its address (static, not PIE: the address
 * is the one nm prints).  Arguments: iterations (default 20000), and the
 * bytes walked, a power of two (default 64 MB; 16384 keeps the load in the
 * L1 cache). */
#include <stdint.h>
#include <stdlib.h>

#define STRIDE (8192u + 64u)

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	uint64_t span = argc > 2 ? strtoull(argv[2], NULL, 0) : 64u << 20;
	uint8_t *buf = malloc(span + 8);
	uint64_t sum = 0, off = 0, x = 1;

	if (!buf || span < 64 || (span & (span - 1)))
		return 1;
	for (long i = 0; i < n; i++) {
		uint64_t v;
		const uint8_t *p = buf + off;

		__asm__ volatile(".globl pm_load\npm_load:\n\tmovq (%1), %0" : "=r"(v) : "r"(p));
		sum += v;
		/* independent work the window can overlap with the miss */
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		x ^= x >> 17;
		x += i;
		x ^= x << 5;
		off = (off + STRIDE) & (span - 1);
	}
	return (int)((sum + x) & 1);
}
