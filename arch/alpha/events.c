/* events.c — the 21264/EV67 events, the PCTR_CTL images that select them
 * and their placement on PCTR0/PCTR1 ([hrm] Tables 5-15 and 5-16).
 *
 * One SL1 value selects the inputs of both counters at once, so two
 * aggregate events fit together only where one SL1 row has both; ProfileMe
 * mode (SL0 set) takes both counters for the profiled instruction's
 * window.  The raw image -e r<hex> is PCTR_CTL's select bits (SL0 bit 4,
 * SL1 bits 3:2) with vpmu's bits above: 8 the event is PCTR1's, 9 ideal
 * and 10 paired ProfileMe (vpmu-pmu(7)). */
#include <stdio.h>

#include "alpha.h"

/* [hrm] Table 5-16, aggregate rows: [counter][SL1] */
const int8_t alpha_agg_input[2][4] = {
	{ ALPHA_EV_RETIRED, ALPHA_EV_CYCLES, ALPHA_EV_RETIRED, ALPHA_EV_CYCLES },
	{ ALPHA_EV_CYCLES, -1, ALPHA_EV_BCACHE, ALPHA_EV_MBOX },
};

static const struct arch_umask pm_umasks[] = {
	{ "RETIRED", ALPHA_UM_RETIRED, "SL1 00: PCTR0 retired instructions, PCTR1 cycles", NULL },
	{ "INUM", ALPHA_UM_INUM, "SL1 01: PCTR0 cycles, PCTR1 inum retire delay (default)", NULL },
	{ "BCACHE", ALPHA_UM_BCACHE, "SL1 10: PCTR0 retired instructions, PCTR1 Bcache misses",
	  NULL },
	{ "MBOX", ALPHA_UM_MBOX, "SL1 11: PCTR0 cycles, PCTR1 Mbox replay traps", NULL },
	{ "IDEAL", ALPHA_UM_IDEAL,
	  "count the window exactly instead of with the documented quirks (vpmu)", NULL },
	{ "PAIRED", ALPHA_UM_PAIRED,
	  "also profile a second instruction 1..256 fetched instructions after each", NULL },
};

const struct arch_event alpha_events[ALPHA_NEV] = {
	[ALPHA_EV_CYCLES] = { "CYCLES", "Cycles", NULL, 0, 0,
			      "PCTR0 (SL1 01, 11) or PCTR1 (SL1 00)", NULL, NULL },
	[ALPHA_EV_RETIRED] = { "RETIRED", "Retired instructions (up to 8 per cycle)", NULL, 0, 0,
			       "PCTR0 (SL1 00, 10)", NULL, NULL },
	[ALPHA_EV_BCACHE] = { "BCACHE_MISS",
			      "Bcache misses (instruction fetches and data; no other "
			      "processor probes on this machine)",
			      NULL, 0, 0, "PCTR1 (SL1 10)", NULL, NULL },
	[ALPHA_EV_MBOX] = { "MBOX_REPLAY",
			    "Mbox replay traps: loads overlapping an older store still in "
			    "flight (load-load order and MAF-full traps are not modelled)",
			    NULL, 0, 0, "PCTR1 (SL1 11)", NULL, NULL },
	[ALPHA_EV_PROFILEME] = { "PROFILEME",
				 "ProfileMe instruction sampling (SL0 1): counts fetched "
				 "instructions; a sample profiles the instruction fetched at "
				 "each overflow",
				 pm_umasks, sizeof(pm_umasks) / sizeof(pm_umasks[0]), ALPHA_UM_INUM,
				 "PCTR0 and PCTR1 (the ProfileMe window)", NULL,
				 "ProfileMe (every sample names its instruction)" },
};

static const struct arch_generic generic[] = {
	{ "cycles", "CYCLES" },
	{ "cpu-cycles", "CYCLES" },
	{ "instructions", "RETIRED" },
	{ "cache-misses", "BCACHE_MISS" },
	{ "LLC-load-misses", "BCACHE_MISS" },
	/* vpmu stat's default rows */
	{ "LLC-misses", "BCACHE_MISS" },
	{ "replay-traps", "MBOX_REPLAY" },
};

static int encode(struct arch_evsel *e, char *err, size_t errsz)
{
	if (e->event < 0 || e->event >= ALPHA_NEV) {
		snprintf(err, errsz, "no such event");
		return -1;
	}
	if (e->event == ALPHA_EV_PROFILEME) {
		unsigned pairs = e->umask & ALPHA_UM_PAIRS;

		if (e->umask & ~0x3fu) {
			snprintf(err, errsz, "PROFILEME has no unit-mask bit %#x", e->umask);
			return -1;
		}
		if (pairs & (pairs - 1)) {
			snprintf(err, errsz,
				 "PROFILEME: RETIRED, INUM, BCACHE and MBOX are the four SL1 "
				 "settings; choose one");
			return -1;
		}
		if (!pairs)
			e->umask |= ALPHA_UM_INUM;
		e->config = ALPHA_SL0 |
			    (uint64_t)__builtin_ctz(e->umask & ALPHA_UM_PAIRS) << ALPHA_SL1_SHIFT |
			    (e->umask & ALPHA_UM_IDEAL ? ALPHA_CFG_IDEAL : 0) |
			    (e->umask & ALPHA_UM_PAIRED ? ALPHA_CFG_PAIRED : 0);
		return 0;
	}
	if (e->umask) {
		snprintf(err, errsz, "%s has no unit masks", alpha_events[e->event].name);
		return -1;
	}
	if (e->precise) {
		snprintf(err, errsz,
			 "%s has no precise form: on the 21264 precise samples come from "
			 "ProfileMe (-e profileme)",
			 alpha_events[e->event].name);
		return -1;
	}
	if (!e->raw) {
		/* the first select with the event; assign() may move it */
		for (unsigned c = 0; c < 2; c++)
			for (unsigned sl = 0; sl < 4; sl++)
				if (alpha_agg_input[c][sl] == e->event) {
					e->config = sl << ALPHA_SL1_SHIFT |
						    (c ? ALPHA_CFG_PCTR1 : 0);
					return 0;
				}
	}
	return 0;
}

