/* test_x86_sse_cvt.c — SSE/SSE2 conversions with a GPR, memory or MMX
 * side (cvtsi2ss/sd, cvt(t)ss2si/sd2si, cvtpi2ps & co.), against the host
 * under every rounding mode and DAZ/FTZ, flags included.
 */
#include "test_x86_sse.h"

#define N_RANDOM 1500
#define REF __attribute__((noipa))

typedef __m128i (*ref2)(__m128i, __m128i);

#define PS(x) _mm_castsi128_ps(x)
#define PD(x) _mm_castsi128_pd(x)
#define IPS(x) _mm_castps_si128(x)
#define IPD(x) _mm_castpd_si128(x)

/* MMX-operand conversions: the host's own MMX-form instruction (GCC's
 * intrinsics for these may convert all four lanes of an XMM register, which
 * raises flags the real instruction does not), then emms. */
REF static __m128i r_cvtpi2ps(__m128i a, __m128i b)
{
	__m64 m = _mm_cvtsi64_m64(_mm_cvtsi128_si64(b));

	__asm__ volatile("cvtpi2ps %1, %0\n\temms" : "+x"(a) : "y"(m));
	return a;
}

REF static __m128i r_cvtpi2pd(__m128i a, __m128i b)
{
	__m64 m = _mm_cvtsi64_m64(_mm_cvtsi128_si64(b));

	__asm__ volatile("cvtpi2pd %1, %0\n\temms" : "=x"(a) : "y"(m));
	return a;
}

#define RTOPI(name, insn)                                            \
	REF static __m128i name(__m128i a, __m128i b)                \
	{                                                            \
		__m64 m;                                             \
		long long r;                                         \
		(void)a;                                             \
		__asm__ volatile(insn " %1, %0" : "=y"(m) : "x"(b)); \
		r = _mm_cvtm64_si64(m);                              \
		_mm_empty();                                         \
		return _mm_cvtsi64_si128(r);                         \
	}
RTOPI(r_cvtps2pi, "cvtps2pi")
RTOPI(r_cvttps2pi, "cvttps2pi")
RTOPI(r_cvtpd2pi, "cvtpd2pi")
RTOPI(r_cvttpd2pi, "cvttpd2pi")

/* ---- conversions with a GPR or MMX side --------------------------------- */

REF static uint64_t r_cvtss2si32(__m128i b)
{
	return (uint32_t)_mm_cvtss_si32(PS(b));
}
REF static uint64_t r_cvttss2si32(__m128i b)
{
	return (uint32_t)_mm_cvttss_si32(PS(b));
}
REF static uint64_t r_cvtsd2si32(__m128i b)
{
	return (uint32_t)_mm_cvtsd_si32(PD(b));
}
REF static uint64_t r_cvttsd2si32(__m128i b)
{
	return (uint32_t)_mm_cvttsd_si32(PD(b));
}
REF static uint64_t r_cvtss2si64(__m128i b)
{
	return (uint64_t)_mm_cvtss_si64(PS(b));
}
REF static uint64_t r_cvttss2si64(__m128i b)
{
	return (uint64_t)_mm_cvttss_si64(PS(b));
}
REF static uint64_t r_cvtsd2si64(__m128i b)
{
	return (uint64_t)_mm_cvtsd_si64(PD(b));
}
REF static uint64_t r_cvttsd2si64(__m128i b)
{
	return (uint64_t)_mm_cvttsd_si64(PD(b));
}

static void test_cvt_to_int(void **state)
{
	static const struct {
		const char *rr, *rm;
		unsigned msize;
		uint64_t (*r)(__m128i);
		int kind;
	} t[] = {
		{ "f30f2dc1", "f30f2d00", 4, r_cvtss2si32, K_PS },
		{ "f30f2cc1", "f30f2c00", 4, r_cvttss2si32, K_PS },
		{ "f20f2dc1", "f20f2d00", 8, r_cvtsd2si32, K_PD },
		{ "f20f2cc1", "f20f2c00", 8, r_cvttsd2si32, K_PD },
		{ "f3480f2dc1", "f3480f2d00", 4, r_cvtss2si64, K_PS },
		{ "f3480f2cc1", "f3480f2c00", 4, r_cvttss2si64, K_PS },
		{ "f2480f2dc1", "f2480f2d00", 8, r_cvtsd2si64, K_PD },
		{ "f2480f2cc1", "f2480f2c00", 8, r_cvttsd2si64, K_PD },
	};
	struct x86_cpu *c = *state;
	uint64_t *mem = aligned_alloc(16, 16);

	assert_non_null(mem);
	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		struct x86_insn rr, rm;

		dec(t[k].rr, &rr); /* eax/rax, xmm1 */
		dec(t[k].rm, &rm); /* eax/rax, [rax] */
		for (int n = 0; n < N_RANDOM; n++) {
			__m128i b = gen(t[k].kind);
			unsigned mode = modes[n % NMODES], gf, wf;
			uint64_t got, want;

			setx(c, 1, b);
			c->r[X86_RAX] = 0x5555555555555555ull;
			_mm_setcsr(mode);
			assert_int_equal(run(c, &rr), 0);
			gf = _mm_getcsr();
			got = c->r[X86_RAX];
			_mm_setcsr(mode);
			want = t[k].r(b);
			wf = _mm_getcsr();
			_mm_setcsr(0x1f80);
			if (got != want || gf != wf)
				fail_msg(
					"%s mxcsr %#x in %#llx: %#llx flags %#x, want %#llx flags %#x",
					t[k].rr, mode, (unsigned long long)_mm_cvtsi128_si64(b),
					(unsigned long long)got, gf, (unsigned long long)want, wf);
			_mm_store_si128((__m128i *)mem, b);
			c->r[X86_RAX] = (uint64_t)(uintptr_t)mem;
			_mm_setcsr(mode);
			assert_int_equal(run(c, &rm), 0);
			_mm_setcsr(0x1f80);
			assert_true(c->r[X86_RAX] == want);
		}
	}
	free(mem);
}

