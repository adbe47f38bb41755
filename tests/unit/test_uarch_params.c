/* Unit tests for the machine parameter sets and --set KEY=VAL
 * (emu/uarch/params.c, params_check.c, machine_*.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emu/uarch/events.h"
#include "emu/uarch/params.h"

#define NKEYS 185 /* core 17+3*15, bp 12, six caches of 13, l1i.tc, four TLBs of 5, mem 12 */

/* A machine copied into zeroed storage, so that padding compares equal. */
static void copy_machine(struct uarch_machine *dst, const char *name)
{
	const struct uarch_machine *m = uarch_machine_find(name);
	assert_non_null(m);
	memset(dst, 0, sizeof(*dst));
	memcpy(dst, m, sizeof(*dst));
}

/* uarch_params_each collected as "k=v,k=v,…" plus a count. */
struct listing {
	char buf[8192];
	size_t len;
	int n;
};

static void collect(void *arg, const char *key, const char *value)
{
	struct listing *l = arg;
	int w = snprintf(l->buf + l->len, sizeof(l->buf) - l->len, "%s%s=%s", l->n ? "," : "", key,
			 value);
	assert_true(w > 0 && (size_t)w < sizeof(l->buf) - l->len);
	l->len += (size_t)w;
	l->n++;
}

static void list(const struct uarch_machine *m, struct listing *l)
{
	memset(l, 0, sizeof(*l));
	uarch_params_each(m, collect, l);
}

/* The value uarch_params_each prints for key, or NULL. */
static const char *value_of(const struct listing *l, const char *key, char *out, size_t outsz)
{
	size_t kl = strlen(key);
	for (const char *p = l->buf; *p;) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n > kl && strncmp(p, key, kl) == 0 && p[kl] == '=') {
			snprintf(out, outsz, "%.*s", (int)(n - kl - 1), p + kl + 1);
			return out;
		}
		p += n + (e != NULL);
	}
	return NULL;
}

static void key_is(const struct uarch_machine *m, const char *key, const char *want)
{
	struct listing l;
	char v[64];
	list(m, &l);
	assert_non_null(value_of(&l, key, v, sizeof(v)));
	assert_string_equal(v, want);
}

/* Applying spec to machine `name` fails with exactly msg and changes nothing. */
static void set_fails(const char *name, const char *spec, const char *msg)
{
	struct uarch_machine m, before;
	char err[256];

	copy_machine(&m, name);
	before = m;
	if (uarch_params_set(&m, spec, err, sizeof(err)) != -1)
		fail_msg("%s: '%s' was accepted", name, spec);
	if (strcmp(err, msg) != 0)
		fail_msg("%s: '%s': got \"%s\"", name, spec, err);
	assert_memory_equal(&m, &before, sizeof(m));
}

static void set_ok(struct uarch_machine *m, const char *spec)
{
	char err[256] = "";
	int r = uarch_params_set(m, spec, err, sizeof(err));
	if (r != 0)
		fail_msg("'%s': %s", spec, err);
}

static void test_machines_pass_check(void **state)
{
	char err[256];
	int n = 0;
	(void)state;

	for (int k = 0; uarch_machines[k]; k++, n++) {
		const struct uarch_machine *m = uarch_machines[k];
		if (uarch_params_check(m, err, sizeof(err)) != 0)
			fail_msg("%s: %s", m->name, err);
		assert_ptr_equal(uarch_machine_find(m->name), m);
		assert_true(m->desc && m->desc[0]);
	}
	assert_int_equal(n, 4);
	assert_null(uarch_machine_find("pentium"));
	assert_null(uarch_machine_find(NULL));
}

