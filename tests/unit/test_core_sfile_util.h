/* test_core_sfile_util.h — shared by the sample-file tests: a set of
 * records of every type (every optional sample field included), a deep
 * comparison of a decoded record with the one written, and a raw block
 * writer for hand-made damage.  Header-only: each test is one program. */
#ifndef TEST_CORE_SFILE_UTIL_H
#define TEST_CORE_SFILE_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/sfile.h"

#define ALL_FIELDS SFILE_S_KNOWN

/* Attr ids: 1 carries every optional field, 2 none, 3 a callchain. */
static const struct sfile_attr T_ATTRS[] = {
	{ 1, 2, 0, 0x3b000000c000ull, 0x1, 100003, ALL_FIELDS, "mem_uop_retired:pp", "p4" },
	{ 2, 0, SFILE_ATTR_FREQ, 0x3c, 0, 4000, 0, "cycles", "p4" },
	{ 3, 0, 0, 0, 0, 5000, SFILE_S_CALLCHAIN | SFILE_S_ADDR, "", "ia64" },
};

static const char *const T_ARGV[] = { "./prog", "--flag", "", "argument with spaces" };
static const struct sfile_param T_PARAMS[] = {
	{ "l1d.size", "8K" },
	{ "l1d.assoc", "4" },
	{ "bp.kind", "gshare" },
	{ "", "" },
};
static const uint8_t T_BUILD_ID[20] = { 0xde, 0xad, 0xbe, 0xef, 1,  2,	3,  4,	5,  6,
					7,    8,    9,	  10,	11, 12, 13, 14, 15, 16 };
static const uint64_t T_REGS[] = { 1, 2, 3, UINT64_MAX, 0, 0x7fffffffe000ull, 7, 8 };
static const struct sfile_branch T_BRANCHES[] = {
	{ 0x401000, 0x401100, SFILE_BR_MISPRED },
	{ 0x401105, 0x401000, SFILE_BR_PREDICTED },
	{ 0x401200, 0x7f0000001000ull, 0 },
};
static const uint8_t T_PROFILEME[13] = { 'P', 'M', 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0 };
static const uint64_t T_CHAIN[] = { 0x401234, 0x401100, 0x400f00, 0x7f0000002345ull };

/* Record k (0 <= k < n) of a stream: the fixed preamble of every type,
 * then samples varied by k, then totals, lost. */
static inline void t_record(unsigned k, struct sfile_rec *r)
{
	memset(r, 0, sizeof(*r));
	switch (k) {
	case 0:
	case 1:
	case 2:
		r->type = SFILE_ATTR;
		r->attr = T_ATTRS[k];
		return;
	case 3:
		r->type = SFILE_CMDLINE;
		r->cmdline.argc = 4;
		r->cmdline.argv = T_ARGV;
		return;
	case 4:
		r->type = SFILE_MACHINE;
		r->machine.name = "p4";
		r->machine.nparams = 4;
		r->machine.params = T_PARAMS;
		return;
	case 5:
		r->type = SFILE_MMAP;
		r->mmap = (struct sfile_mmap){ 100,    5,  0x400000,   0x2000,
					       0x1000, 20, T_BUILD_ID, "/usr/bin/prog" };
		return;
	case 6:
		r->type = SFILE_MMAP;
		r->mmap = (struct sfile_mmap){ 100, 1,	  0x7f0000000000ull, 0x1000, 0,
					       0,   NULL, "[vdso]" };
		return;
	case 7:
		r->type = SFILE_COMM;
		r->comm = (struct sfile_comm){ 100, 101, "worker-thread" };
		return;
	}
	if (k % 97 == 0) {
		r->type = SFILE_TOTALS;
		r->totals = (struct sfile_totals){ 1 + k % 3, k * 12345ull, k * 3ull, k * 2ull };
		return;
	}
	if (k % 89 == 0) {
		r->type = SFILE_LOST;
		r->lost = (struct sfile_lost){ 1 + k % 3, k };
		return;
	}
	r->type = SFILE_SAMPLE;
	r->sample.id = 1 + k % 3;
	r->sample.pid = 100;
	r->sample.tid = 100 + k % 2;
	r->sample.cpu = k % 2;
	r->sample.ip = 0x401000 + (k * 37) % 4096;
	r->sample.time = k * 1000ull;
	r->sample.period = T_ATTRS[k % 3].period;
	r->sample.addr = 0x7ffc0000ull + k * 8;
	r->sample.weight = k % 300;
	r->sample.nregs = k % 9;
	r->sample.regs = T_REGS;
	r->sample.ear =
		(struct sfile_ear){ (uint16_t)(k % 2), 3, (uint32_t)k, 0x401000 + k, 0x600000 + k };
	r->sample.nbranches = k % 4;
	r->sample.branches = T_BRANCHES;
	r->sample.profileme_len = k % 14;
	r->sample.profileme = T_PROFILEME;
	r->sample.ncallchain = k % 5;
	r->sample.callchain = T_CHAIN;
	r->sample.trigger_ip = k % 3 ? r->sample.ip - k % 7 : 0;
	r->sample.skid = k % 7;
	r->sample.dsrc = (uint8_t)(k % 4 << 4 | k % 16);
}

