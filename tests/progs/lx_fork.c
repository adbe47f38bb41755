/* Guest program: fork and wait (exit codes, a child killed by a signal),
 * a pipe between parent and child, exec of /bin/echo, system(), a #!
 * script run through execve, and exec of a missing file.  Output is
 * deterministic (children finish before the parent prints). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static void report(const char *what, int st)
{
	if (WIFEXITED(st))
		printf("%s: exited %d\n", what, WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		printf("%s: killed by signal %d\n", what, WTERMSIG(st));
	else
		printf("%s: status %#x\n", what, st);
}

int main(void)
{
	int st, fds[2];
	pid_t pid;

	setvbuf(stdout, NULL, _IONBF, 0);

	pid = fork();
	if (pid == 0)
		_exit(7);
	waitpid(pid, &st, 0);
	report("fork", st);

	pid = fork();
	if (pid == 0) {
		raise(SIGTERM);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	report("fork+raise", st);

	if (pipe(fds))
		return 1;
	pid = fork();
	if (pid == 0) {
		const char msg[] = "through the pipe";

		close(fds[0]);
		if (write(fds[1], msg, sizeof(msg)) != sizeof(msg))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	char buf[64] = "";
	ssize_t n = read(fds[0], buf, sizeof(buf) - 1);
	waitpid(pid, &st, 0);
	printf("pipe: %zd bytes '%s'\n", n, buf);
	report("pipe child", st);

	pid = fork();
	if (pid == 0) {
		char *argv[] = { "echo", "exec", "of", "/bin/echo", NULL };

		execve("/bin/echo", argv, environ);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	report("exec echo", st);

	st = system("echo from system; exit 3");
	report("system", st);

	pid_t sp;
	char *sargv[] = { "true", NULL };
	int r = posix_spawnp(&sp, "true", NULL, NULL, sargv, environ);
	if (r == 0) {
		waitpid(sp, &st, 0);
		report("posix_spawn true", st);
	}

	/* a #! script: the kernel runs its interpreter */
	char script[] = "/tmp/lx_fork_script_XXXXXX";
	int fd = mkstemp(script);
	const char body[] =
		"#!/bin/sh -e\necho script says \"$0\" \"$1\" | sed 's|/tmp/[^ ]*|SCRIPT|'\n";
	if (fd < 0 || write(fd, body, strlen(body)) != (ssize_t)strlen(body))
		return 1;
	fchmod(fd, 0700);
	close(fd);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { script, "arg1", NULL };

		execve(script, argv, environ);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	unlink(script);
	report("script", st);

	char *margv[] = { "nope", NULL };
	r = execve("/nonexistent/program", margv, environ);
	printf("exec missing: %d %s\n", r, strerror(errno));
	r = execve("/etc/passwd", margv, environ);
	printf("exec non-executable: %d %s\n", r, strerror(errno));
	return 0;
}
