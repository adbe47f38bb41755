/* test_x86_trace.c — the reports of timed mode: a block's at once
 * (trace_block) are the reports one at a time (trace), in the same order
 * around system calls, the end of a process that goes on (a failed
 * execve), a fault and a trap; and timed mode counts what the functional
 * mode counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "emu/x86/x86.h"

/* What a report says, or a system call (pc 0, next its number). */
struct entry {
	uint64_t pc, next, addr0;
	uint32_t size0, reps;
	uint8_t nmem, load, store, taken;
};

struct log {
	struct entry e[256];
	unsigned n, blocks, batched; /* trace_block calls, those with more than one */
};

static void add(struct log *l, const struct x86_trace *t)
{
	struct entry *e = &l->e[l->n++];

	assert_true(l->n < 256);
	memset(e, 0, sizeof(*e));
	e->pc = t->i->pc;
	e->next = t->next;
	e->nmem = t->nmem;
	e->load = t->load;
	e->store = t->store;
	e->taken = t->taken;
	e->reps = t->reps;
	if (t->nmem) {
		e->addr0 = t->addr[0];
		e->size0 = t->size[0];
	}
}

static void one(void *arg, const struct x86_trace *t)
{
	add(arg, t);
}

static void block(void *arg, const struct x86_trace *t, unsigned n)
{
	struct log *l = arg;

	l->blocks++;
	l->batched += n > 1;
	for (unsigned k = 0; k < n; k++)
		add(l, &t[k]);
}

/* getpid returns; exit "fails" as a failed execve does: the process
 * reports its current instruction, then takes it back and goes on. */
static void sys(struct x86_cpu *c)
{
	struct log *l = c->trace_arg;
	struct entry *e = &l->e[l->n++];

	memset(e, 0, sizeof(*e));
	e->next = c->r[X86_RAX];
	if (c->r[X86_RAX] == 60) {
		x86_count_current_block(c);
		x86_uncount_current_block(c);
	}
	c->r[X86_RAX] = 0;
}

static const uint8_t code[] = {
	0x48, 0x8b, 0x03,	      /* 0: mov rax, [rbx] */
	0x48, 0x01, 0xc8,	      /* add rax, rcx */
	0x48, 0x89, 0x43, 0x08,	      /* mov [rbx+8], rax */
	0x50,			      /* push rax */
	0x5a,			      /* pop rdx */
	0x48, 0xff, 0xc9,	      /* dec rcx */
	0x75, 0xef,		      /* jnz 0 */
	0xb8, 0x27, 0x00, 0x00, 0x00, /* mov eax, 39 */
	0x0f, 0x05,		      /* syscall */
	0x48, 0x89, 0xde,	      /* mov rsi, rbx */
	0x48, 0x8d, 0x7b, 0x20,	      /* lea rdi, [rbx+32] */
	0xb9, 0x04, 0x00, 0x00, 0x00, /* mov ecx, 4 */
	0xf3, 0xa4,		      /* rep movsb */
	0xb8, 0x3c, 0x00, 0x00, 0x00, /* mov eax, 60 */
	0x0f, 0x05,		      /* syscall */
	0x0f, 0x0b,		      /* ud2 (or int3; nop) */
};

static void run(uint8_t *page, int batch, int sig, struct log *l, struct x86_counts *cnt)
{
	static uint64_t stack[64], data[8];
	struct x86_cpu *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	x86_cpu_init(c);
	c->cache = x86_cache_new();
	assert_non_null(c->cache);
	c->cnt = cnt;
	c->rip = (uint64_t)page;
	c->r[X86_RBX] = (uint64_t)data;
	c->r[X86_RCX] = 5;
	c->r[X86_RSP] = (uint64_t)&stack[64];
	c->trace = batch >= 0 ? one : NULL; /* -1: the functional mode */
	c->trace_block = batch > 0 ? block : NULL;
	c->trace_arg = l;
	c->syscall = sys;
	assert_int_equal(x86_run(c, 1000), X86_EXIT_FAULT);
	assert_int_equal(c->fault.sig, sig);
	x86_cache_free(c->cache);
	free(c);
}

static void test_block_reports_are_the_single_ones(void **state)
{
	struct log *l1 = calloc(1, sizeof(*l1)), *l2 = calloc(1, sizeof(*l2));
	struct log *l3 = calloc(1, sizeof(*l3));
	struct x86_counts c1 = { 0 }, c2 = { 0 }, c3 = { 0 };
	uint8_t *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)state;
	assert_non_null(l1);
	assert_non_null(l2);
	assert_non_null(l3);
	assert_true(page != MAP_FAILED);
	memcpy(page, code, sizeof(code));
	for (int trap = 0; trap < 2; trap++) {
		int sig = trap ? 5 /* SIGTRAP */ : 4 /* SIGILL */;
		if (trap)
			memcpy(page + sizeof(code) - 2, "\xcc\x90", 2);
		memset(l1, 0, sizeof(*l1));
		memset(l2, 0, sizeof(*l2));
		memset(&c1, 0, sizeof(c1));
		memset(&c2, 0, sizeof(c2));
		memset(&c3, 0, sizeof(c3));
		run(page, 0, sig, l1, &c1);
		run(page, 1, sig, l2, &c2);
		run(page, -1, sig, l3, &c3);
		/* 5 turns of the loop (7 instructions), 8 after it, 2 system
		 * calls; what faults is not reported, what traps completes */
		assert_int_equal(l1->n, 5 * 7 + 8 + 2 + trap);
		assert_int_equal(c1.insns, 5 * 7 + 8 + trap);
		/* as the functional mode counts */
		assert_memory_equal(&c1, &c3, sizeof(c1));
		assert_int_equal(l2->n, l1->n);
		assert_memory_equal(l1->e, l2->e, l1->n * sizeof(l1->e[0]));
		assert_memory_equal(&c1, &c2, sizeof(c1));
		/* the reports came a block at a time */
		assert_true(l2->batched >= 5);
	}
	munmap(page, 4096);
	free(l1);
	free(l2);
	free(l3);
}

