/* events.c — the NetBurst events: ESCR event select, the ESCRs that detect
 * each, its event-mask bits and the model signals (emu/uarch/events.h)
 * each bit counts.
 *
 * Sources: IA-32 SDM vol. 3B appendix A, "Performance-monitoring events
 * for Intel NetBurst microarchitecture" (non-retirement and at-retirement
 * tables: event select, ESCRs, event-mask bits); Linux's
 * arch/x86/include/asm/perf_event_p4.h (enum P4_EVENTS: linux_id is the
 * position there, and the bit names) and arch/x86/events/intel/p4.c
 * (p4_event_bind_map: ESCRs, .shared); oprofile's i386_p4.events and
 * i386_p4.unit_masks (the event list, default masks).
 *
 * Where the sources disagree:
 *   - MACHINE_CLEAR: the SDM (and oprofile) put MOCLEAR at bit 2 and
 *     SMCLEAR at bit 6; Linux's enum has bits 1 and 2.  The SDM wins.
 *   - BSQ_ALLOCATION, BSQ_ACTIVE_ENTRIES and IOQ_ACTIVE_ENTRIES are
 *     detected by one ESCR only (SDM); Linux lists it twice.
 *   - RETIRED_MISPRED_BRANCH_TYPE: Linux binds TBPU_ESCR0 twice; the SDM
 *     has TBPU_ESCR0 and TBPU_ESCR1.
 *   - B2B_CYCLES, BNR, SNOOP, RESPONSE: the SDM gives them the FSB ESCRs
 *     but a CCCR select of 03H, which in the BPU block picks ITLB_ESCR;
 *     the FSB ESCRs are taken here.  Their event-mask bits are not
 *     documented and Linux defines none.
 *   - X87_SIMD_MOVES_UOP is in oprofile's list and the SDM (FIRM ESCRs,
 *     select 2EH) but not in Linux's enum: linux_id 0xff.
 *   - oprofile's MEMORY_COMPLETE has two more bits (2, 3: uncacheable load
 *     and store splits) than the SDM and Linux; they are kept, named here.
 *   - oprofile's branch_type default 0x1f sets bit 0, which the SDM and
 *     Linux leave undefined; the default here is 0x1e.
 *
 * Signals: a bit counts the sum of its signals.  Where two bits of one
 * event overlap in what they select (RETIRED_BRANCH_TYPE's INDIRECT
 * includes returns and indirect calls), their signals are drawn from
 * disjoint sets, so counting the union of the set bits' signals counts
 * each occurrence once, as the hardware does.
 *
 * Defaults: oprofile's default mask, less the bits the model cannot
 * produce (so that the default of a supported event is accepted); for
 * events oprofile lacks, the non-bogus bits or the only bit.  The BSQ
 * events' mask is one encoded request kind: oprofile's 0x21 (input
 * read-invalidates of no chunks, prefetched, uncacheable) is none the
 * model makes, and the default is 0x328c, demand reads of 8 chunks from
 * write-back memory.
 */
#include <stddef.h>

#include "p4.h"

/* ESCR indices, in the order of p4_escr[] (escr.c). */
enum {
	BSU0,
	BSU1,
	FSB0,
	FSB1,
	FIRM0,
	FIRM1,
	FLAME0,
	FLAME1,
	DAC0,
	DAC1,
	MOB0,
	MOB1,
	PMH0,
	PMH1,
	SAAT0,
	SAAT1,
	U2L0,
	U2L1,
	BPU0,
	BPU1,
	IS0,
	IS1,
	ITLB0,
	ITLB1,
	CRU0,
	CRU1,
	IQ0,
	IQ1,
	RAT0,
	RAT1,
	SSU0,
	MS0,
	MS1,
	TBPU0,
	TBPU1,
	TC0,
	TC1,
	IX0,
	IX1,
	ALF0,
	ALF1,
	CRU2,
	CRU3,
	CRU4,
	CRU5,
	NO = -1
};

#define S(x) UARCH_EV_##x
/* a bit counting the given signals */
#define B(n, b, d, ...)                                   \
	{                                                 \
		n, b, { __VA_ARGS__, UARCH_NEV }, d, NULL \
	}
/* a bit the model cannot produce, and why */
#define U(n, b, d, why)                     \
	{                                   \
		n, b, { UARCH_NEV }, d, why \
	}
/* a bit that counts nothing of its own: a tag-qualified count the
 * backend's tagging decides, or a qualifier every modelled request meets */
