/* sym.c — symbolise guest addresses with libdwfl.
 *
 * Each distinct file is reported to a Dwfl of its own at bias 0
 * (dwfl_report_elf with add_p_vaddr true), so libdwfl works in file
 * addresses and one opened file serves every mapping of it; ranges carry
 * the load bias.  libdwfl picks .symtab (the file's, or a separate debug
 * file's found by build-id or .gnu_debuglink) or else .dynsym; from it each
 * file gets two sorted tables built on first use — functions and data
 * objects — so a lookup is two binary searches.  A file that cannot be
 * opened or parsed is only remembered as a range: lookups never fail
 * harder than "unknown".
 */
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sym.h"

struct sym_ent {
	uint64_t start, end; /* file addresses */
	const char *name;
	uint8_t type, bind;
};

struct sym_tab {
	struct sym_ent *e;
	size_t n, cap;
};

struct sym_mod {
	char *path;
	const char *dso;
	Dwfl *dwfl;
	Dwfl_Module *mod; /* NULL: not readable as ELF */
	int built;
	struct sym_tab func, data;
	char **plt_names; /* storage of synthetic name@plt symbols */
	size_t nplt;
};

struct sym_range {
	uint64_t start, end, bias;
	struct sym_mod *m;
};

struct sym {
	Dwfl_Callbacks cb;
	char *debuginfo_path; /* NULL: libdwfl's default */
	struct sym_mod **mods;
	size_t nmods, capmods;
	struct sym_range *r; /* disjoint, sorted by start */
	size_t nr, capr;
	struct sym_src *src;
	int raw; /* names as in the file: no demangling */
	/* sym_name_shown()'s names, by the address of the name they show
	 * (symbol tables' and DWARF's, stable while s lives; open addressing,
	 * raw NULL: free) */
	struct shown {
		const char *raw;
		char *shown; /* NULL: shown as raw */
	} * shown;
	size_t nshown, capshown;
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
	return s;
}

static void mod_free(struct sym_mod *m)
{
	if (m->dwfl)
		dwfl_end(m->dwfl);
	for (size_t i = 0; i < m->nplt; i++)
		free(m->plt_names[i]);
	free(m->plt_names);
	free(m->func.e);
	free(m->data.e);
	free(m->path);
	free(m);
}

void sym_free(struct sym *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nmods; i++)
		mod_free(s->mods[i]);
	free(s->mods);
	for (size_t i = 0; i < s->capshown; i++)
		free(s->shown[i].shown);
	free(s->shown);
	free(s->r);
	free(s->debuginfo_path);
	sym_src_free(s->src);
	free(s);
}

void sym_set_demangle(struct sym *s, int on)
{
	s->raw = !on;
}

static struct shown *shown_slot(struct shown *t, size_t cap, const char *raw)
{
	size_t i = ((uintptr_t)raw >> 3) * 0x9e3779b97f4a7c15ull % cap;

	while (t[i].raw && t[i].raw != raw)
		i = (i + 1) % cap;
	return &t[i];
}

const char *sym_name_shown(struct sym *s, const char *raw)
{
	struct shown *e;

	if (s->raw || !sym_is_mangled(raw))
		return raw;
	if (2 * (s->nshown + 1) > s->capshown) {
		size_t cap = s->capshown ? 2 * s->capshown : 256;
		struct shown *t = calloc(cap, sizeof(*t));

		if (!t)
			return raw;
		for (size_t i = 0; i < s->capshown; i++)
			if (s->shown[i].raw)
				*shown_slot(t, cap, s->shown[i].raw) = s->shown[i];
		free(s->shown);
		s->shown = t;
		s->capshown = cap;
	}
	e = shown_slot(s->shown, s->capshown, raw);
	if (!e->raw) {
		e->raw = raw;
		e->shown = sym_demangle(raw);
		s->nshown++;
	}
	return e->shown ? e->shown : raw;
}

int sym_set_debug_dirs(struct sym *s, const char *dirs)
{
	/* libdwfl's path syntax: "" is the file's directory, ".debug" a
	 * subdirectory of it, absolute entries are debug roots. */
	size_t n = strlen(dirs) + sizeof(":.debug:");
	char *p = malloc(n);

	if (!p)
		return -1;
	snprintf(p, n, ":.debug:%s", dirs);
	free(s->debuginfo_path);
	s->debuginfo_path = p;
	return 0;
}