/* What the p4 set must agree on with the CPUID it reports (cpuid.c). */
static void test_p4_matches_cpuid(void **state)
{
	const struct uarch_machine *m = uarch_machine_find("p4");
	(void)state;

	assert_int_equal(m->cache[UARCH_L1D].size, 16384); /* leaf 2 60h, leaf 4 sub 0 */
	assert_int_equal(m->cache[UARCH_L1D].assoc, 8);
	assert_int_equal(m->cache[UARCH_L1D].line, 64);
	assert_int_equal(m->cache[UARCH_L2].size, 2u << 20); /* 7Dh, leaf 4 sub 1 */
	assert_int_equal(m->cache[UARCH_L2].assoc, 8);
	assert_int_equal(m->cache[UARCH_L2].line, 128); /* 2 partitions x 64 */
	assert_int_equal(m->cache[UARCH_L2].sector, 64);
	assert_int_equal(m->cache[UARCH_L3].size, 0);	  /* 40h */
	assert_int_equal(m->tlb[UARCH_ITLB].entries, 64); /* 50h */
	assert_int_equal(m->tlb[UARCH_DTLB].entries, 64); /* 5Bh */
	assert_int_equal(m->core.threads, 2);		  /* leaf 1 EBX[23:16] */
	assert_int_equal(m->core.mhz, 3600);		  /* brand string */
	assert_int_equal(m->core.lat[UARCH_UC_FADD], 5);  /* seed 004 */
	assert_int_equal(m->core.occupy[UARCH_UC_FADD], 1);
	assert_true(m->l1i_is_tc);
}

static void test_issue_example(void **state)
{
	struct uarch_machine m;
	(void)state;

	copy_machine(&m, "p4");
	set_ok(&m, "l1d.size=32768,l1d.assoc=8,l1d.line=64,l1d.policy=lru,l1d.write=back-allocate");
	assert_int_equal(m.cache[UARCH_L1D].size, 32768);
	assert_int_equal(m.cache[UARCH_L1D].write, UARCH_WB_ALLOC);
	key_is(&m, "l1d.size", "32768");
	key_is(&m, "l1d.assoc", "8");
	key_is(&m, "l1d.line", "64");
	key_is(&m, "l1d.policy", "lru");
	key_is(&m, "l1d.write", "back-allocate");

	copy_machine(&m, "xscale");
	set_ok(&m, "l1d.policy=random,l1d.write=through-noallocate,bp.kind=gshare,bp.ghist=7");
	key_is(&m, "l1d.policy", "random");
	key_is(&m, "l1d.write", "through-noallocate");
	key_is(&m, "bp.kind", "gshare");
}

static void test_unknown_key(void **state)
{
	(void)state;
	set_fails("p4", "l1d.szie=32768",
		  "unknown parameter 'l1d.szie' (did you mean 'l1d.size'?)");
	set_fails("p4", "core.lat.fad=3",
		  "unknown parameter 'core.lat.fad' (did you mean 'core.lat.fadd'?)");
	set_fails("p4", "bp.pentaly=3",
		  "unknown parameter 'bp.pentaly' (did you mean 'bp.penalty'?)");
	set_fails("p4", "dtlb.entires=3",
		  "unknown parameter 'dtlb.entires' (did you mean 'dtlb.entries'?)");
	set_fails("p4", "l2.assoc=8,mem.latncy=3",
		  "unknown parameter 'mem.latncy' (did you mean 'mem.latency'?)");
	set_fails("p4", "frobnicate=1", "unknown parameter 'frobnicate'");
	set_fails("p4", "l1d=1", "unknown parameter 'l1d'");
}

