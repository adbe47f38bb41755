/* systab_arg.c — a system call's argument as perf trace prints it: the
 * flags and the numbers that name something decoded by the host's
 * headers (the guest's, both x86-64 Linux), strings quoted. */
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "systab.h"
#include "systab_priv.h"

struct flag {
	uint64_t bit;
	const char *name;
};

/* Flags as NAME|NAME, what no name covers as hex after them. */
static void put_flags(struct systab_out *o, uint64_t v, const struct flag *f, size_t nf)
{
	const char *sep = "";

	for (size_t k = 0; k < nf; k++) {
		if (f[k].bit && (v & f[k].bit) == f[k].bit) {
			systab_put(o, "%s%s", sep, f[k].name);
			v &= ~f[k].bit;
			sep = "|";
		}
	}
	if (v || !*sep)
		systab_put(o, "%s%#llx", sep, (unsigned long long)v);
}

/* (a name whose bits include another's comes first: SYNC has DSYNC's,
 * TMPFILE DIRECTORY's) */
static const struct flag open_flags[] = {
	{ O_WRONLY, "WRONLY" },	    { O_RDWR, "RDWR" },		{ O_CREAT, "CREAT" },
	{ O_EXCL, "EXCL" },	    { O_NOCTTY, "NOCTTY" },	{ O_TRUNC, "TRUNC" },
	{ O_APPEND, "APPEND" },	    { O_NONBLOCK, "NONBLOCK" }, { O_SYNC, "SYNC" },
	{ O_DSYNC, "DSYNC" },	    { O_DIRECT, "DIRECT" },	{ O_LARGEFILE, "LARGEFILE" },
	{ O_NOFOLLOW, "NOFOLLOW" }, { O_NOATIME, "NOATIME" },	{ O_CLOEXEC, "CLOEXEC" },
	{ O_PATH, "PATH" },	    { O_TMPFILE, "TMPFILE" },	{ O_DIRECTORY, "DIRECTORY" },
	{ FASYNC, "ASYNC" },
};

static const struct flag map_flags[] = {
	{ MAP_SHARED, "SHARED" },
	{ MAP_PRIVATE, "PRIVATE" },
	{ MAP_FIXED, "FIXED" },
	{ MAP_ANONYMOUS, "ANONYMOUS" },
	{ MAP_32BIT, "32BIT" },
	{ MAP_GROWSDOWN, "GROWSDOWN" },
	{ MAP_DENYWRITE, "DENYWRITE" },
	{ MAP_EXECUTABLE, "EXECUTABLE" },
	{ MAP_LOCKED, "LOCKED" },
	{ MAP_NORESERVE, "NORESERVE" },
	{ MAP_POPULATE, "POPULATE" },
	{ MAP_NONBLOCK, "NONBLOCK" },
	{ MAP_STACK, "STACK" },
	{ MAP_HUGETLB, "HUGETLB" },
	{ MAP_FIXED_NOREPLACE, "FIXED_NOREPLACE" },
};

static const struct flag prot_flags[] = {
	{ PROT_READ, "READ" },		 { PROT_WRITE, "WRITE" },     { PROT_EXEC, "EXEC" },
	{ PROT_GROWSDOWN, "GROWSDOWN" }, { PROT_GROWSUP, "GROWSUP" },
};

static const struct flag at_flags[] = {
	{ AT_SYMLINK_NOFOLLOW, "SYMLINK_NOFOLLOW" }, { AT_SYMLINK_FOLLOW, "SYMLINK_FOLLOW" },
	{ AT_NO_AUTOMOUNT, "NO_AUTOMOUNT" },	     { AT_EMPTY_PATH, "EMPTY_PATH" },
	{ AT_STATX_FORCE_SYNC, "STATX_FORCE_SYNC" }, { AT_STATX_DONT_SYNC, "STATX_DONT_SYNC" },
};

static const struct flag unlinkat_flags[] = { { AT_REMOVEDIR, "REMOVEDIR" } };

static const struct flag access_flags[] = { { R_OK, "R" }, { W_OK, "W" }, { X_OK, "X" } };

