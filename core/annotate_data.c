/* annotate_data.c — read a sample file into per-image, per-address counts.
 *
 * Samples are collected as (pid, ip, event) and merged before they are
 * placed, because a process's MMAP records need not precede its samples.
 * An MMAP record covers a whole ELF image (man/vpmu-data.5): its start is
 * the image's lowest mapped page, so the load bias is start minus the
 * page-aligned lowest PT_LOAD vaddr of the file.  A later mapping of the
 * same process that overlaps an earlier one wins (exec).
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "annotate_data.h"
#include "sfile.h"
#include "sym.h"

struct annot_map {
	uint32_t pid;
	uint64_t start, end, bias;
	unsigned img;
};

struct raw {
	uint32_t pid;
	unsigned ev;
	uint64_t ip, n;
};

#define PAGE_DOWN(a) ((a) & ~0xfffull)

/* The span of path's PT_LOAD segments: 0, or -1 if it is not readable ELF. */
static int load_span(const char *path, uint64_t *lo, uint64_t *hi)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = -1;
	Elf *e;
	size_t nph;
	GElf_Phdr ph;

	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	*lo = UINT64_MAX;
	*hi = 0;
	if (e && elf_kind(e) == ELF_K_ELF && !elf_getphdrnum(e, &nph)) {
		for (size_t i = 0; i < nph; i++) {
			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
				continue;
			if (PAGE_DOWN(ph.p_vaddr) < *lo)
				*lo = PAGE_DOWN(ph.p_vaddr);
			if (ph.p_vaddr + ph.p_memsz > *hi)
				*hi = ph.p_vaddr + ph.p_memsz;
		}
		rc = *hi > *lo ? 0 : -1;
	}
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

static int image_of(struct annot_data *d, const char *path, unsigned *out)
{
	struct annot_image *n, *im;

	for (unsigned i = 0; i < d->nimg; i++)
		if (!strcmp(d->img[i].path, path)) {
			*out = i;
			return 0;
		}
	n = realloc(d->img, (d->nimg + 1) * sizeof(*n));
	if (!n)
		return -1;
	d->img = n;
	im = &d->img[d->nimg];
	memset(im, 0, sizeof(*im));
	im->path = strdup(path);
	if (!im->path)
		return -1;
	im->readable = !load_span(path, &im->lo, &im->hi);
	*out = d->nimg++;
	return 0;
}

static int add_map(struct annot_data *d, const struct sfile_mmap *m)
{
	struct annot_map *mp;
	unsigned img;

	if (!m->len || m->path[0] != '/') /* [vdso], [stack]: no file */
		return 0;
	if (image_of(d, m->path, &img))
		return -1;
	if (d->nmap == d->capmap) {
		size_t cap = d->capmap ? 2 * d->capmap : 16;
		struct annot_map *n = realloc(d->map, cap * sizeof(*n));

		if (!n)
			return -1;
		d->map = n;
		d->capmap = cap;
	}
	mp = &d->map[d->nmap++];
	mp->pid = m->pid;
	mp->start = m->start;
	mp->end = m->start + m->len;
	mp->img = img;
	mp->bias = d->img[img].readable ? m->start - d->img[img].lo : m->start;
	return 0;
}

static int add_event(struct annot_data *d, const struct sfile_attr *a)
{
	char **nn = realloc(d->evname, (d->nev + 1) * sizeof(*nn));
	uint32_t *ni;

	if (!nn)
		return -1;
	d->evname = nn;
	ni = realloc(d->evid, (d->nev + 1) * sizeof(*ni));
	if (!ni)
		return -1;
	d->evid = ni;
	d->evname[d->nev] = strdup(a->name[0] ? a->name : "event");
	if (!d->evname[d->nev])
		return -1;
	d->evid[d->nev++] = a->id;
	return 0;
}

static int raw_cmp(const void *a, const void *b)
{
	const struct raw *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	return (x->ev > y->ev) - (x->ev < y->ev);
}

static int hit_cmp(const void *a, const void *b)
{
	const struct annot_hit *x = a, *y = b;

	if (x->img != y->img)
		return x->img < y->img ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->ev > y->ev) - (x->ev < y->ev);
}

