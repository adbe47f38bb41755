/* Unit tests for arch/p4/escr.c and arch/p4/events.c: the 45 ESCRs and 18
 * counters (MSRs, blocks, ESCR-select values, which counters each ESCR
 * feeds, cascade partners), the event table's consistency (ESCRs, bits,
 * defaults, signals, Linux ids), SDM spot checks, and — driving the timing
 * model with small instruction streams — that the model signals the bits
 * name count what the bits say. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "arch/p4/p4.h"
#include "emu/uarch/model.h"

static const struct p4_event_desc *event(const char *name)
{
	for (unsigned k = 0; k < p4_nevents; k++)
		if (!strcmp(p4_events[k].name, name))
			return &p4_events[k];
	fail_msg("no event %s", name);
	return NULL;
}

static const struct p4_ebit *ebit(const struct p4_event_desc *d, const char *name)
{
	for (unsigned j = 0; j < d->nbits; j++)
		if (!strcmp(d->bits[j].name, name))
			return &d->bits[j];
	fail_msg("%s has no bit %s", d->name, name);
	return NULL;
}

static int nsig(const struct p4_ebit *b)
{
	int n = 0;
	while (n < P4_NSIG && b->sig[n] != UARCH_NEV)
		n++;
	return n;
}

/* ---- ESCRs and counters ---- */

static void test_escrs(void **s)
{
	(void)s;
	for (int k = 0; k < P4_NESCR; k++) {
		const struct p4_escr_desc *e = &p4_escr[k];
		assert_non_null(e->name);
		assert_true(e->msr >= 0x3a0 && e->msr <= 0x3e1);
		assert_true(e->group <= P4_IQ);
		assert_true(e->sel < 8);
		assert_int_equal(p4_escr_find(e->name), k);
		for (int j = 0; j < k; j++) {
			assert_int_not_equal(p4_escr[j].msr, e->msr);
			assert_string_not_equal(p4_escr[j].name, e->name);
		}
		/* it feeds counters of its own block, the pair its parity picks */
		int odd = e->name[strlen(e->name) - 1] & 1;
		for (int j = 0; j < 3; j++) {
			int c = e->ctr[j];
			if (c < 0) {
				assert_true(j == 2 && e->group != P4_IQ);
				continue;
			}
			assert_true(c < P4_NCTR);
			assert_int_equal(p4_ctr[c].group, e->group);
			if (c < 16)
				assert_int_equal((c >> 1) & 1, odd);
			else
				assert_int_equal(c, 16 + odd);
		}
	}
	/* the SDM's own examples and the odd ones out */
	int k = p4_escr_find("bsu_escr0");
	assert_true(k >= 0);
	assert_int_equal(p4_escr[k].msr, 0x3a0);
	assert_int_equal(p4_escr[k].sel, 7);
	assert_int_equal(p4_escr[k].ctr[0], 0);
	assert_int_equal(p4_escr[k].ctr[1], 1);
	k = p4_escr_find("BSU_ESCR1");
	assert_int_equal(p4_escr[k].ctr[0], 2);
	assert_int_equal(p4_escr[k].ctr[1], 3);
	k = p4_escr_find("SSU_ESCR0");
	assert_int_equal(p4_escr[k].msr, 0x3be);
	assert_int_equal(p4_escr[k].ctr[2], 16);
	k = p4_escr_find("CRU_ESCR5");
	assert_int_equal(p4_escr[k].msr, 0x3e1);
	assert_int_equal(p4_escr[k].sel, 6);
	assert_int_equal(p4_escr[k].ctr[2], 17);
	k = p4_escr_find("TC_ESCR1");
	assert_int_equal(p4_escr[k].msr, 0x3c5);
	assert_int_equal(p4_escr[k].ctr[0], 6);
	assert_int_equal(p4_escr_find("SSU_ESCR1"), -1); /* not in the SDM */
	assert_int_equal(p4_escr_find("nonsense"), -1);
	assert_int_equal(p4_escr_find(NULL), -1);
}

