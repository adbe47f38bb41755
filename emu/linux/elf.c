/* elf.c — checking and loading x86-64 ELF programs (static, static-PIE,
 * PIE, dynamic with their PT_INTERP), #! scripts, and the record of ELF
 * images mapped into the guest (for symbolising its addresses).
 *
 * Loading follows fs/binfmt_elf.c: every PT_LOAD is mapped from the file
 * with its own protection, the tail of the last file page and the pages
 * past p_filesz are zero (bss).  The span of an image is reserved first
 * (PROT_NONE, MAP_FIXED_NOREPLACE) so it can never land on vpmu's memory.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lx_elf.h"
#include "lx_proc.h"

/* Open path as an executable the way execve(2) checks it. */
static int open_exec(const char *path, char *msg, size_t msgsz)
{
	struct stat st;
	int fd;

	if (stat(path, &st) < 0) {
		int e = errno;
		snprintf(msg, msgsz, "%s: %s", path, strerror(e));
		return -e;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(msg, msgsz, "%s: Is a directory", path);
		return -EACCES;
	}
	if (!S_ISREG(st.st_mode) || access(path, X_OK) < 0) {
		snprintf(msg, msgsz, "%s: Permission denied", path);
		return -EACCES;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		snprintf(msg, msgsz, "%s: %s", path, strerror(e));
		return -e;
	}
	return fd;
}

/* execve's verdict on path: 0, or a positive errno with msg. */
static int check_path(const char *path, char *msg, size_t msgsz, int depth)
{
	struct lx_elf *e;
	char interp[LX_SHEBANG_MAX], arg[LX_SHEBANG_MAX];
	int fd = open_exec(path, msg, msgsz), r;

	if (fd < 0)
		return -fd;
	r = lx_shebang(path, interp, sizeof(interp), arg, sizeof(arg));
	if (r != 0) {
		close(fd);
		if (r < 0) {
			snprintf(msg, msgsz, "%s: bad #! line", path);
			return -r;
		}
		if (depth >= 4) {
			snprintf(msg, msgsz, "%s: too many levels of #! interpreters", path);
			return ELOOP;
		}
		r = check_path(interp, msg, msgsz, depth + 1);
		if (r) {
			char inner[256];

			snprintf(inner, sizeof(inner), "%s", strerror(r));
			snprintf(msg, msgsz, "%s: %s: bad interpreter: %s", path, interp, inner);
		}
		return r;
	}
	e = malloc(sizeof(*e));
	if (!e) {
		close(fd);
		snprintf(msg, msgsz, "%s: out of memory", path);
		return ENOMEM;
	}
	r = lx_elf_parse(fd, path, e, msg, msgsz);
	close(fd);
	if (!r && e->interp[0]) {
		struct lx_elf *ie = malloc(sizeof(*ie));
		char imsg[512];

		fd = ie ? open_exec(e->interp, imsg, sizeof(imsg)) : -ENOMEM;
		if (fd < 0) {
			r = -fd;
			snprintf(msg, msgsz, "%s: interpreter %s: %s", path, e->interp,
				 strerror(r));
		} else {
			r = lx_elf_parse(fd, e->interp, ie, imsg, sizeof(imsg));
			if (r)
				snprintf(msg, msgsz, "%s: interpreter %s", path, imsg);
			close(fd);
		}
		free(ie);
	}
	free(e);
	return r;
}

int lx_check_errno(const char *path, char *msg, size_t msgsz)
{
	return check_path(path, msg, msgsz, 0);
}

int lx_check_program(const char *path, char *msg, size_t msgsz)
{
	int r = check_path(path, msg, msgsz, 0);

	if (!r)
		return 0;
	return r == ENOENT || r == ENOTDIR ? 127 : 126;
}

void lx_image_add(struct lx_proc *p, const char *path, uint64_t start, uint64_t end, uint64_t bias)
{
	struct lx_slot *s = p->slot;
	int i;

	if (!s)
		return;
	for (i = 0; i < s->nimages; i++)
		if (s->image[i].start == start)
			break;
	if (i == s->nimages && i >= LX_MAX_IMAGES)
		return;
	s->image[i].start = start;
	s->image[i].end = end;
	s->image[i].bias = bias;
	snprintf(s->image[i].path, sizeof(s->image[i].path), "%s", path);
	if (i == s->nimages)
		s->nimages++;
}

void lx_image_note_mmap(struct lx_proc *p, uint64_t addr, uint64_t len, int fd, uint64_t off)
{
	struct lx_elf *e;
	char link[64], path[256], msg[320];
	ssize_t n;

	if (off != 0)
		return;
	if (pread(fd, link, 4, 0) != 4 || memcmp(link, ELFMAG, SELFMAG))
		return;
	e = malloc(sizeof(*e));
	if (!e)
		return;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n > 0) {
		path[n] = 0;
		/* a loader maps the whole span of the object first */
		if (!lx_elf_parse(fd, path, e, msg, sizeof(msg)) && len >= e->hi - e->lo)
			lx_image_add(p, path, addr, addr + (e->hi - e->lo),
				     e->eh.e_type == ET_DYN ? addr - e->lo : 0);
	}
	free(e);
}

