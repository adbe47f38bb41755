/* systrace.c — system calls reported to a tracer (lx_config.sys, vpmu
 * trace), each with the time it took on the process's clock: the timing
 * model's (the kernel cost model's cycles) or, untimed, the host's.
 * Those that may not return are also reported before they are made. */
#include <errno.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <time.h>

#include "../uarch/model.h"
#include "lx_proc.h"

static int wanted(const struct lx_proc *p, long nr)
{
	return p->cfg->sys && p->sh->sample_fd >= 0 && nr >= 0 && nr < LX_SYS_MAX &&
	       (p->sh->sys_mask[nr >> 3] >> (nr & 7) & 1);
}

/* Now, in ns: the emulated clock of t's logical processor (going on
 * from the image before an execve) and, with --vtime, the time the
 * process stood in timed waits (the machine idles while it sleeps: a
 * sleep takes its time); or the host's clock. */
int64_t lx_systrace_clock(const struct lx_proc *p, const struct lx_thread *t)
{
	struct timespec ts;

	if (p->uarch)
		return (int64_t)(lx_timing_now(p, t) * 1000 / uarch_machine(p->uarch)->core.mhz) +
		       (p->cfg->vtime ? p->vt_slept : 0);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* (a name too long for dst comes cut short) */
static int copy_str(void *arg, char *dst, uint64_t src, size_t n)
{
	int r = lx_copy_str(arg, dst, src, n);

	return r == -ENAMETOOLONG ? (int)n - 1 : r < 0 ? -1 : r;
}

static int copy_mem(void *arg, void *dst, uint64_t src, size_t n)
{
	return lx_copy_in(arg, dst, src, n) < 0 ? -1 : 0;
}

static void report(struct lx_proc *p, struct lx_thread *t, int64_t ret, int noreturn)
{
	struct lx_sys_event e = { .pid = p->pid,
				  .tid = t->tid,
				  .nr = t->sys.nr,
				  .ret = ret,
				  .noreturn = noreturn,
				  .host_clock = !p->uarch,
				  .start = t->sys.start,
				  .str = copy_str,
				  .mem = copy_mem,
				  .arg = p,
				  .callgraph = p->sh->sys_callgraph,
				  .max_stack = p->sh->sys_max_stack,
				  .regs = t->cpu.r,
				  .ip = t->cpu.rip,
				  .images = p->slot ? p->slot->image : NULL,
				  .nimages = p->slot ? p->slot->nimages : 0,
				  .state = &p->sys_state };

	for (int k = 0; k < 6; k++)
		e.a[k] = t->sys.a[k];
	/* (the kernel's name of the process: the host's, which execve and
	 * PR_SET_NAME set) */
	if (prctl(PR_GET_NAME, e.comm, 0, 0, 0) < 0)
		snprintf(e.comm, sizeof(e.comm), "%d", p->pid);
	e.dur = noreturn ? 0 : lx_systrace_clock(p, t) - t->sys.start;
	t->sys.on = 0;
	p->cfg->sys->syscall(p->sh->sample_fd, &e);
}

void lx_systrace_enter(struct lx_proc *p, struct lx_thread *t, long nr)
{
	static const int regs[6] = { X86_RDI, X86_RSI, X86_RDX, X86_R10, X86_R8, X86_R9 };

	t->sys.on = wanted(p, nr);
	if (!t->sys.on)
		return;
	t->sys.nr = nr;
	for (int k = 0; k < 6; k++)
		t->sys.a[k] = t->cpu.r[regs[k]];
	t->sys.start = lx_systrace_clock(p, t);
	switch (nr) {
	case 15:  /* rt_sigreturn */
	case 60:  /* exit */
	case 231: /* exit_group */
		report(p, t, 0, 1);
		break;
	case 62:  /* kill */
	case 129: /* rt_sigqueueinfo */
	case 200: /* tkill */
	case 234: /* tgkill */
	case 297: /* rt_tgsigqueueinfo */
		/* a signal to itself may end the process in the call: told
		 * before, and after if it returns */
		lx_systrace_noreturn(p, t);
		break;
	}
}

void lx_systrace_exit(struct lx_proc *p, struct lx_thread *t, long ret)
{
	if (t->sys.on)
		report(p, t, ret, 0);
}

void lx_systrace_noreturn(struct lx_proc *p, struct lx_thread *t)
{
	if (t->sys.on) {
		report(p, t, 0, 1);
		t->sys.on = 1; /* (a failure is reported too) */
	}
}