static void test_counters(void **s)
{
	(void)s;
	for (int c = 0; c < P4_NCTR; c++) {
		const struct p4_ctr_desc *d = &p4_ctr[c];
		assert_int_equal(d->msr, 0x300 + c);
		assert_int_equal(d->cccr_msr, 0x360 + c);
		assert_int_equal(d->group, c < 12 ? c / 4 : P4_IQ);
		int from = d->cascade_from;
		assert_true(from >= 0 && from < P4_NCTR && from != c);
		assert_int_equal(p4_ctr[from].group, d->group);
		assert_true(from < 16); /* 16 and 17 start no cascade (SDM) */
		if (c < 16)
			assert_int_equal(p4_ctr[from].cascade_from, c); /* pairs, either order */
	}
	assert_int_equal(p4_ctr[0].cascade_from, 2);
	assert_int_equal(p4_ctr[3].cascade_from, 1);
	assert_int_equal(p4_ctr[16].cascade_from, 14);
	assert_int_equal(p4_ctr[17].cascade_from, 15);
	assert_int_equal(p4_ctr[14].cascade_from, 12);
	assert_string_equal(p4_ctr[17].name, "IQ_COUNTER5");
}

static void test_escr_for(void **s)
{
	(void)s;
	/* every (counter, select) the ESCR table wires round-trips */
	for (int k = 0; k < P4_NESCR; k++)
		for (int j = 0; j < 3; j++)
			if (p4_escr[k].ctr[j] >= 0)
				assert_int_equal(p4_escr_for(p4_escr[k].ctr[j], p4_escr[k].sel), k);
	/* and every answer is an ESCR feeding that counter */
	int wired = 0;
	for (int c = 0; c < P4_NCTR; c++)
		for (unsigned sel = 0; sel < 8; sel++) {
			int k = p4_escr_for(c, sel);
			if (k < 0)
				continue;
			wired++;
			assert_int_equal(p4_escr[k].sel, sel);
			assert_true(p4_escr[k].ctr[0] == c || p4_escr[k].ctr[1] == c ||
				    p4_escr[k].ctr[2] == c);
		}
	/* BPU 8 selects, MS 3, FLAME 5 on four counters each; IQ: 7 even
	 * ESCRs on 12, 13, 16 and 6 odd ones on 14, 15, 17 */
	assert_int_equal(wired, 4 * 8 + 4 * 3 + 4 * 5 + 3 * 7 + 3 * 6);
	assert_int_equal(p4_escr_for(12, 4), p4_escr_find("CRU_ESCR0"));
	assert_int_equal(p4_escr_for(17, 5), p4_escr_find("CRU_ESCR3"));
	assert_int_equal(p4_escr_for(17, 3), -1); /* no SSU_ESCR1 */
	assert_int_equal(p4_escr_for(1, 7), p4_escr_find("BSU_ESCR0"));
	assert_int_equal(p4_escr_for(-1, 0), -1);
	assert_int_equal(p4_escr_for(P4_NCTR, 0), -1);
	assert_int_equal(p4_escr_for(0, 8), -1);
}

/* ---- the event table ---- */

/* The BSQ events, whose whole mask names the request kind (bsq.c). */
static int bsq(const struct p4_event_desc *d)
{
	return d->tag == P4_TAG_BSQ || d->tag == P4_TAG_BSQ_ACTIVE;
}

/* Bits that count nothing of their own and need no reason: the IOQ
 * qualifiers (every modelled request meets DEFAULT and MEM_WB; OWN and
 * OTHER pick the type bits' signals by source), and INSTR_RETIRED's
 * tagged halves, which the backend's tagging decides. */
static int qualifier(const struct p4_event_desc *d, const struct p4_ebit *b)
{
	static const char *const q[][2] = {
		{ "IOQ_ALLOCATION", "DEFAULT" },    { "IOQ_ALLOCATION", "MEM_WB" },
		{ "IOQ_ALLOCATION", "OWN" },	    { "IOQ_ALLOCATION", "OTHER" },
		{ "IOQ_ALLOCATION", "PREFETCH" },   { "IOQ_ACTIVE_ENTRIES", "DEFAULT" },
		{ "IOQ_ACTIVE_ENTRIES", "MEM_WB" }, { "IOQ_ACTIVE_ENTRIES", "OWN" },
		{ "IOQ_ACTIVE_ENTRIES", "OTHER" },  { "IOQ_ACTIVE_ENTRIES", "PREFETCH" },
		{ "INSTR_RETIRED", "NBOGUSTAG" },   { "INSTR_RETIRED", "BOGUSTAG" },
	};
	for (size_t k = 0; k < sizeof(q) / sizeof(q[0]); k++)
		if (!strcmp(d->name, q[k][0]) && !strcmp(b->name, q[k][1]))
			return 1;
	return 0;
}

static int tag_counted(const struct p4_event_desc *d)
{
	return d->tag == P4_TAG_FRONT_END || d->tag == P4_TAG_EXECUTION ||
	       d->tag == P4_TAG_REPLAY || d->tag == P4_TAG_TC_MODE || bsq(d);
}

