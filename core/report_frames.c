/* report_frames.c — the frames of a sample for call graphs and stacks:
 * its call chain with the functions inlined at each address shown as
 * frames of their own, as perf shows them ("name (inlined)").
 *
 * The inline chain of an address comes from DWARF (sym_inlines): frame 0
 * is the innermost inlined function at the address's own line, each next
 * one the function it was inlined into, at the call site; the last is the
 * out-of-line function, which the loc itself stands for.  Each loc's
 * inline frames are made once and kept until report_close.
 */
#include <string.h>

#include "core/report_priv.h"
#include "core/sym.h"

#define MAX_INLINE 16

/* The inline frames of l (innermost first, without l itself): a count
 * and the locs, kept in the arena. */
struct inl {
	size_t n;
	struct report_loc *f[];
};

static const struct inl none = { 0 };

static const struct inl *inlines_of(struct report_priv *p, struct report_loc *l)
{
	struct sym_frame fr[MAX_INLINE];
	struct inl *in;
	int n;

	in = report_map_get(&p->inl, (uintptr_t)l, 0);
	if (in)
		return in;
	n = l->path && l->sym ? sym_inlines(report_space_sym(l->space), l->addr - (uint64_t)l->ret,
					    fr, MAX_INLINE) :
				0;
	/* the last frame is l's own function */
	n = n > 1 ? n - 1 : 0;
	in = report_alloc(p, sizeof(*in) + (size_t)n * sizeof(in->f[0]));
	if (!in)
		return &none;
	in->n = 0;
	for (int k = 0; k < n; k++) {
		struct report_loc *f = report_alloc(p, sizeof(*f));

		if (!f)
			break;
		*f = *l;
		f->inlined = 1;
		f->sym = fr[k].func ? fr[k].func : "[inlined]";
		f->line_state = fr[k].file ? 1 : -1;
		f->srcfile = fr[k].file;
		f->line = fr[k].line;
		in->f[in->n++] = f;
	}
	if (report_map_put(&p->inl, (uintptr_t)l, 0, in))
		return &none;
	return in;
}

size_t report_sample_frames(const struct report *r, const struct report_sample *s,
			    struct report_loc **out, size_t max)
{
	struct report_loc *const *chain = s->nchain ? r->chains + s->chain : &s->loc;
	size_t len = s->nchain ? s->nchain : 1, n = 0;

	for (size_t k = 0; k < len && n < max; k++) {
		if (!(r->priv->flags & REPORT_NO_INLINE)) {
			const struct inl *in = inlines_of(r->priv, chain[k]);

			for (size_t i = 0; i < in->n && n < max; i++)
				out[n++] = in->f[i];
		}
		if (n < max)
			out[n++] = chain[k];
	}
	return n;
}
