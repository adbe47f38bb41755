/* unwind.c — frame-pointer and DWARF call chains of a guest thread.
 *
 * The DWARF walker is libunwind's remote unwinder over an address space
 * whose accessors are ours: registers come from the caller's snapshot,
 * memory from the image tables (copied from the files) or else from the
 * caller's read callback, and procedure info from the image's
 * .eh_frame_hdr through libunwind's exported remote table search, the way
 * an out-of-process profiler uses it.
 */
#include <libunwind.h>
#include <stdlib.h>
#include <string.h>

#include "emu/x86/x86.h"
#include "unwind.h"
#include "unwind_tab.h"

/* Exported by libunwind-x86_64 but not declared by its headers. */
extern int _Ux86_64_dwarf_search_unwind_table(unw_addr_space_t as, unw_word_t ip,
					      unw_dyn_info_t *di, unw_proc_info_t *pi,
					      int need_unwind_info, void *arg);

struct unwind_img {
	uint64_t start, end, bias;
	struct unwind_tab *tab;
};

struct unwind {
	struct unwind_mem mem;
	unw_addr_space_t as;
	struct unwind_tab **tabs; /* every path seen, kept for later lists */
	size_t ntabs, captabs;
	struct unwind_img *img; /* sorted by start */
	size_t nimg;
};

/* The accessors' argument: one walk. */
struct unwind_walk {
	struct unwind *u;
	const struct unwind_regs *regs;
};

static const struct unwind_img *find_img(const struct unwind *u, uint64_t addr)
{
	size_t lo = 0, hi = u->nimg;

	while (lo < hi) { /* first image starting above addr */
		size_t mid = lo + (hi - lo) / 2;

		if (u->img[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr >= u->img[lo - 1].end)
		return NULL;
	return &u->img[lo - 1];
}

/* Table bytes first (they are the file's, whatever the guest did to its
 * memory), then guest memory. */
static int mem_read(struct unwind *u, uint64_t addr, void *dst, size_t n)
{
	const struct unwind_img *im = find_img(u, addr);

	if (im && im->tab && !unwind_tab_read(im->tab, addr - im->bias, dst, n))
		return 0;
	return u->mem.read(u->mem.arg, dst, addr, n) < 0 ? -1 : 0;
}

/* ---- libunwind accessors ---------------------------------------------- */

static int acc_find_proc_info(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi,
			      int need_unwind_info, void *arg)
{
	struct unwind_walk *w = arg;
	const struct unwind_img *im = find_img(w->u, ip);
	unw_dyn_info_t di;

	if (!im || !im->tab || !im->tab->ok)
		return -UNW_ENOINFO;
	memset(&di, 0, sizeof(di));
	di.format = UNW_INFO_FORMAT_REMOTE_TABLE;
	di.start_ip = im->start;
	di.end_ip = im->end;
	di.u.rti.segbase = im->bias + im->tab->hdr.vaddr;
	di.u.rti.table_data = di.u.rti.segbase + im->tab->table_off;
	di.u.rti.table_len = im->tab->fde_count * 8 / sizeof(unw_word_t);
	return _Ux86_64_dwarf_search_unwind_table(as, ip, &di, pi, need_unwind_info, arg);
}

static void acc_put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi, void *arg)
{
	(void)as, (void)pi, (void)arg; /* libunwind releases what its table search allocates */
}

static int acc_get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *addr, void *arg)
{
	(void)as, (void)addr, (void)arg;
	return -UNW_ENOINFO; /* no dynamically registered unwind info in a guest */
}

static int acc_access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *val, int write,
			  void *arg)
{
	struct unwind_walk *w = arg;

	(void)as;
	if (write)
		return -UNW_EREADONLYREG;
	return mem_read(w->u, addr, val, sizeof(*val)) ? -UNW_EINVAL : 0;
}

/* libunwind's DWARF numbering to emu/x86/x86.h's. */
static const int8_t reg_map[] = {
	[UNW_X86_64_RAX] = X86_RAX, [UNW_X86_64_RDX] = X86_RDX, [UNW_X86_64_RCX] = X86_RCX,
	[UNW_X86_64_RBX] = X86_RBX, [UNW_X86_64_RSI] = X86_RSI, [UNW_X86_64_RDI] = X86_RDI,
	[UNW_X86_64_RBP] = X86_RBP, [UNW_X86_64_RSP] = X86_RSP, [UNW_X86_64_R8] = X86_R8,
	[UNW_X86_64_R9] = X86_R9,   [UNW_X86_64_R10] = X86_R10, [UNW_X86_64_R11] = X86_R11,
	[UNW_X86_64_R12] = X86_R12, [UNW_X86_64_R13] = X86_R13, [UNW_X86_64_R14] = X86_R14,
	[UNW_X86_64_R15] = X86_R15,
};

static int acc_access_reg(unw_addr_space_t as, unw_regnum_t reg, unw_word_t *val, int write,
			  void *arg)
{
	struct unwind_walk *w = arg;

	(void)as;
	if (write)
		return -UNW_EREADONLYREG;
	if (reg == UNW_X86_64_RIP)
		*val = w->regs->rip;
	else if (reg >= 0 && reg <= UNW_X86_64_R15)
		*val = w->regs->r[reg_map[reg]];
	else
		return -UNW_EBADREG;
	return 0;
}

