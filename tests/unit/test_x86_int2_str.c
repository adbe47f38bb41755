/* Unit tests for string.c: MOVS/STOS/LODS/CMPS/SCAS in every size, with
 * and without REP/REPE/REPNE, DF = 0 and 1, 64- and 32-bit addresses,
 * overlapping copies, run natively and in the emulator from the same state;
 * and faults in the middle of a repeated instruction. */
#include <stdlib.h>

#include "test_x86_int2.h"

#define BUF 16384
#define NCASE 400

static uint8_t *buf; /* BUF bytes below 4 GB (MAP_32BIT) for the 0x67 forms */
static uint8_t *pristine, *natmem;

static int setup(void **state)
{
	(void)state;
	buf = mmap(NULL, BUF, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1,
		   0);
	pristine = malloc(BUF);
	natmem = malloc(BUF);
	return buf == MAP_FAILED || !pristine || !natmem;
}

static int teardown(void **state)
{
	(void)state;
	munmap(buf, BUF);
	free(pristine);
	free(natmem);
	return 0;
}

enum { MOVS, STOS, LODS, CMPS, SCAS };

static const char *names[] = { "movs", "stos", "lods", "cmps", "scas" };
static const uint8_t opc8[] = { 0xa4, 0xaa, 0xac, 0xa6, 0xae };

/* Data of low entropy, so that compares find both equal and different
 * elements. */
static void fill_pristine(uint64_t *st)
{
	for (size_t k = 0; k < BUF; k++)
		pristine[k] = (rnd(st) & 3) ? 0x41 : (uint8_t)rnd(st);
}

/* A random state for a string instruction: pointers well inside buf and
 * counts that keep every access inside. */
static void str_state(uint64_t *st, struct hstate *h, unsigned size, int big)
{
	uint64_t maxn = big ? 4096 / size : 40;

	rnd_state(st, h);
	h->r[X86_RSI] = (uint64_t)buf + 4096 + rnd(st) % 8192;
	switch (rnd(st) % 4) {
	case 0: /* destination just ahead of or behind the source */
		h->r[X86_RDI] = h->r[X86_RSI] + rnd(st) % 24 - 8;
		break;
	default:
		h->r[X86_RDI] = (uint64_t)buf + 4096 + rnd(st) % 8192;
		break;
	}
	h->r[X86_RCX] = (rnd(st) & 7) ? rnd(st) % (maxn + 1) : 0;
	h->r[X86_RAX] = (rnd(st) & 1) ? 0x4141414141414141ull : rnd(st);
	if (rnd(st) & 1)
		h->rflags |= X86_DF;
}

static void run_str(int op, unsigned size, int prefix, int a32, int big, uint64_t seed)
{
	struct stub s = { 0 };
	uint8_t code[4];
	size_t n = 0;
	uint64_t st = seed;

	if (a32)
		code[n++] = 0x67;
	if (prefix)
		code[n++] = (uint8_t)prefix;
	if (size == 2)
		code[n++] = 0x66;
	if (size == 8)
		code[n++] = 0x48;
	code[n++] = (uint8_t)(opc8[op] + (size > 1));
	stub_build(&s, code, n);
	fill_pristine(&st);
	for (int k = 0; k < (big ? NCASE / 2 : NCASE); k++) {
		struct hstate in, nat, emu;
		int sig;

		str_state(&st, &in, size, big);
		if (a32) { /* garbage in the upper halves must be ignored */
			in.r[X86_RSI] = (uint32_t)in.r[X86_RSI] | (rnd(&st) << 32);
			in.r[X86_RDI] = (uint32_t)in.r[X86_RDI] | (rnd(&st) << 32);
			in.r[X86_RCX] = (uint32_t)in.r[X86_RCX] | (rnd(&st) << 32);
		}
		memcpy(buf, pristine, BUF);
		nat = in;
		native_run(&s, &nat);
		memcpy(natmem, buf, BUF);
		memcpy(buf, pristine, BUF);
		emu = in;
		sig = emu_run(&s, &emu);
		if (sig) {
			fprintf(stderr, "%s: unexpected guest signal %d\n", names[op], sig);
			fail();
		}
		compare(names[op], &s, &in, &nat, &emu, X86_ARITH | X86_DF);
		if (memcmp(natmem, buf, BUF)) {
			fprintf(stderr, "%s size %u prefix %#x: memory differs\n", names[op], size,
				prefix);
			fail();
		}
	}
	stub_free(&s);
}

