/* exec.c — the block cache and the interpreter loop.
 *
 * A block is a run of decoded instructions ending at a control transfer,
 * a syscall or X86_BLOCK_MAX instructions.  Blocks are found through a hash
 * table keyed by guest address and, on the hot path, through the two
 * successor pointers each block remembers.  Any write to decoded code
 * flushes the whole cache (at the next block boundary): simple, and rare
 * outside JITs.
 */
#define _GNU_SOURCE /* process_vm_readv */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "decode.h"
#include "ops.h"

#define X86_HASH_BITS 16
#define X86_PAGE 4096ull

struct x86_cache {
	struct x86_decoder dec;
	struct x86_block *hash[1u << X86_HASH_BITS];
	volatile int flush_pending;
	/* set of guest pages holding decoded code (open addressing; 0 = empty) */
	uint64_t *pages;
	size_t npages, cap;
	void (*code_hook)(void *arg, uint64_t page);
	void *code_arg;
	size_t aux_size; /* per instruction (x86_cache_set_aux) */
};

static inline size_t hash_pc(uint64_t pc)
{
	return (size_t)((pc ^ (pc >> X86_HASH_BITS) ^ (pc >> 29)) & ((1u << X86_HASH_BITS) - 1));
}

struct x86_cache *x86_cache_new(void)
{
	struct x86_cache *cc = calloc(1, sizeof(*cc));
	if (!cc)
		return NULL;
	x86_decoder_init(&cc->dec);
	return cc;
}

static void cache_flush(struct x86_cache *cc)
{
	for (size_t h = 0; h < (1u << X86_HASH_BITS); h++) {
		struct x86_block *b = cc->hash[h], *n;
		for (; b; b = n) {
			n = b->hnext;
			free(b);
		}
		cc->hash[h] = NULL;
	}
	if (cc->pages)
		memset(cc->pages, 0, cc->cap * sizeof(*cc->pages));
	cc->npages = 0;
	cc->flush_pending = 0;
}

void x86_cache_free(struct x86_cache *cc)
{
	if (!cc)
		return;
	cache_flush(cc);
	free(cc->pages);
	free(cc);
}

void x86_cache_set_code_hook(struct x86_cache *cc, void (*fn)(void *arg, uint64_t page), void *arg)
{
	cc->code_hook = fn;
	cc->code_arg = arg;
}

void x86_cache_set_aux(struct x86_cache *cc, size_t size)
{
	cc->aux_size = (size + 7) & ~(size_t)7;
}

/* Page numbers are stored +1 so that 0 marks an empty slot. */
static int page_has(const struct x86_cache *cc, uint64_t pn)
{
	if (!cc->cap)
		return 0;
	for (size_t k = (pn * 0x9e3779b97f4a7c15ull) & (cc->cap - 1);;
	     k = (k + 1) & (cc->cap - 1)) {
		if (cc->pages[k] == pn + 1)
			return 1;
		if (!cc->pages[k])
			return 0;
	}
}

static void page_add(struct x86_cache *cc, uint64_t pn)
{
	if (page_has(cc, pn))
		return;
	if ((cc->npages + 1) * 2 > cc->cap) {
		size_t ncap = cc->cap ? cc->cap * 2 : 256;
		uint64_t *old = cc->pages, *np = calloc(ncap, sizeof(*np));
		size_t ocap = cc->cap;
		if (!np)
			abort();
		cc->pages = np;
		cc->cap = ncap;
		cc->npages = 0;
		for (size_t k = 0; k < ocap; k++)
			if (old[k])
				page_add(cc, old[k] - 1);
		free(old);
	}
	for (size_t k = (pn * 0x9e3779b97f4a7c15ull) & (cc->cap - 1);;
	     k = (k + 1) & (cc->cap - 1)) {
		if (!cc->pages[k]) {
			cc->pages[k] = pn + 1;
			cc->npages++;
			break;
		}
	}
	if (cc->code_hook)
		cc->code_hook(cc->code_arg, pn * X86_PAGE);
}

