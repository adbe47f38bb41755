/* evspec.c — perf's `-e` event specifications, resolved against a backend
 * (syntax and rules in evspec.h). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "evspec.h"

#define TEXT_MAX (sizeof(((struct arch_evsel *)0)->name)) /* with the NUL */
#define SPEC_MAX 256					  /* a generic name's spec, with the NUL */
#define DIST_MAX 127 /* longest string evspec_distance measures */

struct ctx {
	const struct arch_backend *b;
	const char *spec; /* the whole spec, for messages */
	char *err;
	size_t errsz;
	int notsup;	     /* the failure is the backend's ARCH_ENOTSUP */
	int levels;	     /* EVSPEC_*: of an event that names none */
	char term_name[128]; /* the event's name= term ("": none) */
};

/* Modifiers as given: which levels were named, how many p's. */
struct mods {
	uint8_t user, kernel, precise;
};

/* The message goes on one line whatever the user typed. */
static int fail(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	if (!c->errsz)
		return -1;
	va_start(ap, fmt);
	vsnprintf(c->err, c->errsz, fmt, ap);
	va_end(ap);
	for (char *p = c->err; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return -1;
}

/* ---- closest match ------------------------------------------------------ */

unsigned evspec_distance(const char *a, const char *b)
{
	unsigned r0[DIST_MAX + 1] = { 0 }, r1[DIST_MAX + 1], r2[DIST_MAX + 1];
	unsigned *pp = r0, *prev = r1, *cur = r2; /* rows i-2, i-1, i */
	size_t la = strlen(a), lb = strlen(b);

	if (la > DIST_MAX || lb > DIST_MAX)
		return ~0u;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		int ca = tolower((unsigned char)a[i - 1]);

		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			int cb = tolower((unsigned char)b[j - 1]);
			unsigned best = prev[j] + 1;

			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (prev[j - 1] + (ca != cb) < best)
				best = prev[j - 1] + (ca != cb);
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && pp[j - 2] + 1 < best)
				best = pp[j - 2] + 1;
			cur[j] = best;
		}
		unsigned *t = pp;
		pp = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

void evspec_match_init(struct evspec_match *m, const char *word)
{
	m->word = word;
	m->best = NULL;
	m->dist = ~0u;
	m->prefix = NULL;
	m->nprefix = 0;
}

void evspec_match_try(struct evspec_match *m, const char *cand)
{
	size_t len = strlen(m->word);
	unsigned d;

	if (!cand)
		return;
	d = evspec_distance(m->word, cand);
	if (d < m->dist) {
		m->dist = d;
		m->best = cand;
	}
	if (strlen(cand) > len && !strncasecmp(cand, m->word, len) &&
	    (!m->prefix || strcasecmp(m->prefix, cand))) {
		m->prefix = cand;
		m->nprefix++;
	}
}

const char *evspec_match_best(const struct evspec_match *m)
{
	size_t len = strlen(m->word);
	/* A short word is one edit from too many names to suggest any. */
	unsigned limit = len < 4 ? 1 : len / 3 > 2 ? (unsigned)(len / 3) : 2;

	/* the one name it begins, if only one, is what was meant (msort for
	 * msort_with_tmp, not qsort); else a name a typo away */
	if (len >= 3 && m->nprefix == 1)
		return m->prefix;
	return m->best && m->dist <= limit ? m->best : NULL;
}

const char *evspec_closest(const char *word, const char *const *names, size_t n)
{
	struct evspec_match m;

	evspec_match_init(&m, word);
	for (size_t i = 0; i < n; i++)
		evspec_match_try(&m, names[i]);
	return evspec_match_best(&m);
}

/* ---- one event ---------------------------------------------------------- */

/* s as modifiers: 0; -1 a character that is not one; -2 too many p's. */
static int parse_mods(const char *s, struct mods *m)
{
	memset(m, 0, sizeof(*m));
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s == 'u')
			m->user = 1;
		else if (*s == 'k')
			m->kernel = 1;
		else if (*s == 'p')
			m->precise++;
		else if (*s == 'P') /* perf's: the most precise there is */
			m->precise = 2;
		else
			return -1;
		if (m->precise > 2)
			return -2;
	}
	return 0;
}

