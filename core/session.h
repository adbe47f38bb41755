/* session.h — run a guest program on the emulated machine the way perf
 * runs a workload: resolve it, fork, let the child become the guest, wait,
 * and gather what every guest process counted.
 *
 * Commands see only this interface; emu/ stays behind it (DESIGN.md).
 */
#ifndef VPMU_SESSION_H
#define VPMU_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct pmu_set;

struct session_opts {
	const char *prog; /* program as the user named it (PATH-searched) */
	char **argv;	  /* argv[0] as the guest sees it, NULL-terminated */
	uint64_t seed;	  /* AT_RANDOM and anything else seeded */
	int verbose;
	int vtime;	      /* time syscalls report emulated time */
	int64_t vtime_base;   /* ... and the monotonic clock starts here (ns; an exec'd image
			     * goes on from its predecessor's) */
	int64_t vtime_cpu;    /* ... the CPU time of the images before it (ns) */
	int64_t vtime_start;  /* ... and when the process began, on that clock (ns) */
	int64_t vtime_slept;  /* ... and the timed waits of the images before it (ns) */
	int64_t itimer[3][2]; /* ... and its predecessor's setitimer timers: ns left, interval */
	uint64_t cpus;	     /* an exec'd image: its predecessor's sched_setaffinity set (0: all) */
	uint64_t clock_base; /* ... and its timing model's clock at the execve (cycles) */
	int timed;	     /* run the timing model of the machine */
	const char *arch;    /* machine: p4 (default), ia64, xscale, alpha */
	const char *set;     /* machine parameter overrides, KEY=VAL[,KEY=VAL…] */
	int smt;	     /* guest threads on the two logical processors */
	double timeout;	     /* stop the run after this many wall-clock seconds (0: never) */
	uint64_t max_insns; /* ... or this many emulated instructions, all processes (0: no limit) */
	const struct pmu_set *pmu; /* counter hardware to program (timed runs), or NULL */
	int mute;		   /* the guest's stdout and stderr go to /dev/null */
	/* Recording: with on_msg, guest processes get a sample channel and
	 * every message they send (core/recwire.h) reaches on_msg while the
	 * guest runs. */
	void (*on_msg)(void *arg, const void *msg, size_t len);
	void *rec_arg;
	/* Tracing (with on_msg): the system calls to send as RECW_SYSCALL
	 * messages, a bit per number (core/systrace.h SYSTRACE_MASK bytes),
	 * or NULL. */
	const uint8_t *sys_mask;
	/* ... each with its call chain (LX_CG_*), of at most sys_max_stack
	 * frames (0: RECW_MAX_CHAIN) */
	int sys_callgraph;
	unsigned sys_max_stack;
	/* A second program run at once with the first, each on a logical
	 * processor of one core (emu/linux lx_main_pair), or NULL.  The run's
	 * status is the first program's unless it exited with 0, else the
	 * second's. */
	const char *prog2;
	char **argv2;
};

/* Why a run ended early (session_result.timeout). */
enum { SESSION_RAN, SESSION_TIMEOUT_INSNS, SESSION_TIMEOUT_WALL };
#define SESSION_TIMEOUT_STATUS 124 /* as timeout(1) */

/* Timing-model events (session_event_name), per logical processor and
 * privilege level (0 user, 1 kernel). */
#define SESSION_MAX_EVENTS 192
struct session_events {
	int n;
	uint64_t v[SESSION_MAX_EVENTS][2][2];
};

/* Functional counts, summed over every process of the guest's tree. */
struct session_counts {
	uint64_t insns, branches, taken, loads, stores, syscalls;
};

struct session_result {
	struct session_counts cnt;
	struct session_events ev; /* timed runs */
	double seconds;		  /* wall time from fork to the guest's exit */
	int exited;		  /* the guest exited: code holds its status */
	int code;
	int sig;		  /* the guest died of this signal (0: it did not) */
	int unsupported;	  /* stopped at an instruction the emulator lacks */
	int nprocs;		  /* guest processes accounted */
	int timeout;		  /* SESSION_TIMEOUT_*: a limit stopped every guest process */
	uint64_t pmu[64];	  /* counts of session_opts.pmu's events, every process summed */
	uint64_t pmu_time[64][2]; /* their enabled and running cycles, summed (0: not multiplexed) */
};

/* Name and description of timing-model event k (0 <= k < ev.n). */
const char *session_event_name(int k);
/* The number of timing-model events. */
int session_event_count(void);
/* NULL if the machine arch with set counts model event k, else why not. */
const char *session_event_uncounted(const char *arch, const char *set, int k);
const char *session_event_desc(int k);
/* Index of the event called name, or -1. */
int session_event_find(const char *name);

/* "unknown machine 'arch'", the closest machine's name if it is near,
 * and the list of the machines, into msg. */
void session_machine_unknown(const char *arch, char *msg, size_t msgsz);
/* Check a machine name and its overrides, and (smt) that it has two
 * logical processors; 0, or -1 with a one-line reason. */
int session_check_machine(const char *arch, const char *set, int smt, char *msg, size_t msgsz);
/* The machine's core clock in MHz (0 if unknown). */
unsigned session_machine_mhz(const char *arch, const char *set);
/* Every parameter of the machine (with overrides) as key=value through fn. */
int session_machine_params(const char *arch, const char *set,
			   void (*fn)(void *arg, const char *key, const char *value), void *arg);

/* Resolve name like a shell (PATH search when it has no '/').  Returns 0
 * with the path in out, or 126/127 with a one-line reason in msg. */
int session_resolve(const char *name, char *out, size_t outsz, char *msg, size_t msgsz);

/* Run the guest to completion, or until a limit of o (timeout,
 * max_insns) stops every guest process between two instructions with its
 * counts kept.  Diagnostics (unsupported instruction,
 * guest faults, with verbose the unknown syscalls) go to err.  Returns 0
 * when the guest ran, or a shell-style status (126/127, 1) after printing
 * one line to err when it could not be started. */
int session_run(const struct session_opts *o, struct session_result *r, FILE *err);

/* The exit status vpmu should give for a result: the guest's exit code,
 * 132 for an unsupported instruction, 128+signal for a death by signal,
 * SESSION_TIMEOUT_STATUS when a limit stopped the run. */
int session_status(const struct session_result *r);

/* Leave the way the guest did: re-raise its fatal signal on vpmu itself
 * (without a core file) so a shell reports it as for a native run;
 * otherwise exit with session_status(). */
_Noreturn void session_exit(const struct session_result *r);

/* Continue a guest in this process after its execve(): the area of counts
 * is already open as shared_fd.  Used by the hidden `__exec` command. */
_Noreturn void session_continue(const struct session_opts *o, int shared_fd);

#endif
