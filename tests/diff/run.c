/* run.c — run one form on both sides from the same state.
 *
 * The instruction is copied to the fixed code page.  For the emulator it is
 * followed by ud2 (and a ud2 at the branch target), and x86_run() goes
 * until that faults: decoder, block builder and interpreter loop are all in
 * the path.  For the host it is followed by `jmp *abs64` back into the
 * trampoline (tramp.S).  Host faults of either side arrive at one signal
 * handler on an alternate stack: inside x86_run() they become guest faults
 * (as the OS layer does it), in a native run they end that run.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "diff.h"

struct diff_runner {
	struct x86_cache *cache;
	struct x86_cpu cpu;
	struct x86_counts counts;
	const struct diff_form *form;
	/* native run in progress: where a host fault returns to */
	volatile int native_active;
	sigjmp_buf native_jb;
	volatile int nsig, ncode;
	volatile uint64_t npc;
	void *altstack;
};

/* The runner the signal handler serves.  The one static of this program:
 * a signal handler has no other way to find it. */
static struct diff_runner *diff_sig_runner;

static void on_fault(int sig, siginfo_t *si, void *uc_)
{
	struct diff_runner *r = diff_sig_runner;
	ucontext_t *uc = uc_;

	if (r && x86_in_guest(&r->cpu))
		x86_host_fault(&r->cpu, sig, si->si_code, (uint64_t)si->si_addr);
	if (r && r->native_active) {
		r->nsig = sig;
		r->ncode = si->si_code;
		r->npc = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
		r->native_active = 0;
		siglongjmp(r->native_jb, 1);
	}
	/* not ours: die of it */
	signal(sig, SIG_DFL);
}

struct diff_runner *diff_runner_new(void)
{
	struct diff_runner *r = calloc(1, sizeof(*r));
	stack_t ss;
	struct sigaction sa;
	void *p;

	if (!r)
		return NULL;
	p = mmap((void *)DIFF_CODE, DIFF_PAGE + DIFF_BUFSZ, PROT_READ | PROT_WRITE | PROT_EXEC,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p != (void *)DIFF_CODE) {
		fprintf(stderr, "diff: cannot map the code page at %#x\n", DIFF_CODE);
		free(r);
		return NULL;
	}
	r->cache = x86_cache_new();
	r->altstack = malloc(1 << 16);
	if (!r->cache || !r->altstack) {
		fprintf(stderr, "diff: out of memory\n");
		exit(2);
	}
	ss.ss_sp = r->altstack;
	ss.ss_size = 1 << 16;
	ss.ss_flags = 0;
	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	/* SA_NODEFER: the emulator leaves the handler with longjmp */
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	sigaction(SIGTRAP, &sa, NULL);
	diff_sig_runner = r;
	return r;
}

void diff_runner_free(struct diff_runner *r)
{
	if (!r)
		return;
	diff_sig_runner = NULL;
	x86_cache_free(r->cache);
	munmap((void *)DIFF_CODE, DIFF_PAGE + DIFF_BUFSZ);
	free(r->altstack);
	free(r);
}

void diff_runner_form(struct diff_runner *r, const struct diff_form *f)
{
	r->form = f;
	x86_cache_invalidate(r->cache, DIFF_CODE, DIFF_PAGE);
}

static void put_ud2(uint8_t *p)
{
	p[0] = 0x0f;
	p[1] = 0x0b;
}

/* jmp *0(%rip); .quad target */
static void put_jmp(uint8_t *p, void (*target)(void))
{
	uint64_t a = (uint64_t)target;
	static const uint8_t j[6] = { 0xff, 0x25, 0, 0, 0, 0 };
	memcpy(p, j, 6);
	memcpy(p + 6, &a, 8);
}

/* ---- emulator ------------------------------------------------------------- */

static void state_to_cpu(const struct diff_state *s, struct x86_cpu *c)
{
	const uint8_t *fx = s->fx;
	uint16_t fsw;

	for (unsigned i = 0; i < 16; i++)
		c->r[i] = s->r[i];
	x86_set_rflags(c, s->rflags);
	memcpy(&c->fpu.fcw, fx + FX_FCW, 2);
	memcpy(&fsw, fx + FX_FSW, 2);
	c->fpu.top = (uint8_t)((fsw >> 11) & 7);
	c->fpu.fsw = fsw & (uint16_t)~0x3800;
	c->fpu.tag = fx[FX_FTW];
	for (unsigned i = 0; i < 8; i++) {
		long double *st = &c->fpu.st[(c->fpu.top + i) & 7];
		memset(st, 0, sizeof(*st));
		memcpy(st, fx + FX_ST + 16 * i, 10);
	}
	memcpy(&c->mxcsr, fx + FX_MXCSR, 4);
	memcpy(c->xmm, fx + FX_XMM, 256);
}

