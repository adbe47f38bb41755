/* lx_proc.h — private to emu/linux: the state of one guest process (address
 * space, signal dispositions, threads) and the functions the files of the
 * Linux layer share.  linux.h is the public side.
 */
#ifndef VPMU_LX_PROC_H
#define VPMU_LX_PROC_H

#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <time.h>

#include "../uarch/mem.h"
#include "linux.h"
#include "lx_limits.h"
#include "lx_mm.h"

#define LX_NSIG 64
#define LX_MINSIGSTKSZ 2048 /* the kernel's, for sigaltstack(2) */
#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000
#endif
#ifndef SS_AUTODISARM
#define SS_AUTODISARM (1u << 31)
#endif
#define LX_SIGBIT(s) (1ull << ((s)-1))

/* The kernel's struct sigaction for x86-64 (arch/x86/include/uapi/asm/signal.h
 * without the glibc wrapper): handler, flags, restorer, mask. */
struct lx_sigaction {
	uint64_t handler, flags, restorer, mask;
};

/* Signals waiting for delivery.  One siginfo per signal number: standard
 * signals do not queue, and real-time ones are merged the same way. */
struct lx_sigq {
	volatile uint64_t set;
	siginfo_t info[LX_NSIG + 1];
};

enum lx_tstate {
	LX_T_RUN,   /* runnable */
	LX_T_FUTEX, /* in an emulated futex wait */
	LX_T_SLEEP, /* in nanosleep while other threads run */
	LX_T_IO,    /* a call that would block, to try again (block.c) */
	LX_T_DEAD,
};

struct lx_proc;

/* An interval timer on the emulated clock (itimer.c, --vtime). */
#define LX_TFD_FDS 8 /* a timerfd's descriptors the process keeps track of */
struct lx_timer {
	int64_t next;	  /* expiry on its clock, ns; -1: disarmed */
	int64_t interval; /* ns; 0: once */
	uint64_t value;	  /* sigev_value */
	int sig;	  /* 0: none (SIGEV_NONE) */
	int tid;	  /* the thread it signals (SIGEV_THREAD_ID); 0: the process */
	int overrun;	  /* expiries taken into its last signal beyond the first */
	int ctid;	  /* on this thread's CPU clock (0: see cpu) */
	uint8_t cpu;	  /* on the process's CPU clock, else the wait clock (vtime.c) */
	uint8_t wall;	  /* an absolute time for it is on the wall clock */
	uint8_t used;	  /* a POSIX timer: created; a timerfd: open */
	uint8_t tfd;	  /* a timerfd's: its expiries are added to its descriptors' count */
	uint8_t nfd;	  /* a timerfd's open descriptors: fd[0..nfd) (duplicates too) */
	int fd[LX_TFD_FDS];
};
#define LX_NITIMER 3   /* setitimer's: ITIMER_REAL, ITIMER_VIRTUAL, ITIMER_PROF */
#define LX_NPOSIX 32   /* the POSIX timers a process may create */
#define LX_NTIMERFD 32 /* the timerfds it may have open */
#define LX_TIMERFD0 (LX_NITIMER + LX_NPOSIX)
#define LX_NTIMERS (LX_TIMERFD0 + LX_NTIMERFD)
/* The host's signal for its timer that ends a host wait at an emulated
 * expiry: a fault signal, which vpmu never blocks (as LX_LIMIT_SIG). */
#define LX_ITIMER_SIG SIGBUS

struct lx_timers {
	/* setitimer's, POSIX timer k at LX_NITIMER + k, the timerfds */
	struct lx_timer t[LX_NTIMERS];
	int armed;   /* one that raises a signal or counts for a timerfd is armed */
	int host_id; /* the host's timer, -1 not made yet */
	volatile int host_armed;
};

struct lx_thread {
	struct x86_cpu cpu;
	struct lx_proc *p;
	int tid;
	int lp;		     /* logical processor it runs on (0; 0 or 1 with --smt) */
	int state;	     /* enum lx_tstate */
	uint64_t blocked;    /* guest signal mask */
	struct lx_sigq pend; /* thread-directed (tgkill) */
	uint64_t ss_sp, ss_size;
	int ss_flags; /* sigaltstack: 0, SS_DISABLE, SS_AUTODISARM */
	/* the system call it is making, when the tracer wants it (systrace.c) */
	struct lx_sys_call {
		int on;
		long nr;
		uint64_t a[6];
		int64_t start;
	} sys;
	/* sigsuspend: the mask to restore once a handler has been set up */
	int restore_mask;
	uint64_t saved_mask;
	uint64_t clear_tid, robust_list, robust_len;
	/* futex / sleep wait */
	uint64_t fx_addr, fx_seq;
	uint32_t fx_bitset, fx_val;
	int yield;	/* sched_yield: let the others run first */
	int io_waiting; /* a poll-like call is being retried (block.c) */
	int64_t io_deadline;
	int64_t deadline; /* on lx_wait_now()'s clock (vtime.c), ns; -1: none */
	uint64_t ran;	  /* instructions it ran before its current turn (its CPU clock) */
	uint64_t cpus;	  /* sched_setaffinity's logical processors, a bit each (0: all) */
	int64_t vt_start; /* --vtime: when it began, on lx_wait_now()'s clock (ns) */
};

#define LX_HOLD_MAX 32 /* children's SIGCHLDs held at once (hold.c) */
#define LX_KIDS 64     /* children whose fork order is kept (reap.c) */

