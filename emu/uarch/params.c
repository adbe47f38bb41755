/* params.c — the machine parameter keys: one table names every field of
 * struct uarch_machine as <structure>.<field> with its type, width and
 * range; uarch_params_set parses "KEY=VAL[,KEY=VAL…]" against it,
 * uarch_params_each prints it back in the same order.  The consistency
 * rules live in params_check.c, the four machines in machine_*.c. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "params.h"

extern const struct uarch_machine uarch_machine_p4, uarch_machine_ia64, uarch_machine_xscale,
	uarch_machine_alpha;

const struct uarch_machine *const uarch_machines[] = {
	&uarch_machine_p4, &uarch_machine_ia64, &uarch_machine_xscale, &uarch_machine_alpha, NULL,
};

const struct uarch_machine *uarch_machine_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t k = 0; uarch_machines[k]; k++)
		if (strcmp(uarch_machines[k]->name, name) == 0)
			return uarch_machines[k];
	return NULL;
}

/* ---- the key table ------------------------------------------------------ */

enum ptype { P_U8, P_U16, P_U32 };

/* Value names of the enumerated fields, indexed by the enum's value. */
static const char *const repl_names[] = { "lru", "rr", "random", NULL };
static const char *const wpol_names[] = { "back-allocate", "back-noallocate", "through-allocate",
					  "through-noallocate", NULL };
static const char *const context_names[] = { "adaptive", "shared", NULL };
static const char *const bpkind_names[] = { "static", "bimodal", "gshare", "tournament", NULL };
/* Index names of the per-µop-class arrays (enum uarch_uclass order). */
static const char *const uclass_names[UARCH_NUCLASS + 1] = {
	"int",	"shift", "imul", "idiv", "branch", "load",     "sta",	  "std",
	"fadd", "fmul",	 "fdiv", "fmov", "simd",   "simd_mul", "complex", NULL,
};

struct pfield {
	const char *name;
	uint8_t type;		  /* enum ptype */
	size_t off;		  /* from the section's base */
	uint32_t min, max;	  /* accepted range (numbers) */
	const char *const *names; /* enumerated: value names */
	const char *const *index; /* array of UARCH_NUCLASS: index names */
};

struct psection {
	const char *name;
	size_t base; /* offset of the structure in struct uarch_machine */
	const struct pfield *fields;
	size_t nfields;
};

#define U16MAX 0xffffu
#define GIB (1u << 30)

#define NUMK(st, key, f, lo, hi)                                        \
	{                                                               \
		.name = key,                                            \
		.type = sizeof(((struct st *)0)->f) == 1 ? P_U8 :       \
			sizeof(((struct st *)0)->f) == 2 ? P_U16 :      \
							   P_U32,       \
		.off = offsetof(struct st, f), .min = (lo), .max = (hi) \
	}
#define NUM(st, f, lo, hi) NUMK(st, #f, f, lo, hi)
#define ENUMK(st, key, f, tab)                                                      \
	{                                                                           \
		.name = key, .type = P_U8, .off = offsetof(struct st, f), .min = 0, \
		.max = sizeof(tab) / sizeof(tab[0]) - 2, .names = tab               \
	}
#define ARR(st, f, lo, hi)                                                             \
	{                                                                              \
		.name = #f, .type = P_U16, .off = offsetof(struct st, f), .min = (lo), \
		.max = (hi), .index = uclass_names                                     \
	}

static const struct pfield core_fields[] = {
	NUM(uarch_core_cfg, ooo, 0, 1),
	NUM(uarch_core_cfg, threads, 1, 2),
	NUM(uarch_core_cfg, fetch, 1, 64),
	NUM(uarch_core_cfg, issue, 1, 64),
	NUM(uarch_core_cfg, retire, 1, 64),
	NUM(uarch_core_cfg, rob, 1, 4096),
	NUM(uarch_core_cfg, iq, 1, 4096),
	NUM(uarch_core_cfg, fq, 0, 4096),
	NUM(uarch_core_cfg, lq, 1, 4096),
	NUM(uarch_core_cfg, sq, 1, 4096),
	NUM(uarch_core_cfg, depth, 1, 255),
	ARR(uarch_core_cfg, lat, 1, 10000),
	ARR(uarch_core_cfg, units, 1, 64),
	ARR(uarch_core_cfg, occupy, 1, 10000),
	NUM(uarch_core_cfg, replay, 0, 1),
	NUM(uarch_core_cfg, fwd_start, 0, 1),
	NUM(uarch_core_cfg, mhz, 1, 100000),
	NUM(uarch_core_cfg, syscall_cycles, 0, U16MAX),
	NUM(uarch_core_cfg, syscall_lines, 0, 4096),
	NUM(uarch_core_cfg, assist, 0, U16MAX),
};

