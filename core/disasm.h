/* disasm.h — x86-64 disassembly for annotate: Zydis decodes, and the text
 * is AT&T as `objdump -d` prints it (mnemonics, suffixes, operands,
 * prefixes, `<sym+0xoff>` branch targets, `# addr <sym>` for rip-relative
 * operands), or Intel from Zydis's own formatter. */
#ifndef VPMU_DISASM_H
#define VPMU_DISASM_H

#include <stddef.h>
#include <stdint.h>

#include "sym.h"

enum disasm_syntax { DISASM_ATT, DISASM_INTEL };

enum disasm_branch {
	DISASM_BR_NONE,
	DISASM_BR_JUMP, /* jmp, jcc, loop, jrcxz */
	DISASM_BR_CALL,
	DISASM_BR_RET,
};

struct disasm_insn {
	uint64_t addr;
	uint8_t len; /* bytes taken (1 for an undecodable byte) */
	uint8_t bytes[15];
	uint8_t ok;   /* 0: undecodable, text is "(bad)" */
	uint8_t cond; /* a conditional branch */
	enum disasm_branch branch;
	uint8_t has_target; /* target: a direct branch's destination */
	uint8_t has_ref;    /* ref: the address a rip-relative operand names */
	uint64_t target, ref;
	char text[640]; /* mnemonic and operands, plus objdump's "# ref" comment */
};

/* Decode one instruction of code[0..n) located at addr.  s (may be NULL)
 * names branch targets and referenced addresses.  Returns the length
 * (insn->len). */
size_t disasm_one(const uint8_t *code, size_t n, uint64_t addr, enum disasm_syntax syn,
		  struct sym *s, struct disasm_insn *insn);

struct disasm_func {
	struct sym_info sym;	  /* the function */
	size_t n;		  /* instructions */
	struct disasm_insn *insn; /* [n] */
	struct sym_srcline *src;  /* [n]: each instruction's line (file NULL: none) */
	int has_source;		  /* DWARF lines were found for some instruction */
};

/* Disassemble the whole function holding addr, from the image file's
 * bytes.  Returns 0; -1 when no symbol holds addr, -2 when its bytes are
 * not in the file (or it is empty), -3 when out of memory. */
int disasm_func(struct sym *s, uint64_t addr, enum disasm_syntax syn, struct disasm_func *f);
void disasm_func_release(struct disasm_func *f);

#endif
