/* test_x86_sse_int.c — SSE2 packed-integer, logic, shift, pack/unpack
 * and shuffle handlers, XMM and MMX forms, against the host's intrinsics
 * on random inputs.  Instructions are decoded from their bytes by the real
 * decoder; register forms use xmm0/mm0 as destination and xmm1/mm1 as
 * source, memory forms [rax].
 */
#include "test_x86_sse.h"

#define N_RANDOM 3000

/* ---- packed integer binary operations, XMM and MMX ---------------------- */

typedef __m128i (*ref128)(__m128i, __m128i);
typedef __m64 (*ref64)(__m64, __m64);

#define W128(name, intr)                              \
	static __m128i r_##name(__m128i a, __m128i b) \
	{                                             \
		return intr(a, b);                    \
	}
#define W64(name, intr)                         \
	static __m64 m_##name(__m64 a, __m64 b) \
	{                                       \
		return intr(a, b);              \
	}
#define WBOTH(name, i128, i64) W128(name, i128) W64(name, i64)

WBOTH(paddb, _mm_add_epi8, _mm_add_pi8)
WBOTH(paddw, _mm_add_epi16, _mm_add_pi16)
WBOTH(paddd, _mm_add_epi32, _mm_add_pi32)
WBOTH(paddq, _mm_add_epi64, _mm_add_si64)
WBOTH(psubb, _mm_sub_epi8, _mm_sub_pi8)
WBOTH(psubw, _mm_sub_epi16, _mm_sub_pi16)
WBOTH(psubd, _mm_sub_epi32, _mm_sub_pi32)
WBOTH(psubq, _mm_sub_epi64, _mm_sub_si64)
WBOTH(paddsb, _mm_adds_epi8, _mm_adds_pi8)
WBOTH(paddsw, _mm_adds_epi16, _mm_adds_pi16)
WBOTH(paddusb, _mm_adds_epu8, _mm_adds_pu8)
WBOTH(paddusw, _mm_adds_epu16, _mm_adds_pu16)
WBOTH(psubsb, _mm_subs_epi8, _mm_subs_pi8)
WBOTH(psubsw, _mm_subs_epi16, _mm_subs_pi16)
WBOTH(psubusb, _mm_subs_epu8, _mm_subs_pu8)
WBOTH(psubusw, _mm_subs_epu16, _mm_subs_pu16)
WBOTH(pmullw, _mm_mullo_epi16, _mm_mullo_pi16)
WBOTH(pmulhw, _mm_mulhi_epi16, _mm_mulhi_pi16)
WBOTH(pmulhuw, _mm_mulhi_epu16, _mm_mulhi_pu16)
WBOTH(pmuludq, _mm_mul_epu32, _mm_mul_su32)
WBOTH(pmaddwd, _mm_madd_epi16, _mm_madd_pi16)
WBOTH(pavgb, _mm_avg_epu8, _mm_avg_pu8)
WBOTH(pavgw, _mm_avg_epu16, _mm_avg_pu16)
WBOTH(psadbw, _mm_sad_epu8, _mm_sad_pu8)
WBOTH(pminub, _mm_min_epu8, _mm_min_pu8)
WBOTH(pmaxub, _mm_max_epu8, _mm_max_pu8)
WBOTH(pminsw, _mm_min_epi16, _mm_min_pi16)
WBOTH(pmaxsw, _mm_max_epi16, _mm_max_pi16)
WBOTH(pcmpeqb, _mm_cmpeq_epi8, _mm_cmpeq_pi8)
WBOTH(pcmpeqw, _mm_cmpeq_epi16, _mm_cmpeq_pi16)
WBOTH(pcmpeqd, _mm_cmpeq_epi32, _mm_cmpeq_pi32)
WBOTH(pcmpgtb, _mm_cmpgt_epi8, _mm_cmpgt_pi8)
WBOTH(pcmpgtw, _mm_cmpgt_epi16, _mm_cmpgt_pi16)
WBOTH(pcmpgtd, _mm_cmpgt_epi32, _mm_cmpgt_pi32)
WBOTH(pand, _mm_and_si128, _mm_and_si64)
WBOTH(pandn, _mm_andnot_si128, _mm_andnot_si64)
WBOTH(por, _mm_or_si128, _mm_or_si64)
WBOTH(pxor, _mm_xor_si128, _mm_xor_si64)
WBOTH(psllw, _mm_sll_epi16, _mm_sll_pi16)
WBOTH(pslld, _mm_sll_epi32, _mm_sll_pi32)
WBOTH(psllq, _mm_sll_epi64, _mm_sll_si64)
WBOTH(psrlw, _mm_srl_epi16, _mm_srl_pi16)
WBOTH(psrld, _mm_srl_epi32, _mm_srl_pi32)
WBOTH(psrlq, _mm_srl_epi64, _mm_srl_si64)
WBOTH(psraw, _mm_sra_epi16, _mm_sra_pi16)
WBOTH(psrad, _mm_sra_epi32, _mm_sra_pi32)
WBOTH(packsswb, _mm_packs_epi16, _mm_packs_pi16)
WBOTH(packuswb, _mm_packus_epi16, _mm_packs_pu16)
WBOTH(packssdw, _mm_packs_epi32, _mm_packs_pi32)
WBOTH(punpcklbw, _mm_unpacklo_epi8, _mm_unpacklo_pi8)
WBOTH(punpcklwd, _mm_unpacklo_epi16, _mm_unpacklo_pi16)
WBOTH(punpckldq, _mm_unpacklo_epi32, _mm_unpacklo_pi32)
WBOTH(punpckhbw, _mm_unpackhi_epi8, _mm_unpackhi_pi8)
WBOTH(punpckhwd, _mm_unpackhi_epi16, _mm_unpackhi_pi16)
WBOTH(punpckhdq, _mm_unpackhi_epi32, _mm_unpackhi_pi32)
W128(punpcklqdq, _mm_unpacklo_epi64)
W128(punpckhqdq, _mm_unpackhi_epi64)

