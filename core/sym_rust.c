/* sym_rust.c — Rust's symbol names as Rust writes them, the way perf
 * (by rustc-demangle's rules) shows them: the legacy names, C++-shaped
 * paths whose last element is a hash, without it and with their escapes
 * undone; and the v0 names ("_R", Rust RFC 2603). */
#define _GNU_SOURCE /* memrchr */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sym.h"

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
		if (*p < '1' || *p > '9' || stop > hash || len > (unsigned long)(hash - stop))
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

/* Rust's v0 names (the "_R" scheme of Rust RFC 2603, "Rust Symbol Name
 * Mangling v0"), printed as rustc-demangle's alternate form prints them,
 * which perf shows: no crate disambiguators, no suffixes on constants. */
struct v0 {
	const char *s; /* the name after "_R" */
	size_t n, pos;
	char *out;
	size_t len, cap;
	int err, skip;	       /* skip: parse without printing */
	unsigned depth, bound; /* recursion; lifetimes bound so far */
};

#define V0_DEPTH 200 /* deeper nesting is refused as damage */
#define V0_OUT 4096  /* a longer name is left mangled */

static void put(struct v0 *d, const char *t, size_t n)
{
	if (d->skip || d->err)
		return;
	if (d->len + n >= d->cap) {
		d->err = 1;
		return;
	}
	memcpy(d->out + d->len, t, n);
	d->len += n;
	d->out[d->len] = 0;
}

static void puts_(struct v0 *d, const char *t)
{
	put(d, t, strlen(t));
}

static int peek(const struct v0 *d)
{
	return !d->err && d->pos < d->n ? (unsigned char)d->s[d->pos] : 0;
}

static int eat(struct v0 *d, int c)
{
	if (peek(d) != c || !c)
		return 0;
	d->pos++;
	return 1;
}

static int next(struct v0 *d)
{
	int c = peek(d);

	if (!c)
		d->err = 1;
	else
		d->pos++;
	return c;
}

/* <base-62-number>: "_" is 0, digits then "_" their value plus one. */
static uint64_t base62(struct v0 *d)
{
	uint64_t x = 0;
	int c;

	if (eat(d, '_'))
		return 0;
	while ((c = next(d)) != '_' && !d->err) {
		unsigned v = c >= '0' && c <= '9' ? (unsigned)(c - '0') :
			     c >= 'a' && c <= 'z' ? (unsigned)(c - 'a' + 10) :
			     c >= 'A' && c <= 'Z' ? (unsigned)(c - 'A' + 36) :
						    99;
		if (v == 99 || x > (UINT64_MAX - v) / 62)
			d->err = 1;
		else
			x = x * 62 + v;
	}
	if (x == UINT64_MAX)
		d->err = 1;
	return x + 1;
}

static uint64_t opt_base62(struct v0 *d, int tag)
{
	return eat(d, tag) ? base62(d) + 1 : 0;
}

/* <decimal-number>: "0", or digits not starting with 0. */
static size_t decimal(struct v0 *d)
{
	size_t x = 0;

	if (eat(d, '0'))
		return 0;
	if (peek(d) < '1' || peek(d) > '9')
		d->err = 1;
	while (peek(d) >= '0' && peek(d) <= '9' && !d->err) {
		if (x > (SIZE_MAX - 9) / 10)
			d->err = 1;
		x = x * 10 + (size_t)(next(d) - '0');
	}
	return x;
}

/* An identifier: its ASCII text, or for a non-ASCII one ('u') the ASCII
 * characters and the Punycode (RFC 3492, '-' written '_') that inserts
 * the others. */
struct ident {
	const char *ascii, *puny;
	size_t nascii, npuny;
};

/* <undisambiguated-identifier> */
static struct ident ident(struct v0 *d)
{
	struct ident id = { "", NULL, 0, 0 };
	int puny = eat(d, 'u');
	size_t len = decimal(d);

	eat(d, '_');
	if (d->err || len > d->n - d->pos) {
		d->err = 1;
		return id;
	}
	id.ascii = d->s + d->pos;
	id.nascii = len;
	d->pos += len;
	if (puny) { /* the ASCII part ends at the last '_' */
		const char *u = memrchr(id.ascii, '_', len);
		id.puny = u ? u + 1 : id.ascii;
		id.npuny = len - (size_t)(id.puny - id.ascii);
		id.nascii = u ? (size_t)(u - id.ascii) : 0;
		if (!id.npuny)
			d->err = 1;
	}
	return id;
}