#define Q(n, b, d)                           \
	{                                    \
		n, b, { UARCH_NEV }, d, NULL \
	}
/* a bit of an encoded mask: the whole mask names one request kind and its
 * signal (P4_TAG_BSQ, bsq.c) */
#define F(n, b, d) Q(n, b, d)
/* a bit counting the cycles its pair of trace-cache modes holds
 * (P4_TAG_TC_MODE, tcmode.c) */
#define M(n, b, d) Q(n, b, d)
/* a bit whose condition the modelled machine never meets: it counts 0,
 * and its description says why, "(0: ...)" */
#define Z(n, b, d) Q(n, b, d)

#define NBITS(a) ((uint8_t)(sizeof(a) / sizeof((a)[0])))
#define EV(nm, cd, lid, e0, e1, bits, def, tg, sh, d, un)                      \
	{                                                                      \
		nm, cd, lid, { e0, e1 }, bits, NBITS(bits), def, tg, sh, d, un \
	}
#define EV0(nm, cd, lid, e0, e1, d, un)                                    \
	{                                                                  \
		nm, cd, lid, { e0, e1 }, NULL, 0, 0, P4_TAG_NONE, 0, d, un \
	}

/* Reasons shared by several bits. */
#define R_MEMTYPE "memory types other than write-back are not modelled"
#define R_UNDOC "its event-mask bits are not documented"

static const struct p4_ebit tc_deliver_mode[] = {
	M("DD", 0, "both logical processors in deliver mode"),
	M("DB", 1, "processor 0 delivering, processor 1 building"),
	M("DI", 2,
	  "processor 0 delivering, processor 1 inactive (halted, clearing or in microcode)"),
	M("BD", 3, "processor 0 building, processor 1 delivering"),
	M("BB", 4, "both logical processors in build mode"),
	M("BI", 5, "processor 0 building, processor 1 inactive"),
	M("ID", 6, "processor 0 inactive, processor 1 delivering"),
	M("IB", 7, "processor 0 inactive, processor 1 building"),
};

static const struct p4_ebit bpu_fetch_request[] = {
	B("TCMISS", 0, "trace-cache lookups that missed", S(L1I_MISS)),
};

static const struct p4_ebit itlb_reference[] = {
	B("HIT", 0, "instruction-TLB lookups that hit", S(ITLB_HIT)),
	B("MISS", 1, "instruction-TLB lookups that missed", S(ITLB_MISS)),
	U("HIT_UK", 2, "instruction-TLB hits on uncacheable memory", R_MEMTYPE),
};

/* The modelled core's L1 data cache compares address bits 21:6 (l1d.alias),
 * so its aliasing conflicts are between accesses 4 MB apart, as on model 3
 * (IA-32 Intel Architecture Optimization Reference Manual, ch. 2,
 * "Aliasing Cases"); the bit keeps the SDM's name. */
static const struct p4_ebit memory_cancel[] = {
	U("ST_RB_FULL", 2, "requests replayed for want of a store request buffer",
	  "a store waits at dispatch for a store buffer (RESOURCE_STALL:SBFULL), it is not "
	  "replayed"),
	B("64K_CONF", 3,
	  "aliasing conflicts: a line dropped for another alike in the bits "
	  "the L1 data cache compares",
	  S(L1D_ALIAS)),
};

static const struct p4_ebit memory_complete[] = {
	B("LSC", 0, "split loads completed (write-back memory)", S(LD_SPLIT)),
	B("SSC", 1, "split stores completed", S(ST_SPLIT)),
	U("LSC_UC", 2, "split loads to uncacheable memory completed", R_MEMTYPE),
	U("SSC_UC", 3, "split stores to uncacheable memory completed", R_MEMTYPE),
};

static const struct p4_ebit load_port_replay[] = {
	B("SPLIT_LD", 1, "split loads replayed at the load port", S(LD_SPLIT)),
};

static const struct p4_ebit store_port_replay[] = {
	B("SPLIT_ST", 1, "split stores replayed at the store port", S(ST_SPLIT)),
};

static const struct p4_ebit mob_load_replay[] = {
	B("NO_STA", 1, "loads replayed because an older store's address was unknown", S(LD_NO_STA)),
	B("NO_STD", 3, "loads replayed because an older store's data was not ready",
	  S(LD_FWD_WAIT)),
	B("PARTIAL_DATA", 4, "loads replayed because they partly overlap an older store",
	  S(LD_ST_OVERLAP)),
	B("UNALGN_ADDR", 5,
	  "loads replayed because they start elsewhere than the store that covers them, whose "
	  "low 4 address bits then differ (or, 16-byte loads, are not 16-byte aligned)",
	  S(LD_FWD_ALIGN)),
};

