/* recwire.h — what guest processes send the recording parent through the
 * sample channel (a pipe shared by every process of the guest's tree).
 *
 * Each message is one write() of at most RECW_MAX bytes, so messages of
 * processes writing at once never interleave (PIPE_BUF), and everything a
 * process wrote before it died is still read.  Host byte order: both ends
 * are the same vpmu binary. */
#ifndef VPMU_RECWIRE_H
#define VPMU_RECWIRE_H

#include <stdint.h>

#define RECW_MAX 4096	   /* PIPE_BUF on Linux */
#define RECW_MAX_CHAIN 127 /* frames per call chain (perf's default max stack) */

enum recw_type {
	RECW_SAMPLE = 1,
	RECW_COMM = 2,
	RECW_LOST = 3,
	RECW_MMAP = 4,
	RECW_INTERVAL = 5,
	RECW_SYSCALL = 6,
};

struct recw_hdr {
	uint16_t type, len; /* len: bytes of the whole message */
};

struct recw_sample {
	struct recw_hdr h;
	uint32_t evsel, pid, tid, cpu;
	uint64_t ip, time, period;
	uint64_t addr; /* data address (RECW_F_ADDR) */
	uint8_t flags; /* RECW_F_* */
	uint8_t nregs;
	uint16_t nchain;
	uint16_t nraw;	 /* bytes of the machine's record after the chain (ProfileMe) */
	uint16_t nbr;	 /* branch stack entries after the record (8-aligned), newest first */
	uint32_t weight; /* latency in cycles (RECW_F_WEIGHT) */
	uint32_t skid;	 /* instructions from trigger_ip to ip (RECW_F_TRIGGER) */
	uint8_t dsrc;	 /* where its loads found their data, UARCH_DSRC_* (RECW_F_DSRC) */
	uint8_t pad2[3];
	uint64_t trigger_ip; /* the instruction whose count raised the sample (RECW_F_TRIGGER) */
	uint64_t regs[18];
	uint64_t chain[]; /* nchain entries, then nraw bytes */
};
#define RECW_MAX_RAW 256
#define RECW_MAX_BR 16 /* ARCH_MAX_BRANCHES */
struct recw_branch {
	uint64_t from, to, flags; /* flags: SFILE_BR_* */
};
/* Where the branch entries start: after the chain and the record, rounded
 * up to 8 bytes. */
#define RECW_BR_OFFSET(m) ((sizeof(*(m)) + (m)->nchain * 8u + (m)->nraw + 7u) & ~(size_t)7u)
#define RECW_F_ADDR 1u
#define RECW_F_KERNEL 2u
#define RECW_F_PRECISE 4u
#define RECW_F_WEIGHT 8u
#define RECW_F_TRIGGER 16u
#define RECW_F_DSRC 32u

struct recw_comm {
	struct recw_hdr h;
	uint32_t pid, tid;
	char name[256]; /* NUL-terminated */
};

/* An ELF image of the process, sent before the first sample that may
 * fall in it (readers resolve samples in file order, as perf's do). */
struct recw_mmap {
	struct recw_hdr h;
	uint32_t pid;
	uint32_t flags; /* RECW_MMAP_FIRST: the process's images start over (vpmu trace) */
	uint64_t start, end, bias;
	char path[256]; /* NUL-terminated */
};

#define RECW_MMAP_FIRST 1u

struct recw_lost {
	struct recw_hdr h;
	uint32_t evsel, pad;
	uint64_t count;
};

/* vpmu stat -I: what one process counted in interval `index` of emulated
 * time (cycles [index * length, (index + 1) * length)) since its previous
 * message: the counts of the session's events and, multiplexed, their
 * enabled and running cycles.  A process's messages add up to its final
 * counts, so the intervals of every process add up to the run's. */
#define RECW_MAX_IVAL 64
struct recw_interval {
	struct recw_hdr h;
	uint32_t n, pad; /* events */
	uint64_t index;
	uint64_t val[RECW_MAX_IVAL], ena[RECW_MAX_IVAL], run[RECW_MAX_IVAL];
};

_Static_assert(sizeof(struct recw_interval) <= RECW_MAX, "interval fits");
_Static_assert(sizeof(struct recw_sample) + RECW_MAX_CHAIN * 8 + RECW_MAX_RAW + 8 +
			       RECW_MAX_BR * sizeof(struct recw_branch) <=
		       RECW_MAX,
	       "sample fits");

/* vpmu trace: a system call of a guest thread (core/systrace.h). */
#define RECW_MAX_STR 1000 /* bytes of a string argument kept, its NUL included */
struct recw_syscall {
	struct recw_hdr h;
	uint32_t pid, tid;
	int32_t nr;
	uint8_t noreturn;   /* told before it is made: no result (exit, an execve, a kill) */
	uint8_t host_clock; /* start and dur are the host's monotonic clock's */
	uint16_t nstr;	    /* bytes of strings after the chain */
	uint64_t a[6];
	int64_t ret;
	int64_t start, dur; /* ns */
	char comm[16];	    /* the program's name, NUL-terminated */
	uint16_t nchain;    /* return addresses after the struct (--call-graph) */
	uint16_t pad[3];
	/* then the call chain: nchain addresses, innermost first, the call's
	 * return address the first; then, for each string argument of the
	 * call (systab_strings()), in order: 1 and the string with its NUL,
	 * or 0 where it was not readable */
	uint64_t chain[];
};

#endif
