/* Unit tests for core/session.c: program resolution and exit statuses. */
#define _GNU_SOURCE
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/session.h"

struct dirs {
	char root[64], a[96], b[96];
	char *path; /* PATH before the tests */
};

static void touch(const char *path, mode_t mode)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs("#!/bin/sh\n", f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

/* root/a/tool (not executable), root/b/tool (executable), root/a/dir/ */
static int setup(void **state)
{
	static struct dirs d;
	char p[160];

	snprintf(d.root, sizeof(d.root), "/tmp/vpmu-test-XXXXXX");
	if (!mkdtemp(d.root))
		return -1;
	snprintf(d.a, sizeof(d.a), "%s/a", d.root);
	snprintf(d.b, sizeof(d.b), "%s/b", d.root);
	mkdir(d.a, 0755);
	mkdir(d.b, 0755);
	snprintf(p, sizeof(p), "%s/tool", d.a);
	touch(p, 0644);
	snprintf(p, sizeof(p), "%s/tool", d.b);
	touch(p, 0755);
	snprintf(p, sizeof(p), "%s/only", d.a);
	touch(p, 0644);
	snprintf(p, sizeof(p), "%s/dir", d.a);
	mkdir(p, 0755);
	d.path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	*state = &d;
	return 0;
}

static int teardown(void **state)
{
	struct dirs *d = *state;
	char cmd[128];

	setenv("PATH", d->path, 1);
	free(d->path);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d->root);
	return system(cmd) == 0 ? 0 : -1;
}

static void set_path(const struct dirs *d)
{
	char path[256];

	snprintf(path, sizeof(path), "%s:%s", d->a, d->b);
	setenv("PATH", path, 1);
}

static void test_path_search_skips_non_executable(void **state)
{
	struct dirs *d = *state;
	char out[PATH_MAX], msg[256], want[PATH_MAX];

	set_path(d);
	assert_int_equal(session_resolve("tool", out, sizeof(out), msg, sizeof(msg)), 0);
	snprintf(want, sizeof(want), "%s/tool", d->b);
	assert_string_equal(out, want);
}

static void test_path_search_permission_denied(void **state)
{
	struct dirs *d = *state;
	char out[PATH_MAX], msg[256];

	set_path(d);
	/* even root needs an x bit to execute (access(2)) */
	assert_int_equal(session_resolve("only", out, sizeof(out), msg, sizeof(msg)), 126);
	assert_non_null(strstr(msg, "Permission denied"));
}

static void test_missing_and_directories(void **state)
{
	struct dirs *d = *state;
	char out[PATH_MAX], msg[256], p[PATH_MAX];

	set_path(d);
	assert_int_equal(session_resolve("no-such-tool", out, sizeof(out), msg, sizeof(msg)), 127);
	assert_string_equal(msg, "no-such-tool: command not found");
	/* a directory on PATH is skipped like a shell does */
	assert_int_equal(session_resolve("dir", out, sizeof(out), msg, sizeof(msg)), 127);
	snprintf(p, sizeof(p), "%s/dir", d->a);
	assert_int_equal(session_resolve(p, out, sizeof(out), msg, sizeof(msg)), 126);
	assert_non_null(strstr(msg, "Is a directory"));
	snprintf(p, sizeof(p), "%s/nothing", d->a);
	assert_int_equal(session_resolve(p, out, sizeof(out), msg, sizeof(msg)), 127);
	assert_non_null(strstr(msg, "No such file or directory"));
	assert_int_equal(session_resolve("", out, sizeof(out), msg, sizeof(msg)), 127);
}

static void test_slash_names_are_not_searched(void **state)
{
	struct dirs *d = *state;
	char out[PATH_MAX], msg[256], p[PATH_MAX];

	set_path(d);
	snprintf(p, sizeof(p), "%s/tool", d->a);
	/* an explicit path is taken as is; checking it is lx_check_program's job */
	assert_int_equal(session_resolve(p, out, sizeof(out), msg, sizeof(msg)), 0);
	assert_string_equal(out, p);
}

static void test_status(void **state)
{
	struct session_result r;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.exited = 1;
	r.code = 3;
	assert_int_equal(session_status(&r), 3);
	memset(&r, 0, sizeof(r));
	r.sig = 11;
	assert_int_equal(session_status(&r), 139);
	r.unsupported = 1;
	assert_int_equal(session_status(&r), 132);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_search_skips_non_executable),
		cmocka_unit_test(test_path_search_permission_denied),
		cmocka_unit_test(test_missing_and_directories),
		cmocka_unit_test(test_slash_names_are_not_searched),
		cmocka_unit_test(test_status),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
