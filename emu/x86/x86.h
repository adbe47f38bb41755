/* x86.h — the guest x86-64 processor: architectural state, the decoded
 * instruction form, and the block-cached interpreter.
 *
 * Guest memory is host memory (DESIGN.md): a guest address is dereferenced
 * directly.  The OS layer (emu/linux) supplies the syscall hook and turns
 * host faults into guest faults through x86_host_fault().
 */
#ifndef VPMU_X86_H
#define VPMU_X86_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

/* General registers in encoding order; slot 16 always reads 0 so an absent
 * base or index costs nothing in address arithmetic. */
enum {
	X86_RAX,
	X86_RCX,
	X86_RDX,
	X86_RBX,
	X86_RSP,
	X86_RBP,
	X86_RSI,
	X86_RDI,
	X86_R8,
	X86_R9,
	X86_R10,
	X86_R11,
	X86_R12,
	X86_R13,
	X86_R14,
	X86_R15,
	X86_RNONE,
	X86_NREG
};

/* RFLAGS bits (SDM vol. 1, 3.4.3). */
enum {
	X86_CF = 1u << 0,
	X86_PF = 1u << 2,
	X86_AF = 1u << 4,
	X86_ZF = 1u << 6,
	X86_SF = 1u << 7,
	X86_TF = 1u << 8,
	X86_IF = 1u << 9,
	X86_DF = 1u << 10,
	X86_OF = 1u << 11,
	X86_AC = 1u << 18,
	X86_ID = 1u << 21,
	X86_ARITH = X86_CF | X86_PF | X86_AF | X86_ZF | X86_SF | X86_OF,
};

/* Lazy arithmetic flags: the last flag-setting operation and its operands.
 * lf_op = (kind << 2) | log2(size). X86_LF_EAGER means cpu->eflags already
 * holds the six arithmetic flags. */
enum {
	X86_LF_EAGER,
	X86_LF_ADD,
	X86_LF_ADC,
	X86_LF_SUB,
	X86_LF_SBB,
	X86_LF_LOGIC,
	X86_LF_INC,
	X86_LF_DEC,
	X86_LF_NEG,
	X86_LF_SHL,
	X86_LF_SHR,
	X86_LF_SAR,
};

typedef union {
	uint8_t b[16];
	uint16_t w[8];
	uint32_t d[4];
	uint64_t q[2];
	int8_t sb[16];
	int16_t sw[8];
	int32_t sd[4];
	int64_t sq[2];
	float f[4];
	double fd[2];
} __attribute__((aligned(16))) x86_xmm;

/* x87 state.  Registers are kept as host long double (the host is x86-64,
 * so that is the same 80-bit extended format); st[] is indexed physically,
 * ST(i) is st[(top + i) & 7]. */
struct x86_fpu {
	long double st[8];
	uint16_t fcw; /* control word */
	uint16_t fsw; /* status word with TOP bits cleared */
	uint8_t top;
	uint8_t tag; /* abridged tag word: bit i set = st[i] valid */
	uint16_t fop;
	uint64_t fip, fdp;
};

/* Functional event counts the interpreter knows exactly.  The OS layer may
 * point cpu->cnt at shared memory so counts survive a killed guest. */
struct x86_counts {
	uint64_t insns;
	uint64_t branches; /* control transfers retired (jcc, jmp, call, ret, loop…) */
	uint64_t taken;	   /* of those, taken */
	uint64_t loads;	   /* instructions that read memory */
	uint64_t stores;   /* instructions that write memory */
	uint64_t syscalls;
};

struct x86_cpu;
struct x86_insn;
typedef void (*x86_fn)(struct x86_cpu *c, const struct x86_insn *i);

/* Operand kinds of x86_insn.op[] (explicit operands only; implicit ones —
 * rAX of mul, rSI/rDI of string ops, the stack of push — are the handler's). */
enum {
	X86_OP_NONE,
	X86_OP_GPR,   /* reg 0..15, size 1/2/4/8 */
	X86_OP_GPR8H, /* AH, CH, DH, BH: reg 0..3, high byte of that register */
	X86_OP_MEM,   /* the insn's memory operand (base/index/scale/disp/seg) */
	X86_OP_IMM,   /* insn.imm, sign-extended */
	X86_OP_XMM,   /* reg 0..15 */
	X86_OP_MMX,   /* reg 0..7 */
	X86_OP_ST,    /* x87 ST(reg) */
	X86_OP_SEG,   /* segment register, reg = ES,CS,SS,DS,FS,GS = 0..5 */
	X86_OP_REL,   /* branch target: insn.imm holds the absolute address */
	X86_OP_OTHER, /* control/debug/flags registers etc.: handler decides */
};

