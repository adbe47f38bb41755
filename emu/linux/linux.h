/* linux.h — a Linux user-mode process on the emulated x86-64 machine:
 * ELF loading (static, static-PIE, PIE, dynamic through the program's own
 * ld.so), the initial stack, syscalls, signals, threads, fork and exec.
 *
 * Process model: lx_main() runs one guest program in the calling host
 * process and never returns; the host process exits the way the guest does
 * (same status, or killed by the same signal).  Counts go to a slot of a
 * shared area (lx_shared) that a parent — core/session.c — created before
 * forking, so they survive the guest dying and cover every process of the
 * guest's tree: a guest fork() is a host fork() that takes a new slot, a
 * guest execve() re-executes vpmu (the hidden `__exec` command) on the new
 * image with the area's fd.
 */
#ifndef VPMU_LINUX_H
#define VPMU_LINUX_H

#include <stdint.h>
#include <sys/types.h>

#include "../uarch/events.h"
#include "../x86/x86.h"

#define LX_MAX_SLOTS 256 /* guest processes accounted per run */
#define LX_MAX_IMAGES 64 /* ELF images recorded per process */
#define LX_MAX_NOSYS 64	 /* distinct unknown syscalls recorded per process */
#define LX_MAX_PMU 64	 /* PMU events counted per run */
#define LX_PMU_CFG 8192	 /* bytes of PMU configuration (opaque here) */

/* An ELF object mapped into a guest process (for symbolising addresses). */
struct lx_image {
	uint64_t start, end; /* mapped range */
	uint64_t bias;	     /* load bias: runtime address - ELF vaddr */
	char path[256];
};

enum lx_slot_state {
	LX_SLOT_FREE,
	LX_SLOT_RUNNING,
	LX_SLOT_EXITED,	     /* exit()/exit_group() */
	LX_SLOT_KILLED,	     /* died of a signal (guest fault or external) */
	LX_SLOT_EXECED,	     /* replaced by execve(); counts continue in a new slot */
	LX_SLOT_UNSUPPORTED, /* stopped at an instruction the emulator lacks */
};

enum { LX_VT_RUN, LX_VT_HOST, LX_VT_KIDS }; /* lx_slot.vt_wait */

/* One guest process. Written only by that process, but for cpus. */
struct lx_slot {
	volatile int32_t state; /* enum lx_slot_state */
	int32_t pid;
	int32_t status; /* exit status, or the signal number when KILLED */
	int32_t nimages, nnosys;
	struct x86_counts cnt; /* summed over the process's threads */
	int64_t children_ns;   /* --vtime: CPU time of the children it reaped */
	/* --vtime: the process's emulated clock, published as it runs (it
	 * ends no earlier), and at its end where it ended; while it sits in
	 * a host call that may block, LX_VT_HOST, or LX_VT_KIDS in one that
	 * waits for its children (reap.c) */
	volatile int64_t vt_at;
	volatile int32_t vt_wait;
	int64_t vt_start; /* --vtime: when the process began on that clock */
	int32_t ppid;	  /* its parent */
	/* its first thread's sched_setaffinity set (0: all), which any
	 * process of the run may read and set (sched_setaffinity(pid)) */
	volatile uint64_t cpus;
	struct uarch_counts ev;		  /* timing-model events (timed runs) */
	uint64_t pmu[LX_MAX_PMU];	  /* the PMU's counts (lx_pmu_ops.read) */
	uint64_t pmu_time[LX_MAX_PMU][2]; /* their enabled, running cycles (multiplexed) */
	struct x86_fault fault;		  /* for KILLED by a guest fault, and UNSUPPORTED */
	struct lx_image image[LX_MAX_IMAGES];
	struct {
		uint32_t nr, count;
	} nosys[LX_MAX_NOSYS];
};

#define LX_SYS_MAX 512 /* system call numbers lx_shared.sys_mask covers */

struct lx_shared {
	uint32_t magic, nslots;
	volatile uint32_t next; /* next free slot, taken with an atomic add */
	int32_t timed;		/* run the timing model */
	int32_t smt;		/* guest threads run on the two logical processors */
	char arch[16];		/* machine name (emu/uarch/params.h) */
	char set[1024];		/* --set overrides, applied to it */
	int32_t sample_fd;	/* write end of the sample channel, -1: none */
	uint32_t pmu_len;	/* bytes of pmu_cfg in use (0: no PMU) */
	/* System calls reported to lx_config.sys (vpmu trace): a bit per
	 * number below LX_SYS_MAX, all clear: none */
	uint8_t sys_mask[LX_SYS_MAX / 8];
	uint8_t sys_callgraph;			 /* a call chain with each call: LX_CG_* */
	uint16_t sys_max_stack;			 /* ... of at most this many frames */
	_Alignas(8) uint8_t pmu_cfg[LX_PMU_CFG]; /* what lx_pmu_ops.attach is given (a struct) */
	struct lx_slot slot[LX_MAX_SLOTS];
};

/* Create the shared area (a memfd mapped shared); *fd receives its fd. */
struct lx_shared *lx_shared_create(int *fd);
/* Map an existing area from its fd (after exec). */
struct lx_shared *lx_shared_map(int fd);
/* Sum the counts of every slot. */
void lx_shared_total(const struct lx_shared *sh, struct x86_counts *out);

struct uarch;
struct lx_pair;

/* What a guest process offers the counter hardware attached to it: who
 * it is, where samples go, and safe views of its threads, memory and
 * mapped images (for call chains and data addresses). */