int x86_cache_has_code(struct x86_cache *cc, uint64_t addr, uint64_t len)
{
	if (!len || !cc->npages)
		return 0;
	for (uint64_t pn = addr / X86_PAGE; pn <= (addr + len - 1) / X86_PAGE; pn++) {
		if (page_has(cc, pn))
			return 1;
		if (pn - addr / X86_PAGE > (1u << 20)) /* huge ranges: be conservative */
			return 1;
	}
	return 0;
}

void x86_cache_invalidate(struct x86_cache *cc, uint64_t addr, uint64_t len)
{
	if (x86_cache_has_code(cc, addr, len))
		cc->flush_pending = 1;
}

/* Whether the page at addr can be read, without faulting.  (The typed
 * wrapper: through variadic syscall() a literal 0 for the flags is an int,
 * whose stack slot's upper half some compilers leave as it was, and the
 * kernel then refuses the call with EINVAL.) */
static int readable(uint64_t addr)
{
	uint8_t b;
	struct iovec l = { &b, 1 }, r = { (void *)addr, 1 };
	return process_vm_readv(getpid(), &l, 1, &r, 1, 0) == 1;
}

static void h_invalid(struct x86_cpu *c, const struct x86_insn *i)
{
	/* #UD: Linux delivers SIGILL, ILL_ILLOPN, at the instruction */
	x86_raise(c, SIGILL, ILL_ILLOPN, i->pc);
}

static struct x86_block *build(struct x86_cache *cc, uint64_t pc)
{
	struct x86_insn tmp[X86_BLOCK_MAX];
	uint32_t n = 0, nload = 0, nstore = 0, nbranch = 0;
	uint64_t p = pc;
	struct x86_block *b;

	while (n < X86_BLOCK_MAX) {
		uint8_t buf[15];
		size_t in_page = X86_PAGE - (p & (X86_PAGE - 1)), avail = 15;
		int len;

		/* The block's first byte is read directly: if it is unmapped the
		 * host fault becomes the guest's instruction-fetch fault.  Later
		 * instructions on another page are probed first, so a fault
		 * there belongs to the block that starts on that page. */
		if (n && (p & (X86_PAGE - 1)) == 0 && !readable(p))
			break;
		if (in_page < 15) {
			x86_read(buf, p, in_page);
			if (readable(p + in_page))
				x86_read(buf + in_page, p + in_page, 15 - in_page);
			else
				avail = in_page;
		} else {
			x86_read(buf, p, 15);
		}
		len = x86_decode_insn(&cc->dec, p, buf, avail, &tmp[n]);
		if (!len) {
			if (n)
				break; /* let the bad instruction start its own block */
			memset(&tmp[0], 0, sizeof(tmp[0]));
			tmp[0].pc = p;
			tmp[0].len = 1;
			tmp[0].fn = h_invalid;
			tmp[0].flags = X86_I_END;
			n = 1;
			p += 1;
			break;
		}
		nload += !!(tmp[n].flags & X86_I_LOAD);
		nstore += !!(tmp[n].flags & X86_I_STORE);
		nbranch += !!(tmp[n].flags & X86_I_BRANCH);
		p += (uint64_t)len;
		if (tmp[n++].flags & X86_I_END)
			break;
	}
	b = malloc(sizeof(*b) + n * (sizeof(struct x86_insn) + cc->aux_size));
	if (!b)
		abort();
	if (cc->aux_size) {
		char *room = memset(b->insn + n, 0, n * cc->aux_size);
		for (uint32_t k = 0; k < n; k++)
			tmp[k].aux = room + k * cc->aux_size;
	}
	b->pc = pc;
	b->end = p;
	b->succ[0] = b->succ[1] = NULL;
	b->ninsn = n;
	b->nload = nload;
	b->nstore = nstore;
	b->nbranch = nbranch;
	memcpy(b->insn, tmp, n * sizeof(struct x86_insn));
	for (uint64_t pn = pc / X86_PAGE; pn <= (p - 1) / X86_PAGE; pn++)
		page_add(cc, pn);
	size_t h = hash_pc(pc);
	b->hnext = cc->hash[h];
	cc->hash[h] = b;
	return b;
}

