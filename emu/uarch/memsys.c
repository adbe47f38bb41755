/* memsys.c — TLBs, the cache hierarchy, outstanding misses, the bus and
 * memory.
 *
 * Latency convention: a level's configured latency is the load-to-use
 * latency of an access that hits there (so a pointer chase shows it
 * directly); memory's is the latency of an access that misses every level.
 * Queuing for miss-status registers and bus bandwidth comes on top.
 */
#include <stdlib.h>
#include <string.h>

#include "memsys.h"
#include "mem.h"

/* Synthetic physical region for page-table entries: the walk's accesses go
 * through the caches like any data (4-level x86-64 tables, 8-byte entries). */
#define PT_BASE 0x7e0000000000ull

static inline uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

void uarch_mem_flush_tlbs(struct uarch_memsys *ms)
{
	for (int k = 0; k < UARCH_NTLB; k++) {
		if (ms->t[k])
			uarch_tlb_flush(ms->t[k]);
		ms->tlb_last[k] = ~0ull;
	}
}

/* The first miss-class event of cache id (events.h) if it classifies. */
static uint16_t cls_event(const struct uarch_cache_cfg *cfg, int id)
{
	int ev = uarch_event_miss_class(id);

	return cfg->classify && ev > 0 ? (uint16_t)ev : 0;
}

/* Count a miss of class cls (enum uarch_miss) at a level whose first
 * miss-class event is ev (0: it does not classify). */
static inline void count_class(struct uarch_memsys *ms, const struct uarch_req *r, unsigned ev,
			       uint8_t cls, uint64_t t)
{
	if (ev && cls != UARCH_HIT)
		uarch_count(ms, r, ev + cls - UARCH_MISS_COMPULSORY, 1, t);
}

_Static_assert(UARCH_EV_L2_RD_HIT_DIRTY == UARCH_EV_L2_RD_HIT_CLEAN + 1 &&
		       UARCH_EV_L3_RD_HIT_DIRTY == UARCH_EV_L3_RD_HIT_CLEAN + 1,
	       "a level's modified read hits follow its clean ones");

/* Cycles an access to a level (cfg) holds one of its ports: the line of
 * the level above (id above; none: one cycle) over its data path. */
static uint16_t port_busy(const struct uarch_machine *m, int above,
			  const struct uarch_cache_cfg *cfg)
{
	unsigned line = above >= 0 ? m->cache[above].line : 0;

	if (!cfg->width || line <= cfg->width)
		return 1;
	return (uint16_t)((line + cfg->width - 1) / cfg->width);
}

int uarch_memsys_init(struct uarch_memsys *ms, const struct uarch_machine *m,
		      struct uarch_counts *cnt, uint64_t seed)
{
	static const int data_levels[] = { UARCH_L1D, UARCH_L2, UARCH_L3, UARCH_L4 };