static void test_bad_values(void **state)
{
	(void)state;
	set_fails(
		"p4", "l1d.size=abc",
		"bad value 'abc' for l1d.size: expected a number (decimal, 0x hex, K/M/G suffix)");
	set_fails("p4", "l1d.size=-1",
		  "bad value '-1' for l1d.size: expected a number (decimal, 0x hex, K/M/G suffix)");
	set_fails(
		"p4", "l1d.size=32KX",
		"bad value '32KX' for l1d.size: expected a number (decimal, 0x hex, K/M/G suffix)");
	set_fails("p4", "l1d.size=0x",
		  "bad value '0x' for l1d.size: expected a number (decimal, 0x hex, K/M/G suffix)");
	set_fails("p4", "core.rob=99999", "value 99999 for core.rob out of range (1..4096)");
	set_fails("p4", "core.lat.fadd=0", "value 0 for core.lat.fadd out of range (1..10000)");
	set_fails("p4", "l2.size=2G", "value 2G for l2.size out of range (0..1073741824)");
	set_fails("p4", "l1d.size=99999999999999999999999",
		  "value 99999999999999999999999 for l1d.size out of range (0..1073741824)");
	set_fails("p4", "core.threads=3", "value 3 for core.threads out of range (1..2)");
	set_fails("p4", "l1d.policy=fifo",
		  "bad value 'fifo' for l1d.policy (allowed: lru, rr, random)");
	set_fails("p4", "l1d.write=back",
		  "bad value 'back' for l1d.write (allowed: back-allocate, back-noallocate, "
		  "through-allocate, through-noallocate)");
	set_fails(
		"p4", "bp.kind=perceptron",
		"bad value 'perceptron' for bp.kind (allowed: static, bimodal, gshare, tournament)");
	set_fails("p4", "core.replay=maybe",
		  "bad value 'maybe' for core.replay (allowed: 0, 1, yes, no)");
	set_fails("p4", "l1d.size", "'l1d.size': expected KEY=VALUE");
	set_fails("p4", "l1d.size=", "missing value for l1d.size");
	set_fails("p4", "=5", "'=5': missing parameter name before '='");
	set_fails("p4", "", "empty item in parameter list");
	set_fails("p4", "l1d.size=32K,,l1d.assoc=8", "empty item in parameter list");
	set_fails("p4", "l1d.size=32K,", "empty item in parameter list");
	/* messages stay on one line whatever the input holds */
	set_fails("p4", "l1d.si\nze=1",
		  "unknown parameter 'l1d.si\\x0aze' (did you mean 'l1d.size'?)");
	set_fails("p4", "l1d.policy=l\tru",
		  "bad value 'l\\x09ru' for l1d.policy (allowed: lru, rr, random)");
	/* no truncation that could turn a bad value into a good one */
	char lng[200];
	memset(lng, '0', sizeof(lng));
	memcpy(lng, "l1d.size=", 9);
	lng[sizeof(lng) - 2] = '1';
	lng[sizeof(lng) - 1] = 0;
	set_fails("p4", lng, "'l1d.size=0000000000000000000000000000000...': parameter too long");
}