REF static __m128i r_cvtsi2ss32(__m128i a, uint64_t v)
{
	return IPS(_mm_cvtsi32_ss(PS(a), (int)v));
}
REF static __m128i r_cvtsi2sd32(__m128i a, uint64_t v)
{
	return IPD(_mm_cvtsi32_sd(PD(a), (int)v));
}
REF static __m128i r_cvtsi2ss64(__m128i a, uint64_t v)
{
	return IPS(_mm_cvtsi64_ss(PS(a), (long long)v));
}
REF static __m128i r_cvtsi2sd64(__m128i a, uint64_t v)
{
	return IPD(_mm_cvtsi64_sd(PD(a), (long long)v));
}

static void test_cvt_from_int(void **state)
{
	static const struct {
		const char *rr, *rm;
		__m128i (*r)(__m128i, uint64_t);
	} t[] = {
		{ "f30f2ac0", "f30f2a03", r_cvtsi2ss32 }, /* xmm0, eax / [rbx] */
		{ "f20f2ac0", "f20f2a03", r_cvtsi2sd32 },
		{ "f3480f2ac0", "f3480f2a03", r_cvtsi2ss64 }, /* xmm0, rax / [rbx] */
		{ "f2480f2ac0", "f2480f2a03", r_cvtsi2sd64 },
	};
	static const uint64_t edge[] = { 0,
					 1,
					 ~0ull,
					 0x7fffffff,
					 0x80000000,
					 0x7fffffffffffffff,
					 0x8000000000000000,
					 0x1000001,
					 0x1000003,
					 0x20000000000001,
					 0x20000000000003,
					 0xffffffff00000001 };
	struct x86_cpu *c = *state;
	uint64_t mem;

	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		struct x86_insn rr, rm;

		dec(t[k].rr, &rr);
		dec(t[k].rm, &rm);
		for (int n = 0; n < N_RANDOM; n++) {
			uint64_t v =
				(n & 1) ? edge[(size_t)n / 2 % (sizeof(edge) / sizeof(edge[0]))] :
					  rnd() >> (rnd() & 63);
			__m128i a = rpd(), got, want;
			unsigned mode = modes[n % NMODES], gf, wf;

			setx(c, 0, a);
			c->r[X86_RAX] = v;
			_mm_setcsr(mode);
			assert_int_equal(run(c, &rr), 0);
			gf = _mm_getcsr();
			got = getx(c, 0);
			_mm_setcsr(mode);
			want = t[k].r(a, v);
			wf = _mm_getcsr();
			_mm_setcsr(0x1f80);
			if (memcmp(&got, &want, 16) != 0 || gf != wf)
				fail128(t[k].rr, mode, a, _mm_cvtsi64_si128((long long)v), got, gf,
					want, wf);
			mem = v;
			c->r[X86_RBX] = (uint64_t)(uintptr_t)&mem;
			setx(c, 0, a);
			_mm_setcsr(mode);
			assert_int_equal(run(c, &rm), 0);
			_mm_setcsr(0x1f80);
			expect128(getx(c, 0), want, t[k].rm, a, a);
		}
	}
}

/* cvtpi2ps & co.: MMX register or memory on one side.  The XMM source of
 * cvtps2pi carries NaNs in its unused upper half: they must raise nothing. */
static void test_cvt_mmx(void **state)
{
	static const struct {
		const char *hex;
		ref2 r;
		int mmx_dst, kind;
	} t[] = {
		{ "0f2ac1", r_cvtpi2ps, 0, K_DQ },   { "660f2ac1", r_cvtpi2pd, 0, K_DQ },
		{ "0f2dc1", r_cvtps2pi, 1, K_PS },   { "0f2cc1", r_cvttps2pi, 1, K_PS },
		{ "660f2dc1", r_cvtpd2pi, 1, K_PD }, { "660f2cc1", r_cvttpd2pi, 1, K_PD },
	};
	struct x86_cpu *c = *state;

	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		struct x86_insn i;

		dec(t[k].hex, &i);
		for (int n = 0; n < N_RANDOM; n++) {
			__m128i a = rpd(), b = gen(t[k].kind), got, want;
			unsigned mode = modes[n % NMODES], gf, wf;

			if (t[k].kind == K_PS) /* SNaNs above the two converted singles */
				b = _mm_unpacklo_epi64(b, _mm_set1_epi32(0x7fa00000));
			setx(c, 0, a);
			setx(c, 1, b);
			c->mmx[1] = (uint64_t)_mm_cvtsi128_si64(b);
			c->fpu.tag = 0;
			_mm_setcsr(mode);
			assert_int_equal(run(c, &i), 0);
			gf = _mm_getcsr();
			got = t[k].mmx_dst ? _mm_cvtsi64_si128((long long)c->mmx[0]) : getx(c, 0);
			_mm_setcsr(mode);
			want = t[k].r(a, b);
			wf = _mm_getcsr();
			_mm_setcsr(0x1f80);
			if (memcmp(&got, &want, 16) != 0 || gf != wf)
				fail128(t[k].hex, mode, a, b, got, gf, want, wf);
			assert_int_equal(c->fpu.tag, 0xff); /* an MMX register was used */
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cvt_to_int, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cvt_from_int, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cvt_mmx, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