static void test_event_consistency(void **s)
{
	uint8_t ids[256] = { 0 };
	(void)s;
	assert_int_equal(p4_nevents, 47); /* Linux's 46 and X87_SIMD_MOVES_UOP */
	for (unsigned k = 0; k < p4_nevents; k++) {
		const struct p4_event_desc *d = &p4_events[k];
		uint32_t all = 0, unsup = 0, sup = 0;

		assert_non_null(d->name);
		assert_non_null(d->desc);
		assert_true(d->code <= P4_ESCR_EVENT_MASK);
		assert_true(d->tag <= P4_TAG_TC_MODE);
		/* ESCRs exist, a second one differs and answers the same CCCR select */
		assert_true(d->escr[0] >= 0 && d->escr[0] < P4_NESCR);
		if (d->escr[1] >= 0) {
			assert_true(d->escr[1] < P4_NESCR);
			assert_int_not_equal(d->escr[1], d->escr[0]);
			assert_int_equal(p4_escr[d->escr[1]].group, p4_escr[d->escr[0]].group);
			assert_int_equal(p4_escr[d->escr[1]].sel, p4_escr[d->escr[0]].sel);
		} else {
			assert_int_equal(d->escr[1], -1);
		}
		/* no other event has the same select on the same ESCR */
		for (unsigned j = 0; j < k; j++)
			for (int a = 0; a < 2; a++)
				for (int b = 0; b < 2; b++)
					if (p4_events[j].code == d->code && d->escr[a] >= 0)
						assert_int_not_equal(p4_events[j].escr[b],
								     d->escr[a]);
		for (unsigned j = 0; j < k; j++)
			assert_string_not_equal(p4_events[j].name, d->name);
		if (d->linux_id != 0xff) {
			assert_true(d->linux_id < 46);
			assert_int_equal(ids[d->linux_id], 0);
			ids[d->linux_id] = 1;
		}
		for (unsigned j = 0; j < d->nbits; j++) {
			const struct p4_ebit *b = &d->bits[j];
			int n = nsig(b);
			assert_non_null(b->name);
			assert_non_null(b->desc);
			assert_true(b->bit < 16);
			assert_int_equal(all & 1u << b->bit, 0); /* distinct */
			all |= 1u << b->bit;
			for (int i = 0; i < n; i++) {
				assert_true(b->sig[i] < UARCH_NEV);
				for (int i2 = 0; i2 < i; i2++)
					assert_int_not_equal(b->sig[i2], b->sig[i]);
			}
			if (b->unsupported) {
				assert_int_equal(n, 0);
				assert_true(strlen(b->unsupported) > 10);
				unsup |= 1u << b->bit;
			} else if (n) {
				sup |= 1u << b->bit;
			} else {
				/* neither: only tag-counted events, named qualifiers
				 * and bits that count 0, saying why */
				assert_true(tag_counted(d) || qualifier(d, b) ||
					    strstr(b->desc, "(0: "));
			}
			if (tag_counted(d))
				assert_int_equal(n, 0);
		}
		/* a default of known bits; of supported ones when the event is */
		assert_int_equal(d->defmask & ~all, 0);
		if (d->nbits)
			assert_int_not_equal(d->defmask, 0);
		/* an event with no bit it can count says why, and only then */
		if (!d->nbits || (unsup == all && !tag_counted(d))) {
			assert_non_null(d->unsupported);
		} else {
			assert_null(d->unsupported);
			assert_int_equal(d->defmask & unsup, 0);
		}
		if (bsq(d)) {
			unsigned sig;
			const char *why;
			assert_int_equal(p4_bsq_signal(d->defmask, d->tag == P4_TAG_BSQ_ACTIVE,
						       &sig, &why),
					 0);
		}
		(void)sup;
	}
	for (int i = 0; i < 46; i++)
		assert_int_equal(ids[i], 1);
}

/* Event select, Linux id and ESCRs of every event: Linux's
 * p4_event_bind_map, with the SDM's single ESCRs and TBPU_ESCR1. */
