/* stat_mode.c — the XScale's performance monitoring modes (stat_mode.h):
 * which events PMN0 and PMN1 count in each, and the statistics the
 * manual derives from them and CCNT, cited [xdm] with section. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arch/arch.h"
#include "core/evspec.h"
#include "core/fmt.h"
#include "stat_mode.h"

enum { M_PMN0, M_PMN1, M_CCNT, M_NONE };

struct mode_stat {
	const char *label, *formula;
	int num, den; /* M_*; den M_NONE: the numerator alone */
	int pct;
};

struct stat_mode {
	const char *name, *section, *title;
	const char *pmn0, *pmn1; /* events */
	const char *what0, *what1;
	struct mode_stat stat[2];
};

static const struct stat_mode modes[] = {
	{ "instruction-cache-efficiency",
	  "8.4.1",
	  "instruction cache efficiency",
	  "INSN_EXECUTED",
	  "IFU_IFETCH_MISS",
	  "instructions executed",
	  "instruction fetch requests to external memory (32 bytes each)",
	  { { "instruction cache miss rate", "PMN1 / PMN0", M_PMN1, M_PMN0, 1 },
	    { "cycles per instruction (CPI)", "CCNT / PMN0", M_CCNT, M_PMN0, 0 } } },
	{ "data-cache-efficiency",
	  "8.4.2",
	  "data cache efficiency",
	  "DCACHE_ACCESS",
	  "DCACHE_MISS",
	  "data cache accesses",
	  "data cache and mini-data cache misses",
	  { { "data cache miss rate", "PMN1 / PMN0", M_PMN1, M_PMN0, 1 }, { 0 } } },
	{ "instruction-fetch-latency",
	  "8.4.3",
	  "instruction fetch latency",
	  "CYCLES_IFU_MEM_STALL",
	  "IFU_IFETCH_MISS",
	  "cycles the instruction cache cannot deliver (I-cache or I-TLB miss)",
	  "instruction fetch requests to external memory (32 bytes each)",
	  { { "average stall cycles per fetch request", "PMN0 / PMN1", M_PMN0, M_PMN1, 0 },
	    { "cycles stalled on instruction fetch", "PMN0 / CCNT", M_PMN0, M_CCNT, 1 } } },
	{ "data-bus-request-buffer-full",
	  "8.4.4",
	  "data/bus request buffer full",
	  "CYCLES_DCACHE_FULL_STALL",
	  "DCACHE_FULL_STALL_CNT",
	  "cycles stalled: no data cache buffer free",
	  "times that stall began",
	  { { "average cycles per buffer-full stall", "PMN0 / PMN1", M_PMN0, M_PMN1, 0 },
	    { "cycles stalled, no data-cache buffer", "PMN0 / CCNT", M_PMN0, M_CCNT, 1 } } },
	{ "stall-writeback",
	  "8.4.5",
	  "stall/writeback statistics",
	  "CYCLES_DATA_STALL",
	  "DCACHE_WB",
	  "cycles stalled on data dependencies",
	  "data cache write-backs (one per half line)",
	  { { "cycles stalled on data dependencies", "PMN0 / CCNT", M_PMN0, M_CCNT, 1 },
	    { "data write-backs to external memory", "PMN1", M_PMN1, M_NONE, 0 } } },
	{ "instruction-tlb-efficiency",
	  "8.4.6",
	  "instruction TLB efficiency",
	  "INSN_EXECUTED",
	  "ITLB_MISS",
	  "instructions executed",
	  "instruction TLB table walks",
	  { { "instruction TLB miss rate", "PMN1 / PMN0", M_PMN1, M_PMN0, 1 },
	    { "cycles per instruction (CPI)", "CCNT / PMN0", M_CCNT, M_PMN0, 0 } } },
	{ "data-tlb-efficiency",
	  "8.4.7",
	  "data TLB efficiency",
	  "DCACHE_ACCESS",
	  "DTLB_MISS",
	  "data cache accesses",
	  "data TLB table walks",
	  { { "data TLB miss rate", "PMN1 / PMN0", M_PMN1, M_PMN0, 1 }, { 0 } } },
};
#define NMODES (sizeof(modes) / sizeof(modes[0]))

static const struct stat_mode *find_mode(const char *name)
{
	for (size_t k = 0; k < NMODES; k++)
		if (!strcmp(modes[k].name, name))
			return &modes[k];
	return NULL;
}

void stat_mode_list(FILE *out)
{
	for (size_t k = 0; k < NMODES; k++)
		fprintf(out, "                         %s\n", modes[k].name);
}