static const struct flag clone_flags[] = {
	{ CLONE_VM, "VM" },
	{ CLONE_FS, "FS" },
	{ CLONE_FILES, "FILES" },
	{ CLONE_SIGHAND, "SIGHAND" },
	{ CLONE_PIDFD, "PIDFD" },
	{ CLONE_PTRACE, "PTRACE" },
	{ CLONE_VFORK, "VFORK" },
	{ CLONE_PARENT, "PARENT" },
	{ CLONE_THREAD, "THREAD" },
	{ CLONE_NEWNS, "NEWNS" },
	{ CLONE_SYSVSEM, "SYSVSEM" },
	{ CLONE_SETTLS, "SETTLS" },
	{ CLONE_PARENT_SETTID, "PARENT_SETTID" },
	{ CLONE_CHILD_CLEARTID, "CHILD_CLEARTID" },
	{ CLONE_DETACHED, "DETACHED" },
	{ CLONE_UNTRACED, "UNTRACED" },
	{ CLONE_CHILD_SETTID, "CHILD_SETTID" },
	{ CLONE_NEWCGROUP, "NEWCGROUP" },
	{ CLONE_NEWUTS, "NEWUTS" },
	{ CLONE_NEWIPC, "NEWIPC" },
	{ CLONE_NEWUSER, "NEWUSER" },
	{ CLONE_NEWPID, "NEWPID" },
	{ CLONE_NEWNET, "NEWNET" },
	{ CLONE_IO, "IO" },
};

#define NFLAGS(f) (sizeof(f) / sizeof((f)[0]))

/* A number's name in a table of them (NULL: none). */
static const char *name_of(uint64_t v, const struct flag *t, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (t[k].bit == v)
			return t[k].name;
	return NULL;
}

static const struct flag whence_names[] = {
	{ SEEK_SET, "SET" },   { SEEK_CUR, "CUR" },   { SEEK_END, "END" },
	{ SEEK_DATA, "DATA" }, { SEEK_HOLE, "HOLE" },
};

static const struct flag fcntl_names[] = {
	{ F_DUPFD, "DUPFD" },
	{ F_GETFD, "GETFD" },
	{ F_SETFD, "SETFD" },
	{ F_GETFL, "GETFL" },
	{ F_SETFL, "SETFL" },
	{ F_GETLK, "GETLK" },
	{ F_SETLK, "SETLK" },
	{ F_SETLKW, "SETLKW" },
	{ F_SETOWN, "SETOWN" },
	{ F_GETOWN, "GETOWN" },
	{ F_SETSIG, "SETSIG" },
	{ F_GETSIG, "GETSIG" },
	{ F_SETOWN_EX, "SETOWN_EX" },
	{ F_GETOWN_EX, "GETOWN_EX" },
	{ F_OFD_GETLK, "OFD_GETLK" },
	{ F_OFD_SETLK, "OFD_SETLK" },
	{ F_OFD_SETLKW, "OFD_SETLKW" },
	{ F_SETLEASE, "SETLEASE" },
	{ F_GETLEASE, "GETLEASE" },
	{ F_NOTIFY, "NOTIFY" },
	{ F_DUPFD_CLOEXEC, "DUPFD_CLOEXEC" },
	{ F_SETPIPE_SZ, "SETPIPE_SZ" },
	{ F_GETPIPE_SZ, "GETPIPE_SZ" },
	{ F_ADD_SEALS, "ADD_SEALS" },
	{ F_GET_SEALS, "GET_SEALS" },
};

static const struct flag futex_names[] = {
	{ FUTEX_WAIT, "WAIT" },
	{ FUTEX_WAKE, "WAKE" },
	{ FUTEX_FD, "FD" },
	{ FUTEX_REQUEUE, "REQUEUE" },
	{ FUTEX_CMP_REQUEUE, "CMP_REQUEUE" },
	{ FUTEX_WAKE_OP, "WAKE_OP" },
	{ FUTEX_LOCK_PI, "LOCK_PI" },
	{ FUTEX_UNLOCK_PI, "UNLOCK_PI" },
	{ FUTEX_TRYLOCK_PI, "TRYLOCK_PI" },
	{ FUTEX_WAIT_BITSET, "WAIT_BITSET" },
	{ FUTEX_WAKE_BITSET, "WAKE_BITSET" },
	{ FUTEX_WAIT_REQUEUE_PI, "WAIT_REQUEUE_PI" },
	{ FUTEX_CMP_REQUEUE_PI, "CMP_REQUEUE_PI" },
	{ 13, "LOCK_PI2" }, /* FUTEX_LOCK_PI2, Linux 5.14 */
};

