/* Unit tests for emu/linux/hold.c: a child's SIGCHLD held back to the
 * parent's next wait — which calls would wait (block.c lx_block_waits),
 * the points that release it, the fallback budget, and a SIGCHLD the
 * host keeps pending while the guest blocks it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/ucontext.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emu/linux/lx_proc.h"
#include "test_lx_timer.h"

static void on_chld(int sig)
{
	(void)sig;
}

/* the timer tests' process, with a SIGCHLD handler */
static int setup_hold(void **state)
{
	setup(state);
	f.p.act[SIGCHLD].handler = (uint64_t)on_chld;
	return 0;
}

static int waits(long nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
	const uint64_t a[6] = { a0, a1, a2, a3, 0, 0 };

	return lx_block_waits(&f.p, nr, a);
}

/* A child's SIGCHLD as the host handler gets it. */
static siginfo_t chld_info(int pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	si.si_signo = SIGCHLD;
	si.si_code = CLD_EXITED;
	si.si_pid = pid;
	return si;
}

/* A wait4 for any child reaped pid, which ended with status wst. */
static void reap(int pid, int wst)
{
	const uint64_t a[6] = { (uint64_t)-1, 0, 0, 0, 0, 0 };

	lx_hold_waited(&f.p, 61, a, pid, wst);
}

static int pending(void)
{
	return (f.p.pend.set & LX_SIGBIT(SIGCHLD)) != 0;
}

static void test_waits(void **state)
{
	int fd[2];
	uint32_t word = 5;
	char c = 'x';

	(void)state;
	assert_int_equal(pipe(fd), 0);
	assert_int_equal(waits(0, (uint64_t)fd[0], (uint64_t)&c, 1, 0), 1); /* empty pipe */
	assert_int_equal(waits(1, (uint64_t)fd[1], (uint64_t)&c, 1, 0), 0);
	assert_int_equal(write(fd[1], &c, 1), 1);
	assert_int_equal(waits(0, (uint64_t)fd[0], (uint64_t)&c, 1, 0), 0);
	assert_int_equal(read(fd[0], &c, 1), 1);
	close(fd[1]);
	assert_int_equal(waits(0, (uint64_t)fd[0], (uint64_t)&c, 1, 0), 0); /* end of file */
	close(fd[0]);
	/* futex: a wait on the value it expects, not a wake or another value */
	assert_int_equal(waits(202, (uint64_t)&word, FUTEX_WAIT_PRIVATE, 5, 0), 1);
	assert_int_equal(waits(202, (uint64_t)&word, FUTEX_WAIT_BITSET, 5, 0), 1);
	assert_int_equal(waits(202, (uint64_t)&word, FUTEX_WAIT_PRIVATE, 6, 0), 0);
	assert_int_equal(waits(202, (uint64_t)&word, FUTEX_WAKE_PRIVATE, 1, 0), 0);
	/* poll: with a timeout, not with none */
	assert_int_equal(waits(7, 0, 0, 0, 0), 0);
	assert_int_equal(waits(7, 0, 0, (uint64_t)-1, 0), 1);
	assert_int_equal(waits(7, 0, 0, 10, 0), 1);
	assert_int_equal(waits(34, 0, 0, 0, 0), 1); /* pause */
	assert_int_equal(waits(39, 0, 0, 0, 0), 0); /* getpid */
	assert_int_equal(waits(14, 0, 0, 0, 0), 0); /* rt_sigprocmask */
}

/* Poll-like calls wait while none of their descriptors is ready, and
 * looking leaves what they would rewrite as it was. */
static void test_waits_for_descriptors(void **state)
{
	int fd[2], ep;
	char c = 'x';
	struct pollfd pf;
	fd_set in;
	struct epoll_event ev = { .events = EPOLLIN };

	(void)state;
	assert_int_equal(pipe(fd), 0);
	pf = (struct pollfd){ fd[0], POLLIN, 0 };
	FD_ZERO(&in);
	FD_SET(fd[0], &in);
	ep = epoll_create1(0);
	assert_true(ep >= 0);
	ev.data.fd = fd[0];
	assert_int_equal(epoll_ctl(ep, EPOLL_CTL_ADD, fd[0], &ev), 0);
	for (int full = 0; full < 2; full++) {
		assert_int_equal(waits(7, (uint64_t)&pf, 1, (uint64_t)-1, 0), !full);
		assert_int_equal(waits(271, (uint64_t)&pf, 1, 0, 0), !full);
		assert_int_equal(waits(23, (uint64_t)fd[0] + 1, (uint64_t)&in, 0, 0), !full);
		assert_int_equal(waits(270, (uint64_t)fd[0] + 1, (uint64_t)&in, 0, 0), !full);
		assert_int_equal(waits(232, (uint64_t)ep, (uint64_t)&ev, 1, (uint64_t)-1), !full);
		assert_int_equal(pf.revents, 0);
		assert_true(FD_ISSET(fd[0], &in));
		assert_int_equal(write(fd[1], &c, 1), 1);
	}
	/* a descriptor that is not open: the call fails at once */
	close(ep);
	FD_ZERO(&in);
	FD_SET(ep, &in);
	assert_int_equal(waits(23, (uint64_t)ep + 1, (uint64_t)&in, 0, 0), 0);
	close(fd[0]);
	close(fd[1]);
}

