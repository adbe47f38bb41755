/* compare.h — compare the host's and the emulator's results of one case. */
#ifndef VPMU_DIFF_COMPARE_H
#define VPMU_DIFF_COMPARE_H

#include "diff.h"

/* Number of differences between host and emu for form f started from
 * (in, mem); with print set, each is printed with the inputs. */
int diff_compare(const struct diff_form *f, const struct diff_state *in, const uint8_t *mem,
		 const struct diff_out *host, const struct diff_out *emu, int print);

/* Arithmetic flags defined after form f run from state in. */
uint32_t diff_flag_mask(const struct diff_form *f, const struct diff_state *in);

#endif
