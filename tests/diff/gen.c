/* gen.c — random input states for the differential tests.
 *
 * Values are biased toward the ones that break implementations: operand
 * boundaries (0, ±1, sign bits, all ones), small shift counts, and for
 * floating point signed zeros, infinities, quiet and signalling NaNs,
 * denormals, rounding ties and integer-conversion limits.  Control state is
 * random too: rounding modes, DAZ/FTZ, x87 precision control, sticky
 * exception flags, the x87 stack depth and TOP.  Every exception stays
 * masked (an unmasked one would trap natively).
 */
#include <string.h>

#include "diff.h"

static const uint64_t gpr_special[] = {
	0,
	1,
	2,
	0x7f,
	0x80,
	0xff,
	0x100,
	0x7fff,
	0x8000,
	0xffff,
	0x10000,
	0x7fffffff,
	0x80000000,
	0xffffffff,
	0x100000000ull,
	0x7fffffffffffffffull,
	0x8000000000000000ull,
	0xffffffffffffffffull,
	0xfffffffffffffffeull,
	0x8000000000000001ull,
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t pick(struct diff_rng *g, uint64_t n)
{
	return diff_rand(g) % n;
}

uint64_t diff_gen_gpr(struct diff_rng *g)
{
	uint64_t r = diff_rand(g);
	static const unsigned widths[] = { 8, 16, 32, 64 };
	unsigned w = widths[pick(g, 4)];
	uint64_t m = w == 64 ? ~0ull : (1ull << w) - 1;

	switch (pick(g, 10)) {
	case 0:
		return pick(g, 66);
	case 1:
		return -pick(g, 66);
	case 2:
		return gpr_special[pick(g, NELEM(gpr_special))];
	case 3: /* random high part, special low part of a random width */
		return (r & ~m) | (gpr_special[pick(g, NELEM(gpr_special))] & m);
	case 4: /* sign-extended from a random width */
		return w == 64 ? r : (r & (1ull << (w - 1))) ? r | ~m : r & m;
	case 5:
		return (uint32_t)r;
	default:
		return r;
	}
}

/* ---- floating point values ------------------------------------------------ */

static uint64_t gen_f64(struct diff_rng *g)
{
	static const uint64_t sp[] = {
		0x0000000000000000ull, 0x8000000000000000ull, /* ±0 */
		0x7ff0000000000000ull, 0xfff0000000000000ull, /* ±inf */
		0x7ff8000000000000ull, 0xfff8000000000000ull, /* default NaN */
		0x7ff4000000000001ull,			      /* sNaN */
		0x0010000000000000ull, 0x000fffffffffffffull, /* min normal, max denormal */
		0x0000000000000001ull, 0x7fefffffffffffffull, /* min denormal, max */
		0x3ff0000000000000ull, 0xbff0000000000000ull, /* ±1 */
		0x3fe0000000000000ull, 0x3ff8000000000000ull, /* 0.5, 1.5 */
		0x4004000000000000ull, 0xc004000000000000ull, /* ±2.5 */
		0x41e0000000000000ull, 0xc1e0000000000000ull, /* ±2^31 */
		0x41dfffffffc00000ull, 0xc1e0000000200000ull, /* 2^31-1, -2^31-1 */
		0x43e0000000000000ull, 0xc3e0000000000000ull, /* ±2^63 */
		0x43dfffffffffffffull, 0x4330000000000000ull, /* < 2^63, 2^52 */
	};
	uint64_t r = diff_rand(g);

	switch (pick(g, 10)) {
	case 0:
	case 1:
		return sp[pick(g, NELEM(sp))];
	case 2: /* NaN with payload, either kind */
		return (r & 0x800fffffffffffffull) | 0x7ff0000000000000ull |
		       (r & 1 ? 0 : 1ull << 51) | 2;
	case 3:
		return r & 0x800fffffffffffffull; /* denormal */
	case 4: {				  /* integer-valued, in or near the int32 range */
		int64_t v = (int64_t)(r >> 20) - (1ll << 43);
		double d = (double)(pick(g, 2) ? (int32_t)v : v) / (pick(g, 2) ? 1 : 2);
		memcpy(&r, &d, 8);
		return r;
	}
	case 5:
		return r;
	default: /* normal, exponent near 1.0 */
		return (r & 0x800fffffffffffffull) | ((uint64_t)(1023 - 40 + pick(g, 80)) << 52);
	}
}

static uint32_t gen_f32(struct diff_rng *g)
{
	static const uint32_t sp[] = {
		0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
		0x7fa00001, 0x00800000, 0x007fffff, 0x00000001, 0x7f7fffff, 0x3f800000,
		0xbf800000, 0x3f000000, 0x3fc00000, 0x40200000, 0xc0200000, 0x4f000000,
		0xcf000000, 0x4effffff, 0x5f000000, 0xdf000000, 0x4b000000,
	};
	uint32_t r = (uint32_t)diff_rand(g);

	switch (pick(g, 10)) {
	case 0:
	case 1:
		return sp[pick(g, NELEM(sp))];
	case 2:
		return (r & 0x807fffff) | 0x7f800000 | (r & 1 ? 0 : 1u << 22) | 2;
	case 3:
		return r & 0x807fffff;
	case 4: {
		float f = (float)(int32_t)(r >> pick(g, 16)) / (pick(g, 2) ? 1 : 2);
		memcpy(&r, &f, 4);
		return r;
	}
	case 5:
		return r;
	default:
		return (r & 0x807fffff) | ((uint32_t)(127 - 20 + pick(g, 40)) << 23);
	}
}

/* An 80-bit extended value (no unnormals or pseudo-forms: those cannot be
 * produced by arithmetic). */
static void gen_f80(struct diff_rng *g, uint8_t *out)
{
	uint64_t m = diff_rand(g), sign = pick(g, 2);
	unsigned e;

	switch (pick(g, 12)) {
	case 0:
		e = 0;
		m = 0;
		break; /* ±0 */
	case 1:
		e = 0x7fff;
		m = 1ull << 63;
		break; /* ±inf */
	case 2:
		e = 0x7fff;
		m |= 3ull << 62;
		break; /* qNaN */
	case 3:
		e = 0x7fff;
		m = (m | 1ull << 63 | 1) & ~(1ull << 62);
		break; /* sNaN */
	case 4:
		e = 0;
		m &= ~(1ull << 63);
		break; /* denormal */
	case 5:
		e = 1 + (unsigned)pick(g, 0x7ffe);
		m |= 1ull << 63;
		break;
	case 6: { /* an integer, or a double widened */
		long double v;
		if (pick(g, 2)) {
			v = (long double)(int64_t)(m >> pick(g, 60));
		} else {
			uint64_t d = gen_f64(g);
			double dd;
			memcpy(&dd, &d, 8);
			v = dd;
		}
		memset(out, 0, 10);
		memcpy(out, &v, 10);
		return;
	}
	case 7:
		e = 16383;
		m = 1ull << 63;
		break; /* ±1 */
	default:
		e = 16383 - 64 + (unsigned)pick(g, 128);
		m |= 1ull << 63;
		break;
	}
	memcpy(out, &m, 8);
	e |= (unsigned)sign << 15;
	memcpy(out + 8, &e, 2);
}

/* 8 bytes of memory or half an XMM register */
static uint64_t gen_chunk(struct diff_rng *g)
{
	switch (pick(g, 4)) {
	case 0:
		return diff_gen_gpr(g);
	case 1:
		return gen_f64(g);
	default:
		return gen_f32(g) | (uint64_t)gen_f32(g) << 32;
	}
}

static uint32_t gen_mxcsr(struct diff_rng *g)
{
	uint32_t v = 0x1f80;
	if (pick(g, 2))
		v |= (uint32_t)pick(g, 4) << 13 |
		     (uint32_t)(diff_rand(g) & 0x8040); /* RC, FTZ, DAZ */
	if (pick(g, 2))
		v |= (uint32_t)(diff_rand(g) & 0x3f); /* sticky exception flags */
	return v;
}

static uint16_t gen_fcw(struct diff_rng *g)
{
	static const uint16_t pc[] = { 0, 2, 3, 3 }; /* 1 is reserved */
	if (pick(g, 2))
		return 0x037f;
	return (uint16_t)(0x7f | pc[pick(g, 4)] << 8 | pick(g, 4) << 10);
}

/* A random x87 + SSE state as an FXSAVE image. */
void diff_fx_random(struct diff_rng *g, uint8_t *fx)
{
	unsigned top = (unsigned)pick(g, 8), depth, k = (unsigned)pick(g, 32);
	uint16_t fcw = gen_fcw(g), fsw;
	uint8_t tag = 0;
	uint32_t mx = gen_mxcsr(g), mxmask = 0xffff;

	memset(fx, 0, 512);
	depth = k == 0 ? 0 : k < 3 ? 1 : k < 5 ? 8 : k < 8 ? 7 : 2 + (unsigned)pick(g, 5);
	for (unsigned i = 0; i < depth; i++)
		tag |= (uint8_t)(1u << ((top + i) & 7));
	/* C0-C3 random, exception flags and SF sometimes; ES stays clear
	 * because every exception is masked */
	fsw = (uint16_t)(diff_rand(g) & 0x4700);
	if (pick(g, 2))
		fsw |= (uint16_t)(diff_rand(g) & 0x7f);
	fsw |= (uint16_t)(top << 11);
	memcpy(fx + FX_FCW, &fcw, 2);
	memcpy(fx + FX_FSW, &fsw, 2);
	fx[FX_FTW] = tag;
	memcpy(fx + FX_MXCSR, &mx, 4);
	memcpy(fx + FX_MXCSR + 4, &mxmask, 4);
	for (unsigned i = 0; i < 8; i++)
		gen_f80(g, fx + FX_ST + 16 * i);
	for (unsigned i = 0; i < 32; i++) {
		uint64_t v = gen_chunk(g);
		memcpy(fx + FX_XMM + 8 * i, &v, 8);
	}
}

/* ---- one case --------------------------------------------------------------- */

static void put64(uint8_t *mem, uint64_t addr, uint64_t v)
{
	memcpy(mem + (addr - DIFF_BUF), &v, 8);
}

static uint64_t get64(const uint8_t *mem, uint64_t addr)
{
	uint64_t v;
	memcpy(&v, mem + (addr - DIFF_BUF), 8);
	return v;
}

/* A shift or rotate count: the interesting ones often. */
static uint64_t gen_count(struct diff_rng *g, unsigned size)
{
	unsigned bits = size * 8;
	switch (pick(g, 6)) {
	case 0:
		return pick(g, 2);
	case 1:
		return bits - 1 + pick(g, 3);
	case 2:
		return diff_rand(g) & 0xff;
	default:
		return pick(g, bits);
	}
}

static uint64_t width_mask(unsigned size)
{
	return size >= 8 ? ~0ull : (1ull << (size * 8)) - 1;
}

/* Dividend and divisor for div/idiv of the given size that do not fault
 * (SDM DIV/IDIV: quotient must fit the destination). */
static void gen_div(struct diff_rng *g, unsigned size, int sign, int fault, uint64_t *dividend_hi,
		    uint64_t *dividend_lo, uint64_t *divisor)
{
	unsigned bits = size * 8;
	uint64_t m = width_mask(size);
	__int128 q, d, r, n;
	unsigned __int128 un;

	d = (__int128)(diff_gen_gpr(g) & m);
	if (sign && (d >> (bits - 1)) & 1)
		d -= (__int128)1 << bits;
	if (fault) {
		if (pick(g, 2) || d == 0) {
			d = 0;
			un = ((unsigned __int128)diff_rand(g) << 64) | diff_rand(g);
		} else if (sign && pick(g, 2)) { /* MIN / -1 */
			d = -1;
			un = (unsigned __int128)-((__int128)1 << (bits - 1));
		} else { /* quotient one too large */
			q = sign ? (__int128)1 << (bits - 1) : (__int128)1 << bits;
			if (sign && pick(g, 2))
				q = -q - 1;
			un = (unsigned __int128)(q * d);
		}
	} else {
		if (d == 0)
			d = pick(g, 2) ? 1 : 3;
		if (!sign) {
			q = (__int128)(diff_gen_gpr(g) & m);
			r = (__int128)(diff_rand(g) % (uint64_t)d);
			un = (unsigned __int128)(q * d + r);
		} else {
			q = (__int128)(diff_gen_gpr(g) & m);
			if ((q >> (bits - 1)) & 1)
				q -= (__int128)1 << bits;
			n = q * d;
			r = (__int128)(diff_rand(g) % (uint64_t)(d < 0 ? -d : d));
			if (n < 0 || (n == 0 && pick(g, 2)))
				r = -r;
			un = (unsigned __int128)(n + r);
		}
	}
	/* dividend of 2*bits bits: high half into rdx (ah for bytes) */
	if (size == 8) {
		*dividend_hi = (uint64_t)(un >> 64);
		*dividend_lo = (uint64_t)un;
	} else {
		*dividend_hi = (uint64_t)(un >> bits) & m;
		*dividend_lo = (uint64_t)un & m;
	}
	*divisor = (uint64_t)d & m;
}

static void fix_div(struct diff_rng *g, const struct diff_form *f, struct diff_state *s,
		    uint8_t *mem)
{
	unsigned c = f->cls & 0xff, size = (f->cls >> 8) & 0xff, arg = f->cls >> 16;
	uint64_t hi, lo, dv, m = width_mask(size);

	gen_div(g, size, c == C_IDIV || c == C_IDIVF, c == C_DIVF || c == C_IDIVF, &hi, &lo, &dv);
	if (size == 1) {
		s->r[X86_RAX] = (s->r[X86_RAX] & ~0xffffull) | hi << 8 | lo;
	} else {
		s->r[X86_RAX] = (s->r[X86_RAX] & ~m) | lo;
		s->r[X86_RDX] = (s->r[X86_RDX] & ~m) | hi;
	}
	if (arg == 0) {
		s->r[X86_RCX] = (s->r[X86_RCX] & ~m) | dv;
	} else {
		uint64_t v = get64(mem, DIFF_MEM);
		put64(mem, DIFF_MEM, (v & ~m) | dv);
	}
}

/* Flags a popf may load in user mode: the arithmetic ones and DF (TF would
 * trap, AC would turn on alignment checking, IF and IOPL are ignored). */
#define USER_FLAGS (FL_ALL | X86_DF)

static void fix_class(struct diff_rng *g, const struct diff_form *f, struct diff_state *s,
		      uint8_t *mem)
{
	unsigned c = f->cls & 0xff, size = (f->cls >> 8) & 0xff, arg = f->cls >> 16;

	switch (c) {
	case C_SHL:
	case C_SHR:
	case C_SAR:
	case C_ROT:
	case C_RCX:
		if (arg == 0xff)
			s->r[X86_RCX] = (s->r[X86_RCX] & ~0xffull) | gen_count(g, size);
		break;
	case C_SHD:
		if (arg == 0xff) {
			uint64_t n = gen_count(g, size);
			/* 16-bit counts above 16 leave the result undefined (SDM SHLD) */
			if (size == 2 && (n & 31) > 16)
				n = pick(g, 17);
			s->r[X86_RCX] = (s->r[X86_RCX] & ~0xffull) | n;
		}
		break;
	case C_DIV:
	case C_IDIV:
	case C_DIVF:
	case C_IDIVF:
		fix_div(g, f, s, mem);
		break;
	case C_BTM:
		s->r[X86_RCX] = (uint64_t)((int64_t)pick(g, 2048) - 1024);
		break;
	case C_NZ:
		if (!(s->r[X86_RCX] & width_mask(size)))
			s->r[X86_RCX] |= 1ull << pick(g, size * 8);
		break;
	case C_CMPX:
		if (pick(g, 2)) {
			uint64_t m = width_mask(size);
			uint64_t v = arg ? get64(mem, DIFF_MEM) : s->r[X86_RDX];
			s->r[X86_RAX] = (s->r[X86_RAX] & ~m) | (v & m);
		}
		break;
	case C_CMPX2:
		if (pick(g, 2)) {
			if (size == 8) {
				uint64_t v = get64(mem, DIFF_MEM);
				s->r[X86_RAX] = (s->r[X86_RAX] & ~0xffffffffull) | (uint32_t)v;
				s->r[X86_RDX] = (s->r[X86_RDX] & ~0xffffffffull) | v >> 32;
			} else {
				s->r[X86_RAX] = get64(mem, DIFF_MEM);
				s->r[X86_RDX] = get64(mem, DIFF_MEM + 8);
			}
		}
		break;
	case C_POPF:
		put64(mem, DIFF_STACK, (diff_rand(g) & USER_FLAGS) | 0x202);
		break;
	case C_LEAVE:
		s->r[X86_RBP] = DIFF_STACK + 8 * pick(g, 32);
		break;
	case C_LDMX: {
		uint8_t fx[512];
		diff_fx_random(g, fx);
		memcpy(mem + (DIFF_MEM - DIFF_BUF), fx + FX_MXCSR, 4);
		break;
	}
	case C_LDCW:
		put64(mem, DIFF_MEM, (get64(mem, DIFF_MEM) & ~0xffffull) | gen_fcw(g));
		break;
	case C_FXRS:
		diff_fx_random(g, mem + (DIFF_MEM - DIFF_BUF));
		break;
	case C_FENV:
	case C_FRSTOR: {
		/* 64-bit mode layout with 32-bit operand size: FCW, FSW, FTW (full
		 * tag word), pointers; fnsave images add ST(0)..ST(7) (SDM vol. 1,
		 * figures 8-9 and 8-10) */
		uint8_t fx[512], *env = mem + (DIFF_MEM - DIFF_BUF);
		uint16_t ftw = 0;
		diff_fx_random(g, fx);
		for (unsigned i = 0; i < 8; i++)
			if (!(fx[FX_FTW] & (1u << i)))
				ftw |= (uint16_t)(3u << (2 * i));
		memcpy(env + 0, fx + FX_FCW, 2);
		memcpy(env + 4, fx + FX_FSW, 2);
		memcpy(env + 8, &ftw, 2);
		if (c == C_FRSTOR)
			for (unsigned i = 0; i < 8; i++)
				memcpy(env + 28 + 10 * i, fx + FX_ST + 16 * i, 10);
		break;
	}
	case C_BCD: {
		/* 18 BCD digits and a sign byte (SDM vol. 1, 4.7) */
		uint8_t *p = mem + (DIFF_MEM - DIFF_BUF);
		unsigned digits = (unsigned)pick(g, 19);
		memset(p, 0, 10);
		for (unsigned d = 0; d < digits; d++)
			p[d / 2] |= (uint8_t)(pick(g, 10) << (4 * (d & 1)));
		p[9] = pick(g, 2) ? 0x80 : 0;
		break;
	}
	case C_XCNT: {
		uint64_t n = pick(g, 4) ? pick(g, size * 8 + 2) : diff_gen_gpr(g);
		s->r[X86_RBX] = DIFF_MEM;
		memcpy(s->fx + FX_XMM + 16 * 2, &n, 8);
		put64(mem, DIFF_MEM, pick(g, 4) ? pick(g, size * 8 + 2) : diff_gen_gpr(g));
		break;
	}
	case C_MASKMOV:
		s->r[X86_RDI] = DIFF_MEM;
		break;
	}
}

void diff_gen(struct diff_rng *g, const struct diff_form *f, struct diff_state *s, uint8_t *mem)
{
	memset(s, 0, sizeof(*s));
	for (unsigned i = 0; i < 16; i++)
		s->r[i] = diff_gen_gpr(g);
	s->r[X86_RSP] = DIFF_STACK;
	/* bit 1 and IF read as set in user mode */
	s->rflags = 0x202 | (diff_rand(g) & (FL_ALL | X86_DF));
	diff_fx_random(g, s->fx);

	for (unsigned k = 0; k < DIFF_BUFSZ; k += 8) {
		uint64_t v = gen_chunk(g);
		memcpy(mem + k, &v, 8);
	}
	if (f->opts & O_MEM)
		s->r[X86_RBX] = DIFF_MEM;
	if (f->opts & O_IDX)
		s->r[X86_R12] = (uint64_t)((int64_t)pick(g, 33) - 16);
	if (f->opts & O_RCX)
		s->r[X86_RCX] = pick(g, 4);
	if (f->opts & O_STR) {
		uint8_t *src = mem + (DIFF_SRC - DIFF_BUF), *dst = mem + (DIFF_DST - DIFF_BUF);
		s->r[X86_RSI] = DIFF_SRC + 0x80 + pick(g, 0x100) - 0x80;
		s->r[X86_RDI] = DIFF_DST + 0x80 + pick(g, 0x100) - 0x80;
		s->r[X86_RCX] = pick(g, 8) ? pick(g, 13) : diff_gen_gpr(g) & 0xf;
		/* repetitive data so that repe/repne run for a while */
		if (pick(g, 2)) {
			uint8_t a = (uint8_t)diff_rand(g);
			uint64_t bits = diff_rand(g);
			for (unsigned k = 0; k < 0x200; k++) {
				src[k] = (uint8_t)(a + ((bits >> (k & 63)) & pick(g, 2)));
				dst[k] = pick(g, 16) ? src[k] : (uint8_t)diff_rand(g);
			}
			s->r[X86_RAX] = (s->r[X86_RAX] & ~0xffull) |
					(pick(g, 2) ? a : (uint8_t)(a + 1));
			if (pick(g, 2)) /* same pattern in every byte of rax */
				s->r[X86_RAX] = 0x0101010101010101ull * (uint8_t)s->r[X86_RAX];
		}
	}
	if (f->opts & O_TGT) {
		s->r[X86_RAX] = DIFF_CODE + DIFF_TARGET;
		put64(mem, DIFF_MEM, DIFF_CODE + DIFF_TARGET);
	}
	if (f->opts & O_RET)
		put64(mem, DIFF_STACK, DIFF_CODE + DIFF_TARGET);
	if (f->opts & (O_M80 | O_M64 | O_M32)) {
		uint8_t *p = mem + (DIFF_MEM - DIFF_BUF);
		if (f->opts & O_M80)
			gen_f80(g, p);
		else if (f->opts & O_M64)
			put64(mem, DIFF_MEM, gen_f64(g));
		else
			put64(mem, DIFF_MEM, gen_f32(g) | (get64(mem, DIFF_MEM) & ~0xffffffffull));
	}
	fix_class(g, f, s, mem);
}
