/* test_x86_x87.c — every x87 instruction form (D8-DF opcode space: all
 * register forms, memory forms through [rax]) against the host CPU.
 *
 * For each form and many random states (values of every class, empty and
 * full stacks, precision and rounding control, masked and unmasked
 * exceptions, sticky flags, condition codes), the same bytes run natively
 * between frstor and fnsave, and in the emulator through the decoded
 * handler; control and status words, TOP, tags, all eight registers, the
 * memory operand, AX and the arithmetic flags must match.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cmocka.h>

#include "emu/x86/decode.h"
#include "emu/x86/x87.h"

static uint64_t rnd_state = 0x243f6a8885a308d3ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 0x2545f4914f6cdd1dull;
}

/* A random 80-bit value of a random class. */
static void rnd_f80(uint8_t out[10])
{
	union x87_val v;
	uint64_t r = rnd();
	unsigned sign = (r >> 8) & 1 ? 0x8000 : 0;
	int e;

	memset(&v, 0, sizeof(v));
	v.p.mant = rnd() | (1ull << 63);
	switch (r % 20) {
	case 0:
		v.p.mant = 0;
		v.p.sexp = 0;
		break; /* zero */
	case 1:
		v.p.mant = 1ull << 63;
		v.p.sexp = 0x7fff;
		break; /* infinity */
	case 2:
		v.p.mant |= 1ull << 62;
		v.p.sexp = 0x7fff;
		break; /* QNaN */
	case 3:
		v.p.mant &= ~(1ull << 62);
		v.p.mant |= 1;
		v.p.sexp = 0x7fff;
		break; /* SNaN */
	case 4:
		v.p.mant &= ~(1ull << 63);
		v.p.sexp = 0;
		break; /* denormal */
	case 5:
		v.p.mant &= ~(1ull << 63);
		v.p.sexp = (uint16_t)(rnd() & 0x7fff);
		break; /* unnormal */
	case 6:
		v.ld = (long double)(int)(rnd() % 2001 - 1000);
		break; /* small integer */
	case 7:
		v.ld = (long double)(int64_t)rnd();
		break; /* large integer */
	case 8:
		v.p.sexp = (uint16_t)(0x7ffe - rnd() % 64);
		break; /* huge */
	case 9:
		v.p.sexp = (uint16_t)(1 + rnd() % 64);
		break; /* tiny */
	case 10:
		v.p.sexp = (uint16_t)(0x3fff + 62 + rnd() % 8);
		break; /* around 2^63 */
	case 11:
		v.ld = 0.5L + (long double)(rnd() % 8) * 0.25L;
		break; /* halfway cases */
	default:
		e = 0x3fff + (int)(rnd() % 161) - 80;
		v.p.sexp = (uint16_t)e;
		break;
	}
	if (r % 20 != 6 && r % 20 != 7 && r % 20 != 11)
		v.p.sexp |= (uint16_t)sign;
	else if (sign)
		v.p.sexp ^= 0x8000;
	memcpy(out, &v, 10);
}

/* Memory operand contents: raw bytes, or a value of a random class in
 * float, double or integer format. */
static void rnd_mem(uint8_t *m, size_t n)
{
	union x87_val v;
	uint64_t r = rnd();
	size_t k;

	for (k = 0; k < n; k++)
		m[k] = (uint8_t)rnd();
	rnd_f80(v.b);
	switch (r % 4) {
	case 0: {
		float f = (float)v.ld;
		memcpy(m, &f, 4);
		break;
	}
	case 1: {
		double d = (double)v.ld;
		memcpy(m, &d, 8);
		break;
	}
	case 2: {
		int64_t q = (int64_t)(rnd() % 200001) - 100000;
		memcpy(m, &q, 8);
		break;
	}
	default:
		break;
	}
}

/* An fnsave image (32-bit protected-mode format, SDM vol. 1, 8.1.10). */
struct image {
	uint8_t b[108];
};