static void test_geometry(void **state)
{
	(void)state;
	set_fails("p4", "l1d.size=1000", "l1d.size 1000 is not a multiple of l1d.line 64");
	set_fails("p4", "l1d.size=1024,l1d.assoc=32",
		  "l1d.size 1024 is not a multiple of l1d.assoc*l1d.line (32*64=2048)");
	set_fails("p4", "l1d.size=12K,l1d.assoc=5",
		  "l1d.size 12288 is not a multiple of l1d.assoc*l1d.line (5*64=320)");
	set_fails("p4", "l1d.line=48", "l1d.line 48 is not a power of two of at least 4");
	set_fails("p4", "l1d.line=32,l1d.sector=64",
		  "l1d.sector 64 does not divide l1d.line 32 (sector = line when not sectored)");
	set_fails("p4", "l2.sector=48",
		  "l2.sector 48 does not divide l2.line 128 (sector = line when not sectored)");
	set_fails("p4", "l2.sector=2", "l2: more than 32 sectors per line (l2.line/l2.sector)");
	set_fails("p4", "l1d.latency=0", "l1d.latency must be at least 1");
	set_fails("p4", "l1d.ports=0", "l1d.ports must be at least 1");
	set_fails("p4", "l1d.width=16",
		  "l1d.width must be 0: only a level below the first has one");
	set_fails("p4", "l1d.size=0",
		  "l1i.size and l1d.size must not be 0 (the model needs both first-level caches)");
	set_fails("p4", "l2.line=32,l2.sector=32", "l2.line 32 is smaller than l1i.line 64");
	set_fails("ia64", "l2.size=0", "l3 is present but l2 is absent (l2.size=0)");
	set_fails("ia64", "l3.line=64", "l3.line 64 is smaller than l2.line 128");
	set_fails("ia64", "itlb.entries=0", "itlb2 is present but itlb is absent (itlb.entries=0)");
	set_fails("p4", "dtlb.entries=48,dtlb.assoc=5",
		  "dtlb.entries 48 is not a multiple of dtlb.assoc 5");
	set_fails("p4", "dtlb.page=6000", "dtlb.page 6000 is not a power of two of at least 4096");
	set_fails("p4", "dtlb.page=2048", "dtlb.page 2048 is not a power of two of at least 4096");
	set_fails("xscale", "core.replay=1",
		  "core.replay needs core.ooo=1 (replay is an out-of-order scheduler's)");
	set_fails("xscale", "bp.kind=gshare", "bp.ghist must be at least 1 for gshare");
	set_fails("xscale", "bp.kind=tournament",
		  "bp.pht, bp.ghist and bp.choice must be at least 1 for tournament");
	set_fails("p4", "bp.btb_assoc=3", "bp.btb 4096 is not a multiple of bp.btb_assoc 3");
	set_fails("p4", "bp.kind=bimodal,bp.pht=0", "bp.pht must be at least 1 for bimodal");
	set_fails("p4", "core.rob=1",
		  "core.rob, core.iq, core.lq and core.sq must hold at least one entry per thread");
	set_fails("p4", "mem.bus_width=12", "mem.bus_width 12 is not a power of two");
	set_fails("p4", "core.fq=1",
		  "core.fq must hold at least one entry per thread (or be 0: one queue)");
	/* a lookup searches a set way by way: no set of more than 65536 */
	set_fails("p4", "l1d.size=1G,l1d.assoc=0",
		  "l1d: 16777216 ways (fully associative) are more than the 65536 a lookup "
		  "searches; set l1d.assoc");
	set_fails("ia64", "l3.size=1G,l3.assoc=131072",
		  "l3: 131072 ways are more than the 65536 a lookup searches; set l3.assoc");
	set_fails("p4", "dtlb.entries=131072",
		  "dtlb: 131072 ways (fully associative) are more than the 65536 a lookup "
		  "searches; set dtlb.assoc");
	set_fails("p4", "bp.btb=131072,bp.btb_assoc=0",
		  "bp.btb: 131072 ways (fully associative) are more than the 65536 a lookup "
		  "searches; set bp.btb_assoc");
	{
		struct uarch_machine m;
		copy_machine(&m, "p4");
		set_ok(&m, "l2.size=8M,l2.assoc=0,dtlb.entries=65536,bp.btb=65536,bp.btb_assoc=0");
	}
}

/* Problems only a hand-built struct can have: the parser's ranges stop
 * them at the door, uarch_params_check must still say what is wrong. */
static void test_check_direct(void **state)
{
	struct uarch_machine m;
	char err[256];
	(void)state;

	copy_machine(&m, "alpha");
	m.core.lat[UARCH_UC_FDIV] = 0;
	assert_int_equal(uarch_params_check(&m, err, sizeof(err)), -1);
	assert_string_equal(err, "core.lat.fdiv must be at least 1");

	copy_machine(&m, "alpha");
	m.core.units[UARCH_UC_SIMD_MUL] = 0;
	assert_int_equal(uarch_params_check(&m, err, sizeof(err)), -1);
	assert_string_equal(err, "core.units.simd_mul must be at least 1");

	copy_machine(&m, "alpha");
	m.cache[UARCH_L2].repl = 7;
	assert_int_equal(uarch_params_check(&m, err, sizeof(err)), -1);
	assert_string_equal(err, "l2: bad policy or write value");

	copy_machine(&m, "alpha");
	m.bp.kind = 9;
	assert_int_equal(uarch_params_check(&m, err, sizeof(err)), -1);
	assert_string_equal(err, "bp.kind 9 is not a predictor kind");

	copy_machine(&m, "alpha");
	m.core.threads = 0;
	assert_int_equal(uarch_params_check(&m, err, sizeof(err)), -1);
	assert_string_equal(err, "core.threads 0 must be 1 or 2");

	/* no room for a message is no reason to crash */
	assert_int_equal(uarch_params_check(&m, NULL, 0), -1);
	copy_machine(&m, "alpha");
	assert_int_equal(uarch_params_set(&m, "l1d.szie=1", NULL, 0), -1);
	assert_int_equal(uarch_params_set(&m, "l1d.size=32K", err, 1), 0);
	assert_int_equal(m.cache[UARCH_L1D].size, 32768);
}

