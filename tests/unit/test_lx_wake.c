/* Unit tests for emu/linux/wake.c: under --vtime, a WNOHANG wait reports
 * a child only once the parent's clock has reached its end (the earliest
 * first, in wait4's and waitid's forms), and a wait in sigsuspend or
 * pause lasts until the next child's end on the emulated clock, where the
 * clock then stands, with that child's SIGCHLD; the host's SIGCHLD for it
 * is then dropped, and its reaping sends no second one.  A report kept
 * for later counts as its child's end; a child whose SIGCHLD the parent
 * has had is found whatever the clock.  A read or poll that would wait
 * is cut short the same way, one with a timeout (or a sleep) only by an
 * end before its deadline, and a parent that runs gets each SIGCHLD at its first look
 * (every 2^20 instructions) past the child's end. */
#define _GNU_SOURCE
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_lx_timer.h"

static int fd;

static void on_chld(int sig)
{
	(void)sig;
}

/* The timer tests' process with a slot in a shared area and a SIGCHLD
 * handler. */
static int setup_wake(void **state)
{
	setup(state);
	f.p.sh = lx_shared_create(&fd);
	assert_non_null(f.p.sh);
	f.p.slot = &f.p.sh->slot[0];
	f.p.slot->pid = f.p.pid;
	f.p.slot->state = LX_SLOT_RUNNING;
	f.p.sh->next = 1;
	f.p.act[SIGCHLD].handler = (uint64_t)on_chld;
	return 0;
}

static int teardown_wake(void **state)
{
	(void)state;
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	close(fd);
	return 0;
}

/* A child that exits at once with status st, a zombie on return; its
 * slot (the next) ended at clock at. */
static int child(int st, int64_t at)
{
	int pid = fork();
	siginfo_t si;

	assert_true(pid >= 0);
	if (!pid)
		_exit(st);
	struct lx_slot *s = &f.p.sh->slot[f.p.sh->next++];
	s->pid = pid;
	s->vt_at = at;
	s->state = LX_SLOT_EXITED;
	lx_reap_forked(&f.p, pid);
	assert_int_equal(waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT), 0);
	return pid;
}

static int64_t now(void)
{
	return lx_clock_ns(&f.p, &f.t.cpu, CLOCK_MONOTONIC);
}

/* The wait just ended at clock at with pid's SIGCHLD, taken now. */
static void woke(int pid, int64_t at)
{
	assert_int_equal(now(), at);
	assert_true(f.p.pend.set & LX_SIGBIT(SIGCHLD));
	assert_int_equal(f.p.pend.info[SIGCHLD].si_pid, pid);
	f.p.pend.set = 0;
}

/* The parent reaps child pid, as a wait4 for it does. */
static void reap(int pid)
{
	int wst = 0;
	const uint64_t h[6] = { (uint64_t)pid, 0, 0, 0, 0, 0 };

	assert_int_equal(waitpid(pid, &wst, 0), pid);
	assert_int_equal(lx_reap_order(&f.p, 61, h, pid, &wst), pid);
	lx_hold_waited(&f.p, 61, h, pid, wst);
}

static void test_nohang_sees_the_clock(void **state)
{
	long r = 99;
	siginfo_t si;

	(void)state;
	run(1000);
	int late = child(2, 3000), early = child(1, 500);
	const uint64_t any[6] = { (uint64_t)-1, 0, WNOHANG, 0, 0, 0 };
	/* both are zombies: the one that ended by the parent's clock */
	assert_int_equal(lx_wake_pick(&f.p, &f.t.cpu, 61, any, &r), early);
	reap(early);
	/* the other ended later than the parent's clock: none yet */
	assert_int_equal(lx_wake_pick(&f.p, &f.t.cpu, 61, any, &r), 0);
	assert_int_equal(r, 0);
	const uint64_t late_only[6] = { (uint64_t)late, 0, WNOHANG, 0, 0, 0 };
	assert_int_equal(lx_wake_pick(&f.p, &f.t.cpu, 61, late_only, &r), 0);
	/* waitid's form clears the siginfo's fields */
	memset(&si, 0x55, sizeof(si));
	const uint64_t wid[6] = { P_ALL, 0, (uint64_t)(uintptr_t)&si, WEXITED | WNOHANG, 0, 0 };
	r = 99;
	assert_int_equal(lx_wake_pick(&f.p, &f.t.cpu, 247, wid, &r), 0);
	assert_int_equal(r, 0);
	assert_int_equal(si.si_signo, 0);
	assert_int_equal(si.si_code, 0);
	assert_int_equal(si.si_pid, 0);
	assert_int_equal(si.si_status, 0);
	/* not for waits that block, report stops, or without --vtime */
	const uint64_t block[6] = { (uint64_t)-1, 0, 0, 0, 0, 0 };
	assert_int_equal(lx_wake_pick(&f.p, &f.t.cpu, 61, block, &r), -1);
	const uint64_t stops[6] = { (uint64_t)-1, 0, WNOHANG | WUNTRACED, 0, 0, 0 };
	assert_int_equal(lx_wake_pick(&f.p, &f.t.cpu, 61, stops, &r), -1);
	f.cfg.vtime = 0;
	assert_int_equal(lx_wake_pick(&f.p, &f.t.cpu, 61, any, &r), -1);
	f.cfg.vtime = 1;
	/* once the clock has got there */
	run(2500);
	assert_int_equal(lx_wake_pick(&f.p, &f.t.cpu, 247, wid, &r), late);
	reap(late);
	/* no child left: the host's answer */
	assert_int_equal(lx_wake_pick(&f.p, &f.t.cpu, 61, any, &r), -1);
}

