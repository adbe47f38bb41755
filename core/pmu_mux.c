/* pmu_mux.c — counter multiplexing (pmu_mux.h). */
#include <stdlib.h>
#include <string.h>

#include "pmu_mux.h"

/* Events pick[0..n) of s as a set of their own, leaders renumbered. */
static void subset(const struct pmu_set *s, const unsigned *pick, unsigned n, struct pmu_set *out)
{
	memset(out, 0, sizeof(*out));
	out->b = s->b;
	for (unsigned k = 0; k < n; k++) {
		out->ev[k] = s->ev[pick[k]];
		out->ev[k].group = (int)k;
		out->ctr[k] = s->ctr[pick[k]];
		/* a member's leader is the latest earlier event with its leader */
		for (unsigned j = 0; j < k; j++)
			if ((unsigned)s->ev[pick[k]].group == pick[j]) {
				out->ev[k].group = (int)j;
				break;
			}
	}
	out->n = n;
}

/* Whether g counts event i: its own group, or one it also fits in. */
static int in_group(const struct pmu_set *s, unsigned i, int g)
{
	return s->mux[i] == g || (g < 64 && s->mux_also[i] >> g & 1);
}

/* Events on their own (no {group}) and not sampling also count in every
 * other group that still has room for them: the time they count in adds
 * up, up to all of it (exact), as a fixed counter such as the XScale's
 * CCNT counts in every group. */
static void fill(struct pmu_set *s, int ngrp, char *err, size_t errsz)
{
	for (unsigned i = 0; i < s->n; i++) {
		int alone = s->ev[i].group == (int)i && !s->ev[i].period;

		for (unsigned j = 0; j < s->n && alone; j++)
			alone = j == i || s->ev[j].group != (int)i;
		for (int g = 0; alone && g < ngrp && g < 64; g++) {
			unsigned pick[ARCH_MAX_EVSEL], n = 0;
			struct pmu_set t;

			if (in_group(s, i, g))
				continue;
			for (unsigned j = 0; j < s->n; j++)
				if (in_group(s, j, g))
					pick[n++] = j;
			pick[n++] = i;
			subset(s, pick, n, &t);
			if (s->b->assign(t.ev, t.n, t.ctr, err, errsz) == 0)
				s->mux_also[i] |= 1ull << g;
		}
	}
	err[0] = 0;
}

int pmu_mux_plan(struct pmu_set *s, char *err, size_t errsz)
{
	struct pmu_set t;
	unsigned pick[ARCH_MAX_EVSEL], npick = 0, i = 0;
	int g = 0;

	while (i < s->n) {
		unsigned end = i + 1;
		while (end < s->n && s->ev[end].group == s->ev[i].group)
			end++;
		/* try the event group with the current pack */
		for (unsigned k = i; k < end; k++)
			pick[npick + k - i] = k;
		subset(s, pick, npick + end - i, &t);
		if (s->b->assign(t.ev, t.n, t.ctr, err, errsz) < 0) {
			if (!npick) /* alone, it does not fit either */
				return -1;
			g++; /* start a new pack with it */
			npick = 0;
			continue;
		}
		for (unsigned k = 0; k < t.n; k++) {
			s->ctr[pick[k]] = t.ctr[k];
			s->mux[pick[k]] = g;
		}
		npick = t.n;
		i = end;
	}
	memset(s->mux_also, 0, sizeof(s->mux_also));
	if (g > 0)
		fill(s, g + 1, err, errsz);
	return s->n ? g + 1 : 0;
}

void pmu_mux_group(const struct pmu_set *s, int g, struct pmu_set *out, int *idx)
{
	unsigned pick[ARCH_MAX_EVSEL] = { 0 }, n = 0;
	int also = 0;
	char err[256];

	for (unsigned i = 0; i < s->n; i++)
		if (in_group(s, i, g)) {
			idx[n] = (int)i;
			pick[n++] = i;
			also |= s->mux[i] != g;
		}
	subset(s, pick, n, out);
	out->mux_cycles = s->mux_cycles;
	/* with guests, the counters are the group's own assignment (the
	 * planner saw it succeed) */
	if (also)
		s->b->assign(out->ev, out->n, out->ctr, err, sizeof(err));
}

struct mux_group {
	struct pmu_mux *m;
	struct arch_pmu *pmu;
	struct uarch_sink sink;
	unsigned n;
	int idx[ARCH_MAX_EVSEL]; /* session index of each of its events */
	struct uarch_sig *buf;	 /* its share of a delivery */
	size_t nbuf, cap;
};

/* The groups take turns on a fixed schedule of emulated cycles: slot k =
 * [start + k * interval, start + (k + 1) * interval) belongs to group
 * k % ngrp.  Each signal goes to the group whose slot holds its cycle (a
 * duration is cut at the slot edges), whenever the model delivers it, so
 * a span the model batches is shared as the cycles were.  Events every
 * group takes as sums are summed by the model up to the cut, the end of
 * the slot the model is in; it signals what reaches past the cut, and
 * hands the sums over (to that slot's group) once it has passed it. */
