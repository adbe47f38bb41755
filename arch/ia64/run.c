/* run.c — the Itanium 2 counter hardware at run time: PMC4..7, PMC11 and
 * the processor status bits programmed from the events, each model signal
 * routed to the counters whose event counts it (weighted: some unit masks
 * subtract a subset), the data EAR, and sampling:
 *
 *  - an overflow of a counter with oi raises the performance-monitor
 *    interrupt and sets PMC0.fr, which freezes every counter and the EARs
 *    until the handler clears it ([i2rm] 10.2); the handler runs a
 *    modelled latency later, at the instruction retiring then, records
 *    the sample, reloads the counter and unfreezes;
 *  - the EARs (ear.c) take what the model signals of the instruction
 *    retiring: the data EAR (PMC11) loads of at least its latency
 *    threshold (cache mode) or accesses missing the L1 DTLB (TLB mode),
 *    the instruction EAR (PMC10) fetches missing the L1I with at least
 *    its latency (cache mode) or missing the L1 ITLB (TLB mode);
 *    DATA_EAR_EVENTS and L1I_EAR_EVENTS count the captures, and their
 *    samples carry what the EAR holds, frozen at the capture that
 *    overflowed the counter;
 *  - the branch trace buffer (PMC12, btb.c) takes each retired branch
 *    its filters select, BRANCH_EVENT counts them, and the samples of an
 *    event recorded with a branch stack (-b) carry its contents.
 *
 * Privilege levels: guest code runs at level 3 as IA-32 code (PSR.is 1),
 * system calls at level 0 in the IA-64 kernel (PSR.is 0).  vpmu is a
 * per-process session: user monitors, PSR.up set, PSR.pp clear.
 */
#include <stdlib.h>
#include <string.h>

#include "../../emu/x86/x86.h"
#include "ia64_pmu.h"

/* Cycles from an overflow to the handler running: the interrupt is taken
 * at an instruction boundary after delivery through the processor's
 * interrupt logic (≈, a modelled figure like the P4's). */
#define PMI_LATENCY 40
#define MAXROUTE 8
/* Increments short of its wrap that a sampling counter's sums stop at:
 * a signal smaller than this cannot carry it over before the sums on
 * their way (only a stall of more cycles is larger).  Within twice that,
 * every event comes signalled, each counter's freeze included, and every
 * retirement is delivered (uarch_budget). */
#define NEAR_MARGIN 1024

struct route {
	uint8_t ctr;
	int8_t w;
};

struct arch_pmu {
	struct ia64_engine eng;
	struct arch_pmu_cb cb;
	unsigned n;
	int ctr[ARCH_MAX_EVSEL];
	int evsel_of[IA64_NCTR];
	uint64_t period[IA64_NCTR]; /* what the next reload writes (0: counting only) */
	uint64_t loaded[IA64_NCTR]; /* the period the counter now runs */
	uint8_t nroute[UARCH_NEV];
	struct route route[UARCH_NEV][MAXROUTE];
	uint8_t sum[UARCH_NEV]; /* taken as sums (ia64_pmu_sink) */
	int summed;		/* any of them */
	/* a delivery's net count per counter and level (0 kernel, 1 user),
	 * for counters without per-cycle values */
	int64_t pend[IA64_NCTR][2];
	uint64_t pend_at[IA64_NCTR];
	uint64_t last;
	uint8_t pmi_pending[IA64_NCTR];
	uint64_t pmi_due[IA64_NCTR];
	/* the EARs (PMC10, PMC11), the BTB (PMC12) and the counters that
	 * count their captures (-1: none) */
	int dear_ctr, iear_ctr, btb_ctr;
	struct ia64_ears ears;
	uint8_t dear_dsrc; /* beside the data EAR: where its load found its data (the model's) */
	int btb_on;
	struct ia64_btb btb;
	uint8_t btb_sample[ARCH_MAX_EVSEL]; /* samples of the event carry the BTB */
	struct arch_branch br[ARCH_MAX_BRANCHES];
	/* Sampling counters that only add take sums within a budget, each
	 * with the weights of the summed events it counts, and those with
	 * sums on their way (a share of the budget left to them). */
	uint32_t budgeted, reserved;
	uint64_t weight[IA64_NCTR];
	struct uarch_budget bud;
	uint64_t cut; /* uarch_sink.cut: 0 to have the sums now */
};