const struct x86_block *x86_cache_peek(const struct x86_cache *cc, uint64_t pc)
{
	if (cc->flush_pending)
		return NULL;
	for (const struct x86_block *b = cc->hash[hash_pc(pc)]; b; b = b->hnext)
		if (b->pc == pc)
			return b;
	return NULL;
}

const struct x86_block *x86_cache_peek_after(const struct x86_cache *cc,
					     const struct x86_block *prev, uint64_t pc)
{
	if (cc->flush_pending)
		return NULL;
	if (prev && prev->succ[0] && prev->succ[0]->pc == pc)
		return prev->succ[0];
	if (prev && prev->succ[1] && prev->succ[1]->pc == pc)
		return prev->succ[1];
	return x86_cache_peek(cc, pc);
}

static inline struct x86_block *lookup(struct x86_cache *cc, uint64_t pc)
{
	for (struct x86_block *b = cc->hash[hash_pc(pc)]; b; b = b->hnext)
		if (b->pc == pc)
			return b;
	return build(cc, pc);
}

/* The block at c->rip, which prev (the block just run, or NULL after a
 * flush) usually remembers as one of its last two successors. */
static inline struct x86_block *next_block(struct x86_cpu *c, struct x86_cache *cc,
					   struct x86_block *prev)
{
	uint64_t pc = c->rip;
	struct x86_block *b;

	if (prev && prev->succ[0] && prev->succ[0]->pc == pc)
		return prev->succ[0];
	if (prev && prev->succ[1] && prev->succ[1]->pc == pc)
		return prev->succ[1];
	/* a fault while decoding belongs to the new block's address */
	c->blk = NULL;
	c->cur = NULL;
	b = lookup(cc, pc);
	if (prev) {
		prev->succ[1] = prev->succ[0];
		prev->succ[0] = b;
	}
	return b;
}

/* ---- FP control state: the guest's lives in the host registers while
 * inside x86_run() (see x86.h). */

#define HOST_MXCSR 0x1f80 /* SysV ABI initial values */
#define HOST_FCW 0x037f

/* fnclex first: a control word that unmasks an exception whose flag is
 * still set in the host status word would otherwise trap in vpmu itself.
 * The guest's x87 flags live in c->fpu.fsw, not in the host. */
static inline void load_fcw(uint16_t cw)
{
	__asm__ volatile("fnclex\n\tfldcw %0" : : "m"(cw));
}

void x86_fp_sync_out(struct x86_cpu *c)
{
	c->mxcsr = __builtin_ia32_stmxcsr();
}

void x86_fp_sync_in(struct x86_cpu *c)
{
	__builtin_ia32_ldmxcsr(c->mxcsr);
	load_fcw(c->fpu.fcw);
}

static void fp_leave(struct x86_cpu *c)
{
	x86_fp_sync_out(c);
	__builtin_ia32_ldmxcsr(HOST_MXCSR);
	load_fcw(HOST_FCW);
}

/* ---- faults ------------------------------------------------------------ */

enum { JUMP_FAULT = 1, JUMP_UNSUPPORTED = 2 };

static _Noreturn void leave_block(struct x86_cpu *c, int sig, int code, uint64_t addr, uint64_t pc,
				  int how)
{
	c->fault.sig = sig;
	c->fault.code = code;
	c->fault.addr = addr;
	c->fault.pc = pc;
	c->rip = pc;
	longjmp(*c->jb, how);
}

_Noreturn void x86_raise(struct x86_cpu *c, int sig, int code, uint64_t addr)
{
	leave_block(c, sig, code, addr, c->cur ? c->cur->pc : c->rip, JUMP_FAULT);
}

