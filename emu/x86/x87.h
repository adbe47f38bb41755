/* x87.h — the x87 floating-point unit: state helpers shared by the x87*.c
 * files, the host-instruction runner, and the FXSAVE image helpers the
 * signal code uses.  Internal to emu/x86 (and emu/linux for x86_fxsave_to,
 * x86_fxrstor_from and x86_fpu_reset).
 *
 * Results are computed by the host's own x87 executing the same
 * instruction (x87_host.c) under the guest's control word and condition
 * codes, so precision control, rounding, exception flags and condition
 * codes are exactly a real x87's.  The guest's status word, tags and TOP
 * live in c->fpu; the host's status word is scratch.  fldcw & co. also
 * load the host control word, which inside x86_run() is the guest's.
 */
#ifndef VPMU_X86_X87_H
#define VPMU_X86_X87_H

#include <stdint.h>
#include <string.h>

#include "ops.h"

/* Status word (SDM vol. 1, 8.1.3). */
enum {
	X87_IE = 1 << 0,
	X87_DE = 1 << 1,
	X87_ZE = 1 << 2,
	X87_OE = 1 << 3,
	X87_UE = 1 << 4,
	X87_PE = 1 << 5,
	X87_SF = 1 << 6,
	X87_ES = 1 << 7,
	X87_C0 = 1 << 8,
	X87_C1 = 1 << 9,
	X87_C2 = 1 << 10,
	X87_C3 = 1 << 14,
	X87_B = 1 << 15,
	X87_EXC = 0x3f,
	X87_CC = X87_C0 | X87_C1 | X87_C2 | X87_C3,
	X87_TOP_MASK = 7 << 11,
};

/* Exceptions that, unmasked, suppress the result: the destination and TOP
 * stay unchanged (SDM vol. 1, 8.5.1-8.5.3); for a memory destination
 * overflow and underflow suppress the store too (checked on the host). */
#define X87_ABORT_REG (X87_IE | X87_DE | X87_ZE)
#define X87_ABORT_MEM (X87_IE | X87_DE | X87_ZE | X87_OE | X87_UE)

/* An 80-bit register image; st[] slots are copied with memcpy so no host
 * x87 load/store touches them outside the runner. */
union x87_val {
	long double ld;
	struct {
		uint64_t mant;
		uint16_t sexp;
	} p;
	uint8_t b[16];
};

static inline void x87_indefinite(union x87_val *v)
{
	memset(v, 0, sizeof(*v));
	v->p.mant = 0xc000000000000000ull;
	v->p.sexp = 0xffff;
}

static inline unsigned x87_phys(const struct x86_cpu *c, unsigned i)
{
	return (c->fpu.top + i) & 7;
}

static inline int x87_valid(const struct x86_cpu *c, unsigned i)
{
	return (c->fpu.tag >> x87_phys(c, i)) & 1;
}

static inline void x87_get(const struct x86_cpu *c, unsigned i, union x87_val *v)
{
	memset(v, 0, sizeof(*v));
	memcpy(v, &c->fpu.st[x87_phys(c, i)], 10);
}

/* Write ST(i) and mark it valid. */
static inline void x87_set(struct x86_cpu *c, unsigned i, const union x87_val *v)
{
	unsigned p = x87_phys(c, i);
	memcpy(&c->fpu.st[p], v, 10);
	c->fpu.tag |= 1u << p;
}

static inline void x87_pop(struct x86_cpu *c)
{
	c->fpu.tag &= ~(1u << c->fpu.top);
	c->fpu.top = (c->fpu.top + 1) & 7;
}

/* Push v (the caller checked that ST(7) was empty). */
static inline void x87_push(struct x86_cpu *c, const union x87_val *v)
{
	c->fpu.top = (c->fpu.top - 1) & 7;
	x87_set(c, 0, v);
}

/* ES and B follow the unmasked exception flags (SDM vol. 1, 8.1.3.1). */
static inline void x87_update_es(struct x86_cpu *c)
{
	if (c->fpu.fsw & ~c->fpu.fcw & X87_EXC)
		c->fpu.fsw |= X87_ES | X87_B;
	else
		c->fpu.fsw &= (uint16_t) ~(X87_ES | X87_B);
}