struct lx_proc {
	const struct lx_config *cfg;
	struct lx_shared *sh;
	struct lx_slot *slot;
	struct x86_counts own_cnt; /* when every slot is taken */
	struct x86_cache *cache;
	struct uarch *uarch; /* the timing model (timed runs), else NULL */
	struct uarch_counts own_ev;
	void *pmu;	 /* the counter hardware on the model (cfg->pmu), or NULL */
	void *sys_state; /* the tracer's (lx_sys_event.state) */
	struct lx_pmu_env pmu_env;
	uint64_t own_pmu[LX_MAX_PMU];
	uint64_t own_pmu_time[LX_MAX_PMU][2];
	struct lx_mm mm;
	uint64_t rng;	     /* getrandom(2)'s generator (random.c) */
	int64_t vt_waited;   /* --vtime: ns the emulated clock stood in timed waits (vtime.c) */
	int64_t vt_slept;    /* --vtime: those waits alone, of every image (systrace.c) */
	uint64_t turn_from;  /* the process's instructions when the current thread's turn began */
	int64_t vt_cpu_base; /* --vtime: CPU time of the images it ran before this one (ns) */
	struct lx_timers tm; /* --vtime: interval timers (itimer.c) */
	int pid;
	char exe[4096]; /* absolute path of the guest program (/proc/self/exe) */

	struct lx_sigaction act[LX_NSIG + 1];
	struct lx_sigq pend; /* process-directed, queued by the host handler */
	/* children's SIGCHLDs held back (hold.c): the signal's bit while any
	 * is, their siginfo in the order they came, and the instructions when
	 * the main loop first saw one (+1; 0: not yet); the children whose
	 * end the host signalled (held or not), a ring, until reaped */
	volatile uint64_t held;
	siginfo_t held_info[LX_HOLD_MAX];
	volatile int nheld;
	uint64_t held_seen;
	int told[LX_HOLD_MAX];
	unsigned ntold;
	/* where the emulated clock orders the ends (wake.c): the children
	 * whose SIGCHLD the guest has had, until reaped (the host's own for
	 * them is dropped) */
	int given[LX_HOLD_MAX];

	/* reap.c: the children in the order they were forked (each with the
	 * clock it was last seen at and since when, on the host, it has sat
	 * blocked there), and the reports of children reaped ahead of their
	 * turn, oldest first */
	struct lx_kid {
		int pid;
		int64_t clock, still_from;
	} kids[LX_KIDS];
	int nkids;
	int kids_lost;	       /* more were unreaped at once than kids[] holds */
	int64_t kids_moved_at; /* host time a child last moved its clock (reap.c) */
	uint64_t wake_at;      /* instructions at which wake.c next looks for ends */
	struct lx_report {
		int pid, status;
		int64_t end; /* the child's clock where it ended */
		struct rusage ru;
	} stash[LX_KIDS];
	int nstash;

	struct lx_thread **th; /* threads; th[0..nth) */
	int nth, cap_th, cur;
	int next_tid;
	uint64_t wait_seq; /* futex waiters are woken in the order they came */

	/* guarded access to guest memory from the hooks: a host fault inside
	 * lx_copy_in/out jumps back here instead of killing vpmu */
	volatile int guard;
	sigjmp_buf guard_jb;

	/* the run's limits (lx_limits.h), NULL when it has none; the tree's
	 * instruction total and this process's own count at the last look */
	struct lx_limits *lim;
	uint64_t lim_total, lim_own;
	int lim_seen;

	/* the handler of a decoded instruction made a resync point after a
	 * store into its block (mem.c) */
	x86_fn smc_fn;
	/* a store wrote into a page of decoded code (set by the fault
	 * handler): the timing model clears its pipeline after it (timing.c) */
	volatile int smc_clear;
	uint64_t smc_page;

	/* one of two programs sharing a core (pair.c): the pair, its logical
	 * processor, the pid of the pair's member (a forked child is not),
	 * whether it has left the core (ended, or executing another
	 * program), and whether its one thread runs until its processor is
	 * ahead (timing.c), not block by block */
	struct lx_pair *pair;
	int pair_lp, pair_pid, pair_left, pair_solo;
};

static inline struct lx_thread *lx_cur(struct lx_proc *p)
{
	return p->th[p->cur];
}

/* raw host system call: returns the kernel's value (-errno on error);
 * lx_host_syscall_ret is where a signal interrupting its wait returns to */
long lx_host_syscall(long nr, long a0, long a1, long a2, long a3, long a4, long a5);
void lx_host_syscall_ret(void);
/* Whether the host signal with context uc interrupted a wait in
 * lx_host_syscall (it returns -EINTR there), not the code around it. */
int lx_host_syscall_interrupted(const void *uc);

/* guest memory access that turns a fault into -EFAULT */
int lx_copy_in(struct lx_proc *p, void *dst, uint64_t src, size_t n);
int lx_copy_out(struct lx_proc *p, uint64_t dst, const void *src, size_t n);
/* a NUL-terminated guest string into buf; -EFAULT or -ENAMETOOLONG */
int lx_copy_str(struct lx_proc *p, char *buf, uint64_t src, size_t bufsz);

/* cpus.c: the emulated processor's logical processors as the guest sees
 * them.  lx_cpus_open: 1 if path (opened with flags) is a file describing
 * them, with the descriptor of a copy or -errno in *fd; 0 if the host's
 * file is the guest's. */
int lx_cpus_open(const struct x86_cpu *c, const char *path, long flags, long *fd);
/* The same for path relative to directory dirfd (or AT_FDCWD). */
int lx_cpus_openat(const struct x86_cpu *c, int dirfd, const char *path, long flags, long *fd);
/* The text of such a file for processor model m into buf (n bytes): its
 * length (less than n); 0 if path is none of them or it does not fit;
 * -ENOENT if it names a processor, cache or node the package lacks. */
long lx_cpus_file(const struct x86_model *m, const char *path, char *buf, size_t n);
/* cpus_sys.c: the number at *s (a processor's, a task's; *s advanced
 * past it), -1 if none. */
long lx_cpus_number(const char **s);
#define LX_TICK_NS 10000000 /* USER_HZ's tick, the unit of times(2) and /proc */
/* textfile.c: a read-only file of text (memfd name), opened with the
 * guest's flags: its descriptor or -errno. */
long lx_textfile_open(const char *name, const char *text, size_t len, long flags);
/* textfile.c: the host's file at path, whole and NUL-terminated, in a malloc'd
 * buffer (its length in *len); NULL if it cannot be read or holds more
 * than LX_HOST_TEXT_MAX bytes. */