static int bad_mods(struct ctx *c, int rc, const char *tok, const char *text)
{
	if (rc == -2)
		return fail(c, "bad modifier '%s' in '%s' (at most pp)", tok, text);
	return fail(c, "bad modifier '%s' in '%s'", tok, text);
}

static int find_generic(const struct arch_backend *b, const char *name)
{
	for (unsigned i = 0; i < b->ngeneric; i++)
		if (b->generic[i].name && !strcmp(b->generic[i].name, name))
			return (int)i;
	return -1;
}

/* The same search as arch_event_find(), kept here so the parser needs
 * only the table it is given. */
static int find_native(const struct arch_backend *b, const char *name)
{
	for (unsigned i = 0; i < b->nevents; i++)
		if (b->events[i].name && !strcasecmp(b->events[i].name, name))
			return (int)i;
	return -1;
}

static int find_umask(const struct arch_event *ev, const char *name)
{
	for (unsigned i = 0; i < ev->numask; i++)
		if (ev->umask[i].name && !strcasecmp(ev->umask[i].name, name))
			return (int)i;
	return -1;
}

static int is_hex_digits(const char *s, size_t max)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");

	return n > 0 && n <= max && !s[n];
}

/* r followed by letters and digits: meant as a raw event, if it is not a
 * typo of a name. */
static int looks_raw(const char *s)
{
	if (s[0] != 'r' || !s[1])
		return 0;
	for (s++; *s; s++)
		if (!isalnum((unsigned char)*s))
			return 0;
	return 1;
}

static int unknown_umask(struct ctx *c, const struct arch_event *ev, const char *tok)
{
	char valid[512];
	size_t at = 0;
	struct evspec_match m;
	const char *near;

	valid[0] = 0;
	evspec_match_init(&m, tok);
	for (unsigned i = 0; i < ev->numask; i++) {
		int w = snprintf(valid + at, sizeof(valid) - at, "%s%s", i ? ", " : "",
				 ev->umask[i].name ? ev->umask[i].name : "?");

		if (w > 0)
			at = at + (size_t)w < sizeof(valid) ? at + (size_t)w : sizeof(valid) - 1;
		evspec_match_try(&m, ev->umask[i].name);
	}
	near = evspec_match_best(&m);
	if (near)
		return fail(c, "unknown unit mask '%s' for %s (did you mean '%s'? valid: %s)", tok,
			    ev->name, near, valid);
	return fail(c, "unknown unit mask '%s' for %s (valid: %s)", tok, ev->name, valid);
}

/* The unit masks and modifiers after native event idx: tail is the text
 * after its name's ':' (NULL when none), split in place. */
static int native_tail(struct ctx *c, const char *text, int idx, char *tail, struct arch_evsel *e,
		       struct mods *m, int *modtok)
{
	const struct arch_event *ev = &c->b->events[idx];
	uint32_t umask = 0;
	int given = 0;

	e->event = idx;
	while (tail) {
		char *tok = tail, *next = strchr(tail, ':');
		int u, rc;

		if (next)
			*next++ = 0;
		tail = next;
		if (!*tok)
			return fail(c, "empty unit mask or modifier in '%s'", text);
		u = find_umask(ev, tok);
		if (u >= 0) {
			umask |= ev->umask[u].bits;
			given = 1;
			continue;
		}
		rc = parse_mods(tok, m);
		if (rc == 0 && next)
			return fail(c, "bad modifier '%s' in '%s' (modifiers come last)", tok,
				    text);
		if (rc == 0) {
			*modtok = 1;
			break;
		}
		if (rc == -2 || !ev->numask)
			return bad_mods(c, rc, tok, text);
		return unknown_umask(c, ev, tok);
	}
	e->umask = given ? umask : ev->defmask;
	return 0;
}

static int parse_event(struct ctx *c, const char *text, int generic_ok, struct arch_evsel *e,
		       struct mods *m, int *modtok);

