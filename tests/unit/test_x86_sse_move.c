/* test_x86_sse_move.c — SSE/SSE2/SSE3 data movement: movd/movq in all
 * forms, scalar and half-register moves, duplicating loads, sign masks,
 * masked and non-temporal stores, the string forms sharing movsd/cmpsd,
 * and the 16-byte alignment rule.
 */
#include "test_x86_sse.h"

/* SSE3 references (the host has SSE3; the build's baseline does not say so) */
__attribute__((target("sse3"))) static __m128i r_movshdup(__m128i b)
{
	return _mm_castps_si128(_mm_movehdup_ps(_mm_castsi128_ps(b)));
}

__attribute__((target("sse3"))) static __m128i r_movsldup(__m128i b)
{
	return _mm_castps_si128(_mm_moveldup_ps(_mm_castsi128_ps(b)));
}

/* ---- moves -------------------------------------------------------------- */

static void test_movd_movq(void **state)
{
	struct x86_cpu *c = *state;
	struct x86_insn i;
	__m128i a = _mm_set_epi64x(0x0123456789abcdefll, (long long)0xfedcba9876543210ull);
	uint64_t buf[2] = { 0, 0 };

	dec("660f6ec0", &i); /* movd xmm0, eax */
	setx(c, 0, a);
	c->r[X86_RAX] = 0xaaaabbbbccccddddull;
	run(c, &i);
	expect128(getx(c, 0), _mm_set_epi64x(0, 0xccccddddll), "movd xmm0, eax", a, a);

	dec("66480f6ec0", &i); /* movq xmm0, rax */
	setx(c, 0, a);
	run(c, &i);
	expect128(getx(c, 0), _mm_set_epi64x(0, (long long)0xaaaabbbbccccddddull), "movq xmm, rax",
		  a, a);

	dec("660f7ec0", &i); /* movd eax, xmm0: zero-extends into rax */
	setx(c, 0, a);
	c->r[X86_RAX] = ~0ull;
	run(c, &i);
	assert_true(c->r[X86_RAX] == 0x76543210ull);

	dec("66480f7ec0", &i); /* movq rax, xmm0 */
	run(c, &i);
	assert_true(c->r[X86_RAX] == 0xfedcba9876543210ull);

	dec("f30f7ec1", &i); /* movq xmm0, xmm1: upper cleared */
	setx(c, 0, a);
	setx(c, 1, _mm_set_epi64x(-1, 0x55));
	run(c, &i);
	expect128(getx(c, 0), _mm_set_epi64x(0, 0x55), "movq xmm0, xmm1", a, a);

	dec("660fd600", &i); /* movq [rax], xmm0: 8 bytes only */
	setx(c, 0, a);
	buf[1] = 0x1234;
	c->r[X86_RAX] = (uint64_t)(uintptr_t)buf;
	run(c, &i);
	assert_true(buf[0] == 0xfedcba9876543210ull && buf[1] == 0x1234);

	dec("0f6ec0", &i); /* movd mm0, eax */
	c->r[X86_RAX] = 0xaaaabbbbccccddddull;
	c->mmx[0] = ~0ull;
	c->fpu.tag = 0;
	run(c, &i);
	assert_true(c->mmx[0] == 0xccccddddull);
	assert_int_equal(c->fpu.tag, 0xff);

	dec("480f7ec0", &i); /* movq rax, mm0 */
	c->mmx[0] = 0x1122334455667788ull;
	run(c, &i);
	assert_true(c->r[X86_RAX] == 0x1122334455667788ull);

	dec("f30fd6c1", &i); /* movq2dq xmm0, mm1 */
	c->mmx[1] = 0x99;
	setx(c, 0, a);
	run(c, &i);
	expect128(getx(c, 0), _mm_set_epi64x(0, 0x99), "movq2dq", a, a);

	dec("f20fd6c1", &i); /* movdq2q mm0, xmm1 */
	setx(c, 1, a);
	run(c, &i);
	assert_true(c->mmx[0] == 0xfedcba9876543210ull);

	dec("0f77", &i); /* emms */
	run(c, &i);
	assert_int_equal(c->fpu.tag, 0);
}

