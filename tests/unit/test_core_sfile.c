/* Unit tests for the sample file (core/sfile_*.c): round trip of every
 * record type, unknown and malformed records, damage (truncation at every
 * offset, a flipped byte in every block), header checks. */
#define _GNU_SOURCE /* memfd_create */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sys/mman.h>

#include "tests/unit/test_core_sfile_util.h"

#define NREC 600
#define SFILE_PROFILEME_MAX_TEST 1024 /* SFILE_PROFILEME_MAX in core/sfile_rec.h */

struct blk {
	uint64_t off, len; /* file offset and size with header */
	unsigned first, n; /* records k = first .. first+n-1 */
};

struct fixture {
	char *dir;
	char path[512];
	struct blk blk[64];
	unsigned nblk;
	uint8_t *data; /* the whole file */
	size_t size;
};

/* Write NREC records, a block every `every` records, and map the blocks. */
static void write_stream(struct fixture *fx, unsigned every)
{
	char err[256];
	struct sfile_writer *w = sfile_create(fx->path, err, sizeof(err));
	unsigned k, first = 0;
	struct sfile_wstats st;
	uint64_t off = SFILE_HEADER_SIZE;

	assert_non_null(w);
	fx->nblk = 0;
	for (k = 0; k < NREC; k++) {
		struct sfile_rec r;

		t_record(k, &r);
		assert_int_equal(t_add(w, &r), 0);
		if ((k + 1) % every == 0 || k + 1 == NREC) {
			sfile_wstats(w, &st);
			assert_int_equal(sfile_flush(w), 0);
			sfile_wstats(w, &st);
			fx->blk[fx->nblk++] =
				(struct blk){ off, st.file_bytes - off, first, k + 1 - first };
			off = st.file_bytes;
			first = k + 1;
		}
	}
	assert_int_equal(sfile_close(w, err, sizeof(err)), 0);
	assert_int_equal(t_read_file(fx->path, &fx->data, &fx->size), 0);
	/* the FINISHED block */
	fx->blk[fx->nblk++] = (struct blk){ off, fx->size - off, NREC, 1 };
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	fx->dir = t_tmpdir();
	if (!fx->dir)
		return -1;
	snprintf(fx->path, sizeof(fx->path), "%s/vpmu.data", fx->dir);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	t_rmtree(fx->dir);
	free(fx->dir);
	free(fx->data);
	free(fx);
	return 0;
}

/* Read path; every record must be record `want[i]` of the stream. */
struct readout {
	unsigned n;
	unsigned got[NREC + 1];
	int finished;
	size_t ndmg;
	struct sfile_damage dmg[8];
	struct sfile_rstats st;
};

static void read_all_fd(int fd, const char *path, struct readout *o)
{
	char err[256];
	struct sfile_reader *r = fd >= 0 ? sfile_open_fd(fd, path, err, sizeof(err)) :
					   sfile_open(path, err, sizeof(err));
	struct sfile_rec rec;
	const struct sfile_damage *d;
	unsigned next = 0;
	int rc;

	if (!r)
		fail_msg("open: %s", err);
	memset(o, 0, sizeof(*o));
	while ((rc = sfile_next(r, &rec)) == 1) {
		assert_true(o->n <= NREC);
		/* Records come in order: the first match at or after the last. */
		o->got[o->n] = UINT32_MAX;
		if (rec.type == SFILE_FINISHED) {
			o->got[o->n++] = NREC;
			continue;
		}
		for (unsigned k = next; k < NREC; k++) {
			char why[128];

			if (t_equal(k, &rec, sfile_attr(r, 1) != NULL, why, sizeof(why))) {
				o->got[o->n] = k;
				next = k + 1;
				break;
			}
		}
		o->n++;
	}
	assert_int_equal(rc, 0);
	o->finished = sfile_finished(r);
	d = sfile_damage(r, &o->ndmg);
	memcpy(o->dmg, d, (o->ndmg < 8 ? o->ndmg : 8) * sizeof(*d));
	sfile_rstats(r, &o->st);
	sfile_rclose(r);
}