static void test_event_escrs(void **s)
{
	static const struct {
		const char *name;
		uint8_t code, id;
		const char *e0, *e1;
	} want[] = {
		{ "TC_DELIVER_MODE", 0x01, 0, "TC_ESCR0", "TC_ESCR1" },
		{ "BPU_FETCH_REQUEST", 0x03, 1, "BPU_ESCR0", "BPU_ESCR1" },
		{ "ITLB_REFERENCE", 0x18, 2, "ITLB_ESCR0", "ITLB_ESCR1" },
		{ "MEMORY_CANCEL", 0x02, 3, "DAC_ESCR0", "DAC_ESCR1" },
		{ "MEMORY_COMPLETE", 0x08, 4, "SAAT_ESCR0", "SAAT_ESCR1" },
		{ "LOAD_PORT_REPLAY", 0x04, 5, "SAAT_ESCR0", "SAAT_ESCR1" },
		{ "STORE_PORT_REPLAY", 0x05, 6, "SAAT_ESCR0", "SAAT_ESCR1" },
		{ "MOB_LOAD_REPLAY", 0x03, 7, "MOB_ESCR0", "MOB_ESCR1" },
		{ "PAGE_WALK_TYPE", 0x01, 8, "PMH_ESCR0", "PMH_ESCR1" },
		{ "BSQ_CACHE_REFERENCE", 0x0c, 9, "BSU_ESCR0", "BSU_ESCR1" },
		{ "IOQ_ALLOCATION", 0x03, 10, "FSB_ESCR0", "FSB_ESCR1" },
		{ "IOQ_ACTIVE_ENTRIES", 0x1a, 11, "FSB_ESCR1", NULL },
		{ "FSB_DATA_ACTIVITY", 0x17, 12, "FSB_ESCR0", "FSB_ESCR1" },
		{ "BSQ_ALLOCATION", 0x05, 13, "BSU_ESCR0", NULL },
		{ "BSQ_ACTIVE_ENTRIES", 0x06, 14, "BSU_ESCR1", NULL },
		{ "SSE_INPUT_ASSIST", 0x34, 15, "FIRM_ESCR0", "FIRM_ESCR1" },
		{ "PACKED_SP_UOP", 0x08, 16, "FIRM_ESCR0", "FIRM_ESCR1" },
		{ "PACKED_DP_UOP", 0x0c, 17, "FIRM_ESCR0", "FIRM_ESCR1" },
		{ "SCALAR_SP_UOP", 0x0a, 18, "FIRM_ESCR0", "FIRM_ESCR1" },
		{ "SCALAR_DP_UOP", 0x0e, 19, "FIRM_ESCR0", "FIRM_ESCR1" },
		{ "64BIT_MMX_UOP", 0x02, 20, "FIRM_ESCR0", "FIRM_ESCR1" },
		{ "128BIT_MMX_UOP", 0x1a, 21, "FIRM_ESCR0", "FIRM_ESCR1" },
		{ "X87_FP_UOP", 0x04, 22, "FIRM_ESCR0", "FIRM_ESCR1" },
		{ "TC_MISC", 0x06, 23, "TC_ESCR0", "TC_ESCR1" },
		{ "GLOBAL_POWER_EVENTS", 0x13, 24, "FSB_ESCR0", "FSB_ESCR1" },
		{ "TC_MS_XFER", 0x05, 25, "MS_ESCR0", "MS_ESCR1" },
		{ "UOP_QUEUE_WRITES", 0x09, 26, "MS_ESCR0", "MS_ESCR1" },
		{ "RETIRED_MISPRED_BRANCH_TYPE", 0x05, 27, "TBPU_ESCR0", "TBPU_ESCR1" },
		{ "RETIRED_BRANCH_TYPE", 0x04, 28, "TBPU_ESCR0", "TBPU_ESCR1" },
		{ "RESOURCE_STALL", 0x01, 29, "ALF_ESCR0", "ALF_ESCR1" },
		{ "WC_BUFFER", 0x05, 30, "DAC_ESCR0", "DAC_ESCR1" },
		{ "B2B_CYCLES", 0x16, 31, "FSB_ESCR0", "FSB_ESCR1" },
		{ "BNR", 0x08, 32, "FSB_ESCR0", "FSB_ESCR1" },
		{ "SNOOP", 0x06, 33, "FSB_ESCR0", "FSB_ESCR1" },
		{ "RESPONSE", 0x04, 34, "FSB_ESCR0", "FSB_ESCR1" },
		{ "FRONT_END_EVENT", 0x08, 35, "CRU_ESCR2", "CRU_ESCR3" },
		{ "EXECUTION_EVENT", 0x0c, 36, "CRU_ESCR2", "CRU_ESCR3" },
		{ "REPLAY_EVENT", 0x09, 37, "CRU_ESCR2", "CRU_ESCR3" },
		{ "INSTR_RETIRED", 0x02, 38, "CRU_ESCR0", "CRU_ESCR1" },
		{ "UOPS_RETIRED", 0x01, 39, "CRU_ESCR0", "CRU_ESCR1" },
		{ "UOP_TYPE", 0x02, 40, "RAT_ESCR0", "RAT_ESCR1" },
		{ "BRANCH_RETIRED", 0x06, 41, "CRU_ESCR2", "CRU_ESCR3" },
		{ "MISPRED_BRANCH_RETIRED", 0x03, 42, "CRU_ESCR0", "CRU_ESCR1" },
		{ "X87_ASSIST", 0x03, 43, "CRU_ESCR2", "CRU_ESCR3" },
		{ "MACHINE_CLEAR", 0x02, 44, "CRU_ESCR2", "CRU_ESCR3" },
		{ "INSTR_COMPLETED", 0x07, 45, "CRU_ESCR0", "CRU_ESCR1" },
		{ "X87_SIMD_MOVES_UOP", 0x2e, 0xff, "FIRM_ESCR0", "FIRM_ESCR1" },
	};
	(void)s;
	assert_int_equal(sizeof(want) / sizeof(want[0]), p4_nevents);
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		const struct p4_event_desc *d = event(want[k].name);
		assert_int_equal(d->code, want[k].code);
		assert_int_equal(d->linux_id, want[k].id);
		assert_int_equal(d->escr[0], p4_escr_find(want[k].e0));
		assert_int_equal(d->escr[1], want[k].e1 ? p4_escr_find(want[k].e1) : -1);
	}
}

