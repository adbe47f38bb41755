/* Unit tests for int_muldiv.c, int_shift.c, int_bits.c, int_atomic.c and
 * int_misc.c: each form runs natively and in the emulator from the same
 * random states; registers, memory and the flags the SDM defines must
 * match.  Edge cases (divide errors, zero counts, RCL by 9, BSF of 0, …)
 * are checked on their own. */
#include "test_x86_int2.h"

#define NCASE 3000

enum { F_ALL = X86_ARITH, F_CO = X86_CF | X86_OF, F_NONE = 0 };

/* Optional memory operand: rsi (and for some forms rbx) point into buf. */
struct form {
	const char *name;
	uint8_t code[16];
	size_t len;
	unsigned size;
	uint64_t (*mask)(const struct form *f, const struct hstate *in);
	void (*fix)(const struct form *f, struct hstate *h, uint64_t *st);
	int mem;	/* rsi = buf + 64 */
	unsigned count; /* immediate count of the form, or ~0u for CL */
	int group;	/* /r of group 2, or 0/1 for shld/shrd */
};

static uint8_t membuf[256] __attribute__((aligned(64)));

static void run_form(const struct form *f, uint64_t seed, int ncase)
{
	struct stub s = { 0 };
	uint64_t st = seed;
	uint8_t save[sizeof(membuf)], nat_mem[sizeof(membuf)];

	stub_build(&s, f->code, f->len);
	for (int k = 0; k < ncase; k++) {
		struct hstate in, nat, emu;
		int sig;

		rnd_state(&st, &in);
		if (f->mem) {
			for (size_t b = 0; b < sizeof(membuf); b++)
				membuf[b] = (uint8_t)rnd(&st);
			in.r[X86_RSI] = (uint64_t)(membuf + 64);
			memcpy(save, membuf, sizeof(membuf));
		}
		if (f->fix)
			f->fix(f, &in, &st);
		nat = in;
		native_run(&s, &nat);
		if (f->mem) {
			memcpy(nat_mem, membuf, sizeof(membuf));
			memcpy(membuf, save, sizeof(membuf));
		}
		emu = in;
		sig = emu_run(&s, &emu);
		if (sig) {
			fprintf(stderr, "%s: unexpected guest signal %d\n", f->name, sig);
			fail();
		}
		compare(f->name, &s, &in, &nat, &emu, f->mask ? f->mask(f, &in) : F_ALL);
		if (f->mem && memcmp(nat_mem, membuf, sizeof(membuf))) {
			fprintf(stderr, "%s: memory differs\n", f->name);
			fail();
		}
	}
	stub_free(&s);
}

/* Instruction bytes: operand-size prefix or REX.W for the size, then the
 * opcode bytes given (an 8-bit form passes its own opcode). */
static size_t enc(uint8_t *b, unsigned size, const uint8_t *op, size_t n)
{
	size_t k = 0;
	if (size == 2)
		b[k++] = 0x66;
	if (size == 8)
		b[k++] = 0x48;
	memcpy(b + k, op, n);
	return k + n;
}

static const unsigned sizes[] = { 1, 2, 4, 8 };

/* ---- mul / imul / div / idiv ------------------------------------------------ */

static uint64_t mask_mul(const struct form *f, const struct hstate *in)
{
	(void)f;
	(void)in;
	return F_CO;
}

static uint64_t mask_none(const struct form *f, const struct hstate *in)
{
	(void)f;
	(void)in;
	return F_NONE;
}

/* Make the division defined: non-zero divisor (rbx) and a quotient that
 * fits, by shrinking the high half of the dividend. */
