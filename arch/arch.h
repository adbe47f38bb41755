/* arch.h — one interface for the four PMU backends (arch/p4, arch/ia64,
 * arch/xscale, arch/alpha).
 *
 * A backend is a table (struct arch_backend): its native events and their
 * unit masks, the generic perf names it maps, the machine emu/uarch times
 * it as, and the functions that turn an event as the user asked for it
 * into the raw register image, place events on counters, and run the
 * counter hardware on the timing model's signals (emu/uarch/model.h).
 *
 * Flow: core/evspec parses `-e` into struct arch_evsel (event + unit mask
 * + modifiers, or a raw register image), the backend encodes or decodes
 * it, assigns counters, and in the guest process pmu_new() programs the
 * registers and listens to the model; pmu_read() gives the counts and the
 * sample callback receives samples as overflows produce them.
 */
#ifndef VPMU_ARCH_H
#define VPMU_ARCH_H

#include <stddef.h>
#include <stdint.h>

#include "../emu/uarch/model.h"

/* A unit mask (event mask) bit or field of an event. */
struct arch_umask {
	const char *name; /* upper case, as the manual spells it */
	uint32_t bits;
	const char *desc;
	const char *unsupported; /* NULL, or why the model cannot produce it */
};

/* A native event. */
struct arch_event {
	const char *name; /* upper case, as the manual spells it */
	const char *desc;
	const struct arch_umask *umask;
	unsigned numask;
	uint32_t defmask;	 /* unit mask when the user gives none */
	const char *counters;	 /* where it can be counted, for vpmu list */
	const char *unsupported; /* NULL, or why the model cannot produce it at all */
	const char *precise;	 /* NULL, or the precise mechanism :p/:pp selects */
};

/* A generic (perf) name and the native spec it stands for. */
struct arch_generic {
	const char *name; /* cycles, instructions, L1-dcache-load-misses, ... */
	const char *spec; /* native spec: EVENT[:UMASK...] or r<hex> */
};

#define ARCH_MAX_EVSEL 64
#define ARCH_ENOTSUP (-2) /* encode/decode: a valid event the model cannot produce */

/* One event as asked for, resolved. */
struct arch_evsel {
	char name[128];	     /* as the user wrote it (output shows this) */
	int event;	     /* index into the backend's events */
	uint32_t umask;	     /* unit mask */
	uint64_t config;     /* the raw register image `-e r<hex>` takes */
	uint8_t excl_user;   /* :k */
	uint8_t excl_kernel; /* :u */
	uint8_t precise;     /* 0, 1 (:p), 2 (:pp) */
	uint8_t raw;	     /* given as r<hex> */
	uint8_t thread;	     /* logical processors counted: bit 0 T0, bit 1 T1 (0: both) */
	int group;	     /* index of its group leader (itself when alone) */
	uint64_t period;     /* sampling period; 0: count only */
	/* ARCH_BR_*: record the branch stack with each sample (0: none) */
	uint32_t branch_sample;
	/* perf's period= and freq= terms (cpu/EVENT,period=N/): the event's
	 * own sampling rate, which record takes over -c and -F (0: none) */
	uint64_t term_period;
	uint32_t term_freq;
};

/* Branch stack filters (perf's -j); 0: no branch stack. */
#define ARCH_BR_ANY 1u	   /* any taken branch */
#define ARCH_BR_ANY_RET 2u /* returns */
#define ARCH_BR_USER 4u	   /* only at user level (:u, -j u) */
#define ARCH_BR_KERNEL 8u  /* only at kernel level */

/* One branch of a sample's branch stack. */
struct arch_branch {
	uint64_t from, to; /* to 0: a branch recorded not taken */
	uint8_t mispred;
};
#define ARCH_MAX_BRANCHES 16

/* A sample, as the counter hardware produces it. */
struct arch_sample {
	uint64_t ip;	/* the instruction the sample names */
	uint64_t cycle; /* emulated cycle the sample was taken */
	uint64_t period;
	uint64_t addr;	   /* data address when the mechanism gives one (0: none) */
	uint32_t evsel;	   /* index of the event that overflowed */
	uint8_t th;	   /* logical processor */
	uint8_t kernel;	   /* taken in the kernel */
	uint8_t precise;   /* ip is the instruction that caused the event */
	uint8_t nregs;	   /* regs[] valid (PEBS record) */
	uint64_t regs[18]; /* PEBS: rflags, rip, rax, rbx, rcx, rdx, rsi, rdi, rbp, rsp, r8..r15 */
	/* A machine-defined record of the sampled instruction (21264
	 * ProfileMe, arch/alpha/profileme.h): nraw bytes, NULL/0 for none;
	 * valid during the sample callback only. */
	const uint8_t *raw;
	uint16_t nraw;
	uint32_t latency; /* cycles, when the mechanism measures one (Itanium 2 data EAR; 0: none) */
	/* Where the sampled instruction's loads found their data, when the
	 * mechanism latched it with the instruction (data EAR; 0: not) —
	 * the model's word (uarch_delivery.dsrc), not a register's. */
	uint8_t dsrc;
	/* The instruction whose event count raised the sample (the one
	 * the hardware's interrupt or assist answers), and how many
	 * instructions retired after it up to the sampled one (0: ip is
	 * that instruction); valid when has_trigger. */
	uint64_t trigger_ip;
	uint32_t skid;
	uint8_t has_trigger;
	/* The branch stack, newest first (Itanium 2 branch trace buffer),
	 * when the event asked for one; valid during the callback only. */
	const struct arch_branch *br;
	uint8_t nbr;
};

