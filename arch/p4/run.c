/* run.c — the Pentium 4 counter hardware at run time: program ESCRs,
 * CCCRs, counters and the tagging MSRs from the events, then route each
 * model signal through the ESCRs that select it (event, mask, T0/T1
 * OS/USR) into the counting engine (counter.c), and take samples:
 *
 *  - IEBS: an overflow with OVF_PMI raises an interrupt that is taken a
 *    modelled latency later, at the instruction retiring then (the skid
 *    of seed 004, figure 5);
 *  - PEBS: an overflow of a counter with PEBS enabled arms it; the µop
 *    that makes the next count (SDM: the PMI comes with the next event
 *    count after the overflow) takes a microcode assist as it retires,
 *    storing EIP and the general registers (as they are before it
 *    retires) into the PEBS buffer and resetting the counter to the DS
 *    area's PEBS counter reset value; reaching the high-water mark
 *    interrupts, and the buffer is drained (seed 004, "Precise
 *    event-based sampling"; SDM vol. 3B, "DS Save Area").  The count the
 *    assisted µop made is replaced by the reset, so successive records
 *    are period + 1 events apart: a loop of 8 loads sampled every
 *    100,000 misses walks through all 8 (seed 004, Table 1).
 */
#include <stdlib.h>
#include <string.h>

#include "../../emu/x86/x86.h"
#include "p4_pmu.h"

/* Cycles from the PMI (raised with the count after the overflow) to the
 * interrupt being taken, through the local APIC: not documented, so
 * calibrated on seed 004's experiment (Figure 5: IEBS samples 65 or more
 * instructions past the missing load, 46.5% at 69).  After a load that
 * missed retires, the hits queued behind it retire 3 µops a cycle, so 23
 * cycles put the sample 69 instructions on (tests/progs/ua_skid.c). */
#define PMI_LATENCY 23
/* PEBS buffer capacity, and the interrupt threshold (high-water mark) in
 * records: Linux's driver sets it to one record, so each record is
 * drained, and the counter reset value reprogrammed, as it comes. */
#define PEBS_RECORDS 64
#define PEBS_THRESHOLD 1
/* Instructions remembered, in retirement order, for the interrupt: the
 * engine settles a counter's cycles only once the model has fetched past
 * them, up to a reorder buffer later, so the instruction retiring when
 * the PMI is due may already have been delivered (a power of two). */
#define RETIRED_HIST 512
/* Inputs remembered per interrupt-sampling counter, to name the
 * instruction whose count raised the PMI once the engine settles that
 * cycle: as far back as RETIRED_HIST instructions, a few inputs each (a
 * power of two). */
#define TRIG_HIST 2048
/* Increments short of its wrap that a sampling counter's sums stop at:
 * more than the engine's look-ahead (counter.c far()) wants in the
 * model's usual spread of a few hundred cycles between fetch and the
 * last signal.  Within twice that, its events are signalled, each in its
 * cycle (the budget shrinks towards the margin; at least this much of
 * it is left to share when it is not signalled). */
#define NEAR_MARGIN 16384

struct route {
	uint8_t ctr;
	uint8_t qual; /* bit th * 2 + kernel: the ESCR's T0/T1 OS/USR bits allow it */
};

#define MAXROUTE 8

/* An input to a counter: the cycles it covers and its instruction (its
 * index among those delivered, ip 0 for none). */
struct trig_in {
	uint64_t cycle, end, ip, seq;
};

struct trig_ring {
	uint64_t n; /* inputs pushed; the last TRIG_HIST of them: */
	struct trig_in in[TRIG_HIST];
};

