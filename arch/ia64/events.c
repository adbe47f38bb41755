/* events.c — the Itanium 2 events [op] (codes, counters, unit masks) and
 * the timing-model signals each counts.  The guest executes IA-32
 * instructions (PSR.is = 1): structures only IA-64 code exercises (the
 * register stack engine, the ALAT, predication, bundles and syllables,
 * branch hints) have nothing to count and are marked unsupported with
 * the reason, as is everything the model does not simulate. */
#include <stddef.h>

#include "ia64.h"

#define END                  \
	{                    \
		UARCH_NEV, 0 \
	}
#define P(x)                    \
	{                       \
		UARCH_EV_##x, 1 \
	}
#define M(x)                     \
	{                        \
		UARCH_EV_##x, -1 \
	}
#define ALL4 0xf
#define PMC4 0x1
#define PMC5 0x2
#define N(a) (uint8_t)(sizeof(a) / sizeof((a)[0]))

/* umask entries: counted from signals, zero by definition, unsupported */
#define U(nm, v, d, ...)                             \
	{                                            \
		nm, v, { __VA_ARGS__, END }, d, NULL \
	}
#define UZ(nm, v, d)                    \
	{                               \
		nm, v, { END }, d, NULL \
	}
#define UX(nm, v, d, why)              \
	{                              \
		nm, v, { END }, d, why \
	}

/* events: plain, with unit masks, unsupported (with or without masks) */
#define EV(nm, code, ctr, d, ...)                                                      \
	{                                                                              \
		nm, code, ctr, IA64_K_PLAIN, NULL, 0, 0, { __VA_ARGS__, END }, d, NULL \
	}
#define EVZ(nm, code, ctr, d)                                             \
	{                                                                 \
		nm, code, ctr, IA64_K_PLAIN, NULL, 0, 0, { END }, d, NULL \
	}
#define EVU(nm, code, ctr, um, def, d)                                        \
	{                                                                     \
		nm, code, ctr, IA64_K_PLAIN, um, N(um), def, { END }, d, NULL \
	}
#define UNS(nm, code, ctr, d, why)                                       \
	{                                                                \
		nm, code, ctr, IA64_K_PLAIN, NULL, 0, 0, { END }, d, why \
	}
#define UNSU(nm, code, ctr, um, def, d, why)                                 \
	{                                                                    \
		nm, code, ctr, IA64_K_PLAIN, um, N(um), def, { END }, d, why \
	}

static const char R_RSE[] = "the register stack engine spills and fills IA-64 stacked "
			    "registers; IA-32 code has none";
static const char R_ALAT[] = "the ALAT tracks IA-64 advanced loads (ld.a, chk.a); IA-32 code "
			     "issues none";
static const char R_SYLL[] = "counts IA-64 syllables and bundles; IA-32 instructions are not "
			     "bundled";
static const char R_IA64[] = "counts an IA-64-only instruction kind; the guest executes IA-32 "
			     "instructions";
static const char R_FP[] = "the model does not simulate the floating-point status (SIR, "
			   "flush-to-zero) machinery";
static const char R_STALL[] = "the model's in-order core has no L1D or FPU pipeline stall of "
			      "its own: a wait for a load or an FP result is an EXE bubble";
static const char R_FE[] = "the model does not track instruction-buffer bundle slots";
static const char R_PREF[] = "the model has no instruction prefetcher, streaming buffer or RAB";
static const char R_L2Q[] = "the model does not simulate the L2's queues, recirculation or "
			    "cancels";
static const char R_SNOOP[] = "the emulated machine has one processor: the only snoops it "
			      "models are the I/O agents', seen as BUS_HITM";
static const char R_BUSQ[] = "the model does not simulate the bus request queues: it "
			     "keeps no per-cycle count of their live entries";
static const char R_DEBUG[] = "the emulated machine has no debug registers or external pins";
static const char R_TLB2[] = "the model's page walker reads an x86 four-level page table, not "
			     "the VHPT, and it never purges a TLB";
static const char R_UC[] = "the guest has no uncacheable mappings";
static const char R_UNKNOWN[] = "the model's predictor always has a prediction (no unknown "
				"component)";
static const char R_ENC[] = "counts IA-64 branches with encoded hints (brp); IA-32 code has none";
static const char R_TLBFAULT[] = "the model's page walker always finds the translation: no "
				 "TLB miss reaches the software handler";

static const struct ia64_umask_desc um_alat[] = {
	UX("INT", 0x1, "integer", R_ALAT),
	UX("FP", 0x2, "floating point", R_ALAT),
	UX("ALL", 0x3, "both", R_ALAT),
};
static const struct ia64_umask_desc um_tagged[] = {
	UX("IBRP0_PMB8", 0x0, "tagged by IBRP0 and PMC8", R_IA64),
	UX("IBRP1_PMB9", 0x1, "tagged by IBRP1 and PMC9", R_IA64),
	UX("IBRP2_PMC8", 0x2, "tagged by IBRP2 and PMC8", R_IA64),
	UX("IBRP3_PMC9", 0x3, "tagged by IBRP3 and PMC9", R_IA64),
};
/* The stall accounting: every cycle the main pipe issues nothing is one
 * of BE_FLUSH_BUBBLE's, BE_L1D_FPU_BUBBLE's, BE_EXE_BUBBLE's,
 * BE_RSE_BUBBLE's or BACK_END_BUBBLE.FE's (Itanium 2 reference, ch. 4,
 * "cycle accounting").  The model's in-order core tells the front end,
 * the flush after a mispredicted branch and the back end's waits
 * (vpmu-model(7)); it has no L1D or FPU pipeline stall of its own, and
 * IA-32 code no register stack. */
