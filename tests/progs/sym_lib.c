/* sym_lib.c — a shared library for the symbol tests, and a program that
 * uses the same code.  tests/e2e/run-symbols.sh builds it with
 * `-shared -fPIC -DSYM_LIB_SHARED` into libsymlib.so and looks its
 * functions up at a non-zero load bias; built as a test program (no
 * define) main() calls them directly. */
#include <stdio.h>

int lib_counter = 3;
const char lib_greeting[] = "symbols in a library";

static inline __attribute__((always_inline)) int lib_square(int x)
{
	return x * x; /* LIBSQ */
}

__attribute__((noinline)) int lib_sum_squares(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += lib_square(i + lib_counter); /* LIBHOT */
	return s;
}

__attribute__((noinline)) const char *lib_name(void)
{
	return lib_greeting;
}

#ifndef SYM_LIB_SHARED
int main(void)
{
	printf("%s: %d\n", lib_name(), lib_sum_squares(1000));
	return 0;
}
#endif
