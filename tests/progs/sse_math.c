/* sse_math.c — guest program: float/double arithmetic, conversions,
 * rounding modes, exception flags, DAZ/FTZ, printf/strtod of doubles,
 * vectorised loops and SSE2/SSE3 intrinsics.  Prints deterministic output
 * that must be identical natively and under the emulator.
 *
 * Exactly-rounded results (+ - * / sqrt, conversions) are printed in full
 * (%a); libm results, whose last bit may differ between the code paths
 * glibc picks for different CPUs, are printed to 12 significant digits.
 *
 * vpmu-cflags: -O2 -ftree-vectorize
 */
#include <emmintrin.h>
#include <fenv.h>
#include <math.h>
#include <pmmintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 1024

/* volatile: the compiler must not fold what the processor has to compute */
static volatile double vd[] = { 1.0, -2.5, 0.1, 3.0e300, -1.0e-310, 0.0, -0.0, 7.0, 1e16, 2.5 };
static volatile float vf[] = { 1.0f, -2.5f, 0.1f, 3.0e38f,     -1.0e-40f,
			       0.0f, -0.0f, 7.0f, 16777217.0f, 2.5f };
#define NV 10

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t k = 0; k < n; k++)
		h = (h ^ b[k]) * 0x100000001b3ull;
	return h;
}

static void arithmetic(void)
{
	for (int k = 0; k + 1 < NV; k++) {
		double a = vd[k], b = vd[k + 1];
		float x = vf[k], y = vf[k + 1];

		printf("d %a %a: + %a - %a * %a / %a sqrt %a min %a\n", a, b, a + b, a - b, a * b,
		       a / b, sqrt(fabs(a)), fmin(a, b));
		printf("f %a %a: + %a - %a * %a / %a sqrt %a\n", (double)x, (double)y,
		       (double)(x + y), (double)(x - y), (double)(x * y), (double)(x / y),
		       (double)sqrtf(fabsf(x)));
	}
}

static void conversions(void)
{
	static volatile double cd[] = { 0.5,	      1.5,	     2.5,     -0.5,  -1.5,
					2147483647.5, -2147483648.9, 1e10,    -1e19, 9.3e18,
					1.8e19,	      NAN,	     INFINITY };
	static volatile long long ci[] = { 0,
					   1,
					   -1,
					   16777217,
					   9007199254740993LL,
					   (long long)0x8000000000000000ull,
					   0x7fffffffffffffffLL };

	for (size_t k = 0; k < sizeof(cd) / sizeof(cd[0]); k++) {
		double d = cd[k];
		int i32 = 0;
		long long i64 = 0;
		unsigned long long u64 = 0;

		/* out-of-range conversions are undefined in C; do them through
		 * the instructions so the result is the processor's */
		i32 = _mm_cvttsd_si32(_mm_set_sd(d));
		i64 = _mm_cvttsd_si64(_mm_set_sd(d));
		if (d >= 0 && d < 1.8e19)
			u64 = (unsigned long long)d;
		printf("cvt %a: i32 %d i64 %lld u64 %llu rint %d lrint %ld f %a\n", d, i32, i64,
		       u64, _mm_cvtsd_si32(_mm_set_sd(d)),
		       (long)(isfinite(d) && fabs(d) < 9e18 ? lrint(d) : 0), (double)(float)d);
	}
	for (size_t k = 0; k < sizeof(ci) / sizeof(ci[0]); k++) {
		long long v = ci[k];

		printf("int %lld: d %a f %a ud %a i32d %a\n", v, (double)v, (double)(float)v,
		       (double)(unsigned long long)v, (double)(int)v);
	}
}