static __m128i r_unpcklps(__m128i a, __m128i b)
{
	return _mm_castps_si128(_mm_unpacklo_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b)));
}

static __m128i r_unpckhps(__m128i a, __m128i b)
{
	return _mm_castps_si128(_mm_unpackhi_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b)));
}

static __m128i r_unpcklpd(__m128i a, __m128i b)
{
	return _mm_castpd_si128(_mm_unpacklo_pd(_mm_castsi128_pd(a), _mm_castsi128_pd(b)));
}

static __m128i r_unpckhpd(__m128i a, __m128i b)
{
	return _mm_castpd_si128(_mm_unpackhi_pd(_mm_castsi128_pd(a), _mm_castsi128_pd(b)));
}

struct iop {
	const char *name;
	const char *xmm; /* opcode after 66 0F (or full prefix+opcode when pfx set) */
	ref128 r128;
	ref64 r64; /* MMX form: 0F opcode, same byte */
	int shift; /* second operand is a shift count */
};

#define E(n, op, sh)                     \
	{                                \
#n, op, r_##n, m_##n, sh \
	}
#define E128(n, op)                    \
	{                              \
#n, op, r_##n, NULL, 0 \
	}
static const struct iop iops[] = {
	E(paddb, "fc", 0),     E(paddw, "fd", 0),      E(paddd, "fe", 0),
	E(paddq, "d4", 0),     E(psubb, "f8", 0),      E(psubw, "f9", 0),
	E(psubd, "fa", 0),     E(psubq, "fb", 0),      E(paddsb, "ec", 0),
	E(paddsw, "ed", 0),    E(paddusb, "dc", 0),    E(paddusw, "dd", 0),
	E(psubsb, "e8", 0),    E(psubsw, "e9", 0),     E(psubusb, "d8", 0),
	E(psubusw, "d9", 0),   E(pmullw, "d5", 0),     E(pmulhw, "e5", 0),
	E(pmulhuw, "e4", 0),   E(pmuludq, "f4", 0),    E(pmaddwd, "f5", 0),
	E(pavgb, "e0", 0),     E(pavgw, "e3", 0),      E(psadbw, "f6", 0),
	E(pminub, "da", 0),    E(pmaxub, "de", 0),     E(pminsw, "ea", 0),
	E(pmaxsw, "ee", 0),    E(pcmpeqb, "74", 0),    E(pcmpeqw, "75", 0),
	E(pcmpeqd, "76", 0),   E(pcmpgtb, "64", 0),    E(pcmpgtw, "65", 0),
	E(pcmpgtd, "66", 0),   E(pand, "db", 0),       E(pandn, "df", 0),
	E(por, "eb", 0),       E(pxor, "ef", 0),       E(psllw, "f1", 1),
	E(pslld, "f2", 1),     E(psllq, "f3", 1),      E(psrlw, "d1", 1),
	E(psrld, "d2", 1),     E(psrlq, "d3", 1),      E(psraw, "e1", 1),
	E(psrad, "e2", 1),     E(packsswb, "63", 0),   E(packuswb, "67", 0),
	E(packssdw, "6b", 0),  E(punpcklbw, "60", 0),  E(punpcklwd, "61", 0),
	E(punpckldq, "62", 0), E(punpckhbw, "68", 0),  E(punpckhwd, "69", 0),
	E(punpckhdq, "6a", 0), E128(punpcklqdq, "6c"), E128(punpckhqdq, "6d"),
	E128(unpcklpd, "14"),  E128(unpckhpd, "15"),
};