static void test_numbers(void **state)
{
	struct uarch_machine m;
	(void)state;

	copy_machine(&m, "p4");
	set_ok(&m, "l1d.size=32k");
	assert_int_equal(m.cache[UARCH_L1D].size, 32768);
	set_ok(&m, "l1d.size=0x2000");
	assert_int_equal(m.cache[UARCH_L1D].size, 8192);
	set_ok(&m, "l1d.size=0X4000,l1d.assoc=4");
	assert_int_equal(m.cache[UARCH_L1D].size, 16384);
	assert_int_equal(m.cache[UARCH_L1D].assoc, 4);
	set_ok(&m, "l2.size=4M");
	assert_int_equal(m.cache[UARCH_L2].size, 4u << 20);
	set_ok(&m, "l2.size=1MB");
	assert_int_equal(m.cache[UARCH_L2].size, 1u << 20);
	set_ok(&m, "bp.btb=2K,dtlb.page=4k");
	assert_int_equal(m.bp.btb, 2048);
	assert_int_equal(m.tlb[UARCH_DTLB].page, 4096);
	set_ok(&m, "l3.size=1G,l3.assoc=16,l3.line=128,l3.sector=128,l3.latency=40,l3.ports=1");
	assert_int_equal(m.cache[UARCH_L3].size, 1u << 30);
	set_ok(&m, "l3.width=16");
	assert_int_equal(m.cache[UARCH_L3].width, 16);
	set_ok(&m, "l1d.size=12K,l1d.assoc=16"); /* 12 sets: indexed by modulo */
	assert_int_equal(m.cache[UARCH_L1D].size, 12288);
	set_ok(&m, "mem.latency=0x1f4");
	assert_int_equal(m.mem.latency, 500);
	set_ok(&m, "core.syscall_cycles=65535");
	assert_int_equal(m.core.syscall_cycles, 65535);
}

static void test_flags_case_blanks(void **state)
{
	struct uarch_machine m;
	(void)state;

	copy_machine(&m, "p4");
	set_ok(&m, "l1d.classify=yes,l2.inclusive=on,core.replay=off");
	assert_int_equal(m.cache[UARCH_L1D].classify, 1);
	assert_int_equal(m.cache[UARCH_L2].inclusive, 1);
	assert_int_equal(m.core.replay, 0);
	set_ok(&m, "l1d.classify=0,l1i.tc=false");
	assert_int_equal(m.cache[UARCH_L1D].classify, 0);
	assert_int_equal(m.l1i_is_tc, 0);
	set_ok(&m, " L1D.Size = 8K , l1d.policy = RR ");
	assert_int_equal(m.cache[UARCH_L1D].size, 8192);
	assert_int_equal(m.cache[UARCH_L1D].repl, UARCH_REPL_RR);
	key_is(&m, "l1d.policy", "rr");
	set_fails("p4", "L1D.SZIE=1", "unknown parameter 'L1D.SZIE' (did you mean 'l1d.size'?)");
	set_fails("p4", "L1D.policy=FIFO",
		  "bad value 'FIFO' for l1d.policy (allowed: lru, rr, random)");
}

/* Setting only the line of an unsectored cache keeps it unsectored; a
 * sectored one keeps its sectors. */
static void test_sector_follows_line(void **state)
{
	struct uarch_machine m;
	(void)state;

	copy_machine(&m, "p4");
	set_ok(&m, "l1d.line=32");
	assert_int_equal(m.cache[UARCH_L1D].sector, 32);
	set_ok(&m, "l2.line=256");
	assert_int_equal(m.cache[UARCH_L2].line, 256);
	assert_int_equal(m.cache[UARCH_L2].sector, 64);
	set_ok(&m, "l1d.line=64,l1d.sector=32");
	assert_int_equal(m.cache[UARCH_L1D].sector, 32);
	set_ok(&m, "l1d.line=128");
	assert_int_equal(m.cache[UARCH_L1D].sector, 32); /* sectored: left alone */
}

