/* hd_forkbomb.c — many processes.
 *
 * Without an argument: a bounded tree (every process forks two children,
 * three levels deep: 15 processes) in which every process reports the
 * size of its subtree through its exit status.
 *
 * `hd_forkbomb bomb`: a fork bomb meant to run under a small `ulimit -u`.
 * Every process forks as long as it can (the first at most 32 times, its
 * descendants twice each, three generations: a host without the limit is
 * not flooded); each one ends after a 3-second alarm.  The first process prints how its first failing fork failed and
 * exits 0 once its own children are gone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int tree(int depth)
{
	pid_t kids[2];
	int size = 1, st;

	for (int i = 0; i < 2 && depth > 0; i++) {
		kids[i] = fork();
		if (kids[i] < 0)
			return -1;
		if (kids[i] == 0)
			_exit(tree(depth - 1));
	}
	for (int i = 0; i < 2 && depth > 0; i++) {
		if (waitpid(kids[i], &st, 0) != kids[i] || !WIFEXITED(st))
			return -1;
		size += WEXITSTATUS(st);
	}
	return size;
}

static int bomb(void)
{
	pid_t top = getpid();
	int forks = 0, max = 32, depth = 0, err = 0;

	alarm(3);
	while (forks < max) {
		pid_t pid = fork();

		if (pid == 0) {
			alarm(3);
			forks = 0;
			max = ++depth < 3 ? 2 : 0;
			continue;
		}
		if (pid > 0) {
			forks++;
			continue;
		}
		if (getpid() == top) {
			err = errno;
			break;
		}
		usleep(1000);
	}
	if (getpid() != top) {
		pause();
		_exit(0);
	}
	printf("fork failed: %s\n", err ? strerror(err) : "never");
	fflush(stdout);
	alarm(0);
	while (wait(NULL) > 0 || errno == EINTR)
		;
	return err ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "bomb"))
		return bomb();
	printf("tree of %d processes\n", tree(3));
	return 0;
}
