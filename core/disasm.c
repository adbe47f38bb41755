/* disasm.c — decode with Zydis, print as `objdump -d` does.
 *
 * Zydis's own AT&T formatter differs from GNU objdump in many details
 * (movzx vs movzbl, operand separators, hex padding, signedness of
 * immediates, which implicit operands show), and annotate must match
 * objdump, so the AT&T text is printed here from the decoded instruction
 * following binutils 2.40's conventions:
 *
 *  - mnemonic padded to 6 columns and a space, operands separated by ","
 *    in source,destination order;
 *  - a size suffix (b/w/l/q) only when no encoded register operand gives
 *    the size (`movl $0x0,(%rax)`, `shll %cl,(%rax)`), never on push, pop,
 *    call, jmp, ret, setcc or SSE; x87 memory operands take s/l/t/ll;
 *  - immediates sign-extended to the operand size and printed unsigned;
 *    displacements signed; an encoded zero displacement is printed
 *    (`0x0(%rax,%rax,1)`); absolute addresses unsigned;
 *  - prefixes that do not change the operation are printed as words
 *    ("cs", "data16", "repz", "bnd", "notrack"), the way objdump names them;
 *  - direct branches as `target <sym+0xoff>`, rip-relative operands
 *    followed by `        # target <sym+0xoff>`.
 *
 * Intel syntax is Zydis's formatter, with the same target annotations.
 */
#include <Zydis/Zydis.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disasm.h"

struct buf {
	char *p;
	size_t n, len;
};

static void put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (b->len >= b->n)
		return;
	va_start(ap, fmt);
	k = vsnprintf(b->p + b->len, b->n - b->len, fmt, ap);
	va_end(ap);
	if (k > 0)
		b->len = b->len + (size_t)k < b->n ? b->len + (size_t)k : b->n - 1;
}

/* " <sym>" or " <sym+0xoff>" for an address inside a function or data
 * object s knows.  (objdump also names addresses past a symbol's end by
 * the nearest symbol before them, and GOT slots by their relocation's
 * symbol; those stay unnamed here.) */
static void put_symbol(struct buf *b, struct sym *s, uint64_t a)
{
	struct sym_info si;

	if (!s || (sym_lookup(s, a, &si) != 0 && sym_lookup_data(s, a, &si) != 0))
		return;
	if (si.off)
		put(b, " <%s+0x%" PRIx64 ">", si.name, si.off);
	else
		put(b, " <%s>", si.name);
}

static char suffix(unsigned bits)
{
	switch (bits) {
	case 8:
		return 'b';
	case 16:
		return 'w';
	case 32:
		return 'l';
	case 64:
		return 'q';
	}
	return 0;
}

/* Zydis names conditions after the flags (jnz, setnbe, cmovnl); objdump
 * after the comparison (jne, seta, cmovge). */
static const char *objdump_cc(const char *cc)
{
	static const char *const map[][2] = {
		{ "nb", "ae" }, { "z", "e" },	{ "nz", "ne" },
		{ "nbe", "a" }, { "nl", "ge" }, { "nle", "g" },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(cc, map[i][0]))
			return map[i][1];
	return cc;
}

static int has_attr(const ZydisDecodedInstruction *in, ZydisInstructionAttributes a)
{
	return (in->attributes & a) != 0;
}

static void reg_name(struct buf *b, const ZydisDecodedOperand *op)
{
	ZydisRegister r = op->reg.value;

	if (r >= ZYDIS_REGISTER_ST0 && r <= ZYDIS_REGISTER_ST7) {
		/* the stack top implied by the opcode is "%st", an encoded one
		 * "%st(i)" */
		if (op->encoding == ZYDIS_OPERAND_ENCODING_MODRM_RM)
			put(b, "%%st(%d)", (int)(r - ZYDIS_REGISTER_ST0));
		else
			put(b, "%%st");
		return;
	}
	put(b, "%%%s", ZydisRegisterGetString(r));
}

