/* list.c — `vpmu list`: the events -e accepts, perf-list style: perf's
 * generic names with the native event each stands for on the machine,
 * then the machine's native events with their counters, precise mechanism
 * and unit masks, and what the model cannot produce; with --model, the
 * timing model's own events, which vpmu stat -v prints.
 */
#define _GNU_SOURCE /* strcasestr, FNM_CASEFOLD */
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arch/arch.h"
#include "cmds.h"
#include "opt.h"
#include "core/evspec.h"
#include "core/session.h"

static const char list_usage[] =
	"usage: vpmu list [-a ARCH | --all-arch] [--model] [PATTERN | hw | cache | pmu | sw]\n"
	"\n"
	"List the events -e accepts: perf's generic names and what each stands for\n"
	"on the machine, then the machine's native events with their unit masks.\n"
	"\n"
	"    -a, --arch ARCH    the machine whose events to list (default p4)\n"
	"        --all-arch     the events of every machine\n"
	"        --model        the timing model's events instead (vpmu stat -v)\n"
	"    -h, --help         show this help\n"
	"\n"
	"PATTERN keeps the events whose name contains it, in any case; with * ? or [\n"
	"it is a shell glob the whole name must match.  As in perf list, hw (or\n"
	"hardware) keeps perf's generic hardware events, cache its cache events, pmu\n"
	"the machine's own events, and sw (or software) the software events, which\n"
	"the emulated machine has none of.\n";

#define WIDTH 79 /* wrap descriptions before this column */

/* perf list's classes of events (the words it takes instead of a
 * pattern): its generic hardware and cache events, and the PMU's own. */
enum { CLS_ANY, CLS_HW, CLS_CACHE, CLS_PMU };

struct filter {
	const char *pattern; /* NULL: everything */
	int glob;
	int cls; /* CLS_*: only events of the class (no pattern then) */
};

/* perf list's class of a generic event: its hardware and cache ones
 * (cycles, L1-dcache-load-misses), else the PMU's (mem-loads, uops). */
static int generic_class(const char *name)
{
	int c = evspec_generic_class(name);

	return c == EVSPEC_HW ? CLS_HW : c == EVSPEC_CACHE ? CLS_CACHE : CLS_PMU;
}

static int wanted(const struct filter *f, const char *name)
{
	if (f->cls)
		return 0;
	if (!f->pattern)
		return 1;
	if (f->glob)
		return fnmatch(f->pattern, name, FNM_CASEFOLD) == 0;
	return strcasestr(name, f->pattern) != NULL;
}

static int generic_wanted(const struct filter *f, const char *name)
{
	return f->cls ? generic_class(name) == f->cls : wanted(f, name);
}

static int native_wanted(const struct filter *f, const char *name)
{
	return f->cls ? f->cls == CLS_PMU : wanted(f, name);
}

/* text's words after column col (the caller printed up to there), wrapped
 * onto lines indented by indent. */
static void wrap(const char *text, int col, int indent)
{
	const char *p = text;
	int first = 1;

	for (;;) {
		size_t w;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		w = strcspn(p, " ");
		if (!first && col + 1 + (int)w > WIDTH) {
			printf("\n%*s", indent, "");
			col = indent;
		} else if (!first) {
			putchar(' ');
			col++;
		}
		printf("%.*s", (int)w, p);
		col += (int)w;
		p += w;
		first = 0;
	}
	putchar('\n');
}

/* Why a generic name cannot be counted here, or NULL: no event stands
 * for it, its spec names an event or unit mask the model cannot produce
 * (the tables' reason), or the backend refuses it (its message). */
static const char *generic_gap(const struct arch_backend *b, const struct arch_generic *g,
			       struct arch_evsel *e, char *buf, size_t n)
{
	struct arch_backend tables = *b;
	const struct arch_event *ev;
	unsigned k = 0;

	if (!g->spec || !*g->spec) {
		snprintf(buf, n, "no %s event counts it", b->name);
		return buf;
	}
	tables.encode = NULL; /* resolve only, to find the tables' reason */
	if (evspec_parse(&tables, g->name, e, 1, &k, buf, n) < 0)
		return buf;
	if (e->event >= 0 && (unsigned)e->event < b->nevents) {
		ev = &b->events[e->event];
		if (ev->unsupported)
			return ev->unsupported;
		for (unsigned i = 0; i < ev->numask; i++) {
			const struct arch_umask *u = &ev->umask[i];

			if (u->unsupported && u->bits && (e->umask & u->bits) == u->bits) {
				snprintf(buf, n, "%s: %s", u->name, u->unsupported);
				return buf;
			}
		}
	}
	k = 0;
	if (evspec_parse(b, g->name, e, 1, &k, buf, n) < 0)
		return buf;
	return NULL;
}

