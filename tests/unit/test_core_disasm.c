/* Unit tests for core/disasm.c: instruction text against what GNU objdump
 * 2.40 prints for the same bytes (`objdump -D -b binary -m i386:x86-64`,
 * with its "# 0xADDR" written "# ADDR" as it does for files with symbols),
 * branch classification, undecodable bytes, Intel syntax, and whole
 * functions of this program. */
#define _GNU_SOURCE
#include <link.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/disasm.h"

struct att_case {
	const char *bytes;
	size_t n;
	const char *text;
};

/* One case per rule in disasm.c: suffixes, sign-extended immediates,
 * movzx/movsx names, cltq family, NOP forms and unused prefixes, string
 * operations, branch prefixes, rip-relative comments, movabs, shifts by
 * one, lock, setcc/cmovcc names, x87 suffixes and the fsub/fsubr swap,
 * fwait merging, cvtsi2sd suffixes, SSE predicates, enter, EVEX masks. */
static const struct att_case att_cases[] = {
	{ "\x55", 1, "push   %rbp" },
	{ "\x48\x89\xe5", 3, "mov    %rsp,%rbp" },
	{ "\xc7\x45\xfc\x00\x00\x00\x00", 7, "movl   $0x0,-0x4(%rbp)" },
	{ "\x48\x83\xe4\xf0", 4, "and    $0xfffffffffffffff0,%rsp" },
	{ "\x0f\xb6\xc0", 3, "movzbl %al,%eax" },
	{ "\x0f\xb7\x07", 3, "movzwl (%rdi),%eax" },
	{ "\x48\x63\xc7", 3, "movslq %edi,%rax" },
	{ "\x48\x0f\xbe\x06", 4, "movsbq (%rsi),%rax" },
	{ "\x48\x98", 2, "cltq" },
	{ "\x99", 1, "cltd" },
	{ "\x48\x99", 2, "cqto" },
	{ "\x66\x0f\x1f\x44\x00\x00", 6, "nopw   0x0(%rax,%rax,1)" },
	{ "\x0f\x1f\x40\x00", 4, "nopl   0x0(%rax)" },
	{ "\x0f\x1f\x80\x00\x00\x00\x00", 7, "nopl   0x0(%rax)" },
	{ "\x66\x2e\x0f\x1f\x84\x00\x00\x00\x00\x00", 10, "cs nopw 0x0(%rax,%rax,1)" },
	{ "\x66\x66\x2e\x0f\x1f\x84\x00\x00\x00\x00\x00", 11, "data16 cs nopw 0x0(%rax,%rax,1)" },
	{ "\x66\x90", 2, "xchg   %ax,%ax" },
	{ "\x90", 1, "nop" },
	{ "\xf3\x0f\x1e\xfa", 4, "endbr64" },
	{ "\xf3\x48\xab", 3, "rep stos %rax,%es:(%rdi)" },
	{ "\xf3\xa4", 2, "rep movsb %ds:(%rsi),%es:(%rdi)" },
	{ "\xf3\xa6", 2, "repz cmpsb %es:(%rdi),%ds:(%rsi)" },
	{ "\xae", 1, "scas   %es:(%rdi),%al" },
	{ "\xc3", 1, "ret" },
	{ "\xf3\xc3", 2, "repz ret" },
	{ "\xf2\xc3", 2, "bnd ret" },
	{ "\x3e\xff\xe0", 3, "notrack jmp *%rax" },
	{ "\xff\x50\x08", 3, "call   *0x8(%rax)" },
	{ "\xff\x25\xca\x2f\x00\x00", 6, "jmp    *0x2fca(%rip)        # 2fd0" },
	{ "\x48\x8d\x3d\xc5\x0e\x00\x00", 7, "lea    0xec5(%rip),%rdi        # ecc" },
	{ "\x64\x48\x8b\x04\x25\x28\x00\x00\x00", 9, "mov    %fs:0x28,%rax" },
	{ "\x48\xb8\x88\x77\x66\x55\x44\x33\x22\x11", 10, "movabs $0x1122334455667788,%rax" },
	{ "\x6a\xff", 2, "push   $0xffffffffffffffff" },
	{ "\x68\x00\x01\x00\x00", 5, "push   $0x100" },
	{ "\x48\x69\xc0\x93\x24\x49\x92", 7, "imul   $0xffffffff92492493,%rax,%rax" },
	{ "\xd1\xe0", 2, "shl    %eax" },
	{ "\xd1\x20", 2, "shll   (%rax)" },
	{ "\xd3\x20", 2, "shll   %cl,(%rax)" },
	{ "\xc1\xf8\x02", 3, "sar    $0x2,%eax" },
	{ "\xf0\x0f\xb1\x17", 4, "lock cmpxchg %edx,(%rdi)" },
	{ "\xf0\x83\x00\x01", 4, "lock addl $0x1,(%rax)" },
	{ "\x0f\x94\xc0", 3, "sete   %al" },
	{ "\x0f\x94\x00", 3, "sete   (%rax)" },
	{ "\x0f\x4f\xc2", 3, "cmovg  %edx,%eax" },
	{ "\x83\x3d\x10\x00\x00\x00\xff", 7, "cmpl   $0xffffffff,0x10(%rip)        # 17" },
	{ "\xf6\x07\x01", 3, "testb  $0x1,(%rdi)" },
	{ "\xde\xe9", 2, "fsubrp %st,%st(1)" },
	{ "\xde\xf9", 2, "fdivrp %st,%st(1)" },
	{ "\xdc\xe9", 2, "fsubr  %st,%st(1)" },
	{ "\xd8\xe1", 2, "fsub   %st(1),%st" },
	{ "\xd9\xc9", 2, "fxch   %st(1)" },
	{ "\xdd\xd8", 2, "fstp   %st(0)" },
	{ "\xdb\x2c\x24", 3, "fldt   (%rsp)" },
	{ "\xdf\x3c\x24", 3, "fistpll (%rsp)" },
	{ "\xd9\x7c\x24\x0e", 4, "fnstcw 0xe(%rsp)" },
	{ "\x9b\xd9\x7c\x24\x0e", 5, "fstcw  0xe(%rsp)" },
	{ "\x9b\xdf\xe0", 3, "fstsw  %ax" },
	{ "\xf2\x0f\x2a\xc0", 4, "cvtsi2sd %eax,%xmm0" },
	{ "\xf2\x48\x0f\x2a\xc0", 5, "cvtsi2sd %rax,%xmm0" },
	{ "\xf2\x0f\x2a\x00", 4, "cvtsi2sdl (%rax),%xmm0" },
	{ "\xf2\x48\x0f\x2a\x00", 5, "cvtsi2sdq (%rax),%xmm0" },
	{ "\xf2\x0f\xc2\xc1\x01", 5, "cmpltsd %xmm1,%xmm0" },
	{ "\x66\x48\x0f\x7e\xc0", 5, "movq   %xmm0,%rax" },
	{ "\xc8\x10\x00\x00", 4, "enter  $0x10,$0x0" },
	{ "\x62\xf1\x7d\x48\x74\xc2", 6, "vpcmpeqb %zmm2,%zmm0,%k0" },
	{ "\x62\xe1\x7e\x48\x6f\x01", 6, "vmovdqu32 (%rcx),%zmm16" },
	{ "\x62\xb1\x75\x28\xfc\xc9", 6, "vpaddb %ymm17,%ymm1,%ymm1" },
	{ "\x0f\x0b", 2, "ud2" },
	{ "\xcc", 1, "int3" },
};

