/* hist_keys.c — the sort keys of `vpmu report --sort`: how each compares
 * two samples and how it prints one. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/fmt.h"
#include "core/hist.h"

static int cmpu(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmps(const char *a, const char *b)
{
	if (a == b)
		return 0;
	if (!a || !b)
		return a ? 1 : -1;
	return strcmp(a, b);
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* ---- comm, thread, pid, tid, cpu, event -------------------------------- */

static int comm_cmp(const struct report_sample *a, const struct report_sample *b)
{
	return cmps(a->comm, b->comm);
}

static const char *comm_str(const struct report *r, const struct report_sample *s, char *buf,
			    size_t n)
{
	(void)r, (void)buf, (void)n;
	return s->comm;
}

static int thread_cmp(const struct report_sample *a, const struct report_sample *b)
{
	return a->pid != b->pid ? cmpu(a->pid, b->pid) : cmpu(a->tid, b->tid);
}

static const char *thread_str(const struct report *r, const struct report_sample *s, char *buf,
			      size_t n)
{
	(void)r;
	snprintf(buf, n, "%" PRIu32 "/%" PRIu32, s->pid, s->tid);
	return buf;
}

static int pid_cmp(const struct report_sample *a, const struct report_sample *b)
{
	return cmpu(a->pid, b->pid);
}

static const char *pid_str(const struct report *r, const struct report_sample *s, char *buf,
			   size_t n)
{
	(void)r;
	snprintf(buf, n, "%" PRIu32, s->pid);
	return buf;
}

static int tid_cmp(const struct report_sample *a, const struct report_sample *b)
{
	return cmpu(a->tid, b->tid);
}

static const char *tid_str(const struct report *r, const struct report_sample *s, char *buf,
			   size_t n)
{
	(void)r;
	snprintf(buf, n, "%" PRIu32, s->tid);
	return buf;
}

static int cpu_cmp(const struct report_sample *a, const struct report_sample *b)
{
	return cmpu(a->cpu, b->cpu);
}

static const char *cpu_str(const struct report *r, const struct report_sample *s, char *buf,
			   size_t n)
{
	(void)r;
	snprintf(buf, n, "%03" PRIu32, s->cpu);
	return buf;
}

static int event_cmp(const struct report_sample *a, const struct report_sample *b)
{
	return cmpu(a->ev, b->ev);
}

static const char *event_str(const struct report *r, const struct report_sample *s, char *buf,
			     size_t n)
{
	(void)buf, (void)n;
	return r->events[s->ev].attr.name;
}

/* ---- code: dso, sym, symoff, srcline, srcfile -------------------------- */

static int dso_cmp(const struct report_sample *a, const struct report_sample *b)
{
	return cmps(report_loc_dso(a->loc), report_loc_dso(b->loc));
}

static const char *dso_str(const struct report *r, const struct report_sample *s, char *buf,
			   size_t n)
{
	(void)r, (void)buf, (void)n;
	return report_loc_dso(s->loc);
}

/* Same function: same name in the same image; no symbol: same address. */
static int loc_sym_cmp(const struct report_loc *a, const struct report_loc *b)
{
	int c;

	if (!a->sym || !b->sym)
		return a->sym ? 1 : b->sym ? -1 : cmpu(a->addr, b->addr);
	if ((c = strcmp(a->sym, b->sym)))
		return c;
	return cmps(a->path, b->path);
}

static int sym_cmp(const struct report_sample *a, const struct report_sample *b)
{
	return loc_sym_cmp(a->loc, b->loc);
}

static const char *sym_str(const struct report *r, const struct report_sample *s, char *buf,
			   size_t n)
{
	(void)r;
	return report_loc_sym(s->loc, buf, n);
}

static int symoff_cmp(const struct report_sample *a, const struct report_sample *b)
{
	int c = loc_sym_cmp(a->loc, b->loc);

	return c ? c : cmpu(a->loc->addr - a->loc->sym_start, b->loc->addr - b->loc->sym_start);
}

static const char *loc_symoff(const struct report_loc *l, char *buf, size_t n)
{
	if (!l->sym)
		return report_loc_sym(l, buf, n);
	snprintf(buf, n, "%s+0x%" PRIx64, l->sym, l->addr - l->sym_start);
	return buf;
}