_Noreturn void x86_trap(struct x86_cpu *c, int sig, int code, uint64_t addr)
{
	const struct x86_insn *i = c->cur;
	/* a trap completes its instruction: resume after it, count it */
	c->cur = i + 1;
	c->fault.sig = sig;
	c->fault.code = code;
	c->fault.addr = addr;
	c->fault.pc = i->pc;
	c->rip = i->pc + i->len;
	longjmp(*c->jb, JUMP_FAULT + 8);
}

_Noreturn void x86_host_fault(struct x86_cpu *c, int sig, int code, uint64_t addr)
{
	/* SIGFPE and SIGILL name the instruction (the host's si_addr would be
	 * an address inside vpmu); SIGSEGV/SIGBUS keep the data address. */
	if (sig == SIGFPE || sig == SIGILL)
		addr = c->cur ? c->cur->pc : c->rip;
	x86_raise(c, sig, code, addr);
}

int x86_in_guest(const struct x86_cpu *c)
{
	return c->jb != NULL;
}

void x86_h_unsupported(struct x86_cpu *c, const struct x86_insn *i)
{
	c->fault.nbytes = i->len;
	x86_read(c->fault.bytes, i->pc, i->len);
	leave_block(c, SIGILL, ILL_ILLOPN, i->pc, i->pc, JUMP_UNSUPPORTED);
}

void x86_check_align16(struct x86_cpu *c, const struct x86_insn *i)
{
	/* #GP(0) → SIGSEGV, si_code SI_KERNEL, address 0 (Linux do_general_protection) */
	if (x86_ea(c, i) & 15)
		x86_raise(c, SIGSEGV, 0x80, 0);
}

static inline void count_insn(struct x86_counts *cnt, const struct x86_insn *i)
{
	cnt->insns++;
	cnt->loads += !!(i->flags & X86_I_LOAD);
	cnt->stores += !!(i->flags & X86_I_STORE);
	cnt->branches += !!(i->flags & X86_I_BRANCH);
}

/* Count instructions [from, to) of block b. */
static void count_insns(struct x86_counts *cnt, const struct x86_block *b, unsigned from,
			unsigned to)
{
	if (from == 0 && to == b->ninsn) {
		cnt->insns += b->ninsn;
		cnt->loads += b->nload;
		cnt->stores += b->nstore;
		cnt->branches += b->nbranch;
		return;
	}
	for (const struct x86_insn *i = b->insn + from; i < b->insn + to; i++)
		count_insn(cnt, i);
}

/* Count the instructions of the current block that completed before the
 * one that faulted. */
static void account_partial(struct x86_cpu *c)
{
	const struct x86_block *b = c->blk;
	if (!b || !c->cur)
		return;
	unsigned done = (unsigned)(c->cur - b->insn);
	count_insns(c->cnt, b, 0, done < b->ninsn ? done : b->ninsn);
}

/* Add k (1 or -1) times what the current block counts: in timed mode,
 * which counts each instruction as it is reported, just the current
 * instruction. */
static void count_current(struct x86_cpu *c, int64_t k)
{
	const struct x86_block *b = c->blk;
	const struct x86_insn *i = c->cur;

	if (c->trace) {
		c->cnt->insns += (uint64_t)k;
		c->cnt->loads += (uint64_t)(k * !!(i->flags & X86_I_LOAD));
		c->cnt->stores += (uint64_t)(k * !!(i->flags & X86_I_STORE));
		c->cnt->branches += (uint64_t)(k * !!(i->flags & X86_I_BRANCH));
		return;
	}
	c->cnt->insns += (uint64_t)(k * b->ninsn);
	c->cnt->loads += (uint64_t)(k * b->nload);
	c->cnt->stores += (uint64_t)(k * b->nstore);
	c->cnt->branches += (uint64_t)(k * b->nbranch);
}

void x86_count_current_block(struct x86_cpu *c)
{
	if (!c->blk || (c->trace && !c->cur))
		return;
	count_current(c, 1);
	x86_trace_flush(c);
	if (c->trace) {
		/* timed mode reports after each instruction: only the one
		 * that ends the process (exit, exec) is missing */
		struct x86_trace t = { .i = c->cur, .cpu = c, .next = c->cur->pc + c->cur->len };

		c->trace(c->trace_arg, &t);
	}
}