#define LX_HOST_TEXT_MAX (16u << 20)
char *lx_host_text(const char *path, size_t *len);
/* cpus_proc.c: 1 if path (relative to dirfd, opened with flags) is
 * /proc/stat or a task's status, with the descriptor of the host's text
 * rewritten for the package's processors in *fd (or -errno); 0 if the
 * host's file is the guest's. */
int lx_cpus_proc_open(const struct lx_proc *p, const struct x86_cpu *c, int dirfd, const char *path,
		      long flags, long *fd);
/* Whether path is a task's file named file: /proc/{self,PID}/FILE (the
 * process's: *tid -1), /proc/thread-self/FILE (the caller's: 0) or
 * /proc/{self,PID}/task/TID/FILE; *pid its process (0: the caller's). */
int lx_task_path(const char *path, const char *file, long *pid, long *tid);
/* p's live thread tid, NULL if none; the task lx_task_path() named, NULL
 * if it is none of p's (or of another process). */
const struct lx_thread *lx_task_of(const struct lx_proc *p, long tid);
const struct lx_thread *lx_task(const struct lx_proc *p, const struct x86_cpu *c, long pid,
				long tid);
/* task_stat.c: what a task's stat line tells of it; host's line with
 * those fields into buf (n bytes): the length, 0 if it does not fit or
 * is no stat line; the open of such a file of p's (as lx_cpus_proc_open). */
struct lx_stat_fields {
	int times;				 /* the times and faults (else the host's) */
	int has_start;				 /* the start too */
	long processor;				 /* -1: the host's */
	unsigned long long utime, cutime, start; /* ticks */
};
size_t lx_task_stat(const char *host, const struct lx_stat_fields *v, char *buf, size_t n);
int lx_task_stat_open(const struct lx_proc *p, const struct x86_cpu *c, int dirfd, const char *path,
		      long flags, long *fd);
/* /proc/stat's "cpu" line of fields f[nf] (user, nice, system, idle, ...
 * in USER_HZ ticks), then one per logical processor of ncpu, each its
 * share, into buf (n bytes): the length, 0 if it does not fit. */
#define LX_STAT_FIELDS 16
size_t lx_cpus_stat_lines(const unsigned long long *f, unsigned nf, unsigned ncpu, char *buf,
			  size_t n);
/* The host's /proc/stat text with those lines for its own; a status
 * text with Cpus_allowed and Cpus_allowed_list telling the set bits of
 * ncpu processors: the length written to buf (n bytes), 0 if it does not
 * fit. */
size_t lx_cpus_proc_stat(const char *host, unsigned ncpu, char *buf, size_t n);
size_t lx_cpus_proc_status(const char *host, uint64_t bits, unsigned ncpu, char *buf, size_t n);
/* vtime_proc.c, under --vtime: 1 if path is /proc/uptime, /proc/loadavg,
 * /proc/meminfo, /proc/stat or /proc/vmstat, with the descriptor of the
 * emulated system's text or -errno in *fd; 0 if the host's file is the
 * guest's.  lx_vtime_proc_file: that text into buf (n bytes), its length;
 * 0 for another path. */
int lx_vtime_proc_open(const struct lx_proc *p, const struct x86_cpu *c, const char *path,
		       long flags, long *fd);
long lx_vtime_proc_file(const struct lx_proc *p, const struct x86_cpu *c, const char *path,
			char *buf, size_t n);
/* cpus_dir.c: path, relative to dirfd (or AT_FDCWD), as an absolute path
 * in full when it may be one of those files (a relative path by its last
 * name): 0, else -1.  lx_cpus_absent: 1 if it names a processor, cache or
 * node the package lacks.  lx_cpus_getdents: the len bytes of
 * linux_dirent64 records getdents64(2) put in buf from directory fd, less
 * the entries the package lacks; the new length (0 when every one went). */
#define LX_CPUS_PATH 320
int lx_cpus_path(int dirfd, const char *path, char full[LX_CPUS_PATH]);
int lx_cpus_absent(const struct x86_cpu *c, int dirfd, const char *path);
long lx_cpus_getdents(const struct x86_cpu *c, int fd, uint8_t *buf, long len);
/* cpus_sys.c: lx_cpus_file() under /sys/devices/system; whether name is
 * one of its files or directories (cpu1, index0) there. */
long lx_cpus_sys(const struct x86_model *m, const char *path, char *buf, size_t n);
int lx_cpus_sys_name(const char *name);
/* cpus.c: thread t's sched_setaffinity set (0: all; the first thread's
 * is in p's slot); that of the run's process pid (all if it has none or
 * is no process of the run). */
uint64_t lx_cpus_of(const struct lx_proc *p, const struct lx_thread *t);
uint64_t lx_cpus_of_pid(const struct lx_proc *p, long pid, uint64_t all);
long lx_cpus_getaffinity(struct lx_proc *p, const struct x86_cpu *c, long pid, uint64_t size,
			 uint64_t mask);
long lx_cpus_setaffinity(struct lx_proc *p, const struct x86_cpu *c, long pid, uint64_t size,
			 uint64_t mask);
long lx_cpus_getcpu(struct lx_proc *p, const struct lx_thread *t, uint64_t cpu, uint64_t node);

/* elf.c */
struct lx_loaded {
	uint64_t entry;	     /* where the first instruction runs */
	uint64_t prog_entry; /* AT_ENTRY */
	uint64_t phdr;	     /* AT_PHDR */
	uint64_t phnum;
	uint64_t interp_base; /* AT_BASE, 0 without interpreter */
	uint64_t brk;	      /* first byte after the program's segments */
};
int lx_check_errno(const char *path, char *msg, size_t msgsz);
int lx_elf_load(struct lx_proc *p, const char *path, struct lx_loaded *out, char *msg,
		size_t msgsz);
/* Record an ELF image in the slot (replacing one at the same start). */
void lx_image_add(struct lx_proc *p, const char *path, uint64_t start, uint64_t end, uint64_t bias);
/* After a file-backed guest mmap at addr of fd at offset off: record it when
 * the file is an ELF object. */