int evspec_generic_class(const char *name)
{
	static const char *const hw[] = {
		"cycles",
		"cpu-cycles",
		"instructions",
		"cache-references",
		"cache-misses",
		"branches",
		"branch-instructions",
		"branch-misses",
		"bus-cycles",
		"ref-cycles",
		"stalled-cycles-frontend",
		"idle-cycles-frontend",
		"stalled-cycles-backend",
		"idle-cycles-backend",
	};
	static const char *const pmu[] = { "mem-loads", "mem-stores" };
	static const char *const cache[] = { "L1-dcache", "L1-icache", "LLC", "dTLB",
					     "iTLB",	  "branch",    "node" };
	static const char *const op[] = { "loads",	  "load-misses", "stores",
					  "store-misses", "prefetches",	 "prefetch-misses" };

	for (size_t i = 0; i < sizeof(hw) / sizeof(hw[0]); i++)
		if (!strcmp(name, hw[i]))
			return EVSPEC_HW;
	for (size_t i = 0; i < sizeof(pmu) / sizeof(pmu[0]); i++)
		if (!strcmp(name, pmu[i]))
			return EVSPEC_PMU;
	for (size_t i = 0; i < sizeof(cache) / sizeof(cache[0]); i++) {
		size_t n = strlen(cache[i]);
		if (strncmp(name, cache[i], n) || name[n] != '-')
			continue;
		for (size_t j = 0; j < sizeof(op) / sizeof(op[0]); j++)
			if (!strcmp(name + n + 1, op[j]))
				return EVSPEC_CACHE;
	}
	return 0;
}

static int generic_unsupported(struct ctx *c, const char *name)
{
	c->notsup = 1;
	return fail(c, "generic event '%s' is not supported on %s", name, c->b->name);
}

/* A generic name: its native spec, then the user's modifiers. */
static int generic_event(struct ctx *c, const char *text, int g, char *tail, struct arch_evsel *e,
			 struct mods *m, int *modtok)
{
	const struct arch_generic *gen = &c->b->generic[g];
	char inner[512];
	struct ctx ic = { .b = c->b, .spec = gen->spec, .err = inner, .errsz = sizeof(inner) };
	struct mods im;
	int imod = 0, rc;

	if (!gen->spec || !*gen->spec)
		return generic_unsupported(c, gen->name);
	if (strlen(gen->spec) >= SPEC_MAX)
		return fail(c, "generic event '%s' maps to a spec too long", gen->name);
	if (parse_event(&ic, gen->spec, 0, e, &im, &imod) < 0) {
		c->notsup = ic.notsup;
		return fail(c, "generic event '%s' maps to '%s': %s", gen->name, gen->spec, inner);
	}
	if (imod)
		return fail(c, "generic event '%s' maps to '%s', which has modifiers", gen->name,
			    gen->spec);
	if (tail) {
		rc = parse_mods(tail, m);
		if (rc < 0)
			return bad_mods(c, rc, tail, text);
		*modtok = 1;
	}
	return 0;
}

static int unknown_event(struct ctx *c, const char *name, int prefixed)
{
	const struct arch_backend *b = c->b;
	struct evspec_match m;
	const char *near;

	evspec_match_init(&m, name);
	for (unsigned i = 0; !prefixed && i < b->ngeneric; i++)
		evspec_match_try(&m, b->generic[i].name);
	for (unsigned i = 0; i < b->nevents; i++)
		evspec_match_try(&m, b->events[i].name);
	near = evspec_match_best(&m);
	if (near)
		return fail(c, "unknown event '%s' (did you mean '%s'?)", name, near);
	if (!prefixed && looks_raw(name))
		return fail(c, "bad raw event '%s'", name);
	return fail(c, "unknown event '%s'", name);
}

/* mem-loads with perf's ldlat=N term: the machine's spec for N. */
static int ldlat_event(struct ctx *c, const char *text, const char *name, const char *n,
		       struct arch_evsel *e)
{
	char spec[SPEC_MAX], inner[256], *end;
	struct ctx ic = { .b = c->b, .spec = text, .err = inner, .errsz = sizeof(inner) };
	unsigned long v = strtoul(n, &end, 0);
	struct mods im;
	int imod;

