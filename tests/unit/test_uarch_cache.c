/* Unit tests for emu/uarch/cache.c: replacement policies, associativity,
 * sectors, write policies, probe/invalidate and miss classification, on
 * sequences worked out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "emu/uarch/cache.h"

static struct uarch_cache_cfg geom(uint32_t size, uint32_t assoc, uint32_t line, uint8_t repl)
{
	struct uarch_cache_cfg cfg = { .size = size,
				       .assoc = assoc,
				       .line = line,
				       .sector = line,
				       .repl = repl,
				       .write = UARCH_WB_ALLOC };
	return cfg;
}

static struct uarch_cache_res acc(struct uarch_cache *c, uint64_t addr, int write)
{
	struct uarch_cache_res r;
	memset(&r, 0x5a, sizeof(r)); /* every field must be written */
	uarch_cache_access(c, addr, write, &r);
	return r;
}

static int hit(struct uarch_cache *c, uint64_t addr)
{
	return acc(c, addr, 0).hit;
}

/* The MRU test the memory system's load fast path relies on: true only
 * for the first way with its sector present, never with miss classes. */
static void test_mru_hit(void **state)
{
	struct uarch_cache_cfg cfg = geom(256, 2, 64, UARCH_REPL_LRU); /* two sets */
	struct uarch_cache *c = uarch_cache_new(&cfg, 1);

	(void)state;
	assert_false(uarch_cache_mru_hit(c, 0x000));
	hit(c, 0x000);
	assert_true(uarch_cache_mru_hit(c, 0x03f));
	hit(c, 0x040); /* the other set */
	assert_true(uarch_cache_mru_hit(c, 0x000));
	hit(c, 0x080); /* same set as 0x000: now MRU, 0x000 second */
	assert_false(uarch_cache_mru_hit(c, 0x000));
	assert_true(uarch_cache_probe(c, 0x000));
	uarch_cache_free(c);

	cfg = geom(256, 2, 128, UARCH_REPL_LRU);
	cfg.sector = 64;
	c = uarch_cache_new(&cfg, 1);
	hit(c, 0x000);
	assert_true(uarch_cache_mru_hit(c, 0x000));
	assert_false(uarch_cache_mru_hit(c, 0x040)); /* sector not filled */
	/* the line is there, the sector not: a read would miss */
	assert_true(uarch_cache_probe(c, 0x040));
	assert_true(uarch_cache_holds(c, 0x03f));
	assert_false(uarch_cache_holds(c, 0x040));
	hit(c, 0x100); /* the same set: 0x000 no longer first */
	assert_true(uarch_cache_holds(c, 0x000));
	assert_false(uarch_cache_holds(c, 0x200));
	uarch_cache_free(c);

	cfg = geom(128, 2, 64, UARCH_REPL_LRU);
	cfg.classify = 1;
	c = uarch_cache_new(&cfg, 1);
	hit(c, 0x000);
	assert_false(uarch_cache_mru_hit(c, 0x000)); /* a hit updates the shadow */
	uarch_cache_free(c);
}

/* The store path's access: as uarch_cache_access when the line is
 * present (its sector or not), no change at all when it is absent. */
static void test_access_present(void **state)
{
	struct uarch_cache_cfg cfg = geom(256, 2, 128, UARCH_REPL_LRU); /* one set */
	struct uarch_cache *c;
	struct uarch_cache_res r;

	(void)state;
	cfg.sector = 64;
	cfg.write = UARCH_WT_NOALLOC;
	c = uarch_cache_new(&cfg, 1);
	assert_false(uarch_cache_access_present(c, 0x000, 1, &r));
	assert_false(uarch_cache_probe(c, 0x000));
	hit(c, 0x000);
	hit(c, 0x080); /* 0x000 is LRU now */
	memset(&r, 0x5a, sizeof(r));
	assert_true(uarch_cache_access_present(c, 0x000, 1, &r));
	assert_true(r.hit);
	assert_false(r.evicted);
	assert_true(uarch_cache_mru_hit(c, 0x000)); /* moved to the front */
	assert_true(uarch_cache_access_present(c, 0x040, 1, &r));
	assert_false(r.hit); /* present, its sector not: a write does not fill it */
	assert_true(r.sector_miss);
	assert_false(uarch_cache_mru_hit(c, 0x040));
	assert_false(uarch_cache_access_present(c, 0x100, 1, &r));
	assert_true(uarch_cache_probe(c, 0x080)); /* nothing replaced */
	uarch_cache_free(c);
}