/* Shift counts: small ones mostly, some past the element width. */
static __m128i rnd_count(void)
{
	uint64_t v = rnd();

	return _mm_set_epi64x((long long)rnd(), (long long)((v & 7) ? v % 70 : v));
}

static void test_int_ops(void **state)
{
	struct x86_cpu *c = *state;
	__m128i *mem = aligned_alloc(16, 32);
	char hex[64];

	assert_non_null(mem);
	for (size_t k = 0; k < sizeof(iops) / sizeof(iops[0]); k++) {
		const struct iop *o = &iops[k];
		struct x86_insn rr, rm, mm, mmem;

		snprintf(hex, sizeof(hex), "660f%sc1", o->xmm);
		dec(hex, &rr);
		snprintf(hex, sizeof(hex), "660f%s00", o->xmm);
		dec(hex, &rm);
		if (o->r64) {
			snprintf(hex, sizeof(hex), "0f%sc1", o->xmm);
			dec(hex, &mm);
			snprintf(hex, sizeof(hex), "0f%s00", o->xmm);
			dec(hex, &mmem);
		}
		for (int n = 0; n < N_RANDOM; n++) {
			__m128i a = rnd128(), b = o->shift ? rnd_count() : rnd128();
			__m128i want = o->r128(a, b);

			setx(c, 0, a);
			setx(c, 1, b);
			assert_int_equal(run(c, &rr), 0);
			expect128(getx(c, 0), want, o->name, a, b);
			expect128(getx(c, 1), b, "source unchanged", a, b);

			setx(c, 0, a);
			_mm_store_si128(mem, b);
			c->r[X86_RAX] = (uint64_t)(uintptr_t)mem;
			assert_int_equal(run(c, &rm), 0);
			expect128(getx(c, 0), want, o->name, a, b);

			if (o->r64) {
				uint64_t x = (uint64_t)_mm_cvtsi128_si64(a);
				uint64_t y = (uint64_t)_mm_cvtsi128_si64(b);
				__m64 w64 = o->r64(_mm_cvtsi64_m64((long long)x),
						   _mm_cvtsi64_m64((long long)y));
				uint64_t w = (uint64_t)_mm_cvtm64_si64(w64);

				_mm_empty();
				c->mmx[0] = x;
				c->mmx[1] = y;
				c->fpu.tag = 0;
				assert_int_equal(run(c, &mm), 0);
				if (c->mmx[0] != w)
					fail_msg("%s mm: %#llx, %#llx -> %#llx, want %#llx",
						 o->name, (unsigned long long)x,
						 (unsigned long long)y,
						 (unsigned long long)c->mmx[0],
						 (unsigned long long)w);
				assert_int_equal(c->fpu.tag, 0xff);
				assert_int_equal(c->fpu.top, 0);
				c->mmx[0] = x;
				memcpy((uint8_t *)mem + 3, &y,
				       8); /* MMX operands need no alignment */
				c->r[X86_RAX] = (uint64_t)(uintptr_t)mem + 3;
				assert_int_equal(run(c, &mmem), 0);
				assert_true(c->mmx[0] == w);
			}
		}
	}
	free(mem);
}