static int acc_access_fpreg(unw_addr_space_t as, unw_regnum_t reg, unw_fpreg_t *val, int write,
			    void *arg)
{
	(void)as, (void)reg, (void)val, (void)write, (void)arg;
	return -UNW_EBADREG;
}

static int acc_resume(unw_addr_space_t as, unw_cursor_t *c, void *arg)
{
	(void)as, (void)c, (void)arg;
	return -UNW_EINVAL;
}

static unw_accessors_t accessors = {
	.find_proc_info = acc_find_proc_info,
	.put_unwind_info = acc_put_unwind_info,
	.get_dyn_info_list_addr = acc_get_dyn_info_list_addr,
	.access_mem = acc_access_mem,
	.access_reg = acc_access_reg,
	.access_fpreg = acc_access_fpreg,
	.resume = acc_resume,
};

/* ---- the session -------------------------------------------------------- */

struct unwind *unwind_new(const struct unwind_mem *mem)
{
	struct unwind *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->mem = *mem;
	u->as = unw_create_addr_space(&accessors, 0);
	if (!u->as) {
		free(u);
		return NULL;
	}
	/* No register-state cache: libunwind 1.6 keys it by the frame's
	 * address alone, so the state cached for a sample at the first
	 * instruction of a function was reused for a caller whose return
	 * address is that instruction (a call ending the function before
	 * it, looked up at address - 1), and the chain went wrong there. */
	unw_set_caching_policy(u->as, UNW_CACHE_NONE);
	return u;
}

void unwind_free(struct unwind *u)
{
	if (!u)
		return;
	unw_destroy_addr_space(u->as);
	for (size_t i = 0; i < u->ntabs; i++)
		unwind_tab_free(u->tabs[i]);
	free(u->tabs);
	free(u->img);
	free(u);
}

static struct unwind_tab *tab_for(struct unwind *u, const char *path)
{
	struct unwind_tab *t;

	for (size_t i = 0; i < u->ntabs; i++)
		if (!strcmp(u->tabs[i]->path, path))
			return u->tabs[i];
	if (u->ntabs == u->captabs) {
		size_t cap = u->captabs ? u->captabs * 2 : 8;
		struct unwind_tab **n = realloc(u->tabs, cap * sizeof(*n));

		if (!n)
			return NULL;
		u->tabs = n;
		u->captabs = cap;
	}
	t = unwind_tab_load(path);
	if (t)
		u->tabs[u->ntabs++] = t;
	return t;
}

static int img_cmp(const void *a, const void *b)
{
	const struct unwind_img *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

int unwind_set_images(struct unwind *u, const struct unwind_image *img, unsigned n)
{
	struct unwind_img *v = calloc(n ? n : 1, sizeof(*v));
	size_t m = 0;

	if (!v)
		return -1;
	for (unsigned i = 0; i < n; i++) {
		if (img[i].end <= img[i].start)
			continue;
		v[m] = (struct unwind_img){ img[i].start, img[i].end, img[i].bias, NULL };
		if (img[i].path && !(v[m].tab = tab_for(u, img[i].path))) {
			free(v);
			return -1;
		}
		m++;
	}
	qsort(v, m, sizeof(*v), img_cmp);
	free(u->img);
	u->img = v;
	u->nimg = m;
	/* Cached procedure info may name code that is gone. */
	unw_flush_cache(u->as, 0, 0);
	return 0;
}

int unwind_has_table(struct unwind *u, uint64_t addr)
{
	const struct unwind_img *im = find_img(u, addr);

	if (!im)
		return -1;
	return im->tab && im->tab->ok;
}

/* ---- the walkers -------------------------------------------------------- */

int unwind_fp(struct unwind *u, const struct unwind_regs *regs, uint64_t *chain, int max)
{
	uint64_t rsp = regs->r[X86_RSP], fp = regs->r[X86_RBP], lo = rsp, frame[2];
	int n = 0;

	if (max <= 0)
		return 0;
	chain[n++] = regs->rip;
	while (n < max) {
		if ((fp & 7) || fp < lo || fp - rsp >= UNWIND_FP_STACK_MAX)
			break;
		if (u->mem.read(u->mem.arg, frame, fp, sizeof(frame)) < 0)
			break;
		if (!frame[1] || (u->nimg && !find_img(u, frame[1])))
			break;
		chain[n++] = frame[1];
		lo = fp + sizeof(frame); /* the caller's frame is above this one: no loops */
		fp = frame[0];
	}
	return n;
}

int unwind_dwarf(struct unwind *u, const struct unwind_regs *regs, uint64_t *chain, int max)
{
	struct unwind_walk w = { u, regs };
	unw_cursor_t c;
	unw_word_t ip, sp, prev_sp = regs->r[X86_RSP];
	int n = 0;

	if (max <= 0)
		return 0;
	chain[n++] = regs->rip;
	if (unw_init_remote(&c, u->as, &w) < 0)
		return n;
	while (n < max) {
		/* A signal frame may switch stacks (sigaltstack); any other
		 * step must move up the stack, which also rules out loops. */
		int sig = unw_is_signal_frame(&c) > 0;

		if (unw_step(&c) <= 0)
			break;
		if (unw_get_reg(&c, UNW_REG_IP, &ip) < 0 || unw_get_reg(&c, UNW_REG_SP, &sp) < 0)
			break;
		if (!ip || (!sig && sp <= prev_sp))
			break;
		chain[n++] = ip;
		prev_sp = sp;
	}
	return n;
}
