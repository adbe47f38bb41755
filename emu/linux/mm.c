/* mm.c — bookkeeping of the guest's mappings: a sorted array of
 * non-overlapping ranges.  Pure data structure (no host calls), so the
 * allocator can be tested on its own; mem.c does the host side.
 */
#include <stdlib.h>
#include <string.h>

#include "lx_mm.h"

void lx_mm_init(struct lx_mm *mm)
{
	memset(mm, 0, sizeof(*mm));
}

void lx_mm_free(struct lx_mm *mm)
{
	free(mm->v);
	free(mm->wprot);
	memset(mm, 0, sizeof(*mm));
}

size_t lx_mm_first(const struct lx_mm *mm, uint64_t addr)
{
	size_t lo = 0, hi = mm->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (mm->v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int grow(struct lx_mm *mm, size_t need)
{
	if (need <= mm->cap)
		return 0;
	size_t ncap = mm->cap ? mm->cap * 2 : 64;
	while (ncap < need)
		ncap *= 2;
	struct lx_map *nv = realloc(mm->v, ncap * sizeof(*nv));
	if (!nv)
		return -1;
	mm->v = nv;
	mm->cap = ncap;
	return 0;
}

static int insert_at(struct lx_mm *mm, size_t i, struct lx_map m)
{
	if (grow(mm, mm->n + 1))
		return -1;
	memmove(&mm->v[i + 1], &mm->v[i], (mm->n - i) * sizeof(mm->v[0]));
	mm->v[i] = m;
	mm->n++;
	return 0;
}

static void remove_at(struct lx_mm *mm, size_t i, size_t cnt)
{
	memmove(&mm->v[i], &mm->v[i + cnt], (mm->n - i - cnt) * sizeof(mm->v[0]));
	mm->n -= cnt;
}

int lx_mm_del(struct lx_mm *mm, uint64_t start, uint64_t end)
{
	size_t i = lx_mm_first(mm, start);

	while (i < mm->n && mm->v[i].start < end) {
		struct lx_map *m = &mm->v[i];

		if (m->start < start && m->end > end) {
			/* split: keep both sides */
			struct lx_map right = *m;

			right.start = end;
			m->end = start;
			return insert_at(mm, i + 1, right);
		}
		if (m->start < start) {
			m->end = start;
			i++;
		} else if (m->end > end) {
			m->start = end;
			break;
		} else {
			remove_at(mm, i, 1);
		}
	}
	return 0;
}

static int mergeable(const struct lx_map *a, const struct lx_map *b)
{
	return a->end == b->start && a->prot == b->prot && a->kind == b->kind &&
	       a->kind != LX_MAP_IMAGE;
}

int lx_mm_add(struct lx_mm *mm, uint64_t start, uint64_t end, int prot, int kind)
{
	struct lx_map m = { start, end, prot, kind };
	size_t i;

	if (start >= end)
		return 0;
	if (lx_mm_del(mm, start, end) || grow(mm, mm->n + 1))
		return -1;
	i = lx_mm_first(mm, start);
	if (insert_at(mm, i, m))
		return -1;
	if (i + 1 < mm->n && mergeable(&mm->v[i], &mm->v[i + 1])) {
		mm->v[i].end = mm->v[i + 1].end;
		remove_at(mm, i + 1, 1);
	}
	if (i > 0 && mergeable(&mm->v[i - 1], &mm->v[i])) {
		mm->v[i - 1].end = mm->v[i].end;
		remove_at(mm, i, 1);
	}
	return 0;
}

int lx_mm_protect(struct lx_mm *mm, uint64_t start, uint64_t end, int prot)
{
	uint64_t at = start;

	while (at < end) {
		size_t i = lx_mm_first(mm, at);

		if (i == mm->n || mm->v[i].start >= end)
			break;
		struct lx_map m = mm->v[i];
		uint64_t s = m.start > at ? m.start : at;
		uint64_t e = m.end < end ? m.end : end;

		if (m.kind != LX_MAP_FOREIGN && m.prot != prot && lx_mm_add(mm, s, e, prot, m.kind))
			return -1;
		at = e;
	}
	return 0;
}

int lx_mm_covered(const struct lx_mm *mm, uint64_t start, uint64_t end)
{
	uint64_t at = start;

	for (size_t i = lx_mm_first(mm, start); i < mm->n && at < end; i++) {
		if (mm->v[i].start > at || mm->v[i].kind == LX_MAP_FOREIGN)
			return 0;
		at = mm->v[i].end;
	}
	return at >= end;
}

int lx_mm_is_free(const struct lx_mm *mm, uint64_t start, uint64_t end)
{
	size_t i = lx_mm_first(mm, start);

	return i == mm->n || mm->v[i].start >= end;
}

uint64_t lx_mm_find(const struct lx_mm *mm, uint64_t len, uint64_t lo, uint64_t top)
{
	size_t first = lx_mm_first(mm, lo), k = lx_mm_first(mm, top);
	uint64_t hi = top;

	if (!len || top < lo || len > top - lo)
		return 0;
	if (k < mm->n && mm->v[k].start < hi)
		hi = mm->v[k].start; /* a range straddles top */
	/* the gaps between ranges inside [lo, top), from the top down */
	while (k-- > first) {
		if (hi > mm->v[k].end && hi - mm->v[k].end >= len)
			return hi - len;
		hi = mm->v[k].start;
		if (hi <= lo)
			return 0;
	}
	return hi > lo && hi - lo >= len ? hi - len : 0;
}

const struct lx_map *lx_mm_lookup(const struct lx_mm *mm, uint64_t addr)
{
	size_t i = lx_mm_first(mm, addr);

	return i < mm->n && mm->v[i].start <= addr ? &mm->v[i] : NULL;
}