struct arch_pmu {
	struct p4_engine eng;
	struct arch_pmu_cb cb;
	unsigned n;
	int ctr[ARCH_MAX_EVSEL];
	uint64_t period[ARCH_MAX_EVSEL]; /* what the next reload writes */
	uint64_t loaded[ARCH_MAX_EVSEL]; /* the period the counter now runs */
	uint8_t precise[ARCH_MAX_EVSEL];
	int evsel_of[P4_NCTR]; /* evsel counting on each counter (-1) */
	uint8_t nroute[UARCH_NEV];
	struct route route[UARCH_NEV][MAXROUTE];
	uint16_t tagged[2];	/* retired signals of the replay-tagged µops (UARCH_NEV: none) */
	uint8_t sampling;	/* some event has a period: check for PEBS and PMIs */
	uint8_t sum[UARCH_NEV]; /* every counter it feeds only adds, or is near-only: sums */
	uint8_t quiet;		/* no counter needs cycles: skip empty deliveries (but loud) */
	/* Sampling counters taking sums within a budget (uarch_budget):
	 * near-only ones (p4_engine_nearonly), each with the number of
	 * summed events it counts.  Until a counter comes within NEAR_MARGIN
	 * of its wrap, its events are summed and the budget keeps the sums
	 * short of it; from there until its sample is taken, they are
	 * signalled and every retirement is delivered (loud). */
	uint32_t budgeted;
	uint32_t reserved; /* those with sums on their way (cs.reserve) */
	uint8_t nsum[P4_NCTR];
	struct uarch_budget bud;
	uint64_t cut;  /* uarch_sink.cut: 0 to have the sums now */
	uint64_t last; /* latest cycle seen */
	/* IEBS: an interrupt pending for the counter, due at cycle */
	uint64_t pmi_due[P4_NCTR];
	uint8_t pmi_pending[P4_NCTR];
	uint64_t nretired; /* instructions delivered; the last RETIRED_HIST of them: */
	struct retired {
		uint64_t ip, cycle;
		uint8_t th, kernel;
	} retired[RETIRED_HIST];
	/* PEBS: the assist is due on this delivery's instruction; the buffer */
	uint8_t pebs_due[P4_NCTR];
	uint32_t waiting; /* bit c: pebs_due[c] or pmi_pending[c] */
	unsigned npebs;
	struct arch_sample pebs[PEBS_RECORDS];
	/* The instruction whose count raised each counter's PMI (seq: its
	 * index among those delivered); the inputs of interrupt-sampling
	 * counters; the instruction being delivered. */
	uint64_t trig_ip[P4_NCTR], trig_seq[P4_NCTR];
	uint8_t trig_known[P4_NCTR];
	struct trig_ring *trig[P4_NCTR];
	uint64_t cur_ip;
	/* TC_DELIVER_MODE: the counters counting it, each one's mask, and
	 * the processors' modes on their way to them */
	uint32_t tcm_ctrs;
	uint8_t tcm_mask[P4_NCTR], tcm_qual[P4_NCTR];
	struct p4_tcm *tcm;
};

static const struct p4_event_desc *event_of_escr(int x, uint32_t escr)
{
	unsigned code = escr >> P4_ESCR_EVENT_SHIFT & P4_ESCR_EVENT_MASK;

	for (unsigned k = 0; k < p4_nevents; k++) {
		const struct p4_event_desc *d = &p4_events[k];
		if (d->code == code && (d->escr[0] == x || d->escr[1] == x))
			return d;
	}
	return NULL;
}

static unsigned metric_of(uint32_t pebs, uint32_t vert)
{
	for (unsigned m = 1; m < P4_NMETRIC; m++)
		if ((pebs & 0xffffff) == p4_metrics[m].pebs && vert == p4_metrics[m].vert)
			return m;
	return P4_METRIC_NONE;
}

static void add_route(struct arch_pmu *p, unsigned sig, int ctr, uint8_t qual)
{
	if (sig >= UARCH_NEV || p->nroute[sig] >= MAXROUTE)
		return;
	for (unsigned k = 0; k < p->nroute[sig]; k++)
		if (p->route[sig][k].ctr == ctr) {
			p->route[sig][k].qual |= qual;
			return;
		}
	p->route[sig][p->nroute[sig]++] = (struct route){ (uint8_t)ctr, qual };
}

/* Whether signal sig is an I/O agent's request rather than this
 * processor's (the IOQ events' OWN and OTHER bits). */
static int from_io_agent(unsigned sig)
{
	return sig == UARCH_EV_BUS_IO_RD || sig == UARCH_EV_BUS_IO_WR ||
	       sig == UARCH_EV_MEM_IO_RD_LAT || sig == UARCH_EV_MEM_IO_WR_LAT;
}

/* Whether signal sig is a hardware prefetch request (the IOQ events'
 * PREFETCH bit). */
static int prefetch_sig(unsigned sig)
{
	return sig == UARCH_EV_PF_BRL || sig == UARCH_EV_PF_BRIL ||
	       sig == UARCH_EV_MEM_PF_BRL_LAT || sig == UARCH_EV_MEM_PF_BRIL_LAT;
}

/* Whether signal sig counts µops on a mispredicted path (bogus ones). */
static int bogus_sig(unsigned sig)
{
	return sig >= UARCH_EV_FP_X87_WP && sig <= UARCH_EV_FP_LOAD_WP;
}

