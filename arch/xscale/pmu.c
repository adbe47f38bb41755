/* pmu.c — the XScale backends (arch.h): `xscale`, the two-counter XSC1
 * (CCNT, PMN0, PMN1, all controlled through PMNC), and `xscale2`, the
 * four-counter XSC2 (PMN0-PMN3, separate INTEN, FLAG and EVTSEL) [xdm]
 * §8.2, §8.3.  Event specs become evtCount values, counters are placed
 * (the clock counter counts only cycles; any PMN counts any event), and
 * run.c runs the registers. */
#include <stdio.h>
#include <string.h>

#include "xscale_pmu.h"

#define MAXEV 32

static struct arch_event arch_events[2][MAXEV];

static const struct arch_umask ccnt_umask[] = {
	{ "DIV64", XS_PMNC_D, "PMNC.D: CCNT counts every 64th core cycle [xdm] §8.2.4", NULL },
};

/* perf's generic names, as Linux's XScale driver maps them
 * (xscale_perf_map, xscale_perf_cache_map), and the stall cycles. */
static const struct arch_generic xs_generic[] = {
	{ "cycles", "CPU_CYCLES" },
	{ "cpu-cycles", "CPU_CYCLES" },
	{ "instructions", "INSN_EXECUTED" },
	{ "branches", "BR_INST_EXECUTED" },
	{ "branch-instructions", "BR_INST_EXECUTED" },
	{ "branch-misses", "BR_INST_MISS_PRED" },
	{ "L1-dcache-loads", "DCACHE_ACCESS" },
	{ "L1-dcache-load-misses", "DCACHE_MISS" },
	{ "L1-dcache-stores", "DCACHE_ACCESS" },
	{ "L1-dcache-store-misses", "DCACHE_MISS" },
	{ "L1-icache-load-misses", "IFU_IFETCH_MISS" },
	{ "dTLB-load-misses", "DTLB_MISS" },
	{ "dTLB-store-misses", "DTLB_MISS" },
	{ "iTLB-load-misses", "ITLB_MISS" },
	{ "stalled-cycles-frontend", "CYCLES_IFU_MEM_STALL" },
	{ "stalled-cycles-backend", "CYCLES_DATA_STALL" },
	/* vpmu stat's default row: loads and stores alike */
	{ "L1-dcache-misses", "DCACHE_MISS" },
};
#define XS_NGENERIC (sizeof(xs_generic) / sizeof(xs_generic[0]))

enum xs_variant xs_variant_of(unsigned ncounters)
{
	return ncounters > 1 + 2 ? XS_XSC2 : XS_XSC1;
}

static void init(struct arch_backend *b)
{
	enum xs_variant v = xs_variant_of(b->ncounters);
	struct arch_event *out = arch_events[v];
	unsigned n = xs_nevents < MAXEV ? xs_nevents : MAXEV;

	for (unsigned k = 0; k < n; k++) {
		const struct xs_event_desc *d = &xs_events[k];
		int clock = d->code == XS_CODE_CCNT;
		out[k] = (struct arch_event){
			.name = d->name,
			.desc = d->desc,
			.umask = clock ? ccnt_umask : NULL,
			.numask = clock ? 1 : 0,
			.counters = clock	 ? "0 (CCNT)" :
				    v == XS_XSC1 ? "1,2 (PMN0,PMN1)" :
						   "1,2,3,4 (PMN0-PMN3)",
			.unsupported = d->unsupported,
		};
	}
	b->events = out;
	b->nevents = n;
}

static int check(const struct arch_evsel *e, char *err, size_t errsz)
{
	const struct xs_event_desc *d = &xs_events[e->event];

	if (d->unsupported) {
		snprintf(err, errsz, "%s is not supported: %s", d->name, d->unsupported);
		return -1;
	}
	if (e->excl_user || e->excl_kernel) {
		snprintf(err, errsz,
			 "'%s': the XScale counters count in every processor mode; they "
			 "cannot exclude user or kernel (drop :u/:k)",
			 e->name);
		return -1;
	}
	if (e->precise) {
		snprintf(err, errsz,
			 "'%s': the XScale has no precise sampling; an overflow interrupts "
			 "when the core takes the IRQ (drop :p)",
			 e->name);
		return -1;
	}
	if (e->umask & ~(d->code == XS_CODE_CCNT ? XS_PMNC_D : 0u)) {
		snprintf(err, errsz, "%s has no unit mask 0x%x", d->name, e->umask);
		return -1;
	}
	return 0;
}

