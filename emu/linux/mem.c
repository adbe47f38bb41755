/* mem.c — the guest's memory syscalls (mmap, munmap, mprotect, mremap,
 * brk) served from the guest's own regions (lx_mm.h), and the
 * write-protection of code pages that lets self-modifying code work: a
 * writable page the interpreter decodes code from is made read-only on the
 * host; the first write to it faults, and the fault handler forgets the
 * decoded code and gives the write permission back.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/shm.h>

#include "lx_proc.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

static long host_mmap(uint64_t addr, uint64_t len, int prot, int flags, int fd, uint64_t off)
{
	return lx_host_syscall(9, (long)addr, (long)len, prot, flags, fd, (long)off);
}

int lx_map_fixed(struct lx_proc *p, uint64_t addr, uint64_t len, int prot, int kind)
{
	long r = host_mmap(addr, len, prot,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE |
				   (kind == LX_MAP_STACK || kind == LX_MAP_GUARD ? MAP_NORESERVE :
										   0),
			   -1, 0);

	if (r < 0 || (uint64_t)r != addr) {
		if (r >= 0)
			lx_host_syscall(11, r, (long)len, 0, 0, 0, 0);
		return -1;
	}
	return lx_mm_add(&p->mm, addr, addr + len, prot, kind);
}

/* ---- code pages ---------------------------------------------------------- */

static long wprot_find(const struct lx_mm *mm, uint64_t page)
{
	for (size_t i = 0; i < mm->nwprot; i++)
		if (mm->wprot[i] == page)
			return (long)i;
	return -1;
}

void lx_code_hook(void *arg, uint64_t page)
{
	struct lx_proc *p = arg;
	const struct lx_map *m = lx_mm_lookup(&p->mm, page);

	if (!m || !(m->prot & PROT_WRITE) || m->kind == LX_MAP_FOREIGN ||
	    wprot_find(&p->mm, page) >= 0)
		return;
	if (p->mm.nwprot == p->mm.capwprot) {
		size_t ncap = p->mm.capwprot ? p->mm.capwprot * 2 : 16;
		uint64_t *n = realloc(p->mm.wprot, ncap * sizeof(*n));

		if (!n)
			return; /* unprotected: a rewrite would go unnoticed, as before */
		p->mm.wprot = n;
		p->mm.capwprot = ncap;
	}
	if (lx_host_syscall(10, (long)page, LX_PAGE, m->prot & ~PROT_WRITE, 0, 0, 0) == 0)
		p->mm.wprot[p->mm.nwprot++] = page;
}

/* The decoded instruction after a store into the rest of its own block
 * (see cut_block): put its handler back and leave x86_run at its address
 * with the instructions before it counted; the main loop goes on there,
 * decoding the new bytes.  Not a guest fault: fault.sig is 0. */
static void smc_resync(struct x86_cpu *c, const struct x86_insn *i)
{
	struct lx_thread *t = c->os;

	((struct x86_insn *)i)->fn = t->p->smc_fn;
	x86_raise(c, 0, 0, i->pc);
}

/* x86 executes what a store wrote into the instruction stream ahead of
 * it, even in the instructions already fetched (SDM vol. 3A, 11.6), but the
 * interpreter would run the rest of the current block as decoded before.
 * When the written page holds instructions after the storing one in this
 * block, the next decoded instruction becomes a resync point; the block
 * itself is discarded at the cache flush x86_cache_invalidate asked for.
 * With the timing model (always) the block ends after the store too, so
 * that its machine clear follows the store however the model takes the
 * block's instructions. */
static void cut_block(struct lx_proc *p, uint64_t page, int always)
{
	struct x86_cpu *c = &lx_cur(p)->cpu;
	const struct x86_block *b = c->blk;
	struct x86_insn *next;

	if (!x86_in_guest(c) || !b || !c->cur || c->cur < b->insn ||
	    c->cur + 1 >= b->insn + b->ninsn)
		return;
	next = (struct x86_insn *)(c->cur + 1);
	if (next->fn == smc_resync || (!always && (page >= b->end || page + LX_PAGE <= next->pc)))
		return;
	p->smc_fn = next->fn;
	next->fn = smc_resync;
}