/* Code point c in UTF-8. */
static void put_utf8(struct v0 *d, uint32_t c)
{
	char u[4];
	size_t m = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;

	if (m == 1) {
		u[0] = (char)c;
	} else {
		for (size_t j = m - 1; j > 0; j--, c >>= 6)
			u[j] = (char)(0x80 | (c & 0x3f));
		u[0] = (char)((m == 2 ? 0xc0 : m == 3 ? 0xe0 : 0xf0) | c);
	}
	put(d, u, m);
}

/* RFC 3492's bias adaptation (section 6.1). */
static uint32_t puny_adapt(uint32_t delta, uint32_t points, int first)
{
	uint32_t k = 0;

	delta = first ? delta / 700 : delta / 2;
	delta += delta / points;
	for (; delta > (36 - 1) * 26 / 2; k += 36)
		delta /= 36 - 1;
	return k + (36 * delta) / (delta + 38);
}

#define PUNY_MAX 256 /* code points in a name's identifier */

/* Print identifier id, its Punycode decoded (RFC 3492, section 6.2) to
 * UTF-8; a code point that is no character, or a control, is damage. */
static void put_ident(struct v0 *d, struct ident id)
{
	uint32_t cp[PUNY_MAX], n = 0x80, bias = 72, i = 0, len = 0;

	if (!id.puny) {
		put(d, id.ascii, id.nascii);
		return;
	}
	const char *p = id.puny, *end = id.puny + id.npuny;
	if (id.nascii >= PUNY_MAX) {
		d->err = 1;
		return;
	}
	for (; len < id.nascii; len++)
		cp[len] = (unsigned char)id.ascii[len];
	while (p < end && !d->err) {
		uint32_t old = i, w = 1;
		for (uint32_t k = 36;; k += 36) {
			int c = p < end ? *p++ : -1;
			uint32_t digit = c >= 'a' && c <= 'z' ? (uint32_t)(c - 'a') :
					 c >= '0' && c <= '9' ? (uint32_t)(c - '0' + 26) :
								99;
			uint32_t t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
			if (digit == 99 || digit > (UINT32_MAX - i) / w) {
				d->err = 1;
				return;
			}
			i += digit * w;
			if (digit < t)
				break;
			if (w > UINT32_MAX / (36 - t)) {
				d->err = 1;
				return;
			}
			w *= 36 - t;
		}
		if (len + 1 >= PUNY_MAX || i / (len + 1) > 0x10ffff - n) {
			d->err = 1;
			return;
		}
		bias = puny_adapt(i - old, len + 1, old == 0);
		n += i / (len + 1);
		i %= len + 1;
		if (n < 0xa0 || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) {
			d->err = 1; /* (ASCII is never encoded; no controls) */
			return;
		}
		memmove(cp + i + 1, cp + i, (len - i) * sizeof(*cp));
		cp[i++] = n;
		len++;
	}
	for (uint32_t k = 0; k < len; k++)
		put_utf8(d, cp[k]);
}

static void path(struct v0 *d, int in_value);
static void type(struct v0 *d);
static void konst(struct v0 *d, int in_value);

/* <backref>: what the name holds at an earlier position, printed again. */
static void backref(struct v0 *d, void (*f)(struct v0 *, int), int arg)
{
	size_t b = d->pos - 1; /* (where the 'B' is: a reference goes back) */
	uint64_t at = base62(d);
	size_t here = d->pos;

	if (d->err || at >= b || ++d->depth > V0_DEPTH) {
		d->err = 1;
		return;
	}
	d->pos = (size_t)at;
	f(d, arg);
	d->pos = here;
	d->depth--;
}

static void type_arg(struct v0 *d, int unused)
{
	(void)unused;
	type(d);
}

static void konst_arg(struct v0 *d, int in_value)
{
	konst(d, in_value);
}

static void lifetime(struct v0 *d, uint64_t lt)
{
	char b[32];

	if (lt == 0) {
		puts_(d, "'_");
		return;
	}
	if (lt > d->bound) {
		d->err = 1;
		return;
	}
	uint64_t depth = d->bound - lt;
	if (depth < 26)
		snprintf(b, sizeof(b), "'%c", (char)('a' + depth));
	else
		snprintf(b, sizeof(b), "'_%llu", (unsigned long long)depth);
	puts_(d, b);
}

