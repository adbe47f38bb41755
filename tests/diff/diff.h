/* diff.h — differential instruction tests: the form table's encoding, the
 * machine state both sides start from and end in, and the pieces of the
 * runner.  Included by C and by the assembly files (tramp.S, forms*.S), so
 * the part above __ASSEMBLER__ is plain #defines.
 */
#ifndef VPMU_DIFF_H
#define VPMU_DIFF_H

/* Fixed addresses: the code page and, right after it, the scratch memory
 * every memory operand points into.  Below 4 GiB so that 0x67 (32-bit
 * address) forms reach it too; fixed so that the form table may name
 * absolute addresses (moffs forms). */
#define DIFF_CODE 0x30000000
#define DIFF_PAGE 4096
#define DIFF_BUF (DIFF_CODE + DIFF_PAGE)
#define DIFF_BUFSZ 8192
#define DIFF_MEM (DIFF_BUF + 0x800)    /* rbx of forms with O_MEM */
#define DIFF_SRC (DIFF_BUF + 0x300)    /* rsi of string forms (+0..0x100) */
#define DIFF_DST (DIFF_BUF + 0xb00)    /* rdi of string forms (+0..0x100) */
#define DIFF_STACK (DIFF_BUF + 0x1800) /* rsp of every form */
#define DIFF_TARGET 64		       /* taken-branch target: code + 64 */

/* struct diff_state offsets (checked by _Static_assert below) */
#define DS_R 0
#define DS_FLAGS 128
#define DS_EXIT 136
#define DS_FX 192

/* Arithmetic flags defined after a form (the SDM's undefined ones left out) */
#define FL_CF 0x001
#define FL_PF 0x004
#define FL_AF 0x010
#define FL_ZF 0x040
#define FL_SF 0x080
#define FL_OF 0x800
#define FL_ALL 0x8d5
#define FL_LOGIC (FL_ALL & ~FL_AF) /* and/or/xor/test: AF undefined */
#define FL_MUL (FL_CF | FL_OF)	   /* mul/imul: SF ZF AF PF undefined */
#define FL_BT (FL_CF | FL_ZF)	   /* bt*: OF SF AF PF undefined */
#define FL_BSF FL_ZF		   /* bsf/bsr: CF OF SF AF PF undefined */
#define FL_NONE 0

/* Options: how inputs are prepared and what is compared */
#define O_MEM 0x001    /* rbx = DIFF_MEM */
#define O_IDX 0x002    /* r12 = small signed index */
#define O_STR 0x004    /* rsi/rdi into the buffer, small rcx, repetitive memory */
#define O_BR 0x008     /* may branch to code + DIFF_TARGET */
#define O_FU 0x010     /* x87: C0 C2 C3 undefined afterwards */
#define O_FAULT 0x020  /* faults are expected on some inputs: compare them */
#define O_RCX 0x040    /* rcx = 0..3 (loop, jrcxz) */
#define O_TGT 0x080    /* rax and [rbx] = code + DIFF_TARGET (indirect jmp/call) */
#define O_RET 0x100    /* [rsp] = code + DIFF_TARGET (ret) */
#define O_APPROX 0x200 /* rcp/rsqrt: lanes compared within the SDM's error bound */
#define O_C1U 0x400    /* x87: C1 undefined afterwards too */
#define O_M80 0x800    /* [rbx] holds an 80-bit extended value */
#define O_M64 0x1000   /* [rbx] holds a double */
#define O_M32 0x2000   /* [rbx] holds a float */
#define O_PS 0x4000    /* approximation lanes are 4 floats (else 1) */
#define O_C2 0x8000    /* x87: C2 defined even with O_FU (trigonometry) */
#define O_CX16 0x10000 /* needs CPUID.CX16: skipped when the emulated CPUID lacks it */

/* Classes: input constraints and flag masks that depend on the inputs.
 * cls word = class | size << 8 | arg << 16 */
#define CLS(c, sz, arg) ((c) | ((sz) << 8) | ((arg) << 16))
#define C_NONE 0
#define C_SHL 1 /* shl/sal: arg = immediate count, 0xff = %cl */
#define C_SHR 2
#define C_SAR 3
#define C_ROT 4 /* rol/ror */
#define C_RCX 5 /* rcl/rcr */
#define C_SHD 6 /* shld/shrd */
#define C_DIV 7 /* div: arg 0 = divisor %rcx, 1 = divisor (%rbx) */
#define C_IDIV 8
#define C_DIVF 9 /* div that faults: divisor 0 or quotient overflow */
#define C_IDIVF 10
#define C_BTM 11     /* bt* with memory and register offset: rcx in [-1024, 1023] */
#define C_NZ 12	     /* source %rcx non-zero (rep bsf = tzcnt on newer hosts) */
#define C_CMPX 13    /* cmpxchg: arg 0 dest %rdx, 1 dest (%rbx); rax often equal */
#define C_CMPX2 14   /* cmpxchg8b/16b: rdx:rax often equal to memory */
#define C_POPF 15    /* popf: [rsp] holds flags user mode may set */
#define C_LEAVE 16   /* rbp points into the stack */
#define C_LDMX 17    /* [rbx] = a valid MXCSR value */
#define C_LDCW 18    /* [rbx] = a valid x87 control word (exceptions masked) */
#define C_FXRS 19    /* [rbx] = a valid FXSAVE image */
#define C_FENV 20    /* [rbx] = a valid 28-byte x87 environment */
#define C_XCNT 21    /* SSE shift by register: xmm2 and [rbx] hold small counts */
#define C_FXSAVE 22  /* fxsave: image fields hardware leaves alone are not compared */
#define C_MASKMOV 23 /* maskmovdqu: rdi = DIFF_MEM */
#define C_FSTENV 24  /* fnstenv/fnsave: instruction/operand pointer fields not compared */
#define C_BCD 25     /* [rbx] = valid packed BCD (fbld) */
#define C_FRSTOR 26  /* [rbx] = a valid 108-byte fnsave image */

