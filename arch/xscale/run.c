/* run.c — the XScale counter hardware at run time: program PMNC (and on
 * XSC2 INTEN and EVTSEL) and the counters from the events, route the
 * timing model's signals to the counter whose evtCount selects them, and
 * take samples: a counter preset to 2^32 - period overflows, sets its flag
 * and, its interrupt enabled, requests an IRQ; the core takes it between
 * instructions a little later, and the handler records the interrupted
 * instruction, writes the flag to clear it and presets the counter again
 * [xdm] §8.2.4.1. */
#include <stdlib.h>
#include <string.h>

#include "../../emu/x86/x86.h"
#include "xscale_pmu.h"

/* Cycles from the overflow to the core taking the IRQ: through the
 * interrupt controller, then the pipeline drains (≈; a modelled figure). */
#define XS_IRQ_LATENCY 12
/* Increments short of its wrap that a sampling counter's sums stop at:
 * a signal smaller than this cannot carry it over before the sums on
 * their way (only a stall of more cycles is larger).  Within twice that
 * its events come one by one, and every retirement is delivered
 * (uarch_budget). */
#define NEAR_MARGIN 1024

struct route {
	uint8_t ctr;
	int8_t weight;
};

struct arch_pmu {
	struct xs_regs regs;
	struct arch_pmu_cb cb;
	unsigned n;
	int ctr[ARCH_MAX_EVSEL];
	int evsel_of[XS_NCTR_MAX]; /* -1: none */
	uint8_t kind[XS_NCTR_MAX]; /* enum xs_kind of what the counter selects */
	uint8_t thmask[XS_NCTR_MAX];
	uint8_t seen[XS_NCTR_MAX];
	uint64_t covered[XS_NCTR_MAX]; /* per-cycle kinds: cycles before this are counted */
	int64_t delta[XS_NCTR_MAX];    /* counts of the signals delivered, not yet added */
	uint64_t total[XS_NCTR_MAX];   /* increments taken (64 bits: what perf reports) */
	uint64_t period[XS_NCTR_MAX], loaded[XS_NCTR_MAX];
	uint8_t nroute[UARCH_NEV];
	struct route route[UARCH_NEV][XS_NCTR_MAX];
	uint8_t sum[UARCH_NEV]; /* taken as sums (xs_pmu_sink) */
	uint8_t sampling, irq_pending;
	uint64_t irq_due;
	/* Sampling counters that only add take sums within a budget, each
	 * with the weights of the summed events it counts, and those with
	 * sums on their way (a share of the budget left to them). */
	uint32_t budgeted, reserved;
	uint64_t weight[XS_NCTR_MAX];
	struct uarch_budget bud;
	uint64_t cut; /* uarch_sink.cut: 0 to have the sums now */
};

static const struct xs_event_desc *event_of_code(unsigned code)
{
	for (unsigned k = 0; k < xs_nevents; k++)
		if (xs_events[k].code == code)
			return &xs_events[k];
	return NULL;
}

/* What counter ctr counts as its registers select it. */
static void route_counter(struct arch_pmu *p, int ctr)
{
	const struct xs_event_desc *d =
		event_of_code(ctr == XS_CCNT ? XS_CODE_CCNT : xs_evtcount(&p->regs, ctr - 1));

	if (!d || d->unsupported)
		return;
	p->kind[ctr] = d->kind;
	for (int s = 0; s < XS_NSIG && d->sig[s] != UARCH_NEV; s++) {
		unsigned ev = d->sig[s];
		p->route[ev][p->nroute[ev]++] = (struct route){ (uint8_t)ctr, d->weight[s] };
	}
}

static uint32_t preset(uint64_t period)
{
	return (uint32_t)(0 - (period > 0xffffffffu ? 0xffffffffu : period));
}

