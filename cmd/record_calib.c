/* record_calib.c — `vpmu record --calibrate=N` (seed 001: measure the
 * event count of a run first, then choose the sample-after value that
 * gives the wanted number of samples).  The machine is deterministic, so
 * a counting run gives the exact count; the period count / N is then
 * checked by sampling runs, which refine it until the samples are within
 * 1% of N (a backend's sampling mechanism may add to each period: P4
 * PEBS records are period + 1 events apart).  The guest runs muted. */
#include <stdio.h>
#include <string.h>

#include "core/recwire.h"
#include "record.h"

#define CALIB_TRIES 4 /* sampling runs at most */

struct calib_count {
	uint64_t samples[ARCH_MAX_EVSEL];
};

static void count_msg(void *arg, const void *msg, size_t len)
{
	struct calib_count *cc = arg;
	const struct recw_sample *s = msg;

	if (len >= sizeof(*s) && s->h.type == RECW_SAMPLE && s->evsel < ARCH_MAX_EVSEL)
		cc->samples[s->evsel]++;
}

static int run_muted(const struct session_opts *o, const struct pmu_set *set,
		     struct calib_count *cc, struct session_result *r)
{
	struct session_opts q = *o;
	int rc;

	q.pmu = set;
	q.mute = 1;
	q.on_msg = cc ? count_msg : NULL;
	q.rec_arg = cc;
	q.timeout = 0;
	q.max_insns = 0;
	rc = session_run(&q, r, stderr);
	if (!rc && (r->sig || r->unsupported))
		fprintf(stderr,
			"vpmu record: --calibrate: the program %s; calibrating on what ran\n",
			r->sig ? "died of a signal" : "stopped at an unsupported instruction");
	return rc;
}

static int within(uint64_t got, uint64_t want)
{
	uint64_t d = got > want ? got - want : want - got;

	return d * 100 <= want;
}

int record_calibrate(const struct session_opts *o, struct pmu_set *set, uint64_t want, int quiet)
{
	static struct session_result r;
	struct pmu_set counting = *set;
	uint64_t count[ARCH_MAX_EVSEL];
	int rc, done = 0;

	for (unsigned i = 0; i < counting.n; i++) {
		counting.ev[i].period = 0;
		counting.freq[i] = 0;
	}
	rc = run_muted(o, &counting, NULL, &r);
	if (rc)
		return rc;
	for (unsigned i = 0; i < set->n; i++) {
		count[i] = r.pmu[i];
		set->freq[i] = 0;
		set->ev[i].period = count[i] / want ? count[i] / want : 1;
		if (count[i] < want)
			fprintf(stderr,
				"vpmu record: --calibrate: %s counted %llu, fewer than %llu "
				"samples; sampling every event\n",
				set->ev[i].name, (unsigned long long)count[i],
				(unsigned long long)want);
	}
	for (int t = 0; t < CALIB_TRIES && !done; t++) {
		static struct calib_count cc;

		memset(&cc, 0, sizeof(cc));
		rc = run_muted(o, set, &cc, &r);
		if (rc)
			return rc;
		done = 1;
		for (unsigned i = 0; i < set->n; i++) {
			uint64_t got = cc.samples[i], p = set->ev[i].period;

			if (within(got, want) || count[i] < want || !got)
				continue;
			done = 0;
			/* the samples scale as 1 / period */
			p = (uint64_t)((double)p * (double)got / (double)want + 0.5);
			set->ev[i].period = p ? p : 1;
		}
	}
	if (!quiet)
		for (unsigned i = 0; i < set->n; i++)
			fprintf(stderr, "vpmu record: --calibrate: %s counted %llu; period %llu\n",
				set->ev[i].name, (unsigned long long)count[i],
				(unsigned long long)set->ev[i].period);
	return 0;
}