static const struct p4_ebit page_walk_type[] = {
	/* the p4 machine has no second-level TLB: every first-level miss
	 * is resolved by a walk */
	B("DTMISS", 0, "page walks for data-TLB misses", S(DTLB_MISS)),
	B("ITMISS", 1, "page walks for instruction-TLB misses", S(ITLB_MISS)),
};

static const struct p4_ebit bsq_cache_reference[] = {
	/* MESI: a line is filled Shared only when another cache holds it; the
	 * machine's only other bus agents, the I/O agents, cache nothing */
	Z("RD_2ndL_HITS", 0,
	  "reads (loads and reads for ownership) hitting a shared L2 line (0: no other cache "
	  "holds a line, so none is shared)"),
	B("RD_2ndL_HITE", 1, "reads hitting an exclusive (unmodified) L2 line", S(L2_RD_HIT_CLEAN)),
	B("RD_2ndL_HITM", 2, "reads hitting a modified L2 line", S(L2_RD_HIT_DIRTY)),
	Z("RD_3rdL_HITS", 3,
	  "reads hitting a shared L3 line (0: no other cache holds a line, so none is shared)"),
	B("RD_3rdL_HITE", 4, "reads hitting an exclusive (unmodified) L3 line", S(L3_RD_HIT_CLEAN)),
	B("RD_3rdL_HITM", 5, "reads hitting a modified L3 line", S(L3_RD_HIT_DIRTY)),
	B("RD_2ndL_MISS", 8, "reads (loads, fetches, walks, reads for ownership) missing L2",
	  S(L2_MISS)),
	B("RD_3rdL_MISS", 9, "reads missing L3", S(L3_MISS)),
	/* none on the p4 machine, whose L1 data cache writes through; with
	 * l1d.write=back-* its write-backs (SDM: "unlikely to happen") */
	B("WR_2ndL_MISS", 10, "write-back lookups from the L1 data cache missing L2",
	  S(L2_WB_MISS)),
};

/* IOQ_ALLOCATION and IOQ_ACTIVE_ENTRIES: the bits are qualifiers, a
 * request counting when it meets one bit of each field (SDM vol. 3B,
 * table A-9, IOQ_allocation). ALL_READ and ALL_WRITE list the signals of
 * both sources; OWN routes this processor's, OTHER the I/O agents', and
 * PREFETCH adds the hardware prefetchers' reads (P4_TAG_SOURCE, run.c).
 * DEFAULT and MEM_WB are met by every modelled request and count nothing
 * of their own. */
#define IOQ_BITS(rd, wr, other)                                                        \
	Q("DEFAULT", 0, "bus request type field: the default (all types)"),            \
		U("TYPE_BIT1", 1, "bus request type field, bit 1",                     \
		  "request-type encodings other than the default are not documented"), \
		U("TYPE_BIT2", 2, "bus request type field, bit 2",                     \
		  "request-type encodings other than the default are not documented"), \
		U("TYPE_BIT3", 3, "bus request type field, bit 3",                     \
		  "request-type encodings other than the default are not documented"), \
		U("TYPE_BIT4", 4, "bus request type field, bit 4",                     \
		  "request-type encodings other than the default are not documented"), \
		rd, wr, U("MEM_UC", 7, "uncacheable memory requests", R_MEMTYPE),      \
		U("MEM_WC", 8, "write-combining memory requests", R_MEMTYPE),          \
		U("MEM_WT", 9, "write-through memory requests", R_MEMTYPE),            \
		U("MEM_WP", 10, "write-protected memory requests", R_MEMTYPE),         \
		Q("MEM_WB", 11, "write-back memory requests (all modelled memory)"),   \
		Q("OWN", 13, "requests driven by this processor"), other,              \
		Q("PREFETCH", 15,                                                      \
		  "hardware prefetch requests too (ALL_READ: the prefetchers' reads)")

static const struct p4_ebit ioq_allocation[] = {
	IOQ_BITS(B("ALL_READ", 5, "read transactions allocated (BRL, BRIL, BRP)", S(BUS_BRL),
		   S(BUS_BRIL), S(BUS_BRP), S(BUS_IO_RD), S(PF_BRL), S(PF_BRIL)),
		 B("ALL_WRITE", 6, "write transactions allocated (BWL, BWP)", S(BUS_BWL),
		   S(BUS_BWP), S(BUS_IO_WR)),
		 Q("OTHER", 14, "requests driven by other processors or DMA (the I/O agents')")),
};

