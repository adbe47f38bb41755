/* annotate.c — `vpmu annotate [SYMBOL]`: a function's disassembly with the
 * share of each event's samples on every instruction, perf-annotate style:
 * source lines from DWARF interleaved, targets of the function's own jumps
 * marked, hot instructions coloured on a terminal.  Addresses are the
 * image file's (core/annotate_data.h), so the text reads like
 * `objdump -d`'s for the same function.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "opt.h"
#include "core/annotate_data.h"
#include "core/disasm.h"
#include "core/report.h"
#include "core/fmt.h"
#include "core/report_filter.h"
#include "core/sym.h"

static const char annotate_usage[] =
	"usage: vpmu annotate [-i FILE] [-d DSOS] [-M att|intel] [-n] [--asm-raw]\n"
	"                     [--source | --no-source] [--demangle | --no-demangle] [--stdio]\n"
	"                     [[-s] SYMBOL]\n"
	"\n"
	"Print a function's disassembly with the percentage of each event's samples\n"
	"that fell on every instruction, source lines interleaved.  Without SYMBOL,\n"
	"the function with the most samples of the first event.\n"
	"\n"
	"    -i, --input FILE        the sample file (default vpmu.data)\n"
	"    -s, --symbol SYMBOL     the function to annotate (as SYMBOL)\n"
	"    -d, --dsos DSOS         only functions in these images (comma-separated\n"
	"                            names or paths)\n"
	"    -M, --disassembler-style att|intel\n"
	"                            instruction syntax (default att, as objdump -d)\n"
	"    -n, --show-nr-samples   sample counts instead of percentages\n"
	"        --asm-raw           each instruction's bytes before its text\n"
	"        --source            interleave source lines (the default)\n"
	"        --no-source         do not interleave source lines\n"
	"        --demangle          C++ and Rust names as written (ns::f()), the\n"
	"                            default\n"
	"        --no-demangle       names as the files have them (_ZN2ns1fEv);\n"
	"                            SYMBOL may be given either way\n"
	"        --stdio             plain text: no colour even on a terminal\n"
	"    -h, --help              show this help\n";

#define RED_PCT 5.0 /* perf's thresholds for colouring a percentage */
#define GREEN_PCT 0.5
#define COL_MIN 7
#define COL_MAX 24

struct opts {
	const char *input, *symbol;
	struct report_filter dsos; /* -d: only these images (REPORT_F_DSO) */
	enum disasm_syntax syn;
	int nr, source, colour, raw, raw_names;
};

/* Whether image i is one -d names (any without -d). */
static int dso_ok(const struct annot_data *d, unsigned i, const struct opts *o)
{
	const char *path = d->img[i].path, *base = strrchr(path, '/');

	return !o->dsos.names[REPORT_F_DSO] ||
	       report_filter_among(&o->dsos, REPORT_F_DSO, base ? base + 1 : path, path);
}

/* ---- choosing the function ------------------------------------------- */

struct target {
	unsigned img;
	struct sym_info si;
};

struct cand {
	unsigned img;
	uint64_t start;
	uint64_t n;
};

/* The function with the most samples of the first event that has any. */
static int hottest(struct annot_data *d, const struct opts *o, struct target *t)
{
	struct cand best = { 0, 0, 0 }, cur = { 0, 0, 0 };
	uint64_t end = 0;
	unsigned ev = d->nev;
	struct sym_info si;

	for (size_t i = 0; i < d->nhit; i++)
		if (d->hit[i].ev < ev && dso_ok(d, d->hit[i].img, o))
			ev = d->hit[i].ev;
	for (size_t i = 0; i < d->nhit; i++) {
		const struct annot_hit *h = &d->hit[i];
		struct sym *s;

		if (h->ev != ev || !dso_ok(d, h->img, o))
			continue;
		if (!cur.n || h->img != cur.img || h->addr < cur.start || h->addr >= end) {
			if (cur.n > best.n)
				best = cur;
			cur.n = 0;
			s = annot_sym(d, h->img);
			if (!s || sym_lookup(s, h->addr, &si) != 0)
				continue;
			cur = (struct cand){ h->img, si.start, 0 };
			end = si.start + (si.size ? si.size : 1);
		}
		cur.n += h->n;
	}
	if (cur.n > best.n)
		best = cur;
	if (!best.n)
		return -1;
	t->img = best.img;
	return sym_lookup(annot_sym(d, best.img), best.start, &t->si) == 0 ? 0 : -1;
}