static void fix_div(const struct form *f, struct hstate *h, uint64_t *st)
{
	unsigned size = f->size, bits = size * 8;
	uint64_t m = x86_mask(size);
	int sgn = f->group;

	if (!(h->r[X86_RBX] & m))
		h->r[X86_RBX] |= 1 + (rnd(st) & 0x10);
	for (;;) {
		uint64_t d = h->r[X86_RBX] & m;
		unsigned __int128 n;
		if (size == 1)
			n = h->r[X86_RAX] & 0xffff;
		else
			n = ((unsigned __int128)(h->r[X86_RDX] & m) << bits) | (h->r[X86_RAX] & m);
		if (!sgn) {
			if (n / d <= m)
				return;
		} else {
			__int128 sn = size == 8 ?
					      (__int128)n :
					      (__int128)(n << (128 - 2 * bits)) >> (128 - 2 * bits);
			int64_t sd = (int64_t)x86_sext(d, size);
			__int128 q = sn / sd, lim = (__int128)1 << (bits - 1);
			if (q < lim && q >= -lim)
				return;
		}
		/* shrink the high half toward the sign of the low half */
		if (size == 1)
			h->r[X86_RAX] = (h->r[X86_RAX] & ~0xff00ull) |
					(sgn && (h->r[X86_RAX] & 0x80) ? 0xff00 : 0);
		else
			h->r[X86_RDX] = sgn && (h->r[X86_RAX] & (1ull << (bits - 1))) ? ~0ull : 0;
		if (sgn && (h->r[X86_RBX] & m) == m) /* -1 with the most negative dividend */
			h->r[X86_RAX] &= ~(1ull << (bits - 1));
	}
}

static void test_muldiv(void **state)
{
	/* group 3 /4 mul, /5 imul, /6 div, /7 idiv on bl/bx/ebx/rbx */
	static const char *names[] = { "mul", "imul1", "div", "idiv" };
	(void)state;
	for (unsigned g = 4; g < 8; g++) {
		for (size_t z = 0; z < 4; z++) {
			struct form f = { 0 };
			uint8_t op[2] = { sizes[z] == 1 ? 0xf6 : 0xf7, (uint8_t)(0xc3 | g << 3) };
			f.name = names[g - 4];
			f.size = sizes[z];
			f.len = enc(f.code, f.size, op, 2);
			f.mask = g < 6 ? mask_mul : mask_none;
			f.fix = g < 6 ? NULL : fix_div;
			f.group = g == 7;
			run_form(&f, 0x1234 + g * 16 + z, NCASE);
			/* the same through memory: [rsi] */
			op[1] = (uint8_t)(0x06 | g << 3);
			f.len = enc(f.code, f.size, op, 2);
			f.mem = 1;
			if (f.fix) { /* divisor comes from memory: skip (fix works on rbx) */
				continue;
			}
			run_form(&f, 0x5678 + g * 16 + z, NCASE / 4);
		}
	}
}

static void test_mul_high8(void **state)
{
	/* mul ah, imul ch: GPR8H operands */
	struct form f = {
		.name = "mul ah", .code = { 0xf6, 0xe4 }, .len = 2, .size = 1, .mask = mask_mul
	};
	(void)state;
	run_form(&f, 7, 500);
	f.name = "imul ch";
	f.code[1] = 0xed;
	run_form(&f, 8, 500);
}

static void test_imul_forms(void **state)
{
	static const uint8_t imm8 = 0x85, imm32[4] = { 0x78, 0x56, 0x34, 0x92 };
	(void)state;
	for (size_t z = 1; z < 4; z++) {
		struct form f = { .name = "imul r, r/m", .size = sizes[z], .mask = mask_mul };
		uint8_t op[7] = { 0x0f, 0xaf, 0xcb };
		f.len = enc(f.code, f.size, op, 3);
		run_form(&f, 100 + z, NCASE);
		f.name = "imul r, r/m, imm8";
		op[0] = 0x6b;
		op[1] = 0xcb;
		op[2] = imm8;
		f.len = enc(f.code, f.size, op, 3);
		run_form(&f, 200 + z, NCASE);
		f.name = "imul r, r/m, imm";
		op[0] = 0x69;
		memcpy(op + 2, imm32, f.size == 2 ? 2 : 4);
		f.len = enc(f.code, f.size, op, f.size == 2 ? 4 : 6);
		run_form(&f, 300 + z, NCASE);
	}
}

