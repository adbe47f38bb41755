/* report_res.c — address spaces built from MMAP records and the cache
 * that resolves each (space, address) once, plus the arena locs and
 * strings live in until report_close. */
#include <stdlib.h>
#include <string.h>

#include "core/report_priv.h"
#include "core/sym.h"
#include "core/sym_bias.h"

#define CHUNK (256u * 1024)

struct report_slot {
	uint64_t a, b;
	void *v; /* NULL: empty */
};

struct report_chunk {
	struct report_chunk *next;
	size_t size;
	max_align_t data[];
};

void *report_alloc(struct report_priv *p, size_t n)
{
	struct report_chunk *c = p->chunks;

	n = (n + 15) & ~(size_t)15;
	if (!c || p->chunk_used + n > c->size) {
		size_t size = n > CHUNK ? n : CHUNK;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
		c->next = p->chunks;
		p->chunks = c;
		p->chunk_used = 0;
	}
	p->chunk_used += n;
	return (char *)c->data + p->chunk_used - n;
}

char *report_strdup(struct report_priv *p, const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = report_alloc(p, n);

	if (d)
		memcpy(d, s, n);
	return d;
}

static size_t slot_of(uint64_t a, uint64_t b, size_t cap)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ull ^
		     (b + 0x632be59bd9b4e019ull) * 0xc2b2ae3d27d4eb4full;

	h ^= h >> 29;
	return (size_t)h & (cap - 1);
}

void *report_map_get(const struct report_map *m, uint64_t a, uint64_t b)
{
	if (!m->cap)
		return NULL;
	for (size_t i = slot_of(a, b, m->cap);; i = (i + 1) & (m->cap - 1)) {
		const struct report_slot *s = &m->slot[i];

		if (!s->v)
			return NULL;
		if (s->a == a && s->b == b)
			return s->v;
	}
}

static void put(struct report_slot *slot, size_t cap, uint64_t a, uint64_t b, void *v)
{
	size_t i = slot_of(a, b, cap);

	while (slot[i].v && (slot[i].a != a || slot[i].b != b))
		i = (i + 1) & (cap - 1);
	slot[i] = (struct report_slot){ a, b, v };
}

int report_map_put(struct report_map *m, uint64_t a, uint64_t b, void *v)
{
	if (2 * (m->n + 1) > m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 256;
		struct report_slot *s = calloc(cap, sizeof(*s));

		if (!s)
			return -1;
		for (size_t i = 0; i < m->cap; i++)
			if (m->slot[i].v)
				put(s, cap, m->slot[i].a, m->slot[i].b, m->slot[i].v);
		free(m->slot);
		m->slot = s;
		m->cap = cap;
	}
	if (!report_map_get(m, a, b))
		m->n++;
	put(m->slot, m->cap, a, b, v);
	return 0;
}

void report_map_free(struct report_map *m)
{
	free(m->slot);
	*m = (struct report_map){ 0 };
}

static struct report_space *new_space(struct report_priv *p, uint32_t pid)
{
	struct report_space *sp;

	if (p->nspaces == p->spacecap) {
		size_t cap = p->spacecap ? 2 * p->spacecap : 8;
		struct report_space **a = realloc(p->spaces, cap * sizeof(*a));

		if (!a)
			return NULL;
		p->spaces = a;
		p->spacecap = cap;
	}
	sp = calloc(1, sizeof(*sp));
	if (!sp || !(sp->sym = sym_new())) {
		free(sp);
		return NULL;
	}
	sym_set_demangle(sp->sym, !(p->flags & REPORT_NO_DEMANGLE));
	sp->pid = pid;
	sp->version = ++p->versions;
	p->spaces[p->nspaces++] = sp;
	return sp;
}

static void add_image(struct report_priv *p, struct report_space *sp, const struct sfile_mmap *m)
{
	uint64_t bias;

	/* An unreadable image still claims its range (its dso is known). */
	sym_image_bias(m->path, m->start, &bias);
	sym_add_image(sp->sym, m->path, m->start, m->start + m->len, bias);
	sp->nimages++;
	/* Addresses this image now covers may have resolved differently. */
	sp->version = ++p->versions;
}

