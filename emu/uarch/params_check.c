/* params_check.c — is a machine description one the timing model can
 * build?  Sizes must divide into whole sets of whole lines; every
 * latency and width must be at least one; levels must nest (no L3 without
 * an L2, no second-level TLB without a first).  Set counts need not be
 * powers of two: the cache, TLB and predictor tables index by modulo when
 * they are not; lines, sectors and pages must be (addresses are shifted).  The first problem found is
 * reported as one line naming the keys involved. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "params.h"

static const char *const cache_key[UARCH_NCACHE] = { "l1i", "l1d", "l2", "l3", "l4", "mini" };
static const char *const tlb_key[UARCH_NTLB] = { "itlb", "dtlb", "itlb2", "dtlb2" };
static const char *const uclass_key[UARCH_NUCLASS] = {
	"int",	"shift", "imul", "idiv", "branch", "load",     "sta",	  "std",
	"fadd", "fmul",	 "fdiv", "fmov", "simd",   "simd_mul", "complex",
};

static int fail(char *err, size_t errsz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;
	if (err && errsz) {
		va_start(ap, fmt);
		vsnprintf(err, errsz, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* Ways a lookup searches one by one: a set of more (a large fully
 * associative structure) would make every miss a long search. */
#define MAX_WAYS 65536

/* Whether structure k's sets have ways ways (assoc = its assoc key's
 * value, 0 for fully associative) more than MAX_WAYS: -1 and why. */
static int too_many_ways(char *err, size_t errsz, const char *k, const char *assoc_key,
			 uint64_t assoc, uint64_t ways)
{
	if (ways <= MAX_WAYS)
		return 0;
	return fail(err, errsz,
		    "%s: %" PRIu64 " ways%s are more than the %u a lookup searches; set %s", k,
		    ways, assoc ? "" : " (fully associative)", MAX_WAYS, assoc_key);
}

static int check_cache(const struct uarch_machine *m, int i, char *err, size_t errsz)
{
	const struct uarch_cache_cfg *c = &m->cache[i];
	const char *k = cache_key[i];

	if (!c->size)
		return 0;
	if (!pow2(c->line) || c->line < 4)
		return fail(err, errsz, "%s.line %" PRIu32 " is not a power of two of at least 4",
			    k, c->line);
	if (!pow2(c->sector) || c->sector > c->line)
		return fail(err, errsz,
			    "%s.sector %" PRIu32 " does not divide %s.line %" PRIu32
			    " (sector = line when not sectored)",
			    k, c->sector, k, c->line);
	if (c->line / c->sector > 32)
		return fail(err, errsz, "%s: more than 32 sectors per line (%s.line/%s.sector)", k,
			    k, k);
	if (c->size % c->line)
		return fail(err, errsz, "%s.size %" PRIu32 " is not a multiple of %s.line %" PRIu32,
			    k, c->size, k, c->line);
	if (c->assoc) {
		uint64_t way = (uint64_t)c->assoc * c->line;
		if (c->size % way)
			return fail(err, errsz,
				    "%s.size %" PRIu32
				    " is not a multiple of %s.assoc*%s.line (%" PRIu32 "*%" PRIu32
				    "=%" PRIu64 ")",
				    k, c->size, k, k, c->assoc, c->line, way);
	}
	{
		char key[16];
		snprintf(key, sizeof(key), "%s.assoc", k);
		if (too_many_ways(err, errsz, k, key, c->assoc,
				  c->assoc ? c->assoc : c->size / c->line) < 0)
			return -1;
	}
	if (c->repl > UARCH_REPL_RANDOM || c->write > UARCH_WT_NOALLOC ||
	    c->context > UARCH_CTX_SHARED)
		return fail(err, errsz, "%s: bad policy or write value", k);
	if (c->inclusive > 1 || c->classify > 1)
		return fail(err, errsz, "%s.inclusive and %s.classify are 0 or 1", k, k);
	if (c->alias) {
		/* lines alike in the alias bits must share a set */
		uint64_t sets = c->assoc ? c->size / ((uint64_t)c->assoc * c->line) : 1;
		if ((1ull << c->alias) < sets * c->line || c->alias > 47)
			return fail(err, errsz,
				    "%s.alias %u must cover the set index and line offset (at "
				    "least %u bits) and be at most 47",
				    k, (unsigned)c->alias,
				    (unsigned)__builtin_ctzll(sets * c->line));
	}
	if (!c->latency)
		return fail(err, errsz, "%s.latency must be at least 1", k);
	if (!c->ports)
		return fail(err, errsz, "%s.ports must be at least 1", k);
	/* (a level's width times the lines that cross it from the level
	 * above: the first levels have none above) */
	if (c->width && (i == UARCH_L1I || i == UARCH_L1D || i == UARCH_MINI))
		return fail(err, errsz, "%s.width must be 0: only a level below the first has one",
			    k);
	return 0;
}

