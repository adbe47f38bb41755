/* fast.c — specialised handlers for the hottest instruction forms.
 *
 * The generic handlers switch on operand kinds at run time; the forms
 * below (register and memory moves, register ALU ops, compare-and-branch
 * inputs) make up most of what compiled code executes, so the decoder
 * swaps in handlers with the operand kinds fixed.  Semantics are the
 * generic ones exactly.
 */
#include <Zydis/Zydis.h>

#include "ops.h"

#define R0(i) ((i)->op[0].reg)
#define R1(i) ((i)->op[1].reg)

static void mov_r64_r64(struct x86_cpu *c, const struct x86_insn *i)
{
	c->r[R0(i)] = c->r[R1(i)];
}
static void mov_r32_r32(struct x86_cpu *c, const struct x86_insn *i)
{
	c->r[R0(i)] = (uint32_t)c->r[R1(i)];
}
static void mov_r64_m64(struct x86_cpu *c, const struct x86_insn *i)
{
	c->r[R0(i)] = x86_ld64(x86_ea(c, i));
}
static void mov_r32_m32(struct x86_cpu *c, const struct x86_insn *i)
{
	c->r[R0(i)] = x86_ld32(x86_ea(c, i));
}
static void mov_m64_r64(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_st64(x86_ea(c, i), c->r[R1(i)]);
}
static void mov_m32_r32(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_st32(x86_ea(c, i), (uint32_t)c->r[R1(i)]);
}
static void mov_r64_imm(struct x86_cpu *c, const struct x86_insn *i)
{
	c->r[R0(i)] = (uint64_t)i->imm;
}
static void mov_r32_imm(struct x86_cpu *c, const struct x86_insn *i)
{
	c->r[R0(i)] = (uint32_t)i->imm;
}
static void movzx_r32_m8(struct x86_cpu *c, const struct x86_insn *i)
{
	c->r[R0(i)] = x86_ld8(x86_ea(c, i));
}

static void lea_r64(struct x86_cpu *c, const struct x86_insn *i)
{
	c->r[R0(i)] = c->r[i->base] + (c->r[i->index] << i->shift) + (uint64_t)i->disp;
}

/* 64- and 32-bit register/immediate ALU forms */
#define ALU_RR(name, kind, expr, size, store)                          \
	static void name(struct x86_cpu *c, const struct x86_insn *i)  \
	{                                                              \
		uint64_t d = c->r[R0(i)], s = c->r[R1(i)], r = (expr); \
		x86_setlf(c, kind, size, d, s, r);                     \
		if (store)                                             \
			c->r[R0(i)] = size == 8 ? r : (uint32_t)r;     \
	}
#define ALU_RI(name, kind, expr, size, store)                               \
	static void name(struct x86_cpu *c, const struct x86_insn *i)       \
	{                                                                   \
		uint64_t d = c->r[R0(i)], s = (uint64_t)i->imm, r = (expr); \
		x86_setlf(c, kind, size, d, s, r);                          \
		if (store)                                                  \
			c->r[R0(i)] = size == 8 ? r : (uint32_t)r;          \
	}
ALU_RR(add_rr64, X86_LF_ADD, d + s, 8, 1)
ALU_RR(sub_rr64, X86_LF_SUB, d - s, 8, 1)
ALU_RR(cmp_rr64, X86_LF_SUB, d - s, 8, 0)
ALU_RR(and_rr64, X86_LF_LOGIC, d &s, 8, 1)
ALU_RR(or_rr64, X86_LF_LOGIC, d | s, 8, 1)
ALU_RR(xor_rr64, X86_LF_LOGIC, d ^ s, 8, 1)
ALU_RR(test_rr64, X86_LF_LOGIC, d &s, 8, 0)
ALU_RR(add_rr32, X86_LF_ADD, d + s, 4, 1)
ALU_RR(sub_rr32, X86_LF_SUB, d - s, 4, 1)
ALU_RR(cmp_rr32, X86_LF_SUB, d - s, 4, 0)
ALU_RR(and_rr32, X86_LF_LOGIC, d &s, 4, 1)
ALU_RR(or_rr32, X86_LF_LOGIC, d | s, 4, 1)
ALU_RR(xor_rr32, X86_LF_LOGIC, d ^ s, 4, 1)
ALU_RR(test_rr32, X86_LF_LOGIC, d &s, 4, 0)
ALU_RI(add_ri64, X86_LF_ADD, d + s, 8, 1)
ALU_RI(sub_ri64, X86_LF_SUB, d - s, 8, 1)
ALU_RI(cmp_ri64, X86_LF_SUB, d - s, 8, 0)
ALU_RI(and_ri64, X86_LF_LOGIC, d &s, 8, 1)
ALU_RI(add_ri32, X86_LF_ADD, d + s, 4, 1)
ALU_RI(sub_ri32, X86_LF_SUB, d - s, 4, 1)
ALU_RI(cmp_ri32, X86_LF_SUB, d - s, 4, 0)
ALU_RI(and_ri32, X86_LF_LOGIC, d &s, 4, 1)

