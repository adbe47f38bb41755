/* ua_assist.c — floating-point operations that need a microcode assist on
 * the P4, and the same operations without one.
 *
 *   ua_assist MODE ITERATIONS
 *
 * Each iteration runs one operation of MODE:
 *   normal     addsd of two normal numbers (no assist)
 *   sse-in     addsd with a denormal source
 *   sse-out    mulsd of two normal numbers with a denormal product
 *   sse-daz    sse-in with MXCSR.DAZ set (no assist)
 *   sse-ftz    sse-out with MXCSR.FTZ set (no assist)
 *   x87-in     fldl of a denormal double
 *   x87-stack  fadd reading an empty register (a stack underflow)
 *   sse-in16   16 dependent addsd with a denormal source, in one block
 *   sse-cmp    ucomisd of a denormal and a normal number
 *   sse-cvt    cvtsd2ss of a double whose single is denormal
 * and prints the last result's bits, so a native run can be compared
 * (printing a denormal as a number would take assists of its own). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double tiny = 4.9406564584124654e-324; /* the least denormal */
static const double small = 1e-300, smaller = 1e-10, one = 1.0, below_float = 1e-40;

static void set_mxcsr(unsigned v)
{
	__asm__ volatile("ldmxcsr %0" : : "m"(v));
}

/* n additions of b to a, each a fresh (independent) addsd */
static double adds(long n, double a, double b)
{
	double r = 0;
	for (long k = 0; k < n; k++)
		__asm__ volatile("movsd %1, %0\n\taddsd %2, %0" : "=&x"(r) : "x"(a), "x"(b));
	return r;
}

static double adds16(long n, double a, double b)
{
	for (long k = 0; k < n; k++)
		__asm__ volatile(".rept 16\n\taddsd %1, %0\n\t.endr" : "+x"(a) : "x"(b));
	return a;
}

static double muls(long n, double a, double b)
{
	double r = 0;
	for (long k = 0; k < n; k++)
		__asm__ volatile("movsd %1, %0\n\tmulsd %2, %0" : "=&x"(r) : "x"(a), "x"(b));
	return r;
}

/* n compares of a with b: how many found a below b */
static double compares(long n, double a, double b)
{
	long below = 0;
	for (long k = 0; k < n; k++) {
		unsigned char cf;
		__asm__ volatile("ucomisd %2, %1\n\tsetb %0" : "=r"(cf) : "x"(a), "x"(b) : "cc");
		below += cf;
	}
	return (double)below;
}

/* n conversions of a to single precision: the last one's bits (widening
 * the denormal single to print it would take an input assist) */
static double narrows(long n, double a)
{
	float r = 0;
	uint32_t bits;
	for (long k = 0; k < n; k++)
		__asm__ volatile("cvtsd2ss %1, %0" : "=x"(r) : "x"(a));
	memcpy(&bits, &r, sizeof(bits));
	return bits;
}

static double x87_loads(long n, const double *p)
{
	double r = 0;
	for (long k = 0; k < n; k++)
		__asm__ volatile("fldl %1\n\tfstpl %0" : "=m"(r) : "m"(*p));
	return r;
}

/* fadd %st(1), %st with only one value on the stack: ST(1) is empty, so
 * the (masked) stack underflow leaves the indefinite in ST(0) */
static double x87_underflows(long n)
{
	double r = 0;
	for (long k = 0; k < n; k++)
		__asm__ volatile("fld1\n\tfadd %%st(1), %%st\n\tfstpl %0" : "=m"(r));
	return r;
}

int main(int argc, char **argv)
{
	static const char *const modes[] = { "normal",	"sse-in", "sse-out",   "sse-daz",
					     "sse-ftz", "x87-in", "x87-stack", "sse-in16",
					     "sse-cmp", "sse-cvt" };
	int m = -1;
	long n;
	double r;
	uint64_t bits;

	for (int k = 0; argc == 3 && k < (int)(sizeof(modes) / sizeof(modes[0])); k++)
		if (!strcmp(argv[1], modes[k]))
			m = k;
	if (m < 0) {
		fprintf(stderr, "usage: ua_assist normal|sse-in|sse-out|sse-daz|sse-ftz|x87-in|"
				"x87-stack|sse-in16|sse-cmp|sse-cvt ITERATIONS\n");
		return 2;
	}
	n = strtol(argv[2], NULL, 0);
	switch (m) {
	case 0:
		r = adds(n, one, small);
		break;
	case 1:
		r = adds(n, one, tiny);
		break;
	case 2:
		r = muls(n, small, smaller);
		break;
	case 3:
		set_mxcsr(0x1f80 | 0x40);
		r = adds(n, one, tiny);
		set_mxcsr(0x1f80);
		break;
	case 4:
		set_mxcsr(0x1f80 | 0x8000);
		r = muls(n, small, smaller);
		set_mxcsr(0x1f80);
		break;
	case 5:
		r = x87_loads(n, &tiny);
		break;
	case 6:
		r = x87_underflows(n);
		break;
	case 7:
		r = adds16(n, one, tiny);
		break;
	case 8:
		r = compares(n, tiny, one);
		break;
	default:
		r = narrows(n, below_float);
		break;
	}
	memcpy(&bits, &r, sizeof(bits));
	printf("%s %ld: %016llx\n", modes[m], n, (unsigned long long)bits);
	return 0;
}