/* One set, two ways: A B A C B.  C replaces B (A was used more recently),
 * then B replaces A. */
static void test_lru_order(void **state)
{
	struct uarch_cache_cfg cfg = geom(128, 2, 64, UARCH_REPL_LRU);
	struct uarch_cache *c = uarch_cache_new(&cfg, 1);
	struct uarch_cache_res r;

	(void)state;
	assert_non_null(c);
	r = acc(c, 0x1000, 0);
	assert_false(r.hit);
	assert_false(r.evicted);
	assert_false(hit(c, 0x2000));
	assert_true(hit(c, 0x1010)); /* same line as 0x1000 */
	r = acc(c, 0x3000, 0);
	assert_false(r.hit);
	assert_true(r.evicted);
	assert_int_equal(r.victim, 0x2000);
	r = acc(c, 0x2000, 0);
	assert_false(r.hit);
	assert_int_equal(r.victim, 0x1000);
	assert_true(hit(c, 0x3000));
	assert_true(hit(c, 0x2000));
	uarch_cache_free(c);
}

/* Direct-mapped, 4 sets of 64 bytes: 0 and 256 share set 0, 64 does not. */
static void test_direct_mapped_conflict(void **state)
{
	struct uarch_cache_cfg cfg = geom(256, 1, 64, UARCH_REPL_LRU);
	struct uarch_cache *c = uarch_cache_new(&cfg, 1);

	(void)state;
	assert_false(hit(c, 0));
	assert_false(hit(c, 64));
	assert_false(hit(c, 256));
	assert_false(hit(c, 0));
	assert_true(hit(c, 64));
	assert_false(hit(c, 256));
	/* 2-way of the same size: both fit */
	uarch_cache_free(c);
	cfg = geom(256, 2, 64, UARCH_REPL_LRU);
	c = uarch_cache_new(&cfg, 1);
	assert_false(hit(c, 0));
	assert_false(hit(c, 256));
	assert_true(hit(c, 0));
	assert_true(hit(c, 256));
	/* 2 sets: 128 is set 0 too; it replaces 0, the LRU of the set */
	assert_false(hit(c, 128));
	assert_true(hit(c, 256));
	assert_false(hit(c, 0));
	uarch_cache_free(c);
}

/* Round-robin, one set of 4: fills go to ways 0..3; hits change nothing;
 * then replacements walk ways 0, 1, 2. */
static void test_round_robin(void **state)
{
	struct uarch_cache_cfg cfg = geom(256, 4, 64, UARCH_REPL_RR);
	struct uarch_cache *c = uarch_cache_new(&cfg, 1);
	struct uarch_cache_res r;

	(void)state;
	for (uint64_t a = 0x1000; a <= 0x4000; a += 0x1000)
		assert_false(hit(c, a));
	assert_true(hit(c, 0x1000)); /* under LRU this would protect 0x1000 */
	r = acc(c, 0x5000, 0);
	assert_int_equal(r.victim, 0x1000);
	r = acc(c, 0x6000, 0);
	assert_int_equal(r.victim, 0x2000);
	r = acc(c, 0x1000, 0);
	assert_false(r.hit);
	assert_int_equal(r.victim, 0x3000);
	assert_true(hit(c, 0x4000));
	r = acc(c, 0x7000, 0);
	assert_int_equal(r.victim, 0x4000);
	r = acc(c, 0x8000, 0); /* pointer wrapped: way 0 again, now 0x5000 */
	assert_int_equal(r.victim, 0x5000);
	uarch_cache_free(c);
}

