/* machine_ia64.c — Itanium 2 ("McKinley": 1.0 GHz, 3 MB L3, 400 MT/s
 * bus), timing x86-64 µops as the in-order EPIC core would issue them.
 *
 * Sources, cited below by short name:
 *   [i2rm] Intel Itanium 2 Processor Reference Manual for Software
 *          Development and Optimization (2004): ch. 3 (functional units,
 *          latencies), ch. 6 (memory hierarchy), ch. 7 (branch prediction)
 *   [dc]   Lyon, Delano, McNairy, Mulla, "Data Cache Design Considerations
 *          for the Itanium 2 Processor", ICCD 2002: 16 KB 1-cycle L1D,
 *          256 KB L2, 3 MB L3, four memory ports
 *   [7cpu] 7-cpu.com, Itanium 2: L1D write-through 2 load + 2 store ports;
 *          L2 write-back write-allocate; TLB sizes and the 4 KB L1 TLB
 *          granule; +4 cycles L1-TLB miss/L2-TLB hit, +15 for a VHPT walk
 *   [mach] ../shared/reference/machines.md
 * Figures marked (≈) are choices, with the reason beside them.
 */
#include "params.h"

const struct uarch_machine uarch_machine_ia64 = {
	.name = "ia64",
	.desc = "Itanium 2 (McKinley, 1.0 GHz, 3 MB L3, 400 MT/s)",
	.core = {
		.ooo = 0,
		.threads = 1,
		.fetch = 6,               /* two bundles per cycle [mach] */
		.issue = 6,
		.retire = 6,
		.rob = 24,                /* (≈) the 8-bundle decoupling buffer: what can be in flight */
		.iq = 24,                 /* the same buffer feeds dispersal */
		.lq = 32,                 /* (≈) the L2's 32-entry request queue bounds loads in flight */
		.sq = 32,
		.depth = 5,               /* IPG ROT EXP REN REG before EXE, 8 stages [i2rm] ch. 3 */
		.lat = {
			[UARCH_UC_INT] = 1,      /* ALU [i2rm] ch. 3 */
			[UARCH_UC_SHIFT] = 1,    /* shifts by immediate are I-unit extracts/deposits */
			[UARCH_UC_IMUL] = 15,    /* setf.sig + xma (4) + getf.sig: no integer multiplier */
			[UARCH_UC_IDIV] = 50,    /* (≈) frcpa + Newton-Raphson in the FP unit */
			[UARCH_UC_BRANCH] = 1,
			[UARCH_UC_LOAD] = 1,     /* 1-cycle integer L1D [dc] */
			[UARCH_UC_STA] = 1,
			[UARCH_UC_STD] = 1,
			[UARCH_UC_FADD] = 4,     /* fma pipeline: 4 [i2rm] ch. 3 */
			[UARCH_UC_FMUL] = 4,
			[UARCH_UC_FDIV] = 33,    /* (≈) frcpa and the double-precision refinement sequence */
			[UARCH_UC_FMOV] = 4,     /* (≈) fmerge/fmix ride the FP pipeline */
			[UARCH_UC_SIMD] = 2,     /* (≈) parallel (multimedia) ALU ops */
			[UARCH_UC_SIMD_MUL] = 4, /* (≈) pmpy */
			[UARCH_UC_COMPLEX] = 20, /* (≈) multi-instruction sequences */
		},
		.units = {
			[UARCH_UC_INT] = 6,      /* ALU ops issue to 4 M- and 2 I-units [i2rm] ch. 3 */
			[UARCH_UC_SHIFT] = 2,    /* I-units */
			[UARCH_UC_IMUL] = 2,     /* the two FMACs */
			[UARCH_UC_IDIV] = 2,
			[UARCH_UC_BRANCH] = 3,   /* three B-units */
			[UARCH_UC_LOAD] = 2,     /* 2 load + 2 store ports [dc], [7cpu] */
			[UARCH_UC_STA] = 2,
			[UARCH_UC_STD] = 2,
			[UARCH_UC_FADD] = 2,     /* two FMACs */
			[UARCH_UC_FMUL] = 2,
			[UARCH_UC_FDIV] = 2,
			[UARCH_UC_FMOV] = 2,
			[UARCH_UC_SIMD] = 2,
			[UARCH_UC_SIMD_MUL] = 2,
			[UARCH_UC_COMPLEX] = 1,
		},
		.occupy = {
			[UARCH_UC_INT] = 1,
			[UARCH_UC_SHIFT] = 1,
			[UARCH_UC_IMUL] = 1,
			[UARCH_UC_IDIV] = 6,     /* (≈) the sequence's dozen FP ops over two FMACs */
			[UARCH_UC_BRANCH] = 1,
			[UARCH_UC_LOAD] = 1,
			[UARCH_UC_STA] = 1,
			[UARCH_UC_STD] = 1,
			[UARCH_UC_FADD] = 1,     /* fully pipelined FMACs */
			[UARCH_UC_FMUL] = 1,
			[UARCH_UC_FDIV] = 5,     /* (≈) as for idiv: ten FP ops over two FMACs */
			[UARCH_UC_FMOV] = 1,
			[UARCH_UC_SIMD] = 1,
			[UARCH_UC_SIMD_MUL] = 1,
			[UARCH_UC_COMPLEX] = 10, /* (≈) */
		},
		.replay = 0,
		.mhz = 1000,
		.syscall_cycles = 300,    /* (≈) epc/break entry, register-stack switch, rfi */
		.syscall_lines = 32,      /* (≈) 2 KB of kernel path, as on the other machines */
		.assist = 0,             /* denormals go to the FP software assist handler, not modelled */
	},
	.bp = {
		/* (≈) Itanium 2 predicts with per-address histories in the L1I
		 * and a large second-level branch cache [i2rm] ch. 7; gshare is
		 * the nearest kind here that learns the same periodic patterns */
		.kind = UARCH_BP_GSHARE,
		.pht = 16384,
		.ghist = 14,
		.btb = 4096,              /* (≈) the L2 branch cache's target capacity */
		.btb_assoc = 4,
		.ras = 8,                 /* (≈) return stack */
		.ind = 0,
		.penalty = 6,             /* [mach] */
	},
	.cache = {
		/* 16 KB 4-way 64 B, 1 cycle [mach], [i2rm] ch. 6 */
		[UARCH_L1I] = { .size = 16384, .assoc = 4, .line = 64, .sector = 64,
				.repl = UARCH_REPL_LRU, .write = UARCH_WB_ALLOC,
				.latency = 1, .ports = 1 },
		/* write-through, no write allocate, 2 load + 2 store ports
		 * [7cpu], 1-cycle integer loads [dc]; FP loads bypass it
		 * (the pipeline's business) */
		[UARCH_L1D] = { .size = 16384, .assoc = 4, .line = 64, .sector = 64,
				.repl = UARCH_REPL_LRU, .write = UARCH_WT_NOALLOC,
				.latency = 1, .ports = 4 },
		/* 256 KB 8-way 128 B write-back write-allocate [7cpu], 5 cycles
		 * for integer loads (6 FP) [i2rm] ch. 6; four ports by
		 * banking [dc]; NRU replacement modelled as LRU */
		[UARCH_L2] = { .size = 256u << 10, .assoc = 8, .line = 128, .sector = 128,
			       .repl = UARCH_REPL_LRU, .write = UARCH_WB_ALLOC,
			       .latency = 5, .ports = 4 },
		/* 3 MB 12-way 128 B, 12 cycles on McKinley [mach], [i2rm] ch. 6;
		 * single-ported */
		[UARCH_L3] = { .size = 3u << 20, .assoc = 12, .line = 128, .sector = 128,
			       .repl = UARCH_REPL_LRU, .write = UARCH_WB_ALLOC,
			       .latency = 12, .ports = 1 },
	},
	.tlb = {
		/* 32-entry fully associative L1 TLBs mapping 4 KB granules and
		 * 128-entry L2 TLBs over the kernel's 16 KB pages (Linux/ia64
		 * default) [7cpu], [mach].  As the memory system reads them, an
		 * L2 TLB's walk is what an L1 miss that hits it costs (+4
		 * [7cpu]) and an L1 TLB's walk is the page walker's fixed cost
		 * beside its cache accesses (the VHPT walk: +15 with its L2
		 * access of 5 [7cpu]) */
		[UARCH_ITLB] = { .entries = 32, .assoc = 0, .page = 4096, .repl = UARCH_REPL_LRU,
				 .walk = 10 },
		[UARCH_DTLB] = { .entries = 32, .assoc = 0, .page = 4096, .repl = UARCH_REPL_LRU,
				 .walk = 10 },
		[UARCH_ITLB2] = { .entries = 128, .assoc = 0, .page = 16384, .repl = UARCH_REPL_LRU,
				  .walk = 4 },
		[UARCH_DTLB2] = { .entries = 128, .assoc = 0, .page = 16384, .repl = UARCH_REPL_LRU,
				  .walk = 4 },
	},
	.mem = {
		.mshr = 8,                /* (≈) outstanding L3 requests */
		.wbuf = 8,                /* (≈) */
		.latency = 180,           /* (≈) [mach] 150-200; ≈160 ns measured [7cpu] */
		.bus_width = 16,          /* 128-bit bus [mach] */
		.bus_ratio = 5,           /* 1000 MHz / 200 MHz bus clock */
		.pump = 2,                /* 400 MT/s: double-pumped [mach] */
		/* three bus clocks of address bus per transaction: the HP
		 * Caliper 5.3 User Guide (seed 003), sysbus event set, "Util
		 * Adrs"; the data phase of a 128-byte line is then 128 /
		 * (16 * 2) = 4 bus clocks, its "Util Data" constant */
		.addr_cycles = 3,
	},
	.l1i_is_tc = 0,
};
