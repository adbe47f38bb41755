/* e2e_exit3.c — exits with status 3 after some output (exit status test). */
#include <stdio.h>

int main(void)
{
	puts("exiting with 3");
	return 3;
}
