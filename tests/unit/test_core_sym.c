/* Unit tests for core/sym.c: symbolise addresses of this very program. */
#define _GNU_SOURCE
#include <link.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/sym.h"

/* A function with a known name and some size, not inlined away. */
__attribute__((noinline)) int sym_test_target(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x * 3 + 1;
}

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	*(uint64_t *)data = info->dlpi_addr;
	return 1; /* the main program comes first */
}

static uint64_t self_bias(void)
{
	uint64_t bias = 0;

	dl_iterate_phdr(first_object, &bias);
	return bias;
}

static void self_path(char *buf, size_t n)
{
	ssize_t len = readlink("/proc/self/exe", buf, n - 1);

	assert_true(len > 0);
	buf[len] = 0;
}

static void test_finds_own_function(void **state)
{
	char exe[PATH_MAX], desc[PATH_MAX + 64], want[PATH_MAX + 64];
	uint64_t addr = (uint64_t)(uintptr_t)&sym_test_target;
	struct sym *s = sym_new();
	struct sym_info si;

	(void)state;
	assert_non_null(s);
	self_path(exe, sizeof(exe));
	assert_int_equal(sym_add_image(s, exe, addr & ~0xfffull, addr + 0x100000, self_bias()), 0);
	assert_int_equal(sym_lookup(s, addr + 2, &si), 0);
	assert_string_equal(si.name, "sym_test_target");
	assert_int_equal(si.off, 2);
	assert_string_equal(si.path, exe);
	assert_int_equal(si.file_addr, addr + 2 - self_bias());
	snprintf(want, sizeof(want), "sym_test_target+0x2 in %s", exe);
	assert_string_equal(sym_describe(s, addr + 2, desc, sizeof(desc)), want);
	sym_free(s);
}

static void test_two_images(void **state)
{
	char exe[PATH_MAX];
	uint64_t addr = (uint64_t)(uintptr_t)&sym_test_target;
	struct sym *s = sym_new();
	struct sym_info si;

	(void)state;
	self_path(exe, sizeof(exe));
	/* an unreadable image first, then the real one: both are kept */
	assert_int_equal(sym_add_image(s, "/nonexistent/libfoo.so", 0x10000, 0x20000, 0x10000), -1);
	assert_int_equal(sym_add_image(s, exe, addr & ~0xfffull, addr + 0x100000, self_bias()), 0);
	assert_int_equal(sym_lookup(s, 0x10010, &si), 1);
	assert_string_equal(si.path, "/nonexistent/libfoo.so");
	assert_int_equal(si.file_addr, 0x10);
	assert_int_equal(sym_lookup(s, addr, &si), 0);
	assert_string_equal(si.name, "sym_test_target");
	sym_free(s);
}

static void test_bad_files_never_crash(void **state)
{
	struct sym *s = sym_new();
	struct sym_info si;
	char desc[128];

	(void)state;
	assert_int_equal(sym_add_image(s, "/etc/passwd", 0x1000, 0x2000, 0x1000), -1);
	assert_int_equal(sym_add_image(s, "/", 0x3000, 0x4000, 0x3000), -1);
	assert_int_equal(sym_add_image(s, "[vdso]", 0x5000, 0x6000, 0x5000), -1);
	assert_int_equal(sym_lookup(s, 0x1800, &si), 1);
	assert_string_equal(sym_describe(s, 0x1800, desc, sizeof(desc)), "/etc/passwd+0x800");
	assert_string_equal(sym_describe(s, 0x5004, desc, sizeof(desc)), "[vdso]+0x4");
	assert_int_equal(sym_lookup(s, 0x9000, &si), -1);
	assert_null(si.path);
	assert_string_equal(sym_describe(s, 0x9000, desc, sizeof(desc)), "");
	sym_free(s);
	sym_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_finds_own_function),
		cmocka_unit_test(test_two_images),
		cmocka_unit_test(test_bad_files_never_crash),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
