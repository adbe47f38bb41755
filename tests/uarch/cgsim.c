/* cgsim.c — cachegrind's cache simulation rebuilt on emu/uarch/cache.c.
 *
 *   cgsim --I1=S,A,B --D1=S,A,B --LL=S,A,B -o OUT PROG [ARGS...]
 *
 * Runs a freestanding static x86-64 program (no libc: write and exit are
 * the only system calls it may make) on the emulator one instruction at a
 * time, and feeds every instruction fetch and data access to an I1, a D1
 * and a unified LL level built from struct uarch_cache, configured as
 * cachegrind configures its caches: LRU, write-allocate.  OUT receives the
 * totals in the form of the summary of a cachegrind.out file:
 *
 *   events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw
 *   summary: ...
 *   status: <guest exit status>
 *
 * What cachegrind does, and this driver copies (valgrind cachegrind/
 * cg_sim.c and cg_main.c, 3.19):
 * - an access straddling two lines references both lines and counts as one
 *   access, and as one miss if either line missed;
 * - an L1 miss references LL with the same address and size (so both lines
 *   of a straddling access, even when only one missed in L1);
 * - every instruction is an I1 reference of (pc, length) before its data
 *   references, which follow in the order the instruction makes them;
 * - a read-modify-write of one location ("Dm") is counted as a read only
 *   (the write cannot miss after the read); an atomic one (lock prefix,
 *   xchg with memory) is a load and a compare-and-swap to VEX, so two reads.
 * One thing it cannot copy: VEX removes a load when the same superblock
 * already loaded the same address expression with no store in between, so
 * cachegrind does not see such repeated loads.  The test programs do not
 * repeat a load within a block; a program that does would show more reads
 * here (and, in a cache small enough to lose the line in between, more
 * misses).
 * Guest memory is host memory: the program's PT_LOAD segments are mapped at
 * their link addresses.  The test programs set up their own stack in .bss,
 * so every address they touch is the same here and under valgrind.
 */
#include <Zydis/Zydis.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emu/uarch/cache.h"
#include "emu/x86/decode.h"
#include "emu/x86/ops.h"

/* What a data reference addresses. */
enum { AT_NONE, AT_EA, AT_PUSH, AT_POP, AT_RBP };

struct ref {
	uint8_t at;    /* AT_* */
	uint8_t size;  /* bytes */
	uint8_t write; /* 0 read, 1 write */
};

struct entry {
	uint64_t pc; /* 0 = empty slot */
	struct x86_insn insn;
	struct ref ref[2];
};

enum { IR, I1MR, ILMR, DR, D1MR, DLMR, DW, D1MW, DLMW, NEV };
static const char *const ev_names = "Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw";

struct seg {
	uint64_t lo, hi; /* mapped [lo, hi) */
};

struct sim {
	struct x86_cpu cpu;
	struct x86_counts cnt;
	struct x86_decoder dec;
	struct entry *tab;
	size_t mask, used;
	struct seg seg[16];
	int nseg;
	struct uarch_cache *i1, *d1, *ll;
	uint64_t ev[NEV];
	int exited, status;
};

/* The cpu a host fault belongs to: the one static the signal handler needs. */
static struct x86_cpu *fault_cpu;

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "cgsim: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

/* ---- program loading ------------------------------------------------------ */