/* The bit-logic FP forms (0F 54..57, no prefix) and unpcklps/unpckhps. */
static __m128i r_andps(__m128i a, __m128i b)
{
	return _mm_and_si128(a, b);
}
static __m128i r_andnps(__m128i a, __m128i b)
{
	return _mm_andnot_si128(a, b);
}
static __m128i r_orps(__m128i a, __m128i b)
{
	return _mm_or_si128(a, b);
}
static __m128i r_xorps(__m128i a, __m128i b)
{
	return _mm_xor_si128(a, b);
}

static void test_ps_logic(void **state)
{
	static const struct {
		const char *hex;
		ref128 r;
	} t[] = {
		{ "0f54c1", r_andps },	  { "660f54c1", r_andps }, { "0f55c1", r_andnps },
		{ "660f55c1", r_andnps }, { "0f56c1", r_orps },	   { "660f56c1", r_orps },
		{ "0f57c1", r_xorps },	  { "660f57c1", r_xorps }, { "0f14c1", r_unpcklps },
		{ "0f15c1", r_unpckhps },
	};
	struct x86_cpu *c = *state;

	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		struct x86_insn i;

		dec(t[k].hex, &i);
		for (int n = 0; n < 200; n++) {
			__m128i a = rnd128(), b = rnd128();

			setx(c, 0, a);
			setx(c, 1, b);
			assert_int_equal(run(c, &i), 0);
			expect128(getx(c, 0), t[k].r(a, b), t[k].hex, a, b);
		}
	}
}

/* ---- shifts by immediate ------------------------------------------------ */

static void test_shift_imm(void **state)
{
	/* group opcode, /r, reference by count */
	static const struct {
		const char *op;
		unsigned modrm;
		ref128 r;
	} t[] = {
		{ "71", 0xf0, r_psllw }, { "71", 0xd0, r_psrlw }, { "71", 0xe0, r_psraw },
		{ "72", 0xf0, r_pslld }, { "72", 0xd0, r_psrld }, { "72", 0xe0, r_psrad },
		{ "73", 0xf0, r_psllq }, { "73", 0xd0, r_psrlq },
	};
	static const unsigned counts[] = { 0,  1,  3,  7,  8,  15, 16,	17,
					   31, 32, 33, 63, 64, 65, 128, 255 };
	struct x86_cpu *c = *state;
	char hex[32];

	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		for (size_t j = 0; j < sizeof(counts) / sizeof(counts[0]); j++) {
			struct x86_insn x, m;
			__m128i a = rnd128(), cnt = _mm_cvtsi32_si128((int)counts[j]);
			uint64_t a64 = (uint64_t)_mm_cvtsi128_si64(a);

			snprintf(hex, sizeof(hex), "660f%s%02x%02x", t[k].op, t[k].modrm,
				 counts[j]);
			dec(hex, &x);
			setx(c, 0, a);
			assert_int_equal(run(c, &x), 0);
			expect128(getx(c, 0), t[k].r(a, cnt), hex, a, cnt);

			/* the MMX form: the same on the low quadword */
			snprintf(hex, sizeof(hex), "0f%s%02x%02x", t[k].op, t[k].modrm, counts[j]);
			dec(hex, &m);
			c->mmx[0] = a64;
			assert_int_equal(run(c, &m), 0);
			{
				__m128i lo = _mm_cvtsi64_si128((long long)a64);
				uint64_t w = (uint64_t)_mm_cvtsi128_si64(t[k].r(lo, cnt));

				if (c->mmx[0] != w)
					fail_msg("%s: %#llx want %#llx", hex,
						 (unsigned long long)c->mmx[0],
						 (unsigned long long)w);
			}
		}
	}
}

