/* ua_pingpong.c — two threads hand a turn back and forth through one
 * shared word, each spinning on it until the turn is its own, then
 * working WORK iterations of a loop before handing it over: under vpmu
 * stat --smt, each hand-over writes the line the other processor's
 * spinning loads have in flight (memory-ordering clears), unless the
 * spin loop has PAUSE in it.
 *
 *   ua_pingpong pause|nopause ROUNDS [WORK] */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile int turn;
static long rounds, work;
static int use_pause;

static void *run(void *arg)
{
	int me = (int)(long)arg;

	for (long k = 0; k < rounds; k++) {
		if (use_pause)
			while (turn != me)
				__asm__ volatile("pause");
		else
			while (turn != me)
				;
		for (long j = 0; j < work; j++)
			__asm__ volatile("" : : "r"(j));
		turn = !me;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc < 3 || argc > 4 || (strcmp(argv[1], "pause") && strcmp(argv[1], "nopause"))) {
		fprintf(stderr, "usage: ua_pingpong pause|nopause ROUNDS [WORK]\n");
		return 2;
	}
	use_pause = !strcmp(argv[1], "pause");
	rounds = strtol(argv[2], NULL, 0);
	work = argc > 3 ? strtol(argv[3], NULL, 0) : 0;
	if (pthread_create(&t, NULL, run, (void *)1L))
		return 1;
	run((void *)0L);
	pthread_join(t, NULL);
	printf("%ld rounds, turn %d\n", rounds, turn);
	return 0;
}