/* Lines grow (or stay) on the way down: a level fills whole lines of the
 * level above it. */
static int check_hierarchy(const struct uarch_machine *m, char *err, size_t errsz)
{
	static const int chain[] = { UARCH_L2, UARCH_L3, UARCH_L4 };
	int below = -1; /* first unified level present */

	if (!m->cache[UARCH_L1I].size || !m->cache[UARCH_L1D].size)
		return fail(
			err, errsz,
			"l1i.size and l1d.size must not be 0 (the model needs both first-level caches)");
	for (int j = 0; j < 3; j++) {
		int lv = chain[j];
		if (m->cache[lv].size && j > 0 && !m->cache[chain[j - 1]].size)
			return fail(err, errsz, "%s is present but %s is absent (%s.size=0)",
				    cache_key[lv], cache_key[chain[j - 1]],
				    cache_key[chain[j - 1]]);
		if (m->cache[lv].size && below < 0)
			below = lv;
	}
	for (int j = 1; j < 3; j++) {
		int lv = chain[j], up = chain[j - 1];
		if (m->cache[lv].size && m->cache[lv].line < m->cache[up].line)
			return fail(err, errsz,
				    "%s.line %" PRIu32 " is smaller than %s.line %" PRIu32,
				    cache_key[lv], m->cache[lv].line, cache_key[up],
				    m->cache[up].line);
	}
	if (below >= 0) {
		static const int top[] = { UARCH_L1I, UARCH_L1D, UARCH_MINI };
		for (int j = 0; j < 3; j++) {
			int lv = top[j];
			if (!m->cache[lv].size)
				continue;
			if (m->cache[below].line < m->cache[lv].line)
				return fail(err, errsz,
					    "%s.line %" PRIu32 " is smaller than %s.line %" PRIu32,
					    cache_key[below], m->cache[below].line, cache_key[lv],
					    m->cache[lv].line);
		}
	}
	return 0;
}

static int check_tlb(const struct uarch_machine *m, int i, char *err, size_t errsz)
{
	const struct uarch_tlb_cfg *t = &m->tlb[i];
	const char *k = tlb_key[i];

	if (!t->entries)
		return 0;
	if ((i == UARCH_ITLB2 && !m->tlb[UARCH_ITLB].entries) ||
	    (i == UARCH_DTLB2 && !m->tlb[UARCH_DTLB].entries))
		return fail(err, errsz, "%s is present but %s is absent (%s.entries=0)", k,
			    tlb_key[i - 2], tlb_key[i - 2]);
	if (t->assoc && t->entries % t->assoc)
		return fail(err, errsz,
			    "%s.entries %" PRIu32 " is not a multiple of %s.assoc %" PRIu32, k,
			    t->entries, k, t->assoc);
	{
		char key[16];
		snprintf(key, sizeof(key), "%s.assoc", k);
		if (too_many_ways(err, errsz, k, key, t->assoc, t->assoc ? t->assoc : t->entries) <
		    0)
			return -1;
	}
	if (!pow2(t->page) || t->page < 4096)
		return fail(err, errsz,
			    "%s.page %" PRIu32 " is not a power of two of at least 4096", k,
			    t->page);
	if (t->repl > UARCH_REPL_RANDOM)
		return fail(err, errsz, "%s: bad policy value", k);
	return 0;
}

static int check_bp(const struct uarch_bp_cfg *b, char *err, size_t errsz)
{
	switch (b->kind) {
	case UARCH_BP_STATIC:
		break;
	case UARCH_BP_GSHARE:
		if (!b->ghist)
			return fail(err, errsz, "bp.ghist must be at least 1 for gshare");
		/* fall through */
	case UARCH_BP_BIMODAL:
		if (!b->pht)
			return fail(err, errsz, "bp.pht must be at least 1 for %s",
				    b->kind == UARCH_BP_GSHARE ? "gshare" : "bimodal");
		break;
	case UARCH_BP_TOURNAMENT:
		if (!b->pht || !b->ghist || !b->choice)
			return fail(
				err, errsz,
				"bp.pht, bp.ghist and bp.choice must be at least 1 for tournament");
		if (!b->lhist || !b->lbits || !b->lpht)
			return fail(
				err, errsz,
				"bp.lhist, bp.lbits and bp.lpht must be at least 1 for tournament");
		break;
	default:
		return fail(err, errsz, "bp.kind %u is not a predictor kind", b->kind);
	}
	if (b->ghist > 32)
		return fail(err, errsz, "bp.ghist %u is more than 32 bits", b->ghist);
	if (b->lbits > 16)
		return fail(err, errsz, "bp.lbits %u is more than 16 bits", b->lbits);
	if (b->btb && b->btb_assoc && (b->btb_assoc > b->btb || b->btb % b->btb_assoc))
		return fail(err, errsz,
			    "bp.btb %" PRIu32 " is not a multiple of bp.btb_assoc %" PRIu32, b->btb,
			    b->btb_assoc);
	if (too_many_ways(err, errsz, "bp.btb", "bp.btb_assoc", b->btb_assoc,
			  b->btb_assoc ? b->btb_assoc : b->btb) < 0)
		return -1;
	return 0;
}