/* Counters an event can use: those its ESCRs feed. */
static uint32_t counters(const struct p4_event_desc *d)
{
	uint32_t m = 0;
	for (int a = 0; a < 2; a++)
		for (int j = 0; d->escr[a] >= 0 && j < 3; j++)
			if (p4_escr[d->escr[a]].ctr[j] >= 0)
				m |= 1u << p4_escr[d->escr[a]].ctr[j];
	return m;
}

static void test_sdm_spot_checks(void **s)
{
	const struct p4_event_desc *d;
	(void)s;
	d = event("BSQ_CACHE_REFERENCE");
	assert_int_equal(d->code, 0x0c);
	assert_int_equal(counters(d), 0xf);
	assert_int_equal(p4_escr[d->escr[0]].sel, 7);
	assert_int_equal(ebit(d, "RD_2ndL_MISS")->bit, 8);
	assert_int_equal(ebit(d, "WR_2ndL_MISS")->bit, 10);
	d = event("INSTR_RETIRED");
	assert_int_equal(d->code, 0x02);
	assert_int_equal(counters(d), 0x3f000);
	assert_int_equal(p4_escr[d->escr[0]].sel, 4);
	d = event("BRANCH_RETIRED");
	assert_int_equal(d->code, 0x06);
	assert_string_equal(p4_escr[d->escr[0]].name, "CRU_ESCR2");
	assert_string_equal(p4_escr[d->escr[1]].name, "CRU_ESCR3");
	assert_int_equal(ebit(d, "MMTM")->bit, 3);
	assert_int_equal(d->defmask, 0x0c); /* oprofile: taken branches */
	d = event("REPLAY_EVENT");
	assert_int_equal(d->code, 0x09);
	assert_int_equal(counters(d), 0x3f000);
	assert_int_equal(d->tag, P4_TAG_REPLAY);
	d = event("GLOBAL_POWER_EVENTS");
	assert_int_equal(d->code, 0x13);
	assert_string_equal(p4_escr[d->escr[0]].name, "FSB_ESCR0");
	assert_string_equal(p4_escr[d->escr[1]].name, "FSB_ESCR1");
	assert_int_equal(ebit(d, "RUNNING")->sig[0], UARCH_EV_CYCLES);
	/* the SDM's MACHINE_CLEAR bits, not Linux's */
	d = event("MACHINE_CLEAR");
	assert_int_equal(ebit(d, "MOCLEAR")->bit, 2);
	assert_int_equal(ebit(d, "SMCLEAR")->bit, 6);
	/* tagging roles */
	assert_int_equal(event("FRONT_END_EVENT")->tag, P4_TAG_FRONT_END);
	assert_int_equal(event("EXECUTION_EVENT")->tag, P4_TAG_EXECUTION);
	assert_int_equal(event("UOP_TYPE")->tag, P4_TAG_FE_TAGGER);
	assert_int_equal(event("X87_FP_UOP")->tag, P4_TAG_EX_TAGGER);
	assert_int_equal(event("X87_SIMD_MOVES_UOP")->tag, P4_TAG_EX_TAGGER);
	assert_int_equal(event("X87_SIMD_MOVES_UOP")->escr[0], p4_escr_find("FIRM_ESCR0"));
	/* Linux's .shared */
	assert_int_equal(event("PAGE_WALK_TYPE")->shared, 1);
	assert_int_equal(event("FSB_DATA_ACTIVITY")->shared, 1);
	assert_int_equal(event("INSTR_RETIRED")->shared, 0);
	/* oprofile defaults, with the unproducible bits left out */
	assert_int_equal(event("IOQ_ALLOCATION")->defmask, 0x6861);
	assert_int_equal(event("MEMORY_COMPLETE")->defmask, 0x03);
	assert_int_equal(event("RETIRED_BRANCH_TYPE")->defmask, 0x1e);
	assert_int_equal(event("FSB_DATA_ACTIVITY")->defmask, 0x07); /* the DRDY bits */
	assert_int_equal(event("BSQ_CACHE_REFERENCE")->defmask, 0x073f);
}

