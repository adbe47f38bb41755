/* Unit tests for core/unwind.c: DWARF and frame-pointer walks of this
 * program's own stack (registers captured inside a recursion of known
 * shape, memory read through /proc/self/mem so bad addresses fail rather
 * than fault), and frame-pointer walks of synthetic stacks with good,
 * looping and broken frames. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/sym.h"
#include "core/unwind.h"
#include "emu/x86/x86.h"

/* ---- capturing this thread's registers ----------------------------------
 * ut_capture(r) stores the general registers and returns with r holding
 * the state of its caller just after the call: rip = the return address,
 * rsp = above it.  Callee-saved registers are those of the caller. */
void ut_capture(struct unwind_regs *r);
__asm__(".text\n"
	".globl ut_capture\n"
	".type ut_capture, @function\n"
	"ut_capture:\n"
	"	mov %rax, 0(%rdi)\n"
	"	mov %rcx, 8(%rdi)\n"
	"	mov %rdx, 16(%rdi)\n"
	"	mov %rbx, 24(%rdi)\n"
	"	lea 8(%rsp), %rax\n"
	"	mov %rax, 32(%rdi)\n"
	"	mov %rbp, 40(%rdi)\n"
	"	mov %rsi, 48(%rdi)\n"
	"	mov %rdi, 56(%rdi)\n"
	"	mov %r8, 64(%rdi)\n"
	"	mov %r9, 72(%rdi)\n"
	"	mov %r10, 80(%rdi)\n"
	"	mov %r11, 88(%rdi)\n"
	"	mov %r12, 96(%rdi)\n"
	"	mov %r13, 104(%rdi)\n"
	"	mov %r14, 112(%rdi)\n"
	"	mov %r15, 120(%rdi)\n"
	"	mov (%rsp), %rax\n"
	"	mov %rax, 128(%rdi)\n"
	"	ret\n"
	".size ut_capture, .-ut_capture\n");

/* ut_a -> ut_b -> ut_c -> ut_a ... with frame pointers (so both walkers
 * apply); the work after each call keeps them from becoming jumps.  At the
 * bottom ut_c captures its registers and calls the probe, which walks the
 * stack while the recursion's frames are live. */
struct ut_ctx {
	struct unwind_regs r;
	int (*walk)(struct unwind *, const struct unwind_regs *, uint64_t *, int);
	struct unwind *u;
	uint64_t chain[64];
	int n, max;
};

#define FP __attribute__((noinline, optimize("no-omit-frame-pointer")))
int ut_a(int depth, struct ut_ctx *c);

__attribute__((noinline)) static void ut_probe(struct ut_ctx *c)
{
	c->n = c->walk(c->u, &c->r, c->chain, c->max);
}

FP int ut_c(int depth, struct ut_ctx *c)
{
	int v;

	if (depth > 0)
		v = ut_a(depth - 1, c);
	else {
		ut_capture(&c->r);
		ut_probe(c);
		v = 1;
	}
	__asm__ volatile("" : "+r"(v));
	return v + 3;
}

FP int ut_b(int depth, struct ut_ctx *c)
{
	int v = ut_c(depth, c);

	__asm__ volatile("" : "+r"(v));
	return v + 2;
}

FP int ut_a(int depth, struct ut_ctx *c)
{
	int v = ut_b(depth, c);

	__asm__ volatile("" : "+r"(v));
	return v + 1;
}

/* ---- images and memory of this process -------------------------------- */

struct self {
	struct unwind_image img[64];
	char path[64][PATH_MAX];
	unsigned n;
	struct sym *sym;
	int memfd;
};

static int add_image(struct dl_phdr_info *info, size_t size, void *data)
{
	struct self *s = data;
	uint64_t lo = UINT64_MAX, hi = 0;

	(void)size;
	if (s->n == 64)
		return 1;
	if (!info->dlpi_name[0] && s->n == 0) {
		ssize_t len = readlink("/proc/self/exe", s->path[s->n], PATH_MAX - 1);

		if (len <= 0)
			return 0;
		s->path[s->n][len] = 0;
	} else if (info->dlpi_name[0] == '/') {
		snprintf(s->path[s->n], PATH_MAX, "%s", info->dlpi_name);
	} else {
		return 0; /* the vDSO: no file */
	}
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		if ((ph->p_vaddr & ~0xfffull) < lo)
			lo = ph->p_vaddr & ~0xfffull;
		if (ph->p_vaddr + ph->p_memsz > hi)
			hi = ph->p_vaddr + ph->p_memsz;
	}
	if (hi <= lo)
		return 0;
	s->img[s->n] = (struct unwind_image){ info->dlpi_addr + lo, info->dlpi_addr + hi,
					      info->dlpi_addr, s->path[s->n] };
	sym_add_image(s->sym, s->path[s->n], info->dlpi_addr + lo, info->dlpi_addr + hi,
		      info->dlpi_addr);
	s->n++;
	return 0;
}

static int self_read(void *arg, void *dst, uint64_t addr, size_t n)
{
	struct self *s = arg;

	return pread(s->memfd, dst, n, (off_t)addr) == (ssize_t)n ? 0 : -1;
}