enum { X86_SEG_NONE, X86_SEG_FS, X86_SEG_GS };

/* insn.flags */
enum {
	X86_I_LOCK = 1 << 0,
	X86_I_REP = 1 << 1,    /* F3 on a string instruction (rep / repe) */
	X86_I_REPNE = 1 << 2,  /* F2 on a string instruction */
	X86_I_LOAD = 1 << 3,   /* reads memory (explicit or implicit) */
	X86_I_STORE = 1 << 4,  /* writes memory */
	X86_I_BRANCH = 1 << 5, /* control transfer; ends the block */
	X86_I_END = 1 << 6,    /* ends the block (branches, syscall, hlt, …) */
	/* operands general registers and immediates only, no memory operand,
	 * implicit access or lock/rep prefix, nothing but general registers
	 * and flags written */
	X86_I_GPR = 1 << 7,
};

struct x86_op {
	uint8_t kind;
	uint8_t size; /* bytes; 10 for m80, 16 for xmm, 0 when not meaningful */
	uint8_t reg;
	uint8_t pad;
};

/* One decoded instruction.  Everything a handler needs is here; the
 * interpreter never looks at Zydis structures. */
struct x86_insn {
	x86_fn fn;
	uint64_t pc;   /* guest address of this instruction */
	int64_t disp;  /* memory displacement; absolute for RIP-relative */
	int64_t imm;   /* immediate, sign-extended to 64 bits */
	uint16_t mnem; /* ZydisMnemonic */
	uint8_t len;
	uint8_t osz;			 /* operation size in bytes (effective operand size) */
	uint8_t asz;			 /* address size in bytes: 8, or 4 with a 0x67 prefix */
	uint8_t base, index, shift, seg; /* memory operand */
	uint8_t nops;			 /* explicit operands in op[] */
	uint8_t flags;			 /* X86_I_* */
	uint8_t imm2;			 /* second immediate (enter, extrq…) */
	uint8_t cc;			 /* condition code 0..15 for jcc/setcc/cmovcc/fcmov */
	uint8_t xclass;			 /* X86_XC_*: what kind of operation, for timing models */
	uint8_t imp;			 /* X86_IMP_*: implicit memory access (stack, strings) */
	uint8_t simd;			 /* X86_SIMD_*: the FP or SIMD data it works on, for PMUs */
	uint8_t mact;  /* the explicit memory operand: bit 0 read, bit 1 written */
	uint8_t msize; /* its op[].size (0: unsized); 8 when op[] holds no memory operand */
	struct x86_op op[4];
	uint64_t rd, wr; /* architectural state read / written: X86_DEP_* bits */
	/* room for what the consumer of the trace derives from the
	 * instruction (x86_cache_set_aux()), zeroed at decode; NULL if it
	 * asked for none */
	void *aux;
};

/* Operation classes (insn.xclass).  Architectural kinds only; how a machine
 * splits them into µops and how long they take is emu/uarch's business. */
enum {
	X86_XC_NOP,
	X86_XC_INT,
	X86_XC_MOVE,
	X86_XC_SHIFT,
	X86_XC_IMUL,
	X86_XC_IDIV,
	X86_XC_JCC,
	X86_XC_JMP,
	X86_XC_JMP_IND,
	X86_XC_CALL,
	X86_XC_CALL_IND,
	X86_XC_RET,
	X86_XC_FADD,
	X86_XC_FMUL,
	X86_XC_FDIV,
	X86_XC_FMOV,
	X86_XC_SIMD,
	X86_XC_SIMD_MUL,
	X86_XC_X87_COMPLEX,
	X86_XC_STRING,
	X86_XC_SYSCALL,
	X86_XC_COMPLEX,
	X86_XC_FENCE,
	X86_XC_PAUSE,
	X86_NXCLASS
};

/* The register file and data format of an x87, MMX, SSE or AVX
 * instruction (insn.simd & X86_SIMD_KIND), and whether it only moves data
 * (loads, stores, register-to-register moves: X86_SIMD_MOVE). Integer
 * instructions have X86_SIMD_NONE. */