struct sym_src **sym_src_cache(struct sym *s)
{
	return &s->src;
}

static struct sym_mod *module(struct sym *s, const char *path)
{
	struct sym_mod *m;

	for (size_t i = 0; i < s->nmods; i++)
		if (!strcmp(s->mods[i]->path, path))
			return s->mods[i];
	if (s->nmods == s->capmods) {
		size_t cap = s->capmods ? s->capmods * 2 : 8;
		struct sym_mod **n = realloc(s->mods, cap * sizeof(*n));

		if (!n)
			return NULL;
		s->mods = n;
		s->capmods = cap;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->path = strdup(path);
	if (!m->path) {
		free(m);
		return NULL;
	}
	m->dso = strrchr(m->path, '/') ? strrchr(m->path, '/') + 1 : m->path;
	/* Pseudo-images ("[vdso]", "[anon]") stay ranges. */
	if (path[0] && path[0] != '[') {
		m->dwfl = dwfl_begin(&s->cb);
		if (m->dwfl) {
			dwfl_report_begin(m->dwfl);
			m->mod = dwfl_report_elf(m->dwfl, m->dso, path, -1, 0, true);
			dwfl_report_end(m->dwfl, NULL, NULL);
			if (!m->mod) {
				dwfl_end(m->dwfl);
				m->dwfl = NULL;
			}
		}
	}
	s->mods[s->nmods++] = m;
	return m;
}

/* Remove [start, end) from the ranges already known, as mmap replaces. */
static void carve(struct sym *s, uint64_t start, uint64_t end)
{
	size_t n = s->nr;

	for (size_t i = 0; i < n; i++) {
		struct sym_range *r = &s->r[i];

		if (r->end <= start || r->start >= end)
			continue;
		if (r->start < start && r->end > end) {
			/* split: the right part goes to the end (sorted later) */
			s->r[s->nr] = *r;
			s->r[s->nr].start = end;
			s->nr++;
			r->end = start;
		} else if (r->start < start) {
			r->end = start;
		} else if (r->end > end) {
			r->start = end;
		} else {
			r->start = r->end = 0; /* empty: dropped below */
		}
	}
	n = 0;
	for (size_t i = 0; i < s->nr; i++)
		if (s->r[i].end > s->r[i].start)
			s->r[n++] = s->r[i];
	s->nr = n;
}

static int range_cmp(const void *a, const void *b)
{
	const struct sym_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

int sym_add_image(struct sym *s, const char *path, uint64_t start, uint64_t end, uint64_t bias)
{
	struct sym_mod *m;

	if (end <= start)
		return -1;
	if (s->nr + 2 > s->capr) {
		size_t cap = s->capr ? s->capr * 2 : 16;
		struct sym_range *n = realloc(s->r, cap * sizeof(*n));

		if (!n)
			return -1;
		s->r = n;
		s->capr = cap;
	}
	m = module(s, path);
	if (!m)
		return -1;
	carve(s, start, end);
	s->r[s->nr++] = (struct sym_range){ start, end, bias, m };
	qsort(s->r, s->nr, sizeof(*s->r), range_cmp);
	return m->mod ? 0 : -1;
}

static const struct sym_range *find_range(const struct sym *s, uint64_t addr)
{
	size_t lo = 0, hi = s->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->r[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && addr < s->r[lo - 1].end)
		return &s->r[lo - 1];
	return NULL;
}

struct Dwfl_Module *sym_module(struct sym *s, uint64_t addr, uint64_t *file_addr)
{
	const struct sym_range *r = find_range(s, addr);

	if (!r || !r->m->mod)
		return NULL;
	*file_addr = addr - r->bias;
	return r->m->mod;
}

/* ---- symbol tables ---------------------------------------------------- */

static int tab_add(struct sym_tab *t, const struct sym_ent *e)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct sym_ent *n = realloc(t->e, cap * sizeof(*n));

		if (!n)
			return -1;
		t->e = n;
		t->cap = cap;
	}
	t->e[t->n++] = *e;
	return 0;
}