static const struct ia64_umask_desc um_back_end_bubble[] = {
	U("ALL", 0x0, "every cause", P(BUBBLE_FE), P(BUBBLE_FLUSH), P(BUBBLE_EXE)),
	U("FE", 0x1, "front end starved (the next instruction not delivered)", P(BUBBLE_FE)),
	UX("L1D_FPU_RSE", 0x2, "L1D, FPU or RSE", R_STALL),
};
static const struct ia64_umask_desc um_be_br_mispred[] = {
	UX("ANY", 0x0, "any back-end misprediction", R_IA64),
	UX("STG", 0x1, "stage", R_IA64),
	UX("ROT", 0x2, "rotation", R_IA64),
	UX("PFS", 0x3, "PFS", R_IA64),
};
/* BE_EXE_BUBBLE by what the stalled instruction waits for (libpfm's
 * itanium2 table): an integer register (GRALL; GRGR when an operation,
 * not a load, writes it), a floating-point register (FRALL; IA-32's MMX
 * and SSE registers too), a predicate (PR: IA-32's flags), an application
 * or control register (ARCR: the FP control and status). */
static const struct ia64_umask_desc um_be_exe[] = {
	U("ALL", 0x0, "every cause (operands, units, entries)", P(BUBBLE_EXE)),
	U("GRALL", 0x1, "integer register dependencies (on a load or an operation)",
	  P(BUBBLE_EXE_GR)),
	U("FRALL", 0x2, "floating-point register dependencies", P(BUBBLE_EXE_FR)),
	U("PR", 0x3, "predicate dependencies (the flags)", P(BUBBLE_EXE_PR)),
	U("ARCR", 0x4, "application and control register dependencies (FP control)",
	  P(BUBBLE_EXE_ARCR)),
	U("GRGR", 0x5, "integer register dependencies on an operation (not a load)",
	  P(BUBBLE_EXE_GRGR)),
	UX("CANCEL", 0x6, "canceled loads", "the model cancels no load"),
	UX("BANK_SWITCH", 0x7, "register bank switches",
	   "IA-64 register banks: IA-32 code switches none"),
	UX("ARCR_PR_CANCEL_BANK", 0x8, "ARCR, PR, CANCEL or BANK_SWITCH",
	   "the model cancels no load"),
};
static const struct ia64_umask_desc um_be_flush[] = {
	U("ALL", 0x0, "every flush (the model's are the mispredicted branches')", P(BUBBLE_FLUSH)),
	U("BRU", 0x1, "branch misprediction flush", P(BUBBLE_FLUSH)),
	UX("XPN", 0x2, "exception flush",
	   "the model does not flush the pipeline for an exception (a signal's delivery)"),
};
static const struct ia64_umask_desc um_fe_bubble[] = {
	UX("ALL", 0x0, "every cause", R_FE),
	U("IMISS", 0x6, "instruction-cache (and ITLB) miss stalls", P(STALL_FETCH)),
	UX("TLBMISS", 0x7, "ITLB stalls alone", R_FE),
	UX("BRANCH", 0x9, "branch resteers", R_FE),
};

/* BR_MISPRED_DETAIL: branch kind . outcome.  IP-relative branches are the
 * direct ones (conditional, jmp, call); x86 returns and indirect branches
 * are unconditional, so none of them goes the wrong path. */
static const struct ia64_umask_desc um_br_mispred[] = {
	U("ALL.ALL_PRED", 0x0, "all branches", P(BRANCHES)),
	U("ALL.CORRECT_PRED", 0x1, "correct direction and target", P(BRANCHES), M(BR_MISP)),
	U("ALL.WRONG_PATH", 0x2, "wrong direction", P(BR_COND_MISP)),
	U("ALL.WRONG_TARGET", 0x3, "wrong target of a taken branch", P(BR_MISP), M(BR_COND_MISP)),
	U("IPREL.ALL_PRED", 0x4, "IP-relative branches", P(BRANCHES), M(BR_IND), M(BR_RET)),
	U("IPREL.CORRECT_PRED", 0x5, "IP-relative, correct", P(BRANCHES), M(BR_IND), M(BR_RET),
	  M(BR_MISP), P(BR_RET_MISP), P(BR_CALL_IND_MISP), P(BR_JMP_IND_MISP)),
	U("IPREL.WRONG_PATH", 0x6, "IP-relative, wrong direction", P(BR_COND_MISP)),
	UX("IPREL.WRONG_TARGET", 0x7, "IP-relative, wrong target",
	   "the model does not separate BTB target misses of direct branches"),
	U("RETURN.ALL_PRED", 0x8, "returns", P(BR_RET)),
	U("RETURN.CORRECT_PRED", 0x9, "returns, correct", P(BR_RET), M(BR_RET_MISP)),
	UZ("RETURN.WRONG_PATH", 0xa, "returns, wrong direction (0: unconditional)"),
	U("RETURN.WRONG_TARGET", 0xb, "returns, wrong target", P(BR_RET_MISP)),
	U("NRETIND.ALL_PRED", 0xc, "other indirect branches", P(BR_IND)),
	U("NRETIND.CORRECT_PRED", 0xd, "other indirect, correct", P(BR_IND), M(BR_CALL_IND_MISP),
	  M(BR_JMP_IND_MISP)),
	UZ("NRETIND.WRONG_PATH", 0xe, "other indirect, wrong direction (0: unconditional)"),
	U("NRETIND.WRONG_TARGET", 0xf, "other indirect, wrong target", P(BR_CALL_IND_MISP),
	  P(BR_JMP_IND_MISP)),
};
static const struct ia64_umask_desc um_br_mispred2[] = {
	UX("ALL.ALL_UNKNOWN_PRED", 0x0, "unknown prediction", R_UNKNOWN),
};
/* BR_PATH_PRED: the predicted direction and whether it was right. */
static const struct ia64_umask_desc um_br_path[] = {
	U("ALL.MISPRED_NOTTAKEN", 0x0, "predicted not taken, was taken", P(BR_T_MISP)),
	U("ALL.MISPRED_TAKEN", 0x1, "predicted taken, was not taken", P(BR_NT_MISP)),
	U("ALL.OKPRED_NOTTAKEN", 0x2, "predicted not taken, correct", P(BR_NT_PRED)),
	U("ALL.OKPRED_TAKEN", 0x3, "predicted taken, correct", P(BR_T_PRED)),
};
static const struct ia64_umask_desc um_br_path2[] = {
	UX("ALL.UNKNOWNPRED_NOTTAKEN", 0x0, "unknown prediction, not taken", R_UNKNOWN),
	UX("ALL.UNKNOWNPRED_TAKEN", 0x1, "unknown prediction, taken", R_UNKNOWN),
};
static const struct ia64_umask_desc um_encbr[] = {
	UX("ALL.ALL_PRED", 0x0, "all encoded branches", R_ENC),
};
static const struct ia64_umask_desc um_l1d_read_misses[] = {
	U("ALL", 0x0, "all L1D read misses", P(L1D_LD_MISS)),
	UX("RSE_FILL", 0x1, "RSE fills", R_RSE),
};
static const struct ia64_umask_desc um_itlb_fetch[] = {
	U("L1ITLB", 0x1, "first-level ITLB misses", P(ITLB_MISS)),
	U("L2ITLB", 0x2, "fetches missing the L1ITLB and the L2ITLB", P(ITLB_L2_MISS)),
	U("ALL", 0x3, "all ITLB misses (an L2ITLB miss is an L1ITLB miss too)", P(ITLB_MISS)),
};
/* L3_READS and L3_WRITES: umask bits 1:0 hit (01), miss (10) or both,
 * bits 3:2 the kind (libpfm's itanium2 table).  The model prefetches no
 * instructions, so INST_FETCH is DINST_FETCH; its stores' reads for
 * ownership are writes, as the reference manual counts them. */