/* Execution tagging: the signals of µops that FLAME-group ESCRs with tag
 * enable mark with tag bit n, those that retire or (bogus) those on a
 * mispredicted path. */
static void exec_tagged(struct arch_pmu *p, unsigned n, int bogus, int ctr, uint8_t qual)
{
	for (int x = 0; x < P4_NESCR; x++) {
		uint32_t v = p->eng.hw.escr[x];
		const struct p4_event_desc *d;
		if (!(v & P4_ESCR_TAG_ENABLE) ||
		    !(v >> P4_ESCR_TAG_SHIFT & P4_ESCR_TAG_MASK & 1u << n))
			continue;
		d = event_of_escr(x, v);
		if (!d || d->tag != P4_TAG_EX_TAGGER)
			continue;
		for (unsigned j = 0; j < d->nbits; j++)
			if (v >> P4_ESCR_EMASK_SHIFT & 1u << d->bits[j].bit)
				for (int s = 0; s < P4_NSIG && d->bits[j].sig[s] != UARCH_NEV; s++)
					if (bogus_sig(d->bits[j].sig[s]) == bogus)
						add_route(p, d->bits[j].sig[s], ctr, qual);
	}
}

/* Front-end tagging: UOP_TYPE with tag enable marks loads and stores. */
static void fe_tagged(struct arch_pmu *p, int ctr, uint8_t qual)
{
	for (int x = 0; x < P4_NESCR; x++) {
		uint32_t v = p->eng.hw.escr[x];
		const struct p4_event_desc *d;
		if (!(v & P4_ESCR_TAG_ENABLE) || !(d = event_of_escr(x, v)) ||
		    d->tag != P4_TAG_FE_TAGGER)
			continue;
		for (unsigned j = 0; j < d->nbits; j++)
			if (v >> P4_ESCR_EMASK_SHIFT & 1u << d->bits[j].bit)
				for (int s = 0; s < P4_NSIG && d->bits[j].sig[s] != UARCH_NEV; s++)
					add_route(p, d->bits[j].sig[s], ctr, qual);
	}
}

/* Derive the routes from the registers as programmed. */
static void build_routes(struct arch_pmu *p)
{
	struct p4_hw *hw = &p->eng.hw;
	unsigned metric = metric_of(hw->pebs_enable, hw->pebs_matrix_vert);

	for (int k = 0; k < 2; k++)
		p->tagged[k] = hw->pebs_enable & P4_PEBS_UOP_TAG ? p4_metrics[metric].retired[k] :
								   UARCH_NEV;
	for (int c = 0; c < P4_NCTR; c++) {
		uint32_t cccr = hw->cccr[c];
		int x;
		const struct p4_event_desc *d;
		uint32_t escr;
		uint8_t qual;

		if (!(cccr & (P4_CCCR_ENABLE | P4_CCCR_CASCADE)))
			continue;
		x = p4_escr_for(c, cccr >> P4_CCCR_ESEL_SHIFT & P4_CCCR_ESEL_MASK);
		if (x < 0)
			continue;
		escr = hw->escr[x];
		d = event_of_escr(x, escr);
		if (!d)
			continue;
		qual = (uint8_t)((escr & P4_ESCR_T0_USR ? 1 : 0) | (escr & P4_ESCR_T0_OS ? 2 : 0) |
				 (escr & P4_ESCR_T1_USR ? 4 : 0) | (escr & P4_ESCR_T1_OS ? 8 : 0));
		/* a thread-independent (TI) event cannot be told by processor: a
		 * privilege level either processor's bits enable counts both
		 * processors' events (SDM vol. 3B, 18.19.4, taken as the event's
		 * own processor's level) */
		if (d->shared)
			qual = (uint8_t)((qual & 5 ? 5 : 0) | (qual & 10 ? 10 : 0));
		if (d->tag == P4_TAG_TC_MODE) {
			p->tcm_ctrs |= 1u << c;
			p->tcm_mask[c] = (uint8_t)(escr >> P4_ESCR_EMASK_SHIFT);
			p->tcm_qual[c] = qual;
			continue;
		}
		if (d->tag == P4_TAG_BSQ || d->tag == P4_TAG_BSQ_ACTIVE) {
			unsigned sig;
			const char *why;
			if (!p4_bsq_signal(escr >> P4_ESCR_EMASK_SHIFT & P4_ESCR_EMASK_MASK,
					   d->tag == P4_TAG_BSQ_ACTIVE, &sig, &why))
				add_route(p, sig, c, qual);
			continue;
		}
		for (unsigned j = 0; j < d->nbits; j++) {
			const struct p4_ebit *b = &d->bits[j];
			if (!(escr >> P4_ESCR_EMASK_SHIFT & 1u << b->bit))
				continue;
			switch (d->tag) {
			case P4_TAG_REPLAY:
				if (!(hw->pebs_enable & P4_PEBS_UOP_TAG))
					break;
				if (b->bit == 0)
					for (int k = 0; k < 2; k++)
						add_route(p, p4_metrics[metric].retired[k], c,
							  qual);
				else
					add_route(p, p4_metrics[metric].bogus, c, qual);
				break;
			case P4_TAG_EXECUTION: /* NBOGUS0..3, BOGUS0..3 */
				exec_tagged(p, b->bit & 3, b->bit >= 4, c, qual);
				break;
			case P4_TAG_FRONT_END:
				if (b->bit == 0)
					fe_tagged(p, c, qual);
				break;
			case P4_TAG_SOURCE:
				for (int s = 0; s < P4_NSIG && b->sig[s] != UARCH_NEV; s++) {
					uint32_t need = from_io_agent(b->sig[s]) ? P4_IOQ_OTHER :
										   P4_IOQ_OWN;
					if (prefetch_sig(b->sig[s]))
						need |= P4_IOQ_PREFETCH;
					if ((escr >> P4_ESCR_EMASK_SHIFT & need) == need)
						add_route(p, b->sig[s], c, qual);
				}
				break;
			default:
				for (int s = 0; s < P4_NSIG && b->sig[s] != UARCH_NEV; s++)
					add_route(p, b->sig[s], c, qual);
			}
		}
	}
}

