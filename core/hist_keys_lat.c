/* hist_keys_lat.c — sort keys of what a sample measured of its
 * instruction: its latency in power-of-two buckets (an Itanium 2 EAR's,
 * or fetch to retirement in a ProfileMe record), and whether a
 * ProfileMe-sampled instruction retired or was aborted. */
#include <stdio.h>

#include "core/hist.h"

/* -1: the sample measured no latency. */
static int latency_bucket(const struct report_sample *s)
{
	return s->weight ? hist_pow2_bucket(s->weight) : -1;
}

static int latency_cmp(const struct report_sample *a, const struct report_sample *b)
{
	int x = latency_bucket(a), y = latency_bucket(b);

	return (x > y) - (x < y);
}

static const char *latency_str(const struct report *r, const struct report_sample *s, char *buf,
			       size_t n)
{
	(void)r;
	return hist_pow2_str(latency_bucket(s), buf, n);
}

static int abort_cmp(const struct report_sample *a, const struct report_sample *b)
{
	return (a->pm_state > b->pm_state) - (a->pm_state < b->pm_state);
}

static const char *abort_str(const struct report *r, const struct report_sample *s, char *buf,
			     size_t n)
{
	(void)r;
	(void)buf;
	(void)n;
	return s->pm_state == REPORT_PM_ABORTED ? "aborted" :
	       s->pm_state == REPORT_PM_RETIRED ? "retired" :
						  "[unknown]";
}

const struct hist_key hist_key_latency = { "latency", "Latency",   HIST_RAW_WEIGHT,
					   0,	      latency_cmp, latency_str };
const struct hist_key hist_key_abort = { "abort", "Abort", HIST_RAW_PM, 0, abort_cmp, abort_str };
