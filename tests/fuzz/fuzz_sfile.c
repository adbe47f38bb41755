/* fuzz_sfile.c — libFuzzer harness for the sample-file reader
 * (core/sfile_read.c, core/sfile_rec.c).
 *
 * The first byte of an input picks how the rest is used:
 *   0 mod 4: the rest is a whole file, header and blocks, as on disk;
 *   odd:     the rest is the uncompressed contents of blocks (records),
 *            which the harness wraps in a valid file header and blocks
 *            with correct lengths and checksums, so that mutations reach
 *            the record decoder instead of dying at a CRC.  Bits 1-7 of
 *            the first byte say where to split the records into two
 *            blocks (so an attr and its samples can land in different
 *            blocks);
 *   2 mod 4: the rest drives the writer (record types and their fields,
 *            flushes); the file it writes must read back to the same
 *            records: each one read, encoded again, gives the bytes of the
 *            record written.
 * The reader must then hold to what its interface promises, or the
 * harness aborts (libFuzzer reports a crash):
 *   - sfile_next ends (0) without error on a memory file, after at most
 *     one record per 8 bytes of uncompressed data;
 *   - every view is readable: strings are NUL-terminated, arrays have
 *     their counts (AddressSanitizer checks the reads);
 *   - a sample's attr is the reader's attr of its id, and its fields are
 *     the attr's known sample_type bits;
 *   - the damage list never claims more bytes than the file has.
 *
 * Build and run (scripts/fuzz.sh does this for every harness):
 *
 * fuzz-sources: core/sfile_read.c core/sfile_rec.c core/sfile_write.c
 * fuzz-libs: -lz
 * fuzz-options: -max_len=65536
 *
 *   clang -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -I. \
 *       -o /tmp/fuzz_sfile tests/fuzz/fuzz_sfile.c core/sfile_*.c -lz
 *   /tmp/fuzz_sfile -max_total_time=60 /tmp/corpus tests/fuzz/corpus/sfile
 */
#define _GNU_SOURCE /* memfd_create */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "core/sfile.h"
#include "core/sfile_rec.h"

static void le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static size_t fix_block(uint8_t *out, size_t cap, uint32_t seq, const uint8_t *rec, size_t n)
{
	uLongf clen = cap - 32;

	if (compress2(out + 32, &clen, rec, n, 1) != Z_OK)
		abort();
	memset(out, 0, 32);
	le32(out, SFILE_BLOCK_MAGIC);
	le32(out + 4, seq);
	le32(out + 8, (uint32_t)clen);
	le32(out + 12, (uint32_t)n);
	le32(out + 16, (uint32_t)(n / 8)); /* may be wrong: the reader must cope */
	le32(out + 24, (uint32_t)crc32(0, out + 32, clen));
	le32(out + 28, (uint32_t)crc32(0, out, 28));
	return 32 + clen;
}

/* A valid file whose blocks hold rec[0..split) and rec[split..n). */
static uint8_t *wrap(const uint8_t *rec, size_t n, size_t split, size_t *len)
{
	size_t cap = 32 + 2 * (32 + compressBound(n));
	uint8_t *f = malloc(cap), *h = f;

	if (!f)
		abort();
	memset(h, 0, 32);
	memcpy(h, SFILE_MAGIC, 8);
	h[8] = SFILE_VERSION_MAJOR;
	h[10] = SFILE_VERSION_MINOR;
	le32(h + 12, SFILE_BYTE_ORDER);
	le32(h + 16, SFILE_HEADER_SIZE);
	le32(h + 28, (uint32_t)crc32(0, h, 28));
	*len = 32;
	*len += fix_block(f + *len, cap - *len, 0, rec, split);
	*len += fix_block(f + *len, cap - *len, 1, rec + split, n - split);
	return f;
}

static volatile uint64_t sink;

static void touch(const struct sfile_reader *r, const struct sfile_rec *rec)
{
	uint64_t s = 0;

	switch (rec->type) {
	case SFILE_ATTR:
		s += strlen(rec->attr.name) + strlen(rec->attr.machine);
		break;
	case SFILE_CMDLINE:
		for (uint32_t i = 0; i < rec->cmdline.argc; i++)
			s += strlen(rec->cmdline.argv[i]);
		if (rec->cmdline.argv[rec->cmdline.argc])
			abort();
		break;
	case SFILE_MACHINE:
		s += strlen(rec->machine.name);
		for (uint32_t i = 0; i < rec->machine.nparams; i++)
			s += strlen(rec->machine.params[i].key) +
			     strlen(rec->machine.params[i].value);
		break;
	case SFILE_MMAP:
		if (rec->mmap.build_id_len > SFILE_BUILD_ID_MAX)
			abort();
		for (uint32_t i = 0; i < rec->mmap.build_id_len; i++)
			s += rec->mmap.build_id[i];
		s += strlen(rec->mmap.path);
		break;
	case SFILE_COMM:
		s += strlen(rec->comm.name);
		break;
	case SFILE_SAMPLE: {
		const struct sfile_sample *p = &rec->sample;

		if (p->attr != sfile_attr(r, p->id))
			abort();
		if (p->fields != (p->attr ? p->attr->sample_type & SFILE_S_KNOWN : 0))
			abort();
		for (uint32_t i = 0; i < p->nregs; i++)
			s += p->regs[i];
		for (uint32_t i = 0; i < p->nbranches; i++)
			s += p->branches[i].from + p->branches[i].to + p->branches[i].flags;
		for (uint32_t i = 0; i < p->profileme_len; i++)
			s += p->profileme[i];
		for (uint32_t i = 0; i < p->ncallchain; i++)
			s += p->callchain[i];
		break;
	}
	case SFILE_TOTALS:
	case SFILE_LOST:
	case SFILE_FINISHED:
		break;
	default:
		abort(); /* unknown types are skipped, never returned */
	}
	sink += s;
}

