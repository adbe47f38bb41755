/* prefetch.c — which sectors the hardware data prefetcher fetches
 * (prefetch.h).
 *
 * IA-32 Intel Architecture Optimization Reference Manual (248966-013):
 * ch. 1 "Hardware Prefetching": started by two successive misses in the
 * last level whose distance is within a trigger threshold, forward or
 * backward; ch. 6 "Hardware Prefetch": it then runs ahead of the stream,
 * follows one stream per 4 KB region and never crosses into the next
 * (a program's demand misses there start a new one), tracks up to 8
 * streams, and follows load and store streams alike. */
#include <string.h>

#include "prefetch.h"

void uarch_pf_init(struct uarch_pf *pf, unsigned streams, unsigned shift, unsigned trigger,
		   unsigned ahead)
{
	memset(pf, 0, sizeof(*pf));
	pf->n = streams < UARCH_PF_MAX ? streams : UARCH_PF_MAX;
	pf->shift = shift;
	pf->trigger = trigger;
	pf->ahead = ahead;
	for (unsigned k = 0; k < UARCH_PF_MAX; k++)
		pf->s[k].region = ~0ull; /* no region's: addresses have 64 bits */
}

/* The stream following region, or NULL: the one accessed last first
 * (a stream's accesses come in runs). */
static inline struct uarch_pf_stream *find(struct uarch_pf *pf, uint64_t region)
{
	if (pf->s[pf->mru].region == region)
		return &pf->s[pf->mru];
	for (unsigned k = 0; k < pf->n; k++)
		if (pf->s[k].region == region) {
			pf->mru = k;
			return &pf->s[k];
		}
	return NULL;
}

/* The stream to replace: unused first, then the least recently accessed. */
static struct uarch_pf_stream *victim(struct uarch_pf *pf)
{
	struct uarch_pf_stream *v = &pf->s[0];

	for (unsigned k = 1; k < pf->n; k++)
		if (pf->s[k].used < v->used)
			v = &pf->s[k];
	return v;
}

unsigned uarch_pf_access(struct uarch_pf *pf, uint64_t addr, int miss, uint64_t t, unsigned limit,
			 uint64_t *first, int *dir)
{
	const unsigned per = UARCH_PF_PAGE - pf->shift; /* log2 of sectors per region */
	uint64_t region = addr >> UARCH_PF_PAGE, sec = addr >> pf->shift;
	uint64_t lo = region << per, hi = lo + (1ull << per) - 1, n = pf->ahead >> pf->shift;
	struct uarch_pf_stream *s;

	if (!pf->n || !n)
		return 0;
	s = find(pf, region);
	if (!s) {
		/* only a miss starts following a region */
		if (miss)
			*victim(pf) = (struct uarch_pf_stream){ .region = region,
								.last = sec,
								.used = ++pf->clock };
		return 0;
	}
	s->used = ++pf->clock;
	if (!s->dir) {
		if (!miss || sec == s->last)
			return 0;
		uint64_t dist = (sec > s->last ? sec - s->last : s->last - sec) << pf->shift;
		if (dist > pf->trigger) {
			s->last = sec;
			return 0;
		}
		s->dir = sec > s->last ? 1 : -1;
		s->next = sec > s->last ? sec + 1 : sec - 1;
	}
	/* the sectors up to ahead past the access, inside the region, from
	 * the first not yet asked for: want of them, in the direction dir */
	uint64_t from, want;
	if (s->dir > 0) {
		uint64_t to = hi - sec > n ? sec + n : hi;
		from = s->next > sec + 1 ? s->next : sec + 1;
		if (sec == hi || from > to)
			return 0;
		want = to - from + 1;
	} else {
		uint64_t to = sec - lo > n ? sec - n : lo;
		from = s->next < sec - 1 ? s->next : sec - 1;
		if (sec == lo || from < to)
			return 0;
		want = from - to + 1;
	}
	unsigned busy = uarch_pf_inflight(pf, t), room = busy < limit ? limit - busy : 0;
	uint64_t count = want < room ? want : room;
	s->next = s->dir > 0 ? from + count : from - count;
	*first = from;
	*dir = s->dir;
	return (unsigned)count;
}

void uarch_pf_fetched(struct uarch_pf *pf, uint64_t sector, uint64_t arrive)
{
	pf->fill[pf->fill_i] = (struct uarch_pf_fill){ sector, arrive };
	pf->fill_i = (pf->fill_i + 1) % UARCH_PF_FILLS;
}

/* The fill made k before the last (0: the last). */
static inline const struct uarch_pf_fill *fill_back(const struct uarch_pf *pf, unsigned k)
{
	return &pf->fill[(pf->fill_i + UARCH_PF_FILLS - 1 - k) % UARCH_PF_FILLS];
}

/* Both look back from the last fill only while fills are in flight: they
 * arrive in the order they are made, the bus carrying them one after
 * another (prefetch.h). */
unsigned uarch_pf_inflight(const struct uarch_pf *pf, uint64_t t)
{
	unsigned n = 0;

	while (n < UARCH_PF_FILLS && fill_back(pf, n)->arrive > t)
		n++;
	return n;
}

uint64_t uarch_pf_pending(const struct uarch_pf *pf, uint64_t addr, uint64_t t)
{
	uint64_t sec = addr >> pf->shift;

	for (unsigned k = 0; k < UARCH_PF_FILLS && fill_back(pf, k)->arrive > t; k++)
		if (fill_back(pf, k)->sector == sec)
			return fill_back(pf, k)->arrive;
	return 0;
}