/* [<binder>]: "for<'a, 'b> " for the lifetimes it binds. */
static unsigned binder(struct v0 *d)
{
	uint64_t n = opt_base62(d, 'G');

	if (n > 64) {
		d->err = 1;
		return 0;
	}
	if (n) {
		puts_(d, "for<");
		for (uint64_t k = 0; k < n; k++) {
			if (k)
				puts_(d, ", ");
			d->bound++;
			lifetime(d, 1);
		}
		puts_(d, "> ");
	}
	return (unsigned)n;
}

static void generic_arg(struct v0 *d)
{
	if (eat(d, 'L'))
		lifetime(d, base62(d));
	else if (eat(d, 'K'))
		konst(d, 0);
	else
		type(d);
}

/* {<generic-arg>} "E", separated by ", " */
static unsigned generic_args(struct v0 *d)
{
	unsigned n = 0;

	while (!d->err && !eat(d, 'E')) {
		if (n++)
			puts_(d, ", ");
		generic_arg(d);
	}
	return n;
}

static void path(struct v0 *d, int in_value)
{
	struct ident name;
	int tag;

	if (++d->depth > V0_DEPTH)
		d->err = 1;
	switch (tag = next(d)) {
	case 'C': /* a crate root */
		opt_base62(d, 's');
		put_ident(d, ident(d));
		break;
	case 'N': { /* ...::name, in a namespace */
		int ns = next(d);
		path(d, in_value);
		uint64_t dis = opt_base62(d, 's');
		name = ident(d);
		int named = name.nascii || name.npuny;
		if (ns >= 'A' && ns <= 'Z') { /* {closure#0}, {shim:vtable#0} */
			char b[32];
			puts_(d, "::{");
			puts_(d, ns == 'C' ? "closure" :
				 ns == 'S' ? "shim" :
					     (char[2]){ (char)ns, 0 });
			if (named) {
				puts_(d, ":");
				put_ident(d, name);
			}
			snprintf(b, sizeof(b), "#%llu}", (unsigned long long)dis);
			puts_(d, b);
		} else if (ns >= 'a' && ns <= 'z') {
			if (named) {
				puts_(d, "::");
				put_ident(d, name);
			}
		} else {
			d->err = 1;
		}
		break;
	}
	case 'M':		  /* <T>: an inherent impl */
	case 'X':		  /* <T as Trait>: a trait impl */
	case 'Y':		  /* <T as Trait>: a trait's own item */
		if (tag != 'Y') { /* the impl's path, not shown */
			opt_base62(d, 's');
			d->skip++;
			path(d, 0);
			d->skip--;
		}
		puts_(d, "<");
		type(d);
		if (tag != 'M') {
			puts_(d, " as ");
			path(d, 0);
		}
		puts_(d, ">");
		break;
	case 'I': /* generic arguments: path::<T> as a value, path<T> as a type */
		path(d, in_value);
		puts_(d, in_value ? "::<" : "<");
		generic_args(d);
		puts_(d, ">");
		break;
	case 'B':
		backref(d, path, in_value);
		break;
	default:
		d->err = 1;
	}
	d->depth--;
}

/* The basic types, by their letter (RFC 2603, "Basic types"). */
static const char *basic_type(int c)
{
	static const char *const names[26] = {
		['a' - 'a'] = "i8",   ['b' - 'a'] = "bool",  ['c' - 'a'] = "char",
		['d' - 'a'] = "f64",  ['e' - 'a'] = "str",   ['f' - 'a'] = "f32",
		['h' - 'a'] = "u8",   ['i' - 'a'] = "isize", ['j' - 'a'] = "usize",
		['l' - 'a'] = "i32",  ['m' - 'a'] = "u32",   ['n' - 'a'] = "i128",
		['o' - 'a'] = "u128", ['p' - 'a'] = "_",     ['s' - 'a'] = "i16",
		['t' - 'a'] = "u16",  ['u' - 'a'] = "()",    ['v' - 'a'] = "...",
		['x' - 'a'] = "i64",  ['y' - 'a'] = "u64",   ['z' - 'a'] = "!",
	};
	return c >= 'a' && c <= 'z' ? names[c - 'a'] : NULL;
}