#define L3_HM(kind, k, d, hit, miss)                               \
	U(kind ".ALL", (k) << 2 | 3, d, P(hit), P(miss)),          \
		U(kind ".HIT", (k) << 2 | 1, d " (hits)", P(hit)), \
		U(kind ".MISS", (k) << 2 | 2, d " (misses)", P(miss))
static const struct ia64_umask_desc um_l3_reads[] = {
	U("ALL.ALL", 0xf, "all reads", P(L3_LOAD_HIT), P(L3_LOAD_MISS), P(L3_IFETCH_HIT),
	  P(L3_IFETCH_MISS)),
	U("ALL.HIT", 0xd, "all reads (hits)", P(L3_LOAD_HIT), P(L3_IFETCH_HIT)),
	U("ALL.MISS", 0xe, "all reads (misses)", P(L3_LOAD_MISS), P(L3_IFETCH_MISS)),
	L3_HM("DATA_READ", 2, "loads (not reads for ownership)", L3_LOAD_HIT, L3_LOAD_MISS),
	L3_HM("DINST_FETCH", 0, "demand instruction fetches", L3_IFETCH_HIT, L3_IFETCH_MISS),
	L3_HM("INST_FETCH", 1, "instruction fetches and prefetches", L3_IFETCH_HIT, L3_IFETCH_MISS),
};
static const struct ia64_umask_desc um_l3_writes[] = {
	U("ALL.ALL", 0xf, "all writes", P(L3_STORE_HIT), P(L3_STORE_MISS), P(L3_WB_HIT),
	  P(L3_WB_MISS)),
	U("ALL.HIT", 0xd, "all writes (hits)", P(L3_STORE_HIT), P(L3_WB_HIT)),
	U("ALL.MISS", 0xe, "all writes (misses)", P(L3_STORE_MISS), P(L3_WB_MISS)),
	L3_HM("DATA_WRITE", 1, "stores (their reads for ownership included)", L3_STORE_HIT,
	      L3_STORE_MISS),
	L3_HM("L2_WB", 2, "L2 write-backs", L3_WB_HIT, L3_WB_MISS),
};
static const struct ia64_umask_desc um_rse_refs[] = {
	UX("LOAD", 0x1, "fills", R_RSE),
	UX("STORE", 0x2, "spills", R_RSE),
	UX("ALL", 0x3, "both", R_RSE),
};

/* The bus: this processor's transactions (SELF) are its line reads (BRL),
 * reads for ownership (BRIL), on demand or by the prefetcher (none by
 * default: the machine has none, mem.pf_streams=0), write-backs (BWL) and
 * partials (BRP, BWP);
 * I/O agents' (IO) are the transfers system calls move, full lines read
 * (BRL: data written out) or written (BWL: data read in); ANY is both. */
