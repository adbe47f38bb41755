/* lx_mm.h — private to emu/linux: the guest address-space layout and the
 * bookkeeping of guest mappings (which ranges the guest owns, with what
 * protection), so that guest mmap() is served from a fixed region and never
 * touches vpmu's own memory.
 *
 * Layout (fixed so that two runs see identical addresses; vpmu itself is a
 * PIE at 0x55…/0x56… and its libraries and heap are in the host's 0x7f…
 * mmap area, far above all of this):
 *
 *   0x000000400000…        non-PIE executables at their ELF addresses
 *   0x200000000000         PIE / static-PIE executables (LX_EXEC_BASE)
 *   after the executable   brk heap
 *   0x210000000000…        guest mmap(NULL), served top-down from
 *   0x3f0000000000         LX_MMAP_TOP
 *   0x3f8000000000         the program's interpreter, ld.so (LX_INTERP_BASE)
 *   …0x3ffffffff000        the stack: RLIMIT_STACK bytes (at most
 *                          LX_STACK_MAX) below LX_STACK_TOP, then a guard gap
 *   0x40000000…0x80000000  mmap(MAP_32BIT)
 */
#ifndef VPMU_LX_MM_H
#define VPMU_LX_MM_H

#include <stddef.h>
#include <stdint.h>

#define LX_PAGE 4096ull
#define LX_EXEC_BASE 0x200000000000ull
#define LX_MMAP_LOW 0x210000000000ull
#define LX_MMAP_TOP 0x3f0000000000ull
#define LX_INTERP_BASE 0x3f8000000000ull
#define LX_STACK_TOP 0x3ffffffff000ull
#define LX_STACK_MAX (1ull << 30)
#define LX_STACK_GUARD (256 * LX_PAGE) /* the kernel's stack_guard_gap */
#define LX_LOW32_LOW 0x40000000ull
#define LX_LOW32_TOP 0x80000000ull

static inline uint64_t lx_page_down(uint64_t a)
{
	return a & ~(LX_PAGE - 1);
}

static inline uint64_t lx_page_up(uint64_t a)
{
	return (a + LX_PAGE - 1) & ~(LX_PAGE - 1);
}

/* what a tracked range is */
enum {
	LX_MAP_ANON,  /* guest anonymous memory */
	LX_MAP_FILE,  /* guest file-backed memory */
	LX_MAP_IMAGE, /* an ELF segment mapped by the loader */
	LX_MAP_STACK,
	LX_MAP_BRK,
	LX_MAP_GUARD,	/* reserved, PROT_NONE (stack guard gap) */
	LX_MAP_FOREIGN, /* not the guest's: the host had something there */
};

struct lx_map {
	uint64_t start, end;
	int prot, kind;
};

struct lx_mm {
	struct lx_map *v; /* sorted by start, non-overlapping */
	size_t n, cap;
	uint64_t brk_start, brk_cur, brk_end; /* brk_end: mapped end */
	uint64_t *wprot;		      /* pages write-protected because they hold code */
	size_t nwprot, capwprot;
};

void lx_mm_init(struct lx_mm *mm);
void lx_mm_free(struct lx_mm *mm);
/* Track [start,end) as kind/prot, replacing whatever overlapped.  -1 on OOM. */
int lx_mm_add(struct lx_mm *mm, uint64_t start, uint64_t end, int prot, int kind);
/* Forget [start,end). */
int lx_mm_del(struct lx_mm *mm, uint64_t start, uint64_t end);
/* Change the protection of tracked parts of [start,end). */
int lx_mm_protect(struct lx_mm *mm, uint64_t start, uint64_t end, int prot);
/* Whether every byte of [start,end) is tracked as guest memory (not FOREIGN). */
int lx_mm_covered(const struct lx_mm *mm, uint64_t start, uint64_t end);
/* Whether no byte of [start,end) is tracked. */
int lx_mm_is_free(const struct lx_mm *mm, uint64_t start, uint64_t end);
/* The highest address a with [a, a+len) untracked inside [lo, top), or 0. */
uint64_t lx_mm_find(const struct lx_mm *mm, uint64_t len, uint64_t lo, uint64_t top);
/* The tracked range containing addr, or NULL. */
const struct lx_map *lx_mm_lookup(const struct lx_mm *mm, uint64_t addr);
/* Index of the first range with end > addr (== n when none). */
size_t lx_mm_first(const struct lx_mm *mm, uint64_t addr);

#endif