static const struct flag clock_names[] = {
	{ CLOCK_REALTIME, "REALTIME" },
	{ CLOCK_MONOTONIC, "MONOTONIC" },
	{ CLOCK_PROCESS_CPUTIME_ID, "PROCESS_CPUTIME_ID" },
	{ CLOCK_THREAD_CPUTIME_ID, "THREAD_CPUTIME_ID" },
	{ CLOCK_MONOTONIC_RAW, "MONOTONIC_RAW" },
	{ CLOCK_REALTIME_COARSE, "REALTIME_COARSE" },
	{ CLOCK_MONOTONIC_COARSE, "MONOTONIC_COARSE" },
	{ CLOCK_BOOTTIME, "BOOTTIME" },
	{ CLOCK_REALTIME_ALARM, "REALTIME_ALARM" },
	{ CLOCK_BOOTTIME_ALARM, "BOOTTIME_ALARM" },
	{ CLOCK_TAI, "TAI" },
};

static const struct flag sighow_names[] = {
	{ SIG_BLOCK, "BLOCK" },
	{ SIG_UNBLOCK, "UNBLOCK" },
	{ SIG_SETMASK, "SETMASK" },
};

static const struct flag archprctl_names[] = {
	{ ARCH_SET_GS, "SET_GS" }, { ARCH_SET_FS, "SET_FS" },	    { ARCH_GET_FS, "GET_FS" },
	{ ARCH_GET_GS, "GET_GS" }, { ARCH_GET_CPUID, "GET_CPUID" }, { ARCH_SET_CPUID, "SET_CPUID" },
};

/* perf trace's names: LOCAL for AF_UNIX (include/linux/socket.h) */
static const struct flag family_names[] = {
	{ AF_UNSPEC, "UNSPEC" },
	{ AF_UNIX, "LOCAL" },
	{ AF_INET, "INET" },
	{ AF_AX25, "AX25" },
	{ AF_IPX, "IPX" },
	{ AF_APPLETALK, "APPLETALK" },
	{ AF_X25, "X25" },
	{ AF_INET6, "INET6" },
	{ AF_KEY, "KEY" },
	{ AF_NETLINK, "NETLINK" },
	{ AF_PACKET, "PACKET" },
	{ AF_RDS, "RDS" },
	{ AF_PPPOX, "PPPOX" },
	{ AF_LLC, "LLC" },
	{ AF_IB, "IB" },
	{ AF_MPLS, "MPLS" },
	{ AF_CAN, "CAN" },
	{ AF_TIPC, "TIPC" },
	{ AF_BLUETOOTH, "BLUETOOTH" },
	{ AF_ALG, "ALG" },
	{ AF_NFC, "NFC" },
	{ AF_VSOCK, "VSOCK" },
	{ AF_KCM, "KCM" },
	{ AF_QIPCRTR, "QIPCRTR" },
	{ AF_SMC, "SMC" },
	{ AF_XDP, "XDP" },
};

/* The terminal and file requests programs make (asm-generic/ioctls.h) */
static const struct flag ioctl_names[] = {
	{ TCGETS, "TCGETS" },	      { TCSETS, "TCSETS" },	      { TCSETSW, "TCSETSW" },
	{ TCSETSF, "TCSETSF" },	      { TCGETA, "TCGETA" },	      { TCSETA, "TCSETA" },
	{ TCSBRK, "TCSBRK" },	      { TCXONC, "TCXONC" },	      { TCFLSH, "TCFLSH" },
	{ TIOCEXCL, "TIOCEXCL" },     { TIOCNXCL, "TIOCNXCL" },	      { TIOCSCTTY, "TIOCSCTTY" },
	{ TIOCGPGRP, "TIOCGPGRP" },   { TIOCSPGRP, "TIOCSPGRP" },     { TIOCOUTQ, "TIOCOUTQ" },
	{ TIOCSTI, "TIOCSTI" },	      { TIOCGWINSZ, "TIOCGWINSZ" },   { TIOCSWINSZ, "TIOCSWINSZ" },
	{ TIOCMGET, "TIOCMGET" },     { FIONREAD, "FIONREAD" },	      { TIOCLINUX, "TIOCLINUX" },
	{ TIOCNOTTY, "TIOCNOTTY" },   { TIOCGSID, "TIOCGSID" },	      { TIOCGPTN, "TIOCGPTN" },
	{ TIOCSPTLCK, "TIOCSPTLCK" }, { TIOCGPTPEER, "TIOCGPTPEER" }, { FIONBIO, "FIONBIO" },
	{ FIONCLEX, "FIONCLEX" },     { FIOCLEX, "FIOCLEX" },	      { FIOASYNC, "FIOASYNC" },
	{ FIOQSIZE, "FIOQSIZE" },
};

