/* Guest program: a null pointer store with no handler installed.  Natively
 * the process dies of SIGSEGV after printing one line; under vpmu too. */
#include <stdint.h>
#include <stdio.h>

int main(void)
{
	volatile uintptr_t where = 0;

	puts("about to fault");
	fflush(stdout);
	*(volatile int *)where = 42;
	puts("not reached");
	return 0;
}
