/* longdouble.c — guest program: long double (x87) arithmetic under every
 * rounding mode and precision control, conversions to and from integers,
 * float and double, printf/strtold of long doubles, libm's long double
 * functions, classification, the floating-point environment, and an
 * unmasked x87 exception delivered as SIGFPE.  Prints deterministic output
 * that must be identical natively and under the emulator.
 *
 * glibc's long double functions on x86-64 are x87 code with no
 * CPU-dependent variants, so their results are printed in full (%La).
 *
 * vpmu-cflags: -O2
 */
#define _GNU_SOURCE
#include <fenv.h>
#include <float.h>
#include <fpu_control.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* volatile: the compiler must not fold what the processor has to compute */
static volatile long double v[] = {
	1.0L,
	-2.5L,
	0.1L,
	3.0e4000L,
	-1.0e-4940L,
	0.0L,
	-0.0L,
	7.0L,
	1e19L,
	2.5L,
	0x1.fffffffffffffffep16383L,
	0x1p-16382L,
	3.14159265358979323846264338327950288L,
};
#define NV (sizeof(v) / sizeof(v[0]))

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	while (n--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

static uint64_t hash_ld(uint64_t h, long double x)
{
	return fnv(h, &x, 10);
}

static void arith(void)
{
	unsigned a, b;
	uint64_t h = 0xcbf29ce484222325ull;

	for (a = 0; a < NV; a++) {
		for (b = 0; b < NV; b++) {
			long double x = v[a], y = v[b];
			h = hash_ld(h, x + y);
			h = hash_ld(h, x - y);
			h = hash_ld(h, x * y);
			h = hash_ld(h, x / y);
			h = hash_ld(h, fmodl(x, y));
			h = hash_ld(h, remainderl(x, y));
			h = fnv(h, (int[]){ x < y, x <= y, x == y, isunordered(x, y) },
				4 * sizeof(int));
		}
		h = hash_ld(h, sqrtl(v[a]));
	}
	printf("arith hash %016llx\n", (unsigned long long)h);
	printf("1/3 %La  sqrt2 %La  0.1*3 %La\n", v[0] / 3.0L, sqrtl(2.0L * v[0]), v[2] * 3);
}

static void rounding(void)
{
	static const int mode[] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO };
	static const char *name[] = { "nearest", "upward", "downward", "towardzero" };
	unsigned m;

	for (m = 0; m < 4; m++) {
		long double third, big;
		fesetround(mode[m]);
		third = v[0] / 3.0L;
		big = v[8] * v[8] * v[8];
		printf("%-10s 1/3 %La -1/3 %La rint(2.5) %.1Lf rint(-3.5) %.1Lf lrint(7.5) %ld "
		       "llrint(-1e19/3) %lld big %La %.25Lg\n",
		       name[m], third, -third, rintl(v[9]), rintl(-3.5L), lrintl(v[7] + 0.5L),
		       llrintl(-v[8] / 3), big, third);
	}
	fesetround(FE_TONEAREST);
}

static void precision(void)
{
	static const fpu_control_t pc[] = { _FPU_SINGLE, _FPU_DOUBLE, _FPU_EXTENDED };
	fpu_control_t saved;
	unsigned k;

	_FPU_GETCW(saved);
	for (k = 0; k < 3; k++) {
		fpu_control_t cw = (saved & ~_FPU_EXTENDED) | pc[k];
		long double x, y;
		_FPU_SETCW(cw);
		x = v[0] / 3.0L;
		y = sqrtl(v[2]) + v[12];
		_FPU_SETCW(saved);
		printf("pc %u: 1/3 %La  sqrt(0.1)+pi %La\n", k, x, y);
	}
}

static void conversions(void)
{
	static const char *s[] = { "0.1",
				   "1e4932",
				   "1.2e4932",
				   "1e-4950",
				   "0x1.8p-16445",
				   "3.14159265358979323846264338327950288",
				   "-0",
				   "inf",
				   "-nan",
				   "nan(0x123)",
				   "123456789012345678901234567890",
				   "4.9e-324",
				   "1.18973149535723176502e+4932" };
	unsigned k;

	for (k = 0; k < sizeof(s) / sizeof(s[0]); k++) {
		char *end;
		long double x = strtold(s[k], &end);
		printf("strtold(%s) = %La %.21Lg %Le rest '%s'\n", s[k], x, x, x, end);
	}
	for (k = 0; k < NV; k++) {
		long double x = v[k];
		double d = (double)x;
		float f = (float)x;
		printf("%Lf | %.30Lg | %La | %a %a | %lld %llu\n", x, x, x, d, (double)f,
		       (long long)(x / 1e10L), (unsigned long long)(fabsl(x) / 1e3L));
	}
	printf("LDBL_MAX %La %Lg LDBL_MIN %La LDBL_TRUE_MIN %La LDBL_EPSILON %La\n", LDBL_MAX,
	       LDBL_MAX, LDBL_MIN, LDBL_TRUE_MIN, LDBL_EPSILON);
	printf("u64 %La %La i64 %La\n", (long double)(uint64_t)~0ull,
	       (long double)(uint64_t)0x8000000000000001ull, (long double)(int64_t)-9);
	printf("%.40Lf\n%.0Lf\n%20.5Le|%-20.3Lg|%+Lf\n", v[2], v[8] * 1e30L, v[12], v[4], v[1]);
}