/* pslldq / psrldq by every count 0..20 and 255 */
static void test_byte_shift(void **state)
{
	struct x86_cpu *c = *state;
	char hex[32];

	for (unsigned n = 0; n < 256; n = n == 20 ? 255 : n + 1) {
		struct x86_insn l, r;
		uint8_t a[16], wl[16] = { 0 }, wr[16] = { 0 };
		__m128i av;

		for (int k = 0; k < 16; k++)
			a[k] = (uint8_t)(rnd() | 1);
		for (unsigned k = 0; k < 16; k++) {
			if (k >= n)
				wl[k] = a[k - n];
			if (k + n < 16)
				wr[k] = a[k + n];
		}
		memcpy(&av, a, 16);
		snprintf(hex, sizeof(hex), "660f73f8%02x", n);
		dec(hex, &l);
		snprintf(hex, sizeof(hex), "660f73d8%02x", n);
		dec(hex, &r);
		setx(c, 0, av);
		assert_int_equal(run(c, &l), 0);
		assert_memory_equal(&c->xmm[0], wl, 16);
		setx(c, 0, av);
		assert_int_equal(run(c, &r), 0);
		assert_memory_equal(&c->xmm[0], wr, 16);
	}
	/* a constant-count cross-check against the host's own byte shifts */
	{
		struct x86_insn i;
		__m128i a = rnd128();

		dec("660f73f805", &i);
		setx(c, 0, a);
		run(c, &i);
		expect128(getx(c, 0), _mm_slli_si128(a, 5), "pslldq 5", a, a);
		dec("660f73d80b", &i);
		setx(c, 0, a);
		run(c, &i);
		expect128(getx(c, 0), _mm_srli_si128(a, 11), "psrldq 11", a, a);
	}
}

/* ---- shuffles by immediate ---------------------------------------------- */