/* Stands in for the trace hook for one report: the one the hook made
 * already. */
static void skip_report(void *arg, const struct x86_trace *t)
{
	struct x86_cpu *c = (struct x86_cpu *)t->cpu;

	(void)arg;
	c->trace = c->trace_resume;
	c->trace_resume = NULL;
}

void x86_uncount_current_block(struct x86_cpu *c)
{
	if (!c->blk || (c->trace && !c->cur))
		return;
	count_current(c, -1);
	if (c->trace_block) {
		/* the loop reports the instruction when its hook returns,
		 * last of its block: the report is the hook's already */
		c->drop_last = 1;
	} else if (c->trace) {
		/* the loop counts and reports the instruction when its hook
		 * returns: the report is the hook's already */
		c->trace_resume = c->trace;
		c->trace = skip_report;
	}
}

/* ---- the loop ------------------------------------------------------------ */

/* The block loop proper, kept apart from x86_run() so that nothing it
 * holds in registers lives across the setjmp there. */
static __attribute__((noinline)) enum x86_exit run_blocks(struct x86_cpu *c, uint64_t budget)
{
	struct x86_cache *cc = c->cache;
	struct x86_block *b, *prev = NULL;
	uint64_t done = 0;

	for (;;) {
		if (X86_UNLIKELY(c->stop))
			return X86_EXIT_STOP;
		if (X86_UNLIKELY(done >= budget))
			return X86_EXIT_BUDGET;
		if (X86_UNLIKELY(cc->flush_pending)) {
			cache_flush(cc);
			prev = NULL;
		}
		b = next_block(c, cc, prev);
		c->blk = b;
		c->rip = b->end;
		for (const struct x86_insn *i = b->insn, *e = i + b->ninsn; i < e; i++) {
			c->cur = i;
			i->fn(c, i);
		}
		/* through c->cnt, not a copy: a syscall hook may switch counts
		 * (a fork child takes its own slot) and the block is the child's */
		c->cnt->insns += b->ninsn;
		c->cnt->loads += b->nload;
		c->cnt->stores += b->nstore;
		c->cnt->branches += b->nbranch;
		done += b->ninsn;
		prev = b;
	}
}

/* ---- timed mode: report every retired instruction ---------------------- */

struct regs_before {
	uint64_t sp, bp, si, di, cx;
};

static inline void add_access(struct x86_trace *t, uint64_t a, uint32_t n, int load, int store)
{
	unsigned k = t->nmem++;
	t->addr[k] = a;
	t->size[k] = n;
	t->load |= (uint8_t)(load << k);
	t->store |= (uint8_t)(store << k);
}

/* The implicit accesses of stack and string instructions, from the
 * registers before and after the instruction. */
static void implicit_accesses(const struct x86_cpu *c, const struct x86_insn *i,
			      const struct regs_before *b, struct x86_trace *t)
{
	unsigned el = i->osz ? i->osz : 8, stk = i->osz == 2 ? 2 : 8;
	uint64_t reps, bytes, si, di;

	switch (i->imp) {
	case X86_IMP_PUSH:
		add_access(t, c->r[X86_RSP], stk, 0, 1);
		return;
	case X86_IMP_POP:
		add_access(t, b->sp, stk, 1, 0);
		return;
	case X86_IMP_LEAVE:
		add_access(t, b->bp, stk, 1, 0);
		return;
	default:
		break;
	}
	reps = (i->flags & (X86_I_REP | X86_I_REPNE)) ? b->cx - c->r[X86_RCX] : 1;
	if (i->asz == 4)
		reps = (uint32_t)reps;
	if (!reps || t->nmem)
		return;
	t->reps = (uint32_t)reps;
	bytes = reps * el;
	/* with DF set the instruction walks down: report the lowest address */
	si = (c->eflags & X86_DF) ? b->si - bytes + el : b->si;
	di = (c->eflags & X86_DF) ? b->di - bytes + el : b->di;
	si += c->seg_base[i->seg];
	switch (i->imp) {
	case X86_IMP_MOVS:
		add_access(t, si, (uint32_t)bytes, 1, 0);
		add_access(t, di, (uint32_t)bytes, 0, 1);
		break;
	case X86_IMP_STOS:
		add_access(t, di, (uint32_t)bytes, 0, 1);
		break;
	case X86_IMP_LODS:
		add_access(t, si, (uint32_t)bytes, 1, 0);
		break;
	case X86_IMP_CMPS:
		add_access(t, si, (uint32_t)bytes, 1, 0);
		add_access(t, di, (uint32_t)bytes, 1, 0);
		break;
	case X86_IMP_SCAS:
		add_access(t, di, (uint32_t)bytes, 1, 0);
		break;
	default:
		break;
	}
}

