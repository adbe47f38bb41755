/* sfile_rec.c — encode and decode the record payloads of the sample file.
 *
 * The encoder and decoder for each type sit side by side so that the two
 * can be read against each other and against man/vpmu-data.5.  The
 * decoder trusts nothing: every length and count is checked against the
 * bytes that remain before anything is read or allocated, integers are
 * assembled byte by byte (no unaligned loads), and views point into an
 * arena sized from the payload length.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sfile_rec.h"

const char *sfile_type_name(unsigned t)
{
	static const char *const names[SFILE_NTYPES] = {
		"?",	"attr",	  "cmdline", "machine", "mmap",
		"comm", "sample", "totals",  "lost",	"finished",
	};

	return t < SFILE_NTYPES ? names[t] : "?";
}

/* ---- encoding ------------------------------------------------------------ */

/* Room for n more bytes of the record begun at rec, or NULL with why set. */
static uint8_t *room(struct sfile_enc *e, size_t rec, size_t n)
{
	if (e->why)
		return NULL;
	if (n > SFILE_REC_HEADER + SFILE_RECORD_MAX - (e->len - rec)) {
		e->why = "record larger than the format allows";
		return NULL;
	}
	if (n > e->cap - e->len) {
		size_t cap = e->cap ? e->cap : 4096;
		uint8_t *p;

		while (cap - e->len < n)
			cap *= 2;
		p = realloc(e->p, cap);
		if (!p) {
			e->why = "out of memory";
			return NULL;
		}
		e->p = p;
		e->cap = cap;
	}
	e->len += n;
	return e->p + e->len - n;
}

struct enc {
	struct sfile_enc *e;
	size_t rec; /* offset of the record header in e */
};

static void e16(struct enc *c, uint16_t v)
{
	uint8_t *q = room(c->e, c->rec, 2);

	if (q)
		sfile_put16(q, v);
}

static void e32(struct enc *c, uint32_t v)
{
	uint8_t *q = room(c->e, c->rec, 4);

	if (q)
		sfile_put32(q, v);
}

static void e64(struct enc *c, uint64_t v)
{
	uint8_t *q = room(c->e, c->rec, 8);

	if (q)
		sfile_put64(q, v);
}

static void epad(struct enc *c)
{
	size_t n = (8 - (c->e->len - c->rec) % 8) % 8;
	uint8_t *q = room(c->e, c->rec, n);

	if (q)
		memset(q, 0, n);
}

static void ebytes(struct enc *c, const void *p, size_t n, size_t max, const char *what)
{
	uint8_t *q;

	if (n > max || (n && !p)) {
		if (!c->e->why)
			c->e->why = what;
		return;
	}
	e32(c, (uint32_t)n);
	q = room(c->e, c->rec, n);
	if (q && n)
		memcpy(q, p, n);
	epad(c);
}

static void estr(struct enc *c, const char *s)
{
	if (!s) {
		if (!c->e->why)
			c->e->why = "missing string";
		return;
	}
	ebytes(c, s, strnlen(s, SFILE_STRING_MAX + 1), SFILE_STRING_MAX, "string too long");
}

/* An array header; 0 if n items of the pointer p cannot be written. */
static int earray(struct enc *c, uint32_t n, const void *p)
{
	if (n && !p) {
		if (!c->e->why)
			c->e->why = "array without items";
		return 0;
	}
	e32(c, n);
	e32(c, 0);
	return !c->e->why;
}