static void read_all(const char *path, struct readout *o)
{
	read_all_fd(-1, path, o);
}

/* A memory file holding data[0..n): many cuts without disk traffic. */
static void mem_file(int fd, const uint8_t *data, size_t n)
{
	assert_int_equal(ftruncate(fd, 0), 0);
	assert_int_equal(pwrite(fd, data, n, 0), (ssize_t)n);
}

static void test_round_trip(void **state)
{
	struct fixture *fx = *state;
	char err[256], why[128];
	struct sfile_reader *r;
	struct sfile_rec rec;
	unsigned k = 0, seen[16] = { 0 };
	struct sfile_rstats st;
	size_t nd;

	write_stream(fx, 1000);
	r = sfile_open(fx->path, err, sizeof(err));
	assert_non_null(r);
	while (sfile_next(r, &rec) == 1) {
		if (k == NREC) {
			assert_int_equal(rec.type, SFILE_FINISHED);
			assert_int_equal(rec.finished.records, NREC);
			k++;
			continue;
		}
		if (!t_equal(k, &rec, 1, why, sizeof(why)))
			fail_msg("%s", why);
		seen[rec.type]++;
		if (rec.type == SFILE_SAMPLE && rec.sample.id == 1)
			assert_int_equal(rec.sample.fields, SFILE_S_KNOWN);
		k++;
	}
	assert_int_equal(k, NREC + 1);
	for (unsigned t = SFILE_ATTR; t < SFILE_FINISHED; t++)
		assert_true(seen[t] > 0);
	assert_true(sfile_finished(r));
	sfile_damage(r, &nd);
	assert_int_equal(nd, 0);
	sfile_rstats(r, &st);
	assert_int_equal(st.records, NREC + 1);
	assert_int_equal(st.samples, seen[SFILE_SAMPLE]);
	assert_int_equal(st.damaged_bytes, 0);
	sfile_rclose(r);
}

/* A sample's decoded fields are exactly its attr's. */
static void test_attr_decodes_sample(void **state)
{
	struct fixture *fx = *state;
	char err[256];
	struct sfile_reader *r;
	struct sfile_rec rec;

	write_stream(fx, 50);
	r = sfile_open(fx->path, err, sizeof(err));
	assert_non_null(r);
	while (sfile_next(r, &rec) == 1) {
		if (rec.type != SFILE_SAMPLE)
			continue;
		assert_ptr_equal(rec.sample.attr, sfile_attr(r, rec.sample.id));
		assert_int_equal(rec.sample.fields, T_ATTRS[rec.sample.id - 1].sample_type);
		if (rec.sample.id == 2)
			assert_true(rec.sample.nregs == 0 && rec.sample.callchain == NULL);
	}
	assert_null(sfile_attr(r, 99));
	sfile_rclose(r);
}

/* Truncated at every offset: the records of every complete block, in
 * order, nothing else, and the cut named when it is inside a block. */
static void test_truncate_everywhere(void **state)
{
	struct fixture *fx = *state;
	char err[256];
	int fd = memfd_create("cut.data", MFD_CLOEXEC);

	assert_true(fd >= 0);
	write_stream(fx, 40);
	assert_true(fx->nblk >= 10);
	for (size_t t = 0; t <= fx->size; t++) {
		struct readout o;
		unsigned want = 0;
		uint64_t good_end = SFILE_HEADER_SIZE;

		mem_file(fd, fx->data, t);
		if (t < SFILE_HEADER_SIZE) {
			struct sfile_reader *r = sfile_open_fd(fd, "cut.data", err, sizeof(err));

			assert_null(r);
			assert_non_null(strstr(err, "cut.data"));
			assert_true(strstr(err, "not a vpmu data file") ||
				    strstr(err, "file header cut short"));
			continue;
		}
		for (unsigned b = 0; b < fx->nblk; b++)
			if (fx->blk[b].off + fx->blk[b].len <= t) {
				want = fx->blk[b].first + fx->blk[b].n;
				good_end = fx->blk[b].off + fx->blk[b].len;
			}
		read_all_fd(fd, "cut.data", &o);
		assert_int_equal(o.n, want);
		for (unsigned i = 0; i < o.n; i++)
			assert_int_equal(o.got[i], i);
		assert_int_equal(o.finished, t == fx->size);
		if (t == good_end) {
			assert_int_equal(o.ndmg, 0);
		} else {
			char line[256];

			assert_int_equal(o.ndmg, 1);
			assert_int_equal(o.dmg[0].offset, good_end);
			assert_int_equal(o.dmg[0].bytes, t - good_end);
			assert_int_equal(o.st.damaged_bytes, t - good_end);
			sfile_damage_str(&o.dmg[0], line, sizeof(line));
			assert_non_null(strstr(line, "bytes skipped (truncated block"));
			if (t - good_end >= SFILE_BLOCK_HEADER_SIZE) {
				unsigned b = 0;

				while (fx->blk[b].off != good_end)
					b++;
				assert_int_equal(o.dmg[0].records, fx->blk[b].n);
				assert_non_null(strstr(line, "records lost") ||
						strstr(line, "record lost"));
			}
		}
	}
	close(fd);
}

