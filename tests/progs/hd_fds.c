/* hd_fds.c — a program that closes and dups over its standard output and
 * error, closes every other descriptor, and still works as natively:
 * writes to a closed descriptor fail with EBADF, a dup restores output,
 * a child forked after close_range still runs.  Reports go through a
 * saved copy of stdout.  `hd_fds segv` then faults with stderr closed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_close_range
#define SYS_close_range 436
#endif

static int out = -1;

static void say(const char *what, long r)
{
	dprintf(out, "%s: %ld%s%s\n", what, r, r < 0 ? " " : "",
		r < 0 ? strerrorname_np(errno) : "");
}

int main(int argc, char **argv)
{
	pid_t pid;
	int st;

	out = fcntl(1, F_DUPFD_CLOEXEC, 10);
	if (out < 0)
		return 1;
	say("close stdout", close(1));
	say("write stdout", write(1, "x", 1));
	say("dup2 /dev/null over stderr", dup2(open("/dev/null", O_WRONLY), 2));
	say("write stderr", write(2, "into the void\n", 14));
	say("close stderr", close(2));
	say("write stderr", write(2, "x", 1));
	/* everything but the saved stdout */
	say("close_range", syscall(SYS_close_range, 3, out - 1, 0));
	say("close_range", syscall(SYS_close_range, out + 1, ~0u, 0));
	pid = fork();
	if (pid == 0)
		_exit(7);
	say("child", waitpid(pid, &st, 0) == pid && WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	say("dup2 back to stdout", dup2(out, 1));
	printf("stdout works again\n");
	fflush(stdout);
	if (argc > 1 && !strcmp(argv[1], "segv")) {
		int *volatile bad = (int *)16;

		*bad = 1;
	}
	return 0;
}