#define SHUF_CHECK(imm)                                                                       \
	do {                                                                                  \
		__m128i a = rnd128(), b = rnd128();                                           \
		__m64 m;                                                                      \
		uint64_t w;                                                                   \
		struct x86_insn i;                                                            \
		dec("660f70c1" #imm, &i);                                                     \
		setx(c, 1, b);                                                                \
		run(c, &i);                                                                   \
		expect128(getx(c, 0), _mm_shuffle_epi32(b, 0x##imm), "pshufd " #imm, a, b);   \
		dec("f30f70c1" #imm, &i);                                                     \
		run(c, &i);                                                                   \
		expect128(getx(c, 0), _mm_shufflehi_epi16(b, 0x##imm), "pshufhw", a, b);      \
		dec("f20f70c1" #imm, &i);                                                     \
		run(c, &i);                                                                   \
		expect128(getx(c, 0), _mm_shufflelo_epi16(b, 0x##imm), "pshuflw", a, b);      \
		dec("0fc6c1" #imm, &i);                                                       \
		setx(c, 0, a);                                                                \
		run(c, &i);                                                                   \
		expect128(getx(c, 0),                                                         \
			  _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(a),                \
							  _mm_castsi128_ps(b), 0x##imm)),     \
			  "shufps", a, b);                                                    \
		dec("660fc6c1" #imm, &i);                                                     \
		setx(c, 0, a);                                                                \
		run(c, &i);                                                                   \
		expect128(getx(c, 0),                                                         \
			  _mm_castpd_si128(_mm_shuffle_pd(_mm_castsi128_pd(a),                \
							  _mm_castsi128_pd(b), 0x##imm & 3)), \
			  "shufpd", a, b);                                                    \
		dec("0f70c1" #imm, &i);                                                       \
		c->mmx[1] = (uint64_t)_mm_cvtsi128_si64(b);                                   \
		run(c, &i);                                                                   \
		m = _mm_shuffle_pi16(_mm_cvtsi64_m64(_mm_cvtsi128_si64(b)), 0x##imm);         \
		w = (uint64_t)_mm_cvtm64_si64(m);                                             \
		_mm_empty();                                                                  \
		assert_true(c->mmx[0] == w);                                                  \
	} while (0)

static void test_shuffles(void **state)
{
	struct x86_cpu *c = *state;

	for (int n = 0; n < 20; n++) {
		SHUF_CHECK(00);
		SHUF_CHECK(1b);
		SHUF_CHECK(e4);
		SHUF_CHECK(4e);
		SHUF_CHECK(b1);
		SHUF_CHECK(39);
		SHUF_CHECK(ff);
		SHUF_CHECK(d8);
		SHUF_CHECK(72);
		SHUF_CHECK(01);
		SHUF_CHECK(02);
		SHUF_CHECK(03);
	}
}

static void test_pinsrw_pextrw(void **state)
{
	struct x86_cpu *c = *state;
	char hex[32];

	for (unsigned imm = 0; imm < 16; imm++) {
		struct x86_insn ins, ext, insm, extm;
		__m128i a = rnd128();
		uint16_t w[8];
		uint64_t v = rnd();

		snprintf(hex, sizeof(hex), "660fc4c0%02x", imm); /* pinsrw xmm0, eax */
		dec(hex, &ins);
		snprintf(hex, sizeof(hex), "660fc5c1%02x", imm); /* pextrw eax, xmm1 */
		dec(hex, &ext);
		setx(c, 0, a);
		c->r[X86_RAX] = v;
		assert_int_equal(run(c, &ins), 0);
		memcpy(w, &a, 16);
		w[imm & 7] = (uint16_t)v;
		assert_memory_equal(&c->xmm[0], w, 16);

		setx(c, 1, a);
		memcpy(w, &a, 16);
		c->r[X86_RAX] = ~0ull;
		assert_int_equal(run(c, &ext), 0);
		assert_true(c->r[X86_RAX] == w[imm & 7]); /* zero-extended to 64 bits */

		snprintf(hex, sizeof(hex), "0fc4c0%02x", imm); /* pinsrw mm0, eax */
		dec(hex, &insm);
		snprintf(hex, sizeof(hex), "0fc5c1%02x", imm); /* pextrw eax, mm1 */
		dec(hex, &extm);
		c->mmx[0] = 0x1111222233334444ull;
		c->r[X86_RAX] = v;
		assert_int_equal(run(c, &insm), 0);
		{
			unsigned sh = 16 * (imm & 3);
			uint64_t want = (0x1111222233334444ull & ~(0xffffull << sh)) |
					((v & 0xffff) << sh);
			assert_true(c->mmx[0] == want);
		}
		c->mmx[1] = 0x1111222233334444ull;
		assert_int_equal(run(c, &extm), 0);
		assert_true(c->r[X86_RAX] ==
			    ((0x1111222233334444ull >> (16 * (imm & 3))) & 0xffff));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_int_ops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ps_logic, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shift_imm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_byte_shift, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shuffles, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pinsrw_pextrw, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
