/* pmu.c — the Itanium 2 backend (arch.h): event specs to PMC images,
 * raw images back to events, and placement on PMC4..7 under each event's
 * counter constraint [op], the threshold width of PMC6/7, the single
 * instruction and data EARs and the single branch trace buffer. */
#include <stdio.h>
#include <string.h>

#include "ia64_pmu.h"

#define MAXEV 160
#define MAXUM 400

static struct arch_event arch_events[MAXEV];
static struct arch_umask arch_umasks[MAXUM];

static const char *counters_text(uint8_t mask)
{
	switch (mask) {
	case 0x1:
		return "PMC4";
	case 0x2:
		return "PMC5";
	default:
		return "PMC4-7";
	}
}

static void init(struct arch_backend *b)
{
	unsigned nu = 0, n = ia64_nevents < MAXEV ? ia64_nevents : MAXEV;

	if (b->nevents)
		return;
	for (unsigned k = 0; k < n; k++) {
		const struct ia64_event_desc *d = &ia64_events[k];
		struct arch_event *a = &arch_events[k];

		*a = (struct arch_event){ d->name,	    d->desc,
					  &arch_umasks[nu], 0,
					  d->defmask,	    counters_text(d->ctrmask),
					  d->unsupported,   NULL };
		for (unsigned j = 0; j < d->num && nu < MAXUM; j++, nu++)
			arch_umasks[nu] = (struct arch_umask){ d->um[j].name, d->um[j].val,
							       d->um[j].desc,
							       d->um[j].unsupported };
		a->numask = (unsigned)(&arch_umasks[nu] - a->umask);
	}
	b->events = arch_events;
	b->nevents = n;
}

/* The plm the :u/:k modifiers ask for, or fallback when none. */
static uint32_t plm_of(const struct arch_evsel *e, uint32_t fallback)
{
	if (!e->excl_user && !e->excl_kernel)
		return fallback;
	return (e->excl_user ? 0 : IA64_PLM_USER) | (e->excl_kernel ? 0 : IA64_PLM_KERNEL);
}

/* Events whose unit mask (or raw bits 63:32) programs a register of its
 * own: PMC11, PMC10, PMC12. */
static int aux_kind(unsigned kind)
{
	return kind == IA64_K_DEAR || kind == IA64_K_IEAR || kind == IA64_K_BTB;
}

static int aux_pm(unsigned kind, uint32_t aux)
{
	return (kind == IA64_K_DEAR && (aux & IA64_DEAR_PM)) ||
	       (kind == IA64_K_IEAR && (aux & IA64_IEAR_PM)) ||
	       (kind == IA64_K_BTB && (aux & IA64_BTB_PM));
}

uint32_t ia64_pmc12_of(const struct arch_evsel *e)
{
	uint32_t plm = e->branch_sample & (ARCH_BR_USER | ARCH_BR_KERNEL) ?
			       ((e->branch_sample & ARCH_BR_USER) ? IA64_PLM_USER : 0) |
				       ((e->branch_sample & ARCH_BR_KERNEL) ? IA64_PLM_KERNEL : 0) :
			       plm_of(e, IA64_PLM_USER | IA64_PLM_KERNEL);
	uint32_t brt = (e->branch_sample & ARCH_BR_ANY) ? 0 : (uint32_t)IA64_BR_RET;

	/* perf's branch stack is of taken branches */
	return plm | IA64_BTB_TAKEN | brt << IA64_BTB_BRT_SHIFT;
}

static int branch_check(const struct arch_evsel *e, char *err, size_t errsz)
{
	if ((e->branch_sample & (ARCH_BR_ANY | ARCH_BR_ANY_RET)) == 0) {
		snprintf(err, errsz, "the branch stack needs a branch type (any or any_ret)");
		return -1;
	}
	return 0;
}

