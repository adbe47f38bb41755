/* pmu_sample.h — the guest-side half of `vpmu record`: turn the counter
 * hardware's samples into messages on the session's sample channel
 * (core/recwire.h), with what the process knows and the hardware does
 * not: thread id, data address reconstructed from a precise record, call
 * chain, and the period frequency mode asks for. */
#ifndef VPMU_PMU_SAMPLE_H
#define VPMU_PMU_SAMPLE_H

#include "pmu.h"

struct pmu_sampler;
struct pmu_mux;

/* NULL when out of memory.  env and s outlive the sampler. */
struct pmu_sampler *pmu_sampler_new(const struct pmu_set *s, struct lx_pmu_env *env);
/* The hardware whose periods frequency mode and jitter adjust. */
void pmu_sampler_bind(struct pmu_sampler *ps, struct pmu_mux *mux);
/* struct arch_pmu_cb's sample function; arg is the sampler. */
void pmu_sampler_sample(void *arg, const struct arch_sample *s);
/* Say how many samples could not be sent (the process is about to end,
 * fork or exec). */
void pmu_sampler_flush(struct pmu_sampler *ps);
void pmu_sampler_free(struct pmu_sampler *ps);

#endif