static void test_sigsuspend_wakes_at_next_end(void **state)
{
	const uint64_t chld = LX_SIGBIT(SIGCHLD);

	(void)state;
	run(100);
	int a = child(1, 4000), b = child(2, 2000);
	/* not for a wait SIGCHLD cannot end */
	assert_int_equal(lx_wake_sigchld(&f.p, &f.t.cpu, chld), 0);
	assert_int_equal(now(), 100);
	/* the first end on the clock, b's, whichever the host gave first */
	assert_int_equal(lx_wake_sigchld(&f.p, &f.t.cpu, 0), 1);
	assert_int_equal(now(), 2000);
	assert_true(f.p.pend.set & chld);
	assert_int_equal(f.p.pend.info[SIGCHLD].si_pid, b);
	assert_int_equal(f.p.pend.info[SIGCHLD].si_code, CLD_EXITED);
	assert_int_equal(f.p.pend.info[SIGCHLD].si_status, 2);
	assert_true(lx_hold_given(&f.p, b));
	/* the host's SIGCHLD for b is dropped */
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGCHLD;
	si.si_code = CLD_EXITED;
	si.si_pid = b;
	assert_int_equal(lx_hold_take(&f.p, SIGCHLD, &si, NULL), 1);
	assert_int_equal(f.p.nheld, 0);
	/* then a's */
	f.p.pend.set = 0;
	assert_int_equal(lx_wake_sigchld(&f.p, &f.t.cpu, 0), 1);
	woke(a, 4000);
	/* none left to wait for: the host's wait */
	assert_int_equal(lx_wake_sigchld(&f.p, &f.t.cpu, 0), 0);
	assert_int_equal(now(), 4000);
	/* reaping b sends no second SIGCHLD, and forgets it was woken for;
	 * nor a, whose SIGCHLD the host never sent (merged with b's) */
	reap(b);
	assert_false(f.p.pend.set & chld);
	assert_false(lx_hold_given(&f.p, b));
	reap(a);
	assert_false(f.p.pend.set & chld);
}

static void test_kept_reports(void **state)
{
	const uint64_t any[6] = { (uint64_t)-1, 0, WNOHANG, 0, 0, 0 };
	long r = 99;

	(void)state;
	run(1000);
	/* a report kept for later, of a child that ended at 3000 */
	f.p.stash[0] = (struct lx_report){ .pid = 77, .status = W_EXITCODE(4, 0), .end = 3000 };
	f.p.nstash = 1;
	assert_int_equal(lx_wake_pick(&f.p, &f.t.cpu, 61, any, &r), 0);
	assert_int_equal(r, 0);
	/* a child whose SIGCHLD the parent has had is found at once, ended
	 * later on the clock or not (it learnt of the end) */
	int late = child(5, 9000);
	siginfo_t si = lx_child_end(late, W_EXITCODE(5, 0));
	lx_hold_pend(&f.p, late, &si);
	assert_int_equal(lx_wake_pick(&f.p, &f.t.cpu, 61, any, &r), late);
	reap(late);
	f.p.pend.set = 0;
	/* sigsuspend lasts until the kept one's end */
	assert_int_equal(lx_wake_sigchld(&f.p, &f.t.cpu, 0), 1);
	assert_int_equal(now(), 3000);
	assert_int_equal(f.p.pend.info[SIGCHLD].si_pid, 77);
	assert_int_equal(f.p.pend.info[SIGCHLD].si_status, 4);
	/* then the wait takes it from what is kept (lx_reap_stashed()) */
	assert_int_equal(lx_wake_pick(&f.p, &f.t.cpu, 61, any, &r), -1);
}

