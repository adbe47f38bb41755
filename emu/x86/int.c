/* int.c — integer data movement and arithmetic: mov and its extensions,
 * lea, xchg, the eight classic ALU operations, test, inc/dec/neg/not,
 * setcc/cmovcc, the sign-extension family.  Control transfers and the
 * stack are in ctl.c; hot forms get specialised handlers in fast.c.
 */
#include <Zydis/Zydis.h>

#include "ops.h"

/* Operation size: that of the destination operand. */
static inline unsigned opsize(const struct x86_insn *i)
{
	return i->op[0].size ? i->op[0].size : i->osz;
}

/* ---- mov family ---------------------------------------------------------- */

static void h_mov(struct x86_cpu *c, const struct x86_insn *i)
{
	uint64_t v;
	if (i->op[1].kind == X86_OP_SEG)
		v = c->seg_sel[i->op[1].reg];
	else
		v = x86_get(c, i, 1);
	if (i->op[0].kind == X86_OP_SEG) {
		/* Loading a selector in 64-bit user code: keep the value; bases of
		 * FS/GS come from arch_prctl, not from descriptors. */
		c->seg_sel[i->op[0].reg] = (uint16_t)v;
		return;
	}
	x86_put(c, i, 0, v);
}

static void h_movzx(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_put(c, i, 0, x86_get(c, i, 1));
}

static void h_movsx(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_put(c, i, 0, x86_sext(x86_get(c, i, 1), i->op[1].size));
}

static void h_lea(struct x86_cpu *c, const struct x86_insn *i)
{
	/* lea computes the offset only; a segment override does not apply */
	uint64_t a = c->r[i->base] + (c->r[i->index] << i->shift) + (uint64_t)i->disp;
	if (i->asz == 4)
		a = (uint32_t)a;
	x86_put(c, i, 0, a);
}

static X86_GUEST_MEM void h_xchg(struct x86_cpu *c, const struct x86_insn *i)
{
	unsigned sz = opsize(i);
	if (i->op[0].kind == X86_OP_MEM || i->op[1].kind == X86_OP_MEM) {
		/* xchg with memory is always locked (SDM XCHG) */
		int m = i->op[0].kind == X86_OP_MEM ? 0 : 1;
		uint64_t a = x86_ea(c, i), r = x86_get(c, i, 1 - m), old;
		switch (sz) {
		case 1:
			old = __atomic_exchange_n((uint8_t *)a, (uint8_t)r, __ATOMIC_SEQ_CST);
			break;
		case 2:
			old = __atomic_exchange_n((uint16_t *)a, (uint16_t)r, __ATOMIC_SEQ_CST);
			break;
		case 4:
			old = __atomic_exchange_n((uint32_t *)a, (uint32_t)r, __ATOMIC_SEQ_CST);
			break;
		default:
			old = __atomic_exchange_n((uint64_t *)a, r, __ATOMIC_SEQ_CST);
			break;
		}
		x86_put(c, i, 1 - m, old);
		return;
	}
	uint64_t a = x86_get(c, i, 0), b = x86_get(c, i, 1);
	x86_put(c, i, 0, b);
	x86_put(c, i, 1, a);
}

/* ---- ALU ------------------------------------------------------------------- */

enum alu { ALU_ADD, ALU_OR, ALU_ADC, ALU_SBB, ALU_AND, ALU_SUB, ALU_XOR, ALU_CMP, ALU_TEST };

