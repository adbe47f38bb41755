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
	int started;   /* a delivery was seen */
	uint64_t last; /* latest cycle seen */
	uint64_t next; /* the next boundary */
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

static void deliver(void *ctx, const struct uarch_delivery *d)
{
	struct pmu_ival *iv = ctx;
	uint64_t now = d->retire;

	if (d->frontier != ~0ull && d->frontier > now)
		now = d->frontier;
	if (!iv->started) {
		iv->started = 1;
		iv->last = now;
		iv->next = (now / iv->len + 1) * iv->len;
	} else if (now >= iv->next) {
		/* this delivery belongs to a later interval than what came before */
		send_delta(iv);
		iv->next = (now / iv->len + 1) * iv->len;
	}
	if (now > iv->last)
		iv->last = now;
	iv->inner.deliver(iv->inner.ctx, d);
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
	return iv;
}

void pmu_ival_sink(struct pmu_ival *iv, struct uarch_sink *sink)
{
	*sink = iv->inner;
	sink->deliver = deliver;
	sink->ctx = iv;
	/* Every signal as it comes: sums held back until a system call would
	 * land in a later interval, and their callback takes the inner ctx. */
	sink->sums = NULL;
	memset(sink->sum, 0, sizeof(sink->sum));
	sink->sum_max = 0;
	sink->quiet = 0;
	sink->cut = NULL;
	sink->budget = NULL;
}

void pmu_ival_flush(struct pmu_ival *iv)
{
	if (iv)
		send_delta(iv);
}

void pmu_ival_free(struct pmu_ival *iv)
{
	free(iv);
}
