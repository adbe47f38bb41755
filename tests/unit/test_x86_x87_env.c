/* test_x86_x87_env.c — x87 state images and exception delivery:
 * fnstenv/fldenv, fnsave/frstor, fxsave/fxrstor (and the 64-bit forms)
 * against the host CPU; the FXSAVE helpers of the signal code; pending
 * unmasked exceptions raising SIGFPE at the next waiting instruction;
 * FIP/FOP/FDP; alignment and MXCSR faults.
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

#include "emu/x86/decode.h"
#include "emu/x86/x87.h"

static uint64_t rnd_state = 0x13198a2e03707344ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 0x2545f4914f6cdd1dull;
}

static void rnd_bytes(uint8_t *p, size_t n)
{
	while (n--)
		*p++ = (uint8_t)rnd();
}

/* A random register value: normal most of the time, sometimes zero,
 * denormal or NaN, so the tag word's classes all occur. */
static void rnd_f80(uint8_t *p)
{
	union x87_val v;

	memset(&v, 0, sizeof(v));
	v.p.mant = rnd() | (1ull << 63);
	v.p.sexp = (uint16_t)(rnd() & 0xffff);
	switch (rnd() % 6) {
	case 0:
		v.p.mant = 0;
		v.p.sexp &= 0x8000;
		break;
	case 1:
		v.p.mant >>= 1;
		v.p.sexp &= 0x8000;
		break;
	case 2:
		v.p.sexp |= 0x7fff;
		break;
	default:
		break;
	}
	memcpy(p, &v, 10);
}

/* An fnsave image with nothing pending: sticky flags only where masked. */
static void rnd_image(uint8_t im[108])
{
	uint16_t fcw = (uint16_t)(0x40 | (rnd() & 0x0f00) | (rnd() & 0x3f));
	uint16_t fsw = (uint16_t)(rnd() & (X87_CC | X87_TOP_MASK | X87_EXC));
	uint16_t ftw = (uint16_t)rnd();
	uint32_t fip = (uint32_t)rnd(), fdp = (uint32_t)rnd(), fop = (uint32_t)(rnd() & 0x7ff);
	unsigned k;

	fsw &= (uint16_t) ~(X87_EXC & ~fcw);
	memset(im, 0, 108);
	memcpy(im + 0, &fcw, 2);
	memcpy(im + 4, &fsw, 2);
	memcpy(im + 8, &ftw, 2);
	memcpy(im + 12, &fip, 4);
	fop <<= 16;
	memcpy(im + 16, &fop, 4);
	memcpy(im + 20, &fdp, 4);
	for (k = 0; k < 8; k++)
		rnd_f80(im + 28 + 10 * k);
}

/* ---- the native side ---------------------------------------------------
 * stub(in = rdi, out = rsi, mem = rdx, aux = rcx): frstor [rdi];
 * mov rax, rdx; INSN; fnsave [rsi]; ret */
typedef void (*stub_fn)(const void *in, void *out, void *mem, void *aux);
static uint8_t *stub;
static struct x86_decoder dec;
static struct x86_cpu cpu;

static size_t build_stub(const uint8_t *insn, size_t n)
{
	static const uint8_t pre[] = { 0xdd, 0x27, 0x48, 0x89, 0xd0 };
	static const uint8_t post[] = { 0xdd, 0x36, 0xc3 };
	memcpy(stub, pre, sizeof(pre));
	memcpy(stub + sizeof(pre), insn, n);
	memcpy(stub + sizeof(pre) + n, post, sizeof(post));
	__builtin___clear_cache((char *)stub, (char *)stub + 64);
	return sizeof(pre);
}

static void run_native(const uint8_t in[108], uint8_t out[108], void *mem)
{
	x87_host_ldmxcsr(0x1f80);
	((stub_fn)(void *)stub)(in, out, mem, NULL);
	x87_host_fldcw(0x037f);
	x87_host_ldmxcsr(0x1f80);
}