/* Without LRU order a lookup starts at the way last hit or filled: the
 * fast paths see that way, and whatever happens to its line, a lookup
 * finds what is present and nothing else, and replacement goes on as the
 * policy says. */
static void test_first_way_not_lru(void **state)
{
	struct uarch_cache_cfg cfg = geom(256, 4, 64, UARCH_REPL_RR); /* one set */
	struct uarch_cache *c = uarch_cache_new(&cfg, 1);
	struct uarch_cache_res r;

	(void)state;
	for (uint64_t a = 0x1000; a <= 0x4000; a += 0x1000)
		hit(c, a);
	assert_true(uarch_cache_mru_hit(c, 0x4000)); /* the last filled */
	assert_false(uarch_cache_mru_hit(c, 0x1000));
	assert_true(hit(c, 0x2000));
	assert_true(uarch_cache_mru_hit(c, 0x2000));
	assert_false(uarch_cache_mru_hit(c, 0x4000));
	r = acc(c, 0x2000, 1); /* the first way's write: dirty from now on */
	assert_true(r.hit);
	assert_false(r.modified);
	assert_true(acc(c, 0x2000, 0).modified);
	assert_true(uarch_cache_invalidate(c, 0x2000)); /* it was dirty */
	assert_false(uarch_cache_mru_hit(c, 0x2000));
	assert_false(uarch_cache_probe(c, 0x2000));
	r = acc(c, 0x2000, 0); /* refills the invalid way, the pointer stays */
	assert_false(r.hit);
	assert_false(r.evicted);
	assert_true(uarch_cache_mru_hit(c, 0x2000));
	r = acc(c, 0x5000, 0); /* the pointer's way: 0x1000 */
	assert_int_equal(r.victim, 0x1000);
	assert_true(uarch_cache_mru_hit(c, 0x5000));
	assert_true(hit(c, 0x3000));
	assert_true(hit(c, 0x4000));
	assert_true(hit(c, 0x2000));
	assert_false(hit(c, 0x1000));
	uarch_cache_free(c);
}

/* Pseudo-random: the same seed replays the same victims; victims are
 * lines of the set; another seed chooses differently somewhere. */
static void test_random_deterministic(void **state)
{
	struct uarch_cache_cfg cfg = geom(512, 8, 64, UARCH_REPL_RANDOM);
	struct uarch_cache *a = uarch_cache_new(&cfg, 42), *b = uarch_cache_new(&cfg, 42);
	struct uarch_cache *d = uarch_cache_new(&cfg, 7);
	int differ = 0, hits = 0;

	(void)state;
	for (int i = 0; i < 2000; i++) {
		uint64_t addr = (uint64_t)((i * 7919) % 23) * 64;
		struct uarch_cache_res ra = acc(a, addr, 0), rb = acc(b, addr, 0);
		struct uarch_cache_res rd = acc(d, addr, 0);
		assert_int_equal(ra.hit, rb.hit);
		assert_int_equal(ra.evicted, rb.evicted);
		assert_int_equal(ra.victim, rb.victim);
		if (ra.evicted) {
			assert_true(ra.victim < 23 * 64 && ra.victim % 64 == 0);
			assert_int_not_equal(ra.victim, addr);
		}
		differ |= ra.hit != rd.hit || ra.victim != rd.victim;
		hits += ra.hit;
	}
	assert_true(differ);
	assert_true(hits > 0 && hits < 2000);
	uarch_cache_free(a);
	uarch_cache_free(b);
	uarch_cache_free(d);
}

