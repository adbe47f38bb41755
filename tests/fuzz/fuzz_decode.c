/* fuzz_decode.c — libFuzzer harness for the x86 decoder and interpreter
 * on code nobody wrote: the input is copied to the start of an executable
 * page (the rest of the page is int3) and run by x86_run from there with
 * every register zero but rsp, which points into a stack page of its
 * own.  Both pages lie far from everything else (at HD_CODE), so a
 * RIP-relative access lands on them or on nothing.
 *
 * What must hold: x86_run returns — a guest fault (the host fault
 * signals are routed to x86_host_fault as the Linux layer does), an
 * instruction the emulator lacks, or the instruction budget spent —
 * within the budget, and the fault it reports is one a Linux process can
 * get (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP).  A host fault outside
 * x86_run is vpmu's own and ends the process (a crash for libFuzzer), as
 * does any UBSan report.  The syscall hook refuses everything
 * (-ENOSYS), so no input reaches the host kernel.
 *
 * Build without AddressSanitizer and without UBSan's pointer checks:
 * guest memory is host memory, so a guest's wild or null pointer is a
 * wild or null host access by design (a SIGSEGV the guest gets), which
 * those checks would report as vpmu's (ASan: negative-size-param on a
 * guest memcpy at 0xfffffffffffffffc; UBSan: null, nonnull-attribute and
 * pointer-overflow at guest address 0, seeds null-* in the corpus).
 *
 * For scripts/fuzz.sh:
 * fuzz-sources: emu/x86/[a-z]*.c
 * fuzz-libs: -lZydis -lZycore -lm
 * fuzz-sanitize: -fsanitize=fuzzer,undefined -fno-sanitize=null,nonnull-attribute,pointer-overflow -fno-sanitize-recover=undefined
 * fuzz-options: -max_len=64
 *
 * Build and run (from the top of the tree; Debian: apt-get install clang):
 *
 *   clang -std=gnu11 -g -O1 -fsanitize=fuzzer,undefined \
 *       -fno-sanitize=null,nonnull-attribute,pointer-overflow \
 *       -fno-sanitize-recover=undefined -I. \
 *       -o /tmp/fuzz_decode tests/fuzz/fuzz_decode.c $(ls emu/x86/[a-z]*.c) \
 *       -lZydis -lZycore -lm
 *   mkdir -p /tmp/fuzz_decode.corpus
 *   /tmp/fuzz_decode -max_total_time=60 -max_len=64 /tmp/fuzz_decode.corpus \
 *       tests/fuzz/corpus/fuzz_decode
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "emu/x86/x86.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define HD_CODE 0x300000000000ull /* code page, a gap, the stack; clear of ASan's areas */
#define HD_PAGE 4096
#define HD_STACK (HD_CODE + 16 * HD_PAGE)
#define HD_STACK_SIZE (4 * HD_PAGE)
#define HD_BUDGET 20000 /* instructions per input */

/* The cpu the fault handler serves: a handler has no other way to it. */
static struct x86_cpu *fz_cpu;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (fz_cpu && x86_in_guest(fz_cpu) && si->si_code > 0)
		x86_host_fault(fz_cpu, sig, si->si_code, (uint64_t)si->si_addr);
	/* not the guest's: die of it */
	signal(sig, SIG_DFL);
}

static void refuse(struct x86_cpu *c)
{
	c->r[X86_RAX] = (uint64_t)-ENOSYS;
}

static void *map_at(uint64_t addr, size_t len, int prot)
{
	void *p = mmap((void *)addr, len, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
		       -1, 0);

	if (p != (void *)addr) {
		fprintf(stderr, "fuzz_decode: cannot map %#llx\n", (unsigned long long)addr);
		abort();
	}
	return p;
}

static struct x86_cache *setup(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP };
	static char altstack[64 * 1024];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	struct sigaction sa;
	struct x86_cache *cc = x86_cache_new();

	if (!cc)
		abort();
	map_at(HD_CODE, HD_PAGE, PROT_READ | PROT_WRITE | PROT_EXEC);
	map_at(HD_STACK, HD_STACK_SIZE, PROT_READ | PROT_WRITE);
	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	return cc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct x86_cache *cc;
	static struct x86_cpu cpu;
	struct x86_counts cnt = { 0 };
	enum x86_exit e;
	int sig;

	if (!cc)
		cc = setup();
	if (size > HD_PAGE)
		size = HD_PAGE;
	memset((void *)HD_CODE, 0xcc, HD_PAGE);
	memcpy((void *)HD_CODE, data, size);
	memset((void *)HD_STACK, 0, HD_STACK_SIZE);
	x86_cache_invalidate(cc, HD_CODE, HD_PAGE);
	x86_cpu_init(&cpu);
	cpu.cache = cc;
	cpu.cnt = &cnt;
	cpu.syscall = refuse;
	cpu.rip = HD_CODE;
	cpu.r[X86_RSP] = HD_STACK + HD_STACK_SIZE - 64;
	fz_cpu = &cpu;
	e = x86_run(&cpu, HD_BUDGET);
	fz_cpu = NULL;
	if (cnt.insns > HD_BUDGET + 4096)
		abort(); /* the budget is checked at block boundaries only */
	if (e == X86_EXIT_FAULT || e == X86_EXIT_UNSUPPORTED) {
		sig = cpu.fault.sig;
		if (sig != SIGSEGV && sig != SIGBUS && sig != SIGFPE && sig != SIGILL &&
		    sig != SIGTRAP)
			abort();
		if (e == X86_EXIT_UNSUPPORTED && (cpu.fault.nbytes == 0 || cpu.fault.nbytes > 15))
			abort();
	}
	return 0;
}