struct pmu_mux {
	const struct arch_backend *b;
	struct arch_pmu_cb cb;
	unsigned ngrp;
	uint64_t interval;
	int started;
	uint64_t start, last; /* first and latest cycle seen */
	uint8_t grp_of[ARCH_MAX_EVSEL],
		local[ARCH_MAX_EVSEL]; /* session index -> group, index in it */
	uint64_t lo, hi;	       /* the slot last looked up, */
	unsigned g;		       /* and its group */
	uint64_t cut;		       /* uarch_sink.cut: 0 until started */
	struct mux_group grp[];
};

/* A group's sample, its event renumbered as the session knows it. */
static void group_sample(void *arg, const struct arch_sample *s)
{
	struct mux_group *g = arg;
	struct arch_sample t = *s;

	if (s->evsel >= g->n)
		return;
	t.evsel = (uint32_t)g->idx[s->evsel];
	g->m->cb.sample(g->m->cb.arg, &t);
}

/* The group whose slot holds cycle c, the end of that slot in *edge
 * (cycles before the start belong to the first group). */
static unsigned slot_of(struct pmu_mux *m, uint64_t c, uint64_t *edge)
{
	uint64_t k;

	if (c < m->start) {
		*edge = m->start;
		return 0;
	}
	if (c < m->lo || c >= m->hi) {
		k = (c - m->start) / m->interval;
		m->lo = m->start + k * m->interval;
		m->hi = m->lo + m->interval;
		m->g = (unsigned)(k % m->ngrp);
	}
	*edge = m->hi;
	return m->g;
}

/* Append the part [c, stop) of sig to group g's share; -1 out of memory. */
static int push(struct mux_group *mg, const struct uarch_sig *sig, uint64_t c, uint64_t stop)
{
	if (mg->nbuf == mg->cap) {
		size_t cap = mg->cap ? 2 * mg->cap : UARCH_SIGBUF;
		struct uarch_sig *nb = realloc(mg->buf, cap * sizeof(*nb));

		if (!nb)
			return -1;
		mg->buf = nb;
		mg->cap = cap;
	}
	mg->buf[mg->nbuf] = *sig;
	mg->buf[mg->nbuf].cycle = c;
	mg->buf[mg->nbuf].dur = (uint32_t)(stop - c);
	mg->nbuf++;
	return 0;
}

/* The cycle now was reached. */
static void seen(struct pmu_mux *m, uint64_t now)
{
	if (!m->started) {
		m->started = 1;
		m->start = m->last = now;
	}
	if (now > m->last)
		m->last = now;
}

/* The sums, raised before the cut, to the group of the slot that ends
 * there; then the cut moves to the end of the slot the model is in. */
static void sums(void *ctx, const struct uarch_sums *s)
{
	struct pmu_mux *m = ctx;
	uint64_t edge;

	if (m->cut) {
		struct mux_group *mg = &m->grp[slot_of(m, m->cut - 1, &edge)];
		if (mg->sink.sums)
			mg->sink.sums(mg->sink.ctx, s);
	}
	if (s->frontier == ~0ull)
		return;
	seen(m, s->retire > s->frontier ? s->retire : s->frontier);
	/* a retirement takes its cycle: seen up to its end, as its signals' */
	seen(m, s->retire + 1);
	if (s->frontier >= m->cut) {
		slot_of(m, s->frontier, &edge);
		m->cut = edge;
	}
}

/* Each signal, cut at the slot edges, to the groups that want it; every
 * group sees every retirement unless it is quiet (and keeps no budget,
 * which is not kept here) and got nothing. */
static void deliver(void *ctx, const struct uarch_delivery *d)
{
	struct pmu_mux *m = ctx;
	uint64_t now = d->retire;

	if (d->frontier != ~0ull && d->frontier > now)
		now = d->frontier;
	seen(m, now);
	for (unsigned k = 0; k < d->nsig; k++) {
		const struct uarch_sig *sig = &d->sig[k];
		uint64_t c = sig->cycle, end = sig->cycle + sig->dur, edge;

		if (end > m->last)
			m->last = end;
		while (c < end) {
			struct mux_group *mg = &m->grp[slot_of(m, c, &edge)];
			uint64_t stop = edge < end ? edge : end;

			if (mg->sink.want[sig->ev] && push(mg, sig, c, stop) < 0)
				goto deliver; /* out of memory: this delivery's rest is lost */
			c = stop;
		}
	}
deliver:
	for (unsigned g = 0; g < m->ngrp; g++) {
		struct mux_group *mg = &m->grp[g];
		struct uarch_delivery gd = *d;

		if (!mg->nbuf && mg->sink.quiet && !mg->sink.budget && d->tr)
			continue;
		gd.sig = mg->buf;
		gd.nsig = (unsigned)mg->nbuf;
		mg->nbuf = 0;
		mg->sink.deliver(mg->sink.ctx, &gd);
	}
}

struct pmu_mux *pmu_mux_new(const struct pmu_set *s, const struct arch_pmu_cb *cb)
{
	unsigned ngrp = 1;
	struct pmu_mux *m;

