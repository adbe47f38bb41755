/* Unit tests for emu/linux/reap.c: a report kept for later is given to the
 * next wait that asks for that child, in wait4's or waitid's form, once
 * (but for WNOWAIT); a wait for another child is left to the host; a
 * wait for any child that the host answers with a child which ended
 * later on the emulated clock than another reports the other first
 * (not without --vtime), also where one of them had children of its
 * own; the parent's clock
 * moves on to the end of the child it reaped. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
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

/* A child that exits at once with status st; its slot in the shared
 * area (k), ended at clock at. */
static int child(int k, int st, int64_t at)
{
	int pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		_exit(st);
	struct lx_slot *s = &f.p.sh->slot[k];
	s->pid = pid;
	s->vt_at = at;
	s->state = LX_SLOT_EXITED;
	f.p.sh->next = (uint32_t)k + 1;
	lx_reap_forked(&f.p, pid);
	siginfo_t si;
	assert_int_equal(waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT), 0); /* a zombie */
	return pid;
}

static void test_earlier_end_first(void **state)
{
	int fd, status = 0, wst;
	long r;
	(void)state;
	f.p.sh = lx_shared_create(&fd);
	assert_non_null(f.p.sh);
	/* a forked first, ended at 500; b after it, ended at 300; c after
	 * them, still running but its clock past both */
	int a = child(0, 1, 500), b = child(1, 2, 300);
	struct lx_slot *c = &f.p.sh->slot[2];
	c->pid = 999999;
	c->vt_at = 1000;
	c->state = LX_SLOT_RUNNING;
	f.p.sh->next = 3;
	lx_reap_forked(&f.p, c->pid);
	/* the host's wait4(-1) gave a */
	const uint64_t any[6] = { (uint64_t)-1, (uint64_t)(uintptr_t)&status, 0, 0, 0, 0 };
	assert_int_equal(wait4(a, &status, 0, NULL), a);
	wst = status;
	r = lx_reap_order(&f.p, 61, any, a, &wst);
	assert_int_equal(r, b);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 2);
	assert_int_equal(wst, status);
	/* a's report, kept: the next wait's */
	assert_int_equal(f.p.nstash, 1);
	assert_int_equal(lx_reap_stashed(&f.p, 61, any, &r, &wst), 1);
	assert_int_equal(r, a);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 1);
	assert_int_equal(f.p.nkids, 1); /* c's */
	/* a child that had children of its own is ordered by its clock
	 * too (it stood while it waited for them, and moved on to their
	 * ends): d, whose child ended, after e */
	int d = child(3, 4, 700), e = child(4, 5, 600);
	f.p.sh->slot[5] = (struct lx_slot){ .pid = 999998, .ppid = d, .vt_at = 650 };
	f.p.sh->slot[5].state = LX_SLOT_EXITED;
	f.p.sh->next = 6;
	assert_int_equal(wait4(d, &status, 0, NULL), d);
	wst = status;
	assert_int_equal(lx_reap_order(&f.p, 61, any, d, &wst), e);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 5);
	assert_int_equal(lx_reap_stashed(&f.p, 61, any, &r, &wst), 1);
	assert_int_equal(r, d);
	/* and so it does without --vtime */
	int g = child(5, 6, 900), h = child(6, 7, 800);
	f.cfg.vtime = 0;
	assert_int_equal(wait4(g, &status, 0, NULL), g);
	wst = status;
	assert_int_equal(lx_reap_order(&f.p, 61, any, g, &wst), g);
	assert_int_equal(wait4(h, &status, 0, NULL), h);
	close(fd);
}

/* Child pid, ended at clock at after running insns instructions, in slot
 * k of the shared area. */
static void ended_child(int k, int pid, int64_t at, uint64_t insns)
{
	struct lx_slot *s = &f.p.sh->slot[k];

	s->pid = pid;
	s->vt_at = at;
	s->cnt.insns = insns;
	s->state = LX_SLOT_EXITED;
	f.p.sh->next = (uint32_t)k + 1;
}

static void test_reap_moves_clock(void **state)
{
	int fd;

	(void)state;
	f.p.sh = lx_shared_create(&fd);
	assert_non_null(f.p.sh);
	f.p.slot = &f.p.sh->slot[0];
	f.p.slot->pid = f.p.pid;
	f.p.slot->state = LX_SLOT_RUNNING;
	run(100);
	assert_int_equal(lx_clock_ns(&f.p, &f.t.cpu, CLOCK_MONOTONIC), 100);
	/* a child that ended at 5000: the wait stood until then */
	ended_child(1, 501, 5000, 4000);
	lx_vtime_reaped(&f.p, &f.t.cpu, 501);
	assert_int_equal(lx_clock_ns(&f.p, &f.t.cpu, CLOCK_MONOTONIC), 5000);
	assert_int_equal(lx_vtime_cpu(&f.p, &f.t.cpu), 100); /* waiting is no CPU time */
	assert_int_equal(f.p.slot->children_ns, 4000);
	/* one that ended before now leaves the clock where it is */
	ended_child(2, 502, 3000, 2000);
	lx_vtime_reaped(&f.p, &f.t.cpu, 502);
	assert_int_equal(lx_clock_ns(&f.p, &f.t.cpu, CLOCK_MONOTONIC), 5000);
	assert_int_equal(f.p.slot->children_ns, 6000);
	/* with another thread, which ran on meanwhile, and without
	 * --vtime, it is not moved */
	ended_child(3, 503, 9000, 10);
	f.p.nth = 2;
	lx_vtime_reaped(&f.p, &f.t.cpu, 503);
	assert_int_equal(lx_clock_ns(&f.p, &f.t.cpu, CLOCK_MONOTONIC), 5000);
	f.p.nth = 1;
	f.cfg.vtime = 0;
	lx_vtime_reaped(&f.p, &f.t.cpu, 503);
	f.cfg.vtime = 1;
	assert_int_equal(lx_clock_ns(&f.p, &f.t.cpu, CLOCK_MONOTONIC), 5000);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_wait4_takes_it, setup_kept),
		cmocka_unit_test_setup(test_waitid_form, setup_kept),
		cmocka_unit_test_setup(test_earlier_end_first, setup),
		cmocka_unit_test_setup(test_reap_moves_clock, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