void lx_image_note_mmap(struct lx_proc *p, uint64_t addr, uint64_t len, int fd, uint64_t off);

/* mem.c: memory syscalls */
long lx_sys_mmap(struct lx_proc *p, uint64_t addr, uint64_t len, int prot, int flags, int fd,
		 uint64_t off);
long lx_sys_munmap(struct lx_proc *p, uint64_t addr, uint64_t len);
long lx_sys_mprotect(struct lx_proc *p, uint64_t addr, uint64_t len, int prot);
long lx_sys_mremap(struct lx_proc *p, uint64_t old, uint64_t olen, uint64_t nlen, int flags,
		   uint64_t naddr);
long lx_sys_brk(struct lx_proc *p, uint64_t addr);
/* madvise, mseal, remap_file_pages (nr): on guest memory only */
long lx_sys_range(struct lx_proc *p, long nr, uint64_t addr, uint64_t len, uint64_t a2, uint64_t a3,
		  uint64_t a4);
long lx_sys_shmat(struct lx_proc *p, int id, uint64_t addr, int flags);
long lx_sys_shmdt(struct lx_proc *p, uint64_t addr);
/* Map anonymous memory for the loader/stack at exactly addr. */
int lx_map_fixed(struct lx_proc *p, uint64_t addr, uint64_t len, int prot, int kind);
/* Write-protection of self-modifying code pages. */
void lx_code_hook(void *arg, uint64_t page);
int lx_code_write_fault(struct lx_proc *p, uint64_t addr);
void lx_code_unprotect_all(struct lx_proc *p);

/* signal.c */
void lx_signal_init(struct lx_proc *p);
long lx_sys_rt_sigaction(struct lx_proc *p, int sig, uint64_t act, uint64_t oact, uint64_t sz);
long lx_sys_rt_sigprocmask(struct lx_proc *p, int how, uint64_t set, uint64_t oset, uint64_t sz);
long lx_sys_rt_sigpending(struct lx_proc *p, uint64_t set, uint64_t sz);
long lx_sys_rt_sigsuspend(struct lx_proc *p, uint64_t set, uint64_t sz);
/* rt_sigtimedwait: a pending signal of set taken (its number), or 0 when
 * none is pending and the call is to wait (on the host, or block.c) */
long lx_sys_rt_sigtimedwait(struct lx_proc *p, uint64_t set, uint64_t info, uint64_t sz);
long lx_sys_sigaltstack(struct lx_proc *p, uint64_t ss, uint64_t oss);
long lx_sys_tgkill(struct lx_proc *p, int tgid, int tid, int sig);
/* rt_sigreturn: restores the registers; returns the guest's rax */
long lx_sys_rt_sigreturn(struct lx_proc *p);
/* set the host mask to the current thread's guest mask; or, while every
 * thread waits, to what all of them block (a signal any one of them takes
 * ends the host's wait, and wakes that one) */
void lx_signal_sync_mask(struct lx_proc *p);
void lx_signal_idle_mask(struct lx_proc *p);
/* whether a signal can be delivered to the current thread now */
int lx_signal_pending(struct lx_proc *p);
/* Deliver pending signals to the current thread (frames or death). */
void lx_signal_deliver(struct lx_proc *p);
/* The current thread took a fault (c->fault): run the handler or die. */
void lx_signal_fault(struct lx_proc *p);
/* A wait with a signal mask of its own (pselect6, ppoll, epoll_pwait,
 * epoll_pwait2; arguments a) came back with -EINTR, or is being tried
 * again (block.c): vpmu's handler queued what came while the call's mask
 * was in.  A signal that mask lets through is delivered with it still in
 * place, the thread's own mask coming back after the handler (as for
 * sigsuspend): 1 when there is one (the call returns -EINTR), else 0. */
int lx_signal_wait_mask(struct lx_proc *p, long nr, const uint64_t *a);
/* The signal mask call nr (arguments a) waits with, if it gives its own
 * (pselect6, ppoll, epoll_pwait, epoll_pwait2): 1 with it in *m, else 0. */
int lx_signal_call_mask(struct lx_proc *p, long nr, const uint64_t *a, uint64_t *m);
/* Queue a signal raised inside the process (an emulated timer's) for
 * thread tid, or the process (tid 0), waking the thread from a wait it
 * interrupts: 1 queued, 0 one is pending already (*pending: its siginfo,
 * which this one joins), -1 ignored or no such thread. */
int lx_signal_queue(struct lx_proc *p, int tid, const siginfo_t *si, siginfo_t **pending);
/* A syscall came back with -EINTR: the kernel's restart rules. */
long lx_signal_eintr(struct lx_proc *p, long nr, long res);
/* Die of sig the way the kernel would kill the guest. */
_Noreturn void lx_die(struct lx_proc *p, int sig);
/* sigframe.c */
int lx_frame_setup(struct lx_proc *p, struct lx_thread *t, int sig, const siginfo_t *si);
long lx_frame_return(struct lx_proc *p, struct lx_thread *t);
/* the host signal mask while emulating: guest mask minus the fault signals */
void lx_sigset_from_mask(uint64_t mask, sigset_t *out);

/* thread.c */
struct lx_thread *lx_thread_new(struct lx_proc *p);
long lx_sys_clone_thread(struct lx_proc *p, uint64_t flags, uint64_t stack, uint64_t ptid,
			 uint64_t ctid, uint64_t tls);
long lx_sys_futex(struct lx_proc *p, uint64_t uaddr, int op, uint32_t val, uint64_t ts,
		  uint64_t uaddr2, uint32_t val3);
long lx_sys_sched_yield(struct lx_proc *p);
long lx_sys_nanosleep_mt(struct lx_proc *p, int64_t deadline);
/* exit of the current thread; returns only when other threads remain */
void lx_thread_exit(struct lx_proc *p, int status);
/* pick the thread to run next; waits when every thread is blocked */
void lx_schedule(struct lx_proc *p, int rotate);
int lx_live_threads(const struct lx_proc *p);
int64_t lx_now_ns(void);
/* wake up to n waiters of the emulated futex at uaddr */
int lx_futex_wake(struct lx_proc *p, uint64_t uaddr, int n, uint32_t bitset);