/* Merge exception flags (sticky) and set the condition codes in ccmask
 * from hsw, a status word produced by the host. */
static inline void x87_flags(struct x86_cpu *c, unsigned hsw, unsigned ccmask)
{
	c->fpu.fsw = (uint16_t)((c->fpu.fsw & ~ccmask) | (hsw & ccmask) | (hsw & X87_EXC));
	x87_update_es(c);
	/* the conditions a processor hands to microcode (x86.h: X86_ASSIST_*) */
	if (X86_UNLIKELY(hsw & (X87_DE | X87_OE | X87_UE)))
		x86_assist_note(c, (hsw & X87_DE ? X86_ASSIST_X87_IN : 0) |
					   (hsw & X87_UE ? X86_ASSIST_X87_UNDER : 0) |
					   (hsw & X87_OE ? X86_ASSIST_X87_OVER : 0));
}

/* Whether the host status word hsw reports an unmasked exception of mask. */
static inline int x87_aborted(const struct x86_cpu *c, unsigned hsw, unsigned mask)
{
	return (hsw & ~c->fpu.fcw & mask) != 0;
}

/* Status word as the guest reads it (TOP included). */
static inline uint16_t x87_fsw(const struct x86_cpu *c)
{
	return (uint16_t)((c->fpu.fsw & ~X87_TOP_MASK) | (c->fpu.top << 11));
}

/* Every waiting x87 instruction starts with x87_begin (pending unmasked
 * exception → SIGFPE, then FIP/FOP/FDP as for a non-control instruction);
 * control instructions that wait use x87_wait only. */
void x86_x87_wait(struct x86_cpu *c, const struct x86_insn *i);
void x86_x87_begin(struct x86_cpu *c, const struct x86_insn *i);
uint16_t x86_x87_fop(uint64_t pc);

/* Stack faults (SDM vol. 1, 8.5.1.1).  Each sets IE|SF and C1, and returns
 * 1 when the exception is masked (the caller then stores the indefinite),
 * 0 when unmasked (the caller changes nothing). */
int x86_x87_underflow(struct x86_cpu *c);
int x86_x87_overflow(struct x86_cpu *c);
/* Masked underflow response for an operation writing ST(dst) then popping
 * pop times: ST(dst) = indefinite.  Returns after handling either case. */
void x86_x87_underflow_to(struct x86_cpu *c, unsigned dst, int pop);
/* The x87 as fninit leaves it (control and status words, tags, pointers). */
void x86_x87_init(struct x86_cpu *c);

/* The host x87 running one instruction (x87_host.c) under c's control
 * word and condition codes.  Inputs: a is ST(0), b is ST(1) for two-input
 * ops; m is a memory source of the op's size.  The values the op leaves
 * on the stack are popped into r[0] (ST(0)), r[1]; o receives a memory
 * destination.  Returns the host status word just after the instruction
 * (its C0-C3 are the guest's new condition codes); h->nout says how many
 * values it left. */
