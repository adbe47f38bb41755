/* sym.h — symbolise guest addresses from the ELF images a guest process
 * had mapped: function and data symbols (elfutils libdwfl: .symtab,
 * .dynsym, separate debug files by build-id or .gnu_debuglink, synthetic
 * name@plt entries), source lines and inline chains (libdw), and the code
 * bytes the disassembler reads.
 *
 * A session caches each file once (by path), whatever the number of
 * mappings or processes that use it, with sorted symbol tables built on
 * first use.  Strings returned point into the session and stay valid until
 * sym_free(). */
#ifndef VPMU_SYM_H
#define VPMU_SYM_H

#include <stddef.h>
#include <stdint.h>

struct sym;

struct sym_info {
	const char *path;   /* image holding the address, or NULL */
	const char *dso;    /* its short name (the last path component) */
	uint64_t file_addr; /* the address as an ELF vaddr of that image */
	const char *name;   /* symbol, or NULL */
	uint64_t start;	    /* the symbol's runtime address */
	uint64_t size;	    /* its size (a 0 in the file reaches the next symbol) */
	uint64_t off;	    /* address - start */
};

struct sym_srcline {
	const char *file; /* as the line table names it (usually absolute) */
	unsigned line, col;
};

/* One level of an inline chain: frame 0 is the innermost function and the
 * address's own line; frame k+1 is the function frame k was inlined into,
 * at the call site.  The last frame is the out-of-line function. */
struct sym_frame {
	const char *func; /* NULL when DWARF names none */
	const char *file; /* NULL when unknown */
	unsigned line, col;
};

struct sym *sym_new(void);
void sym_free(struct sym *s);

/* Whether names are shown demangled (C++ "ns::f(int)" for "_ZN2ns1fEi"),
 * as they are from sym_new() on; sym_find_func() finds a function by
 * either name.  Applies to lookups made afterwards. */
void sym_set_demangle(struct sym *s, int on);

/* sym_demangle.c: the demangled form of a C++ or Rust symbol name (a
 * version or "@plt" suffix kept), malloc'd; NULL when name is not a
 * mangled name or does not demangle. */
char *sym_demangle(const char *name);
/* Whether name looks mangled (C++'s and Rust's "_Z", Rust's "_R"). */
int sym_is_mangled(const char *name);
/* sym_rust.c: a Rust name (legacy "_ZN...17h<hash>E" or v0 "_R...",
 * either with LLVM's ".llvm.N" after it) demangled, malloc'd; NULL when
 * it is not one. */
char *sym_rust_demangle(const char *name);

/* Directories searched for separate debug files instead of /usr/lib/debug
 * (colon-separated; each is searched by build-id as DIR/.build-id/xx/rest.debug
 * and by .gnu_debuglink as DIR/<file's directory>/NAME).  The file's own
 * directory and its .debug subdirectory are always searched.  Applies to
 * images added afterwards.  Returns 0, or -1 when out of memory. */
int sym_set_debug_dirs(struct sym *s, const char *dirs);

/* Record an image mapped at [start, end) with load bias (runtime address -
 * ELF vaddr).  Returns 0, or -1 when it cannot be read (the range is still
 * remembered, so addresses in it are attributed to the path).  A later
 * image overlapping an earlier one hides it where they overlap. */
int sym_add_image(struct sym *s, const char *path, uint64_t start, uint64_t end, uint64_t bias);

/* Fill *out for addr with the function (STT_FUNC, IFUNC, code labels,
 * name@plt) containing it.  Returns 0 when a symbol was found, 1 when only
 * the image is known, -1 when nothing is. */
int sym_lookup(struct sym *s, uint64_t addr, struct sym_info *out);

/* The same for data: the object (STT_OBJECT, STT_COMMON) an address falls
 * in, for data-address profiles. */
int sym_lookup_data(struct sym *s, uint64_t addr, struct sym_info *out);

/* The function NAME (the first image, in the order added, that defines it),
 * as for sym_lookup() of its first byte.  Returns 0, or -1 if none has it. */
int sym_find_func(struct sym *s, const char *name, struct sym_info *out);

/* Call fn for every function of the image holding addr, in address order;
 * a non-zero return stops the walk and is returned.  -1 when no image. */
int sym_foreach_func(struct sym *s, uint64_t addr, int (*fn)(const struct sym_info *, void *),
		     void *arg);

/* The bytes of the image file that are mapped at [addr, addr + len), or NULL
 * when they are not all in one loadable segment's file image. */
const uint8_t *sym_code(struct sym *s, uint64_t addr, uint64_t len);

/* sym_buildid.c: the GNU build-id of the ELF file at path into id (max
 * bytes): its length; 0 when it has none or cannot be read. */
size_t sym_file_build_id(const char *path, uint8_t *id, size_t max);

/* The GNU build-id of the image holding addr: its length, *id pointing at
 * the bytes; 0 when it has none or no image holds addr. */
size_t sym_build_id(struct sym *s, uint64_t addr, const uint8_t **id);

/* Whether the image holding addr has DWARF (its own or a separate file). */
int sym_has_dwarf(struct sym *s, uint64_t addr);

/* Source position of addr from the DWARF line table: 0, or -1 if none. */
int sym_srcline(struct sym *s, uint64_t addr, struct sym_srcline *out);

/* The inline chain at addr into f[0..max): the number of frames (1 when
 * nothing is inlined there), 0 when there is no DWARF for addr. */
int sym_inlines(struct sym *s, uint64_t addr, struct sym_frame *f, int max);

/* Text of line LINE (1-based) of source FILE, without its newline, or NULL
 * when the file cannot be read or is shorter.  Files are read once. */
const char *sym_source_line(struct sym *s, const char *file, unsigned line, size_t *len);

/* "name+0xoff in path", "path+0xvaddr" or "" into buf; returns buf. */
const char *sym_describe(struct sym *s, uint64_t addr, char *buf, size_t n);

/* Between core/sym.c and core/srcline.c only: the libdwfl module of the
 * image holding addr (reported at bias 0, so it takes file addresses) and
 * the session's source-file cache. */
struct Dwfl_Module;
struct sym_src;
struct Dwfl_Module *sym_module(struct sym *s, uint64_t addr, uint64_t *file_addr);
struct sym_src **sym_src_cache(struct sym *s);
/* A name libdw owns (stable while s lives) as shown: demangled unless
 * s shows names raw, the demangled form made once. */
const char *sym_name_shown(struct sym *s, const char *raw);
void sym_src_free(struct sym_src *c);

#endif
