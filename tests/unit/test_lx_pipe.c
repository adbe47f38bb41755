/* Unit tests for emu/linux/pipe.c: under --vtime a read of a pipe a guest
 * writes returns the bytes of one write (or the count), however many
 * writes the pipe holds; a write larger than a page goes in page by page,
 * each an end of its own; a pipe no guest made reads as the host gives. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_lx_timer.h"

static int shfd = -1, fds[2] = { -1, -1 };

static int setup_pipe(void **state)
{
	setup(state);
	f.p.sh = lx_shared_create(&shfd);
	if (!f.p.sh || pipe(fds))
		return -1;
	return 0;
}

static int teardown_pipe(void **state)
{
	(void)state;
	close(fds[0]);
	close(fds[1]);
	close(shfd);
	return 0;
}

/* The pipe made by the guest (pipe(2) through the shared record). */
static void made(void)
{
	uint64_t a[6] = { (uint64_t)(uintptr_t)fds, 0, 0, 0, 0, 0 };

	lx_pipe_done(&f.p, 22, a, 0);
}

/* A guest write of n bytes of c: what it returns. */
static long guest_write(const char *buf, size_t n)
{
	uint64_t a[6] = { (uint64_t)fds[1], (uint64_t)(uintptr_t)buf, n, 0, 0, 0 };
	long r;

	if (lx_pipe_write(&f.p, &f.t.cpu, a, &r))
		return r;
	r = write(fds[1], buf, n);
	lx_pipe_done(&f.p, 1, a, r);
	return r;
}

/* A guest read of up to n bytes: what it returns. */
static long guest_read(char *buf, size_t n)
{
	uint64_t a[6] = { (uint64_t)fds[0], (uint64_t)(uintptr_t)buf, n, 0, 0, 0 };
	long r;

	if (lx_pipe_read(&f.p, &f.t.cpu, a, &r))
		return r;
	r = read(fds[0], buf, n);
	lx_pipe_done(&f.p, 0, a, r);
	return r;
}

static void test_one_write_a_read(void **state)
{
	static char buf[65536];

	(void)state;
	made();
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(guest_write(buf, 100), 100);
	assert_int_equal(guest_write(buf, 1000), 1000);
	assert_int_equal(guest_write(buf, 7), 7);
	/* all three are in the pipe: one read takes each */
	assert_int_equal(guest_read(buf, sizeof(buf)), 100);
	assert_int_equal(guest_read(buf, sizeof(buf)), 1000);
	/* a smaller count takes part of a write, the next read the rest */
	assert_int_equal(guest_write(buf, 50), 50);
	assert_int_equal(guest_read(buf, 5), 5);
	assert_int_equal(guest_read(buf, sizeof(buf)), 2);
	assert_int_equal(guest_read(buf, sizeof(buf)), 50);
	/* the writer gone, the end */
	close(fds[1]);
	fds[1] = -1;
	assert_int_equal(guest_read(buf, sizeof(buf)), 0);
}

static void test_large_write_by_pages(void **state)
{
	static char buf[65536];

	(void)state;
	made();
	memset(buf, 'y', sizeof(buf));
	assert_int_equal(guest_write(buf, 10000), 10000);
	assert_int_equal(guest_read(buf, sizeof(buf)), 4096);
	assert_int_equal(guest_read(buf, sizeof(buf)), 4096);
	assert_int_equal(guest_read(buf, sizeof(buf)), 10000 - 8192);
}

static void test_not_a_guest_pipe(void **state)
{
	char buf[64];

	(void)state;
	/* no record: both writes come in one read, as on the host */
	assert_int_equal(write(fds[1], "abc", 3), 3);
	assert_int_equal(write(fds[1], "defg", 4), 4);
	assert_int_equal(guest_read(buf, sizeof(buf)), 7);
}

static void test_want(void **state)
{
	(void)state;
	/* an end recorded: up to it, if the pipe has that much */
	assert_int_equal(lx_pipe_want(100, 150, 4096, 80, 65536, 0), 50);
	assert_int_equal(lx_pipe_want(100, 150, 20, 80, 65536, 0), 20);
	assert_int_equal(lx_pipe_want(100, 150, 4096, 30, 65536, 0), -1);
	/* none: the count once there, all once full or the writers gone */
	assert_int_equal(lx_pipe_want(100, 0, 64, 64, 65536, 0), 64);
	assert_int_equal(lx_pipe_want(100, 0, 4096, 64, 65536, 0), 0);
	assert_int_equal(lx_pipe_want(100, 0, 1 << 20, 65536, 65536, 0), 1 << 20);
	assert_int_equal(lx_pipe_want(100, 0, 4096, 64, 65536, 1), 4096);
	assert_int_equal(lx_pipe_want(100, 0, 4096, 0, 65536, 1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_one_write_a_read, setup_pipe, teardown_pipe),
		cmocka_unit_test_setup_teardown(test_large_write_by_pages, setup_pipe,
						teardown_pipe),
		cmocka_unit_test_setup_teardown(test_not_a_guest_pipe, setup_pipe, teardown_pipe),
		cmocka_unit_test(test_want),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