/* An access takes its explicit operand's size; an unsized one (fxsave)
 * is reported as a line. */
static void test_access_sizes(void **state)
{
	static const uint8_t sized[] = {
		0x8b, 0x0b,		/* mov ecx, [rbx] */
		0xf3, 0x0f, 0x6f, 0x03, /* movdqu xmm0, [rbx] */
		0x0f, 0xae, 0x03,	/* fxsave [rbx] */
		0x66, 0x89, 0x43, 0x08, /* mov [rbx+8], ax */
		0x83, 0xc0, 0x01,	/* add eax, 1 */
		0x0f, 0x0b,		/* ud2 */
	};
	static const unsigned msize[] = { 4, 16, 0, 2, 8 }, size[] = { 4, 16, 64, 2 };
	static _Alignas(64) uint8_t area[1024];
	struct log *l = calloc(1, sizeof(*l));
	struct x86_counts cnt = { 0 };
	struct x86_cpu *c = calloc(1, sizeof(*c));
	uint8_t *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned off = 0;

	(void)state;
	assert_non_null(l);
	assert_non_null(c);
	assert_true(page != MAP_FAILED);
	memcpy(page, sized, sizeof(sized));
	for (unsigned k = 0; k < 5; k++) {
		struct x86_insn i;
		int len = x86_decode_one((uint64_t)page + off, page + off, 16, &i);

		assert_true(len > 0);
		assert_int_equal(i.msize, msize[k]);
		off += (unsigned)len;
	}
	x86_cpu_init(c);
	c->cache = x86_cache_new();
	assert_non_null(c->cache);
	c->cnt = &cnt;
	c->rip = (uint64_t)page;
	c->r[X86_RBX] = (uint64_t)area;
	c->trace = one;
	c->trace_arg = l;
	assert_int_equal(x86_run(c, 100), X86_EXIT_FAULT);
	assert_int_equal(l->n, 5);
	for (unsigned k = 0; k < 4; k++) {
		assert_int_equal(l->e[k].nmem, 1);
		assert_int_equal(l->e[k].addr0, (uint64_t)area + (k == 3 ? 8 : 0));
		assert_int_equal(l->e[k].size0, size[k]);
	}
	assert_int_equal(l->e[4].nmem, 0);
	x86_cache_free(c->cache);
	free(c);
	free(l);
	munmap(page, 4096);
}

/* rdtsc reads the instructions retired before it alike in the
 * functional mode and both timed modes, which count a block's
 * instructions at different times. */
static void test_rdtsc_alike(void **state)
{
	static const uint8_t prog[] = {
		0x90, 0x90, 0x90, /* nop x3 */
		0x0f, 0x31,	  /* rdtsc */
		0x0f, 0x0b,	  /* ud2 */
	};
	uint8_t *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct log *l = calloc(1, sizeof(*l));
	struct x86_cpu *c = calloc(1, sizeof(*c));
	uint64_t tsc[3];

	(void)state;
	assert_true(page != MAP_FAILED);
	assert_non_null(l);
	assert_non_null(c);
	memcpy(page, prog, sizeof(prog));
	for (int mode = 0; mode < 3; mode++) { /* functional, one at a time, blocks */
		struct x86_counts cnt = { .insns = 1000 };

		x86_cpu_init(c);
		c->cache = x86_cache_new();
		assert_non_null(c->cache);
		c->cnt = &cnt;
		c->rip = (uint64_t)page;
		c->trace = mode ? one : NULL;
		c->trace_block = mode == 2 ? block : NULL;
		c->trace_arg = l;
		l->n = 0;
		assert_int_equal(x86_run(c, 100), X86_EXIT_FAULT);
		tsc[mode] = (c->r[X86_RDX] << 32) | (uint32_t)c->r[X86_RAX];
		assert_int_equal(tsc[mode], tsc[0]);
		assert_int_equal(cnt.insns, 1004);
		x86_cache_free(c->cache);
	}
	/* the 1003 before it, each the same number of ticks */
	assert_true(tsc[0] > 0 && tsc[0] % 1003 == 0);
	free(c);
	free(l);
	munmap(page, 4096);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_block_reports_are_the_single_ones),
		cmocka_unit_test(test_access_sizes),
		cmocka_unit_test(test_rdtsc_alike),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
