/* srcline.c — source positions for guest addresses: the DWARF line table
 * (file:line of an address), the inline chain (which functions were
 * inlined at an address, and where they were called from), and the text
 * of source lines for annotate.  The modules come from core/sym.c, which
 * reports every file at bias 0, so libdw is asked with file addresses.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srcline.h"
#include "sym.h"

/* One source file: its absolute name (interned: every srcline names a
 * file by one of these), and its text once annotate asks for it. */
struct src_file {
	struct src_file *next;
	char *path;
	const char *raw; /* the name as libdw gave it, a fast key */
	int loaded;
	char *text;    /* NULL: unread or unreadable */
	size_t *lines; /* offsets of line starts */
	size_t nlines;
};

/* Inline chains cost a walk of the compilation unit's DIE tree
 * (microseconds), and reports ask again for the same hot addresses, so
 * chains up to INL_MAX deep are kept in a direct-mapped cache keyed by
 * module and file address. */
#define INL_SLOTS 4096
#define INL_MAX 8

struct inl_slot {
	const void *mod; /* NULL: empty */
	uint64_t addr;
	int n;
	struct sym_frame f[INL_MAX];
};

struct sym_src {
	struct src_file *files;
	struct inl_slot *inl;	   /* [INL_SLOTS], allocated on first use */
	struct sym_scopes *scopes; /* functions by address, per unit (srcline_scope.c) */
};

static struct sym_src *state(struct sym *s)
{
	struct sym_src **st = sym_src_cache(s);

	if (!*st)
		*st = calloc(1, sizeof(**st));
	return *st;
}

/* The interned absolute name of FILE, relative names being relative to the
 * compilation directory DIR (DWARF 5 line tables name files relative to
 * directory entries that are often relative themselves); as addr2line
 * composes them.  FILE is a key for later calls when it is STABLE (owned
 * by libdw).  Falls back to FILE when out of memory. */
static const char *intern(struct sym *s, const char *dir, const char *file, int stable)
{
	struct sym_src *st = state(s);
	struct src_file *c;
	char *full;

	if (!st)
		return file;
	for (c = st->files; stable && c; c = c->next)
		if (c->raw == file)
			return c->path;
	if (file[0] != '/' && dir && dir[0]) {
		full = malloc(strlen(dir) + strlen(file) + 2);
		if (full)
			sprintf(full, "%s/%s", dir, file);
	} else {
		full = strdup(file);
	}
	if (!full)
		return file;
	for (c = st->files; c; c = c->next) {
		if (!strcmp(c->path, full)) {
			free(full);
			return c->path;
		}
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		free(full);
		return file;
	}
	c->path = full;
	c->raw = stable ? file : NULL;
	c->next = st->files;
	st->files = c;
	return c->path;
}

void sym_src_free(struct sym_src *st)
{
	struct src_file *c = st ? st->files : NULL;

	while (c) {
		struct src_file *n = c->next;

		free(c->path);
		free(c->text);
		free(c->lines);
		free(c);
		c = n;
	}
	if (st) {
		free(st->inl);
		sym_scopes_free(st->scopes);
	}
	free(st);
}

int sym_has_dwarf(struct sym *s, uint64_t addr)
{
	uint64_t a;
	Dwarf_Addr bias;
	Dwfl_Module *mod = sym_module(s, addr, &a);

	return mod && dwfl_module_getdwarf(mod, &bias) != NULL;
}

int sym_srcline(struct sym *s, uint64_t addr, struct sym_srcline *out)
{
	uint64_t a;
	Dwfl_Module *mod = sym_module(s, addr, &a);
	Dwfl_Line *line = mod ? dwfl_module_getsrc(mod, a) : NULL;
	Dwarf_Addr la;
	int lineno = 0, col = 0;
	const char *file;

	memset(out, 0, sizeof(*out));
	if (!line)
		return -1;
	file = dwfl_lineinfo(line, &la, &lineno, &col, NULL, NULL);
	if (!file)
		return -1;
	out->file = intern(s, dwfl_line_comp_dir(line), file, 1);
	out->line = lineno > 0 ? (unsigned)lineno : 0;
	out->col = col > 0 ? (unsigned)col : 0;
	return 0;
}

static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name;

	/* the symbol name when DWARF records one (C++), else the source name;
	 * both are followed through abstract origins and specifications */
	name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
	if (!name)
		name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr));
	return name ? name : dwarf_diename(die);
}

static int is_function(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);

	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
	       tag == DW_TAG_entry_point;
}

/* The call site of inlined-subroutine DIE: DW_AT_call_file/line/column,
 * the file index resolved in the DIE's own compilation unit. */
static void call_site(struct sym *s, Dwarf_Die *die, struct sym_frame *f)
{
	Dwarf_Attribute attr;
	Dwarf_Word v;
	Dwarf_Die cu;
	Dwarf_Files *files;
	size_t nfiles;
	const char *file;

	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &attr), &v) == 0 &&
	    dwarf_diecu(die, &cu, NULL, NULL) && dwarf_getsrcfiles(&cu, &files, &nfiles) == 0 &&
	    v < nfiles && (file = dwarf_filesrc(files, v, NULL, NULL)))
		f->file = intern(s, dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &attr)), file,
				 1);
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &attr), &v) == 0)
		f->line = (unsigned)v;
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_column, &attr), &v) == 0)
		f->col = (unsigned)v;
}

