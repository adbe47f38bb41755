/* test_x86_sse_fp.c — SSE/SSE2/SSE3 floating-point, comparison and
 * conversion handlers, MXCSR and its effects (rounding, DAZ/FTZ, exception
 * flags), against the host's intrinsics on random and edge inputs.
 *
 * Both the handler and the reference run with the same host MXCSR (inside
 * x86_run() the host MXCSR is the guest's); results and the sticky flags
 * afterwards must be identical.  References are noipa functions so the
 * compiler cannot move them across the MXCSR reads and writes.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cmocka.h>
#include <immintrin.h>

#include "emu/x86/sse.h"

#define N_RANDOM 1500
#define REF __attribute__((noipa))
#define REF3 __attribute__((noipa, target("sse3")))

/* default, round down, round up, toward zero, and DAZ+FTZ */
static const unsigned modes[] = { 0x1f80, 0x3f80, 0x5f80, 0x7f80, 0x9fc0 };
#define NMODES (sizeof(modes) / sizeof(modes[0]))
#define CSR_FLAGS 0x3fu

static uint64_t rnd_state = 0x13198a2e03707344ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 0x2545f4914f6cdd1dull;
}

/* A single's bits: one in four special (zeros, infinities, QNaN, SNaN,
 * denormals, extremes), else a random sign/mantissa with a moderate
 * exponent so that arithmetic mostly stays finite. */
static uint32_t rf32(void)
{
	static const uint32_t sp[] = { 0,	   0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
				       0xffc00001, 0x7fa00000, 0xff812345, 0x00000001, 0x807fffff,
				       0x00400000, 0x7f7fffff, 0x00800000, 0x3f800000, 0x4f000000,
				       0xcf000000, 0x5f000000, 0x3f000000, 0x3fc00000 };
	uint64_t v = rnd();

	if ((v & 3) == 0)
		return sp[(v >> 2) % (sizeof(sp) / sizeof(sp[0]))];
	return (uint32_t)(v >> 32 & 0x807fffff) | (uint32_t)((100 + (v >> 8) % 56) << 23);
}

static uint64_t rf64(void)
{
	static const uint64_t sp[] = { 0,
				       0x8000000000000000,
				       0x7ff0000000000000,
				       0xfff0000000000000,
				       0x7ff8000000000000,
				       0xfff8000000000001,
				       0x7ff4000000000000,
				       0x0000000000000001,
				       0x800fffffffffffff,
				       0x7fefffffffffffff,
				       0x0010000000000000,
				       0x3ff0000000000000,
				       0x41e0000000000000,
				       0xc1e0000000000000,
				       0x43e0000000000000,
				       0x3fe0000000000000,
				       0x3ff8000000000000,
				       0x41dfffffffc00000,
				       0x3810000000000000,
				       0x47efffffe0000000 };
	uint64_t v = rnd();

	if ((v & 3) == 0)
		return sp[(v >> 2) % (sizeof(sp) / sizeof(sp[0]))];
	return (rnd() & 0x800fffffffffffffull) | ((uint64_t)(900 + (v >> 8) % 250) << 52);
}

static __m128i rps(void)
{
	return _mm_set_epi32((int)rf32(), (int)rf32(), (int)rf32(), (int)rf32());
}

static __m128i rpd(void)
{
	return _mm_set_epi64x((long long)rf64(), (long long)rf64());
}

static uint8_t code[4096];
static size_t code_used;

/* Decode hex-encoded bytes (spaces allowed) into *i.  The bytes stay in
 * code[] (used as a ring) because the unsupported-instruction path reads
 * them. */
static void dec(const char *hex, struct x86_insn *i)
{
	uint8_t *p;
	size_t n = 0;
	unsigned v;

	if (code_used + 32 > sizeof(code))
		code_used = 0;
	p = code + code_used;
	for (const char *h = hex; *h; h++) {
		if (*h == ' ')
			continue;
		if (n >= 15 || sscanf(h, "%2x", &v) != 1)
			fail_msg("bad hex %s", hex);
		p[n++] = (uint8_t)v;
		h++;
	}
	code_used += n;
	memset(i, 0, sizeof(*i));
	if (x86_decode_one((uint64_t)(uintptr_t)p, p, n, i) != (int)n)
		fail_msg("%s does not decode to %zu bytes", hex, n);
	if (i->fn == x86_h_unsupported)
		fail_msg("%s has no handler", hex);
}

/* Run one instruction; returns 0, or the signal of the guest fault. */
static int run(struct x86_cpu *c, const struct x86_insn *i)
{
	jmp_buf jb;

	c->jb = &jb;
	c->cur = i;
	if (setjmp(jb)) {
		c->jb = NULL;
		return c->fault.sig ? c->fault.sig : -1;
	}
	i->fn(c, i);
	c->jb = NULL;
	return 0;
}

static void setx(struct x86_cpu *c, int r, __m128i v)
{
	_mm_storeu_si128((__m128i *)&c->xmm[r], v);
}

static __m128i getx(const struct x86_cpu *c, int r)
{
	return _mm_loadu_si128((const __m128i *)&c->xmm[r]);
}

static void expect128(__m128i got, __m128i want, const char *what, __m128i a, __m128i b)
{
	if (memcmp(&got, &want, 16) != 0) {
		uint64_t g[2], w[2], x[2], y[2];

		memcpy(g, &got, 16);
		memcpy(w, &want, 16);
		memcpy(x, &a, 16);
		memcpy(y, &b, 16);
		fail_msg("%s: a=%016llx%016llx b=%016llx%016llx: got %016llx%016llx want "
			 "%016llx%016llx",
			 what, (unsigned long long)x[1], (unsigned long long)x[0],
			 (unsigned long long)y[1], (unsigned long long)y[0],
			 (unsigned long long)g[1], (unsigned long long)g[0],
			 (unsigned long long)w[1], (unsigned long long)w[0]);
	}
}

static int setup(void **state)
{
	struct x86_cpu *c = aligned_alloc(64, (sizeof(*c) + 63) & ~(size_t)63);

	if (!c)
		return -1;
	x86_cpu_init(c);
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

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

/* ---- the table ----------------------------------------------------------- */

enum { K_PS, K_PD, K_DQ }; /* input generator */

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

static __m128i gen(int kind)
{
	if (kind == K_PS)
		return rps();
	if (kind == K_PD)
		return rpd();
	return _mm_set_epi64x((long long)rnd(), (long long)rnd());
}

static void fail128(const char *what, unsigned mode, __m128i a, __m128i b, __m128i got, unsigned gf,
		    __m128i want, unsigned wf)
{
	uint64_t x[2], y[2], g[2], w[2];

	memcpy(x, &a, 16);
	memcpy(y, &b, 16);
	memcpy(g, &got, 16);
	memcpy(w, &want, 16);
	fail_msg("%s mxcsr %#x: a=%016llx:%016llx b=%016llx:%016llx -> %016llx:%016llx flags %#x, "
		 "want %016llx:%016llx flags %#x",
		 what, mode, (unsigned long long)x[1], (unsigned long long)x[0],
		 (unsigned long long)y[1], (unsigned long long)y[0], (unsigned long long)g[1],
		 (unsigned long long)g[0], gf, (unsigned long long)w[1], (unsigned long long)w[0],
		 wf);
}

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
		cmocka_unit_test_setup_teardown(test_cvt_to_int, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cvt_from_int, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cvt_mmx, setup, teardown),
		cmocka_unit_test_setup_teardown(test_comis, setup, teardown),
		cmocka_unit_test_setup_teardown(test_comis_invalid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_known_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mxcsr, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
