/* stack.c — the initial stack of a new guest process, laid out exactly as
 * Linux builds it (fs/exec.c copy_strings, fs/binfmt_elf.c
 * create_elf_tables) with address randomisation off:
 *
 *   top - 8            8 zero bytes
 *   below              the exec'd file name, then envp strings, then argv
 *                      strings (argv[0] lowest)
 *   aligned down to 16 "x86_64" (AT_PLATFORM), then 16 AT_RANDOM bytes
 *   aligned down to 16 argc, argv[], NULL, envp[], NULL, auxv pairs, AT_NULL
 *
 * No AT_SYSINFO_EHDR: the guest has no vDSO, so libc makes real syscalls.
 */
#include <elf.h>
#include <string.h>

#include "lx_proc.h"

static uint64_t put_str(uint64_t *p, const char *s)
{
	size_t n = strlen(s) + 1;

	*p -= n;
	memcpy((void *)*p, s, n);
	return *p;
}

uint64_t lx_stack_build(uint64_t top, uint64_t size, const struct lx_stack_args *a)
{
	static const char platform[] = "x86_64";
	size_t argc = 0, envc = 0, strbytes, nwords;
	uint64_t p = top, execfn, u_platform, u_random, sp, *w;

	while (a->argv && a->argv[argc])
		argc++;
	while (a->envp && a->envp[envc])
		envc++;
	strbytes = 8 + strlen(a->execfn) + 1 + sizeof(platform) + 16 + 32;
	for (size_t i = 0; i < argc; i++)
		strbytes += strlen(a->argv[i]) + 1;
	for (size_t i = 0; i < envc; i++)
		strbytes += strlen(a->envp[i]) + 1;
	/* argc, argv+NULL, envp+NULL, at most 24 auxv pairs */
	nwords = 1 + argc + 1 + envc + 1 + 48;
	if (strbytes + nwords * 8 + 16 > size)
		return 0;

	p -= 8;
	memset((void *)p, 0, 8);
	execfn = put_str(&p, a->execfn);
	/* strings: envp then argv, each list copied from its last element,
	 * so argv[0] ends up lowest and the lists read upwards */
	for (size_t i = envc; i-- > 0;)
		put_str(&p, a->envp[i]);
	for (size_t i = argc; i-- > 0;)
		put_str(&p, a->argv[i]);
	uint64_t strs = p;
	p &= ~15ull;
	u_platform = put_str(&p, platform);
	p -= 16;
	memcpy((void *)p, a->random, 16);
	u_random = p;

	uint64_t aux[48];
	size_t na = 0;
#define AUX(k, v) (aux[na++] = (k), aux[na++] = (v))
	AUX(AT_HWCAP, a->hwcap);
	AUX(AT_PAGESZ, 4096);
	AUX(AT_CLKTCK, 100);
	AUX(AT_PHDR, a->phdr);
	AUX(AT_PHENT, sizeof(Elf64_Phdr));
	AUX(AT_PHNUM, a->phnum);
	AUX(AT_BASE, a->base);
	AUX(AT_FLAGS, 0);
	AUX(AT_ENTRY, a->entry);
	AUX(AT_UID, a->uid);
	AUX(AT_EUID, a->euid);
	AUX(AT_GID, a->gid);
	AUX(AT_EGID, a->egid);
	AUX(AT_SECURE, 0);
	AUX(AT_RANDOM, u_random);
	AUX(AT_HWCAP2, 0);
	AUX(AT_EXECFN, execfn);
	AUX(AT_PLATFORM, u_platform);
	AUX(AT_NULL, 0);
#undef AUX

	sp = p - na * 8;
	sp = (sp - (1 + argc + 1 + envc + 1) * 8) & ~15ull;
	w = (uint64_t *)sp;
	*w++ = argc;
	for (size_t i = 0; i < argc; i++, strs += strlen((char *)strs) + 1)
		*w++ = strs;
	*w++ = 0;
	for (size_t i = 0; i < envc; i++, strs += strlen((char *)strs) + 1)
		*w++ = strs;
	*w++ = 0;
	memcpy(w, aux, na * 8);
	return sp;
}