/* 128-byte lines of two 64-byte sectors. */
static void test_sectored(void **state)
{
	struct uarch_cache_cfg cfg = geom(256, 2, 128, UARCH_REPL_LRU);
	struct uarch_cache *c;
	struct uarch_cache_res r;

	(void)state;
	cfg.sector = 64;
	c = uarch_cache_new(&cfg, 1);
	assert_non_null(c);
	r = acc(c, 0x1000, 0);
	assert_false(r.hit);
	assert_false(r.sector_miss);
	r = acc(c, 0x1040, 0); /* same line, other sector */
	assert_false(r.hit);
	assert_true(r.sector_miss);
	assert_false(r.evicted);
	assert_true(hit(c, 0x1040));
	assert_true(hit(c, 0x1000));
	/* a new line brings only its own sector */
	assert_false(hit(c, 0x2040));
	r = acc(c, 0x2000, 0);
	assert_true(r.sector_miss);
	/* the sector fill made 0x2000 MRU: 0x3000 replaces 0x1000 */
	r = acc(c, 0x3000, 0);
	assert_true(r.evicted);
	assert_int_equal(r.victim, 0x1000);
	assert_true(uarch_cache_probe(c, 0x2000));
	uarch_cache_free(c);
}

/* Write-back keeps the written line dirty until it is replaced;
 * write-through never has dirty lines. */
static void test_write_back_vs_through(void **state)
{
	struct uarch_cache_cfg cfg = geom(64, 1, 64, UARCH_REPL_LRU);
	struct uarch_cache *c = uarch_cache_new(&cfg, 1);
	struct uarch_cache_res r;

	(void)state;
	r = acc(c, 0, 1); /* write miss allocates */
	assert_false(r.hit);
	assert_true(hit(c, 8));
	r = acc(c, 64, 0);
	assert_true(r.evicted);
	assert_true(r.dirty);
	assert_int_equal(r.victim, 0);
	r = acc(c, 128, 0); /* 64 was only read: clean */
	assert_true(r.evicted);
	assert_false(r.dirty);
	r = acc(c, 128, 1); /* write hit dirties */
	assert_true(r.hit);
	assert_false(r.modified); /* the state before the access */
	r = acc(c, 128, 0);
	assert_true(r.modified);
	r = acc(c, 192, 0);
	assert_true(r.dirty);
	uarch_cache_free(c);

	cfg.write = UARCH_WT_ALLOC;
	c = uarch_cache_new(&cfg, 1);
	r = acc(c, 0, 1);
	assert_false(r.hit);
	assert_true(hit(c, 0)); /* allocated */
	acc(c, 0, 1);
	assert_false(acc(c, 0, 0).modified);
	r = acc(c, 64, 0);
	assert_true(r.evicted);
	assert_false(r.dirty);
	uarch_cache_free(c);
}

static void test_no_allocate(void **state)
{
	struct uarch_cache_cfg cfg = geom(128, 2, 64, UARCH_REPL_LRU);
	struct uarch_cache *c;
	struct uarch_cache_res r;

	(void)state;
	cfg.write = UARCH_WB_NOALLOC;
	c = uarch_cache_new(&cfg, 1);
	r = acc(c, 0, 1);
	assert_false(r.hit);
	assert_false(r.evicted);
	assert_false(uarch_cache_probe(c, 0));
	assert_false(hit(c, 0)); /* the read allocates */
	r = acc(c, 0, 1);	 /* write hit: dirty under write-back */
	assert_true(r.hit);
	acc(c, 64, 0);
	/* a write miss neither fills nor changes the LRU order: 0 is still LRU */
	acc(c, 0x1000, 1);
	r = acc(c, 0x2000, 0);
	assert_true(r.evicted);
	assert_int_equal(r.victim, 0);
	assert_true(r.dirty);
	uarch_cache_free(c);

	cfg.write = UARCH_WT_NOALLOC;
	c = uarch_cache_new(&cfg, 1);
	assert_false(acc(c, 0, 1).hit);
	assert_false(uarch_cache_probe(c, 0));
	assert_false(hit(c, 0));
	assert_true(acc(c, 0, 1).hit);
	r = acc(c, 64, 0);
	r = acc(c, 128, 0);
	assert_int_equal(r.victim, 0);
	assert_false(r.dirty);
	uarch_cache_free(c);
}

