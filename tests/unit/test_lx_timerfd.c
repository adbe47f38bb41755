/* Unit tests for emu/linux/timerfd.c: timerfd timers on the emulated
 * clock (--vtime) — the count of expiries a read of the descriptor takes,
 * setting a timer anew, closing it and what the calls answer.  The
 * process's clock is moved by hand; the descriptors are the test's own. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "emu/linux/lx_proc.h"
#include "test_lx_timer.h"

static long call(long nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
	long r = 0;

	assert_true(
		lx_timerfd_syscall(&f.p, &f.t.cpu, nr, (const uint64_t[4]){ a0, a1, a2, a3 }, &r));
	return r;
}

static void arm(long fd, int flags, long value_ns, long interval_ns)
{
	struct itimerspec v = { { 0, interval_ns }, { 0, value_ns } };

	assert_int_equal(call(286, (uint64_t)fd, (uint64_t)flags, (uint64_t)&v, 0), 0);
}

/* The count a read of fd takes now (0: none, the read would block). */
static uint64_t count(long fd)
{
	uint64_t n = 0;

	return read((int)fd, &n, sizeof(n)) == sizeof(n) ? n : 0;
}

static void test_expiries_count(void **state)
{
	long fd = call(283, CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC, 0, 0);
	struct itimerspec cur;

	(void)state;
	assert_true(fd >= 0);
	assert_true(fcntl((int)fd, F_GETFD) & FD_CLOEXEC);
	assert_int_equal(lx_itimer_budget(&f.p, &f.t.cpu), UINT64_MAX);
	arm(fd, 0, 1000, 1000); /* 1000 ns, then every 1000 */
	assert_int_equal(lx_itimer_budget(&f.p, &f.t.cpu), 1000);
	assert_int_equal(lx_itimer_next(&f.p), 1000);
	run(999);
	assert_int_equal(lx_itimer_check(&f.p, &f.t.cpu), 0);
	assert_int_equal(count(fd), 0);
	run(1);
	assert_int_equal(lx_itimer_check(&f.p, &f.t.cpu), 1);
	assert_int_equal(count(fd), 1);
	/* late by 2.5 periods: all three expiries in one count, no signal */
	run(2500);
	assert_int_equal(lx_itimer_check(&f.p, &f.t.cpu), 1);
	assert_int_equal(f.p.pend.set, 0);
	assert_int_equal(lx_itimer_budget(&f.p, &f.t.cpu), 500);
	assert_int_equal(call(287, (uint64_t)fd, (uint64_t)&cur, 0, 0), 0);
	assert_int_equal(cur.it_value.tv_nsec, 500);
	assert_int_equal(cur.it_interval.tv_nsec, 1000);
	/* set anew: what was not read is dropped */
	arm(fd, 0, 100000, 0);
	assert_int_equal(count(fd), 0);
	/* the wait clock runs while the process waits */
	lx_wait_done(&f.p, &f.t.cpu, lx_itimer_next(&f.p));
	assert_int_equal(lx_itimer_check(&f.p, &f.t.cpu), 1);
	assert_int_equal(count(fd), 1);
	assert_int_equal(lx_itimer_next(&f.p), -1); /* a one-shot */
	close((int)fd);
}

static void test_closed_and_bad_calls(void **state)
{
	struct itimerspec v = { { 0, 0 }, { 0, 1000 } };
	long fds[LX_NTIMERFD];
	int pipefd[2];

	(void)state;
	assert_int_equal(call(283, CLOCK_PROCESS_CPUTIME_ID, 0, 0, 0), -EINVAL);
	assert_int_equal(call(283, CLOCK_MONOTONIC, 0x4, 0, 0), -EINVAL);
	assert_int_equal(pipe(pipefd), 0);
	assert_int_equal(call(287, (uint64_t)pipefd[0], (uint64_t)&v, 0, 0), -EINVAL);
	assert_int_equal(call(286, 987, 0, (uint64_t)&v, 0), -EBADF);
	for (int k = 0; k < LX_NTIMERFD; k++)
		assert_true((fds[k] = call(283, CLOCK_REALTIME, 0, 0, 0)) >= 0);
	assert_int_equal(call(283, CLOCK_REALTIME, 0, 0, 0), -EMFILE);
	arm(fds[3], 0, 1000, 0);
	assert_int_equal(call(286, (uint64_t)fds[3], 0x8, (uint64_t)&v, 0), -EINVAL);
	/* closed, a timer is gone and its slot free again */
	close((int)fds[3]);
	lx_timerfd_closed(&f.p, (unsigned)fds[3], (unsigned)fds[3]);
	run(2000);
	assert_int_equal(lx_itimer_check(&f.p, &f.t.cpu), 0);
	assert_int_equal(call(287, (uint64_t)pipefd[0], (uint64_t)&v, 0, 0), -EINVAL);
	fds[3] = call(283, CLOCK_BOOTTIME, 0, 0, 0);
	assert_true(fds[3] >= 0);
	for (int k = 0; k < LX_NTIMERFD; k++)
		close((int)fds[k]);
	lx_timerfd_closed(&f.p, 0, ~0u);
	close(pipefd[0]);
	close(pipefd[1]);
}

/* Duplicates keep a timer: its expiries go to the one left open after the
 * first closes, any of them sets it, and closing the last ends it; past
 * LX_TFD_FDS descriptors a duplicate is the timer's no more. */
static void test_duplicates(void **state)
{
	long fd = call(283, CLOCK_MONOTONIC, TFD_NONBLOCK, 0, 0), d[LX_TFD_FDS + 1];
	struct itimerspec v;

	(void)state;
	assert_true(fd >= 0);
	for (int k = 0; k <= LX_TFD_FDS - 1; k++) {
		d[k] = dup((int)fd);
		lx_timerfd_dup(&f.p, fd, d[k]);
	}
	/* one more than it keeps: fd and LX_TFD_FDS - 1 duplicates */
	assert_int_equal(call(287, (uint64_t)d[LX_TFD_FDS - 2], (uint64_t)&v, 0, 0), 0);
	assert_int_equal(call(287, (uint64_t)d[LX_TFD_FDS - 1], (uint64_t)&v, 0, 0), -EINVAL);
	close((int)fd);
	lx_timerfd_closed(&f.p, (unsigned)fd, (unsigned)fd);
	arm(d[3], 0, 1000, 0);
	run(1000);
	assert_int_equal(lx_itimer_check(&f.p, &f.t.cpu), 1);
	assert_int_equal(count(d[0]), 1);
	for (int k = 0; k < LX_TFD_FDS - 1; k++) {
		assert_int_equal(call(287, (uint64_t)d[k], (uint64_t)&v, 0, 0), 0);
		close((int)d[k]);
		lx_timerfd_closed(&f.p, (unsigned)d[k], (unsigned)d[k]);
	}
	assert_int_equal(call(287, (uint64_t)d[0], (uint64_t)&v, 0, 0), -EBADF);
	/* its slot is free: all LX_NTIMERFD can be made again */
	for (int k = 0; k < LX_NTIMERFD; k++) {
		long t = call(283, CLOCK_MONOTONIC, 0, 0, 0);
		assert_true(t >= 0);
		close((int)t);
		lx_timerfd_closed(&f.p, (unsigned)t, (unsigned)t);
	}
	close((int)d[LX_TFD_FDS - 1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_expiries_count, setup),
		cmocka_unit_test_setup(test_closed_and_bad_calls, setup),
		cmocka_unit_test_setup(test_duplicates, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
