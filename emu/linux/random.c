/* random.c — the emulated system's randomness, all of it from the run's
 * seed (--seed): the AT_RANDOM bytes of a new process and what getrandom(2)
 * returns, so that the same run gives the same counts. */
#include <string.h>

#include "lx_proc.h"

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void lx_random_bytes(uint64_t seed, uint8_t out[16])
{
	uint64_t s = seed, a = splitmix64(&s), b = splitmix64(&s);

	memcpy(out, &a, 8);
	memcpy(out + 8, &b, 8);
}

void lx_random_init(uint64_t *state, uint64_t seed)
{
	/* a stream apart from the AT_RANDOM one (bits of the square root of 2) */
	*state = seed ^ 0x6a09e667f3bcc908ull;
}

void lx_random_fill(uint64_t *state, void *buf, size_t n)
{
	uint8_t *b = buf;

	while (n) {
		uint64_t v = splitmix64(state);
		size_t k = n < 8 ? n : 8;

		memcpy(b, &v, k);
		b += k;
		n -= k;
	}
}

void lx_random_fork(uint64_t *parent, uint64_t *child)
{
	/* the child's stream starts where a draw of the parent's points, so
	 * parent and child differ, as they would from the kernel */
	*child = splitmix64(parent) ^ 0xbb67ae8584caa73bull;
}