static inline int t_add(struct sfile_writer *w, const struct sfile_rec *r)
{
	switch (r->type) {
	case SFILE_ATTR:
		return sfile_add_attr(w, &r->attr);
	case SFILE_CMDLINE:
		return sfile_add_cmdline(w, &r->cmdline);
	case SFILE_MACHINE:
		return sfile_add_machine(w, &r->machine);
	case SFILE_MMAP:
		return sfile_add_mmap(w, &r->mmap);
	case SFILE_COMM:
		return sfile_add_comm(w, &r->comm);
	case SFILE_SAMPLE:
		return sfile_add_sample(w, &r->sample);
	case SFILE_TOTALS:
		return sfile_add_totals(w, &r->totals);
	case SFILE_LOST:
		return sfile_add_lost(w, &r->lost);
	}
	return -1;
}

#define T_CHECK(c)                                                    \
	do {                                                          \
		if (!(c)) {                                           \
			snprintf(why, whysz, "record %u: %s", k, #c); \
			return 0;                                     \
		}                                                     \
	} while (0)

/* Is got (decoded) equal to record k as written?  has_attrs: the attrs of
 * the stream were read, so samples decode their optional fields. */
static inline int t_equal(unsigned k, const struct sfile_rec *got, int has_attrs, char *why,
			  size_t whysz)
{
	struct sfile_rec e;

	t_record(k, &e);
	T_CHECK(got->type == e.type);
	T_CHECK(got->flags == 0);
	switch (e.type) {
	case SFILE_ATTR: {
		const struct sfile_attr *a = &got->attr, *b = &e.attr;

		T_CHECK(a->id == b->id && a->precise == b->precise && a->flags == b->flags);
		T_CHECK(a->config == b->config && a->config1 == b->config1);
		T_CHECK(a->period == b->period && a->sample_type == b->sample_type);
		T_CHECK(!strcmp(a->name, b->name) && !strcmp(a->machine, b->machine));
		break;
	}
	case SFILE_CMDLINE:
		T_CHECK(got->cmdline.argc == e.cmdline.argc);
		for (unsigned i = 0; i < e.cmdline.argc; i++)
			T_CHECK(!strcmp(got->cmdline.argv[i], e.cmdline.argv[i]));
		T_CHECK(got->cmdline.argv[e.cmdline.argc] == NULL);
		break;
	case SFILE_MACHINE:
		T_CHECK(!strcmp(got->machine.name, e.machine.name));
		T_CHECK(got->machine.nparams == e.machine.nparams);
		for (unsigned i = 0; i < e.machine.nparams; i++) {
			T_CHECK(!strcmp(got->machine.params[i].key, e.machine.params[i].key));
			T_CHECK(!strcmp(got->machine.params[i].value, e.machine.params[i].value));
		}
		break;
	case SFILE_MMAP: {
		const struct sfile_mmap *a = &got->mmap, *b = &e.mmap;

		T_CHECK(a->pid == b->pid && a->prot == b->prot && a->start == b->start);
		T_CHECK(a->len == b->len && a->pgoff == b->pgoff);
		T_CHECK(a->build_id_len == b->build_id_len);
		T_CHECK(!b->build_id_len || !memcmp(a->build_id, b->build_id, b->build_id_len));
		T_CHECK(!strcmp(a->path, b->path));
		break;
	}
	case SFILE_COMM:
		T_CHECK(got->comm.pid == e.comm.pid && got->comm.tid == e.comm.tid);
		T_CHECK(!strcmp(got->comm.name, e.comm.name));
		break;
	case SFILE_SAMPLE: {
		const struct sfile_sample *a = &got->sample, *b = &e.sample;
		uint64_t st = T_ATTRS[b->id - 1].sample_type;

		T_CHECK(a->id == b->id && a->pid == b->pid && a->tid == b->tid);
		T_CHECK(a->cpu == b->cpu && a->ip == b->ip && a->time == b->time);
		T_CHECK(a->period == b->period);
		if (!has_attrs) {
			T_CHECK(a->attr == NULL && a->fields == 0);
			break;
		}
		T_CHECK(a->attr && a->attr->id == b->id && a->fields == st);
		T_CHECK(!(st & SFILE_S_ADDR) || a->addr == b->addr);
		T_CHECK(!(st & SFILE_S_WEIGHT) || a->weight == b->weight);
		if (st & SFILE_S_REGS) {
			T_CHECK(a->nregs == b->nregs);
			T_CHECK(!b->nregs || !memcmp(a->regs, b->regs, b->nregs * 8));
		}
		if (st & SFILE_S_EAR)
			T_CHECK(!memcmp(&a->ear, &b->ear, sizeof(a->ear)));
		if (st & SFILE_S_BRANCHES) {
			T_CHECK(a->nbranches == b->nbranches);
			T_CHECK(!b->nbranches ||
				!memcmp(a->branches, b->branches, b->nbranches * 24));
		}
		if (st & SFILE_S_PROFILEME) {
			T_CHECK(a->profileme_len == b->profileme_len);
			T_CHECK(!b->profileme_len ||
				!memcmp(a->profileme, b->profileme, b->profileme_len));
		}
		if (st & SFILE_S_CALLCHAIN) {
			T_CHECK(a->ncallchain == b->ncallchain);
			T_CHECK(!b->ncallchain ||
				!memcmp(a->callchain, b->callchain, b->ncallchain * 8));
		}
		if (st & SFILE_S_TRIGGER)
			T_CHECK(a->trigger_ip == b->trigger_ip && a->skid == b->skid);
		else
			T_CHECK(a->trigger_ip == 0 && a->skid == 0);
		T_CHECK(a->dsrc == (st & SFILE_S_DSRC ? b->dsrc : 0));
		break;
	}
	case SFILE_TOTALS:
		T_CHECK(!memcmp(&got->totals, &e.totals, sizeof(e.totals)));
		break;
	case SFILE_LOST:
		T_CHECK(got->lost.id == e.lost.id && got->lost.count == e.lost.count);
		break;
	}
	return 1;
}

/* A fresh directory for one test's files. */
static inline char *t_tmpdir(void)
{
	char tmpl[] = "/tmp/test_sfile.XXXXXX";
	char *d = mkdtemp(tmpl);

	return d ? strdup(d) : NULL;
}

static inline void t_rmtree(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not remove %s\n", dir);
}

static inline int t_read_file(const char *path, uint8_t **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	*buf = malloc(n > 0 ? (size_t)n : 1);
	*len = fread(*buf, 1, (size_t)n, f);
	fclose(f);
	return *len == (size_t)n ? 0 : -1;
}

static inline int t_write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	size_t n;

	if (!f)
		return -1;
	n = fwrite(buf, 1, len, f);
	return fclose(f) == 0 && n == len ? 0 : -1;
}

