/* test_uarch_model.c — the pipeline model on hand-made instruction
 * streams with answers that follow from the p4 parameters: a dependent
 * chain costs its latency per link, independent work its unit throughput,
 * loads hitting L1 their load-to-use latency, retirement its width, a
 * syscall its kernel cycles, and a mispredicted branch its penalty. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emu/uarch/model.h"

struct rig {
	struct uarch_machine m;
	struct uarch_counts cnt;
	struct uarch *u;
};

/* A rig for p4, its parameters still to change: rig_start() builds the
 * model. */
static struct rig *rig_alloc(void)
{
	struct rig *r = calloc(1, sizeof(*r));
	assert_non_null(r);
	r->m = *uarch_machine_find("p4");
	return r;
}

static void rig_start(struct rig *r)
{
	r->u = uarch_new(&r->m, &r->cnt, 1);
	assert_non_null(r->u);
}

static struct rig *rig_new(void)
{
	struct rig *r = rig_alloc();
	rig_start(r);
	return r;
}

static void rig_free(struct rig *r)
{
	uarch_free(r->u);
	free(r);
}

static uint64_t ev(struct rig *r, unsigned e, int kernel)
{
	uarch_flush(r->u);
	return r->cnt.n[e][0][kernel];
}

static void decode(const uint8_t *bytes, size_t n, uint64_t pc, struct x86_insn *i)
{
	assert_int_equal(x86_decode_one(pc, bytes, n, i), (int)n);
}

/* Retire insn on logical processor th with its memory access of size
 * bytes at addr. */
static void run_access(struct rig *r, int th, const struct x86_insn *i, uint64_t addr,
		       uint32_t size)
{
	struct x86_trace t = { .i = i, .next = i->pc + i->len };
	if (i->mact) {
		t.nmem = 1;
		t.addr[0] = addr;
		t.size[0] = size;
		t.load = i->mact & 1;
		t.store = (uint8_t)(i->mact >> 1);
	}
	uarch_retire(r->u, th, &t);
}

/* The same, an access of 8 bytes. */
static void run_on(struct rig *r, int th, const struct x86_insn *i, uint64_t addr)
{
	run_access(r, th, i, addr, 8);
}

/* Retire insn k times on processor 0. */
static void run(struct rig *r, const struct x86_insn *i, int k, uint64_t addr)
{
	for (int n = 0; n < k; n++)
		run_on(r, 0, i, addr);
}

static void test_dependent_fp_adds(void **s)
{
	static const uint8_t addsd[] = { 0xf2, 0x0f, 0x58, 0xc1 }; /* addsd %xmm1, %xmm0 */
	struct rig *r = rig_new();
	struct x86_insn i;
	uint64_t c0, c1;
	(void)s;
	decode(addsd, sizeof(addsd), 0x1000, &i);
	run(r, &i, 100, 0);
	c0 = ev(r, UARCH_EV_CYCLES, 0);
	run(r, &i, 1000, 0);
	c1 = ev(r, UARCH_EV_CYCLES, 0);
	assert_int_equal(c1 - c0, 1000 * r->m.core.lat[UARCH_UC_FADD]);
	rig_free(r);
}

static void test_independent_fp_adds(void **s)
{
	/* addsd %xmm0, %xmmN for N = 1..7: no add waits for another */
	struct rig *r = rig_new();
	struct x86_insn i[7];
	uint64_t c0, c1;
	(void)s;
	for (int k = 0; k < 7; k++) {
		uint8_t b[] = { 0xf2, 0x0f, 0x58, (uint8_t)(0xc0 | (k + 1) << 3) };
		decode(b, sizeof(b), 0x2000 + 4 * (uint64_t)k, &i[k]);
	}
	for (int n = 0; n < 100; n++)
		run(r, &i[n % 7], 1, 0);
	c0 = ev(r, UARCH_EV_CYCLES, 0);
	for (int n = 0; n < 7000; n++)
		run(r, &i[n % 7], 1, 0);
	c1 = ev(r, UARCH_EV_CYCLES, 0);
	/* one adder, pipelined: one add per cycle */
	assert_in_range(c1 - c0, 6990, 7010);
	rig_free(r);
}

static void test_pointer_chase_l1(void **s)
{
	static const uint8_t mov[] = { 0x48, 0x8b, 0x00 }; /* mov (%rax), %rax */
	struct rig *r = rig_new();
	struct x86_insn i;
	uint64_t c0, c1;
	(void)s;
	decode(mov, sizeof(mov), 0x3000, &i);
	run(r, &i, 100, 0x500000); /* the first access misses; the rest hit */
	c0 = ev(r, UARCH_EV_CYCLES, 0);
	run(r, &i, 1000, 0x500000);
	c1 = ev(r, UARCH_EV_CYCLES, 0);
	assert_int_equal(c1 - c0, 1000 * r->m.cache[UARCH_L1D].latency);
	assert_int_equal(ev(r, UARCH_EV_LOADS, 0), 1100);
	assert_int_equal(ev(r, UARCH_EV_L1D_LD_MISS, 0), 1);
	rig_free(r);
}

static void test_retire_width(void **s)
{
	static const uint8_t nop[] = { 0x90 };
	struct rig *r = rig_new();
	struct x86_insn i;
	uint64_t c0, c1;
	(void)s;
	decode(nop, 1, 0x4000, &i);
	run(r, &i, 300, 0);
	c0 = ev(r, UARCH_EV_CYCLES, 0);
	run(r, &i, 3000, 0);
	c1 = ev(r, UARCH_EV_CYCLES, 0);
	/* fetch and retire both move 3 per cycle on p4 */
	assert_int_equal(c1 - c0, 3000 / r->m.core.retire);
	assert_int_equal(ev(r, UARCH_EV_INSNS, 0), 3300);
	rig_free(r);
}

/* lea and leave are simple integer work, not microcode: 3000 independent
 * leas on p4 go at the retire width, as nops do (with lea taken for a
 * microcoded instruction they would hold the complex unit 20 cycles
 * each). */
static void test_lea_is_integer_work(void **s)
{
	static const uint8_t lea[] = { 0x48, 0x8d, 0x43, 0x08 }; /* lea 8(%rbx), %rax */
	static const uint8_t leave[] = { 0xc9 };
	struct rig *r = rig_new();
	struct x86_insn i, j;
	uint64_t c0, c1;
	(void)s;
	decode(lea, sizeof(lea), 0x4000, &i);
	decode(leave, sizeof(leave), 0x4100, &j);
	assert_int_equal(i.xclass, X86_XC_INT);
	assert_int_equal(j.xclass, X86_XC_INT);
	run(r, &i, 300, 0);
	c0 = ev(r, UARCH_EV_CYCLES, 0);
	run(r, &i, 3000, 0);
	c1 = ev(r, UARCH_EV_CYCLES, 0);
	assert_true(c1 - c0 <= (uint64_t)(3000 / r->m.core.retire + 10));
	rig_free(r);
}

/* The decoder's X86_I_GPR, which lets a mispredicted path evaluate
 * register arithmetic on a copy of the registers. */
static void test_gpr_only_flag(void **s)
{
	static const struct {
		uint8_t b[6], n, gpr;
	} t[] = {
		{ { 0x48, 0x01, 0xd8 }, 3, 1 },		    /* add %rbx, %rax */
		{ { 0x48, 0xc1, 0xe0, 0x03 }, 4, 1 },	    /* shl $3, %rax */
		{ { 0x48, 0x03, 0x03 }, 3, 0 },		    /* add (%rbx), %rax */
		{ { 0x48, 0x8d, 0x43, 0x08 }, 4, 0 },	    /* lea 8(%rbx), %rax */
		{ { 0x50 }, 1, 0 },			    /* push %rax */
		{ { 0x66, 0x48, 0x0f, 0x6e, 0xc0 }, 5, 0 }, /* movq %rax, %xmm0 */
		{ { 0xf0, 0x48, 0x01, 0x18 }, 4, 0 },	    /* lock add %rbx, (%rax) */
	};
	(void)s;
	for (unsigned k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		struct x86_insn i;
		decode(t[k].b, t[k].n, 0x4000, &i);
		assert_int_equal(!!(i.flags & X86_I_GPR), t[k].gpr);
	}
}

static void test_syscall_is_kernel_time(void **s)
{
	static const uint8_t nop[] = { 0x90 };
	struct rig *r = rig_new();
	struct x86_insn i;
	uint64_t k0;
	(void)s;
	decode(nop, 1, 0x5000, &i);
	run(r, &i, 10, 0);
	k0 = ev(r, UARCH_EV_CYCLES, 1);
	assert_int_equal(k0, 0);
	uarch_syscall(r->u, 0, 1, NULL);
	assert_true(ev(r, UARCH_EV_CYCLES, 1) >= r->m.core.syscall_cycles);
	assert_int_equal(ev(r, UARCH_EV_SYSCALLS, 1), 1);
	/* I/O moved by a syscall shows as bus transactions, one per line */
	uarch_syscall(r->u, 0, 0, &(struct uarch_io){ 0, 4096, 0 });
	assert_int_equal(ev(r, UARCH_EV_BUS_IO, 1), 4096 / r->m.cache[UARCH_L2].line);
	/* read in: the agent writes memory */
	assert_int_equal(ev(r, UARCH_EV_BUS_IO_WR, 1), 4096 / r->m.cache[UARCH_L2].line);
	assert_int_equal(ev(r, UARCH_EV_BUS_IO_RD, 1), 0);
	assert_int_equal(ev(r, UARCH_EV_BUS_IMPLICIT_WB, 1), 0);
	rig_free(r);
}

