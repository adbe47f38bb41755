/* Unit tests for hist.c's callers' view (report --children): each sample
 * added to the functions of its call chain once, self periods, and the
 * order of entries whose periods tie (a caller first).  The report is
 * built in memory: hist_add_frames reads only its chains. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/hist.h"
#include "core/report.h"

static struct report_loc l_main = { .addr = 0x1010, .sym = "main", .path = "/prog", .dso = "prog" },
			 l_main2 = { .addr = 0x1020, .sym = "main", .path = "/prog", .dso = "prog" },
			 l_f = { .addr = 0x2010, .sym = "f", .path = "/prog", .dso = "prog" },
			 l_g = { .addr = 0x3010, .sym = "g", .path = "/prog", .dso = "prog" };

/* chains: [0..3) g f main; [3..5) f main; [5..8) g main main (recursion) */
static struct report_loc *chains[] = { &l_g, &l_f, &l_main, &l_f, &l_main, &l_g, &l_main2, &l_main };

static struct report_sample samples[] = {
	{ .period = 3, .loc = &l_g, .chain = 0, .nchain = 3 },
	{ .period = 1, .loc = &l_f, .chain = 3, .nchain = 2 },
	{ .period = 2, .loc = &l_g, .chain = 5, .nchain = 3 },
	{ .period = 4, .loc = &l_f, .nchain = 0 }, /* no chain: its own function only */
};

static struct report_event event = { .period = 10 };
static struct report rep = { .events = &event, .nevents = 1, .chains = chains };

static struct hist *hist_of(size_t n, int children)
{
	const struct hist_key *k = hist_key_find("sym");
	struct hist *h = hist_new(&rep, &k, 1);

	assert_non_null(h);
	for (size_t i = 0; i < n; i++) {
		if (children)
			assert_int_equal(hist_add_frames(h, &samples[i], NULL, NULL), 1);
		else
			assert_int_equal(hist_add(h, &samples[i]), 0);
	}
	assert_int_equal(hist_finish(h), 0);
	return h;
}

static void expect(const struct hist_entry *e, const char *sym, uint64_t period, uint64_t self)
{
	assert_string_equal(e->s->loc->sym, sym);
	assert_int_equal(e->period, period);
	assert_int_equal(e->self, self);
}

static void test_children(void **state)
{
	struct hist *h = hist_of(4, 1);

	(void)state;
	/* main: 3 + 1 + 2 once (not twice for the recursion); f: 3 + 1 + 4 */
	assert_int_equal(h->nentries, 3);
	expect(&h->entries[0], "f", 8, 5);
	expect(&h->entries[1], "main", 6, 0);
	expect(&h->entries[2], "g", 5, 5);
	/* the totals are the samples', not the frames' */
	assert_int_equal(h->period, 10);
	assert_int_equal(h->nsamples, 4);
	hist_free(h);
}

static void test_callers_first(void **state)
{
	/* one chain g <- f <- main: every entry has all of it */
	struct hist *h = hist_of(1, 1);

	(void)state;
	assert_int_equal(h->nentries, 3);
	expect(&h->entries[0], "main", 3, 0);
	expect(&h->entries[1], "f", 3, 0);
	expect(&h->entries[2], "g", 3, 3);
	hist_free(h);
}

static void test_self_only(void **state)
{
	struct hist *h = hist_of(4, 0);

	(void)state;
	assert_int_equal(h->nentries, 2);
	expect(&h->entries[0], "f", 5, 5);
	expect(&h->entries[1], "g", 5, 5);
	hist_free(h);
}

/* A filter of the functions: a sample goes in (1) when it keeps one of
 * its chain's, only into those. */
static int only_main(const struct report *r, const struct report_sample *v, void *arg)
{
	(void)r;
	(void)arg;
	return !strcmp(v->loc->sym, "main");
}

static void test_kept_frames(void **state)
{
	const struct hist_key *k = hist_key_find("sym");
	struct hist *h = hist_new(&rep, &k, 1);

	(void)state;
	assert_non_null(h);
	assert_int_equal(hist_add_frames(h, &samples[0], only_main, NULL), 1);
	assert_int_equal(hist_add_frames(h, &samples[3], only_main, NULL), 0);
	assert_int_equal(hist_finish(h), 0);
	assert_int_equal(h->nentries, 1);
	expect(&h->entries[0], "main", 3, 0);
	hist_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_children),
		cmocka_unit_test(test_callers_first),
		cmocka_unit_test(test_self_only),
		cmocka_unit_test(test_kept_frames),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