static void enc_sample(struct enc *c, const struct sfile_sample *s, uint64_t st)
{
	e32(c, s->id);
	e32(c, s->pid);
	e32(c, s->tid);
	e32(c, s->cpu);
	e64(c, s->ip);
	e64(c, s->time);
	e64(c, s->period);
	if (st & SFILE_S_ADDR)
		e64(c, s->addr);
	if (st & SFILE_S_WEIGHT)
		e64(c, s->weight);
	if ((st & SFILE_S_REGS) && earray(c, s->nregs, s->regs))
		for (uint32_t i = 0; i < s->nregs && !c->e->why; i++)
			e64(c, s->regs[i]);
	if (st & SFILE_S_EAR) {
		e16(c, s->ear.kind);
		e16(c, s->ear.level);
		e32(c, s->ear.latency);
		e64(c, s->ear.iaddr);
		e64(c, s->ear.daddr);
	}
	if ((st & SFILE_S_BRANCHES) && earray(c, s->nbranches, s->branches))
		for (uint32_t i = 0; i < s->nbranches && !c->e->why; i++) {
			e64(c, s->branches[i].from);
			e64(c, s->branches[i].to);
			e64(c, s->branches[i].flags);
		}
	if (st & SFILE_S_PROFILEME)
		ebytes(c, s->profileme, s->profileme_len, SFILE_PROFILEME_MAX,
		       "ProfileMe record too long");
	if ((st & SFILE_S_CALLCHAIN) && earray(c, s->ncallchain, s->callchain))
		for (uint32_t i = 0; i < s->ncallchain && !c->e->why; i++)
			e64(c, s->callchain[i]);
	if (st & SFILE_S_TRIGGER) {
		e64(c, s->trigger_ip);
		e64(c, s->skid);
	}
	if (st & SFILE_S_DSRC)
		e16(c, s->dsrc);
}

static void enc_payload(struct enc *c, uint16_t type, const void *view, uint64_t st)
{
	switch (type) {
	case SFILE_ATTR: {
		const struct sfile_attr *a = view;

		e32(c, a->id);
		e16(c, a->precise);
		e16(c, a->flags);
		e64(c, a->config);
		e64(c, a->config1);
		e64(c, a->period);
		e64(c, a->sample_type);
		estr(c, a->name);
		estr(c, a->machine);
		break;
	}
	case SFILE_CMDLINE: {
		const struct sfile_cmdline *m = view;

		if (earray(c, m->argc, m->argv))
			for (uint32_t i = 0; i < m->argc; i++)
				estr(c, m->argv[i]);
		break;
	}
	case SFILE_MACHINE: {
		const struct sfile_machine *m = view;

		estr(c, m->name);
		if (earray(c, m->nparams, m->params))
			for (uint32_t i = 0; i < m->nparams; i++) {
				estr(c, m->params[i].key);
				estr(c, m->params[i].value);
			}
		break;
	}
	case SFILE_MMAP: {
		const struct sfile_mmap *m = view;

		e32(c, m->pid);
		e32(c, m->prot);
		e64(c, m->start);
		e64(c, m->len);
		e64(c, m->pgoff);
		ebytes(c, m->build_id, m->build_id_len, SFILE_BUILD_ID_MAX, "build-id too long");
		estr(c, m->path);
		break;
	}
	case SFILE_COMM: {
		const struct sfile_comm *m = view;

		e32(c, m->pid);
		e32(c, m->tid);
		estr(c, m->name);
		break;
	}
	case SFILE_SAMPLE:
		enc_sample(c, view, st);
		break;
	case SFILE_TOTALS: {
		const struct sfile_totals *t = view;

		e32(c, t->id);
		e32(c, 0);
		e64(c, t->value);
		e64(c, t->enabled);
		e64(c, t->running);
		break;
	}
	case SFILE_LOST: {
		const struct sfile_lost *l = view;

		e32(c, l->id);
		e32(c, 0);
		e64(c, l->count);
		break;
	}
	case SFILE_FINISHED: {
		const struct sfile_finished *f = view;

		e64(c, f->records);
		e64(c, f->samples);
		break;
	}
	default:
		c->e->why = "unknown record type";
	}
}

int sfile_enc_record(struct sfile_enc *e, uint16_t type, const void *view, uint64_t sample_type)
{
	struct enc c = { e, e->len };
	size_t plen;

	e->why = NULL;
	e16(&c, type);
	e16(&c, 0);
	e32(&c, 0); /* payload length, patched below */
	enc_payload(&c, type, view, sample_type);
	epad(&c);
	if (e->why) {
		e->len = c.rec;
		return -1;
	}
	plen = e->len - c.rec - SFILE_REC_HEADER;
	sfile_put32(e->p + c.rec + 4, (uint32_t)plen);
	return 0;
}

/* ---- decoding ------------------------------------------------------------ */

struct dec {
	const uint8_t *p;
	size_t len, off;
	struct sfile_arena *a;
	const char *why;
};