/* process.c */
long lx_sys_fork(struct lx_proc *p, uint64_t flags, uint64_t stack, uint64_t ptid, uint64_t ctid,
		 uint64_t tls);
long lx_sys_execve(struct lx_proc *p, int dirfd, uint64_t path, uint64_t argv, uint64_t envp,
		   int flags);
_Noreturn void lx_exit_group(struct lx_proc *p, int status);
/* take a slot in the shared area for this process */
void lx_take_slot(struct lx_proc *p);

/* Whether path names the process's own executable (/proc/self/exe and
 * the like), which on the host is vpmu. */
int lx_is_self_exe(const char *path, int pid);
/* block.c: the timeout of a poll-like call (poll, ppoll, select, pselect6,
 * epoll_wait, epoll_pwait, epoll_pwait2, rt_sigtimedwait) with arguments
 * a: ns, -1 none (or not such a call), -2 its time cannot be read. */
int64_t lx_poll_timeout(struct lx_proc *p, long nr, const uint64_t *a);
/* 1 when the blocking call nr should be retried on a later turn,
 * -1 when answered already (*res), 0 to make it now */
int lx_block_would_wait(struct lx_proc *p, long nr, const uint64_t *a, long *res);
/* 1 when call nr (arguments a) would wait now if made: for a child, a
 * descriptor (none of those a poll-like call names is ready), a signal
 * or time; 0 when it would return at once */
int lx_block_waits(struct lx_proc *p, long nr, const uint64_t *a);

/* pipe.c: read sizes of pipes between guest processes (--vtime).  The
 * record of a pipe in the shared area (lx_pipes_of(), on the pages after
 * the limits): its identity (0: free), the bytes guest writes put in and
 * guest reads took, and the ends of the last LX_PIPE_ENDS writes (totals
 * written), a ring; lost once an end was overwritten unread. */
#define LX_PIPES 64
#define LX_PIPE_ENDS 512
#define LX_PIPE_PIDS 4
struct lx_pipe {
	uint64_t id, stamp;
	uint64_t written, taken;
	uint64_t nends;
	uint32_t lost;
	/* the last processes that wrote to it and read from it */
	int32_t writer[LX_PIPE_PIDS], reader[LX_PIPE_PIDS];
	uint64_t ends[LX_PIPE_ENDS];
};
struct lx_pipes {
	uint64_t clock;
	struct lx_pipe p[LX_PIPES];
};
#define LX_PIPES_OFF (lx_page_up(sizeof(struct lx_shared)) + lx_page_up(sizeof(struct lx_limits)))
struct lx_pipes *lx_pipes_of(struct lx_shared *sh);
/* Whether process w wrote to a pipe that process r read from. */
int lx_pipe_feeds(struct lx_shared *sh, int w, int r);
/* The least recorded end past taken, 0 if none. */
uint64_t lx_pipe_next_end(const struct lx_pipe *e, uint64_t taken);
/* How much a read of count bytes takes, guest readers having taken taken
 * bytes, with end the next recorded end (0: none), avail bytes in the
 * pipe of size bytes, hup whether its writers are gone: the bytes to
 * read, 0 to wait, -1 to read as the host gives (fewer bytes there than
 * the records say). */
long lx_pipe_want(uint64_t taken, uint64_t end, uint64_t count, long avail, long size, int hup);
/* A read (a: fd, buf, count) of a pipe some guest wrote to: 1 with its
 * result in *r, 0 to make it as the host does. */
int lx_pipe_read(struct lx_proc *p, const struct x86_cpu *c, const uint64_t a[3], long *r);
/* A write (a: fd, buf, count) of more than a page to a pipe: made a page
 * at a time, each end recorded; 1 with its result in *r, else 0. */
int lx_pipe_write(struct lx_proc *p, const struct x86_cpu *c, const uint64_t a[3], long *r);
/* Host call nr (arguments a) came back with r: record a pipe made, a
 * write's end, or what a read took. */
void lx_pipe_done(struct lx_proc *p, long nr, const uint64_t a[6], long r);

/* reap.c: which child a wait for any child reports first (--vtime).
 * lx_reap_forked: the parent forked child pid.
 * lx_reap_stashed: before wait nr (wait4 or waitid, arguments a): 1 with
 * its result in *r (the child's status in *wst) when it reports a child
 * reaped earlier, else 0.
 * lx_reap_order: after the host's wait, which came back with r (*wst as
 * lx_reaped() takes it): a child that ended earlier on the emulated
 * clock, or fed the one reaped through a pipe, is reaped and reported
 * instead (its status in *wst), the others' reports kept in order;
 * returns the wait's result. */
void lx_reap_forked(struct lx_proc *p, int pid);
/* Child pid's latest slot (an exec leaves an older one behind), NULL if
 * it has none yet; whether slot s has marked its process's end; its
 * clock: where its process ended, or how far it has run (-1: no slot). */
const struct lx_slot *lx_reap_slot(const struct lx_proc *p, int pid);
int lx_reap_ended(const struct lx_slot *s);
int64_t lx_reap_clock(const struct lx_slot *s);
/* Wait until no unreaped child may still end before clock t (or at t,
 * forked before place at; t -1: none) and every child marked in f (bits
 * in kids[] order) has ended; or until no child's clock has moved for a
 * fifth of a second. */
void lx_reap_settle(struct lx_proc *p, int64_t t, int at, uint64_t f);
/* One look of lx_reap_settle(), which has waited since host time *since
 * (moved on to now when a child's clock moved): 1 while it would wait on. */
int lx_reap_unsettled(struct lx_proc *p, int64_t t, int at, uint64_t f, int64_t *since);
int lx_reap_stashed(struct lx_proc *p, long nr, const uint64_t a[6], long *r, int *wst);
long lx_reap_order(struct lx_proc *p, long nr, const uint64_t a[6], long r, int *wst);