static void test_div_errors(void **state)
{
	struct stub s = { 0 };
	struct hstate h = { 0 };
	struct x86_cpu c;
	struct x86_counts cnt;
	static const uint8_t div0[] = { 0x48, 0xf7, 0xf3 };   /* div rbx */
	static const uint8_t idiv8[] = { 0xf6, 0xfb };	      /* idiv bl */
	static const uint8_t idiv64[] = { 0x48, 0xf7, 0xfb }; /* idiv rbx */
	(void)state;

	stub_build(&s, div0, sizeof(div0));
	h.r[X86_RAX] = 5;
	assert_int_equal(emu_run_cpu(&s, &h, &c, &cnt), SIGFPE);
	assert_int_equal(c.fault.code, FPE_INTDIV);
	assert_int_equal(c.fault.addr, (uint64_t)s.code);
	assert_int_equal(c.rip, (uint64_t)s.code); /* the faulting instruction */
	assert_int_equal(c.r[X86_RAX], 5);	   /* nothing written */

	/* unsigned quotient overflow: rdx >= divisor */
	h.r[X86_RDX] = 3;
	h.r[X86_RBX] = 3;
	assert_int_equal(emu_run(&s, &h), SIGFPE);

	/* idiv bl: -32768 / -1 overflows, -256 / 2 = -128 fits */
	stub_build(&s, idiv8, sizeof(idiv8));
	h = (struct hstate){ 0 };
	h.r[X86_RAX] = 0x8000;
	h.r[X86_RBX] = 0xff;
	assert_int_equal(emu_run(&s, &h), SIGFPE);
	h.r[X86_RAX] = 0xff00;
	h.r[X86_RBX] = 2;
	assert_int_equal(emu_run(&s, &h), 0);
	assert_int_equal(h.r[X86_RAX] & 0xffff, 0x0080);

	/* idiv rbx: the most negative 128-bit dividend, and INT64_MIN / -1 */
	stub_build(&s, idiv64, sizeof(idiv64));
	h = (struct hstate){ 0 };
	h.r[X86_RDX] = 0x8000000000000000ull;
	h.r[X86_RBX] = 7;
	assert_int_equal(emu_run(&s, &h), SIGFPE);
	h.r[X86_RDX] = ~0ull;
	h.r[X86_RAX] = 0x8000000000000000ull;
	h.r[X86_RBX] = ~0ull;
	assert_int_equal(emu_run(&s, &h), SIGFPE);
	h.r[X86_RBX] = 1;
	assert_int_equal(emu_run(&s, &h), 0);
	assert_int_equal(h.r[X86_RAX], 0x8000000000000000ull);
	assert_int_equal(h.r[X86_RDX], 0);
	stub_free(&s);
}

/* ---- shifts and rotates ------------------------------------------------------ */

static unsigned form_count(const struct form *f, const struct hstate *in)
{
	unsigned n = f->count == ~0u ? (unsigned)(in->r[X86_RCX] & 0xff) : f->count;
	return n & (f->size == 8 ? 63 : 31);
}

static uint64_t mask_shift(const struct form *f, const struct hstate *in)
{
	unsigned n = form_count(f, in), bits = f->size * 8, g = f->group;
	uint64_t m;

	if (!n)
		return F_ALL;
	if (g <= 3) { /* rotates: CF defined, OF for 1, the rest untouched */
		m = F_ALL & ~(uint64_t)X86_OF;
	} else { /* shifts: AF undefined, OF only for 1 */
		m = X86_CF | X86_ZF | X86_SF | X86_PF;
		if (n >= bits && g != 7) /* SDM: CF undefined past the size */
			m &= ~(uint64_t)X86_CF;
	}
	if (n == 1)
		m |= X86_OF;
	return m;
}

