/* tcmode.c — TC_DELIVER_MODE: in each cycle, the pair of the two logical
 * processors' trace-cache modes.
 *
 * SDM vol. 3B, appendix A, TC_deliver_mode: each bit counts the cycles
 * the trace cache and decoder spend with processor 0 in one mode and
 * processor 1 in another — deliver, build, or inactive (halted, clearing
 * or in microcode).  No bit counts both inactive.
 *
 * The model says each processor's mode by its signals: a processor is
 * active in the cycles it counts (cycles), builds in those of
 * tc-build-cycles, and is inactive in those of tc-rom-cycles and
 * machine-clear-cycles and in all it does not count; it delivers in the
 * rest.  The cycles of each kind are kept as spans per processor, and
 * handed out, stretch by stretch, up to the model's frontier, past which
 * no signal comes. */
#include <stdlib.h>

#include "p4.h"

enum { MODE_D, MODE_B, MODE_I };

/* The mask bit of each pair of modes, processor 0's first (-1: none). */
static const int8_t pair_bit[3][3] = {
	[MODE_D] = { 0, 1, 2 },
	[MODE_B] = { 3, 4, 5 },
	[MODE_I] = { 6, 7, -1 },
};

int p4_tcm_source(unsigned ev)
{
	return ev == UARCH_EV_CYCLES || ev == UARCH_EV_TC_BUILD_CYCLES ||
	       ev == UARCH_EV_TC_ROM_CYCLES || ev == UARCH_EV_MC_CYCLES;
}

/* Make room for one more span in f: 0, or -1 out of memory. */
static int grow(struct p4_tcm_list *f)
{
	unsigned cap = f->cap ? f->cap * 2 : 64;
	struct p4_tcm_span *s;

	if (f->n < f->cap)
		return 0;
	s = malloc(cap * sizeof(*s));
	if (!s)
		return -1;
	for (unsigned k = 0; k < f->n; k++)
		s[k] = f->s[(f->head + k) % f->cap];
	free(f->s);
	f->s = s;
	f->cap = cap;
	f->head = 0;
	return 0;
}

/* Add [from, to) to f: signals of one kind come in the order of their
 * cycles, so a span joins the last one or follows it.  Cycles already
 * handed out (before done) are dropped; out of memory, (≈) the last span
 * stretches. */
static void push(struct p4_tcm_list *f, uint64_t from, uint64_t to, uint64_t done)
{
	struct p4_tcm_span *last = f->n ? &f->s[(f->head + f->n - 1) % f->cap] : NULL;

	if (from < done)
		from = done;
	if (to <= from)
		return;
	if (last && (from <= last->to || grow(f) < 0)) {
		if (to > last->to)
			last->to = to;
		return;
	}
	if (!last && grow(f) < 0)
		return;
	f->s[(f->head + f->n++) % f->cap] = (struct p4_tcm_span){ from, to };
}

void p4_tcm_free(struct p4_tcm *m)
{
	for (int lp = 0; m && lp < 2; lp++)
		for (int k = 0; k < P4_TCM_NKIND; k++)
			free(m->l[lp][k].s);
}

void p4_tcm_note(struct p4_tcm *m, const struct uarch_sig *s)
{
	uint64_t from = s->cycle, to = s->cycle + s->dur;
	struct p4_tcm_list *l = m->l[s->th & 1];

	switch (s->ev) {
	case UARCH_EV_CYCLES:
		push(&l[P4_TCM_ACTIVE], from, to, m->done);
		if (s->kernel)
			push(&l[P4_TCM_KERNEL], from, to, m->done);
		break;
	case UARCH_EV_TC_BUILD_CYCLES:
		push(&l[P4_TCM_BUILD], from, to, m->done);
		break;
	default: /* microcode ROM, clearing */
		push(&l[P4_TCM_IDLE], from, to, m->done);
	}
}

/* Whether f has cycle c (dropping its spans before it); where that next
 * changes, lowered into *end. */
static int has(struct p4_tcm_list *f, uint64_t c, uint64_t *end)
{
	while (f->n && f->s[f->head].to <= c) {
		f->head = (f->head + 1) % f->cap;
		f->n--;
	}
	if (!f->n)
		return 0;
	if (f->s[f->head].from > c) {
		if (f->s[f->head].from < *end)
			*end = f->s[f->head].from;
		return 0;
	}
	if (f->s[f->head].to < *end)
		*end = f->s[f->head].to;
	return 1;
}

int p4_tcm_next(struct p4_tcm *m, uint64_t to, struct p4_tcm_seg *g)
{
	uint64_t c = m->done, end = to;
	int in[2][P4_TCM_NKIND], mode[2];

	if (c >= to)
		return 0;
	for (int lp = 0; lp < 2; lp++) {
		for (int k = 0; k < P4_TCM_NKIND; k++)
			in[lp][k] = has(&m->l[lp][k], c, &end);
		mode[lp] = !in[lp][P4_TCM_ACTIVE] || in[lp][P4_TCM_IDLE] ? MODE_I :
			   in[lp][P4_TCM_BUILD]				 ? MODE_B :
									   MODE_D;
	}
	g->from = c;
	g->dur = end - c;
	g->bit = pair_bit[mode[0]][mode[1]];
	g->kernel = in[0][P4_TCM_ACTIVE] ? in[0][P4_TCM_KERNEL] : in[1][P4_TCM_KERNEL];
	m->done = end;
	return 1;
}