/* ---- the signals behind the bits, on the model ---- */

struct rig {
	struct uarch_machine m;
	struct uarch_counts cnt;
	struct uarch *u;
};

static struct rig *rig_new(void)
{
	struct rig *r = calloc(1, sizeof(*r));
	assert_non_null(r);
	r->m = *uarch_machine_find("p4");
	r->u = uarch_new(&r->m, &r->cnt, 1);
	assert_non_null(r->u);
	return r;
}

static void rig_free(struct rig *r)
{
	uarch_free(r->u);
	free(r);
}

static uint64_t ev(struct rig *r, unsigned e)
{
	uarch_flush(r->u);
	return r->cnt.n[e][0][0];
}

/* What an event counts with event mask mask: the union of the set bits'
 * signals, each once. */
static uint64_t count(struct rig *r, const char *name, uint32_t mask)
{
	const struct p4_event_desc *d = event(name);
	uint8_t seen[UARCH_NEV] = { 0 };
	uint64_t n = 0;
	for (unsigned j = 0; j < d->nbits; j++) {
		if (!(mask & 1u << d->bits[j].bit))
			continue;
		for (int i = 0; i < nsig(&d->bits[j]); i++)
			if (!seen[d->bits[j].sig[i]]++)
				n += ev(r, d->bits[j].sig[i]);
	}
	return n;
}

static void insn(const uint8_t *b, size_t n, uint64_t pc, struct x86_insn *i)
{
	assert_int_equal(x86_decode_one(pc, b, n, i), (int)n);
}

/* One retired instruction with at most one memory access. */
static void retire(struct rig *r, const struct x86_insn *i, uint64_t next, int taken, uint64_t addr,
		   uint32_t size, int store)
{
	struct x86_trace t = { .i = i, .next = next, .taken = (uint8_t)taken };
	if (size) {
		t.nmem = 1;
		t.addr[0] = addr;
		t.size[0] = size;
		t.load = (uint8_t)!store;
		t.store = (uint8_t)store;
	}
	uarch_retire(r->u, 0, &t);
}