static void test_scalar_and_half_moves(void **state)
{
	struct x86_cpu *c = *state;
	struct x86_insn i;
	__m128i a = _mm_set_epi32(0x44444444, 0x33333333, 0x22222222, 0x11111111);
	__m128i b = _mm_set_epi32(0x48888888, 0x47777777, 0x46666666, 0x45555555);
	uint32_t m[4]
		__attribute__((aligned(16))) = { 0xa0a0a0a0, 0xb0b0b0b0, 0xc0c0c0c0, 0xd0d0d0d0 };

	c->r[X86_RAX] = (uint64_t)(uintptr_t)m;
	dec("f30f10c1", &i); /* movss xmm0, xmm1: merge */
	setx(c, 0, a);
	setx(c, 1, b);
	run(c, &i);
	expect128(getx(c, 0), _mm_set_epi32(0x44444444, 0x33333333, 0x22222222, 0x45555555),
		  "movss r,r", a, b);
	dec("f30f1000", &i); /* movss xmm0, [rax]: zero upper */
	run(c, &i);
	expect128(getx(c, 0), _mm_set_epi32(0, 0, 0, (int)0xa0a0a0a0), "movss r,m", a, b);
	dec("f20f10c1", &i); /* movsd xmm0, xmm1 */
	setx(c, 0, a);
	run(c, &i);
	expect128(getx(c, 0), _mm_set_epi32(0x44444444, 0x33333333, 0x46666666, 0x45555555),
		  "movsd r,r", a, b);
	dec("f20f1000", &i);
	run(c, &i);
	expect128(getx(c, 0), _mm_set_epi32(0, 0, (int)0xb0b0b0b0, (int)0xa0a0a0a0), "movsd r,m", a,
		  b);
	dec("f30f1108", &i); /* movss [rax], xmm1 */
	run(c, &i);
	assert_true(m[0] == 0x45555555 && m[1] == 0xb0b0b0b0);

	dec("0f1600", &i); /* movhps xmm0, [rax] */
	setx(c, 0, a);
	run(c, &i);
	expect128(getx(c, 0), _mm_set_epi32((int)0xb0b0b0b0, 0x45555555, 0x22222222, 0x11111111),
		  "movhps", a, b);
	dec("0f1200", &i); /* movlps xmm0, [rax] */
	setx(c, 0, a);
	run(c, &i);
	expect128(getx(c, 0), _mm_set_epi32(0x44444444, 0x33333333, (int)0xb0b0b0b0, 0x45555555),
		  "movlps", a, b);
	dec("660f1708", &i); /* movhpd [rax], xmm1 */
	run(c, &i);
	assert_true(m[0] == 0x47777777 && m[1] == 0x48888888 && m[2] == 0xc0c0c0c0);
	dec("0f12c1", &i); /* movhlps xmm0, xmm1 */
	setx(c, 0, a);
	run(c, &i);
	expect128(getx(c, 0), _mm_set_epi32(0x44444444, 0x33333333, 0x48888888, 0x47777777),
		  "movhlps", a, b);
	dec("0f16c1", &i); /* movlhps xmm0, xmm1 */
	setx(c, 0, a);
	run(c, &i);
	expect128(getx(c, 0), _mm_set_epi32(0x46666666, 0x45555555, 0x22222222, 0x11111111),
		  "movlhps", a, b);
	dec("f20f12c1", &i); /* movddup */
	run(c, &i);
	expect128(getx(c, 0), _mm_set_epi32(0x46666666, 0x45555555, 0x46666666, 0x45555555),
		  "movddup", a, b);
	dec("f30f16c1", &i); /* movshdup */
	run(c, &i);
	expect128(getx(c, 0), r_movshdup(b), "movshdup", a, b);
	dec("f30f12c1", &i); /* movsldup */
	run(c, &i);
	expect128(getx(c, 0), r_movsldup(b), "movsldup", a, b);
}

/* The string movsd (A5, with and without rep) and cmpsd (A7) share their
 * mnemonics with SSE2; the SSE handlers pass them to the string code. */
static void test_string_forms(void **state)
{
	struct x86_cpu *c = *state;
	struct x86_insn i;
	uint32_t src[4] = { 0x11111111, 0x22222222, 0x33333333, 0x44444444 }, dst[4] = { 0 };

	dec("a5", &i);
	assert_int_equal(i.nops, 0);
	setx(c, 0, _mm_set1_epi32(7));
	c->r[X86_RSI] = (uint64_t)(uintptr_t)src;
	c->r[X86_RDI] = (uint64_t)(uintptr_t)dst;
	assert_int_equal(run(c, &i), 0);
	assert_true(dst[0] == 0x11111111 && dst[1] == 0);
	assert_true(c->r[X86_RSI] == (uint64_t)(uintptr_t)(src + 1));
	assert_true(c->r[X86_RDI] == (uint64_t)(uintptr_t)(dst + 1));
	expect128(getx(c, 0), _mm_set1_epi32(7), "xmm0 untouched", getx(c, 0), getx(c, 0));

	dec("f3a5", &i); /* rep movsd, rcx = 2 */
	c->r[X86_RCX] = 2;
	assert_int_equal(run(c, &i), 0);
	assert_true(dst[1] == 0x22222222 && dst[2] == 0x33333333 && dst[3] == 0);
	assert_true(c->r[X86_RCX] == 0);

	dec("a7", &i); /* cmpsd: [rsi] - [rdi] sets the flags */
	c->r[X86_RSI] = (uint64_t)(uintptr_t)src;
	c->r[X86_RDI] = (uint64_t)(uintptr_t)dst;
	assert_int_equal(run(c, &i), 0);
	assert_true(x86_flags(c) & X86_ZF);
	dst[1] = 0x22222223;
	assert_int_equal(run(c, &i), 0);
	assert_true(x86_cond(c, 2)); /* below: CF set */
	expect128(getx(c, 0), _mm_set1_epi32(7), "xmm0 untouched", getx(c, 0), getx(c, 0));
}

