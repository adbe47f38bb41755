/* test_x86_sse.h — what the SSE unit tests (test_x86_sse_*.c) share:
 * decoding real instruction bytes with the real decoder, running one
 * instruction and catching its guest fault, and random inputs with the
 * edge values that matter (integer limits; zeros, infinities, NaNs and
 * denormals for floating point).
 */
#ifndef VPMU_TEST_X86_SSE_H
#define VPMU_TEST_X86_SSE_H

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <immintrin.h>

#include "emu/x86/sse.h"

static uint64_t rnd_state = 0x243f6a8885a308d3ull;

/* xorshift64*: deterministic */
static inline uint64_t rnd_raw(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 0x2545f4914f6cdd1dull;
}

/* one value in four is an integer edge value */
static inline uint64_t rnd(void)
{
	static const uint64_t edge[] = { 0,
					 1,
					 0x7f,
					 0x80,
					 0xff,
					 0x7fff,
					 0x8000,
					 0xffff,
					 0x7fffffff,
					 0x80000000,
					 0xffffffff,
					 0x8000000080000000,
					 0x7fff80007fff8000,
					 0x00ff00ff00ff00ff,
					 ~0ull };
	uint64_t v = rnd_raw();

	return (v & 3) ? v : edge[(v >> 2) % (sizeof(edge) / sizeof(edge[0]))];
}

static inline __m128i rnd128(void)
{
	return _mm_set_epi64x((long long)rnd(), (long long)rnd());
}

/* ---- floating-point inputs and MXCSR modes ------------------------------ */

/* default, round down, round up, toward zero, and DAZ+FTZ */
static const unsigned modes[] = { 0x1f80, 0x3f80, 0x5f80, 0x7f80, 0x9fc0 };
#define NMODES (sizeof(modes) / sizeof(modes[0]))
#define CSR_FLAGS 0x3fu

/* A single's bits: one in four special (zeros, infinities, QNaN, SNaN,
 * denormals, extremes), else a random sign/mantissa with a moderate
 * exponent so that arithmetic mostly stays finite. */
static inline uint32_t rf32(void)
{
	static const uint32_t sp[] = { 0,	   0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
				       0xffc00001, 0x7fa00000, 0xff812345, 0x00000001, 0x807fffff,
				       0x00400000, 0x7f7fffff, 0x00800000, 0x3f800000, 0x4f000000,
				       0xcf000000, 0x5f000000, 0x3f000000, 0x3fc00000 };
	uint64_t v = rnd_raw();

	if ((v & 3) == 0)
		return sp[(v >> 2) % (sizeof(sp) / sizeof(sp[0]))];
	return (uint32_t)(v >> 32 & 0x807fffff) | (uint32_t)((100 + (v >> 8) % 56) << 23);
}

static inline uint64_t rf64(void)
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
	uint64_t v = rnd_raw();

	if ((v & 3) == 0)
		return sp[(v >> 2) % (sizeof(sp) / sizeof(sp[0]))];
	return (rnd_raw() & 0x800fffffffffffffull) | ((uint64_t)(900 + (v >> 8) % 250) << 52);
}

static inline __m128i rps(void)
{
	return _mm_set_epi32((int)rf32(), (int)rf32(), (int)rf32(), (int)rf32());
}

static inline __m128i rpd(void)
{
	return _mm_set_epi64x((long long)rf64(), (long long)rf64());
}

enum { K_PS, K_PD, K_DQ }; /* input generator */

static inline __m128i gen(int kind)
{
	if (kind == K_PS)
		return rps();
	if (kind == K_PD)
		return rpd();
	return _mm_set_epi64x((long long)rnd(), (long long)rnd());
}

static inline void fail128(const char *what, unsigned mode, __m128i a, __m128i b, __m128i got,
			   unsigned gf, __m128i want, unsigned wf)
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

/* ---- decoding and running ------------------------------------------------- */

static uint8_t code[4096];
static size_t code_used;

/* Decode hex-encoded bytes (spaces allowed) into *i.  The bytes stay in
 * code[] (used as a ring) because the unsupported-instruction path reads
 * them. */
static inline void dec(const char *hex, struct x86_insn *i)
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
static inline int run(struct x86_cpu *c, const struct x86_insn *i)
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

static inline void setx(struct x86_cpu *c, int r, __m128i v)
{
	_mm_storeu_si128((__m128i *)&c->xmm[r], v);
}

static inline __m128i getx(const struct x86_cpu *c, int r)
{
	return _mm_loadu_si128((const __m128i *)&c->xmm[r]);
}

static inline void expect128(__m128i got, __m128i want, const char *what, __m128i a, __m128i b)
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

static inline int setup(void **state)
{
	struct x86_cpu *c = aligned_alloc(64, (sizeof(*c) + 63) & ~(size_t)63);

	if (!c)
		return -1;
	x86_cpu_init(c);
	*state = c;
	return 0;
}

static inline int teardown(void **state)
{
	free(*state);
	return 0;
}

#endif
