/* systab.c — system calls by number and name, and their calls and
 * results printed the way perf trace prints them. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "evspec.h"
#include "systab.h"

#define A(kind, bits, name)               \
	{                                 \
		SYSTAB_##kind, bits, name \
	}
#define R_INT 0
#define R_HEX 1
#define SYS(nr, name, ret, nargs, ...) [nr] = { name, ret, nargs, { __VA_ARGS__ } },
static const struct systab_call calls[SYSTAB_MAX] = {
#include "systab_data.h"
};
#undef SYS
#undef A

const struct systab_call *systab_call(long nr)
{
	return nr >= 0 && nr < SYSTAB_MAX && calls[nr].name ? &calls[nr] : NULL;
}

long systab_find(const char *name)
{
	for (long nr = 0; nr < SYSTAB_MAX; nr++)
		if (calls[nr].name && !strcmp(calls[nr].name, name))
			return nr;
	return -1;
}

const char *systab_name(long nr, char *buf, size_t n)
{
	const struct systab_call *c = systab_call(nr);

	if (c)
		return c->name;
	snprintf(buf, n, "syscall_%ld", nr);
	return buf;
}

const char *systab_closest(const char *word)
{
	struct evspec_match m;

	evspec_match_init(&m, word);
	for (long nr = 0; nr < SYSTAB_MAX; nr++)
		if (calls[nr].name)
			evspec_match_try(&m, calls[nr].name);
	return evspec_match_best(&m);
}

unsigned systab_strings(long nr)
{
	const struct systab_call *c = systab_call(nr);
	unsigned mask = 0;

	for (int k = 0; c && k < c->nargs; k++)
		if (c->arg[k].kind == SYSTAB_A_STR)
			mask |= 1u << k;
	return mask;
}

/* Appending to a buffer that may fill: what did not fit is dropped. */
struct out {
	char *buf;
	size_t n, len;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (o->len + 1 >= o->n)
		return;
	va_start(ap, fmt);
	r = vsnprintf(o->buf + o->len, o->n - o->len, fmt, ap);
	va_end(ap);
	if (r > 0)
		o->len = o->len + (size_t)r < o->n ? o->len + (size_t)r : o->n - 1;
}

struct flag {
	uint64_t bit;
	const char *name;
};

/* Flags as NAME|NAME, what no name covers as hex after them. */
static void put_flags(struct out *o, uint64_t v, const struct flag *f, size_t nf)
{
	const char *sep = "";

	for (size_t k = 0; k < nf; k++) {
		if (f[k].bit && (v & f[k].bit) == f[k].bit) {
			put(o, "%s%s", sep, f[k].name);
			v &= ~f[k].bit;
			sep = "|";
		}
	}
	if (v || !*sep)
		put(o, "%s%#llx", sep, (unsigned long long)v);
}

/* (a name whose bits include another's comes first: SYNC has DSYNC's,
 * TMPFILE DIRECTORY's) */
static const struct flag open_flags[] = {
	{ O_WRONLY, "WRONLY" },	    { O_RDWR, "RDWR" },		{ O_CREAT, "CREAT" },
	{ O_EXCL, "EXCL" },	    { O_NOCTTY, "NOCTTY" },	{ O_TRUNC, "TRUNC" },
	{ O_APPEND, "APPEND" },	    { O_NONBLOCK, "NONBLOCK" }, { O_SYNC, "SYNC" },
	{ O_DSYNC, "DSYNC" },	    { O_DIRECT, "DIRECT" },	{ O_LARGEFILE, "LARGEFILE" },
	{ O_NOFOLLOW, "NOFOLLOW" }, { O_NOATIME, "NOATIME" },	{ O_CLOEXEC, "CLOEXEC" },
	{ O_PATH, "PATH" },	    { O_TMPFILE, "TMPFILE" },	{ O_DIRECTORY, "DIRECTORY" },
	{ FASYNC, "ASYNC" },
};

static const struct flag map_flags[] = {
	{ MAP_SHARED, "SHARED" },
	{ MAP_PRIVATE, "PRIVATE" },
	{ MAP_FIXED, "FIXED" },
	{ MAP_ANONYMOUS, "ANONYMOUS" },
	{ MAP_32BIT, "32BIT" },
	{ MAP_GROWSDOWN, "GROWSDOWN" },
	{ MAP_DENYWRITE, "DENYWRITE" },
	{ MAP_EXECUTABLE, "EXECUTABLE" },
	{ MAP_LOCKED, "LOCKED" },
	{ MAP_NORESERVE, "NORESERVE" },
	{ MAP_POPULATE, "POPULATE" },
	{ MAP_NONBLOCK, "NONBLOCK" },
	{ MAP_STACK, "STACK" },
	{ MAP_HUGETLB, "HUGETLB" },
	{ MAP_FIXED_NOREPLACE, "FIXED_NOREPLACE" },
};