static inline uint64_t alu_calc(struct x86_cpu *c, enum alu op, unsigned sz, uint64_t d, uint64_t s)
{
	uint64_t r, cin;
	switch (op) {
	case ALU_ADD:
		r = d + s;
		x86_setlf(c, X86_LF_ADD, sz, d, s, r);
		return r;
	case ALU_ADC:
		cin = x86_flags(c) & X86_CF;
		r = d + s + cin;
		x86_setlf(c, X86_LF_ADC, sz, d, s, r);
		c->lf_aux = cin;
		return r;
	case ALU_SUB:
	case ALU_CMP:
		r = d - s;
		x86_setlf(c, X86_LF_SUB, sz, d, s, r);
		return r;
	case ALU_SBB:
		cin = x86_flags(c) & X86_CF;
		r = d - s - cin;
		x86_setlf(c, X86_LF_SBB, sz, d, s, r);
		c->lf_aux = cin;
		return r;
	case ALU_OR:
		r = d | s;
		break;
	case ALU_AND:
	case ALU_TEST:
		r = d & s;
		break;
	default:
		r = d ^ s;
		break;
	}
	x86_setlf(c, X86_LF_LOGIC, sz, d, s, r);
	return r;
}

static inline X86_GUEST_MEM int cas(uint64_t a, unsigned sz, uint64_t expect, uint64_t v)
{
	switch (sz) {
	case 1: {
		uint8_t e = (uint8_t)expect;
		return __atomic_compare_exchange_n((uint8_t *)a, &e, (uint8_t)v, 0,
						   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	}
	case 2: {
		uint16_t e = (uint16_t)expect;
		return __atomic_compare_exchange_n((uint16_t *)a, &e, (uint16_t)v, 0,
						   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	}
	case 4: {
		uint32_t e = (uint32_t)expect;
		return __atomic_compare_exchange_n((uint32_t *)a, &e, (uint32_t)v, 0,
						   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	}
	default: {
		uint64_t e = expect;
		return __atomic_compare_exchange_n((uint64_t *)a, &e, v, 0, __ATOMIC_SEQ_CST,
						   __ATOMIC_SEQ_CST);
	}
	}
}

static inline void alu(struct x86_cpu *c, const struct x86_insn *i, enum alu op)
{
	unsigned sz = opsize(i);
	uint64_t s = x86_get(c, i, 1), d, r;

	if (i->op[0].kind == X86_OP_MEM) {
		uint64_t a = x86_ea(c, i);
		if (X86_UNLIKELY(i->flags & X86_I_LOCK)) {
			/* other processes may share this memory: a real atomic RMW */
			do {
				d = x86_ld(a, sz);
				r = alu_calc(c, op, sz, d, s);
			} while (!cas(a, sz, d, r));
			return;
		}
		d = x86_ld(a, sz);
		r = alu_calc(c, op, sz, d, s);
		if (op != ALU_CMP && op != ALU_TEST)
			x86_st(a, sz, r);
		return;
	}
	d = x86_get(c, i, 0);
	r = alu_calc(c, op, sz, d, s);
	if (op != ALU_CMP && op != ALU_TEST)
		x86_put(c, i, 0, r);
}

#define ALU_HANDLER(name, op)                                         \
	static void name(struct x86_cpu *c, const struct x86_insn *i) \
	{                                                             \
		alu(c, i, op);                                        \
	}
ALU_HANDLER(h_add, ALU_ADD)
ALU_HANDLER(h_or, ALU_OR)
ALU_HANDLER(h_adc, ALU_ADC)
ALU_HANDLER(h_sbb, ALU_SBB)
ALU_HANDLER(h_and, ALU_AND)
ALU_HANDLER(h_sub, ALU_SUB)
ALU_HANDLER(h_xor, ALU_XOR)
ALU_HANDLER(h_cmp, ALU_CMP)
ALU_HANDLER(h_test, ALU_TEST)

enum unop { UN_INC, UN_DEC, UN_NEG, UN_NOT };

static inline uint64_t unop_calc(struct x86_cpu *c, enum unop op, unsigned sz, uint64_t d)
{
	uint64_t r, cf;
	switch (op) {
	case UN_INC:
	case UN_DEC:
		cf = x86_flags(c) & X86_CF; /* inc/dec leave CF alone */
		r = op == UN_INC ? d + 1 : d - 1;
		x86_setlf(c, op == UN_INC ? X86_LF_INC : X86_LF_DEC, sz, d, 1, r);
		c->lf_aux = cf;
		return r;
	case UN_NEG:
		r = 0 - d;
		/* as the subtraction 0 - d */
		x86_setlf(c, X86_LF_NEG, sz, 0, d, r);
		return r;
	default:
		return ~d; /* not: no flags */
	}
}

static inline void unop(struct x86_cpu *c, const struct x86_insn *i, enum unop op)
{
	unsigned sz = opsize(i);
	uint64_t d, r;
	if (i->op[0].kind == X86_OP_MEM) {
		uint64_t a = x86_ea(c, i);
		if (X86_UNLIKELY(i->flags & X86_I_LOCK)) {
			do {
				d = x86_ld(a, sz);
				r = unop_calc(c, op, sz, d);
			} while (!cas(a, sz, d, r));
			return;
		}
		d = x86_ld(a, sz);
		x86_st(a, sz, unop_calc(c, op, sz, d));
		return;
	}
	d = x86_get(c, i, 0);
	x86_put(c, i, 0, unop_calc(c, op, sz, d));
}

static void h_inc(struct x86_cpu *c, const struct x86_insn *i)
{
	unop(c, i, UN_INC);
}
static void h_dec(struct x86_cpu *c, const struct x86_insn *i)
{
	unop(c, i, UN_DEC);
}
static void h_neg(struct x86_cpu *c, const struct x86_insn *i)
{
	unop(c, i, UN_NEG);
}
static void h_not(struct x86_cpu *c, const struct x86_insn *i)
{
	unop(c, i, UN_NOT);
}

/* ---- conditions -------------------------------------------------------------- */

static void h_setcc(struct x86_cpu *c, const struct x86_insn *i)
{
	x86_put(c, i, 0, (uint64_t)x86_cond(c, i->cc));
}

static void h_cmovcc(struct x86_cpu *c, const struct x86_insn *i)
{
	/* the source is read (and may fault) even when the condition is false;
	 * a 32-bit destination is zero-extended either way (SDM CMOVcc) */
	uint64_t v = x86_get(c, i, 1);
	if (x86_cond(c, i->cc))
		x86_put(c, i, 0, v);
	else if (i->op[0].size == 4)
		c->r[i->op[0].reg] = (uint32_t)c->r[i->op[0].reg];
}

/* ---- sign extension of rAX ---------------------------------------------------- */

static void h_cbw(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)i;
	x86_put_gpr(c, X86_RAX, 2, x86_sext(c->r[X86_RAX], 1));
}

static void h_cwde(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)i;
	x86_put_gpr(c, X86_RAX, 4, x86_sext(c->r[X86_RAX], 2));
}

static void h_cdqe(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)i;
	c->r[X86_RAX] = x86_sext(c->r[X86_RAX], 4);
}