static const struct p4_ebit ioq_active_entries[] = {
	IOQ_BITS(B("ALL_READ", 5, "memory reads outstanding, each cycle", S(MEM_BRL_LAT),
		   S(MEM_BRIL_LAT), S(MEM_IO_RD_LAT), S(MEM_PF_BRL_LAT), S(MEM_PF_BRIL_LAT)),
		 B("ALL_WRITE", 6, "write transactions outstanding, each cycle", S(MEM_BWL_LAT),
		   S(MEM_BWP_LAT), S(MEM_IO_WR_LAT)),
		 Q("OTHER", 14, "requests driven by other processors or DMA (the I/O agents')")),
};

static const struct p4_ebit fsb_data_activity[] = {
	B("DRDY_DRV", 0, "bus clocks this processor drives data (writes)", S(BUS_DATA_DRV)),
	B("DRDY_OWN", 1, "bus clocks this processor reads data", S(BUS_DATA_OWN)),
	B("DRDY_OTHER", 2, "bus clocks with data this processor does not sample (an I/O agent's)",
	  S(BUS_DATA_OTHER)),
	U("DBSY_DRV", 3, "this processor reserves the bus to drive data",
	  "the bus model has no data-bus reservation (DBSY) phase"),
	U("DBSY_OWN", 4, "some agent reserves the bus for data this processor samples",
	  "the bus model has no data-bus reservation (DBSY) phase"),
	U("DBSY_OTHER", 5, "some agent reserves the bus for data this processor ignores",
	  "the bus model has no data-bus reservation (DBSY) phase"),
};

#define BSQ_BITS                                                                                  \
	F("REQ_TYPE0", 0, "request type field bit 0 (read, read-invalidate, write, write-back)"), \
		F("REQ_TYPE1", 1, "request type field bit 1"),                                    \
		F("REQ_LEN0", 2, "request length field bit 0 (0, 1 or 8 chunks)"),                \
		F("REQ_LEN1", 3, "request length field bit 1"),                                   \
		F("REQ_IO_TYPE", 5, "input/output requests"),                                     \
		F("REQ_LOCK_TYPE", 6, "bus-lock requests"),                                       \
		F("REQ_CACHE_TYPE", 7, "cacheable requests"),                                     \
		F("REQ_SPLIT_TYPE", 8, "8-byte chunks split across an 8-byte boundary"),          \
		F("REQ_DEM_TYPE", 9, "demand requests (clear: prefetches)"),                      \
		F("REQ_ORD_TYPE", 10, "ordered requests"),                                        \
		F("MEM_TYPE0", 11, "memory type field bit 0 (UC, USWC, WT, WP, WB)"),             \
		F("MEM_TYPE1", 12, "memory type field bit 1"),                                    \
		F("MEM_TYPE2", 13, "memory type field bit 2")

static const struct p4_ebit bsq_allocation[] = { BSQ_BITS };
static const struct p4_ebit bsq_active_entries[] = { BSQ_BITS };

static const struct p4_ebit sse_input_assist[] = {
	B("ALL", 15, "assists for SSE and SSE2 input operands (denormals, DAZ clear)",
	  S(SSE_ASSIST_IN)),
};
/* The FLAME µop events (SDM vol. 3B, table A-9): µops by the data they
 * work on, loads, store data and register moves counted apart (by
 * X87_SIMD_MOVES_UOP), executed ones: retired and on a mispredicted path. */
#define FP(x) S(FP_##x), S(FP_##x##_WP)
static const struct p4_ebit packed_sp_uop[] = {
	B("ALL", 15, "µops on packed single-precision operands", FP(PS)),
};
static const struct p4_ebit packed_dp_uop[] = {
	B("ALL", 15, "µops on packed double-precision operands", FP(PD)),
};
static const struct p4_ebit scalar_sp_uop[] = {
	B("ALL", 15, "µops on scalar single-precision operands", FP(SS)),
};
static const struct p4_ebit scalar_dp_uop[] = {
	B("ALL", 15, "µops on scalar double-precision operands", FP(SD)),
};
static const struct p4_ebit mmx64_uop[] = {
	B("ALL", 15, "integer SIMD µops on 64-bit (MMX) operands", FP(MMX)),
};
static const struct p4_ebit mmx128_uop[] = {
	B("ALL", 15, "integer SIMD µops on 128-bit (XMM) operands", FP(INT)),
};
static const struct p4_ebit x87_fp_uop[] = {
	B("ALL", 15, "x87 floating-point µops, not data movement", FP(X87)),
};
static const struct p4_ebit x87_simd_moves_uop[] = {
	B("ALLP0", 3, "x87 and SIMD store-data and register-move µops", FP(MOVE)),
	B("ALLP2", 4, "x87 and SIMD load µops", FP(LOAD)),
};
#undef FP