static struct arch_pmu *pmu_new(enum xs_variant v, const struct arch_evsel *e, unsigned n,
				const int *ctr, const struct arch_pmu_cb *cb)
{
	struct arch_pmu *p = calloc(1, sizeof(*p));
	struct xs_regs *r;
	int nctr = 1 + XS_NPMN(v);

	if (!p)
		return NULL;
	r = &p->regs;
	xs_reset(r, v);
	p->cb = *cb;
	p->n = n < ARCH_MAX_EVSEL ? n : ARCH_MAX_EVSEL;
	for (int c = 0; c < XS_NCTR_MAX; c++)
		p->evsel_of[c] = -1;
	for (int k = 0; k < XS_NPMN(v); k++)
		xs_set_evtcount(r, k, 0xff); /* no event: counts nothing */
	for (unsigned i = 0; i < p->n; i++) {
		int c = ctr[i];
		p->ctr[i] = c;
		if (c < 0 || c >= nctr || e[i].event < 0 || (unsigned)e[i].event >= xs_nevents)
			continue;
		p->evsel_of[c] = (int)i;
		p->thmask[c] = e[i].thread;
		if (c == XS_CCNT) {
			if (e[i].umask & XS_PMNC_D)
				xs_write_pmnc(r, r->pmnc | XS_PMNC_D);
		} else {
			xs_set_evtcount(r, c - 1, xs_events[e[i].event].code);
		}
		if (e[i].period) {
			p->period[c] = p->loaded[c] = e[i].period;
			p->sampling = 1;
			xs_set_inten(r, c, 1);
		}
	}
	/* enable, counters reset; then the sampling counters' presets */
	xs_write_pmnc(r, r->pmnc | XS_PMNC_E | XS_PMNC_P | XS_PMNC_C);
	for (int c = 0; c < nctr; c++) {
		if (p->period[c])
			xs_write_ctr(r, c, preset(p->period[c]));
		if (p->evsel_of[c] >= 0)
			route_counter(p, c);
	}
	return p;
}

struct arch_pmu *xs_pmu_new1(const struct arch_evsel *e, unsigned n, const int *ctr,
			     const struct arch_pmu_cb *cb)
{
	return pmu_new(XS_XSC1, e, n, ctr, cb);
}

struct arch_pmu *xs_pmu_new2(const struct arch_evsel *e, unsigned n, const int *ctr,
			     const struct arch_pmu_cb *cb)
{
	return pmu_new(XS_XSC2, e, n, ctr, cb);
}

static void add(struct arch_pmu *p, int c, uint64_t n)
{
	p->total[c] += xs_count(&p->regs, c, n);
}

/* A condition present in each cycle of [from, from + dur). */
static void condition(struct arch_pmu *p, int c, uint64_t from, uint64_t dur)
{
	uint64_t end = from + dur, start = from > p->covered[c] ? from : p->covered[c];

	if (p->kind[c] == XS_K_EDGE) {
		/* a run starts where the condition was absent the cycle before */
		if (!p->seen[c] || from > p->covered[c])
			add(p, c, 1);
	} else if (end > start) {
		add(p, c, end - start);
	}
	p->seen[c] = 1;
	if (end > p->covered[c])
		p->covered[c] = end;
}

/* The interrupt handler: a sample for each counter whose enabled flag is
 * set, its flag cleared, its preset written again (arch_reload_left()). */
static void take_irq(struct arch_pmu *p, const struct uarch_delivery *d)
{
	for (int c = 0; c < XS_NCTR_MAX; c++) {
		int i = p->evsel_of[c];
		struct arch_sample s = { 0 };

		if (i < 0 || !p->period[c] || !xs_flag(&p->regs, c))
			continue;
		s.ip = d->tr->i->pc; /* taken before it */
		s.cycle = d->retire;
		s.period = p->loaded[c];
		s.evsel = (uint32_t)i;
		s.th = (uint8_t)d->th;
		s.kernel = (uint8_t)d->kernel;
		xs_clear_flag(&p->regs, c);
		xs_write_ctr(&p->regs, c,
			     preset(arch_reload_left(xs_read_ctr(&p->regs, c), p->period[c])));
		p->loaded[c] = p->period[c];
		if (p->cb.sample)
			p->cb.sample(p->cb.arg, &s);
	}
	p->irq_pending = 0;
}