/* From the SIGSEGV handler: async-signal-safe (syscalls and reads only). */
int lx_code_write_fault(struct lx_proc *p, uint64_t addr)
{
	uint64_t page = lx_page_down(addr);
	long i = wprot_find(&p->mm, page);
	const struct lx_map *m;

	if (i < 0)
		return 0;
	m = lx_mm_lookup(&p->mm, page);
	lx_host_syscall(10, (long)page, LX_PAGE, m ? m->prot : PROT_READ | PROT_WRITE, 0, 0, 0);
	p->mm.wprot[i] = p->mm.wprot[--p->mm.nwprot];
	x86_cache_invalidate(p->cache, page, LX_PAGE);
	if (p->uarch) {
		p->smc_page = page;
		p->smc_clear = 1;
	}
	cut_block(p, page, p->uarch != NULL);
	return 1;
}

void lx_code_unprotect_all(struct lx_proc *p)
{
	while (p->mm.nwprot)
		lx_code_write_fault(p, p->mm.wprot[p->mm.nwprot - 1]);
}

/* Forget write-protection of pages in [start,end) (their host protection
 * is being replaced) and any code decoded there. */
static void code_forget(struct lx_proc *p, uint64_t start, uint64_t end)
{
	for (size_t i = 0; i < p->mm.nwprot;) {
		if (p->mm.wprot[i] >= start && p->mm.wprot[i] < end)
			p->mm.wprot[i] = p->mm.wprot[--p->mm.nwprot];
		else
			i++;
	}
	x86_cache_invalidate(p->cache, start, end - start);
}

/* ---- mmap ------------------------------------------------------------------ */

/* Make sure [start,end) holds only guest memory or nothing: probe every
 * untracked gap with a NOREPLACE mapping, which fails where vpmu lives. */
static int fixed_ok(struct lx_proc *p, uint64_t start, uint64_t end)
{
	uint64_t at = start;
	size_t i = lx_mm_first(&p->mm, start);

	while (at < end) {
		uint64_t gap_end = end;

		if (i < p->mm.n && p->mm.v[i].start <= at) {
			if (p->mm.v[i].kind == LX_MAP_FOREIGN)
				return 0;
			at = p->mm.v[i].end;
			i++;
			continue;
		}
		if (i < p->mm.n && p->mm.v[i].start < end)
			gap_end = p->mm.v[i].start;
		long r = host_mmap(
			at, gap_end - at, PROT_NONE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_NORESERVE, -1, 0);
		if (r < 0 || (uint64_t)r != at) {
			if (r >= 0)
				lx_host_syscall(11, r, (long)(gap_end - at), 0, 0, 0, 0);
			return 0;
		}
		/* the probe stays until the real MAP_FIXED mapping replaces it */
		at = gap_end;
	}
	return 1;
}

static uint64_t pick(struct lx_proc *p, uint64_t len, int flags)
{
	uint64_t lo = flags & MAP_32BIT ? LX_LOW32_LOW : LX_MMAP_LOW;
	uint64_t top = flags & MAP_32BIT ? LX_LOW32_TOP : LX_MMAP_TOP;

	return lx_mm_find(&p->mm, len, lo, top);
}

long lx_sys_mmap(struct lx_proc *p, uint64_t addr, uint64_t len, int prot, int flags, int fd,
		 uint64_t off)
{
	int kind = flags & MAP_ANONYMOUS ? LX_MAP_ANON : LX_MAP_FILE;
	long r;

	if (!len || (off & (LX_PAGE - 1)))
		return -EINVAL;
	if (len > (1ull << 47))
		return -ENOMEM;
	len = lx_page_up(len);
	if (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) {
		if ((addr & (LX_PAGE - 1)) || addr + len < addr || addr + len > (1ull << 47))
			return -EINVAL;
		if (flags & MAP_FIXED_NOREPLACE) {
			if (!lx_mm_is_free(&p->mm, addr, addr + len))
				return -EEXIST;
		} else if (!fixed_ok(p, addr, addr + len)) {
			return -ENOMEM;
		}
		r = host_mmap(addr, len, prot, flags, fd, off);
		if (r < 0)
			return r;
	} else {
		flags &= ~MAP_32BIT;
		r = -ENOMEM;
		if (addr && !(addr & (LX_PAGE - 1)) && addr + len > addr &&
		    addr + len <= (1ull << 47) && lx_mm_is_free(&p->mm, addr, addr + len)) {
			/* the hint, if it is free (mm/mmap.c) */
			r = host_mmap(addr, len, prot, flags | MAP_FIXED_NOREPLACE, fd, off);
			if (r == -EEXIST)
				r = -ENOMEM;
		}
		for (int tries = 0; r == -ENOMEM && tries < 64; tries++) {
			uint64_t a = pick(p, len, flags);

			if (!a)
				return -ENOMEM;
			r = host_mmap(a, len, prot, flags | MAP_FIXED_NOREPLACE, fd, off);
			if (r == -EEXIST) {
				lx_mm_add(&p->mm, a, a + len, PROT_NONE, LX_MAP_FOREIGN);
				r = -ENOMEM;
			} else if (r < 0) {
				return r;
			}
		}
		if (r < 0)
			return r;
	}
	addr = (uint64_t)r;
	code_forget(p, addr, addr + len);
	lx_mm_add(&p->mm, addr, addr + len, prot, kind);
	if (kind == LX_MAP_FILE)
		lx_image_note_mmap(p, addr, len, fd, off);
	return r;
}