int report_add_mmap(struct report_priv *p, const struct sfile_mmap *m)
{
	struct report_space *sp = report_map_get(&p->pids, m->pid, 0);
	struct sfile_mmap *k;

	if (!m->len || !*m->path)
		return 0;
	if (!sp && (!(sp = new_space(p, m->pid)) || report_map_put(&p->pids, m->pid, 0, sp)))
		return -1;
	add_image(p, sp, m);
	if (p->all)
		add_image(p, p->all, m);
	if (p->nmmaps == p->mmapcap) {
		size_t cap = p->mmapcap ? 2 * p->mmapcap : 16;

		k = realloc(p->mmaps, cap * sizeof(*k));
		if (!k)
			return -1;
		p->mmaps = k;
		p->mmapcap = cap;
	}
	k = &p->mmaps[p->nmmaps];
	*k = *m;
	k->build_id = NULL;
	k->build_id_len = m->build_id_len <= SFILE_BUILD_ID_MAX ? m->build_id_len : 0;
	if (k->build_id_len) {
		uint8_t *id = report_alloc(p, k->build_id_len);
		if (!id)
			return -1;
		memcpy(id, m->build_id, k->build_id_len);
		k->build_id = id;
	}
	if (!(k->path = report_strdup(p, m->path)))
		return -1;
	p->nmmaps++;
	return 0;
}

/* The space of pid; a process without mappings of its own (a forked
 * child) resolves in the union of everyone's. */
static struct report_space *space_of(struct report_priv *p, uint32_t pid)
{
	struct report_space *sp = report_map_get(&p->pids, pid, 0);

	if (sp)
		return sp;
	if (!p->all) {
		p->all = new_space(p, UINT32_MAX);
		if (!p->all)
			return NULL;
		for (size_t i = 0; i < p->nmmaps; i++)
			add_image(p, p->all, &p->mmaps[i]);
	}
	return p->all;
}

struct report_loc *report_resolve(struct report_priv *p, uint32_t pid, uint64_t addr, int kind)
{
	struct report_space *sp = space_of(p, pid);
	struct report_loc *l;
	struct sym_info si;
	uint64_t tag, at;
	int rc;

	if (!sp)
		return NULL;
	tag = (uint64_t)sp->version << 2 | (unsigned)kind;
	l = report_map_get(&p->locs, tag, addr);
	if (l)
		return l;
	l = report_alloc(p, sizeof(*l));
	if (!l)
		return NULL;
	memset(l, 0, sizeof(*l));
	l->addr = addr;
	l->space = sp;
	/* A return address follows its call: the call may be the function's
	 * last instruction (a noreturn callee) or end an inlined region, so
	 * the call itself, at the byte before, names the caller's function
	 * and line (as perf and libdwfl's dwfl_frame_pc do). */
	l->ret = kind == REPORT_RES_RET && addr;
	at = addr - (uint64_t)l->ret;
	rc = kind == REPORT_RES_DATA ? sym_lookup_data(sp->sym, at, &si) :
				       sym_lookup(sp->sym, at, &si);
	if (rc >= 0) {
		l->dso = si.dso;
		l->path = si.path;
		l->file_addr = si.file_addr + (uint64_t)l->ret;
	}
	if (rc == 0) {
		l->sym = si.name;
		l->sym_start = si.start;
		l->sym_size = si.size;
	}
	if (report_map_put(&p->locs, tag, addr, l))
		return NULL;
	return l;
}

void report_spaces_free(struct report_priv *p)
{
	for (size_t i = 0; i < p->nspaces; i++) {
		sym_free(p->spaces[i]->sym);
		free(p->spaces[i]);
	}
	free(p->spaces);
	report_map_free(&p->pids);
	report_map_free(&p->locs);
	report_map_free(&p->comms);
	report_map_free(&p->inl);
	free(p->mmaps);
	while (p->chunks) {
		struct report_chunk *c = p->chunks;

		p->chunks = c->next;
		free(c);
	}
}

int report_loc_line(struct report_loc *l)
{
	struct sym_srcline sl;

	if (!l->line_state) {
		l->line_state = -1;
		if (l->path && sym_srcline(l->space->sym, l->addr - (uint64_t)l->ret, &sl) == 0 &&
		    sl.file) {
			l->srcfile = sl.file;
			l->line = sl.line;
			l->line_state = 1;
		}
	}
	return l->line_state > 0 ? 0 : -1;
}

struct sym *report_space_sym(struct report_space *sp)
{
	return sp->sym;
}