/* One flipped byte anywhere in a block loses that block only. */
static void test_flip_in_every_block(void **state)
{
	struct fixture *fx = *state;
	int fd = memfd_create("bad.data", MFD_CLOEXEC);

	assert_true(fd >= 0);
	write_stream(fx, 60);
	for (unsigned b = 0; b < fx->nblk; b++) {
		const struct blk *B = &fx->blk[b];
		uint64_t pos[] = { 0,  3,  4,  9,  13, 17,	   22,
				   25, 30, 31, 32, 33, B->len / 2, B->len - 1 };

		for (unsigned p = 0; p < sizeof(pos) / sizeof(pos[0]); p++) {
			struct readout o;
			unsigned i = 0;

			fx->data[B->off + pos[p]] ^= 0x5a;
			mem_file(fd, fx->data, fx->size);
			fx->data[B->off + pos[p]] ^= 0x5a;
			read_all_fd(fd, "bad.data", &o);
			/* every record but those of block b, in order */
			for (unsigned k = 0; k <= NREC; k++) {
				if (k >= B->first && k < B->first + B->n)
					continue;
				if (i >= o.n || o.got[i] != k)
					fail_msg("block %u byte %" PRIu64 ": record %u missing", b,
						 pos[p], k);
				i++;
			}
			assert_int_equal(i, o.n);
			assert_int_equal(o.ndmg, 1);
			assert_int_equal(o.dmg[0].offset, B->off);
			assert_int_equal(o.dmg[0].bytes, B->len);
			assert_int_equal(o.finished, b + 1 != fx->nblk);
		}
	}
	close(fd);
}

/* Garbage between blocks and at the end is skipped and reported. */
static void test_garbage_between_blocks(void **state)
{
	struct fixture *fx = *state;
	char bad[600];
	FILE *f;
	struct readout o;
	const struct blk *B;

	write_stream(fx, 200);
	B = &fx->blk[1];
	snprintf(bad, sizeof(bad), "%s/garbage.data", fx->dir);
	f = fopen(bad, "wb");
	fwrite(fx->data, 1, B->off, f);
	fputs("VPBK garbage that is no block header at all, VPBK again", f);
	fwrite(fx->data + B->off, 1, fx->size - B->off, f);
	fputs("trailing", f);
	fclose(f);
	read_all(bad, &o);
	assert_int_equal(o.n, NREC + 1);
	for (unsigned i = 0; i < o.n; i++)
		assert_int_equal(o.got[i], i);
	assert_int_equal(o.ndmg, 2);
	assert_int_equal(o.dmg[0].offset, B->off);
	assert_int_equal(o.dmg[0].bytes, 55);
	assert_string_equal(o.dmg[0].why, "damaged block header");
	assert_int_equal(o.dmg[1].offset, fx->size + 55);
	assert_int_equal(o.dmg[1].bytes, 8);
	assert_true(o.finished);
}