/* The instruction of the first input of counter ctr (in delivery order)
 * that covers cycle: the count that raised the PMI. */
static void trigger_at(struct arch_pmu *p, int ctr, uint64_t cycle)
{
	const struct trig_ring *r = p->trig[ctr];
	uint64_t k = r && r->n > TRIG_HIST ? r->n - TRIG_HIST : 0;

	p->trig_known[ctr] = 0;
	for (; r && k < r->n; k++) {
		const struct trig_in *in = &r->in[k % TRIG_HIST];

		if (in->cycle <= cycle && cycle < in->end) {
			p->trig_ip[ctr] = in->ip;
			p->trig_seq[ctr] = in->seq;
			p->trig_known[ctr] = in->ip != 0;
			return;
		}
	}
}

/* The trigger of counter c's sample taken at instruction index seq. */
static void set_trigger(struct arch_pmu *p, int c, uint64_t seq, struct arch_sample *s)
{
	if (!p->trig_known[c] || p->trig_seq[c] > seq || seq - p->trig_seq[c] > UINT32_MAX)
		return;
	s->has_trigger = 1;
	s->trigger_ip = p->trig_ip[c];
	s->skid = (uint32_t)(seq - p->trig_seq[c]);
	p->trig_known[c] = 0;
}

static void on_pmi(void *arg, int ctr, unsigned mask, uint64_t cycle)
{
	struct arch_pmu *p = arg;
	int i = p->evsel_of[ctr];
	(void)mask;
	if (i < 0)
		return;
	p->waiting |= 1u << ctr;
	/* with PEBS it is the assist on the µop retiring now (the engine
	 * counts a PEBS counter's inputs as they are delivered) */
	if (p->eng.pebs_ctrs & (1u << ctr)) {
		p->pebs_due[ctr] = 1;
		p->trig_ip[ctr] = p->cur_ip;
		p->trig_seq[ctr] = p->nretired;
		p->trig_known[ctr] = p->cur_ip != 0;
		return;
	}
	if (!p->pmi_pending[ctr]) {
		p->pmi_pending[ctr] = 1;
		p->pmi_due[ctr] = cycle + PMI_LATENCY;
		trigger_at(p, ctr, cycle);
	}
}

static void reload(struct arch_pmu *p, int ctr)
{
	int i = p->evsel_of[ctr];
	uint64_t left = arch_reload_left(p->eng.hw.ctr[ctr], p->period[i]);

	p->eng.hw.ctr[ctr] = (0 - left) & P4_CTR_MASK;
	p->loaded[i] = p->period[i];
	p->eng.hw.cccr[ctr] &= ~P4_CCCR_OVF;
}

/* The DS area's PEBS counter reset value, written by the assist: the
 * count since the overflow is not kept. */