static void test_waits_for_child(void **state)
{
	int fd[2];
	char c;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(fd), 0);
	pid = fork();
	if (pid == 0) {
		close(fd[1]);
		if (read(fd[0], &c, 1) < 0)
			_exit(2);
		_exit(0);
	}
	close(fd[0]);
	assert_int_equal(waits(61, (uint64_t)pid, 0, 0, 0), 1); /* still running */
	assert_int_equal(waits(61, (uint64_t)pid, 0, WNOHANG, 0), 0);
	close(fd[1]); /* now it ends */
	siginfo_t si;
	assert_int_equal(waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT), 0);
	assert_int_equal(waits(61, (uint64_t)pid, 0, 0, 0), 0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
}

static void test_release_points(void **state)
{
	siginfo_t si = chld_info(4242);

	(void)state;
	/* a signal that interrupts a host wait is no signal to hold; nor
	 * another signal, one a process sent, or one with two threads */
	ucontext_t in_wait = { 0 };
	in_wait.uc_mcontext.gregs[REG_RIP] = (greg_t)(uintptr_t)lx_host_syscall_ret;
	in_wait.uc_mcontext.gregs[REG_RAX] = -EINTR;
	assert_int_equal(lx_hold_take(&f.p, SIGCHLD, &si, &in_wait), 0);
	in_wait.uc_mcontext.gregs[REG_RAX] = 4242; /* the wait ended first */
	assert_int_equal(lx_hold_take(&f.p, SIGCHLD, &si, &in_wait), 1);
	f.p.held = 0;
	f.p.nheld = 0;
	assert_int_equal(lx_hold_take(&f.p, SIGUSR1, &si, &(ucontext_t){ 0 }), 0);
	si.si_code = SI_USER;
	assert_int_equal(lx_hold_take(&f.p, SIGCHLD, &si, &(ucontext_t){ 0 }), 0);
	si = chld_info(4242);
	f.p.nth = 2;
	assert_int_equal(lx_hold_take(&f.p, SIGCHLD, &si, &(ucontext_t){ 0 }), 0);
	f.p.nth = 1;
	assert_int_equal(lx_hold_take(&f.p, SIGCHLD, &si, &(ucontext_t){ 0 }), 1);
	assert_int_equal(f.p.held, LX_SIGBIT(SIGCHLD));
	assert_false(pending());
	/* calls that neither wait for children nor were interrupted keep it */
	lx_hold_after(&f.p, 14, 0);
	lx_hold_after(&f.p, 0, -EAGAIN);
	assert_false(pending());
	reap(4242, 0);
	assert_true(pending());
	assert_int_equal(f.p.pend.info[SIGCHLD].si_pid, 4242);
	assert_int_equal(f.p.held, 0);
	/* a call that came back interrupted */
	f.p.pend.set = 0;
	assert_int_equal(lx_hold_take(&f.p, SIGCHLD, &si, &(ucontext_t){ 0 }), 1);
	lx_hold_after(&f.p, 0, -EINTR);
	assert_true(pending());
	/* one pending already: the held one joins it, its siginfo kept */
	si = chld_info(7);
	assert_int_equal(lx_hold_take(&f.p, SIGCHLD, &si, &(ucontext_t){ 0 }), 1);
	assert_int_equal(lx_hold_release(&f.p), 1);
	assert_int_equal(f.p.pend.info[SIGCHLD].si_pid, 4242);
	assert_int_equal(lx_hold_release(&f.p), 0);
}

static void test_before_a_wait(void **state)
{
	siginfo_t si = chld_info(4242);
	int fd[2];

	(void)state;
	assert_int_equal(pipe(fd), 0);
	assert_int_equal(lx_hold_take(&f.p, SIGCHLD, &si, &(ucontext_t){ 0 }), 1);
	/* getpid does not wait: made, the signal still held */
	f.t.cpu.r[X86_RAX] = 39;
	assert_int_equal(lx_hold_before(&f.p, &f.t.cpu, 39), 0);
	assert_int_equal(f.p.held, LX_SIGBIT(SIGCHLD));
	/* a read of an empty pipe would: interrupted, the signal pending */
	f.t.cpu.r[X86_RDI] = (uint64_t)fd[0];
	assert_int_equal(lx_hold_before(&f.p, &f.t.cpu, 0), 1);
	assert_true(pending());
	/* pause looks at what is pending itself */
	f.p.pend.set = 0;
	assert_int_equal(lx_hold_take(&f.p, SIGCHLD, &si, &(ucontext_t){ 0 }), 1);
	assert_int_equal(lx_hold_before(&f.p, &f.t.cpu, 34), 0);
	assert_true(pending());
	/* blocked, it does not interrupt the read */
	f.p.pend.set = 0;
	f.t.blocked = LX_SIGBIT(SIGCHLD);
	assert_int_equal(lx_hold_take(&f.p, SIGCHLD, &si, &(ucontext_t){ 0 }), 1);
	assert_int_equal(lx_hold_before(&f.p, &f.t.cpu, 0), 0);
	assert_true(pending());
	close(fd[0]);
	close(fd[1]);
}