	memset(ms, 0, sizeof(*ms));
	ms->l1_last = ~0ull;
	for (int k = 0; k < UARCH_NTLB; k++)
		ms->tlb_last[k] = ~0ull;
	ms->m = m;
	ms->cnt = cnt;
	ms->port = uarch_calloc(UARCH_NCACHE, sizeof(*ms->port));
	if (!ms->port)
		return -1;
	for (int k = 0; k < UARCH_NCACHE; k++) {
		if (!m->cache[k].size)
			continue;
		ms->c[k] = uarch_cache_new(&m->cache[k], seed + (uint64_t)k);
		if (!ms->c[k])
			return -1;
	}
	for (size_t k = 0; k < sizeof(data_levels) / sizeof(data_levels[0]); k++)
		if (ms->c[data_levels[k]])
			ms->order[ms->ndata++] = data_levels[k];
	for (int k = 0; k < ms->ndata; k++) {
		int lvl = ms->order[k];
		const struct uarch_cache_cfg *cfg = &m->cache[lvl];

		ms->lv[k] = (struct uarch_level){
			.c = ms->c[lvl],
			.acc_ev = lvl == UARCH_L2 ? UARCH_EV_L2_ACCESS :
				  lvl == UARCH_L3 ? UARCH_EV_L3_ACCESS :
						    0,
			.miss_ev = lvl == UARCH_L2 ? UARCH_EV_L2_MISS :
				   lvl == UARCH_L3 ? UARCH_EV_L3_MISS :
						     0,
			.cls_ev = cls_event(cfg, lvl),
			.latency = cfg->latency,
			.ports = cfg->ports ? cfg->ports : 1,
			.busy = port_busy(m, k ? ms->order[k - 1] : -1, cfg),
			.port = &ms->port[lvl],
			.llc = k == ms->ndata - 1 && k > 0,
			.l2 = lvl == UARCH_L2,
			.rd_hit_ev = lvl == UARCH_L2 ? UARCH_EV_L2_RD_HIT_CLEAN :
				     lvl == UARCH_L3 ? UARCH_EV_L3_RD_HIT_CLEAN :
						       0,
			.kind_ev = lvl == UARCH_L3 ? UARCH_EV_L3_LOAD_HIT : 0,
			.repl_ev = lvl == UARCH_L3 ? UARCH_EV_L3_REPLACED : 0,
			.wb_alloc = cfg->write == UARCH_WB_ALLOC,
			.line = cfg->line,
			.sector = cfg->sector ? cfg->sector : cfg->line,
			.inclusive = cfg->inclusive,
		};
	}
	if (ms->ndata) {
		uint8_t w = m->cache[ms->order[0]].write;

		ms->st_through = w == UARCH_WT_ALLOC || w == UARCH_WT_NOALLOC;
		ms->l1_classify = m->cache[ms->order[0]].classify;
		ms->st_alloc = w == UARCH_WB_ALLOC || w == UARCH_WT_ALLOC;
	}
	if (ms->ndata) {
		/* L1D is walked a sector at a time: a sector is what hits or
		 * misses (one per line when not sectored) */
		const struct uarch_cache_cfg *l1 = &m->cache[ms->order[0]];
		ms->l1_shift = (unsigned)__builtin_ctz(l1->sector ? l1->sector : l1->line);
	} else {
		ms->l1_shift = 6;
	}
	ms->pf_on = ms->ndata && ((m->mem.pf_streams && m->mem.pf_ahead) || m->mem.pf_adjacent);
	if (ms->ndata)
		uarch_pf_init(&ms->pf, m->mem.pf_streams,
			      (unsigned)__builtin_ctz(ms->lv[ms->ndata - 1].sector),
			      m->mem.pf_trigger, m->mem.pf_ahead);
	ms->l1i_ports = m->cache[UARCH_L1I].ports ? m->cache[UARCH_L1I].ports : 1;
	ms->l1i_cls_ev = cls_event(&m->cache[UARCH_L1I], UARCH_L1I);
	if (ms->ndata && ms->order[0] == UARCH_L1D && ms->l1_classify)
		ms->st_cls_ev = UARCH_EV_L1D_ST_MISS_COMP;
	for (int k = 0; k < UARCH_NTLB; k++) {
		if (!m->tlb[k].entries)
			continue;
		ms->tlb_shift[k] = (unsigned)__builtin_ctz(m->tlb[k].page);
		ms->t[k] = uarch_tlb_new(&m->tlb[k], seed + 17 + (uint64_t)k);
		if (!ms->t[k])
			return -1;
	}
	return 0;
}

void uarch_memsys_free(struct uarch_memsys *ms)
{
	for (int k = 0; k < UARCH_NCACHE; k++)
		uarch_cache_free(ms->c[k]);
	for (int k = 0; k < UARCH_NTLB; k++)
		uarch_tlb_free(ms->t[k]);
	uarch_mfree(ms->port);
}

/* Bus clocks of data that bytes take. */
static uint64_t bus_clocks(const struct uarch_mem_cfg *mc, unsigned bytes)
{
	unsigned per = (unsigned)mc->bus_width * (mc->pump ? mc->pump : 1);

	return (bytes + per - 1) / (per ? per : 1);
}

/* Core cycles the data of bytes holds the bus. */
static uint64_t bus_xfer(const struct uarch_mem_cfg *mc, unsigned bytes)
{
	return bus_clocks(mc, bytes) * (mc->bus_ratio ? mc->bus_ratio : 1);
}

/* Whose data a transaction (its event ev) carries: this processor's
 * writes it drives, its reads it samples, an I/O agent's it does neither
 * (the FSB_DATA_ACTIVITY split of the P4, SDM vol. 3B, appendix A). */
static unsigned data_by(unsigned ev)
{
	switch (ev) {
	case UARCH_EV_BUS_BWL:
	case UARCH_EV_BUS_BWP:
	case UARCH_EV_BUS_IMPLICIT_WB:
		return UARCH_EV_BUS_DATA_DRV;
	case UARCH_EV_BUS_IO:
		return UARCH_EV_BUS_DATA_OTHER;
	default:
		return UARCH_EV_BUS_DATA_OWN;
	}
}

