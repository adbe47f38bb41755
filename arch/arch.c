/* arch.c — the table of PMU backends and lookups in it (arch.h). */
#include <stddef.h>
#include <strings.h>

#include "arch.h"

/* Every backend, NULL-terminated; the first is the default machine. */
static struct arch_backend *const backends[] = {
	&arch_p4, &arch_ia64, &arch_alpha, &arch_xscale, &arch_xscale2, NULL,
};

/* A backend whose event table is built at run time builds it before its
 * first use; the table being filled is what says it was built. */
static struct arch_backend *ready(struct arch_backend *b)
{
	if (b->init && !b->nevents)
		b->init(b);
	return b;
}

const struct arch_backend *arch_find(const char *name)
{
	for (size_t i = 0; backends[i]; i++)
		if (!strcasecmp(backends[i]->name, name))
			return ready(backends[i]);
	return NULL;
}

const struct arch_backend *const *arch_all(void)
{
	for (size_t i = 0; backends[i]; i++)
		ready(backends[i]);
	return (const struct arch_backend *const *)backends;
}

int arch_event_find(const struct arch_backend *b, const char *name)
{
	for (unsigned i = 0; i < b->nevents; i++)
		if (b->events[i].name && !strcasecmp(b->events[i].name, name))
			return (int)i;
	return -1;
}
