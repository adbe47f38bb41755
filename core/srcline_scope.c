/* srcline_scope.c — the functions of a compilation unit indexed by
 * address (sym.h, sym_scopes_at): the inline chain of an address then
 * costs a binary search and a walk down the one function holding it, not
 * the walk of the unit's whole DIE tree that dwarf_getscopes() makes
 * (milliseconds per address on a large unit, which a report of many
 * distinct addresses with call graphs pays for each).
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>

#include "srcline.h"

struct fn_range {
	uint64_t lo, hi;
	Dwarf_Die die;
};

/* One unit's subprograms, sorted by start; key: the unit DIE's bytes. */
struct cu_tab {
	const void *key;
	struct cu_tab *next;
	size_t n;
	struct fn_range *r;
};

#define CU_BUCKETS 256

struct sym_scopes {
	struct cu_tab *bucket[CU_BUCKETS];
};

static int by_lo(const void *a, const void *b)
{
	const struct fn_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The unit's top-level subprograms with their address ranges (C: nested
 * ones, such as C++ member functions, take the general path). */
static struct cu_tab *build(Dwarf_Die *cu)
{
	struct cu_tab *t = calloc(1, sizeof(*t));
	size_t cap = 0;
	Dwarf_Die d;

	if (!t)
		return NULL;
	t->key = cu->addr;
	if (dwarf_child(cu, &d) != 0)
		return t;
	do {
		Dwarf_Addr base, start, end;
		ptrdiff_t off = 0;

		if (dwarf_tag(&d) != DW_TAG_subprogram)
			continue;
		while ((off = dwarf_ranges(&d, off, &base, &start, &end)) > 0) {
			if (t->n == cap) {
				struct fn_range *n =
					realloc(t->r, (cap = cap ? 2 * cap : 64) * sizeof(*n));

				if (!n) {
					free(t->r);
					t->r = NULL;
					t->n = 0;
					return t;
				}
				t->r = n;
			}
			t->r[t->n++] = (struct fn_range){ start, end, d };
		}
	} while (dwarf_siblingof(&d, &d) == 0);
	qsort(t->r, t->n, sizeof(*t->r), by_lo);
	return t;
}

static struct cu_tab *table(struct sym_scopes **idx, Dwarf_Die *cu)
{
	size_t h;
	struct cu_tab *t;

	if (!*idx && !(*idx = calloc(1, sizeof(**idx))))
		return NULL;
	h = ((uintptr_t)cu->addr >> 4) % CU_BUCKETS;
	for (t = (*idx)->bucket[h]; t; t = t->next)
		if (t->key == cu->addr)
			return t;
	t = build(cu);
	if (t) {
		t->next = (*idx)->bucket[h];
		(*idx)->bucket[h] = t;
	}
	return t;
}

/* Inlined instances holding pc below die, outermost first, after n. */
static int descend(Dwarf_Die *die, uint64_t pc, Dwarf_Die *chain, int n, int max)
{
	Dwarf_Die c;

	if (dwarf_child(die, &c) != 0)
		return n;
	do {
		int tag = dwarf_tag(&c);

		if ((tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block) &&
		    dwarf_haspc(&c, pc) == 1) {
			if (tag == DW_TAG_inlined_subroutine && n < max)
				chain[n++] = c;
			return descend(&c, pc, chain, n, max);
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return n;
}

int sym_scopes_at(struct sym_scopes **idx, Dwarf_Die *cu, uint64_t pc, Dwarf_Die *out, int max)
{
	struct cu_tab *t = table(idx, cu);
	Dwarf_Die chain[32];
	size_t lo = 0, hi;
	int n;

	if (!t || !t->n || max <= 0)
		return -1;
	/* the last range starting at or before pc */
	hi = t->n;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->r[mid].lo <= pc)
			lo = mid;
		else
			hi = mid;
	}
	if (pc < t->r[lo].lo || pc >= t->r[lo].hi)
		return -1;
	chain[0] = t->r[lo].die;
	n = descend(&t->r[lo].die, pc, chain, 1, 32);
	/* innermost first */
	for (int k = 0; k < n && k < max; k++)
		out[k] = chain[n - 1 - k];
	return n < max ? n : max;
}

void sym_scopes_free(struct sym_scopes *idx)
{
	if (!idx)
		return;
	for (size_t h = 0; h < CU_BUCKETS; h++)
		while (idx->bucket[h]) {
			struct cu_tab *t = idx->bucket[h];

			idx->bucket[h] = t->next;
			free(t->r);
			free(t);
		}
	free(idx);
}