/* Budgeted counters near their wrap, flagged or with the interrupt to
 * take: their events must come one by one. */
static uint32_t near_ctrs(const struct arch_pmu *p)
{
	uint32_t near = 0;

	for (uint32_t m = p->budgeted; m; m &= m - 1) {
		int c = __builtin_ctz(m);
		if (0x100000000ull - xs_read_ctr(&p->regs, c) < 2 * NEAR_MARGIN ||
		    xs_flag(&p->regs, c) || p->irq_pending)
			near |= 1u << c;
	}
	return near;
}

/* The budget until the next sums: of what a budgeted counter can take
 * short of NEAR_MARGIN, an equal share for each summed event's weight;
 * none near the wrap, and then every retirement is delivered.  Only
 * while the model keeps to it (bud.on). */
static void plan_budget(struct arch_pmu *p)
{
	uint32_t near = near_ctrs(p);

	if (!p->bud.on)
		return;
	p->reserved = 0;
	for (unsigned ev = 0; ev < UARCH_NEV; ev++) {
		uint64_t b = ~0ull;
		if (!p->sum[ev])
			continue;
		for (unsigned r = 0; r < p->nroute[ev]; r++) {
			int c = p->route[ev][r].ctr;
			uint64_t share;
			if (!(p->budgeted & (1u << c)))
				continue;
			share = near & (1u << c) ?
					0 :
					(0x100000000ull - xs_read_ctr(&p->regs, c) - NEAR_MARGIN) /
						p->weight[c];
			if (share < b)
				b = share;
			if (share)
				p->reserved |= 1u << c;
		}
		p->bud.n[ev] = b;
	}
	p->bud.loud = near != 0;
	p->cut = ~0ull;
}

static void deliver(void *ctx, const struct uarch_delivery *d)
{
	struct arch_pmu *p = ctx;
	uint32_t touched = 0;

	for (unsigned k = 0; k < d->nsig; k++) {
		const struct uarch_sig *s = &d->sig[k];
		for (unsigned r = 0; r < p->nroute[s->ev]; r++) {
			int c = p->route[s->ev][r].ctr;
			if (p->sum[s->ev])
				touched |= 1u << c;
			if (p->thmask[c] && !(p->thmask[c] & 1u << s->th))
				continue;
			switch (p->kind[c]) {
			case XS_K_CLOCK:
				add(p, c, (uint64_t)s->n * s->dur);
				break;
			case XS_K_CYCLES:
			case XS_K_EDGE:
				condition(p, c, s->cycle, s->dur);
				break;
			default:
				p->delta[c] += (int64_t)p->route[s->ev][r].weight * s->n * s->dur;
			}
		}
	}
	/* an instruction's signals come together; a difference (B and BL:
	 * branches less indirect ones) is added once it is complete */
	for (int c = 0; c < XS_NCTR_MAX; c++)
		if (p->delta[c] > 0) {
			add(p, c, (uint64_t)p->delta[c]);
			p->delta[c] = 0;
		}
	if (!p->sampling)
		return;
	if (!p->irq_pending && xs_irq(&p->regs)) {
		p->irq_pending = 1;
		p->irq_due = d->retire + XS_IRQ_LATENCY;
	}
	if (p->irq_pending && d->tr && d->retire >= p->irq_due)
		take_irq(p, d);
	/* the sums, before a counter with sums on their way counts on (its
	 * share ran out), or once the interrupt that made it loud is taken */
	if (p->bud.on && ((touched & p->reserved) || (p->bud.loud && !near_ctrs(p))))
		p->cut = 0;
}