static int check_core(const struct uarch_core_cfg *c, char *err, size_t errsz)
{
	if (c->ooo > 1 || c->replay > 1)
		return fail(err, errsz, "core.ooo and core.replay are 0 or 1");
	if (c->threads < 1 || c->threads > 2)
		return fail(err, errsz, "core.threads %u must be 1 or 2", c->threads);
	if (!c->fetch || !c->issue || !c->retire || !c->depth)
		return fail(
			err, errsz,
			"core.fetch, core.issue, core.retire and core.depth must be at least 1");
	if (c->rob < c->threads || c->lq < c->threads || c->sq < c->threads || c->iq < c->threads)
		return fail(
			err, errsz,
			"core.rob, core.iq, core.lq and core.sq must hold at least one entry per thread");
	if (c->fq && c->fq < c->threads)
		return fail(err, errsz,
			    "core.fq must hold at least one entry per thread (or be 0: one queue)");
	if (c->replay && !c->ooo)
		return fail(err, errsz,
			    "core.replay needs core.ooo=1 (replay is an out-of-order scheduler's)");
	for (int u = 0; u < UARCH_NUCLASS; u++) {
		if (!c->lat[u])
			return fail(err, errsz, "core.lat.%s must be at least 1", uclass_key[u]);
		if (!c->units[u])
			return fail(err, errsz, "core.units.%s must be at least 1", uclass_key[u]);
		if (!c->occupy[u])
			return fail(err, errsz, "core.occupy.%s must be at least 1", uclass_key[u]);
	}
	if (!c->mhz)
		return fail(err, errsz, "core.mhz must be at least 1");
	return 0;
}

static int check_mem(const struct uarch_machine *mach, char *err, size_t errsz)
{
	const struct uarch_mem_cfg *m = &mach->mem;

	if (!m->mshr)
		return fail(err, errsz, "mem.mshr must be at least 1");
	if (!m->latency)
		return fail(err, errsz, "mem.latency must be at least 1");
	if (!pow2(m->bus_width))
		return fail(err, errsz, "mem.bus_width %u is not a power of two", m->bus_width);
	if (m->wbuf_line && !pow2(m->wbuf_line))
		return fail(err, errsz, "mem.wbuf_line %u is not 0 or a power of two",
			    m->wbuf_line);
	if (!m->bus_ratio || !m->pump || !m->addr_cycles)
		return fail(err, errsz,
			    "mem.bus_ratio, mem.pump and mem.addr_cycles must be at least 1");
	/* the prefetchers fill a level below the first, which the first
	 * level's accesses wait for while a fill is in flight */
	if ((m->pf_streams || m->pf_adjacent) && !mach->cache[UARCH_L2].size &&
	    !mach->cache[UARCH_L3].size && !mach->cache[UARCH_L4].size)
		return fail(err, errsz,
			    "mem.pf_streams and mem.pf_adjacent need a cache level below l1d");
	/* a stream reads sectors inside a 4 KB region */
	for (int k = UARCH_L4; m->pf_streams && k >= UARCH_L2; k--) {
		const struct uarch_cache_cfg *c = &mach->cache[k];
		unsigned sector = c->sector ? c->sector : c->line;
		if (!c->size)
			continue;
		if (sector > 4096)
			return fail(
				err, errsz,
				"mem.pf_streams needs a last-level sector of at most 4096 bytes "
				"(the region a stream stays in)");
		break;
	}
	return 0;
}

int uarch_params_check(const struct uarch_machine *m, char *err, size_t errsz)
{
	if (err && errsz)
		err[0] = 0;
	if (m->l1i_is_tc > 1)
		return fail(err, errsz, "l1i.tc is 0 or 1");
	if (check_core(&m->core, err, errsz) < 0 || check_bp(&m->bp, err, errsz) < 0)
		return -1;
	for (int i = 0; i < UARCH_NCACHE; i++)
		if (check_cache(m, i, err, errsz) < 0)
			return -1;
	if (check_hierarchy(m, err, errsz) < 0)
		return -1;
	for (int i = 0; i < UARCH_NTLB; i++)
		if (check_tlb(m, i, err, errsz) < 0)
			return -1;
	return check_mem(m, err, errsz);
}