#define SELF_RD P(BUS_BRL), P(BUS_BRIL), P(PF_BRL), P(PF_BRIL)
#define SELF_ALL SELF_RD, P(BUS_BWL), P(BUS_BRP), P(BUS_BWP)
static const struct ia64_umask_desc um_bus_all[] = {
	U("IO", 0x1, "I/O agents' transactions", P(BUS_IO)),
	U("SELF", 0x2, "this processor's transactions", SELF_ALL),
	U("ANY", 0x3, "all transactions", SELF_ALL, P(BUS_IO)),
};
static const struct ia64_umask_desc um_bus_memory[] = {
	U("EQ_128BYTE_IO", 0x5, "full-line, I/O agents", P(BUS_IO)),
	U("EQ_128BYTE_SELF", 0x6, "full-line, self", SELF_RD, P(BUS_BWL)),
	U("EQ_128BYTE_ANY", 0x7, "full-line, any", SELF_RD, P(BUS_BWL), P(BUS_IO)),
	UZ("LT_128BYTE_IO", 0x9, "partial, I/O agents (0: the model moves I/O in lines)"),
	U("LT_128BYTE_SELF", 0xa, "partial, self", P(BUS_BRP), P(BUS_BWP)),
	U("LT_128BYTE_ANY", 0xb, "partial, any", P(BUS_BRP), P(BUS_BWP)),
	U("ALL_IO", 0xd, "all, I/O agents", P(BUS_IO)),
	U("ALL_SELF", 0xe, "all, self", SELF_ALL),
	U("ALL_ANY", 0xf, "all, any", SELF_ALL, P(BUS_IO)),
};
static const struct ia64_umask_desc um_bus_mem_read[] = {
	UZ("BIL_IO", 0x1, "BIL, I/O (0: the model's I/O agents write lines with BWL)"),
	UZ("BIL_SELF", 0x2, "BIL, self (0: Itanium 2 uses BRIL, not BIL; seed 003)"),
	UZ("BIL_ANY", 0x3, "BIL, any (0: neither issues BIL)"),
	U("BRL_IO", 0x5, "BRL, I/O", P(BUS_IO_RD)),
	U("BRL_SELF", 0x6, "BRL, self", P(BUS_BRL), P(PF_BRL)),
	U("BRL_ANY", 0x7, "BRL, any", P(BUS_BRL), P(PF_BRL), P(BUS_IO_RD)),
	UZ("BRIL_IO", 0x9, "BRIL, I/O (0: the model's I/O agents read without ownership)"),
	U("BRIL_SELF", 0xa, "BRIL, self", P(BUS_BRIL), P(PF_BRIL)),
	U("BRIL_ANY", 0xb, "BRIL, any", P(BUS_BRIL), P(PF_BRIL)),
	U("ALL_IO", 0xd, "all full-line reads, I/O", P(BUS_IO_RD)),
	U("ALL_SELF", 0xe, "all full-line reads, self", SELF_RD),
	U("ALL_ANY", 0xf, "all full-line reads, any", SELF_RD, P(BUS_IO_RD)),
};
static const struct ia64_umask_desc um_bus_rd[] = {
	U("IO", 0x1, "I/O agents", P(BUS_IO_RD)),
	U("SELF", 0x2, "self", SELF_RD, P(BUS_BRP)),
	U("ANY", 0x3, "any", SELF_RD, P(BUS_BRP), P(BUS_IO_RD)),
};
static const struct ia64_umask_desc um_bus_rd_prtl[] = {
	UZ("IO", 0x1, "I/O agents (0: the model moves I/O in lines)"),
	U("SELF", 0x2, "self", P(BUS_BRP)),
	U("ANY", 0x3, "any", P(BUS_BRP)),
};
static const struct ia64_umask_desc um_bus_io[] = {
	UZ("IO", 0x1, "I/O agents (0: the guest runs no IA-32 in/out)"),
	UZ("SELF", 0x2, "self (0: the guest runs no IA-32 in/out)"),
	UZ("ANY", 0x3, "any (0: the guest runs no IA-32 in/out)"),
};
static const struct ia64_umask_desc um_bus_wr_wb[] = {
	U("EQ_128BYTE_IO", 0x5, "full-line writes, I/O agents", P(BUS_IO_WR)),
	U("EQ_128BYTE_SELF", 0x6, "full-line write-backs, self", P(BUS_BWL)),
	U("EQ_128BYTE_ANY", 0x7, "full-line writes, any", P(BUS_BWL), P(BUS_IO_WR)),
	UZ("CCASTOUT_SELF", 0xa, "clean castouts (0: not enabled)"),
	UZ("CCASTOUT_ANY", 0xb, "clean castouts, any (0: I/O agents cast out nothing)"),
	U("ALL_IO", 0xd, "all, I/O agents", P(BUS_IO_WR)),
	U("ALL_SELF", 0xe, "all write-backs, self", P(BUS_BWL)),
	U("ALL_ANY", 0xf, "all, any", P(BUS_BWL), P(BUS_IO_WR)),
};
static const struct ia64_umask_desc um_bus_snoop[] = {
	UX("SELF", 0x2, "self", R_SNOOP),
	UX("ANY", 0x3, "any", R_SNOOP),
};
static const struct ia64_umask_desc um_mem_read_current[] = {
	UX("IO", 0x1, "I/O", R_SNOOP),
	UX("ANY", 0x3, "any", R_SNOOP),
};

/* DATA_EAR_EVENTS: the unit mask programs PMC11 (mode, latency threshold
 * or TLB level), not PMC4-7's umask field. */
#define DEAR_LAT(u) ((uint32_t)IA64_DEAR_CACHE << IA64_DEAR_MODE_SHIFT | (uint32_t)(u) << 16)
#define DEAR_TLB(u) ((uint32_t)IA64_DEAR_TLB << IA64_DEAR_MODE_SHIFT | (uint32_t)(u) << 16)
static const struct ia64_umask_desc um_dear[] = {
	UZ("CACHE_LAT4", DEAR_LAT(0), "loads with latency >= 4 cycles"),
	UZ("CACHE_LAT8", DEAR_LAT(1), ">= 8 cycles"),
	UZ("CACHE_LAT16", DEAR_LAT(2), ">= 16 cycles"),
	UZ("CACHE_LAT32", DEAR_LAT(3), ">= 32 cycles"),
	UZ("CACHE_LAT64", DEAR_LAT(4), ">= 64 cycles"),
	UZ("CACHE_LAT128", DEAR_LAT(5), ">= 128 cycles"),
	UZ("CACHE_LAT256", DEAR_LAT(6), ">= 256 cycles"),
	UZ("CACHE_LAT512", DEAR_LAT(7), ">= 512 cycles"),
	UZ("CACHE_LAT1024", DEAR_LAT(8), ">= 1024 cycles"),
	UZ("CACHE_LAT2048", DEAR_LAT(9), ">= 2048 cycles"),
	UZ("CACHE_LAT4096", DEAR_LAT(10), ">= 4096 cycles"),
	UZ("TLB_L2DTLB", DEAR_TLB(0x2), "L1 DTLB misses the L2 DTLB translated"),
	UZ("TLB_VHPT", DEAR_TLB(0x4), "L1 DTLB misses the page walker (VHPT) translated"),
	UZ("TLB_L2DTLB_OR_VHPT", DEAR_TLB(0x6),
	   "L1 DTLB misses the L2 DTLB or the VHPT translated"),
	UX("TLB_FAULT", DEAR_TLB(0x8), "DTLB misses the software handler took", R_TLBFAULT),
	UX("TLB_L2DTLB_OR_FAULT", DEAR_TLB(0xa), "L2 DTLB hits or faults", R_TLBFAULT),
	UX("TLB_VHPT_OR_FAULT", DEAR_TLB(0xc), "VHPT hits or faults", R_TLBFAULT),
	UX("TLB_ALL", DEAR_TLB(0xe), "all L1 DTLB misses", R_TLBFAULT),
	UX("ALAT", (uint32_t)IA64_DEAR_ALAT << IA64_DEAR_MODE_SHIFT, "ALAT misses", R_ALAT),
};

