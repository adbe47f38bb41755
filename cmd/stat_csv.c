/* stat_csv.c — a `vpmu stat` report for programs, as perf stat writes it:
 * -x SEP, one line per row with the fields
 *   [CPUn SEP] value SEP unit SEP event [SEP variance] SEP run-time SEP
 *   percent SEP metric-value SEP metric-unit
 * (variance only with -r, "<not counted>" or "<not supported>" as the
 * value), and -j, one JSON object per row with perf's keys.  Run time is
 * in emulated cycles. */
#include <stdio.h>
#include <string.h>

#include "core/fmt.h"
#include "stat.h"

void stat_csv_row(FILE *out, const struct stat_report *rep, const struct stat_row *w,
		  const char *sep)
{
	const char *absent = stat_absent(w), *unit;
	uint64_t run;
	double pct, m;

	stat_running(rep, w, &run, &pct);
	if (w->cpu >= 0)
		fprintf(out, "CPU%d%s", w->cpu, sep);
	if (absent)
		fprintf(out, "%s", absent);
	else
		fprintf(out, "%.0f", stat_mean(w));
	fprintf(out, "%s%s%s", sep, sep, w->name);
	if (rep->runs > 1)
		fprintf(out, "%s%.2f%%", sep, stat_noise(w));
	fprintf(out, "%s%llu%s%.2f", sep, (unsigned long long)run, sep, pct);
	if (stat_metric(rep, w, &m, &unit))
		fprintf(out, "%s%.2f%s%s\n", sep, m, sep, unit);
	else
		fprintf(out, "%s%s\n", sep, sep);
}

void stat_print_csv(FILE *out, const struct stat_report *rep, const char *sep)
{
	for (int i = 0; i < rep->nrow; i++)
		stat_csv_row(out, rep, &rep->row[i], sep);
}

void stat_json_row(FILE *out, const struct stat_report *rep, const struct stat_row *w,
		   const char *lead)
{
	const char *absent = stat_absent(w), *unit;
	uint64_t run;
	double pct, m;

	stat_running(rep, w, &run, &pct);
	fputc('{', out);
	if (lead)
		fputs(lead, out);
	if (w->cpu >= 0)
		fprintf(out, "\"cpu\" : \"%d\", ", w->cpu);
	if (absent)
		fprintf(out, "\"counter-value\" : \"%s\", ", absent);
	else
		fprintf(out, "\"counter-value\" : \"%f\", ", stat_mean(w));
	fprintf(out, "\"unit\" : \"\", \"event\" : ");
	fmt_json_str(out, w->name);
	fputs(", ", out);
	if (rep->runs > 1)
		fprintf(out, "\"variance\" : %.2f, ", stat_noise(w));
	fprintf(out, "\"event-runtime\" : %llu, \"pcnt-running\" : %.2f", (unsigned long long)run,
		pct);
	if (stat_metric(rep, w, &m, &unit)) {
		fprintf(out, ", \"metric-value\" : \"%f\", \"metric-unit\" : ", m);
		fmt_json_str(out, unit);
	}
	fputs("}\n", out);
}

void stat_print_json(FILE *out, const struct stat_report *rep)
{
	for (int i = 0; i < rep->nrow; i++)
		stat_json_row(out, rep, &rep->row[i], NULL);
}
