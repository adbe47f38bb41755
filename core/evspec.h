/* evspec.h — perf's `-e` event specifications, resolved against a backend.
 *
 * Syntax (a subset of perf's, see vpmu-list(1) and vpmu-stat(1)):
 *
 *   spec    := item {',' item}
 *   item    := event | '{' event {',' event} '}' [':' MODS]
 *   event   := GENERIC [':' MODS]
 *            | [PMU '::'] NATIVE {':' UMASK} [':' MODS]
 *            | 'r' HEX [':' MODS]
 *            | PMU '/' EVENT [',ldlat=' N] '/' [MODS]
 *   MODS    := any mix of u, k, p (p at most twice), P: u counts user
 *              level, k kernel level, p/pp ask for the precise mechanism,
 *              P for the most precise (pp)
 *
 * The slash form is perf's PMU/TERMS/: PMU is cpu or the backend's name,
 * EVENT any of the first three forms without modifiers, and ldlat=N,
 * only with mem-loads, its load-latency threshold (b->mem_ldlat).
 *
 * GENERIC is one of the backend's perf names (b->generic, exact case, as
 * perf), standing for its native spec.  NATIVE, UMASK and PMU (which must
 * be the backend's name) compare without case.  Unit masks OR together;
 * none given means the event's default mask.  HEX is 1 to 16 hex digits,
 * the raw register image.  Around each event blank space is ignored.
 *
 * After a native event, a token that names one of its unit masks is a unit
 * mask, even when it also reads as modifiers; any other token must be the
 * last and a modifier string.
 *
 * Levels: no u or k counts both; otherwise exactly those given.  A group's
 * modifiers apply to each member as perf applies them: the levels given on
 * the member and on the group are counted (none anywhere: both), the p's
 * add up (at most two in all).
 */
#ifndef VPMU_EVSPEC_H
#define VPMU_EVSPEC_H

#include <stddef.h>

#include "arch/arch.h"

/* Parse spec and append its events to out[*n .. max-1], advancing *n.  A
 * lone event's .group is its own index, a group member's that of the
 * group's first event (indices into out[], counting the events appended by
 * earlier calls).  .name is the event as written, trimmed (a group's
 * modifiers merged in: {cycles,instructions}:u gives cycles:u and
 * instructions:u).  Each event is then encoded by b->encode, or a raw one
 * decoded by b->decode.  Returns 0; or -1 with a one-line message naming
 * the offending text in err, *n unchanged (out[*n..] may have been
 * written); EVSPEC_NOTSUP instead of -1 when the spec is right but the
 * backend cannot produce an event of it (ARCH_ENOTSUP). */
#define EVSPEC_NOTSUP (-2)
int evspec_parse(const struct arch_backend *b, const char *spec, struct arch_evsel *out,
		 unsigned max, unsigned *n, char *err, size_t errsz);

/* The same, each event given no level of its own (nor by its group)
 * counting at levels (perf's --all-user, --all-kernel), its name then
 * with the modifier added (cycles:u). */
enum { EVSPEC_BOTH, EVSPEC_USER, EVSPEC_KERNEL };
int evspec_parse_levels(const struct arch_backend *b, const char *spec, int levels,
			struct arch_evsel *out, unsigned max, unsigned *n, char *err, size_t errsz);

/* Whether name is one of perf's generic event names, which a machine may
 * lack, and of which class (perf list's): a hardware event (cycles), a
 * hardware-cache one (L1-dcache-load-misses) or one of the PMU's
 * (mem-loads); 0 when it is none of perf's. */
enum { EVSPEC_HW = 1, EVSPEC_CACHE, EVSPEC_PMU };
int evspec_generic_class(const char *name);

/* The end of spec's first item at p: an event, or a {group} with its
 * modifiers (the ',' after it, or the end of the string). */
const char *evspec_item_end(const char *p);

/* Damerau-Levenshtein distance (optimal string alignment: adjacent
 * transpositions count one edit), ignoring case.  Strings longer than 127
 * bytes compare as far apart (a large number). */
unsigned evspec_distance(const char *a, const char *b);

/* Closest-match search, one candidate at a time: init, try each candidate,
 * then best() is the one candidate word (3 letters or more) begins,
 * ignoring case, if only one does; else the closest one tried (the first
 * of equals) when it is close enough to be a typo of word — at most
 * max(2, strlen(word) / 3) edits, one edit for a word shorter than 4 —
 * or NULL. */
struct evspec_match {
	const char *word;
	const char *best;
	unsigned dist;
	const char *prefix; /* the last candidate word begins */
	unsigned nprefix;   /* how many it begins */
};

void evspec_match_init(struct evspec_match *m, const char *word);
void evspec_match_try(struct evspec_match *m, const char *cand);
const char *evspec_match_best(const struct evspec_match *m);

/* The same over an array of n names. */
const char *evspec_closest(const char *word, const char *const *names, size_t n);

#endif
