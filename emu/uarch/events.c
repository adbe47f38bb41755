/* events.c — names and descriptions of the model's event signals. */
#include "events.h"
#include "params.h"

static const char *const ev_name[UARCH_NEV] = {
#define UARCH_EV_NAME(id, name, desc) name,
	UARCH_EVENTS(UARCH_EV_NAME)
#undef UARCH_EV_NAME
};

static const char *const ev_desc[UARCH_NEV] = {
#define UARCH_EV_DESC(id, name, desc) desc,
	UARCH_EVENTS(UARCH_EV_DESC)
#undef UARCH_EV_DESC
};

const char *uarch_event_name(unsigned ev)
{
	return ev < UARCH_NEV ? ev_name[ev] : "?";
}

const char *uarch_event_desc(unsigned ev)
{
	return ev < UARCH_NEV ? ev_desc[ev] : "?";
}

int uarch_event_miss_class(int cache)
{
	switch (cache) {
	case UARCH_L1D:
		return UARCH_EV_L1D_LD_MISS_COMP;
	case UARCH_L1I:
		return UARCH_EV_L1I_MISS_COMP;
	case UARCH_L2:
		return UARCH_EV_L2_MISS_COMP;
	case UARCH_L3:
		return UARCH_EV_L3_MISS_COMP;
	default:
		return -1;
	}
}

const char *uarch_event_uncounted(const struct uarch_machine *m, unsigned ev)
{
	static const struct {
		int cache;
		unsigned first;
		const char *why;
	} cls[] = {
		{ UARCH_L1D, UARCH_EV_L1D_LD_MISS_COMP, "needs --set l1d.classify=1" },
		{ UARCH_L1D, UARCH_EV_L1D_ST_MISS_COMP, "needs --set l1d.classify=1" },
		{ UARCH_L1I, UARCH_EV_L1I_MISS_COMP, "needs --set l1i.classify=1" },
		{ UARCH_L2, UARCH_EV_L2_MISS_COMP, "needs --set l2.classify=1" },
		{ UARCH_L3, UARCH_EV_L3_MISS_COMP, "needs --set l3.classify=1" },
	};

	for (unsigned k = 0; k < sizeof(cls) / sizeof(cls[0]); k++) {
		unsigned first = cls[k].first;
		if (ev < first || ev > first + 2)
			continue;
		if (!m->cache[cls[k].cache].size)
			return "the machine has no such cache";
		return m->cache[cls[k].cache].classify ? NULL : cls[k].why;
	}
	return NULL;
}