/* Sort and merge equal keys, summing n; returns the new count. */
#define MERGE(arr, cnt, cmp)                                        \
	do {                                                        \
		size_t o_ = 0;                                      \
		qsort((arr), (cnt), sizeof(*(arr)), cmp);           \
		for (size_t i_ = 0; i_ < (cnt); i_++) {             \
			if (o_ && !cmp(&(arr)[o_ - 1], &(arr)[i_])) \
				(arr)[o_ - 1].n += (arr)[i_].n;     \
			else                                        \
				(arr)[o_++] = (arr)[i_];            \
		}                                                   \
		(cnt) = o_;                                         \
	} while (0)

static const struct annot_map *find_map(const struct annot_data *d, uint32_t pid, uint64_t ip)
{
	for (size_t i = d->nmap; i-- > 0;)
		if (d->map[i].pid == pid && ip >= d->map[i].start && ip < d->map[i].end)
			return &d->map[i];
	return NULL;
}

/* Raw samples to hits; raw is freed. */
static int place(struct annot_data *d, struct raw *raw, size_t nraw)
{
	MERGE(raw, nraw, raw_cmp);
	d->hit = malloc((nraw ? nraw : 1) * sizeof(*d->hit));
	if (!d->hit) {
		free(raw);
		return -1;
	}
	for (size_t i = 0; i < nraw; i++) {
		const struct annot_map *m = find_map(d, raw[i].pid, raw[i].ip);

		if (!m) {
			d->unmapped += raw[i].n;
			continue;
		}
		d->hit[d->nhit++] =
			(struct annot_hit){ m->img, raw[i].ev, raw[i].ip - m->bias, raw[i].n };
	}
	free(raw);
	MERGE(d->hit, d->nhit, hit_cmp);
	return 0;
}

static int event_index(const struct annot_data *d, uint32_t id)
{
	for (unsigned i = 0; i < d->nev; i++)
		if (d->evid[i] == id)
			return (int)i;
	return -1;
}

int annot_load(struct annot_data *d, const char *path, char *err, size_t errsz)
{
	struct sfile_reader *r;
	struct sfile_rec rec;
	struct sfile_rstats st;
	struct raw *raw = NULL;
	size_t nraw = 0, cap = 0;
	int rc, bad = 0;

	memset(d, 0, sizeof(*d));
	r = sfile_open(path, err, errsz);
	if (!r)
		return -1;
	while (!bad && (rc = sfile_next(r, &rec)) == 1) {
		if (rec.type == SFILE_ATTR)
			bad = add_event(d, &rec.attr);
		else if (rec.type == SFILE_MMAP)
			bad = add_map(d, &rec.mmap);
		else if (rec.type == SFILE_SAMPLE) {
			int ev = event_index(d, rec.sample.id);

			d->samples++;
			if (ev < 0) {
				d->unmapped++;
				continue;
			}
			if (nraw == cap) {
				struct raw *n;

				cap = cap ? 2 * cap : 4096;
				n = realloc(raw, cap * sizeof(*n));
				if (!n) {
					bad = 1;
					break;
				}
				raw = n;
			}
			raw[nraw++] =
				(struct raw){ rec.sample.pid, (unsigned)ev, rec.sample.ip, 1 };
			if (nraw == cap) /* merge early: a hot loop repeats its addresses */
				MERGE(raw, nraw, raw_cmp);
		}
	}
	if (bad || rc < 0) {
		snprintf(err, errsz, "%s", bad ? "out of memory" : sfile_rerror(r));
		free(raw);
		sfile_rclose(r);
		annot_release(d);
		return -1;
	}
	sfile_rstats(r, &st);
	d->damaged = st.damaged_bytes;
	sfile_rclose(r);
	if (place(d, raw, nraw)) {
		snprintf(err, errsz, "out of memory");
		annot_release(d);
		return -1;
	}
	return 0;
}

void annot_release(struct annot_data *d)
{
	for (unsigned i = 0; i < d->nev; i++)
		free(d->evname[i]);
	for (unsigned i = 0; i < d->nimg; i++) {
		free(d->img[i].path);
		sym_free(d->img[i].sym);
	}
	free(d->evname);
	free(d->evid);
	free(d->img);
	free(d->hit);
	free(d->map);
	memset(d, 0, sizeof(*d));
}

struct sym *annot_sym(struct annot_data *d, unsigned i)
{
	struct annot_image *im = &d->img[i];

	if (!im->sym) {
		im->sym = sym_new();
		if (im->sym && im->readable)
			sym_add_image(im->sym, im->path, im->lo, im->hi, 0);
	}
	return im->sym;
}
