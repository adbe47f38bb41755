/* pmu.c — the Pentium 4 Xeon backend (arch.h): event specs to ESCR/CCCR
 * images packed as Linux perf packs them, counter assignment under the
 * ESCR wiring, and the run-time hardware: signals from the timing model
 * through the programmed ESCRs into the counting engine (counter.c),
 * tagging, and sampling (sample.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../arch.h"
#include "p4.h"
#include "p4_pmu.h"

/* ---- the event tables as arch.h describes them ---- */

#define MAXEV 64
#define MAXUM 640

static struct arch_event arch_events[MAXEV];
static struct arch_umask arch_umasks[MAXUM];
static char counters_text[MAXEV][96];

/* Linux's raw index of an event; events Linux does not know follow its
 * 46 in table order (a vpmu extension). */
unsigned p4_raw_id(unsigned ev)
{
	unsigned extra = 0;

	if (p4_events[ev].linux_id != 0xff)
		return p4_events[ev].linux_id;
	for (unsigned k = 0; k < ev; k++)
		extra += p4_events[k].linux_id == 0xff;
	return P4_LINUX_NEVENTS + extra;
}

int p4_event_by_raw_id(unsigned id)
{
	for (unsigned k = 0; k < p4_nevents; k++)
		if (p4_raw_id(k) == id)
			return (int)k;
	return -1;
}

static void describe_counters(char *out, size_t max, const struct p4_event_desc *d)
{
	size_t len = 0;

	out[0] = 0;
	for (int k = 0; k < 2; k++) {
		const struct p4_escr_desc *e;
		if (d->escr[k] < 0)
			continue;
		e = &p4_escr[d->escr[k]];
		len += (size_t)snprintf(out + len, max - len, "%s%s:", len ? " " : "", e->name);
		for (int c = 0; c < 3 && len < max; c++)
			if (e->ctr[c] >= 0)
				len += (size_t)snprintf(out + len, max - len, "%s%d",
							out[len - 1] == ':' ? "" : ",", e->ctr[c]);
		if (len >= max)
			break;
	}
}

static void init(struct arch_backend *b)
{
	unsigned nu = 0;

	if (b->nevents)
		return;
	for (unsigned k = 0; k < p4_nevents && k < MAXEV; k++) {
		const struct p4_event_desc *d = &p4_events[k];
		struct arch_event *a = &arch_events[k];

		describe_counters(counters_text[k], sizeof(counters_text[k]), d);
		*a = (struct arch_event){ d->name,    d->desc,		&arch_umasks[nu], 0,
					  d->defmask, counters_text[k], d->unsupported,	  NULL };
		if (d->tag == P4_TAG_REPLAY)
			a->precise = "PEBS (replay-tagged µops; the metric chooses which)";
		for (unsigned j = 0; j < d->nbits && nu < MAXUM; j++, nu++)
			arch_umasks[nu] =
				(struct arch_umask){ d->bits[j].name, 1u << d->bits[j].bit,
						     d->bits[j].desc, d->bits[j].unsupported };
		a->numask = (unsigned)(&arch_umasks[nu] - a->umask);
	}
	b->events = arch_events;
	b->nevents = p4_nevents < MAXEV ? p4_nevents : MAXEV;
}

/* ---- specs and raw images ---- */

/* The PEBS metric a raw image or generic name carries (Linux's enum
 * P4_PEBS_METRIC) and what replay tagging then marks. */
