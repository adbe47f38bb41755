/* Unit tests for arch/ia64/ear.c and btb.c: PMC10's two layouts (cache
 * mode thresholds, TLB mode umask, ct = 01 off), PMC11's TLB mode, the
 * plm/ism qualification both EARs share, PMC12's four filter fields, and
 * the PMD8-15 ring with PMD16's index and full bit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "arch/ia64/ia64.h"

#define UM10(u) ((uint32_t)(u) << IA64_IEAR_UMASK_SHIFT)
#define USER IA64_PLM_USER

static void test_pmc10_modes(void **state)
{
	(void)state;
	assert_int_equal(ia64_iear_mode(IA64_IEAR_CACHE | UM10(0xff)), IA64_EAR_CACHE_MODE);
	/* ct = 11: still cache mode, with bit 12 as the umask's top bit */
	assert_int_equal(ia64_iear_mode(IA64_IEAR_CACHE | IA64_IEAR_CT_NONE), IA64_EAR_CACHE_MODE);
	assert_int_equal(ia64_iear_mode(UM10(0x7)), IA64_EAR_TLB_MODE);
	assert_int_equal(ia64_iear_mode(IA64_IEAR_CT_NONE | UM10(0x7)), IA64_EAR_OFF);
}

static void test_pmc10_thresholds(void **state)
{
	static const struct {
		unsigned um;
		int lat;
	} t[] = { { 0xff, 4 },	 { 0xfe, 8 },	 { 0xfc, 16 },	 { 0xf8, 32 }, { 0xf0, 128 },
		  { 0xe0, 256 }, { 0xc0, 1024 }, { 0x80, 4096 }, { 0x40, 0 },  { 0x7f, 0 },
		  { 0x00, -2 },	 { 0x3f, -2 },	 { 0xfd, -1 },	 { 0xf4, -1 } };
	(void)state;
	for (unsigned k = 0; k < sizeof(t) / sizeof(t[0]); k++)
		assert_int_equal(ia64_iear_threshold(IA64_IEAR_CACHE | UM10(t[k].um)), t[k].lat);
}

static void test_iear_cache_capture(void **state)
{
	struct ia64_ears x;
	(void)state;
	ia64_ears_start(&x, USER | IA64_IEAR_CACHE | UM10(0xfc), 0); /* >= 16 */
	assert_int_equal(ia64_iear_fetch(&x, 3, 0x401234, 15), 0);
	assert_int_equal(ia64_iear_fetch(&x, 3, 0x401234, 16), 1);
	/* PMD0: the 32-byte block and stat valid; the instruction kept */
	assert_int_equal(x.pmd0, 0x401220 | 1);
	assert_int_equal(x.iaddr, 0x401234);
	assert_int_equal(x.pmd1, 16);
	/* plm: user only, so not the kernel */
	assert_int_equal(ia64_iear_fetch(&x, 0, 0x500000, 100), 0);
	/* latency saturates at 12 bits with the overflow bit */
	assert_int_equal(ia64_iear_fetch(&x, 3, 0x401000, 5000), 1);
	assert_int_equal(x.pmd1, IA64_IEAR_LAT_MAX | IA64_IEAR_LAT_OV);
	/* TLB events are not cache mode's */
	assert_int_equal(ia64_iear_tlb(&x, 3, 0x401000, 1), 0);
	/* ism bit 15 (IA-32 excluded) stops the guest's captures */
	ia64_ears_start(&x, USER | IA64_IEAR_CACHE | UM10(0x40) | 2u << IA64_IEAR_ISM_SHIFT, 0);
	assert_int_equal(ia64_iear_fetch(&x, 3, 0x401000, 100), 0);
	/* LAT0: every miss */
	ia64_ears_start(&x, USER | IA64_IEAR_CACHE | UM10(0x40), 0);
	assert_int_equal(ia64_iear_fetch(&x, 3, 0x401000, 1), 1);
}

