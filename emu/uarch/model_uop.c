/* model_uop.c — an instruction split into the µops the pipeline times,
 * by class of execution unit. */
#include "model_priv.h"

/* (uarch_microcoded() takes the classes from X86_XC_X87_COMPLEX on) */
_Static_assert(X86_XC_X87_COMPLEX + 6 == X86_NXCLASS, "the microcoded classes come last");

static const uint8_t uclass_of[X86_NXCLASS] = {
	[X86_XC_NOP] = UARCH_UC_INT,
	[X86_XC_INT] = UARCH_UC_INT,
	[X86_XC_MOVE] = UARCH_UC_INT,
	[X86_XC_SHIFT] = UARCH_UC_SHIFT,
	[X86_XC_IMUL] = UARCH_UC_IMUL,
	[X86_XC_IDIV] = UARCH_UC_IDIV,
	[X86_XC_JCC] = UARCH_UC_BRANCH,
	[X86_XC_JMP] = UARCH_UC_BRANCH,
	[X86_XC_JMP_IND] = UARCH_UC_BRANCH,
	[X86_XC_CALL] = UARCH_UC_BRANCH,
	[X86_XC_CALL_IND] = UARCH_UC_BRANCH,
	[X86_XC_RET] = UARCH_UC_BRANCH,
	[X86_XC_FADD] = UARCH_UC_FADD,
	[X86_XC_FMUL] = UARCH_UC_FMUL,
	[X86_XC_FDIV] = UARCH_UC_FDIV,
	[X86_XC_FMOV] = UARCH_UC_FMOV,
	[X86_XC_SIMD] = UARCH_UC_SIMD,
	[X86_XC_SIMD_MUL] = UARCH_UC_SIMD_MUL,
	[X86_XC_X87_COMPLEX] = UARCH_UC_COMPLEX,
	[X86_XC_STRING] = UARCH_UC_COMPLEX,
	[X86_XC_SYSCALL] = UARCH_UC_COMPLEX,
	[X86_XC_COMPLEX] = UARCH_UC_COMPLEX,
	[X86_XC_FENCE] = UARCH_UC_COMPLEX,
	[X86_XC_PAUSE] = UARCH_UC_COMPLEX,
};

int uarch_crack(const struct x86_trace *t, struct uop *u)
{
	const struct x86_insn *i = t->i;
	uint64_t ad = t->nmem ? addr_deps(i) : 0;
	int n = 0, last_load = -1, op = -1;
	uint8_t cls = uclass_of[i->xclass];
	int pure_load = i->xclass == X86_XC_MOVE || i->xclass == X86_XC_FMOV ||
			i->xclass == X86_XC_RET || i->xclass == X86_XC_NOP;

	for (int k = 0; k < t->nmem && n < 6; k++) {
		if (!(t->load >> k & 1))
			continue;
		u[n] = (struct uop){ ad,
				     0,
				     UARCH_UC_LOAD,
				     U_LOAD,
				     (uint8_t)k,
				     (int8_t)last_load,
				     (uint8_t)uarch_fp_event(i, U_LOAD) };
		last_load = n++;
	}
	if (!(pure_load && last_load >= 0 && !(t->store)) || i->xclass == X86_XC_RET) {
		u[n] = (struct uop){ i->rd,
				     i->wr,
				     cls,
				     U_OP,
				     0,
				     (int8_t)last_load,
				     (uint8_t)uarch_fp_event(i, U_OP) };
		op = n++;
	} else {
		u[last_load].dst = i->wr; /* a plain load writes the destination itself */
		op = last_load;
	}
	for (int k = 0; k < t->nmem && n < 7; k++) {
		if (!(t->store >> k & 1))
			continue;
		u[n++] = (struct uop){ ad, 0, UARCH_UC_STA, U_STA, (uint8_t)k, -1, 0 };
		u[n++] = (struct uop){ i->rd,
				       0,
				       UARCH_UC_STD,
				       U_STD,
				       (uint8_t)k,
				       (int8_t)op,
				       (uint8_t)uarch_fp_event(i, U_STD) };
	}
	return n;
}

size_t uarch_insn_aux_size(void)
{
	return sizeof(struct plan);
}