static int encode(struct arch_evsel *e, char *err, size_t errsz)
{
	const struct ia64_event_desc *d;
	const struct ia64_umask_desc *um = NULL;
	uint32_t pmc = (uint32_t)e->config, aux = (uint32_t)(e->config >> IA64_CONFIG_AUX_SHIFT);

	if (e->event < 0 || (unsigned)e->event >= ia64_nevents) {
		snprintf(err, errsz, "no such event");
		return -1;
	}
	d = &ia64_events[e->event];
	if (d->unsupported) {
		snprintf(err, errsz, "%s is not supported: %s", d->name, d->unsupported);
		return -1;
	}
	if (d->num) {
		um = ia64_umask_of(d, e->umask);
		if (!um) {
			snprintf(err, errsz,
				 "%s: unit mask 0x%x is none of its values (they are exclusive: "
				 "give one; vpmu list shows them)",
				 d->name, e->umask);
			return -1;
		}
		if (um->unsupported) {
			snprintf(err, errsz, "%s:%s is not supported: %s", d->name, um->name,
				 um->unsupported);
			return -1;
		}
	} else if (e->umask && !e->raw) {
		snprintf(err, errsz, "%s has no unit mask", d->name);
		return -1;
	}
	if (e->precise && d->kind != IA64_K_DEAR && d->kind != IA64_K_IEAR) {
		snprintf(err, errsz,
			 "%s has no precise form: on the Itanium 2 the EARs (DATA_EAR_EVENTS, "
			 "L1I_EAR_EVENTS) name the instruction",
			 d->name);
		return -1;
	}
	if (!e->raw) {
		uint32_t plm = plm_of(e, IA64_PLM_USER | IA64_PLM_KERNEL);
		pmc = plm | (uint32_t)d->code << IA64_PMC_ES_SHIFT;
		if (!aux_kind(d->kind))
			pmc |= (e->umask & IA64_PMC_UMASK_MASK) << IA64_PMC_UMASK_SHIFT;
		/* the EAR or BTB configuration register the event needs */
		aux = d->kind == IA64_K_BTB ? plm | IA64_BTB_ALL :
		      aux_kind(d->kind)	    ? plm | e->umask :
					      0;
	} else {
		pmc = (pmc & ~IA64_PMC_PLM_MASK) | plm_of(e, pmc & IA64_PMC_PLM_MASK);
		if (pmc & IA64_PMC_PM) {
			snprintf(err, errsz,
				 "raw 0x%llx sets pm (a privileged monitor, enabled by PSR.pp): "
				 "vpmu monitors one process with user monitors (PSR.up), as Linux "
				 "perfmon's per-thread sessions require",
				 (unsigned long long)e->config);
			return -1;
		}
		if (aux_pm(d->kind, aux)) {
			snprintf(err, errsz, "raw 0x%llx sets PMC%d.pm: see pm above",
				 (unsigned long long)e->config,
				 d->kind == IA64_K_DEAR ? 11 :
				 d->kind == IA64_K_IEAR ? 10 :
							  12);
			return -1;
		}
		if (d->kind == IA64_K_BTB && (aux & IA64_BTB_DS)) {
			snprintf(
				err, errsz,
				"raw 0x%llx sets PMC12.ds (PMD8-15 hold branch prediction state): "
				"the model keeps no L1I branch prediction bits; ds 0 records addresses",
				(unsigned long long)e->config);
			return -1;
		}
		if (!aux_kind(d->kind))
			aux = 0;
	}
	e->config = (uint64_t)aux << IA64_CONFIG_AUX_SHIFT | pmc;
	return 0;
}

static int decode(struct arch_evsel *e, char *err, size_t errsz)
{
	uint32_t pmc = (uint32_t)e->config, aux = (uint32_t)(e->config >> IA64_CONFIG_AUX_SHIFT);
	unsigned es = pmc >> IA64_PMC_ES_SHIFT & IA64_PMC_ES_MASK;
	int ev = ia64_event_by_code(es);

	if (ev < 0) {
		snprintf(err, errsz, "raw event 0x%llx: no Itanium 2 event has select code 0x%x",
			 (unsigned long long)e->config, es);
		return -1;
	}
	e->event = ev;
	if (ia64_events[ev].kind == IA64_K_DEAR)
		e->umask = aux & (IA64_DEAR_MODE_MASK << IA64_DEAR_MODE_SHIFT |
				  IA64_DEAR_UMASK_MASK << IA64_DEAR_UMASK_SHIFT);
	else if (ia64_events[ev].kind == IA64_K_IEAR)
		e->umask = aux & IA64_IEAR_FIELDS;
	else if (ia64_events[ev].kind == IA64_K_BTB)
		e->umask = 0;
	else
		e->umask = pmc >> IA64_PMC_UMASK_SHIFT & IA64_PMC_UMASK_MASK;
	e->raw = 1;
	return encode(e, err, errsz);
}

/* Counters event e may use: its constraint, and PMC4/5 only when its
 * threshold needs the third bit (seed 001). */
static unsigned allowed(const struct arch_evsel *e)
{
	unsigned m = ia64_events[e->event].ctrmask;
	if (((uint32_t)e->config >> IA64_PMC_THRES_SHIFT & IA64_PMC_THRES_MASK) > 3)
		m &= 0x3;
	return m;
}

static int place(const struct arch_evsel *e, unsigned n, unsigned i, unsigned used, int *ctr)
{
	if (i == n)
		return 1;
	for (int c = 0; c < IA64_NCTR; c++) {
		if ((used >> c & 1) || !(allowed(&e[i]) >> c & 1))
			continue;
		ctr[i] = c;
		if (place(e, n, i + 1, used | 1u << c, ctr))
			return 1;
	}
	return 0;
}

/* The events of kind that program one shared register (name) agree on
 * it: 0, or -1 naming two that do not. */