static const struct pfield bp_fields[] = {
	ENUMK(uarch_bp_cfg, "kind", kind, bpkind_names),
	NUM(uarch_bp_cfg, pht, 0, 1u << 24),
	NUM(uarch_bp_cfg, ghist, 0, 32),
	NUM(uarch_bp_cfg, lhist, 0, 1u << 24),
	NUM(uarch_bp_cfg, lbits, 0, 16),
	NUM(uarch_bp_cfg, lpht, 0, 1u << 24),
	NUM(uarch_bp_cfg, choice, 0, 1u << 24),
	NUM(uarch_bp_cfg, btb, 0, 1u << 24),
	NUM(uarch_bp_cfg, btb_assoc, 0, 1u << 24),
	NUM(uarch_bp_cfg, ras, 0, 4096),
	NUM(uarch_bp_cfg, ind, 0, 1u << 24),
	NUM(uarch_bp_cfg, penalty, 0, 1000),
};

/* Every cache level and the mini-data cache share these keys. */
enum { CF_LINE = 2, CF_SECTOR = 3 }; /* indices below */
static const struct pfield cache_fields[] = {
	NUM(uarch_cache_cfg, size, 0, GIB),
	NUM(uarch_cache_cfg, assoc, 0, 1u << 20),
	NUM(uarch_cache_cfg, line, 0, 1u << 16),
	NUM(uarch_cache_cfg, sector, 0, 1u << 16),
	ENUMK(uarch_cache_cfg, "policy", repl, repl_names),
	ENUMK(uarch_cache_cfg, "write", write, wpol_names),
	NUM(uarch_cache_cfg, inclusive, 0, 1),
	NUM(uarch_cache_cfg, classify, 0, 1),
	NUM(uarch_cache_cfg, alias, 0, 63),
	ENUMK(uarch_cache_cfg, "context", context, context_names),
	NUM(uarch_cache_cfg, latency, 0, 10000),
	NUM(uarch_cache_cfg, ports, 0, 64),
	NUM(uarch_cache_cfg, width, 0, 1u << 15),
};

/* l1i.tc: the L1I slot describes the P4 trace cache (sizes in µops). */
static const struct pfield l1i_extra_fields[] = {
	NUMK(uarch_machine, "tc", l1i_is_tc, 0, 1),
};

static const struct pfield tlb_fields[] = {
	NUM(uarch_tlb_cfg, entries, 0, 1u << 20), NUM(uarch_tlb_cfg, assoc, 0, 1u << 20),
	NUM(uarch_tlb_cfg, page, 0, GIB),	  ENUMK(uarch_tlb_cfg, "policy", repl, repl_names),
	NUM(uarch_tlb_cfg, walk, 0, 10000),
};

