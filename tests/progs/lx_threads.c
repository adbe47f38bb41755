/* Guest program: four threads sum disjoint ranges under a mutex, a
 * condition variable hands out a "go" signal, and the main thread joins
 * them.  Output is deterministic. */
#include <pthread.h>
#include <stdio.h>

#define NTHREADS 4
#define PER 250000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int go;
static long long total;
static int finished;

static void *worker(void *arg)
{
	long id = (long)arg;
	long long sum = 0;

	pthread_mutex_lock(&lock);
	while (!go)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	for (long i = id * PER; i < (id + 1) * PER; i++)
		sum += i;
	pthread_mutex_lock(&lock);
	total += sum;
	finished++;
	pthread_mutex_unlock(&lock);
	return (void *)(sum & 0xffff);
}

int main(void)
{
	pthread_t t[NTHREADS];
	long partial = 0;

	for (long i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i)) {
			puts("pthread_create failed");
			return 1;
		}
	pthread_mutex_lock(&lock);
	go = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < NTHREADS; i++) {
		void *r;

		pthread_join(t[i], &r);
		partial += (long)r;
	}
	printf("threads %d finished %d total %lld partial %ld\n", NTHREADS, finished, total,
	       partial);
	return 0;
}
