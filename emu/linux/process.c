/* process.c — the guest process's life: its slot in the shared area,
 * fork (a host fork; the child keeps emulating), execve (vpmu re-executes
 * itself on the new image), and exit.
 *
 * execve becomes a host execve of /proc/self/exe (vpmu) with the hidden
 * command, the guest's environment as the environment:
 *
 *   vpmu __exec --shared-fd N --seed S [-v]
 *               [--vtime --vtime-base NS --vtime-cpu NS [--vtime-itimers T]]
 *               -- PATH ARGV0 ARGS...
 *
 * (the machine and its parameters travel in the shared area)
 *
 * N is the shared area's fd (not close-on-exec), PATH the file the guest
 * named (cmd/exec.c parses this and calls lx_main; #! scripts are
 * interpreted there, as the kernel would).  The host signal mask is set to
 * the guest's first, and ignored signals are already SIG_IGN on the host,
 * so the new image inherits both as execve(2) says.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lx_proc.h"

#define LX_ARG_MAX (2 * 1024 * 1024) /* what execve(2) accepts in total */

static void point_counts(struct lx_proc *p)
{
	struct x86_counts *cnt = p->slot ? &p->slot->cnt : &p->own_cnt;

	for (int i = 0; i < p->nth; i++)
		p->th[i]->cpu.cnt = cnt;
	lx_timing_counts(p);
}

void lx_take_slot(struct lx_proc *p)
{
	uint32_t i = __atomic_fetch_add(&p->sh->next, 1, __ATOMIC_SEQ_CST);

	p->slot = NULL;
	if (i < LX_MAX_SLOTS) {
		p->slot = &p->sh->slot[i];
		memset(p->slot, 0, sizeof(*p->slot));
		p->slot->pid = p->pid;
		p->slot->ppid = (int32_t)lx_host_syscall(110, 0, 0, 0, 0, 0, 0); /* getppid */
		p->slot->cpus = p->nth ? p->th[0]->cpus : 0;
		p->slot->state = LX_SLOT_RUNNING;
	}
	point_counts(p);
}

_Noreturn void lx_exit_group(struct lx_proc *p, int status)
{
	x86_count_current_block(&lx_cur(p)->cpu);
	lx_timing_flush(p);
	lx_vtime_publish(p, &lx_cur(p)->cpu, -1);
	if (p->slot) {
		p->slot->status = status & 0xff;
		p->slot->state = LX_SLOT_EXITED;
	}
	_exit(status & 0xff);
}

long lx_sys_fork(struct lx_proc *p, uint64_t flags, uint64_t stack, uint64_t ptid, uint64_t ctid,
		 uint64_t tls)
{
	struct lx_thread *t = lx_cur(p);
	struct lx_shared *old = p->sh;
	int64_t now = lx_wait_now(p, &t->cpu);
	uint64_t rng;
	pid_t pid;

	lx_random_fork(&p->rng, &rng);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid > 0) {
		int32_t v = pid;

		if (flags & CLONE_PARENT_SETTID)
			lx_copy_out(p, ptid, &v, 4);
		lx_reap_forked(p, pid);
		return pid;
	}
	/* child: only the calling thread survives (fork(2)) */
	p->pid = getpid();
	p->rng = rng;
	for (int i = 0; i < p->nth; i++)
		if (p->th[i] != t)
			free(p->th[i]);
	p->th[0] = t;
	p->nth = 1;
	p->cur = 0;
	t->tid = p->pid;
	p->next_tid = p->pid + 1;
	t->state = LX_T_RUN;
	t->pend.set = 0;
	p->pend.set = 0;
	p->held = 0;
	p->nheld = 0;
	p->held_seen = 0;
	memset(p->told, 0, sizeof(p->told));
	p->nkids = p->nstash = p->kids_lost = 0;
	p->wake_at = 0;
	memset(p->given, 0, sizeof(p->given));
	lx_itimer_init(p);
	t->ran = 0; /* the child's CPU clocks start at zero, counted in its own slot */
	p->turn_from = 0;
	p->vt_cpu_base = 0;
	/* x86_run still holds the parent's counts pointer for this block:
	 * map the area again for ourselves and turn the old view into a
	 * private copy, so that stale update lands nowhere */
	p->sh = lx_shared_map(p->cfg->shared_fd);
	if (p->sh) {
		mmap(old, sizeof(*old), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED,
		     p->cfg->shared_fd, 0);
		struct lx_slot *ps = p->slot;

		lx_take_slot(p);
		lx_limit_ready(p, 1); /* the handlers came with the fork */
		if (p->slot && ps) {
			int n = ps->nimages;

			memcpy(p->slot->image, ps->image, sizeof(ps->image));
			p->slot->nimages = n;
		}
	} else {
		p->sh = old;
		p->slot = NULL;
		point_counts(p);
	}
	if (p->cfg->vtime) {
		lx_vtime_set(p, &t->cpu, now); /* the clock goes on from the fork */
		t->vt_start = now;
		if (p->slot)
			p->slot->vt_start = now;
	}
	t->cpu.stop = 1; /* leave x86_run so it picks up the new counts */
	if (stack)
		t->cpu.r[X86_RSP] = stack;
	if (flags & CLONE_SETTLS)
		t->cpu.seg_base[X86_SEG_FS] = tls;
	if (flags & CLONE_CHILD_SETTID) {
		int32_t v = p->pid;

		lx_copy_out(p, ctid, &v, 4);
	}
	t->clear_tid = flags & CLONE_CHILD_CLEARTID ? ctid : 0;
	return 0;
}