/* A line travels over the bus at cycle now: returns its arrival. */
static uint64_t bus_line(struct uarch_memsys *ms, const struct uarch_req *r, uint64_t ready,
			 unsigned bytes, unsigned ev)
{
	const struct uarch_mem_cfg *mc = &ms->m->mem;
	uint64_t clocks = bus_clocks(mc, bytes), xfer = bus_xfer(mc, bytes);

	/* Wrong-path requests are counted but do not reserve the bus: issued
	 * out of order ahead of the real path, they would push its next-free
	 * time without bound. */
	if (!r->spec) {
		if (ms->bus_free + xfer > ready)
			ready = ms->bus_free + xfer;
		ms->bus_free = ready;
	}
	uarch_count(ms, r, ev, 1, ready);
	uarch_count_dur(ms, r, UARCH_EV_BUS_DATA_CYCLES, ready, clocks);
	uarch_count_dur(ms, r, data_by(ev), ready, clocks);
	uarch_count_dur(ms, r, UARCH_EV_BUS_ADDR_CYCLES, ready, mc->addr_cycles);
	return ready;
}

/* A line fill from memory requested at cycle t, on demand or by the
 * prefetcher (pf). */
static uint64_t from_memory(struct uarch_memsys *ms, const struct uarch_req *r, uint64_t t,
			    unsigned line, int rfo, int pf)
{
	static const uint16_t bus_ev[2][2] = { { UARCH_EV_BUS_BRL, UARCH_EV_BUS_BRIL },
					       { UARCH_EV_PF_BRL, UARCH_EV_PF_BRIL } };
	static const uint16_t lat_ev[2][2] = { { UARCH_EV_MEM_BRL_LAT, UARCH_EV_MEM_BRIL_LAT },
					       { UARCH_EV_MEM_PF_BRL_LAT,
						 UARCH_EV_MEM_PF_BRIL_LAT } };
	uint64_t arrive = bus_line(ms, r, t + ms->m->mem.latency, line, bus_ev[pf][rfo != 0]);

	uarch_count(ms, r, UARCH_EV_MEM_READS, 1, t);
	/* as a signal: one read outstanding in each cycle it waits (and
	 * by kind: the P4's BSQ_ACTIVE_ENTRIES tells them apart) */
	uarch_count_dur(ms, r, UARCH_EV_MEM_READ_LAT, t, arrive - t);
	uarch_count_dur(ms, r, lat_ev[pf][rfo != 0], t, arrive - t);
	return arrive;
}

/* Levels index first to last-1 drop (or, with clean, keep clean) each of
 * their lines inside the line of `line` bytes at addr: 1 if one was
 * modified. */
static int drop_lines(struct uarch_memsys *ms, int first, int last, uint64_t addr, unsigned line,
		      int clean)
{
	int dirty = 0;

	for (int k = first; k < last; k++) {
		struct uarch_cache *c = ms->lv[k].c;
		unsigned step = ms->lv[k].line < line ? ms->lv[k].line : line;

		for (uint64_t a = addr; a < addr + line; a += step)
			dirty |= clean ? uarch_cache_clean(c, a) : uarch_cache_invalidate(c, a);
	}
	if (!clean)
		ms->l1_last = ~0ull; /* the line the last L1 access left may be gone */
	return dirty;
}

static void write_back(struct uarch_memsys *ms, const struct uarch_req *r, int li, uint64_t victim,
		       uint64_t t);

/* Level index k replaced a line (res): an inclusive level takes it from
 * the levels above (instruction side included) too, and a modified copy
 * goes below. */
static void replaced(struct uarch_memsys *ms, const struct uarch_req *r, int k,
		     const struct uarch_cache_res *res, uint64_t t)
{
	const struct uarch_level *lv = &ms->lv[k];
	int dirty = res->dirty;

	if (lv->repl_ev)
		uarch_count(ms, r, lv->repl_ev, 1, t);
	if (k > 0 && lv->inclusive) {
		dirty |= drop_lines(ms, 0, k, res->victim, lv->line, 0);
		if (ms->c[UARCH_L1I]) {
			unsigned step = ms->m->cache[UARCH_L1I].line;
			for (uint64_t a = res->victim; a < res->victim + lv->line; a += step)
				uarch_cache_invalidate(ms->c[UARCH_L1I], a);
		}
	}
	if (dirty)
		write_back(ms, r, k, res->victim, t);
}

/* A port of level lv from the first cycle >= t it is free for an access
 * that moves a line of the level above (line: 1) or only a write's bytes. */
static inline uint64_t take_port(const struct uarch_level *lv, uint64_t t, int line)
{
	if (line && lv->busy > 1)
		return uarch_cal_take_for(lv->port, t, lv->ports, lv->busy);
	return uarch_cal_take(lv->port, t, lv->ports);
}

