/* fuzz_evspec.c — libFuzzer harness for the -e parser (core/evspec.c),
 * against a small backend of its own (no machine needed).
 *
 * The first input byte sets how many events fit (1 to 64) and how many
 * are already there; the rest is one or two specs separated by a NUL byte,
 * parsed one after the other as two -e options would be.  The harness
 * insists on what the interface promises:
 *   - a failure leaves the count and the events already there alone, with
 *     a one-line message that fits the buffer;
 *   - a success appends at most the room left, each event resolved to an
 *     event of the table (or decoded from raw), encoded, with sane
 *     modifiers, a leader that leads its own group, groups contiguous;
 *   - each event's name, parsed alone, gives the same event again.
 * Any breach aborts, which libFuzzer reports as a crash.
 *
 * fuzz-sources: core/evspec.c
 * fuzz-options: -max_len=512
 *
 * Build and run by hand (from the top of the tree):
 *
 *   clang -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -I. \
 *       -o /tmp/fuzz_evspec tests/fuzz/fuzz_evspec.c core/evspec.c
 *   /tmp/fuzz_evspec -max_total_time=60 -max_len=512 /tmp/fuzz_evspec.corpus
 */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/evspec.h"

static const struct arch_umask gpe_um[] = {
	{ "RUNNING", 0x1, "processor is not halted", NULL },
};
static const struct arch_umask br_um[] = {
	{ "MMNP", 0x1, "not taken, predicted", NULL },
	{ "MMNM", 0x2, "not taken, mispredicted", NULL },
	{ "MMTP", 0x4, "taken, predicted", NULL },
	{ "MMTM", 0x8, "taken, mispredicted", NULL },
};
static const struct arch_umask bsq_um[] = {
	{ "RD_2ndL_HITS", 0x1, "2nd level hit shared", NULL },
	{ "RD_2ndL_MISS", 0x100, "2nd level miss", NULL },
	{ "WR_2ndL_MISS", 0x400, "writeback miss", "not modelled" },
};

enum { NEV = 4 };

static const struct arch_event events[NEV] = {
	{ "GLOBAL_POWER_EVENTS", "cycles", gpe_um, 1, 0x1, "0-3", NULL, NULL },
	{ "BRANCH_RETIRED", "branches", br_um, 4, 0xc, "12-17", NULL, "PEBS" },
	{ "BSQ_CACHE_REFERENCE", "cache", bsq_um, 3, 0x101, "0-3", NULL, NULL },
	{ "MACHINE_CLEAR", "clears", NULL, 0, 0, "0-3", NULL, NULL },
};

static const struct arch_generic generic[] = {
	{ "cycles", "GLOBAL_POWER_EVENTS:RUNNING" },
	{ "branches", "BRANCH_RETIRED" },
	{ "branch-misses", "fake::branch_retired:mmnm:mmtm" },
	{ "cache-misses", "BSQ_CACHE_REFERENCE:RD_2ndL_MISS" },
	{ "bus-cycles", "r400000000" },
	{ "L1-dcache-load-misses", NULL },
	{ "dTLB-load-misses", "NO_SUCH_EVENT" },
};

static uint64_t pack(const struct arch_evsel *e)
{
	return (uint64_t)(e->event + 1) << 32 | e->umask | (uint64_t)e->excl_user << 60 |
	       (uint64_t)e->excl_kernel << 61 | (uint64_t)e->precise << 62;
}

static int encode(struct arch_evsel *e, char *err, size_t errsz)
{
	if (e->raw || e->event < 0 || e->event >= NEV)
		abort(); /* the parser handed over something it did not resolve */
	if (e->precise && !events[e->event].precise) {
		snprintf(err, errsz, "%s has no precise mechanism", events[e->event].name);
		return -1;
	}
	e->config = pack(e);
	return 0;
}