static void rounding_modes(void)
{
	static const int modes[] = { FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO };
	static const char *const names[] = { "nearest", "down", "up", "zero" };

	for (int m = 0; m < 4; m++) {
		volatile double one = 1.0, three = 3.0, x = -2.5;
		volatile float f1 = 1.0f, f3 = 3.0f;

		fesetround(modes[m]);
		printf("round %s: 1/3 %a -1/3 %a f %a rint(-2.5) %g nearbyint(2.5) %g lrint(-2.5) %ld "
		       "cvtsd2si %d\n",
		       names[m], one / three, -one / three, (double)(f1 / f3), rint(x),
		       nearbyint(-x), lrint(x), _mm_cvtsd_si32(_mm_set_sd(x)));
	}
	fesetround(FE_TONEAREST);
}

static void exception_flags(void)
{
	volatile double zero = 0.0, one = 1.0, big = 1e308, tiny = 1e-308;
	volatile double r;

	feclearexcept(FE_ALL_EXCEPT);
	r = one / zero;
	printf("1/0 = %g divbyzero %d\n", r, !!fetestexcept(FE_DIVBYZERO));
	feclearexcept(FE_ALL_EXCEPT);
	r = big * big;
	printf("big*big = %g overflow %d inexact %d\n", r, !!fetestexcept(FE_OVERFLOW),
	       !!fetestexcept(FE_INEXACT));
	feclearexcept(FE_ALL_EXCEPT);
	r = tiny * tiny;
	printf("tiny*tiny = %g underflow %d\n", r, !!fetestexcept(FE_UNDERFLOW));
	feclearexcept(FE_ALL_EXCEPT);
	r = zero / zero;
	printf("0/0 nan %d invalid %d\n", isnan(r), !!fetestexcept(FE_INVALID));
	feclearexcept(FE_ALL_EXCEPT);
	r = one + one;
	printf("1+1 = %g flags %#x\n", r, fetestexcept(FE_ALL_EXCEPT));
	feclearexcept(FE_ALL_EXCEPT);
	{
		volatile double huge = 1e20;
		volatile int i = _mm_cvttsd_si32(_mm_set_sd(huge));

		printf("cvttsd2si(1e20) = %d invalid %d\n", i, !!fetestexcept(FE_INVALID));
	}
	feclearexcept(FE_ALL_EXCEPT);
	{
		volatile double nan = NAN;
		int u, c;

		u = _mm_ucomieq_sd(_mm_set_sd(nan), _mm_set_sd(1));
		printf("ucomisd(nan) eq %d invalid %d; ", u, !!fetestexcept(FE_INVALID));
		c = _mm_comilt_sd(_mm_set_sd(nan), _mm_set_sd(1));
		printf("comisd(nan) lt %d invalid %d\n", c, !!fetestexcept(FE_INVALID));
	}
	feclearexcept(FE_ALL_EXCEPT);
}

static void daz_ftz(void)
{
	unsigned saved = _mm_getcsr();
	volatile float den = 1e-40f, half = 0.5f, minnorm = 1.17549435e-38f;

	printf("denormal: %a * 1 = %a, minnorm*0.5 = %a\n", (double)den, (double)(den * 1.0f),
	       (double)(minnorm * half));
	_mm_setcsr(saved | 0x8040); /* FTZ | DAZ */
	printf("daz+ftz:  %a * 1 = %a, minnorm*0.5 = %a, mxcsr %#x\n", (double)den,
	       (double)(den * 1.0f), (double)(minnorm * half), _mm_getcsr() & 0xffc0);
	_mm_setcsr(saved);
}

static void libm(void)
{
	for (int k = 1; k <= 8; k++) {
		double x = k * 0.37;

		printf("libm %.2f: sin %.12g cos %.12g exp %.12g log %.12g pow %.12g atan2 %.12g "
		       "sinf %.6g\n",
		       x, sin(x), cos(x), exp(x), log(x), pow(x, 1.7), atan2(x, 1.3),
		       (double)sinf((float)x));
	}
}