static FILE *raw_file(const char *path)
{
	uint8_t h[32];
	FILE *f = fopen(path, "wb");

	t_file_header(h, SFILE_VERSION_MAJOR, SFILE_VERSION_MINOR, 0);
	fwrite(h, 1, 32, f);
	return f;
}

static size_t put_rec(uint8_t *p, uint16_t type, const void *payload, uint32_t len)
{
	p[0] = (uint8_t)type;
	p[1] = (uint8_t)(type >> 8);
	p[2] = p[3] = 0;
	t_le32(p + 4, len);
	memcpy(p + 8, payload, len);
	memset(p + 8 + len, 0, (8 - len % 8) % 8);
	return 8 + len + (8 - len % 8) % 8;
}

/* Unknown types are skipped silently; malformed known ones are skipped
 * and reported; the records around them survive. */
static void test_unknown_and_bad_records(void **state)
{
	struct fixture *fx = *state;
	uint8_t buf[1024], pl[64] = { 0 };
	size_t n = 0;
	FILE *f;
	struct sfile_reader *r;
	struct sfile_rec rec;
	char err[256];
	struct sfile_rstats st;
	const struct sfile_damage *d;
	size_t nd;

	f = raw_file(fx->path);
	t_le32(pl, 42); /* LOST id 42 */
	pl[8] = 7;	/* count 7 */
	n += put_rec(buf + n, SFILE_LOST, pl, 16);
	n += put_rec(buf + n, 999, "from a newer vpmu", 17);
	n += put_rec(buf + n, SFILE_LOST, pl, 12); /* too short */
	memcpy(pl + 8, "\x03\0\0\0a\0b\0", 8);	   /* COMM name "a\0b" */
	n += put_rec(buf + n, SFILE_COMM, pl, 16);
	memset(pl, 0, sizeof(pl));
	t_le32(pl, 0x10000000); /* CMDLINE argc far beyond the payload */
	n += put_rec(buf + n, SFILE_CMDLINE, pl, 8);
	memset(pl, 0, sizeof(pl)); /* SAMPLE of id 0: no attr, fixed part only */
	pl[16] = 0x34;
	n += put_rec(buf + n, SFILE_SAMPLE, pl, 40);
	t_le32(pl, 5);
	pl[8] = 1;
	n += put_rec(buf + n, SFILE_LOST, pl, 24); /* longer: later minor fields */
	t_raw_block(f, 0, buf, n, 7);
	/* a block whose last record claims more bytes than the block has */
	n = put_rec(buf, SFILE_LOST, pl, 16);
	t_le32(buf + n, SFILE_LOST);
	t_le32(buf + n + 4, 4096);
	t_raw_block(f, 1, buf, n + 8, 2);
	fclose(f);

	r = sfile_open(fx->path, err, sizeof(err));
	assert_non_null(r);
	assert_int_equal(sfile_next(r, &rec), 1);
	assert_int_equal(rec.type, SFILE_LOST);
	assert_int_equal(rec.lost.id, 42);
	assert_int_equal(rec.lost.count, 7);
	assert_int_equal(sfile_next(r, &rec), 1);
	assert_int_equal(rec.type, SFILE_SAMPLE);
	assert_null(rec.sample.attr);
	assert_int_equal(rec.sample.ip, 0x34);
	assert_int_equal(rec.sample.fields, 0);
	assert_int_equal(sfile_next(r, &rec), 1);
	assert_int_equal(rec.type, SFILE_LOST);
	assert_int_equal(rec.lost.id, 5);
	assert_int_equal(rec.size, 24);
	assert_int_equal(sfile_next(r, &rec), 1);
	assert_int_equal(rec.lost.id, 5);
	assert_int_equal(sfile_next(r, &rec), 0);
	assert_false(sfile_finished(r));
	sfile_rstats(r, &st);
	assert_int_equal(st.unknown, 1);
	assert_int_equal(st.bad_records, 4);
	d = sfile_damage(r, &nd);
	assert_int_equal(nd, 4);
	assert_string_equal(d[0].why, "record shorter than its fields");
	assert_string_equal(d[1].why, "string holds a NUL byte");
	assert_string_equal(d[2].why, "array count larger than the record");
	assert_string_equal(d[3].why, "record length past the end of its block");
	assert_int_equal(d[3].records, 1);
	sfile_rclose(r);
}

