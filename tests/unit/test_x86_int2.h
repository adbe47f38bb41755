/* test_x86_int2.h — shared by the int2/string/cpuid unit tests: run one
 * instruction natively on the host CPU and in the emulator from the same
 * register and flag state, and compare.
 *
 * Native runs go through a small generated stub: load the 15 general
 * registers (all but rsp) and RFLAGS from a struct, execute the
 * instruction bytes, store them back.  The instruction under test must not
 * use rsp.  Emulated runs decode the same bytes with x86_decode_one() and
 * call the handler directly, with c->jb set so a guest fault comes back
 * here.
 */
#ifndef TEST_X86_INT2_H
#define TEST_X86_INT2_H

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "emu/x86/ops.h"

struct hstate {
	uint64_t r[16];
	uint64_t rflags;
};

struct stub {
	uint8_t *page;
	void (*fn)(struct hstate *);
	uint8_t code[16];
	size_t len;
};

static inline void emit(uint8_t **p, const void *b, size_t n)
{
	memcpy(*p, b, n);
	*p += n;
}

static inline void emit32(uint8_t **p, uint32_t v)
{
	emit(p, &v, 4);
}

/* mov [rdi+8*r], r  (store=1)  or  mov r, [rdi+8*r]  (store=0) */
static inline void emit_movreg(uint8_t **p, unsigned r, int store)
{
	uint8_t b[3] = { (uint8_t)(0x48 | (r >= 8 ? 4 : 0)), store ? 0x89 : 0x8b,
			 (uint8_t)(0x80 | ((r & 7) << 3) | 7) };
	emit(p, b, 3);
	emit32(p, 8 * r);
}

/* rip-relative disp32 to slot from the end of an instruction ending at p+4 */
static inline void emit_rel(uint8_t **p, const uint8_t *slot)
{
	emit32(p, (uint32_t)(slot - (*p + 4)));
}

/* Build the native stub for instruction bytes code[0..len). */
static inline void stub_build(struct stub *s, const uint8_t *code, size_t len)
{
	static const uint8_t pro[] = { 0x53, 0x55, 0x41, 0x54, 0x41, 0x55, 0x41, 0x56, 0x41, 0x57 };
	static const uint8_t epi[] = { 0xfc, 0x41, 0x5f, 0x41, 0x5e, 0x41,
				       0x5d, 0x41, 0x5c, 0x5d, 0x5b, 0xc3 };
	uint8_t *p, *slot_ptr, *slot_rdi;

	if (!s->page) {
		/* code page, then a writable page for the stub's two slots */
		s->page = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			       0);
		assert_true(s->page != MAP_FAILED);
	} else {
		assert_int_equal(mprotect(s->page, 4096, PROT_READ | PROT_WRITE), 0);
	}
	memcpy(s->code, code, len);
	s->len = len;
	slot_ptr = s->page + 4096;
	slot_rdi = s->page + 4104;
	p = s->page;
	emit(&p, pro, sizeof(pro));
	emit(&p, (uint8_t[]){ 0x48, 0x89, 0x3d }, 3); /* mov [rip+slot_ptr], rdi */
	emit_rel(&p, slot_ptr);
	emit(&p, (uint8_t[]){ 0x48, 0x8b, 0x87 }, 3); /* mov rax, [rdi+128]; push; popfq */
	emit32(&p, 128);
	emit(&p, (uint8_t[]){ 0x50, 0x9d }, 2);
	for (unsigned r = 0; r < 16; r++)
		if (r != X86_RSP && r != X86_RDI)
			emit_movreg(&p, r, 0);
	emit_movreg(&p, X86_RDI, 0);
	emit(&p, code, len);
	emit(&p, (uint8_t[]){ 0x48, 0x89, 0x3d }, 3); /* mov [rip+slot_rdi], rdi */
	emit_rel(&p, slot_rdi);
	emit(&p, (uint8_t[]){ 0x48, 0x8b, 0x3d }, 3); /* mov rdi, [rip+slot_ptr] */
	emit_rel(&p, slot_ptr);
	for (unsigned r = 0; r < 16; r++)
		if (r != X86_RSP && r != X86_RDI)
			emit_movreg(&p, r, 1);
	emit(&p, (uint8_t[]){ 0x9c, 0x58, 0x48, 0x89, 0x87 },
	     5); /* pushfq; pop rax; mov [rdi+128], rax */
	emit32(&p, 128);
	emit(&p, (uint8_t[]){ 0x48, 0x8b, 0x05 }, 3); /* mov rax, [rip+slot_rdi] */
	emit_rel(&p, slot_rdi);
	emit(&p, (uint8_t[]){ 0x48, 0x89, 0x87 }, 3); /* mov [rdi+56], rax */
	emit32(&p, 56);
	emit(&p, epi, sizeof(epi));
	assert_int_equal(mprotect(s->page, 4096, PROT_READ | PROT_EXEC), 0);
	s->fn = (void (*)(struct hstate *))(void *)s->page;
}

