/* e2e_sigchld.c MODE [N] — a child's SIGCHLD reaching a parent that
 * computes before it waits.  The child exits at once; the parent first
 * runs N loop iterations (long after the child is gone, on any host).
 *   wait:  then waitpid; prints whether the handler ran before the call
 *   pause: then pause(), which the handler must end
 *   spin:  then spins until the handler has run (no system call at all)
 *   two:   a second child too, which also exits at once; then waits for
 *          any child twice, and prints how often the handler had run
 *          after each wait (the two SIGCHLDs may merge into one on Linux)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void on_chld(int sig)
{
	(void)sig;
	got++;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	volatile unsigned long x = 0;
	long n = argc > 2 ? atol(argv[2]) : 0;
	int st = 0, before;
	pid_t pid;

	if (argc < 2)
		return 2;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_chld;
	sigaction(SIGCHLD, &sa, NULL);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0)
		_exit(7);
	if (!strcmp(argv[1], "two") && fork() == 0)
		_exit(8);
	for (long i = 0; i < n; i++)
		x += (unsigned long)i;
	before = got;
	if (!strcmp(argv[1], "wait")) {
		waitpid(pid, &st, 0);
		printf("wait: handler before %d, after %d, status %d\n", before, got,
		       WEXITSTATUS(st));
	} else if (!strcmp(argv[1], "pause")) {
		while (!got)
			pause();
		waitpid(pid, &st, 0);
		printf("pause: handler %d, status %d\n", got, WEXITSTATUS(st));
	} else if (!strcmp(argv[1], "two")) {
		int after[2];
		for (int k = 0; k < 2; k++) {
			if (wait(&st) < 0)
				return 1;
			after[k] = got;
		}
		printf("two: handler before %d, after the waits %d %d\n", before, after[0],
		       after[1]);
	} else {
		while (!got)
			;
		waitpid(pid, &st, 0);
		printf("spin: handler %d, status %d\n", got, WEXITSTATUS(st));
	}
	return 0;
}