struct arch_pmu; /* a backend's counter hardware, programmed */

struct arch_pmu_cb {
	void (*sample)(void *arg, const struct arch_sample *s);
	void *arg;
	uint64_t seed; /* the run's seed, for hardware that randomises (ProfileMe) */
};

struct arch_backend {
	const char *name; /* -a NAME */
	const char *desc;
	const char *machine; /* emu/uarch machine (params.h) */
	const struct arch_event *events;
	unsigned nevents;
	const struct arch_generic *generic;
	unsigned ngeneric;
	/* mem-loads with perf's load-latency threshold (the term ldlat=N): a
	 * native spec with %u for N; NULL: the machine has no threshold */
	const char *mem_ldlat;
	unsigned ncounters;
	/* Fill events/nevents from the backend's own tables; arch_find() and
	 * arch_all() call it before handing the backend out (NULL: the
	 * tables are static). */
	void (*init)(struct arch_backend *b);

	/* e->event, e->umask and the modifiers → e->config; or a raw
	 * e->config (e->raw) → e->event and e->umask.  0, or -1 with a
	 * one-line reason (ARCH_ENOTSUP when the spec is right but the
	 * model cannot produce the event: stat shows it <not supported>). */
	int (*encode)(struct arch_evsel *e, char *err, size_t errsz);
	int (*decode)(struct arch_evsel *e, char *err, size_t errsz);
	/* Place n events counted at once on counters (ctr[i]); 0, or -1
	 * naming the events that conflict and why. */
	int (*assign)(const struct arch_evsel *e, unsigned n, int *ctr, char *err, size_t errsz);

	/* The hardware, programmed with n events on counters ctr[]; NULL
	 * when out of memory. */
	struct arch_pmu *(*pmu_new)(const struct arch_evsel *e, unsigned n, const int *ctr,
				    const struct arch_pmu_cb *cb);
	/* What the model must deliver to it (fills s->deliver, ctx, want). */
	void (*pmu_sink)(struct arch_pmu *p, struct uarch_sink *s);
	/* Counts so far, one per event, overflows included (64 bits). */
	void (*pmu_read)(struct arch_pmu *p, uint64_t *val);
	/* Sample event i every period events from its next overflow on
	 * (frequency mode adapts it as the run goes). */
	void (*pmu_period)(struct arch_pmu *p, unsigned i, uint64_t period);
	void (*pmu_free)(struct arch_pmu *p);
	/* Whether samples of e carry a ProfileMe record in arch_sample.raw
	 * (NULL: never). */
	int (*profileme)(const struct arch_evsel *e);
	/* Whether its counters take a cycle's events at once and leave an
	 * interrupt pending for each overflow among them (the 21264's
	 * aggregate mode): a period of 1 would sample one instruction for
	 * each event of a burst, before any handler could lengthen it. */
	int burst_overflows;
	/* Whether e's samples carry a data address and a latency without :p
	 * (the Itanium 2 data EAR); NULL: none does. */
	int (*sample_addr)(const struct arch_evsel *e);
	/* Whether e's samples name their triggering instruction
	 * (arch_sample.trigger_ip, skid); NULL: none does. */
	int (*sample_trigger)(const struct arch_evsel *e);
	/* Whether e counts both logical processors' events whatever
	 * processor its qualification names (the P4's thread-independent
	 * events); NULL: none does. */
	int (*shared)(const struct arch_evsel *e);
	/* Why e cannot be counted when two programs share the core, each
	 * process counting with its own copy of the hardware, which sees
	 * only its own processor's signals; NULL (or no function): it can. */
	const char *(*unpaired)(const struct arch_evsel *e);
	/* Whether e's samples carry the registers as they were before the
	 * instruction (x86_trace.pre, which the emulator then keeps for
	 * every instruction: the P4's PEBS record); NULL: none does. */
	int (*sample_pre)(const struct arch_evsel *e);
	/* The ARCH_BR_* filters the machine's branch stack takes (0: it has
	 * none), and a check of e's (0, or -1 with a one-line reason). */
	uint32_t branch_types;
	int (*branch_check)(const struct arch_evsel *e, char *err, size_t errsz);
};

/* The backend called name, or NULL. */
const struct arch_backend *arch_find(const char *name);
/* Every backend, NULL-terminated. */
const struct arch_backend *const *arch_all(void);
/* Index of the native event called name (case-insensitive), or -1. */
int arch_event_find(const struct arch_backend *b, const char *name);

/* The count a sampling counter's interrupt handler reloads, as Linux's
 * handlers do (x86_perf_event_set_period, armpmu_event_set_period): what
 * counted since the overflow (since) stays counted, unless a long span (a
 * system call's cycles) ran a whole period past it, when the excess is
 * dropped; otherwise the counter would start above zero and not overflow
 * again before it wrapped.  Returns the events left to the next overflow. */
static inline uint64_t arch_reload_left(uint64_t since, uint64_t period)
{
	if (since >= 2 * period)
		return period;
	if (since >= period)
		return 2 * period - since;
	return period - since;
}

extern struct arch_backend arch_p4;
extern struct arch_backend arch_alpha;
extern struct arch_backend arch_ia64;
extern struct arch_backend arch_xscale;
extern struct arch_backend arch_xscale2;

#endif
