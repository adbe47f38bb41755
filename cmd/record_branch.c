/* record_branch.c — `vpmu record -b / -j`: the branch stack each sample
 * carries, perf's filter names into the ARCH_BR_* bits the machine's
 * backend programs (arch.h). */
#include <stdio.h>
#include <string.h>

#include "record.h"

/* -j FILTERS: perf's branch filter names into ARCH_BR_*; 0 on an error
 * (printed). */
uint32_t record_branch_filter(const char *arg)
{
	static const struct {
		const char *name;
		uint32_t bit;
	} names[] = { { "any", ARCH_BR_ANY },
		      { "any_ret", ARCH_BR_ANY_RET },
		      { "u", ARCH_BR_USER },
		      { "k", ARCH_BR_KERNEL } };
	uint32_t v = 0;
	const char *p = arg;

	while (*p) {
		size_t len = strcspn(p, ","), k;

		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (strlen(names[k].name) == len && !strncmp(p, names[k].name, len))
				break;
		if (k == sizeof(names) / sizeof(names[0])) {
			fprintf(stderr,
				"vpmu record: -j: '%.*s' is not a branch filter vpmu takes (any, "
				"any_ret, u, k)\n",
				(int)len, p);
			return 0;
		}
		v |= names[k].bit;
		p += len + (p[len] == ',');
	}
	if (!(v & (ARCH_BR_ANY | ARCH_BR_ANY_RET)))
		v |= ARCH_BR_ANY; /* perf: privilege filters alone mean any branch */
	return v;
}

/* The branch stack of every event (-b, -j): 0, or -1 with the reason. */
int record_set_branches(struct pmu_set *set, uint32_t branch)
{
	char err[512];

	if (!branch)
		return 0;
	if ((branch & ~set->b->branch_types) || !set->b->branch_check) {
		fprintf(stderr, "vpmu record: machine %s has no branch stack%s (-b, -j)\n",
			set->b->name, set->b->branch_types ? " with these filters" : "");
		return -1;
	}
	for (unsigned i = 0; i < set->n; i++) {
		set->ev[i].branch_sample = branch;
		if (set->b->branch_check(&set->ev[i], err, sizeof(err)) < 0) {
			fprintf(stderr, "vpmu record: %s: %s\n", set->ev[i].name, err);
			return -1;
		}
	}
	return 0;
}
