/* Unit tests for cpuid.c (what the emulated Pentium 4 Xeon reports) and
 * sys.c (cpuid, rdtsc, syscall, and the instructions that trap). */
#include "test_x86_int2.h"

static void cpuid(uint32_t leaf, uint32_t sub, uint32_t out[4])
{
	x86_cpuid(&x86_model_p4_xeon, leaf, sub, out);
}

static void test_vendor_signature(void **state)
{
	uint32_t o[4];
	char v[13];
	(void)state;

	cpuid(0, 0, o);
	assert_int_equal(o[0], 5);
	memcpy(v, &o[1], 4);
	memcpy(v + 4, &o[3], 4);
	memcpy(v + 8, &o[2], 4);
	v[12] = 0;
	assert_string_equal(v, "GenuineIntel");

	cpuid(1, 0, o);
	assert_int_equal((o[0] >> 8) & 0xf, 15);  /* family */
	assert_int_equal((o[0] >> 4) & 0xf, 4);	  /* model */
	assert_int_equal(o[0] & 0xf, 3);	  /* stepping */
	assert_int_equal((o[1] >> 8) & 0xff, 8);  /* clflush: 8 x 8 = 64 bytes */
	assert_int_equal((o[1] >> 16) & 0xff, 2); /* two logical processors */
	assert_int_equal(o[1] >> 24, 0);	  /* APIC ID */
}

static void test_features(void **state)
{
	uint32_t o[4];
	(void)state;

	cpuid(1, 0, o);
	assert_int_equal(o[3], 0xbfebfbff);
	/* present: SSE3 (ecx 0), and in edx TSC 4, CX8 8, CMOV 15, CLFSH 19,
	 * MMX 23, FXSR 24, SSE 25, SSE2 26, HTT 28 */
	assert_true(o[2] & 1);
	for (unsigned b = 0; b < 32; b++)
		if ((1u << b) & ((1u << 4) | (1u << 8) | (1u << 15) | (1u << 19) | (1u << 23) |
				 (1u << 24) | (1u << 25) | (1u << 26) | (1u << 28)))
			assert_true(o[3] & (1u << b));
	/* absent: PCLMUL 1, SSSE3 9, FMA 12, CX16 13, SSE4.1 19, SSE4.2 20,
	 * MOVBE 22, POPCNT 23, AES 25, XSAVE 26, OSXSAVE 27, AVX 28, F16C 29,
	 * RDRAND 30, hypervisor 31 */
	assert_int_equal(o[2] & 0xfed83202u, 0);

	cpuid(0x80000001, 0, o);
	assert_true(o[3] & (1u << 29));		/* LM */
	assert_true(o[3] & (1u << 20));		/* NX */
	assert_true(o[3] & (1u << 11));		/* SYSCALL */
	assert_int_equal(o[2], 0);		/* no LAHF-LM, no LZCNT/ABM */
	assert_int_equal(o[3] & (1u << 27), 0); /* no RDTSCP */

	/* leaf 7 is beyond the maximum (5): even software that asks anyway
	 * finds no BMI1 (bit 3), AVX2 (5), BMI2 (8) or ERMS (9) */
	cpuid(7, 0, o);
	assert_int_equal(o[1] & 0x328, 0);
}

static void test_brand(void **state)
{
	uint32_t o[4];
	char b[49];
	(void)state;

	cpuid(0x80000000, 0, o);
	assert_int_equal(o[0], 0x80000008);
	for (uint32_t l = 0; l < 3; l++) {
		cpuid(0x80000002 + l, 0, o);
		memcpy(b + 16 * l, o, 16);
	}
	b[48] = 0;
	assert_int_equal(strlen(b), 47);
	assert_string_equal(b, "                  Intel(R) Xeon(TM) CPU 3.60GHz");

	cpuid(0x80000008, 0, o);
	assert_int_equal(o[0] & 0xff, 36);
	assert_int_equal((o[0] >> 8) & 0xff, 48);
	cpuid(0x80000006, 0, o);
	assert_int_equal(o[2] >> 16, 2048);
	assert_int_equal(o[2] & 0xff, 64);
}