static void put_signed(struct buf *b, int64_t v)
{
	if (v < 0)
		put(b, "-0x%" PRIx64, (uint64_t)0 - (uint64_t)v);
	else
		put(b, "0x%" PRIx64, (uint64_t)v);
}

struct ctx {
	const ZydisDecodedInstruction *in;
	const ZydisDecodedOperand *op;
	uint64_t addr; /* of the instruction in (past an fwait merged into it) */
	struct sym *s;
	struct disasm_insn *d;
	int waited; /* fwait + fnXXX shown as fXXX */
};

/* The x87 control instructions that have a waiting form (fstcw = fwait;
 * fnstcw, Intel SDM vol. 2A FSTCW/FNSTCW). */
static int waits_for(ZydisMnemonic m)
{
	return m == ZYDIS_MNEMONIC_FNSTCW || m == ZYDIS_MNEMONIC_FNSTSW ||
	       m == ZYDIS_MNEMONIC_FNCLEX || m == ZYDIS_MNEMONIC_FNINIT ||
	       m == ZYDIS_MNEMONIC_FNSTENV || m == ZYDIS_MNEMONIC_FNSAVE;
}

static void mem_operand(struct ctx *c, struct buf *b, const ZydisDecodedOperand *op)
{
	const ZydisDecodedInstruction *in = c->in;
	const ZydisDecodedOperandMem *m = &op->mem;

	if ((m->segment == ZYDIS_REGISTER_FS && has_attr(in, ZYDIS_ATTRIB_HAS_SEGMENT_FS)) ||
	    (m->segment == ZYDIS_REGISTER_GS && has_attr(in, ZYDIS_ATTRIB_HAS_SEGMENT_GS)))
		put(b, "%%%s:", ZydisRegisterGetString(m->segment));
	if (m->base == ZYDIS_REGISTER_RIP || m->base == ZYDIS_REGISTER_EIP) {
		put_signed(b, m->disp.value);
		put(b, "(%%%s)", ZydisRegisterGetString(m->base));
		return;
	}
	if (m->base == ZYDIS_REGISTER_NONE && m->index == ZYDIS_REGISTER_NONE) {
		uint64_t v = (uint64_t)m->disp.value;

		if (in->address_width == 32)
			v &= 0xffffffffu;
		put(b, "0x%" PRIx64, v);
		return;
	}
	if (m->disp.has_displacement && in->raw.disp.size)
		put_signed(b, m->disp.value);
	put(b, "(");
	if (m->base != ZYDIS_REGISTER_NONE)
		put(b, "%%%s", ZydisRegisterGetString(m->base));
	if (m->index != ZYDIS_REGISTER_NONE)
		put(b, ",%%%s,%u", ZydisRegisterGetString(m->index), m->scale ? m->scale : 1);
	put(b, ")");
}

static void imm_operand(struct ctx *c, struct buf *b, const ZydisDecodedOperand *op)
{
	unsigned bits;
	uint64_t v;

	if (op->imm.is_relative) {
		put(b, "%" PRIx64, c->d->target);
		put_symbol(b, c->s, c->d->target);
		return;
	}
	/* sign-extended to the operation's size, shown unsigned */
	v = op->imm.is_signed ? (uint64_t)op->imm.value.s : op->imm.value.u;
	bits = op->imm.is_signed ? c->in->operand_width : op->size;
	if (bits && bits < 64)
		v &= (1ull << bits) - 1;
	put(b, "$0x%" PRIx64, v);
}

static void operand(struct ctx *c, struct buf *b, const ZydisDecodedOperand *op)
{
	switch (op->type) {
	case ZYDIS_OPERAND_TYPE_REGISTER:
		reg_name(b, op);
		break;
	case ZYDIS_OPERAND_TYPE_MEMORY:
		mem_operand(c, b, op);
		break;
	case ZYDIS_OPERAND_TYPE_IMMEDIATE:
		imm_operand(c, b, op);
		break;
	case ZYDIS_OPERAND_TYPE_POINTER:
		put(b, "$0x%x,$0x%x", op->ptr.segment, op->ptr.offset);
		break;
	default:
		break;
	}
}

