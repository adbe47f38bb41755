/* pmu.c — carry a session's events to the guest processes and attach the
 * backend's counter hardware to their timing models. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu.h"

#define PMU_MAGIC 0x766d7531u /* "vmu1" */

/* The serialised form: what the hardware needs, not the names. */
struct packed_ev {
	uint64_t config, period;
	uint32_t umask;
	int32_t event, ctr, group;
	uint8_t excl_user, excl_kernel, precise, raw;
};

struct packed {
	uint32_t magic, n;
	char arch[16];
	struct packed_ev ev[];
};

size_t pmu_pack(const struct pmu_set *s, void *buf, size_t max)
{
	struct packed *p = buf;
	size_t need = sizeof(*p) + s->n * sizeof(p->ev[0]);

	if (need > max || !s->b || strlen(s->b->name) >= sizeof(p->arch))
		return 0;
	memset(buf, 0, need);
	p->magic = PMU_MAGIC;
	p->n = s->n;
	memcpy(p->arch, s->b->name, strlen(s->b->name));
	for (unsigned i = 0; i < s->n; i++) {
		const struct arch_evsel *e = &s->ev[i];
		p->ev[i] = (struct packed_ev){ e->config,  e->period, e->umask,	    e->event,
					       s->ctr[i],  e->group,  e->excl_user, e->excl_kernel,
					       e->precise, e->raw };
	}
	return need;
}

int pmu_unpack(struct pmu_set *s, const void *buf, size_t len, char *err, size_t errsz)
{
	const struct packed *p = buf;

	memset(s, 0, sizeof(*s));
	if (len < sizeof(*p) || p->magic != PMU_MAGIC || p->n > ARCH_MAX_EVSEL ||
	    len < sizeof(*p) + p->n * sizeof(p->ev[0])) {
		snprintf(err, errsz, "damaged PMU configuration");
		return -1;
	}
	char arch[sizeof(p->arch) + 1] = { 0 };
	memcpy(arch, p->arch, sizeof(p->arch));
	s->b = arch_find(arch);
	if (!s->b) {
		snprintf(err, errsz, "unknown PMU '%s'", arch);
		return -1;
	}
	s->n = p->n;
	for (unsigned i = 0; i < s->n; i++) {
		const struct packed_ev *q = &p->ev[i];
		struct arch_evsel *e = &s->ev[i];
		e->config = q->config;
		e->period = q->period;
		e->umask = q->umask;
		e->event = q->event;
		e->group = q->group;
		e->excl_user = q->excl_user;
		e->excl_kernel = q->excl_kernel;
		e->precise = q->precise;
		e->raw = q->raw;
		s->ctr[i] = q->ctr;
		if (e->event < 0 || (unsigned)e->event >= s->b->nevents) {
			snprintf(err, errsz, "damaged PMU configuration (event %d)", e->event);
			return -1;
		}
	}
	return 0;
}

struct attached {
	const struct arch_backend *b;
	struct arch_pmu *pmu;
	unsigned n;
};

static void *attach(struct uarch *u, const void *cfg, size_t len, char *err, size_t errsz)
{
	struct pmu_set *s = malloc(sizeof(*s));
	struct attached *a = calloc(1, sizeof(*a));
	struct uarch_sink sink;
	struct arch_pmu_cb cb = { NULL, NULL };

	if (!s || !a) {
		snprintf(err, errsz, "out of memory for the counter hardware");
		goto fail;
	}
	if (pmu_unpack(s, cfg, len, err, errsz) < 0)
		goto fail;
	a->b = s->b;
	a->n = s->n;
	a->pmu = s->b->pmu_new(s->ev, s->n, s->ctr, &cb);
	if (!a->pmu) {
		snprintf(err, errsz, "out of memory for the counter hardware");
		goto fail;
	}
	memset(&sink, 0, sizeof(sink));
	s->b->pmu_sink(a->pmu, &sink);
	if (uarch_set_sink(u, &sink) < 0) {
		snprintf(err, errsz, "out of memory for the counter hardware");
		s->b->pmu_free(a->pmu);
		goto fail;
	}
	free(s);
	return a;
fail:
	free(s);
	free(a);
	return NULL;
}

static void read_counts(void *pmu, uint64_t *val)
{
	struct attached *a = pmu;
	uint64_t v[ARCH_MAX_EVSEL] = { 0 };

	a->b->pmu_read(a->pmu, v);
	for (unsigned i = 0; i < a->n && i < LX_MAX_PMU; i++)
		val[i] = v[i];
}

static void detach(void *pmu, struct uarch *u)
{
	struct attached *a = pmu;

	uarch_set_sink(u, NULL);
	a->b->pmu_free(a->pmu);
	free(a);
}

const struct lx_pmu_ops pmu_lx_ops = { attach, read_counts, detach };