const struct p4_metric p4_metrics[P4_NMETRIC] = {
	[P4_METRIC_NONE] = { "none", 0, 0, { UARCH_NEV, UARCH_NEV }, UARCH_NEV },
	[P4_METRIC_L1_LD_MISS] = { "1stl_cache_load_miss_retired",
				   0x1,
				   0x1,
				   { UARCH_EV_L1D_LD_MISS, UARCH_NEV },
				   UARCH_EV_L1D_LD_MISS_WP },
	[P4_METRIC_L2_LD_MISS] = { "2ndl_cache_load_miss_retired",
				   0x2,
				   0x1,
				   { UARCH_EV_LD_L2_MISS, UARCH_NEV },
				   UARCH_NEV },
	[P4_METRIC_DTLB_LD_MISS] = { "dtlb_load_miss_retired",
				     0x4,
				     0x1,
				     { UARCH_EV_LD_DTLB_MISS, UARCH_NEV },
				     UARCH_NEV },
	[P4_METRIC_DTLB_ST_MISS] = { "dtlb_store_miss_retired",
				     0x4,
				     0x2,
				     { UARCH_EV_ST_DTLB_MISS, UARCH_NEV },
				     UARCH_NEV },
	[P4_METRIC_DTLB_ALL_MISS] = { "dtlb_all_miss_retired",
				      0x4,
				      0x3,
				      { UARCH_EV_LD_DTLB_MISS, UARCH_EV_ST_DTLB_MISS },
				      UARCH_NEV },
	[P4_METRIC_MISPRED_BRANCH] = { "tagged_mispred_branch",
				       0x18000,
				       0x10,
				       { UARCH_EV_BR_MISP, UARCH_NEV },
				       UARCH_NEV },
	[P4_METRIC_MOB_LD_REPLAY] = { "mob_load_replay_retired",
				      0x200,
				      0x1,
				      { UARCH_EV_LD_ST_OVERLAP, UARCH_NEV },
				      UARCH_NEV },
	[P4_METRIC_SPLIT_LD] = { "split_load_retired",
				 0x400,
				 0x1,
				 { UARCH_EV_LD_SPLIT, UARCH_NEV },
				 UARCH_NEV },
	[P4_METRIC_SPLIT_ST] = { "split_store_retired",
				 0x400,
				 0x2,
				 { UARCH_EV_ST_SPLIT, UARCH_NEV },
				 UARCH_NEV },
};

static int check(struct arch_evsel *e, unsigned metric, char *err, size_t errsz)
{
	const struct p4_event_desc *d = &p4_events[e->event];

	if (d->unsupported) {
		snprintf(err, errsz, "%s is not supported: %s", d->name, d->unsupported);
		return ARCH_ENOTSUP;
	}
	if (!e->umask) {
		snprintf(err, errsz, "%s: empty event mask", d->name);
		return -1;
	}
	for (unsigned j = 0; j < d->nbits; j++) {
		const struct p4_ebit *b = &d->bits[j];
		if (!(e->umask & 1u << b->bit))
			continue;
		if (b->unsupported) {
			snprintf(err, errsz, "%s:%s is not supported: %s", d->name, b->name,
				 b->unsupported);
			return ARCH_ENOTSUP;
		}
	}
	for (unsigned m = e->umask, j; m; m &= m - 1) {
		unsigned bit = (unsigned)__builtin_ctz(m);
		for (j = 0; j < d->nbits && d->bits[j].bit != bit; j++)
			;
		if (j == d->nbits) {
			snprintf(err, errsz, "%s has no event-mask bit %u", d->name, bit);
			return -1;
		}
	}
	if (d->tag == P4_TAG_BSQ || d->tag == P4_TAG_BSQ_ACTIVE) {
		const char *why;
		unsigned sig;
		int rc = p4_bsq_signal(e->umask, d->tag == P4_TAG_BSQ_ACTIVE, &sig, &why);
		if (rc) {
			snprintf(err, errsz, "%s:0x%x is %s: %s", d->name, e->umask,
				 rc < 0 ? "not a mask it takes" : "not supported", why);
			return rc < 0 ? -1 : ARCH_ENOTSUP;
		}
	}
	if (metric >= P4_NMETRIC) {
		snprintf(err, errsz, "PEBS metric %u is not one the Pentium 4 defines", metric);
		return -1;
	}
	if (d->tag == P4_TAG_REPLAY) {
		const struct p4_metric *m = &p4_metrics[metric];
		if (!metric) {
			snprintf(err, errsz,
				 "%s needs a replay-tagging metric (use L1-dcache-load-misses, "
				 "a generic name, or a raw r<hex> with the metric in the CCCR's "
				 "low bits)",
				 d->name);
			return -1;
		}
		if ((e->umask & 1) && m->retired[0] == UARCH_NEV) {
			snprintf(err, errsz,
				 "replay tagging for %s is not supported: the model "
				 "raises no signal for it",
				 m->name);
			return ARCH_ENOTSUP;
		}
		if ((e->umask & 2) && m->bogus == UARCH_NEV) {
			snprintf(err, errsz,
				 "%s:BOGUS with metric %s is not supported: the model "
				 "does not tag it on mispredicted paths",
				 d->name, m->name);
			return ARCH_ENOTSUP;
		}
	} else if (metric) {
		snprintf(err, errsz, "a PEBS metric applies to REPLAY_EVENT only, not %s", d->name);
		return -1;
	}
	if (e->precise && d->tag != P4_TAG_REPLAY) {
		snprintf(err, errsz,
			 "%s has no precise (PEBS) form: the Pentium 4 samples precisely only "
			 "replay-tagged µops (L1-dcache-load-misses:pp and the like)",
			 d->name);
		return -1;
	}
	return 0;
}