static void test_iear_tlb_capture(void **state)
{
	struct ia64_ears x;
	(void)state;
	ia64_ears_start(&x, USER | UM10(IA64_IEAR_TLB_VHPT), 0);
	assert_int_equal(ia64_iear_tlb(&x, 3, 0x402010, 0), 0); /* an L2 ITLB hit */
	assert_int_equal(ia64_iear_tlb(&x, 3, 0x402010, 1), 1);
	assert_int_equal(x.pmd0 & 3, IA64_IEAR_TLB_VHPT);
	assert_int_equal(x.pmd0 & ~0x1full, 0x402000);
	assert_int_equal(ia64_iear_fetch(&x, 3, 0x402010, 500), 0);
	ia64_ears_start(&x, USER | UM10(IA64_IEAR_TLB_L2 | IA64_IEAR_TLB_VHPT), 0);
	assert_int_equal(ia64_iear_tlb(&x, 3, 0x402010, 0), 1);
	assert_int_equal(x.pmd0 & 3, IA64_IEAR_TLB_L2);
	/* ct = 01: nothing */
	ia64_ears_start(&x, USER | IA64_IEAR_CT_NONE | UM10(7), 0);
	assert_int_equal(ia64_iear_tlb(&x, 3, 0x402010, 0), 0);
}

static void test_pmc11_modes(void **state)
{
	struct ia64_ears x;
	uint32_t tlb = USER | (uint32_t)IA64_DEAR_TLB << IA64_DEAR_MODE_SHIFT;
	(void)state;
	ia64_ears_start(&x, 0, tlb | IA64_DEAR_TLB_L2 << IA64_DEAR_UMASK_SHIFT);
	assert_int_equal(ia64_dear_tlb(&x, 3, 0x401000, 0x7000, 1), 0); /* a walk */
	assert_int_equal(ia64_dear_tlb(&x, 3, 0x401000, 0x7008, 0), 1);
	assert_int_equal(x.dear_daddr, 0x7008);
	assert_int_equal(x.dear_iaddr, 0x401000);
	assert_int_equal(x.dear_stat, 1);
	/* TLB mode takes no load latencies */
	assert_int_equal(ia64_dear_load(&x, 3, 0x401000, 0x7000, 1000), 0);
	/* cache mode: 4 << umask, and no TLB captures */
	ia64_ears_start(&x, 0, USER | 3u << IA64_DEAR_UMASK_SHIFT);
	assert_int_equal(ia64_dear_load(&x, 3, 0x401000, 0x7000, 31), 0);
	assert_int_equal(ia64_dear_load(&x, 3, 0x401000, 0x7000, 32), 1);
	assert_int_equal(ia64_dear_tlb(&x, 3, 0x401000, 0x7000, 1), 0);
}

static const struct ia64_branch taken_ok = { 0x1000, 0x2000, IA64_BR_IPREL, 1, 0, 0, 3 };

static void test_pmc12_filters(void **state)
{
	struct ia64_branch b = taken_ok;
	uint32_t all = USER | IA64_BTB_ALL;
	(void)state;
	assert_true(ia64_btb_wants(all, &b));
	assert_false(ia64_btb_wants(IA64_BTB_ALL, &b)); /* plm 0 */
	assert_true(ia64_btb_wants(USER | IA64_BTB_TAKEN, &b));
	b.taken = 0;
	assert_false(ia64_btb_wants(USER | IA64_BTB_TAKEN, &b));
	/* tm = 01: not-taken only */
	assert_true(ia64_btb_wants(USER | 1u << IA64_BTB_TM_SHIFT | 3u << IA64_BTB_PTM_SHIFT |
					   3u << IA64_BTB_PPM_SHIFT,
				   &b));
	b = taken_ok;
	b.mp_dir = 1;
	/* ppm = 10: correctly predicted predicates only */
	assert_false(ia64_btb_wants(USER | 3u << IA64_BTB_TM_SHIFT | 3u << IA64_BTB_PTM_SHIFT |
					    2u << IA64_BTB_PPM_SHIFT,
				    &b));
	assert_true(ia64_btb_wants(USER | 3u << IA64_BTB_TM_SHIFT | 3u << IA64_BTB_PTM_SHIFT |
					   1u << IA64_BTB_PPM_SHIFT,
				   &b));
	b = taken_ok;
	b.mp_tgt = 1;
	assert_false(ia64_btb_wants(USER | 3u << IA64_BTB_TM_SHIFT | 2u << IA64_BTB_PTM_SHIFT |
					    3u << IA64_BTB_PPM_SHIFT,
				    &b));
	/* brt: 2 returns only, 3 other indirect only */
	b = taken_ok;
	assert_false(ia64_btb_wants(all | 2u << IA64_BTB_BRT_SHIFT, &b));
	b.type = IA64_BR_RET;
	assert_true(ia64_btb_wants(all | 2u << IA64_BTB_BRT_SHIFT, &b));
	assert_false(ia64_btb_wants(all | 3u << IA64_BTB_BRT_SHIFT, &b));
	assert_false(ia64_btb_wants(USER, &b)); /* tm 00: nothing */
}