/* The summed signals (uarch_sink.sum) into the counters they feed. */
static void take_sums(void *ctx, const struct uarch_sums *s)
{
	struct arch_pmu *p = ctx;

	for (unsigned ev = 0; ev < UARCH_NEV; ev++) {
		if (!p->sum[ev])
			continue;
		for (unsigned r = 0; r < p->nroute[ev]; r++) {
			int c = p->route[ev][r].ctr;
			for (int th = 0; th < 2; th++)
				if (!p->thmask[c] || p->thmask[c] & 1u << th)
					add(p, c,
					    (uint64_t)p->route[ev][r].weight *
						    (s->n[ev][th][0] + s->n[ev][th][1]));
		}
	}
	plan_budget(p);
}

/* Whether counter c only adds its signals' counts: no per-cycle
 * condition, no difference of events to take per instruction. */
static int adds_only(const struct arch_pmu *p, int c)
{
	if (p->kind[c] == XS_K_CLOCK)
		return 1;
	if (p->kind[c] != XS_K_COUNT)
		return 0;
	for (unsigned ev = 0; ev < UARCH_NEV; ev++)
		for (unsigned r = 0; r < p->nroute[ev]; r++)
			if (p->route[ev][r].ctr == c && p->route[ev][r].weight < 0)
				return 0;
	return 1;
}

void xs_pmu_sink(struct arch_pmu *p, struct uarch_sink *s)
{
	memset(s, 0, sizeof(*s));
	s->deliver = deliver;
	s->ctx = p;
	for (unsigned ev = 0; ev < UARCH_NEV; ev++)
		s->want[ev] = p->nroute[ev] > 0;
	/* only an interrupt looks at a retirement that raised no signal:
	 * a budgeted counter's, near its wrap (loud) */
	s->quiet = 1;
	for (int c = 0; c < XS_NCTR_MAX; c++) {
		if (!p->period[c] || p->evsel_of[c] < 0)
			continue;
		if (adds_only(p, c))
			p->budgeted |= 1u << c;
		else
			s->quiet = 0;
	}
	/* an event that feeds only adding counters is summed (a sampling
	 * one's within the budget) */
	for (unsigned ev = 0; ev < UARCH_NEV; ev++) {
		int sum = p->nroute[ev] > 0;
		for (unsigned r = 0; r < p->nroute[ev] && sum; r++)
			sum = adds_only(p, p->route[ev][r].ctr);
		p->sum[ev] = s->sum[ev] = (uint8_t)sum;
		p->bud.n[ev] = ~0ull;
		for (unsigned r = 0; r < p->nroute[ev] && sum; r++) {
			int c = p->route[ev][r].ctr;
			if (p->budgeted & (1u << c)) {
				p->weight[c] += (uint64_t)p->route[ev][r].weight;
				p->bud.n[ev] = 0; /* until the first sums */
			}
		}
		if (sum)
			s->sums = take_sums;
	}
	s->sum_max = UINT32_MAX;
	p->bud.loud = p->budgeted != 0;
	p->cut = ~0ull;
	if (p->budgeted) {
		s->cut = &p->cut;
		s->budget = &p->bud;
	}
}

void xs_pmu_read(struct arch_pmu *p, uint64_t *val)
{
	for (unsigned i = 0; i < p->n; i++) {
		int c = p->ctr[i];
		val[i] = c >= 0 && c < XS_NCTR_MAX && p->evsel_of[c] == (int)i ? p->total[c] : 0;
	}
}

void xs_pmu_period(struct arch_pmu *p, unsigned i, uint64_t period)
{
	/* the interrupt handler's preset writes it (take_irq) */
	if (i < p->n && period && p->ctr[i] >= 0 && p->ctr[i] < XS_NCTR_MAX && p->period[p->ctr[i]])
		p->period[p->ctr[i]] = period;
}

void xs_pmu_free(struct arch_pmu *p)
{
	free(p);
}
