/* xscale.h — the Intel XScale counter hardware, internal to arch/xscale.
 * Register layouts from the Intel XScale Core Developer's Manual (January
 * 2004), chapter 8 "Performance Monitoring", cited [xdm] with section:
 * §8.2 the two-counter variant (XSC1: PMNC, CCNT, PMN0, PMN1; PMNC holds
 * the interrupt enables, overflow flags and event selects), §8.3 the
 * four-counter variant (XSC2: PMNC, CCNT, PMN0-PMN3, INTEN, FLAG,
 * EVTSEL), §8.4 the events (Table 8-12) and the monitoring modes.
 *
 *   regs.c     the registers as software reads and writes them: enable,
 *              resets, divider, 32-bit counters, wrap, overflow flags and
 *              the interrupt they request
 *   events.c   the events: evtCount codes and the model signals each
 *              counts
 *   pmu.c      the backend (arch.h): encode/decode/assign, two tables
 *              (xscale, xscale2)
 *   run.c      the hardware at run time: signals into the counters,
 *              overflow interrupts and samples
 */
#ifndef VPMU_ARCH_XSCALE_H
#define VPMU_ARCH_XSCALE_H

#include <stdint.h>

#include "../../emu/uarch/events.h"

enum xs_variant { XS_XSC1, XS_XSC2 };

/* Counter numbering, as `vpmu list` and the oprofile tables give it:
 * 0 CCNT, 1 + k PMNk. */
#define XS_CCNT 0
#define XS_NPMN_MAX 4
#define XS_NCTR_MAX (1 + XS_NPMN_MAX)
#define XS_NPMN(v) ((v) == XS_XSC1 ? 2 : 4)

/* PMNC, both variants [xdm] §8.2.4, §8.3 */
#define XS_PMNC_E (1u << 0) /* enable all counters */
#define XS_PMNC_P (1u << 1) /* write 1: reset PMN0..PMNn to 0 (reads unpredictable) */
#define XS_PMNC_C (1u << 2) /* write 1: reset CCNT to 0 (reads unpredictable) */
#define XS_PMNC_D (1u << 3) /* CCNT counts every 64th core cycle */
#define XS_CCNT_DIV 64

/* XSC1 PMNC only [xdm] §8.2.4: interrupt enables 6:4, overflow flags
 * 10:8 (write 1 to clear), evtCount0 19:12, evtCount1 27:20 */
#define XS1_PMNC_INTEN_PMN0 (1u << 4)
#define XS1_PMNC_INTEN_PMN1 (1u << 5)
#define XS1_PMNC_INTEN_CCNT (1u << 6)
#define XS1_PMNC_FLAG_PMN0 (1u << 8)
#define XS1_PMNC_FLAG_PMN1 (1u << 9)
#define XS1_PMNC_FLAG_CCNT (1u << 10)
#define XS1_PMNC_FLAGS (XS1_PMNC_FLAG_PMN0 | XS1_PMNC_FLAG_PMN1 | XS1_PMNC_FLAG_CCNT)
#define XS1_PMNC_EVT0_SHIFT 12
#define XS1_PMNC_EVT1_SHIFT 20
#define XS1_PMNC_EVT_MASK 0xffu
/* bits that read back as written (E, D, enables, flags, event selects) */
#define XS1_PMNC_RW (XS_PMNC_E | XS_PMNC_D | 0x70u | XS1_PMNC_FLAGS | 0x0ffff000u)

/* XSC2 INTEN and FLAG [xdm] §8.3: bit 0 CCNT, bit 1 + k PMNk; FLAG bits
 * are cleared by writing 1.  EVTSEL: evtCountk in bits 8k+7:8k. */
#define XS2_BIT_CCNT (1u << 0)
#define XS2_BIT_PMN(k) (1u << (1 + (k)))
#define XS2_BITS 0x1fu
#define XS2_PMNC_RW (XS_PMNC_E | XS_PMNC_D)

/* The registers as software writes and reads them. */
struct xs_regs {
	uint8_t variant; /* enum xs_variant */
	uint32_t pmnc;
	uint32_t ccnt;
	uint32_t pmn[XS_NPMN_MAX];
	uint32_t inten, flag, evtsel; /* XSC2 only */
	uint8_t prescale;	      /* cycles towards CCNT's next count with D set (0..63) */
};

/* Power-on state of variant v: everything disabled and zero. */
void xs_reset(struct xs_regs *r, enum xs_variant v);
/* MCR to PMNC: E, D, enables, event selects as written; P and C reset
 * counters; XSC1 overflow flags written 1 are cleared. */
void xs_write_pmnc(struct xs_regs *r, uint32_t v);
uint32_t xs_read_pmnc(const struct xs_regs *r);
/* XSC2's INTEN, FLAG (write 1 clears) and EVTSEL. */
void xs_write_inten(struct xs_regs *r, uint32_t v);
void xs_write_flag(struct xs_regs *r, uint32_t v);
void xs_write_evtsel(struct xs_regs *r, uint32_t v);
/* Counter ctr (XS_CCNT, or 1 + k for PMNk) as MRC reads and MCR writes it. */
uint32_t xs_read_ctr(const struct xs_regs *r, int ctr);
void xs_write_ctr(struct xs_regs *r, int ctr, uint32_t v);

/* The event PMNk counts (its evtCount field). */
unsigned xs_evtcount(const struct xs_regs *r, int k);
/* Program PMNk's event select. */
void xs_set_evtcount(struct xs_regs *r, int k, unsigned code);
/* Enable or disable counter ctr's overflow interrupt. */
void xs_set_inten(struct xs_regs *r, int ctr, int on);
/* Counter ctr's overflow flag. */
int xs_flag(const struct xs_regs *r, int ctr);
/* Write 1 to counter ctr's overflow flag (what an interrupt handler does). */
void xs_clear_flag(struct xs_regs *r, int ctr);

/* n events for counter ctr (PMNk: n events; CCNT: n core cycles, divided
 * by 64 when D is set).  Nothing counts unless E is set.  A counter that
 * passes 0xFFFFFFFF wraps to zero and sets its overflow flag; it goes on
 * counting [xdm] §8.2.4.1.  Returns the increments the register took
 * (for CCNT with D: the 64-cycle steps), or 0 when disabled. */
uint64_t xs_count(struct xs_regs *r, int ctr, uint64_t n);
/* The interrupt request: some overflow flag set whose enable is set. */
int xs_irq(const struct xs_regs *r);

/* ---- events (events.c) ---- */

enum xs_kind {
	XS_K_COUNT,  /* sum of the signals' counts (weights apply) */
	XS_K_CYCLES, /* once in every cycle some signal covers ("every cycle in
		      * which the condition is present") */
	XS_K_EDGE,   /* once per contiguous run of such cycles */
	XS_K_CLOCK,  /* CCNT: core cycles */
};

#define XS_NSIG 6
struct xs_event_desc {
	const char *name; /* oprofile's name */
	uint8_t code;	  /* evtCount value; 0xFE: CCNT (not a hardware code, as Linux) */
	uint8_t kind;	  /* enum xs_kind */
	uint16_t sig[XS_NSIG];
	int8_t weight[XS_NSIG]; /* per signal (0 ends the list) */
	const char *desc;
	const char *unsupported; /* NULL, or why the model cannot produce it */
};

#define XS_CODE_CCNT 0xfe

extern const struct xs_event_desc xs_events[];
extern const unsigned xs_nevents;

#endif