static int decode(struct arch_evsel *e, char *err, size_t errsz)
{
	unsigned sl = (unsigned)(e->config >> ALPHA_SL1_SHIFT) & ALPHA_SL1_MASK;
	int c = e->config & ALPHA_CFG_PCTR1 ? 1 : 0;

	if (e->config & ~(uint64_t)(ALPHA_SL0 | ALPHA_SL1_MASK << ALPHA_SL1_SHIFT |
				    ALPHA_CFG_PCTR1 | ALPHA_CFG_IDEAL | ALPHA_CFG_PAIRED)) {
		snprintf(err, errsz, "raw event 0x%llx: bits outside SL0, SL1 and vpmu's 10:8",
			 (unsigned long long)e->config);
		return -1;
	}
	e->raw = 1;
	if (e->config & ALPHA_SL0) {
		e->event = ALPHA_EV_PROFILEME;
		e->umask = 1u << sl | (e->config & ALPHA_CFG_IDEAL ? ALPHA_UM_IDEAL : 0) |
			   (e->config & ALPHA_CFG_PAIRED ? ALPHA_UM_PAIRED : 0);
		return encode(e, err, errsz);
	}
	if (e->config & (ALPHA_CFG_IDEAL | ALPHA_CFG_PAIRED)) {
		snprintf(err, errsz, "raw event 0x%llx: ideal and paired are ProfileMe bits",
			 (unsigned long long)e->config);
		return -1;
	}
	if (alpha_agg_input[c][sl] < 0) {
		snprintf(err, errsz,
			 "raw event 0x%llx: PCTR1's input with SL1 01 is not defined "
			 "(21264 HRM Table 5-16)",
			 (unsigned long long)e->config);
		return -1;
	}
	e->event = alpha_agg_input[c][sl];
	e->umask = 0;
	return encode(e, err, errsz);
}

/* ctr[i]: counter (0 PCTR0, 1 PCTR1) + 2 * SL1; ProfileMe: 8 + SL1. */
static int assign(const struct arch_evsel *e, unsigned n, int *ctr, char *err, size_t errsz)
{
	for (unsigned i = 0; i < n; i++)
		if (e[i].event == ALPHA_EV_PROFILEME) {
			if (n > 1) {
				snprintf(err, errsz,
					 "'%s' takes both counters (ProfileMe mode): it must be "
					 "the only event",
					 e[i].name);
				return -1;
			}
			ctr[i] = 8 + (int)(e[i].config >> ALPHA_SL1_SHIFT & ALPHA_SL1_MASK);
			return 0;
		}
	if (n > 2) {
		snprintf(err, errsz, "at most two events at once: the 21264 has PCTR0 and PCTR1");
		return -1;
	}
	for (unsigned sl = 0; sl < 4; sl++) {
		int used[2] = { 0, 0 }, ok = 1;

		for (unsigned i = 0; i < n && ok; i++) {
			int placed = 0;
			unsigned rsl = (unsigned)(e[i].config >> ALPHA_SL1_SHIFT) & ALPHA_SL1_MASK;

			for (int c = 0; c < 2 && !placed; c++) {
				if (used[c] || alpha_agg_input[c][sl] != e[i].event)
					continue;
				if (e[i].raw &&
				    (rsl != sl || (c == 1) != !!(e[i].config & ALPHA_CFG_PCTR1)))
					continue;
				used[c] = 1;
				ctr[i] = c + 2 * (int)sl;
				placed = 1;
			}
			ok = placed;
		}
		if (ok)
			return 0;
	}
	if (n == 2)
		snprintf(err, errsz,
			 "'%s' and '%s' cannot be counted together: no SL1 setting selects "
			 "both (PCTR0: retired or cycles; PCTR1: cycles, Bcache misses or "
			 "Mbox replay traps, 21264 HRM Table 5-16)",
			 e[0].name, e[1].name);
	else
		snprintf(err, errsz, "'%s' does not fit on PCTR0 or PCTR1", e[0].name);
	return -1;
}

static int profileme(const struct arch_evsel *e)
{
	return e->event == ALPHA_EV_PROFILEME;
}

struct arch_backend arch_alpha = {
	.name = "alpha",
	.desc = "Alpha 21264/EV67: PCTR0/PCTR1 aggregate counting, ProfileMe instruction "
		"sampling",
	.machine = "alpha",
	.events = alpha_events,
	.nevents = ALPHA_NEV,
	.generic = generic,
	.ngeneric = sizeof(generic) / sizeof(generic[0]),
	.ncounters = 2,
	.encode = encode,
	.decode = decode,
	.assign = assign,
	.pmu_new = alpha_pmu_new,
	.pmu_sink = alpha_pmu_sink,
	.pmu_read = alpha_pmu_read,
	.pmu_period = alpha_pmu_period,
	.pmu_free = alpha_pmu_free,
	.profileme = profileme,
	.burst_overflows = 1, /* alpha_ctr_add() */
};