/* An I/O agent's line crosses the bus after the system call asks for it:
 * with memory answering at once (latency 1), a load that misses right
 * after the call waits for that line's transfer (72 cycles) and then its
 * own sector's (36) — with the agent's line taken as done at the request,
 * it waited for its own only. */
static void test_io_line_crosses_after_request(void **s)
{
	static const uint8_t ld[] = { 0x48, 0x8b, 0x08 }; /* mov (%rax), %rcx */
	struct rig *r = rig_alloc();
	struct x86_insn j;
	uint64_t lat;
	(void)s;
	r->m.mem.latency = 1;
	rig_start(r);
	decode(ld, sizeof(ld), 0x3000, &j);
	run(r, &j, 1, 0x600000); /* (the fetch, the translation, a first miss) */
	run(r, &j, 2000, 0x600000);
	uarch_syscall(r->u, 0, 0, &(struct uarch_io){ 0, r->m.cache[UARCH_L2].line, 0 });
	lat = ev(r, UARCH_EV_MEM_READ_LAT, 0);
	run(r, &j, 1, 0x600800); /* the same page, another line */
	lat = ev(r, UARCH_EV_MEM_READ_LAT, 0) - lat;
	assert_int_equal(ev(r, UARCH_EV_BUS_IO, 1), 1);
	assert_true(lat > 36);
	/* the agent's write was outstanding while its line crossed */
	assert_int_equal(ev(r, UARCH_EV_MEM_IO_WR_LAT, 1), 72);
	assert_int_equal(ev(r, UARCH_EV_MEM_IO_RD_LAT, 1), 0);
	rig_free(r);
}

/* An I/O agent's snoop of a modified line: the line is supplied on the
 * bus (an implicit write-back) once; written out it stays, clean, read into
 * it is dropped. */
static void test_io_snoops_modified_lines(void **s)
{
	static const uint8_t st[] = { 0x48, 0x89, 0x00 }; /* mov %rax, (%rax) */
	static const uint8_t ld[] = { 0x48, 0x8b, 0x00 }; /* mov (%rax), %rax */
	struct rig *r = rig_new();
	struct x86_insn i, j;
	unsigned line = r->m.cache[UARCH_L2].line;
	uint64_t miss;
	(void)s;
	decode(st, sizeof(st), 0x3000, &i);
	decode(ld, sizeof(ld), 0x3010, &j); /* fetched from the same line */
	run(r, &i, 1, 0x500000);	    /* one modified line */
	uint64_t own = ev(r, UARCH_EV_BUS_DATA_OWN, 0), data = ev(r, UARCH_EV_BUS_DATA_CYCLES, 0);
	assert_true(own > 0); /* the fetch's and the store's line fills */
	assert_int_equal(own, data);
	uarch_syscall(r->u, 0, 1, &(struct uarch_io){ 0x500000, 2 * line, 1 });
	assert_int_equal(ev(r, UARCH_EV_BUS_IO, 1), 2);
	assert_int_equal(ev(r, UARCH_EV_BUS_IO_RD, 1), 2); /* written out: the agent reads */
	assert_int_equal(ev(r, UARCH_EV_BUS_IO_WR, 1), 0);
	assert_int_equal(ev(r, UARCH_EV_BUS_IMPLICIT_WB, 1), 1);
	/* the agent's two lines carry data this processor does not sample,
	 * the modified one it supplies data it drives (a line each: 128
	 * bytes, 4 bus clocks over 8 bytes quad-pumped) */
	assert_int_equal(ev(r, UARCH_EV_BUS_DATA_OTHER, 1), 2 * 4);
	assert_int_equal(ev(r, UARCH_EV_BUS_DATA_DRV, 1), 4);
	/* (beside the kernel's own lines the call read) */
	assert_int_equal(ev(r, UARCH_EV_BUS_DATA_CYCLES, 1),
			 ev(r, UARCH_EV_BUS_DATA_OTHER, 1) + ev(r, UARCH_EV_BUS_DATA_DRV, 1) +
				 ev(r, UARCH_EV_BUS_DATA_OWN, 1));
	assert_int_equal(ev(r, UARCH_EV_BUS_DATA_OWN, 0), own);
	uarch_syscall(r->u, 0, 1, &(struct uarch_io){ 0x500000, 8, 1 });
	assert_int_equal(ev(r, UARCH_EV_BUS_IMPLICIT_WB, 1), 1); /* clean now */
	/* (L1D is write-through, no-allocate on a store: the line is in L2) */
	miss = ev(r, UARCH_EV_L2_MISS, 0);
	run(r, &j, 1, 0x500000); /* still cached */
	assert_int_equal(ev(r, UARCH_EV_L2_MISS, 0), miss);
	run(r, &i, 1, 0x500000);
	uarch_syscall(r->u, 0, 0, &(struct uarch_io){ 0x500000, 8, 0 });
	assert_int_equal(ev(r, UARCH_EV_BUS_IMPLICIT_WB, 1), 2);
	run(r, &j, 1, 0x500040); /* invalidated by the agent's write, both levels */
	assert_int_equal(ev(r, UARCH_EV_L2_MISS, 0), miss + 1);
	rig_free(r);
}

/* An I/O agent's write into memory drops the line from every level, each
 * level all of its own lines inside it (p4: both 64-byte L1 lines of a
 * 128-byte L2 line), and the load after it misses, even of the line the
 * last load touched. */
static void test_io_read_drops_every_l1_line(void **s)
{
	static const uint8_t ld[] = { 0x48, 0x8b, 0x00 }; /* mov (%rax), %rax */
	struct rig *r = rig_alloc();
	struct x86_insn j;
	uint64_t miss;
	(void)s;
	r->m.core.syscall_lines = 0; /* no kernel loads between the snoop and the next */
	rig_start(r);
	decode(ld, sizeof(ld), 0x3000, &j);
	run(r, &j, 1, 0x600000);
	run(r, &j, 1, 0x600040);
	miss = ev(r, UARCH_EV_L1D_LD_MISS, 0);
	run(r, &j, 1, 0x600000);
	run(r, &j, 1, 0x600040);
	assert_int_equal(ev(r, UARCH_EV_L1D_LD_MISS, 0), miss); /* both present */
	uarch_syscall(r->u, 0, 0, &(struct uarch_io){ 0x600000, 8, 0 });
	run(r, &j, 1, 0x600040); /* the second L1 line, the last one loaded */
	assert_int_equal(ev(r, UARCH_EV_L1D_LD_MISS, 0), miss + 1);
	run(r, &j, 1, 0x600000);
	assert_int_equal(ev(r, UARCH_EV_L1D_LD_MISS, 0), miss + 2);
	uarch_syscall(r->u, 0, 0, &(struct uarch_io){ 0x600000, 8, 0 });
	run(r, &j, 1, 0x600000); /* the line loaded last, dropped */
	assert_int_equal(ev(r, UARCH_EV_L1D_LD_MISS, 0), miss + 3);
	rig_free(r);
}

/* A line an inclusive L2 replaces leaves L1 too; a non-inclusive L2
 * leaves L1 alone. */
static void test_inclusive_l2_back_invalidates(void **s)
{
	static const uint8_t ld[] = { 0x48, 0x8b, 0x00 }; /* mov (%rax), %rax */
	uint64_t miss[2];
	(void)s;
	for (int k = 0; k < 2; k++) {
		struct rig *r = rig_alloc();
		struct x86_insn j;
		uint64_t a = 0x800000, b = a + (2u << 20); /* one set of a direct-mapped 2 MB L2 */
		r->m.cache[UARCH_L2].size = 2u << 20;
		r->m.cache[UARCH_L2].assoc = 1;
		r->m.cache[UARCH_L2].inclusive = (uint8_t)k;
		rig_start(r);
		decode(ld, sizeof(ld), 0x3000, &j);
		run(r, &j, 1, a);
		run(r, &j, 1, b); /* replaces a's line in L2; L1 holds both */
		miss[k] = ev(r, UARCH_EV_L1D_LD_MISS, 0);
		run(r, &j, 1, a);
		miss[k] = ev(r, UARCH_EV_L1D_LD_MISS, 0) - miss[k];
		rig_free(r);
	}
	assert_int_equal(miss[0], 0);
	assert_int_equal(miss[1], 1);
}

/* A sectored L1D hits or misses by sector: the other half of a line of two
 * sectors misses after the first was loaded, then both hit. */
static void test_sectored_l1d(void **s)
{
	static const uint8_t ld[] = { 0x48, 0x8b, 0x00 }; /* mov (%rax), %rax */
	struct rig *r = rig_alloc();
	struct x86_insn j;
	uint64_t miss;
	(void)s;
	r->m.cache[UARCH_L1D].sector = r->m.cache[UARCH_L1D].line / 2;
	rig_start(r);
	decode(ld, sizeof(ld), 0x3000, &j);
	miss = ev(r, UARCH_EV_L1D_LD_MISS, 0);
	run(r, &j, 1, 0x700000);
	run(r, &j, 1, 0x700000 + r->m.cache[UARCH_L1D].sector);
	assert_int_equal(ev(r, UARCH_EV_L1D_LD_MISS, 0), miss + 2);
	run(r, &j, 1, 0x700000);
	run(r, &j, 1, 0x700000 + r->m.cache[UARCH_L1D].sector);
	assert_int_equal(ev(r, UARCH_EV_L1D_LD_MISS, 0), miss + 2);
	rig_free(r);
}

static unsigned r_mem_latency(void)
{
	return uarch_machine_find("p4")->mem.latency;
}

