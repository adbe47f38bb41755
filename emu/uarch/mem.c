/* mem.c — the timing model's allocator (mem.h). */
#include <stdlib.h>
#include <string.h>

#include "mem.h"

#define MEM_ALIGN 64 /* a cache line of the host: no false sharing of hot state */

/* The process's choice of arena (mem.h: process-wide by design). */
static struct uarch_arena *mem_arena;

void uarch_mem_arena(struct uarch_arena *a)
{
	if (a && a->used < sizeof(*a))
		a->used = sizeof(*a);
	if (a) /* the model keeps vector registers that need alignment */
		a->used = (a->used + MEM_ALIGN - 1) & ~(uint64_t)(MEM_ALIGN - 1);
	mem_arena = a;
}

void *uarch_malloc(size_t n)
{
	struct uarch_arena *a = mem_arena;
	uint64_t need = ((uint64_t)(n ? n : 1) + MEM_ALIGN - 1) & ~(uint64_t)(MEM_ALIGN - 1), at;

	if (!a)
		return malloc(n);
	at = __atomic_fetch_add(&a->used, need, __ATOMIC_SEQ_CST);
	if (at + need > a->size || at + need < at)
		return NULL;
	return (char *)a + at;
}

void *uarch_calloc(size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / size)
		return NULL;
	if (!mem_arena)
		return calloc(n, size);
	/* never used before: the mapping's pages are still zero */
	p = uarch_malloc(n * size);
	return p;
}

void uarch_mfree(void *p)
{
	struct uarch_arena *a = mem_arena;

	if (a && (char *)p >= (char *)a && (char *)p < (char *)a + a->size)
		return;
	free(p);
}
