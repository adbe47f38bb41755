/* cal.c — reservations of several cycles in a calendar (cal.h). */
#include "cal.h"

uint64_t uarch_cal_take_for(struct uarch_cal *k, uint64_t t, unsigned n, unsigned occ)
{
	if (occ > UARCH_CAL)
		occ = UARCH_CAL;
	for (;; t++) {
		unsigned j;
		for (j = 0; j < occ && uarch_cal_busy(k, t + j) < n; j++)
			;
		if (j == occ)
			break;
		t += j; /* cycle t + j is full: start after it */
	}
	for (unsigned j = 0; j < occ; j++)
		uarch_cal_take(k, t + j, n);
	return t;
}