/* wake.c: a child's end seen when the parent's emulated clock reaches it
 * (--vtime).
 * lx_wake_virtual: whether the process sees them so (one thread, --vtime,
 * SIGCHLD neither ignored nor SA_NOCLDWAIT).
 * lx_wake_pick: before wait nr (arguments a): for a WNOHANG wait, the
 * pid of the child to reap, the first that ended on the parent's clock
 * (to be reaped without WNOHANG: it may not quite have gone), or 0 with
 * the result in *r when none has yet; for a wait that blocks while a
 * report is kept for later (reap.c), a child that ended before that
 * report's child did; -1 when the wait is left to the kept report or the
 * host.
 * lx_wake_sigchld: before sigsuspend or pause waits with signal mask
 * mask: wait for the next child's end on the emulated clock, move the
 * clock on to it and make its SIGCHLD pending; 1 if so, 0 if the wait is
 * not one that SIGCHLD ends (or a signal came first).
 * lx_wake_call: before another call nr (arguments a) that would wait,
 * SIGCHLD able to end it: the same, unless the call can go on first (a
 * descriptor got ready) or, timed, no child ends by its deadline: 1 when
 * the call is then interrupted, 0 to make it, -1 to leave it to hold.c.
 * lx_wake_sleep: before a sleep's host wait until clock d: the same for
 * a child's end by d; 1 when the sleep is then interrupted.
 * lx_wake_look: a child that ended by the clock (after waiting for those
 * that could still end by then) and whose SIGCHLD the process has not had
 * sends it now, if SIGCHLD can come (when the process unblocks it).
 * lx_wake_due: at the main loop's turn: lx_wake_look() every 2^20
 * instructions of the process; returns the instructions it may run
 * before the next look. */
int lx_wake_virtual(const struct lx_proc *p);
int lx_wake_pick(struct lx_proc *p, const struct x86_cpu *c, long nr, const uint64_t a[6], long *r);
int lx_wake_sigchld(struct lx_proc *p, const struct x86_cpu *c, uint64_t mask);
int lx_wake_call(struct lx_proc *p, const struct x86_cpu *c, long nr, const uint64_t *a);
int lx_wake_sleep(struct lx_proc *p, const struct x86_cpu *c, int64_t d);
void lx_wake_look(struct lx_proc *p, const struct x86_cpu *c);
uint64_t lx_wake_due(struct lx_proc *p, const struct x86_cpu *c);

/* hold.c: a child's SIGCHLD held back to the parent's next wait */
/* From the host handler (context uc): 1 when signal sig (info si) is
 * held, else 0. */
int lx_hold_take(struct lx_proc *p, int sig, const siginfo_t *si, const void *uc);
/* Make what is held pending (and leave x86_run); 1 if there was any. */
int lx_hold_release(struct lx_proc *p);
/* Make child pid's SIGCHLD (info si) pending now, in place of any held
 * (the host's SIGCHLD blocked); and whether the guest has had child
 * pid's SIGCHLD, not yet reaped (lx_wake_virtual()). */
void lx_hold_pend(struct lx_proc *p, int pid, const siginfo_t *si);
int lx_hold_given(const struct lx_proc *p, int pid);
/* A wait on the host for a signal (sigsuspend, pause), its signal mask
 * mask, until one is deliverable: a SIGCHLD held meanwhile ends it. */
void lx_hold_suspend(struct lx_proc *p, struct x86_cpu *c, uint64_t mask);
/* Before syscall nr (arguments in c's registers): what is held is
 * released if the call would wait; 1 when the call is then interrupted
 * (-EINTR, as if the signal had come during it), 0 to make it. */
int lx_hold_before(struct lx_proc *p, const struct x86_cpu *c, long nr);
/* Call nr, made (lx_hold_before() gave 0), came back with r: release after
 * a call the signal interrupted. */
void lx_hold_after(struct lx_proc *p, long nr, long r);
/* A wait4 or waitid (nr, arguments a) came back with r (wst: the status
 * a wait4 gave): the SIGCHLD of the child it reaped becomes pending, held
 * or made from the wait's report if the host never sent it (it merged
 * with another's); a wait that reaped none releases all. */
void lx_hold_waited(struct lx_proc *p, long nr, const uint64_t a[6], long r, int wst);
/* The child a wait4 or waitid (nr, arguments a, result r, wst as above)
 * reaped: its pid, and in *si (unless NULL) the SIGCHLD of its end; 0 when
 * it reaped none (a child stopped or continued, or left to be waited for
 * again with WNOWAIT). */
int lx_reaped(struct lx_proc *p, long nr, const uint64_t a[6], long r, int wst, siginfo_t *si);
/* The SIGCHLD of child pid's end, its wait status status (exited or
 * killed). */
siginfo_t lx_child_end(int pid, int status);
/* Instructions the process may run before what is held is released
 * anyway (releasing it when none are left); UINT64_MAX when none held. */
uint64_t lx_hold_budget(struct lx_proc *p, const struct x86_cpu *c);

/* syscall.c */
void lx_syscall(struct x86_cpu *c);

/* timing.c: the timing model of a timed run */
int lx_timing_init(struct lx_proc *p, char *err, size_t errsz);
void lx_timing_attach(struct lx_proc *p, struct lx_thread *t);
/* Thread t, created or woken by the current thread (or its wait ended
 * by a timeout, a signal or a call to try again while the current one
 * ran), starts on its logical processor no earlier than the current
 * thread's clock when no other thread keeps that processor running
 * (--smt). */
void lx_timing_resume(struct lx_proc *p, struct lx_thread *t);
void lx_timing_counts(struct lx_proc *p);
void lx_timing_flush(struct lx_proc *p); /* before the process ends */
void lx_timing_syscall(struct lx_proc *p, struct lx_thread *t, long nr, long result);
/* The timed process's clock on t's logical processor (cycles), going on
 * from the image before an execve. */
uint64_t lx_timing_now(const struct lx_proc *p, const struct lx_thread *t);
void lx_nosys(struct lx_proc *p, uint32_t nr);