/* Write a dirty victim of level index li to the next level (or memory). */
static void write_back(struct uarch_memsys *ms, const struct uarch_req *r, int li, uint64_t victim,
		       uint64_t t)
{
	struct uarch_cache_res res;
	for (int k = li + 1; k < ms->ndata; k++) {
		t = take_port(&ms->lv[k], t, 1);
		uarch_cache_access(ms->lv[k].c, victim, 1, &res);
		if (ms->lv[k].kind_ev) /* (write-backs: the fourth kind) */
			uarch_count(ms, r, ms->lv[k].kind_ev + 6u + !res.hit, 1, t);
		if (res.hit)
			return;
		if (li == 0 && ms->lv[k].l2)
			uarch_count(ms, r, UARCH_EV_L2_WB_MISS, 1, t);
		if (res.evicted)
			replaced(ms, r, k, &res, t);
		if (ms->lv[k].wb_alloc)
			return; /* allocated there, dirty */
	}
	uarch_count(ms, r, UARCH_EV_WRITEBACKS, 1, t);
	/* its data crosses the bus from t at the earliest (bus_line() takes
	 * the end of a transfer), and it is outstanding (the P4's
	 * BSQ_ACTIVE_ENTRIES) until then */
	unsigned line = ms->lv[ms->ndata - 1].line;
	uint64_t done = bus_line(ms, r, t + bus_xfer(&ms->m->mem, line), line, UARCH_EV_BUS_BWL);
	uarch_count_dur(ms, r, UARCH_EV_MEM_BWL_LAT, t, done - t);
}

/* Take a miss-status register at cycle t: returns when one is free. */
static uint64_t mshr_take(struct uarch_memsys *ms, uint64_t t, int *slot)
{
	unsigned n = ms->m->mem.mshr;
	if (!n)
		n = 1;
	if (n > UARCH_MAX_MSHR)
		n = UARCH_MAX_MSHR;
	int best = 0;
	for (unsigned k = 0; k < n; k++) {
		if (ms->mshr[k] <= t) {
			*slot = (int)k;
			return t;
		}
		if (ms->mshr[k] < ms->mshr[best])
			best = (int)k;
	}
	*slot = best;
	return ms->mshr[best];
}

/* What an access through the levels does (hierarchy()): a read, a write
 * of its bytes only (written through), or a read for ownership, which
 * moves a line up as a read does and writes it. */
enum { ACC_READ, ACC_WRITE, ACC_RFO };

/* A prefetch of the sector at a into the last level (index k) at cycle
 * t, for ownership or not: the level holds it from now on, its data
 * arrives when the read from memory is done. */
static void pf_read(struct uarch_memsys *ms, const struct uarch_req *r, int k, uint64_t a, int rfo,
		    uint64_t t)
{
	struct uarch_cache_res res;

	uarch_cache_access(ms->lv[k].c, a, 0, &res);
	if (res.evicted)
		replaced(ms, r, k, &res, t);
	uarch_pf_fetched(&ms->pf, a >> ms->pf.shift,
			 from_memory(ms, r, t, ms->lv[k].sector, rfo, 1));
}

/* A demand access at cycle t reached the last level (index k) for addr,
 * missing there or not: the prefetcher fetches the sectors it runs ahead
 * to, each a read from memory (for ownership on a store stream) whose
 * sector the level holds from now and whose data arrives when the read
 * is done.  Wrong-path accesses and page walks do not train it. */
static void prefetch(struct uarch_memsys *ms, const struct uarch_req *r, int k, uint64_t addr,
		     int miss, int rfo, uint64_t t)
{
	uint64_t s;
	int dir;
	unsigned n;

	if (r->spec || ms->walking)
		return;
	/* (≈) no more reads of its own outstanding than the first level
	 * has misses: the P4's bus queue holds demand and prefetch requests
	 * alike, and BSQ_ACTIVE_ENTRIES counts up to 15 of them */
	unsigned limit = ms->m->mem.mshr < UARCH_PF_FILLS ? ms->m->mem.mshr : UARCH_PF_FILLS;
	for (n = uarch_pf_access(&ms->pf, addr, miss, t, limit, &s, &dir); n;
	     n--, s += (uint64_t)dir)
		if (!uarch_cache_holds(ms->lv[k].c, s << ms->pf.shift))
			pf_read(ms, r, k, s << ms->pf.shift, rfo, t);
}

/* A data read at cycle t missed the last level (index k) for addr: the
 * rest of its line is read too, sector by sector, as prefetches (the
 * P4's adjacent cache line prefetch: "each read due to a cache miss
 * fetches a sector, consisting of two adjacent cache lines", IA-32 Intel
 * Architecture Optimization Reference Manual, ch. 1, Table 1-1). */