enum {
	X86_SIMD_NONE,
	X86_SIMD_X87,
	X86_SIMD_MMX, /* integer on 64-bit MMX registers */
	X86_SIMD_INT, /* integer on XMM (YMM) registers */
	X86_SIMD_PS,  /* packed single precision */
	X86_SIMD_PD,
	X86_SIMD_SS, /* scalar single precision */
	X86_SIMD_SD,
};
#define X86_SIMD_KIND 0x7
#define X86_SIMD_MOVE 0x8

/* Implicit memory accesses (insn.imp). */
enum {
	X86_IMP_NONE,
	X86_IMP_PUSH,
	X86_IMP_POP,
	X86_IMP_LEAVE,
	X86_IMP_MOVS,
	X86_IMP_STOS,
	X86_IMP_LODS,
	X86_IMP_CMPS,
	X86_IMP_SCAS
};

/* Dependency bits of insn.rd / insn.wr. */
#define X86_DEP_GPR(n) (1ull << (n))	    /* 0..15 */
#define X86_DEP_XMM(n) (1ull << (16 + (n))) /* 16..31 */
#define X86_DEP_FLAGS (1ull << 32)
#define X86_DEP_X87 (1ull << 33)   /* the x87 stack, as one resource */
#define X86_DEP_FPCTL (1ull << 34) /* MXCSR, x87 control/status */
#define X86_DEP_MMX (1ull << 35)

/* One retired instruction as timed mode reports it (cpu->trace). */
/* Registers and lazy flags before an instruction executed (timed mode,
 * when x86_cpu.keep_pre asks: precise sampling records them). */
struct x86_pre {
	uint64_t r[16];
	uint32_t lf_op, eflags;
	uint64_t lf_dst, lf_src, lf_res, lf_aux;
};

struct x86_trace {
	const struct x86_insn *i;
	const struct x86_pre *pre; /* state before it (NULL unless keep_pre) */
	const struct x86_cpu *cpu; /* state after the instruction (the timing
				    * model's front end reads registers and
				    * decoded code on a mispredicted path) */
	uint64_t next;		   /* address of the next instruction executed, for
				    * the last of a block (every branch); before
				    * that, the block's end */
	uint64_t addr[2];	   /* data accesses: explicit operand, or implicit ones
				    * (addr[] and size[] past nmem: unspecified) */
	uint32_t size[2];	   /* bytes; a rep string op: all its iterations */
	uint8_t nmem;		   /* 0..2 */
	uint8_t load;		   /* bit k: access k reads */
	uint8_t store;		   /* bit k: access k writes (both: read-modify-write) */
	uint8_t taken;		   /* a control transfer that went to its target */
	uint32_t reps;		   /* iterations of a rep-prefixed string instruction */
};

#define X86_BLOCK_MAX 64 /* instructions a block holds at most */

struct x86_block {
	uint64_t pc, end;	   /* guest bytes [pc, end) */
	struct x86_block *hnext;   /* hash chain */
	struct x86_block *succ[2]; /* chaining cache: last two successors */
	uint32_t ninsn, nload, nstore, nbranch;
	struct x86_insn insn[];
};

/* Why x86_run() returned. */
enum x86_exit {
	X86_EXIT_BUDGET,      /* instruction budget used up */
	X86_EXIT_STOP,	      /* the OS layer set cpu->stop (exit, switch thread, signal) */
	X86_EXIT_FAULT,	      /* a guest fault: cpu->fault holds it */
	X86_EXIT_UNSUPPORTED, /* an instruction the emulator does not implement */
};

struct x86_fault {
	int sig;	   /* SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP */
	int code;	   /* si_code */
	uint64_t addr;	   /* si_addr: faulting data address, or the instruction */
	uint64_t pc;	   /* instruction at which the fault happened */
	uint8_t bytes[16]; /* for X86_EXIT_UNSUPPORTED: the instruction bytes */
	uint8_t nbytes;
};

/* What made an instruction need a floating-point assist, microcode
 * handling a special operand or result, on processors that take one (the
 * P4's SSE_INPUT_ASSIST and X87_ASSIST: SDM vol. 3B, tables;
 * IA-32 Intel Architecture Optimization Reference Manual, ch. 2,
 * "Floating-point Exceptions"). */
enum {
	X86_ASSIST_SSE_IN = 1 << 0,    /* SSE/SSE2 denormal source, DAZ clear */
	X86_ASSIST_SSE_OUT = 1 << 1,   /* SSE/SSE2 denormal result (FTZ clear) */
	X86_ASSIST_X87_IN = 1 << 2,    /* x87 denormal operand (DE) */
	X86_ASSIST_X87_UNDER = 1 << 3, /* x87 result underflow (UE) */
	X86_ASSIST_X87_OVER = 1 << 4,  /* x87 result overflow (OE) */
	X86_ASSIST_X87_SU = 1 << 5,    /* x87 stack underflow */
	X86_ASSIST_X87_SO = 1 << 6,    /* x87 stack overflow */
};
struct x86_assist {
	const struct x86_insn *i;
	unsigned kinds; /* X86_ASSIST_* */
};