static void test_branch_signals(void **s)
{
	static const uint8_t je[] = { 0x74, 0x10 };    /* je +16 */
	static const uint8_t jmpi[] = { 0xff, 0xe0 };  /* jmp *%rax */
	static const uint8_t calli[] = { 0xff, 0xd0 }; /* call *%rax */
	struct rig *r = rig_new();
	struct x86_insn j, ji, ci;
	uint32_t x = 12345;
	(void)s;
	insn(je, sizeof(je), 0x1000, &j);
	insn(jmpi, sizeof(jmpi), 0x2000, &ji);
	insn(calli, sizeof(calli), 0x3000, &ci);
	for (int n = 0; n < 3000; n++) {
		x = x * 1103515245u + 12345u;
		int tk = x >> 30 & 1;
		retire(r, &j, tk ? 0x1012 : 0x1002, tk, 0, 0, 0);
		retire(r, &ji, 0x8000 + 64 * (x >> 28 & 3), 1, 0, 0, 0);
		retire(r, &ci, 0x9000 + 64 * (x >> 26 & 3), 1, 0x7ff000 - 8 * (uint64_t)(n & 63), 8,
		       1);
	}
	uint64_t br = ev(r, UARCH_EV_BRANCHES), misp = ev(r, UARCH_EV_BR_MISP);
	assert_int_equal(br, 9000);
	/* BRANCH_RETIRED's four bits partition the branches */
	assert_int_equal(count(r, "BRANCH_RETIRED", 0xf), br);
	assert_int_equal(count(r, "BRANCH_RETIRED", 0xc), ev(r, UARCH_EV_BR_TAKEN));
	assert_int_equal(count(r, "BRANCH_RETIRED", 0xa), misp);
	assert_true(ev(r, UARCH_EV_BR_NT_MISP) > 0 && ev(r, UARCH_EV_BR_T_MISP) > 0);
	assert_true(ev(r, UARCH_EV_BR_NT_PRED) > 0 && ev(r, UARCH_EV_BR_T_PRED) > 0);
	/* by type: every kind here once, INDIRECT and CALL overlapping */
	assert_int_equal(count(r, "RETIRED_BRANCH_TYPE", 0x1e), br);
	assert_int_equal(count(r, "RETIRED_BRANCH_TYPE", 0x04), 3000);
	assert_int_equal(count(r, "RETIRED_BRANCH_TYPE", 0x10), 6000);
	assert_int_equal(count(r, "RETIRED_MISPRED_BRANCH_TYPE", 0x1e), misp);
	assert_int_equal(count(r, "MISPRED_BRANCH_RETIRED", 0x1), misp);
	assert_true(ev(r, UARCH_EV_BR_CALL_IND_MISP) > 0 && ev(r, UARCH_EV_BR_JMP_IND_MISP) > 0);
	assert_int_equal(ev(r, UARCH_EV_BR_JMP_IND) + ev(r, UARCH_EV_BR_CALL_IND),
			 ev(r, UARCH_EV_BR_IND));
	rig_free(r);
}