static void decode(const uint8_t *bytes, size_t n, struct x86_insn *insn)
{
	size_t at = build_stub(bytes, n);
	assert_int_equal(x86_decode_insn(&dec, (uint64_t)(stub + at), stub + at, n, insn), (int)n);
	assert_non_null(insn->fn);
}

static uint16_t sel(int cs)
{
	uint16_t v;
	if (cs)
		__asm__("mov %%cs, %0" : "=r"(v));
	else
		__asm__("mov %%ds, %0" : "=r"(v));
	return v;
}

/* The guest x87 as frstor leaves it. */
static void load_cpu(struct x86_cpu *c, const uint8_t im[108])
{
	uint16_t fcw, fsw, ftw;
	uint32_t fip, fdp, fop;
	unsigned k;

	x86_cpu_init(c);
	memcpy(&fcw, im + 0, 2);
	memcpy(&fsw, im + 4, 2);
	memcpy(&ftw, im + 8, 2);
	memcpy(&fip, im + 12, 4);
	memcpy(&fop, im + 16, 4);
	memcpy(&fdp, im + 20, 4);
	c->fpu.fcw = fcw;
	c->fpu.fsw = fsw & (uint16_t)~X87_TOP_MASK;
	c->fpu.top = (fsw >> 11) & 7;
	c->fpu.fip = fip;
	c->fpu.fdp = fdp;
	c->fpu.fop = (uint16_t)((fop >> 16) & 0x7ff);
	for (k = 0; k < 8; k++) {
		if (((ftw >> (2 * k)) & 3) != 3)
			c->fpu.tag |= (uint8_t)(1u << k);
		memcpy(&c->fpu.st[(c->fpu.top + k) & 7], im + 28 + 10 * k, 10);
	}
	c->seg_sel[1] = sel(1);
	c->seg_sel[3] = sel(0);
}

/* Run the handler as x86_run() would; returns the guest signal or 0. */
static int run_emulated(struct x86_cpu *c, const struct x86_insn *insn)
{
	jmp_buf jb;

	c->cur = insn;
	c->jb = &jb;
	if (setjmp(jb)) {
		x87_host_fldcw(0x037f);
		x87_host_ldmxcsr(0x1f80);
		c->jb = NULL;
		return c->fault.sig;
	}
	x87_host_fldcw(c->fpu.fcw);
	x87_host_ldmxcsr(c->mxcsr);
	insn->fn(c, insn);
	x87_host_fldcw(0x037f);
	x87_host_ldmxcsr(0x1f80);
	c->jb = NULL;
	return 0;
}

/* The emulated state as an fnsave image, through the emulated fnsave. */
static void save_cpu(struct x86_cpu *c, uint8_t out[108])
{
	static const uint8_t fnsave[] = { 0xdd, 0x30 }; /* fnsave [rax] */
	struct x86_insn insn;

	decode(fnsave, sizeof(fnsave), &insn);
	c->r[X86_RAX] = (uint64_t)out;
	assert_int_equal(run_emulated(c, &insn), 0);
}

/* Compare fnsave images; tags only as empty or not (the other classes are
 * recomputed from the registers), selectors not at all (recent
 * processors store zero there).  With report, differences are printed
 * and fail the test. */
static int same_image(const uint8_t *n, const uint8_t *e, const char *what, int report)
{
	uint8_t a[108], b[108];
	uint16_t ta, tb;
	unsigned k;

	memcpy(a, n, 108);
	memcpy(b, e, 108);
	memcpy(&ta, a + 8, 2);
	memcpy(&tb, b + 8, 2);
	for (k = 0; k < 8; k++) {
		if (((ta >> (2 * k)) & 3) != 3)
			ta &= (uint16_t) ~(3u << (2 * k));
		if (((tb >> (2 * k)) & 3) != 3)
			tb &= (uint16_t) ~(3u << (2 * k));
	}
	memcpy(a + 8, &ta, 2);
	memcpy(b + 8, &tb, 2);
	memset(a + 16, 0, 2);
	memset(b + 16, 0, 2);
	memset(a + 24, 0, 2);
	memset(b + 24, 0, 2);
	if (!memcmp(a, b, 108))
		return 1;
	if (report) {
		for (k = 0; k < 108; k++)
			if (a[k] != b[k])
				fprintf(stderr, "%s: byte %u native %02x emulated %02x\n", what, k,
					a[k], b[k]);
		fail_msg("%s: native and emulated images differ", what);
	}
	return 0;
}

