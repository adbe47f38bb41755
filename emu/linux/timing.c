/* timing.c — connect a guest process to the timing model: every thread's
 * retired instructions go to uarch_retire on its logical processor, every
 * syscall to the kernel cost model with the bytes it moved. */
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

#include "../uarch/model.h"
#include "lx_proc.h"

/* After the instructions up to a store into decoded code (mem.c ends the
 * block there): the machine clear it causes. */
static void smc_clear(struct lx_thread *t)
{
	if (t->p->smc_clear) {
		t->p->smc_clear = 0;
		uarch_machine_clear_smc(t->p->uarch, t->lp, t->p->smc_page, LX_PAGE);
	}
}

static void trace(void *arg, const struct x86_trace *tr)
{
	struct lx_thread *t = arg;

	uarch_retire(t->p->uarch, t->lp, tr);
	smc_clear(t);
}

static void trace_block(void *arg, const struct x86_trace *tr, unsigned n)
{
	struct lx_thread *t = arg;

	uarch_retire_block(t->p->uarch, t->lp, tr, n);
	smc_clear(t);
}

/* The second of two programs on a core (pair.c) has its data in memory of
 * its own, at the same addresses as the first's (both processes get the
 * fixed layout of lx_mm.h): the core sees its loads and stores in an
 * address space of their own (UARCH_SPACE_BIT), as distinct page frames
 * would be; its code stays at the guest addresses (the trace cache and
 * the branch predictors are indexed by them). */
static void in_space(struct x86_trace *o, const struct x86_trace *tr)
{
	*o = *tr;
	for (int k = 0; k < o->nmem && k < 2; k++)
		o->addr[k] |= UARCH_SPACE_BIT;
}

/* A program of one thread stops for the other at the end of the block
 * that put its processor ahead (pair.c), rather than leaving the emulator
 * after every block to look; and after a block that made a thread, as the
 * threads interleave block by block from then on (main.c). */
static void pair_timed(struct lx_thread *t)
{
	if (t->p->pair_solo && (t->p->nth > 1 || lx_pair_ahead(t->p)))
		t->cpu.stop = 1;
}

static void trace_pair(void *arg, const struct x86_trace *tr)
{
	struct lx_thread *t = arg;
	struct x86_trace o;

	if (t->lp)
		in_space(&o, tr);
	uarch_retire(t->p->uarch, t->lp, t->lp ? &o : tr);
	smc_clear(t);
	pair_timed(t);
}

static void trace_pair_block(void *arg, const struct x86_trace *tr, unsigned n)
{
	struct lx_thread *t = arg;
	struct x86_trace o[X86_BLOCK_MAX];

	for (unsigned k = 0; t->lp && k < n; k++)
		in_space(&o[k], &tr[k]);
	uarch_retire_block(t->p->uarch, t->lp, t->lp ? o : tr, n);
	smc_clear(t);
	pair_timed(t);
}

/* What the PMU asks of a thread's reports: its registers before each
 * instruction (precise samples); each instruction as it retires
 * (samples read the thread then), else a block's at once. */
static void report_mode(const struct lx_proc *p, struct x86_cpu *c)
{
	c->keep_pre = p->pmu && p->pmu_env.keep_pre;
	c->trace = !p->uarch ? NULL : p->pair ? trace_pair : trace;
	c->trace_block = !p->uarch || (p->pmu && p->pmu_env.per_insn) ? NULL :
			 p->pair				      ? trace_pair_block :
									trace_block;
}

static const struct x86_cpu *env_thread(void *arg, int *tid)
{
	struct lx_thread *t = lx_cur(arg);

	*tid = t->tid;
	return &t->cpu;
}

static int env_read(void *arg, void *dst, uint64_t addr, size_t n)
{
	return lx_copy_in(arg, dst, addr, n) < 0 ? -1 : 0;
}

static const struct lx_image *env_images(void *arg, int *n)
{
	struct lx_proc *p = arg;

	*n = p->slot ? p->slot->nimages : 0;
	return p->slot ? p->slot->image : NULL;
}

/* (Re)program the counter hardware: a new process counts from zero, as
 * perf's inherited counters do. */
static int lx_timing_pmu(struct lx_proc *p, char *err, size_t errsz)
{
	const struct lx_pmu_ops *ops = p->cfg->pmu;

	if (p->pmu) {
		ops->detach(p->pmu, p->uarch);
		p->pmu = NULL;
	}
	if (!ops || !p->uarch || !p->sh->pmu_len)
		return 0;
	p->pmu_env = (struct lx_pmu_env){ .pid = p->pid,
					  .clock_base = p->cfg->clock_base,
					  .sample_fd = p->sh->sample_fd,
					  .exe = p->exe,
					  .arg = p,
					  .thread = env_thread,
					  .read = env_read,
					  .images = env_images };
	p->pmu = ops->attach(p->uarch, &p->pmu_env, p->sh->pmu_cfg, p->sh->pmu_len, err, errsz);
	for (int i = 0; i < p->nth; i++)
		report_mode(p, &p->th[i]->cpu);
	return p->pmu ? 0 : -1;
}