static size_t attr_payload(uint8_t *pl, uint32_t id, uint64_t sample_type)
{
	memset(pl, 0, 56);
	t_le32(pl, id);
	t_le32(pl + 32, (uint32_t)sample_type);
	t_le32(pl + 40, 1); /* name "a" */
	pl[44] = 'a';
	t_le32(pl + 48, 1); /* machine "b" */
	pl[52] = 'b';
	return 56;
}

/* An attr seen again for the same id decodes the samples after it; the
 * samples before it keep the attr they were read with. */
static void test_attr_redefined(void **state)
{
	struct fixture *fx = *state;
	uint8_t buf[512], pl[64];
	size_t n = 0;
	FILE *f = raw_file(fx->path);
	struct sfile_reader *r;
	struct sfile_rec rec;
	const struct sfile_attr *first;
	char err[256];

	n += put_rec(buf + n, SFILE_ATTR, pl, (uint32_t)attr_payload(pl, 1, SFILE_S_ADDR));
	memset(pl, 0, sizeof(pl));
	pl[0] = 1;     /* id */
	pl[40] = 0xaa; /* addr */
	n += put_rec(buf + n, SFILE_SAMPLE, pl, 48);
	n += put_rec(buf + n, SFILE_ATTR, pl, (uint32_t)attr_payload(pl, 1, SFILE_S_WEIGHT));
	memset(pl, 0, sizeof(pl));
	pl[0] = 1;
	pl[40] = 0x77; /* weight */
	n += put_rec(buf + n, SFILE_SAMPLE, pl, 48);
	t_raw_block(f, 0, buf, n, 4);
	fclose(f);
	r = sfile_open(fx->path, err, sizeof(err));
	assert_non_null(r);
	assert_int_equal(sfile_next(r, &rec), 1);
	assert_int_equal(sfile_next(r, &rec), 1);
	assert_int_equal(rec.sample.fields, SFILE_S_ADDR);
	assert_int_equal(rec.sample.addr, 0xaa);
	first = rec.sample.attr;
	assert_int_equal(sfile_next(r, &rec), 1);
	assert_int_equal(sfile_next(r, &rec), 1);
	assert_int_equal(rec.sample.fields, SFILE_S_WEIGHT);
	assert_int_equal(rec.sample.weight, 0x77);
	assert_ptr_not_equal(rec.sample.attr, first);
	assert_int_equal(first->sample_type, SFILE_S_ADDR); /* still valid */
	assert_ptr_equal(sfile_attr(r, 1), rec.sample.attr);
	sfile_rclose(r);
}

static void expect_open_error(const char *path, const char *what)
{
	char err[256];
	struct sfile_reader *r = sfile_open(path, err, sizeof(err));

	if (r)
		fail_msg("%s opened; wanted \"%s\"", path, what);
	if (!strstr(err, what))
		fail_msg("message \"%s\" lacks \"%s\"", err, what);
	assert_null(strchr(err, '\n'));
}

static void write_header(const char *path, const uint8_t h[32])
{
	assert_int_equal(t_write_file(path, h, 32), 0);
}