/* Prefix words objdump prints for prefixes the operation does not use. */
static void prefix_words(const ZydisDecodedInstruction *in, int has_mem, struct buf *b)
{
	for (unsigned i = 0; i < in->raw.prefix_count; i++) {
		unsigned v = in->raw.prefixes[i].value;
		int ign = in->raw.prefixes[i].type == ZYDIS_PREFIX_TYPE_IGNORED;

		switch (v) {
		case 0xf0:
			put(b, "lock ");
			break;
		case 0xf2:
			if (has_attr(in, ZYDIS_ATTRIB_HAS_BND))
				put(b, "bnd ");
			else if (has_attr(in, ZYDIS_ATTRIB_HAS_REPNE) || ign)
				put(b, "repnz ");
			break;
		case 0xf3:
			if (has_attr(in, ZYDIS_ATTRIB_HAS_REP))
				put(b, "rep ");
			else if (has_attr(in, ZYDIS_ATTRIB_HAS_REPE) || ign)
				put(b, "repz ");
			break;
		case 0x2e:
			put(b, "cs ");
			break;
		case 0x36:
			put(b, "ss ");
			break;
		case 0x3e:
			put(b, has_attr(in, ZYDIS_ATTRIB_HAS_NOTRACK) ? "notrack " : "ds ");
			break;
		case 0x26:
			put(b, "es ");
			break;
		case 0x64:
		case 0x65:
			if (!has_mem)
				put(b, v == 0x64 ? "fs " : "gs ");
			break;
		case 0x66:
			/* REX.W overrides an operand-size prefix */
			if (ign || (in->raw.rex.W &&
				    in->raw.prefixes[i].type != ZYDIS_PREFIX_TYPE_MANDATORY))
				put(b, "data16 ");
			break;
		case 0x48:
			/* REX.W alone on an operation that is 64-bit anyway */
			if (in->meta.category == ZYDIS_CATEGORY_CALL ||
			    in->meta.category == ZYDIS_CATEGORY_UNCOND_BR ||
			    in->meta.category == ZYDIS_CATEGORY_PUSH ||
			    in->meta.category == ZYDIS_CATEGORY_POP)
				put(b, "rex.W ");
			break;
		case 0x67:
			if (ign)
				put(b, "addr32 ");
			break;
		default:
			break;
		}
	}
}

static int is_mem(const ZydisDecodedOperand *o)
{
	return o->type == ZYDIS_OPERAND_TYPE_MEMORY && o->mem.type == ZYDIS_MEMOP_TYPE_MEM;
}

/* Memory-operand suffixes of the x87 instructions: "s"/"l"/"t" for
 * real operands, "s"/"l"/"ll" for integer ones (the fi* forms). */
static const char *x87_suffix(const char *name, unsigned bits)
{
	static const char *const real[] = { "fld",  "fst",  "fstp",  "fadd", "fsub", "fsubr",
					    "fmul", "fdiv", "fdivr", "fcom", "fcomp" };

	if (name[0] == 'f' && name[1] == 'i')
		return bits == 16 ? "s" : bits == 32 ? "l" : bits == 64 ? "ll" : "";
	for (size_t i = 0; i < sizeof(real) / sizeof(real[0]); i++)
		if (!strcmp(name, real[i]))
			return bits == 32 ? "s" : bits == 64 ? "l" : bits == 80 ? "t" : "";
	return "";
}

/* SysV/AT&T assemblers swapped fsub/fsubr and fdiv/fdivr in the register
 * forms whose destination is %st(i) (opcodes DC and DE); objdump prints
 * them that way (binutils i386-dis.c, SYSV386_COMPAT). */
static void x87_swap(const ZydisDecodedInstruction *in, char *mn, size_t n)
{
	size_t len = strlen(mn);

	if ((in->opcode != 0xdc && in->opcode != 0xde) || in->raw.modrm.mod != 3)
		return;
	if (strncmp(mn, "fsub", 4) && strncmp(mn, "fdiv", 4))
		return;
	if (len > 4 && mn[4] == 'r')
		memmove(mn + 4, mn + 5, len - 4);
	else if (len + 1 < n) {
		memmove(mn + 5, mn + 4, len - 3);
		mn[4] = 'r';
	}
}