long lx_sys_munmap(struct lx_proc *p, uint64_t addr, uint64_t len)
{
	uint64_t end;

	if ((addr & (LX_PAGE - 1)) || !len)
		return -EINVAL;
	end = lx_page_up(addr + len);
	if (end < addr)
		return -EINVAL;
	/* only what the guest owns; the rest is, for it, unmapped already */
	for (size_t i = lx_mm_first(&p->mm, addr); i < p->mm.n && p->mm.v[i].start < end; i++) {
		const struct lx_map *m = &p->mm.v[i];
		uint64_t s = m->start > addr ? m->start : addr, e = m->end < end ? m->end : end;

		if (m->kind != LX_MAP_FOREIGN)
			lx_host_syscall(11, (long)s, (long)(e - s), 0, 0, 0, 0);
	}
	code_forget(p, addr, end);
	lx_mm_del(&p->mm, addr, end);
	return 0;
}

long lx_sys_mprotect(struct lx_proc *p, uint64_t addr, uint64_t len, int prot)
{
	uint64_t end;
	long r;

	if (addr & (LX_PAGE - 1))
		return -EINVAL;
	end = lx_page_up(addr + len);
	if (end < addr)
		return -ENOMEM;
	if (!len)
		return 0;
	if (!lx_mm_covered(&p->mm, addr, end))
		return -ENOMEM;
	r = lx_host_syscall(10, (long)addr, (long)(end - addr), prot, 0, 0, 0);
	if (r < 0)
		return r;
	code_forget(p, addr, end);
	lx_mm_protect(&p->mm, addr, end, prot & (PROT_READ | PROT_WRITE | PROT_EXEC));
	return 0;
}

long lx_sys_mremap(struct lx_proc *p, uint64_t old, uint64_t olen, uint64_t nlen, int flags,
		   uint64_t naddr)
{
	const struct lx_map *m;
	int prot, kind;
	long r;

	if ((old & (LX_PAGE - 1)) || !nlen)
		return -EINVAL;
	olen = lx_page_up(olen);
	nlen = lx_page_up(nlen);
	if (!olen || !lx_mm_covered(&p->mm, old, old + olen))
		return -EFAULT;
	m = lx_mm_lookup(&p->mm, old);
	prot = m->prot;
	kind = m->kind;
	if (flags & MREMAP_FIXED) {
		if ((naddr & (LX_PAGE - 1)) || !fixed_ok(p, naddr, naddr + nlen))
			return -EINVAL;
		r = lx_host_syscall(25, (long)old, (long)olen, (long)nlen, flags, (long)naddr, 0);
	} else if (nlen <= olen || lx_mm_is_free(&p->mm, old + olen, old + nlen)) {
		r = lx_host_syscall(25, (long)old, (long)olen, (long)nlen,
				    flags & ~(MREMAP_MAYMOVE | MREMAP_DONTUNMAP), 0, 0);
		if (r < 0 && (flags & MREMAP_MAYMOVE))
			goto move;
	} else if (flags & MREMAP_MAYMOVE) {
move:;
		uint64_t a = pick(p, nlen, 0);

		if (!a || !fixed_ok(p, a, a + nlen))
			return -ENOMEM;
		r = lx_host_syscall(25, (long)old, (long)olen, (long)nlen, flags | MREMAP_FIXED,
				    (long)a, 0);
	} else {
		return -ENOMEM;
	}
	if (r < 0)
		return r;
	code_forget(p, old, old + olen);
	if (!(flags & MREMAP_DONTUNMAP))
		lx_mm_del(&p->mm, old, old + olen);
	lx_mm_add(&p->mm, (uint64_t)r, (uint64_t)r + nlen, prot, kind);
	return r;
}