static void strings(void)
{
	static const char *const in[] = {
		"3.14159265358979323846",  "1e-320", "0x1.8p3", "-inf", "2.2250738585072014e-308",
		"123456789012345678901234"
	};
	char buf[64];

	for (size_t k = 0; k < sizeof(in) / sizeof(in[0]); k++) {
		double d = strtod(in[k], NULL);

		snprintf(buf, sizeof(buf), "%.17g", d);
		printf("strtod %s -> %a -> %s %e %f\n", in[k], d, buf, d, d > 1e30 ? 0.0 : d);
	}
}

/* Loops the compiler vectorises at -O2 -ftree-vectorize. */
static float fa[N], fb[N], fc[N];
static double da[N], db[N];
static int ia[N], ib[N];
static short sa[N], sb[N];
static unsigned char ua[N], ub[N];

static void vector_loops(void)
{
	uint64_t h = 0xcbf29ce484222325ull;
	float fmax = -INFINITY;
	long long isum = 0;
	int imin = 1 << 30;
	double dsum = 0;

	for (int k = 0; k < N; k++) {
		fa[k] = (float)(k % 97) * 0.25f - 3.0f;
		fb[k] = (float)(k % 13) + 0.5f;
		da[k] = k * 1.0e-3;
		db[k] = (k % 7) - 3.0;
		ia[k] = (k * 7919) % 1000 - 500;
		ib[k] = (k * 104729) % 333;
		sa[k] = (short)(k * 37);
		sb[k] = (short)(k * -91);
		ua[k] = (unsigned char)(k * 13);
		ub[k] = (unsigned char)(k * 29 + 7);
	}
	for (int k = 0; k < N; k++)
		fc[k] = fa[k] * fb[k] + fa[k] / fb[k];
	h = fnv(h, fc, sizeof(fc));
	for (int k = 0; k < N; k++)
		fmax = fa[k] > fmax ? fa[k] : fmax;
	for (int k = 0; k < N; k++)
		ia[k] = ia[k] * 3 + (ib[k] >> 2);
	h = fnv(h, ia, sizeof(ia));
	for (int k = 0; k < N; k++)
		isum += ia[k];
	for (int k = 0; k < N; k++)
		imin = ia[k] < imin ? ia[k] : imin;
	for (int k = 0; k < N; k++)
		da[k] = da[k] * db[k] - 0.5 * da[k];
	h = fnv(h, da, sizeof(da));
	for (int k = 0; k < N; k++)
		dsum += da[k] * da[k];
	for (int k = 0; k < N; k++)
		sa[k] = (short)(sa[k] + sb[k] * 3);
	h = fnv(h, sa, sizeof(sa));
	for (int k = 0; k < N; k++)
		ua[k] = (unsigned char)((ua[k] + ub[k] + 1) >> 1);
	h = fnv(h, ua, sizeof(ua));
	for (int k = 0; k < N; k++)
		fc[k] = (float)ia[k] * 0.5f;
	for (int k = 0; k < N; k++)
		ib[k] = (int)fc[k];
	h = fnv(h, ib, sizeof(ib));
	for (int k = 0; k < N; k++)
		db[k] = (double)fa[k];
	h = fnv(h, db, sizeof(db));
	printf("loops: hash %016llx fmax %a isum %lld imin %d dsum %a\n", (unsigned long long)h,
	       (double)fmax, isum, imin, dsum);
}

/* Vectors the compiler cannot see through. */
static volatile float vin_ps[8] = { 1.5f, -2.0f, 3.25f, NAN, 0.5f, 4.0f, -1.0f, 1.0f };
static volatile double vin_pd[4] = { 1.0 / 3, -7.0, 2.0, NAN };

static __m128 ld_ps(int k)
{
	return _mm_setr_ps(vin_ps[k], vin_ps[k + 1], vin_ps[k + 2], vin_ps[k + 3]);
}

static __m128d ld_pd(int k)
{
	return _mm_setr_pd(vin_pd[k], vin_pd[k + 1]);
}

/* Explicit SSE2 intrinsics: the integer and shuffle instructions that glibc
 * and hand-vectorised code use. */
