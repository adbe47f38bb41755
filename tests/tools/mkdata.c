/* mkdata — write a vpmu.data from a text description, for the report and
 * script tests (and the report benchmark), through the sample-file writer.
 *
 * usage: mkdata FILE < SPEC
 * SPEC lines (numbers decimal or 0x hex; # starts a comment):
 *   cmdline ARG...
 *   machine NAME [KEY=VALUE...]
 *   attr ID NAME PRECISE SAMPLE_TYPE PERIOD
 *   comm PID TID NAME
 *   mmap PID START LEN PATH
 *   sample ID PID TID CPU IP TIME PERIOD [addr=A] [chain=A,B,...] [regs=A,B,...]
 *   repeat N ...        the sample line that follows, N times (time += 1000)
 *   spread N ID PID LO HI PERIOD [DEPTH]
 *                       N samples at pseudo-random ips in [LO, HI), with call
 *                       chains of DEPTH such ips when DEPTH is given
 *   totals ID VALUE ENABLED RUNNING
 *   lost ID COUNT
 *   flush               end the current block
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sfile.h"

#define MAXW 64

static uint64_t num(const char *s)
{
	return strtoull(s, NULL, 0);
}

static int nums(const char *s, uint64_t *v, int max)
{
	int n = 0;

	while (*s && n < max) {
		char *e;

		v[n++] = strtoull(s, &e, 0);
		s = *e == ',' ? e + 1 : e;
		if (e == s && *s != ',')
			break;
	}
	return n;
}

static int sample(struct sfile_writer *w, char **t, int n, uint64_t repeat)
{
	struct sfile_sample s = { 0 };
	uint64_t chain[128], regs[32];

	if (n < 8)
		return -1;
	s.id = (uint32_t)num(t[1]);
	s.pid = (uint32_t)num(t[2]);
	s.tid = (uint32_t)num(t[3]);
	s.cpu = (uint32_t)num(t[4]);
	s.ip = num(t[5]);
	s.time = num(t[6]);
	s.period = num(t[7]);
	for (int i = 8; i < n; i++) {
		if (!strncmp(t[i], "addr=", 5))
			s.addr = num(t[i] + 5);
		else if (!strncmp(t[i], "chain=", 6)) {
			s.ncallchain = (uint32_t)nums(t[i] + 6, chain, 128);
			s.callchain = chain;
		} else if (!strncmp(t[i], "regs=", 5)) {
			s.nregs = (uint32_t)nums(t[i] + 5, regs, 32);
			s.regs = regs;
		}
	}
	for (uint64_t k = 0; k < repeat; k++, s.time += 1000)
		if (sfile_add_sample(w, &s))
			return -1;
	return 0;
}

static int line(struct sfile_writer *w, char **t, int n, uint64_t *repeat)
{
	const char *c = t[0];

	if (!strcmp(c, "cmdline")) {
		struct sfile_cmdline cl = { (uint32_t)(n - 1), (const char *const *)t + 1 };

		return sfile_add_cmdline(w, &cl);
	}
	if (!strcmp(c, "machine") && n >= 2) {
		struct sfile_param p[MAXW];
		struct sfile_machine m = { t[1], 0, p };

		for (int i = 2; i < n; i++) {
			char *eq = strchr(t[i], '=');

			if (!eq)
				return -1;
			*eq = 0;
			p[m.nparams++] = (struct sfile_param){ t[i], eq + 1 };
		}
		return sfile_add_machine(w, &m);
	}
	if (!strcmp(c, "attr") && n == 6) {
		struct sfile_attr a = { .id = (uint32_t)num(t[1]),
					.name = t[2],
					.precise = (uint16_t)num(t[3]),
					.sample_type = num(t[4]),
					.period = num(t[5]),
					.machine = "p4" };

		return sfile_add_attr(w, &a);
	}
	if (!strcmp(c, "comm") && n == 4) {
		struct sfile_comm cm = { (uint32_t)num(t[1]), (uint32_t)num(t[2]), t[3] };

		return sfile_add_comm(w, &cm);
	}
	if (!strcmp(c, "mmap") && n == 5) {
		struct sfile_mmap m = { .pid = (uint32_t)num(t[1]),
					.prot = 5,
					.start = num(t[2]),
					.len = num(t[3]),
					.path = t[4] };

		return sfile_add_mmap(w, &m);
	}
	if (!strcmp(c, "sample")) {
		int rc = sample(w, t, n, *repeat);

		*repeat = 1;
		return rc;
	}
	if (!strcmp(c, "repeat") && n == 2) {
		*repeat = num(t[1]);
		return 0;
	}
	if (!strcmp(c, "spread") && (n == 7 || n == 8)) {
		uint64_t lo = num(t[4]), hi = num(t[5]), x = 88172645463325252ull, chain[64];
		uint32_t depth = n == 8 ? (uint32_t)num(t[7]) : 0;
		struct sfile_sample s = { .id = (uint32_t)num(t[2]),
					  .pid = (uint32_t)num(t[3]),
					  .tid = (uint32_t)num(t[3]),
					  .period = num(t[6]) };

		for (uint64_t k = num(t[1]); k > 0; k--) {
			for (uint32_t d = 0; d < (depth ? depth : 1) && d < 64; d++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				chain[d] = lo + x % (hi - lo);
			}
			s.ip = chain[0];
			s.callchain = chain;
			s.ncallchain = depth < 64 ? depth : 64;
			s.time += 997;
			if (sfile_add_sample(w, &s))
				return -1;
		}
		return 0;
	}
	if (!strcmp(c, "totals") && n == 5) {
		struct sfile_totals tt = { (uint32_t)num(t[1]), num(t[2]), num(t[3]), num(t[4]) };

		return sfile_add_totals(w, &tt);
	}
	if (!strcmp(c, "lost") && n == 3) {
		struct sfile_lost l = { (uint32_t)num(t[1]), num(t[2]) };

		return sfile_add_lost(w, &l);
	}
	if (!strcmp(c, "flush"))
		return sfile_flush(w);
	fprintf(stderr, "mkdata: bad line starting '%s'\n", c);
	return -2;
}

int main(int argc, char **argv)
{
	char buf[65536], err[512], *t[MAXW];
	struct sfile_writer *w;
	uint64_t repeat = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: mkdata FILE < SPEC\n");
		return 2;
	}
	w = sfile_create(argv[1], err, sizeof(err));
	if (!w) {
		fprintf(stderr, "mkdata: %s\n", err);
		return 1;
	}
	while (fgets(buf, sizeof(buf), stdin)) {
		int n = 0, rc;
		char *save = NULL;

		buf[strcspn(buf, "#\n")] = 0;
		for (char *p = strtok_r(buf, " \t", &save); p && n < MAXW;
		     p = strtok_r(NULL, " \t", &save))
			t[n++] = p;
		if (!n)
			continue;
		rc = line(w, t, n, &repeat);
		if (rc) {
			if (rc == -1)
				fprintf(stderr, "mkdata: %s: %s\n", t[0], sfile_werror(w));
			sfile_abort(w);
			return 1;
		}
	}
	if (sfile_close(w, err, sizeof(err))) {
		fprintf(stderr, "mkdata: %s\n", err);
		return 1;
	}
	return 0;
}