	if (!*n || *end || v > UINT32_MAX)
		return fail(c, "ldlat wants a number of cycles, not '%s' in '%s'", n, text);
	if (strcmp(name, "mem-loads"))
		return fail(c, "ldlat is a term of mem-loads, not of '%s' in '%s'", name, text);
	if (!c->b->mem_ldlat) {
		c->notsup = 1;
		return fail(c, "'%s': %s has no load-latency threshold", text, c->b->name);
	}
	snprintf(spec, sizeof(spec), c->b->mem_ldlat, (unsigned)v);
	if (parse_event(&ic, spec, 0, e, &im, &imod) == 0)
		return 0;
	/* the thresholds there are, among the powers of two */
	char list[128] = "";
	unsigned near = 0;
	for (unsigned t = 1, at = 0; t && t <= 1u << 20; t <<= 1) {
		snprintf(spec, sizeof(spec), c->b->mem_ldlat, t);
		if (parse_event(&ic, spec, 0, e, &im, &imod) < 0)
			continue;
		if (!near || (t > v ? t - v : v - t) < (near > v ? near - v : v - near))
			near = t;
		if (at < sizeof(list))
			at += (unsigned)snprintf(list + at, sizeof(list) - at, "%s%u",
						 at ? ", " : "", t);
	}
	memset(e, 0, sizeof(*e));
	if (!near)
		return fail(c, "'%s' on %s: %s", text, c->b->name, inner);
	return fail(c, "ldlat=%lu in '%s': %s's thresholds are %s cycles (did you mean ldlat=%u?)",
		    v, text, c->b->name, list, near);
}

/* A term's number: a whole number from 1 to max; 0, or -1. */
static int term_number(const char *s, uint64_t max, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end || !*v || *v > max ? -1 : 0;
}

/* The terms between a PMU/TERMS/MODS form's slashes. */
struct terms {
	char *name, *ldlat;
	uint64_t period, freq, config;
	char raw[24]; /* config=N as the raw form rHEX */
};

#define TERMS_KNOWN "an event, config=N, ldlat=N, name=NAME, period=N, freq=N"

/* One term t of text into tm; 0, or -1 after saying why not. */
static int parse_term(struct ctx *c, const char *text, char *t, struct terms *tm)
{
	if (!strncmp(t, "ldlat=", 6)) {
		tm->ldlat = t + 6;
	} else if (!strncmp(t, "name=", 5)) {
		if (!t[5] || strpbrk(t + 5, ":{}") || strlen(t + 5) >= sizeof(c->term_name))
			return fail(c, "name= wants a name (no ':', '{', '}'), not '%s' in '%s'",
				    t + 5, text);
		snprintf(c->term_name, sizeof(c->term_name), "%s", t + 5);
	} else if (!strncmp(t, "period=", 7)) {
		if (term_number(t + 7, (1ull << 39) - 1, &tm->period))
			return fail(c, "period= wants events from 1 to 2^39-1, not '%s' in '%s'",
				    t + 7, text);
	} else if (!strncmp(t, "freq=", 5)) {
		if (term_number(t + 5, 100000000, &tm->freq))
			return fail(
				c, "freq= wants samples per second from 1 to 1e8, not '%s' in '%s'",
				t + 5, text);
	} else if (!strncmp(t, "config=", 7)) {
		if (term_number(t + 7, ~0ull, &tm->config))
			return fail(c, "config= wants a register image (0x...), not '%s' in '%s'",
				    t + 7, text);
		snprintf(tm->raw, sizeof(tm->raw), "r%llx", (unsigned long long)tm->config);
	} else if (strchr(t, '=') || strchr(t, '/') || (tm->name && *t)) {
		return fail(c, "unknown term '%s' in '%s' (" TERMS_KNOWN ")", t, text);
	} else if (*t) {
		tm->name = t;
	}
	return 0;
}

/* perf's PMU/TERMS/MODS form (cpu/mem-loads,ldlat=30/P): PMU is cpu or
 * the machine's name; TERMS an event, or config=N (the raw form rHEX),
 * and, for mem-loads, ldlat=N; and name=NAME (the event's name in the
 * output), period=N or freq=N (its sampling rate in vpmu record). */