static void rnd_image(struct image *im)
{
	uint16_t fcw, fsw, ftw = 0;
	unsigned k, mode = (unsigned)(rnd() % 16);
	static const uint16_t pc[] = { 0x000, 0x200, 0x300, 0x300 };

	fcw = (uint16_t)(0x40 | pc[rnd() % 4] | ((rnd() % 4) << 10));
	fcw |= (rnd() % 5) ? 0x3f : (uint16_t)(rnd() & 0x3f);
	fsw = (uint16_t)(rnd() & (X87_C0 | X87_C1 | X87_C2 | X87_C3));
	if (rnd() % 3 == 0)
		fsw |= (uint16_t)(rnd() & fcw & X87_EXC); /* sticky, masked: nothing pending */
	fsw |= (uint16_t)((rnd() % 8) << 11);
	for (k = 0; k < 8; k++) {
		int empty = mode == 0 ? 1 : mode == 1 ? 0 : (rnd() % 5 == 0);
		ftw |= (uint16_t)((empty ? 3 : 0) << (2 * k));
	}
	memset(im->b, 0, sizeof(im->b));
	memcpy(im->b + 0, &fcw, 2);
	memcpy(im->b + 4, &fsw, 2);
	memcpy(im->b + 8, &ftw, 2);
	for (k = 0; k < 8; k++)
		rnd_f80(im->b + 28 + 10 * k);
}

/* The guest x87 from an image (what frstor does). */
static void load_cpu(struct x86_cpu *c, const struct image *im)
{
	uint16_t fcw, fsw, ftw;
	unsigned k;

	memcpy(&fcw, im->b + 0, 2);
	memcpy(&fsw, im->b + 4, 2);
	memcpy(&ftw, im->b + 8, 2);
	c->fpu.fcw = fcw;
	c->fpu.fsw = fsw & (uint16_t)~X87_TOP_MASK;
	c->fpu.top = (fsw >> 11) & 7;
	c->fpu.tag = 0;
	for (k = 0; k < 8; k++) {
		if (((ftw >> (2 * k)) & 3) != 3)
			c->fpu.tag |= (uint8_t)(1u << k);
		memcpy(&c->fpu.st[(c->fpu.top + k) & 7], im->b + 28 + 10 * k, 10);
	}
}

/* Native: frstor [rdi]; mov rax, rdx; push rcx; popfq; INSN; fnsave [rsi];
 * mov [rsi+0x70], rax; pushfq; pop rax; mov [rsi+0x78], rax; ret */
struct native_out {
	struct image im;
	uint8_t pad[0x70 - 108];
	uint64_t rax, rflags;
};
typedef void (*stub_fn)(const struct image *in, struct native_out *out, void *mem, uint64_t flags);

static uint8_t *stub;

static size_t build_stub(const uint8_t *insn, size_t n)
{
	static const uint8_t pre[] = { 0xdd, 0x27, 0x48, 0x89, 0xd0, 0x51, 0x9d };
	static const uint8_t post[] = { 0xdd, 0x36, 0x48, 0x89, 0x46, 0x70, 0x9c,
					0x58, 0x48, 0x89, 0x46, 0x78, 0xc3 };
	memcpy(stub, pre, sizeof(pre));
	memcpy(stub + sizeof(pre), insn, n);
	memcpy(stub + sizeof(pre) + n, post, sizeof(post));
	__builtin___clear_cache((char *)stub, (char *)stub + 64);
	return sizeof(pre);
}

#define FLAGS6 (X86_CF | X86_PF | X86_AF | X86_ZF | X86_SF | X86_OF)

static struct x86_decoder dec;
static struct x86_cpu cpu;
static unsigned long ncases, nforms;

static void dump_image(const char *what, const struct image *im)
{
	unsigned k;

	fprintf(stderr, "  %s: fcw %04x fsw %04x ftw %04x\n", what, im->b[0] | im->b[1] << 8,
		im->b[4] | im->b[5] << 8, im->b[8] | im->b[9] << 8);
	for (k = 0; k < 8; k++) {
		const uint8_t *p = im->b + 28 + 10 * k;
		uint64_t m;
		memcpy(&m, p, 8);
		fprintf(stderr, "    ST(%u) %04x.%016llx\n", k, p[8] | p[9] << 8,
			(unsigned long long)m);
	}
}

/* Run the handler as x86_run() would: host control word = guest's, faults
 * caught.  Returns the guest signal, 0 when none. */
static int run_emulated(struct x86_cpu *c, const struct x86_insn *insn)
{
	jmp_buf jb;

	c->cur = insn;
	c->jb = &jb;
	if (setjmp(jb)) {
		x87_host_fldcw(0x037f);
		c->jb = NULL;
		return c->fault.sig;
	}
	x87_host_fldcw(c->fpu.fcw);
	insn->fn(c, insn);
	x87_host_fldcw(0x037f);
	c->jb = NULL;
	return 0;
}

