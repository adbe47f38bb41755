/* Unit tests for core/evspec.c, against a small backend of its own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/evspec.h"

/* ---- the fake backend --------------------------------------------------- */

enum { EV_GPE, EV_BR, EV_INSTR, EV_TAGGED, EV_CLEAR, EV_EAR, NEV };

static const struct arch_umask gpe_um[] = {
	{ "RUNNING", 0x1, "processor is not halted", NULL },
};
static const struct arch_umask br_um[] = {
	{ "MMNP", 0x1, "not taken, predicted", NULL },
	{ "MMNM", 0x2, "not taken, mispredicted", NULL },
	{ "MMTP", 0x4, "taken, predicted", NULL },
	{ "MMTM", 0x8, "taken, mispredicted", NULL },
};
static const struct arch_umask instr_um[] = {
	{ "NBOGUS", 0x1, "non-bogus", NULL },
	{ "BOGUS", 0x2, "bogus", "no wrong path here" },
};
/* Unit masks spelt like modifiers, to test which reading wins. */
static const struct arch_umask tagged_um[] = {
	{ "P", 0x1, "tag P", NULL },
	{ "UK", 0x2, "tag UK", NULL },
};
/* A load-latency threshold of 4, 8 or 16 cycles (mem_ldlat). */
static const struct arch_umask ear_um[] = {
	{ "LAT4", 0x1, ">= 4 cycles", NULL },
	{ "LAT8", 0x2, ">= 8 cycles", NULL },
	{ "LAT16", 0x3, ">= 16 cycles", NULL },
};

static const struct arch_event fake_events[NEV] = {
	[EV_GPE] = { "GLOBAL_POWER_EVENTS", "cycles", gpe_um, 1, 0x1, "0-1", NULL, NULL },
	[EV_BR] = { "BRANCH_RETIRED", "branches", br_um, 4, 0xc, "0-3", NULL, "PEBS" },
	[EV_INSTR] = { "INSTR_RETIRED", "instructions", instr_um, 2, 0x1, "2-3", NULL, NULL },
	[EV_TAGGED] = { "TAGGED", "tagged uops", tagged_um, 2, 0x3, "0-3", NULL, NULL },
	[EV_CLEAR] = { "MACHINE_CLEAR", "machine clears", NULL, 0, 0, "0-3", NULL, NULL },
	[EV_EAR] = { "EAR", "sampled loads", ear_um, 3, 0x1, "0-3", NULL, "EAR" },
};

static const struct arch_generic fake_generic[] = {
	{ "cycles", "GLOBAL_POWER_EVENTS:RUNNING" },
	{ "instructions", "fake::instr_retired:nbogus" },
	{ "branches", "BRANCH_RETIRED" },
	{ "branch-misses", "BRANCH_RETIRED:MMNM:MMTM" },
	{ "bus-cycles", "r300000001" },
	{ "cache-misses", NULL },
	{ "L1-dcache-load-misses", "NO_SUCH_EVENT" },
	{ "mem-loads", "EAR:LAT4" },
};

/* config: event + 1 in bits 32-47, unit mask in 0-31, excl_user bit 60,
 * excl_kernel bit 61, precise in 62-63. */
static int fake_encode(struct arch_evsel *e, char *err, size_t errsz)
{
	if (e->precise && !fake_events[e->event].precise) {
		snprintf(err, errsz, "%s has no precise mechanism", fake_events[e->event].name);
		return -1;
	}
	e->config = (uint64_t)(e->event + 1) << 32 | e->umask | (uint64_t)e->excl_user << 60 |
		    (uint64_t)e->excl_kernel << 61 | (uint64_t)e->precise << 62;
	return 0;
}

static int fake_decode(struct arch_evsel *e, char *err, size_t errsz)
{
	unsigned ev = (unsigned)(e->config >> 32 & 0xffff);

	if (ev < 1 || ev > NEV) {
		snprintf(err, errsz, "raw 0x%llx selects no event", (unsigned long long)e->config);
		return -1;
	}
	e->event = (int)ev - 1;
	e->umask = (uint32_t)e->config;
	return 0;
}

