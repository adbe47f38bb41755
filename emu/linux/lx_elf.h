/* lx_elf.h — private to emu/linux: reading and checking an ELF program's
 * headers and a #! line, without mapping anything (elf_parse.c), so the
 * parsing can be tested and fuzzed on its own.  elf.c loads.
 */
#ifndef VPMU_LX_ELF_H
#define VPMU_LX_ELF_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

#define LX_SHEBANG_MAX 256 /* BINPRM_BUF_SIZE */
#define LX_MAX_PHNUM 128
#define LX_USER_TOP (1ull << 47) /* end of user space with 4-level paging */

struct lx_elf {
	Elf64_Ehdr eh;
	Elf64_Phdr ph[LX_MAX_PHNUM];
	uint64_t lo, hi;  /* page-aligned span of the PT_LOADs (ELF vaddrs) */
	char interp[256]; /* PT_INTERP, "" without */
};

/* Parse and validate the ELF file open as fd (path only names it in msg):
 * 0, or an errno-style result (ENOEXEC, or what fstat said) with a
 * one-line reason in msg.  On success every PT_LOAD lies inside the file
 * and below LX_USER_TOP, lo < hi, and interp is NUL-terminated. */
int lx_elf_parse(int fd, const char *path, struct lx_elf *e, char *msg, size_t msgsz);

/* Resolve a #! line (fs/binfmt_script.c): 0 when path is not a script,
 * 1 with the interpreter and its optional argument, or -errno. */
int lx_shebang(const char *path, char *interp, size_t isz, char *arg, size_t asz);

#endif