static const struct flag prot_flags[] = {
	{ PROT_READ, "READ" },		 { PROT_WRITE, "WRITE" },     { PROT_EXEC, "EXEC" },
	{ PROT_GROWSDOWN, "GROWSDOWN" }, { PROT_GROWSUP, "GROWSUP" },
};

#define NFLAGS(f) (sizeof(f) / sizeof((f)[0]))

/* A string the call reads, quoted, with what would break the line
 * escaped. */
static void put_str(struct out *o, const char *s)
{
	put(o, "\"");
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			put(o, "\\%c", ch);
		else if (ch == '\n')
			put(o, "\\n");
		else if (ch < 0x20 || ch == 0x7f)
			put(o, "\\%03o", ch);
		else
			put(o, "%c", ch);
	}
	put(o, "\"");
}

static void put_arg(struct out *o, unsigned kind, unsigned bits, uint64_t v, const char *str)
{
	const char *sig;

	if (bits == 32) /* (the high half of the register is not the argument's) */
		v = kind == SYSTAB_A_INT || kind == SYSTAB_A_FD || kind == SYSTAB_A_SIG ?
			    (uint64_t)(int64_t)(int32_t)v :
			    (uint32_t)v;

	switch (kind) {
	case SYSTAB_A_INT:
		put(o, "%lld", (long long)v);
		break;
	case SYSTAB_A_UINT:
		put(o, "%llu", (unsigned long long)v);
		break;
	case SYSTAB_A_STR:
		if (str)
			put_str(o, str);
		else /* unreadable: the pointer */
			put(o, "%#llx", (unsigned long long)v);
		break;
	case SYSTAB_A_HEX:
	case SYSTAB_A_PTR:
		put(o, "%#llx", (unsigned long long)v);
		break;
	case SYSTAB_A_FD:
		if ((int)v == AT_FDCWD)
			put(o, "CWD");
		else
			put(o, "%d", (int)v);
		break;
	case SYSTAB_A_OPEN:
		if (!(v & O_ACCMODE))
			put(o, "RDONLY%s", v ? "|" : "");
		if (v)
			put_flags(o, v, open_flags, NFLAGS(open_flags));
		break;
	case SYSTAB_A_MAPF:
		put_flags(o, v, map_flags, NFLAGS(map_flags));
		break;
	case SYSTAB_A_PROT:
		if (!v)
			put(o, "NONE");
		else
			put_flags(o, v, prot_flags, NFLAGS(prot_flags));
		break;
	case SYSTAB_A_MODE:
		put(o, "%#llo", (unsigned long long)v);
		break;
	default: /* SYSTAB_A_SIG */
		sig = v > 0 && v < 65 ? sigabbrev_np((int)v) : NULL;
		if (sig)
			put(o, "%s", sig);
		else
			put(o, "%lld", (long long)v);
		break;
	}
}

size_t systab_format_call(char *buf, size_t n, long nr, const uint64_t a[6],
			  const char *const str[6])
{
	const struct systab_call *c = systab_call(nr);
	struct out o = { buf, n, 0 };
	char name[32];
	const char *sep = "";

	if (n)
		buf[0] = 0;
	put(&o, "%s(", systab_name(nr, name, sizeof(name)));
	for (int k = 0; k < (c && c->nargs >= 0 ? c->nargs : 6); k++) {
		unsigned kind = c && c->nargs >= 0 ? c->arg[k].kind : SYSTAB_A_HEX;
		unsigned bits = c && c->nargs >= 0 ? c->arg[k].bits : 64;
		if (!(bits == 32 ? (uint32_t)a[k] : a[k]) && kind != SYSTAB_A_FD &&
		    kind != SYSTAB_A_STR && kind != SYSTAB_A_OPEN && kind != SYSTAB_A_PROT)
			continue;
		if (c && c->nargs >= 0)
			put(&o, "%s%s: ", sep, c->arg[k].name);
		else
			put(&o, "%sarg%d: ", sep, k);
		put_arg(&o, kind, bits, a[k], str ? str[k] : NULL);
		sep = ", ";
	}
	put(&o, ")");
	return o.len;
}

size_t systab_format_ret(char *buf, size_t n, long nr, int64_t ret)
{
	const struct systab_call *c = systab_call(nr);
	struct out o = { buf, n, 0 };

	if (n)
		buf[0] = 0;
	if (ret < 0 && ret >= -4095) {
		const char *name = strerrorname_np((int)-ret);
		if (name)
			put(&o, "-1 %s (%s)", name, strerror((int)-ret));
		else
			put(&o, "-1 (errno %lld)", (long long)-ret);
	} else if (c && c->ret_hex) {
		put(&o, "%#llx", (unsigned long long)ret);
	} else {
		put(&o, "%lld", (long long)ret);
	}
	return o.len;
}
