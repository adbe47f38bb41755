/* unwind.h — call chains of a guest thread, for `record -g`.
 *
 * Two walkers over the same state: the frame-pointer chain (cheap, needs
 * code built with frame pointers) and DWARF CFI through libunwind's remote
 * API (each image's .eh_frame_hdr binary search table, read from the file
 * once per path).  Stack memory is read only through the caller's
 * callback, which must fail cleanly on unmapped addresses: a walk never
 * faults, it stops.
 *
 * Both walkers write chain[0] = regs->rip, then the return addresses,
 * innermost first, and stop at the end of the stack, at a frame that fails
 * validation, at a loop, or at max entries.  They return the number of
 * entries written (0 only when max <= 0).
 *
 * A struct unwind is used by one thread at a time. */
#ifndef VPMU_UNWIND_H
#define VPMU_UNWIND_H

#include <stddef.h>
#include <stdint.h>

/* An ELF image mapped in the guest: its runtime range [start, end) and
 * load bias (runtime address - ELF vaddr). */
struct unwind_image {
	uint64_t start, end, bias;
	const char *path;
};

/* General registers in emu/x86/x86.h order (X86_RAX, X86_RCX, X86_RDX,
 * X86_RBX, X86_RSP, X86_RBP, X86_RSI, X86_RDI, X86_R8 .. X86_R15). */
struct unwind_regs {
	uint64_t r[16];
	uint64_t rip;
};

/* read: copy n bytes at guest address addr to dst; 0, or < 0 when any of
 * them cannot be read. */
struct unwind_mem {
	int (*read)(void *arg, void *dst, uint64_t addr, size_t n);
	void *arg;
};

struct unwind;

/* NULL when out of memory or libunwind cannot create an address space.
 * *mem is copied. */
struct unwind *unwind_new(const struct unwind_mem *mem);
void unwind_free(struct unwind *u);

/* Replace the image list (call it whenever the guest maps or unmaps an
 * image).  Each path's unwind table is read once and kept for later
 * lists.  Returns 0, or -1 when out of memory (the old list is kept).  An
 * image whose file has no usable table is kept for the frame-pointer
 * walker's return-address check; DWARF stops in it. */
int unwind_set_images(struct unwind *u, const struct unwind_image *img, unsigned n);

/* Frame-pointer walk: each frame is [rbp] = caller's rbp, [rbp + 8] =
 * return address.  A frame is accepted when rbp is 8-byte aligned, above
 * the previous one (the first: at or above rsp), less than
 * UNWIND_FP_STACK_MAX above rsp, both words read, and, when images are
 * set, the return address lies in one. */
#define UNWIND_FP_STACK_MAX (64ull << 20)
int unwind_fp(struct unwind *u, const struct unwind_regs *regs, uint64_t *chain, int max);

/* DWARF walk (libunwind remote API over .eh_frame_hdr / .eh_frame).  Each
 * step must move the stack pointer up. */
int unwind_dwarf(struct unwind *u, const struct unwind_regs *regs, uint64_t *chain, int max);

/* Whether the image holding addr has a DWARF unwind table (1), has none
 * (0), or no image holds addr (-1). */
int unwind_has_table(struct unwind *u, uint64_t addr);

#endif