int lx_timing_machine(const struct lx_shared *sh, struct uarch_machine *m, char *err, size_t errsz)
{
	const struct uarch_machine *base = uarch_machine_find(sh->arch);

	if (!base) {
		snprintf(err, errsz, "unknown machine '%s'", sh->arch);
		return -1;
	}
	*m = *base;
	if (sh->set[0] && uarch_params_set(m, sh->set, err, errsz) < 0)
		return -1;
	return uarch_params_check(m, err, errsz);
}

int lx_timing_init(struct lx_proc *p, char *err, size_t errsz)
{
	struct uarch_machine m;

	if (!p->sh->timed)
		return 0;
	x86_cache_set_aux(p->cache, uarch_insn_aux_size());
	if (p->pair) {
		/* the pair's core, and this process's copy of its counters */
		p->uarch = p->pair->u;
		p->pmu = p->pair->pmu;
		for (int i = 0; i < p->nth; i++)
			lx_timing_attach(p, p->th[i]);
		return 0;
	}
	if (lx_timing_machine(p->sh, &m, err, errsz) < 0)
		return -1;
	p->uarch = uarch_new(&m, p->slot ? &p->slot->ev : &p->own_ev, p->cfg->seed);
	if (!p->uarch) {
		snprintf(err, errsz, "out of memory for the timing model");
		return -1;
	}
	/* (one thread: single-thread mode until lx_schedule() runs two) */
	uarch_set_active(p->uarch, p->sh->smt && p->nth > 1 ? 3 : 1);
	if (lx_timing_pmu(p, err, errsz) < 0)
		return -1;
	for (int i = 0; i < p->nth; i++)
		lx_timing_attach(p, p->th[i]);
	return 0;
}

void lx_timing_attach(struct lx_proc *p, struct lx_thread *t)
{
	t->cpu.trace_arg = t;
	/* with --smt the guest's threads alternate between the two logical
	 * processors in creation order; otherwise all share processor 0 */
	t->lp = 0;
	for (int i = 0; p->sh->smt && i < p->nth; i++)
		if (p->th[i] == t)
			t->lp = i % 2;
	/* one of two programs on a core: every thread on its processor */
	if (p->pair)
		t->lp = p->pair_lp;
	report_mode(p, &t->cpu);
}

void lx_timing_resume(struct lx_proc *p, struct lx_thread *t)
{
	struct lx_thread *cur = lx_cur(p);

	if (!p->uarch || !p->sh->smt || t == cur || t->lp == cur->lp)
		return;
	for (int i = 0; i < p->nth; i++)
		if (p->th[i] != t && p->th[i]->lp == t->lp && p->th[i]->state == LX_T_RUN)
			return; /* its processor is busy: it waits its turn there */
	uarch_resume(p->uarch, t->lp, uarch_now(p->uarch, cur->lp));
}

void lx_timing_flush(struct lx_proc *p)
{
	if (p->uarch)
		uarch_flush(p->uarch);
	if (p->pmu)
		p->cfg->pmu->read(p->pmu, p->slot ? p->slot->pmu : p->own_pmu,
				  p->slot ? p->slot->pmu_time : p->own_pmu_time);
	lx_pair_leave(p);
}

void lx_timing_counts(struct lx_proc *p)
{
	char err[256];

	if (p->pair && p->pid != p->pair_pid) {
		lx_pair_detach(p); /* a forked child: the core stays the pair's */
		return;
	}
	if (p->uarch)
		uarch_set_counts(p->uarch, p->slot ? &p->slot->ev : &p->own_ev);
	if (p->pmu && lx_timing_pmu(p, err, sizeof(err)) < 0)
		fprintf(stderr, "vpmu: %s\n", err);
}

/* The data a syscall moved to or from a file or device, which the bus
 * carries as I/O transactions; one buffer (the second argument, which
 * the syscall leaves in rsi) is snooped line by line, vectored and
 * file-to-file transfers only counted. */
static struct uarch_io io_of(const struct lx_thread *t, long nr, long result)
{
	struct uarch_io io = { 0, result > 0 ? (uint64_t)result : 0, 0 };
	uint64_t buf = t->cpu.r[X86_RSI];

	switch (nr) {
	case SYS_write:
	case SYS_pwrite64:
	case SYS_sendto:
		io.addr = buf;
		io.out = 1;
		break;
	case SYS_read:
	case SYS_pread64:
	case SYS_recvfrom:
		io.addr = buf;
		break;
	case SYS_writev:
	case SYS_pwritev:
	case SYS_sendfile:
	case SYS_copy_file_range:
		io.out = 1;
		break;
	case SYS_readv:
	case SYS_preadv:
		break;
	default:
		io.len = 0;
	}
	return io;
}

uint64_t lx_timing_now(const struct lx_proc *p, const struct lx_thread *t)
{
	return p->cfg->clock_base + uarch_now(p->uarch, t->lp);
}

void lx_timing_syscall(struct lx_proc *p, struct lx_thread *t, long nr, long result)
{
	struct uarch_io io;

	if (!p->uarch)
		return;
	io = io_of(t, nr, result);
	uarch_syscall(p->uarch, t->lp, nr, &io);
}
