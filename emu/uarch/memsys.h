/* memsys.h — the memory system behind the core: TLBs, the cache
 * hierarchy, miss-status registers bounding outstanding misses, the
 * front-side bus and memory.  Internal to emu/uarch. */
#ifndef VPMU_UARCH_MEMSYS_H
#define VPMU_UARCH_MEMSYS_H

#include <stdint.h>

#include "cache.h"
#include "cal.h"
#include "events.h"
#include "params.h"
#include "prefetch.h"
#include "tlb.h"

#define UARCH_MAX_MSHR 64
/* Kernel data the syscall cost model touches (a region no guest uses). */
#define UARCH_KERNEL_BASE 0x7f0000000000ull

/* A data-side level as the hierarchy walk uses it (from the machine). */
struct uarch_level {
	struct uarch_cache *c;
	uint16_t acc_ev, miss_ev; /* its own access and miss events (0: none) */
	uint16_t cls_ev;	  /* its first miss-class event when it classifies (0: none) */
	uint16_t latency;
	uint16_t ports;		/* accesses it starts per cycle */
	uint16_t busy;		/* cycles an access holds a port (width) */
	struct uarch_cal *port; /* which cycles its ports are taken */
	uint8_t llc;		/* the last level, and not the first */
	uint8_t l2;		/* the L2 */
	uint16_t rd_hit_ev;	/* L2, L3: its clean read hits' event, the modified ones' next */
	/* L3: its references by kind, hit then miss each (load, fetch, store,
	 * write-back: UARCH_EV_L3_LOAD_HIT on), and its replacements (0: none) */
	uint16_t kind_ev, repl_ev;
	uint8_t wb_alloc;  /* write-back, write-allocate: a written-back line stays */
	uint8_t inclusive; /* holds every line of the levels above: a victim leaves them too */
	unsigned line;	   /* bytes */
	unsigned sector;   /* bytes (the line when not sectored) */
};

struct uarch_memsys {
	const struct uarch_machine *m;
	struct uarch_cache *c[UARCH_NCACHE];
	struct uarch_tlb *t[UARCH_NTLB];
	int ndata; /* data-side levels in order: l1d, l2, l3, l4 present */
	int order[UARCH_NCACHE];
	struct uarch_level lv[UARCH_NCACHE]; /* lv[k] is level order[k] */
	/* the first data level's write policy, as stores use it, and whether
	 * it classifies misses */
	uint8_t st_through, st_alloc, l1_classify;
	struct uarch_cal *port; /* [UARCH_NCACHE]: each level's ports, by cache id */
	unsigned l1i_ports;
	uint16_t l1i_cls_ev; /* the L1I's first miss-class event when it classifies (0: none) */
	uint16_t st_cls_ev;  /* the L1D's first store-miss-class event when it classifies */
	uint8_t l1_class;    /* enum uarch_miss of the last first-level access hierarchy() made */
	uint64_t port_at;    /* the cycle hierarchy() took a port of its first level (below L1D) */
	uint64_t mshr[UARCH_MAX_MSHR]; /* cycle each outstanding miss completes */
	uint64_t bus_free;	       /* first cycle the data bus is idle */
	uint8_t walking;	       /* the levels walked now serve a page walk */
	/* The line (sector) the last L1D access touched: it is the most recently used
	 * of its set, so another load of it hits and changes no state. */
	uint64_t l1_last;
	/* Likewise the page each first-level TLB translated last. */
	uint64_t tlb_last[UARCH_NTLB];
	/* log2 of the L1D sector (its line when not sectored) and page sizes */
	unsigned l1_shift, tlb_shift[UARCH_NTLB];
	struct uarch_counts *cnt;
	struct uarch_sigbuf *sig; /* signals for a PMU (NULL: none listens) */
	/* What the last uarch_mem_load or uarch_mem_store did, for events
	 * the pipeline counts when the µop retires. */
	uint8_t dtlb_missed; /* the first-level data TLB missed */
	uint8_t itlb_missed; /* the last uarch_mem_fetch missed the first-level ITLB */
	uint8_t l1i_missed;  /* the last uarch_mem_fetch missed the instruction cache */
	uint8_t l2_missed;   /* a line of it missed the second data level */
	uint8_t ifetch;	     /* the levels walked now serve an instruction fetch */
	/* where the last uarch_mem_load found its data (model.h UARCH_DSRC_*) */
	uint8_t ld_dsrc;
	/* the last uarch_mem_store wrote below the first level: to the next
	 * level (st_below), or over the bus as a partial write (st_bus) */
	uint8_t st_below, st_bus;
	/* A first-level TLB miss of the last translation through that TLB
	 * went past the second level to the page walker (valid when
	 * dtlb_missed or itlb_missed is set). */
	uint8_t dtlb_walked, itlb_walked;
	uint8_t pf_on; /* the prefetcher or adjacent-line fetches read anything */
	/* the hardware data prefetcher (mem.pf_streams): last, being large,
	 * away from what every load reads */
	struct uarch_pf pf;
};

/* Who asks, for event attribution. */
struct uarch_req {
	int th, kernel, spec;
};

int uarch_memsys_init(struct uarch_memsys *ms, const struct uarch_machine *m,
		      struct uarch_counts *cnt, uint64_t seed);
void uarch_memsys_free(struct uarch_memsys *ms);

