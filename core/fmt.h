/* fmt.h — small text helpers the commands share. */
#ifndef VPMU_FMT_H
#define VPMU_FMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* v with thousands grouped by commas ("1,234,567"), as perf prints counts
 * in an English locale; fixed so output does not depend on the locale. */
const char *fmt_count(uint64_t v, char *buf, size_t n);

/* Damerau-Levenshtein distance (adjacent transpositions count one), for
 * "did you mean" suggestions.  Strings longer than 63 bytes compare as far
 * apart (returns a large number). */
unsigned fmt_distance(const char *a, const char *b);

/* argv joined by single spaces into buf, truncated with "..." to fit. */
const char *fmt_argv(char *const *argv, char *buf, size_t n);

/* s as a quoted JSON string (NULL as ""). */
void fmt_json_str(FILE *out, const char *s);

#endif
