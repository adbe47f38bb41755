/* decode.h — the decoder and its handler table (internal to emu/x86). */
#ifndef VPMU_X86_DECODE_H
#define VPMU_X86_DECODE_H

#include <Zydis/Zydis.h>

#include "x86.h"

#define X86_NMNEM (ZYDIS_MNEMONIC_MAX_VALUE + 1)

struct x86_decoder {
	ZydisDecoder zd;
	x86_fn tab[X86_NMNEM]; /* handler per Zydis mnemonic */
};

void x86_decoder_init(struct x86_decoder *d);
/* Decode one instruction from bytes[0..n) at guest address pc.  Returns the
 * length, or 0 when the bytes are not a valid instruction (or need more
 * than n bytes). */
int x86_decode_insn(const struct x86_decoder *d, uint64_t pc, const uint8_t *bytes, size_t n,
		    struct x86_insn *i);

/* Operation class, register dependencies and implicit memory of i. */
void x86_classify(const ZydisDecodedInstruction *zi, const ZydisDecodedOperand *zo,
		  struct x86_insn *i);

#endif