/* "<not supported: why>" after column col: on the same line when it fits,
 * else on lines of its own indented by indent (col < 0: always those). */
static void note_why(const char *what, const char *why, int col, int indent)
{
	char note[1024];

	snprintf(note, sizeof(note), "<%s: %s>", what, why);
	if (col >= 0 && col + 2 + (int)strlen(note) <= WIDTH) {
		printf("  %s\n", note);
		return;
	}
	printf("%s%*s", col >= 0 ? "\n" : "", indent, "");
	wrap(note, indent, indent);
}

/* EVENT:UMASK... of an event as resolved, for raw mappings. */
static void spell(const struct arch_backend *b, const struct arch_evsel *e, char *buf, size_t n)
{
	const struct arch_event *ev;
	size_t at;

	buf[0] = 0;
	if (e->event < 0 || (unsigned)e->event >= b->nevents)
		return;
	ev = &b->events[e->event];
	at = (size_t)snprintf(buf, n, "%s", ev->name);
	for (unsigned i = 0; i < ev->numask && at < n; i++)
		if (ev->umask[i].bits && (e->umask & ev->umask[i].bits) == ev->umask[i].bits)
			at += (size_t)snprintf(buf + at, n - at, ":%s", ev->umask[i].name);
}

static void list_generic(const struct arch_backend *b, const struct filter *f)
{
	int width = 0, shown = 0;

	for (unsigned i = 0; i < b->ngeneric; i++)
		if (b->generic[i].name && generic_wanted(f, b->generic[i].name) &&
		    (int)strlen(b->generic[i].name) > width)
			width = (int)strlen(b->generic[i].name);
	for (unsigned i = 0; i < b->ngeneric; i++) {
		const struct arch_generic *g = &b->generic[i];
		struct arch_evsel e;
		char why[512], native[512];
		const char *gap;
		int col;

		if (!g->name || !generic_wanted(f, g->name))
			continue;
		if (!shown++)
			printf("Generic events:\n\n");
		gap = generic_gap(b, g, &e, why, sizeof(why));
		native[0] = 0;
		if (!gap && e.raw)
			spell(b, &e, native, sizeof(native));
		col = printf("  %-*s", width, g->name);
		if (g->spec && *g->spec)
			col += printf("  [= %s%s%s]", g->spec, native[0] ? ", " : "", native);
		if (gap)
			note_why("not supported", gap, col, 2 + width + 2);
		else
			putchar('\n');
	}
	if (shown)
		putchar('\n');
}

static int by_name(const void *a, const void *b)
{
	const struct arch_event *x = *(const struct arch_event *const *)a;
	const struct arch_event *y = *(const struct arch_event *const *)b;

	return strcasecmp(x->name, y->name);
}

/* The default unit mask by name (A:B), or in hex when names do not
 * make it up. */
static void default_mask(const struct arch_event *ev, char *buf, size_t n)
{
	uint32_t covered = 0;
	size_t at = 0;

	buf[0] = 0;
	if (!ev->defmask) {
		snprintf(buf, n, "none");
		return;
	}
	for (unsigned i = 0; i < ev->numask && at < n; i++) {
		const struct arch_umask *u = &ev->umask[i];

		if (u->bits && (ev->defmask & u->bits) == u->bits) {
			at += (size_t)snprintf(buf + at, n - at, "%s%s", at ? ":" : "", u->name);
			covered |= u->bits;
		}
	}
	if (covered != ev->defmask || at >= n)
		snprintf(buf, n, "0x%x", (unsigned)ev->defmask);
}

static void show_event(const struct arch_event *ev)
{
	char def[512];

	printf("  %s", ev->name);
	if (ev->unsupported)
		note_why("not supported", ev->unsupported, 2 + (int)strlen(ev->name), 6);
	else
		putchar('\n');
	if (ev->desc && *ev->desc) {
		printf("      ");
		wrap(ev->desc, 6, 6);
	}
	if (ev->counters && *ev->counters) {
		printf("      counters: ");
		wrap(ev->counters, 16, 8);
	}
	if (ev->precise) {
		printf("      precise (:p, :pp): ");
		wrap(ev->precise, 25, 8);
	}
	if (!ev->numask)
		return;
	default_mask(ev, def, sizeof(def));
	printf("      unit masks (default %s):\n", def);
	for (unsigned i = 0; i < ev->numask; i++) {
		const struct arch_umask *u = &ev->umask[i];
		int len = (int)strlen(u->name), col = 8 + (len > 16 ? len : 16) + 1;

		if (u->desc && *u->desc) {
			printf("        %-16s ", u->name);
			wrap(u->desc, col, 25);
		} else {
			printf("        %s\n", u->name);
		}
		/* the event's own reason is not repeated for each mask */
		if (u->unsupported &&
		    !(ev->unsupported && !strcmp(u->unsupported, ev->unsupported)))
			note_why("not supported", u->unsupported, -1, 25);
	}
}