static int encode(struct arch_evsel *e, char *err, size_t errsz)
{
	const struct p4_event_desc *d;
	unsigned metric = e->raw ? (unsigned)(e->config & P4_CONFIG_METRIC_MASK) : 0;
	uint32_t escr, cccr;
	int rc;

	if (e->event < 0 || (unsigned)e->event >= p4_nevents) {
		snprintf(err, errsz, "no such event");
		return -1;
	}
	d = &p4_events[e->event];
	rc = check(e, metric, err, errsz);
	if (rc < 0)
		return rc;
	escr = (p4_raw_id((unsigned)e->event) & P4_ESCR_EVENT_MASK) << P4_ESCR_EVENT_SHIFT |
	       (e->umask & P4_ESCR_EMASK_MASK) << P4_ESCR_EMASK_SHIFT;
	cccr = (uint32_t)(p4_escr[d->escr[0] >= 0 ? d->escr[0] : d->escr[1]].sel)
	       << P4_CCCR_ESEL_SHIFT;
	if (e->raw) {
		/* keep what the user may set: tag, compare, complement,
		 * threshold, edge, active thread, metric (Linux's
		 * P4_CONFIG_MASK) */
		escr |= (uint32_t)(e->config >> 32) &
			(P4_ESCR_TAG_MASK << P4_ESCR_TAG_SHIFT | P4_ESCR_TAG_ENABLE);
		cccr |= (uint32_t)e->config &
			(P4_CCCR_EDGE | P4_CCCR_THRESH_MASK << P4_CCCR_THRESH_SHIFT |
			 P4_CCCR_COMPLEMENT | P4_CCCR_COMPARE |
			 P4_CCCR_THREAD_MASK << P4_CCCR_THREAD_SHIFT | P4_CONFIG_METRIC_MASK);
	}
	e->config = (e->config & P4_CONFIG_HT) | (uint64_t)escr << 32 | cccr;
	return 0;
}

static int decode(struct arch_evsel *e, char *err, size_t errsz)
{
	uint32_t escr = (uint32_t)(e->config >> 32);
	unsigned id = escr >> P4_ESCR_EVENT_SHIFT & P4_ESCR_EVENT_MASK;
	int ev = p4_event_by_raw_id(id);

	if (ev < 0) {
		snprintf(err, errsz,
			 "raw event 0x%llx: no event has index %u in the ESCR's event field",
			 (unsigned long long)e->config, id);
		return -1;
	}
	e->event = ev;
	e->umask = escr >> P4_ESCR_EMASK_SHIFT & P4_ESCR_EMASK_MASK;
	e->raw = 1;
	return encode(e, err, errsz);
}

/* ---- counter assignment ---- */

/* The ESCR image an event needs, for comparing two events on one ESCR:
 * the T0/T1 OS/USR bits come from the modifiers and the thread mask. */
static uint32_t escr_image(const struct arch_evsel *e)
{
	return (uint32_t)(e->config >> 32) | p4_escr_qual(e);
}

struct placer {
	const struct arch_evsel *e;
	unsigned n;
	int *ctr;
	int escr_of[P4_NCTR];
	int used_escr[P4_NESCR]; /* events on it */
	uint32_t escr_val[P4_NESCR];
	int ctr_used[P4_NCTR];
	unsigned metric; /* replay tagging in use (one at a time) */
};