	for (unsigned i = 0; i < s->n; i++)
		if ((unsigned)s->mux[i] + 1 > ngrp)
			ngrp = (unsigned)s->mux[i] + 1;
	m = calloc(1, sizeof(*m) + ngrp * sizeof(m->grp[0]));
	if (!m)
		return NULL;
	m->b = s->b;
	m->cb = *cb;
	m->ngrp = ngrp;
	m->interval = s->mux_cycles ? s->mux_cycles : 1;
	for (unsigned g = 0; g < ngrp; g++) {
		struct mux_group *mg = &m->grp[g];
		struct arch_pmu_cb gcb = { cb->sample ? group_sample : NULL, mg, cb->seed };
		struct pmu_set *t = malloc(sizeof(*t));

		if (!t) {
			pmu_mux_free(m);
			return NULL;
		}
		pmu_mux_group(s, (int)g, t, mg->idx);
		mg->m = m;
		mg->n = t->n;
		for (unsigned k = 0; k < t->n; k++)
			if (s->mux[mg->idx[k]] == (int)g) { /* its own group sets its period */
				m->grp_of[mg->idx[k]] = (uint8_t)g;
				m->local[mg->idx[k]] = (uint8_t)k;
			}
		mg->pmu = s->b->pmu_new(t->ev, t->n, t->ctr, &gcb);
		free(t);
		if (!mg->pmu) {
			pmu_mux_free(m);
			return NULL;
		}
		s->b->pmu_sink(mg->pmu, &mg->sink);
	}
	return m;
}

void pmu_mux_sink(struct pmu_mux *m, struct uarch_sink *sink, int shared)
{
	if (m->ngrp == 1) {
		*sink = m->grp[0].sink;
		return;
	}
	memset(sink, 0, sizeof(*sink));
	sink->deliver = deliver;
	sink->ctx = m;
	sink->quiet = 1;
	sink->sum_max = UINT32_MAX;
	for (unsigned g = 0; g < m->ngrp; g++) {
		const struct uarch_sink *gs = &m->grp[g].sink;
		for (unsigned ev = 0; ev < UARCH_NEV; ev++)
			sink->want[ev] |= gs->want[ev];
		sink->want_insn |= gs->want_insn;
		sink->quiet &= gs->quiet && !gs->budget; /* a budget is not kept here */
		if (gs->sums && gs->sum_max < sink->sum_max)
			sink->sum_max = gs->sum_max;
	}
	/* an event is summed when every group that wants it sums it */
	for (unsigned ev = 0; ev < UARCH_NEV; ev++) {
		int sum = sink->want[ev] && !shared;
		for (unsigned g = 0; g < m->ngrp && sum; g++) {
			const struct uarch_sink *gs = &m->grp[g].sink;
			sum = !gs->want[ev] || (gs->sums && gs->sum[ev] &&
						(!gs->budget || gs->budget->n[ev] == ~0ull));
		}
		sink->sum[ev] = (uint8_t)sum;
		if (sum)
			sink->sums = sums;
	}
	/* without sums, the turns' times need every retirement */
	if (sink->sums)
		sink->cut = &m->cut;
	else
		sink->quiet = 0;
}

/* Cycles of [start, last) in group g's slots. */
static uint64_t running(const struct pmu_mux *m, unsigned g)
{
	uint64_t total = m->last - m->start, slots = total / m->interval;
	uint64_t run = slots / m->ngrp * m->interval;

	if (g < slots % m->ngrp)
		run += m->interval;
	else if (g == slots % m->ngrp)
		run += total % m->interval;
	return run;
}

void pmu_mux_read(struct pmu_mux *m, uint64_t *val, uint64_t (*time)[2])
{
	int mux = m->ngrp > 1;

	for (unsigned g = 0; g < m->ngrp; g++)
		for (unsigned k = 0; k < m->grp[g].n; k++) {
			val[m->grp[g].idx[k]] = 0;
			time[m->grp[g].idx[k]][1] = 0;
		}
	/* an event in several groups: its counts and running times add up */
	for (unsigned g = 0; g < m->ngrp; g++) {
		struct mux_group *mg = &m->grp[g];
		uint64_t v[ARCH_MAX_EVSEL] = { 0 };

		m->b->pmu_read(mg->pmu, v);
		for (unsigned k = 0; k < mg->n; k++) {
			val[mg->idx[k]] += v[k];
			time[mg->idx[k]][0] = mux ? m->last - m->start : 0;
			time[mg->idx[k]][1] += mux ? running(m, g) : 0;
		}
	}
}

int pmu_mux_period(struct pmu_mux *m, unsigned i, uint64_t period)
{
	if (i >= ARCH_MAX_EVSEL || !m->b->pmu_period)
		return -1;
	m->b->pmu_period(m->grp[m->grp_of[i]].pmu, m->local[i], period);
	return 0;
}

void pmu_mux_free(struct pmu_mux *m)
{
	if (!m)
		return;
	for (unsigned g = 0; g < m->ngrp; g++) {
		if (m->grp[g].pmu)
			m->b->pmu_free(m->grp[g].pmu);
		free(m->grp[g].buf);
	}
	free(m);
}