static void test_masks(void **state)
{
	struct x86_cpu *c = *state;
	struct x86_insn ps, pd, b, bm;

	dec("0f50c1", &ps);
	dec("660f50c1", &pd);
	dec("660fd7c1", &b);
	dec("0fd7c1", &bm);
	for (int n = 0; n < 500; n++) {
		__m128i v = rnd128();

		setx(c, 1, v);
		c->mmx[1] = (uint64_t)_mm_cvtsi128_si64(v);
		c->r[X86_RAX] = ~0ull;
		run(c, &ps);
		assert_true(c->r[X86_RAX] == (uint64_t)_mm_movemask_ps(_mm_castsi128_ps(v)));
		run(c, &pd);
		assert_true(c->r[X86_RAX] == (uint64_t)_mm_movemask_pd(_mm_castsi128_pd(v)));
		run(c, &b);
		assert_true(c->r[X86_RAX] == (uint64_t)_mm_movemask_epi8(v));
		run(c, &bm);
		assert_true(c->r[X86_RAX] == ((uint64_t)_mm_movemask_epi8(v) & 0xff));
	}
}

static void test_maskmov_and_nt(void **state)
{
	struct x86_cpu *c = *state;
	struct x86_insn i;
	uint8_t buf[48], want[48];
	__m128i v = rnd128(), m = rnd128();
	uint8_t vb[16], mb[16];

	memcpy(vb, &v, 16);
	memcpy(mb, &m, 16);
	memset(buf, 0x5a, sizeof(buf));
	memcpy(want, buf, sizeof(buf));
	for (int k = 0; k < 16; k++)
		if (mb[k] & 0x80)
			want[5 + k] = vb[k];
	dec("660ff7c1", &i); /* maskmovdqu xmm0, xmm1 → [rdi] */
	setx(c, 0, v);
	setx(c, 1, m);
	c->r[X86_RDI] = (uint64_t)(uintptr_t)(buf + 5);
	run(c, &i);
	assert_memory_equal(buf, want, sizeof(buf));

	dec("0fc308", &i); /* movnti [rax], ecx */
	c->r[X86_RAX] = (uint64_t)(uintptr_t)buf;
	c->r[X86_RCX] = 0x1122334455667788ull;
	run(c, &i);
	assert_true(buf[0] == 0x88 && buf[3] == 0x55 && buf[4] == 0x5a);
}

/* Aligned 16-byte forms fault (#GP → SIGSEGV/SI_KERNEL) on a misaligned
 * address; the unaligned ones and 8-byte MMX forms do not. */
static void test_alignment(void **state)
{
	struct x86_cpu *c = *state;
	static const char *const aligned[] = { "0f2800",      "660f6f00", "660f2800", "660fd400",
					       "660f7000 1b", "0f5800",	  "660fe700", "f30f1600" };
	static const char *const unaligned[] = { "0f1000", "f30f6f00", "660f1000", "f20ff000",
						 "0fd400", "f20f1200", "f30f5800" };
	uint8_t *buf = aligned_alloc(16, 64);

	assert_non_null(buf);
	memset(buf, 0, 64);
	c->r[X86_RAX] = (uint64_t)(uintptr_t)(buf + 8);
	for (size_t k = 0; k < sizeof(aligned) / sizeof(aligned[0]); k++) {
		struct x86_insn i;

		dec(aligned[k], &i);
		c->fault.sig = 0;
		if (run(c, &i) != SIGSEGV || c->fault.code != 0x80 || c->fault.addr != 0)
			fail_msg("%s: no #GP on a misaligned operand", aligned[k]);
	}
	for (size_t k = 0; k < sizeof(unaligned) / sizeof(unaligned[0]); k++) {
		struct x86_insn i;

		dec(unaligned[k], &i);
		if (run(c, &i) != 0)
			fail_msg("%s faulted on a misaligned operand", unaligned[k]);
	}
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_movd_movq, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scalar_and_half_moves, setup, teardown),
		cmocka_unit_test_setup_teardown(test_string_forms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_masks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_maskmov_and_nt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_alignment, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