static int underscores(const char *s)
{
	int n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* Of two symbols at one address, the one to show (perf's choice: a
 * function over a label, sized, not weak, global, fewer leading
 * underscores, longer name), then by name so the choice is stable. */
static int better(const struct sym_ent *a, const struct sym_ent *b)
{
	int an = a->type != STT_NOTYPE, bn = b->type != STT_NOTYPE;

	if (an != bn)
		return an;
	if ((a->end > a->start) != (b->end > b->start))
		return a->end > a->start;
	if ((a->bind == STB_WEAK) != (b->bind == STB_WEAK))
		return b->bind == STB_WEAK;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return a->bind == STB_GLOBAL;
	if (underscores(a->name) != underscores(b->name))
		return underscores(a->name) < underscores(b->name);
	if (strlen(a->name) != strlen(b->name))
		return strlen(a->name) > strlen(b->name);
	return strcmp(a->name, b->name) < 0;
}

static int ent_cmp(const void *a, const void *b)
{
	const struct sym_ent *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return better(x, y) ? -1 : better(y, x);
}

/* Sort, keep the best symbol of each address, and give sizeless symbols
 * the room up to the next one (their end holds their section's end). */
static void tab_finish(struct sym_tab *t)
{
	size_t n = 0;

	if (!t->n)
		return;
	qsort(t->e, t->n, sizeof(*t->e), ent_cmp);
	for (size_t i = 0; i < t->n; i++)
		if (!n || t->e[i].start != t->e[n - 1].start)
			t->e[n++] = t->e[i];
	t->n = n;
	for (size_t i = 0; i < n; i++) {
		struct sym_ent *e = &t->e[i];

		if (e->type & 0x80) {
			e->type &= 0x7f;
			if (i + 1 < n && t->e[i + 1].start < e->end)
				e->end = t->e[i + 1].start;
			if (e->end <= e->start)
				e->end = e->start + 1;
		}
	}
}

static const struct sym_ent *tab_find(const struct sym_tab *t, uint64_t a)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->e[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Nested symbols: an enclosing one may start a few entries back. */
	for (size_t i = lo, k = 0; i-- > 0 && k < 8; k++)
		if (a < t->e[i].end)
			return &t->e[i];
	return NULL;
}

/* Synthetic name@plt symbols, as objdump and perf show PLT entries: each
 * entry's `jmp *GOT(%rip)` names the GOT slot a JUMP_SLOT or GLOB_DAT
 * relocation binds to a dynamic symbol. */
struct got_slot {
	uint64_t addr;
	const char *name;
};

static int slot_cmp(const void *a, const void *b)
{
	const struct got_slot *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static size_t got_slots(Elf *elf, struct got_slot **out)
{
	struct got_slot *v = NULL;
	size_t n = 0, cap = 0;
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh, ds;
		Elf_Data *d, *syms;
		Elf_Scn *dyn;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize)
			continue;
		dyn = elf_getscn(elf, sh.sh_link);
		if (!dyn || !gelf_getshdr(dyn, &ds) || ds.sh_type != SHT_DYNSYM)
			continue;
		d = elf_getdata(scn, NULL);
		syms = elf_getdata(dyn, NULL);
		if (!d || !syms)
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Rela rel;
			GElf_Sym sym;
			const char *name;
			unsigned t;

			if (!gelf_getrela(d, (int)i, &rel))
				break;
			t = GELF_R_TYPE(rel.r_info);
			if (t != R_X86_64_JUMP_SLOT && t != R_X86_64_GLOB_DAT)
				continue;
			if (!gelf_getsym(syms, (int)GELF_R_SYM(rel.r_info), &sym))
				continue;
			name = elf_strptr(elf, ds.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			if (n == cap) {
				struct got_slot *nv;

				cap = cap ? cap * 2 : 64;
				nv = realloc(v, cap * sizeof(*v));
				if (!nv)
					break;
				v = nv;
			}
			v[n++] = (struct got_slot){ rel.r_offset, name };
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), slot_cmp);
	*out = v;
	return n;
}

static const char *slot_name(const struct got_slot *v, size_t n, uint64_t addr)
{
	struct got_slot key = { addr, NULL };
	const struct got_slot *f = n ? bsearch(&key, v, n, sizeof(*v), slot_cmp) : NULL;

	return f ? f->name : NULL;
}