static const struct flag socktype_names[] = {
	{ SOCK_STREAM, "STREAM" }, { SOCK_DGRAM, "DGRAM" },	    { SOCK_RAW, "RAW" },
	{ SOCK_RDM, "RDM" },	   { SOCK_SEQPACKET, "SEQPACKET" }, { SOCK_DCCP, "DCCP" },
	{ SOCK_PACKET, "PACKET" },
};

static const struct flag sockflag_names[] = {
	{ SOCK_CLOEXEC, "CLOEXEC" },
	{ SOCK_NONBLOCK, "NONBLOCK" },
};

/* The kinds whose value names something, 0 too: their tables. */
static int named_kind(unsigned kind, const struct flag **t, size_t *n)
{
	switch (kind) {
	case SYSTAB_A_WHENCE:
		*t = whence_names, *n = NFLAGS(whence_names);
		return 1;
	case SYSTAB_A_FCNTL:
		*t = fcntl_names, *n = NFLAGS(fcntl_names);
		return 1;
	case SYSTAB_A_CLOCK:
		*t = clock_names, *n = NFLAGS(clock_names);
		return 1;
	case SYSTAB_A_SIGHOW:
		*t = sighow_names, *n = NFLAGS(sighow_names);
		return 1;
	case SYSTAB_A_ARCHPRCTL:
		*t = archprctl_names, *n = NFLAGS(archprctl_names);
		return 1;
	case SYSTAB_A_FAMILY:
		*t = family_names, *n = NFLAGS(family_names);
		return 1;
	default:
		return 0;
	}
}

/* A string the call reads, quoted, with what would break the line
 * escaped. */
static void put_str(struct systab_out *o, const char *s)
{
	systab_put(o, "\"");
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			systab_put(o, "\\%c", ch);
		else if (ch == '\n')
			systab_put(o, "\\n");
		else if (ch < 0x20 || ch == 0x7f)
			systab_put(o, "\\%03o", ch);
		else
			systab_put(o, "%c", ch);
	}
	systab_put(o, "\"");
}

