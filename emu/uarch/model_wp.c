/* model_wp.c — the front end down a mispredicted path: fetches, loads
 * and the address arithmetic they need, with real cache and TLB effects
 * and nothing architectural. */
#include <stddef.h>
#include <string.h>

#include "model_priv.h"

/* Whether a wrong-path instruction can be evaluated on a scratch copy of
 * the registers: integer register-only work (address arithmetic), which
 * cannot fault and touches nothing outside the cpu. */
static inline int evaluable(const struct x86_insn *i)
{
	const unsigned cls = 1u << X86_XC_INT | 1u << X86_XC_MOVE | 1u << X86_XC_SHIFT |
			     1u << X86_XC_IMUL; /* division faults */

	return (i->flags & X86_I_GPR) && (cls >> i->xclass & 1);
}

/* One more instruction fetched down a mispredicted path, width a cycle. */
static inline void wp_step(unsigned *n, unsigned *slot, uint64_t *when, unsigned width)
{
	++*n;
	if (++*slot == width) {
		*slot = 0;
		++*when;
	}
}

/* The counts by kind of wrong-path instruction i, fetched at when with
 * its load issued or not (loaded), in a line the trace cache missed or not
 * (build):
 * - its x87 and SIMD µops: the load, the operation or register move and
 *   the store data, as uarch_crack() splits it (a move from memory is its
 *   load alone);
 * - its µops into the µop queue, as uops-spec counts them (the operation
 *   and a load): from the microcode ROM, built, or delivered by the trace
 *   cache (when tallied, the caller derives those at the end from the
 *   others, which this returns). */
static __attribute__((noinline)) unsigned wp_kinds(struct uarch *u, struct uth *t, int th,
						   const struct x86_insn *i, uint64_t when,
						   unsigned loaded, int build, int tally)
{
	unsigned q = 1u + loaded, op = uarch_fp_event(i, U_OP);
	int rom = uarch_microcoded(i->xclass);

	if (i->simd & X86_SIMD_KIND) {
		if (loaded)
			count1(u, t, th, UARCH_EV_FP_LOAD_WP, when + u->m.core.depth, tally);
		if (op && !((i->simd & X86_SIMD_MOVE) && (i->mact & 1)))
			count1(u, t, th, UARCH_FP_WP(op), when, tally);
		if (i->mact & 2)
			count1(u, t, th, UARCH_EV_FP_MOVE_WP, when, tally);
	}
	if (!u->m.l1i_is_tc)
		return 0;
	if (rom | build) {
		uopq_other(u, t, th, q, rom, when);
		return q;
	}
	if (!tally)
		count(u, t, th, UARCH_EV_UOPQ_DELIVER, q, when);
	return 0;
}

/* Where the front end goes after branch i on a mispredicted path: a
 * direct jump's or call's encoded target, a conditional branch's
 * predicted direction, a return's or indirect branch's predicted target
 * (the predictors as they stand: the path does not train or advance
 * them); 0 where they name none. */
static uint64_t wp_next(const struct uarch *u, int th, const struct x86_insn *i)
{
	enum uarch_br k = br_kind(i->xclass);
	uint64_t fall = i->pc + i->len, enc = i->op[0].kind == X86_OP_REL ? (uint64_t)i->imm : 0;
	struct uarch_bp_pred p;

	if (k == UARCH_BR_JMP || k == UARCH_BR_CALL)
		return enc;
	if (k == UARCH_BR_COND)
		return uarch_bp_taken(u->bp, th, i->pc, enc) ? enc : fall;
	uarch_bp_predict(u->bp, th, i->pc, fall, enc, k, &p);
	return p.btb_hit ? p.target : 0;
}