/* L1I_EAR_EVENTS: the unit mask programs PMC10 (ct and umask fields) */
#define IEAR_LAT(u) (IA64_IEAR_CACHE | (uint32_t)(u) << IA64_IEAR_UMASK_SHIFT)
#define IEAR_TLB(u) ((uint32_t)(u) << IA64_IEAR_UMASK_SHIFT)
static const struct ia64_umask_desc um_iear[] = {
	UZ("CACHE_LAT0", IEAR_LAT(0x40), "L1I misses, every latency"),
	UZ("CACHE_LAT4", IEAR_LAT(0xff), "L1I misses with latency >= 4 cycles"),
	UZ("CACHE_LAT8", IEAR_LAT(0xfe), ">= 8 cycles"),
	UZ("CACHE_LAT16", IEAR_LAT(0xfc), ">= 16 cycles"),
	UZ("CACHE_LAT32", IEAR_LAT(0xf8), ">= 32 cycles"),
	UZ("CACHE_LAT128", IEAR_LAT(0xf0), ">= 128 cycles"),
	UZ("CACHE_LAT256", IEAR_LAT(0xe0), ">= 256 cycles"),
	UZ("CACHE_LAT1024", IEAR_LAT(0xc0), ">= 1024 cycles"),
	UZ("CACHE_LAT4096", IEAR_LAT(0x80), ">= 4096 cycles"),
	UX("CACHE_RAB", IEAR_LAT(0x00), "L1I misses hitting the RAB", R_PREF),
	UZ("TLB_L2TLB", IEAR_TLB(0x1), "L1 ITLB misses the L2 ITLB translated"),
	UZ("TLB_VHPT", IEAR_TLB(0x2), "L1 ITLB misses the page walker (VHPT) translated"),
	UZ("TLB_L2TLB_OR_VHPT", IEAR_TLB(0x3), "L1 ITLB misses the L2 ITLB or the VHPT translated"),
	UX("TLB_FAULT", IEAR_TLB(0x4), "ITLB misses the software handler took", R_TLBFAULT),
	UX("TLB_L2TLB_OR_FAULT", IEAR_TLB(0x5), "L2 ITLB hits or faults", R_TLBFAULT),
	UX("TLB_VHPT_OR_FAULT", IEAR_TLB(0x6), "VHPT hits or faults", R_TLBFAULT),
	UX("TLB_ALL", IEAR_TLB(0x7), "all L1 ITLB misses", R_TLBFAULT),
};

