/* hist_keys_br.c — the sort keys of `vpmu report --branch-stack` (each
 * entry of a sample's branch stack counted on its own: where it came
 * from, where it went, whether it was predicted), perf's names, and
 * local_weight, the latency a sample measured (an EAR's), by value. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/hist.h"

static int cmpu(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int local_weight_cmp(const struct report_sample *a, const struct report_sample *b)
{
	return cmpu(a->weight, b->weight);
}

static const char *local_weight_str(const struct report *r, const struct report_sample *s,
				    char *buf, size_t n)
{
	(void)r;
	snprintf(buf, n, "%" PRIu64, s->weight);
	return buf;
}

/* A loc of a branch end: NULL (a branch not taken has no target) sorts
 * first. */
static int end_cmp(const struct report_loc *a, const struct report_loc *b)
{
	if (!a || !b)
		return a ? 1 : b ? -1 : 0;
	return hist_loc_sym_cmp(a, b);
}

static const struct report_loc *from_of(const struct report_sample *s)
{
	return s->branch ? s->branch->from : NULL;
}

static const struct report_loc *to_of(const struct report_sample *s)
{
	return s->branch ? s->branch->to : NULL;
}

static int dso_cmp(const struct report_loc *a, const struct report_loc *b)
{
	const char *x = a ? report_loc_dso(a) : "", *y = b ? report_loc_dso(b) : "";
	int c = strcmp(x, y);

	return c < 0 ? -1 : c > 0;
}

static int dso_from_cmp(const struct report_sample *a, const struct report_sample *b)
{
	return dso_cmp(from_of(a), from_of(b));
}

static const char *dso_from_str(const struct report *r, const struct report_sample *s, char *buf,
				size_t n)
{
	(void)r, (void)buf, (void)n;
	return from_of(s) ? report_loc_dso(from_of(s)) : "[unknown]";
}

static int dso_to_cmp(const struct report_sample *a, const struct report_sample *b)
{
	return dso_cmp(to_of(a), to_of(b));
}

static const char *dso_to_str(const struct report *r, const struct report_sample *s, char *buf,
			      size_t n)
{
	(void)r, (void)buf, (void)n;
	return to_of(s) ? report_loc_dso(to_of(s)) : "[unknown]";
}

static int symbol_from_cmp(const struct report_sample *a, const struct report_sample *b)
{
	return end_cmp(from_of(a), from_of(b));
}

static const char *symbol_from_str(const struct report *r, const struct report_sample *s, char *buf,
				   size_t n)
{
	(void)r;
	return from_of(s) ? report_loc_sym(from_of(s), buf, n) : "[unknown]";
}

static int symbol_to_cmp(const struct report_sample *a, const struct report_sample *b)
{
	return end_cmp(to_of(a), to_of(b));
}

static const char *symbol_to_str(const struct report *r, const struct report_sample *s, char *buf,
				 size_t n)
{
	(void)r;
	return to_of(s) ? report_loc_sym(to_of(s), buf, n) : "[not taken]";
}

static unsigned mispred_of(const struct report_sample *s)
{
	return s->branch ? (unsigned)(s->branch->flags & (SFILE_BR_MISPRED | SFILE_BR_PREDICTED)) :
			   0;
}

static int mispredict_cmp(const struct report_sample *a, const struct report_sample *b)
{
	return cmpu(mispred_of(a), mispred_of(b));
}

static const char *mispredict_str(const struct report *r, const struct report_sample *s, char *buf,
				  size_t n)
{
	(void)r, (void)buf, (void)n;
	/* perf's column: Y mispredicted, N predicted, - unknown */
	return mispred_of(s) & SFILE_BR_MISPRED ? "Y" : mispred_of(s) ? "N" : "-";
}

#define KEY(n, h, raw, symcol, f) \
	const struct hist_key hist_key_##f = { n, h, raw, symcol, f##_cmp, f##_str }

KEY("local_weight", "Local Weight", HIST_RAW_WEIGHT, 0, local_weight);
KEY("dso_from", "Source Shared Object", HIST_RAW_BRANCH, 0, dso_from);
KEY("dso_to", "Target Shared Object", HIST_RAW_BRANCH, 0, dso_to);
KEY("symbol_from", "Source Symbol", HIST_RAW_BRANCH, 1, symbol_from);
KEY("symbol_to", "Target Symbol", HIST_RAW_BRANCH, 1, symbol_to);
KEY("mispredict", "Branch Mispredicted", HIST_RAW_BRANCH, 0, mispredict);

int hist_key_is_branch(const struct hist_key *k)
{
	return (k->raw & HIST_RAW_BRANCH) != 0;
}
