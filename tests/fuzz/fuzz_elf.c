/* fuzz_elf.c — libFuzzer harness for the ELF program checks of the Linux
 * layer: lx_elf_parse (ELF header, program headers, PT_INTERP, PT_LOAD
 * spans) and lx_shebang (#! lines), the code every `vpmu stat PROGRAM`
 * and every guest execve runs on a file someone else wrote.
 *
 * The input becomes the contents of a memory file (memfd), parsed through
 * its descriptor and, for #!, through its /proc/self/fd path.  The
 * harness then insists on what the interface promises:
 *   - failure: a positive errno and a one-line, NUL-terminated message
 *     naming the file;
 *   - success: 1..LX_MAX_PHNUM program headers, a non-empty page-aligned
 *     span lo < hi below LX_USER_TOP, every PT_LOAD inside the file with
 *     p_filesz <= p_memsz, and a NUL-terminated, non-empty interpreter
 *     path when there is one;
 *   - lx_shebang: 0 for anything not starting with "#!", otherwise -errno
 *     or 1 with a non-empty interpreter, both strings NUL-terminated
 *     inside their buffers and free of blanks at their ends.
 * Any breach aborts, which libFuzzer reports as a crash.
 *
 * Build and run (from the top of the tree; Debian: apt-get install clang):
 *
 *   clang -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -I. \
 *       -o /tmp/fuzz_elf tests/fuzz/fuzz_elf.c emu/linux/elf_parse.c
 *   mkdir -p /tmp/fuzz_elf.corpus
 *   /tmp/fuzz_elf -max_total_time=60 -max_len=4096 /tmp/fuzz_elf.corpus \
 *       tests/fuzz/corpus/fuzz_elf
 *
 * tests/fuzz/corpus/fuzz_elf holds seeds: the headers of a static and a
 * dynamic program, a #! script, and the regressions found so far.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emu/linux/lx_elf.h"
#include "emu/linux/lx_mm.h"

#define PATH "fuzzed-program"

static void check(int ok)
{
	if (!ok)
		abort();
}

static void check_msg(const char *msg, size_t sz)
{
	size_t n = strnlen(msg, sz);

	check(n > 0 && n < sz);
	check(!strchr(msg, '\n'));
	check(strstr(msg, PATH) != NULL);
}

static void check_parse(int fd, uint64_t size)
{
	static struct lx_elf e;
	char msg[512];
	int r;

	memset(msg, 0, sizeof(msg));
	r = lx_elf_parse(fd, PATH, &e, msg, sizeof(msg));
	if (r) {
		check(r > 0);
		check_msg(msg, sizeof(msg));
		return;
	}
	check(e.eh.e_phnum >= 1 && e.eh.e_phnum <= LX_MAX_PHNUM);
	check(e.lo < e.hi && e.hi <= LX_USER_TOP);
	check(!(e.lo & (LX_PAGE - 1)) && !(e.hi & (LX_PAGE - 1)));
	check(memchr(e.interp, 0, sizeof(e.interp)) != NULL);
	for (int i = 0; i < e.eh.e_phnum; i++) {
		const Elf64_Phdr *ph = &e.ph[i];

		if (ph->p_type == PT_INTERP)
			check(e.interp[0] != 0);
		if (ph->p_type != PT_LOAD)
			continue;
		check(ph->p_filesz <= ph->p_memsz);
		check(ph->p_offset <= size && ph->p_filesz <= size - ph->p_offset);
		check(ph->p_vaddr >= e.lo && ph->p_vaddr + ph->p_memsz <= e.hi);
	}
}

static void check_blanks(const char *s)
{
	size_t n = strlen(s);

	check(!n || (s[0] != ' ' && s[0] != '\t' && s[n - 1] != ' ' && s[n - 1] != '\t'));
}

static void check_shebang(int fd, const uint8_t *data, size_t size)
{
	char path[64], interp[LX_SHEBANG_MAX], arg[LX_SHEBANG_MAX];
	int r;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	memset(interp, 0x55, sizeof(interp));
	memset(arg, 0x55, sizeof(arg));
	r = lx_shebang(path, interp, sizeof(interp), arg, sizeof(arg));
	if (size < 2 || data[0] != '#' || data[1] != '!') {
		check(r == 0);
		return;
	}
	if (r < 0)
		return;
	check(r == 1);
	check(memchr(interp, 0, sizeof(interp)) && memchr(arg, 0, sizeof(arg)));
	check(interp[0] != 0 && !strchr(interp, ' ') && !strchr(interp, '\t'));
	check(!strchr(interp, '\n') && !strchr(arg, '\n'));
	check_blanks(arg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz_elf", 0);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	check_parse(fd, size);
	check_shebang(fd, data, size);
	close(fd);
	return 0;
}