static void test_budget(void **state)
{
	siginfo_t si = chld_info(4242);

	(void)state;
	assert_int_equal(lx_hold_budget(&f.p, &f.t.cpu), UINT64_MAX);
	assert_int_equal(lx_hold_take(&f.p, SIGCHLD, &si, &(ucontext_t){ 0 }), 1);
	run(1000);
	assert_int_equal(lx_hold_budget(&f.p, &f.t.cpu), 1ull << 24);
	run((1ull << 24) - 1);
	assert_int_equal(lx_hold_budget(&f.p, &f.t.cpu), 1);
	assert_false(pending());
	run(1);
	assert_int_equal(lx_hold_budget(&f.p, &f.t.cpu), UINT64_MAX);
	assert_true(pending());
}

/* Each child's SIGCHLD at the wait that reaps it: one of two held, or
 * one made from the wait's report for a child whose signal the host
 * never sent (it merged with another's); none for a child whose signal
 * came already. */
static void test_each_child_at_its_reap(void **state)
{
	siginfo_t a = chld_info(101), b = chld_info(102), c = chld_info(103);
	ucontext_t in_wait = { 0 };

	(void)state;
	assert_int_equal(lx_hold_take(&f.p, SIGCHLD, &a, &(ucontext_t){ 0 }), 1);
	assert_int_equal(lx_hold_take(&f.p, SIGCHLD, &b, &(ucontext_t){ 0 }), 1);
	reap(102, 0);
	assert_true(pending());
	assert_int_equal(f.p.pend.info[SIGCHLD].si_pid, 102);
	assert_int_equal(f.p.held, LX_SIGBIT(SIGCHLD)); /* 101's still held */
	f.p.pend.set = 0;
	reap(101, 0);
	assert_int_equal(f.p.pend.info[SIGCHLD].si_pid, 101);
	assert_int_equal(f.p.held, 0);
	/* never sent: made, its status the wait's */
	f.p.pend.set = 0;
	reap(104, 9); /* killed by SIGKILL */
	assert_true(pending());
	assert_int_equal(f.p.pend.info[SIGCHLD].si_pid, 104);
	assert_int_equal(f.p.pend.info[SIGCHLD].si_code, CLD_KILLED);
	assert_int_equal(f.p.pend.info[SIGCHLD].si_status, 9);
	/* one that ended a host wait was pending at once: nothing more */
	f.p.pend.set = 0;
	in_wait.uc_mcontext.gregs[REG_RIP] = (greg_t)(uintptr_t)lx_host_syscall_ret;
	in_wait.uc_mcontext.gregs[REG_RAX] = -EINTR;
	assert_int_equal(lx_hold_take(&f.p, SIGCHLD, &c, &in_wait), 0);
	reap(103, 0);
	assert_false(pending());
	/* a wait that reaped none releases what is held */
	assert_int_equal(lx_hold_take(&f.p, SIGCHLD, &a, &(ucontext_t){ 0 }), 1);
	reap(0, 0);
	assert_true(pending());
	assert_int_equal(f.p.held, 0);
}

/* A SIGCHLD the host keeps pending for a guest that blocks it is taken
 * at the wait that reaps the child. */
static void test_blocked_taken_at_wait(void **state)
{
	sigset_t m, old;
	struct sigaction sa, osa;
	pid_t pid;

	(void)state;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_chld;
	sigaction(SIGCHLD, &sa, &osa);
	sigemptyset(&m);
	sigaddset(&m, SIGCHLD);
	sigprocmask(SIG_BLOCK, &m, &old);
	f.t.blocked = LX_SIGBIT(SIGCHLD);
	pid = fork();
	if (pid == 0)
		_exit(3);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	lx_hold_after(&f.p, 0, 1); /* another call takes nothing */
	assert_false(pending());
	reap(pid, 3 << 8);
	assert_true(pending());
	assert_int_equal(f.p.pend.info[SIGCHLD].si_pid, pid);
	assert_int_equal(f.p.pend.info[SIGCHLD].si_status, 3);
	sigpending(&m);
	assert_false(sigismember(&m, SIGCHLD)); /* no longer the host's */
	sigprocmask(SIG_SETMASK, &old, NULL);
	sigaction(SIGCHLD, &osa, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_waits, setup_hold),
		cmocka_unit_test_setup(test_waits_for_descriptors, setup_hold),
		cmocka_unit_test_setup(test_waits_for_child, setup_hold),
		cmocka_unit_test_setup(test_release_points, setup_hold),
		cmocka_unit_test_setup(test_before_a_wait, setup_hold),
		cmocka_unit_test_setup(test_budget, setup_hold),
		cmocka_unit_test_setup(test_blocked_taken_at_wait, setup_hold),
		cmocka_unit_test_setup(test_each_child_at_its_reap, setup_hold),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
