/* Unit tests for emu/linux/task_stat.c and the task paths of
 * cpus_proc.c: a task's stat line tells its logical processor, and under
 * --vtime the emulated times, start and no page faults; the rest stays
 * the host's, a command name with spaces and parentheses included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "emu/linux/lx_proc.h"

/* A host's line: fields 3 to 52, each its own number but for the state,
 * so that a moved field shows; the command name "a) (b". */
static void host_line(char *buf, size_t n)
{
	size_t len = (size_t)snprintf(buf, n, "42 (a) (b) S");

	for (int k = 4; k <= 52; k++)
		len += (size_t)snprintf(buf + len, n - len, " %d", 1000 + k);
	snprintf(buf + len, n - len, "\n");
}

/* Field k (1-based) of a stat line. */
static long field(const char *line, int k)
{
	const char *s = strrchr(line, ')') + 1;
	long v = -1;

	for (int i = 3; i <= k && s; i++, s = strchr(s + 1, ' '))
		if (i == k)
			sscanf(s, " %ld", &v);
	return v;
}

static void test_processor_only(void **state)
{
	char host[1024], buf[1024];
	struct lx_stat_fields v = { .processor = 1 };
	struct lx_stat_fields keep = { .has_start = 1, .processor = -1 };
	(void)state;
	host_line(host, sizeof(host));
	assert_true(lx_task_stat(host, &v, buf, sizeof(buf)) == strlen(buf));
	assert_int_equal(strncmp(buf, "42 (a) (b) S 1004 ", 18), 0);
	assert_int_equal(field(buf, 39), 1);
	assert_int_equal(field(buf, 14), 1014);
	assert_int_equal(field(buf, 22), 1022);
	assert_int_equal(field(buf, 52), 1052);
	assert_int_equal(buf[strlen(buf) - 1], '\n');
	assert_int_equal(strlen(buf), strlen(host) - 3);
	/* a process not of the run under --vtime: its start alone */
	assert_true(lx_task_stat(host, &keep, buf, sizeof(buf)) > 0);
	assert_int_equal(field(buf, 22), 0);
	assert_int_equal(field(buf, 14), 1014);
	assert_int_equal(field(buf, 39), 1039);
}

static void test_vtime_fields(void **state)
{
	char host[1024], buf[1024];
	struct lx_stat_fields v = { 1, 1, 0, 13, 4, 17 };
	(void)state;
	host_line(host, sizeof(host));
	assert_true(lx_task_stat(host, &v, buf, sizeof(buf)) > 0);
	for (int k = 10; k <= 13; k++)
		assert_int_equal(field(buf, k), 0);
	assert_int_equal(field(buf, 14), 13);
	assert_int_equal(field(buf, 15), 0);
	assert_int_equal(field(buf, 16), 4);
	assert_int_equal(field(buf, 17), 0);
	assert_int_equal(field(buf, 18), 1018);
	assert_int_equal(field(buf, 22), 17);
	assert_int_equal(field(buf, 23), 1023);
	assert_int_equal(field(buf, 39), 0);
	/* too small a buffer, no line at all: nothing */
	assert_int_equal(lx_task_stat(host, &v, buf, 40), 0);
	assert_int_equal(lx_task_stat("garbage", &v, buf, sizeof(buf)), 0);
}

static void test_task_paths(void **state)
{
	long pid, tid;
	(void)state;
	assert_true(lx_task_path("/proc/self/stat", "stat", &pid, &tid));
	assert_true(pid == 0 && tid == -1);
	assert_true(lx_task_path("/proc/thread-self/stat", "stat", &pid, &tid));
	assert_true(pid == 0 && tid == 0);
	assert_true(lx_task_path("/proc/123/task/125/status", "status", &pid, &tid));
	assert_true(pid == 123 && tid == 125);
	assert_true(lx_task_path("/proc/self/task/7/stat", "stat", &pid, &tid));
	assert_true(pid == 0 && tid == 7);
	assert_false(lx_task_path("/proc/stat", "stat", &pid, &tid));
	assert_false(lx_task_path("/proc/self/statm", "stat", &pid, &tid));
	assert_false(lx_task_path("/proc/self/task/7/status", "stat", &pid, &tid));
	assert_false(lx_task_path("/proc/12x/stat", "stat", &pid, &tid));
	assert_false(lx_task_path("/sys/self/stat", "stat", &pid, &tid));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_processor_only),
		cmocka_unit_test(test_vtime_fields),
		cmocka_unit_test(test_task_paths),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
