/* unwind_tab.h — between core/unwind.c and core/unwind_tab.c only: the
 * DWARF unwind table of one ELF file, read once per path. */
#ifndef VPMU_UNWIND_TAB_H
#define VPMU_UNWIND_TAB_H

#include <stddef.h>
#include <stdint.h>

/* A copy of a section's bytes at its ELF vaddr. */
struct unwind_sec {
	uint64_t vaddr;
	size_t len;
	uint8_t *data;
};

struct unwind_tab {
	char *path;
	int ok;		       /* the .eh_frame_hdr search table is usable */
	struct unwind_sec hdr; /* .eh_frame_hdr (from PT_GNU_EH_FRAME) */
	struct unwind_sec eh;  /* .eh_frame; len 0 when the file has no section headers */
	uint64_t table_off;    /* offset of the search table in hdr */
	uint64_t fde_count;    /* its entries (8 bytes each) */
};

/* Read path's table into a new struct (ok = 0 when it has none or the
 * file cannot be read).  NULL only when out of memory. */
struct unwind_tab *unwind_tab_load(const char *path);
void unwind_tab_free(struct unwind_tab *t);

/* Copy n bytes at ELF vaddr v from the table's sections: 0, or -1 when
 * they are not all inside one of them. */
int unwind_tab_read(const struct unwind_tab *t, uint64_t v, void *dst, size_t n);

#endif