/* p4 with core.lq = lq and core.sq = sq. */
static struct rig *rig_queues(unsigned lq, unsigned sq)
{
	struct rig *r = rig_alloc();
	r->m.core.lq = (uint16_t)lq;
	r->m.core.sq = (uint16_t)sq;
	rig_start(r);
	return r;
}

/* Loads hold a load-queue entry until they retire: independent loads that
 * miss to memory overlap, except that with one entry each waits for the
 * one before it to retire. */
static void test_load_queue_bounds_loads_in_flight(void **s)
{
	static const uint8_t ld[] = { 0x48, 0x8b, 0x08 }; /* mov (%rax), %rcx */
	uint64_t cyc[2];
	(void)s;
	for (int k = 0; k < 2; k++) {
		struct rig *r = rig_queues(k ? 1 : 48, 32);
		struct x86_insn j;
		decode(ld, sizeof(ld), 0x3000, &j);
		for (int n = 0; n < 4; n++)
			run(r, &j, 1, 0x10000000 + (uint64_t)n * 4096 * 17);
		cyc[k] = ev(r, UARCH_EV_CYCLES, 0);
		assert_int_equal(ev(r, UARCH_EV_STALL_LQ, 0) > 0, k);
		rig_free(r);
	}
	/* three of the four misses no longer overlap the first */
	assert_true(cyc[1] >= cyc[0] + 3 * (r_mem_latency() * 9 / 10));
}

/* A µop holds an issue-queue entry until it issues, in any order: one
 * waiting on a load that misses keeps its entry, and with a queue of one
 * entry the independent work behind it waits too. */
static void test_issue_queue_holds_waiting_uops(void **s)
{
	static const uint8_t ld[] = { 0x48, 0x8b, 0x08 };	 /* mov (%rax), %rcx */
	static const uint8_t use[] = { 0x48, 0x01, 0xca };	 /* add %rcx, %rdx */
	static const uint8_t inc[] = { 0x48, 0x83, 0xc3, 0x01 }; /* add $1, %rbx */
	uint64_t stall[2], cyc[2];
	(void)s;
	for (int k = 0; k < 2; k++) {
		struct rig *r = rig_alloc();
		struct x86_insn j, a, b;
		r->m.core.iq = k ? 1 : 48;
		rig_start(r);
		decode(ld, sizeof(ld), 0x3000, &j);
		decode(use, sizeof(use), 0x3003, &a);
		decode(inc, sizeof(inc), 0x3006, &b);
		run(r, &j, 1, 0x10000000);
		run(r, &a, 1, 0);
		run(r, &b, 40, 0);
		stall[k] = ev(r, UARCH_EV_STALL_IQ, 0);
		cyc[k] = ev(r, UARCH_EV_CYCLES, 0);
		rig_free(r);
	}
	assert_int_equal(stall[0], 0);
	/* the adds wait for the miss: about a memory latency each time */
	assert_true(stall[1] >= r_mem_latency());
	assert_true(cyc[1] >= cyc[0]);
}

/* With a floating-point queue (core.fq, the 21264's), FP operations
 * waiting for a chain of divides fill it and stall dispatch, independent
 * integer work behind them included, where one shared queue had room;
 * integer work alone does not see it. */
static void test_fp_queue_holds_fp_uops(void **s)
{
	static const uint8_t div[] = { 0xf2, 0x0f, 0x5e, 0xc1 };	  /* divsd %xmm1, %xmm0 */
	static const uint8_t mov[] = { 0x48, 0xc7, 0xc3, 0x01, 0, 0, 0 }; /* mov $1, %rbx */
	uint64_t stall[2], cyc[2], ints[2];
	(void)s;
	for (int k = 0; k < 2; k++) {
		struct rig *r = rig_alloc();
		struct x86_insn d, a;
		r->m.core.iq = 16;
		r->m.core.fq = k ? 2 : 0;
		rig_start(r);
		decode(div, sizeof(div), 0x3000, &d);
		decode(mov, sizeof(mov), 0x3004, &a);
		run(r, &a, 60, 0);
		ints[k] = ev(r, UARCH_EV_CYCLES, 0);
		run(r, &d, 6, 0);
		run(r, &a, 60, 0);
		stall[k] = ev(r, UARCH_EV_STALL_IQ, 0);
		cyc[k] = ev(r, UARCH_EV_CYCLES, 0);
		rig_free(r);
	}
	assert_int_equal(ints[0], ints[1]);
	assert_int_equal(stall[0], 0);
	/* the fourth divide waits for the second to issue, a divide later */
	assert_true(stall[1] >= 30);
	assert_true(cyc[1] >= cyc[0]);
}

/* Stores hold a store-queue (store-buffer) entry until they retire: behind
 * a load that misses, a full queue stalls dispatch. */
static void test_store_queue_fills_behind_a_miss(void **s)
{
	static const uint8_t ld[] = { 0x48, 0x8b, 0x08 }; /* mov (%rax), %rcx */
	static const uint8_t st[] = { 0x48, 0x89, 0x10 }; /* mov %rdx, (%rax) */
	(void)s;
	for (int k = 0; k < 2; k++) {
		struct rig *r = rig_queues(48, k ? 4 : 32);
		struct x86_insn i, j;
		decode(ld, sizeof(ld), 0x3000, &j);
		decode(st, sizeof(st), 0x3003, &i);
		run(r, &j, 1, 0x10000000);
		run(r, &i, 8, 0x500000);
		assert_int_equal(ev(r, UARCH_EV_STALL_SQ, 0) > 0, k);
		rig_free(r);
	}
}

/* Retired x87 and SIMD µops by what they do: operations by their data,
 * loads, store data and register moves apart (the P4's FLAME events). */
static void test_fp_uops_by_kind(void **s)
{
	static const struct {
		uint8_t b[5], n;
		unsigned op;	/* the operation's event, or 0 */
		int load, move; /* FP_LOAD, FP_MOVE µops */
	} c[] = {
		{ { 0xf2, 0x0f, 0x58, 0xc1 }, 4, UARCH_EV_FP_SD, 0, 0 },  /* addsd */
		{ { 0xf2, 0x0f, 0x59, 0x08 }, 4, UARCH_EV_FP_SD, 1, 0 },  /* mulsd (%rax) */
		{ { 0x0f, 0x58, 0xca }, 3, UARCH_EV_FP_PS, 0, 0 },	  /* addps */
		{ { 0x66, 0x0f, 0xfe, 0xca }, 4, UARCH_EV_FP_INT, 0, 0 }, /* paddd %xmm */
		{ { 0x0f, 0xfe, 0xca }, 3, UARCH_EV_FP_MMX, 0, 0 },	  /* paddd %mm */
		{ { 0xd8, 0xc1 }, 2, UARCH_EV_FP_X87, 0, 0 },		  /* fadd %st(1) */
		{ { 0x0f, 0x28, 0xca }, 3, 0, 0, 1 },			  /* movaps: a move */
		{ { 0xf3, 0x0f, 0x10, 0x08 }, 4, 0, 1, 0 },		  /* movss (%rax): a load */
		{ { 0x66, 0x0f, 0x7f, 0x08 }, 4, 0, 0, 1 },		  /* movdqa to memory */
		{ { 0xdd, 0x18 }, 2, 0, 0, 1 },				  /* fstp (%rax) */
		{ { 0x48, 0x01, 0xd8 }, 3, 0, 0, 0 },			  /* add: none */
	};
	(void)s;
	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		struct rig *r = rig_new();
		struct x86_insn i;
		uint64_t all = 0;
		decode(c[k].b, c[k].n, 0x7000, &i);
		run(r, &i, 10, 0x600000);
		for (unsigned e = UARCH_EV_FP_X87; e <= UARCH_EV_FP_LOAD; e++)
			all += ev(r, e, 0);
		if (c[k].op)
			assert_int_equal(ev(r, c[k].op, 0), 10);
		assert_int_equal(ev(r, UARCH_EV_FP_LOAD, 0), 10 * c[k].load);
		assert_int_equal(ev(r, UARCH_EV_FP_MOVE, 0), 10 * c[k].move);
		assert_int_equal(all, 10 * ((c[k].op != 0) + c[k].load + c[k].move));
		rig_free(r);
	}
}

/* The P4's µop queue: a loop's first pass comes from the line the trace
 * cache missed (build mode, until the loop's branch), the others from the
 * trace cache; a microcoded instruction from the microcode ROM. */
static void test_uopq_sources(void **s)
{
	static const uint8_t nop[] = { 0x90 }, jmp[] = { 0xeb, 0xfd }, cpuid[] = { 0x0f, 0xa2 };
	struct rig *r = rig_new();
	struct x86_insn a, b, c;
	(void)s;
	decode(nop, sizeof(nop), 0x8000, &a);
	decode(jmp, sizeof(jmp), 0x8001, &b); /* jmp 0x8000 */
	decode(cpuid, sizeof(cpuid), 0x9000, &c);
	for (int n = 0; n < 10; n++) {
		struct x86_trace ta = { .i = &a, .next = 0x8001 };
		struct x86_trace tb = { .i = &b, .next = 0x8000, .taken = 1 };
		uarch_retire(r->u, 0, &ta);
		uarch_retire(r->u, 0, &tb);
	}
	assert_int_equal(ev(r, UARCH_EV_UOPQ_BUILD, 0), 2); /* a µop each, once */
	assert_int_equal(ev(r, UARCH_EV_UOPQ_DELIVER, 0), 18);
	assert_int_equal(ev(r, UARCH_EV_UOPQ_ROM, 0) + ev(r, UARCH_EV_MS_XFER, 0), 0);
	run(r, &c, 3, 0);
	assert_int_equal(ev(r, UARCH_EV_MS_XFER, 0), 3);
	assert_int_equal(ev(r, UARCH_EV_UOPQ_ROM, 0), 3);
	assert_int_equal(ev(r, UARCH_EV_UOPQ_BUILD, 0), 2);
	rig_free(r);
}