static void cmp_r64_m64(struct x86_cpu *c, const struct x86_insn *i)
{
	uint64_t d = c->r[R0(i)], s = x86_ld64(x86_ea(c, i));
	x86_setlf(c, X86_LF_SUB, 8, d, s, d - s);
}

static void cmp_r32_m32(struct x86_cpu *c, const struct x86_insn *i)
{
	uint64_t d = (uint32_t)c->r[R0(i)], s = x86_ld32(x86_ea(c, i));
	x86_setlf(c, X86_LF_SUB, 4, d, s, d - s);
}

static inline int is_gpr(const struct x86_op *o, unsigned size)
{
	return o->kind == X86_OP_GPR && o->size == size;
}

static inline int is_mem(const struct x86_insn *i, const struct x86_op *o, unsigned size)
{
	return o->kind == X86_OP_MEM && o->size == size && i->asz == 8;
}

void x86_int_specialise(struct x86_insn *i)
{
	const struct x86_op *a = &i->op[0], *b = &i->op[1];
	int imm = b->kind == X86_OP_IMM;

	if (i->nops != 2 || (i->flags & X86_I_LOCK))
		return;
	switch (i->mnem) {
	case ZYDIS_MNEMONIC_MOV:
		if (is_gpr(a, 8) && is_gpr(b, 8))
			i->fn = mov_r64_r64;
		else if (is_gpr(a, 4) && is_gpr(b, 4))
			i->fn = mov_r32_r32;
		else if (is_gpr(a, 8) && is_mem(i, b, 8))
			i->fn = mov_r64_m64;
		else if (is_gpr(a, 4) && is_mem(i, b, 4))
			i->fn = mov_r32_m32;
		else if (is_mem(i, a, 8) && is_gpr(b, 8))
			i->fn = mov_m64_r64;
		else if (is_mem(i, a, 4) && is_gpr(b, 4))
			i->fn = mov_m32_r32;
		else if (is_gpr(a, 8) && imm)
			i->fn = mov_r64_imm;
		else if (is_gpr(a, 4) && imm)
			i->fn = mov_r32_imm;
		break;
	case ZYDIS_MNEMONIC_MOVZX:
		if (is_gpr(a, 4) && is_mem(i, b, 1))
			i->fn = movzx_r32_m8;
		break;
	case ZYDIS_MNEMONIC_LEA:
		if (is_gpr(a, 8) && i->asz == 8)
			i->fn = lea_r64;
		break;
#define PICK2(mn, rr64, rr32)                          \
	case mn:                                       \
		if (is_gpr(a, 8) && is_gpr(b, 8))      \
			i->fn = rr64;                  \
		else if (is_gpr(a, 4) && is_gpr(b, 4)) \
			i->fn = rr32;                  \
		break;
#define PICK4(mn, rr64, rr32, ri64, ri32)              \
	case mn:                                       \
		if (is_gpr(a, 8) && is_gpr(b, 8))      \
			i->fn = rr64;                  \
		else if (is_gpr(a, 4) && is_gpr(b, 4)) \
			i->fn = rr32;                  \
		else if (is_gpr(a, 8) && imm)          \
			i->fn = ri64;                  \
		else if (is_gpr(a, 4) && imm)          \
			i->fn = ri32;                  \
		break;
		PICK4(ZYDIS_MNEMONIC_ADD, add_rr64, add_rr32, add_ri64, add_ri32)
		PICK4(ZYDIS_MNEMONIC_SUB, sub_rr64, sub_rr32, sub_ri64, sub_ri32)
		PICK4(ZYDIS_MNEMONIC_AND, and_rr64, and_rr32, and_ri64, and_ri32)
		PICK2(ZYDIS_MNEMONIC_OR, or_rr64, or_rr32)
		PICK2(ZYDIS_MNEMONIC_XOR, xor_rr64, xor_rr32)
		PICK2(ZYDIS_MNEMONIC_TEST, test_rr64, test_rr32)
#undef PICK2
#undef PICK4
	case ZYDIS_MNEMONIC_CMP:
		if (is_gpr(a, 8) && is_gpr(b, 8))
			i->fn = cmp_rr64;
		else if (is_gpr(a, 4) && is_gpr(b, 4))
			i->fn = cmp_rr32;
		else if (is_gpr(a, 8) && imm)
			i->fn = cmp_ri64;
		else if (is_gpr(a, 4) && imm)
			i->fn = cmp_ri32;
		else if (is_gpr(a, 8) && is_mem(i, b, 8))
			i->fn = cmp_r64_m64;
		else if (is_gpr(a, 4) && is_mem(i, b, 4))
			i->fn = cmp_r32_m32;
		break;
	default:
		break;
	}
}
