/* annotate_data.c — a sample file's samples as per-image, per-address
 * counts.  The file is read and its samples resolved by report_open
 * (core/report_load.c), as for report and script; each sample's location
 * names its image and the address as that image's ELF vaddr, which is
 * all annotation needs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate_data.h"
#include "report.h"
#include "sym.h"
#include "sym_bias.h"

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
	im->path = path; /* lives in the report */
	im->readable = !sym_image_span(path, &im->lo, &im->hi);
	*out = d->nimg++;
	return 0;
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

/* Sort the hits and merge those of one (image, address, event). */
static void merge(struct annot_data *d)
{
	size_t o = 0;

	qsort(d->hit, d->nhit, sizeof(*d->hit), hit_cmp);
	for (size_t i = 0; i < d->nhit; i++) {
		if (o && !hit_cmp(&d->hit[o - 1], &d->hit[i]))
			d->hit[o - 1].n += d->hit[i].n;
		else
			d->hit[o++] = d->hit[i];
	}
	d->nhit = o;
}

/* One hit per run of samples on the same location (a hot loop repeats
 * its addresses), merged at the end. */
static int place(struct annot_data *d, const struct report *r)
{
	const struct report_loc *last = NULL;
	uint32_t lastev = 0;
	unsigned img = 0;

	d->hit = malloc((r->nsamples ? r->nsamples : 1) * sizeof(*d->hit));
	if (!d->hit)
		return -1;
	for (size_t i = 0; i < r->nsamples; i++) {
		const struct report_sample *s = &r->samples[i];
		const struct report_loc *l = s->loc;

		if (l == last && s->ev == lastev) {
			d->hit[d->nhit - 1].n++;
			continue;
		}
		/* [vdso], [stack]: no file to disassemble */
		if (!l->path || l->path[0] != '/') {
			d->unmapped++;
			last = NULL;
			continue;
		}
		if (image_of(d, l->path, &img))
			return -1;
		d->hit[d->nhit++] = (struct annot_hit){ img, s->ev, l->file_addr, 1 };
		last = l;
		lastev = s->ev;
	}
	merge(d);
	return 0;
}

int annot_load(struct annot_data *d, const char *path, int raw_names, char *err, size_t errsz)
{
	struct report *r;

	memset(d, 0, sizeof(*d));
	d->raw_names = raw_names;
	r = report_open(path,
			REPORT_NO_DATA | REPORT_NO_CHAINS | (raw_names ? REPORT_NO_DEMANGLE : 0),
			err, errsz);
	if (!r)
		return -1;
	d->r = r;
	d->nev = (unsigned)r->nevents;
	d->evname = calloc(d->nev + 1, sizeof(*d->evname));
	if (!d->evname || place(d, r)) {
		snprintf(err, errsz, "out of memory");
		annot_release(d);
		return -1;
	}
	for (unsigned i = 0; i < d->nev; i++)
		d->evname[i] = r->events[i].attr.name[0] ? r->events[i].attr.name : "event";
	d->samples = r->nsamples + r->unknown_event_samples;
	d->unmapped += r->unknown_event_samples;
	d->damaged = r->stats.damaged_bytes;
	return 0;
}

void annot_release(struct annot_data *d)
{
	for (unsigned i = 0; i < d->nimg; i++)
		sym_free(d->img[i].sym);
	free(d->evname);
	free(d->img);
	free(d->hit);
	report_close(d->r);
	memset(d, 0, sizeof(*d));
}

struct sym *annot_sym(struct annot_data *d, unsigned i)
{
	struct annot_image *im = &d->img[i];

	if (!im->sym) {
		im->sym = sym_new();
		if (im->sym)
			sym_set_demangle(im->sym, !d->raw_names);
		if (im->sym && im->readable)
			sym_add_image(im->sym, im->path, im->lo, im->hi, 0);
	}
	return im->sym;
}