static void test_strings(void **state)
{
	static const unsigned sizes[] = { 1, 2, 4, 8 };
	static const int prefixes[] = { 0, 0xf3, 0xf2 };
	(void)state;
	for (int op = MOVS; op <= SCAS; op++)
		for (size_t z = 0; z < 4; z++)
			for (size_t p = 0; p < 3; p++)
				for (int a32 = 0; a32 < 2; a32++)
					run_str(op, sizes[z], prefixes[p], a32, 0,
						(uint64_t)(op * 1000 + z * 100 + p * 10 + a32 + 1));
}

/* Long runs crossing pages: the chunked fast paths. */
static void test_strings_long(void **state)
{
	static const unsigned sizes[] = { 1, 2, 4, 8 };
	(void)state;
	for (int op = MOVS; op <= SCAS; op++)
		for (size_t z = 0; z < 4; z++) {
			run_str(op, sizes[z], 0xf3, 0, 1, (uint64_t)(op * 77 + z + 5));
			if (op >= CMPS)
				run_str(op, sizes[z], 0xf2, 0, 1, (uint64_t)(op * 77 + z + 50));
		}
}

/* rep movsb with the destination one byte ahead: a forward byte copy
 * replicates the first byte (memmove would shift instead). */
static void test_movsb_overlap(void **state)
{
	struct stub s = { 0 };
	struct hstate h = { .rflags = 0x202 };
	(void)state;
	stub_build(&s, (const uint8_t[]){ 0xf3, 0xa4 }, 2);
	memcpy(buf, "abcdefgh", 8);
	h.r[X86_RSI] = (uint64_t)buf;
	h.r[X86_RDI] = (uint64_t)buf + 1;
	h.r[X86_RCX] = 7;
	assert_int_equal(emu_run(&s, &h), 0);
	assert_memory_equal(buf, "aaaaaaaa", 8);
	assert_int_equal(h.r[X86_RCX], 0);
	assert_int_equal(h.r[X86_RSI], (uint64_t)buf + 7);
	assert_int_equal(h.r[X86_RDI], (uint64_t)buf + 8);
	stub_free(&s);
}

/* ---- faults in the middle of a repeated instruction ------------------------------ */

/* The host SIGSEGV handler of this test: turns the host fault into the
 * guest's, as the OS layer does.  The one static the handler needs. */
static struct x86_cpu *fault_cpu;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	x86_host_fault(fault_cpu, sig, si->si_code, (uint64_t)si->si_addr);
}

/* Run code on c (state h) expecting a guest SIGSEGV at addr. */
static void run_faulting(const uint8_t *code, size_t n, struct hstate *h, uint64_t addr)
{
	struct stub s = { 0 };
	struct sigaction sa = { 0 }, old;
	struct x86_cpu c;
	struct x86_counts cnt;

	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGSEGV, &sa, &old);
	fault_cpu = &c;
	stub_build(&s, code, n);
	assert_int_equal(emu_run_cpu(&s, h, &c, &cnt), SIGSEGV);
	sigaction(SIGSEGV, &old, NULL);
	assert_int_equal(c.fault.addr, addr);
	assert_int_equal(c.rip, (uint64_t)s.code); /* restarts the string instruction */
	for (unsigned r = 0; r < 16; r++)
		h->r[r] = c.r[r];
	stub_free(&s);
}

