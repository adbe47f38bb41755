/* e2e_pipe.c [N [MAX]] — a child writes to a pipe while its parent reads
 * it.  The child makes N writes (default 64) of 1 to MAX bytes (default
 * 3000), computing a little before each; the parent reads with a 1 MB
 * buffer and prints how many reads it took and the bytes.  On Linux the
 * reads' sizes depend on how far the writer had got; under `vpmu stat
 * --vtime` each read returns one write, or a page of a larger one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 64, fd[2], st;
	long max = argc > 2 ? atol(argv[2]) : 3000;
	static char buf[1 << 20];
	long reads = 0, bytes = 0, r;

	if (n < 0 || n > 300 || max < 1 || max > (long)sizeof(buf) || pipe(fd))
		return 2;
	pid_t pid = fork();
	if (pid < 0)
		return 2;
	if (!pid) {
		close(fd[0]);
		for (int k = 0; k < n; k++) {
			volatile unsigned long x = 0;
			for (int i = 0; i < 2000 * (k % 7); i++)
				x += (unsigned long)i;
			size_t len = 1 + (size_t)(k * 977) % (size_t)max;
			for (size_t i = 0; i < len; i++)
				buf[i] = (char)('a' + (k + i) % 26);
			if (write(fd[1], buf, len) != (ssize_t)len)
				_exit(3);
		}
		_exit(0);
	}
	close(fd[1]);
	while ((r = read(fd[0], buf, sizeof(buf))) > 0) {
		reads++;
		bytes += r;
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return 4;
	printf("reads %ld, bytes %ld\n", reads, bytes);
	return 0;
}