static const uint8_t *take(struct dec *d, size_t n)
{
	if (d->why)
		return NULL;
	if (n > d->len - d->off) {
		d->why = "record shorter than its fields";
		return NULL;
	}
	d->off += n;
	return d->p + d->off - n;
}

static uint16_t d16(struct dec *d)
{
	const uint8_t *q = take(d, 2);

	return q ? sfile_get16(q) : 0;
}

static uint32_t d32(struct dec *d)
{
	const uint8_t *q = take(d, 4);

	return q ? sfile_get32(q) : 0;
}

static uint64_t d64(struct dec *d)
{
	const uint8_t *q = take(d, 8);

	return q ? sfile_get64(q) : 0;
}

/* Skip padding to 8; the last field of a payload may go without it. */
static void dpad(struct dec *d)
{
	size_t n = (8 - d->off % 8) % 8;

	if (!d->why)
		d->off += n < d->len - d->off ? n : d->len - d->off;
}

static void *aalloc(struct dec *d, size_t n, size_t align)
{
	struct sfile_arena *a = d->a;
	size_t at = (a->len + align - 1) & ~(align - 1);

	if (d->why)
		return NULL;
	if (at > a->cap || n > a->cap - at) {
		d->why = "record too complex";
		return NULL;
	}
	a->len = at + n;
	return a->p + at;
}

/* A byte string: a view into the payload itself. */
static const uint8_t *dbytes(struct dec *d, uint32_t *len, size_t max)
{
	uint32_t n = d32(d);
	const uint8_t *q;

	if (!d->why && n > max) {
		d->why = "byte string too long";
		return NULL;
	}
	q = take(d, n);
	dpad(d);
	*len = q ? n : 0;
	return q;
}

static const char *dstr(struct dec *d)
{
	uint32_t n;
	const uint8_t *q = dbytes(d, &n, SFILE_STRING_MAX);
	char *s;

	if (!q)
		return NULL;
	if (memchr(q, 0, n)) {
		d->why = "string holds a NUL byte";
		return NULL;
	}
	s = aalloc(d, (size_t)n + 1, 1);
	if (!s)
		return NULL;
	memcpy(s, q, n);
	s[n] = 0;
	return s;
}

/* An array header: the count, checked against the bytes left. */
static uint32_t darray(struct dec *d, size_t item)
{
	uint32_t n = d32(d);

	d32(d);
	if (!d->why && n > (d->len - d->off) / item) {
		d->why = "array count larger than the record";
		return 0;
	}
	return d->why ? 0 : n;
}

static const uint64_t *du64s(struct dec *d, uint32_t *count)
{
	uint32_t n = darray(d, 8);
	uint64_t *v = aalloc(d, (size_t)n * 8 + 8, 8);

	*count = 0;
	if (!v)
		return NULL;
	for (uint32_t i = 0; i < n; i++)
		v[i] = d64(d);
	*count = n;
	return v;
}

static void dec_sample(struct dec *d, struct sfile_sample *s, sfile_attr_fn attr, void *ctx)
{
	uint64_t st;

	s->id = d32(d);
	s->pid = d32(d);
	s->tid = d32(d);
	s->cpu = d32(d);
	s->ip = d64(d);
	s->time = d64(d);
	s->period = d64(d);
	s->attr = d->why ? NULL : attr(ctx, s->id);
	if (!s->attr)
		return;
	st = s->attr->sample_type & SFILE_S_KNOWN;
	if (st & SFILE_S_ADDR)
		s->addr = d64(d);
	if (st & SFILE_S_WEIGHT)
		s->weight = d64(d);
	if (st & SFILE_S_REGS)
		s->regs = du64s(d, &s->nregs);
	if (st & SFILE_S_EAR) {
		s->ear.kind = d16(d);
		s->ear.level = d16(d);
		s->ear.latency = d32(d);
		s->ear.iaddr = d64(d);
		s->ear.daddr = d64(d);
	}
	if (st & SFILE_S_BRANCHES) {
		uint32_t n = darray(d, 24);
		struct sfile_branch *b = aalloc(d, (size_t)n * sizeof(*b) + 8, 8);

		if (b) {
			for (uint32_t i = 0; i < n; i++) {
				b[i].from = d64(d);
				b[i].to = d64(d);
				b[i].flags = d64(d);
			}
			s->branches = b;
			s->nbranches = n;
		}
	}
	if (st & SFILE_S_PROFILEME)
		s->profileme = dbytes(d, &s->profileme_len, SFILE_PROFILEME_MAX);
	if (st & SFILE_S_CALLCHAIN)
		s->callchain = du64s(d, &s->ncallchain);
	if (st & SFILE_S_TRIGGER) {
		s->trigger_ip = d64(d);
		s->skid = d64(d);
	}
	if (st & SFILE_S_DSRC)
		s->dsrc = (uint8_t)d16(d);
	s->fields = st;
}

