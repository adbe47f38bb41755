/* regs.c — the XScale performance-monitoring registers as software sees
 * them (xscale.h): PMNC with its enable, resets and clock divider, the
 * 32-bit counters that wrap and flag their overflow, and on XSC1 the
 * enables, flags and event selects PMNC holds, on XSC2 the separate
 * INTEN, FLAG and EVTSEL registers [xdm] §8.2, §8.3. */
#include <string.h>

#include "xscale.h"

void xs_reset(struct xs_regs *r, enum xs_variant v)
{
	memset(r, 0, sizeof(*r));
	r->variant = (uint8_t)v;
}

static void reset_counters(struct xs_regs *r, uint32_t v)
{
	if (v & XS_PMNC_P)
		memset(r->pmn, 0, sizeof(r->pmn));
	if (v & XS_PMNC_C) {
		r->ccnt = 0;
		r->prescale = 0;
	}
}

void xs_write_pmnc(struct xs_regs *r, uint32_t v)
{
	reset_counters(r, v);
	if (r->variant == XS_XSC1) {
		/* flags: write 1 clears, 0 leaves [xdm] §8.2.4 */
		uint32_t flags = (r->pmnc & XS1_PMNC_FLAGS) & ~(v & XS1_PMNC_FLAGS);
		r->pmnc = (v & XS1_PMNC_RW & ~XS1_PMNC_FLAGS) | flags;
	} else {
		r->pmnc = v & XS2_PMNC_RW;
	}
}

uint32_t xs_read_pmnc(const struct xs_regs *r)
{
	return r->pmnc; /* P and C read as 0 here (the manual: unpredictable) */
}

void xs_write_inten(struct xs_regs *r, uint32_t v)
{
	if (r->variant == XS_XSC2)
		r->inten = v & XS2_BITS;
}

void xs_write_flag(struct xs_regs *r, uint32_t v)
{
	if (r->variant == XS_XSC2)
		r->flag &= ~(v & XS2_BITS);
}

void xs_write_evtsel(struct xs_regs *r, uint32_t v)
{
	if (r->variant == XS_XSC2)
		r->evtsel = v;
}

static int npmn(const struct xs_regs *r)
{
	return XS_NPMN(r->variant);
}

uint32_t xs_read_ctr(const struct xs_regs *r, int ctr)
{
	if (ctr == XS_CCNT)
		return r->ccnt;
	return ctr >= 1 && ctr <= npmn(r) ? r->pmn[ctr - 1] : 0;
}

void xs_write_ctr(struct xs_regs *r, int ctr, uint32_t v)
{
	if (ctr == XS_CCNT)
		r->ccnt = v;
	else if (ctr >= 1 && ctr <= npmn(r))
		r->pmn[ctr - 1] = v;
}

unsigned xs_evtcount(const struct xs_regs *r, int k)
{
	if (k < 0 || k >= npmn(r))
		return 0xff;
	if (r->variant == XS_XSC1)
		return r->pmnc >> (k ? XS1_PMNC_EVT1_SHIFT : XS1_PMNC_EVT0_SHIFT) &
		       XS1_PMNC_EVT_MASK;
	return r->evtsel >> (8 * k) & 0xffu;
}

void xs_set_evtcount(struct xs_regs *r, int k, unsigned code)
{
	if (k < 0 || k >= npmn(r))
		return;
	if (r->variant == XS_XSC1) {
		unsigned sh = k ? XS1_PMNC_EVT1_SHIFT : XS1_PMNC_EVT0_SHIFT;
		/* written back with the flags as 0: they stay as they are */
		xs_write_pmnc(r, (r->pmnc & ~XS1_PMNC_FLAGS & ~(XS1_PMNC_EVT_MASK << sh)) |
					 (code & XS1_PMNC_EVT_MASK) << sh);
	} else {
		xs_write_evtsel(r, (r->evtsel & ~(0xffu << (8 * k))) | (code & 0xffu) << (8 * k));
	}
}

/* Counter ctr's bit in the XSC1 PMNC (enable when flag is 0, flag when 1)
 * or in XSC2's INTEN and FLAG. */
static uint32_t bit_of(const struct xs_regs *r, int ctr, int flag)
{
	if (r->variant == XS_XSC2)
		return ctr == XS_CCNT ? XS2_BIT_CCNT : XS2_BIT_PMN(ctr - 1);
	if (ctr == XS_CCNT)
		return flag ? XS1_PMNC_FLAG_CCNT : XS1_PMNC_INTEN_CCNT;
	return (flag ? XS1_PMNC_FLAG_PMN0 : XS1_PMNC_INTEN_PMN0) << (ctr - 1);
}

void xs_set_inten(struct xs_regs *r, int ctr, int on)
{
	uint32_t b = bit_of(r, ctr, 0);

	if (r->variant == XS_XSC2)
		xs_write_inten(r, on ? r->inten | b : r->inten & ~b);
	else
		xs_write_pmnc(r, (on ? r->pmnc | b : r->pmnc & ~b) & ~XS1_PMNC_FLAGS);
}

int xs_flag(const struct xs_regs *r, int ctr)
{
	uint32_t b = bit_of(r, ctr, 1);

	return r->variant == XS_XSC2 ? (r->flag & b) != 0 : (r->pmnc & b) != 0;
}

void xs_clear_flag(struct xs_regs *r, int ctr)
{
	uint32_t b = bit_of(r, ctr, 1);

	if (r->variant == XS_XSC2)
		xs_write_flag(r, b);
	else
		xs_write_pmnc(r, (r->pmnc & ~XS1_PMNC_FLAGS) | b);
}

static void set_flag(struct xs_regs *r, int ctr)
{
	if (r->variant == XS_XSC2)
		r->flag |= bit_of(r, ctr, 1);
	else
		r->pmnc |= bit_of(r, ctr, 1);
}

uint64_t xs_count(struct xs_regs *r, int ctr, uint64_t n)
{
	uint32_t *reg;
	uint64_t sum;

	if (!(r->pmnc & XS_PMNC_E) || !n)
		return 0;
	if (ctr == XS_CCNT) {
		reg = &r->ccnt;
		if (r->pmnc & XS_PMNC_D) {
			/* a 6-bit prescaler ahead of CCNT */
			uint64_t c = r->prescale + n;
			r->prescale = (uint8_t)(c % XS_CCNT_DIV);
			n = c / XS_CCNT_DIV;
			if (!n)
				return 0;
		}
	} else if (ctr >= 1 && ctr <= npmn(r)) {
		reg = &r->pmn[ctr - 1];
	} else {
		return 0;
	}
	sum = (uint64_t)*reg + n;
	*reg = (uint32_t)sum;
	if (sum >> 32) /* passed 0xFFFFFFFF: wrapped */
		set_flag(r, ctr);
	return n;
}

int xs_irq(const struct xs_regs *r)
{
	if (r->variant == XS_XSC2)
		return (r->flag & r->inten) != 0;
	/* XSC1: flag bits 10:8 against enables 6:4 */
	return ((r->pmnc & XS1_PMNC_FLAGS) >> 4 & r->pmnc & 0x70u) != 0;
}