/* Comparison predicates objdump folds into the mnemonic: cmpltsd,
 * vcmpnle_uqps, vpcmpltub (Intel SDM vol. 2A, CMPPS and VPCMP tables). */
static const char *cmp_predicate(const char *name, uint64_t imm, size_t *at)
{
	static const char *const sse[] = {
		"eq",	 "lt",	   "le",     "unord",	 "neq",	   "nlt",    "nle",    "ord",
		"eq_uq", "nge",	   "ngt",    "false",	 "neq_oq", "ge",     "gt",     "true",
		"eq_os", "lt_oq",  "le_oq",  "unord_s",	 "neq_us", "nlt_uq", "nle_uq", "ord_s",
		"eq_us", "nge_uq", "ngt_uq", "false_os", "neq_os", "ge_oq",  "gt_oq",  "true_us",
	};
	static const char *const pcmp[] = { "eq", "lt", "le", "false", "neq", "nlt", "nle", "true" };
	static const char *const tails[] = { "ps", "pd", "ss", "sd" };

	if (!strncmp(name, "vpcmp", 5)) {
		/* vpcmp{b,w,d,q,ub,uw,ud,uq}: not vpcmpeqb and friends */
		const char *t = name + 5;

		if (t[0] == 'u')
			t++;
		if (!t[0] || t[1] || !strchr("bwdq", t[0]) || imm >= 8)
			return NULL;
		*at = 5;
		return pcmp[imm];
	}
	for (size_t i = 0; i < 4; i++) {
		int vex = name[0] == 'v';

		if (strncmp(name + vex, "cmp", 3) || strcmp(name + vex + 3, tails[i]))
			continue;
		if (imm >= (vex ? 32u : 8u))
			return NULL;
		*at = (size_t)vex + 3;
		return sse[imm];
	}
	return NULL;
}

/* EVEX decorations of the destination (Intel's first operand). */
static void put_mask(const ZydisDecodedInstruction *in, struct buf *b)
{
	if (in->encoding != ZYDIS_INSTRUCTION_ENCODING_EVEX)
		return;
	if (in->avx.mask.reg != ZYDIS_REGISTER_NONE && in->avx.mask.reg != ZYDIS_REGISTER_K0)
		put(b, "{%%%s}", ZydisRegisterGetString(in->avx.mask.reg));
	/* the encoded EVEX.z bit: Zydis reports compares into a mask register
	 * as zeroing whatever it says */
	if (in->raw.evex.z)
		put(b, "{z}");
}

static void put_broadcast(const ZydisDecodedInstruction *in, struct buf *b)
{
	static const char *const n[] = {
		[ZYDIS_BROADCAST_MODE_1_TO_2] = "1to2",	  [ZYDIS_BROADCAST_MODE_1_TO_4] = "1to4",
		[ZYDIS_BROADCAST_MODE_1_TO_8] = "1to8",	  [ZYDIS_BROADCAST_MODE_1_TO_16] = "1to16",
		[ZYDIS_BROADCAST_MODE_1_TO_32] = "1to32", [ZYDIS_BROADCAST_MODE_1_TO_64] = "1to64",
	};
	unsigned m = in->avx.broadcast.mode;

	if (!in->avx.broadcast.is_static && m < sizeof(n) / sizeof(n[0]) && n[m])
		put(b, "{%s}", n[m]);
}

static int suffix_category(int cat)
{
	switch (cat) {
	case ZYDIS_CATEGORY_BINARY:
	case ZYDIS_CATEGORY_LOGICAL:
	case ZYDIS_CATEGORY_SHIFT:
	case ZYDIS_CATEGORY_ROTATE:
	case ZYDIS_CATEGORY_DATAXFER:
	case ZYDIS_CATEGORY_BITBYTE:
	case ZYDIS_CATEGORY_NOP:
	case ZYDIS_CATEGORY_WIDENOP:
	case ZYDIS_CATEGORY_SEMAPHORE:
		return 1;
	}
	return 0;
}