struct x86_cache; /* the block cache, private to exec.c */
struct x86_model; /* what CPUID reports (cpuid.c) */

struct x86_cpu {
	uint64_t r[X86_NREG];
	uint64_t rip;
	uint64_t seg_base[3]; /* indexed by X86_SEG_*: [0] = 0, fs, gs */
	uint16_t seg_sel[6];

	/* arithmetic flags, lazily (see X86_LF_*); other RFLAGS bits live in eflags */
	uint32_t lf_op;
	uint32_t eflags;
	uint64_t lf_dst, lf_src, lf_res, lf_aux;

	x86_xmm xmm[16];
	uint32_t mxcsr;
	uint64_t mmx[8]; /* MMX registers alias x87 st[] mantissas on hardware;
			    kept apart here (no mixed x87/MMX code in the ISA
			    subset we run) */
	struct x86_fpu fpu;

	/* execution */
	const struct x86_insn *cur;  /* instruction executing now */
	const struct x86_block *blk; /* block executing now */
	struct x86_counts *cnt;
	struct x86_cache *cache; /* may be shared by the threads of a process */
	const struct x86_model *model;
	volatile int stop; /* set by hooks to leave x86_run() */
	struct x86_fault fault;
	jmp_buf *jb; /* active while inside x86_run() */

	/* timed mode: called for every retired instruction when set */
	void (*trace)(void *arg, const struct x86_trace *t);
	/* Optional, with trace, when nothing reads a thread's state as each
	 * instruction retires: a block's instructions at once, after the
	 * block ran or before the emulator calls out of it (a system call,
	 * a fault, the end of the process) */
	void (*trace_block)(void *arg, const struct x86_trace *t, unsigned n);
	void *trace_arg;
	/* the trace hook while the current instruction's report is skipped
	 * (x86_uncount_current_block) */
	void (*trace_resume)(void *arg, const struct x86_trace *t);
	int keep_pre; /* fill pre before each instruction (trace.pre) */
	struct x86_pre pre;

	/* services of the OS layer */
	void (*syscall)(struct x86_cpu *c); /* rax = number; result into rax */
	void *os;			    /* the OS layer's per-thread state */

	/* with trace_block: the reports of the current block's
	 * instructions, the first nsent handed over already; drop_last: the
	 * last is the hook's already (x86_uncount_current_block) */
	unsigned nsent;
	int drop_last;
	struct x86_trace pend[X86_BLOCK_MAX];

	/* timed mode: the current block's instructions that needed an
	 * assist, in order (emptied as each block starts: each of its
	 * instructions has one entry at most) */
	unsigned nassist;
	struct x86_assist assist[X86_BLOCK_MAX];
};

/* The executing instruction needs an assist for kinds (X86_ASSIST_*). */
static inline void x86_assist_note(struct x86_cpu *c, unsigned kinds)
{
	if (c->nassist && c->assist[c->nassist - 1].i == c->cur)
		c->assist[c->nassist - 1].kinds |= kinds;
	else if (c->nassist < X86_BLOCK_MAX)
		c->assist[c->nassist++] = (struct x86_assist){ c->cur, kinds };
}

/* The assists instruction i of the current block needed (X86_ASSIST_*). */
static inline unsigned x86_assists(const struct x86_cpu *c, const struct x86_insn *i)
{
	for (unsigned k = 0; k < c->nassist; k++)
		if (c->assist[k].i == i)
			return c->assist[k].kinds;
	return 0;
}

/* Create an empty block cache; destroy it. */
struct x86_cache *x86_cache_new(void);
void x86_cache_free(struct x86_cache *cc);
/* Called once for every guest page the first time code is decoded from it,
 * so the OS layer can write-protect writable code pages and learn of
 * self-modifying writes. */
void x86_cache_set_code_hook(struct x86_cache *cc, void (*fn)(void *arg, uint64_t page), void *arg);
/* Give every instruction decoded from now on size bytes of zeroed room
 * (x86_insn.aux, 8-byte aligned), which the consumer of the trace fills as
 * it likes: it lives and dies with the decoded code. */
