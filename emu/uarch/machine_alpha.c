/* machine_alpha.c — Alpha 21264/EV67 (667 MHz, 4 MB Bcache), timing
 * x86-64 µops as the out-of-order Alpha core would run them.
 *
 * Sources, cited below by short name:
 *   [hrm]  Alpha 21264/EV67 Microprocessor Hardware Reference Manual:
 *          2.1.6 (load queue 32, store queue 32, 8-entry miss address
 *          file, 128-entry fully associative round-robin DTB, 8 KB pages),
 *          Table 2-1 (abort penalties: branch mispredict 7, DTB miss 13,
 *          ITB miss 7), Table 2-4 (instruction class latencies: ild 3,
 *          ild Dcache miss 13+ with a 6-cycle Bcache, imul 7, fadd 4,
 *          fmul 4, fdivs/fdivt 12/15)
 *   [mach] ../shared/reference/machines.md
 *   [seed] ../shared/seeds/000 (inums allocated in fours, retired in order)
 * Figures marked (≈) are choices, with the reason beside them.
 */
#include "params.h"

const struct uarch_machine uarch_machine_alpha = {
	.name = "alpha",
	.desc = "Alpha 21264/EV67 (667 MHz, 64 KB L1 I/D, 4 MB Bcache)",
	.core = {
		.ooo = 1,
		.threads = 1,
		.fetch = 4,               /* [mach] */
		.issue = 6,               /* 4 integer + 2 FP [mach] */
		.retire = 8,              /* (≈) sustained retire rate (peak 11) */
		.rob = 80,                /* in-flight window [mach] */
		.iq = 20,                 /* integer queue [mach], [hrm] 2.1.1.6 */
		.fq = 15,                 /* floating-point queue [mach], [hrm] 2.1.1.7 */
		.lq = 32,                 /* [hrm] 2.1.6.1 */
		.sq = 32,                 /* [hrm] 2.1.6.2 */
		.depth = 4,               /* fetch, slot, map, queue before issue (7 stages) */
		.lat = {
			[UARCH_UC_INT] = 1,      /* iadd/ilog [hrm] Table 2-4 */
			[UARCH_UC_SHIFT] = 1,    /* ishf */
			[UARCH_UC_IMUL] = 7,     /* imul */
			[UARCH_UC_IDIV] = 60,    /* (≈) no divide instruction: the library routine */
			[UARCH_UC_BRANCH] = 1,
			[UARCH_UC_LOAD] = 3,     /* ild on a Dcache hit */
			[UARCH_UC_STA] = 1,
			[UARCH_UC_STD] = 1,
			[UARCH_UC_FADD] = 4,     /* fadd */
			[UARCH_UC_FMUL] = 4,     /* fmul */
			[UARCH_UC_FDIV] = 15,    /* fdivt (fdivs 12) */
			[UARCH_UC_FMOV] = 4,     /* cpys and the like are fadd class */
			[UARCH_UC_SIMD] = 3,     /* (≈) MVI byte/word ops, imisc-like */
			[UARCH_UC_SIMD_MUL] = 7, /* (≈) no packed multiply: imul-class work */
			[UARCH_UC_COMPLEX] = 20, /* (≈) PALcode-like sequences */
		},
		.units = {
			[UARCH_UC_INT] = 4,      /* U0 U1 L0 L1 [mach] */
			[UARCH_UC_SHIFT] = 2,    /* upper pipes */
			[UARCH_UC_IMUL] = 1,     /* the multiplier is in U1 */
			[UARCH_UC_IDIV] = 1,
			[UARCH_UC_BRANCH] = 2,
			[UARCH_UC_LOAD] = 2,     /* L0 L1 */
			[UARCH_UC_STA] = 2,
			[UARCH_UC_STD] = 2,
			[UARCH_UC_FADD] = 1,     /* FP add pipe */
			[UARCH_UC_FMUL] = 1,     /* FP multiply pipe */
			[UARCH_UC_FDIV] = 1,     /* the divider hangs off the add pipe */
			[UARCH_UC_FMOV] = 2,
			[UARCH_UC_SIMD] = 2,
			[UARCH_UC_SIMD_MUL] = 1,
			[UARCH_UC_COMPLEX] = 1,
		},
		.occupy = {
			[UARCH_UC_INT] = 1,
			[UARCH_UC_SHIFT] = 1,
			[UARCH_UC_IMUL] = 1,     /* pipelined multiplier */
			[UARCH_UC_IDIV] = 20,    /* (≈) the routine's multiplies and shifts */
			[UARCH_UC_BRANCH] = 1,
			[UARCH_UC_LOAD] = 1,
			[UARCH_UC_STA] = 1,
			[UARCH_UC_STD] = 1,
			[UARCH_UC_FADD] = 1,
			[UARCH_UC_FMUL] = 1,
			[UARCH_UC_FDIV] = 15,    /* the divider is not pipelined */
			[UARCH_UC_FMOV] = 1,
			[UARCH_UC_SIMD] = 1,
			[UARCH_UC_SIMD_MUL] = 1,
			[UARCH_UC_COMPLEX] = 10, /* (≈) */
		},
		.replay = 0,              /* load misses trap and replay as whole aborts instead */
		.mhz = 667,
		.syscall_cycles = 200,    /* (≈) callsys through PALcode, dispatch, return */
		.syscall_lines = 32,      /* (≈) 2 KB of kernel path, as on the other machines */
		.assist = 0,             /* denormals trap to PALcode software, not modelled */
	},
	.bp = {
		/* tournament [mach]: 1024 local histories of 10 bits index 1024
		 * 3-bit counters; 12 bits of global history index 4096 2-bit
		 * counters and 4096 choice counters */
		.kind = UARCH_BP_TOURNAMENT,
		.pht = 4096,
		.ghist = 12,
		.lhist = 1024,
		.lbits = 10,
		.lpht = 1024,
		.choice = 4096,
		.btb = 0,                 /* no BTB: the Icache line predictor supplies next
					   * fetch addresses, modelled as targets known */
		.btb_assoc = 0,
		.ras = 32,                /* (≈) return-address stack */
		.ind = 0,
		.penalty = 7,             /* [hrm] Table 2-1 */
	},
	.cache = {
		/* 64 KB 2-way 64 B [mach]; LRU (≈: two ways, the allocation
		 * pointer of [hrm] 2.6.3 behaves as LRU between them) */
		[UARCH_L1I] = { .size = 65536, .assoc = 2, .line = 64, .sector = 64,
				.repl = UARCH_REPL_LRU, .write = UARCH_WB_ALLOC,
				.latency = 1, .ports = 1 },
		/* 64 KB 2-way 64 B, write-back write-allocate, 3-cycle loads
		 * [mach], [hrm] Table 2-4; two loads per cycle */
		[UARCH_L1D] = { .size = 65536, .assoc = 2, .line = 64, .sector = 64,
				.repl = UARCH_REPL_LRU, .write = UARCH_WB_ALLOC,
				.latency = 3, .ports = 2 },
		/* Bcache: 4 MB direct-mapped [mach]; load-to-use 13 with a
		 * 6-cycle Bcache [hrm] Table 2-4 */
		[UARCH_L2] = { .size = 4u << 20, .assoc = 1, .line = 64, .sector = 64,
			       .repl = UARCH_REPL_LRU, .write = UARCH_WB_ALLOC,
			       .latency = 13, .ports = 1 },
	},
	.tlb = {
		/* 128-entry fully associative, round-robin, 8 KB pages [hrm]
		 * 2.1.6.4, [mach]; walk: the abort ([hrm] Table 2-1: DTB 13,
		 * ITB 7) plus (≈) 20 cycles of PALcode fill routine */
		[UARCH_ITLB] = { .entries = 128, .assoc = 0, .page = 8192, .repl = UARCH_REPL_RR,
				 .walk = 27 },
		[UARCH_DTLB] = { .entries = 128, .assoc = 0, .page = 8192, .repl = UARCH_REPL_RR,
				 .walk = 33 },
	},
	.mem = {
		.mshr = 8,                /* miss address file [hrm] 2.1.6.3 */
		.wbuf = 8,                /* (≈) victim buffer */
		.latency = 100,           /* (≈) 150 ns at 667 MHz */
		.bus_width = 8,           /* 64-bit system data bus */
		.bus_ratio = 4,           /* (≈) system clock a quarter of the core's */
		.pump = 2,                /* (≈) data on both edges */
		.addr_cycles = 2,         /* (≈) */
	},
	.l1i_is_tc = 0,
};
