/* pmu.h — a session's counter hardware: the events the user asked for,
 * placed on counters, carried to every guest process through the shared
 * area (they survive fork and exec there) and attached to each process's
 * timing model by the backend (arch/arch.h). */
#ifndef VPMU_CORE_PMU_H
#define VPMU_CORE_PMU_H

#include <stddef.h>
#include <stdint.h>

#include "../arch/arch.h"
#include "../emu/linux/linux.h"

/* Events of one run, on counters. */
struct pmu_set {
	const struct arch_backend *b;
	unsigned n;
	struct arch_evsel ev[ARCH_MAX_EVSEL];
	int ctr[ARCH_MAX_EVSEL];
	/* Sampling (events with a period, when the session has a sample
	 * channel): */
	uint32_t freq[ARCH_MAX_EVSEL];	   /* 0, or samples per emulated second ev[i].period
					* starts from and adapts toward */
	uint8_t callgraph;		   /* PMU_CG_* */
	uint32_t mhz;			   /* the machine's clock, for freq */
	uint8_t jitter;			   /* bits of the period randomised per sample (0: none) */
	uint64_t seed;			   /* of that randomisation (with the pid) */
	int mux[ARCH_MAX_EVSEL];	   /* multiplexing group of each event (pmu_mux.h) */
	uint64_t mux_also[ARCH_MAX_EVSEL]; /* other groups it also counts in (bit g) */
	uint64_t mux_cycles;		   /* emulated cycles between rotations of the groups */
	uint64_t ival_cycles;		   /* 0, or emulated cycles per interval of the counts
					* sent to the session (pmu_ival.h, vpmu stat -I) */
};

enum { PMU_CG_NONE, PMU_CG_FP, PMU_CG_DWARF };

/* Serialise s into buf (lx_shared.pmu_cfg); bytes used, or 0 if it does
 * not fit. */
size_t pmu_pack(const struct pmu_set *s, void *buf, size_t max);
/* The reverse; 0, or -1 with a reason. */
int pmu_unpack(struct pmu_set *s, const void *buf, size_t len, char *err, size_t errsz);
/* Whether s can be counted when two programs share the core (arch.h
 * unpaired): 0, or -1 with a one-line reason. */
int pmu_check_pair(const struct pmu_set *s, char *err, size_t errsz);

/* What emu/linux calls to attach the hardware in a guest process. */
extern const struct lx_pmu_ops pmu_lx_ops;

#endif