struct lx_pmu_env {
	int pid;
	uint64_t clock_base; /* lx_config.clock_base: the times of samples go on from it */
	int sample_fd;	     /* lx_shared.sample_fd */
	const char *exe;
	void *arg;
	/* The thread running now (its registers are those after the
	 * instruction just retired) and its guest thread id. */
	const struct x86_cpu *(*thread)(void *arg, int *tid);
	/* Copy guest memory; 0, or -1 where it is not readable. */
	int (*read)(void *arg, void *dst, uint64_t addr, size_t n);
	/* The ELF images mapped so far. */
	const struct lx_image *(*images)(void *arg, int *n);
	/* The model is shared with another process, which has a copy of the
	 * counter hardware of its own (--smt -- A : B). */
	int shared;
	/* Set by attach: threads must keep their registers from before each
	 * instruction (x86_trace.pre), which precise samples record. */
	int keep_pre;
	/* Set by attach: samples read the thread (thread(), read()) as each
	 * instruction retires, so the model must hear of each one then. */
	int per_insn;
};

/* The counter hardware, attached to each guest process's timing model
 * (the session provides it; emu/ knows it only through these calls). */
struct lx_pmu_ops {
	/* Program the PMU from cfg (lx_shared.pmu_cfg) and attach it to u;
	 * NULL with a one-line reason in err on failure.  env outlives the
	 * attachment. */
	void *(*attach)(struct uarch *u, struct lx_pmu_env *env, const void *cfg, size_t len,
			char *err, size_t errsz);
	/* Its counts into val[LX_MAX_PMU], and each one's enabled and
	 * running cycles into time (0, 0 when the events were not
	 * multiplexed) (final: the run is ending or the process is about to
	 * fork or exec). */
	void (*read)(void *pmu, uint64_t *val, uint64_t (*time)[2]);
	void (*detach)(void *pmu, struct uarch *u);
};

/* A system call as a tracer sees it: sent after it returned, or before
 * it for one that does not return (exit, exit_group, rt_sigreturn, an
 * execve about to replace the image). */
struct lx_sys_event {
	int pid, tid;
	char comm[16]; /* the process's name, as ps shows it */
	long nr;
	uint64_t a[6];
	int64_t ret;
	int noreturn;	    /* no result: ret means nothing */
	int host_clock;	    /* start and dur are the host's (an untimed run) */
	int64_t start, dur; /* ns of the process's emulated clock (timed), else the host's */
	/* Copy a NUL-terminated string from guest memory; its length, or
	 * -1 where it is not readable. */
	int (*str)(void *arg, char *dst, uint64_t src, size_t n);
	/* Copy n bytes from guest memory: 0, or -1 where not readable. */
	int (*mem)(void *arg, void *dst, uint64_t src, size_t n);
	void *arg;
	/* The call chain asked for (lx_shared.sys_callgraph, sys_max_stack):
	 * the thread's registers as the call left them (emu/x86 order; the
	 * return address of the call in ip), the images the process has
	 * mapped, and a place for the tracer's own state in the process (NULL
	 * at first; a forked child finds its parent's). */
	int callgraph;
	unsigned max_stack;
	const uint64_t *regs;
	uint64_t ip;
	const struct lx_image *images;
	int nimages;
	void **state;
};

enum { LX_CG_NONE, LX_CG_FP, LX_CG_DWARF };

/* The tracer (the session provides it): it gets the calls whose bits
 * lx_shared.sys_mask sets, with the fd of the sample channel. */
struct lx_sys_ops {
	void (*syscall)(int sample_fd, const struct lx_sys_event *e);
};

struct lx_config {
	const char *path;  /* program to run, resolved by the caller via PATH */
	char *const *argv; /* argv[0] as the guest sees it */
	char *const *envp;
	uint64_t seed; /* AT_RANDOM bytes and anything else seeded */
	int verbose;
	int shared_fd;	      /* fd of the lx_shared area */
	int vtime;	      /* 1: time syscalls report emulated time */
	int64_t vtime_base;   /* ... the monotonic clock starting here (ns) */
	int64_t vtime_cpu;    /* ... the CPU time of the images before (ns) */
	int64_t vtime_start;  /* ... when the process began on the monotonic clock (ns) */
	int64_t vtime_slept;  /* ... the timed waits of the images before (ns) */
	int64_t itimer[3][2]; /* ... setitimer's timers kept by execve: ns left, interval */
	uint64_t cpus;	      /* sched_setaffinity's set kept by execve (0: all) */
	/* the timing model's clock at the execve that made this image: its
	 * own goes on from there (the times of samples and system calls) */
	uint64_t clock_base;
	const struct lx_pmu_ops *pmu; /* NULL: no counter hardware */
	const struct lx_sys_ops *sys; /* NULL: no tracer */
	/* Set by lx_main_pair for each of its two programs: the shared core
	 * (pair.c) and the logical processor the program runs on. */
	struct lx_pair *pair;
	int pair_lp;
};

/* Run the guest in this process: never returns. */
_Noreturn void lx_main(const struct lx_config *cfg);

/* Run two programs at once on the two logical processors of one core of
 * the timed machine (dual-thread mode while both run), each in a host
 * process of its own sharing the model (pair.c); this process waits for
 * both and ends with a's status unless a exited with 0, else with b's
 * (exiting with the same code, or dying of the same signal).  Never
 * returns. */
_Noreturn void lx_main_pair(const struct lx_config *a, const struct lx_config *b);

/* Check that path is an x86-64 ELF executable vpmu can load.  Returns 0, or
 * a shell-style exit status (126 not executable / bad format, 127 missing)
 * with a one-line reason in msg. */
int lx_check_program(const char *path, char *msg, size_t msgsz);

#endif