static int slash_event(struct ctx *c, const char *text, struct arch_evsel *e, struct mods *m,
		       int *modtok)
{
	char buf[SPEC_MAX], *terms, *mods, *name;
	struct terms tm = { 0 };
	struct mods im;
	int imod = 0, rc;

	snprintf(buf, sizeof(buf), "%s", text);
	terms = strchr(buf, '/');
	*terms++ = 0;
	mods = strrchr(terms, '/');
	if (!mods)
		return fail(c, "no closing '/' in '%s'", text);
	*mods++ = 0;
	if (strcmp(buf, "cpu") && strcasecmp(buf, c->b->name))
		return fail(c, "unknown pmu '%s' in '%s' (valid: cpu, %s)", buf, text, c->b->name);
	for (char *t = terms, *next; t; t = next) {
		next = strchr(t, ',');
		if (next)
			*next++ = 0;
		if (parse_term(c, text, t, &tm) < 0)
			return -1;
	}
	if (tm.period && tm.freq)
		return fail(c, "period= and freq= exclude each other in '%s'", text);
	if (tm.raw[0] && (tm.name || tm.ldlat))
		return fail(c, "config= is the event: no other in '%s'", text);
	name = tm.raw[0] ? tm.raw : tm.name;
	if (!name)
		return fail(c, "no event in '%s'", text);
	rc = tm.ldlat ? ldlat_event(c, text, name, tm.ldlat, e) :
			parse_event(c, name, 1, e, &im, &imod);
	if (rc < 0)
		return rc;
	e->term_period = tm.period;
	e->term_freq = (uint32_t)tm.freq;
	memset(m, 0, sizeof(*m));
	*modtok = 0;
	if (imod)
		return fail(c, "modifiers go after the last '/' in '%s'", text);
	if (*mods) {
		rc = parse_mods(mods, m);
		if (rc < 0)
			return bad_mods(c, rc, mods, text);
		*modtok = 1;
	}
	return 0;
}

/* One event's text (trimmed, shorter than SPEC_MAX) into e: event, unit
 * mask or raw config; its modifiers into m, *modtok set when the text ends
 * in a modifier token. */
static int parse_event(struct ctx *c, const char *text, int generic_ok, struct arch_evsel *e,
		       struct mods *m, int *modtok)
{
	char buf[SPEC_MAX];
	char *name = buf, *tail, *dc;
	int prefixed = 0, idx, rc;

	if (strchr(text, '/'))
		return slash_event(c, text, e, m, modtok);
	memset(e, 0, sizeof(*e));
	memset(m, 0, sizeof(*m));
	*modtok = 0;
	snprintf(buf, sizeof(buf), "%s", text);
	dc = strstr(buf, "::");
	if (dc && dc > buf && !memchr(buf, ':', (size_t)(dc - buf))) {
		*dc = 0;
		if (strcasecmp(buf, c->b->name))
			return fail(c, "unknown pmu '%s' in '%s' (valid: %s)", buf, text,
				    c->b->name);
		name = dc + 2;
		prefixed = 1;
	}
	tail = strchr(name, ':');
	if (tail)
		*tail++ = 0;
	if (!*name)
		return fail(c, "empty event name in '%s'", text);

	if (!prefixed && generic_ok) {
		idx = find_generic(c->b, name);
		if (idx >= 0)
			return generic_event(c, text, idx, tail, e, m, modtok);
	}
	idx = find_native(c->b, name);
	if (idx >= 0)
		return native_tail(c, text, idx, tail, e, m, modtok);
	if (!prefixed && name[0] == 'r' && is_hex_digits(name + 1, 16)) {
		e->raw = 1;
		e->event = -1;
		e->config = strtoull(name + 1, NULL, 16);
		if (tail) {
			rc = parse_mods(tail, m);
			if (rc < 0)
				return bad_mods(c, rc, tail, text);
			*modtok = 1;
		}
		return 0;
	}
	/* perf's names a machine lacks are <not supported>, as in perf */
	if (!prefixed && generic_ok && evspec_generic_class(name))
		return generic_unsupported(c, name);
	return unknown_event(c, name, prefixed);
}

/* ---- lists and groups --------------------------------------------------- */

