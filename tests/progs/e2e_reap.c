/* e2e_reap.c — two children whose ends come in one order on the emulated
 * clock and, as a rule, the other on the host's.
 *
 *   e2e_reap ROUNDS LOOPS [wait|poll|suspend]
 *
 * Child a, forked first, touches each page of 64 MB and gives them back,
 * ROUNDS times: few instructions, much host time (the host's page
 * faults).  Child b makes LOOPS turns of a loop: many instructions,
 * little host time each.  The parent learns of their ends and prints
 * which came first, "a" or "b":
 *   wait     wait(2) for any child, twice;
 *   poll     waitpid(-1, WNOHANG) between short stretches of work, and
 *            how many polls each end took;
 *   suspend  sigsuspend(2) until a SIGCHLD, whose si_pid tells. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t signalled;

static void on_chld(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (!signalled)
		signalled = si->si_pid;
}

/* Poll for both ends: the first to come, and the polls each took. */
static pid_t poll_ends(long *polls)
{
	pid_t first = 0;
	long n = 0;

	for (int got = 0; got < 2; n++) {
		pid_t r = waitpid(-1, NULL, WNOHANG);
		if (r < 0)
			return -1;
		if (r > 0) {
			polls[got++] = n;
			if (!first)
				first = r;
			continue;
		}
		for (volatile int k = 0; k < 1000; k++)
			;
	}
	return first;
}

/* Wait in sigsuspend until a SIGCHLD: its child. */
static pid_t suspend_end(void)
{
	struct sigaction sa;
	sigset_t chld, none;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_chld;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&none);
	while (!signalled)
		sigsuspend(&none);
	pid_t first = signalled;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	return first;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: e2e_reap ROUNDS LOOPS [wait|poll|suspend]\n");
		return 2;
	}
	long rounds = atol(argv[1]), loops = atol(argv[2]), polls[2] = { 0, 0 };
	const char *how = argc > 3 ? argv[3] : "wait";
	sigset_t chld;
	/* (SIGCHLD blocked until suspend_end waits for it) */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	const size_t size = 64 << 20;
	pid_t a = fork();
	if (a == 0) {
		sigprocmask(SIG_UNBLOCK, &chld, NULL);
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
		sigprocmask(SIG_UNBLOCK, &chld, NULL);
		volatile long x = 0;
		for (long k = 0; k < loops; k++)
			x += k;
		_exit(0);
	}
	if (a < 0 || b < 0)
		return 2;
	pid_t first;
	if (!strcmp(how, "poll")) {
		first = poll_ends(polls);
	} else if (!strcmp(how, "suspend")) {
		first = suspend_end();
		if (wait(NULL) < 0 || wait(NULL) < 0)
			return 2;
	} else {
		first = wait(NULL);
		if (wait(NULL) < 0)
			return 2;
	}
	if (first <= 0)
		return 2;
	printf("first: %s", first == a ? "a" : "b");
	if (!strcmp(how, "poll"))
		printf(" (polls: %ld, %ld)", polls[0], polls[1]);
	printf("\n");
	return 0;
}
