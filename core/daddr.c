/* daddr.c — evaluate a sampled instruction's memory operand (daddr.h). */
#include <Zydis/Zydis.h>
#include <string.h>

#include "daddr.h"

static const ZydisRegister gpr[16] = {
	ZYDIS_REGISTER_RAX, ZYDIS_REGISTER_RBX, ZYDIS_REGISTER_RCX, ZYDIS_REGISTER_RDX,
	ZYDIS_REGISTER_RSI, ZYDIS_REGISTER_RDI, ZYDIS_REGISTER_RBP, ZYDIS_REGISTER_RSP,
	ZYDIS_REGISTER_R8,  ZYDIS_REGISTER_R9,	ZYDIS_REGISTER_R10, ZYDIS_REGISTER_R11,
	ZYDIS_REGISTER_R12, ZYDIS_REGISTER_R13, ZYDIS_REGISTER_R14, ZYDIS_REGISTER_R15,
};

/* The 32-bit names of the same registers: an address-size prefix makes
 * the operand use them. */
static const ZydisRegister gpr32[16] = {
	ZYDIS_REGISTER_EAX,  ZYDIS_REGISTER_EBX,  ZYDIS_REGISTER_ECX,  ZYDIS_REGISTER_EDX,
	ZYDIS_REGISTER_ESI,  ZYDIS_REGISTER_EDI,  ZYDIS_REGISTER_EBP,  ZYDIS_REGISTER_ESP,
	ZYDIS_REGISTER_R8D,  ZYDIS_REGISTER_R9D,  ZYDIS_REGISTER_R10D, ZYDIS_REGISTER_R11D,
	ZYDIS_REGISTER_R12D, ZYDIS_REGISTER_R13D, ZYDIS_REGISTER_R14D, ZYDIS_REGISTER_R15D,
};

static int pick(const ZydisDecodedOperand *op, unsigned nops, ZydisOperandActions want)
{
	for (unsigned k = 0; k < nops; k++)
		if (op[k].type == ZYDIS_OPERAND_TYPE_MEMORY &&
		    op[k].mem.type == ZYDIS_MEMOP_TYPE_MEM &&
		    op[k].visibility == ZYDIS_OPERAND_VISIBILITY_EXPLICIT && (op[k].actions & want))
			return (int)k;
	return -1;
}

int daddr_of(const uint8_t *code, size_t n, uint64_t ip, const uint64_t *regs, uint64_t fs_base,
	     uint64_t gs_base, uint64_t *addr)
{
	ZydisDecoder dec;
	ZydisDecodedInstruction in;
	ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];
	ZydisRegisterContext ctx;
	ZyanU64 a;
	int k;

	ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
	if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&dec, code, n, &in, op)))
		return -1;
	k = pick(op, in.operand_count, ZYDIS_OPERAND_ACTION_MASK_READ);
	if (k < 0)
		k = pick(op, in.operand_count, ZYDIS_OPERAND_ACTION_MASK_WRITE);
	if (k < 0)
		return -1;
	memset(&ctx, 0, sizeof(ctx));
	for (int r = 0; r < 16; r++) {
		ctx.values[gpr[r]] = regs[DADDR_RAX + r];
		ctx.values[gpr32[r]] = (uint32_t)regs[DADDR_RAX + r];
	}
	if (!ZYAN_SUCCESS(ZydisCalcAbsoluteAddressEx(&in, &op[k], ip, &ctx, &a)))
		return -1;
	if (op[k].mem.segment == ZYDIS_REGISTER_FS)
		a += fs_base;
	else if (op[k].mem.segment == ZYDIS_REGISTER_GS)
		a += gs_base;
	*addr = a;
	return 0;
}
