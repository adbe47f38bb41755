/* Unit tests for core/srcline.c: source lines, inline chains and source
 * text of this very program (built -g, with always_inline functions). */
#define _GNU_SOURCE
#include <link.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/sym.h"

static const unsigned first_line = __LINE__;

static inline __attribute__((always_inline)) int src_inner(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x * 11 + 5; /* INNER */
}

static const unsigned call_line = __LINE__ + 5;

__attribute__((noinline)) int src_outer(int x)
{
	__asm__ volatile("" : "+r"(x));
	x = src_inner(x) ^ 3;
	__asm__ volatile("" : "+r"(x));
	return x + 1;
}

static const unsigned last_line = __LINE__;

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	*(uint64_t *)data = info->dlpi_addr;
	return 1;
}

static struct sym *self_session(void)
{
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	uint64_t bias = 0, addr = (uint64_t)(uintptr_t)&src_outer;
	struct sym *s = sym_new();

	assert_true(len > 0);
	exe[len] = 0;
	dl_iterate_phdr(first_object, &bias);
	assert_non_null(s);
	assert_int_equal(sym_add_image(s, exe, bias, addr + 0x400000, bias), 0);
	return s;
}

static int ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

static void test_srcline(void **state)
{
	uint64_t addr = (uint64_t)(uintptr_t)&src_outer;
	struct sym *s = self_session();
	struct sym_srcline sl;

	(void)state;
	assert_true(sym_has_dwarf(s, addr));
	assert_int_equal(sym_srcline(s, addr, &sl), 0);
	assert_true(sl.file[0] == '/');
	assert_true(ends_with(sl.file, "/tests/unit/test_core_sym_src.c"));
	/* its first instruction may be inlined code: a line of the two */
	assert_true(sl.line > first_line && sl.line < last_line);
	assert_int_equal(sym_srcline(s, 0x10, &sl), -1);
	assert_null(sl.file);
	assert_false(sym_has_dwarf(s, 0x10));
	sym_free(s);
}

/* Somewhere in src_outer, src_inner's code is inlined: the chain there is
 * src_inner (at its own line) called from src_outer at the call line. */
static void test_inline_chain(void **state)
{
	uint64_t addr = (uint64_t)(uintptr_t)&src_outer;
	struct sym *s = self_session();
	struct sym_info si;
	struct sym_frame f[8];
	int found = 0, n;

	(void)state;
	assert_int_equal(sym_lookup(s, addr, &si), 0);
	for (uint64_t a = addr; a < addr + si.size; a++) {
		n = sym_inlines(s, a, f, 8);
		assert_true(n >= 1);
		assert_string_equal(f[n - 1].func, "src_outer");
		if (n < 2)
			continue;
		assert_int_equal(n, 2);
		assert_string_equal(f[0].func, "src_inner");
		assert_true(ends_with(f[0].file, "test_core_sym_src.c"));
		assert_true(f[0].line > first_line && f[0].line < call_line - 3);
		assert_true(ends_with(f[1].file, "test_core_sym_src.c"));
		assert_int_equal(f[1].line, call_line);
		found = 1;
	}
	assert_true(found);
	/* a chain cut short by max keeps the innermost frames */
	for (uint64_t a = addr; a < addr + si.size; a++)
		if (sym_inlines(s, a, f, 8) == 2) {
			assert_int_equal(sym_inlines(s, a, f, 1), 1);
			assert_string_equal(f[0].func, "src_inner");
			break;
		}
	assert_int_equal(sym_inlines(s, 0x10, f, 8), 0);
	assert_int_equal(sym_inlines(s, addr, f, 0), 0);
	sym_free(s);
}

static void test_source_text(void **state)
{
	uint64_t addr = (uint64_t)(uintptr_t)&src_outer;
	struct sym *s = self_session();
	struct sym_srcline sl;
	const char *text;
	char tmp[] = "/tmp/vpmu-src-XXXXXX";
	size_t len = 0;
	int fd;

	(void)state;
	assert_int_equal(sym_srcline(s, addr, &sl), 0);
	text = sym_source_line(s, sl.file, call_line, &len);
	assert_non_null(text);
	assert_true(len > 0 && !memchr(text, '\n', len));
	assert_non_null(strstr(text, "src_inner(x)"));
	/* read once: the same pointer again */
	assert_ptr_equal(sym_source_line(s, sl.file, call_line, NULL), text);
	assert_null(sym_source_line(s, sl.file, 0, NULL));
	assert_null(sym_source_line(s, sl.file, 1000000, NULL));
	assert_null(sym_source_line(s, "/nonexistent/file.c", 1, NULL));
	assert_null(sym_source_line(s, NULL, 1, NULL));
	/* a last line without its newline, an empty line */
	fd = mkstemp(tmp);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "one\n\nthree", 10), 10);
	close(fd);
	text = sym_source_line(s, tmp, 3, &len);
	assert_non_null(text);
	assert_int_equal(len, 5);
	assert_memory_equal(text, "three", 5);
	text = sym_source_line(s, tmp, 2, &len);
	assert_non_null(text);
	assert_int_equal(len, 0);
	assert_null(sym_source_line(s, tmp, 4, NULL));
	unlink(tmp);
	sym_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_srcline),
		cmocka_unit_test(test_inline_chain),
		cmocka_unit_test(test_source_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