static void intrinsics(void)
{
	uint64_t h = 0xcbf29ce484222325ull;
	__m128i acc = _mm_setzero_si128();

	for (int k = 0; k + 16 <= N; k += 16) {
		__m128i a = _mm_loadu_si128((const __m128i *)&ua[k]);
		__m128i b = _mm_loadu_si128((const __m128i *)&ub[k]);
		__m128i s = _mm_loadu_si128((const __m128i *)&sa[k / 2]);
		__m128i t = _mm_loadu_si128((const __m128i *)&sb[k / 2]);
		__m128i r;

		r = _mm_sad_epu8(a, b);
		r = _mm_add_epi64(r, _mm_madd_epi16(s, t));
		r = _mm_xor_si128(r, _mm_packs_epi16(s, t));
		r = _mm_add_epi8(r, _mm_packus_epi16(s, t));
		r = _mm_sub_epi16(r, _mm_mulhi_epi16(s, t));
		r = _mm_or_si128(r, _mm_and_si128(_mm_cmpgt_epi8(a, b), _mm_avg_epu8(a, b)));
		r = _mm_add_epi32(r, _mm_shuffle_epi32(r, 0x4e));
		r = _mm_add_epi16(r, _mm_shufflelo_epi16(_mm_shufflehi_epi16(r, 0x1b), 0xb1));
		r = _mm_xor_si128(r, _mm_unpackhi_epi8(a, b));
		r = _mm_add_epi16(r, _mm_unpacklo_epi16(s, t));
		r = _mm_sub_epi32(r, _mm_srai_epi32(r, 3));
		r = _mm_add_epi64(r, _mm_slli_epi64(r, 17));
		r = _mm_xor_si128(r, _mm_srli_si128(r, 5));
		r = _mm_xor_si128(r, _mm_slli_si128(r, 3));
		r = _mm_adds_epu8(r, _mm_subs_epi16(s, t));
		r = _mm_min_epu8(r, _mm_max_epi16(s, t));
		r = _mm_mul_epu32(r, _mm_set1_epi32(2654435761u));
		r = _mm_insert_epi16(r, _mm_extract_epi16(a, 3) + _mm_movemask_epi8(b), 5);
		acc = _mm_add_epi64(acc, r);
		acc = _mm_xor_si128(acc, _mm_cmpeq_epi32(acc, r));
	}
	h = fnv(h, &acc, sizeof(acc));
	{
		__m128 x = ld_ps(0), y = ld_ps(4);
		__m128d p = ld_pd(0), q = ld_pd(2);
		float o[4];
		double od[2];

		_mm_storeu_ps(o, _mm_shuffle_ps(_mm_min_ps(x, y), _mm_max_ps(y, x), 0x8d));
		printf("ps min/max/shuf: %a %a %a %a\n", (double)o[0], (double)o[1], (double)o[2],
		       (double)o[3]);
		printf("cmpps lt/unord masks: %x %x rcp/rsqrt approx %d %d\n",
		       _mm_movemask_ps(_mm_cmplt_ps(x, y)), _mm_movemask_ps(_mm_cmpunord_ps(x, y)),
		       fabsf(_mm_cvtss_f32(_mm_rcp_ss(y)) - 2.0f) < 1e-3f,
		       fabsf(_mm_cvtss_f32(_mm_rsqrt_ss(_mm_set_ss(vin_ps[5]))) - 0.5f) < 1e-3f);
		_mm_storeu_pd(od, _mm_unpackhi_pd(_mm_div_pd(p, q), _mm_sqrt_pd(p)));
		printf("pd div/sqrt/unpck: %a %a movmskpd %d\n", od[0], od[1],
		       _mm_movemask_pd(_mm_cmpord_pd(p, q)));
		_mm_storeu_pd(od, _mm_cvtps_pd(_mm_movehl_ps(x, x)));
		printf("cvtps2pd/movhlps: %a %a cvtps2dq %d\n", od[0], od[1],
		       _mm_cvtsi128_si32(_mm_cvtps_epi32(_mm_mul_ps(y, x))));
	}
	printf("intrinsics: hash %016llx\n", (unsigned long long)h);
}