/* madvise, and the other calls that act on a range of memory without
 * mapping it (mseal, remap_file_pages): only on the guest's own memory.
 * Elsewhere the range is vpmu's (MADV_DONTNEED would zero its heap,
 * MADV_DONTFORK take it from a guest fork) or unmapped: the guest gets
 * the kernel's answer for unmapped memory. */
long lx_sys_range(struct lx_proc *p, long nr, uint64_t addr, uint64_t len, uint64_t a2, uint64_t a3,
		  uint64_t a4)
{
	uint64_t end = lx_page_up(addr + len);

	if ((addr & (LX_PAGE - 1)) || end < addr)
		return -EINVAL;
	if (len && !lx_mm_covered(&p->mm, addr, end))
		return nr == 216 ? -EINVAL : -ENOMEM; /* remap_file_pages: EINVAL */
	return lx_host_syscall(nr, (long)addr, (long)len, (long)a2, (long)a3, (long)a4, 0);
}

/* shmat: attach at an address of the guest's region (the kernel's own
 * choice would be among vpmu's mappings), never over vpmu's memory (what
 * SHM_REMAP would do), and track the segment as guest memory. */
long lx_sys_shmat(struct lx_proc *p, int id, uint64_t addr, int flags)
{
	struct shmid_ds ds;
	uint64_t len;
	long r;

	if (lx_host_syscall(31, id, IPC_STAT, (long)&ds, 0, 0, 0) < 0)
		return lx_host_syscall(30, id, (long)addr, flags, 0, 0, 0); /* its error */
	len = lx_page_up(ds.shm_segsz);
	if (!len)
		return -EINVAL;
	if (flags & SHM_RND)
		addr &= ~(uint64_t)(SHMLBA - 1);
	if (addr) {
		if (addr + len < addr || !fixed_ok(p, addr, addr + len))
			return -EINVAL;
		if (lx_mm_is_free(&p->mm, addr, addr + len))
			flags |= SHM_REMAP; /* over the probe fixed_ok left */
	} else {
		addr = pick(p, len, 0);
		if (!addr || !fixed_ok(p, addr, addr + len))
			return -ENOMEM;
		flags |= SHM_REMAP;
	}
	r = lx_host_syscall(30, id, (long)addr, flags, 0, 0, 0);
	if (r < 0)
		return r;
	code_forget(p, (uint64_t)r, (uint64_t)r + len);
	lx_mm_add(&p->mm, (uint64_t)r, (uint64_t)r + len,
		  flags & SHM_RDONLY ? PROT_READ : PROT_READ | PROT_WRITE, LX_MAP_FILE);
	return r;
}

long lx_sys_shmdt(struct lx_proc *p, uint64_t addr)
{
	const struct lx_map *m = lx_mm_lookup(&p->mm, addr);
	uint64_t start, end;
	long r;

	if (!m || m->start != addr || m->kind != LX_MAP_FILE)
		return -EINVAL;
	start = m->start;
	end = m->end;
	r = lx_host_syscall(67, (long)addr, 0, 0, 0, 0, 0);
	if (r < 0)
		return r;
	code_forget(p, start, end);
	lx_mm_del(&p->mm, start, end);
	return r;
}

long lx_sys_brk(struct lx_proc *p, uint64_t addr)
{
	struct lx_mm *mm = &p->mm;
	uint64_t nend;

	if (addr < mm->brk_start)
		return (long)mm->brk_cur;
	nend = lx_page_up(addr);
	if (nend > mm->brk_end) {
		if (!lx_mm_is_free(mm, mm->brk_end, nend) ||
		    lx_map_fixed(p, mm->brk_end, nend - mm->brk_end, PROT_READ | PROT_WRITE,
				 LX_MAP_BRK))
			return (long)mm->brk_cur;
	} else if (nend < mm->brk_end) {
		lx_host_syscall(11, (long)nend, (long)(mm->brk_end - nend), 0, 0, 0, 0);
		code_forget(p, nend, mm->brk_end);
		lx_mm_del(mm, nend, mm->brk_end);
	}
	mm->brk_end = nend;
	mm->brk_cur = addr;
	return (long)addr;
}
