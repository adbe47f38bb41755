/* Unit tests for emu/linux/stack.c: the initial stack as the kernel lays
 * it out (argc, argv, envp, auxv, strings, alignment, AT_RANDOM). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "emu/linux/lx_proc.h"

#define AREA (64 * 1024)

static uint64_t auxv_get(const uint64_t *aux, uint64_t key, int *found)
{
	for (; aux[0] != AT_NULL; aux += 2)
		if (aux[0] == key) {
			*found = 1;
			return aux[1];
		}
	*found = 0;
	return 0;
}

static void test_layout(void **state)
{
	char *argv[] = { "prog", "one", "", "three", NULL };
	char *envp[] = { "A=1", "PATH=/bin", NULL };
	uint8_t rnd[16];
	uint8_t *area = aligned_alloc(4096, AREA);
	uint64_t top = (uint64_t)area + AREA, sp;
	struct lx_stack_args a = { 0 };
	int found;

	(void)state;
	lx_random_bytes(42, rnd);
	a.argv = argv;
	a.envp = envp;
	a.execfn = "/usr/bin/prog";
	a.random = rnd;
	a.hwcap = 0x178bfbff;
	a.phdr = 0x200000000040;
	a.phnum = 13;
	a.base = 0x3f8000000000;
	a.entry = 0x200000001040;
	a.uid = 1000;
	sp = lx_stack_build(top, AREA, &a);
	assert_true(sp > (uint64_t)area && sp < top);
	assert_int_equal(sp % 16, 0); /* the ABI's entry alignment */

	uint64_t *w = (uint64_t *)sp;
	assert_int_equal(w[0], 4);
	for (int i = 0; i < 4; i++)
		assert_string_equal((char *)w[1 + i], argv[i]);
	assert_int_equal(w[5], 0);
	assert_string_equal((char *)w[6], "A=1");
	assert_string_equal((char *)w[7], "PATH=/bin");
	assert_int_equal(w[8], 0);
	/* strings in the kernel's order: argv lowest, then envp, then execfn */
	assert_true(w[1] < w[2] && w[4] < w[6] && w[6] < w[7]);

	const uint64_t *aux = &w[9];
	assert_int_equal(aux[0], AT_HWCAP); /* the kernel's first entry without a vDSO */
	assert_int_equal(aux[1], 0x178bfbff);
	assert_int_equal(auxv_get(aux, AT_PAGESZ, &found), 4096);
	assert_int_equal(auxv_get(aux, AT_CLKTCK, &found), 100);
	assert_int_equal(auxv_get(aux, AT_PHDR, &found), 0x200000000040);
	assert_int_equal(auxv_get(aux, AT_PHENT, &found), sizeof(Elf64_Phdr));
	assert_int_equal(auxv_get(aux, AT_PHNUM, &found), 13);
	assert_int_equal(auxv_get(aux, AT_BASE, &found), 0x3f8000000000);
	assert_int_equal(auxv_get(aux, AT_ENTRY, &found), 0x200000001040);
	assert_int_equal(auxv_get(aux, AT_UID, &found), 1000);
	assert_int_equal(auxv_get(aux, AT_SECURE, &found), 0);
	assert_true(found);
	assert_int_equal(auxv_get(aux, AT_HWCAP2, &found), 0);
	assert_true(found);
	auxv_get(aux, AT_SYSINFO_EHDR, &found);
	assert_false(found); /* no vDSO */
	assert_string_equal((char *)auxv_get(aux, AT_EXECFN, &found), "/usr/bin/prog");
	assert_string_equal((char *)auxv_get(aux, AT_PLATFORM, &found), "x86_64");
	assert_memory_equal((void *)auxv_get(aux, AT_RANDOM, &found), rnd, 16);
	/* execfn sits just below the 8 zero bytes at the top */
	assert_int_equal(auxv_get(aux, AT_EXECFN, &found) + strlen("/usr/bin/prog") + 1, top - 8);
	free(area);
}

static void test_random_seeded(void **state)
{
	uint8_t a[16], b[16], c[16];

	(void)state;
	lx_random_bytes(1, a);
	lx_random_bytes(1, b);
	lx_random_bytes(2, c);
	assert_memory_equal(a, b, 16);
	assert_memory_not_equal(a, c, 16);
}

static void test_too_big(void **state)
{
	char big[8192];
	char *argv[] = { big, NULL };
	uint8_t rnd[16] = { 0 };
	uint8_t *area = aligned_alloc(4096, AREA);
	struct lx_stack_args a = { 0 };

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	a.argv = argv;
	a.execfn = "p";
	a.random = rnd;
	assert_int_equal(lx_stack_build((uint64_t)area + AREA, 4096, &a), 0);
	assert_int_not_equal(lx_stack_build((uint64_t)area + AREA, AREA, &a), 0);
	free(area);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_random_seeded),
		cmocka_unit_test(test_too_big),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