static const char *acc_name(unsigned bits)
{
	return bits == 8 ? "al" : bits == 16 ? "ax" : bits == 32 ? "eax" : "rax";
}

/* movs/cmps/stos/lods/scas with their implied operands, as objdump shows
 * them: "rep stos %rax,%es:(%rdi)", "movsb %ds:(%rsi),%es:(%rdi)". */
static void string_op(const ZydisDecodedInstruction *in, const char *name, char *mn, size_t mnn,
		      char *ops, size_t opsn)
{
	const char *si = in->address_width == 32 ? "esi" : "rsi";
	const char *di = in->address_width == 32 ? "edi" : "rdi";
	char base[8];
	char sfx = suffix(in->operand_width);

	snprintf(base, sizeof(base), "%.4s", name);
	if (!strcmp(base, "movs")) {
		snprintf(mn, mnn, "movs%c", sfx);
		snprintf(ops, opsn, "%%ds:(%%%s),%%es:(%%%s)", si, di);
	} else if (!strcmp(base, "cmps")) {
		snprintf(mn, mnn, "cmps%c", sfx);
		snprintf(ops, opsn, "%%es:(%%%s),%%ds:(%%%s)", di, si);
	} else if (!strcmp(base, "stos")) {
		snprintf(mn, mnn, "stos");
		snprintf(ops, opsn, "%%%s,%%es:(%%%s)", acc_name(in->operand_width), di);
	} else if (!strcmp(base, "lods")) {
		snprintf(mn, mnn, "lods");
		snprintf(ops, opsn, "%%ds:(%%%s),%%%s", si, acc_name(in->operand_width));
	} else if (!strcmp(base, "scas")) {
		snprintf(mn, mnn, "scas");
		snprintf(ops, opsn, "%%es:(%%%s),%%%s", di, acc_name(in->operand_width));
	} else {
		snprintf(mn, mnn, "%s", name);
		ops[0] = 0;
	}
}

static const char *waited_name(const char *name, char *buf, size_t n)
{
	snprintf(buf, n, "f%s", name + 2);
	return buf;
}

