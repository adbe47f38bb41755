/* Guest program: loops a number of times taken from the AT_RANDOM bytes
 * the kernel (here vpmu, from --seed) gives it, so its counts depend on
 * the seed and on nothing else. */
#include <stdio.h>
#include <sys/auxv.h>

int main(void)
{
	const unsigned char *r = (const unsigned char *)getauxval(AT_RANDOM);
	volatile unsigned long sink = 0;
	unsigned long n = 10000 + (r ? r[0] * 256ul + r[1] : 0);

	for (unsigned long k = 0; k < n; k++)
		sink += k;
	printf("%lu\n", n);
	return 0;
}