static void test_att_matches_objdump(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(att_cases) / sizeof(att_cases[0]); i++) {
		const struct att_case *c = &att_cases[i];
		struct disasm_insn d;
		size_t len = disasm_one((const uint8_t *)c->bytes, c->n, 0, DISASM_ATT, NULL, &d);

		if (strcmp(d.text, c->text) || len != c->n)
			fail_msg("case %zu: \"%s\" (%zu bytes), objdump: \"%s\" (%zu bytes)", i,
				 d.text, len, c->text, c->n);
		assert_true(d.ok);
		assert_memory_equal(d.bytes, c->bytes, c->n);
	}
}

static void test_branches(void **state)
{
	/* at 0x1000: jne +0x10, call -5, ret, jmp *%rax, mov (no branch) */
	const uint8_t jne[] = { 0x75, 0x10 }, call[] = { 0xe8, 0xf6, 0xff, 0xff, 0xff };
	const uint8_t ret[] = { 0xc3 }, jmpr[] = { 0xff, 0xe0 }, mov[] = { 0x89, 0xc0 };
	const uint8_t lea[] = { 0x48, 0x8d, 0x05, 0x10, 0x00, 0x00, 0x00 };
	struct disasm_insn d;

	(void)state;
	disasm_one(jne, sizeof(jne), 0x1000, DISASM_ATT, NULL, &d);
	assert_int_equal(d.branch, DISASM_BR_JUMP);
	assert_true(d.cond && d.has_target);
	assert_int_equal(d.target, 0x1012);
	assert_string_equal(d.text, "jne    1012");
	disasm_one(call, sizeof(call), 0x1000, DISASM_ATT, NULL, &d);
	assert_int_equal(d.branch, DISASM_BR_CALL);
	assert_int_equal(d.target, 0xffb);
	assert_false(d.cond);
	disasm_one(ret, sizeof(ret), 0x1000, DISASM_ATT, NULL, &d);
	assert_int_equal(d.branch, DISASM_BR_RET);
	assert_false(d.has_target);
	disasm_one(jmpr, sizeof(jmpr), 0x1000, DISASM_ATT, NULL, &d);
	assert_int_equal(d.branch, DISASM_BR_JUMP);
	assert_false(d.has_target || d.cond);
	assert_string_equal(d.text, "jmp    *%rax");
	disasm_one(mov, sizeof(mov), 0x1000, DISASM_ATT, NULL, &d);
	assert_int_equal(d.branch, DISASM_BR_NONE);
	disasm_one(lea, sizeof(lea), 0x1000, DISASM_ATT, NULL, &d);
	assert_true(d.has_ref);
	assert_int_equal(d.ref, 0x1017);
	assert_string_equal(d.text, "lea    0x10(%rip),%rax        # 1017");
}

