/* events.c — the XScale events [xdm] §8.4 Table 8-12 (codes and names as
 * oprofile's arm_xscale1/arm_xscale2 tables give them; both variants count
 * the same events) and the timing-model signals (emu/uarch/events.h) each
 * is counted from.  Codes 0x10-0x17 are defined by the product around the
 * core (ASSP); these are the 80200's bus controller (BCU) events. */
#include <stddef.h>

#include "xscale.h"

#define S1(a)                                              \
	{ UARCH_EV_##a, UARCH_NEV, UARCH_NEV, UARCH_NEV }, \
	{                                                  \
		1                                          \
	}
#define NOSIG                                           \
	{ UARCH_NEV, UARCH_NEV, UARCH_NEV, UARCH_NEV }, \
	{                                               \
		0                                       \
	}

const struct xs_event_desc xs_events[] = {
	{ "IFU_IFETCH_MISS", 0x00, XS_K_COUNT, S1(L1I_MISS),
	  "instruction-cache misses, each a 32-byte fetch from external memory (fetches "
	  "past a branch before it redirects included)",
	  NULL },
	{ "CYCLES_IFU_MEM_STALL", 0x01, XS_K_CYCLES, S1(STALL_FETCH),
	  "cycles the instruction cache cannot deliver an instruction (I-cache or I-TLB miss)",
	  NULL },
	{ "CYCLES_DATA_STALL", 0x02, XS_K_CYCLES, S1(STALL_DATA),
	  "cycles issue stalls on a data dependency (load-use, multiply-use, ...)", NULL },
	{ "ITLB_MISS", 0x03, XS_K_COUNT, S1(ITLB_MISS), "instruction TLB misses (table walks)",
	  NULL },
	/* retired loads' and stores' misses: the in-order core walks for no
	 * access down a mispredicted path */
	{ "DTLB_MISS",
	  0x04,
	  XS_K_COUNT,
	  { UARCH_EV_LD_DTLB_MISS, UARCH_EV_ST_DTLB_MISS, UARCH_NEV, UARCH_NEV },
	  { 1, 1 },
	  "data TLB misses (table walks)",
	  NULL },
	/* B and BL only [xdm] Table 8-12: direct branches and calls, not
	 * returns or indirect jumps and calls */
	{ "BR_INST_EXECUTED",
	  0x05,
	  XS_K_COUNT,
	  { UARCH_EV_BRANCHES, UARCH_EV_BR_IND, UARCH_EV_BR_RET, UARCH_NEV },
	  { 1, -1, -1 },
	  "direct branches and calls executed (B and BL), taken or not",
	  NULL },
	{ "BR_INST_MISS_PRED",
	  0x06,
	  XS_K_COUNT,
	  { UARCH_EV_BR_MISP, UARCH_EV_BR_RET_MISP, UARCH_EV_BR_CALL_IND_MISP,
	    UARCH_EV_BR_JMP_IND_MISP },
	  { 1, -1, -1, -1 },
	  "direct branches and calls mispredicted (B and BL)",
	  NULL },
	{ "INSN_EXECUTED", 0x07, XS_K_COUNT, S1(INSNS), "instructions executed", NULL },
	/* "the data cache buffers" [xdm] Table 8-12: a buffer is allocated for
	 * every request that may go to the bus (§8.4.4), a load miss's fill
	 * buffer or a store's write-buffer entry; with none free the core
	 * stalls (the Optimization Guide appendix, on fill and write buffers) */
	{ "CYCLES_DCACHE_FULL_STALL",
	  0x08,
	  XS_K_CYCLES,
	  { UARCH_EV_STALL_FILLBUF, UARCH_EV_STALL_WBUF, UARCH_NEV, UARCH_NEV },
	  { 1, 1 },
	  "cycles the core stalls because every fill buffer or every write-buffer entry is busy",
	  NULL },
	{ "DCACHE_FULL_STALL_CNT",
	  0x09,
	  XS_K_EDGE,
	  { UARCH_EV_STALL_FILLBUF, UARCH_EV_STALL_WBUF, UARCH_NEV, UARCH_NEV },
	  { 1, 1 },
	  "stalls because every fill buffer or write-buffer entry is busy: once per contiguous "
	  "run of such cycles",
	  NULL },
	{ "DCACHE_ACCESS",
	  0x0a,
	  XS_K_COUNT,
	  { UARCH_EV_LOADS, UARCH_EV_STORES, UARCH_NEV, UARCH_NEV },
	  { 1, 1 },
	  "data-cache accesses (loads and stores; mini-data cache included)",
	  NULL },
	{ "DCACHE_MISS",
	  0x0b,
	  XS_K_COUNT,
	  { UARCH_EV_L1D_LD_MISS, UARCH_EV_L1D_ST_MISS, UARCH_NEV, UARCH_NEV },
	  { 1, 1 },
	  "data-cache and mini-data-cache misses",
	  NULL },
	/* once per half line [xdm] Table 8-12; the model keeps one dirty bit
	 * per line, so a dirty line writes both halves (≈) */
	{ "DCACHE_WB",
	  0x0c,
	  XS_K_COUNT,
	  { UARCH_EV_WRITEBACKS, UARCH_NEV, UARCH_NEV, UARCH_NEV },
	  { 2 },
	  "data-cache write-backs, one per half line (four words) written",
	  NULL },
	{ "PC_CHANGE", 0x0d, XS_K_COUNT, S1(BR_TAKEN),
	  "software changed the PC without a mode change (taken branches, calls, returns)", NULL },
	{ "BCU_REQUEST",
	  0x10,
	  XS_K_COUNT,
	  { UARCH_EV_BUS_BRL, UARCH_EV_BUS_BRIL, UARCH_EV_PF_BRL, UARCH_EV_PF_BRIL,
	    UARCH_EV_BUS_BWL, UARCH_EV_BUS_IO },
	  { 1, 1, 1, 1, 1, 1 },
	  "new memory requests from the core to the bus controller (line fills, write-backs, "
	  "I/O)",
	  NULL },
	{ "BCU_FULL", 0x11, XS_K_CYCLES, NOSIG, "cycles the bus controller's request queue is full",
	  "the model has no bus-controller request queue: requests wait only for the bus" },
	{ "BCU_DRAIN", 0x12, XS_K_COUNT, NOSIG,
	  "bus-controller queues drained (Drain Write Buffer, or I/O to an uncached, "
	  "unbuffered page)",
	  "the model has no Drain Write Buffer operation and no uncached, unbuffered pages" },
	{ "BCU_ECC_NO_ELOG", 0x14, XS_K_COUNT, NOSIG,
	  "ECC errors found with no ELOG register free to log them",
	  "the modelled memory has no ECC" },
	{ "BCU_1_BIT_ERR", 0x15, XS_K_COUNT, NOSIG, "1-bit ECC errors in data read from the bus",
	  "the modelled memory has no ECC" },
	{ "RMW", 0x16, XS_K_COUNT, NOSIG,
	  "read-modify-write cycles for narrow writes to ECC-protected memory",
	  "the modelled memory has no ECC" },
	{ "CPU_CYCLES", XS_CODE_CCNT, XS_K_CLOCK, S1(CYCLES),
	  "core clock cycles, on the clock counter CCNT (:DIV64 every 64th)", NULL },
};

const unsigned xs_nevents = sizeof(xs_events) / sizeof(xs_events[0]);