static void adjacent(struct uarch_memsys *ms, const struct uarch_req *r, int k, uint64_t addr,
		     int rfo, uint64_t t)
{
	const struct uarch_level *lv = &ms->lv[k];
	uint64_t line = addr / lv->line * lv->line, own = addr / lv->sector * lv->sector;

	if (r->spec || ms->walking || ms->ifetch)
		return;
	for (uint64_t a = line; a < line + lv->line; a += lv->sector)
		if (a != own && !uarch_cache_holds(lv->c, a))
			pf_read(ms, r, k, a, rfo, t);
}

/* A hit at the last level (index k) at cycle t for addr (write: ACC_*),
 * its data there at cycle got: later if the prefetch that brought its
 * sector is still in flight. */
static uint64_t pf_hit(struct uarch_memsys *ms, const struct uarch_req *r, int k, uint64_t addr,
		       int write, uint64_t t, uint64_t got)
{
	uint64_t arrive = uarch_pf_pending(&ms->pf, addr, t);

	if (arrive > got) {
		uarch_count(ms, r, UARCH_EV_PF_LATE, 1, t);
		got = arrive;
	}
	prefetch(ms, r, k, addr, 0, write != ACC_READ, t);
	return got;
}

/* Walk the data levels from index first for the line of addr at cycle t
 * (write: ACC_*), each below the first level waiting for a port: returns
 * the cycle the data arrives, counting events and filling levels. */
static uint64_t hierarchy(struct uarch_memsys *ms, const struct uarch_req *r, int first,
			  uint64_t addr, int write, uint64_t t, int *hit_level)
{
	struct uarch_cache_res res;
	int k;

	for (k = first; k < ms->ndata; k++) {
		const struct uarch_level *lv = &ms->lv[k];

		if (k > 0) {
			/* (the first level's port is the caller's to take) */
			t = take_port(lv, t, write != ACC_WRITE);
			if (k == first)
				ms->port_at = t;
		}
		if (lv->acc_ev)
			uarch_count(ms, r, lv->acc_ev, 1, t);
		if (lv->llc)
			uarch_count(ms, r, UARCH_EV_LLC_ACCESS, 1, t);
		uarch_cache_access(lv->c, addr, write != ACC_READ, &res);
		if (lv->kind_ev) /* loads, fetches, stores: kinds 0, 1, 2 */
			uarch_count(ms, r,
				    lv->kind_ev + 2u * (write != ACC_READ ? 2u : ms->ifetch) +
					    !res.hit,
				    1, t);
		if (k == 0) {
			ms->l1_last = addr >> ms->l1_shift;
			ms->l1_class = res.miss_class;
			if (res.alias)
				uarch_count(ms, r, UARCH_EV_L1D_ALIAS, 1, t);
		}
		if (res.evicted)
			replaced(ms, r, k, &res, t);
		if (res.hit) {
			/* by the line's state, modified or not (events.h: the
			 * modified event follows the clean one) */
			if (lv->rd_hit_ev && !write)
				uarch_count(ms, r, lv->rd_hit_ev + (res.modified != 0), 1, t);
			*hit_level = k;
			if (ms->pf_on && k == ms->ndata - 1)
				return pf_hit(ms, r, k, addr, write, t, t + lv->latency);
			return t + lv->latency;
		}
		if (lv->miss_ev)
			uarch_count(ms, r, lv->miss_ev, 1, t);
		if (k > 0) /* (first-level classes: loads count them) */
			count_class(ms, r, lv->cls_ev, res.miss_class, t);
		if (lv->llc)
			uarch_count(ms, r, UARCH_EV_LLC_MISS, 1, t);
	}
	*hit_level = ms->ndata;
	/* a miss fills one sector of the last level (P4: a 64-byte bus
	 * transaction into one half of a 128-byte L2 line) */
	uint64_t got =
		from_memory(ms, r, t, ms->ndata ? ms->lv[ms->ndata - 1].sector : 64, write, 0);
	if (ms->m->mem.pf_adjacent && ms->ndata)
		adjacent(ms, r, ms->ndata - 1, addr, write != ACC_READ, t);
	if (ms->pf.n)
		prefetch(ms, r, ms->ndata - 1, addr, 1, write != ACC_READ, t);
	return got;
}