static void functions(void)
{
	static const long double x[] = { 0.5L, 1.0L, -2.25L, 10.0L, 1e-5L, 1e5L, 1e22L, 0.75L };
	uint64_t h = 0xcbf29ce484222325ull;
	unsigned k;

	for (k = 0; k < sizeof(x) / sizeof(x[0]); k++) {
		long double a = x[k];
		printf("x=%Lg sin %La cos %La tan %La exp %La log %La\n", a, sinl(a), cosl(a),
		       tanl(a), expl(a), logl(fabsl(a)));
		printf("  pow(x,1.5) %La atan2(x,3) %La cbrt %La hypot %La log1p %La expm1 %La\n",
		       powl(fabsl(a), 1.5L), atan2l(a, 3.0L), cbrtl(a), hypotl(a, 4.0L),
		       log1pl(fabsl(a)), expm1l(a / 8));
		printf("  asin %La acos %La atan %La sinh %La tanh %La log2 %La log10 %La\n",
		       asinl(a / 16), acosl(a / 16), atanl(a), sinhl(a / 8), tanhl(a),
		       log2l(fabsl(a)), log10l(fabsl(a)));
	}
	for (k = 1; k <= 2000; k++) {
		long double a = (long double)k * 0.37L;
		h = hash_ld(h, sinl(a));
		h = hash_ld(h, expl(-a / 100));
		h = hash_ld(h, powl(a, 0.3L));
		h = hash_ld(h, atan2l(a, 7.0L));
	}
	printf("libm hash %016llx\n", (unsigned long long)h);
}

static void classify(void)
{
	static const char *cls[] = { "nan", "inf", "zero", "subnormal", "normal" };
	long double w[] = { v[0],     v[3] * v[3], v[4], v[5], v[6], v[3] * v[3] - v[3] * v[3],
			    v[11] / 4 };
	unsigned k;

	for (k = 0; k < sizeof(w) / sizeof(w[0]); k++) {
		int c = fpclassify(w[k]), e;
		long double ip, m = frexpl(w[k], &e);
		printf("%La: %s signbit %d isnan %d isinf %d frexp %La %d modf %La ", w[k],
		       cls[c == FP_NAN	     ? 0 :
			   c == FP_INFINITE  ? 1 :
			   c == FP_ZERO	     ? 2 :
			   c == FP_SUBNORMAL ? 3 :
					       4],
		       signbit(w[k]) != 0, isnan(w[k]) != 0, isinf(w[k]) != 0, m, e,
		       modfl(w[k], &ip));
		printf("logb %La ldexp %La scalbn %La\n", logbl(w[k]), ldexpl(w[k], 100),
		       scalbnl(w[k], -3));
	}
}

static void sums(void)
{
	long double s = 0, c = 0, t, y;
	unsigned k;

	for (k = 1; k <= 100000; k++) {
		y = 1.0L / ((long double)k * k) - c;
		t = s + y;
		c = (t - s) - y;
		s = t;
	}
	printf("sum 1/k^2 %La (pi^2/6 %La)\n", s, v[12] * v[12] / 6);
}

static volatile long double sink;

static void environment(void)
{
	fenv_t env;
	int raised;

	feclearexcept(FE_ALL_EXCEPT);
	sink = v[0] / v[5];
	raised = fetestexcept(FE_ALL_EXCEPT);
	printf("1/0 raises divbyzero %d invalid %d\n", !!(raised & FE_DIVBYZERO),
	       !!(raised & FE_INVALID));
	feclearexcept(FE_ALL_EXCEPT);
	sink = v[5] / v[5];
	printf("0/0 raises invalid %d\n", !!fetestexcept(FE_INVALID));
	feclearexcept(FE_ALL_EXCEPT);
	sink = v[3] * v[3];
	raised = fetestexcept(FE_ALL_EXCEPT);
	printf("huge*huge raises overflow %d inexact %d\n", !!(raised & FE_OVERFLOW),
	       !!(raised & FE_INEXACT));
	feclearexcept(FE_ALL_EXCEPT);
	sink = v[11] * v[11];
	raised = fetestexcept(FE_ALL_EXCEPT);
	printf("tiny*tiny raises underflow %d\n", !!(raised & FE_UNDERFLOW));

	fegetenv(&env);
	fesetround(FE_UPWARD);
	feraiseexcept(FE_OVERFLOW);
	printf("in changed env: round %d overflow %d\n", fegetround() == FE_UPWARD,
	       !!fetestexcept(FE_OVERFLOW));
	fesetenv(&env);
	printf("restored env: round %d overflow %d\n", fegetround() == FE_TONEAREST,
	       !!fetestexcept(FE_OVERFLOW));
	feholdexcept(&env);
	sink = v[0] / v[5];
	feupdateenv(&env);
	printf("feupdateenv keeps divbyzero %d\n", !!fetestexcept(FE_DIVBYZERO));
	feclearexcept(FE_ALL_EXCEPT);
}

static sigjmp_buf jb;
static volatile sig_atomic_t got_code;

static void on_fpe(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	got_code = si->si_code;
	siglongjmp(jb, 1);
}

/* An unmasked x87 exception is reported at the next waiting x87
 * instruction; the handler starts with a clean FPU state. */
static void trap(void)
{
	struct sigaction sa;
	volatile long double r = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fpe;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGFPE, &sa, NULL);
	feclearexcept(FE_ALL_EXCEPT);
	if (!sigsetjmp(jb, 1)) {
		feenableexcept(FE_DIVBYZERO);
		r = v[0] / v[5];
		printf("no trap: %La\n", (long double)r);
	} else {
		printf("SIGFPE si_code %s\n", got_code == FPE_FLTDIV ? "FPE_FLTDIV" : "other");
	}
	fedisableexcept(FE_ALL_EXCEPT);
	feclearexcept(FE_ALL_EXCEPT);
	printf("after the handler: 1/3 %La\n", v[0] / 3.0L);
}

int main(void)
{
	arith();
	rounding();
	precision();
	conversions();
	functions();
	classify();
	sums();
	environment();
	trap();
	return 0;
}