static const struct arch_backend fake = {
	.name = "fake",
	.desc = "a test PMU",
	.events = fake_events,
	.nevents = NEV,
	.generic = fake_generic,
	.ngeneric = sizeof(fake_generic) / sizeof(fake_generic[0]),
	.mem_ldlat = "EAR:LAT%u",
	.ncounters = 4,
	.encode = fake_encode,
	.decode = fake_decode,
};

/* ---- helpers ------------------------------------------------------------ */

static struct arch_evsel ev[ARCH_MAX_EVSEL];
static char err[512];

/* Parse spec alone; the number of events, or -1. */
static int parse(const char *spec)
{
	unsigned n = 0;

	memset(ev, 0x5a, sizeof(ev));
	if (evspec_parse(&fake, spec, ev, ARCH_MAX_EVSEL, &n, err, sizeof(err)) < 0)
		return -1;
	return (int)n;
}

/* spec must fail on b (rc: -1 wrong, EVSPEC_NOTSUP not produced) with
 * exactly msg, leaving the count alone. */
static void fails_on(const struct arch_backend *b, const char *spec, int rc, const char *msg)
{
	unsigned n = 3;

	memset(err, 'x', sizeof(err));
	assert_int_equal(evspec_parse(b, spec, ev, ARCH_MAX_EVSEL, &n, err, sizeof(err)), rc);
	assert_int_equal(n, 3);
	assert_string_equal(err, msg);
}

static void fails_rc(const char *spec, int rc, const char *msg)
{
	fails_on(&fake, spec, rc, msg);
}

static void fails(const char *spec, const char *msg)
{
	fails_rc(spec, -1, msg);
}

/* ---- tests -------------------------------------------------------------- */

static void test_generic(void **state)
{
	(void)state;
	assert_int_equal(parse("cycles"), 1);
	assert_string_equal(ev[0].name, "cycles");
	assert_int_equal(ev[0].event, EV_GPE);
	assert_int_equal(ev[0].umask, 0x1);
	assert_int_equal(ev[0].raw, 0);
	assert_int_equal(ev[0].group, 0);
	assert_int_equal(ev[0].excl_user, 0);
	assert_int_equal(ev[0].excl_kernel, 0);
	assert_int_equal(ev[0].precise, 0);
	assert_int_equal(ev[0].period, 0);
	assert_true(ev[0].config == (1ull << 32 | 0x1)); /* encoded */

	/* a generic spec with a PMU prefix, lower case */
	assert_int_equal(parse("instructions"), 1);
	assert_int_equal(ev[0].event, EV_INSTR);
	assert_int_equal(ev[0].umask, 0x1);

	/* an event's default mask, and several masks */
	assert_int_equal(parse("branches,branch-misses"), 2);
	assert_int_equal(ev[0].umask, 0xc);
	assert_int_equal(ev[1].umask, 0xa);
	assert_int_equal(ev[1].group, 1);

	/* a generic name standing for a raw event is decoded */
	assert_int_equal(parse("bus-cycles:k"), 1);
	assert_int_equal(ev[0].raw, 1);
	assert_int_equal(ev[0].event, EV_INSTR);
	assert_int_equal(ev[0].umask, 0x1);
	assert_int_equal(ev[0].excl_user, 1);
	assert_string_equal(ev[0].name, "bus-cycles:k");

	/* generic names are case-sensitive, as in perf */
	assert_int_equal(parse("CYCLES"), -1);
	assert_string_equal(err, "unknown event 'CYCLES' (did you mean 'cycles'?)");
}

static void test_generic_unsupported(void **state)
{
	(void)state;
	fails_rc("cache-misses", EVSPEC_NOTSUP,
		 "generic event 'cache-misses' is not supported on fake");
	/* perf's names the machine's table lacks, as perf has them */
	fails_rc("cache-references", EVSPEC_NOTSUP,
		 "generic event 'cache-references' is not supported on fake");
	fails_rc("LLC-prefetch-misses:u", EVSPEC_NOTSUP,
		 "generic event 'LLC-prefetch-misses' is not supported on fake");
	fails("LLC-prefetch-missed", "unknown event 'LLC-prefetch-missed'");
	fails("fake::ref-cycles", "unknown event 'ref-cycles'"); /* not with a pmu prefix */
	fails("L1-dcache-load-misses:u",
	      "generic event 'L1-dcache-load-misses' maps to 'NO_SUCH_EVENT': "
	      "unknown event 'NO_SUCH_EVENT'");
	/* generic names take modifiers only */
	fails("cycles:RUNNING", "bad modifier 'RUNNING' in 'cycles:RUNNING'");
}

