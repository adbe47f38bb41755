/* opt.h — option values the commands parse alike, and their complaints. */
#ifndef VPMU_CMD_OPT_H
#define VPMU_CMD_OPT_H

#include <stdint.h>

#include "core/report_filter.h"
#include "core/session.h"

/* A whole number (decimal, 0x hex, 0 octal), no sign; 0 or -1. */
int opt_u64(const char *s, uint64_t *v);
/* --timeout LIMIT into o->timeout or o->max_insns, --seed N into
 * o->seed; 0, or -1 after saying why not. */
int opt_timeout(const char *cmd, const char *s, struct session_opts *o);
int opt_seed(const char *cmd, const char *s, struct session_opts *o);
/* getopt_long's complaint c about argv[optind - 1] (':' a missing
 * argument, else an unknown option), one line from `vpmu cmd`. */
void opt_bad(const char *cmd, int c, char *const *argv);
/* A filter option of `vpmu cmd` (--comms, --pid, ...): its list added to
 * f; 0, or -1 after saying why not. */
int opt_filter(const char *cmd, struct report_filter *f, enum report_filter_kind k,
	       const char *list);
/* --time START,STOP into f; 0, or -1 after saying why not. */
int opt_time(const char *cmd, struct report_filter *f, const char *spec);
/* f's time range in r's cycles; 0, or -1 after saying r has no clock. */
int opt_time_clock(const char *cmd, struct report_filter *f, const struct report *r);
/* --max-stack N (1 or more) into *max; 0, or -1 after saying why not. */
int opt_max_stack(const char *cmd, const char *s, uint32_t *max);
/* The note printed when a limit stopped the run. */
void opt_timeout_note(const struct session_opts *o, const struct session_result *r);

#endif