static const char *symoff_str(const struct report *r, const struct report_sample *s, char *buf,
			      size_t n)
{
	(void)r;
	return loc_symoff(s->loc, buf, n);
}

static int line_cmp(struct report_loc *a, struct report_loc *b, int with_line)
{
	int ka = report_loc_line(a) == 0, kb = report_loc_line(b) == 0, c;

	if (!ka || !kb)
		return ka - kb;
	if ((c = strcmp(a->srcfile, b->srcfile)) || !with_line)
		return c;
	return cmpu(a->line, b->line);
}

static int srcline_cmp(const struct report_sample *a, const struct report_sample *b)
{
	return line_cmp(a->loc, b->loc, 1);
}

static const char *srcline_str(const struct report *r, const struct report_sample *s, char *buf,
			       size_t n)
{
	(void)r;
	if (report_loc_line(s->loc))
		return "??:0";
	snprintf(buf, n, "%s:%u", base(s->loc->srcfile), s->loc->line);
	return buf;
}

static int srcfile_cmp(const struct report_sample *a, const struct report_sample *b)
{
	return line_cmp(a->loc, b->loc, 0);
}

static const char *srcfile_str(const struct report *r, const struct report_sample *s, char *buf,
			       size_t n)
{
	(void)r, (void)buf, (void)n;
	return report_loc_line(s->loc) ? "??" : base(s->loc->srcfile);
}

/* ---- data: daddr, dsym, ddso ------------------------------------------- */

static int daddr_cmp(const struct report_sample *a, const struct report_sample *b)
{
	if (!a->dloc || !b->dloc)
		return !!a->dloc - !!b->dloc;
	return cmpu(a->dloc->addr, b->dloc->addr);
}

static const char *daddr_str(const struct report *r, const struct report_sample *s, char *buf,
			     size_t n)
{
	(void)r;
	if (!s->dloc)
		return "[none]";
	return loc_symoff(s->dloc, buf, n);
}

static int dsym_cmp(const struct report_sample *a, const struct report_sample *b)
{
	if (!a->dloc || !b->dloc)
		return !!a->dloc - !!b->dloc;
	if (!a->dloc->sym || !b->dloc->sym)
		return !!a->dloc->sym - !!b->dloc->sym;
	return loc_sym_cmp(a->dloc, b->dloc);
}

static const char *dsym_str(const struct report *r, const struct report_sample *s, char *buf,
			    size_t n)
{
	(void)r, (void)buf, (void)n;
	if (!s->dloc)
		return "[none]";
	return s->dloc->sym ? s->dloc->sym : "[unknown]";
}

static int ddso_cmp(const struct report_sample *a, const struct report_sample *b)
{
	if (!a->dloc || !b->dloc)
		return !!a->dloc - !!b->dloc;
	return cmps(report_loc_dso(a->dloc), report_loc_dso(b->dloc));
}

static const char *ddso_str(const struct report *r, const struct report_sample *s, char *buf,
			    size_t n)
{
	(void)r, (void)buf, (void)n;
	return s->dloc ? report_loc_dso(s->dloc) : "[none]";
}

/* ---- skid: instructions from the triggering one to the sampled one ---- */

int hist_pow2_bucket(uint64_t v)
{
	int b = 0;

	if (v < 8)
		return (int)v;
	for (; v >= 8; v >>= 1)
		b++;
	return 7 + b;
}

const char *hist_pow2_str(int b, char *buf, size_t n)
{
	if (b < 0)
		return "[unknown]";
	if (b < 8)
		snprintf(buf, n, "%d", b);
	else
		snprintf(buf, n, "%" PRIu64 "-%" PRIu64, (uint64_t)1 << (b - 5),
			 ((uint64_t)1 << (b - 4)) - 1);
	return buf;
}

/* -1 for samples that name no trigger. */
static int skid_bucket(const struct report_sample *s)
{
	return s->has_trigger ? hist_pow2_bucket(s->skid) : -1;
}

static int skid_cmp(const struct report_sample *a, const struct report_sample *b)
{
	int x = skid_bucket(a), y = skid_bucket(b);

	return (x > y) - (x < y);
}

static const char *skid_str(const struct report *r, const struct report_sample *s, char *buf,
			    size_t n)
{
	(void)r;
	return hist_pow2_str(skid_bucket(s), buf, n);
}