/* ia64's two DTLB levels: 40 pages, more than the first level's 32
 * entries, fewer than the second's 128: the first pass walks for each,
 * the second finds each in the second level. */
static void test_dtlb_levels(void **s)
{
	static const uint8_t mov[] = { 0x48, 0x8b, 0x00 }; /* mov (%rax), %rax */
	struct rig *r = rig_alloc();
	struct x86_insn i;
	uint64_t walks;
	(void)s;
	r->m = *uarch_machine_find("ia64");
	rig_start(r);
	decode(mov, sizeof(mov), 0x8000, &i);
	for (int pass = 0; pass < 2; pass++) {
		for (uint64_t k = 0; k < 40; k++)
			run(r, &i, 1, 0x10000000 + k * 16384);
		if (!pass) {
			walks = ev(r, UARCH_EV_DTLB_L2_MISS, 0);
			assert_int_equal(walks, 40);
			assert_int_equal(ev(r, UARCH_EV_DTLB_L2_XFER, 0), 0);
		}
	}
	assert_int_equal(ev(r, UARCH_EV_DTLB_L2_MISS, 0), 40);
	assert_int_equal(ev(r, UARCH_EV_DTLB_L2_XFER, 0), 40);
	assert_int_equal(ev(r, UARCH_EV_DTLB_MISS, 0), 80);
	/* one code page: one walk, retired as a fetch's */
	assert_int_equal(ev(r, UARCH_EV_ITLB_L2_MISS, 0), ev(r, UARCH_EV_ITLB_WALK, 0));
	rig_free(r);
}

/* A store into fetched code clears the pipeline: the next instruction is
 * fetched only after the last one retired and the front end refilled, and
 * the written code's trace-cache lines are gone. */
static void test_smc_clear(void **s)
{
	static const uint8_t nop[] = { 0x90 };
	struct rig *r = rig_new();
	struct x86_insn i;
	uint64_t c0, c1, m0;
	(void)s;
	decode(nop, sizeof(nop), 0xa000, &i);
	run(r, &i, 100, 0);
	c0 = ev(r, UARCH_EV_CYCLES, 0);
	run(r, &i, 1, 0);
	c1 = ev(r, UARCH_EV_CYCLES, 0) - c0; /* a nop in the steady state */
	m0 = ev(r, UARCH_EV_L1I_MISS, 0);
	uarch_machine_clear_smc(r->u, 0, 0xa000, 4096);
	assert_int_equal(ev(r, UARCH_EV_MC_SMC, 0), 1);
	assert_int_equal(ev(r, UARCH_EV_MC_CYCLES, 0), r->m.bp.penalty);
	c0 = ev(r, UARCH_EV_CYCLES, 0);
	run(r, &i, 1, 0);
	/* refilled, and fetched anew from L2 (the line was dropped) */
	assert_true(ev(r, UARCH_EV_CYCLES, 0) - c0 >= c1 + r->m.bp.penalty);
	assert_int_equal(ev(r, UARCH_EV_L1I_MISS, 0), m0 + 1);
	rig_free(r);
}

/* The P4's trace cache is flushed whole by a store into code it holds:
 * code on another page misses too; a store into a page it holds nothing
 * of flushes nothing.  An instruction cache drops the page's lines only. */
static void test_smc_tc_flush(void **s)
{
	static const uint8_t nop[] = { 0x90 };
	struct x86_insn a, b;
	(void)s;
	decode(nop, sizeof(nop), 0xa000, &a);
	decode(nop, sizeof(nop), 0xc000, &b);
	for (int tc = 1; tc >= 0; tc--) {
		struct rig *r = rig_alloc();
		uint64_t m0;
		if (!tc)
			r->m = *uarch_machine_find("alpha");
		rig_start(r);
		run(r, &a, 10, 0);
		run(r, &b, 10, 0);
		m0 = ev(r, UARCH_EV_L1I_MISS, 0);
		uarch_machine_clear_smc(r->u, 0, 0x20000, 4096);
		assert_int_equal(ev(r, UARCH_EV_TC_FLUSH, 0), 0);
		run(r, &b, 1, 0);
		assert_int_equal(ev(r, UARCH_EV_L1I_MISS, 0), m0);
		uarch_machine_clear_smc(r->u, 0, 0xa000, 4096);
		assert_int_equal(ev(r, UARCH_EV_TC_FLUSH, 0), tc);
		assert_int_equal(ev(r, UARCH_EV_MC_SMC, 0), 2);
		run(r, &b, 1, 0);
		assert_int_equal(ev(r, UARCH_EV_L1I_MISS, 0), m0 + tc);
		run(r, &a, 1, 0);
		assert_int_equal(ev(r, UARCH_EV_L1I_MISS, 0), m0 + tc + 1);
		rig_free(r);
	}
}

/* An instruction the emulator noted as needing an assist retires, then
 * the pipeline waits core.assist cycles before the next is fetched; its
 * conditions count one each; a machine that takes no assists counts them
 * without a clear. */
static void test_assist_clears(void **s)
{
	static const uint8_t addsd[] = { 0xf2, 0x0f, 0x58, 0xc1 }; /* addsd %xmm1, %xmm0 */
	static struct x86_cpu cpu;
	struct x86_insn i;
	(void)s;
	decode(addsd, sizeof(addsd), 0x1000, &i);
	for (int takes = 0; takes < 2; takes++) {
		struct rig *r = rig_alloc();
		struct x86_trace t = { .i = &i, .cpu = &cpu, .next = i.pc + i.len };
		uint64_t c0, c1, c2;
		if (!takes)
			r->m.core.assist = 0;
		rig_start(r);
		run(r, &i, 100, 0);
		c0 = ev(r, UARCH_EV_CYCLES, 0);
		run(r, &i, 10, 0);
		c1 = ev(r, UARCH_EV_CYCLES, 0) - c0; /* ten adds, steady state */
		cpu.nassist = 0;
		cpu.cur = &i;
		x86_assist_note(&cpu, X86_ASSIST_SSE_IN | X86_ASSIST_SSE_OUT);
		uarch_retire(r->u, 0, &t);
		cpu.nassist = 0;
		c0 = ev(r, UARCH_EV_CYCLES, 0);
		run(r, &i, 10, 0);
		c2 = ev(r, UARCH_EV_CYCLES, 0) - c0;
		assert_int_equal(ev(r, UARCH_EV_SSE_ASSIST_IN, 0), 1);
		assert_int_equal(ev(r, UARCH_EV_SSE_ASSIST_OUT, 0), 1);
		assert_int_equal(ev(r, UARCH_EV_X87_ASSIST_IN, 0), 0);
		assert_int_equal(ev(r, UARCH_EV_FP_ASSISTS, 0), takes);
		assert_int_equal(ev(r, UARCH_EV_MC_CYCLES, 0), takes ? r->m.core.assist : 0);
		if (takes)
			assert_true(c2 >= c1 + r->m.core.assist);
		else
			assert_true(c2 < c1 + 20);
		rig_free(r);
	}
}

/* Dual-thread mode, both processors' clocks past the cold start: a load
 * on processor 1, waiting behind a divide to retire, is in flight when
 * processor 0's store to its line, also behind one, is written; processor 1
 * clears its pipeline (memory ordering), whichever of the two is timed
 * first.  A store to another line, or single-thread mode, clears
 * nothing. */
static void test_memory_ordering_clear(void **s)
{
	static const uint8_t nop[] = { 0x90 };
	static const uint8_t div[] = { 0x48, 0xf7, 0xf1 };	      /* div %rcx */
	static const uint8_t load[] = { 0x48, 0x8b, 0x1e };	      /* mov (%rsi), %rbx */
	static const uint8_t store[] = { 0x48, 0x89, 0x0f };	      /* mov %rcx, (%rdi) */
	static const uint64_t line[] = { 0x10000, 0x20000, 0x10000 }; /* the store's */
	struct x86_insn n, d, l, st;
	(void)s;
	decode(nop, sizeof(nop), 0x1000, &n);
	decode(div, sizeof(div), 0x1001, &d);
	decode(load, sizeof(load), 0x1004, &l);
	decode(store, sizeof(store), 0x1007, &st);
	for (int k = 0; k < 3; k++) {
		struct rig *r = rig_new();
		uarch_set_active(r->u, k < 2 ? 3 : 1);
		for (int th = 0; th < 2; th++)
			while (uarch_now(r->u, th) < 5000)
				run_on(r, th, &n, 0);
		run_on(r, 1, &d, 0);
		run_on(r, 1, &l, 0x10008);
		run_on(r, 0, &d, 0);
		run_on(r, 0, &st, line[k]);
		uarch_flush(r->u);
		assert_int_equal(r->cnt.n[UARCH_EV_MC_MO][1][0], k == 0);
		assert_int_equal(r->cnt.n[UARCH_EV_MC_MO][0][0], 0);
		assert_int_equal(r->cnt.n[UARCH_EV_MC_CYCLES][1][0], k == 0 ? r->m.bp.penalty : 0);
		rig_free(r);
	}
	/* the store timed first, the load after it: the same */
	struct rig *r = rig_new();
	uarch_set_active(r->u, 3);
	for (int th = 0; th < 2; th++)
		while (uarch_now(r->u, th) < 5000)
			run_on(r, th, &n, 0);
	run_on(r, 0, &d, 0);
	run_on(r, 0, &st, 0x10000);
	run_on(r, 1, &d, 0);
	run_on(r, 1, &l, 0x10008);
	uarch_flush(r->u);
	assert_int_equal(r->cnt.n[UARCH_EV_MC_MO][1][0], 1);
	rig_free(r);
}