static void add_route(struct arch_pmu *p, unsigned sig, int ctr, int8_t w)
{
	if (sig >= UARCH_NEV || p->nroute[sig] >= MAXROUTE)
		return;
	p->route[sig][p->nroute[sig]++] = (struct route){ (uint8_t)ctr, w };
}

static void on_pmi(void *arg, int ctr, uint64_t cycle)
{
	struct arch_pmu *p = arg;

	if (p->evsel_of[ctr] < 0 || !p->period[ctr] || p->pmi_pending[ctr])
		return; /* no handler: the counters stay frozen, as PMC0.fr says */
	p->pmi_pending[ctr] = 1;
	p->pmi_due[ctr] = cycle + PMI_LATENCY;
}

/* The processor status a signal of privilege kernel sees. */
static unsigned level(struct arch_pmu *p, int kernel)
{
	p->eng.hw.psr_is = kernel ? 0 : 1; /* the kernel is IA-64 code, the guest IA-32 */
	return kernel ? 0 : 3;
}

static void flush_pending(struct arch_pmu *p)
{
	for (int c = 0; c < IA64_NCTR; c++)
		for (int k = 0; k < 2; k++)
			if (p->pend[c][k]) {
				if (p->pend[c][k] > 0)
					ia64_engine_input(&p->eng, c, p->pend_at[c],
							  (int32_t)p->pend[c][k], 1, level(p, !k));
				p->pend[c][k] = 0;
			}
}

/* What one delivery says of its instruction, signal by signal. */
struct walk {
	unsigned br; /* UARCH_EV_* bits of the branch signals seen */
};

#define BRBIT(x) (1u << (UARCH_EV_##x - UARCH_EV_BRANCHES))

/* An EAR captured: its counter counts it (and the EAR holds it). */
static void ear_count(struct arch_pmu *p, int ctr, const struct uarch_sig *s, unsigned cpl)
{
	ia64_engine_input(&p->eng, ctr, s->cycle, 1, 1, cpl);
}

static void ear_signal(struct arch_pmu *p, const struct uarch_delivery *d,
		       const struct uarch_sig *s, struct walk *w)
{
	const struct x86_trace *tr = d->tr;
	unsigned cpl = level(p, s->kernel);
	int frozen = (p->eng.hw.pmc0 & IA64_PMC0_FR) != 0; /* the EARs freeze with the counters */
	uint64_t pc = tr->i->pc;
	int access = s->mem < tr->nmem; /* the data EAR's signals name their access */

	switch (s->ev) {
	case UARCH_EV_LOAD_LAT:
		if (p->dear_ctr >= 0 && !frozen && access &&
		    ia64_dear_load(&p->ears, cpl, pc, tr->addr[s->mem], s->n)) {
			p->dear_dsrc = d->dsrc;
			ear_count(p, p->dear_ctr, s, cpl);
		}
		break;
	case UARCH_EV_DTLB_L2_HIT:
	case UARCH_EV_DTLB_WALK:
		if (p->dear_ctr >= 0 && !frozen && access &&
		    ia64_dear_tlb(&p->ears, cpl, pc, tr->addr[s->mem], s->ev == UARCH_EV_DTLB_WALK))
			ear_count(p, p->dear_ctr, s, cpl);
		break;
	case UARCH_EV_FETCH_LAT:
		if (p->iear_ctr >= 0 && !frozen && ia64_iear_fetch(&p->ears, cpl, pc, s->n))
			ear_count(p, p->iear_ctr, s, cpl);
		break;
	case UARCH_EV_ITLB_L2_HIT:
	case UARCH_EV_ITLB_WALK:
		if (p->iear_ctr >= 0 && !frozen &&
		    ia64_iear_tlb(&p->ears, cpl, pc, s->ev == UARCH_EV_ITLB_WALK))
			ear_count(p, p->iear_ctr, s, cpl);
		break;
	default:
		if (s->ev >= UARCH_EV_BRANCHES && s->ev <= UARCH_EV_BR_RET_MISP)
			w->br |= 1u << (s->ev - UARCH_EV_BRANCHES);
	}
}