static const char *grp2[] = { "rol", "ror", "rcl", "rcr", "shl", "shr", "sal", "sar" };

static void test_shift_rotate(void **state)
{
	static const unsigned imms[] = { 0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 255 };
	(void)state;
	for (unsigned g = 0; g < 8; g++) {
		for (size_t z = 0; z < 4; z++) {
			unsigned size = sizes[z];
			struct form f = {
				.name = grp2[g], .size = size, .group = (int)g, .mask = mask_shift
			};
			uint8_t op[3] = { 0, (uint8_t)(0xc3 | g << 3), 0 };

			op[0] = size == 1 ? 0xd2 : 0xd3; /* by CL */
			f.count = ~0u;
			f.len = enc(f.code, size, op, 2);
			run_form(&f, 1000 + g * 8 + z, NCASE);
			op[0] = size == 1 ? 0xd0 : 0xd1; /* by 1 */
			f.count = 1;
			f.len = enc(f.code, size, op, 2);
			run_form(&f, 2000 + g * 8 + z, NCASE / 4);
			op[1] = (uint8_t)(0x06 | g << 3); /* by 1, memory [rsi] */
			f.mem = 1;
			f.len = enc(f.code, size, op, 2);
			run_form(&f, 2500 + g * 8 + z, NCASE / 8);
			f.mem = 0;
			op[1] = (uint8_t)(0xc3 | g << 3);
			op[0] = size == 1 ? 0xc0 : 0xc1; /* by imm8 */
			for (size_t k = 0; k < sizeof(imms) / sizeof(imms[0]); k++) {
				op[2] = (uint8_t)imms[k];
				f.count = imms[k];
				f.len = enc(f.code, size, op, 3);
				run_form(&f, 3000 + g * 8 + z + k * 64, NCASE / 20);
			}
		}
	}
}

static uint64_t mask_dshift(const struct form *f, const struct hstate *in)
{
	unsigned n = form_count(f, in);

	if (!n)
		return F_ALL;
	return X86_CF | X86_ZF | X86_SF | X86_PF | (n == 1 ? X86_OF : 0);
}

/* 16-bit counts above 16 leave result and flags undefined (SDM SHLD):
 * keep the CL form inside the defined range. */
static void fix_dshift16(const struct form *f, struct hstate *h, uint64_t *st)
{
	(void)st;
	if (f->size == 2 && (h->r[X86_RCX] & 31) > 16)
		h->r[X86_RCX] &= ~0x10ull;
}

static void test_shld_shrd(void **state)
{
	static const unsigned imms[] = { 0, 1, 5, 15, 16, 31, 32, 63 };
	(void)state;
	for (int g = 0; g < 2; g++) {
		for (size_t z = 1; z < 4; z++) {
			unsigned size = sizes[z];
			struct form f = { .name = g ? "shrd" : "shld",
					  .size = size,
					  .group = g,
					  .mask = mask_dshift,
					  .fix = fix_dshift16 };
			uint8_t op[4] = { 0x0f, (uint8_t)(g ? 0xad : 0xa5), 0xd3, 0 };

			f.count = ~0u;
			f.len = enc(f.code, size, op, 3);
			run_form(&f, 4000 + z + g * 8, NCASE);
			op[1] = g ? 0xac : 0xa4;
			for (size_t k = 0; k < sizeof(imms) / sizeof(imms[0]); k++) {
				if (size == 2 && imms[k] > 16)
					continue;
				op[3] = (uint8_t)imms[k];
				f.count = imms[k];
				f.len = enc(f.code, size, op, 4);
				run_form(&f, 4100 + z + g * 8 + k * 32, NCASE / 10);
			}
		}
	}
}