/* The front end fetches nothing past a PAUSE until it retires: a string of
 * them takes the pipeline's length each, where lfence, timed alike (a
 * microcoded µop), overlaps. */
static void test_pause_depipelines(void **s)
{
	static const uint8_t pause[] = { 0xf3, 0x90 }, lfence[] = { 0x0f, 0xae, 0xe8 };
	uint64_t c[2];
	(void)s;
	for (int k = 0; k < 2; k++) {
		struct rig *r = rig_new();
		struct x86_insn i;
		decode(k ? pause : lfence, k ? sizeof(pause) : sizeof(lfence), 0x1000, &i);
		run(r, &i, 10, 0);
		c[k] = ev(r, UARCH_EV_CYCLES, 0);
		run(r, &i, 100, 0);
		c[k] = ev(r, UARCH_EV_CYCLES, 0) - c[k];
		rig_free(r);
	}
	assert_true(c[1] >= c[0] + 100 * 19); /* core.depth each */
}

/* P4 replay: an add that reads a register a missing load wrote replays;
 * once a load that hits has written the register again, it does not. */
static void test_replay_taint_cleared(void **s)
{
	static const uint8_t load[] = { 0x48, 0x8b, 0x1e }; /* mov (%rsi), %rbx */
	static const uint8_t add[] = { 0x48, 0x01, 0xd9 };  /* add %rbx, %rcx */
	struct rig *r = rig_new();
	struct x86_insn l, a;
	uint64_t n0, n1;
	(void)s;
	decode(load, sizeof(load), 0x1000, &l);
	decode(add, sizeof(add), 0x1003, &a);
	run(r, &l, 1, 0x10000); /* misses: replays until its data comes */
	n0 = ev(r, UARCH_EV_REPLAYS, 0);
	run(r, &a, 1, 0);
	n1 = ev(r, UARCH_EV_REPLAYS, 0);
	assert_int_equal(n1, n0 + 1);
	run(r, &l, 1, 0x10000); /* hits */
	run(r, &a, 1, 0);
	assert_int_equal(ev(r, UARCH_EV_REPLAYS, 0), n1);
	rig_free(r);
}

static void test_mispredict_costs_penalty(void **s)
{
	/* je +0 taken/not taken alternately: a bimodal predictor misses every
	 * other time at least; each miss delays the next fetch until the
	 * branch resolves plus the front-end refill */
	static const uint8_t je[] = { 0x74, 0x00 };
	struct rig *r = rig_alloc();
	struct x86_insn i;
	uint64_t c0, c1, m0, m1;
	(void)s;
	r->m.bp.kind = UARCH_BP_BIMODAL;
	rig_start(r);
	decode(je, sizeof(je), 0x6000, &i);
	for (int n = 0; n < 100; n++) {
		struct x86_trace t = { .i = &i, .next = 0x6002, .taken = (uint8_t)(n & 1) };
		uarch_retire(r->u, 0, &t);
	}
	c0 = ev(r, UARCH_EV_CYCLES, 0);
	m0 = ev(r, UARCH_EV_BR_MISP, 0);
	for (int n = 0; n < 1000; n++) {
		struct x86_trace t = { .i = &i, .next = 0x6002, .taken = (uint8_t)(n & 1) };
		uarch_retire(r->u, 0, &t);
	}
	c1 = ev(r, UARCH_EV_CYCLES, 0);
	m1 = ev(r, UARCH_EV_BR_MISP, 0);
	assert_true(m1 - m0 >= 500);
	/* every mispredict costs at least the configured penalty */
	assert_true(c1 - c0 >= (m1 - m0) * r->m.bp.penalty);
	rig_free(r);
}

/* Cycles of n independent loads of the lines at stride 64 from base, lines
 * of them in turn, on r, after what went before has retired. */
static uint64_t loads_cycles(struct rig *r, uint64_t base, int lines, int n)
{
	static const uint8_t ld[] = { 0x48, 0x8b, 0x08 }; /* mov (%rax), %rcx */
	struct x86_insn j;
	uint64_t c0;
	uarch_syscall(r->u, 0, 39, NULL); /* serialising */
	c0 = ev(r, UARCH_EV_CYCLES, 0);
	decode(ld, sizeof(ld), 0x3000, &j);
	for (int k = 0; k < n; k++)
		run(r, &j, 1, base + 64 * (uint64_t)(k % lines));
	return ev(r, UARCH_EV_CYCLES, 0) - c0;
}

/* A level starts `ports` accesses per cycle: with four load units and
 * enough fill buffers, loads that miss a small L1D and hit L2 go to L2 one
 * per cycle through one port, about three per cycle (the dispatch width)
 * through four. */
static void test_l2_ports_bound_accesses(void **s)
{
	uint64_t cyc[2];
	(void)s;
	for (int k = 0; k < 2; k++) {
		struct rig *r = rig_alloc();
		r->m.core.units[UARCH_UC_LOAD] = 4;
		r->m.cache[UARCH_L1D].ports = 4;
		r->m.cache[UARCH_L1D].size = 1024; /* 16 lines */
		r->m.cache[UARCH_L2].ports = (uint16_t)(k ? 4 : 1);
		r->m.mem.mshr = 64;
		rig_start(r);
		loads_cycles(r, 0x10000000, 64, 64); /* into L2; L1D keeps the last 16 */
		cyc[k] = loads_cycles(r, 0x10000000, 48, 48);
		rig_free(r);
	}
	assert_true(cyc[0] >= 48);
	assert_true(cyc[0] >= cyc[1] + 16);
}

/* A level's port stays taken while an L1 line crosses its data path of
 * l2.width bytes a cycle: 48 loads that miss L1D and hit L2 through one
 * port take two cycles each over 32 bytes a cycle (p4's), one when the
 * path is as wide as the line.  Stores written through move their bytes
 * only, so a burst of them costs no more for the narrower path; store
 * misses that read their lines for ownership (a write-allocate L1D; 16 of
 * them, so that they evict only clean lines) move lines, and cost more. */
static uint64_t stores_cycles(struct rig *r, int n)
{
	static const uint8_t st[] = { 0x48, 0x89, 0x10 }; /* mov %rdx, (%rax) */
	struct x86_insn i;
	uint64_t c0;

	decode(st, sizeof(st), 0x3000, &i);
	uarch_syscall(r->u, 0, 39, NULL);
	c0 = ev(r, UARCH_EV_CYCLES, 0);
	for (int k = 0; k < n; k++)
		run(r, &i, 1, 0x10000000 + 64 * (uint64_t)k);
	return ev(r, UARCH_EV_CYCLES, 0) - c0;
}

static void test_l2_width_holds_port(void **s)
{
	uint64_t cyc[2], wr[2], rfo[2];
	(void)s;
	for (int k = 0; k < 2; k++) {
		for (int alloc = 0; alloc < 2; alloc++) {
			struct rig *r = rig_alloc();
			r->m.core.units[UARCH_UC_LOAD] = 4;
			r->m.cache[UARCH_L1D].ports = 4;
			r->m.cache[UARCH_L1D].size = 1024; /* 16 lines */
			if (alloc)
				r->m.cache[UARCH_L1D].write = UARCH_WB_ALLOC;
			r->m.cache[UARCH_L2].ports = 1;
			r->m.cache[UARCH_L2].width = (uint16_t)(k ? 64 : 32);
			r->m.mem.mshr = 64;
			rig_start(r);
			loads_cycles(r, 0x10000000, 64, 64); /* into L2; L1D keeps the last 16 */
			if (alloc) {
				rfo[k] = stores_cycles(r, 16);
			} else {
				cyc[k] = loads_cycles(r, 0x10000000, 48, 48);
				wr[k] = stores_cycles(r, 64);
			}
			rig_free(r);
		}
	}
	assert_true(cyc[0] >= 96);
	assert_true(cyc[1] >= 48 && cyc[1] < 96);
	assert_int_equal(wr[0], wr[1]);
	assert_true(rfo[0] > rfo[1]);
}

/* A dirty line a write-back L1D evicts is looked up in L2: with a
 * one-line L2 that another line has taken meanwhile, the lookup misses
 * (p4's WR_2ndL_MISS).  A write-through L1D writes nothing back. */
static void test_l1_writeback_misses_l2(void **s)
{
	static const uint8_t st[] = { 0x48, 0x89, 0x10 }; /* mov %rdx, (%rax) */
	static const uint8_t ld[] = { 0x48, 0x8b, 0x08 }; /* mov (%rax), %rcx */
	uint64_t miss[2];
	(void)s;
	for (int k = 0; k < 2; k++) {
		struct rig *r = rig_alloc();
		struct x86_insn i, j;
		if (k)
			r->m.cache[UARCH_L1D].write = UARCH_WB_ALLOC;
		r->m.cache[UARCH_L2].size = 128; /* one line */
		r->m.cache[UARCH_L2].assoc = 1;
		rig_start(r);
		decode(st, sizeof(st), 0x3000, &i);
		decode(ld, sizeof(ld), 0x3010, &j);
		run(r, &i, 1, 0x10000000); /* dirty in L1D (k 1) */
		run(r, &j, 1, 0x20000000); /* L2 holds this one now */
		/* eight more lines of its L1D set (2 KB apart) evict it */
		for (int n = 1; n <= 8; n++)
			run(r, &j, 1, 0x30000000 + 2048 * (uint64_t)n);
		miss[k] = ev(r, UARCH_EV_L2_WB_MISS, 0);
		rig_free(r);
	}
	assert_int_equal(miss[0], 0);
	assert_int_equal(miss[1], 1);
}