static void test_native(void **state)
{
	(void)state;
	assert_int_equal(parse("branch_retired:mmtp:mmtm"), 1);
	assert_int_equal(ev[0].event, EV_BR);
	assert_int_equal(ev[0].umask, 0xc);
	assert_string_equal(ev[0].name, "branch_retired:mmtp:mmtm");
	assert_true(ev[0].config == (2ull << 32 | 0xc));

	/* unit masks OR together and replace the default */
	assert_int_equal(parse("BRANCH_RETIRED:MMNP"), 1);
	assert_int_equal(ev[0].umask, 0x1);
	assert_int_equal(parse("Branch_Retired:mmnp:MMNM:MmTm"), 1);
	assert_int_equal(ev[0].umask, 0xb);
	assert_int_equal(parse("BRANCH_RETIRED"), 1);
	assert_int_equal(ev[0].umask, 0xc);
	assert_int_equal(parse("machine_clear"), 1);
	assert_int_equal(ev[0].event, EV_CLEAR);
	assert_int_equal(ev[0].umask, 0);

	/* PMU prefix, any case */
	assert_int_equal(parse("fake::BRANCH_RETIRED:MMNP"), 1);
	assert_int_equal(ev[0].event, EV_BR);
	assert_int_equal(ev[0].umask, 0x1);
	assert_string_equal(ev[0].name, "fake::BRANCH_RETIRED:MMNP");
	assert_int_equal(parse("FAKE::branch_retired:u"), 1);
	assert_int_equal(ev[0].umask, 0xc);
	assert_int_equal(ev[0].excl_kernel, 1);

	/* blank space around events is not part of them */
	assert_int_equal(parse("  cycles ,\tbranch_retired:mmnp  "), 2);
	assert_string_equal(ev[0].name, "cycles");
	assert_string_equal(ev[1].name, "branch_retired:mmnp");
}

static void test_raw(void **state)
{
	(void)state;
	assert_int_equal(parse("r200000005"), 1);
	assert_int_equal(ev[0].raw, 1);
	assert_true(ev[0].config == 0x200000005ull);
	assert_int_equal(ev[0].event, EV_BR);
	assert_int_equal(ev[0].umask, 0x5);
	assert_string_equal(ev[0].name, "r200000005");

	assert_int_equal(parse("r4ffffFFFF:upp"), 1);
	assert_true(ev[0].config == 0x4ffffffffull);
	assert_int_equal(ev[0].event, EV_TAGGED);
	assert_int_equal(ev[0].precise, 2);
	assert_int_equal(ev[0].excl_kernel, 1);

	/* sixteen digits is the most */
	assert_int_equal(parse("r0000000100000000"), 1);
	assert_int_equal(ev[0].event, EV_GPE);
	fails("r00000001000000000", "bad raw event 'r00000001000000000'");
	fails("rzz", "bad raw event 'rzz'");
	fails("r0x10", "bad raw event 'r0x10'");
	fails("r1:RUNNING", "bad modifier 'RUNNING' in 'r1:RUNNING'");
	/* the backend's decode refuses it */
	fails("r1", "raw 0x1 selects no event");
}

