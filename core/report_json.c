/* report_json.c — `vpmu report --format=json`: the file's header and
 * each table's entries with their key values, for scripts. */
#include <inttypes.h>
#include <string.h>

#include "core/fmt.h"
#include "core/report_out.h"

static void header(FILE *f, const struct report *r)
{
	fprintf(f, "  \"file\": ");
	fmt_json_str(f, r->path);
	fprintf(f, ",\n  \"finished\": %s,\n  \"machine\": ", r->finished ? "true" : "false");
	if (r->machine)
		fmt_json_str(f, r->machine);
	else
		fprintf(f, "null");
	fprintf(f, ",\n  \"parameters\": {");
	for (size_t i = 0; i < r->nparams; i++) {
		fprintf(f, "%s", i ? ", " : "");
		fmt_json_str(f, r->params[i].key);
		fprintf(f, ": ");
		fmt_json_str(f, r->params[i].value);
	}
	fprintf(f, "},\n  \"cmdline\": [");
	for (size_t i = 0; i < r->argc; i++) {
		fprintf(f, "%s", i ? ", " : "");
		fmt_json_str(f, r->argv[i]);
	}
	fprintf(f, "],\n  \"damaged_bytes\": %" PRIu64 ",\n  \"events\": [",
		r->stats.damaged_bytes);
	for (size_t i = 0; i < r->nevents; i++) {
		const struct report_event *e = &r->events[i];

		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		fmt_json_str(f, e->attr.name);
		fprintf(f,
			", \"id\": %" PRIu32 ", \"precise\": %u, \"period\": %" PRIu64
			", \"samples\": %" PRIu64 ", \"event_count\": %" PRIu64
			", \"lost\": %" PRIu64,
			e->attr.id, e->attr.precise, e->attr.period, e->nsamples, e->period,
			e->lost);
		if (e->have_totals)
			fprintf(f,
				", \"total\": %" PRIu64 ", \"enabled\": %" PRIu64
				", \"running\": %" PRIu64,
				e->totals.value, e->totals.enabled, e->totals.running);
		fprintf(f, "}");
	}
	fprintf(f, "\n  ]");
}

void report_write_json(FILE *f, const struct report *r, struct hist *const *h, const int *ev,
		       size_t nh, const struct report_opts *o)
{
	char buf[512];

	fprintf(f, "{\n");
	header(f, r);
	fprintf(f, ",\n  \"tables\": [");
	for (size_t t = 0; t < nh; t++) {
		const struct hist *hi = h[t];
		size_t shown = 0;

		fprintf(f, "%s\n    {\"event\": ", t ? "," : "");
		if (ev[t] >= 0)
			fmt_json_str(f, r->events[ev[t]].attr.name);
		else
			fprintf(f, "null");
		fprintf(f, ", \"sort\": [");
		for (int k = 0; k < hi->nkeys; k++) {
			fprintf(f, "%s", k ? ", " : "");
			fmt_json_str(f, hi->keys[k]->name);
		}
		fprintf(f, "], \"samples\": %" PRIu64 ", \"period\": %" PRIu64 ", \"entries\": [",
			hi->nsamples, hi->period);
		for (size_t i = 0; i < hi->nentries; i++) {
			const struct hist_entry *e = &hi->entries[i];
			double pct = report_percent(r, e);

			if (pct < o->percent_limit)
				continue;
			fprintf(f,
				"%s\n      {\"overhead\": %.4f, \"samples\": %" PRIu64
				", \"period\": %" PRIu64,
				shown++ ? "," : "", pct, e->nsamples, e->period);
			if (o->children) /* (overhead and period are the children's) */
				fprintf(f, ", \"self\": %.4f, \"self_period\": %" PRIu64,
					report_self_percent(r, e), e->self);
			for (int k = 0; k < hi->nkeys; k++) {
				fprintf(f, ", ");
				fmt_json_str(f, hi->keys[k]->name);
				fprintf(f, ": ");
				fmt_json_str(f, hi->keys[k]->str(r, e->s, buf, sizeof(buf)));
			}
			fprintf(f, "}");
		}
		fprintf(f, "%s]}", shown ? "\n    " : "");
	}
	fprintf(f, "\n  ]\n}\n");
}
