/* syscall.c — the guest's system calls.  Guest memory is host memory, so
 * most calls go to the host kernel unchanged; the ones that would touch
 * the emulator's own state (memory layout, signals, threads, processes,
 * vpmu's fds) are emulated.  Numbers are x86-64 (arch/x86/entry/syscalls/
 * syscall_64.tbl).  A number this file does not know returns -ENOSYS and
 * is recorded in the slot's nosys[] (reported with -v).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/close_range.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <sched.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "lx_proc.h"

/* In assembly, so that the host handler can tell a wait the call was in
 * when the signal came (lx_host_syscall_ret: the address after it). */
__asm__(".text\n"
	".globl lx_host_syscall\n"
	".type lx_host_syscall, @function\n"
	"lx_host_syscall:\n"
	"\tmov %rdi, %rax\n"
	"\tmov %rsi, %rdi\n"
	"\tmov %rdx, %rsi\n"
	"\tmov %rcx, %rdx\n"
	"\tmov %r8, %r10\n"
	"\tmov %r9, %r8\n"
	"\tmov 8(%rsp), %r9\n"
	"\tsyscall\n"
	".globl lx_host_syscall_ret\n"
	"lx_host_syscall_ret:\n"
	"\tret\n"
	".size lx_host_syscall, .-lx_host_syscall\n");

int lx_host_syscall_interrupted(const void *uc)
{
	const ucontext_t *u = uc;

	return u->uc_mcontext.gregs[REG_RIP] == (greg_t)(uintptr_t)lx_host_syscall_ret &&
	       u->uc_mcontext.gregs[REG_RAX] == -EINTR;
}

int lx_copy_in(struct lx_proc *p, void *dst, uint64_t src, size_t n)
{
	if (sigsetjmp(p->guard_jb, 0)) {
		p->guard = 0;
		return -EFAULT;
	}
	p->guard = 1;
	memcpy(dst, (const void *)src, n);
	p->guard = 0;
	return 0;
}

int lx_copy_out(struct lx_proc *p, uint64_t dst, const void *src, size_t n)
{
	if (sigsetjmp(p->guard_jb, 0)) {
		p->guard = 0;
		return -EFAULT;
	}
	p->guard = 1;
	memcpy((void *)dst, src, n);
	p->guard = 0;
	return 0;
}

/* Returns the length, -EFAULT, or -ENAMETOOLONG (buf then holds a prefix). */
int lx_copy_str(struct lx_proc *p, char *buf, uint64_t src, size_t bufsz)
{
	volatile size_t i = 0;

	if (!src)
		return -EFAULT;
	if (sigsetjmp(p->guard_jb, 0)) {
		p->guard = 0;
		return -EFAULT;
	}
	p->guard = 1;
	for (; i < bufsz; i++) {
		buf[i] = ((const char *)src)[i];
		if (!buf[i])
			break;
	}
	p->guard = 0;
	if (i == bufsz) {
		buf[bufsz - 1] = 0;
		return -ENAMETOOLONG;
	}
	return (int)i;
}

void lx_nosys(struct lx_proc *p, uint32_t nr)
{
	struct lx_slot *s = p->slot;
	int i;

	if (!s)
		return;
	for (i = 0; i < s->nnosys; i++)
		if (s->nosys[i].nr == nr)
			break;
	if (i == s->nnosys) {
		if (i >= LX_MAX_NOSYS)
			return;
		s->nosys[i].nr = nr;
		s->nosys[i].count = 0;
		s->nnosys++;
	}
	s->nosys[i].count++;
}

/* ---- small emulations ----------------------------------------------------- */

/* vpmu's own descriptors (the shared area, the sample channel): closed
 * as far as the guest can tell. */
static int is_own_fd(struct lx_proc *p, long fd)
{
	return fd == p->cfg->shared_fd || (p->sh->sample_fd >= 0 && fd == p->sh->sample_fd);
}

/* Whether directory fd is a listing of the process's descriptors
 * (/proc/self/fd, /proc/self/fdinfo and the like). */
