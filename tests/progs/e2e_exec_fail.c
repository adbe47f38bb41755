/* e2e_exec_fail.c — an execve the kernel refuses after every check vpmu
 * makes itself has passed (one argument longer than MAX_ARG_STRLEN):
 * the process goes on, and its counts stay those of what it ran. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	size_t n = 200 * 1024; /* past MAX_ARG_STRLEN, 32 pages */
	char *big = malloc(n + 1);
	char *argv[] = { "true", big, NULL };
	char *envp[] = { NULL };

	if (!big)
		return 2;
	memset(big, 'x', n);
	big[n] = 0;
	for (int k = 0; k < 3; k++) {
		int r = execve("/bin/true", argv, envp);
		printf("exec %d: %d %s\n", k, r, strerror(errno));
	}
	free(big);
	return 0;
}