/* Copy a NULL-terminated guest array of strings into a malloc'd vector
 * (strings and pointers in one block, NULL-terminated). */
static char **copy_vec(struct lx_proc *p, uint64_t gv, long *err)
{
	size_t n = 0, bytes = 0;
	uint64_t ptr;
	char **v, *s;

	*err = 0;
	if (!gv) {
		v = calloc(1, sizeof(*v));
		if (!v)
			*err = -ENOMEM;
		return v;
	}
	for (;; n++) {
		char buf[4096];

		if (lx_copy_in(p, &ptr, gv + n * 8, 8)) {
			*err = -EFAULT;
			return NULL;
		}
		if (!ptr)
			break;
		/* length in pieces: guest strings may be long */
		for (uint64_t off = 0;; off += sizeof(buf) - 1) {
			int r = lx_copy_str(p, buf, ptr + off, sizeof(buf));

			if (r == -EFAULT) {
				*err = -EFAULT;
				return NULL;
			}
			if (r >= 0) {
				bytes += off + (size_t)r + 1;
				break;
			}
		}
		if (bytes + n * 8 > LX_ARG_MAX) {
			*err = -E2BIG;
			return NULL;
		}
	}
	v = malloc((n + 1) * sizeof(*v) + bytes);
	if (!v) {
		*err = -ENOMEM;
		return NULL;
	}
	s = (char *)(v + n + 1);
	for (size_t i = 0; i < n; i++) {
		size_t len;

		lx_copy_in(p, &ptr, gv + i * 8, 8);
		len = strnlen((const char *)ptr, bytes);
		memcpy(s, (const char *)ptr, len);
		s[len] = 0;
		v[i] = s;
		s += len + 1;
	}
	v[n] = NULL;
	return v;
}

