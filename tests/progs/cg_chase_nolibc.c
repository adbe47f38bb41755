/* cg_chase_nolibc.c — pointer chases over random cyclic permutations
 * (Sattolo's algorithm) of 64-byte nodes, for working sets from 4 KiB to
 * 2 MiB; each step is one dependent load, plus a store into every fourth
 * node visited.  Prints a checksum; exit status 0.
 * vpmu-cflags: -O2 -fno-tree-vectorize -fno-tree-loop-distribute-patterns -mgeneral-regs-only
 */
#include "cg_nolibc.h"

struct node {
	struct node *next;
	uint64_t val[7];
};

#define MAXN 32768 /* 2 MiB */

static struct node pool[MAXN] __attribute__((aligned(64)));
static uint32_t perm[MAXN];

static __attribute__((noinline)) void build(unsigned n, uint64_t *seed)
{
	for (unsigned i = 0; i < n; i++)
		perm[i] = i;
	/* Sattolo: a single cycle through all n nodes */
	for (unsigned i = n - 1; i > 0; i--) {
		unsigned j = (unsigned)(cg_rand(seed) % i);
		uint32_t t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (unsigned i = 0; i < n; i++) {
		pool[i].next = &pool[perm[i]];
		pool[i].val[1] = i;
	}
}

static __attribute__((noinline)) uint64_t chase(struct node *p, unsigned long steps)
{
	uint64_t sum = 0;
	for (unsigned long s = 0; s < steps; s++) {
		sum += p->val[1];
		if (!(s & 3))
			p->val[2] = s;
		p = p->next;
	}
	return sum + (uint64_t)(p - pool);
}

int cg_main(void)
{
	static const unsigned sizes[] = { 64, 256, 512, 2048, 8192, 32768 };
	uint64_t seed = 0x9e3779b97f4a7c15ull, sum = 0;

	for (unsigned k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		unsigned n = sizes[k];
		build(n, &seed);
		sum += chase(&pool[0], n < 16384 ? 40000 : 2 * (unsigned long)n);
	}
	cg_print("chase", sum);
	return 0;
}