static void test_btb_ring(void **state)
{
	struct ia64_btb t;
	struct arch_branch out[8];
	struct ia64_branch b = taken_ok;
	(void)state;
	ia64_btb_start(&t, USER | IA64_BTB_ALL);
	assert_int_equal(ia64_btb_read(&t, out, 8), 0);
	b.from = 0x401237;
	b.to = 0x401100;
	b.mp_dir = 1;
	assert_int_equal(ia64_btb_record(&t, &b), 1);
	/* PMD8: branch, mispredicted, address bits 63:4; PMD9: its target */
	assert_int_equal(t.pmd[0], 0x401230 | IA64_BTB_B | IA64_BTB_MP);
	assert_int_equal(t.pmd[1], 0x401100 | IA64_BTB_MP);
	assert_int_equal(ia64_btb_pmd16(&t), 2);
	/* not taken: one entry, slot 3 */
	b = taken_ok;
	b.from = 0x401300;
	b.taken = 0;
	ia64_btb_record(&t, &b);
	assert_int_equal(t.pmd[2], 0x401300 | IA64_BTB_B | IA64_BTB_SLOT_NT << IA64_BTB_SLOT_SHIFT);
	assert_int_equal(ia64_btb_read(&t, out, 8), 2);
	assert_int_equal(out[0].from, 0x401300);
	assert_int_equal(out[0].to, 0);
	assert_int_equal(out[1].from, 0x401237); /* byte address kept */
	assert_int_equal(out[1].to, 0x401100);
	assert_int_equal(out[1].mispred, 1);
	/* five more taken: 3 + 10 entries wrap, full sticks, bbi = 13 % 8 */
	for (unsigned k = 0; k < 5; k++) {
		b = taken_ok;
		b.from = 0x500000 + k * 0x10;
		b.to = 0x600000 + k * 0x10;
		ia64_btb_record(&t, &b);
	}
	assert_int_equal(ia64_btb_pmd16(&t), 5 | IA64_BTB_FULL);
	/* the newest four pairs, newest first */
	assert_int_equal(ia64_btb_read(&t, out, 8), 4);
	assert_int_equal(out[0].from, 0x500040);
	assert_int_equal(out[0].to, 0x600040);
	assert_int_equal(out[3].from, 0x500010);
	assert_int_equal(ia64_btb_read(&t, out, 2), 2);
	/* one not-taken more: the oldest entry is now a target whose branch
	 * was overwritten, left out */
	b = taken_ok;
	b.taken = 0;
	b.from = 0x700000;
	ia64_btb_record(&t, &b);
	assert_int_equal(ia64_btb_read(&t, out, 8), 4);
	assert_int_equal(out[0].from, 0x700000);
	assert_int_equal(out[3].from, 0x500020);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmc10_modes),	   cmocka_unit_test(test_pmc10_thresholds),
		cmocka_unit_test(test_iear_cache_capture), cmocka_unit_test(test_iear_tlb_capture),
		cmocka_unit_test(test_pmc11_modes),	   cmocka_unit_test(test_pmc12_filters),
		cmocka_unit_test(test_btb_ring),
	};
	return cmocka_run_group_tests_name("ia64_ear", tests, NULL, NULL);
}
