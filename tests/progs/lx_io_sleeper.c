/* Guest program: a thread waits on an empty pipe (select, poll, then a
 * plain read) while the only other thread sleeps 20 ms before writing to
 * it.  The wait must let the sleeper run: blocking the whole process in
 * the call would time the select and the poll out and hang the read. */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

static int fds[2];

static void *writer(void *arg)
{
	struct timespec d = { 0, 20000000 };

	(void)arg;
	nanosleep(&d, NULL);
	return (void *)(long)write(fds[1], "x", 1);
}

/* Drain the byte the writer left. */
static char take(void)
{
	char c = '?';

	return read(fds[0], &c, 1) == 1 ? c : '?';
}

int main(void)
{
	pthread_t t;
	fd_set rd;
	struct timeval tv = { 5, 0 };
	struct pollfd pf;
	void *r;

	if (pipe(fds))
		return 2;

	pthread_create(&t, NULL, writer, NULL);
	FD_ZERO(&rd);
	FD_SET(fds[0], &rd);
	int n = select(fds[0] + 1, &rd, NULL, NULL, &tv);
	printf("select: %d, set %d, %c\n", n, FD_ISSET(fds[0], &rd), take());
	pthread_join(t, &r);

	pthread_create(&t, NULL, writer, NULL);
	pf = (struct pollfd){ fds[0], POLLIN, 0 };
	n = poll(&pf, 1, 5000);
	printf("poll: %d, revents %d, %c\n", n, pf.revents, take());
	pthread_join(t, &r);

	pthread_create(&t, NULL, writer, NULL);
	printf("read: %c\n", take());
	pthread_join(t, &r);
	return 0;
}
