/* recurse_nofp.c — recurse.c built without frame pointers, so only a
 * DWARF unwinder recovers its chains.  A call structure known in advance:
 * main -> rec_a -> rec_b -> rec_c -> rec_a ... (REC_DEPTH + 1 times round)
 * -> rec_leaf, where nearly all the time goes (the loop marked HOT).  So
 * almost every sample's chain is rec_leaf, then rec_c rec_b rec_a
 * repeated REC_DEPTH + 1 times, then main.  Keep the two files in step.
 * vpmu-cflags: -O1 -fomit-frame-pointer
 */
#include <stdio.h>

#define REC_DEPTH 3
#define REC_ROUNDS 20
#define REC_SPIN 50000

__attribute__((noinline)) unsigned rec_leaf(unsigned x)
{
	for (unsigned i = 0; i < REC_SPIN; i++)
		x = x * 1103515245u + 12345u + i; /* HOT */
	return x;
}

unsigned rec_a(int depth, unsigned x);

__attribute__((noinline)) unsigned rec_c(int depth, unsigned x)
{
	unsigned v = depth > 0 ? rec_a(depth - 1, x + 3) : rec_leaf(x);

	__asm__ volatile("" : "+r"(v)); /* work after the call: no tail call */
	return v ^ 3;
}

__attribute__((noinline)) unsigned rec_b(int depth, unsigned x)
{
	unsigned v = rec_c(depth, x + 2);

	__asm__ volatile("" : "+r"(v));
	return v ^ 2;
}

__attribute__((noinline)) unsigned rec_a(int depth, unsigned x)
{
	unsigned v = rec_b(depth, x + 1);

	__asm__ volatile("" : "+r"(v));
	return v ^ 1;
}

int main(void)
{
	unsigned h = 0;

	for (int r = 0; r < REC_ROUNDS; r++)
		h += rec_a(REC_DEPTH, (unsigned)r);
	printf("recurse %u\n", h);
	return 0;
}
