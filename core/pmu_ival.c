/* pmu_ival.c — interval snapshots of the counts (pmu_ival.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "pmu_ival.h"
#include "recwire.h"

struct pmu_ival {
	struct pmu_mux *m;
	struct uarch_sink inner;
	unsigned n;
	uint64_t len;  /* cycles per interval */
	int fd;	       /* the session's channel */
	int threads;   /* logical processors active at the last delivery */
	uint64_t last; /* latest cycle seen before the boundary */
	uint64_t seen; /* latest cycle seen */
	/* The next boundary: events stamped from it on belong to a later
	 * interval, and wait in held[] (a span is cut there) until the
	 * interval before it is sent. */
	uint64_t next;
	uint64_t cut; /* uarch_sink.cut: next, or the inner sink's cut if earlier */
	struct uarch_sig *held;
	size_t nheld, cap;
	struct uarch_sig *part; /* a delivery's signals before next */
	size_t npart, pcap;
	struct recw_interval msg;
	uint64_t prev[RECW_MAX_IVAL], prev_t[RECW_MAX_IVAL][2]; /* as last sent */
};

/* What changed since the last message, filed under the interval of the
 * latest cycle seen; nothing when nothing did. */
static void send_delta(struct pmu_ival *iv)
{
	uint64_t v[ARCH_MAX_EVSEL] = { 0 }, t[ARCH_MAX_EVSEL][2] = { { 0 } };
	struct recw_interval *m = &iv->msg;
	int any = 0;
	ssize_t w;

	pmu_mux_read(iv->m, v, t);
	memset(m, 0, sizeof(*m));
	m->h.type = RECW_INTERVAL;
	m->h.len = sizeof(*m);
	m->n = iv->n;
	m->index = iv->last / iv->len;
	for (unsigned i = 0; i < iv->n; i++) {
		m->val[i] = v[i] - iv->prev[i];
		m->ena[i] = t[i][0] - iv->prev_t[i][0];
		m->run[i] = t[i][1] - iv->prev_t[i][1];
		any |= m->val[i] || m->ena[i];
		iv->prev[i] = v[i];
		iv->prev_t[i][0] = t[i][0];
		iv->prev_t[i][1] = t[i][1];
	}
	if (!any)
		return;
	do
		w = send(iv->fd, m, sizeof(*m), MSG_NOSIGNAL);
	while (w < 0 && errno == EINTR);
	/* a gone reader loses the interval; the guest goes on */
}

/* Append [c, stop) of sig to a buffer (out of memory, the signal is
 * lost; the guest goes on). */
static void push(struct uarch_sig **buf, size_t *n, size_t *cap, const struct uarch_sig *sig,
		 uint64_t c, uint64_t stop)
{
	if (*n == *cap) {
		size_t nc = *cap ? 2 * *cap : UARCH_SIGBUF;
		struct uarch_sig *nb = realloc(*buf, nc * sizeof(*nb));

		if (!nb)
			return;
		*buf = nb;
		*cap = nc;
	}
	(*buf)[*n] = *sig;
	(*buf)[*n].cycle = c;
	(*buf)[*n].dur = (uint32_t)(stop - c);
	++*n;
}

/* The model's cut: the next boundary, or the inner sink's if earlier. */
static void set_cut(struct pmu_ival *iv)
{
	uint64_t in = iv->inner.cut ? *iv->inner.cut : ~0ull;

	iv->cut = in < iv->next ? in : iv->next;
}

/* sigs[0..n) to the inner sink: the part of each before the boundary
 * now, the rest held; the inner sink sees no frontier past the boundary
 * while it has signals to come from before it. */
static void pass(struct pmu_ival *iv, const struct uarch_delivery *d, const struct uarch_sig *sigs,
		 unsigned n)
{
	struct uarch_delivery dd = *d;
	int split = 0;

	dd.sig = sigs;
	dd.nsig = n;
	for (unsigned k = 0; k < n; k++)
		split |= sigs[k].cycle + sigs[k].dur > iv->next;
	if (split) {
		iv->npart = 0;
		for (unsigned k = 0; k < n; k++) {
			const struct uarch_sig *s = &sigs[k];
			uint64_t end = s->cycle + s->dur;

			if (s->cycle < iv->next)
				push(&iv->part, &iv->npart, &iv->pcap, s, s->cycle,
				     end < iv->next ? end : iv->next);
			if (end > iv->next)
				push(&iv->held, &iv->nheld, &iv->cap, s,
				     s->cycle > iv->next ? s->cycle : iv->next, end);
		}
		dd.sig = iv->part;
		dd.nsig = (unsigned)iv->npart;
	}
	if (iv->nheld && dd.frontier != ~0ull && dd.frontier > iv->next)
		dd.frontier = iv->next;
	iv->inner.deliver(iv->inner.ctx, &dd);
}

