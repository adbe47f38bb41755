/* Unit tests for the report library: load bias of an image, a file
 * written with the sample-file writer and read back resolved (this test
 * program maps itself), aggregation by sort keys, sort-key errors, a
 * forked process without mappings of its own, the per-address cache. */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <limits.h>
#include <link.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/hist.h"
#include "core/report.h"
#include "core/sfile.h"
#include "core/sym_bias.h"

__attribute__((noinline)) int report_test_hot(int x)
{
	return x * 7 + 1;
}

__attribute__((noinline)) int report_test_cold(int x)
{
	return x ^ 0x55;
}

static uint64_t self_bias;

static int first_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size, (void)arg;
	self_bias = info->dlpi_addr;
	return 1; /* the executable comes first */
}

static void test_bias(void **state)
{
	char exe[PATH_MAX];
	uint64_t bias;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	(void)state;
	assert_true(n > 0);
	exe[n] = 0;
	assert_int_equal(sym_bias_from_vaddr(0x555555554000ull, 0), 0x555555554000ull);
	assert_int_equal(sym_bias_from_vaddr(0x401000, 0x401234), 0);
	assert_int_equal(sym_bias_from_vaddr(0x7f0000010000ull, 0x10000), 0x7f0000000000ull);
	/* a PIE's lowest PT_LOAD is at vaddr 0: the bias is the start */
	assert_int_equal(sym_image_bias(exe, 0x555555554000ull, &bias), 0);
	assert_int_equal(bias, 0x555555554000ull);
	assert_int_equal(sym_image_bias("/nonexistent", 0x1000, &bias), -1);
	assert_int_equal(bias, 0x1000);
}

/* A file: 3 samples in report_test_hot, 1 in report_test_cold, 1 at an
 * address in no image, 1 of a forked child (pid 2, no MMAP).  Returns
 * the path (static). */