static void test_caches(void **state)
{
	uint32_t o[4], sz[2];
	uint8_t d[16];
	int has60 = 0, has70 = 0, has7d = 0;
	(void)state;

	cpuid(2, 0, o);
	memcpy(d, o, 16);
	assert_int_equal(d[0], 1); /* one iteration */
	for (int k = 1; k < 16; k++) {
		has60 |= d[k] == 0x60;
		has70 |= d[k] == 0x70;
		has7d |= d[k] == 0x7d;
	}
	assert_true(has60 && has70 && has7d);

	for (uint32_t s = 0; s < 2; s++) {
		cpuid(4, s, o);
		assert_int_equal((o[0] >> 5) & 7, s + 1); /* level */
		sz[s] = ((o[1] >> 22) + 1) * (((o[1] >> 12) & 0x3ff) + 1) * ((o[1] & 0xfff) + 1) *
			(o[2] + 1);
	}
	assert_int_equal(sz[0], 16 * 1024);
	assert_int_equal(sz[1], 2 * 1024 * 1024);
	cpuid(4, 2, o);
	assert_int_equal(o[0] & 0x1f, 0); /* no more caches */
}

static void test_out_of_range(void **state)
{
	uint32_t o[4], l5[4];
	(void)state;

	cpuid(5, 0, l5);
	cpuid(6, 0, o);
	assert_memory_equal(o, l5, 16);
	cpuid(0x80000009, 0, o);
	assert_memory_equal(o, l5, 16);
	cpuid(0x40000000, 0, o);
	assert_memory_equal(o, l5, 16);
}

/* ---- sys.c through the decoder -------------------------------------------------- */

static int run1(const uint8_t *code, size_t n, struct hstate *h, struct x86_cpu *c,
		struct x86_counts *cnt)
{
	struct stub s = { 0 };

	/* the stub is used for its copy of the bytes only: none of these
	 * instructions can run natively here */
	memcpy(s.code, code, n);
	s.len = n;
	return emu_run_cpu(&s, h, c, cnt);
}

static void test_cpuid_insn(void **state)
{
	struct hstate h = { .rflags = 0x202 };
	struct x86_cpu c;
	struct x86_counts cnt;
	(void)state;

	h.r[X86_RAX] = 0xffffffff00000000ull; /* upper half ignored: leaf 0 */
	h.r[X86_RBX] = h.r[X86_RCX] = h.r[X86_RDX] = ~0ull;
	assert_int_equal(run1((const uint8_t[]){ 0x0f, 0xa2 }, 2, &h, &c, &cnt), 0);
	assert_int_equal(h.r[X86_RAX], 5);
	assert_int_equal(h.r[X86_RBX], 0x756e6547); /* "Genu", upper half cleared */
	assert_int_equal(h.r[X86_RDX], 0x49656e69);
	assert_int_equal(h.r[X86_RCX], 0x6c65746e);
}

static void test_rdtsc(void **state)
{
	struct stub s = { .code = { 0x0f, 0x31 }, .len = 2 };
	struct x86_cpu c;
	struct x86_counts cnt;
	struct x86_insn i;
	uint64_t t1, t2;
	(void)state;

	x86_cpu_init(&c);
	memset(&cnt, 0, sizeof(cnt));
	c.cnt = &cnt;
	assert_int_equal(x86_decode_one((uint64_t)s.code, s.code, 2, &i), 2);
	c.cur = &i;
	cnt.insns = 1000;
	i.fn(&c, &i);
	t1 = (c.r[X86_RDX] << 32) | (uint32_t)c.r[X86_RAX];
	assert_true(c.r[X86_RAX] >> 32 == 0);
	cnt.insns = 1000 + (1ull << 32);
	i.fn(&c, &i);
	t2 = (c.r[X86_RDX] << 32) | (uint32_t)c.r[X86_RAX];
	assert_true(t2 > t1);
	assert_int_equal(t2 - t1,
			 (1ull << 32) * (t1 / 1000)); /* proportional, same run → same value */
	i.fn(&c, &i);
	assert_int_equal((c.r[X86_RDX] << 32) | (uint32_t)c.r[X86_RAX], t2);
}

static void fake_syscall(struct x86_cpu *c)
{
	c->r[X86_RAX] = c->r[X86_RDI] + 1;
}