static int lists_fds(struct lx_proc *p, long fd)
{
	char link[64], path[64], mine[32];
	long n;

	snprintf(link, sizeof(link), "/proc/self/fd/%ld", fd);
	n = lx_host_syscall(89, (long)link, (long)path, sizeof(path) - 1, 0, 0, 0);
	if (n <= 0)
		return 0;
	path[n] = 0;
	snprintf(mine, sizeof(mine), "/proc/%d/", p->pid);
	return !strncmp(path, mine, strlen(mine)) && ((n >= 3 && !strcmp(path + n - 3, "/fd")) ||
						      (n >= 7 && !strcmp(path + n - 7, "/fdinfo")));
}

/* getdents64 or getdents (nr) read n bytes of directory fd into buf: the
 * entries of vpmu's own descriptors taken out; the bytes left. */
static long hide_own_fds(struct lx_proc *p, long nr, long fd, uint64_t buf, long n)
{
	/* linux_dirent64 and linux_dirent: ino, off, reclen, then (64) the type */
	const size_t name_at = nr == 217 ? 19 : 18;
	uint8_t *b = (uint8_t *)buf, *prev = NULL;
	long at = 0;

	if (!lists_fds(p, fd))
		return n;
	while (at < n) {
		uint8_t *e = b + at;
		uint16_t len;
		char *end;
		long v;

		memcpy(&len, e + 16, 2);
		if (len < name_at + 1 || at + len > n)
			break;
		v = strtol((const char *)e + name_at, &end, 10);
		if (*end || end == (char *)e + name_at || !is_own_fd(p, v)) {
			prev = e;
			at += len;
			continue;
		}
		if (prev)
			memcpy(prev + 8, e + 8, 8); /* the previous entry's d_off goes past it */
		memmove(e, e + len, (size_t)(n - at - len));
		n -= len;
	}
	return n;
}

static long sys_close_range(struct lx_proc *p, unsigned first, unsigned last, int flags)
{
	unsigned own[2] = { (unsigned)p->cfg->shared_fd, (unsigned)p->sh->sample_fd };
	uint64_t lo = first;
	long r = 0;

	if (first > last)
		return -EINVAL;
	if (p->sh->sample_fd < 0)
		own[1] = own[0];
	if (own[1] < own[0]) {
		unsigned t = own[0];
		own[0] = own[1];
		own[1] = t;
	}
	/* close the ranges between vpmu's descriptors */
	for (int i = 0; i < 2 && !r; i++) {
		if (own[i] < lo || own[i] > last)
			continue;
		if (own[i] > lo)
			r = lx_host_syscall(436, (long)lo, own[i] - 1, flags, 0, 0, 0);
		lo = (uint64_t)own[i] + 1;
	}
	if (!r && lo <= last)
		r = lx_host_syscall(436, (long)lo, last, flags, 0, 0, 0);
	return r;
}

int lx_is_self_exe(const char *path, int pid)
{
	char mine[32];

	if (!strcmp(path, "/proc/self/exe") || !strcmp(path, "/proc/thread-self/exe"))
		return 1;
	snprintf(mine, sizeof(mine), "/proc/%d/exe", pid);
	return !strcmp(path, mine);
}

static long sys_readlinkat(struct lx_proc *p, int dirfd, uint64_t gpath, uint64_t buf,
			   uint64_t size, long nr)
{
	char path[64];
	size_t n;

	if (lx_copy_str(p, path, gpath, sizeof(path)) < 0 || !lx_is_self_exe(path, p->pid))
		return nr == 89 ? lx_host_syscall(89, (long)gpath, (long)buf, (long)size, 0, 0, 0) :
				  lx_host_syscall(267, dirfd, (long)gpath, (long)buf, (long)size, 0,
						  0);
	if ((long)size <= 0)
		return -EINVAL;
	n = strlen(p->exe);
	if (n > size)
		n = size;
	return lx_copy_out(p, buf, p->exe, n) ? -EFAULT : (long)n;
}

/* An open of gpath the emulator answers itself (the running image, the
 * emulated package's files, the emulated clock's /proc files, the /proc
 * files that list processors): 1 with the descriptor or -errno in *fd. */
