/* Unit tests for core/fmt.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/fmt.h"

static void test_count_groups(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(fmt_count(0, b, sizeof(b)), "0");
	assert_string_equal(fmt_count(999, b, sizeof(b)), "999");
	assert_string_equal(fmt_count(1000, b, sizeof(b)), "1,000");
	assert_string_equal(fmt_count(1234567, b, sizeof(b)), "1,234,567");
	assert_string_equal(fmt_count(UINT64_MAX, b, sizeof(b)), "18,446,744,073,709,551,615");
}

static void test_count_truncates(void **state)
{
	char b[6];

	(void)state;
	assert_string_equal(fmt_count(1234567, b, sizeof(b)), "1,234");
}

static void test_distance(void **state)
{
	(void)state;
	assert_int_equal(fmt_distance("stat", "stat"), 0);
	assert_int_equal(fmt_distance("stst", "stat"), 1);
	assert_int_equal(fmt_distance("sttat", "stat"), 1);
	assert_int_equal(fmt_distance("sat", "stat"), 1);
	assert_int_equal(fmt_distance("stta", "stat"), 1); /* transposition */
	assert_int_equal(fmt_distance("", "stat"), 4);
	assert_int_equal(fmt_distance("record", "report"), 2);
}

static void test_argv_join(void **state)
{
	char *argv[] = { "ls", "-l", "/tmp", NULL };
	char *empty[] = { NULL };
	char b[64], small[8];

	(void)state;
	assert_string_equal(fmt_argv(argv, b, sizeof(b)), "ls -l /tmp");
	assert_string_equal(fmt_argv(empty, b, sizeof(b)), "");
	assert_string_equal(fmt_argv(argv, small, sizeof(small)), "ls -...");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_groups),
		cmocka_unit_test(test_count_truncates),
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_argv_join),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