/* Reads that hit L3 count by the line's state, as L2's do: with a
 * one-line L2 under it, a line loaded and pushed out of L1D and L2 hits
 * L3 clean; one stored (written through into L2) and written back from
 * L2 to L3 hits it modified. */
static void test_l3_read_hits_by_state(void **s)
{
	static const uint8_t st[] = { 0x48, 0x89, 0x10 }; /* mov %rdx, (%rax) */
	static const uint8_t ld[] = { 0x48, 0x8b, 0x08 }; /* mov (%rax), %rcx */
	struct rig *r = rig_alloc();
	struct x86_insn i, j;
	(void)s;
	r->m.cache[UARCH_L2].size = 128; /* one line */
	r->m.cache[UARCH_L2].assoc = 1;
	r->m.cache[UARCH_L3] = (struct uarch_cache_cfg){ .size = 65536,
							 .assoc = 8,
							 .line = 128,
							 .sector = 128,
							 .repl = UARCH_REPL_LRU,
							 .write = UARCH_WB_ALLOC,
							 .latency = 30,
							 .ports = 1 };
	rig_start(r);
	decode(st, sizeof(st), 0x3000, &i);
	decode(ld, sizeof(ld), 0x3010, &j);
	uint64_t c0, d0;
	run(r, &j, 1, 0x10000000);
	for (int n = 1; n <= 8; n++) /* its L1D set, 2 KB apart */
		run(r, &j, 1, 0x10000000 + 2048 * (uint64_t)n);
	/* (deltas: fetches and page walks read through L3 too) */
	c0 = ev(r, UARCH_EV_L3_RD_HIT_CLEAN, 0);
	d0 = ev(r, UARCH_EV_L3_RD_HIT_DIRTY, 0);
	run(r, &j, 1, 0x10000000);
	assert_int_equal(ev(r, UARCH_EV_L3_RD_HIT_CLEAN, 0) - c0, 1);
	assert_int_equal(ev(r, UARCH_EV_L3_RD_HIT_DIRTY, 0) - d0, 0);
	run(r, &i, 1, 0x10000440); /* modified in L2 (not in L1D), same page */
	run(r, &j, 1, 0x10000c40); /* ... written back to L3 */
	c0 = ev(r, UARCH_EV_L3_RD_HIT_CLEAN, 0);
	d0 = ev(r, UARCH_EV_L3_RD_HIT_DIRTY, 0);
	run(r, &j, 1, 0x10000440);
	assert_int_equal(ev(r, UARCH_EV_L3_RD_HIT_DIRTY, 0) - d0, 1);
	assert_int_equal(ev(r, UARCH_EV_L3_RD_HIT_CLEAN, 0) - c0, 0);
	rig_free(r);
}

/* L1D ports bound loads that hit too: two load units through one port
 * issue one load per cycle. */
static void test_l1d_ports_bound_hits(void **s)
{
	uint64_t cyc[2];
	(void)s;
	for (int k = 0; k < 2; k++) {
		struct rig *r = rig_alloc();
		r->m.core.units[UARCH_UC_LOAD] = 2;
		r->m.cache[UARCH_L1D].ports = (uint16_t)(k ? 2 : 1);
		rig_start(r);
		loads_cycles(r, 0x500000, 64, 64);
		cyc[k] = loads_cycles(r, 0x500000, 64, 64 * 16);
		rig_free(r);
	}
	assert_in_range(cyc[0], 1024, 1060);
	assert_in_range(cyc[1], 512, 548);
}

/* A retired store waits in the write buffer until written: p4 posts it to
 * L2 (write-through), one per cycle, so a burst of stores retiring three
 * per cycle fills a one-entry buffer and retirement waits; eight entries
 * absorb it, and no buffer at all waits for every write. */
static void test_write_buffer_absorbs_stores(void **s)
{
	static const uint8_t st[] = { 0x48, 0x89, 0x10 }; /* mov %rdx, (%rax) */
	uint64_t stall[3];
	(void)s;
	for (int k = 0; k < 3; k++) {
		struct rig *r = rig_alloc();
		struct x86_insn i;
		r->m.mem.wbuf = (uint16_t)(k == 0 ? 8 : k == 1 ? 1 : 0);
		r->m.mem.wbuf_line = 0; /* the same address: no coalescing here */
		rig_start(r);
		decode(st, sizeof(st), 0x3000, &i);
		run(r, &i, 1, 0x500000); /* the page and line in the TLB and L2 */
		run(r, &i, 6, 0x500000);
		stall[k] = ev(r, UARCH_EV_STALL_WBUF, 0);
		rig_free(r);
	}
	assert_int_equal(stall[0], 0);
	assert_true(stall[1] > 0);
	assert_true(stall[2] > stall[1]);
}

/* A load the store before it covers takes the store's data; one that
 * only partly overlaps it, that a store crossing a line covers, or (p4,
 * core.fwd_start) that starts elsewhere than the store or is a 16-byte
 * load not 16-byte aligned, reads the first level once the store has been
 * written there: later by as much as the store waits in a full write
 * buffer.  With core.fwd_start=0 a store forwards at any offset. */
static void test_blocked_forward_waits_for_write(void **s)
{
	static const uint8_t st[] = { 0x48, 0x89, 0x10 }; /* mov %rdx, (%rax) */
	static const uint8_t ld[] = { 0x48, 0x8b, 0x08 }; /* mov (%rax), %rcx */
	static const struct {
		uint64_t addr; /* the store's */
		uint32_t size; /* the store's */
		uint64_t ld;   /* the load's address (its size: lsize, else 8) */
		uint32_t lsize;
		int any_start;	 /* core.fwd_start=0 */
		int miss_before; /* a store miss holds the write buffer first */
		int overlap, split, unaligned;
	} c[] = {
		{ 0x500000, 8, 0x500000, 0, 0, 0, 0, 0, 0 },
		{ 0x500000, 4, 0x500000, 0, 0, 0, 1, 0, 0 },
		{ 0x500000, 4, 0x500000, 0, 0, 1, 1, 0, 0 },
		{ 0x50003c, 8, 0x50003c, 0, 0, 0, 0, 1, 0 },
		{ 0x500000, 16, 0x500008, 0, 0, 0, 0, 0, 1 },
		{ 0x500000, 16, 0x500008, 0, 1, 0, 0, 0, 0 },
		{ 0x500008, 16, 0x500008, 16, 0, 0, 0, 0, 1 },
		{ 0x500010, 16, 0x500010, 16, 0, 0, 0, 0, 0 },
	};
	enum { N = sizeof(c) / sizeof(c[0]) };
	uint64_t lat[N];
	(void)s;
	for (int k = 0; k < N; k++) {
		struct rig *r = rig_alloc();
		struct x86_insn i, j;
		r->m.mem.wbuf = 1;
		r->m.mem.wbuf_line = 0;
		r->m.core.fwd_start = (uint8_t)!c[k].any_start;
		rig_start(r);
		decode(st, sizeof(st), 0x3000, &i);
		decode(ld, sizeof(ld), 0x3003, &j);
		/* the lines and the page in */
		run_access(r, 0, &i, 0x500000, 8);
		run_access(r, 0, &j, 0x500000, 8);
		run_access(r, 0, &j, 0x500040, 8);
		if (c[k].miss_before)
			run_access(r, 0, &i, 0x10000000, 8);
		uint64_t l0 = ev(r, UARCH_EV_LOAD_LAT, 0);
		run_access(r, 0, &i, c[k].addr, c[k].size);
		run_access(r, 0, &j, c[k].ld, c[k].lsize ? c[k].lsize : 8);
		lat[k] = ev(r, UARCH_EV_LOAD_LAT, 0) - l0;
		assert_int_equal(ev(r, UARCH_EV_LD_ST_OVERLAP, 0), c[k].overlap);
		assert_int_equal(ev(r, UARCH_EV_LD_FWD_SPLIT, 0), c[k].split);
		assert_int_equal(ev(r, UARCH_EV_LD_FWD_ALIGN, 0), c[k].unaligned);
		rig_free(r);
	}
	assert_true(lat[1] > lat[0]);
	assert_true(lat[2] > lat[1] + 100);
	assert_true(lat[3] > lat[0]);
	assert_true(lat[4] > lat[0]);
	assert_int_equal(lat[5], lat[0]);
	assert_true(lat[6] > lat[0]);
	assert_int_equal(lat[7], lat[0]);
}

/* A load the store before it covers, issued before the store's address is
 * known (an idiv makes it late), waits for it and counts once; one 32
 * bytes away does neither. */
static void test_load_waits_for_store_address(void **s)
{
	static const uint8_t div[] = { 0x48, 0xf7, 0xf9 }; /* idiv %rcx: %rax late */
	static const uint8_t st[] = { 0x48, 0x89, 0x10 };  /* mov %rdx, (%rax) */
	static const uint8_t ld[] = { 0x48, 0x8b, 0x0b };  /* mov (%rbx), %rcx */
	uint64_t lat[2];
	(void)s;
	for (int k = 0; k < 2; k++) {
		struct rig *r = rig_new();
		struct x86_insn d, i, j;
		decode(div, sizeof(div), 0x3000, &d);
		decode(st, sizeof(st), 0x3003, &i);
		decode(ld, sizeof(ld), 0x3006, &j);
		/* the line and the page in */
		run_on(r, 0, &i, 0x500000);
		run_on(r, 0, &j, 0x500000);
		uint64_t l0 = ev(r, UARCH_EV_LOAD_LAT, 0);
		run_on(r, 0, &d, 0);
		run_on(r, 0, &i, 0x500000);
		run_on(r, 0, &j, k ? 0x500020 : 0x500000);
		lat[k] = ev(r, UARCH_EV_LOAD_LAT, 0) - l0;
		assert_int_equal(ev(r, UARCH_EV_LD_NO_STA, 0), !k);
		rig_free(r);
	}
	assert_true(lat[0] > lat[1] + 50); /* (p4: idiv takes 80 cycles) */
}

