/* Guest program: threads that meet through blocking syscalls rather than
 * futexes — the main thread polls and reads a pipe a second thread fills,
 * and waits for a child while another thread runs.  Under an emulator that
 * runs every guest thread on one host thread this must not hang. */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static int fds[2];

static void *writer(void *arg)
{
	(void)arg;
	for (int i = 0; i < 5; i++) {
		char c = (char)('a' + i);

		if (write(fds[1], &c, 1) != 1)
			break;
	}
	close(fds[1]);
	return NULL;
}

static void *spinner(void *arg)
{
	volatile long n = 0;

	(void)arg;
	for (long i = 0; i < 200000; i++)
		n += i;
	return NULL;
}

int main(void)
{
	pthread_t t;
	char buf[16];
	int n = 0, st;
	struct pollfd pf;
	pid_t pid;

	if (pipe(fds))
		return 1;
	pthread_create(&t, NULL, writer, NULL);
	pf.fd = fds[0];
	pf.events = POLLIN;
	poll(&pf, 1, -1);
	while (n < (int)sizeof(buf) - 1 && read(fds[0], buf + n, 1) == 1)
		n++;
	buf[n] = 0;
	pthread_join(t, NULL);

	pid = fork();
	if (pid == 0) {
		usleep(1000);
		_exit(5);
	}
	pthread_create(&t, NULL, spinner, NULL);
	waitpid(pid, &st, 0);
	pthread_join(t, NULL);
	printf("read %d bytes '%s', child exited %d\n", n, buf, WEXITSTATUS(st));
	return 0;
}
