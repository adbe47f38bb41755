/* e2e_pkeys.c — asks for memory protection keys, as V8 (node) does before
 * it protects its compiled code with them, and prints what the kernel
 * answered.  The emulated processor has none (no PKU in CPUID), so the
 * kernel's answers are those of a processor without them: no key to
 * allocate, none to free, and pkey_mprotect with key 0 or -1 is mprotect. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static void show(const char *what, long r)
{
	printf("%s: %s\n", what, r < 0 ? strerror(errno) : r == 0 ? "0" : "a key");
}

int main(void)
{
	char *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (page == MAP_FAILED)
		return 1;
	page[0] = 'k';
	show("pkey_alloc(0, 0)", syscall(SYS_pkey_alloc, 0, 0));
	show("pkey_alloc(1, 0)", syscall(SYS_pkey_alloc, 1, 0));
	show("pkey_alloc(0, 4)", syscall(SYS_pkey_alloc, 0, 4));
	show("pkey_free(1)", syscall(SYS_pkey_free, 1));
	show("pkey_mprotect(key 0)", syscall(SYS_pkey_mprotect, page, 4096, PROT_READ, 0));
	show("pkey_mprotect(key -1)", syscall(SYS_pkey_mprotect, page, 4096, PROT_READ, -1));
	show("pkey_mprotect(key 1)", syscall(SYS_pkey_mprotect, page, 4096, PROT_READ, 1));
	printf("page still reads %c\n", page[0]);
	return 0;
}
