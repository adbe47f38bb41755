/* events.c — names and descriptions of the model's event signals. */
#include "events.h"

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
