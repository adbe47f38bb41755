/* systab.c — system calls by number and name, and their calls and
 * results printed the way perf trace prints them. */
#define _GNU_SOURCE /* strerrorname_np */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "evspec.h"
#include "systab.h"
#include "systab_priv.h"

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
		if (c->arg[k].kind == SYSTAB_A_STR || c->arg[k].kind == SYSTAB_A_SOCKADDR)
			mask |= 1u << k;
	return mask;
}

void systab_put(struct systab_out *o, const char *fmt, ...)
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

size_t systab_format_call(char *buf, size_t n, long nr, const uint64_t a[6],
			  const char *const str[6])
{
	const struct systab_call *c = systab_call(nr);
	struct systab_out o = { buf, n, 0 };
	char name[32];
	const char *sep = "";

	if (n)
		buf[0] = 0;
	systab_put(&o, "%s(", systab_name(nr, name, sizeof(name)));
	for (int k = 0; k < (c && c->nargs >= 0 ? c->nargs : 6); k++) {
		unsigned kind = c && c->nargs >= 0 ? c->arg[k].kind : SYSTAB_A_HEX;
		unsigned bits = c && c->nargs >= 0 ? c->arg[k].bits : 64;
		if (!(bits == 32 ? (uint32_t)a[k] : a[k]) && !systab_shows_zero(kind))
			continue;
		if (c && c->nargs >= 0)
			systab_put(&o, "%s%s: ", sep, c->arg[k].name);
		else
			systab_put(&o, "%sarg%d: ", sep, k);
		systab_put_arg(&o, kind, bits, a[k], str ? str[k] : NULL);
		sep = ", ";
	}
	systab_put(&o, ")");
	return o.len;
}

size_t systab_format_ret(char *buf, size_t n, long nr, int64_t ret)
{
	const struct systab_call *c = systab_call(nr);
	struct systab_out o = { buf, n, 0 };

	if (n)
		buf[0] = 0;
	if (ret < 0 && ret >= -4095) {
		const char *name = strerrorname_np((int)-ret);
		if (name)
			systab_put(&o, "-1 %s (%s)", name, strerror((int)-ret));
		else
			systab_put(&o, "-1 (errno %lld)", (long long)-ret);
	} else if (c && c->ret_hex) {
		systab_put(&o, "%#llx", (unsigned long long)ret);
	} else {
		systab_put(&o, "%lld", (long long)ret);
	}
	return o.len;
}
