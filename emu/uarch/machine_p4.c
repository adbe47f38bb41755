/* machine_p4.c — Pentium 4 Xeon with Hyper-Threading, the processor whose
 * CPUID the emulator reports (emu/x86/cpuid.c): a 90 nm "Irwindale" Xeon,
 * family 15 model 4, 3.60 GHz, 2 MB L2, 800 MT/s bus.  Where Northwood
 * (model 2) and Prescott-core (models 3/4) differ, this is the latter.
 *
 * Sources, cited below by short name:
 *   [opt]  IA-32 Intel Architecture Optimization Reference Manual (2004-2006,
 *          248966): ch. 1 (Table 1-1 cache parameters, loads and stores,
 *          Hyper-Threading resources), appendix C (latency/throughput,
 *          column CPUID 0F_3H, which covers models 3 and 4)
 *   [cpuid] what emu/x86/cpuid.c reports: leaf 2 descriptors 50h (ITLB 64),
 *          5Bh (DTLB 64), 60h (L1D 16 KB 8-way 64 B), 70h (trace cache
 *          12K µops 8-way), 7Dh (L2 2 MB 8-way); leaf 4: L2 lines of
 *          2 partitions x 64 B
 *   [seed] ../shared/seeds/004 (dependent FP adds: latency 5, one issued
 *          per cycle)
 *   [mach] ../shared/reference/machines.md
 *   [sdm1] Intel 64 and IA-32 SDM vol. 1, 2.2 (NetBurst: 126 µops in
 *          flight, 48 loads, 24+ stores, 4K-entry branch target array)
 *   [xt]   ExtremeTech, "More to Prescott than meets the eye" (2004):
 *          32 store buffers, 8 write-combining buffers, 8 outstanding L1
 *          load misses, 31-stage pipeline vs Northwood's 20
 *   [itj]  Hinton et al., "The Microarchitecture of the Pentium 4
 *          Processor", Intel Technology Journal, Q1 2001 (trace cache)
 *   [sdm3] Intel 64 and IA-32 SDM vol. 3A, 10.3.1 (the WC buffer of the
 *          Pentium 4 and Xeon: several 64-byte buffers), 11.5.6 (L1 data
 *          cache context modes, adaptive and shared)
 *   [atc]  Intel Pentium 4 processor datasheets, "Advanced Transfer Cache":
 *          the L2's 256-bit (32-byte) interface moves data each core clock
 *   [kml]  Linux Journal 6516 ("Kernel Mode Linux", 2003), table 2:
 *          getpid through sysenter, 432 cycles
 * Figures marked (≈) are choices, with the reason beside them.
 */
#include "params.h"