/* Stored environments, selectors aside. */
static int same_env(uint8_t *n, uint8_t *e, unsigned size)
{
	unsigned fcs = size >= 28 ? 16 : 8, fds = size >= 28 ? 24 : 12;

	memset(n + fcs, 0, 2), memset(e + fcs, 0, 2);
	memset(n + fds, 0, 2), memset(e + fds, 0, 2);
	return !memcmp(n, e, 128);
}

/* fnstenv/fnsave store, fldenv/frstor load: both sides start from the
 * same random state, the result is compared as an fnsave image; stored
 * memory is compared except the selectors. */
static void check_env_form(const uint8_t *bytes, size_t n, unsigned size, int load)
{
	static uint8_t mem_n[128], mem_e[128];
	uint8_t in[108], out_n[108], out_e[108];
	struct x86_insn insn;
	unsigned s;

	decode(bytes, n, &insn);
	for (s = 0; s < 2000; s++) {
		uint8_t mem0[128];
		int tries;

		rnd_image(in);
		rnd_bytes(mem0, sizeof(mem0));
		if (load)
			rnd_image(mem0); /* a loadable environment/state */
		memcpy(mem_e, mem0, sizeof(mem0));
		load_cpu(&cpu, in);
		cpu.r[X86_RAX] = (uint64_t)mem_e;
		assert_int_equal(run_emulated(&cpu, &insn), 0);
		save_cpu(&cpu, out_e);
		/* A context switch between the native frstor and fnsave can
		 * lose FIP/FDP/FOP (processors that save them only with an
		 * exception pending): the native side gets a second chance. */
		for (tries = 0; tries < 2; tries++) {
			memcpy(mem_n, mem0, sizeof(mem0));
			build_stub(bytes, n);
			run_native(in, out_n, mem_n);
			if (same_image(out_n, out_e, "", 0) &&
			    (load || same_env(mem_n, mem_e, size)))
				break;
		}
		same_image(out_n, out_e, load ? "after load" : "after store", 1);
		if (!load && !same_env(mem_n, mem_e, size))
			assert_memory_equal(mem_n, mem_e, sizeof(mem_n));
	}
}

static void test_fnstenv(void **state)
{
	static const uint8_t f32[] = { 0xd9, 0x30 }, f64[] = { 0x48, 0xd9, 0x30 },
			     f16[] = { 0x66, 0xd9, 0x30 };
	(void)state;
	check_env_form(f32, sizeof(f32), 28, 0);
	check_env_form(f64, sizeof(f64), 28, 0);
	check_env_form(f16, sizeof(f16), 14, 0);
}

static void test_fldenv(void **state)
{
	static const uint8_t f32[] = { 0xd9, 0x20 }, f16[] = { 0x66, 0xd9, 0x20 };
	(void)state;
	check_env_form(f32, sizeof(f32), 28, 1);
	check_env_form(f16, sizeof(f16), 14, 1);
}

static void test_fnsave_frstor(void **state)
{
	static const uint8_t save[] = { 0xdd, 0x30 }, rstor[] = { 0xdd, 0x20 };
	(void)state;
	check_env_form(save, sizeof(save), 108, 0);
	check_env_form(rstor, sizeof(rstor), 108, 1);
}