/* The branch tr retired (its signals in w->br) to the BTB, unless frozen;
 * BRANCH_EVENT counts what it captures. */
static void btb_branch(struct arch_pmu *p, const struct uarch_delivery *d, const struct walk *w)
{
	struct ia64_branch b = { 0 };

	if (!(w->br & BRBIT(BRANCHES)) || (p->eng.hw.pmc0 & IA64_PMC0_FR))
		return;
	b.from = d->tr->i->pc;
	b.to = d->tr->next;
	b.taken = !!(w->br & BRBIT(BR_TAKEN));
	b.type = (w->br & BRBIT(BR_RET)) ? IA64_BR_RET :
		 (w->br & BRBIT(BR_IND)) ? IA64_BR_IND :
					   IA64_BR_IPREL;
	/* a conditional branch goes wrong by direction (its predicate), the
	 * others by target (the model's accounting, events.c) */
	b.mp_dir = (w->br & BRBIT(BR_COND_MISP)) != 0;
	b.mp_tgt = (w->br & BRBIT(BR_MISP)) && !b.mp_dir;
	b.cpl = (uint8_t)level(p, d->kernel);
	if (ia64_btb_record(&p->btb, &b) && p->btb_ctr >= 0)
		ia64_engine_input(&p->eng, p->btb_ctr, d->retire, 1, 1, b.cpl);
}

static void take_sample(struct arch_pmu *p, int c, const struct uarch_delivery *d)
{
	struct arch_sample s = { 0 };
	int i = p->evsel_of[c];

	s.ip = d->tr->i->pc; /* the interrupt is taken before it */
	s.cycle = d->retire;
	s.period = p->loaded[c];
	s.evsel = (uint32_t)i;
	s.th = (uint8_t)d->th;
	s.kernel = (uint8_t)d->kernel;
	if (c == p->dear_ctr) {
		s.ip = p->ears.dear_iaddr;
		s.addr = p->ears.dear_daddr;
		s.latency = p->ears.dear_latency;
		s.precise = 1;
		s.dsrc = p->ears.dear_latency ? p->dear_dsrc : 0;
	} else if (c == p->iear_ctr) {
		/* PMD0 holds the fetch block; the model knows the instruction */
		s.ip = p->ears.iaddr;
		s.latency = p->ears.pmd1 & IA64_IEAR_LAT_MAX;
		s.precise = 1;
	}
	if (p->btb_on && p->btb_sample[i]) {
		s.nbr = (uint8_t)ia64_btb_read(&p->btb, p->br, ARCH_MAX_BRANCHES);
		s.br = p->br;
	}
	p->pmi_pending[c] = 0;
	p->loaded[c] = p->period[c];
	ia64_engine_rearm(&p->eng, c, (0 - p->period[c]) & IA64_CTR_MASK);
	if (p->cb.sample)
		p->cb.sample(p->cb.arg, &s);
}

/* The counters that count what the EARs and the BTB capture (a bit per
 * counter): their input is the PMU's own, not a model event. */
static uint32_t captures(const struct arch_pmu *p)
{
	uint32_t m = 0;

	for (int c = 0; c < IA64_NCTR; c++)
		if (c == p->dear_ctr || c == p->iear_ctr || c == p->btb_ctr)
			m |= 1u << c;
	return m;
}

/* The data EAR's mode (PMC11.mode: IA64_DEAR_*). */
static unsigned dear_mode(const struct arch_pmu *p)
{
	return p->ears.pmc11 >> IA64_DEAR_MODE_SHIFT & IA64_DEAR_MODE_MASK;
}

/* Whether the EARs or the BTB look at each signal of event ev
 * (ear_signal()): it is then never summed. */
static int looked_at(const struct arch_pmu *p, unsigned ev)
{
	switch (ev) {
	case UARCH_EV_LOAD_LAT:
		return p->dear_ctr >= 0 && dear_mode(p) == IA64_DEAR_CACHE;
	case UARCH_EV_DTLB_L2_HIT:
	case UARCH_EV_DTLB_WALK:
		return p->dear_ctr >= 0 && dear_mode(p) == IA64_DEAR_TLB;
	case UARCH_EV_FETCH_LAT:
	case UARCH_EV_ITLB_L2_HIT:
	case UARCH_EV_ITLB_WALK:
		return p->iear_ctr >= 0;
	case UARCH_EV_BRANCHES:
	case UARCH_EV_BR_TAKEN:
	case UARCH_EV_BR_MISP:
	case UARCH_EV_BR_COND_MISP:
	case UARCH_EV_BR_IND:
	case UARCH_EV_BR_RET: /* (what btb_branch() reads) */
		return p->btb_on;
	default:
		return 0;
	}
}