struct near {
	const char *want;
	unsigned d;
	char name[128];
	char prefix[128]; /* the last function whose name want begins */
	unsigned nprefix; /* how many such names */
};

static int nearest_fn(const struct sym_info *si, void *arg)
{
	struct near *n = arg;
	size_t len = strlen(n->want);
	unsigned dist;

	if (!si->name)
		return 0;
	dist = fmt_distance(n->want, si->name);
	if (dist < n->d) {
		n->d = dist;
		snprintf(n->name, sizeof(n->name), "%s", si->name);
	}
	if (strlen(si->name) > len && !strncmp(si->name, n->want, len) &&
	    strcmp(si->name, n->prefix)) {
		snprintf(n->prefix, sizeof(n->prefix), "%s", si->name);
		n->nprefix++;
	}
	return 0;
}

static int named(struct annot_data *d, const char *name, const struct opts *o, struct target *t)
{
	struct near n = { name, ~0u, "", "", 0 };
	size_t len = strlen(name);

	for (unsigned i = 0; i < d->nimg; i++) {
		struct sym *s = dso_ok(d, i, o) ? annot_sym(d, i) : NULL;

		if (s && sym_find_func(s, name, &t->si) == 0) {
			t->img = i;
			return 0;
		}
	}
	for (unsigned i = 0; i < d->nimg; i++)
		if (d->img[i].readable && dso_ok(d, i, o) && annot_sym(d, i))
			sym_foreach_func(d->img[i].sym, d->img[i].lo, nearest_fn, &n);
	/* the one function the name begins (msort for msort_with_tmp.part.0,
	 * not qsort); else a typo: a third of the letters at most */
	if (len >= 3 && n.nprefix == 1)
		snprintf(n.name, sizeof(n.name), "%s", n.prefix);
	if ((len >= 3 && n.nprefix == 1) || (n.name[0] && n.d <= 2 + len / 6 && 3 * n.d <= len + 1))
		fprintf(stderr,
			"vpmu annotate: no function '%s' in the profiled images (did you "
			"mean '%s'?)\n",
			name, n.name);
	else
		fprintf(stderr, "vpmu annotate: no function '%s' in the profiled images\n", name);
	return -1;
}

/* ---- printing ---------------------------------------------------------- */