void uarch_wrong_path(struct uarch *u, struct uth *t, int th, const struct x86_trace *tr,
		      uint64_t pc, uint64_t from, uint64_t until, int tally)
{
	const struct uarch_core_cfg *cc = &u->m.core;
	unsigned width = cc->fetch ? cc->fetch : 1, max = u->rob < 128 ? u->rob : 128, n = 0;
	unsigned slot = 0; /* n modulo width: fetched in cycle when so far */
	uint64_t when = from;
	unsigned shift = u->m.cache[UARCH_L1I].line ?
				 (unsigned)__builtin_ctz(u->m.cache[UARCH_L1I].line) :
				 6;
	uint64_t unknown = 0, iline = ~0ull;
	/* the trace cache's deliveries: counted each (deliver), else tallied */
	const int tc = u->m.l1i_is_tc, deliver = tc && !tally;
	int build = 0;				   /* the trace cache missed iline */
	uint64_t ninsn = 0, nuops = 0, nother = 0; /* tallied: added once, at the end */
	struct uarch_req r = { th, t->kernel, 1 };
	struct x86_counts scratch_cnt = { 0 };
	struct x86_cpu *s = &u->scratch;

	if (!tr->cpu)
		return;
	/* integer register work reads and writes the registers and flags,
	 * which come first, and nothing of the vector and x87 state */
	memcpy(s, tr->cpu, offsetof(struct x86_cpu, xmm));
	s->cur = tr->cpu->cur;
	s->blk = tr->cpu->blk;
	s->cache = tr->cpu->cache;
	s->model = tr->cpu->model;
	s->os = tr->cpu->os;
	s->jb = NULL;
	s->cnt = &scratch_cnt;
	s->trace = NULL;
	s->syscall = NULL;
	for (const struct x86_block *b = tr->cpu->blk; n < max;) {
		/* (the block before is the last one walked, at first the
		 * branch's own: the path's next is usually a successor it
		 * remembers) */
		b = x86_cache_peek_after(s->cache, b, pc);
		if (!b)
			break;
		for (uint32_t k = 0; k < b->ninsn && n < max;
		     k++, wp_step(&n, &slot, &when, width)) {
			const struct x86_insn *i = &b->insn[k];
			struct uarch_insn *w = NULL;
			int miss;
			unsigned loaded = 0;

			if (when >= until)
				goto out;
			if (i->pc >> shift != iline) {
				iline = i->pc >> shift;
				uarch_mem_fetch(&u->ms, &r, i->pc, when);
				build = tc & u->ms.l1i_missed;
			}
			if (tally) {
				ninsn++;
			} else {
				count1(u, t, th, UARCH_EV_UOPS_SPEC, when, tally);
				count1(u, t, th, UARCH_EV_INSNS_WP, when, tally);
			}
			if (u->want_insn && u->nwp < WP_MAX) {
				/* killed when the branch resolves: stages not
				 * reached by then stay 0 */
				w = &u->wp[u->nwp++];
				uint64_t map = when + (cc->depth < 2 ? cc->depth : 2);
				*w = (struct uarch_insn){ .pc = i->pc,
							  .fetch = when,
							  .retire = until,
							  .flags = UARCH_I_ABORTED };
				if (map < until)
					w->map = map;
				if (when + cc->depth < until)
					w->issue = when + cc->depth;
				if (i->mact & 1)
					w->flags |= UARCH_I_LOAD;
				if (is_branch(i->xclass))
					w->flags |= UARCH_I_BRANCH;
			}
			if ((i->mact & 1) && !(addr_deps(i) & unknown)) {
				uint64_t a = s->r[i->base] + (s->r[i->index] << i->shift) +
					     (uint64_t)i->disp;
				unsigned size = i->msize ? i->msize : 8;
				if (i->asz == 4)
					a = (uint32_t)a;
				a += s->seg_base[i->seg];
				uarch_mem_load(&u->ms, &r, a, size, when + cc->depth, &miss);
				if (w)
					w->dsrc = u->ms.ld_dsrc;
				if (tally)
					nuops++;
				else
					count1(u, t, th, UARCH_EV_UOPS_SPEC, when + cc->depth,
					       tally);
				loaded = 1;
				if (miss) {
					count(u, t, th, UARCH_EV_L1D_LD_MISS_SPEC, 1,
					      when + cc->depth);
					count(u, t, th, UARCH_EV_L1D_LD_MISS_WP, 1,
					      when + cc->depth);
				}
			}
			if ((i->simd & X86_SIMD_KIND) | build | deliver |
			    (tc & uarch_microcoded(i->xclass)))
				nother += wp_kinds(u, t, th, i, when, loaded, build, tally);
			if (evaluable(i) && !(i->rd & unknown)) {
				s->cur = i;
				i->fn(s, i);
				unknown &= ~i->wr;
			} else {
				unknown |= i->wr;
			}
			if (is_branch(i->xclass)) {
				uint64_t to = wp_next(u, th, i);
				if (!to)
					goto out;
				if (to != i->pc + i->len) {
					pc = to;
					build = 0;
					wp_step(&n, &slot, &when, width);
					goto next_block;
				}
			}
		}
		pc = b->end;
next_block:;
	}
out:
	t->ev[UARCH_EV_UOPS_SPEC] += ninsn + nuops;
	t->ev[UARCH_EV_INSNS_WP] += ninsn;
	if (tc && tally)
		t->ev[UARCH_EV_UOPQ_DELIVER] += ninsn + nuops - nother;
}
