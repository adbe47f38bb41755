/* lx_limits.h — the limits of a run (`vpmu stat --timeout`) and the stop
 * request that ends it cleanly.  Public side, next to linux.h: the session
 * that creates the shared area sets the limits; every guest process obeys.
 *
 * The limits live in the shared area, on the page after struct lx_shared
 * (lx_shared_create makes the area that long), so they reach every guest
 * process of the tree, across fork and exec, like the counts.
 *
 * Stopping: whoever decides (a guest process whose tree reached the
 * instruction limit, or the session when wall time is up) sets `fired`
 * once, then `stop`.  Every guest process checks `stop` at block
 * boundaries it already stops at (syscalls, signals, scheduling, and at
 * least every LX_LIMIT_CHUNK instructions while a limit is set) and ends
 * there: counts complete, timing events flushed, slot EXITED with status
 * LX_LIMIT_STATUS.  A process blocked in the kernel is woken by
 * LX_LIMIT_SIG from the session: a fault signal, because vpmu never blocks
 * those on the host and always handles them itself, whatever the guest's
 * mask and dispositions; sent only to processes whose `ready` says their
 * handler is installed.
 */
#ifndef VPMU_LX_LIMITS_H
#define VPMU_LX_LIMITS_H

#include <signal.h>
#include <stdint.h>

#include "linux.h"

#define LX_LIMIT_SIG SIGBUS
#define LX_LIMIT_STATUS 124	    /* what timeout(1) exits with */
#define LX_LIMIT_CHUNK (1ull << 20) /* instructions between checks (>= LX_QUANTUM) */

enum lx_limit_why {
	LX_LIMIT_NONE,
	LX_LIMIT_INSNS, /* the emulated-instruction budget was reached */
	LX_LIMIT_WALL,	/* wall-clock time was up */
};

struct lx_limits {
	uint32_t magic;
	int32_t owner;		/* pid of the session: the only sender of LX_LIMIT_SIG */
	uint64_t max_insns;	/* summed over every guest process; 0: no limit */
	volatile int32_t fired; /* enum lx_limit_why, set once */
	volatile int32_t stop;
	/* the process in slot i handles LX_LIMIT_SIG (its pid, 0: not now) */
	volatile int32_t ready[LX_MAX_SLOTS];
};

/* The limits of an area made by lx_shared_create or mapped by lx_shared_map. */
struct lx_limits *lx_limits_of(struct lx_shared *sh);

/* Stop the run for reason why (first caller wins): set the request and
 * wake every ready guest process.  Returns how many were signalled. */
int lx_limits_stop(struct lx_shared *sh, enum lx_limit_why why);

/* Pids of guest processes still running (slot RUNNING and the process
 * exists), at most n of them into pids; returns how many there are. */
int lx_limits_running(struct lx_shared *sh, int32_t *pids, int n);

#endif