static void add_plt(struct sym_mod *m, Elf *elf)
{
	struct got_slot *slots;
	size_t nslots = got_slots(elf, &slots), shstr;
	Elf_Scn *scn = NULL;

	if (!nslots || elf_getshdrstrndx(elf, &shstr) != 0) {
		free(slots);
		return;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *sname;
		Elf_Data *d;
		uint64_t step;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
			continue;
		sname = elf_strptr(elf, shstr, sh.sh_name);
		if (!sname || strncmp(sname, ".plt", 4) || (sname[4] && sname[4] != '.'))
			continue;
		d = elf_getdata(scn, NULL);
		step = sh.sh_entsize ? sh.sh_entsize : 16;
		if (!d || !d->d_buf || step < 6 || step > 64)
			continue;
		for (uint64_t o = 0; o + step <= d->d_size; o += step) {
			const uint8_t *p = (const uint8_t *)d->d_buf + o;

			/* ff 25 disp32: jmp *disp(%rip), after endbr64/bnd if any */
			for (uint64_t k = 0; k + 6 <= step; k++) {
				int32_t disp;
				const char *name;
				struct sym_ent e;
				char *full, **nv;

				if (p[k] != 0xff || p[k + 1] != 0x25)
					continue;
				memcpy(&disp, p + k + 2, 4);
				name = slot_name(slots, nslots,
						 sh.sh_addr + o + k + 6 + (int64_t)disp);
				if (!name)
					break;
				full = malloc(strlen(name) + 5);
				nv = realloc(m->plt_names, (m->nplt + 1) * sizeof(*nv));
				if (!full || !nv) {
					free(full);
					if (nv)
						m->plt_names = nv;
					break;
				}
				m->plt_names = nv;
				sprintf(full, "%s@plt", name);
				m->plt_names[m->nplt++] = full;
				e = (struct sym_ent){ sh.sh_addr + o, sh.sh_addr + o + step, full,
						      STT_FUNC, STB_GLOBAL };
				tab_add(&m->func, &e);
				break;
			}
		}
	}
	free(slots);
}

static int exec_section(Elf *elf, GElf_Word shndx, uint64_t *secend)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf ? elf_getscn(elf, shndx) : NULL;

	if (!scn || !gelf_getshdr(scn, &sh))
		return -1;
	*secend = sh.sh_addr + sh.sh_size;
	return (sh.sh_flags & SHF_EXECINSTR) != 0;
}

static void build(struct sym_mod *m)
{
	GElf_Addr bias;
	Elf *main_elf;
	int n;

	if (m->built || !m->mod)
		return;
	m->built = 1;
	n = dwfl_module_getsymtab(m->mod);
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf = NULL;
		const char *name;
		struct sym_ent e;
		uint64_t secend = 0;
		int type, ex;

		name = dwfl_module_getsym_info(m->mod, i, &sym, &addr, &shndx, &elf, NULL);
		if (!name || !*name || shndx == SHN_UNDEF || shndx == SHN_ABS)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		ex = exec_section(elf, shndx, &secend);
		e = (struct sym_ent){ addr, addr + sym.st_size, name, (uint8_t)type,
				      (uint8_t)GELF_ST_BIND(sym.st_info) };
		if (!sym.st_size) {
			/* mark: the end is the section's, trimmed in tab_finish */
			e.end = secend > addr ? secend : addr + 1;
			e.type |= 0x80;
		}
		if (type == STT_FUNC || type == STT_GNU_IFUNC || (type == STT_NOTYPE && ex == 1))
			tab_add(&m->func, &e);
		else if (type == STT_OBJECT || type == STT_COMMON)
			tab_add(&m->data, &e);
	}
	main_elf = dwfl_module_getelf(m->mod, &bias);
	if (main_elf)
		add_plt(m, main_elf);
	tab_finish(&m->func);
	tab_finish(&m->data);
}