/* fxsave after frstor, native and emulated.  FIP/FDP/FOP (some
 * processors store them only with an exception pending), MXCSR_MASK and
 * the XMM registers (the host's own, here) are left out; bytes 416-511
 * must be left alone. */
static void check_fxsave(const uint8_t *bytes, size_t n)
{
	static uint8_t area_n[512] __attribute__((aligned(16)));
	static uint8_t area_e[512] __attribute__((aligned(16)));
	uint8_t in[108], out[108];
	struct x86_insn insn;
	unsigned s;

	decode(bytes, n, &insn);
	for (s = 0; s < 500; s++) {
		rnd_image(in);
		rnd_bytes(area_n, sizeof(area_n));
		memcpy(area_e, area_n, sizeof(area_n));
		build_stub(bytes, n);
		run_native(in, out, area_n);
		load_cpu(&cpu, in);
		cpu.r[X86_RAX] = (uint64_t)area_e;
		assert_int_equal(run_emulated(&cpu, &insn), 0);
		memset(area_n + 6, 0, 18), memset(area_e + 6, 0, 18);
		memset(area_n + 28, 0, 4), memset(area_e + 28, 0, 4);
		memset(area_n + 160, 0, 256), memset(area_e + 160, 0, 256);
		assert_memory_equal(area_n, area_e, sizeof(area_n));
	}
}

static void test_fxsave(void **state)
{
	static const uint8_t f[] = { 0x0f, 0xae, 0x00 }, f64[] = { 0x48, 0x0f, 0xae, 0x00 };
	(void)state;
	check_fxsave(f, sizeof(f));
	check_fxsave(f64, sizeof(f64));
}

/* fxrstor then fxsave, native and emulated, from a random valid image:
 * what was loaded must come back (FIP/FDP/FOP and MXCSR_MASK aside). */
static void check_fxrstor(int is64)
{
	/* fxrstor[64] [rax]; fxsave64 [rcx] */
	const uint8_t pair[] = { 0x48, 0x0f, 0xae, 0x08, 0x48, 0x0f, 0xae, 0x01 };
	const uint8_t *rstor = is64 ? pair : pair + 1;
	static uint8_t img[512] __attribute__((aligned(16)));
	static uint8_t out_n[512] __attribute__((aligned(16)));
	static uint8_t out_e[512] __attribute__((aligned(16)));
	static const uint8_t save64[] = { 0x48, 0x0f, 0xae, 0x00 };
	uint8_t in[108], scratch[108];
	struct x86_insn ir, is;
	unsigned s, k;

	decode(rstor, is64 ? 4 : 3, &ir);
	decode(save64, sizeof(save64), &is);
	for (s = 0; s < 500; s++) {
		/* random MXCSR without pending SSE flags: masks, RC, FZ, DAZ */
		uint32_t mxcsr = (uint32_t)(rnd() & 0xffc0);
		rnd_bytes(img, sizeof(img));
		rnd_image(in);
		memcpy(img + 0, in + 0, 2);
		memcpy(img + 2, in + 4, 2);
		memcpy(img + 24, &mxcsr, 4);
		for (k = 0; k < 8; k++)
			rnd_f80(img + 32 + 16 * k);
		rnd_bytes(out_n, sizeof(out_n));
		memcpy(out_e, out_n, sizeof(out_e));

		build_stub(is64 ? pair : pair + 1, is64 ? 8 : 7);
		((stub_fn)(void *)stub)(in, scratch, img, out_n);
		x87_host_fldcw(0x037f);
		x87_host_ldmxcsr(0x1f80);

		x86_cpu_init(&cpu);
		cpu.r[X86_RAX] = (uint64_t)img;
		assert_int_equal(run_emulated(&cpu, &ir), 0);
		cpu.r[X86_RAX] = (uint64_t)out_e;
		assert_int_equal(run_emulated(&cpu, &is), 0);

		memset(out_n + 6, 0, 18), memset(out_e + 6, 0, 18);
		memset(out_n + 28, 0, 4), memset(out_e + 28, 0, 4);
		assert_memory_equal(out_n, out_e, sizeof(out_n));
	}
}

