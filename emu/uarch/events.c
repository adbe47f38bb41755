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
	/* what the machine's structure never raises */
	switch (ev) {
	case UARCH_EV_L2_ACCESS:
	case UARCH_EV_L2_MISS:
	case UARCH_EV_L2_RD_HIT_CLEAN:
	case UARCH_EV_L2_RD_HIT_DIRTY:
	case UARCH_EV_LD_L2_MISS:
		return m->cache[UARCH_L2].size ? NULL : "the machine has no such cache";
	case UARCH_EV_L3_ACCESS:
	case UARCH_EV_L3_MISS:
	case UARCH_EV_L3_RD_HIT_CLEAN:
	case UARCH_EV_L3_RD_HIT_DIRTY:
	case UARCH_EV_L3_LOAD_HIT:
	case UARCH_EV_L3_LOAD_MISS:
	case UARCH_EV_L3_IFETCH_HIT:
	case UARCH_EV_L3_IFETCH_MISS:
	case UARCH_EV_L3_STORE_HIT:
	case UARCH_EV_L3_STORE_MISS:
	case UARCH_EV_L3_WB_HIT:
	case UARCH_EV_L3_WB_MISS:
	case UARCH_EV_L3_REPLACED:
		return m->cache[UARCH_L3].size ? NULL : "the machine has no such cache";
	case UARCH_EV_L2_WB_MISS:
		if (!m->cache[UARCH_L2].size)
			return "the machine has no such cache";
		return m->cache[UARCH_L1D].write == UARCH_WT_ALLOC ||
				       m->cache[UARCH_L1D].write == UARCH_WT_NOALLOC ?
			       "the L1 data cache writes through: l1d.write=through-*" :
			       NULL;
	case UARCH_EV_ITLB_L2_HIT:
	case UARCH_EV_ITLB_L2_XFER:
	case UARCH_EV_ITLB_L2_MISS:
		return m->tlb[UARCH_ITLB2].entries ? NULL : "the machine has no second-level ITLB";
	case UARCH_EV_DTLB_L2_HIT:
	case UARCH_EV_DTLB_L2_XFER:
	case UARCH_EV_DTLB_L2_MISS:
		return m->tlb[UARCH_DTLB2].entries ? NULL : "the machine has no second-level DTLB";
	case UARCH_EV_PF_BRL:
	case UARCH_EV_PF_BRIL:
	case UARCH_EV_MEM_PF_BRL_LAT:
	case UARCH_EV_MEM_PF_BRIL_LAT:
	case UARCH_EV_PF_LATE:
		return (m->mem.pf_streams && m->mem.pf_ahead) || m->mem.pf_adjacent ?
			       NULL :
			       "the machine has no hardware prefetcher: mem.pf_streams=0, "
			       "mem.pf_adjacent=0";
	case UARCH_EV_REPLAYS:
		return m->core.replay ? NULL : "the core does not replay: core.replay=0";
	case UARCH_EV_LD_FWD_ALIGN:
		return m->core.fwd_start ?
			       NULL :
			       "a store forwards to any load it covers: core.fwd_start=0";
	case UARCH_EV_STALL_DATA:
	case UARCH_EV_BUBBLE_FE:
	case UARCH_EV_BUBBLE_FLUSH:
	case UARCH_EV_BUBBLE_EXE:
	case UARCH_EV_BUBBLE_EXE_GR:
	case UARCH_EV_BUBBLE_EXE_GRGR:
	case UARCH_EV_BUBBLE_EXE_FR:
	case UARCH_EV_BUBBLE_EXE_PR:
	case UARCH_EV_BUBBLE_EXE_ARCR:
		return m->core.ooo ? "an out-of-order core does not stall on use: core.ooo=1" :
				     NULL;
	case UARCH_EV_L1D_ALIAS:
		return m->cache[UARCH_L1D].alias ?
			       NULL :
			       "the L1 data cache compares whole tags: l1d.alias=0";
	case UARCH_EV_UOPQ_BUILD:
	case UARCH_EV_UOPQ_DELIVER:
	case UARCH_EV_UOPQ_ROM:
	case UARCH_EV_MS_XFER:
	case UARCH_EV_TC_BUILD_CYCLES:
	case UARCH_EV_TC_ROM_CYCLES:
		return m->l1i_is_tc ? NULL : "the machine has no trace cache";
	default:
		return NULL;
	}
}
