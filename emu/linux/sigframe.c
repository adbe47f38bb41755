/* sigframe.c — the x86-64 rt_sigframe a signal handler runs on, built and
 * unwound exactly as arch/x86/kernel/signal.c and signal_64.c do (without
 * XSAVE: the emulated processor has none, so the FP state is the 512-byte
 * fxsave image), so handlers that look into their ucontext, and
 * setcontext/longjmp out of them, see what they would natively.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "../x86/x87.h"
#include "lx_proc.h"

struct lx_sigcontext {
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
	uint64_t rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip, eflags;
	uint16_t cs, gs, fs, ss;
	uint64_t err, trapno, oldmask, cr2, fpstate;
	uint64_t reserved1[8];
};

struct lx_ucontext {
	uint64_t uc_flags, uc_link;
	struct {
		uint64_t ss_sp;
		int32_t ss_flags, pad;
		uint64_t ss_size;
	} uc_stack;
	struct lx_sigcontext mc;
	uint64_t uc_sigmask;
};

struct lx_rt_sigframe {
	uint64_t pretcode;
	struct lx_ucontext uc;
	siginfo_t info;
};

/* fxsave image (SDM vol. 1, 10.5.1, table 10-2) */
struct lx_fxsave {
	uint16_t fcw, fsw;
	uint8_t ftw, rsvd;
	uint16_t fop;
	uint64_t fip, fdp;
	uint32_t mxcsr, mxcsr_mask;
	uint8_t st[8][16];
	uint8_t xmm[16][16];
	uint8_t pad[96];
};

_Static_assert(sizeof(struct lx_sigcontext) == 256, "sigcontext layout");
_Static_assert(sizeof(struct lx_fxsave) == 512, "fxsave layout");

#define UC_SIGCONTEXT_SS 0x2
#define UC_STRICT_RESTORE_SS 0x4
#define LX_MXCSR_MASK 0xffff
/* RFLAGS bits sigreturn takes from the frame (FIX_EFLAGS) */
#define LX_FIX_EFLAGS                                                                     \
	(X86_AC | X86_OF | X86_DF | X86_TF | X86_SF | X86_ZF | X86_AF | X86_PF | X86_CF | \
	 (1u << 16))

/* trap number and error code the kernel records for a fault signal */
static void fault_regs(int sig, const siginfo_t *si, struct lx_sigcontext *sc)
{
	switch (sig) {
	case SIGSEGV:
		if (si->si_code == SEGV_MAPERR || si->si_code == SEGV_ACCERR) {
			sc->trapno = 14; /* #PF; error code: user, present */
			sc->err = 4 | (si->si_code == SEGV_ACCERR);
			sc->cr2 = (uint64_t)si->si_addr;
		} else {
			sc->trapno = 13; /* #GP */
		}
		break;
	case SIGFPE:
		sc->trapno = si->si_code == FPE_INTDIV || si->si_code == FPE_INTOVF ? 0 : 19;
		break;
	case SIGILL:
		sc->trapno = 6;
		break;
	case SIGTRAP:
		sc->trapno = 3;
		break;
	case SIGBUS:
		sc->trapno = 17;
		break;
	}
}

static int on_stack(const struct lx_thread *t, uint64_t sp)
{
	return t->ss_size && sp - t->ss_sp <= t->ss_size;
}

