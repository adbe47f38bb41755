/* e2e_sleep.c — prints its pid, then sleeps N seconds (default 20) unless a
 * signal ends it first (signal forwarding test). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20;

	printf("sleeping\n");
	fflush(stdout);
	while (n > 0)
		n = (int)sleep((unsigned)n);
	return 0;
}