static void fn_sig(struct v0 *d)
{
	unsigned bound = binder(d);

	if (eat(d, 'U'))
		puts_(d, "unsafe ");
	if (eat(d, 'K')) {
		puts_(d, "extern \"");
		if (eat(d, 'C')) {
			puts_(d, "C");
		} else { /* an ABI's name, '-' written '_' */
			struct ident abi = ident(d);
			if (abi.puny || !abi.nascii)
				d->err = 1;
			for (size_t k = 0; k < abi.nascii; k++)
				put(d, abi.ascii[k] == '_' ? "-" : &abi.ascii[k], 1);
		}
		puts_(d, "\" ");
	}
	puts_(d, "fn(");
	for (unsigned n = 0; !d->err && !eat(d, 'E'); n++) {
		if (n)
			puts_(d, ", ");
		type(d);
	}
	puts_(d, ")");
	if (!eat(d, 'u')) {
		puts_(d, " -> ");
		type(d);
	}
	d->bound -= bound;
}

/* A dyn trait's path; with generic arguments, the angle bracket is left
 * open (1) for its associated types. */
static int path_open(struct v0 *d)
{
	int open;

	if (eat(d, 'B')) {
		size_t b = d->pos - 1;
		uint64_t at = base62(d);
		size_t here = d->pos;
		if (d->err || at >= b || ++d->depth > V0_DEPTH) {
			d->err = 1;
			return 0;
		}
		d->pos = (size_t)at;
		open = path_open(d);
		d->pos = here;
		d->depth--;
		return open;
	}
	if (eat(d, 'I')) {
		path(d, 0);
		puts_(d, "<");
		generic_args(d);
		return 1;
	}
	path(d, 0);
	return 0;
}

/* A trait of a dyn type, with its associated types: Iterator<Item = u8>. */
static void dyn_trait(struct v0 *d)
{
	int open = path_open(d);

	while (!d->err && eat(d, 'p')) {
		puts_(d, open ? ", " : "<");
		open = 1;
		put_ident(d, ident(d));
		puts_(d, " = ");
		type(d);
	}
	if (open)
		puts_(d, ">");
}

static void type(struct v0 *d)
{
	const char *basic = basic_type(peek(d));
	int tag;

	if (++d->depth > V0_DEPTH)
		d->err = 1;
	if (basic) {
		d->pos++;
		puts_(d, basic);
		d->depth--;
		return;
	}
	switch (tag = next(d)) {
	case 'R': /* &T, &mut T, with a lifetime when named */
	case 'Q':
		puts_(d, "&");
		if (eat(d, 'L')) {
			uint64_t lt = base62(d);
			if (lt) {
				lifetime(d, lt);
				puts_(d, " ");
			}
		}
		if (tag == 'Q')
			puts_(d, "mut ");
		type(d);
		break;
	case 'P':
		puts_(d, "*const ");
		type(d);
		break;
	case 'O':
		puts_(d, "*mut ");
		type(d);
		break;
	case 'A': /* [T; N] */
	case 'S': /* [T] */
		puts_(d, "[");
		type(d);
		if (tag == 'A') {
			puts_(d, "; ");
			konst(d, 1);
		}
		puts_(d, "]");
		break;
	case 'T': { /* (A, B), (A,) */
		unsigned n = 0;
		puts_(d, "(");
		for (; !d->err && !eat(d, 'E'); n++) {
			if (n)
				puts_(d, ", ");
			type(d);
		}
		puts_(d, n == 1 ? ",)" : ")");
		break;
	}
	case 'F':
		fn_sig(d);
		break;
	case 'D': { /* dyn A + B + 'a */
		puts_(d, "dyn ");
		unsigned bound = binder(d);
		for (unsigned n = 0; !d->err && !eat(d, 'E'); n++) {
			if (n)
				puts_(d, " + ");
			dyn_trait(d);
		}
		d->bound -= bound;
		if (!eat(d, 'L')) {
			d->err = 1;
			break;
		}
		uint64_t lt = base62(d);
		if (lt) {
			puts_(d, " + ");
			lifetime(d, lt);
		}
		break;
	}
	case 'B':
		backref(d, type_arg, 0);
		break;
	default: /* a named type: its path */
		d->pos--;
		path(d, 0);
	}
	d->depth--;
}

/* <const-data>'s hexadecimal digits up to the '_': where they start,
 * their number in *n. */