const struct uarch_machine uarch_machine_p4 = {
	.name = "p4",
	.desc = "Pentium 4 Xeon with Hyper-Threading (Irwindale, 3.6 GHz, 2 MB L2, 800 MT/s)",
	.core = {
		.ooo = 1,
		.threads = 2,     /* [mach], [opt] ch. 1 Hyper-Threading */
		.fetch = 3,       /* trace cache delivers 3 µops/cycle [mach] */
		.issue = 6,       /* dispatch ports: 2 double-speed ALUs, FP, load, store [opt] ch. 1 */
		.retire = 3,      /* [mach] */
		.rob = 126,       /* [sdm1], [mach] */
		.iq = 48,         /* (≈) the schedulers together; per-queue sizes unpublished */
		.lq = 48,         /* load buffers [opt] ch. 1, [sdm1] */
		.sq = 32,         /* store buffers on the 90 nm core [xt] ("more than 24" [opt]) */
		.depth = 19,      /* (≈) Northwood's 20 stages put first dispatch near stage 12;
				   * scaled to Prescott's 31 stages [xt] */
		.lat = {
			[UARCH_UC_INT] = 1,      /* ADD/MOV 0F_3H: 1 (½ only on 0F_2H) [opt] app. C */
			[UARCH_UC_SHIFT] = 1,    /* SHL/SAR 0F_3H: 1 (4 on 0F_2H) [opt] app. C */
			[UARCH_UC_IMUL] = 10,    /* IMUL r32 0F_3H: 10 (14 on 0F_2H) [opt] app. C */
			[UARCH_UC_IDIV] = 80,    /* IDIV 0F_3H: 66-80 [opt] app. C; the top for 64-bit */
			[UARCH_UC_BRANCH] = 1,
			[UARCH_UC_LOAD] = 4,     /* L1D load-to-use, model 3: 4 int / 12 FP [opt] Table 1-1 */
			[UARCH_UC_STA] = 1,
			[UARCH_UC_STD] = 1,
			[UARCH_UC_FADD] = 5,     /* [seed]; ADDSD 0F_3H: 5 [opt] app. C */
			[UARCH_UC_FMUL] = 7,     /* MULSD 0F_3H: 7 [opt] app. C, [mach] */
			[UARCH_UC_FDIV] = 40,    /* DIVSD 0F_3H: 40 [opt] app. C */
			[UARCH_UC_FMOV] = 6,     /* MOVAPS xmm,xmm: 6 [opt] app. C */
			[UARCH_UC_SIMD] = 2,     /* PADDD xmm: 2 [opt] app. C */
			[UARCH_UC_SIMD_MUL] = 8, /* PMULLW xmm: 8 [opt] app. C */
			[UARCH_UC_COMPLEX] = 20, /* (≈) microcode-ROM sequences; real ones vary widely */
		},
		.units = {
			[UARCH_UC_INT] = 4,      /* two double-speed ALUs, two µops each per cycle [opt] ch. 1 */
			[UARCH_UC_SHIFT] = 1,
			[UARCH_UC_IMUL] = 1,     /* the 90 nm core's dedicated multiplier [xt] */
			[UARCH_UC_IDIV] = 1,
			[UARCH_UC_BRANCH] = 1,
			[UARCH_UC_LOAD] = 1,     /* one load and one store per cycle [opt] ch. 1 */
			[UARCH_UC_STA] = 1,
			[UARCH_UC_STD] = 1,
			[UARCH_UC_FADD] = 1,
			[UARCH_UC_FMUL] = 1,
			[UARCH_UC_FDIV] = 1,
			[UARCH_UC_FMOV] = 1,
			[UARCH_UC_SIMD] = 1,
			[UARCH_UC_SIMD_MUL] = 1,
			[UARCH_UC_COMPLEX] = 1,
		},
		.occupy = {
			[UARCH_UC_INT] = 1,
			[UARCH_UC_SHIFT] = 1,
			[UARCH_UC_IMUL] = 1,     /* IMUL 0F_3H throughput 1 [opt] app. C */
			[UARCH_UC_IDIV] = 30,    /* IDIV 0F_3H throughput 30 [opt] app. C */
			[UARCH_UC_BRANCH] = 1,
			[UARCH_UC_LOAD] = 1,
			[UARCH_UC_STA] = 1,
			[UARCH_UC_STD] = 1,
			[UARCH_UC_FADD] = 1,     /* "can start a new FP add every cycle" [seed] */
			[UARCH_UC_FMUL] = 2,     /* MULSD throughput 2 [opt] app. C */
			[UARCH_UC_FDIV] = 40,    /* DIVSD throughput 40: not pipelined [opt] app. C */
			[UARCH_UC_FMOV] = 1,
			[UARCH_UC_SIMD] = 1,
			[UARCH_UC_SIMD_MUL] = 2, /* PMULLW xmm throughput 2 [opt] app. C */
			[UARCH_UC_COMPLEX] = 20, /* (≈) the microcode sequencer serialises */
		},
		.replay = 1,              /* loads scheduled as hits, dependents replayed [mach] */
		.fwd_start = 1,           /* "the linear address of the load must be the same as
					   * that of the store" [opt] ch. 1 "Store Forwarding";
					   * a 128-bit forward 16-byte aligned, ch. 2 Figure 2-2 */
		.mhz = 3600,              /* brand string "Xeon(TM) CPU 3.60GHz" [cpuid] */
		.syscall_cycles = 450,    /* (≈) a null syscall, from [kml]'s 432 */
		.syscall_lines = 32,      /* (≈) 2 KB of kernel entry, dispatch and exit code/data */
		.assist = 150,            /* (≈) no published figure: [opt] ch. 2 calls x87 special
					   * cases and SSE denormals without DAZ/FTZ costly (masked
					   * SSE overflow free); microcode routines "might be
					   * hundreds of instructions long" (VTune's help) */
	},
	.bp = {
		/* (≈) NetBurst's direction predictor is an undisclosed
		 * global-history scheme; gshare over 4K counters is the nearest
		 * kind here, sized like the 4K-entry branch target array [sdm1] */
		.kind = UARCH_BP_GSHARE,
		.pht = 4096,
		.ghist = 12,
		.btb = 4096,              /* [sdm1], [mach] */
		.btb_assoc = 4,           /* (≈) associativity unpublished */
		.ras = 16,                /* [mach]; replicated per logical processor [opt] ch. 1 */
		.ind = 256,               /* (≈) the 90 nm core added an indirect predictor
					   * (Pentium M's); its size is unpublished */
		.penalty = 31,            /* (≈) one refill of Prescott's 31 stages [xt]
					   * (Northwood: 20 stages, 20 cycles) */
	},
	.cache = {
		/* the trace cache: 12K µops, 8-way [cpuid] 70h.  The model
		 * looks it up by instruction address, so it is a cache of
		 * 12288 code bytes: inside the 8-16 KB of conventional I-cache
		 * whose hit rate Intel equated with it [itj]; 64-byte lines,
		 * the granule the front end fetches from L2 (≈) */
		[UARCH_L1I] = { .size = 12288, .assoc = 8, .line = 64, .sector = 64,
				.repl = UARCH_REPL_LRU, .write = UARCH_WB_ALLOC,
				.latency = 1, .ports = 1 },
		/* [cpuid] 60h, [opt] Table 1-1 model 3: write-through, 4 cycles;
		 * pseudo-LRU [opt] ch. 1, modelled as LRU; no allocation on a
		 * store miss (≈: stores go on to L2 through the write path);
		 * one load and one store port [opt] ch. 1.  Lines alike in
		 * address bits 21:6 cannot both be present ([opt] ch. 2
		 * "Aliasing Cases": the "data conflict" of model 3; model 4 is
		 * taken to be the same core, ≈); two programs on the two
		 * logical processors never alias in adaptive mode, the default
		 * context mode [sdm3] 11.5.6 */
		[UARCH_L1D] = { .size = 16384, .assoc = 8, .line = 64, .sector = 64,
				.repl = UARCH_REPL_LRU, .write = UARCH_WT_NOALLOC,
				.alias = 22, .context = UARCH_CTX_ADAPTIVE, .latency = 4,
				.ports = 2 },
		/* [cpuid] 7Dh and leaf 4 (128-byte lines of two 64-byte
		 * sectors), [opt] Table 1-1: 2 MB, 20 cycles, write-back; the
		 * levels are not inclusive [opt] ch. 1; 32 bytes a cycle [atc],
		 * so a 64-byte L1 line holds it two */
		[UARCH_L2] = { .size = 2u << 20, .assoc = 8, .line = 128, .sector = 64,
			       .repl = UARCH_REPL_LRU, .write = UARCH_WB_ALLOC,
			       .latency = 20, .ports = 1, .width = 32 },
		/* no L3: [cpuid] 40h */
	},
	.tlb = {
		/* [cpuid] 50h/5Bh: 64 entries each (the ITLB is replicated per
		 * logical processor [opt] ch. 1, which makes the 128 of [mach]);
		 * fully associative (≈) [mach]; walk (≈): the page walker's
		 * fixed cost beside its four cache accesses */
		[UARCH_ITLB] = { .entries = 64, .assoc = 0, .page = 4096, .repl = UARCH_REPL_LRU,
				 .walk = 10 },
		[UARCH_DTLB] = { .entries = 64, .assoc = 0, .page = 4096, .repl = UARCH_REPL_LRU,
				 .walk = 10 },
	},
	.mem = {
		.mshr = 8,                /* 8 outstanding L1 load misses on the 90 nm core [xt] */
		.wbuf = 8,                /* 8 write-combining buffers [xt] */
		.wbuf_line = 64,          /* 64 bytes each [sdm3]; (≈) the write-through
					   * stores to L2 combine in them too */
		.latency = 360,           /* (≈) 100 ns: [mach]'s ≈300 cycles at 3 GHz, at 3.6 GHz */
		.bus_width = 8,           /* 64-bit data bus [mach] */
		.bus_ratio = 18,          /* 3600 MHz core / 200 MHz bus clock (800 MT/s) */
		.pump = 4,                /* quad-pumped data [opt] ch. 1 */
		.addr_cycles = 2,         /* (≈) request phase of two sub-phases */
		/* the hardware data prefetcher: 8 streams [opt] ch. 2 "Software
		 * and Hardware Cache Line Fetching"; two L2 lines (256 bytes)
		 * ahead [opt] ch. 6 "Hardware Prefetch"; (≈) started by two
		 * misses within 256 bytes (ch. 1: a threshold that depends on
		 * the implementation, Table 1-2; at least twice the 64 bytes
		 * between the misses of a sequential stream) */
		.pf_streams = 8,
		.pf_trigger = 256,
		.pf_ahead = 256,
		/* a read that misses L2 fetches both 64-byte halves of the
		 * 128-byte line, the other as an adjacent-line prefetch [opt]
		 * ch. 1, Table 1-1 note 1 and "Data Prefetch" */
		.pf_adjacent = 1,
	},
	.l1i_is_tc = 1,
};
