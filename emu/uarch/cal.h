/* cal.h — a calendar of per-cycle reservations of n identical resources
 * (the units of an execution class, the ports of a cache level).
 *
 * Requests do not come in time order: the model times µops in program
 * order, so a later µop may want a cycle before one already taken, and
 * two logical processors run ahead of each other by up to a block.  So a
 * resource keeps, per cycle modulo UARCH_CAL, how many of it are taken
 * in that cycle rather than a next-free time.  Internal to emu/uarch. */
#ifndef VPMU_UARCH_CAL_H
#define VPMU_UARCH_CAL_H

#include <stdint.h>

#define UARCH_CAL 2048 /* cycles of reservations remembered (more costs host cache misses) */

struct uarch_cal {
	uint64_t slot[UARCH_CAL]; /* cycle << 8 | resources taken in it */
};

/* Resources taken in cycle c. */
static inline unsigned uarch_cal_busy(const struct uarch_cal *k, uint64_t c)
{
	uint64_t v = k->slot[c % UARCH_CAL];
	return v >> 8 == c ? (unsigned)(v & 0xff) : 0;
}

/* Take one of n resources for one cycle, the first cycle >= t with one
 * free: returns that cycle. */
static inline uint64_t uarch_cal_take(struct uarch_cal *k, uint64_t t, unsigned n)
{
	for (;; t++) {
		uint64_t *v = &k->slot[t % UARCH_CAL];
		if (*v >> 8 != t) {
			*v = t << 8 | 1;
			return t;
		}
		if ((*v & 0xff) < n) {
			++*v;
			return t;
		}
	}
}

/* Take one of n resources for occ consecutive cycles (a unit that stays
 * busy, a port that moves data over several cycles), from the first cycle
 * >= t where one is free in each: returns that cycle.  Not inline: the
 * hot path takes one cycle (uarch_cal_take()). */
uint64_t uarch_cal_take_for(struct uarch_cal *k, uint64_t t, unsigned n, unsigned occ);

#endif