static void test_syscall(void **state)
{
	struct stub s = { .code = { 0x0f, 0x05 }, .len = 2 };
	struct x86_cpu c;
	struct x86_counts cnt;
	struct x86_insn i;
	(void)state;

	x86_cpu_init(&c);
	c.cnt = &cnt;
	assert_int_equal(x86_decode_one((uint64_t)s.code, s.code, 2, &i), 2);
	assert_true(i.flags & X86_I_END);
	c.cur = &i;
	c.syscall = fake_syscall;
	c.r[X86_RDI] = 41;
	x86_set_rflags(&c, 0x202 | X86_CF);
	i.fn(&c, &i);
	assert_int_equal(c.r[X86_RAX], 42);
	assert_int_equal(c.r[X86_RCX], (uint64_t)s.code + 2);
	assert_int_equal(c.r[X86_R11], 0x203);
	assert_int_equal(c.rip, (uint64_t)s.code + 2);

	c.syscall = NULL; /* no OS layer: -ENOSYS */
	i.fn(&c, &i);
	assert_int_equal((int64_t)c.r[X86_RAX], -38);
}

static void test_traps(void **state)
{
	struct hstate h = { .rflags = 0x202 };
	struct x86_cpu c;
	struct x86_counts cnt;
	(void)state;

	/* ud2: SIGILL, ILL_ILLOPN, at the instruction */
	assert_int_equal(run1((const uint8_t[]){ 0x0f, 0x0b }, 2, &h, &c, &cnt), SIGILL);
	assert_int_equal(c.fault.code, ILL_ILLOPN);
	assert_int_equal(c.fault.addr, c.fault.pc);
	assert_int_equal(c.rip, c.fault.pc);
	/* ud1 eax, [rax] and xgetbv, rdtscp: #UD as well */
	assert_int_equal(run1((const uint8_t[]){ 0x0f, 0xb9, 0x00 }, 3, &h, &c, &cnt), SIGILL);
	assert_int_equal(run1((const uint8_t[]){ 0x0f, 0x01, 0xd0 }, 3, &h, &c, &cnt), SIGILL);
	assert_int_equal(run1((const uint8_t[]){ 0x0f, 0x01, 0xf9 }, 3, &h, &c, &cnt), SIGILL);

	/* hlt, cli, rdmsr: #GP → SIGSEGV, SI_KERNEL, address 0 */
	assert_int_equal(run1((const uint8_t[]){ 0xf4 }, 1, &h, &c, &cnt), SIGSEGV);
	assert_int_equal(c.fault.code, 0x80);
	assert_int_equal(c.fault.addr, 0);
	assert_int_equal(c.rip, c.fault.pc);
	assert_int_equal(run1((const uint8_t[]){ 0xfa }, 1, &h, &c, &cnt), SIGSEGV);
	assert_int_equal(run1((const uint8_t[]){ 0x0f, 0x32 }, 2, &h, &c, &cnt), SIGSEGV);

	/* int3: SIGTRAP, resuming after it */
	assert_int_equal(run1((const uint8_t[]){ 0xcc }, 1, &h, &c, &cnt), SIGTRAP);
	assert_int_equal(c.fault.code, 0x80);
	assert_int_equal(c.rip, c.fault.pc + 1);
	/* int 3 (CD 03) likewise; int 0x80: #GP at the instruction */
	assert_int_equal(run1((const uint8_t[]){ 0xcd, 0x03 }, 2, &h, &c, &cnt), SIGTRAP);
	assert_int_equal(c.rip, c.fault.pc + 2);
	assert_int_equal(run1((const uint8_t[]){ 0xcd, 0x80 }, 2, &h, &c, &cnt), SIGSEGV);
	assert_int_equal(c.rip, c.fault.pc);

	/* pause: nothing */
	h.r[X86_RAX] = 9;
	assert_int_equal(run1((const uint8_t[]){ 0xf3, 0x90 }, 2, &h, &c, &cnt), 0);
	assert_int_equal(h.r[X86_RAX], 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vendor_signature),
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_brand),
		cmocka_unit_test(test_caches),
		cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_cpuid_insn),
		cmocka_unit_test(test_rdtsc),
		cmocka_unit_test(test_syscall),
		cmocka_unit_test(test_traps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
