/* ua_l1miss.c — a steady stream of independent loads that all miss the
 * first-level data cache (seed 004's l1_miss benchmark).
 *
 *   ua_l1miss BYTES PASSES [THREADS] [STRIDE]
 *
 * Each copy sweeps its own BYTES-sized array PASSES times, one load per
 * STRIDE bytes (default 64, one L1 line), the loads independent of each
 * other.  THREADS (1 or 2) copies run concurrently. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static size_t bytes, stride = 64;
static long passes;

static void *run(void *arg)
{
	char *a = arg;
	for (long p = 0; p < passes; p++) {
		char *q = a, *end = a + bytes;
		__asm__ volatile("1:\n\t"
				 "mov (%0), %%eax\n\t"
				 "add %2, %0\n\t"
				 "cmp %1, %0\n\t"
				 "jb 1b"
				 : "+r"(q)
				 : "r"(end), "r"(stride)
				 : "cc", "eax", "memory");
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: ua_l1miss BYTES PASSES [THREADS] [STRIDE]\n");
		return 2;
	}
	bytes = strtoull(argv[1], NULL, 0);
	passes = strtol(argv[2], NULL, 0);
	int threads = argc > 3 ? atoi(argv[3]) : 1;
	if (argc > 4)
		stride = strtoull(argv[4], NULL, 0);
	char *a = aligned_alloc(4096, bytes), *b = threads > 1 ? aligned_alloc(4096, bytes) : NULL;
	if (!a || (threads > 1 && !b))
		return 2;
	for (size_t i = 0; i < bytes; i += 4096) {
		a[i] = 1;
		if (b)
			b[i] = 1;
	}
	pthread_t t;
	if (threads > 1 && pthread_create(&t, NULL, run, b))
		return 2;
	run(a);
	if (threads > 1)
		pthread_join(t, NULL);
	return 0;
}