static void test_header_errors(void **state)
{
	struct fixture *fx = *state;
	uint8_t h[32];
	char msgbuf[300];

	expect_open_error(fx->dir, "Is a directory");
	snprintf(msgbuf, sizeof(msgbuf), "%s/none", fx->dir);
	expect_open_error(msgbuf, "No such file");
	assert_int_equal(t_write_file(fx->path, "", 0), 0);
	expect_open_error(fx->path, "not a vpmu data file (empty)");
	assert_int_equal(t_write_file(fx->path, "PERFILE2 and then some more bytes", 33), 0);
	expect_open_error(fx->path, "not a vpmu data file");

	t_file_header(h, 2, 0, 0);
	write_header(fx->path, h);
	expect_open_error(fx->path, "format version 2.0 is newer than this vpmu");
	expect_open_error(fx->path, "reads version 1.x");
	t_file_header(h, 0, 9, 0);
	write_header(fx->path, h);
	expect_open_error(fx->path, "format version 0.9 is unknown");

	t_file_header(h, 1, 0, 0);
	h[20] ^= 1; /* checksum no longer matches */
	write_header(fx->path, h);
	expect_open_error(fx->path, "file header damaged");
	t_file_header(h, 1, 0, 1u << 20);
	write_header(fx->path, h);
	expect_open_error(fx->path, "features this vpmu does not know");
	t_file_header(h, 1, 0, 0);
	t_le32(h + 12, 0x04030201);
	write_header(fx->path, h);
	expect_open_error(fx->path, "big-endian");
	t_file_header(h, 1, 0, 0);
	t_le32(h + 16, 1u << 30);
	t_le32(h + 28, (uint32_t)crc32(0, h, 28));
	write_header(fx->path, h);
	expect_open_error(fx->path, "header size");

	/* Random garbage after the magic: an error, never a crash. */
	srand(1);
	for (int i = 0; i < 2000; i++) {
		char err[256];
		struct sfile_reader *r;

		t_file_header(h, 1, 0, 0);
		for (int j = 8; j < 32; j++)
			if (rand() % 3 == 0)
				h[j] = (uint8_t)rand();
		write_header(fx->path, h);
		r = sfile_open(fx->path, err, sizeof(err));
		if (r) {
			struct sfile_rec rec;

			assert_int_equal(sfile_next(r, &rec), 0);
			sfile_rclose(r);
		} else {
			assert_true(strlen(err) > 10);
		}
	}
}

/* Newer minor version, flags with only compatible bits, a longer header:
 * all read. */
static void test_newer_minor(void **state)
{
	struct fixture *fx = *state;
	uint8_t h[32], buf[64], pl[16] = { 9 };
	size_t n;
	FILE *f = fopen(fx->path, "wb");
	char err[256];
	struct sfile_reader *r;
	struct sfile_rec rec;
	unsigned ma, mi;

	t_file_header(h, 1, 7, 0x5);
	t_le32(h + 16, 48);
	t_le32(h + 28, (uint32_t)crc32(0, h, 28));
	fwrite(h, 1, 32, f);
	fwrite("sixteen  bytes!!", 1, 16, f);
	n = put_rec(buf, SFILE_LOST, pl, 16);
	t_raw_block(f, 0, buf, n, 1);
	fclose(f);
	r = sfile_open(fx->path, err, sizeof(err));
	if (!r)
		fail_msg("%s", err);
	sfile_version(r, &ma, &mi);
	assert_int_equal(ma, 1);
	assert_int_equal(mi, 7);
	assert_int_equal(sfile_next(r, &rec), 1);
	assert_int_equal(rec.lost.id, 9);
	assert_int_equal(sfile_next(r, &rec), 0);
	sfile_rclose(r);
}

/* A record bigger than a block goes out whole; big callchains survive. */
static void test_big_record(void **state)
{
	struct fixture *fx = *state;
	char err[256];
	struct sfile_writer *w = sfile_create(fx->path, err, sizeof(err));
	size_t n = 200000;
	uint64_t *chain = malloc(n * 8);
	struct sfile_sample s = { .id = 3, .ip = 1, .ncallchain = (uint32_t)n, .callchain = chain };
	struct sfile_reader *r;
	struct sfile_rec rec;
	struct sfile_wstats ws;

	for (size_t i = 0; i < n; i++)
		chain[i] = 0x400000 + i * 16;
	assert_int_equal(sfile_add_attr(w, &T_ATTRS[2]), 0);
	assert_int_equal(sfile_add_sample(w, &s), 0);
	assert_int_equal(sfile_add_sample(w, &s), 0);
	sfile_wstats(w, &ws);
	assert_int_equal(ws.blocks, 2); /* each record over the block size flushed */
	assert_int_equal(sfile_close(w, err, sizeof(err)), 0);
	r = sfile_open(fx->path, err, sizeof(err));
	assert_non_null(r);
	assert_int_equal(sfile_next(r, &rec), 1);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(sfile_next(r, &rec), 1);
		assert_int_equal(rec.sample.ncallchain, n);
		assert_memory_equal(rec.sample.callchain, chain, n * 8);
	}
	sfile_rclose(r);
	free(chain);
}

