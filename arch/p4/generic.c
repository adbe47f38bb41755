/* generic.c — perf's generic event names on the Pentium 4, as Linux's
 * NetBurst driver maps them (p4_general_events, p4_hw_cache_event_ids);
 * the raw forms are Linux's packing (HT << 63 | ESCR << 32 | CCCR) with
 * the PEBS metric in the CCCR's low bits. */
#include "p4_pmu.h"

const struct arch_generic p4_generic[P4_NGENERIC] = {
	{ "cycles", "GLOBAL_POWER_EVENTS:RUNNING" },
	{ "cpu-cycles", "GLOBAL_POWER_EVENTS:RUNNING" },
	/* retired, not bogus (Linux also counts bogus untagged ones) */
	{ "instructions", "INSTR_RETIRED:NBOGUSNTAG:NBOGUSTAG" },
	{ "branches", "RETIRED_BRANCH_TYPE:CONDITIONAL:CALL:RETURN:INDIRECT" },
	{ "branch-instructions", "RETIRED_BRANCH_TYPE:CONDITIONAL:CALL:RETURN:INDIRECT" },
	{ "branch-misses", "MISPRED_BRANCH_RETIRED:NBOGUS" },
	{ "cache-references", "BSQ_CACHE_REFERENCE:RD_2ndL_HITS:RD_2ndL_HITE:RD_2ndL_HITM:"
			      "RD_3rdL_HITS:RD_3rdL_HITE:RD_3rdL_HITM" },
	{ "cache-misses", "BSQ_CACHE_REFERENCE:RD_2ndL_MISS:RD_3rdL_MISS:WR_2ndL_MISS" },
	/* FSB_DATA_ACTIVITY:DRDY_DRV:DRDY_OWN, edge-detected */
	{ "bus-cycles", "r1800060001040000" },
	/* REPLAY_EVENT:NBOGUS with metrics 1stl, 2ndl, dtlb load, dtlb store */
	{ "L1-dcache-load-misses", "r4a00020000000001" },
	{ "LLC-load-misses", "r4a00020000000002" },
	{ "dTLB-load-misses", "r4a00020000000003" },
	{ "dTLB-store-misses", "r4a00020000000004" },
	{ "iTLB-loads", "ITLB_REFERENCE:HIT" },
	{ "iTLB-load-misses", "ITLB_REFERENCE:MISS" },
	{ "uops", "UOPS_RETIRED:NBOGUS" },
	/* not Linux's (its NetBurst driver has none): perf's memory-access
	 * sampling event as the loads PEBS can tag, those that missed the L1
	 * (metric 1stl_cache_load_miss_retired, p4_metrics); stores are
	 * tagged only by DTLB misses and splits, so there is no mem-stores */
	{ "mem-loads", "r4a00020000000001" },
	/* not Linux's: the names of vpmu stat's default rows, so that -e
	 * takes what the report prints (trace-cache misses; L2 read misses) */
	{ "L1-icache-load-misses", "BPU_FETCH_REQUEST:TCMISS" },
	{ "LLC-misses", "BSQ_CACHE_REFERENCE:RD_2ndL_MISS:RD_3rdL_MISS" },
};
