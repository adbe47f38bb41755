/* systrace.h — system calls of the guest on their way to `vpmu trace`:
 * the tracer each guest process runs (it sends a RECW_SYSCALL message on
 * the sample channel for each call the session's mask names), and the
 * message read back. */
#ifndef VPMU_SYSTRACE_H
#define VPMU_SYSTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "recwire.h"
#include "systab.h"

struct lx_sys_ops;
extern const struct lx_sys_ops systrace_lx_ops;

/* Bytes of a mask of calls, a bit per number below SYSTAB_MAX. */
#define SYSTRACE_MASK (SYSTAB_MAX / 8)

/* A message read back. */
struct systrace_call {
	const struct recw_syscall *m;
	const char *str[6]; /* each string argument's text, NULL where unreadable */
};

/* Free what the tracer kept in a process (lx_sys_event.state); it lives
 * as long as the process otherwise. */
void systrace_state_free(void *state);

/* Check message m of len bytes and find its strings; 0, or -1 when it
 * makes no sense. */
int systrace_decode(const void *m, size_t len, struct systrace_call *c);

#endif