static int own_open(struct lx_proc *p, const struct x86_cpu *c, int dirfd, uint64_t gpath,
		    long flags, long mode, long *fd)
{
	char path[128];

	if (lx_copy_str(p, path, gpath, sizeof(path)) < 0)
		return 0;
	if (lx_is_self_exe(path, p->pid)) {
		*fd = lx_host_syscall(257, AT_FDCWD, (long)p->exe, flags, mode, 0, 0);
		return 1;
	}
	return lx_cpus_openat(c, dirfd, path, flags, fd) ||
	       lx_vtime_proc_open(p, c, path, flags, fd) ||
	       lx_cpus_proc_open(p, c, dirfd, path, flags, fd) ||
	       lx_task_stat_open(p, c, dirfd, path, flags, fd);
}

static long sys_openat(struct lx_proc *p, const struct x86_cpu *c, int dirfd, uint64_t gpath,
		       long flags, long mode)
{
	long fd;

	if (own_open(p, c, dirfd, gpath, flags, mode, &fd))
		return fd;
	return lx_host_syscall(257, dirfd, (long)gpath, flags, mode, 0, 0);
}

/* openat2(2): the same, when it asks for no special resolution (struct
 * open_how: flags, mode, resolve); the rest is the host's. */
static long sys_openat2(struct lx_proc *p, const struct x86_cpu *c, int dirfd, uint64_t gpath,
			uint64_t ghow, uint64_t size)
{
	uint64_t how[3];
	long fd;

	if (size >= sizeof(how) && !lx_copy_in(p, how, ghow, sizeof(how)) && !how[2] &&
	    own_open(p, c, dirfd, gpath, (long)how[0], (long)how[1], &fd))
		return fd;
	return lx_host_syscall(437, dirfd, (long)gpath, (long)ghow, (long)size, 0, 0);
}

/* Whether a stat(2) or access(2) of gpath (relative to dirfd) asks for a
 * processor, cache or node the emulated package lacks (cpus_dir.c). */
static int cpus_absent(struct lx_proc *p, const struct x86_cpu *c, int dirfd, uint64_t gpath)
{
	char path[128];

	/* (fstat is newfstatat of "") */
	return lx_copy_str(p, path, gpath, sizeof(path)) >= 0 && path[0] &&
	       lx_cpus_absent(c, dirfd, path);
}

static long sys_arch_prctl(struct lx_proc *p, struct x86_cpu *c, long code, uint64_t addr)
{
	uint64_t v;

	switch (code) {
	case 0x1001: /* ARCH_SET_GS */
		c->seg_base[X86_SEG_GS] = addr;
		return 0;
	case 0x1002: /* ARCH_SET_FS */
		c->seg_base[X86_SEG_FS] = addr;
		return 0;
	case 0x1003: /* ARCH_GET_FS */
	case 0x1004: /* ARCH_GET_GS */
		v = c->seg_base[code == 0x1003 ? X86_SEG_FS : X86_SEG_GS];
		return lx_copy_out(p, addr, &v, 8) ? -EFAULT : 0;
	case 0x1011: /* ARCH_GET_CPUID: cpuid is always enabled */
		return 1;
	default:
		return -EINVAL;
	}
}

static long sys_clone3(struct lx_proc *p, uint64_t uargs, uint64_t size)
{
	struct clone_args a;

	memset(&a, 0, sizeof(a));
	if (size < 64 || size > 4096)
		return -EINVAL;
	if (lx_copy_in(p, &a, uargs, size < sizeof(a) ? size : sizeof(a)))
		return -EFAULT;
	if (a.set_tid || a.set_tid_size || a.cgroup || (a.flags & CLONE_PIDFD))
		return -EINVAL;
	uint64_t stack = a.stack ? a.stack + a.stack_size : 0;
	uint64_t flags = a.flags | (a.exit_signal & 0xff);

	if (flags & CLONE_THREAD)
		return lx_sys_clone_thread(p, flags, stack, a.parent_tid, a.child_tid, a.tls);
	return lx_sys_fork(p, flags, stack, a.parent_tid, a.child_tid, a.tls);
}