long lx_sys_execve(struct lx_proc *p, int dirfd, uint64_t gpath, uint64_t gargv, uint64_t genvp,
		   int flags)
{
	char path[4096], full[4200], msg[512], fdarg[16], seedarg[32], cpusarg[24], startarg[24],
		basearg[24], cpuarg[24], sleptarg[24], itarg[128], clockarg[24];
	char **argv = NULL, **envp = NULL, **hv = NULL;
	const char *target = path;
	long err;
	int r, n = 0;

	r = lx_copy_str(p, path, gpath, sizeof(path));
	if (r < 0)
		return r;
	if (!path[0] && !(flags & AT_EMPTY_PATH))
		return -ENOENT;
	if (lx_is_self_exe(path, p->pid)) {
		target = p->exe; /* the host's link names vpmu */
	} else if (dirfd != AT_FDCWD && (path[0] != '/')) {
		/* relative to a directory fd, or the fd itself (fexecve) */
		if (path[0])
			snprintf(full, sizeof(full), "/proc/self/fd/%d/%s", dirfd, path);
		else
			snprintf(full, sizeof(full), "/proc/self/fd/%d", dirfd);
		target = full;
	}
	argv = copy_vec(p, gargv, &err);
	if (!argv)
		goto out;
	envp = copy_vec(p, genvp, &err);
	if (!envp)
		goto out;
	r = lx_check_errno(target, msg, sizeof(msg));
	if (r) {
		err = -r;
		goto out;
	}
	while (argv[n])
		n++;
	hv = calloc((size_t)n + 26, sizeof(*hv)); /* vpmu's own arguments: up to 22 */
	if (!hv) {
		err = -ENOMEM;
		goto out;
	}
	snprintf(fdarg, sizeof(fdarg), "%d", p->cfg->shared_fd);
	snprintf(seedarg, sizeof(seedarg), "%#" PRIx64, p->cfg->seed);
	int k = 0;
	hv[k++] = "vpmu";
	hv[k++] = "__exec";
	hv[k++] = "--shared-fd";
	hv[k++] = fdarg;
	hv[k++] = "--seed";
	hv[k++] = seedarg;
	if (p->cfg->verbose)
		hv[k++] = "-v";
	if (lx_cpus_of(p, lx_cur(p))) { /* execve keeps the affinity */
		snprintf(cpusarg, sizeof(cpusarg), "%#" PRIx64, lx_cpus_of(p, lx_cur(p)));
		hv[k++] = "--cpus";
		hv[k++] = cpusarg;
	}
	if (p->cfg->vtime) {
		/* the new image's clock goes on from here */
		snprintf(basearg, sizeof(basearg), "%" PRId64, lx_wait_now(p, &lx_cur(p)->cpu));
		snprintf(cpuarg, sizeof(cpuarg), "%" PRId64, lx_vtime_cpu(p, &lx_cur(p)->cpu));
		hv[k++] = "--vtime";
		hv[k++] = "--vtime-base";
		hv[k++] = basearg;
		hv[k++] = "--vtime-cpu"; /* and its CPU time */
		hv[k++] = cpuarg;
		snprintf(sleptarg, sizeof(sleptarg), "%" PRId64, p->vt_slept);
		hv[k++] = "--vtime-slept"; /* and its waits (the times vpmu trace prints) */
		hv[k++] = sleptarg;
		const struct lx_thread *lead = lx_task_of(p, p->pid);
		snprintf(startarg, sizeof(startarg), "%" PRId64,
			 (lead ? lead : lx_cur(p))->vt_start);
		hv[k++] = "--vtime-start"; /* (the process began before the image) */
		hv[k++] = startarg;
		if (lx_itimer_exec_arg(p, &lx_cur(p)->cpu, itarg, sizeof(itarg))) {
			hv[k++] = "--vtime-itimers";
			hv[k++] = itarg;
		}
	}
	if (p->uarch) { /* the new image's clock goes on from here */
		snprintf(clockarg, sizeof(clockarg), "%" PRIu64, lx_timing_now(p, lx_cur(p)));
		hv[k++] = "--clock-base";
		hv[k++] = clockarg;
	}
	hv[k++] = "--";
	hv[k++] = (char *)target;
	/* the command line needs an ARGV0: an empty argv becomes { "" } */
	if (!n)
		hv[k++] = "";
	for (int i = 0; i < n; i++)
		hv[k++] = argv[i];
	hv[k] = NULL;

	x86_count_current_block(&lx_cur(p)->cpu);
	lx_systrace_noreturn(p, lx_cur(p)); /* the image's last word: about to succeed */
	lx_timing_flush(p);
	lx_limit_ready(p, 0); /* the new image has no handler until it installs one */
	if (p->slot)
		p->slot->state = LX_SLOT_EXECED;
	uint64_t m = lx_cur(p)->blocked;
	lx_host_syscall(14, SIG_SETMASK, (long)&m, 0, 8, 0, 0);
	err = lx_host_syscall(59, (long)"/proc/self/exe", (long)hv, (long)envp, 0, 0, 0);
	/* still here: x86_run counts what ran after all */
	x86_uncount_current_block(&lx_cur(p)->cpu);
	lx_signal_sync_mask(p);
	if (p->slot)
		p->slot->state = LX_SLOT_RUNNING;
	lx_limit_ready(p, 1);
out:
	free(hv);
	free(argv);
	free(envp);
	return err;
}