static void pebs_reset(struct arch_pmu *p, int ctr)
{
	int i = p->evsel_of[ctr];

	p->eng.hw.ctr[ctr] = (0 - p->period[i]) & P4_CTR_MASK;
	p->loaded[i] = p->period[i];
	p->eng.hw.cccr[ctr] &= ~P4_CCCR_OVF;
}

static void drain(struct arch_pmu *p)
{
	for (unsigned k = 0; k < p->npebs; k++)
		if (p->cb.sample)
			p->cb.sample(p->cb.arg, &p->pebs[k]);
	p->npebs = 0;
}

static void pebs_record(struct arch_pmu *p, int ctr, const struct uarch_delivery *d)
{
	const struct x86_trace *tr = d->tr;
	struct arch_sample *s = &p->pebs[p->npebs++];
	static const int order[16] = { X86_RAX, X86_RBX, X86_RCX, X86_RDX, X86_RSI, X86_RDI,
				       X86_RBP, X86_RSP, 8,	  9,	   10,	    11,
				       12,	13,	 14,	  15 };

	memset(s, 0, sizeof(*s));
	s->ip = tr->i->pc;
	s->cycle = d->retire;
	s->period = p->loaded[p->evsel_of[ctr]];
	s->evsel = (uint32_t)p->evsel_of[ctr];
	s->th = (uint8_t)d->th;
	s->kernel = (uint8_t)d->kernel;
	s->precise = 1;
	s->dsrc = d->dsrc; /* the model's word, beside the record */
	set_trigger(p, ctr, p->nretired - 1, s);
	/* the record holds no data address (SDM vol. 3, "Pentium 4 PEBS
	 * record"): tools reconstruct it from the registers */
	if (tr->pre) {
		s->nregs = 18;
		s->regs[0] = x86_pre_rflags(tr->pre);
		s->regs[1] = tr->i->pc;
		for (int k = 0; k < 16; k++)
			s->regs[2 + k] = tr->pre->r[order[k]];
	}
	if (p->npebs >= PEBS_THRESHOLD)
		drain(p); /* the high-water mark: the interrupt empties the buffer */
}

/* The interrupt of counter c is taken before the first instruction that
 * retires at or after its due cycle: that one is the sample's IP. */
static void iebs_sample(struct arch_pmu *p, int c)
{
	uint64_t k = p->nretired > RETIRED_HIST ? p->nretired - RETIRED_HIST : 0;
	const struct retired *r;
	struct arch_sample s = { 0 };

	while (k + 1 < p->nretired && p->retired[k % RETIRED_HIST].cycle < p->pmi_due[c])
		k++;
	r = &p->retired[k % RETIRED_HIST];
	s.ip = r->ip;
	s.cycle = r->cycle;
	s.period = p->loaded[p->evsel_of[c]];
	s.evsel = (uint32_t)p->evsel_of[c];
	s.th = r->th;
	s.kernel = r->kernel;
	set_trigger(p, c, k, &s);
	p->pmi_pending[c] = 0;
	reload(p, c);
	if (p->cb.sample)
		p->cb.sample(p->cb.arg, &s);
}

/* Whether a budgeted counter is near its wrap, or has its sample to
 * take: its events must come one by one. */
static uint32_t near_ctrs(const struct arch_pmu *p)
{
	uint32_t near = 0;

	for (uint32_t m = p->budgeted; m; m &= m - 1) {
		int c = __builtin_ctz(m);
		if (p4_engine_room(&p->eng, c) < 2 * NEAR_MARGIN || p->pmi_pending[c] ||
		    p->pebs_due[c])
			near |= 1u << c;
	}
	return near;
}

/* The budget until the next sums: each summed event may add to each
 * budgeted counter it feeds an equal share of what the counter can take
 * short of NEAR_MARGIN; none to a near one, and then every retirement is
 * delivered.  Only while the model keeps to it (bud.on). */
static void plan_budget(struct arch_pmu *p)
{
	uint32_t near = near_ctrs(p);
	uint64_t share[P4_NCTR];

	if (!p->bud.on)
		return;
	for (uint32_t m = p->budgeted; m; m &= m - 1) {
		int c = __builtin_ctz(m);
		share[c] = near & (1u << c) || !p->nsum[c] ?
				   0 :
				   (p4_engine_room(&p->eng, c) - NEAR_MARGIN) / p->nsum[c];
		p->eng.cs[c].reserve = 0;
	}
	p->reserved = 0;
	for (unsigned ev = 0; ev < UARCH_NEV; ev++) {
		uint64_t b = ~0ull;
		if (!p->sum[ev])
			continue;
		for (unsigned r = 0; r < p->nroute[ev]; r++) {
			int c = p->route[ev][r].ctr;
			if (p->budgeted & (1u << c) && share[c] < b)
				b = share[c];
		}
		p->bud.n[ev] = b;
		for (unsigned r = 0; r < p->nroute[ev] && b; r++) {
			int c = p->route[ev][r].ctr;
			if (p->budgeted & (1u << c)) {
				p->eng.cs[c].reserve += b;
				p->reserved |= 1u << c;
			}
		}
	}
	p->bud.loud = near != 0;
	p->cut = ~0ull;
}

