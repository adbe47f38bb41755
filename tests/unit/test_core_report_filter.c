/* Unit tests for core/report_filter.c: the filters of report, script and
 * diff keep a sample only if it passes each one given; IDs compare as
 * numbers and a list with anything else is refused. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/report_filter.h"

static struct report_loc hot = { .dso = "prog", .path = "/bin/prog", .sym = "hot" };
static struct report_loc nowhere = { .addr = 0x7000 };

static struct report_sample sample(uint32_t pid, uint32_t tid, const char *comm,
				   struct report_loc *l)
{
	struct report_sample s = { .pid = pid, .tid = tid, .comm = comm, .loc = l };
	return s;
}

static void test_each_kind(void **state)
{
	struct report_filter f = { 0 };
	struct report_sample a = sample(100, 101, "prog", &hot), b = sample(100, 102, "prog", &hot),
			     c = sample(200, 200, "sh", &nowhere);
	(void)state;
	assert_int_equal(report_filter_keep(NULL, &c, &f), 1); /* none given: all */
	assert_int_equal(report_filter_add(&f, REPORT_F_PID, "7,0100"), 0);
	assert_int_equal(report_filter_keep(NULL, &a, &f), 1);
	assert_int_equal(report_filter_keep(NULL, &c, &f), 0);
	assert_int_equal(report_filter_add(&f, REPORT_F_TID, "102"), 0);
	assert_int_equal(report_filter_keep(NULL, &a, &f), 0);
	assert_int_equal(report_filter_keep(NULL, &b, &f), 1);
	report_filter_free(&f);
	assert_int_equal(report_filter_add(&f, REPORT_F_DSO, "/bin/prog"), 0);
	assert_int_equal(report_filter_keep(NULL, &a, &f), 1);
	assert_int_equal(report_filter_add(&f, REPORT_F_COMM, "sh"), 0);
	assert_int_equal(report_filter_keep(NULL, &a, &f), 0);
	report_filter_free(&f);
	f.resolved = 1;
	assert_int_equal(report_filter_keep(NULL, &a, &f), 1);
	assert_int_equal(report_filter_keep(NULL, &c, &f), 0);
}

static void test_bad_ids(void **state)
{
	struct report_filter f = { 0 };
	(void)state;
	errno = 0;
	assert_int_equal(report_filter_add(&f, REPORT_F_PID, "12,x"), -1);
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_int_equal(report_filter_add(&f, REPORT_F_TID, ""), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(report_filter_add(&f, REPORT_F_TID, "12345678901"), -1);
	assert_int_equal(report_filter_add(&f, REPORT_F_SYM, "x,,y"), 0);
	report_filter_free(&f);
}

/* --time: seconds of the file's clock, both ends in, either open. */
static void test_time(void **state)
{
	struct sfile_param mhz = { .key = "core.mhz", .value = "2000" };
	struct report r = { .path = "f.data", .params = &mhz, .nparams = 1 }, bare = { 0 };
	struct report_filter f = { 0 };
	struct report_sample s = sample(1, 1, "prog", &hot);

	(void)state;
	assert_int_equal(report_filter_time(&f, "0.000001,0.000002"), 0);
	assert_int_equal(report_filter_clock(&f, &r), 0);
	assert_int_equal(f.c_from[0], 2000);
	assert_int_equal(f.c_to[0], 4000);
	for (uint64_t t = 1999; t <= 4001; t++) {
		s.time = t;
		assert_int_equal(report_filter_keep(&r, &s, &f), t >= 2000 && t <= 4000);
	}
	assert_int_equal(report_filter_time(&f, ",0.5"), 0);
	assert_int_equal(report_filter_clock(&f, &r), 0);
	assert_int_equal(f.c_from[0], 0);
	assert_int_equal(f.c_to[0], 1000000000);
	assert_int_equal(report_filter_time(&f, "0.5,"), 0);
	assert_int_equal(report_filter_clock(&f, &r), 0);
	assert_int_equal(f.c_to[0], UINT64_MAX);
	assert_int_equal(report_filter_clock(&f, &bare), -1); /* no clock */
	/* several spans, by spaces */
	assert_int_equal(report_filter_time(&f, " 0.000001,0.000002  0.000003, "), 0);
	assert_int_equal(report_filter_clock(&f, &r), 0);
	assert_int_equal(f.ntimes, 2);
	for (uint64_t t = 1999; t <= 6001; t++) {
		s.time = t;
		assert_int_equal(report_filter_keep(&r, &s, &f),
				 (t >= 2000 && t <= 4000) || t >= 6000);
	}
	const char *bad[] = { "", "1", "1,2,3", "2,1", "x,1", "-1,2", "1,2x", "nan,1", "1,2 3" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		assert_int_equal(report_filter_time(&f, bad[i]), -1);
		assert_int_equal(errno, EINVAL);
	}
	report_filter_free(&f);
}

/* --time in percents of the span of the file's samples (perf's forms):
 * the samples at cycles 1000 to 2000. */
static void test_time_percent(void **state)
{
	struct report_sample ss[2] = { sample(1, 1, "prog", &hot), sample(1, 1, "prog", &hot) };
	struct report r = { .path = "f.data", .samples = ss, .nsamples = 2 };
	struct report_filter f = { 0 };
	struct report_sample s = sample(1, 1, "prog", &hot);

	(void)state;
	ss[0].time = 2000;
	ss[1].time = 1000;
	/* 0%-10% and 30%-40%: no clock needed */
	assert_int_equal(report_filter_time(&f, "0%-10%,30%-40%"), 0);
	assert_int_equal(report_filter_clock(&f, &r), 0);
	for (uint64_t t = 990; t <= 2010; t++) {
		s.time = t;
		assert_int_equal(report_filter_keep(&r, &s, &f),
				 (t >= 1000 && t <= 1100) || (t >= 1300 && t <= 1400));
	}
	/* 25%/2: the second quarter; 10%/1,10%/10: the first and last tenths */
	assert_int_equal(report_filter_time(&f, "25%/2"), 0);
	assert_int_equal(report_filter_clock(&f, &r), 0);
	assert_int_equal(f.ntimes, 1);
	assert_int_equal(f.c_from[0], 1250);
	assert_int_equal(f.c_to[0], 1500);
	assert_int_equal(report_filter_time(&f, "10%/1,10%/10"), 0);
	assert_int_equal(report_filter_clock(&f, &r), 0);
	assert_int_equal(f.c_from[1], 1900);
	assert_int_equal(f.c_to[1], 2000);
	const char *bad[] = { "10%",   "10%/0",	 "10%/11",  "20%-10%", "10%-101%",
			      "10%/x", "1%/1.5", "0%-10%,", "5%,0.1",  "0%-10% 30%-40%" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		assert_int_equal(report_filter_time(&f, bad[i]), -1);
		assert_int_equal(errno, EINVAL);
	}
	report_filter_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_kind),
		cmocka_unit_test(test_bad_ids),
		cmocka_unit_test(test_time_percent),
		cmocka_unit_test(test_time),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