/* The example from a failing list leaves the machine as it was. */
static void test_all_or_nothing(void **state)
{
	(void)state;
	set_fails("p4", "l1d.size=32768,l1d.assoc=4,l1d.szie=1",
		  "unknown parameter 'l1d.szie' (did you mean 'l1d.size'?)");
	set_fails("p4", "core.rob=100,l1d.line=48",
		  "l1d.line 48 is not a power of two of at least 4");
	set_fails("xscale", "mem.wbuf_line=24", "mem.wbuf_line 24 is not 0 or a power of two");
	set_fails("p4", "l1d.alias=8",
		  "l1d.alias 8 must cover the set index and line offset (at least 11 bits) and be "
		  "at most 47");
	set_fails("p4", "l1d.context=private",
		  "bad value 'private' for l1d.context (allowed: adaptive, shared)");
	set_fails("xscale", "mem.pf_adjacent=1",
		  "mem.pf_streams and mem.pf_adjacent need a cache level below l1d");
	set_fails("p4", "l2.line=8192,l2.sector=8192",
		  "mem.pf_streams needs a last-level sector of at most 4096 bytes (the region a "
		  "stream stays in)");
}

static void test_each_order(void **state)
{
	struct listing a, b;
	(void)state;

	for (int k = 0; uarch_machines[k]; k++) {
		list(uarch_machines[k], &a);
		assert_int_equal(a.n, NKEYS);
		assert_true(strncmp(a.buf, "core.ooo=", 9) == 0);
		assert_true(strncmp(strrchr(a.buf, ','), ",mem.pf_adjacent=", 17) == 0);
		list(uarch_machines[k], &b);
		assert_string_equal(a.buf, b.buf); /* stable */
	}
	/* every key appears once */
	list(uarch_machine_find("ia64"), &a);
	char keys[NKEYS][32];
	int n = 0;
	for (char *p = a.buf; *p && n < NKEYS; n++) {
		size_t kl = strcspn(p, "=");
		assert_true(kl < sizeof(keys[0]));
		snprintf(keys[n], sizeof(keys[n]), "%.*s", (int)kl, p);
		for (int j = 0; j < n; j++)
			assert_string_not_equal(keys[j], keys[n]);
		p += strcspn(p, ",");
		if (*p)
			p++;
	}
	assert_int_equal(n, NKEYS);
	key_is(uarch_machine_find("alpha"), "bp.kind", "tournament");
	key_is(uarch_machine_find("alpha"), "core.lat.simd_mul", "7");
	key_is(uarch_machine_find("xscale"), "mini.size", "2048");
	key_is(uarch_machine_find("xscale"), "mem.wbuf_line", "16");
	key_is(uarch_machine_find("p4"), "l1d.alias", "22");
	key_is(uarch_machine_find("p4"), "l1d.context", "adaptive");
	key_is(uarch_machine_find("xscale"), "itlb.policy", "rr");
	key_is(uarch_machine_find("ia64"), "dtlb2.entries", "128");
	key_is(uarch_machine_find("p4"), "l1i.tc", "1");
}

/* each -> set -> each is the identity, even applied over a different
 * machine: every field is reachable by some key. */
static void test_round_trip(void **state)
{
	(void)state;
	for (int k = 0; uarch_machines[k]; k++) {
		const struct uarch_machine *src = uarch_machines[k];
		struct listing want, got;
		list(src, &want);
		for (int j = 0; uarch_machines[j]; j++) {
			struct uarch_machine a, b;
			copy_machine(&a, src->name);
			copy_machine(&b, uarch_machines[j]->name);
			set_ok(&b, want.buf);
			list(&b, &got);
			assert_string_equal(got.buf, want.buf);
			/* field for field (padding is zero in both) */
			assert_memory_equal(&b.core, &a.core, sizeof(a.core));
			assert_memory_equal(&b.bp, &a.bp, sizeof(a.bp));
			assert_memory_equal(b.cache, a.cache, sizeof(a.cache));
			assert_memory_equal(b.tlb, a.tlb, sizeof(a.tlb));
			assert_memory_equal(&b.mem, &a.mem, sizeof(a.mem));
			assert_int_equal(b.l1i_is_tc, a.l1i_is_tc);
		}
	}
}

