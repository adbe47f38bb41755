/* sym.h — symbolise guest addresses from the ELF images a guest process
 * had mapped (elfutils libdwfl, so separate debuginfo is found too). */
#ifndef VPMU_SYM_H
#define VPMU_SYM_H

#include <stddef.h>
#include <stdint.h>

struct sym;

struct sym_info {
	const char *path;   /* image holding the address, or NULL */
	uint64_t file_addr; /* the address as an ELF vaddr of that image */
	const char *name;   /* symbol, or NULL */
	uint64_t off;	    /* address - symbol value */
};

struct sym *sym_new(void);
void sym_free(struct sym *s);

/* Record an image mapped at [start, end) with load bias (runtime address -
 * ELF vaddr).  Returns 0, or -1 when it cannot be read (the range is still
 * remembered, so addresses in it are attributed to the path). */
int sym_add_image(struct sym *s, const char *path, uint64_t start, uint64_t end, uint64_t bias);

/* Fill *out for addr.  Returns 0 when a symbol was found, 1 when only the
 * image is known, -1 when nothing is. */
int sym_lookup(struct sym *s, uint64_t addr, struct sym_info *out);

/* "name+0xoff in path", "path+0xvaddr" or "" into buf; returns buf. */
const char *sym_describe(struct sym *s, uint64_t addr, char *buf, size_t n);

#endif
