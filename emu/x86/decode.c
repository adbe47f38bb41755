/* decode.c — Zydis decoded instructions → the compact struct x86_insn the
 * interpreter runs.  This is the only file of the hot path that knows Zydis
 * types; handlers see register numbers, sizes and a precomputed memory
 * operand. */
#include <stdio.h>

#include <Zydis/Zydis.h>

#include "decode.h"
#include "ops.h"

void x86_decoder_init(struct x86_decoder *d)
{
	ZydisDecoderInit(&d->zd, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
	/* The emulated processor has neither BMI1 nor LZCNT (cpuid.c): F3 0F BC
	 * and F3 0F BD execute as BSF and BSR there. */
	ZydisDecoderEnableMode(&d->zd, ZYDIS_DECODER_MODE_TZCNT, ZYAN_FALSE);
	ZydisDecoderEnableMode(&d->zd, ZYDIS_DECODER_MODE_LZCNT, ZYAN_FALSE);
	for (size_t k = 0; k < X86_NMNEM; k++)
		d->tab[k] = NULL;
	x86_int_register(d->tab);
	x86_int2_register(d->tab);
	x86_str_register(d->tab);
	x86_sse_register(d->tab);
	x86_x87_register(d->tab);
	x86_sys_register(d->tab);
}

/* Zydis register → our operand kind, register number and size. */
static int map_reg(ZydisRegister r, struct x86_op *o)
{
	ZydisRegisterClass cls = ZydisRegisterGetClass(r);
	int id = ZydisRegisterGetId(r);

	switch (cls) {
	case ZYDIS_REGCLASS_GPR8:
		/* AL CL DL BL AH CH DH BH SPL BPL SIL DIL R8B..R15B */
		o->size = 1;
		if (id >= 4 && id < 8) {
			o->kind = X86_OP_GPR8H;
			o->reg = (uint8_t)(id - 4);
		} else {
			o->kind = X86_OP_GPR;
			o->reg = (uint8_t)(id < 4 ? id : id - 4);
		}
		return 0;
	case ZYDIS_REGCLASS_GPR16:
		o->kind = X86_OP_GPR;
		o->size = 2;
		o->reg = (uint8_t)id;
		return 0;
	case ZYDIS_REGCLASS_GPR32:
		o->kind = X86_OP_GPR;
		o->size = 4;
		o->reg = (uint8_t)id;
		return 0;
	case ZYDIS_REGCLASS_GPR64:
		o->kind = X86_OP_GPR;
		o->size = 8;
		o->reg = (uint8_t)id;
		return 0;
	case ZYDIS_REGCLASS_XMM:
		o->kind = X86_OP_XMM;
		o->size = 16;
		o->reg = (uint8_t)id;
		return 0;
	case ZYDIS_REGCLASS_MMX:
		o->kind = X86_OP_MMX;
		o->size = 8;
		o->reg = (uint8_t)id;
		return 0;
	case ZYDIS_REGCLASS_X87:
		o->kind = X86_OP_ST;
		o->size = 10;
		o->reg = (uint8_t)id;
		return 0;
	case ZYDIS_REGCLASS_SEGMENT:
		o->kind = X86_OP_SEG;
		o->size = 2;
		o->reg = (uint8_t)id;
		return 0;
	default:
		o->kind = X86_OP_OTHER;
		o->size = 0;
		o->reg = (uint8_t)r;
		return 0;
	}
}

/* Register number of an address base/index register (64- or 32-bit). */
static uint8_t addr_reg(ZydisRegister r)
{
	if (r == ZYDIS_REGISTER_NONE)
		return X86_RNONE;
	return (uint8_t)ZydisRegisterGetId(r);
}

static uint8_t seg_of(ZydisRegister s)
{
	if (s == ZYDIS_REGISTER_FS)
		return X86_SEG_FS;
	if (s == ZYDIS_REGISTER_GS)
		return X86_SEG_GS;
	return X86_SEG_NONE; /* ES CS SS DS have base 0 in 64-bit mode */
}

static unsigned cond_of(const ZydisDecodedInstruction *zi)
{
	return zi->opcode & 0xf; /* 7x, 0F 8x, 0F 9x, 0F 4x all carry tttn in the low nibble */
}

/* X86_I_GPR */
static int gpr_only(const struct x86_insn *i)
{
	if (i->mact || i->imp || i->flags & (X86_I_LOCK | X86_I_REP | X86_I_REPNE))
		return 0;
	for (int k = 0; k < i->nops; k++)
		if (i->op[k].kind != X86_OP_GPR && i->op[k].kind != X86_OP_GPR8H &&
		    i->op[k].kind != X86_OP_IMM)
			return 0;
	return !(i->wr & ~(0xffffull | X86_DEP_FLAGS));
}

int x86_decode_insn(const struct x86_decoder *d, uint64_t pc, const uint8_t *bytes, size_t n,
		    struct x86_insn *i)
{
	ZydisDecodedInstruction zi;
	ZydisDecodedOperand zo[ZYDIS_MAX_OPERAND_COUNT];
	int have_mem = 0, k;

	if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&d->zd, bytes, n, &zi, zo)))
		return 0;
	memset(i, 0, sizeof(*i));
	i->pc = pc;
	i->len = zi.length;
	i->mnem = (uint16_t)zi.mnemonic;
	i->osz = (uint8_t)(zi.operand_width / 8);
	i->asz = (uint8_t)(zi.address_width / 8);
	i->base = i->index = X86_RNONE;
	if (zi.attributes & ZYDIS_ATTRIB_HAS_LOCK)
		i->flags |= X86_I_LOCK;
	if (zi.attributes & (ZYDIS_ATTRIB_HAS_REP | ZYDIS_ATTRIB_HAS_REPE))
		i->flags |= X86_I_REP;
	if (zi.attributes & ZYDIS_ATTRIB_HAS_REPNE)
		i->flags |= X86_I_REPNE;

	for (k = 0; k < zi.operand_count; k++) {
		const ZydisDecodedOperand *z = &zo[k];
		int visible = z->visibility != ZYDIS_OPERAND_VISIBILITY_HIDDEN;
		struct x86_op *o = visible && i->nops < 4 ? &i->op[i->nops++] : NULL;

		if (z->type == ZYDIS_OPERAND_TYPE_MEMORY) {
			if (z->mem.type != ZYDIS_MEMOP_TYPE_AGEN) {
				if (z->actions & ZYDIS_OPERAND_ACTION_MASK_READ)
					i->flags |= X86_I_LOAD;
				if (z->actions & ZYDIS_OPERAND_ACTION_MASK_WRITE)
					i->flags |= X86_I_STORE;
			}
			/* The explicit memory operand is the one handlers address
			 * through x86_ea(); string ops and the stack are implicit. */
			if (visible && !have_mem) {
				have_mem = 1;
				if (z->mem.type != ZYDIS_MEMOP_TYPE_AGEN)
					i->mact =
						(uint8_t)((z->actions & ZYDIS_OPERAND_ACTION_MASK_READ ?
								   1 :
								   0) |
							  (z->actions & ZYDIS_OPERAND_ACTION_MASK_WRITE ?
								   2 :
								   0));
				i->seg = seg_of(z->mem.segment);
				i->disp = z->mem.disp.value;
				if (z->mem.base == ZYDIS_REGISTER_RIP ||
				    z->mem.base == ZYDIS_REGISTER_EIP) {
					i->base = X86_RNONE;
					i->disp += (int64_t)(pc + zi.length);
					if (zi.address_width == 32)
						i->disp = (uint32_t)i->disp;
				} else {
					i->base = addr_reg(z->mem.base);
				}
				i->index = addr_reg(z->mem.index);
				i->shift = z->mem.scale == 8 ? 3 :
					   z->mem.scale == 4 ? 2 :
					   z->mem.scale == 2 ? 1 :
							       0;
			} else if (!visible && !have_mem) {
				/* implicit memory (string ops): keep the segment override */
				i->seg = seg_of(z->mem.segment);
			}
			if (o) {
				o->kind = X86_OP_MEM;
				o->size = (uint8_t)(z->size / 8 > 255 ? 0 : z->size / 8);
				/* lea's operand is an address, not an access */
				if (z->mem.type == ZYDIS_MEMOP_TYPE_AGEN)
					o->size = 0;
			}
		} else if (!o) {
			continue;
		} else if (z->type == ZYDIS_OPERAND_TYPE_REGISTER) {
			map_reg(z->reg.value, o);
		} else if (z->type == ZYDIS_OPERAND_TYPE_IMMEDIATE) {
			int64_t v = z->imm.is_signed ? z->imm.value.s : (int64_t)z->imm.value.u;
			o->size = (uint8_t)(z->size / 8);
			if (z->imm.is_relative) {
				o->kind = X86_OP_REL;
				o->size = 8;
				i->imm = (int64_t)(pc + zi.length) + v;
			} else if (i->nops >= 2 && i->op[i->nops - 2].kind == X86_OP_IMM) {
				o->kind = X86_OP_IMM;
				i->imm2 = (uint8_t)v; /* enter imm16, imm8 */
			} else {
				o->kind = X86_OP_IMM;
				i->imm = v;
				/* a sign-extended immediate takes the operation's size */
				if (z->imm.is_signed && i->osz && i->osz <= 8)
					o->size = i->osz;
			}
		} else {
			o->kind = X86_OP_OTHER; /* far pointers: not in 64-bit user code */
		}
	}

	switch (zi.meta.category) {
	case ZYDIS_CATEGORY_COND_BR:
	case ZYDIS_CATEGORY_UNCOND_BR:
	case ZYDIS_CATEGORY_CALL:
	case ZYDIS_CATEGORY_RET:
		i->flags |= X86_I_BRANCH | X86_I_END;
		break;
	case ZYDIS_CATEGORY_SYSCALL:
	case ZYDIS_CATEGORY_INTERRUPT:
	case ZYDIS_CATEGORY_SYSTEM:
		i->flags |= X86_I_END;
		break;
	default:
		break;
	}
	switch (zi.meta.category) {
	case ZYDIS_CATEGORY_COND_BR:
	case ZYDIS_CATEGORY_SETCC:
	case ZYDIS_CATEGORY_CMOV:
		i->cc = (uint8_t)cond_of(&zi);
		break;
	default:
		break;
	}
	/* UD2 and friends end the block: nothing after them runs. */
	if (zi.mnemonic == ZYDIS_MNEMONIC_UD0 || zi.mnemonic == ZYDIS_MNEMONIC_UD1 ||
	    zi.mnemonic == ZYDIS_MNEMONIC_UD2 || zi.mnemonic == ZYDIS_MNEMONIC_HLT ||
	    zi.mnemonic == ZYDIS_MNEMONIC_CPUID)
		i->flags |= X86_I_END;

	x86_classify(&zi, zo, i);
	if (zi.mnemonic == ZYDIS_MNEMONIC_NOP) {
		i->flags &= (uint8_t) ~(X86_I_LOAD | X86_I_STORE); /* 0F 1F /0 reads nothing */
		i->mact = 0;
	}
	/* without shadow stacks RDSSP is a NOP that leaves its register
	 * alone (SDM vol. 2, RDSSPD/RDSSPQ); libgcc's unwinder runs it at
	 * every C++ throw */
	if (zi.mnemonic == ZYDIS_MNEMONIC_RDSSPD || zi.mnemonic == ZYDIS_MNEMONIC_RDSSPQ) {
		i->rd = i->wr = 0;
		i->xclass = X86_XC_NOP;
	}
	if (gpr_only(i))
		i->flags |= X86_I_GPR;
	i->msize = 8;
	for (k = 0; k < i->nops; k++)
		if (i->op[k].kind == X86_OP_MEM) {
			i->msize = i->op[k].size;
			break;
		}
	i->fn = zi.mnemonic < X86_NMNEM ? d->tab[zi.mnemonic] : NULL;
	if (!i->fn)
		i->fn = x86_h_unsupported;
	else
		x86_int_specialise(i);
	return zi.length;
}

int x86_format(uint64_t pc, const uint8_t *bytes, size_t n, int intel, char *buf, size_t bufsz)
{
	ZydisDecoder dec;
	ZydisFormatter fmt;
	ZydisDecodedInstruction zi;
	ZydisDecodedOperand zo[ZYDIS_MAX_OPERAND_COUNT];

	ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
	if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&dec, bytes, n, &zi, zo))) {
		snprintf(buf, bufsz, "(bad)");
		return 0;
	}
	ZydisFormatterInit(&fmt, intel ? ZYDIS_FORMATTER_STYLE_INTEL : ZYDIS_FORMATTER_STYLE_ATT);
	if (!ZYAN_SUCCESS(ZydisFormatterFormatInstruction(&fmt, &zi, zo, zi.operand_count_visible,
							  buf, bufsz, pc, ZYAN_NULL)))
		snprintf(buf, bufsz, "(bad)");
	return zi.length;
}