const struct ia64_event_desc ia64_events[] = {
	/* basic events [op] table 11-1 */
	EV("CPU_CYCLES", 0x12, ALL4, "CPU cycles", P(CYCLES)),
	EVZ("IA64_INST_RETIRED", 0x08, ALL4,
	    "IA-64 instructions retired (0 here: the guest executes IA-32 code)"),
	EV("IA32_INST_RETIRED", 0x59, ALL4, "IA-32 instructions retired", P(INSNS)),
	UNS("IA32_ISA_TRANSITIONS", 0x07, ALL4, "Itanium to/from IA-32 ISA transitions",
	    "the model does not time the kernel's instruction-set switches"),
	/* dispersal, table 11-3 */
	UNS("DISP_STALLED", 0x49, ALL4, "cycles dispersal stalled", R_SYLL),
	UNS("INST_DISPERSED", 0x4d, ALL4, "syllables dispersed", R_SYLL),
	UNS("SYLL_NOT_DISPERSED", 0x4e, ALL4, "syllables not dispersed", R_SYLL),
	UNS("SYLL_OVERCOUNT", 0x4f, ALL4, "syllables overcounted", R_SYLL),
	/* execution, table 11-4 */
	UNSU("ALAT_CAPACITY_MISS", 0x58, ALL4, um_alat, 0x3, "ALAT entry replaced", R_ALAT),
	UNS("FP_FAILED_FCHKF", 0x06, ALL4, "failed fchkf", R_IA64),
	UNS("FP_FALSE_SIRSTALL", 0x05, ALL4, "SIR stall without a trap", R_FP),
	UNS("FP_FLUSH_TO_ZERO", 0x0b, ALL4, "result flushed to zero", R_FP),
	EV("FP_OPS_RETIRED", 0x09, ALL4, "floating-point (and SIMD) operations retired",
	   P(FP_UOPS)),
	UNS("FP_TRUE_SIRSTALL", 0x03, ALL4, "SIR stall leading to a trap", R_FP),
	UNSU("IA64_TAGGED_INST_RETIRED", 0x08, ALL4, um_tagged, 0x0, "retired tagged instructions",
	     R_IA64),
	UNSU("INST_CHKA_LDC_ALAT", 0x56, ALL4, um_alat, 0x3, "advanced check loads", R_ALAT),
	UNSU("INST_FAILED_CHKA_LDC_ALAT", 0x57, ALL4, um_alat, 0x3, "failed advanced check loads",
	     R_ALAT),
	UNSU("INST_FAILED_CHKS_RETIRED", 0x55, ALL4, um_alat, 0x3, "failed speculative check loads",
	     R_IA64),
	UNS("NOPS_RETIRED", 0x50, ALL4, "retired nop syllables", R_SYLL),
	UNS("PREDICATE_SQUASHED_RETIRED", 0x51, ALL4, "instructions squashed by predicate", R_IA64),
	/* stalls, table 11-6 */
	EVU("BACK_END_BUBBLE", 0x00, ALL4, um_back_end_bubble, 0x1,
	    "full pipe bubbles in the main pipe"),
	EVU("BE_EXE_BUBBLE", 0x02, ALL4, um_be_exe, 0x0, "bubbles from execution-unit stalls"),
	EVU("BE_FLUSH_BUBBLE", 0x04, ALL4, um_be_flush, 0x0, "bubbles from flushes"),
	UNS("BE_L1D_FPU_BUBBLE", 0xca, ALL4, "bubbles from the FPU or L1D", R_STALL),
	UNS("BE_RSE_BUBBLE", 0x01, ALL4, "bubbles from RSE stalls", R_RSE),
	EVU("FE_BUBBLE", 0x71, ALL4, um_fe_bubble, 0x6, "bubbles seen by the front end"),
	UNS("FE_LOST_BW", 0x70, ALL4, "invalid bundles at the instruction buffer", R_FE),
	UNS("IDEAL_BE_LOST_BW_DUE_TO_FE", 0x73, ALL4, "invalid bundles at the buffer's exit", R_FE),
	/* branches, table 11-7 */
	UNSU("BE_BR_MISPRED_DETAIL", 0x61, ALL4, um_be_br_mispred, 0x0,
	     "back-end branch misprediction detail", R_IA64),
	{ "BRANCH_EVENT",
	  0x11,
	  ALL4,
	  IA64_K_BTB,
	  NULL,
	  0,
	  0,
	  { END },
	  "branches the branch trace buffer (PMC12) captured",
	  NULL },
	EVU("BR_MISPRED_DETAIL", 0x5b, ALL4, um_br_mispred, 0x0, "branch misprediction detail"),
	UNSU("BR_MISPRED_DETAIL2", 0x68, ALL4, um_br_mispred2, 0x0,
	     "branch mispredictions, unknown path", R_UNKNOWN),
	EVU("BR_PATH_PRED", 0x54, ALL4, um_br_path, 0x0, "branch path prediction detail"),
	UNSU("BR_PATH_PRED2", 0x6a, ALL4, um_br_path2, 0x0, "unknown prediction detail", R_UNKNOWN),
	UNSU("ENCBR_MISPRED_DETAIL", 0x63, ALL4, um_encbr, 0x0, "encoded branches retired", R_ENC),
	/* L1 instruction cache, table 11-8 */
	UNS("ISB_BUNPAIRS_IN", 0x46, ALL4, "bundle pairs from L2 into the front end", R_PREF),
	{ "L1I_EAR_EVENTS",
	  0x43,
	  ALL4,
	  IA64_K_IEAR,
	  um_iear,
	  N(um_iear),
	  IEAR_LAT(0xff),
	  { END },
	  "fetches the instruction EAR (PMC10) captured",
	  NULL },
	UNS("L1I_FETCH_ISB_HIT", 0x66, ALL4, "fetches bypassed from the ISB", R_PREF),
	UNS("L1I_FETCH_RAB_HIT", 0x65, ALL4, "fetches hitting the RAB", R_PREF),
	EV("L1I_FILLS", 0x41, ALL4, "L1 instruction cache fills", P(L1I_MISS)),
	UNS("L1I_PREFETCHES", 0x44, ALL4, "instruction prefetch requests", R_PREF),
	EV("L2_INST_DEMAND_READS", 0x42, ALL4, "L1I (and ISB) misses", P(L1I_MISS)),
	UNS("L1I_PREFETCH_STALL", 0x67, ALL4, "prefetch pipeline stalls", R_PREF),
	UNS("L1I_PURGE", 0x4b, ALL4, "L1ITLB purges", R_TLB2),
	UNS("L1I_PVAB_OVERFLOW", 0x69, ALL4, "PVAB overflow", R_PREF),
	UNS("L1I_RAB_ALMOST_FULL", 0x64, ALL4, "RAB almost full", R_PREF),
	UNS("L1I_RAB_FULL", 0x60, ALL4, "RAB full", R_PREF),
	EV("L1I_READS", 0x40, ALL4, "L1 instruction cache reads", P(L1I_ACCESS)),
	UNS("L1I_SNOOP", 0x4a, ALL4, "snoops handled by L1I", R_SNOOP),
	UNS("L1I_STRM_PREFETCHES", 0x5f, ALL4, "L1I line prefetch requests", R_PREF),
	UNS("L2_INST_PREFETCHES", 0x45, ALL4, "instruction prefetches to L2", R_PREF),
	/* L1 data cache, tables 11-10 .. 11-15 */
	{ "DATA_EAR_EVENTS",
	  0xc8,
	  ALL4,
	  IA64_K_DEAR,
	  um_dear,
	  N(um_dear),
	  DEAR_LAT(0),
	  { END },
	  "loads the data EAR (PMC11) captured",
	  NULL },
	EV("L1DTLB_TRANSFER", 0xc0, PMC5, "L1DTLB misses hitting the L2DTLB", P(DTLB_L2_XFER)),
	EV("L2DTLB_MISSES", 0xc1, PMC5, "L2DTLB misses", P(DTLB_L2_MISS)),
	EV("L1D_READS_SET0", 0xc2, PMC5, "L1 data cache reads", P(LOADS)),
	EV("DATA_REFERENCES_SET0", 0xc3, PMC5, "data references", P(LOADS), P(STORES)),
	EV("L1D_READS_SET1", 0xc4, PMC5, "L1 data cache reads", P(LOADS)),
	EV("DATA_REFERENCES_SET1", 0xc5, PMC5, "data references", P(LOADS), P(STORES)),
	EVU("L1D_READ_MISSES", 0xc7, PMC5, um_l1d_read_misses, 0x0, "L1 data cache read misses"),
	EV("LOADS_RETIRED", 0xcd, PMC5, "retired loads", P(LOADS)),
	EV("MISALIGNED_LOADS_RETIRED", 0xce, PMC5,
	   "retired misaligned loads (2 to 16 bytes at an address no multiple of their size)",
	   P(LD_MISALIGNED)),
	UNS("UC_LOADS_RETIRED", 0xcf, PMC5, "retired uncacheable loads", R_UC),
	EV("STORES_RETIRED", 0xd1, PMC5, "retired stores", P(STORES)),
	EV("MISALIGNED_STORES_RETIRED", 0xd2, PMC5,
	   "retired misaligned stores (2 to 16 bytes at an address no multiple of their size)",
	   P(ST_MISALIGNED)),
	UNS("UC_STORES_RETIRED", 0xd0, PMC5, "retired uncacheable stores", R_UC),
	/* L2, tables 11-16 .. 11-23 */
	UNS("L2_FILLB_FULL", 0xbf, PMC4, "L2D fill buffer full", R_L2Q),
	UNS("L2_GOT_RECIRC_IFETCH", 0xba, PMC4, "instruction fetch recirculates received", R_L2Q),
	UNS("L2_ISSUED_RECIRC_IFETCH", 0xb9, PMC4, "instruction fetch recirculates issued", R_L2Q),
	EV("L2_MISSES", 0xcb, ALL4, "L2 misses", P(L2_MISS)),
	UNS("L2_OPS_ISSUED", 0xb8, PMC4, "operations issued by L2D", R_L2Q),
	UNS("L2_IFET_CANCELS", 0xa1, PMC4, "instruction fetch cancels", R_L2Q),
	UNS("L2_OZQ_ACQUIRE", 0xa2, PMC4, "cycles with acquire in the OZQ", R_L2Q),
	UNS("L2_OZQ_CANCELS0", 0xa0, PMC4, "OZQ cancels", R_L2Q),
	UNS("L2_OZQ_CANCELS1", 0xac, PMC4, "OZQ cancels", R_L2Q),
	UNS("L2_OZQ_CANCELS2", 0xa8, PMC4, "OZQ cancels", R_L2Q),
	UNS("L2_OZQ_RELEASE", 0xa3, PMC4, "cycles with release in the OZQ", R_L2Q),
	UNS("L2_L3ACCESS_CANCEL", 0xb0, PMC4, "canceled L3 accesses", R_L2Q),
	UNS("L2_FORCE_RECIRC", 0xb4, PMC4, "forced recirculates", R_L2Q),
	UNS("L2_BAD_LINES_SELECTED", 0xb9, PMC4, "valid line replaced with an invalid one free",
	    R_L2Q),
	UNS("L2_BYPASS", 0xb8, PMC4, "bypasses", R_L2Q),
	UNS("L2_STORE_HIT_SHARED", 0xba, PMC4, "stores hitting a shared line", R_SNOOP),
	UNS("L2_OZQ_FULL", 0xbc, PMC4, "L2D OZQ full", R_L2Q),
	UNS("L2_OZDB_FULL", 0xbd, PMC4, "L2D OZ data buffer full", R_L2Q),
	UNS("L2_VICTIMB_FULL", 0xbe, PMC4, "L2D victim buffer full", R_L2Q),
	/* L3, table 11-24 */
	EV("L3_LINES_REPLACED", 0xdf, ALL4, "L3 lines replaced", P(L3_REPLACED)),
	EV("L3_MISSES", 0xdc, ALL4, "L3 misses", P(L3_MISS)),
	EV("L3_REFERENCES", 0xdb, ALL4, "L3 references", P(L3_ACCESS)),
	EVU("L3_READS", 0xdd, ALL4, um_l3_reads, 0xf, "L3 reads"),
	EVU("L3_WRITES", 0xde, ALL4, um_l3_writes, 0xf, "L3 writes"),
	/* system, table 11-26: a system call enters level 0 and returns to 3 */
	{ "CPU_CPL_CHANGES",
	  0x13,
	  ALL4,
	  IA64_K_PLAIN,
	  NULL,
	  0,
	  0,
	  { P(SYSCALLS), P(SYSCALLS), END },
	  "privilege level changes",
	  NULL },
	UNS("DATA_DEBUG_REGISTER_FAULT", 0x52, ALL4, "data debug register faults", R_DEBUG),
	UNS("DATA_DEBUG_REGISTER_MATCHES", 0xc6, ALL4, "data debug register matches", R_DEBUG),
	UNS("EXTERN_DP_PINS_0_TO_3", 0x9e, ALL4, "DP pins 0-3 asserted", R_DEBUG),
	UNS("EXTERN_DP_PINS_4_TO_5", 0x9f, ALL4, "DP pins 4-5 asserted", R_DEBUG),
	UNS("SERIALIZATION_EVENTS", 0x53, ALL4, "srlz.i instructions", R_IA64),
	/* TLB, table 11-28 */
	/* the walker always finds the translation: it inserts on each miss */
	EV("DTLB_INSERTS_HPW", 0xc9, ALL4, "page-walker inserts to the DTLB", P(DTLB_L2_MISS)),
	EV("DTLB_INSERTS_HPW_RETIRED", 0x2c, ALL4, "retired page-walker DTLB inserts",
	   P(DTLB_WALK)),
	UNS("HPW_DATA_REFERENCES", 0x2d, ALL4, "data references to the VHPT", R_TLB2),
	EV("L1ITLB_INSERTS_HPW", 0x48, ALL4, "page-walker inserts to the L1ITLB", P(ITLB_L2_MISS)),
	EVU("ITLB_MISSES_FETCH", 0x47, ALL4, um_itlb_fetch, 0x1, "ITLB misses on demand fetch"),
	/* system bus, table 11-30 */
	EVU("BUS_ALL", 0x87, ALL4, um_bus_all, 0x3, "bus transactions"),
	UNS("BUS_BRQ_LIVE_REQ_HI", 0x9c, ALL4, "BRQ live requests (high bits)", R_BUSQ),
	UNS("BUS_BRQ_LIVE_REQ_LO", 0x9b, ALL4, "BRQ live requests (low bits)", R_BUSQ),
	/* every transaction this processor starts enters its bus request
	 * queue, whatever the time it then spends there */
	EV("BUS_BRQ_REQ_INSERTED", 0x9d, ALL4, "BRQ requests inserted", SELF_ALL),
	EV("BUS_DATA_CYCLE", 0x88, ALL4, "bus clocks carrying data", P(BUS_DATA_CYCLES)),
	/* the processor's HITM responses: an I/O agent's transaction snooped
	 * a modified line, which it then supplied (implicit write-back) */
	EV("BUS_HITM", 0x84, ALL4, "bus hit-modified transactions", P(BUS_IMPLICIT_WB)),
	EVU("BUS_IO", 0x90, ALL4, um_bus_io, 0x3, "IA-32 compatible I/O (in/out) transactions"),
	UNS("BUS_IOQ_LIVE_REQ_HI", 0x98, ALL4, "in-order queue requests (high bits)", R_BUSQ),
	UNS("BUS_IOQ_LIVE_REQ_LO", 0x97, ALL4, "in-order queue requests (low bits)", R_BUSQ),
	UNSU("BUS_LOCK", 0x93, ALL4, um_bus_snoop, 0x3, "IA-32 bus lock transactions",
	     "the model keeps locked accesses in the caches (no bus locks)"),
	UNS("BUS_BACKSNP_REQ", 0x8e, ALL4, "bus back-snoop requests", R_SNOOP),
	EVU("BUS_MEMORY", 0x8a, ALL4, um_bus_memory, 0xf, "bus memory transactions"),
	EVU("BUS_MEM_READ", 0x8b, ALL4, um_bus_mem_read, 0xe, "full-line memory reads"),
	/* the per-cycle number of reads outstanding, a 5-bit count split in
	 * two events as the sibling BRQ/IOQ counts are [op] */
	{ "BUS_MEM_READ_OUT_HI",
	  0x94,
	  ALL4,
	  IA64_K_OUT_HI,
	  NULL,
	  0,
	  0,
	  { P(MEM_READ_LAT), END },
	  "outstanding memory reads, bits 4:3 of the per-cycle count",
	  NULL },
	{ "BUS_MEM_READ_OUT_LO",
	  0x95,
	  ALL4,
	  IA64_K_OUT_LO,
	  NULL,
	  0,
	  0,
	  { P(MEM_READ_LAT), END },
	  "outstanding memory reads, bits 2:0 of the per-cycle count",
	  NULL },
	UNS("BUS_OOQ_LIVE_REQ_HI", 0x9a, ALL4, "out-of-order queue requests (high bits)", R_BUSQ),
	UNS("BUS_OOQ_LIVE_REQ_LO", 0x99, ALL4, "out-of-order queue requests (low bits)", R_BUSQ),
	EVU("BUS_RD_DATA", 0x8c, ALL4, um_bus_rd, 0x2, "bus read data transactions"),
	UNS("BUS_RD_HIT", 0x80, ALL4, "reads hitting clean non-local caches", R_SNOOP),
	UNS("BUS_RD_HITM", 0x81, ALL4, "reads hitting modified non-local caches", R_SNOOP),
	UNS("BUS_RD_INVAL_ALL_HITM", 0x83, ALL4, "BIL or BRIL resulting in HITM", R_SNOOP),
	UNS("BUS_RD_INVAL_HITM", 0x82, ALL4, "BIL resulting in HITM", R_SNOOP),
	EVU("BUS_RD_IO", 0x91, ALL4, um_bus_io, 0x3, "IA-32 compatible I/O reads"),
	EVU("BUS_RD_PRTL", 0x8d, ALL4, um_bus_rd_prtl, 0x2, "bus partial reads"),
	UNS("BUS_SNOOPQ_REQ", 0x96, ALL4, "snoop queue requests", R_SNOOP),
	UNSU("BUS_SNOOPS", 0x86, ALL4, um_bus_snoop, 0x3, "bus snoops", R_SNOOP),
	UNSU("BUS_SNOOPS_HITM", 0x85, ALL4, um_bus_snoop, 0x3, "snoops hitting modified lines",
	     R_SNOOP),
	UNSU("BUS_SNOOP_STALL_CYCLES", 0x8f, ALL4, um_bus_snoop, 0x3, "snoop stall cycles",
	     R_SNOOP),
	EVU("BUS_WR_WB", 0x92, ALL4, um_bus_wr_wb, 0xe, "bus write-back transactions"),
	UNSU("MEM_READ_CURRENT", 0x89, ALL4, um_mem_read_current, 0x3,
	     "current memory reads on the bus", R_SNOOP),
	/* RSE, table 11-34 */
	UNS("RSE_CURRENT_REGS_2_TO_0", 0x2b, ALL4, "current RSE registers", R_RSE),
	UNS("RSE_CURRENT_REGS_5_TO_3", 0x2a, ALL4, "current RSE registers", R_RSE),
	UNS("RSE_CURRENT_REGS_6", 0x26, ALL4, "current RSE registers", R_RSE),
	UNS("RSE_DIRTY_REGS_2_TO_0", 0x29, ALL4, "dirty RSE registers", R_RSE),
	UNS("RSE_DIRTY_REGS_5_TO_3", 0x28, ALL4, "dirty RSE registers", R_RSE),
	UNS("RSE_DIRTY_REGS_6", 0x24, ALL4, "dirty RSE registers", R_RSE),
	UNS("RSE_EVENT_RETIRED", 0x32, ALL4, "retired RSE operations", R_RSE),
	UNSU("RSE_REFERENCES_RETIRED", 0x20, ALL4, um_rse_refs, 0x3, "RSE accesses", R_RSE),
	/* table 11-36 */
	UNS("TAGGED_L2_DATA_RETURN_POR", 0xbb, ALL4, "tagged L2 data return ports", R_IA64),
};
const unsigned ia64_nevents = sizeof(ia64_events) / sizeof(ia64_events[0]);

const struct ia64_umask_desc *ia64_umask_of(const struct ia64_event_desc *d, uint32_t val)
{
	for (unsigned k = 0; k < d->num; k++)
		if (d->um[k].val == val)
			return &d->um[k];
	return NULL;
}

int ia64_event_by_code(unsigned es)
{
	for (unsigned k = 0; k < ia64_nevents; k++)
		if (ia64_events[k].code == es)
			return (int)k;
	return -1;
}
