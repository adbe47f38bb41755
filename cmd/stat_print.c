/* stat_print.c — a `vpmu stat` report in perf stat's human layout: one
 * line per row (count with thousands separators, event, `#` and the
 * derived figure, the spread over -r runs, the share of time counted when
 * multiplexed or "exact" when counted in a run of its own), then the
 * emulated and wall-clock time and the guest MIPS. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/fmt.h"
#include "stat.h"

/* Why a row has no count, for its comment. */
const char *stat_count_text(const struct stat_report *rep, double v, char *buf, size_t n)
{
	if (!rep->plain)
		return fmt_count((uint64_t)llround(v), buf, n);
	snprintf(buf, n, "%llu", (unsigned long long)llround(v));
	return buf;
}

static const char *absent_why(const struct stat_row *w)
{
	if (w->src == STAT_UNSUPPORTED)
		return w->why;
	if (w->ena)
		return "its group never had the counters: the program ended before its turn "
		       "(--exact, or a shorter --mux-interval)";
	return "the program ended before it could be counted";
}

static void note_of(const struct stat_report *rep, const struct stat_row *w, char *buf, size_t n)
{
	const char *unit;
	double v;

	buf[0] = 0;
	if (stat_absent(w))
		snprintf(buf, n, "%s", absent_why(w));
	else if (!stat_metric(rep, w, &v, &unit))
		return;
	else if (!strncmp(unit, "of ", 3))
		snprintf(buf, n, "%7.2f%% %s", v, unit);
	else if (!strcmp(unit, "GHz"))
		snprintf(buf, n, "%8.3f GHz (emulated clock)", v);
	else
		snprintf(buf, n, "%8.2f %s", v, unit);
}

static void row_line(FILE *out, const struct stat_report *rep, const struct stat_row *w)
{
	char num[32], note[320], tail[64] = "";
	const char *absent = stat_absent(w);
	size_t t = 0;

	if (!absent)
		stat_count_text(rep, stat_mean(w), num, sizeof(num));
	note_of(rep, w, note, sizeof(note));
	if (!absent && rep->runs > 1)
		t += (size_t)snprintf(tail + t, sizeof(tail) - t, "  ( +- %5.2f%% )",
				      stat_noise(w));
	if (w->ena && w->run != w->ena) /* as perf: only when not counted all along */
		t += (size_t)snprintf(tail + t, sizeof(tail) - t, "  (%.2f%%)",
				      100.0 * (double)w->run / (double)w->ena);
	else if (w->exact && !absent)
		snprintf(tail + t, sizeof(tail) - t, "  (exact)");
	if (w->cpu >= 0)
		fprintf(out, "CPU%d%14s", w->cpu, absent ? absent : num);
	else
		fprintf(out, "%18s", absent ? absent : num);
	if (note[0])
		fprintf(out, "      %-24s #  %s%s\n", w->name, note, tail);
	else if (tail[0])
		fprintf(out, "      %-24s%s\n", w->name, tail);
	else
		fprintf(out, "      %s\n", w->name);
}

void stat_print_row(FILE *out, const struct stat_report *rep, const struct stat_row *w)
{
	row_line(out, rep, w);
}

static void param_line(void *arg, const char *key, const char *value)
{
	fprintf(arg, "  %-24s %s\n", key, value);
}

/* -v: every event of the model per logical processor. */
static void model_table(FILE *out, const struct stat_report *rep)
{
	int n = rep->runs ? rep->runs : 1, w = 0;

	for (int k = 0; k < rep->nmodel; k++)
		if ((int)strlen(session_event_name(k)) > w)
			w = (int)strlen(session_event_name(k));
	fprintf(out, "\n%18s      %-*s %18s %18s\n", "", w, "event", "cpu0", "cpu1");
	for (int k = 0; k < rep->nmodel; k++) {
		char a[32], b[32];
		const char *why = session_event_uncounted(rep->arch, rep->set, k);
		if (why) {
			fprintf(out, "%18s      %-*s %18s %18s  (%s)\n", "", w,
				session_event_name(k), "<not counted>", "<not counted>", why);
			continue;
		}
		fprintf(out, "%18s      %-*s %18s %18s\n", "", w, session_event_name(k),
			stat_count_text(rep, rep->model[k][0] / n, a, sizeof(a)),
			stat_count_text(rep, rep->model[k][1] / n, b, sizeof(b)));
	}
}