/* assoc 0: one set holding every line, LRU across all of them. */
static void test_fully_associative(void **state)
{
	struct uarch_cache_cfg cfg = geom(256, 0, 64, UARCH_REPL_LRU);
	struct uarch_cache *c = uarch_cache_new(&cfg, 1);

	(void)state;
	/* four lines that would share one set of any small cache */
	for (uint64_t a = 0; a < 4 * 4096; a += 4096)
		assert_false(hit(c, a));
	for (uint64_t a = 0; a < 4 * 4096; a += 4096)
		assert_true(hit(c, a));
	/* five lines cycled through four entries: LRU misses every time */
	for (int round = 0; round < 3; round++)
		for (uint64_t a = 0x100000; a < 0x100000 + 5 * 4096; a += 4096)
			assert_false(hit(c, a));
	uarch_cache_free(c);
}

/* Set counts that are not powers of two index by modulo. */
static void test_non_pow2_sets(void **state)
{
	struct uarch_cache_cfg cfg = geom(3 * 64, 1, 64, UARCH_REPL_LRU);
	struct uarch_cache *c = uarch_cache_new(&cfg, 1);

	(void)state;
	assert_non_null(c);
	assert_false(hit(c, 0));
	assert_false(hit(c, 64));
	assert_false(hit(c, 128));
	assert_true(hit(c, 0));
	assert_false(hit(c, 192)); /* line 3 → set 0 */
	assert_false(hit(c, 0));
	assert_true(hit(c, 64));
	assert_true(hit(c, 128));
	assert_false(hit(c, 256)); /* line 4 → set 1 */
	assert_false(hit(c, 64));
	uarch_cache_free(c);
}

static void test_probe_invalidate(void **state)
{
	struct uarch_cache_cfg cfg = geom(128, 2, 64, UARCH_REPL_LRU);
	struct uarch_cache *c = uarch_cache_new(&cfg, 1);
	struct uarch_cache_res r;

	(void)state;
	acc(c, 0x1000, 0);
	acc(c, 0x2000, 1);
	/* probing 0x1000 does not make it recent: 0x3000 still replaces it */
	assert_true(uarch_cache_probe(c, 0x1000));
	assert_false(uarch_cache_probe(c, 0x3000));
	r = acc(c, 0x3000, 0);
	assert_int_equal(r.victim, 0x1000);
	assert_false(uarch_cache_probe(c, 0x1000));
	/* invalidating returns the dirty bit and frees the way */
	assert_int_equal(uarch_cache_invalidate(c, 0x2010), 1);
	assert_int_equal(uarch_cache_invalidate(c, 0x2010), 0);
	assert_false(uarch_cache_probe(c, 0x2000));
	assert_int_equal(uarch_cache_invalidate(c, 0x3000), 0);
	/* the set is empty now: two fills evict nothing */
	assert_false(acc(c, 0x4000, 0).evicted);
	assert_false(acc(c, 0x5000, 0).evicted);
	r = acc(c, 0x6000, 0);
	assert_true(r.evicted);
	assert_int_equal(r.victim, 0x4000);
	uarch_cache_free(c);
}

static void test_bad_config(void **state)
{
	struct uarch_cache_cfg cfg = geom(256, 2, 48, UARCH_REPL_LRU);

	(void)state;
	assert_null(uarch_cache_new(&cfg, 1)); /* line not a power of two */
	cfg = geom(256, 3, 64, UARCH_REPL_LRU);
	assert_null(uarch_cache_new(&cfg, 1)); /* 4 lines in ways of 3 */
	cfg = geom(256, 8, 64, UARCH_REPL_LRU);
	assert_null(uarch_cache_new(&cfg, 1)); /* more ways than lines */
	cfg = geom(256, 2, 64, UARCH_REPL_LRU);
	cfg.sector = 128;
	assert_null(uarch_cache_new(&cfg, 1)); /* sector larger than line */
	cfg = geom(0, 2, 64, UARCH_REPL_LRU);
	assert_null(uarch_cache_new(&cfg, 1));
	cfg = geom(256, 2, 64, 9);
	assert_null(uarch_cache_new(&cfg, 1));
}