/* What a machine's structure never raises is not counted, with why. */
static void test_uncounted(void **state)
{
	struct uarch_machine m;

	(void)state;
	copy_machine(&m, "xscale"); /* in order, no L2, no replay */
	assert_string_equal(uarch_event_uncounted(&m, UARCH_EV_L2_ACCESS),
			    "the machine has no such cache");
	assert_string_equal(uarch_event_uncounted(&m, UARCH_EV_LD_L2_MISS),
			    "the machine has no such cache");
	assert_string_equal(uarch_event_uncounted(&m, UARCH_EV_REPLAYS),
			    "the core does not replay: core.replay=0");
	assert_null(uarch_event_uncounted(&m, UARCH_EV_STALL_DATA));
	assert_null(uarch_event_uncounted(&m, UARCH_EV_L1D_LD_MISS));
	copy_machine(&m, "p4");
	assert_null(uarch_event_uncounted(&m, UARCH_EV_REPLAYS));
	assert_null(uarch_event_uncounted(&m, UARCH_EV_L2_RD_HIT_DIRTY));
	assert_null(uarch_event_uncounted(&m, UARCH_EV_L1D_ALIAS));
	assert_string_equal(uarch_event_uncounted(&m, UARCH_EV_STALL_DATA),
			    "an out-of-order core does not stall on use: core.ooo=1");
	assert_string_equal(uarch_event_uncounted(&m, UARCH_EV_L3_MISS),
			    "the machine has no such cache");
	assert_string_equal(uarch_event_uncounted(&m, UARCH_EV_DTLB_L2_HIT),
			    "the machine has no second-level DTLB");
	assert_string_equal(uarch_event_uncounted(&m, UARCH_EV_DTLB_L2_XFER),
			    "the machine has no second-level DTLB");
	assert_string_equal(uarch_event_uncounted(&m, UARCH_EV_ITLB_L2_MISS),
			    "the machine has no second-level ITLB");
	assert_null(uarch_event_uncounted(&m, UARCH_EV_UOPQ_ROM));
	assert_string_equal(uarch_event_uncounted(&m, UARCH_EV_L2_MISS_COMP),
			    "needs --set l2.classify=1");
	set_ok(&m, "l1d.alias=0,l2.classify=1");
	assert_string_equal(uarch_event_uncounted(&m, UARCH_EV_L1D_ALIAS),
			    "the L1 data cache compares whole tags: l1d.alias=0");
	assert_null(uarch_event_uncounted(&m, UARCH_EV_L2_MISS_COMP));
	copy_machine(&m, "ia64"); /* second-level TLBs, an L3, no trace cache */
	assert_null(uarch_event_uncounted(&m, UARCH_EV_ITLB_L2_HIT));
	assert_null(uarch_event_uncounted(&m, UARCH_EV_DTLB_L2_MISS));
	assert_string_equal(uarch_event_uncounted(&m, UARCH_EV_UOPQ_DELIVER),
			    "the machine has no trace cache");
	assert_null(uarch_event_uncounted(&m, UARCH_EV_L3_ACCESS));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_machines_pass_check),
		cmocka_unit_test(test_p4_matches_cpuid),
		cmocka_unit_test(test_issue_example),
		cmocka_unit_test(test_unknown_key),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_geometry),
		cmocka_unit_test(test_check_direct),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_flags_case_blanks),
		cmocka_unit_test(test_sector_follows_line),
		cmocka_unit_test(test_all_or_nothing),
		cmocka_unit_test(test_each_order),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_uncounted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