/* systrace.c: thread t begins call nr, its arguments in its registers
 * (held in t->sys when the tracer wants it; one that does not return is
 * reported now, one that sends a signal both now and when it returns);
 * t's call held ends with ret; t's call held goes on without a result
 * (execve about to replace the image: a failure still comes to
 * lx_systrace_exit). */
void lx_systrace_enter(struct lx_proc *p, struct lx_thread *t, long nr);
void lx_systrace_exit(struct lx_proc *p, struct lx_thread *t, long ret);
void lx_systrace_noreturn(struct lx_proc *p, struct lx_thread *t);
int64_t lx_systrace_clock(const struct lx_proc *p, const struct lx_thread *t);

/* pair.c: two programs on one core.  lx_pair_slot: take the slot the
 * pair made for this program.  lx_pair_turn: before each block, wait
 * until this program may use the shared model (the one whose processor
 * is behind runs).  lx_pair_leave: the program stops using it (the model
 * is flushed and its counts read).  lx_pair_detach: a forked child, or a
 * program whose execve failed after leaving, goes on on a core of its
 * own. */
struct lx_pair {
	struct uarch_arena arena;   /* first: the model's memory follows (uarch/mem.h) */
	volatile int32_t turn;	    /* the logical processor whose program may run */
	volatile int32_t done[2];   /* the program has left the core */
	volatile int32_t asleep[2]; /* the program waits for its turn in the kernel */
	uint32_t spin;		    /* looks at the turn before sleeping (more than one CPU) */
	uint32_t slot[2];	    /* the programs' slots in the shared area */
	struct uarch *u;	    /* the core */
	void *pmu;		    /* its counter hardware (each process has a copy) */
};
void lx_pair_slot(struct lx_proc *p);
void lx_pair_turn(struct lx_proc *p);
/* Whether p holds the turn and its logical processor's clock is ahead of
 * the other's, which still runs: it hands the turn over before its next
 * block. */
int lx_pair_ahead(const struct lx_proc *p);
void lx_pair_leave(struct lx_proc *p);
void lx_pair_detach(struct lx_proc *p);
struct uarch_machine;
/* timing.c: the machine the shared area names, with its overrides */
int lx_timing_machine(const struct lx_shared *sh, struct uarch_machine *m, char *err, size_t errsz);

/* limits.c: --timeout.  lx_limit_ready: after the host handlers are
 * installed (on) / before an exec replaces them (off). */
void lx_limit_ready(struct lx_proc *p, int on);
int lx_limit_stopping(const struct lx_proc *p);
/* The budget for the next x86_run (at most want); ends the process when
 * the run must stop.  Called between x86_run calls only. */
uint64_t lx_limit_budget(struct lx_proc *p, uint64_t want);
/* End this process because the run stops (between blocks only). */
_Noreturn void lx_limit_end(struct lx_proc *p);
/* From the host handler: 1 when this is the session's stop wake-up. */
int lx_limit_signal(struct lx_proc *p, int sig, const siginfo_t *si);

/* stack.c */
struct lx_stack_args {
	char *const *argv;
	char *const *envp;
	const char *execfn;
	const uint8_t *random; /* 16 bytes */
	uint64_t hwcap, phdr, phnum, base, entry;
	uint64_t uid, euid, gid, egid;
};
/* Build the initial stack below top (guest memory, writable); returns the
 * initial rsp, or 0 when it does not fit in size bytes. */
uint64_t lx_stack_build(uint64_t top, uint64_t size, const struct lx_stack_args *a);
/* random.c: 16 AT_RANDOM bytes from a seed; the random stream of a
 * process (its state from the seed; n bytes of it; a forked child's own), which
 * getrandom(2) serves, and a read(2), pread64(2) or readv(2)-like call
 * (nr) on /dev/random or /dev/urandom: 1 with the result in *ret, or 0
 * when fd is no such device (buf and len are the call's second and third
 * arguments). */
void lx_random_bytes(uint64_t seed, uint8_t out[16]);
void lx_random_init(uint64_t *state, uint64_t seed);
void lx_random_fill(uint64_t *state, void *buf, size_t n);
void lx_random_fork(uint64_t *parent, uint64_t *child);
long lx_sys_getrandom(struct lx_proc *p, uint64_t buf, uint64_t len, uint64_t flags);
int lx_random_read(struct lx_proc *p, long nr, long fd, uint64_t buf, uint64_t len, long *ret);
/* vtime.c: a syscall that reads a clock, answered with emulated time
 * (--vtime): 1 with the result in *ret, or 0 for any other syscall (a[]:
 * its first two arguments). */
int lx_vtime_syscall(struct lx_proc *p, const struct x86_cpu *c, long nr, const uint64_t a[2],
		     long *ret);
/* The guest's clock clk (CLOCK_MONOTONIC or CLOCK_REALTIME) now, in ns:
 * emulated under --vtime, else the host's. */
int64_t lx_clock_ns(const struct lx_proc *p, const struct x86_cpu *c, int clk);
/* The clock the deadlines of timed waits are kept on, now: the emulated
 * one under --vtime (the monotonic clock), else the host's (lx_now_ns()). */
int64_t lx_wait_now(const struct lx_proc *p, const struct x86_cpu *c);
/* A timeout the guest gave, t ns on its clock clk (absolute) or, clk < 0,
 * from now: the deadline on lx_wait_now()'s clock (>= 0). */
int64_t lx_wait_deadline(const struct lx_proc *p, const struct x86_cpu *c, int clk, int64_t t);
/* Time left until deadline (>= 0): how long the host waits for it. */
int64_t lx_wait_left(const struct lx_proc *p, const struct x86_cpu *c, int64_t deadline);
/* Set the emulated monotonic clock to ns (a forked child's or an exec'd
 * image's goes on from its parent's or predecessor's). */
void lx_vtime_set(struct lx_proc *p, const struct x86_cpu *c, int64_t ns);
/* Under --vtime, the process reaped its child pid (wait4, waitid): the
 * child's time and its reaped children's count as its children's time,
 * and a lone thread's clock moves on to the child's end. */
