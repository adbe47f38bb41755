/* trace.h — `vpmu trace`'s summary of the calls (trace_summary.c). */
#ifndef VPMU_CMD_TRACE_H
#define VPMU_CMD_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "core/recwire.h"

struct trace_summary;

struct trace_summary *trace_summary_new(void);
void trace_summary_free(struct trace_summary *s);
/* A call of thread tid (of program comm) that returned ret after dur ns;
 * 0, or -1 out of memory. */
int trace_summary_add(struct trace_summary *s, const char *comm, uint32_t tid, long nr, int64_t ret,
		      int64_t dur);
/* perf trace -s's tables: each thread's calls (total: every thread's in
 * one table, --summary-mode=total), the longest total first, with errnos
 * each call's errors by name (--errno-summary; up to 8 distinct ones a
 * call). */
void trace_summary_print(const struct trace_summary *s, FILE *f, int errnos, int total);

/* trace_chain.c: the images of each guest process, and call chains
 * named from them (--call-graph). */
struct trace_chains;

struct trace_chains *trace_chains_new(void);
void trace_chains_free(struct trace_chains *tc);
/* An image the process m->pid mapped (RECW_MMAP_FIRST: the first of a
 * new list); 0, or -1 when m makes no sense or out of memory. */
int trace_chains_mmap(struct trace_chains *tc, const struct recw_mmap *m);
/* m's chain, a frame a line, malloc'd; NULL when it has none (or out of
 * memory). */
char *trace_chains_format(struct trace_chains *tc, const struct recw_syscall *m);

#endif