static int lookup(struct sym *s, uint64_t addr, struct sym_info *out, int data)
{
	const struct sym_range *r = find_range(s, addr);
	const struct sym_ent *e;

	memset(out, 0, sizeof(*out));
	if (!r)
		return -1;
	out->path = r->m->path;
	out->dso = r->m->dso;
	out->file_addr = addr - r->bias;
	build(r->m);
	e = tab_find(data ? &r->m->data : &r->m->func, out->file_addr);
	if (!e)
		return 1;
	out->name = sym_name_shown(s, e->name);
	out->start = e->start + r->bias;
	out->size = e->end - e->start;
	out->off = out->file_addr - e->start;
	return 0;
}

int sym_lookup(struct sym *s, uint64_t addr, struct sym_info *out)
{
	return lookup(s, addr, out, 0);
}

int sym_lookup_data(struct sym *s, uint64_t addr, struct sym_info *out)
{
	return lookup(s, addr, out, 1);
}

/* The range of module m holding file address a (any of its ranges when
 * none does, for symbols outside every mapping). */
static const struct sym_range *mod_range(const struct sym *s, const struct sym_mod *m, uint64_t a)
{
	const struct sym_range *any = NULL;

	for (size_t i = 0; i < s->nr; i++) {
		const struct sym_range *r = &s->r[i];

		if (r->m != m)
			continue;
		if (a + r->bias >= r->start && a + r->bias < r->end)
			return r;
		if (!any)
			any = r;
	}
	return any;
}

static void fill(struct sym *s, const struct sym_range *r, const struct sym_ent *e,
		 struct sym_info *out)
{
	out->path = r->m->path;
	out->dso = r->m->dso;
	out->file_addr = e->start;
	out->name = sym_name_shown(s, e->name);
	out->start = e->start + r->bias;
	out->size = e->end - e->start;
	out->off = 0;
}

int sym_find_func(struct sym *s, const char *name, struct sym_info *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < s->nr; i++) {
		struct sym_mod *m = s->r[i].m;

		build(m);
		for (size_t k = 0; k < m->func.n; k++) {
			const struct sym_ent *e = &m->func.e[k];

			if (strcmp(e->name, name) && strcmp(sym_name_shown(s, e->name), name))
				continue;
			fill(s, mod_range(s, m, e->start), e, out);
			return 0;
		}
	}
	return -1;
}

int sym_foreach_func(struct sym *s, uint64_t addr, int (*fn)(const struct sym_info *, void *),
		     void *arg)
{
	const struct sym_range *r = find_range(s, addr);

	if (!r)
		return -1;
	build(r->m);
	for (size_t k = 0; k < r->m->func.n; k++) {
		struct sym_info si;
		int rc;

		fill(s, mod_range(s, r->m, r->m->func.e[k].start), &r->m->func.e[k], &si);
		rc = fn(&si, arg);
		if (rc)
			return rc;
	}
	return 0;
}

const uint8_t *sym_code(struct sym *s, uint64_t addr, uint64_t len)
{
	uint64_t a;
	Dwfl_Module *mod = sym_module(s, addr, &a);
	GElf_Addr bias;
	Elf *elf = mod ? dwfl_module_getelf(mod, &bias) : NULL;
	size_t nph, size;
	const char *raw;

	if (!elf || elf_getphdrnum(elf, &nph) != 0)
		return NULL;
	raw = elf_rawfile(elf, &size);
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		uint64_t off;
		Elf_Data *d;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (a < ph.p_vaddr || a - ph.p_vaddr >= ph.p_filesz ||
		    len > ph.p_filesz - (a - ph.p_vaddr))
			continue;
		off = ph.p_offset + (a - ph.p_vaddr);
		if (raw)
			return off <= size && len <= size - off ? (const uint8_t *)raw + off : NULL;
		d = elf_getdata_rawchunk(elf, (int64_t)off, len, ELF_T_BYTE);
		return d ? d->d_buf : NULL;
	}
	return NULL;
}

size_t sym_build_id(struct sym *s, uint64_t addr, const uint8_t **id)
{
	uint64_t a;
	Dwfl_Module *mod = sym_module(s, addr, &a);
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n;

	*id = NULL;
	if (!mod)
		return 0;
	n = dwfl_module_build_id(mod, &bits, &vaddr);
	if (n <= 0)
		return 0;
	*id = bits;
	return (size_t)n;
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
