/* pmu.c — carry a session's events to the guest processes and attach the
 * backend's counter hardware to their timing models. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu.h"
#include "pmu_ival.h"
#include "pmu_mux.h"
#include "pmu_sample.h"

#define PMU_MAGIC 0x766d7531u /* "vmu1" */

/* The serialised form: what the hardware needs, not the names. */
struct packed_ev {
	uint64_t config, period;
	uint32_t umask;
	int32_t event, ctr, group, mux;
	uint32_t freq;
	uint8_t excl_user, excl_kernel, precise, raw, thread;
	uint32_t branch_sample;
	uint64_t mux_also;
};

struct packed {
	uint32_t magic, n;
	uint32_t mhz;
	uint8_t callgraph, jitter;
	uint64_t seed;
	char arch[16];
	uint64_t mux_cycles;
	uint64_t ival_cycles;
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
	p->mhz = s->mhz;
	p->callgraph = s->callgraph;
	p->jitter = s->jitter;
	p->seed = s->seed;
	p->mux_cycles = s->mux_cycles;
	p->ival_cycles = s->ival_cycles;
	memcpy(p->arch, s->b->name, strlen(s->b->name));
	for (unsigned i = 0; i < s->n; i++) {
		const struct arch_evsel *e = &s->ev[i];
		p->ev[i] = (struct packed_ev){ .config = e->config,
					       .period = e->period,
					       .umask = e->umask,
					       .event = e->event,
					       .ctr = s->ctr[i],
					       .group = e->group,
					       .mux = s->mux[i],
					       .freq = s->freq[i],
					       .excl_user = e->excl_user,
					       .excl_kernel = e->excl_kernel,
					       .precise = e->precise,
					       .raw = e->raw,
					       .thread = e->thread,
					       .branch_sample = e->branch_sample,
					       .mux_also = s->mux_also[i] };
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
	s->mhz = p->mhz;
	s->callgraph = p->callgraph;
	s->jitter = p->jitter;
	s->seed = p->seed;
	s->mux_cycles = p->mux_cycles;
	s->ival_cycles = p->ival_cycles;
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
		s->freq[i] = q->freq;
		e->thread = q->thread;
		e->branch_sample = q->branch_sample;
		s->ctr[i] = q->ctr;
		s->mux[i] = q->mux;
		s->mux_also[i] = q->mux_also;
		if (e->event < 0 || (unsigned)e->event >= s->b->nevents || q->mux < 0 ||
		    q->mux >= ARCH_MAX_EVSEL) {
			snprintf(err, errsz, "damaged PMU configuration (event %d)", e->event);
			return -1;
		}
	}
	return 0;
}

struct attached {
	struct pmu_mux *mux; /* the backend's hardware, one per group that fits */
	unsigned n;
	struct pmu_set set;
	struct pmu_sampler *sampler; /* NULL: counting only */
	struct pmu_ival *ival;	     /* NULL: no interval counts */
};

static int samples_wanted(const struct pmu_set *s, const struct lx_pmu_env *env)
{
	for (unsigned i = 0; i < s->n && env->sample_fd >= 0; i++)
		if (s->ev[i].period)
			return 1;
	return 0;
}

int pmu_check_pair(const struct pmu_set *s, char *err, size_t errsz)
{
	for (unsigned i = 0; i < s->n && s->b->unpaired; i++) {
		const char *why = s->b->unpaired(&s->ev[i]);
		if (why) {
			snprintf(err, errsz, "%s cannot be counted for two programs: %s",
				 s->b->events[s->ev[i].event].name, why);
			return -1;
		}
	}
	return 0;
}

static void *attach(struct uarch *u, struct lx_pmu_env *env, const void *cfg, size_t len, char *err,
		    size_t errsz)
{
	struct attached *a = calloc(1, sizeof(*a));
	struct uarch_sink sink;
	struct arch_pmu_cb cb = { NULL, NULL, 0 };

	if (!a) {
		snprintf(err, errsz, "out of memory for the counter hardware");
		return NULL;
	}
	if (pmu_unpack(&a->set, cfg, len, err, errsz) < 0)
		goto fail;
	a->n = a->set.n;

	if (samples_wanted(&a->set, env)) {
		a->sampler = pmu_sampler_new(&a->set, env);
		if (!a->sampler)
			goto oom;
		cb = (struct arch_pmu_cb){ pmu_sampler_sample, a->sampler, 0 };
	}
	cb.seed = a->set.seed;
	a->mux = pmu_mux_new(&a->set, &cb);
	if (!a->mux)
		goto oom;
	if (a->sampler)
		pmu_sampler_bind(a->sampler, a->mux);
	memset(&sink, 0, sizeof(sink));
	pmu_mux_sink(a->mux, &sink, env->shared);
	if (a->set.ival_cycles && env->sample_fd >= 0) {
		a->ival = pmu_ival_new(a->mux, a->n, a->set.ival_cycles, env->sample_fd, &sink);
		if (!a->ival) {
			pmu_mux_free(a->mux);
			goto oom;
		}
		pmu_ival_sink(a->ival, &sink);
	}
	if (uarch_set_sink(u, &sink) < 0) {
		pmu_ival_free(a->ival);
		pmu_mux_free(a->mux);
		goto oom;
	}
	return a;
oom:
	snprintf(err, errsz, "out of memory for the counter hardware");
fail:
	pmu_sampler_free(a->sampler);
	free(a);
	return NULL;
}

static void read_counts(void *pmu, uint64_t *val, uint64_t (*time)[2])
{
	struct attached *a = pmu;
	uint64_t v[ARCH_MAX_EVSEL] = { 0 }, t[ARCH_MAX_EVSEL][2] = { { 0 } };

	/* the intervals first: the last hands over what it held */
	pmu_ival_flush(a->ival);
	pmu_mux_read(a->mux, v, t);
	if (a->sampler)
		pmu_sampler_flush(a->sampler);
	for (unsigned i = 0; i < a->n && i < LX_MAX_PMU; i++) {
		val[i] = v[i];
		time[i][0] = t[i][0];
		time[i][1] = t[i][1];
	}
}

static void detach(void *pmu, struct uarch *u)
{
	struct attached *a = pmu;

	uarch_set_sink(u, NULL);
	pmu_ival_free(a->ival);
	pmu_mux_free(a->mux);
	pmu_sampler_free(a->sampler);
	free(a);
}

const struct lx_pmu_ops pmu_lx_ops = { attach, read_counts, detach };