/* Budgeted counters near their wrap, overflowed or with the interrupt to
 * take: from there every event comes signalled (a freeze stops all). */
static uint32_t near_ctrs(const struct arch_pmu *p)
{
	uint32_t near = 0;

	for (uint32_t m = p->budgeted; m; m &= m - 1) {
		int c = __builtin_ctz(m);
		if (IA64_CTR_MASK - p->eng.hw.pmd[c] < 2 * NEAR_MARGIN || p->pmi_pending[c] ||
		    p->eng.hw.pmc0 >> (IA64_PMC0_OVF_SHIFT + c) & 1 ||
		    (p->eng.hw.pmc0 & IA64_PMC0_FR))
			near |= 1u << c;
	}
	return near;
}

/* The budget until the next sums: of what a budgeted counter can take
 * short of NEAR_MARGIN, an equal share for each summed event's weight;
 * none of any event once a counter is near (its overflow freezes them
 * all), and then every retirement is delivered.  Only while the model
 * keeps to it (bud.on). */
static void plan_budget(struct arch_pmu *p)
{
	uint32_t near = near_ctrs(p);

	if (!p->bud.on)
		return;
	p->reserved = 0;
	for (unsigned ev = 0; ev < UARCH_NEV; ev++) {
		uint64_t b = near ? 0 : ~0ull;
		if (!p->sum[ev])
			continue;
		for (unsigned r = 0; r < p->nroute[ev] && !near; r++) {
			int c = p->route[ev][r].ctr;
			uint64_t share;
			if (!(p->budgeted & (1u << c)))
				continue;
			share = (IA64_CTR_MASK - p->eng.hw.pmd[c] - NEAR_MARGIN) / p->weight[c];
			if (share < b)
				b = share;
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
	struct walk w = { 0 };
	uint32_t touched = 0;

	for (unsigned k = 0; k < d->nsig; k++) {
		const struct uarch_sig *s = &d->sig[k];
		uint64_t end = s->cycle + s->dur;

		if (d->tr)
			ear_signal(p, d, s, &w);
		for (unsigned r = 0; r < p->nroute[s->ev]; r++) {
			const struct route *o = &p->route[s->ev][r];
			if (p->sum[s->ev])
				touched |= 1u << o->ctr;
			if (p->eng.cs[o->ctr].percycle) {
				ia64_engine_input(&p->eng, o->ctr, s->cycle, (int32_t)s->n * o->w,
						  s->dur, level(p, s->kernel));
			} else {
				p->pend[o->ctr][!s->kernel] += (int64_t)s->n * s->dur * o->w;
				if (end - 1 > p->pend_at[o->ctr])
					p->pend_at[o->ctr] = end - 1;
			}
		}
		if (end > p->last)
			p->last = end;
	}
	flush_pending(p);
	if (d->retire > p->last)
		p->last = d->retire;
	ia64_engine_advance(&p->eng, d->frontier);
	if (d->tr) {
		for (int c = 0; c < IA64_NCTR; c++)
			if (p->pmi_pending[c] && d->retire >= p->pmi_due[c])
				take_sample(p, c, d);
		/* the handler ran before this instruction: its branch comes after */
		if (p->btb_on)
			btb_branch(p, d, &w);
	}
	if (!p->bud.on)
		return;
	/* with nothing summed, the budget only says when every retirement
	 * must come (a counter near its wrap: its interrupt is taken at one) */
	if (!p->summed)
		p->bud.loud = near_ctrs(p) != 0;
	/* the sums, before a counter with sums on their way counts on (its
	 * share ran out), once a counter of captures comes near its wrap
	 * (captures are not summed: the budget knows nothing of them), or
	 * once the interrupt that made it loud is taken */
	else if ((touched & p->reserved) ||
		 (p->bud.loud ? !near_ctrs(p) : (p->budgeted & captures(p)) && near_ctrs(p)))
		p->cut = 0;
}

struct arch_pmu *ia64_pmu_new(const struct arch_evsel *e, unsigned n, const int *ctr,
			      const struct arch_pmu_cb *cb)
{
	struct arch_pmu *p = calloc(1, sizeof(*p));
	uint8_t kind[IA64_NCTR] = { 0 };
	uint32_t pmc10 = 0, pmc11 = 0, pmc12 = 0;

	if (!p)
		return NULL;
	p->cb = *cb;
	p->n = n;
	p->dear_ctr = p->iear_ctr = p->btb_ctr = -1;
	for (int c = 0; c < IA64_NCTR; c++)
		p->evsel_of[c] = -1;
	for (unsigned i = 0; i < n && i < ARCH_MAX_EVSEL; i++) {
		const struct ia64_event_desc *d = &ia64_events[e[i].event];
		const struct ia64_umask_desc *um = d->num ? ia64_umask_of(d, e[i].umask) : NULL;
		const struct ia64_sig *sig = um ? um->sig : d->sig;
		int c = ctr[i];

		p->ctr[i] = c;
		if (e[i].branch_sample) {
			/* perf's -b: PMC12 runs with no counter of its own (assign()
			 * checked the events agree on it) */
			p->btb_sample[i] = 1;
			if (!p->btb_on)
				pmc12 = ia64_pmc12_of(&e[i]);
			p->btb_on = 1;
		}
		if (c < 0 || c >= IA64_NCTR)
			continue;
		p->evsel_of[c] = (int)i;
		p->eng.hw.pmc[c] = (uint32_t)e[i].config;
		kind[c] = d->kind;
		if (e[i].period) {
			p->period[c] = p->loaded[c] = e[i].period & IA64_CTR_MASK;
			p->eng.hw.pmd[c] = (0 - e[i].period) & IA64_CTR_MASK;
			p->eng.hw.pmc[c] |= IA64_PMC_OI;
		}
		if (d->kind == IA64_K_DEAR) {
			p->dear_ctr = c;
			pmc11 = (uint32_t)(e[i].config >> IA64_CONFIG_AUX_SHIFT);
			continue;
		}
		if (d->kind == IA64_K_IEAR) {
			p->iear_ctr = c;
			pmc10 = (uint32_t)(e[i].config >> IA64_CONFIG_AUX_SHIFT);
			continue;
		}
		if (d->kind == IA64_K_BTB) {
			p->btb_ctr = c;
			p->btb_on = 1;
			pmc12 = (uint32_t)(e[i].config >> IA64_CONFIG_AUX_SHIFT);
			continue;
		}
		for (int k = 0; k < IA64_NSIG && sig[k].ev != UARCH_NEV; k++)
			add_route(p, sig[k].ev, c, sig[k].w);
	}
	ia64_ears_start(&p->ears, pmc10, pmc11);
	ia64_btb_start(&p->btb, pmc12);
	p->eng.hw.psr_up = 1;
	p->eng.hw.psr_pp = 0;
	p->eng.hw.psr_is = 1;
	p->eng.pmi = on_pmi;
	p->eng.arg = p;
	ia64_engine_start(&p->eng, kind);
	return p;
}

/* The summed signals (uarch_sink.sum) into the counters they feed. */
static void take_sums(void *ctx, const struct uarch_sums *s)
{
	struct arch_pmu *p = ctx;

	for (unsigned ev = 0; ev < UARCH_NEV; ev++) {
		if (!p->sum[ev])
			continue;
		for (unsigned r = 0; r < p->nroute[ev]; r++)
			for (int q = 0; q < 4; q++)
				ia64_engine_add(&p->eng, p->route[ev][r].ctr,
						s->n[ev][q >> 1][q & 1] *
							(uint64_t)p->route[ev][r].w,
						s->frontier, level(p, q & 1));
	}
	if (s->retire > p->last)
		p->last = s->retire;
	plan_budget(p);
}

/* Whether counter c only adds its signals' counts: no per-cycle values,
 * no subset to subtract within an instruction (sampling or not). */
static int adds_only(const struct arch_pmu *p, int c)
{
	if (p->eng.cs[c].percycle)
		return 0;
	for (unsigned ev = 0; ev < UARCH_NEV; ev++)
		for (unsigned r = 0; r < p->nroute[ev]; r++)
			if (p->route[ev][r].ctr == c && p->route[ev][r].w <= 0)
				return 0;
	return 1;
}

void ia64_pmu_sink(struct arch_pmu *p, struct uarch_sink *s)
{
	/* sums, but of the events an EAR or the BTB looks at; a sampling
	 * counter (whose overflow freezes the others and the EARs and the
	 * BTB) takes them within a budget, if it only adds */
	int summing = 1;
	unsigned adding = 0; /* counters that only add (bit per counter) */

	for (int c = 0; c < IA64_NCTR; c++)
		if (p->period[c] && p->evsel_of[c] >= 0) {
			if (adds_only(p, c))
				p->budgeted |= 1u << c;
			else
				summing = 0;
		}
	memset(s, 0, sizeof(*s));
	s->deliver = deliver;
	s->ctx = p;
	for (unsigned ev = 0; ev < UARCH_NEV; ev++)
		s->want[ev] = p->nroute[ev] > 0 || looked_at(p, ev);
	/* in cache mode the data EAR takes loads of at least its threshold
	 * only: no counter needing the others, the model raises no more */
	if (looked_at(p, UARCH_EV_LOAD_LAT) && !p->nroute[UARCH_EV_LOAD_LAT])
		s->sig_min[UARCH_EV_LOAD_LAT] = p->ears.dear_lat;
	s->sum_max = UINT32_MAX;
	/* an event is summed when all the counters it feeds only add */
	for (int c = 0; c < IA64_NCTR; c++)
		adding |= (unsigned)adds_only(p, c) << c;
	for (unsigned ev = 0; ev < UARCH_NEV && summing; ev++) {
		unsigned feeds = 0;
		for (unsigned r = 0; r < p->nroute[ev]; r++)
			feeds |= 1u << p->route[ev][r].ctr;
		p->sum[ev] = s->sum[ev] = feeds && !(feeds & ~adding) && !looked_at(p, ev);
		p->summed |= p->sum[ev];
		/* nothing summed until the model takes the budget: a counter's
		 * overflow freezes all, so a budget limits every event */
		p->bud.n[ev] = p->sum[ev] && p->budgeted ? 0 : ~0ull;
		for (unsigned r = 0; r < p->nroute[ev] && p->sum[ev]; r++)
			if (p->budgeted & (1u << p->route[ev][r].ctr))
				p->weight[p->route[ev][r].ctr] += (uint64_t)p->route[ev][r].w;
	}
	if (!summing)
		p->budgeted = 0;
	/* a retirement that raised no signal matters only to per-cycle
	 * counters (the frontier) and interrupts (the EARs and the BTB take
	 * signals only) */
	s->quiet = 1;
	for (int c = 0; c < IA64_NCTR; c++)
		if (p->eng.cs[c].percycle || (p->period[c] && !(p->budgeted & (1u << c))))
			s->quiet = 0;
	p->bud.loud = p->budgeted != 0;
	p->cut = ~0ull;
	if (p->summed)
		s->sums = take_sums;
	if (p->budgeted) {
		s->cut = p->summed ? &p->cut : NULL;
		s->budget = &p->bud;
	}
}

void ia64_pmu_read(struct arch_pmu *p, uint64_t *val)
{
	ia64_engine_advance(&p->eng, p->last + 1);
	for (unsigned i = 0; i < p->n; i++) {
		int c = p->ctr[i];
		val[i] = c >= 0 && c < IA64_NCTR && p->evsel_of[c] == (int)i ? p->eng.cs[c].total :
									       0;
	}
}

void ia64_pmu_period(struct arch_pmu *p, unsigned i, uint64_t period)
{
	/* the interrupt handler's reload writes it (take_sample) */
	if (i < p->n && period && p->ctr[i] >= 0 && p->ctr[i] < IA64_NCTR)
		p->period[p->ctr[i]] = period & IA64_CTR_MASK ? period & IA64_CTR_MASK : 1;
}

void ia64_pmu_free(struct arch_pmu *p)
{
	free(p);
}
