/* symtool — drive core/sym.c, core/srcline.c and core/disasm.c from the
 * command line, so tests can compare them with addr2line, nm and objdump.
 *
 * usage: symtool [-d DEBUGDIRS] [-M intel] -m FILE[@BIAS]... COMMAND [ARGS]
 *   -m FILE[@BIAS]  map FILE's loadable segments at load bias BIAS (hex)
 *   sym ADDR...     function: "ADDR NAME+0xOFF SIZE DSO" or "ADDR [unknown] DSO"
 *   data ADDR...    data object, same format
 *   line ADDR...    "FILE:LINE" or "??:?"
 *   inline ADDR...  the inline chain as `addr2line -f -i` prints it
 *   find NAME       "START SIZE DSO" of function NAME
 *   funcs           "START SIZE NAME" for every function of the first image
 *   disasm NAME|ADDR  the function as "ADDR<tab>TEXT", source lines
 *                   interleaved as "; FILE:LINE" with -S
 *   disasm-all      every function of the first image, "ADDR<tab>TEXT"
 *   range START END the bytes of [START, END) decoded one after another
 *   buildid ADDR    the image's build-id in hex
 *   bench N         N lookups of pseudo-random addresses of the first image
 * Addresses are runtime addresses (file vaddr + bias), in hex.
 */
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/disasm.h"
#include "core/sym.h"

struct tool {
	struct sym *s;
	enum disasm_syntax syn;
	int source;
	uint64_t first_lo, first_hi; /* the first image's runtime range */
	int nimages;
};

static int usage(void)
{
	fprintf(stderr, "usage: symtool [-d DIRS] [-M intel] [-S] -m FILE[@BIAS]... COMMAND "
			"[ARGS]\n");
	return 2;
}

static int parse_hex(const char *s, uint64_t *v)
{
	char *e;

	if (!*s)
		return -1;
	*v = strtoull(s, &e, 16);
	return *e ? -1 : 0;
}

/* Map FILE at BIAS over the span of its PT_LOAD segments. */
static int add_image(struct tool *t, const char *arg)
{
	char name[4096], path[PATH_MAX];
	const char *at = strrchr(arg, '@');
	uint64_t bias = 0, lo = UINT64_MAX, hi = 0;
	size_t nph;
	Elf *elf;
	int fd;

	snprintf(name, sizeof(name), "%.*s", at ? (int)(at - arg) : (int)strlen(arg), arg);
	if (!realpath(name, path)) {
		fprintf(stderr, "symtool: cannot open '%s'\n", name);
		return -1;
	}
	if (at && parse_hex(at + 1, &bias)) {
		fprintf(stderr, "symtool: bad bias '%s'\n", at + 1);
		return -1;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "symtool: cannot open '%s'\n", path);
		return -1;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && elf_getphdrnum(elf, &nph) == 0) {
		for (size_t i = 0; i < nph; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
				continue;
			if (ph.p_vaddr < lo)
				lo = ph.p_vaddr;
			if (ph.p_vaddr + ph.p_memsz > hi)
				hi = ph.p_vaddr + ph.p_memsz;
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	if (lo >= hi) {
		/* not an ELF image: map one page so its range is known */
		lo = 0;
		hi = 0x1000;
	}
	if (sym_add_image(t->s, path, lo + bias, hi + bias, bias) != 0)
		fprintf(stderr, "symtool: '%s' has no symbols to read\n", path);
	if (!t->nimages++) {
		t->first_lo = lo + bias;
		t->first_hi = hi + bias;
	}
	return 0;
}

static void print_sym(int rc, uint64_t a, const struct sym_info *si)
{
	if (rc == 0)
		printf("%" PRIx64 " %s+0x%" PRIx64 " %" PRIx64 " %s\n", a, si->name, si->off,
		       si->size, si->dso);
	else
		printf("%" PRIx64 " [unknown] %s\n", a, rc > 0 ? si->dso : "[unknown]");
}

static int each_addr(struct tool *t, const char *cmd, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		struct sym_info si;
		struct sym_srcline sl;
		struct sym_frame f[32];
		uint64_t a;
		int n;

		if (parse_hex(argv[i], &a)) {
			fprintf(stderr, "symtool: bad address '%s'\n", argv[i]);
			return 1;
		}
		if (!strcmp(cmd, "sym")) {
			print_sym(sym_lookup(t->s, a, &si), a, &si);
		} else if (!strcmp(cmd, "data")) {
			print_sym(sym_lookup_data(t->s, a, &si), a, &si);
		} else if (!strcmp(cmd, "line")) {
			if (sym_srcline(t->s, a, &sl) == 0)
				printf("%s:%u\n", sl.file, sl.line);
			else
				printf("??:?\n");
		} else {
			n = sym_inlines(t->s, a, f, 32);
			if (!n) {
				/* as addr2line -f without DWARF: the symbol, no line */
				if (sym_lookup(t->s, a, &si) == 0)
					printf("%s\n??:?\n", si.name);
				else
					printf("??\n??:0\n");
			}
			for (int k = 0; k < n; k++)
				printf("%s\n%s:%u\n", f[k].func ? f[k].func : "??",
				       f[k].file ? f[k].file : "??", f[k].line);
		}
	}
	return 0;
}