static void cpu_to_state(struct x86_cpu *c, struct diff_state *s)
{
	uint8_t *fx = s->fx;
	uint16_t fsw = (uint16_t)((c->fpu.fsw & ~0x3800) | (c->fpu.top & 7) << 11);

	for (unsigned i = 0; i < 16; i++)
		s->r[i] = c->r[i];
	s->rflags = x86_rflags(c);
	memset(fx, 0, 512);
	memcpy(fx + FX_FCW, &c->fpu.fcw, 2);
	memcpy(fx + FX_FSW, &fsw, 2);
	fx[FX_FTW] = c->fpu.tag;
	for (unsigned i = 0; i < 8; i++)
		memcpy(fx + FX_ST + 16 * i, &c->fpu.st[(c->fpu.top + i) & 7], 10);
	memcpy(fx + FX_MXCSR, &c->mxcsr, 4);
	memcpy(fx + FX_XMM, c->xmm, 256);
}

static void new_cpu(struct diff_runner *r)
{
	x86_cpu_init(&r->cpu);
	r->cpu.cache = r->cache;
	r->cpu.cnt = &r->counts;
}

void diff_run_emu(struct diff_runner *r, const struct diff_form *f, const struct diff_state *in,
		  const uint8_t *mem, struct diff_out *o)
{
	uint8_t *code = (uint8_t *)DIFF_CODE;
	size_t len = (size_t)(f->end - f->code);
	struct x86_cpu *c = &r->cpu;
	enum x86_exit why;

	memcpy(code, f->code, len);
	put_ud2(code + len);
	put_ud2(code + DIFF_TARGET);
	memcpy((void *)DIFF_BUF, mem, DIFF_BUFSZ);

	new_cpu(r);
	state_to_cpu(in, c);
	c->rip = DIFF_CODE;
	why = x86_run(c, 10000);

	memset(o, 0, sizeof(*o) - sizeof(o->mem));
	cpu_to_state(c, &o->s);
	memcpy(o->mem, (void *)DIFF_BUF, DIFF_BUFSZ);
	if (why == X86_EXIT_UNSUPPORTED && c->fault.pc == DIFF_CODE) {
		o->unsupported = 1;
		return;
	}
	if (why != X86_EXIT_FAULT && why != X86_EXIT_UNSUPPORTED) {
		o->lost = 1;
		snprintf(o->why, sizeof(o->why), "x86_run returned %d at rip %#llx", (int)why,
			 (unsigned long long)c->rip);
		return;
	}
	if (c->fault.pc == DIFF_CODE + len || c->fault.pc == DIFF_CODE + DIFF_TARGET) {
		/* the ud2 after the instruction, or at the branch target */
		o->s.exit = c->fault.pc == DIFF_CODE + DIFF_TARGET;
		return;
	}
	if (c->fault.pc == DIFF_CODE) {
		o->fault = c->fault.sig;
		o->code = c->fault.code;
		o->pc = c->fault.pc;
		return;
	}
	o->lost = 1;
	snprintf(o->why, sizeof(o->why), "stopped by signal %d at %#llx", c->fault.sig,
		 (unsigned long long)c->fault.pc);
}

enum x86_exit diff_run_code(struct diff_runner *r, struct x86_cpu *c, const uint8_t *code, size_t n)
{
	memcpy((void *)DIFF_CODE, code, n);
	x86_cache_invalidate(r->cache, DIFF_CODE, DIFF_PAGE);
	c->cache = r->cache;
	c->cnt = &r->counts;
	c->rip = DIFF_CODE;
	/* the runner's cpu is the one the fault handler knows */
	r->cpu = *c;
	enum x86_exit why = x86_run(&r->cpu, 10000);
	*c = r->cpu;
	return why;
}

/* ---- host ------------------------------------------------------------------- */

static void host_fp_reset(void)
{
	__asm__ volatile("fninit");
	__builtin_ia32_ldmxcsr(0x1f80);
}

void diff_run_native(struct diff_runner *r, const struct diff_form *f, const struct diff_state *in,
		     const uint8_t *mem, struct diff_out *o)
{
	uint8_t *code = (uint8_t *)DIFF_CODE;
	size_t len = (size_t)(f->end - f->code);

	memcpy(code, f->code, len);
	put_jmp(code + len, diff_native_ret0);
	put_jmp(code + DIFF_TARGET, diff_native_ret1);
	memcpy((void *)DIFF_BUF, mem, DIFF_BUFSZ);
	memset(o, 0, sizeof(*o) - sizeof(o->mem));
	o->s = *in;

	r->nsig = 0;
	if (sigsetjmp(r->native_jb, 1) == 0) {
		r->native_active = 1;
		diff_native_run(&o->s, code);
		r->native_active = 0;
	} else {
		host_fp_reset();
		o->fault = r->nsig;
		o->code = r->ncode;
		o->pc = r->npc;
	}
	memcpy(o->mem, (void *)DIFF_BUF, DIFF_BUFSZ);
}