/* Run i, adding the implicit accesses it made, which need the registers
 * before it. */
static inline void run_implicit(struct x86_cpu *c, const struct x86_insn *i, struct x86_trace *t)
{
	struct regs_before rb = { c->r[X86_RSP], c->r[X86_RBP], c->r[X86_RSI], c->r[X86_RDI],
				  c->r[X86_RCX] };

	i->fn(c, i);
	implicit_accesses(c, i, &rb, t);
}

/* Run i, filling t: its accesses, the target taken, the next address;
 * with count, counted before the report, so that the timing model sees
 * the count including this instruction (a block's reports are counted as
 * they are handed over: flush_pending()). */
static inline __attribute__((always_inline)) void
run_timed(struct x86_cpu *c, const struct x86_insn *i, struct x86_trace *t, const int count)
{
	struct x86_counts *cnt = c->cnt;
	uint64_t taken0 = cnt->taken;

	t->nmem = 0;
	t->load = 0;
	t->store = 0;
	t->reps = 0;
	if (i->mact)
		add_access(t, x86_ea(c, i), i->msize ? i->msize : 64, i->mact & 1, i->mact >> 1);
	if (X86_UNLIKELY(t->pre)) {
		memcpy(c->pre.r, c->r, sizeof(c->pre.r));
		c->pre.lf_op = c->lf_op;
		c->pre.eflags = c->eflags;
		c->pre.lf_dst = c->lf_dst;
		c->pre.lf_src = c->lf_src;
		c->pre.lf_res = c->lf_res;
		c->pre.lf_aux = c->lf_aux;
	}
	c->cur = i;
	if (i->imp)
		run_implicit(c, i, t);
	else
		i->fn(c, i);
	t->i = i;
	t->taken = cnt->taken != taken0;
	t->next = c->rip; /* (the block's end but after the last instruction) */
	if (count)
		count_insn(cnt, i);
}

/* Hand trace_block the reports of the current block up to the n-th
 * instruction that it does not have yet, counting them first. */
static void flush_pending(struct x86_cpu *c, unsigned n)
{
	if (n > c->nsent) {
		count_insns(c->cnt, c->blk, c->nsent, n);
		c->trace_block(c->trace_arg, c->pend + c->nsent, n - c->nsent);
		c->nsent = n;
	}
}

void x86_trace_flush(struct x86_cpu *c)
{
	/* the reports of the instructions before the current one */
	if (c->trace_block && c->blk && c->cur)
		flush_pending(c, (unsigned)(c->cur - c->blk->insn));
}

/* Timed mode, leaving the block at a fault or trap: the reports of what
 * completed before the instruction that left, and a trap's own (it
 * completed its instruction, and c->cur is past it), counted as the loop
 * counts an instruction.  (A trapping instruction accesses no memory.) */
