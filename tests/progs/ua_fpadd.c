/* ua_fpadd.c — floating-point add latency and throughput (seed 004's
 * fp_add_latency benchmark).
 *
 *   ua_fpadd dep|indep ITERATIONS [THREADS [SLEEP_US|signal]]
 *
 * dep: each iteration is 16 serially dependent addsd; indep: 16 addsd into
 * 8 independent accumulators.  THREADS (1 or 2) copies run concurrently
 * (two logical processors with vpmu stat --smt); the second sleeps
 * SLEEP_US microseconds first, or (signal) waits on a semaphore until the
 * main thread, its own adds done, interrupts it with SIGUSR1 (or a second
 * has passed). */
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int indep;
static long iters, sleep_us;
static int second; /* the address run() is given in the second thread */
static int by_signal;
static sem_t never; /* (posted by no one) */

static void on_usr1(int sig)
{
	(void)sig;
}

static void *run(void *arg)
{
	long n = iters;
	if (arg == &second && sleep_us) {
		struct timespec ts = { sleep_us / 1000000, sleep_us % 1000000 * 1000 };
		nanosleep(&ts, NULL);
	}
	if (arg == &second && by_signal) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec++;
		sem_timedwait(&never, &ts); /* EINTR at the signal */
	}
	if (!indep) {
		__asm__ volatile("xorpd %%xmm0, %%xmm0\n\t"
				 "xorpd %%xmm1, %%xmm1\n\t"
				 "1:\n\t"
				 ".rept 16\n\taddsd %%xmm1, %%xmm0\n\t.endr\n\t"
				 "dec %0\n\t"
				 "jnz 1b"
				 : "+r"(n)
				 :
				 : "cc", "xmm0", "xmm1");
	} else {
		/* (the accumulators start at zero: what the registers held
		 * before may be denormal, and each add would need an assist) */
		__asm__ volatile("xorpd %%xmm0, %%xmm0\n\t"
				 "xorpd %%xmm1, %%xmm1\n\txorpd %%xmm2, %%xmm2\n\t"
				 "xorpd %%xmm3, %%xmm3\n\txorpd %%xmm4, %%xmm4\n\t"
				 "xorpd %%xmm5, %%xmm5\n\txorpd %%xmm6, %%xmm6\n\t"
				 "xorpd %%xmm7, %%xmm7\n\txorpd %%xmm8, %%xmm8\n\t"
				 "1:\n\t"
				 ".rept 2\n\t"
				 "addsd %%xmm0, %%xmm1\n\taddsd %%xmm0, %%xmm2\n\t"
				 "addsd %%xmm0, %%xmm3\n\taddsd %%xmm0, %%xmm4\n\t"
				 "addsd %%xmm0, %%xmm5\n\taddsd %%xmm0, %%xmm6\n\t"
				 "addsd %%xmm0, %%xmm7\n\taddsd %%xmm0, %%xmm8\n\t"
				 ".endr\n\t"
				 "dec %0\n\t"
				 "jnz 1b"
				 : "+r"(n)
				 :
				 : "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
				   "xmm7", "xmm8");
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 3 || (strcmp(argv[1], "dep") && strcmp(argv[1], "indep"))) {
		fprintf(stderr,
			"usage: ua_fpadd dep|indep ITERATIONS [THREADS [SLEEP_US|signal]]\n");
		return 2;
	}
	indep = !strcmp(argv[1], "indep");
	iters = strtol(argv[2], NULL, 0);
	int threads = argc > 3 ? atoi(argv[3]) : 1;
	by_signal = argc > 4 && !strcmp(argv[4], "signal");
	sleep_us = argc > 4 && !by_signal ? strtol(argv[4], NULL, 0) : 0;
	if (by_signal) {
		struct sigaction sa = { .sa_handler = on_usr1 }; /* (no SA_RESTART) */
		sem_init(&never, 0, 0);
		sigaction(SIGUSR1, &sa, NULL);
	}
	pthread_t t;
	if (threads > 1 && pthread_create(&t, NULL, run, &second))
		return 2;
	run(NULL);
	if (threads > 1 && by_signal)
		pthread_kill(t, SIGUSR1);
	if (threads > 1)
		pthread_join(t, NULL);
	return 0;
}