static void att(struct ctx *c, struct buf *b)
{
	const ZydisDecodedInstruction *in = c->in;
	const ZydisDecodedOperand *op = c->op;
	const ZydisDecodedOperand *show[ZYDIS_MAX_OPERAND_COUNT] = { 0 };
	const char *name = ZydisMnemonicGetString(in->mnemonic);
	int cat = in->meta.category, n = 0, has_mem = 0, has_reg = 0, reverse = 1;
	char pre[64], mn[48], head[112], ops[sizeof(((struct disasm_insn *)0)->text)] = "";
	struct buf pb = { pre, sizeof(pre), 0 }, ob = { ops, sizeof(ops), 0 };
	const ZydisDecodedOperand *mem = NULL;
	const char *pred;
	char wname[16];
	size_t at;

	pre[0] = 0;
	if (c->waited)
		name = waited_name(name, wname, sizeof(wname));
	for (unsigned i = 0; i < in->operand_count_visible; i++) {
		const ZydisDecodedOperand *o = &op[i];

		/* implied constants (the 1 of shift-by-one) and the unused
		 * register field of the multi-byte NOP are not shown */
		if (o->type == ZYDIS_OPERAND_TYPE_IMMEDIATE &&
		    o->encoding == ZYDIS_OPERAND_ENCODING_NONE)
			continue;
		if (in->mnemonic == ZYDIS_MNEMONIC_NOP && o->type == ZYDIS_OPERAND_TYPE_REGISTER &&
		    o->encoding == ZYDIS_OPERAND_ENCODING_MODRM_REG)
			continue;
		/* the EVEX write mask decorates the destination instead */
		if (o->encoding == ZYDIS_OPERAND_ENCODING_MASK)
			continue;
		if (is_mem(o)) {
			has_mem = 1;
			mem = o;
		}
		if (o->type == ZYDIS_OPERAND_TYPE_REGISTER &&
		    o->encoding != ZYDIS_OPERAND_ENCODING_NONE)
			has_reg = 1;
		show[n++] = o;
	}
	prefix_words(in, has_mem, &pb);
	snprintf(mn, sizeof(mn), "%s", name);

	if (cat == ZYDIS_CATEGORY_STRINGOP) {
		string_op(in, name, mn, sizeof(mn), ops, sizeof(ops));
		n = 0;
	} else if (cat == ZYDIS_CATEGORY_COND_BR || cat == ZYDIS_CATEGORY_SETCC ||
		   cat == ZYDIS_CATEGORY_CMOV) {
		size_t k = !strncmp(name, "set", 3) ? 3 : !strncmp(name, "cmov", 4) ? 4 : 1;

		if (name[0] != 'j' || (strncmp(name, "jcxz", 4) && strncmp(name, "jecxz", 5) &&
				       strncmp(name, "jrcxz", 5)))
			snprintf(mn, sizeof(mn), "%.*s%s", (int)k, name, objdump_cc(name + k));
	} else if (in->mnemonic == ZYDIS_MNEMONIC_MOVZX || in->mnemonic == ZYDIS_MNEMONIC_MOVSX ||
		   in->mnemonic == ZYDIS_MNEMONIC_MOVSXD) {
		snprintf(mn, sizeof(mn), "mov%c%c%c",
			 in->mnemonic == ZYDIS_MNEMONIC_MOVZX ? 'z' : 's', suffix(op[1].size),
			 suffix(op[0].size));
	} else if (in->mnemonic == ZYDIS_MNEMONIC_CBW || in->mnemonic == ZYDIS_MNEMONIC_CWDE ||
		   in->mnemonic == ZYDIS_MNEMONIC_CDQE || in->mnemonic == ZYDIS_MNEMONIC_CWD ||
		   in->mnemonic == ZYDIS_MNEMONIC_CDQ || in->mnemonic == ZYDIS_MNEMONIC_CQO) {
		static const char *const att_name[] = { "cbtw", "cwtl", "cltq",
							"cwtd", "cltd", "cqto" };
		static const ZydisMnemonic intel[] = { ZYDIS_MNEMONIC_CBW,  ZYDIS_MNEMONIC_CWDE,
						       ZYDIS_MNEMONIC_CDQE, ZYDIS_MNEMONIC_CWD,
						       ZYDIS_MNEMONIC_CDQ,  ZYDIS_MNEMONIC_CQO };

		for (size_t i = 0; i < 6; i++)
			if (in->mnemonic == intel[i])
				snprintf(mn, sizeof(mn), "%s", att_name[i]);
	} else if (in->mnemonic == ZYDIS_MNEMONIC_NOP && in->opcode == 0x90 &&
		   in->opcode_map == ZYDIS_OPCODE_MAP_DEFAULT && in->operand_width == 16) {
		snprintf(mn, sizeof(mn), "xchg");
		snprintf(ops, sizeof(ops), "%%ax,%%ax");
		n = 0;
	} else if (in->mnemonic == ZYDIS_MNEMONIC_MOV &&
		   ((in->opcode >= 0xa0 && in->opcode <= 0xa3 &&
		     in->opcode_map == ZYDIS_OPCODE_MAP_DEFAULT) ||
		    (n == 2 && show[1]->type == ZYDIS_OPERAND_TYPE_IMMEDIATE &&
		     in->raw.imm[0].size == 64))) {
		snprintf(mn, sizeof(mn), "movabs");
	} else if ((in->mnemonic == ZYDIS_MNEMONIC_CVTSI2SD ||
		    in->mnemonic == ZYDIS_MNEMONIC_CVTSI2SS) &&
		   has_mem) {
		snprintf(mn, sizeof(mn), "%s%c", name, suffix(mem->size));
	} else if (cat == ZYDIS_CATEGORY_X87_ALU || cat == ZYDIS_CATEGORY_FCMOV) {
		if (has_mem)
			snprintf(mn, sizeof(mn), "%s%s", name, x87_suffix(name, mem->size));
		x87_swap(in, mn, sizeof(mn));
	} else if (n && show[n - 1]->type == ZYDIS_OPERAND_TYPE_IMMEDIATE &&
		   (pred = cmp_predicate(name, show[n - 1]->imm.value.u, &at))) {
		snprintf(mn, sizeof(mn), "%.*s%s%s", (int)at, name, pred, name + at);
		n--;
	} else if (in->mnemonic == ZYDIS_MNEMONIC_ENTER) {
		reverse = 0;
	} else if (has_mem && !has_reg && suffix_category(cat) && suffix(mem->size)) {
		size_t len = strlen(mn);

		mn[len] = suffix(mem->size);
		mn[len + 1] = 0;
	}

	for (int k = 0; k < n; k++) {
		const ZydisDecodedOperand *o = show[reverse ? n - 1 - k : k];

		if (k)
			put(&ob, ",");
		if ((cat == ZYDIS_CATEGORY_CALL || cat == ZYDIS_CATEGORY_UNCOND_BR) &&
		    o->type != ZYDIS_OPERAND_TYPE_IMMEDIATE)
			put(&ob, "*");
		operand(c, &ob, o);
		if (is_mem(o))
			put_broadcast(in, &ob);
		if (o == show[0])
			put_mask(in, &ob);
	}
	snprintf(head, sizeof(head), "%s%s", pre, mn);
	if (ops[0])
		put(b, "%-6s %s", head, ops);
	else
		put(b, "%s", head);
}