/* A translation the first-level TLB l1 missed: returns the extra cycles. */
static __attribute__((noinline)) uint64_t translate_miss(struct uarch_memsys *ms,
							 const struct uarch_req *r, int l1, int l2,
							 unsigned ev, uint64_t addr, uint64_t t)
{
	uint64_t extra;
	int lvl;

	uarch_count(ms, r, ev, 1, t);
	if (l1 == UARCH_DTLB)
		ms->dtlb_missed = 1;
	else
		ms->itlb_missed = 1;
	*(l1 == UARCH_DTLB ? &ms->dtlb_walked : &ms->itlb_walked) = 0;
	if (ms->t[l2]) {
		int hit = uarch_tlb_access(ms->t[l2], addr);
		uarch_count(ms, r,
			    l1 == UARCH_DTLB ?
				    (hit ? UARCH_EV_DTLB_L2_XFER : UARCH_EV_DTLB_L2_MISS) :
				    (hit ? UARCH_EV_ITLB_L2_XFER : UARCH_EV_ITLB_L2_MISS),
			    1, t);
		if (hit)
			return ms->m->tlb[l2].walk ? ms->m->tlb[l2].walk : 1;
	}
	*(l1 == UARCH_DTLB ? &ms->dtlb_walked : &ms->itlb_walked) = 1;
	/* page walk: four dependent table reads through the caches, below L1 */
	extra = ms->m->tlb[l1].walk;
	uint64_t vpn = addr >> 12, when = t + extra;
	ms->walking = 1;
	for (int level = 3; level >= 0; level--) {
		uint64_t pte = PT_BASE + ((vpn >> (9 * level)) << 3) + ((uint64_t)level << 36);
		when = hierarchy(ms, r, ms->ndata > 1 ? 1 : 0, pte, ACC_READ, when, &lvl);
	}
	ms->walking = 0;
	return when - t;
}

/* Translate addr through a TLB pair: returns the extra cycles. */
static inline uint64_t translate(struct uarch_memsys *ms, const struct uarch_req *r, int l1, int l2,
				 unsigned ev, uint64_t addr, uint64_t t)
{
	if (!ms->t[l1])
		return 0;
	if (addr >> ms->tlb_shift[l1] == ms->tlb_last[l1]) {
		/* the most recently used page: a hit that changes no order */
		if (l1 == UARCH_ITLB)
			uarch_count(ms, r, UARCH_EV_ITLB_HIT, 1, t);
		return 0;
	}
	ms->tlb_last[l1] = addr >> ms->tlb_shift[l1];
	if (uarch_tlb_access(ms->t[l1], addr)) {
		if (l1 == UARCH_ITLB)
			uarch_count(ms, r, UARCH_EV_ITLB_HIT, 1, t);
		return 0;
	}
	return translate_miss(ms, r, l1, l2, ev, addr, t);
}

/* A line of the current load came from data level lvl (ndata: memory):
 * ld_dsrc keeps the deepest, and the class of the first first-level miss. */
static void ld_source(struct uarch_memsys *ms, int lvl)
{
	unsigned level = lvl >= ms->ndata ? UARCH_DSRC_MEM : (unsigned)lvl + 1;

	if (level > UARCH_DSRC_LEVEL(ms->ld_dsrc))
		ms->ld_dsrc = (uint8_t)((ms->ld_dsrc & 0xf0) | level);
	if (lvl > 0 && !UARCH_DSRC_CLASS(ms->ld_dsrc))
		ms->ld_dsrc |= (uint8_t)(ms->l1_class << 4);
}

uint64_t uarch_mem_load_lines(struct uarch_memsys *ms, const struct uarch_req *r, uint64_t addr,
			      uint64_t last, uint64_t issue, int *l1miss)
{
	unsigned line = 1u << ms->l1_shift;
	uint64_t now =
		issue + translate(ms, r, UARCH_DTLB, UARCH_DTLB2, UARCH_EV_DTLB_MISS, addr, issue);
	uint64_t done = issue, a = addr & ~(uint64_t)(line - 1);
	int lvl;

	if (last < addr)
		last = ~0ull; /* wraps at the top of the address space: stop there */
	for (uint64_t nl = ((last - a) >> ms->l1_shift) + 1; nl; nl--, a += line) {
		uint64_t t = now, got;
		lvl = 0;
		if (ms->ndata && uarch_cache_mru_hit(ms->lv[0].c, a)) {
			/* what hierarchy() would find, without its walk */
			got = t + ms->lv[0].latency;
		} else if (r->spec || (ms->ndata && uarch_cache_holds(ms->lv[0].c, a))) {
			/* (wrong-path loads take no miss-status register either) */
			got = hierarchy(ms, r, 0, a, ACC_READ, t, &lvl);
			*l1miss |= lvl > 0;
			ms->l2_missed |= lvl > 1;
			if (lvl > 0)
				count_class(ms, r, ms->lv[0].cls_ev, ms->l1_class, t);
		} else {
			int slot;
			t = mshr_take(ms, t, &slot);
			if (t > now) /* every fill buffer busy: the load waits for one */
				uarch_count_dur(ms, r, UARCH_EV_STALL_FILLBUF, now, t - now);
			got = hierarchy(ms, r, 0, a, ACC_READ, t, &lvl);
			ms->l2_missed |= lvl > 1;
			if (lvl > 0) {
				*l1miss = 1;
				ms->mshr[slot] = got;
				count_class(ms, r, ms->lv[0].cls_ev, ms->l1_class, t);
			}
		}
		if (got > done)
			done = got;
		ms->l1_last = a >> ms->l1_shift;
		ld_source(ms, lvl);
	}
	return done;
}