static void print_insn(const struct disasm_insn *d)
{
	printf("%" PRIx64 "\t%s\n", d->addr, d->text);
}

static int disasm(struct tool *t, const char *what)
{
	struct sym_info si;
	struct disasm_func f;
	const char *last_file = NULL;
	unsigned last_line = 0;
	uint64_t a;
	int rc;

	if (sym_find_func(t->s, what, &si) == 0)
		a = si.start;
	else if (parse_hex(what, &a)) {
		fprintf(stderr, "symtool: no function '%s'\n", what);
		return 1;
	}
	rc = disasm_func(t->s, a, t->syn, &f);
	if (rc) {
		fprintf(stderr, "symtool: cannot disassemble '%s' (%d)\n", what, rc);
		return 1;
	}
	printf("%" PRIx64 " <%s>: %" PRIu64 " bytes, %zu instructions%s\n", f.sym.start, f.sym.name,
	       f.sym.size, f.n, f.has_source ? "" : ", no source lines");
	for (size_t i = 0; i < f.n; i++) {
		const struct sym_srcline *l = &f.src[i];

		if (t->source && l->file &&
		    (l->line != last_line || !last_file || strcmp(l->file, last_file))) {
			size_t len = 0;
			const char *text = sym_source_line(t->s, l->file, l->line, &len);

			printf("; %s:%u\t%.*s\n", l->file, l->line, (int)len, text ? text : "");
			last_file = l->file;
			last_line = l->line;
		}
		print_insn(&f.insn[i]);
	}
	disasm_func_release(&f);
	return 0;
}

static int print_func(const struct sym_info *si, void *arg)
{
	struct tool *t = arg;
	const uint8_t *code = sym_code(t->s, si->start, si->size);

	if (!code)
		return 0;
	for (uint64_t off = 0; off < si->size;) {
		struct disasm_insn d;

		off += disasm_one(code + off, si->size - off, si->start + off, t->syn, t->s, &d);
		print_insn(&d);
	}
	return 0;
}

static int list_func(const struct sym_info *si, void *arg)
{
	(void)arg;
	printf("%" PRIx64 " %" PRIx64 " %s\n", si->start, si->size, si->name);
	return 0;
}

static int range(struct tool *t, const char *from, const char *to)
{
	uint64_t a, b;
	const uint8_t *code;

	if (parse_hex(from, &a) || parse_hex(to, &b) || b <= a)
		return usage();
	code = sym_code(t->s, a, b - a);
	if (!code) {
		fprintf(stderr, "symtool: [%s, %s) is not in an image file\n", from, to);
		return 1;
	}
	for (uint64_t off = 0; off < b - a;) {
		struct disasm_insn d;

		off += disasm_one(code + off, b - a - off, a + off, t->syn, t->s, &d);
		print_insn(&d);
	}
	return 0;
}

/* Seconds for n lookups of kind k (0 symbol, 1 line, 2 inline chain) of
 * pseudo-random addresses of the first image; *found counts the hits. */
