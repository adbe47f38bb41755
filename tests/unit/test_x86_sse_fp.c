/* test_x86_sse_fp.c — SSE/SSE2/SSE3 floating-point arithmetic,
 * comparisons, packed conversions and MXCSR (rounding, DAZ/FTZ, exception
 * flags), against the host's intrinsics on random and edge inputs.
 *
 * Both the handler and the reference run with the same host MXCSR (inside
 * x86_run() the host MXCSR is the guest's); results and the sticky flags
 * afterwards must be identical.  References are noipa functions so the
 * compiler cannot move them across the MXCSR reads and writes.
 */
#include <sys/mman.h>

#include "test_x86_sse.h"

#define N_RANDOM 1500
#define REF __attribute__((noipa))
#define REF3 __attribute__((noipa, target("sse3")))

/* ---- references ---------------------------------------------------------- */

typedef __m128i (*ref2)(__m128i, __m128i);

#define PS(x) _mm_castsi128_ps(x)
#define PD(x) _mm_castsi128_pd(x)
#define IPS(x) _mm_castps_si128(x)
#define IPD(x) _mm_castpd_si128(x)
#define RPS(name, expr)                               \
	REF static __m128i name(__m128i a, __m128i b) \
	{                                             \
		(void)a;                              \
		return IPS(expr);                     \
	}
#define RPD(name, expr)                               \
	REF static __m128i name(__m128i a, __m128i b) \
	{                                             \
		(void)a;                              \
		return IPD(expr);                     \
	}

