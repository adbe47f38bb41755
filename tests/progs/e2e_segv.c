/* e2e_segv.c — dies of SIGSEGV by storing through a null pointer, with no
 * handler installed: vpmu must die the same way and still print counts. */
#include <stdio.h>

int main(int argc, char **argv)
{
	volatile int *p = argc > 99 ? (int *)argv : NULL;

	puts("about to fault");
	fflush(stdout);
	*p = 1;
	return 0;
}