/* Emulator-only checks of the cases the SDM pins down exactly. */
static void test_shift_edges(void **state)
{
	struct stub s = { 0 };
	struct hstate h;
	(void)state;

	/* rcl al, 9: a 9-bit rotate by 9 is the identity, CF kept */
	stub_build(&s, (const uint8_t[]){ 0xc0, 0xd0, 0x09 }, 3);
	h = (struct hstate){ .rflags = 0x203 };
	h.r[X86_RAX] = 0x1234;
	assert_int_equal(emu_run(&s, &h), 0);
	assert_int_equal(h.r[X86_RAX], 0x1234);
	assert_true(h.rflags & X86_CF);

	/* rcl al, 1 with CF = 1: 0x80 -> 0x01, CF = 1, OF = 1 ^ 0... */
	stub_build(&s, (const uint8_t[]){ 0xd0, 0xd0 }, 2);
	h = (struct hstate){ .rflags = 0x203 };
	h.r[X86_RAX] = 0x80;
	assert_int_equal(emu_run(&s, &h), 0);
	assert_int_equal(h.r[X86_RAX], 0x01);
	assert_true(h.rflags & X86_CF);
	assert_true(h.rflags & X86_OF); /* MSB(0x01)=0 xor CF=1 */

	/* shl eax, cl with cl = 32: masked to 0, flags kept; the 32-bit
	 * register is still written, clearing its upper half */
	stub_build(&s, (const uint8_t[]){ 0xd3, 0xe0 }, 2);
	h = (struct hstate){ .rflags = 0x202 | X86_ZF | X86_OF };
	h.r[X86_RAX] = 0xdeadbeef00000001ull;
	h.r[X86_RCX] = 32;
	assert_int_equal(emu_run(&s, &h), 0);
	assert_int_equal(h.r[X86_RAX], 1);
	assert_int_equal(h.rflags & X86_ARITH, X86_ZF | X86_OF);
	stub_free(&s);
}

/* ---- bit instructions ------------------------------------------------------------ */

static uint64_t mask_cf(const struct form *f, const struct hstate *in)
{
	(void)f;
	(void)in;
	return X86_CF | X86_ZF; /* ZF is "unaffected" */
}

/* Register bit offsets for memory forms: keep the word inside membuf
 * (rsi = membuf + 64, reach -512..+1023 bits). */
static void fix_btmem(const struct form *f, struct hstate *h, uint64_t *st)
{
	(void)f;
	h->r[X86_RDX] = (uint64_t)((int64_t)(rnd(st) % 1400) - 512);
}

static void test_bt(void **state)
{
	static const char *names[] = { "bt", "bts", "btr", "btc" };
	static const uint8_t opc[] = { 0xa3, 0xab, 0xb3, 0xbb };
	(void)state;
	for (unsigned k = 0; k < 4; k++) {
		for (size_t z = 1; z < 4; z++) {
			unsigned size = sizes[z];
			struct form f = { .name = names[k], .size = size, .mask = mask_cf };
			uint8_t op[4] = { 0x0f, opc[k], 0xd3, 0 };

			f.len = enc(f.code, size, op, 3); /* bt rbx, rdx */
			run_form(&f, 5000 + k * 8 + z, NCASE);
			op[2] = 0x16; /* bt [rsi], rdx */
			f.mem = 1;
			f.fix = fix_btmem;
			f.len = enc(f.code, size, op, 3);
			run_form(&f, 5100 + k * 8 + z, NCASE);
			f.fix = NULL;
			op[1] = 0xba; /* bt [rsi], imm8 */
			op[2] = (uint8_t)(0x26 | k << 3);
			for (unsigned imm = 0; imm < 256; imm += 37) {
				op[3] = (uint8_t)imm;
				f.len = enc(f.code, size, op, 4);
				run_form(&f, 5200 + k * 8 + z + imm, 40);
			}
			f.mem = 0;
			op[2] = (uint8_t)(0xe3 | k << 3); /* bt rbx, imm8 */
			op[3] = 45;
			f.len = enc(f.code, size, op, 4);
			run_form(&f, 5300 + k * 8 + z, 300);
			/* lock forms on memory */
			if (k) {
				uint8_t lop[5] = { 0xf0 };
				struct form l = f;
				l.mem = 1;
				l.fix = fix_btmem;
				size_t n = enc(lop + 1, size,
					       (const uint8_t[]){ 0x0f, opc[k], 0x16 }, 3);
				memcpy(l.code, lop, n + 1);
				l.len = n + 1;
				run_form(&l, 5400 + k * 8 + z, 500);
			}
		}
	}
}

