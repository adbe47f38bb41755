/* e2e_nosys.c — calls a system call number no kernel has (ENOSYS natively
 * and under vpmu), twice, and prints what it got. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	for (int i = 0; i < 2; i++) {
		long r = syscall(1000);

		printf("syscall 1000: %ld (%s)\n", r, r < 0 ? strerror(errno) : "ok");
	}
	return 0;
}