void stat_print_head(FILE *out, const struct stat_report *rep)
{
	char cmd[512], runs[32] = "";

	if (rep->runs > 1)
		snprintf(runs, sizeof(runs), "%s%d runs", rep->functional_only ? "" : ", ",
			 rep->runs);
	fprintf(out, "\n Performance counter stats for '%s'",
		fmt_argv(rep->argv, cmd, sizeof(cmd)));
	if (rep->functional_only)
		fprintf(out, "%s%s%s:\n\n", runs[0] ? " (" : "", runs, runs[0] ? ")" : "");
	else
		fprintf(out, " (machine %s%s):\n\n", rep->arch, runs);
}

void stat_print_tail(FILE *out, const struct stat_report *rep, const struct stat_opts *so)
{
	int n = rep->runs ? rep->runs : 1;
	double wall = rep->wall / n;

	if (rep->timed && rep->mhz)
		fprintf(out, "%18.9f seconds emulated time\n", rep->cycles / n / (rep->mhz * 1e6));
	if (rep->walls && rep->runs > 1) {
		/* perf stat --table's: each run's time, its difference to the
		 * mean and a bar of a # per 5% of it */
		fprintf(out, "%9s# Table of individual measurements:\n", "");
		for (int k = 0; k < rep->runs; k++) {
			double t = rep->walls[k], d = t - wall;
			int bar = 1 + (t > 0 ? (int)(fabs(100.0 * d / t) / 5) : 0);
			fprintf(out, "%18.9f (%+.9f) %.*s\n", t, d, bar > 60 ? 60 : bar,
				"############################################################");
		}
		fprintf(out, "\n%9s# Final result:\n", "");
	}
	fprintf(out, "%18.9f seconds time elapsed", wall);
	if (rep->runs > 1 && wall > 0) {
		double var = (rep->wallsq - rep->wall * wall) / (n - 1);
		fprintf(out, "  ( +- %5.2f%% )", var > 0 ? 100.0 * sqrt(var / n) / wall : 0.0);
	}
	fputc('\n', out);
	if (!rep->functional_only && rep->wall > 0)
		fprintf(out, "%18.2f guest MIPS\n", rep->insns / rep->wall / 1e6);
	if (rep->exact_runs > 1)
		fprintf(out, "%18d deterministic runs (--exact): every count is exact\n",
			rep->exact_runs);
	if (rep->mux_groups > 1)
		fprintf(out,
			"%18d event groups multiplexed on the counters, rotated every %llu "
			"cycles: counts scaled by the share of time each was counted\n",
			rep->mux_groups, (unsigned long long)rep->mux_cycles);
	if (so->verbose && rep->timed) {
		fprintf(out, "\n machine %s parameters:\n", rep->arch);
		session_machine_params(rep->arch, rep->set, param_line, out);
	}
	if (so->verbose)
		fprintf(out, "%18d guest process%s\n", rep->nprocs, rep->nprocs == 1 ? "" : "es");
	fputc('\n', out);
}

void stat_print(FILE *out, const struct stat_report *rep, const struct stat_opts *so)
{
	stat_print_head(out, rep);
	for (int i = 0; i < rep->nrow; i++)
		row_line(out, rep, &rep->row[i]);
	if (so->verbose && rep->timed)
		model_table(out, rep);
	if (rep->nrow || (so->verbose && rep->timed)) /* (-n: no rows, one blank line) */
		fputc('\n', out);
	stat_print_tail(out, rep, so);
}