static void load(struct sim *s, const char *path, uint64_t *entry)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	const unsigned char *f;
	const Elf64_Ehdr *eh;

	if (fd < 0 || fstat(fd, &st))
		die("cannot open %s", path);
	f = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	eh = (const Elf64_Ehdr *)f;
	if (f == MAP_FAILED || (size_t)st.st_size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, 4) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_machine != EM_X86_64 ||
	    eh->e_type != ET_EXEC || eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) > (uint64_t)st.st_size)
		die("%s: not a static non-PIE x86-64 executable", path);
	for (int k = 0; k < eh->e_phnum; k++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(f + eh->e_phoff) + k;
		uint64_t lo = ph->p_vaddr & ~4095ull,
			 hi = (ph->p_vaddr + ph->p_memsz + 4095) & ~4095ull;

		if (ph->p_type == PT_INTERP)
			die("%s: dynamically linked", path);
		if (ph->p_type != PT_LOAD || !ph->p_memsz)
			continue;
		if (ph->p_filesz > ph->p_memsz ||
		    ph->p_offset + ph->p_filesz > (uint64_t)st.st_size || s->nseg == 16)
			die("%s: bad program header", path);
		/* segments are sorted; one may share its first page with the last */
		if (s->nseg && lo < s->seg[s->nseg - 1].hi)
			lo = s->seg[s->nseg - 1].hi;
		if (lo < hi &&
		    mmap((void *)lo, hi - lo, PROT_READ | PROT_WRITE | PROT_EXEC,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) != (void *)lo)
			die("%s: cannot map a segment at its address", path);
		memcpy((void *)ph->p_vaddr, f + ph->p_offset, ph->p_filesz);
		if (s->nseg && s->seg[s->nseg - 1].hi >= lo)
			s->seg[s->nseg - 1].hi = hi > lo ? hi : s->seg[s->nseg - 1].hi;
		else
			s->seg[s->nseg++] = (struct seg){ lo, hi };
	}
	*entry = eh->e_entry;
	munmap((void *)f, (size_t)st.st_size);
}

/* A stack as the kernel would start it (argc, argv, envp, auxv), though the
 * test programs switch to their own at once. */
static void stack(struct sim *s, int argc, char **argv)
{
	size_t sz = 1 << 20;
	uint64_t *sp,
		*base = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int n = 0;

	if (base == MAP_FAILED)
		die("%s", "cannot map a stack");
	sp = base + sz / 8 - (size_t)(argc + 8);
	sp = (uint64_t *)((uint64_t)sp & ~15ull);
	sp[n++] = (uint64_t)argc;
	for (int k = 0; k < argc; k++)
		sp[n++] = (uint64_t)argv[k];
	sp[n++] = 0; /* argv end */
	sp[n++] = 0; /* envp end */
	sp[n++] = AT_NULL;
	sp[n++] = 0;
	s->cpu.r[X86_RSP] = (uint64_t)sp;
}