/* Branch targets and rip-relative references, for both syntaxes. */
static void references(struct ctx *c)
{
	const ZydisDecodedInstruction *in = c->in;
	struct disasm_insn *d = c->d;

	switch (in->meta.category) {
	case ZYDIS_CATEGORY_CALL:
		d->branch = DISASM_BR_CALL;
		break;
	case ZYDIS_CATEGORY_RET:
		d->branch = DISASM_BR_RET;
		break;
	case ZYDIS_CATEGORY_COND_BR:
		d->cond = 1;
		d->branch = DISASM_BR_JUMP;
		break;
	case ZYDIS_CATEGORY_UNCOND_BR:
		d->branch = DISASM_BR_JUMP;
		break;
	default:
		break;
	}
	for (unsigned i = 0; i < in->operand_count_visible; i++) {
		const ZydisDecodedOperand *o = &c->op[i];
		ZyanU64 abs;

		if (o->type == ZYDIS_OPERAND_TYPE_IMMEDIATE && o->imm.is_relative &&
		    ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(in, o, c->addr, &abs))) {
			d->has_target = 1;
			d->target = abs;
		}
		if (o->type == ZYDIS_OPERAND_TYPE_MEMORY &&
		    (o->mem.base == ZYDIS_REGISTER_RIP || o->mem.base == ZYDIS_REGISTER_EIP) &&
		    ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(in, o, c->addr, &abs))) {
			d->has_ref = 1;
			d->ref = abs;
		}
	}
}

static void intel(struct ctx *c, struct buf *b)
{
	ZydisFormatter f;
	char text[160];

	if (ZYAN_FAILED(ZydisFormatterInit(&f, ZYDIS_FORMATTER_STYLE_INTEL)))
		return;
	ZydisFormatterSetProperty(&f, ZYDIS_FORMATTER_PROP_FORCE_RELATIVE_RIPREL, ZYAN_TRUE);
	ZydisFormatterSetProperty(&f, ZYDIS_FORMATTER_PROP_ADDR_PADDING_ABSOLUTE,
				  ZYDIS_PADDING_DISABLED);
	ZydisFormatterSetProperty(&f, ZYDIS_FORMATTER_PROP_ADDR_PADDING_RELATIVE,
				  ZYDIS_PADDING_DISABLED);
	ZydisFormatterSetProperty(&f, ZYDIS_FORMATTER_PROP_DISP_PADDING, ZYDIS_PADDING_DISABLED);
	ZydisFormatterSetProperty(&f, ZYDIS_FORMATTER_PROP_IMM_PADDING, ZYDIS_PADDING_DISABLED);
	ZydisFormatterSetProperty(&f, ZYDIS_FORMATTER_PROP_HEX_UPPERCASE, ZYAN_FALSE);
	if (ZYAN_FAILED(ZydisFormatterFormatInstruction(&f, c->in, c->op,
							c->in->operand_count_visible, text,
							sizeof(text), c->addr, NULL)))
		return;
	if (c->waited && !strncmp(text, "fn", 2))
		put(b, "f%s", text + 2);
	else
		put(b, "%s", text);
	if (c->d->has_target)
		put_symbol(b, c->s, c->d->target);
}