static long sys_nanosleep(struct lx_proc *p, long nr, long clk, long flags, uint64_t req,
			  uint64_t rem)
{
	struct x86_cpu *c = &lx_cur(p)->cpu;
	int ours = clk == CLOCK_MONOTONIC || clk == CLOCK_REALTIME;
	int abs = (flags & TIMER_ABSTIME) != 0;
	struct timespec t;
	int64_t d, left;
	long r;

	if (!ours || (lx_live_threads(p) <= 1 && !p->cfg->vtime)) {
		if (nr == 35)
			return lx_host_syscall(35, (long)req, (long)rem, 0, 0, 0, 0);
		return lx_host_syscall(230, clk, flags, (long)req, (long)rem, 0, 0);
	}
	if (lx_copy_in(p, &t, req, sizeof(t)))
		return -EFAULT;
	if (t.tv_sec < 0 || (uint64_t)t.tv_nsec >= 1000000000)
		return -EINVAL;
	d = lx_wait_deadline(p, c, abs ? (int)clk : -1, (int64_t)t.tv_sec * 1000000000 + t.tv_nsec);
	if (lx_live_threads(p) > 1)
		return lx_sys_nanosleep_mt(p, d);
	/* alone, under --vtime: the host sleeps the time left, to the
	 * expiry of a timer first if one comes before (itimer.c), whose
	 * signal ends the sleep, or to a child's end before it, whose
	 * SIGCHLD does (wake.c); one the host sent meanwhile stays held */
	for (;;) {
		int64_t until = lx_itimer_until(p, d);

		if (lx_wake_sleep(p, c, until)) {
			r = -EINTR;
		} else {
			left = lx_wait_left(p, c, until);
			t.tv_sec = left / 1000000000;
			t.tv_nsec = left % 1000000000;
			lx_vtime_publish(p, c, until); /* (a parent need not wait for it to wake) */
			r = lx_host_syscall(35, (long)&t, 0, 0, 0, 0, 0);
			if (r == -EINTR && !lx_signal_pending(p) && lx_wake_virtual(p))
				continue;
		}
		if (!r)
			lx_wait_done(p, c, until);
		if (!r && until == d)
			return 0;
		if (!r && !(lx_itimer_check(p, c) && lx_signal_pending(p)))
			continue;
		if (!abs && rem) {
			/* the time left on the emulated clock */
			left = lx_wait_left(p, c, d);
			t.tv_sec = left / 1000000000;
			t.tv_nsec = left % 1000000000;
			if (lx_copy_out(p, rem, &t, sizeof(t)))
				return -EFAULT;
		}
		return r ? r : -EINTR;
	}
}

/* The child a wait4 or waitid (nr, arguments a, result r) told of,
 * reaped or not: its pid; 0 when none (or waitid had no siginfo). */
static int waited(struct lx_proc *p, long nr, const uint64_t *a, long r)
{
	siginfo_t si;

	if (nr == 61)
		return r > 0 ? (int)r : 0;
	if (r || !a[2] || lx_copy_in(p, &si, a[2], sizeof(si)))
		return 0;
	return si.si_pid;
}

/* Syscalls the host may not run for the guest: they would change vpmu's
 * own state in ways the emulation cannot follow. */
static int refused(long nr)
{
	switch (nr) {
	case 134: /* uselib */
	case 154: /* modify_ldt */
	case 172: /* iopl */
	case 173: /* ioperm */
	case 205: /* set_thread_area */
	case 211: /* get_thread_area */
	case 219: /* restart_syscall */
	case 317: /* seccomp: would filter vpmu's own calls */
	case 453: /* map_shadow_stack */
		return 1;
	}
	/* removed or never implemented on x86-64 */
	return nr < 0 || (nr >= 174 && nr <= 185 && nr != 179) || nr == 156 || nr == 214 ||
	       nr == 215 || nr == 236 || (nr > 335 && nr < 424) || nr > 462;
}