static void dec_payload(struct dec *d, uint16_t type, struct sfile_rec *r, sfile_attr_fn attr,
			void *ctx)
{
	switch (type) {
	case SFILE_ATTR:
		r->attr.id = d32(d);
		r->attr.precise = d16(d);
		r->attr.flags = d16(d);
		r->attr.config = d64(d);
		r->attr.config1 = d64(d);
		r->attr.period = d64(d);
		r->attr.sample_type = d64(d);
		r->attr.name = dstr(d);
		r->attr.machine = dstr(d);
		break;
	case SFILE_CMDLINE: {
		uint32_t n = darray(d, 8);
		const char **argv = aalloc(d, ((size_t)n + 1) * sizeof(char *), 8);

		for (uint32_t i = 0; argv && i < n; i++)
			argv[i] = dstr(d);
		if (argv)
			argv[n] = NULL;
		r->cmdline.argc = n;
		r->cmdline.argv = argv;
		break;
	}
	case SFILE_MACHINE: {
		uint32_t n;
		struct sfile_param *pa;

		r->machine.name = dstr(d);
		n = darray(d, 16);
		pa = aalloc(d, (size_t)n * sizeof(*pa) + 8, 8);
		for (uint32_t i = 0; pa && i < n; i++) {
			pa[i].key = dstr(d);
			pa[i].value = dstr(d);
		}
		r->machine.nparams = n;
		r->machine.params = pa;
		break;
	}
	case SFILE_MMAP:
		r->mmap.pid = d32(d);
		r->mmap.prot = d32(d);
		r->mmap.start = d64(d);
		r->mmap.len = d64(d);
		r->mmap.pgoff = d64(d);
		r->mmap.build_id = dbytes(d, &r->mmap.build_id_len, SFILE_BUILD_ID_MAX);
		r->mmap.path = dstr(d);
		break;
	case SFILE_COMM:
		r->comm.pid = d32(d);
		r->comm.tid = d32(d);
		r->comm.name = dstr(d);
		break;
	case SFILE_SAMPLE:
		dec_sample(d, &r->sample, attr, ctx);
		break;
	case SFILE_TOTALS:
		r->totals.id = d32(d);
		d32(d);
		r->totals.value = d64(d);
		r->totals.enabled = d64(d);
		r->totals.running = d64(d);
		break;
	case SFILE_LOST:
		r->lost.id = d32(d);
		d32(d);
		r->lost.count = d64(d);
		break;
	case SFILE_FINISHED:
		r->finished.records = d64(d);
		r->finished.samples = d64(d);
		break;
	default:
		d->why = "unknown record type";
	}
}

int sfile_dec_record(uint16_t type, const uint8_t *p, size_t len, struct sfile_arena *a,
		     sfile_attr_fn attr, void *ctx, struct sfile_rec *out, const char **why)
{
	struct dec d = { p, len, 0, a, NULL };

	/* Every view the decoder makes fits in twice the payload plus a few
	 * alignment gaps (see aalloc's callers); grow before, not during. */
	if (a->cap < 2 * len + 256) {
		size_t cap = 2 * len + 256;
		uint8_t *np = malloc(cap);

		if (!np) {
			*why = "out of memory";
			return -1;
		}
		free(a->p);
		a->p = np;
		a->cap = cap;
	}
	a->len = 0;
	memset(&out->sample, 0, sizeof(*out) - offsetof(struct sfile_rec, sample));
	dec_payload(&d, type, out, attr, ctx);
	if (d.why) {
		*why = d.why;
		return -1;
	}
	return 0;
}

void sfile_msg(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errsz)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
}