size_t disasm_one(const uint8_t *code, size_t n, uint64_t addr, enum disasm_syntax syn,
		  struct sym *s, struct disasm_insn *d)
{
	ZydisDecoder dec;
	ZydisDecodedInstruction in;
	ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];
	struct buf b = { d->text, sizeof(d->text), 0 };
	struct ctx c = { &in, op, addr, s, d, 0 };

	memset(d, 0, sizeof(*d));
	d->addr = addr;
	if (!n)
		return 0;
	if (ZYAN_FAILED(ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)) ||
	    ZYAN_FAILED(ZydisDecoderDecodeFull(&dec, code, n, &in, op))) {
		d->len = 1;
		d->bytes[0] = code[0];
		snprintf(d->text, sizeof(d->text), "(bad)");
		return 1;
	}
	d->ok = 1;
	d->len = in.length;
	if (in.mnemonic == ZYDIS_MNEMONIC_FWAIT && n > 1) {
		/* objdump shows fwait + fnstcw as the one instruction fstcw */
		ZydisDecodedInstruction in2;
		ZydisDecodedOperand op2[ZYDIS_MAX_OPERAND_COUNT];

		if (ZYAN_SUCCESS(ZydisDecoderDecodeFull(&dec, code + 1, n - 1, &in2, op2)) &&
		    waits_for(in2.mnemonic)) {
			in = in2;
			memcpy(op, op2, sizeof(op));
			c.addr = addr + 1;
			c.waited = 1;
			d->len = (uint8_t)(in2.length + 1);
		}
	}
	memcpy(d->bytes, code, d->len);
	references(&c);
	if (syn == DISASM_INTEL)
		intel(&c, &b);
	else
		att(&c, &b);
	if (d->has_ref) {
		put(&b, "        # %" PRIx64, d->ref);
		put_symbol(&b, s, d->ref);
	}
	return d->len;
}

int disasm_func(struct sym *s, uint64_t addr, enum disasm_syntax syn, struct disasm_func *f)
{
	const uint8_t *code;
	size_t cap = 0;

	memset(f, 0, sizeof(*f));
	if (sym_lookup(s, addr, &f->sym) != 0)
		return -1;
	f->sym.file_addr -= f->sym.off;
	f->sym.off = 0;
	code = f->sym.size ? sym_code(s, f->sym.start, f->sym.size) : NULL;
	if (!code)
		return -2;
	for (uint64_t off = 0; off < f->sym.size;) {
		if (f->n == cap) {
			size_t nc = cap ? cap * 2 : 64;
			struct disasm_insn *ni = realloc(f->insn, nc * sizeof(*ni));
			struct sym_srcline *ns;

			if (ni)
				f->insn = ni;
			ns = ni ? realloc(f->src, nc * sizeof(*ns)) : NULL;
			if (!ns) {
				disasm_func_release(f);
				return -3;
			}
			f->src = ns;
			cap = nc;
		}
		off += disasm_one(code + off, f->sym.size - off, f->sym.start + off, syn, s,
				  &f->insn[f->n]);
		if (sym_srcline(s, f->insn[f->n].addr, &f->src[f->n]) == 0)
			f->has_source = 1;
		f->n++;
	}
	return 0;
}

void disasm_func_release(struct disasm_func *f)
{
	free(f->insn);
	free(f->src);
	f->insn = NULL;
	f->src = NULL;
	f->n = 0;
}