static void on_syscall(struct x86_cpu *c)
{
	struct sim *s = c->os;
	uint64_t *r = c->r;

	switch (r[X86_RAX]) {
	case 1: { /* write */
		ssize_t n = write((int)r[X86_RDI], (const void *)r[X86_RSI], (size_t)r[X86_RDX]);
		r[X86_RAX] = n < 0 ? (uint64_t)-errno : (uint64_t)n;
		break;
	}
	case 60:  /* exit */
	case 231: /* exit_group */
		s->exited = 1;
		s->status = (int)(r[X86_RDI] & 0xff);
		break;
	default:
		r[X86_RAX] = (uint64_t)-ENOSYS;
		break;
	}
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (fault_cpu && x86_in_guest(fault_cpu))
		x86_host_fault(fault_cpu, sig, si->si_code, (uint64_t)si->si_addr);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* ---- decoding: once per address, with the data references worked out ---- */

/* The data references of an instruction, in the order it makes them.
 * Returns 0 for instructions whose accesses this driver cannot describe. */
static int plan(const struct x86_insn *i, struct ref *ref)
{
	int k, mem = -1, n = 0;
	uint8_t osz = i->osz ? i->osz : 8;

	for (k = 0; k < i->nops; k++)
		if (i->op[k].kind == X86_OP_MEM && i->op[k].size)
			mem = k;
	if (i->flags & (X86_I_REP | X86_I_REPNE))
		return 0;
	switch (i->mnem) {
	case ZYDIS_MNEMONIC_PUSH:
		if (mem >= 0)
			ref[n++] = (struct ref){ AT_EA, i->op[mem].size, 0 };
		ref[n++] = (struct ref){ AT_PUSH, osz, 1 };
		return 1;
	case ZYDIS_MNEMONIC_PUSHFQ:
		ref[n++] = (struct ref){ AT_PUSH, 8, 1 };
		return 1;
	case ZYDIS_MNEMONIC_POP:
		if (mem >= 0)
			return 0; /* pop to memory: address after the pop; not needed */
		ref[n++] = (struct ref){ AT_POP, osz, 0 };
		return 1;
	case ZYDIS_MNEMONIC_POPFQ:
		ref[n++] = (struct ref){ AT_POP, 8, 0 };
		return 1;
	case ZYDIS_MNEMONIC_CALL:
		if (mem >= 0)
			ref[n++] = (struct ref){ AT_EA, 8, 0 };
		ref[n++] = (struct ref){ AT_PUSH, 8, 1 };
		return 1;
	case ZYDIS_MNEMONIC_RET:
		ref[n++] = (struct ref){ AT_POP, 8, 0 };
		return 1;
	case ZYDIS_MNEMONIC_LEAVE:
		ref[n++] = (struct ref){ AT_RBP, 8, 0 };
		return 1;
	case ZYDIS_MNEMONIC_MOVSD: /* also SSE2 movsd, and cmpsd is also SSE2's */
	case ZYDIS_MNEMONIC_CMPSD:
		if (i->op[0].kind == X86_OP_XMM || i->op[1].kind == X86_OP_XMM)
			break;
		return 0;
	case ZYDIS_MNEMONIC_MOVSB:
	case ZYDIS_MNEMONIC_MOVSW:
	case ZYDIS_MNEMONIC_MOVSQ:
	case ZYDIS_MNEMONIC_STOSB:
	case ZYDIS_MNEMONIC_STOSW:
	case ZYDIS_MNEMONIC_STOSD:
	case ZYDIS_MNEMONIC_STOSQ:
	case ZYDIS_MNEMONIC_LODSB:
	case ZYDIS_MNEMONIC_LODSW:
	case ZYDIS_MNEMONIC_LODSD:
	case ZYDIS_MNEMONIC_LODSQ:
	case ZYDIS_MNEMONIC_CMPSB:
	case ZYDIS_MNEMONIC_CMPSW:
	case ZYDIS_MNEMONIC_CMPSQ:
	case ZYDIS_MNEMONIC_SCASB:
	case ZYDIS_MNEMONIC_SCASW:
	case ZYDIS_MNEMONIC_SCASD:
	case ZYDIS_MNEMONIC_SCASQ:
	case ZYDIS_MNEMONIC_XLAT:
	case ZYDIS_MNEMONIC_ENTER:
	case ZYDIS_MNEMONIC_FXSAVE:
	case ZYDIS_MNEMONIC_FXRSTOR:
		return 0;
	default:
		break;
	}
	if (!(i->flags & (X86_I_LOAD | X86_I_STORE)))
		return 1;
	if (mem < 0 || i->op[mem].size > 16)
		return 0; /* implicit or oversized accesses of other kinds */
	/* read-modify-write: one read, as cachegrind counts "Dm" */
	ref[n++] = (struct ref){ AT_EA, i->op[mem].size, !(i->flags & X86_I_LOAD) };
	/* VEX makes an atomic read-modify-write (lock prefix, or xchg with
	 * memory) a load followed by a compare-and-swap, and cachegrind counts
	 * the CAS as one more read; cmpxchg is the CAS alone. */
	if ((i->flags & X86_I_LOAD) && (i->flags & X86_I_STORE) &&
	    ((i->flags & X86_I_LOCK) || i->mnem == ZYDIS_MNEMONIC_XCHG) &&
	    i->mnem != ZYDIS_MNEMONIC_CMPXCHG && i->mnem != ZYDIS_MNEMONIC_CMPXCHG8B &&
	    i->mnem != ZYDIS_MNEMONIC_CMPXCHG16B)
		ref[n++] = ref[0];
	return 1;
}

static size_t slot_of(uint64_t pc, size_t mask)
{
	return (size_t)((pc * 0x9e3779b97f4a7c15ull) >> 40) & mask;
}

static void grow(struct sim *s)
{
	size_t omask = s->mask, nmask = omask ? 2 * omask + 1 : 4095;
	struct entry *old = s->tab, *t = calloc(nmask + 1, sizeof(*t));

	if (!t)
		die("%s", "out of memory");
	for (size_t k = 0; old && k <= omask; k++) {
		if (!old[k].pc)
			continue;
		size_t p = slot_of(old[k].pc, nmask);
		while (t[p].pc)
			p = (p + 1) & nmask;
		t[p] = old[k];
	}
	free(old);
	s->tab = t;
	s->mask = nmask;
}

static const struct entry *lookup(struct sim *s, uint64_t pc)
{
	size_t p = slot_of(pc, s->mask);
	uint8_t buf[15];
	size_t n = 0;

	for (; s->tab[p].pc; p = (p + 1) & s->mask)
		if (s->tab[p].pc == pc)
			return &s->tab[p];
	if (2 * (s->used + 1) > s->mask) {
		grow(s);
		return lookup(s, pc);
	}
	for (int k = 0; k < s->nseg; k++)
		if (pc >= s->seg[k].lo && pc < s->seg[k].hi)
			n = s->seg[k].hi - pc < 15 ? s->seg[k].hi - pc : 15;
	if (!n) {
		fprintf(stderr, "cgsim: execution left the program's segments at %#lx\n",
			(unsigned long)pc);
		exit(2);
	}
	memcpy(buf, (const void *)pc, n);
	struct entry *e = &s->tab[p];
	memset(e, 0, sizeof(*e));
	if (!x86_decode_insn(&s->dec, pc, buf, n, &e->insn) || e->insn.fn == x86_h_unsupported) {
		fprintf(stderr, "cgsim: cannot decode or execute the instruction at %#lx\n",
			(unsigned long)pc);
		exit(2);
	}
	if (!plan(&e->insn, e->ref)) {
		fprintf(stderr,
			"cgsim: the memory accesses of the instruction at %#lx are not modelled "
			"(string, implicit or oversized accesses)\n",
			(unsigned long)pc);
		exit(2);
	}
	e->pc = pc;
	s->used++;
	return e;
}

/* ---- the caches, referenced as cachegrind references them ---------------- */

/* One reference of size bytes at a: both lines when it straddles; a miss if
 * either line missed. */
static int ref_is_miss(struct uarch_cache *c, uint64_t a, unsigned size, int write)
{
	unsigned shift = (unsigned)__builtin_ctz(uarch_cache_cfg(c)->line);
	struct uarch_cache_res r;
	int miss;

	uarch_cache_access(c, a, write, &r);
	miss = !r.hit;
	if ((a >> shift) != ((a + size - 1) >> shift)) {
		uarch_cache_access(c, ((a >> shift) + 1) << shift, write, &r);
		miss |= !r.hit;
	}
	return miss;
}

static void doref(struct sim *s, struct uarch_cache *l1, uint64_t a, unsigned size, int write,
		  int m1, int ml)
{
	if (ref_is_miss(l1, a, size, write)) {
		s->ev[m1]++;
		if (ref_is_miss(s->ll, a, size, write))
			s->ev[ml]++;
	}
}

static void step(struct sim *s)
{
	struct x86_cpu *c = &s->cpu;
	const struct entry *e = lookup(s, c->rip);
	const struct x86_insn *i = &e->insn;

	s->ev[IR]++;
	doref(s, s->i1, i->pc, i->len, 0, I1MR, ILMR);
	for (int k = 0; k < 2 && e->ref[k].at; k++) {
		const struct ref *r = &e->ref[k];
		uint64_t a = r->at == AT_EA   ? x86_ea(c, i) :
			     r->at == AT_PUSH ? c->r[X86_RSP] - r->size :
			     r->at == AT_POP  ? c->r[X86_RSP] :
						c->r[X86_RBP];
		if (r->write) {
			s->ev[DW]++;
			doref(s, s->d1, a, r->size, 1, D1MW, DLMW);
		} else {
			s->ev[DR]++;
			doref(s, s->d1, a, r->size, 0, D1MR, DLMR);
		}
	}
	c->cur = i;
	c->rip = i->pc + i->len;
	i->fn(c, i);
}

static struct uarch_cache *mkcache(const char *spec, const char *name)
{
	unsigned long size, assoc, line;
	char tail;
	struct uarch_cache_cfg cfg = { 0 };
	struct uarch_cache *c;

	if (sscanf(spec, "%lu,%lu,%lu%c", &size, &assoc, &line, &tail) != 3 || !assoc ||
	    size > UINT32_MAX || line > UINT32_MAX || assoc > size)
		die("bad cache geometry '%s' (want SIZE,ASSOC,LINE)", spec);
	cfg.size = (uint32_t)size;
	cfg.assoc = (uint32_t)assoc;
	cfg.line = cfg.sector = (uint32_t)line;
	cfg.repl = UARCH_REPL_LRU;
	cfg.write = UARCH_WB_ALLOC; /* cachegrind: write-allocate; dirtiness unused */
	c = uarch_cache_new(&cfg, 1);
	if (!c)
		die("the %s geometry is not a valid cache", name);
	return c;
}

int main(int argc, char **argv)
{
	static struct sim sim; /* large (decoder tables): not on the stack */
	struct sim *s = &sim;
	const char *i1 = "32768,8,64", *d1 = "32768,8,64", *ll = "2097152,16,64", *out = NULL;
	struct sigaction sa;
	jmp_buf jb;
	uint64_t entry;
	FILE *f;
	int k;

	for (k = 1; k < argc && argv[k][0] == '-'; k++) {
		if (!strncmp(argv[k], "--I1=", 5))
			i1 = argv[k] + 5;
		else if (!strncmp(argv[k], "--D1=", 5))
			d1 = argv[k] + 5;
		else if (!strncmp(argv[k], "--LL=", 5))
			ll = argv[k] + 5;
		else if (!strcmp(argv[k], "-o") && k + 1 < argc)
			out = argv[++k];
		else
			die("unknown option %s", argv[k]);
	}
	if (k >= argc || !out) {
		fprintf(stderr, "usage: cgsim [--I1=S,A,B] [--D1=S,A,B] [--LL=S,A,B] -o OUT PROG "
				"[ARGS...]\n");
		return 2;
	}
	s->i1 = mkcache(i1, "I1");
	s->d1 = mkcache(d1, "D1");
	s->ll = mkcache(ll, "LL");
	x86_decoder_init(&s->dec);
	grow(s);
	x86_cpu_init(&s->cpu);
	s->cpu.cnt = &s->cnt;
	s->cpu.syscall = on_syscall;
	s->cpu.os = s;
	load(s, argv[k], &entry);
	stack(s, argc - k, argv + k);
	s->cpu.rip = entry;

	fault_cpu = &s->cpu;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);

	s->cpu.jb = &jb;
	if (setjmp(jb)) {
		s->cpu.jb = NULL;
		fprintf(stderr, "cgsim: guest fault: signal %d at %#lx (address %#lx)\n",
			s->cpu.fault.sig, (unsigned long)s->cpu.fault.pc,
			(unsigned long)s->cpu.fault.addr);
		return 2;
	}
	x86_fp_sync_in(&s->cpu);
	while (!s->exited)
		step(s);
	s->cpu.jb = NULL;

	f = fopen(out, "w");
	if (!f)
		die("cannot write %s", out);
	fprintf(f, "events: %s\nsummary:", ev_names);
	for (k = 0; k < NEV; k++)
		fprintf(f, " %llu", (unsigned long long)s->ev[k]);
	fprintf(f, "\nstatus: %d\n", s->status);
	if (fclose(f))
		die("cannot write %s", out);
	uarch_cache_free(s->i1);
	uarch_cache_free(s->d1);
	uarch_cache_free(s->ll);
	free(s->tab);
	return 0;
}