static const struct pfield mem_fields[] = {
	NUM(uarch_mem_cfg, mshr, 1, 1024),	NUM(uarch_mem_cfg, wbuf, 0, 1024),
	NUM(uarch_mem_cfg, wbuf_line, 0, 64),	NUM(uarch_mem_cfg, latency, 1, U16MAX),
	NUM(uarch_mem_cfg, bus_width, 1, 1024), NUM(uarch_mem_cfg, bus_ratio, 1, 1000),
	NUM(uarch_mem_cfg, pump, 1, 16),	NUM(uarch_mem_cfg, addr_cycles, 1, 64),
	NUM(uarch_mem_cfg, pf_streams, 0, 64),	NUM(uarch_mem_cfg, pf_trigger, 0, 4096),
	NUM(uarch_mem_cfg, pf_ahead, 0, 4096),	NUM(uarch_mem_cfg, pf_adjacent, 0, 1),
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define SEC(n, b, f)              \
	{                         \
		n, b, f, NELEM(f) \
	}
#define CACHE(n, i)                                                                          \
	SEC(n, offsetof(struct uarch_machine, cache) + (i) * sizeof(struct uarch_cache_cfg), \
	    cache_fields)
#define TLB(n, i) \
	SEC(n, offsetof(struct uarch_machine, tlb) + (i) * sizeof(struct uarch_tlb_cfg), tlb_fields)

/* The order of this table is the order uarch_params_each prints. */
static const struct psection sections[] = {
	SEC("core", offsetof(struct uarch_machine, core), core_fields),
	SEC("bp", offsetof(struct uarch_machine, bp), bp_fields),
	CACHE("l1i", UARCH_L1I),
	SEC("l1i", 0, l1i_extra_fields),
	CACHE("l1d", UARCH_L1D),
	CACHE("l2", UARCH_L2),
	CACHE("l3", UARCH_L3),
	CACHE("l4", UARCH_L4),
	CACHE("mini", UARCH_MINI),
	TLB("itlb", UARCH_ITLB),
	TLB("dtlb", UARCH_DTLB),
	TLB("itlb2", UARCH_ITLB2),
	TLB("dtlb2", UARCH_DTLB2),
	SEC("mem", offsetof(struct uarch_machine, mem), mem_fields),
};

/* Which cache slot a cache section describes. */
static int cache_slot(const struct psection *sec)
{
	return (int)((sec->base - offsetof(struct uarch_machine, cache)) /
		     sizeof(struct uarch_cache_cfg));
}

/* One resolved key: the field, and for array fields the element. */
struct pkey {
	const struct psection *sec;
	const struct pfield *f;
	size_t elem;
};

static void *field_ptr(struct uarch_machine *m, const struct pkey *k)
{
	size_t w = k->f->type == P_U8 ? 1 : k->f->type == P_U16 ? 2 : 4;
	return (char *)m + k->sec->base + k->f->off + k->elem * w;
}

static uint32_t field_get(const struct uarch_machine *m, const struct pkey *k)
{
	const void *p = field_ptr((struct uarch_machine *)m, k);
	switch (k->f->type) {
	case P_U8:
		return *(const uint8_t *)p;
	case P_U16:
		return *(const uint16_t *)p;
	default:
		return *(const uint32_t *)p;
	}
}

static void field_put(struct uarch_machine *m, const struct pkey *k, uint32_t v)
{
	void *p = field_ptr(m, k);
	switch (k->f->type) {
	case P_U8:
		*(uint8_t *)p = (uint8_t)v;
		break;
	case P_U16:
		*(uint16_t *)p = (uint16_t)v;
		break;
	default:
		*(uint32_t *)p = v;
		break;
	}
}

/* Walk every key in table order; fn returns nonzero to stop. */
static int keys_walk(int (*fn)(void *arg, const struct pkey *k, const char *name), void *arg)
{
	char name[64];

	for (size_t s = 0; s < NELEM(sections); s++) {
		const struct psection *sec = &sections[s];
		for (size_t i = 0; i < sec->nfields; i++) {
			const struct pfield *f = &sec->fields[i];
			size_t n = f->index ? UARCH_NUCLASS : 1;
			for (size_t e = 0; e < n; e++) {
				struct pkey k = { sec, f, e };
				if (f->index)
					snprintf(name, sizeof(name), "%s.%s.%s", sec->name, f->name,
						 f->index[e]);
				else
					snprintf(name, sizeof(name), "%s.%s", sec->name, f->name);
				if (fn(arg, &k, name))
					return 1;
			}
		}
	}
	return 0;
}

/* ---- lookup and suggestions --------------------------------------------- */

/* Optimal string alignment distance (Levenshtein plus adjacent
 * transpositions, so "szie" is one edit from "size"), case-insensitive. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 63 || lb > 63)
		return (size_t)-1;
	size_t d[64][64];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]),
			    cb = tolower((unsigned char)b[j - 1]);
			size_t best = d[i - 1][j - 1] + (ca != cb);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

struct find_ctx {
	const char *want;
	struct pkey found;
	int hit;
	size_t best;	     /* smallest distance so far */
	char suggestion[64]; /* the first key at that distance */
};

static int find_one(void *arg, const struct pkey *k, const char *name)
{
	struct find_ctx *c = arg;
	if (strcasecmp(name, c->want) == 0) {
		c->found = *k;
		c->hit = 1;
		return 1;
	}
	size_t d = edit_distance(c->want, name);
	if (d < c->best) {
		c->best = d;
		snprintf(c->suggestion, sizeof(c->suggestion), "%s", name);
	}
	return 0;
}

/* ---- values ---------------------------------------------------------------- */

