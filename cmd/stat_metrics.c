/* stat_metrics.c — `vpmu stat --metrics NAME` (stat_metrics.h): which
 * events a group programs, the checks, and its report in perf's three
 * formats; the formulas are in stat_fsb.c. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "arch/arch.h"
#include "core/evspec.h"
#include "core/fmt.h"
#include "stat_metrics.h"

/* The fsb group's events, in groups of the four generic counters PMC4-7
 * (every bus event can use any of them [op] table 11-30): read latency
 * and occupancy together, transactions by originator, by size and type. */
static const char *const fsb_specs[] = {
	"{CPU_CYCLES,BUS_MEM_READ_OUT_HI,BUS_MEM_READ_OUT_LO,BUS_MEM_READ:ALL_SELF}",
	"{BUS_ALL:ANY,BUS_ALL:SELF,BUS_ALL:IO,BUS_DATA_CYCLE}",
	("{BUS_MEMORY:EQ_128BYTE_ANY,BUS_MEMORY:LT_128BYTE_ANY,BUS_MEM_READ:BRL_SELF,"
	 "BUS_MEM_READ:BRIL_SELF}"),
	"BUS_WR_WB:ALL_SELF,BUS_HITM",
};

/* The report's count lines: row, what it is, where the formulas take it
 * (offset in struct stat_fsb_counts, or -1: shown only). */
static const struct {
	const char *row, *what;
	ptrdiff_t off;
} fsb_rows[] = {
	{ "CPU_CYCLES", "core cycles", offsetof(struct stat_fsb_counts, cycles) },
	{ "BUS_ALL:ANY", "bus transactions, every agent",
	  offsetof(struct stat_fsb_counts, all_any) },
	{ "BUS_ALL:SELF", "bus transactions of this processor",
	  offsetof(struct stat_fsb_counts, all_self) },
	{ "BUS_ALL:IO", "bus transactions of I/O agents (data system calls move)",
	  offsetof(struct stat_fsb_counts, all_io) },
	{ "BUS_MEMORY:EQ_128BYTE_ANY", "full-line transfers (BRL, BRIL, BWL, I/O lines)",
	  offsetof(struct stat_fsb_counts, lines) },
	{ "BUS_MEMORY:LT_128BYTE_ANY", "partial transfers (BRP, BWP)",
	  offsetof(struct stat_fsb_counts, partials) },
	{ "BUS_MEM_READ:BRL_SELF", "read line (BRL): load and fetch misses", -1 },
	{ "BUS_MEM_READ:BRIL_SELF", "read-invalidate line (BRIL): store misses", -1 },
	{ "BUS_WR_WB:ALL_SELF", "write-backs (BWL) of modified lines", -1 },
	{ "BUS_HITM", "implicit write-backs (HITM: I/O snooped a modified line)",
	  offsetof(struct stat_fsb_counts, hitm) },
	{ "BUS_MEM_READ:ALL_SELF", "full-line memory reads",
	  offsetof(struct stat_fsb_counts, reads) },
	{ "BUS_MEM_READ_OUT_HI", "reads outstanding per cycle, bits 4:3, summed",
	  offsetof(struct stat_fsb_counts, out_hi) },
	{ "BUS_MEM_READ_OUT_LO", "reads outstanding per cycle, bits 2:0, summed",
	  offsetof(struct stat_fsb_counts, out_lo) },
	{ "BUS_DATA_CYCLE", "bus clocks carrying data",
	  offsetof(struct stat_fsb_counts, data_clocks) },
};
#define NROWS (sizeof(fsb_rows) / sizeof(fsb_rows[0]))

static const char *const groups[] = { "fsb" };
#define NGROUPS (sizeof(groups) / sizeof(groups[0]))

void stat_metrics_list(FILE *out)
{
	fprintf(out,
		"                         fsb (-a ia64): the front-side bus as HP Caliper's\n"
		"                         sysbus set measures it, with R core clocks per bus\n"
		"                         clock, A address clocks per transaction, D data\n"
		"                         clocks per line, W bytes per bus clock, MHz the core\n"
		"                         clock (machine parameters mem.*, core.mhz):\n");
	for (int k = 0; k < STAT_FSB_NMETRIC; k++)
		fprintf(out,
			"                           %s (%s) =\n                             %s\n",
			stat_fsb_metrics[k].label, stat_fsb_metrics[k].unit,
			stat_fsb_metrics[k].formula);
}