static void list_native(const struct arch_backend *b, const struct filter *f)
{
	const struct arch_event **order;
	unsigned n = 0;

	order = malloc((b->nevents ? b->nevents : 1) * sizeof(*order));
	if (!order) {
		fprintf(stderr, "vpmu list: out of memory\n");
		exit(1);
	}
	for (unsigned i = 0; i < b->nevents; i++)
		if (b->events[i].name && native_wanted(f, b->events[i].name))
			order[n++] = &b->events[i];
	qsort(order, n, sizeof(*order), by_name);
	if (n)
		printf("%s native events:\n\n", b->name);
	for (unsigned i = 0; i < n; i++) {
		show_event(order[i]);
		putchar('\n');
	}
	free(order);
}

/* The timing model's events that f keeps, in the order vpmu stat -v
 * prints them, each with what it counts and, where the machine of
 * backend b does not produce it, why; after a blank line unless first.
 * Returns how many. */
static unsigned list_model(const struct arch_backend *b, const struct filter *f, int first)
{
	unsigned shown = 0;

	for (int k = 0; k < session_event_count(); k++) {
		const char *name = session_event_name(k), *why;

		if (!wanted(f, name))
			continue;
		if (!shown++)
			printf("%s%s timing-model events (vpmu stat -v):\n\n", first ? "" : "\n",
			       b->name);
		printf("  %s", name);
		why = session_event_uncounted(b->name, NULL, k);
		if (why)
			note_why("not counted", why, 2 + (int)strlen(name), 6);
		else
			putchar('\n');
		printf("      ");
		wrap(session_event_desc(k), 6, 6);
	}
	return shown;
}

/* Events of b that pattern keeps. */
static unsigned matches(const struct arch_backend *b, const struct filter *f)
{
	unsigned n = 0;

	for (unsigned i = 0; i < b->ngeneric; i++)
		n += b->generic[i].name && generic_wanted(f, b->generic[i].name);
	for (unsigned i = 0; i < b->nevents; i++)
		n += b->events[i].name && native_wanted(f, b->events[i].name);
	return n;
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "arch", required_argument, NULL, 'a' },
		{ "all-arch", no_argument, NULL, 'A' },
		{ "model", no_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct arch_backend *const *all = arch_all();
	const struct arch_backend *one = NULL;
	struct filter f = { NULL, 0, CLS_ANY };
	const char *arch = "p4";
	int c, every = 0, model = 0, shown = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:a:h", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			arch = optarg;
			break;
		case 'A':
			every = 1;
			break;
		case 'M':
			model = 1;
			break;
		case 'h':
			fputs(list_usage, stdout);
			return 0;
		case ':':
		default:
			opt_bad("list", c, argv);
			return 1;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "vpmu list: one PATTERN at most\n");
		fputs(list_usage, stderr);
		return 1;
	}
	if (optind < argc) {
		const char *w = argv[optind];
		f.cls = !strcmp(w, "hw") || !strcmp(w, "hardware") ? CLS_HW :
			!strcmp(w, "cache")			   ? CLS_CACHE :
			!strcmp(w, "pmu")			   ? CLS_PMU :
								     CLS_ANY;
		if (!strcmp(w, "sw") || !strcmp(w, "software")) {
			fprintf(stderr, "vpmu list: the emulated machine has no software events "
					"(perf's cpu-clock, task-clock, page-faults, ...): its "
					"events are its counter hardware's\n");
			return 0; /* (as when no event matches) */
		}
		if (!f.cls) {
			f.pattern = w;
			f.glob = strpbrk(f.pattern, "*?[") != NULL;
		}
	}
	if (f.cls && model) {
		fprintf(stderr, "vpmu list: --model lists the timing model's events: drop '%s'\n",
			argv[optind]);
		return 1;
	}
	if (!every) {
		one = arch_find(arch);
		if (!one) {
			char msg[256];

			session_machine_unknown(arch, msg, sizeof(msg));
			fprintf(stderr, "vpmu list: %s\n", msg);
			return 1;
		}
	}
	for (size_t i = 0; all[i]; i++) {
		if (one && all[i] != one)
			continue;
		if (model) {
			shown += list_model(all[i], &f, !shown) > 0;
			continue;
		}
		if (!matches(all[i], &f))
			continue;
		printf("%s%s%s%s\n\n", shown++ ? "\n" : "", all[i]->name, all[i]->desc ? ": " : "",
		       all[i]->desc ? all[i]->desc : "");
		list_generic(all[i], &f);
		list_native(all[i], &f);
	}
	if (!shown && (f.pattern || f.cls))
		fprintf(stderr, "vpmu list: no event matches '%s'\n", argv[optind]);
	return 0;
}