static uint64_t mask_zf(const struct form *f, const struct hstate *in)
{
	(void)f;
	(void)in;
	return X86_ZF;
}

/* Make the source zero now and then. */
static void fix_bsx(const struct form *f, struct hstate *h, uint64_t *st)
{
	(void)f;
	if ((rnd(st) & 7) == 0)
		h->r[X86_RBX] = rnd(st) & ~x86_mask(f->size);
}

static void test_bsf_bsr(void **state)
{
	(void)state;
	for (int r = 0; r < 2; r++) {
		for (size_t z = 1; z < 4; z++) {
			struct form f = { .name = r ? "bsr" : "bsf",
					  .size = sizes[z],
					  .mask = mask_zf,
					  .fix = fix_bsx };
			uint8_t op[3] = { 0x0f, (uint8_t)(r ? 0xbd : 0xbc), 0xd3 };
			f.len = enc(f.code, f.size, op, 3);
			run_form(&f, 6000 + z + r * 8, NCASE);
		}
	}
}

/* F3 0F BC/BD decode as BSF/BSR on the emulated processor (no BMI1/LZCNT). */
static void test_tzcnt_is_bsf(void **state)
{
	struct stub s = { 0 };
	struct hstate h = { .rflags = 0x202 };
	(void)state;
	stub_build(&s, (const uint8_t[]){ 0xf3, 0x0f, 0xbc, 0xc3 }, 4); /* eax, ebx */
	h.r[X86_RBX] = 0x80;
	h.r[X86_RAX] = 77;
	assert_int_equal(emu_run(&s, &h), 0);
	assert_int_equal(h.r[X86_RAX], 7);
	h.r[X86_RBX] = 0;
	h.r[X86_RAX] = 77;
	assert_int_equal(emu_run(&s, &h), 0);
	assert_int_equal(h.r[X86_RAX], 77); /* tzcnt would give 32 */
	assert_true(h.rflags & X86_ZF);
	stub_build(&s, (const uint8_t[]){ 0xf3, 0x0f, 0xbd, 0xc3 }, 4);
	h.r[X86_RBX] = 0x80;
	assert_int_equal(emu_run(&s, &h), 0);
	assert_int_equal(h.r[X86_RAX], 7); /* lzcnt would give 24 */
	stub_free(&s);
}

static void test_bswap(void **state)
{
	(void)state;
	for (size_t z = 1; z < 4; z++) {
		struct form f = { .name = "bswap", .size = sizes[z], .mask = mask_none };
		f.len = enc(f.code, f.size, (const uint8_t[]){ 0x0f, 0xcb }, 2);
		run_form(&f, 7000 + z, 500);
	}
}

/* ---- xadd, cmpxchg, cmpxchg8b ------------------------------------------------------ */

/* Make the comparison succeed half of the time. */
static void fix_cmpxchg(const struct form *f, struct hstate *h, uint64_t *st)
{
	if (rnd(st) & 1)
		return;
	if (f->mem)
		memcpy(&h->r[X86_RAX], membuf + 64, f->size);
	else
		h->r[X86_RAX] = h->r[X86_RBX];
}