#ifndef __ASSEMBLER__
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include "emu/x86/x86.h"

/* One record of the form table (section diff_forms, built by forms.h). */
struct diff_form {
	const uint8_t *code, *end;
	const char *text;
	uint32_t flags; /* FL_*: arithmetic flags defined afterwards */
	uint32_t opts;	/* O_* */
	uint32_t cls;	/* CLS() */
	uint32_t pad;
};

/* Architectural state of one side: GPRs, RFLAGS, which exit was reached,
 * and an FXSAVE image for x87/MXCSR/XMM (the native side loads and stores
 * it with fxrstor64/fxsave64). */
struct diff_state {
	uint64_t r[16];
	uint64_t rflags;
	uint64_t exit; /* 0: fell through, 1: reached code + DIFF_TARGET */
	uint64_t pad[6];
	uint8_t fx[512];
} __attribute__((aligned(64)));

_Static_assert(offsetof(struct diff_state, r) == DS_R, "DS_R");
_Static_assert(offsetof(struct diff_state, rflags) == DS_FLAGS, "DS_FLAGS");
_Static_assert(offsetof(struct diff_state, exit) == DS_EXIT, "DS_EXIT");
_Static_assert(offsetof(struct diff_state, fx) == DS_FX, "DS_FX");

/* FXSAVE image offsets (SDM vol. 1, 10.5.1, table 10-2) */
enum {
	FX_FCW = 0,
	FX_FSW = 2,
	FX_FTW = 4,
	FX_MXCSR = 24,
	FX_ST = 32,
	FX_XMM = 160,
};

/* How one run ended. */
struct diff_out {
	struct diff_state s;
	int fault;	 /* signal number, 0 when the run reached an exit */
	int code;	 /* si_code */
	uint64_t pc;	 /* faulting instruction */
	int unsupported; /* the emulator does not implement the instruction */
	int lost;	 /* the emulator ran off somewhere else (message in why) */
	char why[96];
	uint8_t mem[DIFF_BUFSZ];
};

/* splitmix64 */
struct diff_rng {
	uint64_t s;
};

static inline uint64_t diff_rand(struct diff_rng *g)
{
	uint64_t z = (g->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* gen.c: the random input state of one case and the scratch memory */
void diff_gen(struct diff_rng *g, const struct diff_form *f, struct diff_state *s, uint8_t *mem);
uint64_t diff_gen_gpr(struct diff_rng *g);
void diff_fx_random(struct diff_rng *g, uint8_t *fx);

/* run.c: both sides */
struct diff_runner;
struct diff_runner *diff_runner_new(void);
void diff_runner_free(struct diff_runner *r);
/* Start a new form: forget decoded code. */
void diff_runner_form(struct diff_runner *r, const struct diff_form *f);
void diff_run_emu(struct diff_runner *r, const struct diff_form *f, const struct diff_state *in,
		  const uint8_t *mem, struct diff_out *o);
void diff_run_native(struct diff_runner *r, const struct diff_form *f, const struct diff_state *in,
		     const uint8_t *mem, struct diff_out *o);
/* Run raw code in the emulator until it faults (ud2 ends it): for sys.c. */
enum x86_exit diff_run_code(struct diff_runner *r, struct x86_cpu *c, const uint8_t *code,
			    size_t n);

/* coverage.c: every mnemonic the emulator implements has a form here, or
 * a reason not to */
void diff_coverage(int verbose, unsigned *pass, unsigned *fail);

/* sys.c: cpuid, rdtsc, xgetbv, rdtscp — not host-identical by design */
void diff_sys_tests(struct diff_runner *r, int verbose, unsigned *pass, unsigned *fail,
		    unsigned long *cases);

/* The trampoline (tramp.S): run code natively with state s loaded; the code
 * ends with a jump to diff_native_ret0 or diff_native_ret1. */
void diff_native_run(struct diff_state *s, const void *code);
void diff_native_ret0(void);
void diff_native_ret1(void);

#endif /* __ASSEMBLER__ */
#endif