uint64_t uarch_mem_store(struct uarch_memsys *ms, const struct uarch_req *r, uint64_t addr,
			 unsigned size, uint64_t now, int carried)
{
	uint64_t last = addr + (size ? size : 1) - 1, done;
	struct uarch_cache_res res;
	int lvl;

	ms->dtlb_missed = ms->l2_missed = ms->st_below = ms->st_bus = 0;
	now += translate(ms, r, UARCH_DTLB, UARCH_DTLB2, UARCH_EV_DTLB_MISS, addr, now);
	if (!ms->ndata)
		return now + 1;
	now = uarch_cal_take(ms->lv[0].port, now, ms->lv[0].ports);
	done = now + 1;
	if (last < addr)
		last = ~0ull;
	for (uint64_t a = addr >> ms->l1_shift << ms->l1_shift,
		      nl = ((last - a) >> ms->l1_shift) + 1;
	     nl; nl--, a += 1u << ms->l1_shift) {
		int below = 0; /* the write goes to the next level (or the bus) */

		ms->l1_last = ~0ull; /* a store may reorder the set (write-back) or not touch L1 */
		int present = uarch_cache_access_present(ms->lv[0].c, a, 1, &res);

		if (present && res.hit) {
			/* a hit leaves the line where a load of it hits and
			 * changes nothing, as after a load (unless a read hit
			 * must update the miss-class shadow) */
			if (!ms->l1_classify)
				ms->l1_last = a >> ms->l1_shift;
		} else {
			/* (present: the line without the sector written, which
			 * that access classified and, allocating, filled;
			 * absent: a line aliasing it may have gone) */
			uarch_count(ms, r, UARCH_EV_L1D_ST_MISS, 1, now);
			if (res.alias) {
				uarch_count(ms, r, UARCH_EV_L1D_ALIAS, 1, now);
				replaced(ms, r, 0, &res, now);
			}
			if (ms->st_alloc) {
				/* read for ownership through the levels below, then write */
				uint64_t got = hierarchy(ms, r, 1, a, ACC_RFO, now, &lvl);
				if (!present) {
					/* (its alias went above: lines alike drop
					 * each other, so there was one at most) */
					uarch_cache_access(ms->lv[0].c, a, 1, &res);
					if (res.evicted)
						replaced(ms, r, 0, &res, now);
				}
				done = max64(done, got);
			} else {
				below = !ms->st_through;
				if (!present)
					res.miss_class =
						ms->st_cls_ev ?
							uarch_cache_miss_class(ms->lv[0].c, a) :
							UARCH_HIT;
			}
			count_class(ms, r, ms->st_cls_ev, res.miss_class, now);
		}
		if ((ms->st_through || below) && !carried) {
			ms->st_below = 1;
			if (ms->ndata > 1) {
				/* posted: done when the next level takes it;
				 * one that misses there first holds a
				 * miss-status register until its line arrives,
				 * as a load's miss does, so stores cannot have
				 * more reads for ownership outstanding than
				 * there are registers */
				uint64_t t = now, got;
				int slot = -1;
				/* (a sector the prefetcher is still reading
				 * is not there yet either) */
				int pend = ms->pf_on && ms->ndata == 2 &&
					   uarch_pf_pending(&ms->pf, a, now);
				if (pend || !uarch_cache_holds(ms->lv[1].c, a))
					t = mshr_take(ms, now, &slot);
				got = hierarchy(ms, r, 1, a, ACC_WRITE, t, &lvl);
				if (slot >= 0 && (lvl > 1 || pend))
					ms->mshr[slot] = got;
				done = max64(done, ms->port_at + 1);
			} else {
				/* the bytes of this line (a rep string store
				 * reports all its iterations as one) */
				uint64_t from = a > addr ? a : addr,
					 to = a + (1u << ms->l1_shift) - 1 < last ?
						      a + (1u << ms->l1_shift) - 1 :
						      last;
				unsigned n = (unsigned)(to - from + 1);
				/* done, and no longer outstanding, when its
				 * bytes have crossed the bus */
				uint64_t crossed = bus_line(ms, r, now + bus_xfer(&ms->m->mem, n),
							    n, UARCH_EV_BUS_BWP);
				uarch_count_dur(ms, r, UARCH_EV_MEM_BWP_LAT, now, crossed - now);
				done = max64(done, crossed);
				ms->st_bus = 1;
			}
		}
	}
	return done;
}

