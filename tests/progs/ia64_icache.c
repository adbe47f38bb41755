/* ia64_icache.c — a chain of 256 functions of about 160 bytes each, 40 KB
 * of code run in a loop: more than the 16 KB L1 instruction cache of the
 * Itanium 2 model holds, so every pass misses it line after line (the
 * instruction EAR's test program).  argv[1]: passes (default 200). */
#include <stdlib.h>

static volatile unsigned long sink;

#define BODY        \
	sink += 1;  \
	sink ^= 3;  \
	sink += 5;  \
	sink ^= 7;  \
	sink += 11; \
	sink ^= 13; \
	sink += 17; \
	sink ^= 19
#define F(n)                                                            \
	__attribute__((noinline)) static void f##n(void)                \
	{                                                               \
		BODY;                                                   \
		sink ^= 0x##n; /* every body differs: none is folded */ \
	}
#define F4(n) F(n##0) F(n##1) F(n##2) F(n##3)
#define F16(n) F4(n##0) F4(n##1) F4(n##2) F4(n##3)
#define F64(n) F16(n##0) F16(n##1) F16(n##2) F16(n##3)
F64(0)
F64(1)
F64(2)
F64(3)

#define C(n) f##n();
#define C4(n) C(n##0) C(n##1) C(n##2) C(n##3)
#define C16(n) C4(n##0) C4(n##1) C4(n##2) C4(n##3)
#define C64(n) C16(n##0) C16(n##1) C16(n##2) C16(n##3)

__attribute__((noinline)) static void pass(void)
{
	C64(0) C64(1) C64(2) C64(3)
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200;

	for (long k = 0; k < n; k++)
		pass();
	return (int)(sink & 1);
}