static const char *hex_digits(struct v0 *d, size_t *n)
{
	const char *start = d->s + d->pos;

	while (!d->err &&
	       ((peek(d) >= '0' && peek(d) <= '9') || (peek(d) >= 'a' && peek(d) <= 'f')))
		d->pos++;
	*n = (size_t)(d->s + d->pos - start);
	if (!eat(d, '_'))
		d->err = 1;
	return start;
}

static unsigned hex_value(char c)
{
	return c <= '9' ? (unsigned)(c - '0') : (unsigned)(c - 'a' + 10);
}

/* Character c in a literal quoted by q, as Rust's char::escape_debug()
 * writes it (rustc-demangle's form): the other quote as it is. */
static void put_char(struct v0 *d, uint32_t c, char q)
{
	char b[16];

	if (c == (uint32_t)q || c == '\\') {
		snprintf(b, sizeof(b), "\\%c", (char)c);
		puts_(d, b);
	} else if (c == '\t' || c == '\r' || c == '\n' || c == 0) {
		puts_(d, c == '\t' ? "\\t" : c == '\r' ? "\\r" : c == '\n' ? "\\n" : "\\0");
	} else if (c < 0x20 || (c >= 0x7f && c < 0xa0)) { /* (controls) */
		snprintf(b, sizeof(b), "\\u{%x}", (unsigned)c);
		puts_(d, b);
	} else {
		put_utf8(d, c);
	}
}

/* <const-str> (hexadecimal bytes of UTF-8) as a string literal. */
static void str_literal(struct v0 *d)
{
	size_t n;
	const char *h = hex_digits(d, &n);

	if (n % 2)
		d->err = 1;
	puts_(d, "\"");
	for (size_t k = 0; k + 1 < n && !d->err;) {
		uint32_t b = hex_value(h[k]) << 4 | hex_value(h[k + 1]), c, more, min;
		k += 2;
		/* one UTF-8 sequence: overlong forms, surrogates and code
		 * points past U+10FFFF are damage */
		more = b < 0x80		     ? 0 :
		       b >= 0xc2 && b < 0xe0 ? 1 :
		       b >= 0xe0 && b < 0xf0 ? 2 :
		       b >= 0xf0 && b < 0xf5 ? 3 :
					       4;
		min = more == 1 ? 0x80 : more == 2 ? 0x800 : 0x10000;
		c = more ? b & (0x3f >> more) : b;
		for (uint32_t j = 0; j < more && more < 4; j++, k += 2) {
			uint32_t cb = k + 1 < n ? hex_value(h[k]) << 4 | hex_value(h[k + 1]) : 0;
			if ((cb & 0xc0) != 0x80)
				more = 4;
			c = c << 6 | (cb & 0x3f);
		}
		if (more == 4 || (more && c < min) || c > 0x10ffff ||
		    (c >= 0xd800 && c <= 0xdfff)) {
			d->err = 1;
			break;
		}
		put_char(d, c, '"');
	}
	puts_(d, "\"");
}

/* {<const>} "E", separated by ", ": their number. */
static unsigned konst_list(struct v0 *d)
{
	unsigned n = 0;

	while (!d->err && !eat(d, 'E')) {
		if (n++)
			puts_(d, ", ");
		konst(d, 1);
	}
	return n;
}

/* A constant (RFC 2603 with rustc's extensions for constant generics, as
 * rustc-demangle prints them): integers in decimal (hexadecimal past 64
 * bits), bool, char, str (*"…"), references (&"…" as "…"), arrays,
 * tuples and structs or enum variants by their path; a compound one in
 * a type's generic arguments (not in_value) is put in braces. */