int stat_mode_setup(struct stat_opts *so, const struct session_opts *o, char *err, size_t errsz)
{
	static char spec[128];
	const struct stat_mode *m = find_mode(so->mode);
	const struct arch_backend *b = arch_find(o->arch);

	if (!m) {
		const char *names[NMODES], *near;
		for (size_t k = 0; k < NMODES; k++)
			names[k] = modes[k].name;
		near = evspec_closest(so->mode, names, NMODES);
		snprintf(err, errsz, "unknown --mode '%s'%s%s%s (vpmu stat -h lists the modes)",
			 so->mode, near ? " (did you mean '" : "", near ? near : "",
			 near ? "'?)" : "");
		return -1;
	}
	if (!b || strncmp(b->name, "xscale", 6)) {
		snprintf(err, errsz,
			 "--mode is the XScale's performance monitoring modes: it needs -a xscale "
			 "or -a xscale2, not '%s'",
			 o->arch);
		return -1;
	}
	if (so->nspecs) {
		snprintf(err, errsz, "--mode %s chooses the events itself: drop -e", m->name);
		return -1;
	}
	if (!o->timed) {
		snprintf(err, errsz, "--mode reads the counter hardware: drop --no-timing");
		return -1;
	}
	/* one group: PMN0, PMN1 and CCNT count together */
	snprintf(spec, sizeof(spec), "{%s,%s,CPU_CYCLES}", m->pmn0, m->pmn1);
	so->specs[so->nspecs++] = spec;
	return 0;
}

static const struct stat_row *row_of(const struct stat_report *rep, const char *name)
{
	for (int i = 0; i < rep->nrow; i++)
		if (rep->row[i].cpu < 0 && !strcmp(rep->row[i].name, name))
			return &rep->row[i];
	return NULL;
}

static void reg_line(FILE *out, const struct stat_report *rep, const char *reg,
		     const struct stat_row *w, const char *ev, const char *what)
{
	const char *absent = w ? stat_absent(w) : "<not counted>";
	char num[32];

	if (!absent)
		stat_count_text(rep, stat_mean(w), num, sizeof(num));
	fprintf(out, "  %-4s %16s  %-24s # %s\n", reg, absent ? absent : num, ev, what);
}

void stat_mode_print(FILE *out, const struct stat_report *rep, const struct stat_opts *so)
{
	const struct stat_mode *m = find_mode(so->mode);
	const struct stat_row *w[3];
	double v[3];
	int have[3];
	char cmd[512], runs[32] = "";
	int n = rep->runs ? rep->runs : 1;

	if (!m)
		return;
	w[M_PMN0] = row_of(rep, m->pmn0);
	w[M_PMN1] = row_of(rep, m->pmn1);
	w[M_CCNT] = row_of(rep, "CPU_CYCLES");
	for (int k = 0; k < 3; k++) {
		have[k] = w[k] && !stat_absent(w[k]);
		v[k] = have[k] ? stat_mean(w[k]) : 0;
	}
	if (rep->runs > 1)
		snprintf(runs, sizeof(runs), ", %d runs", rep->runs);
	fprintf(out, "\n Performance counter stats for '%s' (machine %s%s):\n",
		fmt_argv(rep->argv, cmd, sizeof(cmd)), rep->arch, runs);
	fprintf(out, " %s mode (Intel XScale Core Developer's Manual, section %s)\n\n", m->title,
		m->section);
	reg_line(out, rep, "PMN0", w[M_PMN0], m->pmn0, m->what0);
	reg_line(out, rep, "PMN1", w[M_PMN1], m->pmn1, m->what1);
	reg_line(out, rep, "CCNT", w[M_CCNT], "CPU_CYCLES", "core cycles");
	fputc('\n', out);
	for (int k = 0; k < 2 && m->stat[k].label; k++) {
		const struct mode_stat *s = &m->stat[k];
		int den = s->den;
		fprintf(out, "  %-40s %-12s = ", s->label, s->formula);
		if (!have[s->num] || (den != M_NONE && (!have[den] || v[den] <= 0)))
			fprintf(out, "%14s\n", "<not counted>");
		else if (den == M_NONE)
			fprintf(out, "%14.0f\n", v[s->num]);
		else if (s->pct)
			fprintf(out, "%13.4f%%\n", 100.0 * v[s->num] / v[den]);
		else
			fprintf(out, "%14.4f\n", v[s->num] / v[den]);
	}
	fputc('\n', out);
	if (rep->mhz)
		fprintf(out, "%18.9f seconds emulated time\n", rep->cycles / n / (rep->mhz * 1e6));
	fprintf(out, "%18.9f seconds time elapsed\n\n", rep->wall / n);
}