/* ---- writer-driven inputs ---------------------------------------------- */

struct in {
	const uint8_t *p;
	size_t n;
	char str[8][300]; /* strings of the record being built */
	const char *argv[8];
	struct sfile_param params[4];
	uint64_t u64s[2][32];
	struct sfile_branch br[16];
	uint8_t bytes[2][SFILE_PROFILEME_MAX + 1];
};

static uint64_t take(struct in *in, unsigned nbytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < nbytes && in->n; i++, in->p++, in->n--)
		v |= (uint64_t)in->p[0] << 8 * i;
	return v;
}

/* String k: a length byte, then that many bytes (NULs made 'x'). */
static const char *take_str(struct in *in, unsigned k)
{
	unsigned len = (unsigned)take(in, 1);
	unsigned i;

	for (i = 0; i < len && in->n; i++) {
		uint8_t c = (uint8_t)take(in, 1);

		in->str[k][i] = c ? (char)c : 'x';
	}
	in->str[k][i] = 0;
	return in->str[k];
}

static void build(struct in *in, struct sfile_rec *r, unsigned op)
{
	memset(r, 0, sizeof(*r));
	switch (op) {
	case SFILE_ATTR:
		r->attr = (struct sfile_attr){ (uint32_t)take(in, 1) % 4,
					       (uint16_t)take(in, 2),
					       (uint16_t)take(in, 2),
					       take(in, 8),
					       take(in, 8),
					       take(in, 8),
					       take(in, 1),
					       take_str(in, 0),
					       take_str(in, 1) };
		break;
	case SFILE_CMDLINE:
		r->cmdline.argc = (uint32_t)take(in, 1) % 8;
		for (unsigned i = 0; i < r->cmdline.argc; i++)
			in->argv[i] = take_str(in, i);
		r->cmdline.argv = in->argv;
		break;
	case SFILE_MACHINE:
		r->machine.name = take_str(in, 0);
		r->machine.nparams = (uint32_t)take(in, 1) % 4;
		for (unsigned i = 0; i < r->machine.nparams; i++)
			in->params[i] = (struct sfile_param){ take_str(in, 1 + 2 * i),
							      take_str(in, 2 + 2 * i) };
		r->machine.params = in->params;
		break;
	case SFILE_MMAP:
		r->mmap = (struct sfile_mmap){ (uint32_t)take(in, 4), (uint32_t)take(in, 1),
					       take(in, 8),	      take(in, 8),
					       take(in, 8),	      (uint32_t)take(in, 1) % 70,
					       in->bytes[0],	      take_str(in, 0) };
		break;
	case SFILE_COMM:
		r->comm = (struct sfile_comm){ (uint32_t)take(in, 4), (uint32_t)take(in, 4),
					       take_str(in, 0) };
		break;
	case SFILE_SAMPLE: {
		struct sfile_sample *s = &r->sample;

		s->id = (uint32_t)take(in, 1) % 5;
		s->pid = (uint32_t)take(in, 4);
		s->tid = (uint32_t)take(in, 4);
		s->ip = take(in, 8);
		s->time = take(in, 8);
		s->addr = take(in, 8);
		s->weight = take(in, 2);
		s->nregs = (uint32_t)take(in, 1) % 32;
		s->regs = in->u64s[0];
		s->ear = (struct sfile_ear){ (uint16_t)take(in, 1), (uint16_t)take(in, 1),
					     (uint32_t)take(in, 4), take(in, 8), take(in, 8) };
		s->nbranches = (uint32_t)take(in, 1) % 16;
		s->branches = in->br;
		s->profileme_len = (uint32_t)take(in, 2) % (SFILE_PROFILEME_MAX + 2);
		s->profileme = in->bytes[1];
		s->ncallchain = (uint32_t)take(in, 1) % 32;
		s->callchain = in->u64s[1];
		s->dsrc = (uint8_t)take(in, 1);
		break;
	}
	case SFILE_TOTALS:
		r->totals = (struct sfile_totals){ (uint32_t)take(in, 1), take(in, 8), take(in, 8),
						   take(in, 8) };
		break;
	case SFILE_LOST:
		r->lost = (struct sfile_lost){ (uint32_t)take(in, 1), take(in, 8) };
		break;
	}
}