static int place(struct placer *p, unsigned i)
{
	const struct arch_evsel *e;
	const struct p4_event_desc *d;

	if (i == p->n)
		return 1;
	e = &p->e[i];
	d = &p4_events[e->event];
	for (int k = 0; k < 2; k++) {
		int x = d->escr[k];
		if (x < 0)
			continue;
		if (p->used_escr[x] && p->escr_val[x] != escr_image(e))
			continue;
		for (int c = 0; c < 3; c++) {
			int ctr = p4_escr[x].ctr[c];
			if (ctr < 0 || p->ctr_used[ctr])
				continue;
			/* PEBS drives counters 16 and 17 (IQ_CCCR4/5) only
			 * (Linux's NetBurst driver, "Only counters
			 * MSR_IQ_COUNTER4 (16) and MSR_IQ_COUNTER5 (17)") */
			if (e->precise && ctr != 16 && ctr != 17)
				continue;
			p->ctr_used[ctr] = 1;
			p->used_escr[x]++;
			p->escr_val[x] = escr_image(e);
			p->ctr[i] = ctr;
			if (place(p, i + 1))
				return 1;
			p->ctr_used[ctr] = 0;
			p->used_escr[x]--;
		}
	}
	return 0;
}

static int assign(const struct arch_evsel *e, unsigned n, int *ctr, char *err, size_t errsz)
{
	struct placer p;
	unsigned metric = 0, precise = 0;

	memset(&p, 0, sizeof(p));
	p.e = e;
	p.n = n;
	p.ctr = ctr;
	for (unsigned i = 0; i < n; i++) {
		unsigned m = p4_events[e[i].event].tag == P4_TAG_REPLAY ?
				     (unsigned)(e[i].config & P4_CONFIG_METRIC_MASK) :
				     0;
		if (m && metric && m != metric) {
			snprintf(
				err, errsz,
				"'%s' and another replay-tagged event need different metrics: replay "
				"tagging marks one kind of µop at a time",
				e[i].name);
			return -1;
		}
		if (m)
			metric = m;
		precise += e[i].precise != 0;
	}
	if (precise > 2) {
		snprintf(err, errsz, "at most two precise events (counters 16 and 17)");
		return -1;
	}
	if (place(&p, 0))
		return 0;
	/* name a pair that cannot share: the first prefix that fails */
	for (unsigned k = 2; k <= n; k++) {
		p.n = k;
		memset(p.used_escr, 0, sizeof(p.used_escr));
		memset(p.ctr_used, 0, sizeof(p.ctr_used));
		if (!place(&p, 0)) {
			snprintf(err, errsz,
				 "'%s' does not fit with the events before it: its ESCRs (%s) and "
				 "their counters are taken",
				 e[k - 1].name, arch_events[e[k - 1].event].counters);
			return -1;
		}
	}
	snprintf(err, errsz, "the events do not fit on the 18 counters at once");
	return -1;
}

/* The model delivers every counted event with its instruction, so both
 * interrupt and PEBS samples know which count raised them. */
static int sample_trigger(const struct arch_evsel *e)
{
	return e->period != 0;
}

/* A PEBS record holds the registers (SDM vol. 3, "Pentium 4 PEBS
 * record"). */
static int sample_pre(const struct arch_evsel *e)
{
	return e->precise && e->period;
}

/* Thread-independent events (SDM vol. 3B, table A-15: TI; Linux's
 * .shared): the T0/T1 bits cannot pick a processor's. */
static int shared(const struct arch_evsel *e)
{
	return e->event >= 0 && (unsigned)e->event < p4_nevents && p4_events[e->event].shared;
}

/* TC_DELIVER_MODE pairs both processors' modes, cycle by cycle: a copy
 * of the counters that sees one processor's signals cannot. */
static const char *unpaired(const struct arch_evsel *e)
{
	if (e->event < 0 || (unsigned)e->event >= p4_nevents ||
	    p4_events[e->event].tag != P4_TAG_TC_MODE)
		return NULL;
	return "each program's counters see only its own logical processor's trace-cache "
	       "mode (two threads of one program, --smt without ':', count it)";
}

struct arch_backend arch_p4 = {
	.name = "p4",
	.desc = "Pentium 4 Xeon with Hyper-Threading (NetBurst): 45 ESCRs, 18 counters, "
		"tagging, PEBS",
	.machine = "p4",
	.generic = p4_generic,
	.ngeneric = P4_NGENERIC,
	.ncounters = P4_NCTR,
	.init = init,
	.encode = encode,
	.decode = decode,
	.assign = assign,
	.pmu_new = p4_pmu_new,
	.pmu_sink = p4_pmu_sink,
	.pmu_read = p4_pmu_read,
	.pmu_period = p4_pmu_period,
	.pmu_free = p4_pmu_free,
	.sample_trigger = sample_trigger,
	.unpaired = unpaired,
	.sample_pre = sample_pre,
	.shared = shared,
};
