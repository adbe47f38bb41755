/* hist.h — histograms of samples by sort keys (`vpmu report --sort`).
 *
 * Aggregation runs in two steps so a million samples cost one hash probe
 * each: samples are first grouped by the raw values the keys read
 * (resolved-location pointers, ids), then those few groups are sorted by
 * the keys' comparisons and merged into entries.  Entries end sorted by
 * period, largest first. */
#ifndef VPMU_HIST_H
#define VPMU_HIST_H

#include <stddef.h>
#include <stdint.h>

#include "core/report.h"

#define HIST_MAXKEYS 16

struct hist_key {
	const char *name;   /* as --sort takes it */
	const char *header; /* column header */
	unsigned raw;	    /* HIST_RAW_* the key reads */
	int sym_column;	    /* printed after perf's "[.] " marker */
	int (*cmp)(const struct report_sample *a, const struct report_sample *b);
	/* The key's text for s into buf (which may be ignored); returns it. */
	const char *(*str)(const struct report *r, const struct report_sample *s, char *buf,
			   size_t n);
};

#define HIST_RAW_EV 1u
#define HIST_RAW_LOC 2u
#define HIST_RAW_DLOC 4u
#define HIST_RAW_COMM 8u
#define HIST_RAW_PID 16u
#define HIST_RAW_TID 32u
#define HIST_RAW_CPU 64u
#define HIST_RAW_SKID 128u
#define HIST_RAW_BRANCH 256u /* the branch a sample stands for (report --branch-stack) */
#define HIST_RAW_WEIGHT 512u
#define HIST_RAW_PM 1024u     /* report_sample.pm_state */
#define HIST_RAW_DLEVEL 2048u /* report_sample.dsrc: the level */
#define HIST_RAW_DCLASS 4096u /* report_sample.dsrc: the miss class */

/* Every key, NULL-terminated. */
extern const struct hist_key *const hist_keys[];

const struct hist_key *hist_key_find(const char *name);
/* Same function: same name in the same image; no symbol: same address. */
int hist_loc_sym_cmp(const struct report_loc *a, const struct report_loc *b);
/* The keys of hist_keys_br.c: a branch stack's ends (s->branch), and the
 * per-sample latency (perf's local_weight). */
extern const struct hist_key hist_key_local_weight, hist_key_dso_from, hist_key_dso_to,
	hist_key_symbol_from, hist_key_symbol_to, hist_key_mispredict;
/* The keys of hist_keys_lat.c: latency in power-of-two buckets, and
 * whether a ProfileMe-sampled instruction retired or was aborted. */
extern const struct hist_key hist_key_latency, hist_key_abort;
/* The keys of hist_keys_mem.c: where a sampled instruction's loads found
 * their data (perf's mem), and the class of its L1 data cache miss. */
extern const struct hist_key hist_key_mem, hist_key_missclass;
/* Their texts for a sample's dsrc (report_sample.dsrc). */
const char *hist_dsrc_level(uint8_t dsrc, char *buf, size_t n);
const char *hist_dsrc_class(uint8_t dsrc);
/* Buckets of v: 0 to 7 each on its own, then powers of two (8-15, 16-31,
 * ...); the bucket's text ("[unknown]" for b < 0). */
int hist_pow2_bucket(uint64_t v);
const char *hist_pow2_str(int b, char *buf, size_t n);
/* Whether key k reads a branch (needs report --branch-stack). */
int hist_key_is_branch(const struct hist_key *k);
/* Comma-separated names into keys[0..*n).  -1 with a one-line message
 * (naming the closest key) on an unknown or repeated name. */
int hist_keys_parse(const char *list, const struct hist_key **keys, int *n, char *err,
		    size_t errsz);

struct hist_chain; /* call graph of an entry (hist_chain.c) */

struct hist_entry {
	const struct report_sample *s; /* a sample with the entry's key values */
	uint64_t period, nsamples;
	/* That of the samples in the entry's own functions: period itself
	 * unless callers were added (hist_add_frames()). */
	uint64_t self;
	uint32_t depth;		  /* frames from the entry's to the outermost, at most */
	struct hist_chain *chain; /* NULL unless hist_build_chains ran */
};

struct hist {
	const struct report *r;
	const struct hist_key *keys[HIST_MAXKEYS];
	int nkeys;
	struct hist_entry *entries; /* after hist_finish: by period, largest first */
	size_t nentries;
	uint64_t period, nsamples; /* of everything added */
	struct hist_priv *priv;
};

struct hist *hist_new(const struct report *r, const struct hist_key *const *keys, int nkeys);
/* 0, or -1 when out of memory. */
int hist_add(struct hist *h, const struct report_sample *s);
/* perf's --children: s added to its own entry (its period to the
 * entry's period and self period) and to the entry of each caller in its
 * call chain (as if sampled there, with the chain from there out: to the
 * period only).  An entry takes a sample once, however often the chain
 * passes through it.  keep (NULL: all) picks the entries, called with s
 * as seen from each frame (the filters of report --children apply to
 * the functions, not to where the samples fell).  Returns 1 when s went
 * into an entry, 0 when keep took none of its frames, -1 out of memory. */
int hist_add_frames(struct hist *h, const struct report_sample *s,
		    int (*keep)(const struct report *r, const struct report_sample *v, void *arg),
		    void *arg);
/* Entries sorted by period; with callers added, a caller before its
 * callees where periods tie (perf's children order). */
int hist_finish(struct hist *h);
void hist_free(struct hist *h);

/* For hist_chain.c: the entry the k-th sample added went into, and its
 * frames from the one it was added as (report_sample_frames()). */
struct hist_entry *hist_entry_of(const struct hist *h, size_t k);
const struct report_sample *hist_sample(const struct hist *h, size_t k);
size_t hist_sample_frames(const struct hist *h, size_t k, struct report_loc **out, size_t max);

#endif
