/* elf_parse.c — reading an ELF program's headers (ELF-64 object file
 * format; System V ABI AMD64 supplement) and #! lines: everything the
 * loader and execve's checks need to know, from the file alone.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lx_elf.h"
#include "lx_mm.h"

static int read_full(int fd, void *buf, size_t n, off_t off)
{
	ssize_t r = pread(fd, buf, n, off);

	return r == (ssize_t)n ? 0 : -1;
}

int lx_elf_parse(int fd, const char *path, struct lx_elf *e, char *msg, size_t msgsz)
{
	struct stat st;
	int nload = 0;

	if (fstat(fd, &st) < 0) {
		int err = errno;

		snprintf(msg, msgsz, "%s: %s", path, strerror(err));
		return err;
	}
	memset(e, 0, sizeof(*e));
	if (pread(fd, &e->eh, sizeof(e->eh), 0) < 4 || memcmp(e->eh.e_ident, ELFMAG, SELFMAG)) {
		snprintf(msg, msgsz, "%s: cannot execute binary file: Exec format error", path);
		return ENOEXEC;
	}
	if ((size_t)st.st_size < sizeof(e->eh)) {
		snprintf(msg, msgsz, "%s: truncated ELF file", path);
		return ENOEXEC;
	}
	if (e->eh.e_ident[EI_CLASS] != ELFCLASS64) {
		snprintf(msg, msgsz, "%s: cannot execute binary file: %s, not x86-64", path,
			 e->eh.e_ident[EI_CLASS] == ELFCLASS32 ? "32-bit ELF" : "bad ELF class");
		return ENOEXEC;
	}
	if (e->eh.e_ident[EI_DATA] != ELFDATA2LSB || e->eh.e_machine != EM_X86_64) {
		snprintf(msg, msgsz,
			 "%s: cannot execute binary file: ELF for machine %u, not x86-64", path,
			 e->eh.e_machine);
		return ENOEXEC;
	}
	if (e->eh.e_type != ET_EXEC && e->eh.e_type != ET_DYN) {
		snprintf(msg, msgsz, "%s: cannot execute binary file: not an executable ELF", path);
		return ENOEXEC;
	}
	if (e->eh.e_phentsize != sizeof(Elf64_Phdr) || e->eh.e_phnum == 0 ||
	    e->eh.e_phnum > LX_MAX_PHNUM ||
	    e->eh.e_phoff + (uint64_t)e->eh.e_phnum * sizeof(Elf64_Phdr) > (uint64_t)st.st_size ||
	    read_full(fd, e->ph, e->eh.e_phnum * sizeof(Elf64_Phdr), (off_t)e->eh.e_phoff)) {
		snprintf(msg, msgsz, "%s: truncated or bad ELF program headers", path);
		return ENOEXEC;
	}
	e->lo = UINT64_MAX;
	for (int i = 0; i < e->eh.e_phnum; i++) {
		const Elf64_Phdr *ph = &e->ph[i];

		/* the first PT_INTERP counts, as in fs/binfmt_elf.c */
		if (ph->p_type == PT_INTERP && !e->interp[0]) {
			if (ph->p_filesz < 2 || ph->p_filesz > sizeof(e->interp) ||
			    read_full(fd, e->interp, ph->p_filesz, (off_t)ph->p_offset) ||
			    e->interp[ph->p_filesz - 1] || !e->interp[0]) {
				e->interp[0] = 0;
				snprintf(msg, msgsz, "%s: bad PT_INTERP", path);
				return ENOEXEC;
			}
		}
		if (ph->p_type != PT_LOAD)
			continue;
		if (ph->p_filesz > ph->p_memsz ||
		    ph->p_offset + ph->p_filesz > (uint64_t)st.st_size ||
		    (ph->p_offset & (LX_PAGE - 1)) != (ph->p_vaddr & (LX_PAGE - 1)) ||
		    ph->p_offset + ph->p_filesz < ph->p_offset ||
		    ph->p_vaddr + ph->p_memsz < ph->p_vaddr ||
		    ph->p_vaddr + ph->p_memsz > LX_USER_TOP || ph->p_vaddr >= (1ull << 46)) {
			snprintf(msg, msgsz, "%s: truncated or bad ELF segment", path);
			return ENOEXEC;
		}
		nload++;
		if (lx_page_down(ph->p_vaddr) < e->lo)
			e->lo = lx_page_down(ph->p_vaddr);
		if (lx_page_up(ph->p_vaddr + ph->p_memsz) > e->hi)
			e->hi = lx_page_up(ph->p_vaddr + ph->p_memsz);
	}
	if (!nload || e->hi <= e->lo) {
		snprintf(msg, msgsz, "%s: no loadable segment", path);
		return ENOEXEC;
	}
	return 0;
}

int lx_shebang(const char *path, char *interp, size_t isz, char *arg, size_t asz)
{
	char buf[LX_SHEBANG_MAX + 1];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	char *s, *e;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, LX_SHEBANG_MAX);
	close(fd);
	if (n < 2 || buf[0] != '#' || buf[1] != '!')
		return 0;
	buf[n] = 0;
	e = strchr(buf, '\n');
	if (e)
		*e = 0;
	else if (n == LX_SHEBANG_MAX)
		return -ENOEXEC; /* the line does not fit, as in fs/binfmt_script.c */
	for (s = buf + 2; *s == ' ' || *s == '\t'; s++)
		;
	if (!*s)
		return -ENOEXEC;
	for (e = s; *e && *e != ' ' && *e != '\t'; e++)
		;
	if ((size_t)(e - s) >= isz)
		return -ENAMETOOLONG;
	memcpy(interp, s, (size_t)(e - s));
	interp[e - s] = 0;
	for (s = e; *s == ' ' || *s == '\t'; s++)
		;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if ((size_t)(e - s) >= asz)
		return -ENAMETOOLONG;
	memcpy(arg, s, (size_t)(e - s));
	arg[e - s] = 0;
	return 1;
}