static const char *write_file(void)
{
	static char path[64];
	char exe[PATH_MAX], err[256];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	uint64_t hot = (uintptr_t)report_test_hot, cold = (uintptr_t)report_test_cold;
	/* a return address inside cold (looked up at the byte before it) */
	uint64_t chain[2] = { hot, cold + 1 };
	struct sfile_writer *w;
	struct sfile_attr a = { .id = 7,
				.name = "cycles",
				.machine = "p4",
				.period = 10,
				.sample_type = SFILE_S_CALLCHAIN };
	struct sfile_comm c = { 1, 1, "self" };
	struct sfile_mmap m = { .pid = 1, .prot = 5, .start = self_bias, .len = 1u << 24 };
	struct sfile_sample s = { .id = 7, .pid = 1, .tid = 1, .period = 10 };

	assert_true(n > 0);
	exe[n] = 0;
	m.path = exe;
	snprintf(path, sizeof(path), "/tmp/vpmu-test-report.%d", (int)getpid());
	w = sfile_create(path, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(sfile_add_attr(w, &a), 0);
	assert_int_equal(sfile_add_comm(w, &c), 0);
	assert_int_equal(sfile_add_mmap(w, &m), 0);
	s.ip = hot;
	s.ncallchain = 2;
	s.callchain = chain;
	for (int i = 0; i < 3; i++)
		assert_int_equal(sfile_add_sample(w, &s), 0);
	s.ncallchain = 0;
	s.ip = cold;
	assert_int_equal(sfile_add_sample(w, &s), 0);
	s.ip = 0x10;
	assert_int_equal(sfile_add_sample(w, &s), 0);
	s.pid = s.tid = 2;
	s.ip = hot;
	assert_int_equal(sfile_add_sample(w, &s), 0);
	assert_int_equal(sfile_close(w, err, sizeof(err)), 0);
	return path;
}

static void test_load(void **state)
{
	const char *path = write_file();
	char err[256], buf[64];
	struct report *r = report_open(path, 0, err, sizeof(err));

	(void)state;
	assert_non_null(r);
	assert_int_equal(r->nevents, 1);
	assert_int_equal(r->nsamples, 6);
	assert_int_equal(r->unknown_event_samples, 0);
	assert_int_equal(r->events[0].nsamples, 6);
	assert_int_equal(r->events[0].period, 60);
	assert_true(r->finished);
	assert_null(report_damage_str(r, buf, sizeof(buf)));
	assert_string_equal(r->samples[0].loc->sym, "report_test_hot");
	assert_string_equal(r->samples[0].comm, "self");
	/* the same address of the same space resolves to the same loc */
	assert_ptr_equal(r->samples[0].loc, r->samples[1].loc);
	assert_int_equal(r->samples[0].nchain, 2);
	assert_string_equal(r->chains[r->samples[0].chain + 1]->sym, "report_test_cold");
	assert_int_equal(r->chains[r->samples[0].chain + 1]->addr, (uintptr_t)report_test_cold + 1);
	assert_true(r->chains[r->samples[0].chain + 1]->ret);
	/* entry 0 is the sampled instruction itself: the sample's loc */
	assert_ptr_equal(r->chains[r->samples[0].chain], r->samples[0].loc);
	assert_false(r->samples[0].loc->ret);
	assert_string_equal(r->samples[3].loc->sym, "report_test_cold");
	assert_null(r->samples[4].loc->sym);
	assert_string_equal(report_loc_dso(r->samples[4].loc), "[unknown]");
	assert_string_equal(report_loc_sym(r->samples[4].loc, buf, sizeof(buf)),
			    "0x0000000000000010");
	/* pid 2 has no mappings: resolved in everyone's; named by its tid */
	assert_string_equal(r->samples[5].loc->sym, "report_test_hot");
	assert_string_equal(r->samples[5].comm, ":2");
	assert_int_equal(report_loc_line(r->samples[0].loc), 0);
	assert_non_null(strstr(r->samples[0].loc->srcfile, "test_core_report.c"));
	assert_int_equal(report_event_find(r, "cycles"), 0);
	assert_int_equal(report_event_find(r, "nope"), -1);
	report_close(r);
	r = report_open(path, REPORT_NO_CHAINS, err, sizeof(err));
	assert_non_null(r);
	assert_int_equal(r->samples[0].nchain, 0);
	report_close(r);
	unlink(path);
}

static void test_hist(void **state)
{
	const char *path = write_file();
	const struct hist_key *keys[HIST_MAXKEYS];
	char err[256];
	struct report *r = report_open(path, 0, err, sizeof(err));
	struct hist *h;
	int n;

	(void)state;
	assert_non_null(r);
	assert_int_equal(hist_keys_parse("sym,comm", keys, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	h = hist_new(r, keys, n);
	for (size_t i = 0; i < r->nsamples; i++)
		assert_int_equal(hist_add(h, &r->samples[i]), 0);
	assert_int_equal(hist_finish(h), 0);
	/* hot in "self" 3, cold 1, 0x10 1, hot in ":2" 1 */
	assert_int_equal(h->nentries, 4);
	assert_int_equal(h->entries[0].nsamples, 3);
	assert_int_equal(h->entries[0].period, 30);
	assert_string_equal(h->entries[0].s->loc->sym, "report_test_hot");
	assert_int_equal(h->nsamples, 6);
	hist_free(h);
	/* by sym alone the two processes' hot merge */
	assert_int_equal(hist_keys_parse("sym", keys, &n, err, sizeof(err)), 0);
	h = hist_new(r, keys, n);
	for (size_t i = 0; i < r->nsamples; i++)
		assert_int_equal(hist_add(h, &r->samples[i]), 0);
	assert_int_equal(hist_finish(h), 0);
	assert_int_equal(h->nentries, 3);
	assert_int_equal(h->entries[0].nsamples, 4);
	hist_free(h);
	assert_int_equal(hist_keys_parse("sym,srcfiel", keys, &n, err, sizeof(err)), -1);
	assert_string_equal(err, "unknown sort key 'srcfiel'; did you mean 'srcfile'?");
	assert_int_equal(hist_keys_parse("sym,sym", keys, &n, err, sizeof(err)), -1);
	assert_int_equal(hist_keys_parse("sym,", keys, &n, err, sizeof(err)), -1);
	report_close(r);
	unlink(path);
}

/* Samples naming their trigger: loaded, and bucketed by the skid key
 * (0-7 exact, then powers of two; no trigger: [unknown]). */
static void test_skid(void **state)
{
	static const uint64_t skid[] = { 0, 0, 3, 69, 100, 8, 0 };
	struct sfile_attr a = {
		.id = 1, .name = "e", .machine = "p4", .period = 10, .sample_type = SFILE_S_TRIGGER
	};
	struct sfile_sample s = { .id = 1, .pid = 1, .tid = 1, .ip = 0x1000, .period = 10 };
	const struct hist_key *keys[HIST_MAXKEYS];
	char path[64], err[256], buf[32];
	struct sfile_writer *w;
	struct report *r;
	struct hist *h;
	int n;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/vpmu-test-skid.%d", (int)getpid());
	w = sfile_create(path, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(sfile_add_attr(w, &a), 0);
	for (size_t i = 0; i < sizeof(skid) / sizeof(skid[0]); i++) {
		s.skid = skid[i];
		s.trigger_ip = i + 1 < sizeof(skid) / sizeof(skid[0]) ? 0x1000 - skid[i] : 0;
		assert_int_equal(sfile_add_sample(w, &s), 0);
	}
	assert_int_equal(sfile_close(w, err, sizeof(err)), 0);
	r = report_open(path, 0, err, sizeof(err));
	assert_non_null(r);
	assert_int_equal(r->nsamples, 7);
	assert_true(r->samples[3].has_trigger);
	assert_int_equal(r->samples[3].trigger_ip, 0x1000 - 69);
	assert_int_equal(r->samples[3].skid, 69);
	assert_false(r->samples[6].has_trigger); /* trigger_ip 0: unknown */
	assert_int_equal(hist_keys_parse("skid", keys, &n, err, sizeof(err)), 0);
	h = hist_new(r, keys, n);
	for (size_t i = 0; i < r->nsamples; i++)
		assert_int_equal(hist_add(h, &r->samples[i]), 0);
	assert_int_equal(hist_finish(h), 0);
	/* 0 (2), 64-127 (69, 100), then one each in bucket order */
	assert_int_equal(h->nentries, 5);
	assert_string_equal(keys[0]->str(r, h->entries[0].s, buf, sizeof(buf)), "0");
	assert_int_equal(h->entries[0].nsamples, 2);
	assert_string_equal(keys[0]->str(r, h->entries[1].s, buf, sizeof(buf)), "64-127");
	assert_int_equal(h->entries[1].nsamples, 2);
	assert_string_equal(keys[0]->str(r, h->entries[2].s, buf, sizeof(buf)), "[unknown]");
	assert_string_equal(keys[0]->str(r, h->entries[3].s, buf, sizeof(buf)), "3");
	assert_string_equal(keys[0]->str(r, h->entries[4].s, buf, sizeof(buf)), "8-15");
	hist_free(h);
	report_close(r);
	unlink(path);
}

static void test_open_errors(void **state)
{
	char err[256];

	(void)state;
	assert_null(report_open("/nonexistent/vpmu.data", 0, err, sizeof(err)));
	assert_non_null(strstr(err, "/nonexistent/vpmu.data"));
	assert_null(strchr(err, '\n'));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bias),	    cmocka_unit_test(test_load),
		cmocka_unit_test(test_hist),	    cmocka_unit_test(test_skid),
		cmocka_unit_test(test_open_errors),
	};

	dl_iterate_phdr(first_object, NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
