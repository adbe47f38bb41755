/* e2e_reap.c — two children whose ends come in one order on the emulated
 * clock and, as a rule, the other on the host's.
 *
 *   e2e_reap ROUNDS LOOPS
 *
 * Child a, forked first, touches each page of 64 MB and gives them back,
 * ROUNDS times: few instructions, much host time (the host's page
 * faults).  Child b makes LOOPS turns of a loop: many instructions,
 * little host time each.  The parent waits for any child
 * twice and prints which ended first, "a" or "b". */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: e2e_reap ROUNDS LOOPS\n");
		return 2;
	}
	long rounds = atol(argv[1]), loops = atol(argv[2]);
	const size_t size = 64 << 20;
	pid_t a = fork();
	if (a == 0) {
		char *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			       0);
		if (m == MAP_FAILED)
			_exit(2);
		for (long r = 0; r < rounds; r++) {
			for (size_t k = 0; k < size; k += 4096)
				m[k] = 1;
			madvise(m, size, MADV_DONTNEED);
		}
		_exit(0);
	}
	pid_t b = fork();
	if (b == 0) {
		volatile long x = 0;
		for (long k = 0; k < loops; k++)
			x += k;
		_exit(0);
	}
	if (a < 0 || b < 0)
		return 2;
	pid_t first = wait(NULL), second = wait(NULL);
	if (second < 0)
		return 2;
	printf("first: %s\n", first == a ? "a" : "b");
	return 0;
}