/* An input to counter c for its cycles [cycle, cycle + dur). */
static void input(struct arch_pmu *p, int c, uint64_t cycle, uint32_t n, uint32_t dur)
{
	struct trig_ring *t = p->trig[c];

	if (p4_engine_at_once(&p->eng, c, cycle, n, dur))
		return;
	/* only an input kept for its cycles can raise the PMI */
	if (t)
		t->in[t->n++ % TRIG_HIST] =
			(struct trig_in){ cycle, cycle + dur, p->cur_ip, p->nretired };
	p4_engine_queue(&p->eng, c, cycle, n, dur);
}

/* TC_DELIVER_MODE's cycles before to, to the counters whose mask has
 * their pair of modes (the event is thread-independent: the ESCR's
 * privilege bits of either processor, taken as processor 0's). */
static void tc_modes_out(struct arch_pmu *p, uint64_t to)
{
	struct p4_tcm_seg g;

	while (p->tcm && p4_tcm_next(p->tcm, to, &g)) {
		uint8_t bit = (uint8_t)(1u << g.kernel);
		for (uint32_t m = p->tcm_ctrs; g.bit >= 0 && m; m &= m - 1) {
			int c = __builtin_ctz(m);
			if (p->tcm_mask[c] >> g.bit & 1 && p->tcm_qual[c] & bit)
				for (uint64_t at = g.from, left = g.dur; left;) {
					uint32_t d = left > UINT32_MAX ? UINT32_MAX :
									 (uint32_t)left;
					input(p, c, at, 1, d);
					at += d;
					left -= d;
				}
		}
	}
}

static void deliver(void *ctx, const struct uarch_delivery *d)
{
	struct arch_pmu *p = ctx;
	uint32_t touched = 0;

	p->eng.threads = d->threads;
	p->cur_ip = d->tr ? d->tr->i->pc : 0;
	for (unsigned k = 0; k < d->nsig; k++) {
		const struct uarch_sig *s = &d->sig[k];
		uint8_t bit = (uint8_t)(1u << (s->th * 2 + s->kernel));
		uint64_t end = s->cycle + s->dur;
		if (p->tcm && p4_tcm_source(s->ev))
			p4_tcm_note(p->tcm, s);
		for (unsigned r = 0; r < p->nroute[s->ev]; r++) {
			int c = p->route[s->ev][r].ctr;

			if (p->sum[s->ev])
				touched |= 1u << c;
			if (p->route[s->ev][r].qual & bit)
				input(p, c, s->cycle, s->n, s->dur);
		}
		if (end > p->last)
			p->last = end;
	}
	if (d->retire > p->last)
		p->last = d->retire;
	tc_modes_out(p, d->frontier);
	p4_engine_advance(&p->eng, d->frontier);
	if (d->tr && p->sampling) {
		p->retired[p->nretired++ % RETIRED_HIST] =
			(struct retired){ d->tr->i->pc, d->retire, (uint8_t)d->th,
					  (uint8_t)d->kernel };
		for (uint32_t m = p->waiting; m; m &= m - 1) {
			int c = __builtin_ctz(m);
			if (p->pebs_due[c]) {
				/* the assist runs before the tagged µop retires */
				pebs_record(p, c, d);
				p->pebs_due[c] = 0;
				pebs_reset(p, c);
			}
			if (p->pmi_pending[c] && d->retire >= p->pmi_due[c])
				iebs_sample(p, c);
			if (!p->pebs_due[c] && !p->pmi_pending[c])
				p->waiting &= ~(1u << c);
		}
	}
	/* the sums, before the counter that is waiting for them counts on,
	 * and to budget anew: when a counter with sums on their way got a
	 * signal (its share ran out), or the sample that made it loud is
	 * taken */
	if (p->bud.on && ((touched & p->reserved) || (p->bud.loud && !near_ctrs(p))))
		p->cut = 0;
}