static void seterr(char *err, size_t errsz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void seterr(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;
	if (!err || !errsz)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
}

/* A number: decimal or 0x hex, optionally followed by K, M or G (powers of
 * 1024, an optional B after them).  Returns 0, or -1 when s is not one;
 * *ovf set when it is one but does not fit in 64 bits. */
static int parse_number(const char *s, uint64_t *out, int *ovf)
{
	const char *p = s;
	uint64_t v = 0;
	unsigned base = 10;
	int digits = 0;

	*ovf = 0;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	for (;; p++) {
		int dv;
		if (isdigit((unsigned char)*p))
			dv = *p - '0';
		else if (base == 16 && isxdigit((unsigned char)*p))
			dv = tolower((unsigned char)*p) - 'a' + 10;
		else
			break;
		if (v > (UINT64_MAX - (uint64_t)dv) / base)
			*ovf = 1;
		else
			v = v * base + (uint64_t)dv;
		digits++;
	}
	if (!digits)
		return -1;
	unsigned shift = 0;
	switch (*p) {
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	}
	if (shift) {
		p++;
		if (*p == 'b' || *p == 'B')
			p++;
		if (v > (UINT64_MAX >> shift))
			*ovf = 1;
		else
			v <<= shift;
	}
	if (*p)
		return -1;
	*out = v;
	return 0;
}

/* s as it may appear inside a one-line message: control characters
 * (a newline in a --set argument, say) written as \xNN. */
static const char *shown(char *buf, size_t sz, const char *s)
{
	size_t n = 0;
	for (; *s && n + 5 < sz; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch < 0x20 || ch == 0x7f)
			n += (size_t)snprintf(buf + n, sz - n, "\\x%02x", ch);
		else
			buf[n++] = (char)ch;
	}
	buf[n] = 0;
	return buf;
}

static void list_names(char *buf, size_t sz, const char *const *names)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t k = 0; names[k] && used < sz; k++)
		used += (size_t)snprintf(buf + used, sz - used, "%s%s", k ? ", " : "", names[k]);
}

static int set_value(struct uarch_machine *m, const struct pkey *k, const char *key,
		     const char *val, char *err, size_t errsz)
{
	const struct pfield *f = k->f;
	char sv[128];
	uint64_t v;
	int ovf;

	if (f->names) {
		for (uint32_t e = 0; f->names[e]; e++) {
			if (strcasecmp(f->names[e], val) == 0) {
				field_put(m, k, e);
				return 0;
			}
		}
		char allowed[128];
		list_names(allowed, sizeof(allowed), f->names);
		seterr(err, errsz, "bad value '%s' for %s (allowed: %s)",
		       shown(sv, sizeof(sv), val), key, allowed);
		return -1;
	}
	if (f->max == 1 && !isdigit((unsigned char)val[0])) {
		/* flags also take yes/no, true/false, on/off */
		static const char *const yes[] = { "yes", "true", "on" }, *const no[] = { "no",
											  "false",
											  "off" };
		for (size_t i = 0; i < 3; i++) {
			if (strcasecmp(val, yes[i]) == 0 || strcasecmp(val, no[i]) == 0) {
				field_put(m, k, strcasecmp(val, yes[i]) == 0);
				return 0;
			}
		}
		seterr(err, errsz, "bad value '%s' for %s (allowed: 0, 1, yes, no)",
		       shown(sv, sizeof(sv), val), key);
		return -1;
	}
	if (parse_number(val, &v, &ovf) < 0) {
		seterr(err, errsz,
		       "bad value '%s' for %s: expected a number (decimal, 0x hex, K/M/G suffix)",
		       shown(sv, sizeof(sv), val), key);
		return -1;
	}
	if (ovf || v < f->min || v > f->max) {
		seterr(err, errsz, "value %s for %s out of range (%" PRIu32 "..%" PRIu32 ")",
		       shown(sv, sizeof(sv), val), key, f->min, f->max);
		return -1;
	}
	field_put(m, k, (uint32_t)v);
	return 0;
}

/* Copy [b, e) into buf without surrounding blanks; -1 if it does not fit
 * (no key or value is anywhere near that long: truncating could turn a
 * bad one into a good one). */
static int trim_copy(char *buf, size_t sz, const char *b, const char *e)
{
	while (b < e && isspace((unsigned char)*b))
		b++;
	while (e > b && isspace((unsigned char)e[-1]))
		e--;
	size_t n = (size_t)(e - b);
	if (n >= sz)
		n = sz - 1;
	memcpy(buf, b, n);
	buf[n] = 0;
	return b + n == e ? 0 : -1;
}

