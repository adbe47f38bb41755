/* Unit tests for emu/uarch/mem.c: the C heap by default; with an arena,
 * aligned zeroed allocations inside it, NULL once it is full, frees that
 * keep its memory; a whole model built in an arena lies inside it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "emu/uarch/mem.h"
#include "emu/uarch/model.h"

#define SZ (64u << 20)

static struct uarch_arena *arena(void)
{
	void *m = mmap(NULL, SZ, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct uarch_arena *a = m == MAP_FAILED ? NULL : m;

	if (a) {
		a->size = SZ;
		a->used = 100; /* the caller's own bytes after the head */
	}
	return a;
}

static int inside(const struct uarch_arena *a, const void *p, size_t n)
{
	return (const char *)p >= (const char *)a + 100 &&
	       (const char *)p + n <= (const char *)a + a->size;
}

static void test_heap_by_default(void **state)
{
	char *p = uarch_calloc(10, 10);

	(void)state;
	assert_non_null(p);
	for (int i = 0; i < 100; i++)
		assert_int_equal(p[i], 0);
	uarch_mfree(p);
}

static void test_arena(void **state)
{
	struct uarch_arena *a = arena();
	char *p, *q;

	(void)state;
	assert_non_null(a);
	uarch_mem_arena(a);
	p = uarch_malloc(1);
	q = uarch_calloc(3, 1000);
	assert_non_null(p);
	assert_non_null(q);
	assert_true(inside(a, p, 1) && inside(a, q, 3000));
	assert_int_equal((uintptr_t)p % 64, 0);
	assert_int_equal((uintptr_t)q % 64, 0);
	assert_true(q >= p + 64); /* no overlap */
	for (int i = 0; i < 3000; i++)
		assert_int_equal(q[i], 0);
	uarch_mfree(q); /* kept: the next allocation is further on */
	assert_true((char *)uarch_malloc(8) > q);
	assert_null(uarch_malloc(SZ)); /* does not fit */
	assert_null(uarch_calloc(SIZE_MAX / 2, 4));
	uarch_mem_arena(NULL);
	p = uarch_malloc(16);
	assert_false((char *)p >= (char *)a && (char *)p < (char *)a + SZ);
	uarch_mfree(p);
	munmap(a, SZ);
}

static void test_model_in_arena(void **state)
{
	struct uarch_arena *a = arena();
	const struct uarch_machine *m = uarch_machine_find("p4");
	struct uarch_counts cnt;
	struct uarch *u;
	uint64_t before;

	(void)state;
	assert_non_null(a);
	assert_non_null(m);
	memset(&cnt, 0, sizeof(cnt));
	uarch_mem_arena(a);
	before = a->used;
	u = uarch_new(m, &cnt, 1);
	assert_non_null(u);
	assert_true(inside(a, u, 1));
	assert_true(a->used > before + 100000); /* caches and predictors too */
	uarch_free(u);
	uarch_mem_arena(NULL);
	munmap(a, SZ);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_heap_by_default),
		cmocka_unit_test(test_arena),
		cmocka_unit_test(test_model_in_arena),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