static const struct p4_ebit tc_misc[] = {
	B("FLUSH", 4, "trace-cache flushes: a store into code the trace cache holds", S(TC_FLUSH)),
};

static const struct p4_ebit global_power_events[] = {
	B("RUNNING", 0, "cycles the processor is not stopped", S(CYCLES)),
};

/* The front end delivers a microcoded instruction's µops (the model's
 * complex class) from the microcode ROM, the others from the trace cache,
 * building traces while its lookups miss; wrong-path instructions count
 * as uops-spec does (an operation and a load). */
static const struct p4_ebit tc_ms_xfer[] = {
	B("CISC", 0, "switches of µop delivery from the trace cache to the microcode ROM",
	  S(MS_XFER)),
};

static const struct p4_ebit uop_queue_writes[] = {
	B("FROM_TC_BUILD", 0, "µops written to the queue in trace-cache build mode", S(UOPQ_BUILD)),
	B("FROM_TC_DELIVER", 1, "µops written to the queue in trace-cache deliver mode",
	  S(UOPQ_DELIVER)),
	B("FROM_ROM", 2, "µops written to the queue from the microcode ROM", S(UOPQ_ROM)),
};

/* CALL is indirect calls only (SDM); direct calls never mispredict. */
static const struct p4_ebit retired_mispred_branch_type[] = {
	B("CONDITIONAL", 1, "mispredicted conditional jumps", S(BR_COND_MISP)),
	B("CALL", 2, "mispredicted indirect calls", S(BR_CALL_IND_MISP)),
	B("RETURN", 3, "mispredicted returns", S(BR_RET_MISP)),
	B("INDIRECT", 4, "mispredicted returns, indirect calls and indirect jumps",
	  S(BR_JMP_IND_MISP), S(BR_CALL_IND_MISP), S(BR_RET_MISP)),
};

static const struct p4_ebit retired_branch_type[] = {
	B("CONDITIONAL", 1, "conditional jumps", S(BR_COND)),
	B("CALL", 2, "indirect calls", S(BR_CALL_IND)),
	B("RETURN", 3, "returns", S(BR_RET)),
	B("INDIRECT", 4, "returns, indirect calls and indirect jumps", S(BR_JMP_IND),
	  S(BR_CALL_IND), S(BR_RET)),
};

static const struct p4_ebit resource_stall[] = {
	B("SBFULL", 5, "allocation stalls for want of a store buffer", S(STALL_SQ)),
};

static const struct p4_ebit wc_buffer[] = {
	U("WCB_EVICTS", 0, "write-combining buffer evictions, all causes",
	  "write-combining memory is not modelled"),
	U("WCB_FULL_EVICTS", 1, "write-combining buffer evictions for want of a free buffer",
	  "write-combining memory is not modelled"),
};

static const struct p4_ebit front_end_event[] = {
	Q("NBOGUS", 0, "retired µops the front end tagged, on the correct path"),
	Q("BOGUS", 1, "tagged µops on a mispredicted path"),
};

static const struct p4_ebit execution_event[] = {
	Q("NBOGUS0", 0, "retired µops with execution tag bit 0, correct path"),
	Q("NBOGUS1", 1, "retired µops with execution tag bit 1, correct path"),
	Q("NBOGUS2", 2, "retired µops with execution tag bit 2, correct path"),
	Q("NBOGUS3", 3, "retired µops with execution tag bit 3, correct path"),
	Q("BOGUS0", 4, "µops with execution tag bit 0 on a mispredicted path"),
	Q("BOGUS1", 5, "µops with execution tag bit 1 on a mispredicted path"),
	Q("BOGUS2", 6, "µops with execution tag bit 2 on a mispredicted path"),
	Q("BOGUS3", 7, "µops with execution tag bit 3 on a mispredicted path"),
};