#define KEY(n, h, raw, symcol, f) \
	static const struct hist_key key_##f = { n, h, raw, symcol, f##_cmp, f##_str }

KEY("comm", "Command", HIST_RAW_COMM, 0, comm);
KEY("dso", "Shared Object", HIST_RAW_LOC, 0, dso);
KEY("sym", "Symbol", HIST_RAW_LOC, 1, sym);
KEY("symoff", "Symbol+Offset", HIST_RAW_LOC, 1, symoff);
KEY("srcline", "Source:Line", HIST_RAW_LOC, 0, srcline);
KEY("srcfile", "Source File", HIST_RAW_LOC, 0, srcfile);
KEY("daddr", "Data Address", HIST_RAW_DLOC, 1, daddr);
KEY("dsym", "Data Symbol", HIST_RAW_DLOC, 1, dsym);
KEY("ddso", "Data Object", HIST_RAW_DLOC, 0, ddso);
KEY("event", "Event", HIST_RAW_EV, 0, event);
KEY("thread", "Pid/Tid", HIST_RAW_PID | HIST_RAW_TID, 0, thread);
KEY("pid", "Pid", HIST_RAW_PID, 0, pid);
KEY("tid", "Tid", HIST_RAW_TID, 0, tid);
KEY("cpu", "CPU", HIST_RAW_CPU, 0, cpu);
KEY("skid", "Skid", HIST_RAW_SKID, 0, skid);

const struct hist_key *const hist_keys[] = {
	&key_comm,
	&key_dso,
	&key_sym,
	&key_symoff,
	&key_srcline,
	&key_srcfile,
	&key_daddr,
	&key_dsym,
	&key_ddso,
	&key_event,
	&key_thread,
	&key_pid,
	&key_tid,
	&key_cpu,
	&key_skid,
	&hist_key_local_weight,
	&hist_key_latency,
	&hist_key_abort,
	&hist_key_mem,
	&hist_key_missclass,
	&hist_key_dso_from,
	&hist_key_dso_to,
	&hist_key_symbol_from,
	&hist_key_symbol_to,
	&hist_key_mispredict,
	NULL,
};

int hist_loc_sym_cmp(const struct report_loc *a, const struct report_loc *b)
{
	return loc_sym_cmp(a, b);
}

/* perf's names of the data keys (perf mem report's) */
static const char *const alias[][2] = { { "symbol_daddr", "dsym" }, { "dso_daddr", "ddso" } };
#define NALIAS (sizeof(alias) / sizeof(alias[0]))

const struct hist_key *hist_key_find(const char *name)
{
	for (size_t i = 0; i < NALIAS; i++)
		if (!strcmp(name, alias[i][0]))
			name = alias[i][1];
	for (int i = 0; hist_keys[i]; i++)
		if (!strcmp(hist_keys[i]->name, name))
			return hist_keys[i];
	return NULL;
}

int hist_keys_parse(const char *list, const struct hist_key **keys, int *n, char *err, size_t errsz)
{
	char word[64];

	*n = 0;
	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");
		const struct hist_key *k;

		snprintf(word, sizeof(word), "%.*s", (int)(len < 63 ? len : 63), p);
		k = len < 63 ? hist_key_find(word) : NULL;
		if (!k) {
			const char *best = hist_keys[0]->name;
			unsigned bd = ~0u;

			for (int i = 0; hist_keys[i]; i++) {
				unsigned d = fmt_distance(word, hist_keys[i]->name);

				if (d < bd) {
					bd = d;
					best = hist_keys[i]->name;
				}
			}
			for (size_t i = 0; i < NALIAS; i++)
				if (fmt_distance(word, alias[i][0]) < bd) {
					bd = fmt_distance(word, alias[i][0]);
					best = alias[i][0];
				}
			if (!len)
				snprintf(err, errsz, "empty sort key in '%s'", list);
			else
				snprintf(err, errsz, "unknown sort key '%s'; did you mean '%s'?",
					 word, best);
			return -1;
		}
		for (int i = 0; i < *n; i++)
			if (keys[i] == k) {
				snprintf(err, errsz, "sort key '%s' given twice", word);
				return -1;
			}
		if (*n == HIST_MAXKEYS) {
			snprintf(err, errsz, "too many sort keys");
			return -1;
		}
		keys[(*n)++] = k;
		p += len;
		if (!*p)
			return 0;
	}
}
