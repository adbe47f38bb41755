/* Unit tests for arch/xscale/regs.c: the XScale performance-monitoring
 * registers as the manual describes them [xdm] §8.2, §8.3 — PMNC's enable,
 * counter resets, clock divider, interrupt enables, write-1-to-clear
 * overflow flags and event-select fields (XSC1); 32-bit wrap with the
 * flag and the interrupt it requests; divide-by-64; XSC2's four counters
 * and separate INTEN, FLAG and EVTSEL. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "arch/xscale/xscale.h"

static void pmnc_enable_gates_counting(void **state)
{
	struct xs_regs r;

	(void)state;
	xs_reset(&r, XS_XSC1);
	assert_int_equal(xs_count(&r, XS_CCNT, 100), 0);
	assert_int_equal(xs_count(&r, 1, 5), 0);
	assert_int_equal(r.ccnt, 0);
	xs_write_pmnc(&r, XS_PMNC_E);
	assert_int_equal(xs_count(&r, XS_CCNT, 100), 100);
	assert_int_equal(xs_count(&r, 1, 5), 5);
	assert_int_equal(xs_count(&r, 2, 7), 7);
	assert_int_equal(xs_read_ctr(&r, XS_CCNT), 100);
	assert_int_equal(xs_read_ctr(&r, 1), 5);
	assert_int_equal(xs_read_ctr(&r, 2), 7);
	/* XSC1 has no PMN2 */
	assert_int_equal(xs_count(&r, 3, 7), 0);
	xs_write_pmnc(&r, 0);
	assert_int_equal(xs_count(&r, 1, 5), 0);
	assert_int_equal(xs_read_ctr(&r, 1), 5);
}

static void pmnc_resets(void **state)
{
	struct xs_regs r;

	(void)state;
	xs_reset(&r, XS_XSC1);
	xs_write_pmnc(&r, XS_PMNC_E);
	xs_count(&r, XS_CCNT, 10);
	xs_count(&r, 1, 20);
	xs_count(&r, 2, 30);
	/* P resets both event counters, not CCNT */
	xs_write_pmnc(&r, XS_PMNC_E | XS_PMNC_P);
	assert_int_equal(r.pmn[0], 0);
	assert_int_equal(r.pmn[1], 0);
	assert_int_equal(r.ccnt, 10);
	/* C resets CCNT only */
	xs_count(&r, 1, 3);
	xs_write_pmnc(&r, XS_PMNC_E | XS_PMNC_C);
	assert_int_equal(r.ccnt, 0);
	assert_int_equal(r.pmn[0], 3);
	/* P and C do not stay set */
	assert_int_equal(xs_read_pmnc(&r) & (XS_PMNC_P | XS_PMNC_C), 0);
	assert_int_equal(xs_read_pmnc(&r) & XS_PMNC_E, XS_PMNC_E);
}

static void pmnc_event_fields(void **state)
{
	struct xs_regs r;

	(void)state;
	xs_reset(&r, XS_XSC1);
	/* evtCount0 19:12, evtCount1 27:20 */
	xs_write_pmnc(&r, 0x0b << 12 | 0x0a << 20 | XS_PMNC_E);
	assert_int_equal(xs_evtcount(&r, 0), 0x0b);
	assert_int_equal(xs_evtcount(&r, 1), 0x0a);
	xs_set_evtcount(&r, 0, 0x07);
	assert_int_equal(r.pmnc, 0x07u << 12 | 0x0au << 20 | XS_PMNC_E);
	xs_set_evtcount(&r, 1, 0xff);
	assert_int_equal(r.pmnc >> 20 & 0xff, 0xff);
	/* reserved bits 31:28, 11, 7 do not stick */
	xs_write_pmnc(&r, 0xf0000880u);
	assert_int_equal(xs_read_pmnc(&r), 0);
	/* interrupt enables 6:4 and D read back */
	xs_write_pmnc(&r, 0x70 | XS_PMNC_D);
	assert_int_equal(xs_read_pmnc(&r), 0x70 | XS_PMNC_D);
}

static void wrap_and_overflow_flags(void **state)
{
	struct xs_regs r;

	(void)state;
	xs_reset(&r, XS_XSC1);
	xs_write_pmnc(&r, XS_PMNC_E);
	xs_write_ctr(&r, 1, 0xfffffffeu);
	xs_count(&r, 1, 1);
	assert_int_equal(r.pmn[0], 0xffffffffu);
	assert_false(xs_flag(&r, 1));
	/* 0xFFFFFFFF + 3 wraps to 2: the flag is set, counting goes on */
	xs_count(&r, 1, 3);
	assert_int_equal(r.pmn[0], 2);
	assert_true(xs_flag(&r, 1));
	assert_int_equal(r.pmnc & XS1_PMNC_FLAGS, XS1_PMNC_FLAG_PMN0);
	xs_count(&r, 1, 5);
	assert_int_equal(r.pmn[0], 7);
	/* no interrupt without its enable */
	assert_false(xs_irq(&r));
	xs_set_inten(&r, 2, 1); /* PMN1's enable does not cover PMN0's flag */
	assert_false(xs_irq(&r));
	xs_set_inten(&r, 1, 1);
	assert_true(xs_irq(&r));
	assert_true(xs_flag(&r, 1)); /* setting an enable left the flag alone */
	/* writing 0 to a flag leaves it; 1 clears it */
	xs_write_pmnc(&r, xs_read_pmnc(&r) & ~XS1_PMNC_FLAGS);
	assert_true(xs_flag(&r, 1));
	xs_write_pmnc(&r, xs_read_pmnc(&r) | XS1_PMNC_FLAG_PMN0);
	assert_false(xs_flag(&r, 1));
	assert_false(xs_irq(&r));
	/* CCNT wraps the same way, into bit 10 */
	xs_write_ctr(&r, XS_CCNT, 0xfffffff0u);
	xs_count(&r, XS_CCNT, 0x20);
	assert_int_equal(r.ccnt, 0x10);
	assert_int_equal(r.pmnc & XS1_PMNC_FLAGS, XS1_PMNC_FLAG_CCNT);
	assert_false(xs_irq(&r));
	xs_set_inten(&r, XS_CCNT, 1);
	assert_true(xs_irq(&r));
	xs_clear_flag(&r, XS_CCNT);
	assert_false(xs_irq(&r));
}

