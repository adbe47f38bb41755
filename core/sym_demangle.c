/* sym_demangle.c — C++ and Rust symbol names as people write them, by
 * the C++ runtime's demangler (the Itanium C++ ABI's __cxa_demangle,
 * which perf uses too), with a symbol version or "@plt" suffix kept as
 * it was.  Rust's legacy names are C++-shaped paths whose last element
 * is a hash, shown without it and with their escapes undone, as perf
 * and rustc-demangle show them. */
#include <stdlib.h>
#include <string.h>

#include "sym.h"

/* libstdc++ (cxxabi.h); declared extern "C" there. */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

/* Rust's legacy escapes (rustc's symbol_names/legacy.rs): "$LT$" for
 * '<' and the like, "$u20$" for a code point, ".." for "::". */
static const char *const rust_escapes[][2] = {
	{ "SP", "@" }, { "BP", "*" }, { "RF", "&" }, { "LT", "<" },
	{ "GT", ">" }, { "LP", "(" }, { "RP", ")" }, { "C", "," },
};

/* Append element e (n bytes) to out, its escapes undone; -1 for an
 * escape Rust does not write. */
static int rust_element(char *out, const char *e, size_t n)
{
	const char *end = e + n;

	if (n >= 2 && e[0] == '_' && e[1] == '$')
		e++; /* (an element may not begin with '$') */
	out += strlen(out);
	while (e < end) {
		if (e[0] == '.' && e + 1 < end && e[1] == '.') {
			*out++ = ':';
			*out++ = ':';
			e += 2;
			continue;
		}
		if (e[0] != '$') {
			*out++ = *e++;
			continue;
		}
		const char *close = memchr(e + 1, '$', (size_t)(end - e - 1));
		size_t len = close ? (size_t)(close - e - 1) : 0, k;
		if (!close || !len)
			return -1;
		for (k = 0; k < sizeof(rust_escapes) / sizeof(rust_escapes[0]); k++)
			if (strlen(rust_escapes[k][0]) == len &&
			    !memcmp(e + 1, rust_escapes[k][0], len))
				break;
		if (k < sizeof(rust_escapes) / sizeof(rust_escapes[0])) {
			*out++ = rust_escapes[k][1][0];
		} else {
			/* $uXX$: an ASCII code point, printable */
			char hex[3] = { 0 }, *stop;
			if (e[1] != 'u' || len < 2 || len > 3)
				return -1;
			memcpy(hex, e + 2, len - 1);
			long c = strtol(hex, &stop, 16);
			if (*stop || c < 0x20 || c > 0x7e)
				return -1;
			*out++ = (char)c;
		}
		e = close + 1;
	}
	*out = 0;
	return 0;
}

/* A Rust legacy name (_ZN ... 17h<16 hex digits>E): its path without the
 * hash, or NULL when name is not one. */
static char *rust_legacy(const char *name, size_t n)
{
	const char *p = name + 3, *end = name + n, *hash;
	char *out;

	if (n < 3 + 2 + 20 || strncmp(name, "_ZN", 3) || end[-1] != 'E' ||
	    strncmp(end - 20, "17h", 3))
		return NULL;
	for (const char *h = end - 17; h < end - 1; h++)
		if (!(*h >= '0' && *h <= '9') && !(*h >= 'a' && *h <= 'f'))
			return NULL;
	hash = end - 20;
	out = calloc(1, n * 2 + 1); /* (an escape is never longer than its text) */
	if (!out)
		return NULL;
	while (p < hash) {
		char *stop;
		unsigned long len = strtoul(p, &stop, 10);
		if (*p < '1' || *p > '9' || len > (unsigned long)(hash - stop))
			return free(out), NULL;
		if (*out)
			strcat(out, "::");
		if (rust_element(out, stop, len))
			return free(out), NULL;
		p = stop + len;
	}
	if (p != hash || !*out)
		return free(out), NULL;
	return out;
}

char *sym_demangle(const char *name)
{
	const char *at;
	char *base, *plain, *out;
	size_t n, sn;
	int status = 0;

	/* mangled names begin _Z (Itanium C++ ABI, 5.1.2); "main" stays */
	if (!name || strncmp(name, "_Z", 2))
		return NULL;
	at = strchr(name, '@'); /* name@plt, name@@GLIBCXX_3.4 */
	n = at ? (size_t)(at - name) : strlen(name);
	base = strndup(name, n);
	if (!base)
		return NULL;
	plain = rust_legacy(base, n);
	if (!plain)
		plain = __cxa_demangle(base, NULL, NULL, &status);
	free(base);
	if (!plain || status)
		return free(plain), NULL;
	if (!at)
		return plain;
	sn = strlen(at);
	out = realloc(plain, strlen(plain) + sn + 1);
	if (!out)
		return free(plain), NULL;
	strcat(out, at);
	return out;
}