void x86_cache_set_aux(struct x86_cache *cc, size_t size);
/* Forget every decoded block (code was written or unmapped).  Safe to call
 * from a signal handler or a hook: the flush happens at the next block. */
void x86_cache_invalidate(struct x86_cache *cc, uint64_t addr, uint64_t len);
/* The decoded block starting at pc, if there is one (never decodes: a
 * timing model following a mispredicted path must not touch memory). */
const struct x86_block *x86_cache_peek(const struct x86_cache *cc, uint64_t pc);
/* The same, looked for first among the successors prev (NULL: none)
 * remembers, as the block after prev usually is one of them. */
const struct x86_block *x86_cache_peek_after(const struct x86_cache *cc,
					     const struct x86_block *prev, uint64_t pc);
/* Whether any decoded block overlaps [addr, addr+len). */
int x86_cache_has_code(struct x86_cache *cc, uint64_t addr, uint64_t len);

/* With trace_block: hand the reports of the instructions that ran so far
 * to it (the OS layer calls this before it reads the timing model in the
 * middle of a block). */
void x86_trace_flush(struct x86_cpu *c);

/* Put a cpu into its reset state (flags, MXCSR, FCW as the kernel gives a
 * new process). */
void x86_cpu_init(struct x86_cpu *c);

/* Run until the budget of instructions is spent (checked at block
 * boundaries), a hook sets c->stop, or a fault.  Updates *c->cnt. */
enum x86_exit x86_run(struct x86_cpu *c, uint64_t budget);

/* Inside x86_run() the host MXCSR and x87 control word hold the guest's,
 * so FP handlers use host arithmetic directly and exception flags
 * accumulate where the guest expects them.  Code running inside x86_run()
 * (a syscall hook) that reads or replaces the guest's FP control state
 * calls x86_fp_sync_out() first (host -> c->mxcsr, c->fpu.fcw) and
 * x86_fp_sync_in() after (c -> host). */
void x86_fp_sync_out(struct x86_cpu *c);
void x86_fp_sync_in(struct x86_cpu *c);

/* Called from the OS layer's host SIGSEGV/SIGBUS/SIGFPE handler when the
 * host fault happened inside x86_run() of cpu c: does not return. */
_Noreturn void x86_host_fault(struct x86_cpu *c, int sig, int code, uint64_t addr);

/* Whether cpu c is currently executing guest instructions (for signal handlers). */
int x86_in_guest(const struct x86_cpu *c);

/* Raise a guest fault at the current instruction: does not return. */
_Noreturn void x86_raise(struct x86_cpu *c, int sig, int code, uint64_t addr);

/* A hook that ends the process inside the current block (exit, exec)
 * adds the block's counts itself with this (in timed mode, where counting
 * is per instruction, just the instruction running the hook). */
void x86_count_current_block(struct x86_cpu *c);
/* The process goes on after all (a failed exec): undo that count, and in
 * timed mode skip the loop's report of the instruction the hook already
 * reported. */
void x86_uncount_current_block(struct x86_cpu *c);

/* Raise a trap after the current instruction completes (INT3, and the
 * like): the guest resumes after it, and it counts as executed. */
_Noreturn void x86_trap(struct x86_cpu *c, int sig, int code, uint64_t addr);

/* Full RFLAGS, materialising the lazy flags; and setting them. */
uint64_t x86_rflags(struct x86_cpu *c);
/* RFLAGS as they were in a saved pre-instruction state. */
uint64_t x86_pre_rflags(const struct x86_pre *p);
void x86_set_rflags(struct x86_cpu *c, uint64_t v);

/* Decode one instruction at pc into *i (for diagnostics and tests).
 * Returns its length, or 0 when the bytes do not decode. */
int x86_decode_one(uint64_t pc, const uint8_t *bytes, size_t n, struct x86_insn *i);
/* Format the instruction at bytes (AT&T unless intel) into buf. */
int x86_format(uint64_t pc, const uint8_t *bytes, size_t n, int intel, char *buf, size_t bufsz);

/* CPUID as the emulated processor answers it. */
struct x86_model {
	const char *vendor; /* 12 characters */
	const char *brand;  /* up to 48 characters */
	uint32_t signature; /* leaf 1 EAX: stepping, model, family */
	uint32_t logical;   /* logical processors per package (HT) */
};
extern const struct x86_model x86_model_p4_xeon;
void x86_cpuid(const struct x86_model *m, uint32_t leaf, uint32_t sub, uint32_t out[4]);

#endif
