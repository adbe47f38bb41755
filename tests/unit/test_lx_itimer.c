/* Unit tests for emu/linux/itimer.c: interval timers on the emulated
 * clock (--vtime) — when they go off, on which clock, what they send,
 * their overruns and what the calls answer.  The process's clocks are
 * moved by hand. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "emu/linux/lx_proc.h"
#include "test_lx_timer.h"

/* The kernel's struct sigevent, as the guest passes it to timer_create. */
struct sev {
	uint64_t value;
	int signo, notify, tid;
};

static long call(long nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
	long r = 0;

	assert_true(
		lx_itimer_syscall(&f.p, &f.t.cpu, nr, (const uint64_t[4]){ a0, a1, a2, a3 }, &r));
	return r;
}

static int pending(int sig)
{
	return (f.p.pend.set & LX_SIGBIT(sig)) != 0;
}

static void take(int sig)
{
	f.p.pend.set &= ~LX_SIGBIT(sig);
}

static void setitimer_(int which, long value_us, long interval_us)
{
	struct itimerval v = { { 0, interval_us }, { 0, value_us } };

	assert_int_equal(call(38, (uint64_t)which, (uint64_t)&v, 0, 0), 0);
}

static void test_real_periodic(void **state)
{
	(void)state;
	assert_int_equal(lx_itimer_budget(&f.p, &f.t.cpu), UINT64_MAX);
	setitimer_(ITIMER_REAL, 1, 1); /* 1000 ns, then every 1000 */
	assert_int_equal(lx_itimer_budget(&f.p, &f.t.cpu), 1000);
	run(999);
	assert_int_equal(lx_itimer_check(&f.p, &f.t.cpu), 0);
	run(1);
	assert_int_equal(lx_itimer_check(&f.p, &f.t.cpu), 1);
	assert_true(pending(SIGALRM));
	assert_int_equal(f.p.pend.info[SIGALRM].si_code, SI_KERNEL);
	assert_int_equal(lx_itimer_budget(&f.p, &f.t.cpu), 1000);
	/* late by 2.5 periods: one signal, the next expiry the first ahead */
	take(SIGALRM);
	run(3500);
	assert_int_equal(lx_itimer_check(&f.p, &f.t.cpu), 1);
	assert_int_equal(lx_itimer_budget(&f.p, &f.t.cpu), 500);
	assert_int_equal(lx_itimer_next(&f.p), 5000);
	/* the wait clock runs while the process waits */
	lx_wait_done(&f.p, &f.t.cpu, 5000);
	assert_int_equal(lx_itimer_check(&f.p, &f.t.cpu), 1);
	setitimer_(ITIMER_REAL, 0, 0);
	assert_int_equal(lx_itimer_next(&f.p), -1);
	assert_int_equal(lx_itimer_budget(&f.p, &f.t.cpu), UINT64_MAX);
}

static void test_virtual_runs_only(void **state)
{
	struct itimerval v;

	(void)state;
	setitimer_(ITIMER_VIRTUAL, 5, 0);
	assert_int_equal(lx_itimer_next(&f.p), -1); /* nothing on the wait clock */
	lx_wait_done(&f.p, &f.t.cpu, 1000000);
	assert_int_equal(lx_itimer_check(&f.p, &f.t.cpu), 0);
	run(4000);
	assert_int_equal(call(36, ITIMER_VIRTUAL, (uint64_t)&v, 0, 0), 0);
	assert_int_equal(v.it_value.tv_usec, 1);
	run(1000);
	assert_int_equal(lx_itimer_check(&f.p, &f.t.cpu), 1);
	assert_true(pending(SIGVTALRM));
	/* once: disarmed now */
	assert_int_equal(call(36, ITIMER_VIRTUAL, (uint64_t)&v, 0, 0), 0);
	assert_int_equal(v.it_value.tv_sec, 0);
	assert_int_equal(v.it_value.tv_usec, 0);
}