static int encode(struct arch_evsel *e, char *err, size_t errsz)
{
	if (e->event < 0 || (unsigned)e->event >= xs_nevents) {
		snprintf(err, errsz, "no such event");
		return -1;
	}
	if (check(e, err, errsz) < 0)
		return -1;
	e->config = xs_events[e->event].code | (uint64_t)e->umask << XS_CONFIG_PMNC_SHIFT;
	return 0;
}

static int decode(struct arch_evsel *e, char *err, size_t errsz)
{
	unsigned code = (unsigned)(e->config & XS_CONFIG_CODE_MASK);
	uint32_t pmnc = (uint32_t)(e->config >> XS_CONFIG_PMNC_SHIFT);

	e->event = -1;
	for (unsigned k = 0; k < xs_nevents; k++)
		if (xs_events[k].code == code)
			e->event = (int)k;
	if (e->event < 0) {
		snprintf(err, errsz,
			 "raw event 0x%llx: 0x%02x is no XScale event (vpmu list -a xscale)",
			 (unsigned long long)e->config, code);
		return -1;
	}
	if (e->config >> 8 & 0xffffffu || pmnc & ~(uint32_t)XS_PMNC_D ||
	    (pmnc && code != XS_CODE_CCNT)) {
		snprintf(err, errsz,
			 "raw event 0x%llx: bits 7:0 are the event, bit %d (PMNC.D) the clock "
			 "divider of 0xfe; no other bit may be set",
			 (unsigned long long)e->config, XS_CONFIG_PMNC_SHIFT + 3);
		return -1;
	}
	e->umask = pmnc;
	e->raw = 1;
	return encode(e, err, errsz);
}

static int assign(const struct arch_evsel *e, unsigned n, int *ctr, char *err, size_t errsz,
		  unsigned npmn)
{
	int clock = -1;
	unsigned used = 0;

	for (unsigned i = 0; i < n; i++) {
		if (xs_events[e[i].event].code == XS_CODE_CCNT) {
			if (clock >= 0) {
				snprintf(
					err, errsz,
					"'%s' needs the clock counter CCNT, which '%s' already uses",
					e[i].name, e[clock].name);
				return -1;
			}
			clock = (int)i;
			ctr[i] = XS_CCNT;
			continue;
		}
		if (used == npmn) {
			snprintf(
				err, errsz,
				"'%s' does not fit: the %s has %u event counters and they are taken",
				e[i].name, npmn == 2 ? "XScale" : "XScale (XSC2)", npmn);
			return -1;
		}
		ctr[i] = 1 + (int)used++;
	}
	return 0;
}

static int assign1(const struct arch_evsel *e, unsigned n, int *ctr, char *err, size_t errsz)
{
	return assign(e, n, ctr, err, errsz, 2);
}

static int assign2(const struct arch_evsel *e, unsigned n, int *ctr, char *err, size_t errsz)
{
	return assign(e, n, ctr, err, errsz, 4);
}

struct arch_backend arch_xscale = {
	.name = "xscale",
	.desc = "Intel XScale (XSC1): PMNC, clock counter CCNT and two event counters "
		"PMN0/PMN1, 32 bits",
	.machine = "xscale",
	.generic = xs_generic,
	.ngeneric = XS_NGENERIC,
	.ncounters = 1 + 2,
	.init = init,
	.encode = encode,
	.decode = decode,
	.assign = assign1,
	.pmu_new = xs_pmu_new1,
	.pmu_sink = xs_pmu_sink,
	.pmu_read = xs_pmu_read,
	.pmu_period = xs_pmu_period,
	.pmu_free = xs_pmu_free,
};

struct arch_backend arch_xscale2 = {
	.name = "xscale2",
	.desc = "Intel XScale (XSC2): CCNT and four event counters PMN0-PMN3 with "
		"separate INTEN, FLAG and EVTSEL registers",
	.machine = "xscale",
	.generic = xs_generic,
	.ngeneric = XS_NGENERIC,
	.ncounters = 1 + 4,
	.init = init,
	.encode = encode,
	.decode = decode,
	.assign = assign2,
	.pmu_new = xs_pmu_new2,
	.pmu_sink = xs_pmu_sink,
	.pmu_read = xs_pmu_read,
	.pmu_period = xs_pmu_period,
	.pmu_free = xs_pmu_free,
};
