/* systab_priv.h — what core/systab.c and core/systab_arg.c share: a
 * buffer the formatting appends to, and each argument's printing. */
#ifndef VPMU_SYSTAB_PRIV_H
#define VPMU_SYSTAB_PRIV_H

#include <stddef.h>
#include <stdint.h>

/* Appending to a buffer that may fill: what did not fit is dropped. */
struct systab_out {
	char *buf;
	size_t n, len;
};

void systab_put(struct systab_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An argument of kind (enum systab_kind) and width bits (32: an int in
 * the low half of the register), with str its text for a string. */
void systab_put_arg(struct systab_out *o, unsigned kind, unsigned bits, uint64_t v,
		    const char *str);
/* Whether an argument of kind is shown when 0 (it means something). */
int systab_shows_zero(unsigned kind);

#endif
