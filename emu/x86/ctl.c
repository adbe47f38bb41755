/* ctl.c — control transfers and the stack: jmp, jcc, call, ret, loop,
 * jrcxz, push, pop, leave.  A taken transfer writes c->rip; the interpreter
 * has already set c->rip to the fall-through address (the end of the
 * block, since every transfer ends one). */
#include <Zydis/Zydis.h>

#include "ops.h"

static inline void push(struct x86_cpu *c, unsigned sz, uint64_t v)
{
	uint64_t sp = c->r[X86_RSP] - sz;
	x86_st(sp, sz, v);
	c->r[X86_RSP] = sp;
}

static inline uint64_t pop(struct x86_cpu *c, unsigned sz)
{
	uint64_t v = x86_ld(c->r[X86_RSP], sz);
	c->r[X86_RSP] += sz;
	return v;
}

/* Target of a jmp/call: relative (precomputed), register or memory. */
static inline uint64_t target(struct x86_cpu *c, const struct x86_insn *i)
{
	if (i->op[0].kind == X86_OP_REL)
		return (uint64_t)i->imm;
	return x86_get(c, i, 0);
}

static inline void taken(struct x86_cpu *c, uint64_t to)
{
	c->rip = to;
	c->cnt->taken++;
}

static void h_jmp(struct x86_cpu *c, const struct x86_insn *i)
{
	taken(c, target(c, i));
}

static void h_jcc(struct x86_cpu *c, const struct x86_insn *i)
{
	if (x86_cond(c, i->cc))
		taken(c, (uint64_t)i->imm);
}

static void h_call(struct x86_cpu *c, const struct x86_insn *i)
{
	uint64_t to = target(c, i); /* read before rsp moves: call [rsp+8] */
	push(c, 8, i->pc + i->len);
	taken(c, to);
}

static void h_ret(struct x86_cpu *c, const struct x86_insn *i)
{
	uint64_t to = pop(c, 8);
	if (i->nops)
		c->r[X86_RSP] += (uint64_t)i->imm & 0xffff;
	taken(c, to);
}

static inline uint64_t count_reg(const struct x86_cpu *c, const struct x86_insn *i)
{
	return i->asz == 4 ? (uint32_t)c->r[X86_RCX] : c->r[X86_RCX];
}

static inline void dec_count(struct x86_cpu *c, const struct x86_insn *i)
{
	if (i->asz == 4)
		c->r[X86_RCX] = (uint32_t)(c->r[X86_RCX] - 1);
	else
		c->r[X86_RCX]--;
}

static void h_jrcxz(struct x86_cpu *c, const struct x86_insn *i)
{
	if (!count_reg(c, i))
		taken(c, (uint64_t)i->imm);
}

static void h_loop(struct x86_cpu *c, const struct x86_insn *i)
{
	dec_count(c, i);
	if (count_reg(c, i))
		taken(c, (uint64_t)i->imm);
}

static void h_loope(struct x86_cpu *c, const struct x86_insn *i)
{
	dec_count(c, i);
	if (count_reg(c, i) && (x86_flags(c) & X86_ZF))
		taken(c, (uint64_t)i->imm);
}

static void h_loopne(struct x86_cpu *c, const struct x86_insn *i)
{
	dec_count(c, i);
	if (count_reg(c, i) && !(x86_flags(c) & X86_ZF))
		taken(c, (uint64_t)i->imm);
}

static void h_push(struct x86_cpu *c, const struct x86_insn *i)
{
	/* operand size 8, or 2 with 0x66; immediates are sign-extended */
	unsigned sz = i->osz == 2 ? 2 : 8;
	uint64_t v;
	if (i->op[0].kind == X86_OP_SEG)
		v = c->seg_sel[i->op[0].reg];
	else if (i->op[0].kind == X86_OP_IMM)
		v = (uint64_t)i->imm;
	else
		v = x86_get(c, i, 0);
	push(c, sz, v);
}

static void h_pop(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned sz = i->osz == 2 ? 2 : 8;
	uint64_t v = pop(c, sz);
	if (i->op[0].kind == X86_OP_SEG) {
		c->seg_sel[i->op[0].reg] = (uint16_t)v;
		return;
	}
	/* pop [rsp+d] addresses with the incremented rsp (SDM POP) */
	x86_put(c, i, 0, v);
}

static void h_leave(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned sz = i->osz == 2 ? 2 : 8;
	c->r[X86_RSP] = c->r[X86_RBP];
	x86_put_gpr(c, X86_RBP, sz, pop(c, sz));
}

void x86_ctl_register(x86_fn *t)
{
	static const ZydisMnemonic jcc[] = {
		ZYDIS_MNEMONIC_JO, ZYDIS_MNEMONIC_JNO, ZYDIS_MNEMONIC_JB,  ZYDIS_MNEMONIC_JNB,
		ZYDIS_MNEMONIC_JZ, ZYDIS_MNEMONIC_JNZ, ZYDIS_MNEMONIC_JBE, ZYDIS_MNEMONIC_JNBE,
		ZYDIS_MNEMONIC_JS, ZYDIS_MNEMONIC_JNS, ZYDIS_MNEMONIC_JP,  ZYDIS_MNEMONIC_JNP,
		ZYDIS_MNEMONIC_JL, ZYDIS_MNEMONIC_JNL, ZYDIS_MNEMONIC_JLE, ZYDIS_MNEMONIC_JNLE,
	};
	for (int k = 0; k < 16; k++)
		t[jcc[k]] = h_jcc;
	t[ZYDIS_MNEMONIC_JMP] = h_jmp;
	t[ZYDIS_MNEMONIC_CALL] = h_call;
	t[ZYDIS_MNEMONIC_RET] = h_ret;
	t[ZYDIS_MNEMONIC_JRCXZ] = h_jrcxz;
	t[ZYDIS_MNEMONIC_JECXZ] = h_jrcxz;
	t[ZYDIS_MNEMONIC_LOOP] = h_loop;
	t[ZYDIS_MNEMONIC_LOOPE] = h_loope;
	t[ZYDIS_MNEMONIC_LOOPNE] = h_loopne;
	t[ZYDIS_MNEMONIC_PUSH] = h_push;
	t[ZYDIS_MNEMONIC_POP] = h_pop;
	t[ZYDIS_MNEMONIC_LEAVE] = h_leave;
}
