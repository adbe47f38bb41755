/* Guest program: a thread ends while the main thread sleeps 30 s.  Every
 * thread then waits, and a signal sent to the process (SIGTERM, from
 * timeout(1)) must still end the sleep: the ended thread's mask, which
 * glibc blocks everything in, is no one's. */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static void *quick(void *arg)
{
	return arg;
}

int main(void)
{
	struct timespec d = { 30, 0 };
	pthread_t t;

	if (pthread_create(&t, NULL, quick, NULL))
		return 1;
	nanosleep(&d, NULL);
	pthread_join(t, NULL);
	puts("slept 30 s");
	return 0;
}
