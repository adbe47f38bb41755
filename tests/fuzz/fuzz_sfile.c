/* fuzz_sfile.c — libFuzzer harness for the sample-file reader
 * (core/sfile_read.c, core/sfile_rec.c).
 *
 * The first byte of an input picks how the rest is used:
 *   even: the rest is a whole file, header and blocks, as found on disk;
 *   odd:  the rest is the uncompressed contents of blocks (records), which
 *         the harness wraps in a valid file header and blocks with correct
 *         lengths and checksums, so that mutations reach the record
 *         decoder instead of dying at a CRC.  The first byte's bits 1-7
 *         say where to split the records into two blocks (so an attr and
 *         its samples can land in different blocks).
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
 * fuzz-sources: core/sfile_read.c core/sfile_rec.c
 * fuzz-libs: -lz
 * fuzz-options: -max_len=65536
 *
 *   clang -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -I. \
 *       -o /tmp/fuzz_sfile tests/fuzz/fuzz_sfile.c core/sfile_read.c core/sfile_rec.c -lz
 *   /tmp/fuzz_sfile -max_total_time=60 /tmp/corpus tests/fuzz/corpus/sfile
 */
#define _GNU_SOURCE /* memfd_create */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "core/sfile.h"

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