static void test_fxrstor(void **state)
{
	(void)state;
	check_fxrstor(1);
	check_fxrstor(0);
}

/* The signal code's helpers: a full state survives the round trip. */
static void test_fxsave_helpers(void **state)
{
	static struct x86_cpu a, b;
	uint8_t buf[512 + 8];
	unsigned s;

	(void)state;
	for (s = 0; s < 200; s++) {
		x86_cpu_init(&a);
		a.fpu.fcw = (uint16_t)(0x40 | (rnd() & 0x1f3f));
		a.fpu.fsw = (uint16_t)(rnd() & (X87_CC | X87_EXC | X87_SF));
		x87_update_es(&a);
		a.fpu.top = (uint8_t)(rnd() & 7);
		a.fpu.tag = (uint8_t)rnd();
		a.fpu.fop = (uint16_t)(rnd() & 0x7ff);
		a.fpu.fip = rnd();
		a.fpu.fdp = rnd();
		a.mxcsr = (uint32_t)(rnd() & 0xffff);
		for (unsigned k = 0; k < 8; k++)
			rnd_f80((uint8_t *)&a.fpu.st[k]);
		rnd_bytes((uint8_t *)a.xmm, sizeof(a.xmm));
		/* unaligned on purpose: the helpers take any buffer */
		x86_fxsave_to(&a, buf + 8 - (s & 7));
		x86_cpu_init(&b);
		x86_fxrstor_from(&b, buf + 8 - (s & 7));
		assert_int_equal(a.fpu.fcw, b.fpu.fcw);
		assert_int_equal(a.fpu.fsw, b.fpu.fsw);
		assert_int_equal(a.fpu.top, b.fpu.top);
		assert_int_equal(a.fpu.tag, b.fpu.tag);
		assert_int_equal(a.fpu.fop, b.fpu.fop);
		assert_true(a.fpu.fip == b.fpu.fip && a.fpu.fdp == b.fpu.fdp);
		assert_int_equal(a.mxcsr, b.mxcsr);
		for (unsigned k = 0; k < 8; k++)
			assert_memory_equal(&a.fpu.st[k], &b.fpu.st[k], 10);
		assert_memory_equal(a.xmm, b.xmm, sizeof(a.xmm));
	}
}

/* ---- exceptions --------------------------------------------------------- */

static void decode_at(const uint8_t *bytes, size_t n, struct x86_insn *insn, size_t off)
{
	memcpy(stub + off, bytes, n);
	assert_int_equal(x86_decode_insn(&dec, (uint64_t)(stub + off), stub + off, n, insn),
			 (int)n);
}

/* An unmasked exception is recorded, then reported (SIGFPE, Linux's
 * si_code, the waiting instruction's address) by the next waiting
 * instruction, which changes nothing; non-waiting ones run. */
