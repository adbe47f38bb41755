/* machine_xscale.c — Intel XScale (PXA255 class, 400 MHz, 100 MHz SDRAM),
 * timing x86-64 µops as the single-issue in-order ARM core would run them.
 *
 * Sources, cited below by short name:
 *   [xdm]  Intel XScale Core Developer's Manual (January 2004): ch. 3 (MMU:
 *          32-entry fully associative round-robin TLBs), ch. 4-5
 *          (instruction cache, BTB: 128 entries, direct-mapped, 2-bit
 *          counters), ch. 6 (data cache, mini-data cache, fill/pend/write
 *          buffers), ch. 10 (Table 10-1 branch latency penalty +4;
 *          instruction latencies)
 *   [mach] ../shared/reference/machines.md
 * The XScale has no FPU and no SIMD unit: FP and packed µops cost what the
 * soft-float and library routines they would become cost (≈, see below).
 * Figures marked (≈) are choices, with the reason beside them.
 */
#include "params.h"

const struct uarch_machine uarch_machine_xscale = {
	.name = "xscale",
	.desc = "Intel XScale (PXA255 class, 400 MHz, 32 KB I/D caches, no L2)",
	.core = {
		.ooo = 0,
		.threads = 1,
		.fetch = 1,
		.issue = 1,
		.retire = 1,
		.rob = 8,                 /* (≈) loads may complete under later instructions
					   * until the pend/fill buffers fill [xdm] ch. 6 */
		.iq = 1,
		.lq = 8,                  /* no load queue as such: the window bounds loads in
					   * flight; the 4-entry pend buffer [mach], [xdm] ch. 6,
					   * holds misses only, as mem.mshr does */
		.sq = 8,                  /* 8-entry write buffer [mach] */
		.depth = 3,               /* F1 F2 ID before RF issue: 7-stage pipe [mach] */
		.lat = {
			[UARCH_UC_INT] = 1,      /* data processing, result latency 1 [xdm] ch. 10 */
			[UARCH_UC_SHIFT] = 2,    /* shift by register: 2 [xdm] ch. 10 */
			[UARCH_UC_IMUL] = 4,     /* (≈) UMULL-class 32x32: 3-5 by operand [xdm] ch. 10 */
			[UARCH_UC_IDIV] = 60,    /* (≈) no divider: the library's division loop */
			[UARCH_UC_BRANCH] = 1,   /* predicted: +0 [xdm] Table 10-1 */
			[UARCH_UC_LOAD] = 3,     /* load-use 3 on a D-cache hit [mach] */
			[UARCH_UC_STA] = 1,
			[UARCH_UC_STD] = 1,
			[UARCH_UC_FADD] = 45,    /* (≈) soft-float double add */
			[UARCH_UC_FMUL] = 55,    /* (≈) soft-float double multiply */
			[UARCH_UC_FDIV] = 180,   /* (≈) soft-float double divide */
			[UARCH_UC_FMOV] = 2,     /* a double is a register pair */
			[UARCH_UC_SIMD] = 4,     /* (≈) a 128-bit packed op as four word ops */
			[UARCH_UC_SIMD_MUL] = 8, /* (≈) four multiplies through the MAC */
			[UARCH_UC_COMPLEX] = 30, /* (≈) */
		},
		.units = {
			[UARCH_UC_INT] = 1,  [UARCH_UC_SHIFT] = 1, [UARCH_UC_IMUL] = 1,
			[UARCH_UC_IDIV] = 1, [UARCH_UC_BRANCH] = 1, [UARCH_UC_LOAD] = 1,
			[UARCH_UC_STA] = 1,  [UARCH_UC_STD] = 1,   [UARCH_UC_FADD] = 1,
			[UARCH_UC_FMUL] = 1, [UARCH_UC_FDIV] = 1,  [UARCH_UC_FMOV] = 1,
			[UARCH_UC_SIMD] = 1, [UARCH_UC_SIMD_MUL] = 1, [UARCH_UC_COMPLEX] = 1,
		},
		.occupy = {
			[UARCH_UC_INT] = 1,
			[UARCH_UC_SHIFT] = 1,
			[UARCH_UC_IMUL] = 2,     /* (≈) UMULL issue latency 2 [xdm] ch. 10 */
			[UARCH_UC_IDIV] = 60,    /* routines run on the one pipeline: occupy = latency */
			[UARCH_UC_BRANCH] = 1,
			[UARCH_UC_LOAD] = 1,
			[UARCH_UC_STA] = 1,
			[UARCH_UC_STD] = 1,
			[UARCH_UC_FADD] = 45,
			[UARCH_UC_FMUL] = 55,
			[UARCH_UC_FDIV] = 180,
			[UARCH_UC_FMOV] = 2,
			[UARCH_UC_SIMD] = 4,
			[UARCH_UC_SIMD_MUL] = 8,
			[UARCH_UC_COMPLEX] = 30,
		},
		.replay = 0,
		.mhz = 400,
		.syscall_cycles = 300,    /* (≈) swi entry, dispatch, return on ARM Linux */
		.syscall_lines = 64,      /* (≈) 2 KB of kernel path in 32-byte lines */
		.assist = 0,             /* no FP hardware: software does it all */
	},
	.bp = {
		/* the BTB is the predictor: 128 direct-mapped entries, each
		 * with a 2-bit counter [xdm] ch. 5 */
		.kind = UARCH_BP_BIMODAL,
		.pht = 128,
		.btb = 128,
		.btb_assoc = 1,
		.ras = 0,                 /* no return stack: returns are not predicted [xdm] ch. 10 */
		.ind = 0,
		.penalty = 4,             /* [xdm] Table 10-1 (ARM) */
	},
	.cache = {
		/* 32 KB 32-way 32 B, round-robin [mach], [xdm] ch. 4 */
		[UARCH_L1I] = { .size = 32768, .assoc = 32, .line = 32, .sector = 32,
				.repl = UARCH_REPL_RR, .write = UARCH_WB_ALLOC,
				.latency = 1, .ports = 1 },
		/* 32 KB 32-way 32 B, round-robin, write-back [mach], [xdm] ch.
		 * 6; read-allocate, the default page attribute (≈: write
		 * allocation is a per-page option) */
		[UARCH_L1D] = { .size = 32768, .assoc = 32, .line = 32, .sector = 32,
				.repl = UARCH_REPL_RR, .write = UARCH_WB_NOALLOC,
				.latency = 3, .ports = 1 },
		/* mini-data cache: 2 KB 2-way 32 B [mach], [xdm] ch. 6; LRU (≈:
		 * with two ways the policies differ only in which way goes) */
		[UARCH_MINI] = { .size = 2048, .assoc = 2, .line = 32, .sector = 32,
				 .repl = UARCH_REPL_LRU, .write = UARCH_WB_NOALLOC,
				 .latency = 3, .ports = 1 },
	},
	.tlb = {
		/* 32-entry fully associative, round-robin [mach], [xdm] ch. 3;
		 * 4 KB small pages as Linux maps them; walk (≈): the table
		 * walk's fixed cost beside its two descriptor fetches */
		[UARCH_ITLB] = { .entries = 32, .assoc = 0, .page = 4096, .repl = UARCH_REPL_RR,
				 .walk = 4 },
		[UARCH_DTLB] = { .entries = 32, .assoc = 0, .page = 4096, .repl = UARCH_REPL_RR,
				 .walk = 4 },
	},
	.mem = {
		.mshr = 4,                /* 4-entry fill buffer [mach] */
		.wbuf = 8,                /* 8-entry write buffer [mach] */
		.wbuf_line = 16,          /* 16 bytes an entry; a store coalesces with any
					   * entry [xdm] 6.1.3 */
		.latency = 75,            /* (≈) middle of [mach]'s 50-100 core cycles */
		.bus_width = 4,           /* 32-bit SDRAM interface */
		.bus_ratio = 4,           /* 400 MHz core / 100 MHz memory clock */
		.pump = 1,
		.addr_cycles = 2,         /* (≈) row/column command cycles */
	},
	.l1i_is_tc = 0,
};