enum x87_hop {
	/* loads: no input */
	X87_H_FLDS,
	X87_H_FLDL,
	X87_H_FILDS,
	X87_H_FILDL,
	X87_H_FILDQ,
	X87_H_FBLD,
	X87_H_FLD1,
	X87_H_FLDZ,
	X87_H_FLDPI,
	X87_H_FLDL2E,
	X87_H_FLDL2T,
	X87_H_FLDLG2,
	X87_H_FLDLN2,
	/* stores: input ST(0), result in o */
	X87_H_FSTS,
	X87_H_FSTL,
	X87_H_FISTS,
	X87_H_FISTL,
	X87_H_FISTPQ,
	X87_H_FISTTPS,
	X87_H_FISTTPL,
	X87_H_FISTTPQ,
	X87_H_FBSTP,
	/* ST(0) op= memory, in the order add mul sub subr div divr */
	X87_H_FADDS,
	X87_H_FMULS,
	X87_H_FSUBS,
	X87_H_FSUBRS,
	X87_H_FDIVS,
	X87_H_FDIVRS,
	X87_H_FADDL,
	X87_H_FMULL,
	X87_H_FSUBL,
	X87_H_FSUBRL,
	X87_H_FDIVL,
	X87_H_FDIVRL,
	X87_H_FIADDS,
	X87_H_FIMULS,
	X87_H_FISUBS,
	X87_H_FISUBRS,
	X87_H_FIDIVS,
	X87_H_FIDIVRS,
	X87_H_FIADDL,
	X87_H_FIMULL,
	X87_H_FISUBL,
	X87_H_FISUBRL,
	X87_H_FIDIVL,
	X87_H_FIDIVRL,
	/* ST(0) op= ST(1), same order */
	X87_H_FADD,
	X87_H_FMUL,
	X87_H_FSUB,
	X87_H_FSUBR,
	X87_H_FDIV,
	X87_H_FDIVR,
	/* compares of ST(0) with memory or ST(1) */
	X87_H_FCOMS,
	X87_H_FCOML,
	X87_H_FICOMS,
	X87_H_FICOML,
	X87_H_FCOM,
	X87_H_FUCOM,
	X87_H_FCOMI,
	X87_H_FUCOMI,
	X87_H_FTST,
	X87_H_FXAM,
	/* one input */
	X87_H_FSQRT,
	X87_H_FRNDINT,
	X87_H_F2XM1,
	X87_H_FSIN,
	X87_H_FCOS,
	X87_H_FPTAN,
	X87_H_FSINCOS,
	X87_H_FXTRACT,
	/* two inputs */
	X87_H_FSCALE,
	X87_H_FPREM,
	X87_H_FPREM1,
	X87_H_FYL2X,
	X87_H_FYL2XP1,
	X87_H_FPATAN,
	X87_H_COUNT
};

struct x87_host {
	union x87_val a, b; /* inputs */
	union x87_val r[2]; /* outputs: r[0] = host ST(0) after the op */
	union x87_val o;    /* memory destination */
	union x87_val m;    /* memory source (low bytes) */
	unsigned nout;	    /* values left on the host stack by the op */
	unsigned eflags;    /* fcomi/fucomi: ZF, PF, CF as the host set them */
};

uint16_t x86_x87_host(const struct x86_cpu *c, enum x87_hop op, struct x87_host *h);

/* Per-file handler registration. */
void x86_x87_stack_register(x86_fn *tab);
void x86_x87_arith_register(x86_fn *tab);
void x86_x87_trans_register(x86_fn *tab);
void x86_x87_env_register(x86_fn *tab);

/* The 512-byte FXSAVE image (SDM vol. 1, 10.5.1, 64-bit layout) of c's x87,
 * MXCSR and XMM state, and loading it back.  They use c->mxcsr and
 * c->fpu.fcw: code inside x86_run() calls x86_fp_sync_out() before
 * x86_fxsave_to() and x86_fp_sync_in() after x86_fxrstor_from().  buf needs
 * no alignment; bytes 416-511 are neither written nor read. */
void x86_fxsave_to(struct x86_cpu *c, void *buf512);
void x86_fxrstor_from(struct x86_cpu *c, const void *buf512);

/* The state a signal handler starts with (what Linux gives it: the x87
 * as after fninit, MXCSR 0x1f80).  Only c changes: inside x86_run() the
 * caller follows with x86_fp_sync_in(). */
void x86_fpu_reset(struct x86_cpu *c);

/* Host control registers (inside x86_run() they hold the guest's). */
static inline void x87_host_fldcw(uint16_t cw)
{
	/* fnclex first: fldcw waits, and must not trap on host leftovers */
	__asm__ volatile("fnclex\n\tfldcw %0" : : "m"(cw));
}

static inline uint32_t x87_host_stmxcsr(void)
{
	uint32_t v;
	__asm__ volatile("stmxcsr %0" : "=m"(v));
	return v;
}

static inline void x87_host_ldmxcsr(uint32_t v)
{
	__asm__ volatile("ldmxcsr %0" : : "m"(v));
}

#endif