/* The model is past cycle front, which is at or past the boundary: send
 * each interval it closed, and give the inner sink what was held for the
 * next. */
static void boundary(struct pmu_ival *iv, uint64_t front)
{
	while (front >= iv->next) {
		size_t n = iv->nheld;
		struct uarch_sig *h = iv->held;
		struct uarch_delivery d = { .frontier = iv->next, .threads = iv->threads };

		iv->last = iv->next - 1;
		send_delta(iv);
		iv->next = n ? iv->next + iv->len : (front / iv->len + 1) * iv->len;
		if (!n)
			break;
		/* the held signals, from before the new boundary now */
		iv->held = NULL;
		iv->nheld = iv->cap = 0;
		pass(iv, &d, h, (unsigned)n);
		free(h);
	}
	if (front > iv->last)
		iv->last = front;
}

static void deliver(void *ctx, const struct uarch_delivery *d)
{
	struct pmu_ival *iv = ctx;
	uint64_t now = d->retire;

	if (d->frontier != ~0ull && d->frontier > now)
		now = d->frontier;
	iv->threads = d->threads;
	for (unsigned k = 0; k < d->nsig; k++)
		if (d->sig[k].cycle + d->sig[k].dur - 1 > iv->seen)
			iv->seen = d->sig[k].cycle + d->sig[k].dur - 1;
	if (now > iv->seen)
		iv->seen = now;
	pass(iv, d, d->sig, d->nsig);
	if (now > iv->last && now < iv->next)
		iv->last = now;
	/* with sums, the boundary comes with them (sums()) */
	if (!iv->inner.sums && d->frontier != ~0ull && d->frontier >= iv->next)
		boundary(iv, d->frontier);
	set_cut(iv);
}

/* Everything summed is stamped before the model's cut: it belongs to the
 * interval the model is in, or the inner sink's turn. */
static void sums(void *ctx, const struct uarch_sums *s)
{
	struct pmu_ival *iv = ctx;

	iv->threads = s->threads;
	iv->inner.sums(iv->inner.ctx, s);
	if (s->frontier != ~0ull && s->frontier >= iv->next)
		boundary(iv, s->frontier);
	set_cut(iv);
}

struct pmu_ival *pmu_ival_new(struct pmu_mux *m, unsigned n, uint64_t len, int fd,
			      const struct uarch_sink *inner)
{
	struct pmu_ival *iv = calloc(1, sizeof(*iv));

	if (!iv)
		return NULL;
	iv->m = m;
	iv->n = n < RECW_MAX_IVAL ? n : RECW_MAX_IVAL;
	iv->len = len ? len : 1;
	iv->fd = fd;
	iv->inner = *inner;
	iv->next = iv->len;
	iv->threads = 1;
	set_cut(iv);
	return iv;
}

void pmu_ival_sink(struct pmu_ival *iv, struct uarch_sink *sink)
{
	*sink = iv->inner;
	sink->deliver = deliver;
	sink->ctx = iv;
	/* The inner sink's sums, up to each boundary (the cut); a budget is
	 * not kept here. */
	if (sink->sums)
		sink->sums = sums;
	sink->quiet = iv->inner.quiet && iv->inner.sums;
	sink->cut = &iv->cut;
	sink->budget = NULL;
	sink->insn_batch = 0; /* each retirement, for its interval */
}

void pmu_ival_flush(struct pmu_ival *iv)
{
	if (!iv)
		return;
	if (iv->nheld) {
		/* the run ends: what was held comes last */
		struct uarch_delivery d = { .frontier = ~0ull, .threads = iv->threads };
		struct uarch_sig *h = iv->held;
		size_t n = iv->nheld;
		uint64_t from = iv->next;

		iv->last = from - 1;
		send_delta(iv);
		iv->next = ~0ull;
		iv->held = NULL;
		iv->nheld = iv->cap = 0;
		pass(iv, &d, h, (unsigned)n);
		free(h);
		iv->last = iv->seen > from ? iv->seen : from;
	}
	send_delta(iv);
}

void pmu_ival_free(struct pmu_ival *iv)
{
	if (!iv)
		return;
	free(iv->held);
	free(iv->part);
	free(iv);
}