static void test_bad_and_truncated(void **state)
{
	const uint8_t bad[] = { 0x06, 0x90 };	    /* push %es: invalid in 64-bit mode */
	const uint8_t cut[] = { 0x48, 0x8d, 0x05 }; /* lea missing its displacement */
	struct disasm_insn d;

	(void)state;
	assert_int_equal(disasm_one(bad, sizeof(bad), 0, DISASM_ATT, NULL, &d), 1);
	assert_false(d.ok);
	assert_string_equal(d.text, "(bad)");
	assert_int_equal(disasm_one(cut, sizeof(cut), 0, DISASM_ATT, NULL, &d), 1);
	assert_false(d.ok);
	assert_int_equal(disasm_one(cut, 0, 0, DISASM_ATT, NULL, &d), 0);
	/* fwait at the very end is itself */
	assert_int_equal(disasm_one((const uint8_t *)"\x9b", 1, 0, DISASM_ATT, NULL, &d), 1);
	assert_string_equal(d.text, "fwait");
}

static void test_intel(void **state)
{
	const uint8_t mov[] = { 0xc7, 0x45, 0xfc, 0x00, 0x00, 0x00, 0x00 };
	const uint8_t jne[] = { 0x75, 0x10 };
	const uint8_t fstcw[] = { 0x9b, 0xd9, 0x7c, 0x24, 0x0e };
	struct disasm_insn d;

	(void)state;
	disasm_one(mov, sizeof(mov), 0, DISASM_INTEL, NULL, &d);
	assert_string_equal(d.text, "mov dword ptr [rbp-0x4], 0x0");
	disasm_one(jne, sizeof(jne), 0x1000, DISASM_INTEL, NULL, &d);
	assert_string_equal(d.text, "jnz 0x1012");
	disasm_one(fstcw, sizeof(fstcw), 0, DISASM_INTEL, NULL, &d);
	assert_int_equal(d.len, 5);
	assert_string_equal(d.text, "fstcw [rsp+0xe]");
}