static const struct p4_ebit replay_event[] = {
	Q("NBOGUS", 0, "retired µops replay tagging marked, on the correct path"),
	Q("BOGUS", 1, "replay-tagged µops on a mispredicted path"),
};

/* The tagged halves are the backend's: which instructions front-end
 * tagging marked. */
static const struct p4_ebit instr_retired[] = {
	B("NBOGUSNTAG", 0, "instructions retired, not tagged", S(INSNS)),
	Q("NBOGUSTAG", 1, "instructions retired that front-end tagging marked"),
	B("BOGUSNTAG", 2, "instructions fetched on a mispredicted path, not tagged", S(INSNS_WP)),
	Q("BOGUSTAG", 3, "tagged instructions on a mispredicted path"),
};

static const struct p4_ebit uops_retired[] = {
	B("NBOGUS", 0, "µops retired", S(UOPS)),
	B("BOGUS", 1, "µops executed on a mispredicted path", S(UOPS_SPEC)),
};

static const struct p4_ebit uop_type[] = {
	B("TAGLOADS", 1, "load µops (tagged when tagging is enabled)", S(LOADS)),
	B("TAGSTORES", 2, "store µops (tagged when tagging is enabled)", S(STORES)),
};

static const struct p4_ebit branch_retired[] = {
	B("MMNP", 0, "branches not taken, predicted", S(BR_NT_PRED)),
	B("MMNM", 1, "branches not taken, mispredicted", S(BR_NT_MISP)),
	B("MMTP", 2, "branches taken, predicted", S(BR_T_PRED)),
	B("MMTM", 3, "branches taken, mispredicted", S(BR_T_MISP)),
};

static const struct p4_ebit mispred_branch_retired[] = {
	B("NBOGUS", 0, "mispredicted branches retired", S(BR_MISP)),
};

static const struct p4_ebit x87_assist[] = {
	B("FPSU", 0, "x87 stack underflows handled", S(X87_ASSIST_SU)),
	B("FPSO", 1, "x87 stack overflows handled", S(X87_ASSIST_SO)),
	B("POAO", 2, "x87 output overflows handled", S(X87_ASSIST_OVER)),
	B("POAU", 3, "x87 output underflows handled", S(X87_ASSIST_UNDER)),
	B("PREA", 4, "x87 input assists (denormal operands)", S(X87_ASSIST_IN)),
};

/* The model's clears: self-modifying code (a store into a page the front
 * end fetched code from), memory ordering (the other logical processor
 * wrote a line a load in flight had read) and floating-point assists
 * (vpmu-model(7)). */
static const struct p4_ebit machine_clear[] = {
	B("CLEAR", 0, "cycles the whole pipeline is being cleared, any cause (edge: clears)",
	  S(MC_CYCLES)),
	B("MOCLEAR", 2, "pipeline clears for memory-ordering conflicts", S(MC_MO)),
	B("SMCLEAR", 6, "pipeline clears for self-modifying code", S(MC_SMC)),
};

static const struct p4_ebit instr_completed[] = {
	B("NBOGUS", 0, "instructions completed and retired", S(INSNS)),
	B("BOGUS", 1, "instructions fetched on a mispredicted path", S(INSNS_WP)),
};