/* The assists the emulator noted (x86.h) against the exception flags the
 * host raised, where the input image did not have them set already: a
 * denormal operand, underflow, overflow, and a stack fault by C1 (SDM vol.
 * 1, 8.5.1.1: 1 overflow, 0 underflow).  Returns 0 when they agree. */
static int check_assists(const struct x86_cpu *c, const struct x86_insn *insn,
			 const struct image *in, const struct image *out, const char *text)
{
	static const struct {
		unsigned flag, kind;
	} f[] = { { X87_DE, X86_ASSIST_X87_IN },
		  { X87_UE, X86_ASSIST_X87_UNDER },
		  { X87_OE, X86_ASSIST_X87_OVER } };
	unsigned fin = in->b[4] | in->b[5] << 8, fout = out->b[4] | out->b[5] << 8;
	unsigned got = x86_assists(c, insn), want = 0, known = 0;

	for (unsigned k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
		if (fin & f[k].flag)
			continue;
		known |= f[k].kind;
		if (fout & f[k].flag)
			want |= f[k].kind;
	}
	if (!(fin & X87_SF)) {
		known |= X86_ASSIST_X87_SU | X86_ASSIST_X87_SO;
		if (fout & X87_SF)
			want |= fout & X87_C1 ? X86_ASSIST_X87_SO : X86_ASSIST_X87_SU;
	}
	if ((got & known) == want)
		return 0;
	fprintf(stderr, "%s: assists %#x, host flags say %#x (fsw %04x -> %04x)\n", text,
		got & known, want, fin, fout);
	return 1;
}

/* One case: returns 0 when native and emulated agree.  Both runs use the
 * same memory operand address (so AX and FDP can match). */
static int run_case(const struct x86_insn *insn, const char *text)
{
	struct image in, emu_im;
	struct native_out out;
	static uint8_t mem[64];
	uint8_t mem0[64], mem_n[64], *mem_e = mem;
	uint64_t flags = 0x202 | (rnd() & FLAGS6);
	struct x86_cpu *c = &cpu;
	uint16_t emu_fsw;
	unsigned k;
	int bad = 0, sig;

	rnd_image(&in);
	rnd_mem(mem0, sizeof(mem0));

	memcpy(mem, mem0, sizeof(mem0));
	((stub_fn)(void *)stub)(&in, &out, mem, flags);
	x87_host_fldcw(0x037f);
	memcpy(mem_n, mem, sizeof(mem));

	x86_cpu_init(c);
	load_cpu(c, &in);
	memcpy(mem, mem0, sizeof(mem0));
	c->r[X86_RAX] = (uint64_t)mem;
	x86_set_rflags(c, flags);
	sig = run_emulated(c, insn);
	if (sig) {
		fprintf(stderr, "%s: unexpected fault sig %d\n", text, sig);
		return 1;
	}

	/* compare */
	emu_fsw = x87_fsw(c);
	memset(&emu_im, 0, sizeof(emu_im));
	memcpy(emu_im.b + 0, &c->fpu.fcw, 2);
	memcpy(emu_im.b + 4, &emu_fsw, 2);
	for (k = 0; k < 8; k++) {
		uint16_t t = ((c->fpu.tag >> k) & 1) ? 0 : 3;
		emu_im.b[8 + k / 4] |= (uint8_t)(t << (2 * (k % 4)));
		memcpy(emu_im.b + 28 + 10 * k, &c->fpu.st[(c->fpu.top + k) & 7], 10);
	}
	if (memcmp(emu_im.b, out.im.b, 2) || memcmp(emu_im.b + 4, out.im.b + 4, 2))
		bad = 1;
	for (k = 0; k < 8; k++) {
		unsigned ne = ((out.im.b[8 + k / 4] >> (2 * (k % 4))) & 3) == 3;
		unsigned ee = ((emu_im.b[8 + k / 4] >> (2 * (k % 4))) & 3) == 3;
		if (ne != ee)
			bad = 1;
	}
	if (memcmp(emu_im.b + 28, out.im.b + 28, 80))
		bad = 1;
	if (memcmp(mem_n, mem_e, sizeof(mem_n)))
		bad = 1;
	if ((uint16_t)out.rax != (uint16_t)c->r[X86_RAX])
		bad = 1;
	if ((out.rflags & FLAGS6) != (x86_rflags(c) & FLAGS6))
		bad = 1;
	if (bad) {
		fprintf(stderr, "%s: emulated and native differ\n", text);
		dump_image("input", &in);
		dump_image("native", &out.im);
		dump_image("emulated", &emu_im);
		fprintf(stderr,
			"  mem in %016llx %016llx native %016llx %016llx emulated %016llx %016llx\n",
			*(unsigned long long *)mem0, *(unsigned long long *)(mem0 + 8),
			*(unsigned long long *)mem_n, *(unsigned long long *)(mem_n + 8),
			*(unsigned long long *)mem_e, *(unsigned long long *)(mem_e + 8));
		fprintf(stderr,
			"  flags in %llx native %llx emulated %llx; ax native %04x emulated %04x\n",
			(unsigned long long)flags, (unsigned long long)(out.rflags & FLAGS6),
			(unsigned long long)(x86_rflags(c) & FLAGS6), (unsigned)(uint16_t)out.rax,
			(unsigned)(uint16_t)c->r[X86_RAX]);
	}
	if (!bad)
		bad = check_assists(c, insn, &in, &out.im, text);
	ncases++;
	return bad;
}

