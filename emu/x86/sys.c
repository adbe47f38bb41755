/* sys.c — SYSCALL, CPUID, RDTSC, PAUSE, and the instructions that trap in
 * user mode (UD2, INT3, INT n, HLT and the privileged ones), with the
 * signal Linux delivers for each (arch/x86/kernel/traps.c):
 *   #UD → SIGILL, ILL_ILLOPN, si_addr = the instruction;
 *   #GP → SIGSEGV, si_code SI_KERNEL, si_addr 0, at the instruction;
 *   #BP (int3) → SIGTRAP, SI_KERNEL, the guest resuming after the int3.
 * Fences, CLFLUSH and PREFETCH live with the SSE instructions (sse.c).
 */
#include <errno.h>
#include <signal.h>

#include <Zydis/Zydis.h>

#include "ops.h"

#ifndef SI_KERNEL
#define SI_KERNEL 0x80
#endif

/* RDTSC is deterministic: the time-stamp counter advances by a nominal
 * X86_TSC_PER_INSN cycles per retired instruction, so two runs of the
 * same program read the same values and differences stay proportional to
 * work done. */
#define X86_TSC_PER_INSN 2

/* SYSCALL: the kernel returns with rcx = the next instruction and r11 =
 * RFLAGS (SDM vol. 2, SYSCALL; Linux restores both on sysret).  They are
 * set before the hook runs, so a hook that replaces the whole register
 * state (rt_sigreturn, execve) has the last word. */
static void h_syscall(struct x86_cpu *c, const struct x86_insn *i)
{
	uint64_t next = i->pc + i->len;

	c->r[X86_RCX] = next;
	c->r[X86_R11] = x86_rflags(c);
	c->rip = next;
	x86_trace_flush(c); /* the kernel's time follows what ran before */
	if (c->syscall)
		c->syscall(c);
	else
		c->r[X86_RAX] = (uint64_t)-ENOSYS;
}

static void h_cpuid(struct x86_cpu *c, const struct x86_insn *i)
{
	uint32_t out[4];

	(void)i;
	x86_cpuid(c->model ? c->model : &x86_model_p4_xeon, (uint32_t)c->r[X86_RAX],
		  (uint32_t)c->r[X86_RCX], out);
	c->r[X86_RAX] = out[0];
	c->r[X86_RBX] = out[1];
	c->r[X86_RCX] = out[2];
	c->r[X86_RDX] = out[3];
}

static void h_rdtsc(struct x86_cpu *c, const struct x86_insn *i)
{
	/* add the instructions of this block that ran before us and are not
	 * counted yet: the interpreter counts a block when it completes,
	 * timed mode each instruction as it reports it, a block's reports
	 * as it hands them over (the first nsent) */
	uint64_t n = c->cnt ? c->cnt->insns : 0, tsc;

	if (c->blk && i >= c->blk->insn && i < c->blk->insn + c->blk->ninsn) {
		unsigned before = (unsigned)(i - c->blk->insn);
		unsigned counted = !c->trace ? 0 : c->trace_block ? c->nsent : before;
		n += before - counted;
	}
	tsc = n * X86_TSC_PER_INSN;
	c->r[X86_RAX] = (uint32_t)tsc;
	c->r[X86_RDX] = tsc >> 32;
}

static void h_pause(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)c;
	(void)i;
}

/* #UD: ud0/ud1/ud2, and instructions the emulated processor lacks but
 * Zydis decodes (rdtscp, xgetbv: no RDTSCP/OSXSAVE in cpuid.c; monitor and
 * mwait fault at CPL 3 unless the OS enables them, which Linux does not). */
static void h_ud(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_raise(c, SIGILL, ILL_ILLOPN, i->pc);
}

/* #GP(0) at CPL 3: privileged instructions and hlt. */
static void h_gp(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)i;
	x86_raise(c, SIGSEGV, SI_KERNEL, 0);
}

static void h_int3(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)i;
	x86_trap(c, SIGTRAP, SI_KERNEL, 0);
}

/* INT n: Linux's IDT gates for vectors 3 (#BP) and 4 (#OF) allow CPL 3 and
 * behave as traps (SIGTRAP and SIGSEGV, resuming after the instruction);
 * any other vector is a #GP.  (int 0x80, the 32-bit system call gate, is
 * not emulated: 64-bit programs do not use it.) */
static void h_int(struct x86_cpu *c, const struct x86_insn *i)
{
	switch ((uint8_t)i->imm) {
	case 3:
		x86_trap(c, SIGTRAP, SI_KERNEL, 0);
	case 4:
		x86_trap(c, SIGSEGV, SI_KERNEL, 0);
	default:
		x86_raise(c, SIGSEGV, SI_KERNEL, 0);
	}
}

void x86_sys_register(x86_fn *tab)
{
	static const uint16_t gp[] = {
		ZYDIS_MNEMONIC_HLT,    ZYDIS_MNEMONIC_CLI,     ZYDIS_MNEMONIC_STI,
		ZYDIS_MNEMONIC_IN,     ZYDIS_MNEMONIC_OUT,     ZYDIS_MNEMONIC_INSB,
		ZYDIS_MNEMONIC_INSW,   ZYDIS_MNEMONIC_INSD,    ZYDIS_MNEMONIC_OUTSB,
		ZYDIS_MNEMONIC_OUTSW,  ZYDIS_MNEMONIC_OUTSD,   ZYDIS_MNEMONIC_CLTS,
		ZYDIS_MNEMONIC_INVD,   ZYDIS_MNEMONIC_WBINVD,  ZYDIS_MNEMONIC_INVLPG,
		ZYDIS_MNEMONIC_LGDT,   ZYDIS_MNEMONIC_LIDT,    ZYDIS_MNEMONIC_LLDT,
		ZYDIS_MNEMONIC_LTR,    ZYDIS_MNEMONIC_LMSW,    ZYDIS_MNEMONIC_RDMSR,
		ZYDIS_MNEMONIC_WRMSR,  ZYDIS_MNEMONIC_RDPMC,   ZYDIS_MNEMONIC_SWAPGS,
		ZYDIS_MNEMONIC_SYSRET, ZYDIS_MNEMONIC_SYSEXIT,
	};
	static const uint16_t ud[] = {
		ZYDIS_MNEMONIC_UD0,    ZYDIS_MNEMONIC_UD1,    ZYDIS_MNEMONIC_UD2,
		ZYDIS_MNEMONIC_RDTSCP, ZYDIS_MNEMONIC_XGETBV, ZYDIS_MNEMONIC_MONITOR,
		ZYDIS_MNEMONIC_MWAIT,
	};

	for (size_t k = 0; k < sizeof(gp) / sizeof(gp[0]); k++)
		tab[gp[k]] = h_gp;
	for (size_t k = 0; k < sizeof(ud) / sizeof(ud[0]); k++)
		tab[ud[k]] = h_ud;
	tab[ZYDIS_MNEMONIC_SYSCALL] = h_syscall;
	tab[ZYDIS_MNEMONIC_CPUID] = h_cpuid;
	tab[ZYDIS_MNEMONIC_RDTSC] = h_rdtsc;
	tab[ZYDIS_MNEMONIC_PAUSE] = h_pause;
	tab[ZYDIS_MNEMONIC_INT3] = h_int3;
	tab[ZYDIS_MNEMONIC_INT] = h_int;
}