static void test_pending(void **state)
{
	static const uint8_t fdivp[] = { 0xde, 0xf9 }; /* fdivp st1, st0 */
	static const uint8_t fld1[] = { 0xd9, 0xe8 };
	static const uint8_t fnstsw[] = { 0xdf, 0xe0 }; /* fnstsw ax */
	static const uint8_t fnclex[] = { 0xdb, 0xe2 };
	static const uint8_t fwait[] = { 0x9b };
	struct x86_insn div, ld, st, cl, wt;
	union x87_val one, zero;
	struct x86_cpu *c = &cpu;

	(void)state;
	decode_at(fdivp, 2, &div, 0);
	decode_at(fld1, 2, &ld, 8);
	decode_at(fnstsw, 2, &st, 16);
	decode_at(fnclex, 2, &cl, 24);
	decode_at(fwait, 1, &wt, 32);
	one.ld = 1.0L;
	zero.ld = 0.0L;

	x86_cpu_init(c);
	c->fpu.fcw = 0x037b; /* ZE unmasked */
	x87_push(c, &one);
	x87_push(c, &zero);
	/* 1 / 0: the destination and TOP stay, ZE and ES are set */
	assert_int_equal(run_emulated(c, &div), 0);
	assert_int_equal(c->fpu.top, 6);
	assert_true((c->fpu.fsw & (X87_ZE | X87_ES | X87_B)) == (X87_ZE | X87_ES | X87_B));
	assert_memory_equal(&c->fpu.st[7], &one, 10);
	/* fnstsw does not wait */
	assert_int_equal(run_emulated(c, &st), 0);
	assert_int_equal((uint16_t)c->r[X86_RAX], x87_fsw(c));
	/* fld1 waits: SIGFPE, FPE_FLTDIV, at fld1, nothing pushed */
	assert_int_equal(run_emulated(c, &ld), SIGFPE);
	assert_int_equal(c->fault.code, FPE_FLTDIV);
	assert_true(c->fault.addr == ld.pc && c->fault.pc == ld.pc);
	assert_int_equal(c->fpu.top, 6);
	/* so does fwait */
	assert_int_equal(run_emulated(c, &wt), SIGFPE);
	/* after fnclex everything runs */
	assert_int_equal(run_emulated(c, &cl), 0);
	assert_int_equal(c->fpu.fsw & (X87_EXC | X87_ES | X87_B), 0);
	assert_int_equal(run_emulated(c, &ld), 0);
	assert_int_equal(c->fpu.top, 5);
}

/* fldcw unmasking a flag already set makes it pending (as the hardware
 * does); the code follows the highest-priority unmasked flag. */
static void test_fldcw_unmask(void **state)
{
	static const uint8_t fldcw[] = { 0xd9, 0x28 }; /* fldcw [rax] */
	static const uint8_t fldpi[] = { 0xd9, 0xeb };
	static const uint8_t fld1[] = { 0xd9, 0xe8 };
	static const uint8_t fdivp[] = { 0xde, 0xf1 }; /* fdivrp: 1/pi */
	struct x86_insn lc, pi, ld, div;
	uint16_t cw = 0x035f; /* PE unmasked */
	struct x86_cpu *c = &cpu;

	(void)state;
	decode_at(fldcw, 2, &lc, 0);
	decode_at(fldpi, 2, &pi, 8);
	decode_at(fld1, 2, &ld, 16);
	decode_at(fdivp, 2, &div, 24);
	x86_cpu_init(c);
	assert_int_equal(run_emulated(c, &pi), 0);
	assert_int_equal(run_emulated(c, &ld), 0);
	assert_int_equal(run_emulated(c, &div), 0); /* inexact, masked */
	assert_true(c->fpu.fsw & X87_PE);
	assert_false(c->fpu.fsw & X87_ES);
	c->r[X86_RAX] = (uint64_t)&cw;
	assert_int_equal(run_emulated(c, &lc), 0);
	assert_int_equal(c->fpu.fcw, 0x035f);
	assert_true(c->fpu.fsw & X87_ES);
	assert_int_equal(run_emulated(c, &ld), SIGFPE);
	assert_int_equal(c->fault.code, FPE_FLTRES);
	/* fldcw itself waits */
	assert_int_equal(run_emulated(c, &lc), SIGFPE);
}

