/* hd_spin.c — guests that never end by themselves, for --timeout and
 * signal tests.  Without an argument it does a short bounded run of each
 * shape and exits 0, so it also runs natively.
 *
 *   hd_spin loop      spin forever in one thread
 *   hd_spin fork      the child spins, the parent waits for it
 *   hd_spin threads   a second thread spins, the first joins it
 *   hd_spin blocked   every signal blocked, then read stdin forever
 *   hd_spin pause     wait for a signal forever
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

static void spin(unsigned long n)
{
	for (unsigned long i = 0; n == 0 || i < n; i++)
		sink += i;
}

static void *spinner(void *arg)
{
	spin((unsigned long)arg);
	return NULL;
}

static int run(const char *mode, unsigned long n)
{
	if (!strcmp(mode, "loop")) {
		spin(n);
	} else if (!strcmp(mode, "fork")) {
		pid_t pid = fork();
		int st;

		if (pid < 0)
			return 1;
		if (pid == 0) {
			spin(n);
			_exit(0);
		}
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
			return 1;
	} else if (!strcmp(mode, "threads")) {
		pthread_t th;

		if (pthread_create(&th, NULL, spinner, (void *)n))
			return 1;
		pthread_join(th, NULL);
	} else if (!strcmp(mode, "blocked")) {
		sigset_t all;
		char c;

		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, NULL);
		if (n)
			return 0;
		while (read(0, &c, 1) != 0)
			;
		pause();
	} else if (!strcmp(mode, "pause")) {
		if (!n)
			pause();
	} else {
		fprintf(stderr, "hd_spin: unknown mode %s\n", mode);
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const modes[] = { "loop", "fork", "threads", "blocked", "pause" };

	if (argc > 1)
		return run(argv[1], 0);
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		int r = run(modes[i], 100000);

		printf("%s: %d\n", modes[i], r);
		if (r)
			return r;
	}
	return 0;
}