static size_t insn_at(const struct disasm_func *f, uint64_t addr)
{
	size_t lo = 0, hi = f->n;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->insn[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static int colwidth(const char *name)
{
	int w = (int)strlen(name);

	return w < COL_MIN ? COL_MIN : w > COL_MAX ? COL_MAX : w;
}

static void blank_cols(const struct annot_data *d)
{
	for (unsigned e = 0; e < d->nev; e++)
		printf(" %*s", colwidth(d->evname[e]), "");
}

static void source_line(struct sym *s, const struct annot_data *d, const struct sym_srcline *l)
{
	const char *base = strrchr(l->file, '/'), *text;
	size_t len = 0;

	blank_cols(d);
	printf(" :   %s:%u", base ? base + 1 : l->file, l->line);
	text = sym_source_line(s, l->file, l->line, &len);
	if (text) {
		while (len && (*text == ' ' || *text == '\t'))
			text++, len--;
		printf("   %.*s", (int)len, text);
	}
	putchar('\n');
}

static void print(struct annot_data *d, const struct target *t, const struct disasm_func *f,
		  const uint64_t *cnt, const uint64_t *tot, const uint8_t *is_target,
		  const struct opts *o, int source)
{
	struct sym *s = d->img[t->img].sym;
	const struct sym_srcline *prev = NULL;

	printf("Samples in %s (%s, %#" PRIx64 "-%#" PRIx64 "):", t->si.name, d->img[t->img].path,
	       f->sym.start, f->sym.start + f->sym.size);
	for (unsigned e = 0; e < d->nev; e++)
		printf("%s %s %" PRIu64, e ? "," : "", d->evname[e], tot[e]);
	printf("\n\n");
	for (unsigned e = 0; e < d->nev; e++)
		printf(" %*.*s", colwidth(d->evname[e]), COL_MAX, d->evname[e]);
	printf(" :\n");
	for (size_t i = 0; i < f->n; i++) {
		const struct disasm_insn *in = &f->insn[i];
		const struct sym_srcline *l = &f->src[i];
		double hot = 0;

		if (source && l->file &&
		    (!prev || prev->line != l->line || strcmp(prev->file, l->file))) {
			source_line(s, d, l);
			prev = l;
		}
		for (unsigned e = 0; e < d->nev; e++) {
			double p = tot[e] ? 100.0 * (double)cnt[i * d->nev + e] / (double)tot[e] :
					    0;

			if (p > hot)
				hot = p;
		}
		if (o->colour && hot >= GREEN_PCT)
			fputs(hot >= RED_PCT ? "\033[31m" : "\033[32m", stdout);
		for (unsigned e = 0; e < d->nev; e++) {
			uint64_t c = cnt[i * d->nev + e];
			int w = colwidth(d->evname[e]);

			if (!c)
				printf(" %*s", w, "");
			else if (o->nr)
				printf(" %*" PRIu64, w, c);
			else
				printf(" %*.2f", w, 100.0 * (double)c / (double)tot[e]);
		}
		printf(" :%c %8" PRIx64 ":\t", is_target[i] ? '>' : ' ', in->addr);
		if (o->raw) /* (as objdump -d --insn-width=15) */
			for (unsigned b = 0; b < 15; b++)
				printf(b < in->len ? "%02x " : "   ", in->bytes[b]);
		if (o->raw)
			putchar('\t');
		fputs(in->text, stdout);
		if (o->colour && hot >= GREEN_PCT)
			fputs("\033[m", stdout);
		putchar('\n');
	}
}

static int annotate(struct annot_data *d, const struct target *t, const struct opts *o)
{
	struct sym *s = d->img[t->img].sym;
	struct disasm_func f;
	uint64_t *cnt, *tot, all = 0;
	uint8_t *is_target;
	int rc = disasm_func(s, t->si.start, o->syn, &f), source = o->source;

	if (rc == -2) {
		fprintf(stderr, "vpmu annotate: the code of '%s' is not in '%s'\n", t->si.name,
			d->img[t->img].path);
		return 1;
	}
	if (rc) {
		fprintf(stderr, "vpmu annotate: cannot disassemble '%s'\n", t->si.name);
		return 1;
	}
	cnt = calloc(f.n * d->nev + 1, sizeof(*cnt));
	tot = calloc(d->nev + 1, sizeof(*tot));
	is_target = calloc(f.n + 1, 1);
	if (!cnt || !tot || !is_target) {
		fprintf(stderr, "vpmu annotate: out of memory\n");
		rc = 1;
		goto out;
	}
	for (size_t i = 0; i < d->nhit; i++) {
		const struct annot_hit *h = &d->hit[i];

		if (h->img != t->img || h->addr < f.sym.start ||
		    h->addr - f.sym.start >= f.sym.size)
			continue;
		cnt[insn_at(&f, h->addr) * d->nev + h->ev] += h->n;
		tot[h->ev] += h->n;
		all += h->n;
	}
	if (!all) {
		fprintf(stderr,
			"vpmu annotate: no samples fall in '%s' (%s); the file has %" PRIu64
			" samples\n",
			t->si.name, d->img[t->img].path, d->samples);
		rc = 1;
		goto out;
	}
	for (size_t i = 0; i < f.n; i++) {
		const struct disasm_insn *in = &f.insn[i];
		size_t k;

		if (in->branch != DISASM_BR_JUMP || !in->has_target || in->target < f.sym.start ||
		    in->target - f.sym.start >= f.sym.size)
			continue;
		k = insn_at(&f, in->target);
		if (f.insn[k].addr == in->target)
			is_target[k] = 1;
	}
	if (source && !f.has_source) {
		fprintf(stderr,
			"vpmu annotate: no debug line information for '%s' in '%s': "
			"disassembly only\n",
			t->si.name, d->img[t->img].path);
		source = 0;
	}
	print(d, t, &f, cnt, tot, is_target, o, source);
	rc = 0;
out:
	free(cnt);
	free(tot);
	free(is_target);
	disasm_func_release(&f);
	return rc;
}

/* ---- the command ------------------------------------------------------- */

static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "symbol", required_argument, NULL, 's' },
		{ "dsos", required_argument, NULL, 'd' },
		{ "asm-raw", no_argument, NULL, 'R' },
		{ "disassembler-style", required_argument, NULL, 'M' },
		{ "show-nr-samples", no_argument, NULL, 'n' },
		{ "no-source", no_argument, NULL, 'S' },
		{ "source", no_argument, NULL, 'O' },
		{ "demangle", no_argument, NULL, 'D' },
		{ "no-demangle", no_argument, NULL, 'N' },
		{ "stdio", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, stdio = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:s:d:M:nh", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			o->input = optarg;
			break;
		case 's':
			o->symbol = optarg;
			break;
		case 'd':
			if (opt_filter("annotate", &o->dsos, REPORT_F_DSO, optarg))
				return 1;
			break;
		case 'R':
			o->raw = 1;
			break;
		case 'M':
			if (!strcmp(optarg, "intel")) {
				o->syn = DISASM_INTEL;
			} else if (!strcmp(optarg, "att")) {
				o->syn = DISASM_ATT;
			} else {
				fprintf(stderr,
					"vpmu annotate: -M takes 'att' or 'intel', not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'n':
			o->nr = 1;
			break;
		case 'S':
		case 'O': /* (the last of --source and --no-source counts) */
			o->source = c == 'O';
			break;
		case 'D':
		case 'N':
			o->raw_names = c == 'N';
			break;
		case 'P':
			stdio = 1;
			break;
		case 'h':
			fputs(annotate_usage, stdout);
			return -1;
		case ':':
		default:
			opt_bad("annotate", c, argv);
			return 1;
		}
	}
	if (argc - optind + !!o->symbol > 1) {
		fprintf(stderr, "vpmu annotate: one symbol at a time ('%s' and '%s' given)\n",
			o->symbol ? o->symbol : argv[optind], argv[argc - 1]);
		return 1;
	}
	if (optind < argc)
		o->symbol = argv[optind];
	o->colour = !stdio && isatty(STDOUT_FILENO);
	return 0;
}

int cmd_annotate(int argc, char **argv)
{
	struct opts o = { .input = "vpmu.data", .syn = DISASM_ATT, .source = 1 };
	struct annot_data d;
	struct target t;
	char err[512];
	int rc = parse(argc, argv, &o);

	if (rc) {
		report_filter_free(&o.dsos);
		return rc < 0 ? 0 : rc;
	}
	if (annot_load(&d, o.input, o.raw_names, err, sizeof(err))) {
		fprintf(stderr, "vpmu annotate: %s\n", err);
		report_filter_free(&o.dsos);
		return 1;
	}
	if (d.damaged)
		fprintf(stderr, "vpmu annotate: '%s' is damaged: %" PRIu64 " bytes skipped\n",
			o.input, d.damaged);
	if (report_stale_str(d.r, err, sizeof(err)))
		fprintf(stderr, "vpmu annotate: %s\n", err);
	if (!d.samples) {
		fprintf(stderr, "vpmu annotate: no samples in '%s'\n", o.input);
		rc = 1;
	} else if (o.symbol) {
		rc = named(&d, o.symbol, &o, &t) ? 1 : annotate(&d, &t, &o);
	} else if (hottest(&d, &o, &t)) {
		fprintf(stderr,
			"vpmu annotate: none of the %" PRIu64
			" samples in '%s' falls in a known function%s\n",
			d.samples, o.input, o.dsos.names[REPORT_F_DSO] ? " of those images" : "");
		rc = 1;
	} else {
		rc = annotate(&d, &t, &o);
	}
	annot_release(&d);
	report_filter_free(&o.dsos);
	return rc;
}
