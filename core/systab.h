/* systab.h — the x86-64 Linux system calls by number: their names, their
 * arguments' names and how `vpmu trace` prints a call and its result
 * (core/systab_data.h, generated from the kernel's own descriptions). */
#ifndef VPMU_SYSTAB_H
#define VPMU_SYSTAB_H

#include <stddef.h>
#include <stdint.h>

#define SYSTAB_MAX 512 /* numbers below this are looked up */

/* How an argument is printed. */
enum systab_kind {
	SYSTAB_A_INT,	   /* signed decimal */
	SYSTAB_A_UINT,	   /* unsigned decimal */
	SYSTAB_A_HEX,	   /* flags, addresses: 0x... */
	SYSTAB_A_PTR,	   /* a pointer to memory: 0x... */
	SYSTAB_A_STR,	   /* a path or name the call reads: "..." */
	SYSTAB_A_FD,	   /* a file descriptor (AT_FDCWD as CWD) */
	SYSTAB_A_OPEN,	   /* open(2)'s flags: RDONLY|CLOEXEC */
	SYSTAB_A_MAPF,	   /* mmap(2)'s flags: PRIVATE|ANONYMOUS */
	SYSTAB_A_PROT,	   /* memory protection: READ|WRITE */
	SYSTAB_A_MODE,	   /* permission bits, octal */
	SYSTAB_A_SIG,	   /* a signal number: TERM */
	SYSTAB_A_SOCKADDR, /* a socket address the call reads, its length the
			    * next argument: { .family: INET, port: 80, ... } */
	/* numbers that name something, 0 too (printed even when 0) */
	SYSTAB_A_WHENCE,    /* lseek's: SET, CUR, END */
	SYSTAB_A_FCNTL,	    /* fcntl's command: GETFD */
	SYSTAB_A_FUTEX,	    /* futex's operation: WAIT|PRIVATE_FLAG */
	SYSTAB_A_CLOCK,	    /* a clock: MONOTONIC */
	SYSTAB_A_SIGHOW,    /* rt_sigprocmask's: BLOCK, UNBLOCK, SETMASK */
	SYSTAB_A_ARCHPRCTL, /* arch_prctl's option: SET_FS */
	SYSTAB_A_ACCESS,    /* access's mode: F, or R|W|X */
	SYSTAB_A_FAMILY,    /* a socket's address family: INET, LOCAL */
	SYSTAB_A_IOCTL,	    /* an ioctl request: TCGETS (others in hex) */
	/* flags */
	SYSTAB_A_CLONE,	   /* clone's: THREAD|...|signal */
	SYSTAB_A_ATFLAGS,  /* the *at calls': EMPTY_PATH|SYMLINK_NOFOLLOW */
	SYSTAB_A_UNLINKAT, /* unlinkat's: REMOVEDIR */
	SYSTAB_A_SOCKTYPE, /* a socket's type: STREAM|CLOEXEC */
};

struct systab_call {
	const char *name;
	uint8_t ret_hex; /* the result is an address (mmap, brk) */
	int8_t nargs;	 /* -1: not known (all six are printed) */
	struct {
		uint8_t kind; /* enum systab_kind */
		uint8_t bits; /* 32: the low half of the register (an int) */
		const char *name;
	} arg[6];
};

/* Call nr, or NULL for a number no call has. */
const struct systab_call *systab_call(long nr);
/* The number of the call named name, or -1. */
long systab_find(const char *name);
/* The call's name, or "syscall_NR" in buf for a number no call has. */
const char *systab_name(long nr, char *buf, size_t n);
/* The name of a call closest to word (a typo's), or NULL. */
const char *systab_closest(const char *word);
/* The arguments of call nr that are strings it reads, a bit each, and
 * socket addresses, which travel as their text (systab_format_sockaddr). */
unsigned systab_strings(long nr);
/* Socket address sa (len bytes, as the call was given it) as perf trace
 * prints it into buf: its length (truncated to n - 1), or 0 when len is
 * too short to hold a family. */
size_t systab_format_sockaddr(char *buf, size_t n, const void *sa, size_t len);
/* "name(arg: value, ...)" into buf: arguments of value 0 are left out
 * but file descriptors, strings, open flags and protections; str[k] is
 * argument k's string, or its socket address's text, when it is one
 * (NULL: unreadable, printed as the pointer).  Returns the length
 * written (truncated to n - 1). */
size_t systab_format_call(char *buf, size_t n, long nr, const uint64_t a[6],
			  const char *const str[6]);
/* The result as perf trace prints it: a number, an address, or
 * "-1 ENOENT (No such file or directory)". */
size_t systab_format_ret(char *buf, size_t n, long nr, int64_t ret);

#endif