/* The three Cs on constructed patterns. */
static void test_miss_classes(void **state)
{
	struct uarch_cache_cfg cfg = geom(256, 1, 64, UARCH_REPL_LRU);
	struct uarch_cache *c;
	struct uarch_cache_res r;

	(void)state;
	cfg.classify = 1;
	c = uarch_cache_new(&cfg, 1);
	/* first touch: compulsory; a hit is HIT */
	r = acc(c, 0, 0);
	assert_int_equal(r.miss_class, UARCH_MISS_COMPULSORY);
	assert_int_equal(acc(c, 8, 0).miss_class, UARCH_HIT);
	/* two aliasing lines in a direct-mapped cache they would fit: conflict */
	assert_int_equal(acc(c, 256, 0).miss_class, UARCH_MISS_COMPULSORY);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(acc(c, 0, 0).miss_class, UARCH_MISS_CONFLICT);
		assert_int_equal(acc(c, 256, 0).miss_class, UARCH_MISS_CONFLICT);
	}
	uarch_cache_free(c);

	/* a stream of 8 lines through 4: compulsory, then capacity */
	cfg = geom(256, 2, 64, UARCH_REPL_LRU);
	cfg.classify = 1;
	c = uarch_cache_new(&cfg, 1);
	for (uint64_t a = 0; a < 8 * 64; a += 64)
		assert_int_equal(acc(c, a, 0).miss_class, UARCH_MISS_COMPULSORY);
	for (int round = 0; round < 2; round++)
		for (uint64_t a = 0; a < 8 * 64; a += 64)
			assert_int_equal(acc(c, a, 0).miss_class, UARCH_MISS_CAPACITY);
	uarch_cache_free(c);

	/* a write miss that does not allocate leaves the line unseen */
	cfg = geom(256, 1, 64, UARCH_REPL_LRU);
	cfg.classify = 1;
	cfg.write = UARCH_WT_NOALLOC;
	c = uarch_cache_new(&cfg, 1);
	assert_int_equal(acc(c, 0, 1).miss_class, UARCH_MISS_COMPULSORY);
	assert_int_equal(acc(c, 0, 0).miss_class, UARCH_MISS_COMPULSORY);
	assert_int_equal(acc(c, 0, 1).miss_class, UARCH_HIT);
	uarch_cache_free(c);
}

/* Reference model for classification: the set of lines ever filled and a
 * fully associative LRU list, kept the slow obvious way. */
struct ref {
	uint64_t *seen, *lru;
	size_t nseen, nlru, cap;
};

static uint8_t ref_access(struct ref *m, uint64_t line, int real_hit)
{
	size_t i;
	int before = 0, in_fa = 0;

	for (i = 0; i < m->nseen; i++)
		before |= m->seen[i] == line;
	if (!before)
		m->seen[m->nseen++] = line;
	for (i = 0; i < m->nlru; i++)
		if (m->lru[i] == line)
			break;
	if (i < m->nlru) {
		in_fa = 1;
		memmove(m->lru + 1, m->lru, i * sizeof(*m->lru));
	} else {
		if (m->nlru < m->cap)
			m->nlru++;
		memmove(m->lru + 1, m->lru, (m->nlru - 1) * sizeof(*m->lru));
	}
	m->lru[0] = line;
	if (real_hit)
		return UARCH_HIT;
	if (!before)
		return UARCH_MISS_COMPULSORY;
	return in_fa ? UARCH_MISS_CONFLICT : UARCH_MISS_CAPACITY;
}

/* Random references against the reference model: exercises the shadow's
 * hash deletions and LRU list over many evictions. */
static void test_classes_vs_reference(void **state)
{
	struct uarch_cache_cfg cfg = geom(64 * 64, 4, 64, UARCH_REPL_LRU);
	struct uarch_cache *c;
	struct ref m = { 0 };
	uint64_t x = 88172645463325252ull;
	int n[4] = { 0 };

	(void)state;
	cfg.classify = 1;
	c = uarch_cache_new(&cfg, 1);
	m.cap = 64;
	m.seen = calloc(4096, sizeof(*m.seen));
	m.lru = calloc(64, sizeof(*m.lru));
	for (int i = 0; i < 50000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* mostly a hot region that fits, sometimes a wide one */
		uint64_t line = (x & 0x300) ? (x >> 20) % 80 : (x >> 20) % 1500;
		struct uarch_cache_res r = acc(c, line * 64 + (x & 63), 0);
		uint8_t want = ref_access(&m, line, r.hit);
		assert_int_equal(r.miss_class, want);
		n[want]++;
	}
	/* the pattern produces every class */
	assert_true(n[0] && n[1] && n[2] && n[3]);
	free(m.seen);
	free(m.lru);
	uarch_cache_free(c);
}