static int prot_of(uint32_t pf)
{
	return (pf & PF_R ? PROT_READ : 0) | (pf & PF_W ? PROT_WRITE : 0) |
	       (pf & PF_X ? PROT_EXEC : 0);
}

/* Map one image; returns 0 and its bias, or an errno with msg. */
static int map_image(struct lx_proc *p, int fd, const char *path, const struct lx_elf *e,
		     uint64_t dyn_base, uint64_t *biasp, char *msg, size_t msgsz)
{
	uint64_t base = e->eh.e_type == ET_DYN ? dyn_base : e->lo;
	uint64_t bias = base - e->lo, size = e->hi - e->lo;

	if (lx_map_fixed(p, base, size, PROT_NONE, LX_MAP_IMAGE)) {
		snprintf(msg, msgsz, "%s: cannot map %#llx bytes at %#llx", path,
			 (unsigned long long)size, (unsigned long long)base);
		return ENOMEM;
	}
	for (int i = 0; i < e->eh.e_phnum; i++) {
		const Elf64_Phdr *ph = &e->ph[i];
		uint64_t va = bias + ph->p_vaddr, ps = lx_page_down(va), delta = va - ps;
		uint64_t fend = va + ph->p_filesz, mend = va + ph->p_memsz;
		int prot = prot_of(ph->p_flags);

		if (ph->p_type != PT_LOAD || !ph->p_memsz)
			continue;
		if (ph->p_filesz) {
			void *m = mmap((void *)ps, lx_page_up(delta + ph->p_filesz),
				       prot | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd,
				       (off_t)(ph->p_offset - delta));
			if (m == MAP_FAILED) {
				snprintf(msg, msgsz, "%s: mmap: %s", path, strerror(errno));
				return errno;
			}
			/* bss sharing the last file page */
			if (mend > fend && lx_page_up(fend) > fend)
				memset((void *)fend, 0, lx_page_up(fend) - fend);
		}
		if (lx_page_up(mend) > lx_page_up(fend)) {
			void *m = mmap((void *)lx_page_up(fend),
				       lx_page_up(mend) - lx_page_up(fend), prot,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
			if (m == MAP_FAILED) {
				snprintf(msg, msgsz, "%s: mmap: %s", path, strerror(errno));
				return errno;
			}
		}
		if (mprotect((void *)ps, lx_page_up(mend) - ps, prot) < 0) {
			snprintf(msg, msgsz, "%s: mprotect: %s", path, strerror(errno));
			return errno;
		}
		lx_mm_add(&p->mm, ps, lx_page_up(mend), prot, LX_MAP_IMAGE);
	}
	*biasp = bias;
	lx_image_add(p, path, base, base + size, bias);
	return 0;
}

int lx_elf_load(struct lx_proc *p, const char *path, struct lx_loaded *out, char *msg, size_t msgsz)
{
	struct lx_elf *e = malloc(sizeof(*e)), *ie = malloc(sizeof(*ie));
	uint64_t bias = 0, ibias = 0;
	int fd = -1, ifd = -1, r;

	memset(out, 0, sizeof(*out));
	if (!e || !ie) {
		snprintf(msg, msgsz, "%s: out of memory", path);
		r = ENOMEM;
		goto done;
	}
	fd = open_exec(path, msg, msgsz);
	if (fd < 0) {
		r = -fd;
		goto done;
	}
	r = lx_elf_parse(fd, path, e, msg, msgsz);
	if (r)
		goto done;
	if (e->interp[0]) {
		ifd = open_exec(e->interp, msg, msgsz);
		if (ifd < 0) {
			r = -ifd;
			goto done;
		}
		r = lx_elf_parse(ifd, e->interp, ie, msg, msgsz);
		if (r)
			goto done;
	}
	r = map_image(p, fd, p->exe, e, LX_EXEC_BASE, &bias, msg, msgsz);
	if (r)
		goto done;
	out->prog_entry = bias + e->eh.e_entry;
	out->entry = out->prog_entry;
	out->phnum = e->eh.e_phnum;
	out->brk = bias + e->hi;
	for (int i = 0; i < e->eh.e_phnum; i++) {
		const Elf64_Phdr *ph = &e->ph[i];

		if (ph->p_type == PT_PHDR)
			out->phdr = bias + ph->p_vaddr;
		else if (!out->phdr && ph->p_type == PT_LOAD && ph->p_offset <= e->eh.e_phoff &&
			 e->eh.e_phoff < ph->p_offset + ph->p_filesz)
			out->phdr = bias + ph->p_vaddr + (e->eh.e_phoff - ph->p_offset);
	}
	if (e->interp[0]) {
		char ipath[4096];

		if (!realpath(e->interp, ipath))
			snprintf(ipath, sizeof(ipath), "%s", e->interp);
		r = map_image(p, ifd, ipath, ie, LX_INTERP_BASE, &ibias, msg, msgsz);
		if (r)
			goto done;
		out->interp_base = ie->eh.e_type == ET_DYN ? LX_INTERP_BASE : 0;
		out->entry = ibias + ie->eh.e_entry;
	}
done:
	if (fd >= 0)
		close(fd);
	if (ifd >= 0)
		close(ifd);
	free(e);
	free(ie);
	return r;
}
