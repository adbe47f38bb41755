#define _GNU_SOURCE /* memmem */
/* Unit tests for lx_check_program (emu/linux/elf.c): the verdicts and
 * exit statuses a shell would give. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emu/linux/linux.h"

static char dir[] = "/tmp/test_lx_elf_XXXXXX";

static const char *path_in(const char *name)
{
	static char buf[4][256];
	static int k;

	k = (k + 1) & 3;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

static void write_file(const char *name, const void *data, size_t n, mode_t mode)
{
	int fd = open(path_in(name), O_WRONLY | O_CREAT | O_TRUNC, mode);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, n), (ssize_t)n);
	close(fd);
	chmod(path_in(name), mode);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static int check(const char *path, char *msg, size_t n)
{
	msg[0] = 0;
	return lx_check_program(path, msg, n);
}

static void test_good(void **state)
{
	char msg[512];

	(void)state;
	assert_int_equal(check("/bin/sh", msg, sizeof(msg)), 0);
	write_file("script", "#!/bin/sh -e\necho hi\n", 21, 0755);
	assert_int_equal(check(path_in("script"), msg, sizeof(msg)), 0);
}

static void test_missing_and_dirs(void **state)
{
	char msg[512];

	(void)state;
	assert_int_equal(check(path_in("nope"), msg, sizeof(msg)), 127);
	assert_non_null(strstr(msg, "nope"));
	assert_non_null(strstr(msg, "No such file"));
	assert_int_equal(check(dir, msg, sizeof(msg)), 126);
	assert_non_null(strstr(msg, "Is a directory"));
}

static void test_not_executable(void **state)
{
	char msg[512];

	(void)state;
	write_file("noexec", "#!/bin/sh\n", 10, 0644);
	assert_int_equal(check(path_in("noexec"), msg, sizeof(msg)), 126);
	assert_non_null(strstr(msg, "Permission denied"));
	write_file("text", "hello\n", 6, 0755);
	assert_int_equal(check(path_in("text"), msg, sizeof(msg)), 126);
	assert_non_null(strstr(msg, "Exec format error"));
}

static void test_bad_elf(void **state)
{
	Elf64_Ehdr eh;
	char msg[512];

	(void)state;
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS32;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_type = ET_EXEC;
	eh.e_machine = EM_386;
	write_file("elf32", &eh, sizeof(eh), 0755);
	assert_int_equal(check(path_in("elf32"), msg, sizeof(msg)), 126);
	assert_non_null(strstr(msg, "32-bit"));
	assert_non_null(strstr(msg, "elf32"));

	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_machine = EM_AARCH64;
	write_file("arm", &eh, sizeof(eh), 0755);
	assert_int_equal(check(path_in("arm"), msg, sizeof(msg)), 126);
	assert_non_null(strstr(msg, "machine 183"));

	/* right class and machine, program headers past the end */
	eh.e_machine = EM_X86_64;
	eh.e_phoff = 64;
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = 9;
	write_file("trunc", &eh, sizeof(eh), 0755);
	assert_int_equal(check(path_in("trunc"), msg, sizeof(msg)), 126);
	assert_non_null(strstr(msg, "truncated"));

	write_file("short", ELFMAG, 4, 0755);
	assert_int_equal(check(path_in("short"), msg, sizeof(msg)), 126);
}

/* A copy of /bin/true whose PT_INTERP names a file that does not exist. */
static void test_missing_interpreter(void **state)
{
	char msg[512];
	static const char ld[] = "/lib64/ld-linux-x86-64.so.2";
	FILE *f = fopen("/bin/true", "rb");
	char *buf = malloc(1 << 20), *at;
	size_t n;

	(void)state;
	assert_non_null(f);
	n = fread(buf, 1, 1 << 20, f);
	fclose(f);
	at = memmem(buf, n, ld, sizeof(ld));
	assert_non_null(at);
	at[sizeof(ld) - 2] = 'X';
	write_file("nointerp", buf, n, 0755);
	free(buf);
	assert_int_equal(check(path_in("nointerp"), msg, sizeof(msg)), 127);
	assert_non_null(strstr(msg, "ld-linux-x86-64.so.X"));

	write_file("badinterp", "#!/no/such/shell\n", 17, 0755);
	assert_int_equal(check(path_in("badinterp"), msg, sizeof(msg)), 127);
	assert_non_null(strstr(msg, "bad interpreter"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_missing_and_dirs),
		cmocka_unit_test(test_not_executable),
		cmocka_unit_test(test_bad_elf),
		cmocka_unit_test(test_missing_interpreter),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