static inline void stub_free(struct stub *s)
{
	if (s->page)
		munmap(s->page, 8192);
	s->page = NULL;
}

static inline void native_run(struct stub *s, struct hstate *h)
{
	h->r[X86_RSP] = 0;
	s->fn(h);
	h->r[X86_RSP] = 0;
}

/* Run the stub's instruction in the emulator.  Returns 0, or the signal
 * of a guest fault (c->fault holds it). */
static inline int emu_run_cpu(struct stub *s, struct hstate *h, struct x86_cpu *c,
			      struct x86_counts *cnt)
{
	struct x86_insn insn;
	jmp_buf jb;
	int len = x86_decode_one((uint64_t)s->code, s->code, s->len, &insn);

	assert_int_equal(len, (int)s->len);
	x86_cpu_init(c);
	memset(cnt, 0, sizeof(*cnt));
	c->cnt = cnt;
	for (unsigned r = 0; r < 16; r++)
		c->r[r] = h->r[r];
	c->r[X86_RSP] = 0;
	x86_set_rflags(c, h->rflags);
	c->rip = insn.pc + insn.len;
	c->cur = &insn;
	c->jb = &jb;
	if (setjmp(jb)) {
		c->jb = NULL;
		c->cur = NULL;
		return c->fault.sig;
	}
	insn.fn(c, &insn);
	c->jb = NULL;
	c->cur = NULL;
	for (unsigned r = 0; r < 16; r++)
		h->r[r] = c->r[r];
	h->r[X86_RSP] = 0;
	h->rflags = x86_rflags(c);
	return 0;
}

static inline int emu_run(struct stub *s, struct hstate *h)
{
	struct x86_cpu c;
	struct x86_counts cnt;
	return emu_run_cpu(s, h, &c, &cnt);
}

/* ---- random inputs (xorshift64*, fixed seed: reproducible) ---------------- */

static inline uint64_t rnd(uint64_t *st)
{
	uint64_t x = *st;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*st = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* Operand values with the edge cases over-represented. */
static inline uint64_t rnd_val(uint64_t *st)
{
	static const uint64_t edge[] = { 0,
					 1,
					 2,
					 0x7f,
					 0x80,
					 0xff,
					 0x7fff,
					 0x8000,
					 0xffff,
					 0x7fffffff,
					 0x80000000,
					 0xffffffff,
					 0x7fffffffffffffffull,
					 0x8000000000000000ull,
					 ~0ull,
					 ~1ull };
	uint64_t r = rnd(st);
	switch (r & 7) {
	case 0:
		return edge[(r >> 8) % (sizeof(edge) / sizeof(edge[0]))];
	case 1:
		return (r >> 8) & 0xff;
	case 2:
		return -(uint64_t)((r >> 8) & 0xff);
	default:
		return rnd(st);
	}
}

/* Random arithmetic flags on top of the user-mode base (IF and bit 1). */
static inline uint64_t rnd_flags(uint64_t *st)
{
	return 0x202 | (rnd(st) & X86_ARITH);
}

static inline void rnd_state(uint64_t *st, struct hstate *h)
{
	for (unsigned r = 0; r < 16; r++)
		h->r[r] = rnd_val(st);
	h->r[X86_RSP] = 0;
	h->rflags = rnd_flags(st);
}

/* Compare registers and the flags in fmask; on mismatch print the case. */
static inline void compare(const char *what, const struct stub *s, const struct hstate *in,
			   const struct hstate *nat, const struct hstate *emu, uint64_t fmask)
{
	int bad = 0;

	for (unsigned r = 0; r < 16; r++)
		if (nat->r[r] != emu->r[r])
			bad = 1;
	if ((nat->rflags ^ emu->rflags) & fmask)
		bad = 1;
	if (!bad)
		return;
	fprintf(stderr, "%s: bytes", what);
	for (size_t k = 0; k < s->len; k++)
		fprintf(stderr, " %02x", s->code[k]);
	fprintf(stderr, "\n  in flags %#llx\n", (unsigned long long)in->rflags);
	for (unsigned r = 0; r < 16; r++)
		if (nat->r[r] != emu->r[r] || in->r[r] != nat->r[r])
			fprintf(stderr, "  r%-2u in %016llx native %016llx emu %016llx\n", r,
				(unsigned long long)in->r[r], (unsigned long long)nat->r[r],
				(unsigned long long)emu->r[r]);
	fprintf(stderr, "  flags native %#llx emu %#llx mask %#llx\n",
		(unsigned long long)nat->rflags, (unsigned long long)emu->rflags,
		(unsigned long long)fmask);
	fail();
}

#endif