static void test_read_ends_at_next_end(void **state)
{
	int fds[2];
	char buf[8];

	(void)state;
	assert_int_equal(pipe(fds), 0);
	run(100);
	int a = child(1, 2500);
	const uint64_t rd[6] = { (uint64_t)fds[0], (uint64_t)(uintptr_t)buf, sizeof(buf) };
	/* a read of an empty pipe lasts until a's end, where SIGCHLD cuts
	 * it short */
	assert_int_equal(lx_wake_call(&f.p, &f.t.cpu, 0, rd), 1);
	woke(a, 2500);
	/* one that would not wait is left as it was */
	assert_int_equal(write(fds[1], "x", 1), 1);
	assert_int_equal(lx_wake_call(&f.p, &f.t.cpu, 0, rd), -1);
	assert_int_equal(read(fds[0], buf, 1), 1);
	/* a poll of 10 ms: made, to time out, while the next end (at 12
	 * ms) comes after its deadline; nothing comes */
	int b = child(3, 12000000);
	struct pollfd pfd = { fds[0], POLLIN, 0 };
	const uint64_t pl[6] = { (uint64_t)(uintptr_t)&pfd, 1, 10 };
	assert_int_equal(lx_wake_call(&f.p, &f.t.cpu, 7, pl), 0);
	assert_false(f.p.pend.set & LX_SIGBIT(SIGCHLD));
	assert_int_equal(now(), 2500);
	/* timed out, the clock at 10 ms + 2500 ns: the next poll of 10 ms
	 * ends at b's end, as one with no timeout does */
	lx_wait_done(&f.p, &f.t.cpu, 10002500);
	assert_int_equal(lx_wake_call(&f.p, &f.t.cpu, 7, pl), 1);
	woke(b, 12000000);
	child(4, 12000100);
	const uint64_t forever[6] = { (uint64_t)(uintptr_t)&pfd, 1, (uint64_t)-1 };
	assert_int_equal(lx_wake_call(&f.p, &f.t.cpu, 7, forever), 1);
	assert_int_equal(now(), 12000100);
	close(fds[0]);
	close(fds[1]);
}

static void test_sleep_ends_at_next_end(void **state)
{
	(void)state;
	run(100);
	int a = child(1, 5000), b = child(2, 9000);
	/* a sleep to 4000 ns: no end by then, the host sleeps it */
	assert_int_equal(lx_wake_sleep(&f.p, &f.t.cpu, 4000), 0);
	assert_false(f.p.pend.set & LX_SIGBIT(SIGCHLD));
	lx_wait_done(&f.p, &f.t.cpu, 4000);
	/* one to 10000 ns ends at a's end, then one at b's */
	assert_int_equal(lx_wake_sleep(&f.p, &f.t.cpu, 10000), 1);
	woke(a, 5000);
	assert_int_equal(lx_wake_sleep(&f.p, &f.t.cpu, 10000), 1);
	woke(b, 9000);
	assert_int_equal(lx_wake_sleep(&f.p, &f.t.cpu, 10000), 0);
}

static void test_running_parent_looks(void **state)
{
	(void)state;
	run(1000);
	int a = child(1, 500), b = child(2, 5000);
	/* the first look: a ended by the clock, b not yet */
	assert_int_equal(lx_wake_due(&f.p, &f.t.cpu), (1u << 20) - 1000);
	assert_true(f.p.pend.set & LX_SIGBIT(SIGCHLD));
	assert_int_equal(f.p.pend.info[SIGCHLD].si_pid, a);
	assert_int_equal(now(), 1000); /* (the clock does not move) */
	f.p.pend.set = 0;
	/* no look before the next 2^20 instructions */
	run(10000);
	assert_int_equal(lx_wake_due(&f.p, &f.t.cpu), (1u << 20) - 11000);
	assert_false(f.p.pend.set & LX_SIGBIT(SIGCHLD));
	/* past b's end, the look there gives its */
	run((1u << 20) - 11000);
	assert_int_equal(lx_wake_due(&f.p, &f.t.cpu), 1u << 20);
	assert_int_equal(f.p.pend.info[SIGCHLD].si_pid, b);
	f.p.pend.set = 0;
	/* both had theirs: the next look gives none; a child whose end the
	 * blocked SIGCHLD kept back is looked for when it is unblocked */
	run(1u << 20);
	assert_int_equal(lx_wake_due(&f.p, &f.t.cpu), 1u << 20);
	assert_false(f.p.pend.set & LX_SIGBIT(SIGCHLD));
	int c = child(3, 100);
	f.t.blocked = LX_SIGBIT(SIGCHLD);
	run(1u << 20);
	lx_wake_due(&f.p, &f.t.cpu);
	assert_false(f.p.pend.set & LX_SIGBIT(SIGCHLD));
	f.t.blocked = 0;
	lx_wake_look(&f.p, &f.t.cpu);
	assert_int_equal(f.p.pend.info[SIGCHLD].si_pid, c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_nohang_sees_the_clock, setup_wake,
						teardown_wake),
		cmocka_unit_test_setup_teardown(test_sigsuspend_wakes_at_next_end, setup_wake,
						teardown_wake),
		cmocka_unit_test_setup_teardown(test_kept_reports, setup_wake, teardown_wake),
		cmocka_unit_test_setup_teardown(test_read_ends_at_next_end, setup_wake,
						teardown_wake),
		cmocka_unit_test_setup_teardown(test_sleep_ends_at_next_end, setup_wake,
						teardown_wake),
		cmocka_unit_test_setup_teardown(test_running_parent_looks, setup_wake,
						teardown_wake),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