static double time_lookups(struct tool *t, uint64_t n, int k, uint64_t *found)
{
	uint64_t x = 88172645463325252ull, span = t->first_hi - t->first_lo;
	struct timespec t0, t1;
	struct sym_info si;
	struct sym_srcline sl;
	struct sym_frame f[8];

	*found = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t a;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		a = t->first_lo + x % span;
		if (k == 0)
			*found += sym_lookup(t->s, a, &si) == 0;
		else if (k == 1)
			*found += sym_srcline(t->s, a, &sl) == 0;
		else
			*found += sym_inlines(t->s, a, f, 8) > 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
}

static int bench(struct tool *t, const char *count)
{
	static const char *const what[] = { "symbol", "line", "inline" };
	uint64_t n = strtoull(count, NULL, 10), found;
	struct sym_info si;

	sym_lookup(t->s, t->first_lo, &si); /* tables are built once, not timed */
	for (int k = 0; k < 3; k++) {
		double sec = time_lookups(t, n, k, &found);

		printf("%" PRIu64 " %s lookups, %" PRIu64 " found, %.3f s\n", n, what[k], found,
		       sec);
	}
	return 0;
}

static int run(struct tool *t, int argc, char **argv)
{
	const char *cmd = argv[0];

	if (!strcmp(cmd, "sym") || !strcmp(cmd, "data") || !strcmp(cmd, "line") ||
	    !strcmp(cmd, "inline"))
		return each_addr(t, cmd, argc - 1, argv + 1);
	if (!strcmp(cmd, "find") && argc == 2) {
		struct sym_info si;

		if (sym_find_func(t->s, argv[1], &si)) {
			fprintf(stderr, "symtool: no function '%s'\n", argv[1]);
			return 1;
		}
		printf("%" PRIx64 " %" PRIx64 " %s\n", si.start, si.size, si.dso);
		return 0;
	}
	if (!strcmp(cmd, "funcs") && argc == 1)
		return sym_foreach_func(t->s, t->first_lo, list_func, t) < 0;
	if (!strcmp(cmd, "disasm") && argc == 2)
		return disasm(t, argv[1]);
	if (!strcmp(cmd, "disasm-all") && argc == 1)
		return sym_foreach_func(t->s, t->first_lo, print_func, t) < 0;
	if (!strcmp(cmd, "range") && argc == 3)
		return range(t, argv[1], argv[2]);
	if (!strcmp(cmd, "buildid") && argc == 2) {
		const uint8_t *id;
		uint64_t a;
		size_t n;

		if (parse_hex(argv[1], &a))
			return usage();
		n = sym_build_id(t->s, a, &id);
		for (size_t i = 0; i < n; i++)
			printf("%02x", id[i]);
		printf("\n");
		return n == 0;
	}
	if (!strcmp(cmd, "bench") && argc == 2)
		return bench(t, argv[1]);
	return usage();
}

int main(int argc, char **argv)
{
	struct tool t = { 0 };
	int opt, rc;

	elf_version(EV_CURRENT);
	t.s = sym_new();
	if (!t.s) {
		fprintf(stderr, "symtool: out of memory\n");
		return 1;
	}
	while ((opt = getopt(argc, argv, "+d:M:m:S")) != -1) {
		switch (opt) {
		case 'd':
			if (sym_set_debug_dirs(t.s, optarg)) {
				sym_free(t.s);
				return 1;
			}
			break;
		case 'M':
			if (strcmp(optarg, "intel") && strcmp(optarg, "att")) {
				sym_free(t.s);
				return usage();
			}
			t.syn = strcmp(optarg, "intel") ? DISASM_ATT : DISASM_INTEL;
			break;
		case 'm':
			if (add_image(&t, optarg)) {
				sym_free(t.s);
				return 1;
			}
			break;
		case 'S':
			t.source = 1;
			break;
		default:
			sym_free(t.s);
			return usage();
		}
	}
	if (optind >= argc || !t.nimages) {
		sym_free(t.s);
		return usage();
	}
	rc = run(&t, argc - optind, argv + optind);
	sym_free(t.s);
	return rc;
}