/* Any bytes decode to something printable without reading past the end. */
static void test_random_bytes(void **state)
{
	static uint8_t buf[1 << 16];
	uint64_t x = 0x9e3779b97f4a7c15ull;
	size_t off = 0, bad = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(buf); i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = (uint8_t)x;
	}
	while (off < sizeof(buf)) {
		struct disasm_insn d;
		size_t len = disasm_one(buf + off, sizeof(buf) - off, 0x400000 + off,
					off & 1 ? DISASM_INTEL : DISASM_ATT, NULL, &d);

		assert_true(len >= 1 && len <= 15 && len <= sizeof(buf) - off);
		assert_true(d.text[0] != 0);
		assert_non_null(memchr(d.text, 0, sizeof(d.text)));
		bad += !d.ok;
		off += len;
	}
	assert_true(bad < sizeof(buf) / 8); /* most random bytes are instructions */
}

/* ---- whole functions of this program ------------------------------------ */

__attribute__((noinline)) int disasm_test_target(int x, int n)
{
	for (int i = 0; i < n; i++) {
		__asm__ volatile("" : "+r"(x));
		x = x * 7 + i;
	}
	return x;
}

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	*(uint64_t *)data = info->dlpi_addr;
	return 1;
}

static struct sym *self_session(void)
{
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	uint64_t bias = 0, addr = (uint64_t)(uintptr_t)&disasm_test_target;
	struct sym *s = sym_new();

	assert_true(len > 0);
	exe[len] = 0;
	dl_iterate_phdr(first_object, &bias);
	assert_non_null(s);
	assert_int_equal(sym_add_image(s, exe, bias, addr + 0x200000, bias), 0);
	return s;
}

static void test_function(void **state)
{
	uint64_t addr = (uint64_t)(uintptr_t)&disasm_test_target;
	struct sym *s = self_session();
	struct disasm_func f;
	uint64_t next;
	int saw_ret = 0, saw_back = 0;

	(void)state;
	assert_int_equal(disasm_func(s, addr + 1, DISASM_ATT, &f), 0);
	assert_string_equal(f.sym.name, "disasm_test_target");
	assert_int_equal(f.sym.start, addr);
	assert_true(f.n > 3);
	assert_true(f.has_source);
	next = addr;
	for (size_t i = 0; i < f.n; i++) {
		const struct disasm_insn *d = &f.insn[i];

		/* contiguous, decoded, the bytes those the program runs */
		assert_int_equal(d->addr, next);
		assert_true(d->ok);
		assert_memory_equal(d->bytes, (const void *)(uintptr_t)d->addr, d->len);
		next += d->len;
		saw_ret |= d->branch == DISASM_BR_RET;
		if (d->has_target && d->target < d->addr && d->target >= addr) {
			char want[64];

			snprintf(want, sizeof(want), " <disasm_test_target+0x%llx>",
				 (unsigned long long)(d->target - addr));
			assert_non_null(strstr(d->text, want));
			saw_back = 1;
		}
		if (f.src[i].file)
			assert_non_null(strstr(f.src[i].file, "test_core_disasm.c"));
	}
	assert_int_equal(next, addr + f.sym.size);
	assert_true(saw_ret);
	assert_true(saw_back); /* the loop's backward branch, named */
	disasm_func_release(&f);
	assert_null(f.insn);
	assert_int_equal(disasm_func(s, 0x10, DISASM_ATT, &f), -1);
	sym_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_att_matches_objdump), cmocka_unit_test(test_branches),
		cmocka_unit_test(test_bad_and_truncated),   cmocka_unit_test(test_intel),
		cmocka_unit_test(test_random_bytes),	    cmocka_unit_test(test_function),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