static void report_left(struct x86_cpu *c, int trap)
{
	const struct x86_insn *i = c->cur - trap;
	struct x86_trace t = {
		.i = i, .pre = c->keep_pre ? &c->pre : NULL, .cpu = c, .next = c->rip
	};

	if (c->trace_block)
		flush_pending(c, (unsigned)(i - c->blk->insn));
	if (!trap)
		return;
	count_insn(c->cnt, i);
	c->trace(c->trace_arg, &t);
}

/* As run_blocks(), reporting each retired instruction to c->trace, or a
 * block's at once to c->trace_block. */
static __attribute__((noinline)) enum x86_exit run_blocks_timed(struct x86_cpu *c, uint64_t budget)
{
	struct x86_cache *cc = c->cache;
	struct x86_block *b, *prev = NULL;
	uint64_t done = 0;
	/* one record for all instructions: each fills the fields it owns, and
	 * addr[] and size[] past nmem are left as they were */
	struct x86_trace t = { .cpu = c };

	for (;;) {
		if (X86_UNLIKELY(c->stop))
			return X86_EXIT_STOP;
		if (X86_UNLIKELY(done >= budget))
			return X86_EXIT_BUDGET;
		if (X86_UNLIKELY(cc->flush_pending)) {
			cache_flush(cc);
			prev = NULL;
		}
		b = next_block(c, cc, prev);
		const struct x86_insn *e = b->insn + b->ninsn;
		c->blk = b;
		c->rip = b->end;
		c->nassist = 0;
		if (c->trace_block) {
			/* pend[k] reports b->insn[k] */
			struct x86_trace *p = c->pend;
			c->nsent = 0;
			for (const struct x86_insn *i = b->insn; i < e; i++, p++) {
				p->cpu = c;
				p->pre = NULL;
				run_timed(c, i, p, 0);
			}
			flush_pending(c, b->ninsn - (c->drop_last != 0));
			if (c->drop_last) /* reported by the hook, counted here */
				count_insns(c->cnt, b, b->ninsn - 1, b->ninsn);
			c->nsent = b->ninsn; /* (a fault decoding the next block sends none) */
			c->drop_last = 0;
		} else {
			t.pre = c->keep_pre ? &c->pre : NULL;
			for (const struct x86_insn *i = b->insn; i < e; i++) {
				run_timed(c, i, &t, 1);
				c->trace(c->trace_arg, &t);
			}
		}
		done += b->ninsn;
		prev = b;
	}
}

enum x86_exit x86_run(struct x86_cpu *c, uint64_t budget)
{
	jmp_buf jb;
	enum x86_exit why;
	int how;

	x86_fp_sync_in(c);
	c->cur = NULL;
	c->blk = NULL;
	c->jb = &jb;
	how = setjmp(jb);
	if (how) {
		/* (timed mode counts what it reports) */
		if (!c->trace)
			account_partial(c);
		else if (c->blk && c->cur)
			report_left(c, how == JUMP_FAULT + 8);
		c->drop_last = 0;
		why = how == JUMP_UNSUPPORTED ? X86_EXIT_UNSUPPORTED : X86_EXIT_FAULT;
	} else {
		why = c->trace ? run_blocks_timed(c, budget) : run_blocks(c, budget);
	}
	c->cur = NULL;
	c->blk = NULL;
	c->jb = NULL;
	fp_leave(c);
	return why;
}

/* ---- state ----------------------------------------------------------------- */

void x86_cpu_init(struct x86_cpu *c)
{
	memset(c, 0, sizeof(*c));
	c->eflags = X86_IF; /* user mode runs with interrupts enabled */
	c->lf_op = X86_LF_EAGER;
	c->mxcsr = HOST_MXCSR;
	c->fpu.fcw = HOST_FCW;
	c->model = &x86_model_p4_xeon;
}

int x86_decode_one(uint64_t pc, const uint8_t *bytes, size_t n, struct x86_insn *i)
{
	struct x86_decoder *d = malloc(sizeof(*d));
	int len;
	if (!d)
		return 0;
	x86_decoder_init(d);
	len = x86_decode_insn(d, pc, bytes, n, i);
	free(d);
	return len;
}