static inline void t_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

/* Append to f a block holding the raw record bytes rec[0..n), made the
 * way man/vpmu-data.5 describes, independently of the writer. */
static inline void t_raw_block(FILE *f, uint32_t seq, const void *rec, size_t n, uint32_t count)
{
	uLongf clen = compressBound(n);
	uint8_t *z = malloc(clen), h[32] = { 0 };

	compress2(z, &clen, rec, n, 6);
	t_le32(h, SFILE_BLOCK_MAGIC);
	t_le32(h + 4, seq);
	t_le32(h + 8, (uint32_t)clen);
	t_le32(h + 12, (uint32_t)n);
	t_le32(h + 16, count);
	t_le32(h + 24, (uint32_t)crc32(0, z, clen));
	t_le32(h + 28, (uint32_t)crc32(0, h, 28));
	fwrite(h, 1, 32, f);
	fwrite(z, 1, clen, f);
	free(z);
}

/* The 32-byte file header of version major.minor with flags. */
static inline void t_file_header(uint8_t h[32], unsigned major, unsigned minor, uint32_t flags)
{
	memset(h, 0, 32);
	memcpy(h, SFILE_MAGIC, 8);
	h[8] = (uint8_t)major;
	h[9] = (uint8_t)(major >> 8);
	h[10] = (uint8_t)minor;
	h[11] = (uint8_t)(minor >> 8);
	t_le32(h + 12, SFILE_BYTE_ORDER);
	t_le32(h + 16, 32);
	t_le32(h + 20, flags);
	t_le32(h + 28, (uint32_t)crc32(0, h, 28));
}

#endif