static void fix_cx8b(const struct form *f, struct hstate *h, uint64_t *st)
{
	(void)f;
	if (rnd(st) & 1)
		return;
	h->r[X86_RAX] = (h->r[X86_RAX] & ~0xffffffffull) | *(uint32_t *)(membuf + 64);
	h->r[X86_RDX] = (h->r[X86_RDX] & ~0xffffffffull) | *(uint32_t *)(membuf + 68);
}

static void test_xadd_cmpxchg(void **state)
{
	(void)state;
	for (int lock = 0; lock < 2; lock++) {
		for (size_t z = 0; z < 4; z++) {
			unsigned size = sizes[z];
			for (int cx = 0; cx < 2; cx++) {
				struct form f = { .name = cx ? "cmpxchg" : "xadd",
						  .size = size,
						  .fix = cx ? fix_cmpxchg : NULL };
				uint8_t op[3] = { 0x0f, (uint8_t)((cx ? 0xb0 : 0xc0) | (size > 1)),
						  0xd3 };
				size_t n = 0;

				if (lock)
					f.code[n++] = 0xf0;
				else {
					n = enc(f.code, size, op, 3); /* register form */
					f.len = n;
					run_form(&f, 8000 + z + cx * 8, NCASE);
					n = 0;
				}
				op[2] = 0x16; /* [rsi], dl/dx/edx/rdx */
				f.mem = 1;
				f.len = n + enc(f.code + n, size, op, 3);
				run_form(&f, 8100 + z + cx * 8 + lock * 16, NCASE);
			}
		}
		struct form f = { .name = "cmpxchg8b", .size = 8, .mem = 1, .fix = fix_cx8b };
		size_t n = 0;
		if (lock)
			f.code[n++] = 0xf0;
		memcpy(f.code + n, (const uint8_t[]){ 0x0f, 0xc7, 0x0e }, 3);
		f.len = n + 3;
		run_form(&f, 8200 + lock, NCASE);
	}
}

/* ---- flag instructions, xlat --------------------------------------------------------- */

static void fix_xlat(const struct form *f, struct hstate *h, uint64_t *st)
{
	(void)f;
	(void)st;
	h->r[X86_RBX] = (uint64_t)membuf;
}

static void test_flag_insns(void **state)
{
	static const struct {
		const char *name;
		uint8_t b;
	} one[] = { { "lahf", 0x9f },
		    { "sahf", 0x9e },
		    { "clc", 0xf8 },
		    { "stc", 0xf9 },
		    { "cmc", 0xf5 } };
	(void)state;
	for (size_t k = 0; k < sizeof(one) / sizeof(one[0]); k++) {
		struct form f = { .name = one[k].name, .len = 1, .code = { one[k].b } };
		run_form(&f, 9000 + k, 500);
	}
	struct form x = { .name = "xlat", .len = 1, .code = { 0xd7 }, .mem = 1, .fix = fix_xlat };
	run_form(&x, 9100, 500);
}

