/* mem.h — where the timing model's memory comes from: the C heap, or an
 * arena that two processes map at the same address.  Two programs that
 * share one modelled core (each on a logical processor of it, in a host
 * process of its own: emu/linux/pair.c) share the model itself, so every
 * allocation of the model — caches, predictors, TLBs, the pipeline's
 * state, buffers grown while it runs — must lie in memory both see, where
 * its pointers mean the same.  The choice is the process's, made before
 * the model is built (like malloc's own arenas, it is process-wide). */
#ifndef VPMU_UARCH_MEM_H
#define VPMU_UARCH_MEM_H

#include <stddef.h>
#include <stdint.h>

/* The head of an arena: at the start of its mapping, which is size bytes
 * of zeroes (a fresh anonymous mapping).  Allocation is a bump of used,
 * atomic; memory is never given back (the model lives as long as the
 * process). */
struct uarch_arena {
	uint64_t size, used;
};

/* Take every later model allocation of this process from a (NULL: the C
 * heap again).  a->size must be set, a->used may reserve bytes after the
 * head for the caller; allocations are aligned to 64 bytes. */
void uarch_mem_arena(struct uarch_arena *a);
void *uarch_malloc(size_t n);
void *uarch_calloc(size_t n, size_t size);
/* Free p (memory of an arena is kept). */
void uarch_mfree(void *p);

#endif
