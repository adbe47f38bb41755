/* trace.h — `vpmu trace`'s summary of the calls (trace_summary.c). */
#ifndef VPMU_CMD_TRACE_H
#define VPMU_CMD_TRACE_H

#include <stdint.h>
#include <stdio.h>

struct trace_summary;

struct trace_summary *trace_summary_new(void);
void trace_summary_free(struct trace_summary *s);
/* A call of thread tid (of program comm) that returned ret after dur ns;
 * 0, or -1 out of memory. */
int trace_summary_add(struct trace_summary *s, const char *comm, uint32_t tid, long nr, int64_t ret,
		      int64_t dur);
/* perf trace -s's tables: each thread's calls, the longest total first,
 * with errnos each call's errors by name (--errno-summary; up to 8
 * distinct ones a call). */
void trace_summary_print(const struct trace_summary *s, FILE *f, int errnos);

#endif