static void test_alarm_rounds(void **state)
{
	(void)state;
	assert_int_equal(call(37, 10, 0, 0, 0), 0);
	run(1400000000); /* 8.6 s left: 9 */
	assert_int_equal(call(37, 1, 0, 0, 0), 9);
	run(700000000); /* 0.3 s left: 1, never 0 */
	assert_int_equal(call(37, 0, 0, 0, 0), 1);
	assert_int_equal(lx_itimer_next(&f.p), -1);
}

static void test_posix_overruns(void **state)
{
	struct itimerspec its = { { 0, 100 }, { 0, 100 } };
	int id = -1;

	(void)state;
	assert_int_equal(call(222, CLOCK_MONOTONIC, 0, (uint64_t)&id, 0), 0);
	assert_int_equal(id, 0);
	assert_int_equal(call(223, (uint64_t)id, 0, (uint64_t)&its, 0), 0);
	run(100);
	assert_int_equal(lx_itimer_check(&f.p, &f.t.cpu), 1);
	assert_int_equal(f.p.pend.info[SIGALRM].si_code, SI_TIMER);
	assert_int_equal(f.p.pend.info[SIGALRM].si_value.sival_int, 0); /* no sigevent: the id */
	assert_int_equal(f.p.pend.info[SIGALRM].si_overrun, 0);
	/* still pending: later expiries join it as overruns */
	run(100);
	lx_itimer_check(&f.p, &f.t.cpu);
	run(350);
	lx_itimer_check(&f.p, &f.t.cpu);
	assert_int_equal(f.p.pend.info[SIGALRM].si_overrun, 1 + 3);
	assert_int_equal(call(225, (uint64_t)id, 0, 0, 0), 4);
	assert_int_equal(call(226, (uint64_t)id, 0, 0, 0), 0);
	assert_int_equal(call(225, (uint64_t)id, 0, 0, 0), -EINVAL);
}

static void test_posix_abstime_and_signal(void **state)
{
	struct sev ev = { 77, SIGUSR1, SIGEV_SIGNAL, 0 };
	struct itimerspec its = { { 0, 0 }, { 0, 5000 } }, cur;
	int id = -1;

	(void)state;
	run(1000);
	assert_int_equal(call(222, CLOCK_REALTIME, (uint64_t)&ev, (uint64_t)&id, 0), 0);
	/* absolute on the wall clock: the emulated epoch plus 5000 ns */
	its.it_value.tv_sec = 2114380800;
	assert_int_equal(call(223, (uint64_t)id, TIMER_ABSTIME, (uint64_t)&its, 0), 0);
	assert_int_equal(call(224, (uint64_t)id, (uint64_t)&cur, 0, 0), 0);
	assert_int_equal(cur.it_value.tv_sec, 0);
	assert_int_equal(cur.it_value.tv_nsec, 4000);
	run(4000);
	assert_int_equal(lx_itimer_check(&f.p, &f.t.cpu), 1);
	assert_true(pending(SIGUSR1));
	assert_int_equal(f.p.pend.info[SIGUSR1].si_value.sival_int, 77);
	/* to a thread of its own */
	ev = (struct sev){ 5, SIGUSR2, 4 /* SIGEV_THREAD_ID */, 1000 };
	assert_int_equal(call(222, CLOCK_PROCESS_CPUTIME_ID, (uint64_t)&ev, (uint64_t)&id, 0), 0);
	assert_int_equal(id, 1);
	its = (struct itimerspec){ { 0, 0 }, { 0, 10 } };
	assert_int_equal(call(223, (uint64_t)id, 0, (uint64_t)&its, 0), 0);
	run(10);
	assert_int_equal(lx_itimer_check(&f.p, &f.t.cpu), 1);
	assert_true(f.t.pend.set & LX_SIGBIT(SIGUSR2));
	/* a thread that is not the process's */
	ev.tid = 999;
	assert_int_equal(call(222, CLOCK_MONOTONIC, (uint64_t)&ev, (uint64_t)&id, 0), -EINVAL);
}

/* A second thread, 2000, which is not running. */
static void add_thread(void)
{
	f.t2.tid = 2000;
	f.t2.p = &f.p;
	f.th[1] = &f.t2;
	f.p.nth = 2;
}