static void konst(struct v0 *d, int in_value)
{
	char b[48];
	int tag = next(d), neg = 0, brace = 0;
	uint64_t v = 0;
	size_t n;

	if (++d->depth > V0_DEPTH)
		d->err = 1;
	if (strchr("eRQATV", tag) && tag && !(tag == 'R' && peek(d) == 'e') && !in_value) {
		brace = 1;
		puts_(d, "{");
	}
	switch (tag) {
	case 'p':
		puts_(d, "_");
		break;
	case 'B':
		backref(d, konst_arg, in_value);
		break;
	case 'e': /* a str: *"…" (a literal is a &str) */
		puts_(d, "*");
		str_literal(d);
		break;
	case 'R': /* &"…" prints as the literal */
	case 'Q':
		if (tag == 'R' && eat(d, 'e')) {
			str_literal(d);
			break;
		}
		puts_(d, tag == 'R' ? "&" : "&mut ");
		konst(d, 1);
		break;
	case 'A':
		puts_(d, "[");
		konst_list(d);
		puts_(d, "]");
		break;
	case 'T':
		puts_(d, "(");
		if (konst_list(d) == 1)
			puts_(d, ",");
		puts_(d, ")");
		break;
	case 'V': /* a struct or an enum's variant: Unit, Tuple(…), Struct { f: … } */
		path(d, 1);
		switch (next(d)) {
		case 'U':
			break;
		case 'T':
			puts_(d, "(");
			konst_list(d);
			puts_(d, ")");
			break;
		case 'S':
			puts_(d, " { ");
			for (unsigned k = 0; !d->err && !eat(d, 'E'); k++) {
				if (k)
					puts_(d, ", ");
				opt_base62(d, 's');
				put_ident(d, ident(d));
				puts_(d, ": ");
				konst(d, 1);
			}
			puts_(d, " }");
			break;
		default:
			d->err = 1;
		}
		break;
	default: {
		if (!tag || !strchr("hmtyojaslxnibc", tag)) {
			d->err = 1;
			break;
		}
		if (strchr("aslxni", tag))
			neg = eat(d, 'n');
		const char *h = hex_digits(d, &n);
		unsigned digits = 0;
		for (size_t k = 0; k < n; k++) {
			digits += digits || hex_value(h[k]); /* (the significant ones) */
			v = v << 4 | hex_value(h[k]);
		}
		if (d->err)
			break;
		if (tag == 'b') {
			if (v > 1 || digits > 16)
				d->err = 1;
			puts_(d, v ? "true" : "false");
		} else if (tag == 'c') {
			if (digits > 8 || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) {
				d->err = 1;
				break;
			}
			puts_(d, "'");
			put_char(d, (uint32_t)v, '\'');
			puts_(d, "'");
		} else if (digits <= 16) {
			snprintf(b, sizeof(b), "%s%llu", neg ? "-" : "", (unsigned long long)v);
			puts_(d, b);
		} else {
			puts_(d, neg ? "-0x" : "0x");
			put(d, h, n);
		}
	}
	}
	if (brace)
		puts_(d, "}");
	d->depth--;
}

/* "_R" [<decimal-number>] <path> [<instantiating-crate>] [<vendor-specific-suffix>] */
static char *rust_v0(const char *name, size_t n)
{
	struct v0 d = { .s = name + 2, .n = n - 2, .cap = V0_OUT };

	if (n < 3 || strncmp(name, "_R", 2) || (name[2] >= '0' && name[2] <= '9'))
		return NULL; /* (a version number: none but v0 is defined) */
	d.out = calloc(1, d.cap);
	if (!d.out)
		return NULL;
	path(&d, 1);
	if (!d.err && d.pos < d.n && peek(&d) >= 'A' && peek(&d) <= 'Z') {
		d.skip++; /* the crate that instantiated it */
		path(&d, 0);
		d.skip--;
	}
	/* what a vendor appends after a '.' or '$' (LLVM's ".llvm.123"),
	 * kept as rustc-demangle keeps it */
	if (d.err || (d.pos < d.n && d.s[d.pos] != '.' && d.s[d.pos] != '$') || !d.len)
		return free(d.out), NULL;
	put(&d, d.s + d.pos, d.n - d.pos);
	if (d.err)
		return free(d.out), NULL;
	return d.out;
}

char *sym_rust_demangle(const char *name)
{
	size_t n = strlen(name), k = n;
	const char *dot = name;
	char *out;

	if (n > 2 && name[1] == 'R')
		return rust_v0(name, n);
	/* a legacy name, or one with a suffix after its 'E' (LLVM's
	 * ".llvm.123" from a build with link-time optimization), the suffix
	 * kept as rustc-demangle keeps it */
	while (!(out = rust_legacy(name, k))) {
		if (!(dot = strchr(dot + 1, '.')))
			return NULL;
		k = (size_t)(dot - name);
	}
	if (k < n) {
		char *o = realloc(out, strlen(out) + (n - k) + 1);
		if (!o)
			return free(out), NULL;
		out = strcat(o, name + k);
	}
	return out;
}