/* cld/std, pushf/popf and enter touch DF or the stack: emulator-only. */
static void test_stack_flags(void **state)
{
	struct stub s = { 0 };
	struct x86_cpu c;
	uint64_t stack[64] = { 0 };
	struct hstate h = { .rflags = 0x202 | X86_CF | X86_ZF };
	(void)state;

	/* std; then pushfq shows DF; popfq of a value with IF/IOPL clear keeps IF */
	stub_build(&s, (const uint8_t[]){ 0xfd }, 1);
	assert_int_equal(emu_run(&s, &h), 0);
	assert_true(h.rflags & X86_DF);
	stub_build(&s, (const uint8_t[]){ 0xfc }, 1);
	assert_int_equal(emu_run(&s, &h), 0);
	assert_false(h.rflags & X86_DF);

	stub_build(&s, (const uint8_t[]){ 0x9c }, 1); /* pushfq */
	x86_cpu_init(&c);
	{
		struct x86_insn i;
		assert_int_equal(x86_decode_one((uint64_t)s.code, s.code, 1, &i), 1);
		c.r[X86_RSP] = (uint64_t)&stack[32];
		x86_set_rflags(&c, 0x202 | X86_DF | X86_OF | X86_CF);
		c.cur = &i;
		i.fn(&c, &i);
		assert_int_equal(c.r[X86_RSP], (uint64_t)&stack[31]);
		assert_int_equal(stack[31], 0x202 | X86_DF | X86_OF | X86_CF);

		/* popfq: arithmetic flags, DF, AC, ID, TF, NT writable; IF and
		 * IOPL kept */
		stack[31] = X86_ZF | X86_SF | X86_AC | X86_ID | (3u << 12) | 2;
		assert_int_equal(x86_decode_one((uint64_t)s.code, (const uint8_t[]){ 0x9d }, 1, &i),
				 1);
		i.fn(&c, &i);
		assert_int_equal(c.r[X86_RSP], (uint64_t)&stack[32]);
		assert_int_equal(x86_rflags(&c), X86_ZF | X86_SF | X86_AC | X86_ID | X86_IF | 2);

		/* 66 9c: pushf pushes 16 bits */
		assert_int_equal(x86_decode_one((uint64_t)s.code, (const uint8_t[]){ 0x66, 0x9c },
						2, &i),
				 2);
		stack[31] = ~0ull;
		i.fn(&c, &i);
		assert_int_equal(c.r[X86_RSP], (uint64_t)&stack[32] - 2);
		assert_int_equal(stack[31] >> 48, (X86_ZF | X86_SF | X86_IF | 2) & 0xffff);
		c.r[X86_RSP] += 2;

		/* enter 0x20, 3: push rbp, copy 2 frame pointers, push frame */
		uint64_t frame_in = (uint64_t)&stack[60];
		stack[59] = 0x1111;
		stack[58] = 0x2222;
		c.r[X86_RBP] = frame_in;
		c.r[X86_RSP] = (uint64_t)&stack[40];
		assert_int_equal(x86_decode_one((uint64_t)s.code,
						(const uint8_t[]){ 0xc8, 0x20, 0x00, 0x03 }, 4, &i),
				 4);
		i.fn(&c, &i);
		assert_int_equal(stack[39], frame_in);
		assert_int_equal(stack[38], 0x1111);
		assert_int_equal(stack[37], 0x2222);
		assert_int_equal(stack[36], (uint64_t)&stack[39]);
		assert_int_equal(c.r[X86_RBP], (uint64_t)&stack[39]);
		assert_int_equal(c.r[X86_RSP], (uint64_t)&stack[36] - 0x20);

		/* enter 8, 0: push rbp; rbp = rsp; rsp -= 8 */
		c.r[X86_RSP] = (uint64_t)&stack[20];
		c.r[X86_RBP] = 0x77;
		assert_int_equal(x86_decode_one((uint64_t)s.code,
						(const uint8_t[]){ 0xc8, 0x08, 0x00, 0x00 }, 4, &i),
				 4);
		i.fn(&c, &i);
		assert_int_equal(stack[19], 0x77);
		assert_int_equal(c.r[X86_RBP], (uint64_t)&stack[19]);
		assert_int_equal(c.r[X86_RSP], (uint64_t)&stack[18]);
	}
	stub_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_muldiv),	     cmocka_unit_test(test_mul_high8),
		cmocka_unit_test(test_imul_forms),   cmocka_unit_test(test_div_errors),
		cmocka_unit_test(test_shift_rotate), cmocka_unit_test(test_shld_shrd),
		cmocka_unit_test(test_shift_edges),  cmocka_unit_test(test_bt),
		cmocka_unit_test(test_bsf_bsr),	     cmocka_unit_test(test_tzcnt_is_bsf),
		cmocka_unit_test(test_bswap),	     cmocka_unit_test(test_xadd_cmpxchg),
		cmocka_unit_test(test_flag_insns),   cmocka_unit_test(test_stack_flags),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
