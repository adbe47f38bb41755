/* sym.c — symbolise guest addresses with libdwfl.
 *
 * Each image is reported to an offline Dwfl session at its load bias
 * (dwfl_report_elf with add_p_vaddr false), so dwfl_module_addrinfo()
 * answers for runtime addresses and finds .symtab, .dynsym, or separate
 * debuginfo by build-id.  A file that cannot be opened or parsed is only
 * remembered as a range: lookups never fail harder than "unknown".
 */
#include <elfutils/libdwfl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sym.h"

struct sym_range {
	uint64_t start, end, bias;
	char *path;
};

struct sym {
	Dwfl *dwfl; /* NULL when libdwfl could not start: ranges only */
	Dwfl_Callbacks cb;
	char *debuginfo_path;
	struct sym_range *r;
	size_t nr, cap;
};

struct sym *sym_new(void)
{
	struct sym *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->cb.find_elf = dwfl_build_id_find_elf;
	s->cb.find_debuginfo = dwfl_standard_find_debuginfo;
	s->cb.section_address = dwfl_offline_section_address;
	s->cb.debuginfo_path = &s->debuginfo_path;
	s->dwfl = dwfl_begin(&s->cb);
	if (s->dwfl)
		dwfl_report_begin(s->dwfl);
	return s;
}

void sym_free(struct sym *s)
{
	if (!s)
		return;
	if (s->dwfl)
		dwfl_end(s->dwfl);
	for (size_t i = 0; i < s->nr; i++)
		free(s->r[i].path);
	free(s->r);
	free(s);
}

int sym_add_image(struct sym *s, const char *path, uint64_t start, uint64_t end, uint64_t bias)
{
	struct sym_range *r;
	int ok = -1;

	if (s->nr == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct sym_range *n = realloc(s->r, cap * sizeof(*n));

		if (!n)
			return -1;
		s->r = n;
		s->cap = cap;
	}
	r = &s->r[s->nr];
	r->path = strdup(path);
	if (!r->path)
		return -1;
	r->start = start;
	r->end = end;
	r->bias = bias;
	s->nr++;

	/* Pseudo-images ("[vdso]") and overlapping reports are left as ranges. */
	if (s->dwfl && path[0] == '/') {
		/* dwfl_report_end() must not run between reports; lookups end
		 * the report phase and the next add begins it again. */
		dwfl_report_begin_add(s->dwfl);
		ok = dwfl_report_elf(s->dwfl, path, path, -1, bias, false) ? 0 : -1;
		dwfl_report_end(s->dwfl, NULL, NULL);
	}
	return ok;
}

static const struct sym_range *find_range(const struct sym *s, uint64_t addr)
{
	/* Latest first: a later mapping of the same range replaced older ones. */
	for (size_t i = s->nr; i-- > 0;)
		if (addr >= s->r[i].start && addr < s->r[i].end)
			return &s->r[i];
	return NULL;
}

int sym_lookup(struct sym *s, uint64_t addr, struct sym_info *out)
{
	const struct sym_range *r = find_range(s, addr);
	Dwfl_Module *mod;
	GElf_Off off;
	GElf_Sym esym;
	const char *name;

	memset(out, 0, sizeof(*out));
	if (!r)
		return -1;
	out->path = r->path;
	out->file_addr = addr - r->bias;
	if (!s->dwfl)
		return 1;
	mod = dwfl_addrmodule(s->dwfl, addr);
	if (!mod)
		return 1;
	name = dwfl_module_addrinfo(mod, addr, &off, &esym, NULL, NULL, NULL);
	if (!name || !*name)
		return 1;
	out->name = name;
	out->off = off;
	return 0;
}

const char *sym_describe(struct sym *s, uint64_t addr, char *buf, size_t n)
{
	struct sym_info si;

	switch (sym_lookup(s, addr, &si)) {
	case 0:
		snprintf(buf, n, "%s+0x%" PRIx64 " in %s", si.name, si.off, si.path);
		break;
	case 1:
		snprintf(buf, n, "%s+0x%" PRIx64, si.path, si.file_addr);
		break;
	default:
		if (n)
			buf[0] = 0;
	}
	return buf;
}
