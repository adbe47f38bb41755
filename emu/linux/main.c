/* main.c — lx_main: turn this host process into the guest process.  Maps
 * the program (and its interpreter) at the fixed addresses of lx_mm.h,
 * builds the initial stack, then runs the guest's threads until the guest
 * exits, is killed, or reaches an instruction the emulator lacks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "lx_elf.h"
#include "lx_proc.h"

#define LX_QUANTUM 100000 /* instructions per turn when several threads run */
/* --vtime: the most instructions between two publications of the clock
 * (reap.c), so that a parent sees a computing child's clock move */
#define LX_VT_PUBLISH (1u << 20)
#define LX_SHEBANG_DEPTH 4 /* fs/binfmt_script.c allows about this many */

static __attribute__((noreturn)) void fail(struct lx_proc *p, int status, const char *msg)
{
	fprintf(stderr, "vpmu: %s\n", msg);
	if (p && p->slot) {
		p->slot->status = status;
		p->slot->state = LX_SLOT_EXITED;
	}
	_exit(status);
}

/* Rewrite path/argv for #! scripts like fs/binfmt_script.c:
 * argv = interpreter [optional-arg] script argv[1..]. */
static void resolve_scripts(struct lx_proc *p, const char **path, char *const **argv)
{
	for (int depth = 0; depth < LX_SHEBANG_DEPTH; depth++) {
		char interp[256], arg[256];
		int r = lx_shebang(*path, interp, sizeof(interp), arg, sizeof(arg)), n = 0, k = 0;
		char **nv;

		if (r == 0)
			return;
		if (r < 0) {
			char msg[512];

			snprintf(msg, sizeof(msg), "%s: bad #! line: %s", *path, strerror(-r));
			fail(p, 126, msg);
		}
		while ((*argv)[n])
			n++;
		nv = calloc((size_t)n + 4, sizeof(*nv));
		if (!nv)
			fail(p, 126, "out of memory");
		nv[k++] = strdup(interp);
		if (arg[0])
			nv[k++] = strdup(arg);
		nv[k++] = (char *)*path;
		for (int i = 1; i < n; i++)
			nv[k++] = (*argv)[i];
		*argv = nv;
		*path = nv[0];
	}
	fail(p, 126, "too many levels of #! interpreters");
}

static uint64_t stack_size(void)
{
	struct rlimit rl;
	uint64_t s = 8ull << 20;

	if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		s = rl.rlim_cur;
	else if (getrlimit(RLIMIT_STACK, &rl) == 0)
		s = LX_STACK_MAX;
	if (s > LX_STACK_MAX)
		s = LX_STACK_MAX;
	if (s < (128ull << 10))
		s = 128ull << 10;
	return lx_page_up(s);
}

static void setup(struct lx_proc *p, const char *path, char *const *argv)
{
	struct lx_thread *t = lx_cur(p);
	struct x86_cpu *c = &t->cpu;
	struct lx_loaded ld;
	struct lx_stack_args sa;
	uint8_t rnd[16];
	uint32_t id[4];
	char msg[1024];
	uint64_t ssz = stack_size(), sbot = LX_STACK_TOP - ssz;
	int r;

	r = lx_elf_load(p, path, &ld, msg, sizeof(msg));
	if (r)
		fail(p, r == ENOENT || r == ENOTDIR ? 127 : 126, msg);
	p->mm.brk_start = p->mm.brk_cur = p->mm.brk_end = lx_page_up(ld.brk);
	if (lx_map_fixed(p, sbot, ssz, PROT_READ | PROT_WRITE, LX_MAP_STACK) ||
	    lx_map_fixed(p, sbot - LX_STACK_GUARD, LX_STACK_GUARD, PROT_NONE, LX_MAP_GUARD))
		fail(p, 126, "cannot map the guest stack");

	lx_random_bytes(p->cfg->seed, rnd);
	lx_random_init(&p->rng, p->cfg->seed);
	x86_cpuid(c->model, 1, 0, id);
	memset(&sa, 0, sizeof(sa));
	sa.argv = argv;
	sa.envp = p->cfg->envp;
	sa.execfn = path;
	sa.random = rnd;
	sa.hwcap = id[3]; /* leaf 1 EDX, as the kernel's ELF_HWCAP */
	sa.phdr = ld.phdr;
	sa.phnum = ld.phnum;
	sa.base = ld.interp_base;
	sa.entry = ld.prog_entry;
	sa.uid = getuid();
	sa.euid = geteuid();
	sa.gid = getgid();
	sa.egid = getegid();
	c->r[X86_RSP] = lx_stack_build(LX_STACK_TOP, ssz, &sa);
	if (!c->r[X86_RSP]) {
		snprintf(msg, sizeof(msg), "%s: Argument list too long", path);
		fail(p, 126, msg);
	}
	c->rip = ld.entry;
}