static void test_modifiers(void **state)
{
	(void)state;
	assert_int_equal(parse("cycles:u"), 1);
	assert_int_equal(ev[0].excl_kernel, 1);
	assert_int_equal(ev[0].excl_user, 0);
	assert_true(ev[0].config >> 60 == 2); /* encode saw the modifiers */

	assert_int_equal(parse("cycles:k"), 1);
	assert_int_equal(ev[0].excl_kernel, 0);
	assert_int_equal(ev[0].excl_user, 1);

	assert_int_equal(parse("cycles:uk,cycles:ku"), 2);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(ev[i].excl_kernel, 0);
		assert_int_equal(ev[i].excl_user, 0);
	}

	assert_int_equal(parse("branches:p,branches:pp,branches:upp,branch_retired:mmtm:pku"), 4);
	assert_int_equal(ev[0].precise, 1);
	assert_int_equal(ev[1].precise, 2);
	assert_int_equal(ev[2].precise, 2);
	assert_int_equal(ev[2].excl_kernel, 1);
	assert_int_equal(ev[3].precise, 1);
	assert_int_equal(ev[3].umask, 0x8);
	assert_int_equal(ev[3].excl_kernel + ev[3].excl_user, 0);

	fails("cycles:x", "bad modifier 'x' in 'cycles:x'");
	fails("cycles:ux", "bad modifier 'ux' in 'cycles:ux'");
	fails("cycles:U", "bad modifier 'U' in 'cycles:U'");
	fails("cycles:", "bad modifier '' in 'cycles:'");
	fails("cycles:u:k", "bad modifier 'u:k' in 'cycles:u:k'");
	fails("branches:ppp", "bad modifier 'ppp' in 'branches:ppp' (at most pp)");
	fails("machine_clear:x", "bad modifier 'x' in 'machine_clear:x'");
	fails("BRANCH_RETIRED:ppp", "bad modifier 'ppp' in 'BRANCH_RETIRED:ppp' (at most pp)");
	fails("BRANCH_RETIRED:u:MMTP",
	      "bad modifier 'u' in 'BRANCH_RETIRED:u:MMTP' (modifiers come last)");
	fails("BRANCH_RETIRED::MMTP", "unknown pmu 'BRANCH_RETIRED' in 'BRANCH_RETIRED::MMTP' "
				      "(valid: fake)");
	fails("BRANCH_RETIRED:MMTP:", "empty unit mask or modifier in 'BRANCH_RETIRED:MMTP:'");
	/* the backend's encode refuses it, with its own message */
	fails("machine_clear:p", "MACHINE_CLEAR has no precise mechanism");
}

/* --all-user, --all-kernel: the level of every event naming none, its
 * name showing it; one naming a level (or its group) keeps its own. */
static void test_all_levels(void **state)
{
	static const char *const want[] = { "cycles:u",
					    "cycles:k",
					    "branches:ppu",
					    "cpu/cycles/u",
					    "cpu/cycles/k",
					    "branches:u",
					    "BRANCH_RETIRED:MMTP:u",
					    "branches:pu",
					    "BRANCH_RETIRED:MMTP:pu" };
	unsigned n = 0;
	(void)state;
	assert_int_equal(
		evspec_parse_levels(&fake,
				    "cycles,cycles:k,branches:pp,cpu/cycles/,cpu/cycles/k,"
				    "branches,BRANCH_RETIRED:MMTP,{branches,BRANCH_RETIRED:MMTP}:p",
				    EVSPEC_USER, ev, ARCH_MAX_EVSEL, &n, err, sizeof(err)),
		0);
	assert_int_equal(n, 9);
	for (unsigned k = 0; k < n; k++) {
		assert_string_equal(ev[k].name, want[k]);
		int kernel = k == 1 || k == 4;
		assert_int_equal(ev[k].excl_user, kernel);
		assert_int_equal(ev[k].excl_kernel, !kernel);
	}
	assert_true(ev[0].config >> 60 == 2); /* encode saw the level */
	n = 0;
	assert_int_equal(evspec_parse_levels(&fake, "cycles,{branches,instructions}:u",
					     EVSPEC_KERNEL, ev, ARCH_MAX_EVSEL, &n, err,
					     sizeof(err)),
			 0);
	assert_string_equal(ev[0].name, "cycles:k");
	assert_int_equal(ev[0].excl_user, 1);
	assert_string_equal(ev[1].name, "branches:u");
	assert_int_equal(ev[1].excl_kernel, 1);
}

/* A token that names a unit mask of the event is a unit mask. */
static void test_umask_over_modifier(void **state)
{
	(void)state;
	assert_int_equal(parse("tagged:p"), 1);
	assert_int_equal(ev[0].umask, 0x1);
	assert_int_equal(ev[0].precise, 0);

	assert_int_equal(parse("tagged:uk"), 1);
	assert_int_equal(ev[0].umask, 0x2);
	assert_int_equal(ev[0].excl_kernel + ev[0].excl_user, 0);

	assert_int_equal(parse("tagged:P:ku"), 1); /* ku is no unit mask */
	assert_int_equal(ev[0].umask, 0x1);
	assert_int_equal(ev[0].excl_kernel + ev[0].excl_user, 0);

	assert_int_equal(parse("tagged:u"), 1);
	assert_int_equal(ev[0].umask, 0x3); /* default */
	assert_int_equal(ev[0].excl_kernel, 1);
}