static void test_memory_signals(void **s)
{
	static const uint8_t ld[] = { 0x48, 0x8b, 0x08 }; /* mov (%rax), %rcx */
	static const uint8_t st[] = { 0x48, 0x89, 0x08 }; /* mov %rcx, (%rax) */
	struct rig *r = rig_new();
	struct x86_insn l, t;
	uint64_t c0, d0;
	(void)s;
	insn(ld, sizeof(ld), 0x1000, &l);
	insn(st, sizeof(st), 0x1003, &t);

	/* a cold load crossing a line: split, DTLB and L2 misses at retirement */
	retire(r, &l, l.pc + l.len, 0, 0x40003c, 8, 0);
	assert_int_equal(ev(r, UARCH_EV_LD_SPLIT), 1);
	assert_int_equal(count(r, "MEMORY_COMPLETE", 0x1), 1);
	assert_int_equal(count(r, "LOAD_PORT_REPLAY", 0x2), 1);
	assert_int_equal(ev(r, UARCH_EV_LD_DTLB_MISS), 1);
	assert_int_equal(ev(r, UARCH_EV_LD_L2_MISS), 1);
	retire(r, &l, l.pc + l.len, 0, 0x400000, 8, 0); /* same page, inside a line */
	assert_int_equal(ev(r, UARCH_EV_LD_SPLIT), 1);
	assert_int_equal(ev(r, UARCH_EV_LD_DTLB_MISS), 1);
	/* a split store to a new page */
	retire(r, &t, t.pc + t.len, 0, 0x50007e, 8, 1);
	assert_int_equal(count(r, "STORE_PORT_REPLAY", 0x2), 1);
	assert_int_equal(ev(r, UARCH_EV_ST_DTLB_MISS), 1);

	/* L2 read hits, modified or not: the p4's L1 writes through, so a
	 * store leaves its line modified in L2 and absent from L1 */
	retire(r, &t, t.pc + t.len, 0, 0x600000, 8, 1);
	c0 = ev(r, UARCH_EV_L2_RD_HIT_CLEAN);
	d0 = ev(r, UARCH_EV_L2_RD_HIT_DIRTY);
	retire(r, &l, l.pc + l.len, 0, 0x600000, 8, 0);
	assert_int_equal(ev(r, UARCH_EV_L2_RD_HIT_DIRTY) - d0, 1);
	assert_int_equal(ev(r, UARCH_EV_L2_RD_HIT_CLEAN) - c0, 0);
	/* nine lines of one L1 set evict the first, which L2 still holds clean */
	for (int k = 0; k < 9; k++)
		retire(r, &l, l.pc + l.len, 0, 0x700000 + 2048 * (uint64_t)k, 8, 0);
	c0 = ev(r, UARCH_EV_L2_RD_HIT_CLEAN);
	d0 = ev(r, UARCH_EV_L2_RD_HIT_DIRTY);
	retire(r, &l, l.pc + l.len, 0, 0x700000, 8, 0);
	assert_int_equal(count(r, "BSQ_CACHE_REFERENCE", 0x2) - c0, 1);
	assert_int_equal(count(r, "BSQ_CACHE_REFERENCE", 0x4) - d0, 0);

	/* a load partly overlapping a store still in flight, then one the
	 * store covers (forwarded) */
	static const uint8_t st4[] = { 0x89, 0x08 }; /* mov %ecx, (%rax) */
	static const uint8_t ld4[] = { 0x8b, 0x08 }; /* mov (%rax), %ecx */
	struct x86_insn t4, l4;
	insn(st4, sizeof(st4), 0x1006, &t4);
	insn(ld4, sizeof(ld4), 0x100c, &l4);
	retire(r, &t4, t4.pc + t4.len, 0, 0x700100, 4, 1);
	retire(r, &l, l.pc + l.len, 0, 0x700100, 8, 0);
	assert_int_equal(count(r, "MOB_LOAD_REPLAY", 0x10), 1);
	retire(r, &t, t.pc + t.len, 0, 0x700200, 8, 1);
	retire(r, &l, l.pc + l.len, 0, 0x700200, 8, 0);
	assert_int_equal(ev(r, UARCH_EV_LD_ST_OVERLAP), 1);
	assert_int_equal(ev(r, UARCH_EV_LD_FWD_WAIT), 0);
	/* again, the store's data an imul's result: the covered load issues
	 * before it is ready, and waits (NO_STD) */
	static const uint8_t imul[] = { 0x48, 0x0f, 0xaf, 0xc9 }; /* imul %rcx, %rcx */
	struct x86_insn m;
	insn(imul, sizeof(imul), 0x1008, &m);
	retire(r, &l, l.pc + l.len, 0, 0x700300, 8, 0); /* (the line into L1) */
	retire(r, &m, m.pc + m.len, 0, 0, 0, 0);
	retire(r, &t, t.pc + t.len, 0, 0x700300, 8, 1);
	retire(r, &l, l.pc + l.len, 0, 0x700300, 8, 0);
	assert_int_equal(ev(r, UARCH_EV_LD_FWD_WAIT), 1);
	assert_int_equal(count(r, "MOB_LOAD_REPLAY", 0x08), 1);
	assert_int_equal(count(r, "MOB_LOAD_REPLAY", 0x18), 2);
	/* a load of the store's upper half starts elsewhere: not forwarded
	 * (UNALGN_ADDR) */
	assert_int_equal(count(r, "MOB_LOAD_REPLAY", 0x20), 0);
	retire(r, &t, t.pc + t.len, 0, 0x700400, 8, 1);
	retire(r, &l4, l4.pc + l4.len, 0, 0x700404, 4, 0);
	assert_int_equal(ev(r, UARCH_EV_LD_FWD_ALIGN), 1);
	assert_int_equal(count(r, "MOB_LOAD_REPLAY", 0x20), 1);
	assert_int_equal(count(r, "MOB_LOAD_REPLAY", 0x38), 3);
	rig_free(r);
}

static void test_itlb_signals(void **s)
{
	static const uint8_t nop[] = { 0x90 };
	struct rig *r = rig_new();
	struct x86_insn i[3];
	(void)s;
	/* three fetch lines: two in one page, one in another */
	insn(nop, 1, 0x10000, &i[0]);
	insn(nop, 1, 0x10040, &i[1]);
	insn(nop, 1, 0x20000, &i[2]);
	for (int n = 0; n < 10; n++)
		for (int k = 0; k < 3; k++)
			retire(r, &i[k], i[(k + 1) % 3].pc, 1, 0, 0, 0);
	/* misses: one per page; every other line fetch hits */
	assert_int_equal(count(r, "ITLB_REFERENCE", 0x2), 2);
	assert_int_equal(count(r, "ITLB_REFERENCE", 0x3), ev(r, UARCH_EV_L1I_ACCESS));
	assert_int_equal(count(r, "PAGE_WALK_TYPE", 0x2), 2);
	rig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escrs),	       cmocka_unit_test(test_counters),
		cmocka_unit_test(test_escr_for),       cmocka_unit_test(test_event_consistency),
		cmocka_unit_test(test_event_escrs),    cmocka_unit_test(test_sdm_spot_checks),
		cmocka_unit_test(test_branch_signals), cmocka_unit_test(test_memory_signals),
		cmocka_unit_test(test_itlb_signals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
