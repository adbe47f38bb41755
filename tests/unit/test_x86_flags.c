/* test_x86_flags.c — lazy flags against the host CPU, and the condition
 * evaluator against the materialised flags. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "emu/x86/ops.h"

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	/* xorshift64*: deterministic inputs; every fourth value is an edge */
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	uint64_t v = rnd_state * 0x2545f4914f6cdd1dull;
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
					 0x7fffffffffffffff,
					 0x8000000000000000,
					 ~0ull };
	return (v & 3) ? v : edge[(v >> 2) % (sizeof(edge) / sizeof(edge[0]))];
}

#define ARITH 0x8d5u /* CF PF AF ZF SF OF */

/* Host flags of `op` on 64/32/16/8-bit operands, with CF in as given. */
#define HOST2(insn, suffix, reg_d, reg_s, type)                                            \
	static uint32_t host_##insn##suffix(uint64_t d, uint64_t s, int cf, uint64_t *res) \
	{                                                                                  \
		type dd = (type)d, ss = (type)s;                                           \
		uint64_t f;                                                                \
		__asm__("bt $0, %q[cf]\n\t" #insn " %" reg_s "[s], %" reg_d "[d]\n\t"      \
			"pushfq\n\tpopq %[f]"                                              \
			: [d] "+r"(dd), [f] "=r"(f)                                        \
			: [s] "r"(ss), [cf] "r"((uint64_t)cf)                              \
			: "cc");                                                           \
		*res = (uint64_t)dd;                                                       \
		return (uint32_t)f & ARITH;                                                \
	}
#define HOST_ALL(insn)                     \
	HOST2(insn, q, "q", "q", uint64_t) \
	HOST2(insn, l, "k", "k", uint32_t) \
	HOST2(insn, w, "w", "w", uint16_t) \
	HOST2(insn, b, "b", "b", uint8_t)
HOST_ALL(add)
HOST_ALL(adc)
HOST_ALL(sub)
HOST_ALL(sbb)
HOST_ALL(and)
HOST_ALL(xor)

typedef uint32_t (*host_fn)(uint64_t, uint64_t, int, uint64_t *);

static void check_kind(int kind, host_fn h[4], int logic)
{
	static const unsigned sizes[4] = { 8, 4, 2, 1 };
	struct x86_cpu c;

	for (int n = 0; n < 20000; n++) {
		int k = n & 3, cf = (int)(rnd() & 1);
		unsigned sz = sizes[k];
		uint64_t d = rnd() & x86_mask(sz), s = rnd() & x86_mask(sz), res;
		uint32_t want = h[k](d, s, cf, &res), got;

		x86_cpu_init(&c);
		x86_setlf(&c, (unsigned)kind, sz, d, s, res);
		c.lf_aux = (uint64_t)cf;
		got = x86_flags(&c);
		if (logic) { /* AF is undefined after logic ops */
			want &= ~(uint32_t)X86_AF;
			got &= ~(uint32_t)X86_AF;
		}
		if (got != want)
			fail_msg("kind %d size %u d=%#llx s=%#llx cf=%d: flags %#x, host %#x", kind,
				 sz, (unsigned long long)d, (unsigned long long)s, cf, got, want);
		/* every condition code agrees with the materialised flags */
		for (unsigned cc = 0; cc < 16; cc++) {
			struct x86_cpu e;
			x86_cpu_init(&e);
			x86_set_rflags(&e, got);
			assert_int_equal(x86_cond(&c, cc), x86_cond(&e, cc));
		}
	}
}

static void test_add(void **s)
{
	(void)s;
	check_kind(X86_LF_ADD, (host_fn[]){ host_addq, host_addl, host_addw, host_addb }, 0);
}
static void test_adc(void **s)
{
	(void)s;
	check_kind(X86_LF_ADC, (host_fn[]){ host_adcq, host_adcl, host_adcw, host_adcb }, 0);
}
static void test_sub(void **s)
{
	(void)s;
	check_kind(X86_LF_SUB, (host_fn[]){ host_subq, host_subl, host_subw, host_subb }, 0);
}
static void test_sbb(void **s)
{
	(void)s;
	check_kind(X86_LF_SBB, (host_fn[]){ host_sbbq, host_sbbl, host_sbbw, host_sbbb }, 0);
}
static void test_and(void **s)
{
	(void)s;
	check_kind(X86_LF_LOGIC, (host_fn[]){ host_andq, host_andl, host_andw, host_andb }, 1);
}
static void test_xor(void **s)
{
	(void)s;
	check_kind(X86_LF_LOGIC, (host_fn[]){ host_xorq, host_xorl, host_xorw, host_xorb }, 1);
}

static void test_set_flags_keeps_others(void **s)
{
	struct x86_cpu c;
	(void)s;
	x86_cpu_init(&c);
	x86_setlf(&c, X86_LF_SUB, 4, 1, 2, (uint64_t)-1); /* CF SF AF PF set */
	x86_set_flags(&c, X86_CF, 0);
	assert_int_equal(x86_flags(&c), X86_SF | X86_AF | X86_PF);
	assert_int_equal(x86_rflags(&c) & 2, 2); /* reserved bit 1 reads as 1 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_adc),
		cmocka_unit_test(test_sub),
		cmocka_unit_test(test_sbb),
		cmocka_unit_test(test_and),
		cmocka_unit_test(test_xor),
		cmocka_unit_test(test_set_flags_keeps_others),
	};
	return cmocka_run_group_tests_name("x86_flags", tests, NULL, NULL);
}