static void test_thread_clock(void **state)
{
	struct sev ev = { 9, SIGUSR1, SIGEV_SIGNAL, 0 };
	struct itimerspec its = { { 0, 0 }, { 0, 1000 } }, cur;
	/* thread 2000's clock, as pthread_getcpuclockid makes it: ~tid << 3 | 6 */
	long clk2 = -(2000l + 1) * 8 + 6;
	int id = -1, own = -1;

	(void)state;
	add_thread();
	assert_int_equal(call(222, (uint64_t)clk2, (uint64_t)&ev, (uint64_t)&id, 0), 0);
	assert_int_equal(call(223, (uint64_t)id, 0, (uint64_t)&its, 0), 0);
	/* its clock stands while this thread runs */
	assert_int_equal(lx_itimer_budget(&f.p, &f.t.cpu), UINT64_MAX);
	run(5000);
	assert_int_equal(lx_itimer_check(&f.p, &f.t.cpu), 0);
	f.t2.ran += 999;
	assert_int_equal(lx_itimer_check(&f.p, &f.t.cpu), 0);
	f.t2.ran += 1;
	assert_int_equal(lx_itimer_check(&f.p, &f.t.cpu), 1);
	assert_true(pending(SIGUSR1));
	/* this thread's own clock: the budget is the time left on it */
	assert_int_equal(call(222, CLOCK_THREAD_CPUTIME_ID, 0, (uint64_t)&own, 0), 0);
	assert_int_equal(call(223, (uint64_t)own, 0, (uint64_t)&its, 0), 0);
	assert_int_equal(lx_itimer_budget(&f.p, &f.t.cpu), 1000);
	f.t2.ran += 5000;
	assert_int_equal(lx_itimer_budget(&f.p, &f.t.cpu), 1000);
	/* once its thread is gone, a timer is disarmed and cannot be armed */
	assert_int_equal(call(223, (uint64_t)id, 0, (uint64_t)&its, 0), 0);
	f.t2.state = LX_T_DEAD;
	assert_int_equal(lx_itimer_check(&f.p, &f.t.cpu), 0);
	assert_int_equal(call(224, (uint64_t)id, (uint64_t)&cur, 0, 0), 0);
	assert_int_equal(cur.it_value.tv_nsec, 0);
	assert_int_equal(call(223, (uint64_t)id, 0, (uint64_t)&its, 0), -ESRCH);
}

static void test_bad_calls(void **state)
{
	struct itimerval bad = { { 0, 0 }, { 0, 1000000 } };
	struct itimerspec its = { { 0, 0 }, { 0, 1 } };
	int id;

	(void)state;
	assert_int_equal(call(38, 3, (uint64_t)&bad, 0, 0), -EINVAL);
	assert_int_equal(call(38, ITIMER_REAL, (uint64_t)&bad, 0, 0), -EINVAL);
	assert_int_equal(call(223, 5, 0, (uint64_t)&its, 0), -EINVAL);
	assert_int_equal(call(222, CLOCK_MONOTONIC_RAW, 0, (uint64_t)&id, 0), -EOPNOTSUPP);
	assert_int_equal(call(222, 1234, 0, (uint64_t)&id, 0), -EINVAL);
	for (int k = 0; k < LX_NPOSIX; k++)
		assert_int_equal(call(222, CLOCK_MONOTONIC, 0, (uint64_t)&id, 0), 0);
	assert_int_equal(call(222, CLOCK_MONOTONIC, 0, (uint64_t)&id, 0), -EAGAIN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_real_periodic, setup),
		cmocka_unit_test_setup(test_virtual_runs_only, setup),
		cmocka_unit_test_setup(test_alarm_rounds, setup),
		cmocka_unit_test_setup(test_posix_overruns, setup),
		cmocka_unit_test_setup(test_posix_abstime_and_signal, setup),
		cmocka_unit_test_setup(test_thread_clock, setup),
		cmocka_unit_test_setup(test_bad_calls, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
