/* Unit tests for emu/linux/reap.c: a report kept for later is given to the
 * next wait that asks for that child, in wait4's or waitid's form, once
 * (but for WNOWAIT); a wait for another child is left to the host. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "test_lx_timer.h"

/* A report kept for child 77, which exited with status 3. */
static int setup_kept(void **state)
{
	setup(state);
	f.p.stash[0] = (struct lx_report){ .pid = 77, .status = W_EXITCODE(3, 0) };
	f.p.stash[0].ru.ru_maxrss = 123;
	f.p.nstash = 1;
	return 0;
}

static void test_wait4_takes_it(void **state)
{
	int status = 0, wst = 0;
	struct rusage ru;
	long r;

	(void)state;
	/* a wait for another child: the host's */
	const uint64_t other[6] = { 78, (uint64_t)(uintptr_t)&status, 0, 0, 0, 0 };
	assert_int_equal(lx_reap_stashed(&f.p, 61, other, &r, &wst), 0);
	/* any child: this one, with its status and usage */
	const uint64_t any[6] = {
		(uint64_t)-1, (uint64_t)(uintptr_t)&status, 0, (uint64_t)(uintptr_t)&ru, 0, 0
	};
	assert_int_equal(lx_reap_stashed(&f.p, 61, any, &r, &wst), 1);
	assert_int_equal(r, 77);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 3);
	assert_int_equal(wst, status);
	assert_int_equal(ru.ru_maxrss, 123);
	/* given once */
	assert_int_equal(f.p.nstash, 0);
	assert_int_equal(lx_reap_stashed(&f.p, 61, any, &r, &wst), 0);
}

static void test_waitid_form(void **state)
{
	siginfo_t si;
	int wst = 0;
	long r;

	(void)state;
	/* WNOWAIT leaves it to be waited for again */
	const uint64_t peek[6] = { P_PID, 77, (uint64_t)(uintptr_t)&si, WEXITED | WNOWAIT, 0, 0 };
	memset(&si, 0, sizeof(si));
	assert_int_equal(lx_reap_stashed(&f.p, 247, peek, &r, &wst), 1);
	assert_int_equal(r, 0);
	assert_int_equal(si.si_signo, SIGCHLD);
	assert_int_equal(si.si_code, CLD_EXITED);
	assert_int_equal(si.si_pid, 77);
	assert_int_equal(si.si_status, 3);
	assert_int_equal(f.p.nstash, 1);
	const uint64_t all[6] = { P_ALL, 0, (uint64_t)(uintptr_t)&si, WEXITED, 0, 0 };
	assert_int_equal(lx_reap_stashed(&f.p, 247, all, &r, &wst), 1);
	assert_int_equal(f.p.nstash, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_wait4_takes_it, setup_kept),
		cmocka_unit_test_setup(test_waitid_form, setup_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
