/* classify.c — decode-time facts for timing models: the operation class of
 * an instruction, the architectural state it reads and writes (registers,
 * flags, FP control), and its implicit memory accesses.  Computed once per
 * decoded instruction from Zydis's operand list (hidden operands included)
 * and its accessed-flags tables. */
#include <string.h>

#include <Zydis/Zydis.h>

#include "decode.h"
#include "ops.h"

static uint64_t reg_dep(ZydisRegister r)
{
	int id = ZydisRegisterGetId(r);
	switch (ZydisRegisterGetClass(r)) {
	case ZYDIS_REGCLASS_GPR8:
		/* AL..BL 0-3, AH..BH 4-7 (= regs 0-3), SPL.. 8-11 (= 4-7), R8B.. */
		return X86_DEP_GPR(id < 4 ? id : id < 8 ? id - 4 : id - 4);
	case ZYDIS_REGCLASS_GPR16:
	case ZYDIS_REGCLASS_GPR32:
	case ZYDIS_REGCLASS_GPR64:
		return X86_DEP_GPR(id);
	case ZYDIS_REGCLASS_XMM:
		return X86_DEP_XMM(id);
	case ZYDIS_REGCLASS_X87:
		return X86_DEP_X87;
	case ZYDIS_REGCLASS_MMX:
		return X86_DEP_MMX;
	case ZYDIS_REGCLASS_FLAGS:
		return X86_DEP_FLAGS;
	default:
		if (r == ZYDIS_REGISTER_MXCSR || r == ZYDIS_REGISTER_X87CONTROL ||
		    r == ZYDIS_REGISTER_X87STATUS || r == ZYDIS_REGISTER_X87TAG)
			return X86_DEP_FPCTL;
		return 0;
	}
}