/* Aliasing (cfg.alias): lines alike in the low address bits the tag
 * compares cannot both be present, free ways or not.  8 KB, 4-way, 64-byte
 * lines (32 sets, 2 KB a way), alias 16 (bits 15:6): lines 64 KB apart
 * drop each other, lines 4 KB apart (the same set) do not.  A second
 * address space (UARCH_SPACE_BIT) aliases only in shared context mode.  A
 * write that does not allocate drops its alias too. */
static void test_alias(void **state)
{
	const uint64_t a = 0x100000, b = a + 0x10000, c = a + 0x1000;
	struct uarch_cache_cfg cfg = geom(8192, 4, 64, UARCH_REPL_LRU);
	struct uarch_cache *k;
	struct uarch_cache_res r;

	(void)state;
	cfg.alias = 16;
	k = uarch_cache_new(&cfg, 1);
	assert_false(acc(k, a, 0).alias);
	r = acc(k, b, 0);
	assert_false(r.hit);
	assert_true(r.alias && r.evicted);
	assert_int_equal(r.victim, a);
	assert_false(uarch_cache_probe(k, a));
	assert_true(acc(k, a, 0).alias); /* and back: a ping-pong of misses */
	r = acc(k, c, 0);
	assert_false(r.alias || r.evicted);
	assert_true(uarch_cache_probe(k, a) && uarch_cache_probe(k, c));
	assert_true(hit(k, a));
	assert_false(acc(k, a | UARCH_SPACE_BIT, 0).alias); /* adaptive */
	assert_true(uarch_cache_probe(k, a));
	uarch_cache_free(k);

	cfg.context = UARCH_CTX_SHARED;
	cfg.write = UARCH_WT_NOALLOC;
	k = uarch_cache_new(&cfg, 1);
	hit(k, a);
	assert_true(acc(k, a | UARCH_SPACE_BIT, 0).alias);
	assert_false(uarch_cache_probe(k, a));
	assert_false(uarch_cache_access_present(k, a, 1, &r));
	assert_true(r.alias); /* the write missed, and its alias went */
	assert_false(uarch_cache_probe(k, a | UARCH_SPACE_BIT));
	uarch_cache_free(k);

	cfg.alias = 0; /* whole tags: all three stay */
	k = uarch_cache_new(&cfg, 1);
	hit(k, a);
	hit(k, b);
	hit(k, a | UARCH_SPACE_BIT);
	assert_true(hit(k, a) && hit(k, b) && hit(k, a | UARCH_SPACE_BIT));
	uarch_cache_free(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lru_order),
		cmocka_unit_test(test_mru_hit),
		cmocka_unit_test(test_access_present),
		cmocka_unit_test(test_direct_mapped_conflict),
		cmocka_unit_test(test_round_robin),
		cmocka_unit_test(test_first_way_not_lru),
		cmocka_unit_test(test_random_deterministic),
		cmocka_unit_test(test_sectored),
		cmocka_unit_test(test_write_back_vs_through),
		cmocka_unit_test(test_no_allocate),
		cmocka_unit_test(test_fully_associative),
		cmocka_unit_test(test_non_pow2_sets),
		cmocka_unit_test(test_probe_invalidate),
		cmocka_unit_test(test_bad_config),
		cmocka_unit_test(test_miss_classes),
		cmocka_unit_test(test_classes_vs_reference),
		cmocka_unit_test(test_alias),
	};
	return cmocka_run_group_tests_name("uarch_cache", tests, NULL, NULL);
}