static int set_one(struct uarch_machine *m, const char *b, const char *e, unsigned *touched,
		   char *err, size_t errsz)
{
	char item[160], key[96], val[96], si[128];
	const char *eq = memchr(b, '=', (size_t)(e - b));

	if (trim_copy(item, sizeof(item), b, e) < 0 ||
	    (eq && (trim_copy(key, sizeof(key), b, eq) < 0 ||
		    trim_copy(val, sizeof(val), eq + 1, e) < 0))) {
		seterr(err, errsz, "'%.40s...': parameter too long", shown(si, sizeof(si), item));
		return -1;
	}
	if (!item[0]) {
		seterr(err, errsz, "empty item in parameter list");
		return -1;
	}
	if (!eq) {
		seterr(err, errsz, "'%s': expected KEY=VALUE", shown(si, sizeof(si), item));
		return -1;
	}
	if (!key[0]) {
		seterr(err, errsz, "'%s': missing parameter name before '='",
		       shown(si, sizeof(si), item));
		return -1;
	}
	struct find_ctx c = { .want = key, .best = (size_t)-1 };
	keys_walk(find_one, &c);
	if (!c.hit) {
		/* suggest only what is plausibly a typo: a third of the name */
		size_t limit = strlen(key) / 3 > 2 ? strlen(key) / 3 : 2;
		if (c.best <= limit)
			seterr(err, errsz, "unknown parameter '%s' (did you mean '%s'?)",
			       shown(si, sizeof(si), key), c.suggestion);
		else
			seterr(err, errsz, "unknown parameter '%s'", shown(si, sizeof(si), key));
		return -1;
	}
	if (!val[0]) {
		seterr(err, errsz, "missing value for %s", key);
		return -1;
	}
	/* name the key as the table spells it */
	char canon[64];
	if (c.found.f->index)
		snprintf(canon, sizeof(canon), "%s.%s.%s", c.found.sec->name, c.found.f->name,
			 c.found.f->index[c.found.elem]);
	else
		snprintf(canon, sizeof(canon), "%s.%s", c.found.sec->name, c.found.f->name);
	if (c.found.f == &cache_fields[CF_LINE] || c.found.f == &cache_fields[CF_SECTOR])
		*touched |= 1u << (2 * cache_slot(c.found.sec) +
				   (c.found.f == &cache_fields[CF_SECTOR]));
	return set_value(m, &c.found, canon, val, err, errsz);
}

/* An unsectored cache (sector == line) stays unsectored when only its line
 * is set: l1d.line=32 alone means 32-byte lines, not a bad sector. */
static void sector_follows_line(struct uarch_machine *t, const struct uarch_machine *m,
				unsigned touched)
{
	for (int i = 0; i < UARCH_NCACHE; i++) {
		int line_set = touched >> (2 * i) & 1, sector_set = touched >> (2 * i + 1) & 1;
		if (line_set && !sector_set && m->cache[i].sector == m->cache[i].line)
			t->cache[i].sector = t->cache[i].line;
	}
}

int uarch_params_set(struct uarch_machine *m, const char *spec, char *err, size_t errsz)
{
	struct uarch_machine t = *m; /* all or nothing: m changes only on success */
	const char *p = spec ? spec : "";
	unsigned touched = 0; /* per cache: bit 2i line set, bit 2i+1 sector set */

	if (err && errsz)
		err[0] = 0;
	for (;;) {
		const char *e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		if (set_one(&t, p, e, &touched, err, errsz) < 0)
			return -1;
		if (!*e)
			break;
		p = e + 1;
	}
	sector_follows_line(&t, m, touched);
	if (uarch_params_check(&t, err, errsz) < 0)
		return -1;
	*m = t;
	return 0;
}

/* ---- printing ---------------------------------------------------------------- */

struct each_ctx {
	const struct uarch_machine *m;
	void (*fn)(void *arg, const char *key, const char *value);
	void *arg;
};

static int each_one(void *arg, const struct pkey *k, const char *name)
{
	struct each_ctx *c = arg;
	uint32_t v = field_get(c->m, k);
	char buf[32];

	if (k->f->names && v <= k->f->max)
		snprintf(buf, sizeof(buf), "%s", k->f->names[v]);
	else
		snprintf(buf, sizeof(buf), "%" PRIu32, v);
	c->fn(c->arg, name, buf);
	return 0;
}

void uarch_params_each(const struct uarch_machine *m,
		       void (*fn)(void *arg, const char *key, const char *value), void *arg)
{
	struct each_ctx c = { m, fn, arg };
	keys_walk(each_one, &c);
}