static struct self self;

static int setup(void **state)
{
	(void)state;
	memset(&self, 0, sizeof(self));
	self.sym = sym_new();
	self.memfd = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
	if (!self.sym || self.memfd < 0)
		return -1;
	dl_iterate_phdr(add_image, &self);
	return self.n ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	sym_free(self.sym);
	close(self.memfd);
	return 0;
}

static struct unwind *self_unwind(void)
{
	struct unwind_mem mem = { self_read, &self };
	struct unwind *u = unwind_new(&mem);

	assert_non_null(u);
	assert_int_equal(unwind_set_images(u, self.img, self.n), 0);
	return u;
}

static const char *name_at(uint64_t addr)
{
	struct sym_info si;

	if (sym_lookup(self.sym, addr, &si) != 0)
		return "?";
	return si.name;
}

/* The chain must be c b a repeated depth + 1 times, then the test
 * function that started it (walk_recursion). */
static void check_recursion(const uint64_t *chain, int n, int depth, const char *caller)
{
	static const char *const order[] = { "ut_c", "ut_b", "ut_a" };
	int want = 3 * (depth + 1) + 1;
	for (int i = 0; i < n; i++)

		assert_true(n >= want);
	for (int i = 0; i < want - 1; i++)
		assert_string_equal(name_at(chain[i]), order[i % 3]);
	assert_string_equal(name_at(chain[want - 1]), caller);
}

#define DEPTH 4

/* Walk from the bottom of a recursion of the given depth. */
__attribute__((noinline)) static int
walk_recursion(struct unwind *u,
	       int (*walk)(struct unwind *, const struct unwind_regs *, uint64_t *, int), int depth,
	       int max, struct ut_ctx *c)
{
	memset(c, 0, sizeof(*c));
	c->walk = walk;
	c->u = u;
	c->max = max;
	ut_a(depth, c);
	return c->n;
}

static void test_dwarf_own_stack(void **state)
{
	struct ut_ctx c;
	struct unwind *u = self_unwind();
	int n, seen_main = 0;

	(void)state;
	n = walk_recursion(u, unwind_dwarf, DEPTH, 64, &c);
	assert_int_equal(unwind_has_table(u, c.r.rip), 1);
	assert_int_equal(c.chain[0], c.r.rip);
	check_recursion(c.chain, n, DEPTH, "walk_recursion");
	/* ... and on through cmocka to main and the C library's start-up:
	 * the walk ends at the outermost frame, not at max. */
	for (int i = 0; i < n; i++)
		seen_main |= !strcmp(name_at(c.chain[i]), "main");
	assert_true(seen_main);
	assert_true(n < 64);
	/* max is honoured */
	assert_int_equal(walk_recursion(u, unwind_dwarf, DEPTH, 5, &c), 5);
	assert_int_equal(walk_recursion(u, unwind_dwarf, DEPTH, 0, &c), 0);
	unwind_free(u);
}

static void test_fp_own_stack(void **state)
{
	struct ut_ctx c;
	struct unwind *u = self_unwind();
	int n;

	(void)state;
	/* Every frame of the recursion has a frame pointer; beyond it the
	 * chain goes as far as the frames validate. */
	n = walk_recursion(u, unwind_fp, DEPTH, 64, &c);
	check_recursion(c.chain, n, DEPTH, "walk_recursion");
	assert_int_equal(walk_recursion(u, unwind_fp, DEPTH, 4, &c), 4);
	unwind_free(u);
}

/* The image list can change between walks; a path seen before is reused. */
static void test_images_change(void **state)
{
	struct ut_ctx c;
	struct unwind *u = self_unwind();

	(void)state;
	assert_int_equal(unwind_set_images(u, NULL, 0), 0);
	assert_true(walk_recursion(u, unwind_dwarf, 1, 64, &c) >= 1);
	assert_int_equal(unwind_has_table(u, c.r.rip), -1);
	assert_int_equal(unwind_set_images(u, self.img, self.n), 0);
	check_recursion(c.chain, walk_recursion(u, unwind_dwarf, 1, 64, &c), 1, "walk_recursion");
	unwind_free(u);
}

/* Registers that point nowhere: the walks stop, never fault. */
static int walk_bad(struct unwind *u, const struct unwind_regs *regs, uint64_t *chain, int max)
{
	struct unwind_regs r = *regs;
	int n;

	r.r[X86_RSP] = 0x10; /* unmapped stack */
	r.r[X86_RBP] = 0x20;
	n = unwind_dwarf(u, &r, chain, max);
	assert_int_equal(n, 1);
	assert_int_equal(chain[0], r.rip);
	assert_int_equal(unwind_fp(u, &r, chain, max), 1);
	r.rip = 0x1000; /* no image */
	assert_true(unwind_dwarf(u, &r, chain, max) <= 2);
	return n;
}

static void test_dwarf_bad_state(void **state)
{
	struct ut_ctx c;
	struct unwind *u = self_unwind();

	(void)state;
	assert_int_equal(walk_recursion(u, walk_bad, 0, 64, &c), 1);
	unwind_free(u);
}