_Noreturn void lx_main(const struct lx_config *cfg)
{
	struct lx_proc *p = calloc(1, sizeof(*p));
	const char *path = cfg->path;
	char *const *argv = cfg->argv;
	struct lx_thread *t;

	if (!p)
		fail(NULL, 1, "out of memory");
	p->cfg = cfg;
	p->pid = getpid();
	lx_itimer_init(p);
	p->sh = lx_shared_map(cfg->shared_fd);
	if (!p->sh)
		fail(NULL, 1, "cannot map the shared count area");
	lx_mm_init(&p->mm);
	p->cache = x86_cache_new();
	t = lx_thread_new(p);
	if (!p->cache || !t)
		fail(NULL, 1, "out of memory");
	x86_cpu_init(&t->cpu);
	t->cpu.cache = p->cache;
	t->cpu.syscall = lx_syscall;
	t->cpu.os = t;
	t->tid = p->pid;
	t->cpus = cfg->cpus;
	p->next_tid = p->pid + 1;
	p->pair = cfg->pair;
	p->pair_lp = cfg->pair_lp;
	p->pair_pid = p->pid;
	if (p->pair)
		lx_pair_slot(p);
	else
		lx_take_slot(p);
	if (cfg->vtime) {
		p->vt_cpu_base = cfg->vtime_cpu; /* its CPU clocks go on too */
		p->vt_slept = cfg->vtime_slept;
		t->ran = (uint64_t)cfg->vtime_cpu;
		t->vt_start = cfg->vtime_start;
		if (p->slot)
			p->slot->vt_start = t->vt_start;
		lx_vtime_set(p, &t->cpu, cfg->vtime_base);
		lx_itimer_exec_set(p, &t->cpu, cfg->itimer);
	}
	x86_cache_set_code_hook(p->cache, lx_code_hook, p);
	{
		char err[512];

		if (lx_timing_init(p, err, sizeof(err)) < 0)
			fail(p, 1, err);
	}

	/* the name ps and /proc/self/comm show: the file executed, as the
	 * kernel sets it at execve (a script's own name, not its interpreter's) */
	const char *base = strrchr(path, '/');
	prctl(PR_SET_NAME, base ? base + 1 : path, 0, 0, 0);
	resolve_scripts(p, &path, &argv);
	if (!realpath(path, p->exe))
		snprintf(p->exe, sizeof(p->exe), "%s", path);
	lx_signal_init(p);
	lx_limit_ready(p, 1);
	setup(p, path, argv);

	for (;;) {
		struct x86_cpu *c;
		enum x86_exit e;
		uint64_t budget, hold, wake;
		int multi;

		t = lx_cur(p);
		c = &t->cpu;
		c->stop = 0;
		/* one of two programs on a core: wait for the turn on it */
		lx_pair_turn(p);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		lx_itimer_check(p, c);
		lx_vtime_publish(p, c, -1);
		hold = lx_hold_budget(p, c);
		wake = lx_wake_virtual(p) ? lx_wake_due(p, c) : UINT64_MAX;
		if (lx_signal_pending(p))
			lx_signal_deliver(p);
		multi = p->nth > 1;
		/* on two logical processors, threads interleave block by block */
		budget = !multi ? UINT64_MAX : p->sh->smt && p->uarch ? 1 : LX_QUANTUM;
		/* one of two programs on a core: its threads interleave block by
		 * block; a lone thread runs until the other program's turn */
		if (p->pair && multi)
			budget = 1;
		p->pair_solo = p->pair && !multi;
		if (lx_itimer_budget(p, c) < budget)
			budget = lx_itimer_budget(p, c); /* a timer goes off at its instruction */
		if (hold < budget)
			budget = hold;
		if (wake < budget) /* a look at the children's ends comes at its instruction */
			budget = wake;
		if (p->cfg->vtime && budget > LX_VT_PUBLISH)
			budget = LX_VT_PUBLISH;
		p->turn_from = c->cnt->insns;
		e = x86_run(c, lx_limit_budget(p, budget));
		t->ran += c->cnt->insns >= p->turn_from ? c->cnt->insns - p->turn_from : 0;
		p->turn_from = c->cnt->insns; /* (counted: thread_ns() adds nothing more) */
		if (e == X86_EXIT_FAULT && !c->fault.sig) {
			/* a resync after self-modifying code (mem.c): go on */
		} else if (e == X86_EXIT_FAULT) {
			lx_signal_fault(p);
		} else if (e == X86_EXIT_UNSUPPORTED) {
			lx_timing_flush(p);
			if (p->slot) {
				p->slot->fault = c->fault;
				p->slot->status = 132;
				p->slot->state = LX_SLOT_UNSUPPORTED;
			}
			_exit(132);
		}
		if (multi || t->state != LX_T_RUN)
			lx_schedule(p, e == X86_EXIT_BUDGET || t->yield);
	}
}