/* The end of the event at p: the first of stop's characters not inside
 * a PMU/TERMS/ form's slashes (its terms are comma-separated), or end. */
static const char *event_end(const char *p, const char *end, const char *stop)
{
	int in = 0;

	for (; p < end && *p && (in || !strchr(stop, *p)); p++)
		in ^= *p == '/' && (in || strchr(p + 1, '/'));
	return p;
}

const char *evspec_item_end(const char *p)
{
	if (*p == '{') {
		p += strcspn(p, "}");
		return p + strcspn(p, ",");
	}
	return event_end(p, p + strlen(p), ",");
}

/* [s, e) without blank space around it. */
static void trim(const char **s, const char **e)
{
	while (*s < *e && isspace((unsigned char)**s))
		(*s)++;
	while (*e > *s && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

/* A group's first event and modifiers as the members see them. */
struct group {
	unsigned leader;
	int has_mods;
	struct mods m;
	char tok[TEXT_MAX];  /* the modifiers as written */
	char text[TEXT_MAX]; /* from '{' to their end, for messages */
};

/* The event text [s, e) as out[*at], alone (g NULL) or in group g. */
static int add_event(struct ctx *c, const char *s, const char *e, const struct group *g,
		     struct arch_evsel *out, unsigned max, unsigned *at)
{
	char text[TEXT_MAX], msg[256];
	struct arch_evsel *ev;
	struct mods m;
	int modtok, rc;
	size_t len;

	trim(&s, &e);
	len = (size_t)(e - s);
	if (!len)
		return fail(c, "empty event in '%s'", c->spec);
	if (len >= TEXT_MAX)
		return fail(c, "event '%.32s...' too long (max %zu characters)", s, TEXT_MAX - 1);
	if (*at >= max)
		return fail(c, "too many events (max %u)", max);
	memcpy(text, s, len);
	text[len] = 0;
	ev = &out[*at];
	c->term_name[0] = 0;
	if (parse_event(c, text, 1, ev, &m, &modtok) < 0)
		return -1;

	if (g && g->has_mods) {
		/* perf's rule for a group's modifiers: levels named on the
		 * member or the group count; p's add up. */
		const char *slash = strrchr(text, '/');
		const char *colon = modtok && !slash ? strrchr(text, ':') : NULL;
		size_t base = slash ? (size_t)(slash - text) + 1 :
			      colon ? (size_t)(colon - text) :
				      len;

		m.user |= g->m.user;
		m.kernel |= g->m.kernel;
		if (m.precise + g->m.precise > 2)
			return fail(c, "bad modifier '%s' in '%s' (at most pp with '%s')", g->tok,
				    g->text, text);
		m.precise += g->m.precise;
		if (base + 6 > TEXT_MAX)
			return fail(c, "event '%.32s...' too long (max %zu characters)", text,
				    TEXT_MAX - 1);
		snprintf(ev->name, sizeof(ev->name), "%.*s%s%s%s%s", (int)base, text,
			 slash ? "" : ":", m.user ? "u" : "", m.kernel ? "k" : "",
			 &"pp"[2 - m.precise]);
	} else {
		memcpy(ev->name, text, len + 1);
	}
	if (!m.user && !m.kernel && c->levels != EVSPEC_BOTH) {
		/* --all-user, --all-kernel: its modifier added to the name,
		 * after the others or as one of its own */
		size_t l = strlen(ev->name);
		int bare = !(g && g->has_mods) && !modtok && (!len || text[len - 1] != '/');
		m.user = c->levels == EVSPEC_USER;
		m.kernel = c->levels == EVSPEC_KERNEL;
		if (l + 3 > sizeof(ev->name))
			return fail(c, "event '%.32s...' too long (max %zu characters)", text,
				    sizeof(ev->name) - 3);
		snprintf(ev->name + l, sizeof(ev->name) - l, "%s%s", bare ? ":" : "",
			 m.user ? "u" : "k");
	}
	if (c->term_name[0]) /* (perf's name=: the name, modifiers and all) */
		snprintf(ev->name, sizeof(ev->name), "%s", c->term_name);
	if (m.user || m.kernel) {
		ev->excl_user = !m.user;
		ev->excl_kernel = !m.kernel;
	}
	ev->precise = m.precise;
	ev->group = (int)(g ? g->leader : *at);

	msg[0] = 0;
	if (ev->raw)
		rc = c->b->decode ? c->b->decode(ev, msg, sizeof(msg)) : 0;
	else
		rc = c->b->encode ? c->b->encode(ev, msg, sizeof(msg)) : 0;
	if (rc) {
		c->notsup = rc == ARCH_ENOTSUP;
		msg[sizeof(msg) - 1] = 0;
		if (!msg[0])
			return fail(c, "cannot %s '%s'", ev->raw ? "decode" : "encode", ev->name);
		return fail(c, "%s", msg);
	}
	(*at)++;
	return 0;
}

/* The group whose '{' is at *pp; *pp moves past it and its modifiers. */
static int add_group(struct ctx *c, const char **pp, struct arch_evsel *out, unsigned max,
		     unsigned *at)
{
	const char *open = *pp, *close, *p, *mend;
	struct group g = { .leader = *at };

	for (close = open + 1; *close && *close != '}'; close++)
		if (*close == '{')
			return fail(c, "nested '{' in '%s'", c->spec);
	if (!*close)
		return fail(c, "unbalanced '{' in '%s'", c->spec);

	mend = close + 1;
	if (*mend == ':') {
		const char *ms = mend + 1;
		int rc;

		mend = ms + strcspn(ms, ",{}");
		p = mend;
		trim(&ms, &p);
		snprintf(g.text, sizeof(g.text), "%.*s", (int)(p - open), open);
		if ((size_t)(p - ms) >= sizeof(g.tok))
			return fail(c, "bad modifier '%.32s...' in '%s'", ms, g.text);
		snprintf(g.tok, sizeof(g.tok), "%.*s", (int)(p - ms), ms);
		rc = parse_mods(g.tok, &g.m);
		if (rc < 0)
			return bad_mods(c, rc, g.tok, g.text);
		g.has_mods = 1;
	}

	for (p = open + 1;;) {
		const char *e = event_end(p, close, ",");

		if (add_event(c, p, e, &g, out, max, at) < 0)
			return -1;
		if (e == close)
			break;
		p = e + 1;
	}
	*pp = mend;
	return 0;
}

int evspec_parse(const struct arch_backend *b, const char *spec, struct arch_evsel *out,
		 unsigned max, unsigned *n, char *err, size_t errsz)
{
	return evspec_parse_levels(b, spec, EVSPEC_BOTH, out, max, n, err, errsz);
}

int evspec_parse_levels(const struct arch_backend *b, const char *spec, int levels,
			struct arch_evsel *out, unsigned max, unsigned *n, char *err, size_t errsz)
{
	struct ctx c = {
		.b = b, .spec = spec ? spec : "", .err = err, .errsz = errsz, .levels = levels
	};
	const char *p = c.spec;
	unsigned at = *n;

	if (errsz)
		err[0] = 0;
	if (at > max)
		return fail(&c, "too many events (max %u)", max);
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '{') {
			if (add_group(&c, &p, out, max, &at) < 0)
				return c.notsup ? EVSPEC_NOTSUP : -1;
			while (isspace((unsigned char)*p))
				p++;
			if (*p == '}')
				return fail(&c, "unbalanced '}' in '%s'", c.spec);
			if (*p == '{')
				return fail(&c, "unexpected '{' in '%s'", c.spec);
			if (*p && *p != ',')
				return fail(&c, "unexpected '%c' after '}' in '%s'", *p, c.spec);
		} else {
			const char *e = event_end(p, p + strlen(p), ",{}");

			if (*e == '}')
				return fail(&c, "unbalanced '}' in '%s'", c.spec);
			if (*e == '{')
				return fail(&c, "unexpected '{' in '%s'", c.spec);
			if (add_event(&c, p, e, NULL, out, max, &at) < 0)
				return c.notsup ? EVSPEC_NOTSUP : -1;
			p = e;
		}
		if (!*p)
			break;
		p++; /* ',' */
	}
	*n = at;
	return 0;
}
