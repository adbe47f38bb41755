/* hist_keys_mem.c — sort keys of where a sampled instruction's loads found
 * their data, as the timing model tells it (a precise sample names the
 * instruction): the deepest level any of its lines came from (perf's mem
 * key), and the class of its first L1 data cache miss (Hill's three Cs,
 * when the cache classifies: --set l1d.classify=1). */
#include <stdio.h>

#include "core/hist.h"
#include "emu/uarch/uarch.h"

static int mem_cmp(const struct report_sample *a, const struct report_sample *b)
{
	unsigned x = UARCH_DSRC_LEVEL(a->dsrc), y = UARCH_DSRC_LEVEL(b->dsrc);

	return (x > y) - (x < y);
}

const char *hist_dsrc_level(uint8_t dsrc, char *buf, size_t n)
{
	unsigned level = UARCH_DSRC_LEVEL(dsrc);

	if (!level)
		return "[unknown]";
	if (level == UARCH_DSRC_MEM)
		return "memory";
	snprintf(buf, n, "L%u", level);
	return buf;
}

static const char *mem_str(const struct report *r, const struct report_sample *s, char *buf,
			   size_t n)
{
	(void)r;
	return hist_dsrc_level(s->dsrc, buf, n);
}

/* The miss class (enum uarch_miss), or 4 for a first-level hit, which has
 * none; 0: not known (no load, or a miss of a cache that does not
 * classify). */
static unsigned missclass_of(uint8_t dsrc)
{
	unsigned c = UARCH_DSRC_CLASS(dsrc);

	return c ? c : UARCH_DSRC_LEVEL(dsrc) == 1 ? 4 : 0;
}

const char *hist_dsrc_class(uint8_t dsrc)
{
	static const char *const name[] = { "[unknown]", "compulsory", "capacity", "conflict",
					    "hit" };

	return name[missclass_of(dsrc)];
}

static int missclass_cmp(const struct report_sample *a, const struct report_sample *b)
{
	unsigned x = missclass_of(a->dsrc), y = missclass_of(b->dsrc);

	return (x > y) - (x < y);
}

static const char *missclass_str(const struct report *r, const struct report_sample *s, char *buf,
				 size_t n)
{
	(void)r;
	(void)buf;
	(void)n;
	return hist_dsrc_class(s->dsrc);
}

const struct hist_key hist_key_mem = {
	"mem", "Memory access", HIST_RAW_DLEVEL, 0, mem_cmp, mem_str
};
const struct hist_key hist_key_missclass = {
	"missclass", "Miss class",  HIST_RAW_DCLASS | HIST_RAW_DLEVEL,
	0,	     missclass_cmp, missclass_str
};