static int starts(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

/* SSE/MMX/x87 floating and SIMD classes by mnemonic family. */
static uint8_t fp_class(const char *m, int x87)
{
	if (x87) {
		if (starts(m, "fsin") || starts(m, "fcos") || starts(m, "fptan") ||
		    starts(m, "fpatan") || starts(m, "f2xm1") || starts(m, "fyl2x") ||
		    starts(m, "fscale") || starts(m, "fprem") || starts(m, "fxtract") ||
		    starts(m, "fbld") || starts(m, "fbstp") || starts(m, "frndint") ||
		    starts(m, "fnsave") || starts(m, "frstor") || starts(m, "fxsave") ||
		    starts(m, "fxrstor") || starts(m, "fnstenv") || starts(m, "fldenv") ||
		    starts(m, "fninit"))
			return X86_XC_X87_COMPLEX;
		if (starts(m, "fmul") || starts(m, "fimul"))
			return X86_XC_FMUL;
		if (starts(m, "fdiv") || starts(m, "fidiv") || starts(m, "fsqrt"))
			return X86_XC_FDIV;
		if (starts(m, "fadd") || starts(m, "fiadd") || starts(m, "fsub") ||
		    starts(m, "fisub") || starts(m, "fcom") || starts(m, "fucom") ||
		    starts(m, "ficom") || starts(m, "ftst"))
			return X86_XC_FADD;
		return X86_XC_FMOV;
	}
	if (starts(m, "div") || starts(m, "sqrt") || starts(m, "rsqrt") || starts(m, "rcp"))
		return X86_XC_FDIV;
	if (starts(m, "mul"))
		return X86_XC_FMUL;
	if (starts(m, "pmul") || starts(m, "pmadd") || starts(m, "psadbw"))
		return X86_XC_SIMD_MUL;
	if (starts(m, "add") || starts(m, "sub") || starts(m, "hadd") || starts(m, "hsub") ||
	    starts(m, "min") || starts(m, "max") || starts(m, "cmp") || starts(m, "comi") ||
	    starts(m, "ucomi") || starts(m, "cvt"))
		return X86_XC_FADD;
	if (m[0] == 'p' && !starts(m, "pshuf") && !starts(m, "punpck") && !starts(m, "pack") &&
	    !starts(m, "pslldq") && !starts(m, "psrldq") && !starts(m, "pextr") &&
	    !starts(m, "pinsr") && !starts(m, "pmovmsk") && !starts(m, "prefetch"))
		return X86_XC_SIMD;
	return X86_XC_FMOV; /* moves, shuffles, unpacks, logic */
}

/* x87 data movement: loads, stores, exchanges and conditional moves of
 * the register stack (the rest, control words included, computes). */
static int x87_move(ZydisMnemonic m)
{
	switch (m) {
	case ZYDIS_MNEMONIC_FLD:
	case ZYDIS_MNEMONIC_FST:
	case ZYDIS_MNEMONIC_FSTP:
	case ZYDIS_MNEMONIC_FILD:
	case ZYDIS_MNEMONIC_FIST:
	case ZYDIS_MNEMONIC_FISTP:
	case ZYDIS_MNEMONIC_FISTTP:
	case ZYDIS_MNEMONIC_FXCH:
	case ZYDIS_MNEMONIC_FLD1:
	case ZYDIS_MNEMONIC_FLDZ:
	case ZYDIS_MNEMONIC_FLDPI:
	case ZYDIS_MNEMONIC_FLDL2E:
	case ZYDIS_MNEMONIC_FLDL2T:
	case ZYDIS_MNEMONIC_FLDLG2:
	case ZYDIS_MNEMONIC_FLDLN2:
	case ZYDIS_MNEMONIC_FCMOVB:
	case ZYDIS_MNEMONIC_FCMOVBE:
	case ZYDIS_MNEMONIC_FCMOVE:
	case ZYDIS_MNEMONIC_FCMOVNB:
	case ZYDIS_MNEMONIC_FCMOVNBE:
	case ZYDIS_MNEMONIC_FCMOVNE:
	case ZYDIS_MNEMONIC_FCMOVNU:
	case ZYDIS_MNEMONIC_FCMOVU:
		return 1;
	default:
		return 0;
	}
}

/* insn.simd: x87 by its extension; MMX and SSE/AVX by their registers,
 * the format by the first visible operand holding floating-point
 * elements (its count: packed or scalar), else integer. */
static uint8_t simd_kind(const ZydisDecodedInstruction *zi, const ZydisDecodedOperand *zo)
{
	int mmx = 0, xmm = 0;
	uint8_t kind = X86_SIMD_NONE;

	if (zi->meta.isa_ext == ZYDIS_ISA_EXT_X87)
		return X86_SIMD_X87 | (x87_move(zi->mnemonic) ? X86_SIMD_MOVE : 0);
	for (int k = 0; k < zi->operand_count_visible; k++) {
		const ZydisDecodedOperand *z = &zo[k];
		if (z->type == ZYDIS_OPERAND_TYPE_REGISTER) {
			ZydisRegisterClass c = ZydisRegisterGetClass(z->reg.value);
			mmx |= c == ZYDIS_REGCLASS_MMX;
			xmm |= c == ZYDIS_REGCLASS_XMM || c == ZYDIS_REGCLASS_YMM ||
			       c == ZYDIS_REGCLASS_ZMM;
		}
		if (kind == X86_SIMD_NONE && z->element_type == ZYDIS_ELEMENT_TYPE_FLOAT32)
			kind = z->element_count > 1 ? X86_SIMD_PS : X86_SIMD_SS;
		if (kind == X86_SIMD_NONE && z->element_type == ZYDIS_ELEMENT_TYPE_FLOAT64)
			kind = z->element_count > 1 ? X86_SIMD_PD : X86_SIMD_SD;
	}
	if (!mmx && !xmm)
		return X86_SIMD_NONE;
	if (kind == X86_SIMD_NONE)
		kind = xmm ? X86_SIMD_INT : X86_SIMD_MMX;
	return kind | (zi->meta.category == ZYDIS_CATEGORY_DATAXFER ? X86_SIMD_MOVE : 0);
}

void x86_classify(const ZydisDecodedInstruction *zi, const ZydisDecodedOperand *zo,
		  struct x86_insn *i)
{
	const char *m = ZydisMnemonicGetString(zi->mnemonic);
	uint64_t rd = 0, wr = 0;

	for (int k = 0; k < zi->operand_count; k++) {
		const ZydisDecodedOperand *z = &zo[k];
		if (z->type == ZYDIS_OPERAND_TYPE_REGISTER) {
			uint64_t d = reg_dep(z->reg.value);
			if (z->actions & ZYDIS_OPERAND_ACTION_MASK_READ)
				rd |= d;
			if (z->actions & ZYDIS_OPERAND_ACTION_MASK_WRITE)
				wr |= d;
			/* a partial write of a GPR merges: it reads the rest */
			if ((z->actions & ZYDIS_OPERAND_ACTION_MASK_WRITE) && z->size &&
			    z->size < 32 && (d & 0xffff))
				rd |= d;
		} else if (z->type == ZYDIS_OPERAND_TYPE_MEMORY) {
			if (z->mem.base != ZYDIS_REGISTER_NONE)
				rd |= reg_dep(z->mem.base);
			if (z->mem.index != ZYDIS_REGISTER_NONE)
				rd |= reg_dep(z->mem.index);
		}
	}
	if (zi->cpu_flags) {
		if (zi->cpu_flags->tested)
			rd |= X86_DEP_FLAGS;
		if (zi->cpu_flags->modified | zi->cpu_flags->set_0 | zi->cpu_flags->set_1 |
		    zi->cpu_flags->undefined)
			wr |= X86_DEP_FLAGS;
	}
	/* xor r,r / sub r,r / pxor x,x break the dependency (zero idioms) */
	if ((zi->mnemonic == ZYDIS_MNEMONIC_XOR || zi->mnemonic == ZYDIS_MNEMONIC_SUB ||
	     zi->mnemonic == ZYDIS_MNEMONIC_PXOR || zi->mnemonic == ZYDIS_MNEMONIC_XORPS ||
	     zi->mnemonic == ZYDIS_MNEMONIC_XORPD) &&
	    i->nops == 2 && i->op[0].kind == i->op[1].kind && i->op[0].reg == i->op[1].reg &&
	    i->op[0].kind != X86_OP_MEM)
		rd = 0;
	i->rd = rd;
	i->wr = wr;
	i->simd = simd_kind(zi, zo);

	switch (zi->meta.category) {
	case ZYDIS_CATEGORY_NOP:
	case ZYDIS_CATEGORY_WIDENOP:
		i->xclass = X86_XC_NOP;
		break;
	case ZYDIS_CATEGORY_COND_BR:
		i->xclass = X86_XC_JCC;
		break;
	case ZYDIS_CATEGORY_UNCOND_BR:
		i->xclass = i->op[0].kind == X86_OP_REL ? X86_XC_JMP : X86_XC_JMP_IND;
		break;
	case ZYDIS_CATEGORY_CALL:
		i->xclass = i->op[0].kind == X86_OP_REL ? X86_XC_CALL : X86_XC_CALL_IND;
		break;
	case ZYDIS_CATEGORY_RET:
		i->xclass = X86_XC_RET;
		break;
	case ZYDIS_CATEGORY_SHIFT:
	case ZYDIS_CATEGORY_ROTATE:
		i->xclass = X86_XC_SHIFT;
		break;
	case ZYDIS_CATEGORY_DATAXFER:
	case ZYDIS_CATEGORY_PUSH:
	case ZYDIS_CATEGORY_POP:
	case ZYDIS_CATEGORY_CMOV:
	case ZYDIS_CATEGORY_SETCC:
	case ZYDIS_CATEGORY_CONVERT:
		i->xclass = X86_XC_MOVE;
		break;
	case ZYDIS_CATEGORY_STRINGOP:
		i->xclass = X86_XC_STRING;
		break;
	case ZYDIS_CATEGORY_SYSCALL:
		i->xclass = X86_XC_SYSCALL;
		break;
	case ZYDIS_CATEGORY_X87_ALU:
	case ZYDIS_CATEGORY_FCMOV:
		i->xclass = fp_class(m, 1);
		break;
	case ZYDIS_CATEGORY_SSE:
	case ZYDIS_CATEGORY_MMX:
	case ZYDIS_CATEGORY_LOGICAL_FP:
		i->xclass = fp_class(m, 0);
		break;
	case ZYDIS_CATEGORY_SEMAPHORE:
	case ZYDIS_CATEGORY_SYSTEM:
	case ZYDIS_CATEGORY_MISC:
	case ZYDIS_CATEGORY_INTERRUPT:
	case ZYDIS_CATEGORY_FLAGOP:
		i->xclass = X86_XC_COMPLEX;
		break;
	default:
		i->xclass = X86_XC_INT;
		break;
	}
	switch (zi->mnemonic) {
	case ZYDIS_MNEMONIC_IMUL:
	case ZYDIS_MNEMONIC_MUL:
		i->xclass = X86_XC_IMUL;
		break;
	case ZYDIS_MNEMONIC_DIV:
	case ZYDIS_MNEMONIC_IDIV:
		i->xclass = X86_XC_IDIV;
		break;
	case ZYDIS_MNEMONIC_LFENCE:
	case ZYDIS_MNEMONIC_SFENCE:
	case ZYDIS_MNEMONIC_MFENCE:
		i->xclass = X86_XC_FENCE;
		break;
	case ZYDIS_MNEMONIC_PAUSE:
		i->xclass = X86_XC_PAUSE;
		break;
	case ZYDIS_MNEMONIC_LEA:
		/* address arithmetic on an integer unit: Zydis files it under
		 * MISC, beside cpuid and pause */
		i->xclass = X86_XC_INT;
		break;
	case ZYDIS_MNEMONIC_PUSH:
	case ZYDIS_MNEMONIC_PUSHFQ:
	case ZYDIS_MNEMONIC_CALL:
		i->imp = X86_IMP_PUSH;
		break;
	case ZYDIS_MNEMONIC_POP:
	case ZYDIS_MNEMONIC_POPFQ:
	case ZYDIS_MNEMONIC_RET:
		i->imp = X86_IMP_POP;
		break;
	case ZYDIS_MNEMONIC_LEAVE:
		i->imp = X86_IMP_LEAVE;
		i->xclass = X86_XC_INT; /* a move and a pop (MISC to Zydis, as lea) */
		break;
	case ZYDIS_MNEMONIC_MOVSB:
	case ZYDIS_MNEMONIC_MOVSW:
	case ZYDIS_MNEMONIC_MOVSQ:
		i->imp = X86_IMP_MOVS;
		break;
	case ZYDIS_MNEMONIC_MOVSD:
	case ZYDIS_MNEMONIC_CMPSD:
		/* the string forms have no explicit operands */
		if (!i->nops) {
			i->imp = zi->mnemonic == ZYDIS_MNEMONIC_MOVSD ? X86_IMP_MOVS : X86_IMP_CMPS;
			i->xclass = X86_XC_STRING;
		}
		break;
	case ZYDIS_MNEMONIC_STOSB:
	case ZYDIS_MNEMONIC_STOSW:
	case ZYDIS_MNEMONIC_STOSD:
	case ZYDIS_MNEMONIC_STOSQ:
		i->imp = X86_IMP_STOS;
		break;
	case ZYDIS_MNEMONIC_LODSB:
	case ZYDIS_MNEMONIC_LODSW:
	case ZYDIS_MNEMONIC_LODSD:
	case ZYDIS_MNEMONIC_LODSQ:
		i->imp = X86_IMP_LODS;
		break;
	case ZYDIS_MNEMONIC_CMPSB:
	case ZYDIS_MNEMONIC_CMPSW:
	case ZYDIS_MNEMONIC_CMPSQ:
		i->imp = X86_IMP_CMPS;
		break;
	case ZYDIS_MNEMONIC_SCASB:
	case ZYDIS_MNEMONIC_SCASW:
	case ZYDIS_MNEMONIC_SCASD:
	case ZYDIS_MNEMONIC_SCASQ:
		i->imp = X86_IMP_SCAS;
		break;
	default:
		break;
	}
}