void lx_vtime_reaped(struct lx_proc *p, const struct x86_cpu *c, int pid);
/* Publish the process's clock in its slot (slot.vt_at), for a parent
 * ordering its children's ends (reap.c); until, if later: the clock the
 * process sleeps to before it does anything (-1: none). */
void lx_vtime_publish(struct lx_proc *p, const struct x86_cpu *c, int64_t until);
/* Under --vtime, the rusage (at guest address buf) wait4 or waitid gave
 * of its child pid: the child's time and its reaped children's. */
void lx_vtime_child_rusage(struct lx_proc *p, int pid, uint64_t buf);
/* A SIGCHLD the kernel sent (info si): its child's CPU time on the
 * emulated clock, as a reaped child's. */
void lx_vtime_child_info(const struct lx_proc *p, siginfo_t *si);
/* The process's CPU clock under --vtime: its instructions (and its
 * earlier images'), in ns; and whether clk names it or a thread's. */
int64_t lx_vtime_cpu(const struct lx_proc *p, const struct x86_cpu *c);
/* Whether pid is a process of the run: then its CPU time, its reaped
 * children's and when it began, in ns. */
int lx_vtime_of_pid(const struct lx_proc *p, int pid, int64_t *ran, int64_t *children,
		    int64_t *start);
/* The CPU time of the children the process reaped (times(2)'s cutime). */
int64_t lx_vtime_children(const struct lx_proc *p);
int lx_vtime_cpu_clock(const struct lx_proc *p, long clk);
/* The tid of the thread whose CPU clock clk is (CLOCK_THREAD_CPUTIME_ID:
 * c's thread), 0 if it is no thread's. */
int lx_vtime_clock_tid(const struct lx_proc *p, const struct x86_cpu *c, long clk);
/* Thread tid's CPU time (ns), -1 once it is gone. */
int64_t lx_vtime_thread_cpu(const struct lx_proc *p, const struct x86_cpu *c, int tid);
/* The process waited, none of its threads running, until deadline:
 * under --vtime the emulated clock moves on to it. */
void lx_wait_done(struct lx_proc *p, const struct x86_cpu *c, int64_t deadline);

/* itimer.c: interval timers on the emulated clock (--vtime).
 * lx_itimer_syscall: 1 with the result in *ret for setitimer, getitimer,
 * alarm and the timer_* calls (a[]: their first four arguments), else 0.
 * lx_itimer_budget: instructions the process may run before the next
 * expiry (UINT64_MAX: none armed).  lx_itimer_check: fire the timers
 * due; how many.
 * lx_itimer_next: the next expiry on the wait clock (lx_wait_now()), -1
 * none; lx_itimer_until: the earlier of it and deadline (-1: none), for
 * a lone thread's wait on the host that the expiry ends (the caller
 * fires the timer when the wait reaches it).  lx_itimer_suspend: one
 * wait on the host for a signal, with host mask mask (sigsuspend), to
 * the next expiry at most, whose timer it then fires.
 * lx_itimer_host_arm/disarm: around any other call that may wait on the
 * host, a host timer that interrupts it at that expiry.  lx_itimer_host_signal: from
 * the host handler (uc: its context), 1 when it was that timer.  lx_itimer_init: none
 * armed (a new process, and a forked child, which inherits none). */
int lx_itimer_syscall(struct lx_proc *p, const struct x86_cpu *c, long nr, const uint64_t a[4],
		      long *ret);
uint64_t lx_itimer_budget(const struct lx_proc *p, const struct x86_cpu *c);
int lx_itimer_check(struct lx_proc *p, const struct x86_cpu *c);
int64_t lx_itimer_next(const struct lx_proc *p);
int64_t lx_itimer_until(const struct lx_proc *p, int64_t deadline);
void lx_itimer_suspend(struct lx_proc *p, const struct x86_cpu *c, uint64_t mask);
void lx_itimer_host_arm(struct lx_proc *p, const struct x86_cpu *c);
void lx_itimer_host_disarm(struct lx_proc *p);
int lx_itimer_host_signal(struct lx_proc *p, int sig, const siginfo_t *si, void *uc);
void lx_itimer_init(struct lx_proc *p);
/* Timer tm's time left and interval (the form timer_gettime(2) gives);
 * arm it with v (0: disarm), v's value a time on tm's clock if abs, its
 * setting before in *old (unless NULL): 0, or -EINVAL for a bad time,
 * -ESRCH on the clock of a thread gone. */
void lx_itimer_value(struct lx_proc *p, const struct x86_cpu *c, struct lx_timer *tm,
		     struct itimerspec *v);
long lx_itimer_arm(struct lx_proc *p, const struct x86_cpu *c, struct lx_timer *tm,
		   const struct itimerspec *v, int abs, struct itimerspec *old);
/* setitimer's timers, which an execve keeps: their time left and
 * intervals as vpmu __exec takes them (0 when none is armed), and the
 * exec'd image's, from those figures (ns). */
int lx_itimer_exec_arg(const struct lx_proc *p, const struct x86_cpu *c, char *buf, size_t size);
void lx_itimer_exec_set(struct lx_proc *p, const struct x86_cpu *c,
			const int64_t it[LX_NITIMER][2]);

/* timerfd.c: timerfd_create(2) and the rest on the emulated clock
 * (--vtime).  lx_timerfd_syscall: as lx_itimer_syscall, for
 * timerfd_create, timerfd_settime and timerfd_gettime.
 * lx_timerfd_closed: the guest closed its descriptors lo..hi;
 * lx_timerfd_dup: its descriptor to is now a duplicate of from. */
int lx_timerfd_syscall(struct lx_proc *p, const struct x86_cpu *c, long nr, const uint64_t a[4],
		       long *ret);
void lx_timerfd_closed(struct lx_proc *p, unsigned lo, unsigned hi);
void lx_timerfd_dup(struct lx_proc *p, long from, long to);

#endif