/* Forms compared elsewhere (their images hold instruction pointers). */
static int skipped(unsigned mnem)
{
	return mnem == ZYDIS_MNEMONIC_FNSTENV || mnem == ZYDIS_MNEMONIC_FLDENV ||
	       mnem == ZYDIS_MNEMONIC_FNSAVE || mnem == ZYDIS_MNEMONIC_FRSTOR;
}

static int check_form(const uint8_t *bytes, size_t n, unsigned seeds)
{
	struct x86_insn insn;
	char text[96];
	size_t at;
	unsigned s;
	int fails = 0;

	at = build_stub(bytes, n);
	if (x86_decode_insn(&dec, (uint64_t)(stub + at), stub + at, n, &insn) != (int)n)
		return 0; /* not an instruction */
	if (skipped(insn.mnem))
		return 0;
	x86_format((uint64_t)(stub + at), bytes, n, 1, text, sizeof(text));
	if (!insn.fn || insn.fn == x86_h_unsupported) {
		fprintf(stderr, "%s: no handler\n", text);
		return 1;
	}
	nforms++;
	for (s = 0; s < seeds && fails < 3; s++)
		fails += run_case(&insn, text);
	return fails;
}

static void test_forms(void **state)
{
	unsigned op, m;
	int fails = 0;

	(void)state;
	for (op = 0xd8; op <= 0xdf; op++) {
		for (m = 0; m < 8; m++) {
			uint8_t b[2] = { (uint8_t)op, (uint8_t)(m << 3) };
			fails += check_form(b, 2, 3000);
		}
		for (m = 0xc0; m <= 0xff; m++) {
			uint8_t b[2] = { (uint8_t)op, (uint8_t)m };
			fails += check_form(b, 2, 1000);
		}
	}
	print_message("x87: %lu forms, %lu cases checked against the host\n", nforms, ncases);
	assert_int_equal(fails, 0);
}

/* Forms with prefixes that do not change their meaning: the handlers
 * (and FOP) must look past them. */
static void test_prefix_forms(void **state)
{
	static const uint8_t forms[][3] = {
		{ 0x66, 0xd9, 0x00 }, /* fld m32 with 66 */
		{ 0x48, 0xdd, 0x00 }, /* fld m64 with REX.W */
		{ 0x66, 0xdf, 0xe0 }, /* fnstsw ax with 66 */
		{ 0x48, 0xde, 0xc1 }, /* faddp with REX.W */
	};
	unsigned k;
	int fails = 0;

	(void)state;
	for (k = 0; k < sizeof(forms) / sizeof(forms[0]); k++)
		fails += check_form(forms[k], 3, 200);
	assert_int_equal(fails, 0);
}

static int setup(void **state)
{
	(void)state;
	stub = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		    0);
	if (stub == MAP_FAILED)
		return -1;
	x86_decoder_init(&dec);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	munmap(stub, 4096);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_prefix_forms),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
