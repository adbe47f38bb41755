/* e2e_ptrace.c — asks to be traced, as strace's and gdb's children do,
 * and prints what the kernel answered: under vpmu, EPERM, as under a
 * kernel that allows no tracing (the host would trace the emulator). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>

int main(void)
{
	long r = ptrace(PTRACE_TRACEME, 0, NULL, NULL);

	printf("PTRACE_TRACEME: %s\n", r < 0 ? strerror(errno) : "0");
	return 0;
}
