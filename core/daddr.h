/* daddr.h — the data address of a sampled instruction, reconstructed the
 * way a PEBS user does it: decode the instruction at the sampled EIP and
 * evaluate its memory operand with the registers the record holds (the
 * state before the instruction executed). */
#ifndef VPMU_DADDR_H
#define VPMU_DADDR_H

#include <stddef.h>
#include <stdint.h>

/* Register order of a precise sample (struct arch_sample.regs). */
enum {
	DADDR_RFLAGS,
	DADDR_RIP,
	DADDR_RAX,
	DADDR_RBX,
	DADDR_RCX,
	DADDR_RDX,
	DADDR_RSI,
	DADDR_RDI,
	DADDR_RBP,
	DADDR_RSP,
	DADDR_R8,
	DADDR_NREGS = 18
};

/* code[0..n) holds the instruction at ip; regs the 18 registers;
 * fs_base/gs_base the thread's segment bases.  0 with the address of the
 * instruction's first explicit memory operand that is read (else written)
 * in *addr; -1 when it has none or does not decode. */
int daddr_of(const uint8_t *code, size_t n, uint64_t ip, const uint64_t *regs, uint64_t fs_base,
	     uint64_t gs_base, uint64_t *addr);

#endif