static void test_groups(void **state)
{
	(void)state;
	assert_int_equal(parse("cycles,{branches,instructions,r200000001},branch-misses"), 5);
	assert_int_equal(ev[0].group, 0);
	assert_int_equal(ev[1].group, 1);
	assert_int_equal(ev[2].group, 1);
	assert_int_equal(ev[3].group, 1);
	assert_int_equal(ev[3].raw, 1);
	assert_int_equal(ev[4].group, 4);
	assert_string_equal(ev[2].name, "instructions");

	/* group modifiers reach every member, and the names show them */
	assert_int_equal(parse("{cycles, branch_retired:mmtp}:u"), 2);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(ev[i].group, 0);
		assert_int_equal(ev[i].excl_kernel, 1);
		assert_int_equal(ev[i].excl_user, 0);
		assert_true(ev[i].config >> 60 == 2);
	}
	assert_string_equal(ev[0].name, "cycles:u");
	assert_string_equal(ev[1].name, "branch_retired:mmtp:u");
	assert_int_equal(ev[1].umask, 0x4);

	/* levels named anywhere count; p's add up */
	assert_int_equal(parse("{branch-misses:k, branches:p}:up"), 2);
	assert_int_equal(ev[0].excl_kernel + ev[0].excl_user, 0);
	assert_int_equal(ev[0].precise, 1);
	assert_string_equal(ev[0].name, "branch-misses:ukp");
	assert_int_equal(ev[1].excl_kernel, 1);
	assert_int_equal(ev[1].precise, 2);
	assert_string_equal(ev[1].name, "branches:upp");
	fails("{branches:pp}:p",
	      "bad modifier 'p' in '{branches:pp}:p' (at most pp with 'branches:pp')");
	fails("{cycles}:x", "bad modifier 'x' in '{cycles}:x'");
	fails("{cycles}:u:k", "bad modifier 'u:k' in '{cycles}:u:k'");

	/* a group of one is an event alone */
	assert_int_equal(parse("cycles,{branches}"), 2);
	assert_int_equal(ev[1].group, 1);
}

static void test_accumulate(void **state)
{
	unsigned n = 0;

	(void)state;
	assert_int_equal(evspec_parse(&fake, "cycles", ev, ARCH_MAX_EVSEL, &n, err, sizeof(err)),
			 0);
	assert_int_equal(n, 1);
	assert_int_equal(evspec_parse(&fake, "{branches,instructions}:k", ev, ARCH_MAX_EVSEL, &n,
				      err, sizeof(err)),
			 0);
	assert_int_equal(n, 3);
	assert_string_equal(ev[0].name, "cycles");
	assert_int_equal(ev[0].group, 0);
	assert_int_equal(ev[1].group, 1);
	assert_int_equal(ev[2].group, 1);
	assert_int_equal(ev[2].excl_user, 1);

	/* a failed call leaves the count where it was */
	assert_int_equal(
		evspec_parse(&fake, "cycles,bogus", ev, ARCH_MAX_EVSEL, &n, err, sizeof(err)), -1);
	assert_int_equal(n, 3);
	assert_string_equal(ev[0].name, "cycles");
}