/* A stack overflow, unmasked: nothing changes, IE SF C1 and ES are set. */
static void test_stack_fault_unmasked(void **state)
{
	static const uint8_t fld1[] = { 0xd9, 0xe8 };
	struct x86_insn ld;
	struct x86_cpu *c = &cpu;
	unsigned k;

	(void)state;
	decode_at(fld1, 2, &ld, 0);
	x86_cpu_init(c);
	c->fpu.fcw = 0x037e;
	for (k = 0; k < 8; k++)
		assert_int_equal(run_emulated(c, &ld), 0);
	assert_int_equal(c->fpu.tag, 0xff);
	assert_int_equal(run_emulated(c, &ld), 0);
	assert_int_equal(c->fpu.top, 0);
	assert_int_equal(c->fpu.fsw & (X87_IE | X87_SF | X87_C1 | X87_ES),
			 X87_IE | X87_SF | X87_C1 | X87_ES);
	assert_int_equal(run_emulated(c, &ld), SIGFPE);
	assert_int_equal(c->fault.code, FPE_FLTINV);
}

/* FIP, FOP (past prefixes) and FDP follow the last non-control
 * instruction; control instructions leave them. */
static void test_pointers(void **state)
{
	static const uint8_t fld[] = { 0x64, 0xdd, 0x40, 0x08 }; /* fld qword fs:[rax+8] */
	static const uint8_t fnstcw[] = { 0xd9, 0x38 };
	struct x86_insn ld, sc;
	double v[2] = { 0, 2.5 };
	uint16_t cw;
	struct x86_cpu *c = &cpu;

	(void)state;
	decode_at(fld, sizeof(fld), &ld, 0);
	decode_at(fnstcw, sizeof(fnstcw), &sc, 8);
	x86_cpu_init(c);
	c->r[X86_RAX] = (uint64_t)v;
	assert_int_equal(run_emulated(c, &ld), 0);
	assert_true(c->fpu.fip == ld.pc);
	assert_int_equal(c->fpu.fop, 0x540);
	assert_true(c->fpu.fdp == (uint64_t)&v[1]);
	c->r[X86_RAX] = (uint64_t)&cw;
	assert_int_equal(run_emulated(c, &sc), 0);
	assert_true(c->fpu.fip == ld.pc && c->fpu.fdp == (uint64_t)&v[1]);
	assert_int_equal(cw, 0x037f);
}

/* fxsave/fxrstor need a 16-byte aligned area (#GP: SIGSEGV, SI_KERNEL,
 * address 0); fxrstor with reserved MXCSR bits set is #GP too. */
static void test_fx_faults(void **state)
{
	static const uint8_t fxsave[] = { 0x0f, 0xae, 0x00 }, fxrstor[] = { 0x0f, 0xae, 0x08 };
	static uint8_t area[528] __attribute__((aligned(16)));
	struct x86_insn sv, rs;
	uint32_t bad = 0x10000 | 0x1f80;
	struct x86_cpu *c = &cpu;

	(void)state;
	decode_at(fxsave, 3, &sv, 0);
	decode_at(fxrstor, 3, &rs, 8);
	x86_cpu_init(c);
	c->r[X86_RAX] = (uint64_t)(area + 8);
	assert_int_equal(run_emulated(c, &sv), SIGSEGV);
	assert_int_equal(c->fault.code, 0x80);
	assert_true(c->fault.addr == 0);
	assert_int_equal(run_emulated(c, &rs), SIGSEGV);
	c->r[X86_RAX] = (uint64_t)area;
	assert_int_equal(run_emulated(c, &sv), 0);
	memcpy(area + 24, &bad, 4);
	assert_int_equal(run_emulated(c, &rs), SIGSEGV);
	bad = 0x1f80;
	memcpy(area + 24, &bad, 4);
	assert_int_equal(run_emulated(c, &rs), 0);
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
		cmocka_unit_test(test_fnstenv),
		cmocka_unit_test(test_fldenv),
		cmocka_unit_test(test_fnsave_frstor),
		cmocka_unit_test(test_fxsave),
		cmocka_unit_test(test_fxrstor),
		cmocka_unit_test(test_fxsave_helpers),
		cmocka_unit_test(test_pending),
		cmocka_unit_test(test_fldcw_unmask),
		cmocka_unit_test(test_stack_fault_unmasked),
		cmocka_unit_test(test_pointers),
		cmocka_unit_test(test_fx_faults),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
