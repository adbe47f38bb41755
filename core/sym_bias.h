/* sym_bias.h — the load bias of an ELF image from where it was mapped.
 *
 * A sample file's MMAP record gives the lowest page an image occupies;
 * sym_add_image wants the bias, runtime address minus ELF vaddr:
 * bias = start - page_down(lowest PT_LOAD p_vaddr).  A position-
 * dependent executable at its link address gets 0. */
#ifndef VPMU_SYM_BIAS_H
#define VPMU_SYM_BIAS_H

#include <stdint.h>

/* The bias of the image at path mapped from start: 0 and *bias set, -1
 * when the file cannot be read as ELF or has no PT_LOAD (*bias is then
 * start, the guess for a position-independent image). */
int sym_image_bias(const char *path, uint64_t start, uint64_t *bias);

/* The file vaddr span of path's PT_LOAD segments, [*lo, *hi) with lo
 * page-aligned down: 0, or -1 when it is not readable ELF. */
int sym_image_span(const char *path, uint64_t *lo, uint64_t *hi);

/* The same from the image's lowest PT_LOAD p_vaddr. */
uint64_t sym_bias_from_vaddr(uint64_t start, uint64_t min_vaddr);

#endif