/* The part of uarch_mem_load() that is not inline: the translation, then
 * each line from the one holding addr to the one holding byte last. */
uint64_t uarch_mem_load_lines(struct uarch_memsys *ms, const struct uarch_req *r, uint64_t addr,
			      uint64_t last, uint64_t issue, int *l1miss);
/* A retired store leaving the write buffer at cycle now: it writes the
 * first level through one of its ports (and, write-through, the next
 * level through one of its), fetching the line first on a write-allocate
 * miss.  Returns the cycle the write is done and its write-buffer entry
 * free: the next level accepted it (write-through, or a miss not
 * allocated), the line arrived (an allocating miss), or the cycle after
 * the first level took it.  With carried, the store coalesced in the write
 * buffer into a write below the first level that is already on its way:
 * the first level is written, nothing below. */
uint64_t uarch_mem_store(struct uarch_memsys *ms, const struct uarch_req *r, uint64_t addr,
			 unsigned size, uint64_t now, int carried);
/* A partial bus write (st_bus) done at cycle at grew from had to has bytes
 * by coalescing: the bus carries the extra data clocks. */
void uarch_mem_bus_grow(struct uarch_memsys *ms, const struct uarch_req *r, uint64_t at,
			unsigned had, unsigned has);
/* An instruction fetch of the line holding addr at cycle now: returns the
 * cycle its bytes are available. */
uint64_t uarch_mem_fetch(struct uarch_memsys *ms, const struct uarch_req *r, uint64_t addr,
			 uint64_t now);
/* Translations changed: drop every TLB's contents. */
void uarch_mem_flush_tlbs(struct uarch_memsys *ms);
/* I/O of n bytes moved by the kernel at cycle now (bus I/O transactions). */
void uarch_mem_io(struct uarch_memsys *ms, const struct uarch_req *r, uint64_t addr, uint64_t n,
		  int out, uint64_t now);

/* Count n events ev of r at cycle (and pass them on as a signal when a
 * PMU listens). */
static inline void uarch_count(struct uarch_memsys *ms, const struct uarch_req *r, unsigned ev,
			       uint64_t n, uint64_t cycle)
{
	ms->cnt->n[ev][r->th][r->kernel] += n;
	if (ms->sig && ms->sig->want[ev])
		uarch_sig_push(ms->sig, ev, r->th, r->kernel, n, cycle, 1);
}

/* One event ev in every cycle of [cycle, cycle + dur): an occupancy. */
static inline void uarch_count_dur(struct uarch_memsys *ms, const struct uarch_req *r, unsigned ev,
				   uint64_t cycle, uint64_t dur)
{
	ms->cnt->n[ev][r->th][r->kernel] += dur;
	if (dur && ms->sig && ms->sig->want[ev])
		uarch_sig_push(ms->sig, ev, r->th, r->kernel, 1, cycle, dur);
}

/* Whether addr's page hits the first-level data TLB without a search (its
 * most recently used page, or one its memo finds), the hit recorded as
 * translate() records it; else nothing changed. */
static inline __attribute__((always_inline)) int uarch_dtlb_quick_hit(struct uarch_memsys *ms,
								      uint64_t addr)
{
	uint64_t page = addr >> ms->tlb_shift[UARCH_DTLB];

	if (!ms->t[UARCH_DTLB] || page == ms->tlb_last[UARCH_DTLB])
		return 1;
	if (!uarch_tlb_hit(ms->t[UARCH_DTLB], addr))
		return 0;
	ms->tlb_last[UARCH_DTLB] = page;
	return 1;
}

/* A data load of size bytes at addr issued at cycle now (it takes a port of
 * the first level, then of each level it reaches): returns the cycle the
 * data is available.  *l1miss says whether the first level missed.  Inline
 * where it finds the line again, or in the first way of its set (the
 * model's loads mostly do). */
static inline __attribute__((always_inline)) uint64_t uarch_mem_load(struct uarch_memsys *ms,
								     const struct uarch_req *r,
								     uint64_t addr, unsigned size,
								     uint64_t now, int *l1miss)
{
	uint64_t last = addr + (size ? size : 1) - 1;

	*l1miss = 0;
	ms->dtlb_missed = ms->l2_missed = 0;
	ms->ld_dsrc = 1; /* the first level, unless a line comes from further */
	if (ms->ndata)
		now = uarch_cal_take(ms->lv[0].port, now, ms->lv[0].ports);
	if (ms->ndata && !((addr ^ last) >> ms->l1_shift)) {
		/* one line (a wrapping load is two) */
		uint64_t line = addr >> ms->l1_shift;

		if (line == ms->l1_last &&
		    (!ms->t[UARCH_DTLB] ||
		     addr >> ms->tlb_shift[UARCH_DTLB] == ms->tlb_last[UARCH_DTLB]))
			return now + ms->lv[0].latency; /* same line again */
		/* a translation and a first-way hit that need no call: what
		 * uarch_mem_load_lines() finds, without its walk (a quick translation
		 * left for it is one it repeats without a change) */
		if (uarch_dtlb_quick_hit(ms, addr) &&
		    uarch_cache_mru_hit(ms->lv[0].c, line << ms->l1_shift)) {
			ms->l1_last = line;
			return now + ms->lv[0].latency;
		}
	}
	return uarch_mem_load_lines(ms, r, addr, last, now, l1miss);
}

#endif