/* The summed signals (uarch_sink.sum) through the same routes. */
static void take_sums(void *ctx, const struct uarch_sums *s)
{
	struct arch_pmu *p = ctx;

	p->eng.threads = s->threads;
	for (unsigned ev = 0; ev < UARCH_NEV; ev++) {
		if (!p->sum[ev])
			continue;
		for (unsigned r = 0; r < p->nroute[ev]; r++)
			for (int q = 0; q < 4; q++)
				if (p->route[ev][r].qual & 1u << q)
					p4_engine_add(&p->eng, p->route[ev][r].ctr,
						      s->n[ev][q >> 1][q & 1]);
	}
	if (s->retire > p->last)
		p->last = s->retire;
	plan_budget(p);
}

/* Which signals may be summed, and whether deliveries without signals
 * matter: per-cycle counters settle at each frontier, sampling looks at
 * each retirement (a budgeted counter's only while it is near its wrap:
 * loud). */
static void plan_sums(struct arch_pmu *p)
{
	p->quiet = 1;
	for (int c = 0; c < P4_NCTR; c++) {
		int i = p->evsel_of[c];
		if (i >= 0 && p->period[i] && p4_engine_nearonly(&p->eng, c))
			p->budgeted |= 1u << c;
		else if (p->eng.cs[c].percycle || (i >= 0 && p->period[i]))
			p->quiet = 0;
	}
	for (unsigned ev = 0; ev < UARCH_NEV; ev++) {
		/* (the trace-cache modes need their cycles) */
		p->sum[ev] = p->nroute[ev] > 0 && !(p->tcm && p4_tcm_source(ev));
		for (unsigned r = 0; r < p->nroute[ev]; r++) {
			int c = p->route[ev][r].ctr;
			if (!p4_engine_addonly(&p->eng, c) && !(p->budgeted & (1u << c)))
				p->sum[ev] = 0;
		}
		for (unsigned r = 0; r < p->nroute[ev] && p->sum[ev]; r++)
			p->nsum[p->route[ev][r].ctr]++;
	}
	/* nothing is summed for a budgeted counter until the model takes the
	 * budget and hands over its first sums */
	for (unsigned ev = 0; ev < UARCH_NEV; ev++)
		p->bud.n[ev] = ~0ull;
	for (unsigned ev = 0; ev < UARCH_NEV; ev++)
		for (unsigned r = 0; r < p->nroute[ev] && p->sum[ev]; r++)
			if (p->budgeted & (1u << p->route[ev][r].ctr))
				p->bud.n[ev] = 0;
	p->bud.loud = p->budgeted != 0;
	p->cut = ~0ull;
}

uint32_t p4_escr_qual(const struct arch_evsel *e)
{
	unsigned th = e->thread & 3 ? e->thread & 3u : 3u;
	uint32_t q = 0;

	if (th & 1)
		q |= (e->excl_kernel ? 0 : P4_ESCR_T0_OS) | (e->excl_user ? 0 : P4_ESCR_T0_USR);
	if (th & 2)
		q |= (e->excl_kernel ? 0 : P4_ESCR_T1_OS) | (e->excl_user ? 0 : P4_ESCR_T1_USR);
	return q;
}