const struct p4_event_desc p4_events[] = {
	EV("TC_DELIVER_MODE", 0x01, 0, TC0, TC1, tc_deliver_mode, 0x04, P4_TAG_TC_MODE, 1,
	   "cycles the trace cache and decoder spend in each combination of modes", NULL),
	EV("BPU_FETCH_REQUEST", 0x03, 1, BPU0, BPU1, bpu_fetch_request, 0x01, P4_TAG_NONE, 0,
	   "instruction fetch requests from the branch prediction unit", NULL),
	EV("ITLB_REFERENCE", 0x18, 2, ITLB0, ITLB1, itlb_reference, 0x03, P4_TAG_NONE, 0,
	   "translations through the instruction TLB", NULL),
	EV("MEMORY_CANCEL", 0x02, 3, DAC0, DAC1, memory_cancel, 0x08, P4_TAG_NONE, 0,
	   "requests cancelled in the data-cache address control unit", NULL),
	EV("MEMORY_COMPLETE", 0x08, 4, SAAT0, SAAT1, memory_complete, 0x03, P4_TAG_NONE, 0,
	   "split loads and stores completed", NULL),
	EV("LOAD_PORT_REPLAY", 0x04, 5, SAAT0, SAAT1, load_port_replay, 0x02, P4_TAG_NONE, 0,
	   "replays at the load port", NULL),
	EV("STORE_PORT_REPLAY", 0x05, 6, SAAT0, SAAT1, store_port_replay, 0x02, P4_TAG_NONE, 0,
	   "replays at the store port", NULL),
	EV("MOB_LOAD_REPLAY", 0x03, 7, MOB0, MOB1, mob_load_replay, 0x18, P4_TAG_NONE, 0,
	   "loads the memory order buffer replayed", NULL),
	EV("PAGE_WALK_TYPE", 0x01, 8, PMH0, PMH1, page_walk_type, 0x01, P4_TAG_NONE, 1,
	   "page walks by the page miss handler", NULL),
	EV("BSQ_CACHE_REFERENCE", 0x0c, 9, BSU0, BSU1, bsq_cache_reference, 0x073f, P4_TAG_NONE, 0,
	   "second- and third-level cache references seen by the bus unit", NULL),
	EV("IOQ_ALLOCATION", 0x03, 10, FSB0, FSB1, ioq_allocation, 0x6861, P4_TAG_SOURCE, 0,
	   "bus transactions allocated in the in-order queue", NULL),
	EV("IOQ_ACTIVE_ENTRIES", 0x1a, 11, FSB1, NO, ioq_active_entries, 0x2821, P4_TAG_SOURCE, 0,
	   "in-order queue entries active, each cycle", NULL),
	EV("FSB_DATA_ACTIVITY", 0x17, 12, FSB0, FSB1, fsb_data_activity, 0x07, P4_TAG_NONE, 1,
	   "DRDY and DBSY events on the front-side bus", NULL),
	EV("BSQ_ALLOCATION", 0x05, 13, BSU0, NO, bsq_allocation, 0x328c, P4_TAG_BSQ, 0,
	   "allocations in the bus sequence queue", NULL),
	EV("BSQ_ACTIVE_ENTRIES", 0x06, 14, BSU1, NO, bsq_active_entries, 0x328c, P4_TAG_BSQ_ACTIVE,
	   0, "bus sequence queue entries active, each cycle", NULL),
	EV("SSE_INPUT_ASSIST", 0x34, 15, FIRM0, FIRM1, sse_input_assist, 0x8000, P4_TAG_NONE, 1,
	   "assists requested for SSE and SSE2 input operands", NULL),
	EV("PACKED_SP_UOP", 0x08, 16, FIRM0, FIRM1, packed_sp_uop, 0x8000, P4_TAG_EX_TAGGER, 1,
	   "packed single-precision µops", NULL),
	EV("PACKED_DP_UOP", 0x0c, 17, FIRM0, FIRM1, packed_dp_uop, 0x8000, P4_TAG_EX_TAGGER, 1,
	   "packed double-precision µops", NULL),
	EV("SCALAR_SP_UOP", 0x0a, 18, FIRM0, FIRM1, scalar_sp_uop, 0x8000, P4_TAG_EX_TAGGER, 1,
	   "scalar single-precision µops", NULL),
	EV("SCALAR_DP_UOP", 0x0e, 19, FIRM0, FIRM1, scalar_dp_uop, 0x8000, P4_TAG_EX_TAGGER, 1,
	   "scalar double-precision µops", NULL),
	EV("64BIT_MMX_UOP", 0x02, 20, FIRM0, FIRM1, mmx64_uop, 0x8000, P4_TAG_EX_TAGGER, 1,
	   "integer SIMD µops on 64-bit operands", NULL),
	EV("128BIT_MMX_UOP", 0x1a, 21, FIRM0, FIRM1, mmx128_uop, 0x8000, P4_TAG_EX_TAGGER, 1,
	   "integer SIMD µops on 128-bit operands", NULL),
	EV("X87_FP_UOP", 0x04, 22, FIRM0, FIRM1, x87_fp_uop, 0x8000, P4_TAG_EX_TAGGER, 1,
	   "x87 floating-point µops", NULL),
	EV("TC_MISC", 0x06, 23, TC0, TC1, tc_misc, 0x10, P4_TAG_NONE, 0,
	   "miscellaneous trace-cache events", NULL),
	EV("GLOBAL_POWER_EVENTS", 0x13, 24, FSB0, FSB1, global_power_events, 0x01, P4_TAG_NONE, 0,
	   "time the processor is not stopped", NULL),
	EV("TC_MS_XFER", 0x05, 25, MS0, MS1, tc_ms_xfer, 0x01, P4_TAG_NONE, 0,
	   "switches from trace-cache to microcode-ROM delivery", NULL),
	EV("UOP_QUEUE_WRITES", 0x09, 26, MS0, MS1, uop_queue_writes, 0x07, P4_TAG_NONE, 0,
	   "valid µops written to the µop queue", NULL),
	EV("RETIRED_MISPRED_BRANCH_TYPE", 0x05, 27, TBPU0, TBPU1, retired_mispred_branch_type, 0x1e,
	   P4_TAG_NONE, 0, "mispredicted branches retired, by type", NULL),
	EV("RETIRED_BRANCH_TYPE", 0x04, 28, TBPU0, TBPU1, retired_branch_type, 0x1e, P4_TAG_NONE, 0,
	   "branches retired, by type", NULL),
	EV("RESOURCE_STALL", 0x01, 29, ALF0, ALF1, resource_stall, 0x20, P4_TAG_NONE, 0,
	   "allocator stalls", NULL),
	EV("WC_BUFFER", 0x05, 30, DAC0, DAC1, wc_buffer, 0x01, P4_TAG_NONE, 1,
	   "write-combining buffer operations", "write-combining memory is not modelled"),
	EV0("B2B_CYCLES", 0x16, 31, FSB0, FSB1, "back-to-back bus cycles", R_UNDOC),
	EV0("BNR", 0x08, 32, FSB0, FSB1, "bus-not-ready conditions", R_UNDOC),
	EV0("SNOOP", 0x06, 33, FSB0, FSB1, "snoop traffic", R_UNDOC),
	EV0("RESPONSE", 0x04, 34, FSB0, FSB1, "bus responses, by type", R_UNDOC),
	EV("FRONT_END_EVENT", 0x08, 35, CRU2, CRU3, front_end_event, 0x01, P4_TAG_FRONT_END, 0,
	   "retired µops tagged by front-end tagging (UOP_TYPE)", NULL),
	EV("EXECUTION_EVENT", 0x0c, 36, CRU2, CRU3, execution_event, 0x0f, P4_TAG_EXECUTION, 0,
	   "retired µops tagged by execution tagging (the FLAME µop events)", NULL),
	EV("REPLAY_EVENT", 0x09, 37, CRU2, CRU3, replay_event, 0x01, P4_TAG_REPLAY, 0,
	   "retired µops marked by replay tagging (the PEBS metric)", NULL),
	EV("INSTR_RETIRED", 0x02, 38, CRU0, CRU1, instr_retired, 0x01, P4_TAG_NONE, 0,
	   "instructions retired", NULL),
	EV("UOPS_RETIRED", 0x01, 39, CRU0, CRU1, uops_retired, 0x01, P4_TAG_NONE, 0, "µops retired",
	   NULL),
	EV("UOP_TYPE", 0x02, 40, RAT0, RAT1, uop_type, 0x02, P4_TAG_FE_TAGGER, 0,
	   "load and store µops, which front-end tagging marks", NULL),
	EV("BRANCH_RETIRED", 0x06, 41, CRU2, CRU3, branch_retired, 0x0c, P4_TAG_NONE, 0,
	   "branches retired, by direction and prediction", NULL),
	EV("MISPRED_BRANCH_RETIRED", 0x03, 42, CRU0, CRU1, mispred_branch_retired, 0x01,
	   P4_TAG_NONE, 0, "mispredicted branches retired", NULL),
	EV("X87_ASSIST", 0x03, 43, CRU2, CRU3, x87_assist, 0x1f, P4_TAG_NONE, 0,
	   "retired x87 instructions that needed assistance", NULL),
	EV("MACHINE_CLEAR", 0x02, 44, CRU2, CRU3, machine_clear, 0x01, P4_TAG_NONE, 0,
	   "clears of the whole pipeline", NULL),
	EV("INSTR_COMPLETED", 0x07, 45, CRU0, CRU1, instr_completed, 0x01, P4_TAG_NONE, 0,
	   "instructions completed and retired (Prescott-core models)", NULL),
	EV("X87_SIMD_MOVES_UOP", 0x2e, 0xff, FIRM0, FIRM1, x87_simd_moves_uop, 0x18,
	   P4_TAG_EX_TAGGER, 1, "x87 and SIMD load, store and register-move µops", NULL),
};

const unsigned p4_nevents = sizeof(p4_events) / sizeof(p4_events[0]);