static int inlines(struct sym *s, uint64_t addr, struct sym_frame *f, int max)
{
	uint64_t a;
	Dwfl_Module *mod = sym_module(s, addr, &a);
	Dwarf_Addr bias = 0;
	Dwarf_Die *cudie, *scopes = NULL, innermost;
	struct sym_srcline sl;
	int n, nf = 0;

	if (!mod || max <= 0)
		return 0;
	memset(f, 0, sizeof(*f) * (size_t)max);
	if (sym_srcline(s, addr, &sl) == 0) {
		f[0].file = sl.file;
		f[0].line = sl.line;
		f[0].col = sl.col;
	}
	cudie = dwfl_module_addrdie(mod, a, &bias);
	if (cudie && state(s)) {
		Dwarf_Die fn[INL_MAX * 2];

		n = sym_scopes_at(&state(s)->scopes, cudie, a - bias, fn, INL_MAX * 2);
		for (int i = 0; i < n && nf < max; i++) {
			f[nf].func = die_name(&fn[i]);
			nf++;
			if (dwarf_tag(&fn[i]) != DW_TAG_inlined_subroutine)
				break;
			if (nf < max)
				call_site(s, &fn[i], &f[nf]);
		}
		if (n > 0)
			return nf;
	}
	/* dwarf_getscopes() continues past an inlined instance into its
	 * abstract origin's scopes; the physical nesting — which function
	 * holds the inlined copy — comes from dwarf_getscopes_die() on the
	 * innermost scope (as eu-addr2line -i does). */
	n = cudie ? dwarf_getscopes(cudie, a - bias, &scopes) : -1;
	if (n <= 0) {
		struct sym_info si;

		/* a line but no function DIE (padding, assembly): the symbol */
		free(scopes);
		if (!f[0].file)
			return 0;
		if (sym_lookup(s, addr, &si) == 0)
			f[0].func = si.name;
		return 1;
	}
	innermost = scopes[0];
	free(scopes);
	scopes = NULL;
	n = dwarf_getscopes_die(&innermost, &scopes);
	if (n <= 0) {
		free(scopes);
		return 0;
	}
	for (int i = 0; i < n && nf < max; i++) {
		if (!is_function(&scopes[i]))
			continue;
		f[nf].func = die_name(&scopes[i]);
		nf++;
		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			break;
		if (nf < max)
			call_site(s, &scopes[i], &f[nf]);
	}
	free(scopes);
	return nf;
}

/* sym_inlines() with DWARF's names (a C++ function's mangled), through
 * the cache. */
static int cached_inlines(struct sym *s, uint64_t addr, struct sym_frame *f, int max)
{
	uint64_t a;
	struct Dwfl_Module *mod = sym_module(s, addr, &a);
	struct sym_src *st = mod ? state(s) : NULL;
	struct inl_slot *e;
	int n;

	if (!mod || max <= 0)
		return 0;
	if (st && !st->inl)
		st->inl = calloc(INL_SLOTS, sizeof(*st->inl));
	if (!st || !st->inl)
		return inlines(s, addr, f, max);
	e = &st->inl[(a ^ (a >> 12) ^ ((uintptr_t)mod >> 4)) % INL_SLOTS];
	if (e->mod != mod || e->addr != a) {
		n = inlines(s, addr, e->f, INL_MAX);
		if (n >= INL_MAX) {
			/* possibly cut short: deep chains are not cached */
			e->mod = NULL;
			return inlines(s, addr, f, max);
		}
		e->mod = mod;
		e->addr = a;
		e->n = n;
	}
	n = e->n < max ? e->n : max;
	memcpy(f, e->f, sizeof(*f) * (size_t)n);
	return n;
}

int sym_inlines(struct sym *s, uint64_t addr, struct sym_frame *f, int max)
{
	int n = cached_inlines(s, addr, f, max);

	for (int k = 0; k < n; k++)
		f[k].func = sym_name_shown(s, f[k].func);
	return n;
}

static struct src_file *load_source(struct sym *s, const char *file)
{
	struct src_file *c;
	const char *name = intern(s, NULL, file, 0);
	FILE *fp;
	size_t cap = 0, len = 0;

	for (c = state(s) ? state(s)->files : NULL; c; c = c->next)
		if (c->path == name)
			break;
	if (!c || c->loaded)
		return c;
	c->loaded = 1;
	fp = fopen(c->path, "r");
	if (!fp)
		return c;
	for (;;) {
		char *n;
		size_t got;

		if (len + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 65536;
			n = realloc(c->text, cap);
			if (!n)
				break;
			c->text = n;
		}
		got = fread(c->text + len, 1, cap - len - 1, fp);
		len += got;
		if (!got)
			break;
	}
	fclose(fp);
	if (!c->text)
		return c;
	c->text[len] = 0;
	for (size_t i = 0; i < len; i++)
		if (c->text[i] == '\n')
			c->nlines++;
	if (len && c->text[len - 1] != '\n')
		c->nlines++;
	c->lines = malloc((c->nlines + 1) * sizeof(*c->lines));
	if (!c->lines) {
		c->nlines = 0;
		return c;
	}
	c->lines[0] = 0;
	for (size_t i = 0, k = 1; i < len && k <= c->nlines; i++)
		if (c->text[i] == '\n')
			c->lines[k++] = i + 1;
	c->lines[c->nlines] = len;
	return c;
}

const char *sym_source_line(struct sym *s, const char *file, unsigned line, size_t *len)
{
	struct src_file *c = file ? load_source(s, file) : NULL;
	size_t b, e;

	if (!c || !c->text || !line || line > c->nlines)
		return NULL;
	b = c->lines[line - 1];
	e = c->lines[line];
	if (e > b && c->text[e - 1] == '\n')
		e--;
	if (len)
		*len = e - b;
	return c->text + b;
}