int lx_frame_setup(struct lx_proc *p, struct lx_thread *t, int sig, const siginfo_t *si)
{
	struct x86_cpu *c = &t->cpu;
	const struct lx_sigaction *a = &p->act[sig];
	struct lx_rt_sigframe fr;
	struct lx_fxsave fx;
	struct lx_sigcontext *sc = &fr.uc.mc;
	uint64_t sp = c->r[X86_RSP] - 128, fxa, fa; /* skip the red zone */
	int onalt = 0;

	if ((a->flags & SA_ONSTACK) && t->ss_size && !on_stack(t, c->r[X86_RSP])) {
		sp = t->ss_sp + t->ss_size;
		onalt = 1;
	}
	fxa = (sp - sizeof(fx)) & ~63ull;
	fa = ((fxa - sizeof(fr)) & ~15ull) - 8;
	if (onalt && !on_stack(t, fa))
		return -1;

	memset(&fr, 0, sizeof(fr));
	fr.pretcode = a->restorer;
	fr.uc.uc_flags = UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS;
	fr.uc.uc_stack.ss_sp = t->ss_sp;
	fr.uc.uc_stack.ss_size = t->ss_size;
	fr.uc.uc_stack.ss_flags = on_stack(t, c->r[X86_RSP]) ? SS_ONSTACK :
				  t->ss_size ? (int32_t)(t->ss_flags & SS_AUTODISARM) :
					       SS_DISABLE;
	sc->r8 = c->r[X86_R8];
	sc->r9 = c->r[X86_R9];
	sc->r10 = c->r[X86_R10];
	sc->r11 = c->r[X86_R11];
	sc->r12 = c->r[X86_R12];
	sc->r13 = c->r[X86_R13];
	sc->r14 = c->r[X86_R14];
	sc->r15 = c->r[X86_R15];
	sc->rdi = c->r[X86_RDI];
	sc->rsi = c->r[X86_RSI];
	sc->rbp = c->r[X86_RBP];
	sc->rbx = c->r[X86_RBX];
	sc->rdx = c->r[X86_RDX];
	sc->rax = c->r[X86_RAX];
	sc->rcx = c->r[X86_RCX];
	sc->rsp = c->r[X86_RSP];
	sc->rip = c->rip;
	sc->eflags = x86_rflags(c);
	sc->cs = 0x33; /* __USER_CS */
	sc->ss = 0x2b; /* __USER_DS */
	if (si->si_code > 0)
		fault_regs(sig, si, sc);
	fr.uc.uc_sigmask = t->restore_mask ? t->saved_mask : t->blocked;
	sc->oldmask = fr.uc.uc_sigmask;
	sc->fpstate = fxa;
	fr.info = *si;
	/* the fpstate the handler sees, then the clean FPU Linux gives a
	 * handler (fpu__clear_user_states) */
	if (x86_in_guest(c))
		x86_fp_sync_out(c);
	{
		uint8_t img[sizeof(fx)] = { 0 }; /* bytes 416-511 stay 0 */

		x86_fxsave_to(c, img);
		memcpy(&fx, img, sizeof(fx));
	}
	fx.mxcsr_mask = LX_MXCSR_MASK;
	x86_fpu_reset(c);
	if (x86_in_guest(c))
		x86_fp_sync_in(c);
	if (lx_copy_out(p, fxa, &fx, sizeof(fx)) || lx_copy_out(p, fa, &fr, sizeof(fr)))
		return -1;

	if (onalt && (t->ss_flags & SS_AUTODISARM)) {
		t->ss_sp = 0;
		t->ss_size = 0;
		t->ss_flags = SS_DISABLE;
	}
	t->restore_mask = 0;
	t->blocked |= a->mask | (a->flags & SA_NODEFER ? 0 : LX_SIGBIT(sig));
	t->blocked &= ~(LX_SIGBIT(SIGKILL) | LX_SIGBIT(SIGSTOP));
	c->r[X86_RSP] = fa;
	c->rip = a->handler;
	c->r[X86_RDI] = (uint64_t)sig;
	c->r[X86_RSI] = fa + offsetof(struct lx_rt_sigframe, info);
	c->r[X86_RDX] = fa + offsetof(struct lx_rt_sigframe, uc);
	c->r[X86_RAX] = 0;
	x86_set_rflags(c, x86_rflags(c) & ~(uint64_t)(X86_DF | X86_TF | (1u << 16)));
	return 0;
}

long lx_frame_return(struct lx_proc *p, struct lx_thread *t)
{
	struct x86_cpu *c = &t->cpu;
	struct lx_rt_sigframe fr;
	struct lx_fxsave fx;
	const struct lx_sigcontext *sc = &fr.uc.mc;
	uint64_t fa = c->r[X86_RSP] - 8;

	if (lx_copy_in(p, &fr, fa, sizeof(fr)))
		lx_die(p, SIGSEGV);
	if (sc->fpstate && lx_copy_in(p, &fx, sc->fpstate, sizeof(fx)))
		lx_die(p, SIGSEGV);
	c->r[X86_R8] = sc->r8;
	c->r[X86_R9] = sc->r9;
	c->r[X86_R10] = sc->r10;
	c->r[X86_R11] = sc->r11;
	c->r[X86_R12] = sc->r12;
	c->r[X86_R13] = sc->r13;
	c->r[X86_R14] = sc->r14;
	c->r[X86_R15] = sc->r15;
	c->r[X86_RDI] = sc->rdi;
	c->r[X86_RSI] = sc->rsi;
	c->r[X86_RBP] = sc->rbp;
	c->r[X86_RBX] = sc->rbx;
	c->r[X86_RDX] = sc->rdx;
	c->r[X86_RAX] = sc->rax;
	c->r[X86_RCX] = sc->rcx;
	c->r[X86_RSP] = sc->rsp;
	c->rip = sc->rip;
	x86_set_rflags(c,
		       (x86_rflags(c) & ~(uint64_t)LX_FIX_EFLAGS) | (sc->eflags & LX_FIX_EFLAGS));
	if (sc->fpstate) {
		x86_fxrstor_from(c, &fx);
		c->mxcsr &= LX_MXCSR_MASK;
		x86_fp_sync_in(c);
	}
	t->blocked = fr.uc.uc_sigmask & ~(LX_SIGBIT(SIGKILL) | LX_SIGBIT(SIGSTOP));
	lx_signal_sync_mask(p);
	/* restore_altstack(): refused while running on it, as sigaltstack(2) */
	if (!on_stack(t, c->r[X86_RSP])) {
		if (fr.uc.uc_stack.ss_flags & SS_DISABLE) {
			t->ss_sp = 0;
			t->ss_size = 0;
			t->ss_flags = SS_DISABLE;
		} else if (fr.uc.uc_stack.ss_size >= LX_MINSIGSTKSZ) {
			t->ss_sp = fr.uc.uc_stack.ss_sp;
			t->ss_size = fr.uc.uc_stack.ss_size;
			t->ss_flags = fr.uc.uc_stack.ss_flags & (int32_t)SS_AUTODISARM;
		}
	}
	return (long)c->r[X86_RAX];
}
