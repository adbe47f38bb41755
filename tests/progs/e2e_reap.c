/* e2e_reap.c — two children whose ends come in one order on the emulated
 * clock and, as a rule, the other on the host's.
 *
 *   e2e_reap ROUNDS LOOPS [wait|poll|suspend|select|timed|sleep|spin|nested]
 *
 * Child a, forked first, touches each page of 64 MB and gives them back,
 * ROUNDS times: few instructions, much host time (the host's page
 * faults).  Child b makes LOOPS turns of a loop: many instructions,
 * little host time each.  The parent learns of their ends and prints
 * which came first, "a" or "b":
 *   wait     wait(2) for any child, twice;
 *   poll     waitpid(-1, WNOHANG) between short stretches of work, and
 *            how many polls each end took;
 *   suspend  sigsuspend(2) until a SIGCHLD, whose si_pid tells;
 *   select   the same, waiting in select(2) on a pipe its handler writes;
 *   timed    the same, each select(2) timing out after 100 µs, and how
 *            many timed out;
 *   sleep    the same, in nanosleep(2) for 100 µs at a time, and how many
 *            slept their time;
 *   spin     the same, spinning on the handler's flag, and the turns it
 *            took;
 *   nested   wait(2), where a and b each run the work in a child of
 *            their own and wait for it, as a shell runs a command. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t signalled;
static int wake_fd = -1; /* select mode: the handler writes here */

static void on_chld(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (!signalled)
		signalled = si->si_pid;
	if (wake_fd >= 0 && write(wake_fd, "c", 1) < 0)
		_exit(3);
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

/* Wait in sigsuspend (or, sel, in select(2) on a pipe the handler
 * writes to; timed, for 100 µs at a time, the times it timed out in
 * *timeouts; not sel but timed, in nanosleep(2)) until a SIGCHLD: its
 * child. */
static pid_t suspend_end(int sel, int timed, long *timeouts)
{
	struct sigaction sa;
	sigset_t chld, none;
	int fds[2];

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_chld;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	if (sel) {
		if (pipe(fds))
			return -1;
		wake_fd = fds[1];
	}
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&none);
	if (sel || timed)
		sigprocmask(SIG_SETMASK, &none, NULL);
	while (!signalled) {
		if (!sel && timed) {
			struct timespec ts = { 0, 100000 };
			if (!nanosleep(&ts, NULL))
				++*timeouts;
			continue;
		}
		if (!sel) {
			sigsuspend(&none);
			continue;
		}
		fd_set in;
		FD_ZERO(&in);
		FD_SET(fds[0], &in);
		struct timeval tv = { 0, 100 };
		if (!select(fds[0] + 1, &in, NULL, NULL, timed ? &tv : NULL))
			++*timeouts;
	}
	pid_t first = signalled;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	return first;
}

/* Spin until a SIGCHLD: its child, and the turns it took in *turns. */
static pid_t spin_end(long *turns)
{
	struct sigaction sa;
	sigset_t none;
	volatile long n = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_chld;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	while (!signalled)
		n++;
	*turns = n;
	return signalled;
}

/* Child a's work: touch each page of 64 MB, n times. */
static void touch_pages(long n)
{
	const size_t size = 64 << 20;
	char *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		_exit(2);
	for (long r = 0; r < n; r++) {
		for (size_t k = 0; k < size; k += 4096)
			m[k] = 1;
		madvise(m, size, MADV_DONTNEED);
	}
}

/* Child b's work: n turns of a loop. */
static void add_up(long n)
{
	volatile long x = 0;

	for (long k = 0; k < n; k++)
		x += k;
}

/* A child that does work(n), or (nested) that runs a child of its own to
 * do it and waits for it, as a shell runs a command. */
static pid_t spawn(int nested, void (*work)(long), long n)
{
	pid_t pid = fork();
	sigset_t chld;

	if (pid)
		return pid;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_UNBLOCK, &chld, NULL);
	if (nested) {
		pid_t w = fork();
		if (w < 0)
			_exit(2);
		if (w == 0) {
			work(n);
			_exit(0);
		}
		_exit(waitpid(w, NULL, 0) == w ? 0 : 2);
	}
	work(n);
	_exit(0);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr,
			"usage: e2e_reap ROUNDS LOOPS [wait|poll|suspend|select|timed|sleep|spin|nested]\n");
		return 2;
	}
	long rounds = atol(argv[1]), loops = atol(argv[2]), polls[2] = { 0, 0 };
	const char *how = argc > 3 ? argv[3] : "wait";
	sigset_t chld;
	/* (SIGCHLD blocked until suspend_end waits for it) */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	const int nested = !strcmp(how, "nested");
	pid_t a = spawn(nested, touch_pages, rounds), b = spawn(nested, add_up, loops);
	if (a < 0 || b < 0)
		return 2;
	pid_t first;
	if (!strcmp(how, "poll")) {
		first = poll_ends(polls);
	} else if (!strcmp(how, "spin")) {
		first = spin_end(&polls[0]);
		if (wait(NULL) < 0 || wait(NULL) < 0)
			return 2;
	} else if (!strcmp(how, "suspend") || !strcmp(how, "select") || !strcmp(how, "timed") ||
		   !strcmp(how, "sleep")) {
		first = suspend_end(!strcmp(how, "select") || !strcmp(how, "timed"),
				    !strcmp(how, "timed") || !strcmp(how, "sleep"), &polls[0]);
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
	if (!strcmp(how, "spin"))
		printf(" (after %ld turns)", polls[0]);
	if (!strcmp(how, "timed"))
		printf(" (after %ld timeouts)", polls[0]);
	if (!strcmp(how, "sleep"))
		printf(" (after %ld sleeps)", polls[0]);
	printf("\n");
	return 0;
}