void systab_put_arg(struct systab_out *o, unsigned kind, unsigned bits, uint64_t v, const char *str)
{
	const char *sig, *name;
	const struct flag *table;
	size_t ntable;

	if (bits == 32) /* (the high half of the register is not the argument's) */
		v = kind == SYSTAB_A_INT || kind == SYSTAB_A_FD || kind == SYSTAB_A_SIG ||
				    kind == SYSTAB_A_CLOCK || kind == SYSTAB_A_SIGHOW ?
			    (uint64_t)(int64_t)(int32_t)v :
			    (uint32_t)v;

	if (named_kind(kind, &table, &ntable)) {
		name = name_of(v, table, ntable);
		if (name)
			systab_put(o, "%s", name);
		else
			systab_put(o, "%lld", (long long)(int64_t)v);
		return;
	}
	switch (kind) {
	case SYSTAB_A_INT:
		systab_put(o, "%lld", (long long)v);
		break;
	case SYSTAB_A_UINT:
		systab_put(o, "%llu", (unsigned long long)v);
		break;
	case SYSTAB_A_STR:
		if (str)
			put_str(o, str);
		else /* unreadable: the pointer */
			systab_put(o, "%#llx", (unsigned long long)v);
		break;
	case SYSTAB_A_SOCKADDR:
		if (str)
			systab_put(o, "%s", str);
		else
			systab_put(o, "%#llx", (unsigned long long)v);
		break;
	case SYSTAB_A_HEX:
	case SYSTAB_A_PTR:
		systab_put(o, "%#llx", (unsigned long long)v);
		break;
	case SYSTAB_A_FD:
		if ((int)v == AT_FDCWD)
			systab_put(o, "CWD");
		else
			systab_put(o, "%d", (int)v);
		break;
	case SYSTAB_A_OPEN:
		if (!(v & O_ACCMODE))
			systab_put(o, "RDONLY%s", v ? "|" : "");
		if (v)
			put_flags(o, v, open_flags, NFLAGS(open_flags));
		break;
	case SYSTAB_A_MAPF:
		put_flags(o, v, map_flags, NFLAGS(map_flags));
		break;
	case SYSTAB_A_PROT:
		if (!v)
			systab_put(o, "NONE");
		else
			put_flags(o, v, prot_flags, NFLAGS(prot_flags));
		break;
	case SYSTAB_A_MODE:
		systab_put(o, "%#llo", (unsigned long long)v);
		break;
	case SYSTAB_A_FUTEX:
		name = name_of(v & FUTEX_CMD_MASK, futex_names, NFLAGS(futex_names));
		if (name)
			systab_put(o, "%s", name);
		else
			systab_put(o, "%#llx", (unsigned long long)(v & FUTEX_CMD_MASK));
		if (v & FUTEX_PRIVATE_FLAG)
			systab_put(o, "|PRIVATE_FLAG");
		if (v & FUTEX_CLOCK_REALTIME)
			systab_put(o, "|CLOCK_REALTIME");
		break;
	case SYSTAB_A_ACCESS:
		if (!v)
			systab_put(o, "F");
		else
			put_flags(o, v, access_flags, NFLAGS(access_flags));
		break;
	case SYSTAB_A_CLONE:
		/* the flags, then the signal sent to the parent at the end */
		put_flags(o, v & ~(uint64_t)CSIGNAL, clone_flags, NFLAGS(clone_flags));
		sig = (v & CSIGNAL) ? sigabbrev_np((int)(v & CSIGNAL)) : NULL;
		if (sig)
			systab_put(o, "|%s", sig);
		else if (v & CSIGNAL)
			systab_put(o, "|%llu", (unsigned long long)(v & CSIGNAL));
		break;
	case SYSTAB_A_ATFLAGS:
		put_flags(o, v, at_flags, NFLAGS(at_flags));
		break;
	case SYSTAB_A_IOCTL: /* (a request is a number with bits: hex when unnamed) */
		name = name_of(v, ioctl_names, NFLAGS(ioctl_names));
		if (name)
			systab_put(o, "%s", name);
		else
			systab_put(o, "%#llx", (unsigned long long)v);
		break;
	case SYSTAB_A_SOCKTYPE:
		name = name_of(v & 0xf, socktype_names, NFLAGS(socktype_names));
		if (name)
			systab_put(o, "%s", name);
		else
			systab_put(o, "%llu", (unsigned long long)(v & 0xf));
		if (v & ~0xfull) {
			systab_put(o, "|");
			put_flags(o, v & ~0xfull, sockflag_names, NFLAGS(sockflag_names));
		}
		break;
	case SYSTAB_A_UNLINKAT:
		put_flags(o, v, unlinkat_flags, NFLAGS(unlinkat_flags));
		break;
	default: /* SYSTAB_A_SIG */
		sig = v > 0 && v < 65 ? sigabbrev_np((int)v) : NULL;
		if (sig)
			systab_put(o, "%s", sig);
		else
			systab_put(o, "%lld", (long long)v);
		break;
	}
}

int systab_shows_zero(unsigned kind)
{
	const struct flag *table;
	size_t ntable;

	return kind == SYSTAB_A_FD || kind == SYSTAB_A_STR || kind == SYSTAB_A_OPEN ||
	       kind == SYSTAB_A_PROT || kind == SYSTAB_A_FUTEX || kind == SYSTAB_A_ACCESS ||
	       kind == SYSTAB_A_IOCTL || kind == SYSTAB_A_SOCKTYPE ||
	       named_kind(kind, &table, &ntable);
}