/* A modified line evicted from the last level goes out over the bus: it
 * is outstanding (mem-write-line-latency) from the eviction until its
 * data has crossed, on an idle bus its transfer time. */
static void test_writeback_crosses_bus(void **s)
{
	static const uint8_t st[] = { 0x48, 0x89, 0x10 };  /* mov %rdx, (%rax) */
	static const uint8_t ld[] = { 0x48, 0x8b, 0x08 };  /* mov (%rax), %rcx */
	static const uint8_t add[] = { 0x48, 0x01, 0xd8 }; /* add %rbx, %rax */
	struct rig *r = rig_alloc();
	struct x86_insn i, j, k;
	(void)s;
	/* alpha's write-back L1D alone, direct-mapped: the last level */
	r->m = *uarch_machine_find("alpha");
	r->m.cache[UARCH_L2].size = 0;
	r->m.cache[UARCH_L1D].assoc = 1;
	rig_start(r);
	decode(st, sizeof(st), 0x3000, &i);
	decode(ld, sizeof(ld), 0x3003, &j);
	decode(add, sizeof(add), 0x3006, &k);
	const struct uarch_mem_cfg *mc = &r->m.mem;
	unsigned line = r->m.cache[UARCH_L1D].line, per = mc->bus_width * (mc->pump ? mc->pump : 1);
	uint64_t xfer = (line + per - 1) / per * mc->bus_ratio;
	run(r, &i, 1, 0x10000000);
	run(r, &k, 4000, 0); /* long after its read for ownership: the bus idle */
	run(r, &j, 1, 0x10000000 + r->m.cache[UARCH_L1D].size);
	assert_int_equal(ev(r, UARCH_EV_BUS_BWL, 0), 1);
	assert_int_equal(ev(r, UARCH_EV_MEM_BWL_LAT, 0), xfer);
	rig_free(r);
}

/* A write-allocate store miss holds its entry until the line arrives:
 * alpha's eight entries take eight misses, the ninth store waits about a
 * memory latency. */
static void test_write_buffer_holds_store_misses(void **s)
{
	static const uint8_t st[] = { 0x48, 0x89, 0x10 }; /* mov %rdx, (%rax) */
	struct rig *r = rig_alloc();
	struct x86_insn i;
	(void)s;
	r->m = *uarch_machine_find("alpha");
	rig_start(r);
	decode(st, sizeof(st), 0x3000, &i);
	for (int n = 0; n < 9; n++)
		run(r, &i, 1, 0x10000000 + (uint64_t)n * 4096 * 3);
	assert_true(ev(r, UARCH_EV_STALL_WBUF, 0) >= r->m.mem.latency * 9 / 10);
	rig_free(r);
}

/* What p4's prefetchers read: a 4-byte load at each of n addresses on a
 * p4 with mem.pf_streams streams and mem.pf_adjacent adjacent; the
 * demand line reads, the prefetched ones, the loads that waited for a
 * prefetch and all memory reads, into c[0..3]. */
static void prefetch_counts(uint16_t streams, uint8_t adjacent, const uint64_t *addr, unsigned n,
			    uint64_t c[4])
{
	static const uint8_t ld[] = { 0x8b, 0x08 }; /* mov (%rax), %ecx */
	struct rig *r = rig_alloc();
	struct x86_insn i;

	decode(ld, sizeof(ld), 0x3000, &i);
	r->m.mem.pf_streams = streams;
	r->m.mem.pf_adjacent = adjacent;
	rig_start(r);
	for (unsigned k = 0; k < n; k++)
		run(r, &i, 1, addr[k]);
	c[0] = ev(r, UARCH_EV_BUS_BRL, 0);
	c[1] = ev(r, UARCH_EV_PF_BRL, 0);
	c[2] = ev(r, UARCH_EV_PF_LATE, 0);
	c[3] = ev(r, UARCH_EV_MEM_READS, 0);
	rig_free(r);
}

/* The stream prefetcher: two loads missing L2 a sector apart start a
 * stream; the 14 loads after them find their sectors read ahead instead
 * of on demand, still in flight, so they wait for them.  With no streams
 * every sector is a demand read (as are, in both, the instruction's line
 * and the page walks' reads). */
static void test_prefetch_stream(void **s)
{
	uint64_t a[16], off[4], on[4];
	(void)s;
	for (unsigned k = 0; k < 16; k++)
		a[k] = 0x10000000 + k * 64;
	prefetch_counts(0, 0, a, 16, off);
	prefetch_counts(8, 0, a, 16, on);
	assert_int_equal(off[1], 0);
	assert_int_equal(off[2], 0);
	assert_int_equal(on[0], off[0] - 14);
	/* and up to the four sectors (256 bytes) past the last load, as
	 * many as its limit of reads in flight lets out: a stream runs past
	 * the end of an array ([opt] ch. 6 "Hardware Prefetch") */
	assert_true(on[1] > 14 && on[1] <= 14 + 4);
	assert_int_equal(on[3], off[3] + on[1] - 14);
	assert_true(on[2] >= 1);
}

/* The adjacent-line fetch: a load missing L2 reads the other 64-byte half
 * of its 128-byte line as well, as a prefetch; a load of that half right
 * after finds it in flight and waits for it (with no stream prefetcher,
 * which the two misses would start). */
static void test_prefetch_adjacent(void **s)
{
	uint64_t a[8], off[4], on[4];
	(void)s;
	for (unsigned k = 0; k < 8; k++)
		a[k] = 0x10000000 + k / 2 * 4096 + k % 2 * 64;
	prefetch_counts(0, 0, a, 8, off);
	prefetch_counts(0, 1, a, 8, on);
	assert_int_equal(off[1], 0);
	assert_int_equal(on[1], 4);
	assert_int_equal(on[0], off[0] - 4);
	assert_int_equal(on[2], 4);
	assert_int_equal(on[3], off[3]);
}

/* p4's stores write through the L1D into L2; one that misses L2 holds a
 * miss-status register until its read for ownership brings the line, so
 * a stream of them has no more than mem.mshr reads on the bus at once:
 * each waits the memory latency and at most its turn behind the others
 * (with no prefetcher reading the stream's lines ahead of it). */
static void test_store_misses_bounded_by_mshr(void **s)
{
	static const uint8_t st[] = { 0x89, 0x10 }; /* mov %edx, (%rax) */
	struct rig *r = rig_alloc();
	struct x86_insn i;
	const unsigned n = 64, per = 36; /* a 64-byte sector: 2 bus clocks of 18 cycles */
	(void)s;
	r->m.mem.pf_streams = 0;
	r->m.mem.pf_adjacent = 0;
	rig_start(r);
	decode(st, sizeof(st), 0x3000, &i);
	for (unsigned k = 0; k < n; k++)
		run(r, &i, 1, 0x10000000 + (uint64_t)k * 128); /* (in two pages) */
	uint64_t rfo = ev(r, UARCH_EV_BUS_BRIL, 0), lat = ev(r, UARCH_EV_MEM_BRIL_LAT, 0);
	assert_int_equal(rfo, n);
	assert_true(lat >= n * r->m.mem.latency);
	assert_true(lat <= n * (r->m.mem.latency + r->m.mem.mshr * per));
	/* the stores waited for the registers, in the write buffer */
	assert_true(ev(r, UARCH_EV_STALL_WBUF, 0) > (n - r->m.mem.mshr) * per / 2);
	rig_free(r);
}

/* xscale's write-back L1D does not allocate on a write: a store that
 * misses goes to memory as a partial write, reading nothing. */
static void test_store_miss_no_allocate_writes(void **s)
{
	static const uint8_t st[] = { 0x89, 0x10 }; /* mov %edx, (%rax) */
	struct rig *r = rig_alloc();
	struct x86_insn i;
	(void)s;
	r->m = *uarch_machine_find("xscale");
	rig_start(r);
	decode(st, sizeof(st), 0x3000, &i);
	run(r, &i, 1, 0x10000000);
	run(r, &i, 1, 0x10000040);
	assert_int_equal(ev(r, UARCH_EV_L1D_ST_MISS, 0), 2);
	assert_int_equal(ev(r, UARCH_EV_BUS_BWP, 0), 2);
	assert_int_equal(ev(r, UARCH_EV_BUS_BRIL, 0), 0);
	rig_free(r);
}

/* A rep string store is one access of all its bytes: missing a
 * no-allocate L1D, each line writes its own bytes over the bus (xscale:
 * 4 bytes per bus clock), not the whole access. */