#define RARITH(op, intr)                               \
	RPS(r_##op##ps, _mm_##intr##_ps(PS(a), PS(b))) \
	RPS(r_##op##ss, _mm_##intr##_ss(PS(a), PS(b))) \
	RPD(r_##op##pd, _mm_##intr##_pd(PD(a), PD(b))) \
	RPD(r_##op##sd, _mm_##intr##_sd(PD(a), PD(b)))
RARITH(add, add)
RARITH(sub, sub)
RARITH(mul, mul)
RARITH(div, div)
RARITH(min, min)
RARITH(max, max)
RPS(r_sqrtps, _mm_sqrt_ps(PS(b)))
RPS(r_sqrtss, _mm_move_ss(PS(a), _mm_sqrt_ss(PS(b))))
RPD(r_sqrtpd, _mm_sqrt_pd(PD(b)))
RPD(r_sqrtsd, _mm_sqrt_sd(PD(a), PD(b)))
RPS(r_rcpps, _mm_rcp_ps(PS(b)))
RPS(r_rcpss, _mm_move_ss(PS(a), _mm_rcp_ss(PS(b))))
RPS(r_rsqrtps, _mm_rsqrt_ps(PS(b)))
RPS(r_rsqrtss, _mm_move_ss(PS(a), _mm_rsqrt_ss(PS(b))))
#define RCMP(n, intr)                                    \
	RPS(r_cmp##n##ps, _mm_##intr##_ps(PS(a), PS(b))) \
	RPS(r_cmp##n##ss, _mm_##intr##_ss(PS(a), PS(b))) \
	RPD(r_cmp##n##pd, _mm_##intr##_pd(PD(a), PD(b))) \
	RPD(r_cmp##n##sd, _mm_##intr##_sd(PD(a), PD(b)))
RCMP(0, cmpeq)
RCMP(1, cmplt)
RCMP(2, cmple)
RCMP(3, cmpunord)
RCMP(4, cmpneq)
RCMP(5, cmpnlt)
RCMP(6, cmpnle)
RCMP(7, cmpord)
RPS(r_cvtss2sd, _mm_castpd_ps(_mm_cvtss_sd(PD(a), PS(b))))
RPS(r_cvtsd2ss, _mm_cvtsd_ss(PS(a), PD(b)))
RPD(r_cvtps2pd, _mm_cvtps_pd(PS(b)))
RPS(r_cvtpd2ps, _mm_cvtpd_ps(PD(b)))
RPS(r_cvtdq2ps, _mm_cvtepi32_ps(b))
REF static __m128i r_cvtps2dq(__m128i a, __m128i b)
{
	(void)a;
	return _mm_cvtps_epi32(PS(b));
}
REF static __m128i r_cvttps2dq(__m128i a, __m128i b)
{
	(void)a;
	return _mm_cvttps_epi32(PS(b));
}
RPD(r_cvtdq2pd, _mm_cvtepi32_pd(b))
REF static __m128i r_cvtpd2dq(__m128i a, __m128i b)
{
	(void)a;
	return _mm_cvtpd_epi32(PD(b));
}
REF static __m128i r_cvttpd2dq(__m128i a, __m128i b)
{
	(void)a;
	return _mm_cvttpd_epi32(PD(b));
}
REF3 static __m128i r_addsubps(__m128i a, __m128i b)
{
	return IPS(_mm_addsub_ps(PS(a), PS(b)));
}
REF3 static __m128i r_addsubpd(__m128i a, __m128i b)
{
	return IPD(_mm_addsub_pd(PD(a), PD(b)));
}
REF3 static __m128i r_haddps(__m128i a, __m128i b)
{
	return IPS(_mm_hadd_ps(PS(a), PS(b)));
}
REF3 static __m128i r_haddpd(__m128i a, __m128i b)
{
	return IPD(_mm_hadd_pd(PD(a), PD(b)));
}
REF3 static __m128i r_hsubps(__m128i a, __m128i b)
{
	return IPS(_mm_hsub_ps(PS(a), PS(b)));
}
REF3 static __m128i r_hsubpd(__m128i a, __m128i b)
{
	return IPD(_mm_hsub_pd(PD(a), PD(b)));
}

/* ---- the table ----------------------------------------------------------- */

struct fop {
	const char *name;
	const char *rr, *rm; /* xmm0, xmm1 and xmm0, [rax] (NULL: no memory form tested) */
	unsigned msize;	     /* bytes the memory form reads */
	ref2 r;
	int kind;
};

#define F4(op, opc)                                                                   \
	{ #op "ps", "0f" opc "c1", "0f" opc "00", 16, r_##op##ps, K_PS },             \
		{ #op "ss", "f30f" opc "c1", "f30f" opc "00", 4, r_##op##ss, K_PS },  \
		{ #op "pd", "660f" opc "c1", "660f" opc "00", 16, r_##op##pd, K_PD }, \
	{                                                                             \
#op "sd", "f20f" opc "c1", "f20f" opc "00", 8, r_##op##sd, K_PD       \
	}
#define C4(n)                                                                           \
	{ "cmpps" #n, "0fc2c10" #n, "0fc2000" #n, 16, r_cmp##n##ps, K_PS },             \
		{ "cmpss" #n, "f30fc2c10" #n, "f30fc2000" #n, 4, r_cmp##n##ss, K_PS },  \
		{ "cmppd" #n, "660fc2c10" #n, "660fc2000" #n, 16, r_cmp##n##pd, K_PD }, \
	{                                                                               \
		"cmpsd" #n, "f20fc2c10" #n, "f20fc2000" #n, 8, r_cmp##n##sd, K_PD       \
	}

static const struct fop fops[] = {
	F4(add, "58"),
	F4(sub, "5c"),
	F4(mul, "59"),
	F4(div, "5e"),
	F4(min, "5d"),
	F4(max, "5f"),
	F4(sqrt, "51"),
	{ "rcpps", "0f53c1", "0f5300", 16, r_rcpps, K_PS },
	{ "rcpss", "f30f53c1", "f30f5300", 4, r_rcpss, K_PS },
	{ "rsqrtps", "0f52c1", "0f5200", 16, r_rsqrtps, K_PS },
	{ "rsqrtss", "f30f52c1", "f30f5200", 4, r_rsqrtss, K_PS },
	{ "addsubps", "f20fd0c1", "f20fd000", 16, r_addsubps, K_PS },
	{ "addsubpd", "660fd0c1", "660fd000", 16, r_addsubpd, K_PD },
	{ "haddps", "f20f7cc1", "f20f7c00", 16, r_haddps, K_PS },
	{ "haddpd", "660f7cc1", "660f7c00", 16, r_haddpd, K_PD },
	{ "hsubps", "f20f7dc1", "f20f7d00", 16, r_hsubps, K_PS },
	{ "hsubpd", "660f7dc1", "660f7d00", 16, r_hsubpd, K_PD },
	C4(0),
	C4(1),
	C4(2),
	C4(3),
	C4(4),
	C4(5),
	C4(6),
	C4(7),
	/* "cmpps" with imm8 > 7: the legacy encoding uses imm8[2:0] */
	{ "cmpps 0x0d", "0fc2c10d", NULL, 16, r_cmp5ps, K_PS },
	{ "cvtss2sd", "f30f5ac1", "f30f5a00", 4, r_cvtss2sd, K_PS },
	{ "cvtsd2ss", "f20f5ac1", "f20f5a00", 8, r_cvtsd2ss, K_PD },
	{ "cvtps2pd", "0f5ac1", "0f5a00", 8, r_cvtps2pd, K_PS },
	{ "cvtpd2ps", "660f5ac1", "660f5a00", 16, r_cvtpd2ps, K_PD },
	{ "cvtdq2ps", "0f5bc1", "0f5b00", 16, r_cvtdq2ps, K_DQ },
	{ "cvtps2dq", "660f5bc1", "660f5b00", 16, r_cvtps2dq, K_PS },
	{ "cvttps2dq", "f30f5bc1", "f30f5b00", 16, r_cvttps2dq, K_PS },
	{ "cvtdq2pd", "f30fe6c1", "f30fe600", 8, r_cvtdq2pd, K_DQ },
	{ "cvtpd2dq", "f20fe6c1", "f20fe600", 16, r_cvtpd2dq, K_PD },
	{ "cvttpd2dq", "660fe6c1", "660fe600", 16, r_cvttpd2dq, K_PD },
};

static void test_fp_ops(void **state)
{
	struct x86_cpu *c = *state;
	__m128i *mem = aligned_alloc(16, 16);

	assert_non_null(mem);
	for (size_t k = 0; k < sizeof(fops) / sizeof(fops[0]); k++) {
		const struct fop *o = &fops[k];
		struct x86_insn rr, rm;

		dec(o->rr, &rr);
		if (o->rm)
			dec(o->rm, &rm);
		for (int n = 0; n < N_RANDOM; n++) {
			__m128i a = gen(o->kind), b = gen(o->kind);
			unsigned mode = modes[n % NMODES], gf, wf;
			__m128i got, want;

			setx(c, 0, a);
			setx(c, 1, b);
			_mm_setcsr(mode);
			assert_int_equal(run(c, &rr), 0);
			gf = _mm_getcsr();
			got = getx(c, 0);
			_mm_setcsr(mode);
			want = o->r(a, b);
			wf = _mm_getcsr();
			_mm_setcsr(0x1f80);
			if (memcmp(&got, &want, 16) != 0 || gf != wf)
				fail128(o->name, mode, a, b, got, gf, want, wf);
			if (!o->rm)
				continue;
			/* memory form: only msize bytes take part */
			_mm_store_si128(mem, b);
			c->r[X86_RAX] = (uint64_t)(uintptr_t)mem;
			setx(c, 0, a);
			_mm_setcsr(mode);
			assert_int_equal(run(c, &rm), 0);
			gf = _mm_getcsr();
			got = getx(c, 0);
			_mm_setcsr(mode);
			if (o->msize == 4)
				want = o->r(a, _mm_cvtsi32_si128(_mm_cvtsi128_si32(b)));
			else if (o->msize == 8)
				want = o->r(a, _mm_move_epi64(b));
			else
				want = o->r(a, b);
			wf = _mm_getcsr();
			_mm_setcsr(0x1f80);
			if (memcmp(&got, &want, 16) != 0 || gf != wf)
				fail128(o->rm, mode, a, b, got, gf, want, wf);
		}
	}
	free(mem);
}

/* Scalar memory operands read exactly their size: an m32/m64 operand
 * ending at an unreadable page does not fault. */
static void test_partial_reads(void **state)
{
	static const char *const forms[] = { "f30f5800", "f20f5800", "0f2f00",	 "660f2e00",
					     "f30f5a00", "0f5a00",   "f30fe600", "f20f1200",
					     "f30f1000", "f20f1000" };
	static const unsigned size[] = { 4, 8, 4, 8, 4, 8, 8, 8, 4, 8 };
	struct x86_cpu *c = *state;
	long pg = 4096;
	uint8_t *p = aligned_alloc((size_t)pg, (size_t)pg * 2);

	assert_non_null(p);
	memset(p, 0, (size_t)pg);
	assert_int_equal(mprotect(p + pg, (size_t)pg, PROT_NONE), 0);
	for (size_t k = 0; k < sizeof(forms) / sizeof(forms[0]); k++) {
		struct x86_insn i;

		dec(forms[k], &i);
		c->r[X86_RAX] = (uint64_t)(uintptr_t)(p + pg - size[k]);
		assert_int_equal(run(c, &i), 0);
	}
	assert_int_equal(mprotect(p + pg, (size_t)pg, PROT_READ | PROT_WRITE), 0);
	free(p);
}

/* ---- comiss & co. --------------------------------------------------------- */

static int is_nan32(uint32_t v)
{
	return (v & 0x7fffffff) > 0x7f800000;
}
static int is_nan64(uint64_t v)
{
	return (v & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

static void test_comis(void **state)
{
	static const struct {
		const char *hex;
		int dbl;
		int (*host)(__m128i, __m128i);
	} t[] = {
		{ "0f2fc1", 0, NULL },
		{ "0f2ec1", 0, NULL },
		{ "660f2fc1", 1, NULL },
		{ "660f2ec1", 1, NULL },
	};
	struct x86_cpu *c = *state;

	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		struct x86_insn i;

		dec(t[k].hex, &i);
		for (int n = 0; n < N_RANDOM; n++) {
			__m128i a = t[k].dbl ? rpd() : rps(), b = t[k].dbl ? rpd() : rps();
			unsigned mode = modes[n % 2 ? 0 : 4]; /* with and without DAZ */
			uint32_t f, want;
			int unord;

			if (n % 7 == 0)
				b = a; /* equal operands */
			setx(c, 0, a);
			setx(c, 1, b);
			x86_set_rflags(c, 0xcd5 | 0x202); /* all arithmetic flags set */
			_mm_setcsr(mode);
			assert_int_equal(run(c, &i), 0);
			_mm_setcsr(0x1f80);
			f = x86_flags(c);
			if (t[k].dbl) {
				double x, y;
				uint64_t xb = (uint64_t)_mm_cvtsi128_si64(a);
				uint64_t yb = (uint64_t)_mm_cvtsi128_si64(b);

				/* DAZ: denormal inputs compare as zero */
				if (mode & 0x40) {
					if (!(xb & 0x7ff0000000000000ull))
						xb &= 1ull << 63;
					if (!(yb & 0x7ff0000000000000ull))
						yb &= 1ull << 63;
				}
				memcpy(&x, &xb, 8);
				memcpy(&y, &yb, 8);
				unord = is_nan64(xb) || is_nan64(yb);
				want = unord ? 0x45 : x < y ? 0x01 : x == y ? 0x40 : 0;
			} else {
				float x, y;
				uint32_t xb = (uint32_t)_mm_cvtsi128_si32(a);
				uint32_t yb = (uint32_t)_mm_cvtsi128_si32(b);

				if (mode & 0x40) {
					if (!(xb & 0x7f800000))
						xb &= 1u << 31;
					if (!(yb & 0x7f800000))
						yb &= 1u << 31;
				}
				memcpy(&x, &xb, 4);
				memcpy(&y, &yb, 4);
				unord = is_nan32(xb) || is_nan32(yb);
				want = unord ? 0x45 : x < y ? 0x01 : x == y ? 0x40 : 0;
			}
			if ((f & 0x8d5) != want)
				fail_msg("%s: %#llx vs %#llx: flags %#x want %#x", t[k].hex,
					 (unsigned long long)_mm_cvtsi128_si64(a),
					 (unsigned long long)_mm_cvtsi128_si64(b), f & 0x8d5, want);
		}
	}
}

/* comiss signals invalid for any NaN, ucomiss only for an SNaN */
static void test_comis_invalid(void **state)
{
	struct x86_cpu *c = *state;
	struct x86_insn comi, ucomi;

	dec("0f2fc1", &comi);
	dec("0f2ec1", &ucomi);
	setx(c, 0, _mm_set1_epi32(0x3f800000));
	setx(c, 1, _mm_set1_epi32(0x7fc00000)); /* QNaN */
	_mm_setcsr(0x1f80);
	run(c, &ucomi);
	assert_int_equal(_mm_getcsr() & CSR_FLAGS, 0);
	run(c, &comi);
	assert_int_equal(_mm_getcsr() & CSR_FLAGS, 1);
	setx(c, 1, _mm_set1_epi32(0x7fa00000)); /* SNaN */
	_mm_setcsr(0x1f80);
	run(c, &ucomi);
	assert_int_equal(_mm_getcsr() & CSR_FLAGS, 1);
	_mm_setcsr(0x1f80);
}

/* ---- known answers --------------------------------------------------------- */

static uint64_t lo64(const struct x86_cpu *c, int r)
{
	return c->xmm[r].q[0];
}

static void test_known_values(void **state)
{
	struct x86_cpu *c = *state;
	struct x86_insn i;

	/* cvttsd2si eax, xmm1 overflow: integer indefinite and IE */
	dec("f20f2cc1", &i);
	setx(c, 1, _mm_castpd_si128(_mm_set_sd(1e10)));
	_mm_setcsr(0x1f80);
	run(c, &i);
	assert_true(c->r[X86_RAX] == 0x80000000ull);
	assert_int_equal(_mm_getcsr() & CSR_FLAGS, 1);

	/* cvtsd2si rounds per MXCSR: 2.5 -> 2 (nearest even), 3 (up), 2 (down, zero) */
	dec("f20f2dc1", &i);
	setx(c, 1, _mm_castpd_si128(_mm_set_sd(2.5)));
	_mm_setcsr(0x1f80);
	run(c, &i);
	assert_int_equal(c->r[X86_RAX], 2);
	_mm_setcsr(0x5f80);
	run(c, &i);
	assert_int_equal(c->r[X86_RAX], 3);
	_mm_setcsr(0x7f80);
	setx(c, 1, _mm_castpd_si128(_mm_set_sd(-2.5)));
	run(c, &i);
	assert_true(c->r[X86_RAX] == (uint32_t)-2);

	/* minss: equal zeros and a NaN in either place give the second operand */
	dec("f30f5dc1", &i);
	setx(c, 0, _mm_set_epi32(1, 2, 3, 0));		     /* +0 */
	setx(c, 1, _mm_set_epi32(5, 6, 7, (int)0x80000000)); /* -0 */
	_mm_setcsr(0x1f80);
	run(c, &i);
	expect128(getx(c, 0), _mm_set_epi32(1, 2, 3, (int)0x80000000), "minss +0,-0", getx(c, 0),
		  getx(c, 1));
	setx(c, 0, _mm_set_epi32(1, 2, 3, 0x7fc00000)); /* NaN, 1.0 -> 1.0 */
	setx(c, 1, _mm_set_epi32(5, 6, 7, 0x3f800000));
	run(c, &i);
	assert_true(lo64(c, 0) == (3ull << 32 | 0x3f800000));

	/* DAZ+FTZ: a denormal input is zero, a denormal result is flushed */
	dec("0f59c1", &i);			/* mulps */
	setx(c, 0, _mm_set1_epi32(0x00400000)); /* denormal */
	setx(c, 1, _mm_set1_epi32(0x3f800000)); /* 1.0 */
	_mm_setcsr(0x1f80);
	run(c, &i);
	assert_int_equal(c->xmm[0].d[2], 0x00400000);
	_mm_setcsr(0x9fc0);
	setx(c, 0, _mm_set1_epi32(0x00400000));
	run(c, &i);
	assert_int_equal(c->xmm[0].d[2], 0);
	setx(c, 0, _mm_set1_epi32(0x00800000)); /* smallest normal */
	setx(c, 1, _mm_set1_epi32(0x3f000000)); /* 0.5 */
	run(c, &i);
	assert_int_equal(c->xmm[0].d[1], 0); /* FTZ */
	_mm_setcsr(0x1f80);

	/* addss keeps the upper three elements of the destination */
	dec("f30f58c1", &i);
	setx(c, 0, _mm_set_epi32(0x11, 0x22, 0x33, 0x3f800000));
	setx(c, 1, _mm_set_epi32(0x44, 0x55, 0x66, 0x3f800000));
	run(c, &i);
	expect128(getx(c, 0), _mm_set_epi32(0x11, 0x22, 0x33, 0x40000000), "addss merge",
		  getx(c, 0), getx(c, 1));
}

/* ---- assists ------------------------------------------------------------- */

/* An element: denormal, zero, a normal near the bottom of the range (whose
 * products underflow), an ordinary normal, or a NaN. */
static uint64_t assist_elem(int dbl)
{
	uint64_t v = rnd_raw(), frac = rnd_raw() & (dbl ? 0x000fffffffffffffull : 0x7fffff);
	uint64_t sign = v & 8 ? (dbl ? 1ull << 63 : 1u << 31) : 0;
	unsigned bias = dbl ? 1023 : 127, shift = dbl ? 52 : 23;

	switch ((v >> 4) % 5) {
	case 0:
		return sign | (frac ? frac : 1);
	case 1:
		return sign;
	case 2:
		return sign | frac | (uint64_t)(1 + (v >> 8) % 8) << shift;
	case 3:
		return sign | frac | (uint64_t)(bias - 8 + (v >> 8) % 16) << shift;
	default:
		return (dbl ? 0x7ff8000000000000ull : 0x7fc00000) | frac;
	}
}

static __m128i assist_vec(int dbl)
{
	if (dbl)
		return _mm_set_epi64x((long long)assist_elem(1), (long long)assist_elem(1));
	return _mm_set_epi32((int)assist_elem(0), (int)assist_elem(0), (int)assist_elem(0),
			     (int)assist_elem(0));
}

/* Whether one of the first n elements of v (the ones an operation reads)
 * is denormal. */
static int denormal(__m128i v, int dbl, int n)
{
	uint64_t e[2];
	uint32_t w[4];
	int den = 0;

	_mm_storeu_si128((__m128i *)e, v);
	_mm_storeu_si128((__m128i *)w, v);
	for (int k = 0; k < n; k++) {
		uint64_t mag = dbl ? e[k] & ~(1ull << 63) : w[k] & 0x7fffffffu;
		den |= mag && mag < (dbl ? 1ull << 52 : 1u << 23);
	}
	return den;
}

/* comisd and ucomiss as references: the flags they set, in a vector. */
REF static __m128i r_comisd(__m128i a, __m128i b)
{
	return _mm_cvtsi32_si128(_mm_comilt_sd(PD(a), PD(b)) << 1 | _mm_comieq_sd(PD(a), PD(b)));
}
REF static __m128i r_ucomiss(__m128i a, __m128i b)
{
	return _mm_cvtsi32_si128(_mm_ucomilt_ss(PS(a), PS(b)) << 1 | _mm_ucomieq_ss(PS(a), PS(b)));
}

/* The assists noted (x86.h) for arithmetic, compares and conversions: a
 * source element the instruction reads that is denormal and that the
 * host's DE flag says was used (not where an invalid operation or a
 * division by zero comes first); a result element that is denormal, where
 * the result can underflow; none with DAZ and FTZ set, and none for what
 * the instruction does not read (the lanes a scalar or a widening form
 * leaves, the destination of sqrt or a conversion).  Elements are doubles
 * (dbl) or singles, na of the destination and nb of the source read, no
 * of the result that can underflow (0: none can). */
static void test_assists(void **state)
{
	static const struct {
		const char *hex;
		ref2 ref;
		int dbl, na, nb, odbl, no;
	} t[] = {
		{ "0f58c1", r_addps, 0, 4, 4, 0, 4 },
		{ "f30f58c1", r_addss, 0, 1, 1, 0, 1 },
		{ "660f58c1", r_addpd, 1, 2, 2, 1, 2 },
		{ "f20f58c1", r_addsd, 1, 1, 1, 1, 1 },
		{ "0f59c1", r_mulps, 0, 4, 4, 0, 4 },
		{ "f20f59c1", r_mulsd, 1, 1, 1, 1, 1 },
		{ "660f5ec1", r_divpd, 1, 2, 2, 1, 2 },
		{ "f30f5cc1", r_subss, 0, 1, 1, 0, 1 },
		{ "0f5dc1", r_minps, 0, 4, 4, 0, 0 },
		{ "f20f5fc1", r_maxsd, 1, 1, 1, 1, 0 },
		{ "0f51c1", r_sqrtps, 0, 0, 4, 0, 0 },
		{ "f20f51c1", r_sqrtsd, 1, 0, 1, 1, 0 },
		{ "0fc2c101", r_cmp1ps, 0, 4, 4, 0, 0 },
		{ "660fc2c102", r_cmp2pd, 1, 2, 2, 1, 0 },
		{ "f30fc2c100", r_cmp0ss, 0, 1, 1, 0, 0 },
		{ "f20fc2c106", r_cmp6sd, 1, 1, 1, 1, 0 },
		{ "660f2fc1", r_comisd, 1, 1, 1, 1, 0 },
		{ "0f2ec1", r_ucomiss, 0, 1, 1, 0, 0 },
		{ "f30f5ac1", r_cvtss2sd, 0, 0, 1, 1, 0 },
		{ "f20f5ac1", r_cvtsd2ss, 1, 0, 1, 0, 1 },
		{ "0f5ac1", r_cvtps2pd, 0, 0, 2, 1, 0 },
		{ "660f5ac1", r_cvtpd2ps, 1, 0, 2, 0, 2 },
		{ "660f5bc1", r_cvtps2dq, 0, 0, 4, 0, 0 },
	};
	struct x86_cpu *c = *state;
	int seen_in = 0, seen_out = 0;

	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		struct x86_insn i;

		dec(t[k].hex, &i);
		for (int r = 0; r < N_RANDOM; r++) {
			__m128i a = assist_vec(t[k].dbl), b = assist_vec(t[k].dbl), want;
			int din = denormal(b, t[k].dbl, t[k].nb) || denormal(a, t[k].dbl, t[k].na);
			int dout;
			unsigned de, got;

			_mm_setcsr(0x1f80);
			want = t[k].ref(a, b);
			de = _mm_getcsr() & 2;
			dout = denormal(want, t[k].odbl, t[k].no);
			setx(c, 0, a);
			setx(c, 1, b);
			c->nassist = 0;
			_mm_setcsr(0x1f80);
			run(c, &i);
			got = x86_assists(c, &i);
			assert_int_equal(!!(got & X86_ASSIST_SSE_IN), din && de);
			assert_true(!de || din);
			assert_int_equal(!!(got & X86_ASSIST_SSE_OUT), dout);
			seen_in |= din && de;
			seen_out |= dout;
			/* DAZ and FTZ: no denormal read, none written */
			setx(c, 0, a);
			c->nassist = 0;
			_mm_setcsr(0x9fc0);
			run(c, &i);
			assert_int_equal(x86_assists(c, &i), 0);
		}
	}
	_mm_setcsr(0x1f80);
	assert_true(seen_in && seen_out); /* the inputs reach both */
	/* the approximations read a denormal as zero: no assist */
	struct x86_insn i;
	dec("0f53c1", &i); /* rcpps */
	setx(c, 1, _mm_set1_epi32(1));
	c->nassist = 0;
	run(c, &i);
	assert_int_equal(c->nassist, 0);
}

/* ---- MXCSR --------------------------------------------------------------- */

static void test_mxcsr(void **state)
{
	struct x86_cpu *c = *state;
	struct x86_insn ld, st;
	uint32_t m[2] = { 0, 0 };

	dec("0fae10", &ld); /* ldmxcsr [rax] */
	dec("0fae18", &st); /* stmxcsr [rax] */
	c->r[X86_RAX] = (uint64_t)(uintptr_t)m;
	_mm_setcsr(0x1f80);
	m[0] = 0x7fbf; /* toward zero, all flags set, DE mask clear... DAZ set */
	m[0] = 0x7fc0 | 0x3f;
	assert_int_equal(run(c, &ld), 0);
	assert_int_equal(_mm_getcsr(), 0x7fff);
	m[0] = 0;
	m[1] = 0xdead;
	assert_int_equal(run(c, &st), 0);
	assert_int_equal(m[0], 0x7fff);
	assert_int_equal(m[1], 0xdead); /* four bytes only */

	/* reserved bits: #GP, MXCSR unchanged */
	m[0] = 0x11f80;
	c->fault.sig = 0;
	assert_int_equal(run(c, &ld), SIGSEGV);
	assert_int_equal(c->fault.code, 0x80);
	assert_int_equal(_mm_getcsr(), 0x7fff);
	_mm_setcsr(0x1f80);

	/* what ldmxcsr loads governs the next handler's rounding */
	{
		struct x86_insn cvt;

		m[0] = 0x3f80; /* round down */
		run(c, &ld);
		dec("f20f2dc1", &cvt);
		setx(c, 1, _mm_castpd_si128(_mm_set_sd(-0.5)));
		run(c, &cvt);
		assert_true((uint32_t)c->r[X86_RAX] == 0xffffffffu);
		_mm_setcsr(0x1f80);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fp_ops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_partial_reads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_comis, setup, teardown),
		cmocka_unit_test_setup_teardown(test_comis_invalid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_known_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_assists, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mxcsr, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