/* ---- synthetic stacks ----------------------------------------------------
 * A stack at a made-up guest address, read through the callback. */

#define STK 0x7fff0000ull
static uint64_t stk[256];

static int stk_read(void *arg, void *dst, uint64_t addr, size_t n)
{
	(void)arg;
	if (addr < STK || addr - STK > sizeof(stk) || sizeof(stk) - (addr - STK) < n)
		return -1;
	memcpy(dst, (const uint8_t *)stk + (addr - STK), n);
	return 0;
}

/* A frame at word w: saved rbp and return address. */
static void frame(int w, uint64_t next, uint64_t ret)
{
	stk[w] = next;
	stk[w + 1] = ret;
}

static struct unwind *stk_unwind(struct unwind_regs *r, int rbp_word)
{
	struct unwind_mem mem = { stk_read, NULL };
	struct unwind *u = unwind_new(&mem);

	assert_non_null(u);
	memset(stk, 0, sizeof(stk));
	memset(r, 0, sizeof(*r));
	r->rip = 0x401000;
	r->r[X86_RSP] = STK + 8;
	r->r[X86_RBP] = STK + 8 * (uint64_t)rbp_word;
	return u;
}

static void test_fp_synthetic(void **state)
{
	struct unwind_regs r;
	uint64_t chain[16];
	struct unwind *u = stk_unwind(&r, 4);
	static const uint64_t want[] = { 0x401000, 0x401111, 0x402222, 0x403333 };

	(void)state;
	frame(4, STK + 8 * 10, 0x401111);
	frame(10, STK + 8 * 40, 0x402222);
	frame(40, 0, 0x403333); /* outermost: rbp 0 */
	assert_int_equal(unwind_fp(u, &r, chain, 16), 4);
	assert_memory_equal(chain, want, sizeof(want));
	assert_int_equal(unwind_fp(u, &r, chain, 2), 2);
	assert_memory_equal(chain, want, 2 * sizeof(want[0]));

	/* With images, a return address outside every image ends the walk. */
	struct unwind_image img = { 0x400000, 0x403000, 0, NULL };

	assert_int_equal(unwind_set_images(u, &img, 1), 0);
	assert_int_equal(unwind_fp(u, &r, chain, 16), 3);
	unwind_free(u);
}

static void test_fp_bad_frames(void **state)
{
	struct unwind_regs r;
	uint64_t chain[16];
	struct unwind *u;

	(void)state;
	/* a loop: the second frame points back at the first */
	u = stk_unwind(&r, 4);
	frame(4, STK + 8 * 10, 0x401111);
	frame(10, STK + 8 * 4, 0x402222);
	assert_int_equal(unwind_fp(u, &r, chain, 16), 3);
	/* a frame pointing at itself */
	frame(4, STK + 8 * 4, 0x401111);
	assert_int_equal(unwind_fp(u, &r, chain, 16), 2);
	/* misaligned next frame */
	frame(4, STK + 8 * 10 + 4, 0x401111);
	assert_int_equal(unwind_fp(u, &r, chain, 16), 2);
	/* next frame past the end of readable memory */
	frame(4, STK + sizeof(stk) - 8, 0x401111);
	assert_int_equal(unwind_fp(u, &r, chain, 16), 2);
	/* next frame implausibly far above rsp */
	frame(4, STK + UNWIND_FP_STACK_MAX + 64, 0x401111);
	assert_int_equal(unwind_fp(u, &r, chain, 16), 2);
	/* a zero return address */
	frame(4, STK + 8 * 10, 0);
	assert_int_equal(unwind_fp(u, &r, chain, 16), 1);
	unwind_free(u);
	/* rbp below rsp */
	u = stk_unwind(&r, 4);
	r.r[X86_RSP] = STK + 8 * 8;
	frame(4, STK + 8 * 10, 0x401111);
	assert_int_equal(unwind_fp(u, &r, chain, 16), 1);
	unwind_free(u);
}

/* An image whose file is missing or not ELF is kept but has no table. */
static void test_missing_file(void **state)
{
	struct unwind_mem mem = { stk_read, NULL };
	struct unwind *u = unwind_new(&mem);
	struct unwind_image img[2] = { { 0x400000, 0x401000, 0, "/nonexistent/x" },
				       { 0x500000, 0x501000, 0x500000, "/proc/self/status" } };

	(void)state;
	assert_int_equal(unwind_set_images(u, img, 2), 0);
	assert_int_equal(unwind_has_table(u, 0x400800), 0);
	assert_int_equal(unwind_has_table(u, 0x500000), 0);
	assert_int_equal(unwind_has_table(u, 0x600000), -1);
	unwind_free(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dwarf_own_stack), cmocka_unit_test(test_fp_own_stack),
		cmocka_unit_test(test_images_change),	cmocka_unit_test(test_dwarf_bad_state),
		cmocka_unit_test(test_fp_synthetic),	cmocka_unit_test(test_fp_bad_frames),
		cmocka_unit_test(test_missing_file),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