static long dispatch(struct lx_proc *p, struct x86_cpu *c, long nr)
{
	uint64_t a0 = c->r[X86_RDI], a1 = c->r[X86_RSI], a2 = c->r[X86_RDX];
	uint64_t a3 = c->r[X86_R10], a4 = c->r[X86_R8], a5 = c->r[X86_R9];
	struct lx_thread *t = c->os;
	long r;

	lx_vtime_publish(p, c, -1);
	if (p->cfg->vtime &&
	    (lx_vtime_syscall(p, c, nr, (const uint64_t[2]){ a0, a1 }, &r) ||
	     lx_itimer_syscall(p, c, nr, (const uint64_t[4]){ a0, a1, a2, a3 }, &r) ||
	     lx_timerfd_syscall(p, c, nr, (const uint64_t[4]){ a0, a1, a2, a3 }, &r)))
		return r;
	switch (nr) {
	case 3: /* close */
		if (is_own_fd(p, (long)a0))
			return -EBADF;
		r = lx_host_syscall(3, (long)a0, 0, 0, 0, 0, 0);
		if (r == 0)
			lx_timerfd_closed(p, (unsigned)a0, (unsigned)a0);
		return r;
	case 9:
		return lx_sys_mmap(p, a0, a1, (int)a2, (int)a3, (int)a4, a5);
	case 10:
		return lx_sys_mprotect(p, a0, a1, (int)a2);
	case 11:
		return lx_sys_munmap(p, a0, a1);
	case 12:
		return lx_sys_brk(p, a0);
	case 13:
		return lx_sys_rt_sigaction(p, (int)a0, a1, a2, a3);
	case 14: {
		const uint64_t was = t->blocked;
		r = lx_sys_rt_sigprocmask(p, (int)a0, a1, a2, a3);
		if (was & ~t->blocked & LX_SIGBIT(SIGCHLD))
			lx_wake_look(p, c); /* (an end it held back comes now) */
		return r;
	}
	case 15:
		return lx_frame_return(p, t);
	case 24:
		return lx_sys_sched_yield(p);
	case 25:
		return lx_sys_mremap(p, a0, a1, a2, (int)a3, a4);
	case 28:  /* madvise */
	case 216: /* remap_file_pages */
	case 462: /* mseal */
		return lx_sys_range(p, nr, a0, a1, a2, a3, a4);
	case 30:
		return lx_sys_shmat(p, (int)a0, a1, (int)a2);
	case 67:
		return lx_sys_shmdt(p, a0);
	case 32: /* dup */
	case 72: /* fcntl */
	case 81: /* fchdir */
		if (is_own_fd(p, (long)a0))
			return -EBADF;
		break;
	case 33:  /* dup2 */
	case 292: /* dup3 */
		if (is_own_fd(p, (long)a0) || is_own_fd(p, (long)a1))
			return -EBADF;
		r = lx_host_syscall(nr, (long)a0, (long)a1, (long)a2, 0, 0, 0);
		if (r >= 0 && a0 != a1) { /* what a1 was is closed */
			lx_timerfd_closed(p, (unsigned)a1, (unsigned)a1);
			lx_timerfd_dup(p, (long)a0, r);
		}
		return r;
	case 34: { /* pause: sigsuspend with the current mask */
		uint64_t m = t->blocked,
			 hm = m & ~(LX_SIGBIT(SIGSEGV) | LX_SIGBIT(SIGBUS) | LX_SIGBIT(SIGFPE) |
				    LX_SIGBIT(SIGILL) | LX_SIGBIT(SIGTRAP));
		if (!lx_wake_sigchld(p, c, m))
			lx_hold_suspend(p, c, hm);
		return -EINTR;
	}
	case 35:
		return sys_nanosleep(p, nr, CLOCK_MONOTONIC, 0, a0, a1);
	case 230:
		return sys_nanosleep(p, nr, (long)a0, (long)a1, a2, a3);
	case 56: /* clone */
		if ((a0 & (CLONE_VM | CLONE_THREAD)) == (CLONE_VM | CLONE_THREAD))
			return lx_sys_clone_thread(p, a0, a1, a2, a3, a4);
		return lx_sys_fork(p, a0, a1, a2, a3, a4);
	case 57: /* fork */
	case 58: /* vfork: a fork here */
		return lx_sys_fork(p, 0, 0, 0, 0, 0);
	case 59:
		return lx_sys_execve(p, AT_FDCWD, a0, a1, a2, 0);
	case 322:
		return lx_sys_execve(p, (int)a0, a1, a2, a3, (int)a4);
	case 435:
		return sys_clone3(p, a0, a1);
	case 318:
		return lx_sys_getrandom(p, a0, a1, a2);
	case 0: /* read, pread64, readv, preadv, preadv2 */
	case 17:
	case 19:
	case 295:
	case 327:
		if (lx_random_read(p, nr, (long)a0, a1, a2, &r))
			return r;
		break;
	case 60:
		lx_thread_exit(p, (int)a0);
		return 0;
	case 231:
		lx_exit_group(p, (int)a0);
	case 89:
		return sys_readlinkat(p, AT_FDCWD, a0, a1, a2, nr);
	case 267:
		return sys_readlinkat(p, (int)a0, a1, a2, a3, nr);
	case 2:
		return sys_openat(p, c, AT_FDCWD, a0, (long)a1, (long)a2);
	case 4:	 /* stat */
	case 6:	 /* lstat */
	case 21: /* access */
		if (cpus_absent(p, c, AT_FDCWD, a0))
			return -ENOENT;
		break;
	case 262: /* newfstatat */
	case 269: /* faccessat */
	case 332: /* statx */
	case 439: /* faccessat2 */
		if (cpus_absent(p, c, (int)a0, a1))
			return -ENOENT;
		break;
	case 257:
		return sys_openat(p, c, (int)a0, a1, (long)a2, (long)a3);
	case 437:
		return sys_openat2(p, c, (int)a0, a1, a2, a3);
	case 203:
		return lx_cpus_setaffinity(p, c, (long)a0, a1, a2);
	case 204:
		return lx_cpus_getaffinity(p, c, (long)a0, a1, a2);
	case 309:
		return lx_cpus_getcpu(p, t, a0, a1);
	case 127:
		return lx_sys_rt_sigpending(p, a0, a1);
	case 128:
		if ((r = lx_sys_rt_sigtimedwait(p, a0, a1, a3)))
			return r;
		break; /* none pending: the call waits, as the others below */
	case 130:
		return lx_sys_rt_sigsuspend(p, a0, a1);
	case 131:
		return lx_sys_sigaltstack(p, a0, a1);
	case 157: /* prctl */
		/* PR_SET_MM would move vpmu's own brk and stack bounds */
		if (a0 == PR_SET_SECCOMP || a0 == PR_SET_MM)
			return -EINVAL;
		break;
	case 158:
		return sys_arch_prctl(p, c, (long)a0, a1);
	case 186:
		return t->tid;
	case 200:
		return lx_sys_tgkill(p, -1, (int)a0, (int)a1);
	case 234:
		return lx_sys_tgkill(p, (int)a0, (int)a1, (int)a2);
	case 202:
		return lx_sys_futex(p, a0, (int)a1, (uint32_t)a2, a3, a4, (uint32_t)a5);
	case 218:
		t->clear_tid = a0;
		return t->tid;
	case 273:
		if (a1 != 24)
			return -EINVAL;
		t->robust_list = a0;
		t->robust_len = a1;
		return 0;
	case 274: /* get_robust_list */
		if (a0 && (int)a0 != t->tid)
			return -ESRCH;
		if (lx_copy_out(p, a1, &t->robust_list, 8) || lx_copy_out(p, a2, &t->robust_len, 8))
			return -EFAULT;
		return 0;
	/* The processor has no protection keys (CPUID reports no PKU), so
	 * the kernel has only key 0, taken from the start: pkey_alloc finds
	 * none free, pkey_free frees none, and pkey_mprotect is mprotect for
	 * key 0 or -1 (mm/mprotect.c, arch/x86/include/asm/pkeys.h). */
	case 329: /* pkey_mprotect */
		if ((int)a3 != -1 && (int)a3 != 0)
			return -EINVAL;
		return lx_sys_mprotect(p, a0, a1, (int)a2);
	case 101: /* ptrace: the host's would trace the emulator's own process
		   * (its registers, its system calls), not the program; as under
		   * a kernel that allows no tracing (Yama's ptrace_scope 3) */
		return -EPERM;
	case 298: { /* perf_event_open */
		/* The counter hardware is the emulated machine's, which vpmu
		 * drives; the host's would count the emulator's own process.
		 * As on a virtual machine without a virtual PMU, the kernel
		 * has no hardware, cache or raw events, nor breakpoints (the
		 * host's debug registers) or another PMU's; its software
		 * events and tracepoints are the host kernel's, as its clocks
		 * are without --vtime. */
		uint32_t type;
		if (lx_copy_in(p, &type, a0, sizeof(type)))
			return -EFAULT;
		if (type != PERF_TYPE_SOFTWARE && type != PERF_TYPE_TRACEPOINT)
			return -ENOENT;
		break;
	}
	case 330: /* pkey_alloc */
		return a0 || a1 > 3 ? -EINVAL : -ENOSPC;
	case 331: /* pkey_free */
		return -EINVAL;
	case 334: /* rseq: libc then does without */
		return -ENOSYS;
	case 436:
		r = sys_close_range(p, (unsigned)a0, (unsigned)a1, (int)a2);
		if (r == 0 && !((int)a2 & CLOSE_RANGE_CLOEXEC))
			lx_timerfd_closed(p, (unsigned)a0, (unsigned)a1);
		return r;
	default:
		break;
	}
	if (refused(nr)) {
		lx_nosys(p, (uint32_t)nr);
		return -ENOSYS;
	}
	const uint64_t a[6] = { a0, a1, a2, a3, a4, a5 };
	int64_t until = -1; /* --vtime: when a poll-like call times out */
	if (p->cfg->vtime && (until = lx_poll_timeout(p, nr, a)) >= 0)
		until = t->io_waiting ? t->io_deadline : lx_wait_deadline(p, c, -1, until);
	if (p->nth > 1) {
		int w = lx_block_would_wait(p, nr, a, &r);

		if (w < 0)
			return r;
		if (w > 0) {
			/* give the turn away; the syscall runs again later */
			t->yield = 1;
			c->stop = 1;
			c->rip -= 2;
			return nr;
		}
	}
	if ((nr == 0 && lx_pipe_read(p, c, a, &r)) || (nr == 1 && lx_pipe_write(p, c, a, &r)))
		return r;
	int wst = 0; /* a wait4's status, also when the guest asks for none (hold.c) */
	uint64_t h[6] = { a0, a1, a2, a3, a4, a5 }; /* the host's call */
	int pick = -1;
	if ((nr == 61 || nr == 247) && (pick = lx_wake_pick(p, c, nr, a, &r)) == 0)
		goto waited;
	if (pick > 0) { /* that child, which has ended */
		h[0] = nr == 61 ? (uint64_t)pick : P_PID;
		h[1] = nr == 61 ? h[1] : (uint64_t)pick;
		h[nr == 61 ? 2 : 3] &= ~(uint64_t)WNOHANG;
	} else if ((nr == 61 || nr == 247) && lx_reap_stashed(p, nr, a, &r, &wst)) {
		goto waited;
	}
	if (nr == 61 && !h[1])
		h[1] = (uint64_t)(uintptr_t)&wst;
	lx_itimer_host_arm(p, c); /* a wait on the host ends at the next emulated expiry */
	if (p->cfg->vtime && p->slot)
		__atomic_store_n(&p->slot->vt_wait,
				 (nr == 61 || nr == 247) && !(h[nr == 61 ? 2 : 3] & WNOHANG) ?
					 LX_VT_KIDS :
					 LX_VT_HOST,
				 __ATOMIC_RELEASE);
	do
		r = lx_host_syscall(nr, (long)h[0], (long)h[1], (long)h[2], (long)h[3], (long)h[4],
				    (long)h[5]);
	/* (a wait for a child, or one that times out, that a SIGCHLD held
	 * back cut short goes on: the signal comes when the wait reaps its
	 * child, or at the child's end on the emulated clock, wake.c) */
	while (r == -EINTR && (nr == 61 || nr == 247 || until >= 0) && !lx_signal_pending(p) &&
	       lx_wake_virtual(p));
	if (p->cfg->vtime && p->slot)
		__atomic_store_n(&p->slot->vt_wait, LX_VT_RUN, __ATOMIC_RELEASE);
	lx_itimer_host_disarm(p);
	if (r == -EFAULT && p->mm.nwprot) {
		/* the kernel cannot write to pages we write-protected for
		 * self-modifying code detection: release them and retry */
		lx_code_unprotect_all(p);
		r = lx_host_syscall(nr, (long)h[0], (long)h[1], (long)h[2], (long)h[3], (long)h[4],
				    (long)h[5]);
	}
	lx_pipe_done(p, nr, a, r);
	if (nr == 61 && r > 0 && a[1])
		lx_copy_in(p, &wst, a[1], sizeof(wst));
	if (nr == 61 || nr == 247)
		r = lx_reap_order(p, nr, pick > 0 ? h : a, r, &wst); /* (the child picked stays) */
waited:
	if (nr == 61 || nr == 247)
		lx_hold_waited(p, nr, a, r, wst);
	if (nr == 32 || (nr == 72 && ((int)a1 == F_DUPFD || (int)a1 == F_DUPFD_CLOEXEC)))
		lx_timerfd_dup(p, (long)a0, r); /* a timerfd's duplicate keeps it */
	if ((!r || (nr == 128 && r == -EAGAIN)) && until >= 0)
		lx_wait_done(p, c, until); /* it timed out: the clock stands there */
	if (p->cfg->vtime && (nr == 61 || nr == 247)) {
		lx_vtime_child_rusage(p, waited(p, nr, a, r), nr == 61 ? a[3] : a[4]);
		lx_vtime_reaped(p, c, lx_reaped(p, nr, a, r, wst, NULL));
	}
	if ((nr == 217 || nr == 78) && r > 0) {
		/* a read of /proc/self/fd shows the guest's descriptors only,
		 * one of /sys/devices/system what the emulated package has;
		 * one that showed nothing else reads on */
		long n = hide_own_fds(p, nr, (long)a0, a1, r);
		if (n && nr == 217)
			n = lx_cpus_getdents(c, (int)a0, (uint8_t *)a1, n);
		if (!n)
			return dispatch(p, c, nr);
		r = n;
	}
	if (r == -EINTR)
		lx_signal_wait_mask(p, nr, a);
	return r;
}