static int one_register(const struct arch_evsel *e, unsigned n, unsigned kind, const char *name,
			const char *reg, char *err, size_t errsz)
{
	int first = -1;

	for (unsigned i = 0; i < n; i++) {
		uint32_t v;

		if (ia64_events[e[i].event].kind == kind)
			v = (uint32_t)(e[i].config >> 32);
		else if (kind == IA64_K_BTB && e[i].branch_sample)
			v = ia64_pmc12_of(&e[i]);
		else
			continue;
		if (first >= 0 && v != (ia64_events[e[first].event].kind == kind ?
						(uint32_t)(e[first].config >> 32) :
						ia64_pmc12_of(&e[first]))) {
			snprintf(err, errsz,
				 "'%s' and '%s' need different %s settings: there is one %s",
				 e[first].name, e[i].name, name, reg);
			return -1;
		}
		first = (int)i;
	}
	return 0;
}

static int assign(const struct arch_evsel *e, unsigned n, int *ctr, char *err, size_t errsz)
{
	if (one_register(e, n, IA64_K_DEAR, "data EAR", "PMC11", err, errsz) < 0 ||
	    one_register(e, n, IA64_K_IEAR, "instruction EAR", "PMC10", err, errsz) < 0 ||
	    one_register(e, n, IA64_K_BTB, "branch trace buffer", "PMC12", err, errsz) < 0)
		return -1;
	if (n > IA64_NCTR) {
		snprintf(err, errsz, "%u events do not fit on the 4 counters PMC4-7 at once", n);
		return -1;
	}
	if (place(e, n, 0, 0, ctr))
		return 0;
	for (unsigned k = 2; k <= n; k++)
		if (!place(e, k, 0, 0, ctr)) {
			snprintf(err, errsz,
				 "'%s' does not fit with the events before it: it can use %s%s",
				 e[k - 1].name, counters_text(ia64_events[e[k - 1].event].ctrmask),
				 allowed(&e[k - 1]) == 0x3 ? " (threshold > 3: PMC4/5)" : "");
			return -1;
		}
	snprintf(err, errsz, "the events do not fit on PMC4-7 at once");
	return -1;
}

static int sample_addr(const struct arch_evsel *e)
{
	return ia64_events[e->event].kind == IA64_K_DEAR ||
	       ia64_events[e->event].kind == IA64_K_IEAR;
}

const struct arch_generic ia64_generic[IA64_NGENERIC] = {
	{ "cycles", "CPU_CYCLES" },
	{ "cpu-cycles", "CPU_CYCLES" },
	/* the guest's instructions are IA-32 ones */
	{ "instructions", "IA32_INST_RETIRED" },
	{ "branches", "BR_MISPRED_DETAIL:ALL.ALL_PRED" },
	{ "branch-instructions", "BR_MISPRED_DETAIL:ALL.ALL_PRED" },
	{ "cache-references", "L3_REFERENCES" },
	{ "cache-misses", "L3_MISSES" },
	{ "L1-dcache-loads", "L1D_READS_SET1" },
	{ "L1-dcache-load-misses", "L1D_READ_MISSES:ALL" },
	{ "L1-icache-loads", "L1I_READS" },
	{ "L1-icache-load-misses", "L2_INST_DEMAND_READS" },
	{ "LLC-loads", "L3_REFERENCES" },
	{ "LLC-load-misses", "L3_MISSES" },
	{ "iTLB-load-misses", "ITLB_MISSES_FETCH:L1ITLB" },
	/* vpmu stat's default row */
	{ "LLC-misses", "L3_MISSES" },
	/* perf's memory-access sampling event: the data EAR's loads taking 4
	 * cycles or more, those that missed the L1D (its stores are captured
	 * only with loads, by DTLB misses: no mem-stores) */
	{ "mem-loads", "DATA_EAR_EVENTS:CACHE_LAT4" },
};

struct arch_backend arch_ia64 = {
	.name = "ia64",
	.desc = "Itanium 2 (McKinley): PMC4-7/PMD4-7 47-bit counters, PMC0 freeze, "
		"instruction and data EARs (PMC10, PMC11), branch trace buffer (PMC12)",
	.machine = "ia64",
	.generic = ia64_generic,
	.ngeneric = IA64_NGENERIC,
	/* the data EAR's latency threshold, N cycles or more: a power of two
	 * from 4 to 4096 (DATA_EAR_EVENTS's CACHE_LATn unit masks, PMC11) */
	.mem_ldlat = "DATA_EAR_EVENTS:CACHE_LAT%u",
	.ncounters = IA64_NCTR,
	.init = init,
	.encode = encode,
	.decode = decode,
	.assign = assign,
	.pmu_new = ia64_pmu_new,
	.pmu_sink = ia64_pmu_sink,
	.pmu_read = ia64_pmu_read,
	.pmu_period = ia64_pmu_period,
	.pmu_free = ia64_pmu_free,
	.sample_addr = sample_addr,
	.branch_types = ARCH_BR_ANY | ARCH_BR_ANY_RET | ARCH_BR_USER | ARCH_BR_KERNEL,
	.branch_check = branch_check,
};