static int decode(struct arch_evsel *e, char *err, size_t errsz)
{
	unsigned ev = (unsigned)(e->config >> 32 & 0xffff);

	if (!e->raw)
		abort();
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
	.desc = "a PMU for the fuzzer",
	.events = events,
	.nevents = NEV,
	.generic = generic,
	.ngeneric = sizeof(generic) / sizeof(generic[0]),
	.ncounters = 4,
	.encode = encode,
	.decode = decode,
};

static void check_err(const char *err, size_t errsz)
{
	const char *end = memchr(err, 0, errsz);

	if (!end || end == err)
		abort(); /* missing or unterminated */
	for (const char *p = err; p < end; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			abort(); /* not one line */
}

static void check_event(const struct arch_evsel *ev, unsigned i, unsigned first)
{
	size_t len = strnlen(ev[i].name, sizeof(ev[i].name));
	const struct arch_evsel *e = &ev[i];
	struct arch_evsel again[1];
	unsigned n = 0;
	char err[256];

	if (len == 0 || len >= sizeof(e->name))
		abort();
	if (isspace((unsigned char)e->name[0]) || isspace((unsigned char)e->name[len - 1]))
		abort(); /* not trimmed */
	if (e->event < 0 || e->event >= NEV || e->precise > 2 || e->raw > 1 || e->period)
		abort();
	if (e->excl_user && e->excl_kernel)
		abort(); /* counts nothing */
	if (e->group < (int)first || e->group > (int)i || ev[e->group].group != e->group)
		abort(); /* leader outside this call, or not its own leader */
	if (i > first && e->group != (int)i && e->group != ev[i - 1].group)
		abort(); /* a group with a hole */
	if (!e->raw) {
		uint32_t all = 0;

		for (unsigned k = 0; k < events[e->event].numask; k++)
			all |= events[e->event].umask[k].bits;
		if ((e->umask & ~(all | events[e->event].defmask)) || e->config != pack(e))
			abort(); /* a unit mask the event does not have, or not encoded */
	}

	if (evspec_parse(&fake, e->name, again, 1, &n, err, sizeof(err)) != 0 || n != 1)
		abort(); /* the name does not parse back */
	if (again->event != e->event || again->umask != e->umask || again->config != e->config ||
	    again->raw != e->raw || again->excl_user != e->excl_user ||
	    again->excl_kernel != e->excl_kernel || again->precise != e->precise ||
	    strcmp(again->name, e->name) || again->group != 0)
		abort(); /* ... or to something else */
}

static void run(const char *spec, struct arch_evsel *ev, unsigned max, unsigned *n)
{
	static struct arch_evsel before[ARCH_MAX_EVSEL];
	unsigned n0 = *n;
	char err[200];
	int rc;

	memcpy(before, ev, sizeof(before));
	memset(err, 'x', sizeof(err));
	rc = evspec_parse(&fake, spec, ev, max, n, err, sizeof(err));
	if (memcmp(before, ev, n0 * sizeof(*ev)))
		abort(); /* the events already there changed */
	if (rc == -1 || rc == EVSPEC_NOTSUP) {
		if (*n != n0)
			abort();
		check_err(err, sizeof(err));
		return;
	}
	if (rc != 0 || *n < n0 || *n > max)
		abort();
	for (unsigned i = n0; i < *n; i++)
		check_event(ev, i, n0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct arch_evsel ev[ARCH_MAX_EVSEL];
	unsigned max, n;
	char *buf;

	if (size < 1)
		return 0;
	max = 1 + data[0] % ARCH_MAX_EVSEL;
	n = (data[0] >> 6) % (max + 1); /* some events already there */
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = 0;
	buf[size] = 0;

	memset(ev, 0, sizeof(ev));
	for (unsigned i = 0; i < n; i++) {
		snprintf(ev[i].name, sizeof(ev[i].name), "earlier%u", i);
		ev[i].group = (int)i;
	}
	run(buf, ev, max, &n);
	/* a second -e after the first NUL, when there is one */
	if (strlen(buf) < size - 1)
		run(buf + strlen(buf) + 1, ev, max, &n);
	free(buf);
	return 0;
}