static int add(struct sfile_writer *w, unsigned op, const struct sfile_rec *r)
{
	switch (op) {
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
	return sfile_flush(w);
}

static uint64_t st_of(uint64_t st[5], const struct sfile_rec *r)
{
	return r->type == SFILE_SAMPLE ? st[r->sample.id % 5] : 0;
}

static void drive_writer(const uint8_t *data, size_t size)
{
	char dir[] = "/tmp/fuzz_sfile.XXXXXX", path[sizeof(dir) + 2];
	struct in *in = calloc(1, sizeof(*in));
	struct sfile_enc want = { 0 }, got = { 0 };
	uint64_t st[5] = { 0 };
	int has[5] = { 0 };
	char err[256];
	struct sfile_writer *w;
	struct sfile_reader *r;
	struct sfile_rec rec;
	unsigned nrec = 0;

	/* A directory per input: libFuzzer may end with _exit, so nothing
	 * may be left to clean up at exit. */
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/f", dir);
	for (unsigned i = 0; i < 32; i++)
		in->u64s[0][i] = i * 0x0101010101010101ull, in->u64s[1][i] = ~(uint64_t)i;
	for (unsigned i = 0; i < 16; i++)
		in->br[i] = (struct sfile_branch){ i, i * 3, i & 3 };
	for (unsigned i = 0; i <= SFILE_PROFILEME_MAX; i++)
		in->bytes[0][i] = in->bytes[1][i] = (uint8_t)(i * 31);
	in->p = data;
	in->n = size;
	w = sfile_create(path, err, sizeof(err));
	if (!w)
		abort();
	while (in->n && nrec < 256) {
		unsigned op = (unsigned)take(in, 1) % 9 + 1;
		struct sfile_rec one;

		build(in, &one, op);
		one.type = (uint16_t)op;
		if (add(w, op, &one))
			continue; /* refused: a duplicate id, a field too long, ... */
		if (op == SFILE_FINISHED)
			continue; /* a flush */
		if (op == SFILE_ATTR && !has[one.attr.id]) {
			has[one.attr.id] = 1;
			st[one.attr.id] = one.attr.sample_type;
		}
		if (sfile_enc_record(&want, one.type, &one.attr, st_of(st, &one)))
			abort();
		nrec++;
	}
	if (sfile_close(w, err, sizeof(err)))
		abort();
	r = sfile_open(path, err, sizeof(err));
	if (!r)
		abort();
	while (sfile_next(r, &rec) == 1) {
		if (rec.type == SFILE_FINISHED) {
			if (rec.finished.records != nrec)
				abort();
			continue;
		}
		if (sfile_enc_record(&got, rec.type, &rec.attr, st_of(st, &rec)))
			abort();
	}
	if (!sfile_finished(r) || got.len != want.len ||
	    (got.len && memcmp(got.p, want.p, got.len)))
		abort();
	sfile_rclose(r);
	unlink(path);
	rmdir(dir);
	free(want.p);
	free(got.p);
	free(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	uint8_t *file = NULL;
	size_t len;
	char err[256];
	struct sfile_reader *r;
	struct sfile_rec rec;
	struct sfile_rstats st;
	const struct sfile_damage *d;
	size_t nd;
	uint64_t n = 0, dbytes = 0;
	int rc;

	if (size < 1)
		return 0;
	if ((data[0] & 3) == 2) {
		drive_writer(data + 1, size - 1);
		return 0;
	}
	if (fd < 0 && (fd = memfd_create("fuzz.data", MFD_CLOEXEC)) < 0)
		abort();
	if (data[0] & 1) {
		size_t split = (size - 1) * (data[0] >> 1) / 128;

		file = wrap(data + 1, size - 1, split, &len);
	} else {
		file = malloc(size);
		memcpy(file, data + 1, size - 1);
		len = size - 1;
	}
	if (ftruncate(fd, 0) || pwrite(fd, file, len, 0) != (ssize_t)len)
		abort();
	r = sfile_open_fd(fd, "fuzz.data", err, sizeof(err));
	if (!r) {
		if (!err[0] || strchr(err, '\n'))
			abort();
		free(file);
		return 0;
	}
	while ((rc = sfile_next(r, &rec)) == 1) {
		touch(r, &rec);
		if (++n > len / 8 * 1024 + 16) /* zlib expands at most ~1032:1 */
			abort();
	}
	if (rc != 0)
		abort();
	sfile_rstats(r, &st);
	d = sfile_damage(r, &nd);
	for (size_t i = 0; i < nd; i++) {
		char line[256];

		dbytes += d[i].bytes;
		if (d[i].offset > len || d[i].bytes > len - d[i].offset)
			abort();
		sfile_damage_str(&d[i], line, sizeof(line));
	}
	if (st.damaged_bytes > len || (nd < 256 && dbytes != st.damaged_bytes))
		abort();
	sfile_rclose(r);
	free(file);
	return 0;
}