/* SSE3: horizontal adds and friends (the emulated processor reports SSE3). */
__attribute__((target("sse3"))) static void sse3(void)
{
	__m128 x = ld_ps(4), y = _mm_mul_ps(ld_ps(4), _mm_set1_ps(3.0f));
	__m128d p = ld_pd(0), q = _mm_mul_pd(ld_pd(0), _mm_set1_pd(1e300));
	float o[4];
	double od[2];

	_mm_storeu_ps(o, _mm_hadd_ps(_mm_addsub_ps(x, y), _mm_hsub_ps(x, _mm_movehdup_ps(y))));
	printf("sse3 ps: %a %a %a %a\n", (double)o[0], (double)o[1], (double)o[2], (double)o[3]);
	_mm_storeu_pd(od, _mm_hadd_pd(_mm_addsub_pd(p, q), _mm_movedup_pd(p)));
	printf("sse3 pd: %a %a\n", od[0], od[1]);
	_mm_storeu_ps(o, _mm_moveldup_ps(y));
	printf("movsldup: %a %a\n", (double)o[0], (double)o[2]);
}

/* MMX, which compilers no longer emit by themselves: a few integer
 * operations, a shuffle, a conversion to single precision, then emms. */
static void mmx(void)
{
	static volatile uint64_t in[2] = { 0x0123456789abcdefull, 0xfedcba9876543210ull };
	uint64_t a = in[0], b = in[1], r1, r2, r3;
	float f[4] = { 0, 0, 0, 0 };

	__asm__ volatile("movq %[a], %%mm0\n\t"
			 "movq %[b], %%mm1\n\t"
			 "movq %%mm0, %%mm2\n\t"
			 "paddusb %%mm1, %%mm2\n\t"
			 "pshufw $0x1b, %%mm2, %%mm2\n\t"
			 "movq %%mm2, %[r1]\n\t"
			 "movq %%mm0, %%mm3\n\t"
			 "psadbw %%mm1, %%mm3\n\t"
			 "punpckhbw %%mm1, %%mm0\n\t"
			 "pmaddwd %%mm0, %%mm3\n\t"
			 "movq %%mm3, %[r2]\n\t"
			 "packsswb %%mm1, %%mm0\n\t"
			 "movq %%mm0, %[r3]\n\t"
			 "cvtpi2ps %%mm1, %%xmm7\n\t"
			 "movups %%xmm7, %[f]\n\t"
			 "emms"
			 : [r1] "=m"(r1), [r2] "=m"(r2), [r3] "=m"(r3), [f] "=m"(f)
			 : [a] "m"(a), [b] "m"(b)
			 : "xmm7", "mm0", "mm1", "mm2", "mm3");
	printf("mmx: %016llx %016llx %016llx cvtpi2ps %a %a\n", (unsigned long long)r1,
	       (unsigned long long)r2, (unsigned long long)r3, (double)f[0], (double)f[1]);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void sorting(void)
{
	double v[64];
	uint64_t h = 0xcbf29ce484222325ull;

	for (int k = 0; k < 64; k++)
		v[k] = sin(k * 1.7) * 1000.0;
	qsort(v, 64, sizeof(v[0]), cmp_double);
	for (int k = 0; k < 64; k++) {
		long r = lround(v[k]);

		h = fnv(h, &r, sizeof(r));
	}
	printf("qsort: first %.3f last %.3f hash %016llx\n", v[0], v[63], (unsigned long long)h);
}

int main(void)
{
	arithmetic();
	conversions();
	rounding_modes();
	exception_flags();
	daz_ftz();
	libm();
	strings();
	vector_loops();
	intrinsics();
	sse3();
	mmx();
	sorting();
	return 0;
}