void uarch_mem_bus_grow(struct uarch_memsys *ms, const struct uarch_req *r, uint64_t at,
			unsigned had, unsigned has)
{
	const struct uarch_mem_cfg *mc = &ms->m->mem;
	uint64_t extra = bus_clocks(mc, has) - bus_clocks(mc, had);

	if (!extra)
		return;
	if (!r->spec)
		ms->bus_free = max64(ms->bus_free, at) + bus_xfer(mc, has) - bus_xfer(mc, had);
	uarch_count_dur(ms, r, UARCH_EV_BUS_DATA_CYCLES, at, extra);
	uarch_count_dur(ms, r, UARCH_EV_BUS_DATA_DRV, at, extra); /* a partial write grown */
	/* outstanding while its added bytes cross */
	uarch_count_dur(ms, r, UARCH_EV_MEM_BWP_LAT, at, bus_xfer(mc, has) - bus_xfer(mc, had));
}

uint64_t uarch_mem_fetch(struct uarch_memsys *ms, const struct uarch_req *r, uint64_t addr,
			 uint64_t now)
{
	struct uarch_cache_res res;
	int lvl;

	ms->itlb_missed = ms->l1i_missed = 0;
	now += translate(ms, r, UARCH_ITLB, UARCH_ITLB2, UARCH_EV_ITLB_MISS, addr, now);
	if (!ms->c[UARCH_L1I])
		return now;
	now = uarch_cal_take(&ms->port[UARCH_L1I], now, ms->l1i_ports);
	uarch_count(ms, r, UARCH_EV_L1I_ACCESS, 1, now);
	uarch_cache_access(ms->c[UARCH_L1I], addr, 0, &res);
	if (res.hit)
		return now;
	uarch_count(ms, r, UARCH_EV_L1I_MISS, 1, now);
	count_class(ms, r, ms->l1i_cls_ev, res.miss_class, now);
	ms->l1i_missed = 1;
	/* the rest of the hierarchy is the data side's, below L1D */
	ms->ifetch = 1;
	now = hierarchy(ms, r, ms->ndata > 1 ? 1 : ms->ndata, addr, ACC_READ, now, &lvl);
	ms->ifetch = 0;
	return now;
}

/* An I/O agent's transaction on the line at addr (line bytes, the last
 * level's) snoops every data-side level, each for all of its own lines
 * inside it: a modified copy is supplied on the bus (HITM, an implicit
 * write-back), then kept clean when the agent reads memory, dropped when
 * it writes it. */
static uint64_t snoop(struct uarch_memsys *ms, const struct uarch_req *r, uint64_t addr, int out,
		      unsigned line, uint64_t now)
{
	int dirty = drop_lines(ms, 0, ms->ndata, addr, line, out);

	return dirty ? bus_line(ms, r, now, line, UARCH_EV_BUS_IMPLICIT_WB) : now;
}

/* One line of an I/O agent's transfer (out: the agent reads memory),
 * asked for at cycle now: returns when its data has crossed the bus
 * (bus_line() takes the end of a transfer: after the request, and after
 * the transfers before it). */
static uint64_t io_line(struct uarch_memsys *ms, const struct uarch_req *r, uint64_t now,
			unsigned line, int out)
{
	uint64_t end = bus_line(ms, r, now + bus_xfer(&ms->m->mem, line), line, UARCH_EV_BUS_IO);

	uarch_count(ms, r, out ? UARCH_EV_BUS_IO_RD : UARCH_EV_BUS_IO_WR, 1, end);
	/* outstanding until then (the P4's IOQ_ACTIVE_ENTRIES, OTHER) */
	uarch_count_dur(ms, r, out ? UARCH_EV_MEM_IO_RD_LAT : UARCH_EV_MEM_IO_WR_LAT, now,
			end - now);
	return end;
}

void uarch_mem_io(struct uarch_memsys *ms, const struct uarch_req *r, uint64_t addr, uint64_t n,
		  int out, uint64_t now)
{
	unsigned line = ms->ndata ? ms->m->cache[ms->order[ms->ndata - 1]].line : 64;
	uint64_t first = addr / line * line;

	/* data going out the agent reads from memory, data coming in it
	 * writes, each a full line (BRL or BWL), one after another */
	if (!addr) {
		for (uint64_t done = 0; done < n; done += line)
			now = io_line(ms, r, now, line, out);
		return;
	}
	for (uint64_t a = first; a < addr + n; a += line) {
		now = io_line(ms, r, now, line, out);
		now = snoop(ms, r, a, out, line, now);
	}
}