static void h_cwd(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)i;
	x86_put_gpr(c, X86_RDX, 2, (c->r[X86_RAX] & 0x8000) ? 0xffff : 0);
}

static void h_cdq(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)i;
	x86_put_gpr(c, X86_RDX, 4, (c->r[X86_RAX] & 0x80000000u) ? 0xffffffffu : 0);
}

static void h_cqo(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)i;
	c->r[X86_RDX] = (int64_t)c->r[X86_RAX] < 0 ? ~0ull : 0;
}

static void h_nop(struct x86_cpu *c, const struct x86_insn *i)
{
	(void)c;
	(void)i;
}

void x86_int_register(x86_fn *t)
{
	t[ZYDIS_MNEMONIC_MOV] = h_mov;
	t[ZYDIS_MNEMONIC_MOVZX] = h_movzx;
	t[ZYDIS_MNEMONIC_MOVSX] = h_movsx;
	t[ZYDIS_MNEMONIC_MOVSXD] = h_movsx;
	t[ZYDIS_MNEMONIC_LEA] = h_lea;
	t[ZYDIS_MNEMONIC_XCHG] = h_xchg;
	t[ZYDIS_MNEMONIC_ADD] = h_add;
	t[ZYDIS_MNEMONIC_OR] = h_or;
	t[ZYDIS_MNEMONIC_ADC] = h_adc;
	t[ZYDIS_MNEMONIC_SBB] = h_sbb;
	t[ZYDIS_MNEMONIC_AND] = h_and;
	t[ZYDIS_MNEMONIC_SUB] = h_sub;
	t[ZYDIS_MNEMONIC_XOR] = h_xor;
	t[ZYDIS_MNEMONIC_CMP] = h_cmp;
	t[ZYDIS_MNEMONIC_TEST] = h_test;
	t[ZYDIS_MNEMONIC_INC] = h_inc;
	t[ZYDIS_MNEMONIC_DEC] = h_dec;
	t[ZYDIS_MNEMONIC_NEG] = h_neg;
	t[ZYDIS_MNEMONIC_NOT] = h_not;
	static const ZydisMnemonic setcc[] = {
		ZYDIS_MNEMONIC_SETO,   ZYDIS_MNEMONIC_SETNO,  ZYDIS_MNEMONIC_SETB,
		ZYDIS_MNEMONIC_SETNB,  ZYDIS_MNEMONIC_SETZ,   ZYDIS_MNEMONIC_SETNZ,
		ZYDIS_MNEMONIC_SETBE,  ZYDIS_MNEMONIC_SETNBE, ZYDIS_MNEMONIC_SETS,
		ZYDIS_MNEMONIC_SETNS,  ZYDIS_MNEMONIC_SETP,   ZYDIS_MNEMONIC_SETNP,
		ZYDIS_MNEMONIC_SETL,   ZYDIS_MNEMONIC_SETNL,  ZYDIS_MNEMONIC_SETLE,
		ZYDIS_MNEMONIC_SETNLE,
	};
	static const ZydisMnemonic cmovcc[] = {
		ZYDIS_MNEMONIC_CMOVO,	ZYDIS_MNEMONIC_CMOVNO,	ZYDIS_MNEMONIC_CMOVB,
		ZYDIS_MNEMONIC_CMOVNB,	ZYDIS_MNEMONIC_CMOVZ,	ZYDIS_MNEMONIC_CMOVNZ,
		ZYDIS_MNEMONIC_CMOVBE,	ZYDIS_MNEMONIC_CMOVNBE, ZYDIS_MNEMONIC_CMOVS,
		ZYDIS_MNEMONIC_CMOVNS,	ZYDIS_MNEMONIC_CMOVP,	ZYDIS_MNEMONIC_CMOVNP,
		ZYDIS_MNEMONIC_CMOVL,	ZYDIS_MNEMONIC_CMOVNL,	ZYDIS_MNEMONIC_CMOVLE,
		ZYDIS_MNEMONIC_CMOVNLE,
	};
	for (int k = 0; k < 16; k++) {
		t[setcc[k]] = h_setcc;
		t[cmovcc[k]] = h_cmovcc;
	}
	t[ZYDIS_MNEMONIC_CBW] = h_cbw;
	t[ZYDIS_MNEMONIC_CWDE] = h_cwde;
	t[ZYDIS_MNEMONIC_CDQE] = h_cdqe;
	t[ZYDIS_MNEMONIC_CWD] = h_cwd;
	t[ZYDIS_MNEMONIC_CDQ] = h_cdq;
	t[ZYDIS_MNEMONIC_CQO] = h_cqo;
	t[ZYDIS_MNEMONIC_NOP] = h_nop;
	t[ZYDIS_MNEMONIC_ENDBR64] = h_nop; /* CET is off: a nop (SDM ENDBR64) */
	t[ZYDIS_MNEMONIC_ENDBR32] = h_nop;
	t[ZYDIS_MNEMONIC_RDSSPD] = h_nop; /* no shadow stack: a nop (decode.c) */
	t[ZYDIS_MNEMONIC_RDSSPQ] = h_nop;
	x86_ctl_register(t);
}