static void test_too_many(void **state)
{
	unsigned n = 0;

	(void)state;
	assert_int_equal(evspec_parse(&fake, "cycles,cycles", ev, 3, &n, err, sizeof(err)), 0);
	assert_int_equal(evspec_parse(&fake, "{cycles,branches}", ev, 3, &n, err, sizeof(err)), -1);
	assert_string_equal(err, "too many events (max 3)");
	assert_int_equal(n, 2);
	assert_int_equal(evspec_parse(&fake, "cycles", ev, 3, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_int_equal(evspec_parse(&fake, "cycles", ev, 3, &n, err, sizeof(err)), -1);
	assert_string_equal(err, "too many events (max 3)");
	n = 4;
	assert_int_equal(evspec_parse(&fake, "cycles", ev, 3, &n, err, sizeof(err)), -1);
	assert_int_equal(n, 4);
}

/* perf's PMU/TERMS/MODS form. */
static void test_slash_form(void **state)
{
	(void)state;
	assert_int_equal(parse("cpu/cycles/u,fake/BRANCH_RETIRED:MMTP/p"), 2);
	assert_string_equal(ev[0].name, "cpu/cycles/u");
	assert_int_equal(ev[0].event, EV_GPE);
	assert_int_equal(ev[0].excl_kernel, 1);
	assert_int_equal(ev[1].umask, 0x4);
	assert_int_equal(ev[1].precise, 1);
	/* ldlat=N: the machine's threshold; a term's comma splits nothing */
	assert_int_equal(parse("cpu/mem-loads,ldlat=8/P,branches"), 2);
	assert_string_equal(ev[0].name, "cpu/mem-loads,ldlat=8/P");
	assert_int_equal(ev[0].event, EV_EAR);
	assert_int_equal(ev[0].umask, 0x2);
	assert_int_equal(ev[0].precise, 2);
	assert_string_equal(ev[1].name, "branches");
	assert_int_equal(parse("cpu/mem-loads/"), 1);
	assert_int_equal(ev[0].umask, 0x1);
	assert_string_equal(evspec_item_end("cpu/mem-loads,ldlat=8/,cycles"), ",cycles");
	/* in a group, the group's modifiers follow the slash */
	assert_int_equal(parse("{cpu/mem-loads,ldlat=16/,cycles}:u"), 2);
	assert_string_equal(ev[0].name, "cpu/mem-loads,ldlat=16/u");
	assert_int_equal(ev[0].umask, 0x3);
	assert_int_equal(ev[0].group, 0);
	assert_int_equal(ev[1].group, 0);
	fails("cpu/mem-loads,ldlat=10/",
	      "ldlat=10 in 'cpu/mem-loads,ldlat=10/': fake's thresholds are 4, 8, 16 cycles "
	      "(did you mean ldlat=8?)");
	fails("cpu/mem-loads,ldlat=x/",
	      "ldlat wants a number of cycles, not 'x' in 'cpu/mem-loads,ldlat=x/'");
	fails("cpu/cycles,ldlat=8/", "ldlat is a term of mem-loads, not of 'cycles' in "
				     "'cpu/cycles,ldlat=8/'");
	fails("cpu/cycles,branches/",
	      "unknown term 'branches' in 'cpu/cycles,branches/' (an event, "
	      "config=N, ldlat=N, name=NAME, period=N, freq=N)");
	fails("cpu/cycles,umask=5/", "unknown term 'umask=5' in 'cpu/cycles,umask=5/' (an event, "
				     "config=N, ldlat=N, name=NAME, period=N, freq=N)");
	/* config=N: the raw form */
	assert_int_equal(parse("cpu/config=0x200000005/u"), 1);
	assert_int_equal(ev[0].raw, 1);
	assert_true(ev[0].config == 0x200000005ull);
	assert_int_equal(ev[0].event, EV_BR);
	assert_int_equal(ev[0].umask, 0x5);
	assert_int_equal(ev[0].excl_kernel, 1);
	assert_string_equal(ev[0].name, "cpu/config=0x200000005/u");
	fails("cpu/cycles,config=0x200000005/",
	      "config= is the event: no other in 'cpu/cycles,config=0x200000005/'");
	fails("cpu/config=zz/",
	      "config= wants a register image (0x...), not 'zz' in 'cpu/config=zz/'");
	/* name=, period=, freq= */
	assert_int_equal(parse("cpu/cycles,period=0x100,name=cyc/u,cpu/branches,freq=500/"), 2);
	assert_string_equal(ev[0].name, "cyc");
	assert_int_equal(ev[0].event, EV_GPE);
	assert_int_equal(ev[0].excl_kernel, 1);
	assert_int_equal(ev[0].term_period, 0x100);
	assert_int_equal(ev[0].term_freq, 0);
	assert_int_equal(ev[0].period, 0); /* (counting: none) */
	assert_string_equal(ev[1].name, "cpu/branches,freq=500/");
	assert_int_equal(ev[1].term_freq, 500);
	assert_int_equal(ev[1].term_period, 0);
	assert_int_equal(parse("{cpu/cycles,name=a/,cpu/branches,name=b/}:u"), 2);
	assert_string_equal(ev[0].name, "a");
	assert_string_equal(ev[1].name, "b");
	assert_int_equal(ev[1].excl_kernel, 1);
	assert_int_equal(parse("cycles"), 1); /* a name is the event's alone */
	assert_string_equal(ev[0].name, "cycles");
	assert_int_equal(ev[0].term_period, 0);
	fails("cpu/cycles,period=0/",
	      "period= wants events from 1 to 2^39-1, not '0' in 'cpu/cycles,period=0/'");
	fails("cpu/cycles,period=-5/",
	      "period= wants events from 1 to 2^39-1, not '-5' in 'cpu/cycles,period=-5/'");
	fails("cpu/cycles,freq=1e9/", "freq= wants samples per second from 1 to 1e8, not '1e9' in "
				      "'cpu/cycles,freq=1e9/'");
	fails("cpu/cycles,period=5,freq=3/",
	      "period= and freq= exclude each other in 'cpu/cycles,period=5,freq=3/'");
	fails("cpu/cycles,name=/",
	      "name= wants a name (no ':', '{', '}'), not '' in 'cpu/cycles,name=/'");
	fails("cpu/cycles,name=a:u/",
	      "name= wants a name (no ':', '{', '}'), not 'a:u' in 'cpu/cycles,name=a:u/'");
	fails("cpu/cycles", "no closing '/' in 'cpu/cycles'");
	fails("cpu//", "no event in 'cpu//'");
	fails("gpu/cycles/", "unknown pmu 'gpu' in 'gpu/cycles/' (valid: cpu, fake)");
	fails("cpu/cycles:u/", "modifiers go after the last '/' in 'cpu/cycles:u/'");
	fails("cpu/cycles/x", "bad modifier 'x' in 'cpu/cycles/x'");
	fails("cpu/cyclse/", "unknown event 'cyclse' (did you mean 'cycles'?)");

	/* a machine without a threshold: not supported */
	struct arch_backend plain = fake;
	plain.mem_ldlat = NULL;
	fails_on(&plain, "cpu/mem-loads,ldlat=8/", EVSPEC_NOTSUP,
		 "'cpu/mem-loads,ldlat=8/': fake has no load-latency threshold");
}

static void test_errors(void **state)
{
	(void)state;
	fails("cyclse", "unknown event 'cyclse' (did you mean 'cycles'?)");
	fails("cycles,branch_retird:mmtp", "unknown event 'branch_retird' "
					   "(did you mean 'BRANCH_RETIRED'?)");
	fails("fake::cycles", "unknown event 'cycles'"); /* a prefix is for native events */
	fails("zzzzzz", "unknown event 'zzzzzz'");
	fails("p5::BRANCH_RETIRED", "unknown pmu 'p5' in 'p5::BRANCH_RETIRED' (valid: fake)");
	fails("fake::", "empty event name in 'fake::'");
	fails(":u", "empty event name in ':u'");
	fails("BRANCH_RETIRED:FOO", "unknown unit mask 'FOO' for BRANCH_RETIRED "
				    "(valid: MMNP, MMNM, MMTP, MMTM)");
	fails("branch_retired:mmtq:u", "unknown unit mask 'mmtq' for BRANCH_RETIRED "
				       "(did you mean 'MMTP'? valid: MMNP, MMNM, MMTP, MMTM)");
	fails("{cycles,branches", "unbalanced '{' in '{cycles,branches'");
	fails("cycles,branches}", "unbalanced '}' in 'cycles,branches}'");
	fails("{cycles}}", "unbalanced '}' in '{cycles}}'");
	fails("{cycles,{branches}}", "nested '{' in '{cycles,{branches}}'");
	fails("cycles{branches}", "unexpected '{' in 'cycles{branches}'");
	fails("{cycles}{branches}", "unexpected '{' in '{cycles}{branches}'");
	fails("{cycles}branches", "unexpected 'b' after '}' in '{cycles}branches'");
	fails("", "empty event in ''");
	fails("cycles,", "empty event in 'cycles,'");
	fails("cycles,,branches", "empty event in 'cycles,,branches'");
	fails("{}", "empty event in '{}'");
	fails("{cycles,}", "empty event in '{cycles,}'");
	fails("  ", "empty event in '  '");
}

static void test_error_text_is_one_line(void **state)
{
	char longname[300], msg[128];

	(void)state;
	fails("cyc\nles", "unknown event 'cyc?les' (did you mean 'cycles'?)");
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	snprintf(msg, sizeof(msg), "event '%.32s...' too long (max 127 characters)", longname);
	fails(longname, msg);
	longname[127] = 0; /* the longest that fits */
	assert_int_equal(parse(longname), -1);
	assert_string_equal(
		err, "unknown event 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'");
	/* a buffer too small truncates; none at all is allowed */
	{
		char small[8];
		unsigned n = 0;

		assert_int_equal(evspec_parse(&fake, "cyclse", ev, 4, &n, small, sizeof(small)),
				 -1);
		assert_string_equal(small, "unknown");
		assert_int_equal(evspec_parse(&fake, "cyclse", ev, 4, &n, NULL, 0), -1);
	}
}

static void test_distance(void **state)
{
	(void)state;
	assert_int_equal(evspec_distance("cycles", "cycles"), 0);
	assert_int_equal(evspec_distance("CYCLES", "cycles"), 0);
	assert_int_equal(evspec_distance("cyclse", "cycles"), 1); /* transposition */
	assert_int_equal(evspec_distance("cycle", "cycles"), 1);
	assert_int_equal(evspec_distance("cyclesx", "cycles"), 1);
	assert_int_equal(evspec_distance("cxcles", "cycles"), 1);
	assert_int_equal(evspec_distance("", "abc"), 3);
	assert_int_equal(evspec_distance("abc", ""), 3);
	assert_int_equal(evspec_distance("ca", "abc"), 3); /* optimal string alignment */
	assert_int_equal(evspec_distance("branch_retird", "BRANCH_RETIRED"), 1);
}

static void test_closest(void **state)
{
	static const char *const names[] = { "cycles", "instructions", "branches", "branch-misses",
					     "L1-dcache-load-misses" };
	const size_t n = sizeof(names) / sizeof(names[0]);

	(void)state;
	assert_string_equal(evspec_closest("cyclse", names, n), "cycles");
	assert_string_equal(evspec_closest("instrucsions", names, n), "instructions");
	assert_string_equal(evspec_closest("branch-mises", names, n), "branch-misses");
	/* max(2, len/3) edits: 18 letters allow 6 */
	assert_string_equal(evspec_closest("l1-dcach-lod-mises", names, n),
			    "L1-dcache-load-misses");
	assert_null(evspec_closest("xxxxxxxx", names, n));
	assert_null(evspec_closest("cyclexyz", names, n)); /* 3 edits, 8 letters */
	/* short words: one edit only */
	{
		static const char *const abc[] = { "abc" };

		assert_string_equal(evspec_closest("abz", abc, 1), "abc");
		assert_null(evspec_closest("xbz", abc, 1));
		assert_string_equal(evspec_closest("abzz", abc, 1), "abc");
	}
	assert_null(evspec_closest("", names, n));
	/* too far for a typo, but the start of just one name */
	{
		static const char *const modes[] = { "instruction-cache-efficiency",
						     "data-cache-efficiency",
						     "instruction-fetch-latency" };
		assert_string_equal(evspec_closest("instruction-cache", modes, 3),
				    "instruction-cache-efficiency");
		assert_string_equal(evspec_closest("DATA", modes, 3), "data-cache-efficiency");
		assert_null(evspec_closest("instruction", modes, 3)); /* two */
		assert_null(evspec_closest("da", modes, 3));	      /* too short */
	}
	assert_null(evspec_closest("cycles", names, 0));
	/* the first of equals */
	{
		static const char *const ab[] = { "abcd", "abce" };

		assert_string_equal(evspec_closest("abcf", ab, 2), "abcd");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generic),
		cmocka_unit_test(test_generic_unsupported),
		cmocka_unit_test(test_native),
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_modifiers),
		cmocka_unit_test(test_umask_over_modifier),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_accumulate),
		cmocka_unit_test(test_too_many),
		cmocka_unit_test(test_slash_form),
		cmocka_unit_test(test_all_levels),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_error_text_is_one_line),
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_closest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
