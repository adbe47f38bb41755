/* test_x86_classify.c — what the decoder tells timing models and PMUs of
 * an x87, MMX, SSE or AVX instruction (insn.simd): the register file, the
 * format of floating-point data (packed or scalar, single or double), and
 * whether it only moves data. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "emu/x86/x86.h"

static uint8_t simd(const uint8_t *b, size_t n)
{
	struct x86_insn i;

	assert_int_equal(x86_decode_one(0x1000, b, n, &i), (int)n);
	return i.simd;
}

#define SIMD(want, ...)                                         \
	do {                                                    \
		static const uint8_t b_[] = { __VA_ARGS__ };    \
		assert_int_equal(simd(b_, sizeof(b_)), (want)); \
	} while (0)

static void test_formats(void **state)
{
	(void)state;
	SIMD(X86_SIMD_SS, 0xf3, 0x0f, 0x58, 0xca);  /* addss %xmm2, %xmm1 */
	SIMD(X86_SIMD_PS, 0x0f, 0x58, 0xca);	    /* addps */
	SIMD(X86_SIMD_SD, 0xf2, 0x0f, 0x59, 0x08);  /* mulsd (%rax), %xmm1 */
	SIMD(X86_SIMD_PD, 0x66, 0x0f, 0x58, 0xca);  /* addpd */
	SIMD(X86_SIMD_SD, 0x66, 0x0f, 0x2e, 0xca);  /* ucomisd */
	SIMD(X86_SIMD_PS, 0x0f, 0x57, 0xca);	    /* xorps: logic on packed singles */
	SIMD(X86_SIMD_PS, 0x0f, 0xc6, 0xca, 0x1b);  /* shufps */
	SIMD(X86_SIMD_SD, 0xf2, 0x0f, 0x2a, 0xc8);  /* cvtsi2sd %eax: the result's format */
	SIMD(X86_SIMD_SD, 0xf2, 0x0f, 0x2c, 0xc1);  /* cvttsd2si to %eax: the source's */
	SIMD(X86_SIMD_PS, 0x0f, 0x5b, 0xca);	    /* cvtdq2ps */
	SIMD(X86_SIMD_INT, 0x66, 0x0f, 0xfe, 0xca); /* paddd %xmm2, %xmm1 */
	SIMD(X86_SIMD_INT, 0x66, 0x0f, 0xd7, 0xc1); /* pmovmskb %xmm1, %eax */
	SIMD(X86_SIMD_MMX, 0x0f, 0xfe, 0xca);	    /* paddd %mm2, %mm1 */
	SIMD(X86_SIMD_PS, 0xc5, 0xf4, 0x58, 0xc2);  /* vaddps %ymm2, %ymm1, %ymm0 */
	SIMD(X86_SIMD_X87, 0xd8, 0xc1);		    /* fadd %st(1), %st */
	SIMD(X86_SIMD_X87, 0xd9, 0xe0);		    /* fchs */
	SIMD(X86_SIMD_X87, 0xd9, 0x38);		    /* fnstcw: control, not data */
}

static void test_moves(void **state)
{
	(void)state;
	SIMD(X86_SIMD_PS | X86_SIMD_MOVE, 0x0f, 0x28, 0xca);	    /* movaps */
	SIMD(X86_SIMD_PS | X86_SIMD_MOVE, 0xf3, 0x0f, 0x10, 0x08);  /* movss (%rax) */
	SIMD(X86_SIMD_INT | X86_SIMD_MOVE, 0x66, 0x0f, 0x7f, 0x08); /* movdqa to memory */
	SIMD(X86_SIMD_INT | X86_SIMD_MOVE, 0x66, 0x0f, 0x6e, 0xc8); /* movd %eax, %xmm1 */
	SIMD(X86_SIMD_X87 | X86_SIMD_MOVE, 0xd9, 0xc1);		    /* fld %st(1) */
	SIMD(X86_SIMD_X87 | X86_SIMD_MOVE, 0xdd, 0x18);		    /* fstp (%rax) */
	SIMD(X86_SIMD_X87 | X86_SIMD_MOVE, 0xd9, 0xc9);		    /* fxch */
	SIMD(X86_SIMD_X87 | X86_SIMD_MOVE, 0xd9, 0xee);		    /* fldz */
	SIMD(X86_SIMD_X87 | X86_SIMD_MOVE, 0xdb, 0x00);		    /* fild (%rax) */
}

static void test_integer_is_none(void **state)
{
	(void)state;
	SIMD(X86_SIMD_NONE, 0x48, 0x01, 0xd8); /* add %rbx, %rax */
	SIMD(X86_SIMD_NONE, 0x48, 0x8b, 0x00); /* mov (%rax), %rax */
	SIMD(X86_SIMD_NONE, 0x0f, 0xc3, 0x00); /* movnti %eax, (%rax): an integer store */
	SIMD(X86_SIMD_NONE, 0x0f, 0xae, 0x10); /* ldmxcsr (%rax) */
	SIMD(X86_SIMD_NONE, 0xf3, 0xa4);       /* rep movsb */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_moves),
		cmocka_unit_test(test_integer_is_none),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