static void test_fault_midway(void **state)
{
	uint8_t *two = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *guard = two + 4096;
	struct hstate h = { .rflags = 0x202 };
	(void)state;
	assert_true(two != MAP_FAILED);
	assert_int_equal(mprotect(guard, 4096, PROT_NONE), 0);
	memset(two, 0x5a, 4096);

	/* rep movsb reading into the guard page: 100 bytes done */
	memset(buf, 0, 256);
	h.r[X86_RSI] = (uint64_t)guard - 100;
	h.r[X86_RDI] = (uint64_t)buf;
	h.r[X86_RCX] = 200;
	run_faulting((const uint8_t[]){ 0xf3, 0xa4 }, 2, &h, (uint64_t)guard);
	assert_int_equal(h.r[X86_RCX], 100);
	assert_int_equal(h.r[X86_RSI], (uint64_t)guard);
	assert_int_equal(h.r[X86_RDI], (uint64_t)buf + 100);
	assert_int_equal(buf[99], 0x5a);
	assert_int_equal(buf[100], 0);

	/* rep stosq writing into it: 3 quadwords done */
	h = (struct hstate){ .rflags = 0x202 };
	h.r[X86_RDI] = (uint64_t)guard - 24;
	h.r[X86_RCX] = 10;
	run_faulting((const uint8_t[]){ 0xf3, 0x48, 0xab }, 3, &h, (uint64_t)guard);
	assert_int_equal(h.r[X86_RCX], 7);
	assert_int_equal(h.r[X86_RDI], (uint64_t)guard);

	/* rep movsd with an element straddling the boundary: one done */
	h = (struct hstate){ .rflags = 0x202 };
	h.r[X86_RSI] = (uint64_t)guard - 6;
	h.r[X86_RDI] = (uint64_t)buf;
	h.r[X86_RCX] = 5;
	run_faulting((const uint8_t[]){ 0xf3, 0xa5 }, 2, &h, (uint64_t)guard);
	assert_int_equal(h.r[X86_RCX], 4);
	assert_int_equal(h.r[X86_RSI], (uint64_t)guard - 2);

	/* repne scasb running off the end without finding the byte */
	h = (struct hstate){ .rflags = 0x202 };
	h.r[X86_RAX] = 0x11;
	h.r[X86_RDI] = (uint64_t)guard - 4000;
	h.r[X86_RCX] = 5000;
	run_faulting((const uint8_t[]){ 0xf2, 0xae }, 2, &h, (uint64_t)guard);
	assert_int_equal(h.r[X86_RCX], 1000);
	assert_int_equal(h.r[X86_RDI], (uint64_t)guard);

	/* DF = 1: rep movsb copying downward from the guard page's start */
	h = (struct hstate){ .rflags = 0x202 | X86_DF };
	h.r[X86_RSI] = (uint64_t)buf + 10;
	h.r[X86_RDI] = (uint64_t)guard + 2;
	h.r[X86_RCX] = 8;
	run_faulting((const uint8_t[]){ 0xf3, 0xa4 }, 2, &h, (uint64_t)guard + 2);
	assert_int_equal(h.r[X86_RCX], 8);
	munmap(two, 8192);
}

/* A segment override applies to the source: fs:[rsi]. */
static void test_seg_override(void **state)
{
	struct stub s = { 0 };
	struct x86_cpu c;
	struct x86_counts cnt;
	(void)state;
	/* lodsb with fs: decode, then give the cpu an FS base */
	stub_build(&s, (const uint8_t[]){ 0x64, 0xac }, 2);
	memset(buf, 0, 64);
	buf[40] = 0x99;
	{
		struct x86_insn i;
		assert_int_equal(x86_decode_one((uint64_t)s.code, s.code, 2, &i), 2);
		x86_cpu_init(&c);
		c.cnt = &cnt;
		c.seg_base[X86_SEG_FS] = (uint64_t)buf + 32;
		c.r[X86_RSI] = 8;
		c.cur = &i;
		i.fn(&c, &i);
		assert_int_equal(c.r[X86_RAX] & 0xff, 0x99);
		assert_int_equal(c.r[X86_RSI], 9);
	}
	stub_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strings),	      cmocka_unit_test(test_strings_long),
		cmocka_unit_test(test_movsb_overlap), cmocka_unit_test(test_fault_midway),
		cmocka_unit_test(test_seg_override),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