/* Strings, byte strings and arrays of every length around the padding
 * boundaries come back whole, and the records after them stay aligned. */
static void test_lengths(void **state)
{
	struct fixture *fx = *state;
	char err[256], name[80];
	uint8_t pm[SFILE_PROFILEME_MAX_TEST];
	uint64_t chain[20];
	struct sfile_writer *w = sfile_create(fx->path, err, sizeof(err));
	struct sfile_reader *r;
	struct sfile_rec rec;
	unsigned n;

	assert_non_null(w);
	for (unsigned i = 0; i < sizeof(pm); i++)
		pm[i] = (uint8_t)(i * 7 + 1);
	for (unsigned i = 0; i < 20; i++)
		chain[i] = ~(uint64_t)i;
	assert_int_equal(sfile_add_attr(w, &T_ATTRS[0]), 0);
	for (n = 0; n < 70; n++) {
		struct sfile_mmap m = { n, 0, n, n, n, n % (SFILE_BUILD_ID_MAX + 1), pm, name };
		struct sfile_sample s = { .id = 1,
					  .ip = n,
					  .profileme_len = n * 14,
					  .profileme = pm,
					  .ncallchain = n % 20,
					  .callchain = chain };

		memset(name, 'a' + n % 26, n);
		name[n] = 0;
		assert_int_equal(sfile_add_comm(w, &(struct sfile_comm){ n, n, name }), 0);
		assert_int_equal(sfile_add_mmap(w, &m), 0);
		assert_int_equal(sfile_add_sample(w, &s), 0);
	}
	assert_int_equal(sfile_close(w, err, sizeof(err)), 0);
	r = sfile_open(fx->path, err, sizeof(err));
	assert_non_null(r);
	assert_int_equal(sfile_next(r, &rec), 1);
	for (n = 0; n < 70; n++) {
		memset(name, 'a' + n % 26, n);
		name[n] = 0;
		assert_int_equal(sfile_next(r, &rec), 1);
		assert_int_equal(rec.type, SFILE_COMM);
		assert_string_equal(rec.comm.name, name);
		assert_int_equal(rec.size % 8, 0);
		assert_int_equal(sfile_next(r, &rec), 1);
		assert_int_equal(rec.type, SFILE_MMAP);
		assert_int_equal(rec.mmap.build_id_len, n % (SFILE_BUILD_ID_MAX + 1));
		assert_memory_equal(rec.mmap.build_id, pm, rec.mmap.build_id_len);
		assert_string_equal(rec.mmap.path, name);
		assert_int_equal(sfile_next(r, &rec), 1);
		assert_int_equal(rec.type, SFILE_SAMPLE);
		assert_int_equal(rec.sample.ip, n);
		assert_int_equal(rec.sample.profileme_len, n * 14);
		assert_memory_equal(rec.sample.profileme, pm, n * 14);
		assert_int_equal(rec.sample.ncallchain, n % 20);
		assert_memory_equal(rec.sample.callchain, chain, (n % 20) * 8);
	}
	assert_int_equal(sfile_next(r, &rec), 1);
	assert_int_equal(rec.type, SFILE_FINISHED);
	assert_int_equal(sfile_next(r, &rec), 0);
	sfile_rclose(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_attr_decodes_sample, setup, teardown),
		cmocka_unit_test_setup_teardown(test_truncate_everywhere, setup, teardown),
		cmocka_unit_test_setup_teardown(test_flip_in_every_block, setup, teardown),
		cmocka_unit_test_setup_teardown(test_garbage_between_blocks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_and_bad_records, setup, teardown),
		cmocka_unit_test_setup_teardown(test_attr_redefined, setup, teardown),
		cmocka_unit_test_setup_teardown(test_header_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_newer_minor, setup, teardown),
		cmocka_unit_test_setup_teardown(test_big_record, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lengths, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