int stat_metrics_setup(struct stat_opts *so, const struct session_opts *o, char *err, size_t errsz)
{
	const struct arch_backend *b = arch_find(o->arch);

	if (so->mode) {
		snprintf(err, errsz, "--metrics and --mode each choose the events: give one");
		return -1;
	}
	if (strcmp(so->metrics, "fsb")) {
		const char *near = evspec_closest(so->metrics, groups, NGROUPS);
		snprintf(err, errsz, "unknown --metrics '%s'%s%s%s; valid: fsb", so->metrics,
			 near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
		return -1;
	}
	if (!b || strcmp(b->name, "ia64")) {
		snprintf(err, errsz,
			 "--metrics fsb reads the Itanium 2 system bus events: it needs -a ia64, "
			 "not '%s'",
			 o->arch);
		return -1;
	}
	if (so->nspecs) {
		snprintf(err, errsz, "--metrics %s chooses the events itself: drop -e",
			 so->metrics);
		return -1;
	}
	if (!o->timed) {
		snprintf(err, errsz, "--metrics reads the counter hardware: drop --no-timing");
		return -1;
	}
	for (size_t k = 0; k < sizeof(fsb_specs) / sizeof(fsb_specs[0]); k++)
		so->specs[so->nspecs++] = fsb_specs[k];
	/* more events than PMC4-7: one deterministic run per group, so every
	 * count is exact and the ratios mix no estimates */
	so->exact = 1;
	return 0;
}

static const struct stat_row *row_of(const struct stat_report *rep, const char *name)
{
	for (int i = 0; i < rep->nrow; i++)
		if (rep->row[i].cpu < 0 && !strcmp(rep->row[i].name, name))
			return &rep->row[i];
	return NULL;
}

static void bus_param(void *arg, const char *key, const char *value)
{
	stat_fsb_bus_param(arg, key, value);
}

/* The counts and the bus of a report: the metrics (ok[k] 0: absent).
 * Returns 0, or -1 when a count or the bus is missing. */
static int fsb_eval(const struct stat_report *rep, struct stat_fsb_bus *bus, double *v, int *ok)
{
	struct stat_fsb_counts c = { 0 };
	int missing = 0;

	memset(bus, 0, sizeof(*bus));
	if (session_machine_params(rep->arch, rep->set, bus_param, bus) < 0 ||
	    stat_fsb_bus_done(bus) < 0)
		missing = 1;
	for (size_t k = 0; k < NROWS; k++) {
		const struct stat_row *w = row_of(rep, fsb_rows[k].row);
		if (fsb_rows[k].off < 0)
			continue;
		if (!w || stat_absent(w))
			missing = 1;
		else {
			double m = stat_mean(w);
			memcpy((char *)&c + fsb_rows[k].off, &m, sizeof(m));
		}
	}
	stat_fsb_compute(&c, bus, v, ok);
	if (missing)
		memset(ok, 0, STAT_FSB_NMETRIC * sizeof(*ok));
	return missing ? -1 : 0;
}

static void human(FILE *out, const struct stat_report *rep)
{
	struct stat_fsb_bus bus;
	double v[STAT_FSB_NMETRIC];
	int ok[STAT_FSB_NMETRIC], n = rep->runs ? rep->runs : 1;
	char cmd[512], runs[32] = "";

	fsb_eval(rep, &bus, v, ok);
	if (rep->runs > 1)
		snprintf(runs, sizeof(runs), ", %d runs", rep->runs);
	fprintf(out, "\n Performance counter stats for '%s' (machine %s%s):\n",
		fmt_argv(rep->argv, cmd, sizeof(cmd)), rep->arch, runs);
	fprintf(out, " front-side bus metrics (--metrics fsb; HP Caliper's sysbus event set)\n\n");
	for (size_t k = 0; k < NROWS; k++) {
		const struct stat_row *w = row_of(rep, fsb_rows[k].row);
		const char *absent = w ? stat_absent(w) : "<not counted>";
		char num[32];
		if (!absent)
			stat_count_text(rep, stat_mean(w), num, sizeof(num));
		fprintf(out, "%18s      %-26s # %s\n", absent ? absent : num, fsb_rows[k].row,
			fsb_rows[k].what);
	}
	if (bus.ratio && bus.mhz)
		fprintf(out,
			"\n bus clock %g MHz: R = %u core clocks per bus clock; A = %u address "
			"clocks per transaction;\n D = %u data clocks per %u-byte line; W = %u "
			"bytes per bus clock; MHz = %u (core)\n\n",
			(double)bus.mhz / bus.ratio, bus.ratio, bus.addr_clocks, bus.line_clocks,
			bus.line, bus.bytes_per_clock, bus.mhz);
	for (int k = 0; k < STAT_FSB_NMETRIC; k++) {
		const struct stat_fsb_metric *m = &stat_fsb_metrics[k];
		if (ok[k])
			fprintf(out, "  %-36s = %13.2f %-12s %s\n", m->label, v[k], m->unit,
				m->formula);
		else
			fprintf(out, "  %-36s = %13s %-12s %s\n", m->label, "<not counted>", "",
				m->formula);
	}
	fputc('\n', out);
	if (rep->mhz)
		fprintf(out, "%18.9f seconds emulated time\n", rep->cycles / n / (rep->mhz * 1e6));
	fprintf(out, "%18.9f seconds time elapsed\n", rep->wall / n);
	if (rep->exact_runs > 1)
		fprintf(out, "%18d deterministic runs (--exact): every count is exact\n",
			rep->exact_runs);
	fputc('\n', out);
}

/* perf's metric-unit of a metric of a group: unit and metric name */
static void metric_unit(char *buf, size_t n, const struct stat_fsb_metric *m)
{
	snprintf(buf, n, "%s  %s", m->unit, m->name);
}

void stat_metrics_print(FILE *out, const struct stat_report *rep, const struct stat_opts *so)
{
	struct stat_fsb_bus bus;
	double v[STAT_FSB_NMETRIC];
	int ok[STAT_FSB_NMETRIC];
	char unit[96];

	if (!so->sep && !so->json) {
		human(out, rep);
		return;
	}
	fsb_eval(rep, &bus, v, ok);
	if (so->sep)
		stat_print_csv(out, rep, so->sep);
	else
		stat_print_json(out, rep);
	/* as perf prints a metric of no event's line: every other field empty */
	for (int k = 0; k < STAT_FSB_NMETRIC; k++) {
		if (!ok[k])
			continue;
		metric_unit(unit, sizeof(unit), &stat_fsb_metrics[k]);
		if (so->sep) {
			for (int f = 0; f < (rep->runs > 1 ? 6 : 5); f++)
				fputs(so->sep, out);
			fprintf(out, "%.2f%s%s\n", v[k], so->sep, unit);
		} else {
			fprintf(out, "{\"metric-value\" : \"%f\", \"metric-unit\" : ", v[k]);
			fmt_json_str(out, unit);
			fputs("}\n", out);
		}
	}
}