void lx_syscall(struct x86_cpu *c)
{
	struct lx_thread *t = c->os;
	struct lx_proc *p = t->p;
	long nr = (long)c->r[X86_RAX], r;

	if (lx_itimer_check(p, c) && lx_signal_pending(p)) {
		/* a timer went off in the block before the call: its signal
		 * comes first, the call after the handler */
		c->rip -= 2;
		c->stop = 1;
		return;
	}
	c->cnt->syscalls++;
	lx_systrace_enter(p, t, nr);
	/* (cut short before it is made, the call has given the signal that
	 * cut it: nothing more held comes with its -EINTR) */
	const int cut = lx_hold_before(p, c, nr);
	r = cut ? -EINTR : dispatch(p, c, nr);
	if (nr == 15)
		return; /* rt_sigreturn restored rax with everything else */
	const long result = r;
	if (!cut)
		lx_hold_after(p, nr, r);
	if (r == -EINTR && lx_signal_eintr(p, nr, r)) {
		/* restart: the syscall instruction runs again after any
		 * handler, as the kernel's -ERESTARTSYS does */
		c->rip -= 2;
		r = nr;
	}
	c->r[X86_RAX] = (uint64_t)r;
	lx_timing_syscall(p, t, nr, result);
	lx_systrace_exit(p, t, result);
	if (lx_signal_pending(p))
		c->stop = 1;
}