static void divide_by_64(void **state)
{
	struct xs_regs r;

	(void)state;
	xs_reset(&r, XS_XSC1);
	xs_write_pmnc(&r, XS_PMNC_E | XS_PMNC_D);
	assert_int_equal(xs_count(&r, XS_CCNT, 63), 0);
	assert_int_equal(r.ccnt, 0);
	assert_int_equal(xs_count(&r, XS_CCNT, 1), 1);
	assert_int_equal(r.ccnt, 1);
	/* 64 * 1000 + 5 cycles in uneven pieces: 1000 more counts */
	for (int k = 0; k < 1000; k++)
		xs_count(&r, XS_CCNT, k & 1 ? 100 : 28);
	xs_count(&r, XS_CCNT, 5);
	assert_int_equal(r.ccnt, 1001);
	/* event counters are not divided */
	assert_int_equal(xs_count(&r, 1, 64), 64);
	/* C resets the prescaler too: 63 more cycles are not a count */
	xs_write_pmnc(&r, XS_PMNC_E | XS_PMNC_D | XS_PMNC_C);
	xs_count(&r, XS_CCNT, 63);
	assert_int_equal(r.ccnt, 0);
	/* without D every cycle counts */
	xs_write_pmnc(&r, XS_PMNC_E | XS_PMNC_C);
	xs_count(&r, XS_CCNT, 63);
	assert_int_equal(r.ccnt, 63);
	/* the divided CCNT wraps after 2^38 cycles */
	xs_write_pmnc(&r, XS_PMNC_E | XS_PMNC_D | XS_PMNC_C);
	xs_count(&r, XS_CCNT, 64ull << 32);
	assert_int_equal(r.ccnt, 0);
	assert_true(xs_flag(&r, XS_CCNT));
}

static void xsc2_registers(void **state)
{
	struct xs_regs r;

	(void)state;
	xs_reset(&r, XS_XSC2);
	/* PMNC holds only E, P, C, D: no flags, enables or event fields */
	xs_write_pmnc(&r, 0xffffffffu & ~(XS_PMNC_P | XS_PMNC_C));
	assert_int_equal(xs_read_pmnc(&r), XS_PMNC_E | XS_PMNC_D);
	xs_write_pmnc(&r, XS_PMNC_E);
	/* EVTSEL: evtCountk in bits 8k+7:8k */
	xs_write_evtsel(&r, 0x0d0b0a07u);
	assert_int_equal(xs_evtcount(&r, 0), 0x07);
	assert_int_equal(xs_evtcount(&r, 1), 0x0a);
	assert_int_equal(xs_evtcount(&r, 2), 0x0b);
	assert_int_equal(xs_evtcount(&r, 3), 0x0d);
	xs_set_evtcount(&r, 2, 0x04);
	assert_int_equal(r.evtsel, 0x0d040a07u);
	/* four counters */
	for (int c = 1; c <= 4; c++)
		assert_int_equal(xs_count(&r, c, (uint64_t)c), (uint64_t)c);
	assert_int_equal(xs_read_ctr(&r, 4), 4);
	assert_int_equal(xs_count(&r, 5, 1), 0);
	/* FLAG bit 0 CCNT, bit 1 + k PMNk; INTEN the same layout */
	xs_write_ctr(&r, 3, 0xffffffffu);
	xs_count(&r, 3, 1);
	assert_int_equal(r.flag, XS2_BIT_PMN(2));
	assert_int_equal(r.flag, 1u << 3);
	assert_false(xs_irq(&r));
	xs_write_inten(&r, XS2_BIT_PMN(1));
	assert_false(xs_irq(&r));
	xs_write_inten(&r, 0xffffffffu);
	assert_int_equal(r.inten, 0x1f);
	assert_true(xs_irq(&r));
	/* write 0 leaves a flag, write 1 clears it */
	xs_write_flag(&r, ~XS2_BIT_PMN(2));
	assert_int_equal(r.flag, XS2_BIT_PMN(2));
	xs_write_flag(&r, XS2_BIT_PMN(2));
	assert_int_equal(r.flag, 0);
	assert_false(xs_irq(&r));
	/* P resets all four */
	xs_write_pmnc(&r, XS_PMNC_E | XS_PMNC_P);
	for (int c = 1; c <= 4; c++)
		assert_int_equal(xs_read_ctr(&r, c), 0);
	/* the XSC2 registers do nothing on XSC1 */
	xs_reset(&r, XS_XSC1);
	xs_write_evtsel(&r, 0x12345678u);
	xs_write_inten(&r, 0x1f);
	assert_int_equal(r.evtsel, 0);
	assert_int_equal(r.inten, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pmnc_enable_gates_counting),
		cmocka_unit_test(pmnc_resets),
		cmocka_unit_test(pmnc_event_fields),
		cmocka_unit_test(wrap_and_overflow_flags),
		cmocka_unit_test(divide_by_64),
		cmocka_unit_test(xsc2_registers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