static void test_rep_store_miss_writes_each_line(void **s)
{
	static const uint8_t stos[] = { 0xf3, 0xaa }; /* rep stosb */
	struct rig *r = rig_alloc();
	struct x86_insn i;
	uint64_t c0;
	(void)s;
	r->m = *uarch_machine_find("xscale");
	rig_start(r);
	decode(stos, sizeof(stos), 0x3000, &i);
	struct x86_trace t = { .i = &i, .next = 0x3002, .nmem = 1, .store = 1, .reps = 100 };
	t.addr[0] = 0x10000010;
	t.size[0] = 100;
	uarch_retire(r->u, 0, &t); /* the fetch and the translations */
	c0 = ev(r, UARCH_EV_BUS_DATA_CYCLES, 0);
	uarch_retire(r->u, 0, &t);
	assert_int_equal(ev(r, UARCH_EV_BUS_BWP, 0), 8);
	/* 16 + 32 + 32 + 20 bytes */
	assert_int_equal(ev(r, UARCH_EV_BUS_DATA_CYCLES, 0) - c0, 4 + 8 + 8 + 5);
	rig_free(r);
}

/* Stores to one 16-byte block coalesce in xscale's write buffer while
 * its entry waits for the bus: four 4-byte store misses back to back are
 * one partial write of 16 bytes (4 bus clocks of data), not four. */
static void test_write_buffer_coalesces(void **s)
{
	static const uint8_t st[] = { 0x89, 0x10 }; /* mov %edx, (%rax) */
	uint64_t bwp[2], data[2];
	(void)s;
	for (int k = 0; k < 2; k++) {
		struct rig *r = rig_alloc();
		struct x86_insn i;
		r->m = *uarch_machine_find("xscale");
		if (k)
			r->m.mem.wbuf_line = 0;
		rig_start(r);
		decode(st, sizeof(st), 0x3000, &i);
		struct x86_trace t = { .i = &i, .next = 0x3002, .nmem = 1, .store = 1 };
		t.size[0] = 4;
		t.addr[0] = 0x10000100; /* the fetch and the translation */
		uarch_retire(r->u, 0, &t);
		uint64_t b0 = ev(r, UARCH_EV_BUS_BWP, 0), d0 = ev(r, UARCH_EV_BUS_DATA_CYCLES, 0);
		for (int n = 0; n < 4; n++) {
			t.addr[0] = 0x10000000 + 4 * (uint64_t)n;
			uarch_retire(r->u, 0, &t);
		}
		assert_int_equal(ev(r, UARCH_EV_L1D_ST_MISS, 0), 5);
		bwp[k] = ev(r, UARCH_EV_BUS_BWP, 0) - b0;
		data[k] = ev(r, UARCH_EV_BUS_DATA_CYCLES, 0) - d0;
		rig_free(r);
	}
	assert_int_equal(bwp[0], 1);
	assert_int_equal(bwp[1], 4);
	assert_int_equal(data[0], 4);
	assert_int_equal(data[1], 4);
}

/* Load misses of a classifying L1D by Hill's classes (p4: 16 KB, 8-way,
 * 64-byte lines, 2 KB between lines of one set): nine lines of one set
 * are compulsory misses the first time and conflict misses after, a
 * fully associative cache of 256 lines holding them; 512 lines swept
 * twice are compulsory, then capacity misses.  The classes add up to the
 * lines missed. */
static void test_miss_classes(void **s)
{
	static const uint8_t ld[] = { 0x48, 0x8b, 0x08 }; /* mov (%rax), %rcx */
	struct x86_insn j;
	(void)s;
	for (int k = 0; k < 2; k++) {
		struct rig *r = rig_alloc();
		r->m.cache[UARCH_L1D].classify = 1;
		rig_start(r);
		decode(ld, sizeof(ld), 0x3000, &j);
		int lines = k ? 512 : 9;
		uint64_t stride = k ? 64 : 2048;
		for (int pass = 0; pass < 2; pass++)
			for (int n = 0; n < lines; n++)
				run(r, &j, 1, 0x800000 + stride * (uint64_t)n);
		uint64_t comp = ev(r, UARCH_EV_L1D_LD_MISS_COMP, 0),
			 cap = ev(r, UARCH_EV_L1D_LD_MISS_CAP, 0),
			 conf = ev(r, UARCH_EV_L1D_LD_MISS_CONF, 0);
		assert_int_equal(comp, (uint64_t)lines);
		assert_int_equal(k ? cap : conf, (uint64_t)lines);
		assert_int_equal(k ? conf : cap, 0);
		assert_int_equal(comp + cap + conf, ev(r, UARCH_EV_L1D_LD_MISS, 0));
		/* not asked for: not counted */
		assert_int_equal(ev(r, UARCH_EV_L2_MISS_COMP, 0), 0);
		rig_free(r);
	}
}

/* Store misses by Hill's classes.  p4's L1D writes through and does not
 * allocate: a store to a line never loaded misses as compulsory however
 * often it is repeated; once loaded, the line hits; pushed out of its set
 * by eight others it misses as a conflict.  Then a sectored write-back,
 * allocating L1D (alpha's, sectors of half a line): a store to the
 * missing half of a present line is a miss, which fills that half. */
static void test_store_miss_classes(void **s)
{
	static const uint8_t ld[] = { 0x48, 0x8b, 0x08 }; /* mov (%rax), %rcx */
	static const uint8_t st[] = { 0x48, 0x89, 0x08 }; /* mov %rcx, (%rax) */
	const uint64_t a = 0x800000;
	struct rig *r = rig_alloc();
	struct x86_insn l, w;
	(void)s;
	r->m.cache[UARCH_L1D].classify = 1;
	rig_start(r);
	decode(ld, sizeof(ld), 0x3000, &l);
	decode(st, sizeof(st), 0x3000, &w);
	run(r, &w, 2, a);
	run(r, &l, 1, a);
	run(r, &w, 1, a);
	assert_int_equal(ev(r, UARCH_EV_L1D_ST_MISS_COMP, 0), 2);
	assert_int_equal(ev(r, UARCH_EV_L1D_LD_MISS_COMP, 0), 1);
	for (int n = 1; n <= 8; n++)
		run(r, &l, 1, a + 2048 * (uint64_t)n);
	run(r, &w, 1, a);
	assert_int_equal(ev(r, UARCH_EV_L1D_ST_MISS_CONF, 0), 1);
	assert_int_equal(ev(r, UARCH_EV_L1D_ST_MISS_CAP, 0), 0);
	assert_int_equal(ev(r, UARCH_EV_L1D_ST_MISS, 0), 3);
	rig_free(r);

	r = rig_alloc();
	r->m = *uarch_machine_find("alpha");
	r->m.cache[UARCH_L1D].sector = r->m.cache[UARCH_L1D].line / 2;
	r->m.cache[UARCH_L1D].classify = 1;
	rig_start(r);
	run(r, &l, 1, a);
	run(r, &w, 1, a + r->m.cache[UARCH_L1D].sector);
	assert_int_equal(ev(r, UARCH_EV_L1D_ST_MISS, 0), 1);
	assert_int_equal(ev(r, UARCH_EV_L1D_ST_MISS_COMP, 0), 1);
	run(r, &l, 1, a + r->m.cache[UARCH_L1D].sector);
	assert_int_equal(ev(r, UARCH_EV_L1D_LD_MISS, 0), 1);
	rig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dependent_fp_adds),
		cmocka_unit_test(test_independent_fp_adds),
		cmocka_unit_test(test_pointer_chase_l1),
		cmocka_unit_test(test_retire_width),
		cmocka_unit_test(test_lea_is_integer_work),
		cmocka_unit_test(test_gpr_only_flag),
		cmocka_unit_test(test_syscall_is_kernel_time),
		cmocka_unit_test(test_io_line_crosses_after_request),
		cmocka_unit_test(test_io_snoops_modified_lines),
		cmocka_unit_test(test_io_read_drops_every_l1_line),
		cmocka_unit_test(test_sectored_l1d),
		cmocka_unit_test(test_inclusive_l2_back_invalidates),
		cmocka_unit_test(test_load_queue_bounds_loads_in_flight),
		cmocka_unit_test(test_store_queue_fills_behind_a_miss),
		cmocka_unit_test(test_issue_queue_holds_waiting_uops),
		cmocka_unit_test(test_fp_queue_holds_fp_uops),
		cmocka_unit_test(test_fp_uops_by_kind),
		cmocka_unit_test(test_uopq_sources),
		cmocka_unit_test(test_dtlb_levels),
		cmocka_unit_test(test_smc_clear),
		cmocka_unit_test(test_smc_tc_flush),
		cmocka_unit_test(test_assist_clears),
		cmocka_unit_test(test_memory_ordering_clear),
		cmocka_unit_test(test_pause_depipelines),
		cmocka_unit_test(test_replay_taint_cleared),
		cmocka_unit_test(test_mispredict_costs_penalty),
		cmocka_unit_test(test_l2_ports_bound_accesses),
		cmocka_unit_test(test_l2_width_holds_port),
		cmocka_unit_test(test_l1_writeback_misses_l2),
		cmocka_unit_test(test_l3_read_hits_by_state),
		cmocka_unit_test(test_l1d_ports_bound_hits),
		cmocka_unit_test(test_write_buffer_absorbs_stores),
		cmocka_unit_test(test_blocked_forward_waits_for_write),
		cmocka_unit_test(test_load_waits_for_store_address),
		cmocka_unit_test(test_write_buffer_holds_store_misses),
		cmocka_unit_test(test_writeback_crosses_bus),
		cmocka_unit_test(test_prefetch_stream),
		cmocka_unit_test(test_prefetch_adjacent),
		cmocka_unit_test(test_store_misses_bounded_by_mshr),
		cmocka_unit_test(test_store_miss_no_allocate_writes),
		cmocka_unit_test(test_rep_store_miss_writes_each_line),
		cmocka_unit_test(test_write_buffer_coalesces),
		cmocka_unit_test(test_miss_classes),
		cmocka_unit_test(test_store_miss_classes),
	};
	return cmocka_run_group_tests_name("uarch_model", tests, NULL, NULL);
}