struct arch_pmu *p4_pmu_new(const struct arch_evsel *e, unsigned n, const int *ctr,
			    const struct arch_pmu_cb *cb)
{
	struct arch_pmu *p = calloc(1, sizeof(*p));
	struct p4_hw *hw;

	if (!p)
		return NULL;
	hw = &p->eng.hw;
	p->cb = *cb;
	p->n = n;
	for (int c = 0; c < P4_NCTR; c++)
		p->evsel_of[c] = -1;
	for (unsigned i = 0; i < n && i < ARCH_MAX_EVSEL; i++) {
		const struct p4_event_desc *d = &p4_events[e[i].event];
		int c = ctr[i], x = -1;
		uint32_t escr = (uint32_t)(e[i].config >> 32), cccr = (uint32_t)e[i].config;
		unsigned metric = d->tag == P4_TAG_REPLAY ? cccr & P4_CONFIG_METRIC_MASK : 0;

		for (int k = 0; k < 2 && x < 0; k++)
			if (d->escr[k] >= 0 &&
			    p4_escr_for(c, p4_escr[d->escr[k]].sel) == d->escr[k])
				x = d->escr[k];
		if (x < 0 || c < 0 || c >= P4_NCTR)
			continue;
		p->ctr[i] = c;
		p->period[i] = p->loaded[i] = e[i].period;
		p->precise[i] = e[i].precise;
		p->sampling |= e[i].period != 0;
		p->evsel_of[c] = (int)i;
		/* the ESCR as the hardware takes it: its own event code
		 * (raw images carry Linux's index instead), the mask, tag,
		 * and the OS/USR bits of the threads asked for */
		hw->escr[x] = (uint32_t)d->code << P4_ESCR_EVENT_SHIFT |
			      (escr & (P4_ESCR_EMASK_MASK << P4_ESCR_EMASK_SHIFT |
				       P4_ESCR_TAG_MASK << P4_ESCR_TAG_SHIFT | P4_ESCR_TAG_ENABLE));
		hw->escr[x] |= p4_escr_qual(&e[i]);
		hw->cccr[c] = P4_CCCR_ENABLE | (uint32_t)p4_escr[x].sel << P4_CCCR_ESEL_SHIFT |
			      (cccr & (P4_CCCR_EDGE | P4_CCCR_THRESH_MASK << P4_CCCR_THRESH_SHIFT |
				       P4_CCCR_COMPLEMENT | P4_CCCR_COMPARE));
		/* active thread: what the image asks, "any" when it says
		 * nothing (Linux's default) */
		hw->cccr[c] |= (cccr >> P4_CCCR_THREAD_SHIFT & P4_CCCR_THREAD_MASK ?
					cccr & P4_CCCR_THREAD_MASK << P4_CCCR_THREAD_SHIFT :
					(uint32_t)P4_THREAD_ANY << P4_CCCR_THREAD_SHIFT);
		if (e[i].period) {
			hw->ctr[c] = (0 - e[i].period) & P4_CTR_MASK;
			hw->cccr[c] |= P4_CCCR_OVF_PMI_T0 | P4_CCCR_OVF_PMI_T1;
		}
		if (metric) {
			hw->pebs_enable = p4_metrics[metric].pebs | P4_PEBS_UOP_TAG;
			hw->pebs_matrix_vert = p4_metrics[metric].vert;
		}
		if (e[i].precise && e[i].period) {
			hw->pebs_enable |= P4_PEBS_ENABLE;
			p->eng.pebs_ctrs |= 1u << c;
		} else if (e[i].period && !p->trig[c] &&
			   !(p->trig[c] = calloc(1, sizeof(*p->trig[c])))) {
			p4_pmu_free(p);
			return NULL;
		}
	}
	p->eng.overflow = NULL;
	p->eng.pmi = on_pmi;
	p->eng.arg = p;
	p->eng.threads = 1;
	p4_engine_start(&p->eng);
	build_routes(p);
	if (p->tcm_ctrs && !(p->tcm = calloc(1, sizeof(*p->tcm)))) {
		p4_pmu_free(p);
		return NULL;
	}
	plan_sums(p);
	return p;
}

void p4_pmu_sink(struct arch_pmu *p, struct uarch_sink *s)
{
	s->deliver = deliver;
	s->ctx = p;
	memset(s->want, 0, sizeof(s->want));
	for (unsigned ev = 0; ev < UARCH_NEV; ev++)
		s->want[ev] = p->nroute[ev] > 0 || ev == p->tagged[0] || ev == p->tagged[1] ||
			      (p->tcm && p4_tcm_source(ev));
	s->sums = take_sums;
	memcpy(s->sum, p->sum, sizeof(s->sum));
	s->sum_max = P4_DETECTOR_MAX;
	s->quiet = p->quiet;
	s->cut = p->budgeted ? &p->cut : NULL;
	s->budget = p->budgeted ? &p->bud : NULL;
}

void p4_pmu_read(struct arch_pmu *p, uint64_t *val)
{
	/* every cycle seen is complete now */
	tc_modes_out(p, p->last + 1);
	p4_engine_advance(&p->eng, p->last + 1);
	drain(p);
	for (unsigned i = 0; i < p->n; i++)
		val[i] = p->evsel_of[p->ctr[i]] == (int)i ? p->eng.cs[p->ctr[i]].total : 0;
}

void p4_pmu_period(struct arch_pmu *p, unsigned i, uint64_t period)
{
	/* the interrupt handler's reload writes it (reload()) */
	if (i < p->n && period)
		p->period[i] = period & P4_CTR_MASK ? period & P4_CTR_MASK : 1;
}

void p4_pmu_free(struct arch_pmu *p)
{
	for (int c = 0; p && c < P4_NCTR; c++)
		free(p->trig[c]);
	if (p) {
		p4_tcm_free(p->tcm);
		free(p->tcm);
	}
	free(p);
}
