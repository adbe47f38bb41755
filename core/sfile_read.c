/* sfile_read.c — read a sample file, block by block, surviving damage.
 *
 * A block is believed only when its header checksum holds; then its
 * lengths are trusted to skip it whole if its data checksum fails.  A
 * header that fails its checksum is garbage: the reader scans forward for
 * the next header that passes, and lists the bytes in between as skipped.
 * Lengths are checked against the limits of sfile.h and against the file
 * size before anything is allocated or read.
 */
#define _GNU_SOURCE /* memfd_create */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/sfile.h"
#include "core/sfile_rec.h"

#define MAX_DAMAGE 256
#define MAX_ATTRS 4096
#define MAX_HEADER 4096
#define SCAN_CHUNK 65536

struct rattr {
	struct sfile_attr a;
	char *name, *machine;
};

struct sfile_reader {
	int fd, ownfd;
	char *name;
	uint64_t size; /* file size at open */
	uint64_t off;  /* next block header */
	unsigned major, minor;
	uint8_t *cbuf, *ubuf;
	size_t ccap, ucap;
	int inblock; /* ubuf holds a block being iterated */
	size_t ulen, upos;
	uint32_t ucount, useen;
	uint64_t boff; /* file offset of that block */
	struct sfile_arena arena;
	struct rattr **attrs;
	size_t nattrs, attrcap;
	size_t lastattr; /* index of the attr found last, SIZE_MAX for none */
	struct sfile_damage dmg[MAX_DAMAGE];
	size_t ndmg;
	struct sfile_rstats st;
	int finished;
	char err[512];
};

static void damage(struct sfile_reader *r, uint64_t off, uint64_t bytes, uint64_t records,
		   const char *why)
{
	r->st.damaged_bytes += bytes;
	if (r->ndmg < MAX_DAMAGE)
		r->dmg[r->ndmg++] = (struct sfile_damage){ off, bytes, records, why };
}

/* Read n bytes at off: n, fewer at the end of the file, -1 on error. */
static ssize_t read_at(struct sfile_reader *r, void *buf, size_t n, uint64_t off)
{
	size_t got = 0;

	while (got < n) {
		ssize_t k = pread(r->fd, (uint8_t *)buf + got, n - got, (off_t)(off + got));

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			sfile_msg(r->err, sizeof(r->err), "cannot read %s: %s", r->name,
				  strerror(errno));
			return -1;
		}
		if (k == 0)
			break;
		got += (size_t)k;
	}
	return (ssize_t)got;
}

static int header_ok(const uint8_t *h)
{
	return sfile_get32(h) == SFILE_BLOCK_MAGIC && sfile_get32(h + 28) == crc32(0, h, 28);
}

/* The offset of the next block header at or after from that passes its
 * checksum, or the file size; -1 on a read error. */
static int64_t resync(struct sfile_reader *r, uint64_t from)
{
	uint8_t buf[SCAN_CHUNK + SFILE_BLOCK_HEADER_SIZE];

	while (from + SFILE_BLOCK_HEADER_SIZE <= r->size) {
		ssize_t n = read_at(r, buf, sizeof(buf), from);

		if (n < 0)
			return -1;
		if (n < SFILE_BLOCK_HEADER_SIZE)
			break;
		for (ssize_t i = 0; i + SFILE_BLOCK_HEADER_SIZE <= n && i < SCAN_CHUNK; i++)
			if (buf[i] == 'V' && header_ok(buf + i))
				return (int64_t)(from + (uint64_t)i);
		from += SCAN_CHUNK;
	}
	return (int64_t)r->size;
}

static int grow(uint8_t **p, size_t *cap, size_t n)
{
	uint8_t *q;

	if (n <= *cap)
		return 0;
	q = realloc(*p, n);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

/* Skip garbage at r->off up to the next good header. */
static int skip_garbage(struct sfile_reader *r, const char *why)
{
	int64_t next = resync(r, r->off + 1);

	if (next < 0)
		return -1;
	damage(r, r->off, (uint64_t)next - r->off, 0, why);
	r->off = (uint64_t)next;
	return 0;
}

/* Load the next good block into ubuf: 1, 0 at the end, -1 on error. */
static int load_block(struct sfile_reader *r)
{
	uint8_t h[SFILE_BLOCK_HEADER_SIZE];

	while (r->off < r->size) {
		uint64_t left = r->size - r->off;
		uint32_t clen, ulen, count;
		uLongf dlen;

		if (left < SFILE_BLOCK_HEADER_SIZE) {
			damage(r, r->off, left, 0, "truncated block header");
			r->off = r->size;
			break;
		}
		if (read_at(r, h, sizeof(h), r->off) != (ssize_t)sizeof(h))
			return -1;
		if (!header_ok(h)) {
			if (skip_garbage(r, "damaged block header"))
				return -1;
			continue;
		}
		clen = sfile_get32(h + 8);
		ulen = sfile_get32(h + 12);
		count = sfile_get32(h + 16);
		if (ulen > SFILE_BLOCK_MAX || clen > compressBound(SFILE_BLOCK_MAX) ||
		    count > ulen / SFILE_REC_HEADER) {
			if (skip_garbage(r, "block lengths out of range"))
				return -1;
			continue;
		}
		if (clen > left - SFILE_BLOCK_HEADER_SIZE) {
			damage(r, r->off, left, count, "truncated block");
			r->st.damaged_blocks++;
			r->off = r->size;
			break;
		}
		if (grow(&r->cbuf, &r->ccap, clen ? clen : 1) ||
		    grow(&r->ubuf, &r->ucap, ulen ? ulen : 1)) {
			sfile_msg(r->err, sizeof(r->err), "cannot read %s: out of memory", r->name);
			return -1;
		}
		if (read_at(r, r->cbuf, clen, r->off + SFILE_BLOCK_HEADER_SIZE) != (ssize_t)clen)
			return -1;
		r->boff = r->off;
		r->off += SFILE_BLOCK_HEADER_SIZE + (uint64_t)clen;
		if (crc32(0, r->cbuf, clen) != sfile_get32(h + 24)) {
			damage(r, r->boff, SFILE_BLOCK_HEADER_SIZE + (uint64_t)clen, count,
			       "CRC mismatch");
			r->st.damaged_blocks++;
			continue;
		}
		dlen = ulen;
		if (uncompress(r->ubuf, &dlen, r->cbuf, clen) != Z_OK || dlen != ulen) {
			damage(r, r->boff, SFILE_BLOCK_HEADER_SIZE + (uint64_t)clen, count,
			       "block does not decompress");
			r->st.damaged_blocks++;
			continue;
		}
		r->ulen = ulen;
		r->upos = 0;
		r->ucount = count;
		r->useen = 0;
		r->inblock = 1;
		r->st.blocks++;
		r->st.raw_bytes += ulen;
		return 1;
	}
	return 0;
}

static const struct sfile_attr *lookup(void *ctx, uint32_t id)
{
	struct sfile_reader *r = ctx;

	/* keep_attr resets the cache, so a hit is still the newest of id */
	if (r->lastattr < r->nattrs && r->attrs[r->lastattr]->a.id == id)
		return &r->attrs[r->lastattr]->a;
	for (size_t i = r->nattrs; i-- > 0;)
		if (r->attrs[i]->a.id == id) {
			r->lastattr = i;
			return &r->attrs[i]->a;
		}
	return NULL;
}

const struct sfile_attr *sfile_attr(const struct sfile_reader *r, uint32_t id)
{
	for (size_t i = r->nattrs; i-- > 0;)
		if (r->attrs[i]->a.id == id)
			return &r->attrs[i]->a;
	return NULL;
}

/* Keep a copy of an attr for decoding later samples; the newest of an id
 * wins.  NULL reason on success. */
static const char *keep_attr(struct sfile_reader *r, const struct sfile_attr *a)
{
	struct rattr *k;

	if (r->nattrs == MAX_ATTRS)
		return "too many event attrs";
	if (r->nattrs == r->attrcap) {
		size_t cap = r->attrcap ? 2 * r->attrcap : 8;
		struct rattr **p = realloc(r->attrs, cap * sizeof(*p));

		if (!p)
			return "out of memory";
		r->attrs = p;
		r->attrcap = cap;
	}
	k = calloc(1, sizeof(*k));
	if (!k || !(k->name = strdup(a->name)) || !(k->machine = strdup(a->machine))) {
		if (k)
			free(k->name);
		free(k);
		return "out of memory";
	}
	k->a = *a;
	k->a.name = k->name;
	k->a.machine = k->machine;
	r->attrs[r->nattrs++] = k;
	r->lastattr = SIZE_MAX;
	return NULL;
}

static int known_type(uint16_t t)
{
	return t >= SFILE_ATTR && t <= SFILE_FINISHED;
}

int sfile_next(struct sfile_reader *r, struct sfile_rec *rec)
{
	for (;;) {
		uint16_t type = 0;
		uint32_t plen;
		size_t at;
		const char *why = NULL;
		int rc;

		if (!r->inblock || r->upos >= r->ulen) {
			if (r->inblock && r->useen != r->ucount) {
				damage(r, r->boff, 0,
				       r->ucount > r->useen ? r->ucount - r->useen : 0,
				       "record count does not match the block header");
			}
			r->inblock = 0;
			rc = load_block(r);
			if (rc <= 0)
				return rc;
		}
		at = r->upos;
		if (r->ulen - at < SFILE_REC_HEADER) {
			why = "record header cut short";
			plen = 0;
		} else {
			type = sfile_get16(r->ubuf + at);
			plen = sfile_get32(r->ubuf + at + 4);
			if (plen > r->ulen - at - SFILE_REC_HEADER)
				why = "record length past the end of its block";
		}
		if (why) {
			/* The rest of the block cannot be framed. */
			damage(r, r->boff, 0, r->ucount > r->useen ? r->ucount - r->useen : 1, why);
			r->st.bad_records++;
			r->useen = r->ucount;
			r->upos = r->ulen;
			continue;
		}
		r->useen++;
		r->st.records++;
		r->upos = at + SFILE_REC_HEADER + plen;
		r->upos += (8 - r->upos % 8) % 8;
		if (!known_type(type)) {
			r->st.unknown++;
			continue;
		}
		if (sfile_dec_record(type, r->ubuf + at + SFILE_REC_HEADER, plen, &r->arena, lookup,
				     r, rec, &why) ||
		    (type == SFILE_ATTR && (why = keep_attr(r, &rec->attr)))) {
			damage(r, r->boff, 0, 1, why);
			r->st.bad_records++;
			continue;
		}
		rec->type = type;
		rec->flags = sfile_get16(r->ubuf + at + 2);
		rec->size = plen;
		rec->block = r->boff;
		r->st.by_type[type]++;
		if (type == SFILE_SAMPLE)
			r->st.samples++;
		if (type == SFILE_FINISHED)
			r->finished = 1;
		return 1;
	}
}

/* Check the file header; 0, or -1 with a message. */
static int check_header(struct sfile_reader *r, char *err, size_t errsz)
{
	uint8_t h[SFILE_HEADER_SIZE];
	ssize_t n = read_at(r, h, sizeof(h), 0);
	uint32_t bo, hsize, flags;

	if (n < 0) {
		sfile_msg(err, errsz, "%s", r->err);
		return -1;
	}
	if (n < 8 || memcmp(h, SFILE_MAGIC, 8)) {
		sfile_msg(err, errsz, "%s: not a vpmu data file%s", r->name,
			  n == 0 ? " (empty)" : "");
		return -1;
	}
	if (n < SFILE_HEADER_SIZE) {
		sfile_msg(err, errsz, "%s: file header cut short (%zd of %d bytes)", r->name, n,
			  SFILE_HEADER_SIZE);
		return -1;
	}
	r->major = sfile_get16(h + 8);
	r->minor = sfile_get16(h + 10);
	if (r->major != SFILE_VERSION_MAJOR) {
		sfile_msg(err, errsz, "%s: format version %u.%u %s; this vpmu reads version %d.x",
			  r->name, r->major, r->minor,
			  r->major > SFILE_VERSION_MAJOR ? "is newer than this vpmu" : "is unknown",
			  SFILE_VERSION_MAJOR);
		return -1;
	}
	bo = sfile_get32(h + 12);
	if (bo == __builtin_bswap32(SFILE_BYTE_ORDER)) {
		sfile_msg(err, errsz, "%s: big-endian data file, which this vpmu does not read",
			  r->name);
		return -1;
	}
	if (bo != SFILE_BYTE_ORDER || sfile_get32(h + 28) != crc32(0, h, 28)) {
		sfile_msg(err, errsz, "%s: file header damaged (checksum mismatch)", r->name);
		return -1;
	}
	hsize = sfile_get32(h + 16);
	if (hsize < SFILE_HEADER_SIZE || hsize > MAX_HEADER || hsize > r->size) {
		sfile_msg(err, errsz, "%s: file header size %u out of range", r->name, hsize);
		return -1;
	}
	flags = sfile_get32(h + 20);
	if (flags & SFILE_HFLAG_INCOMPAT_MASK) {
		sfile_msg(err, errsz, "%s: uses features this vpmu does not know (flags %#x)",
			  r->name, flags);
		return -1;
	}
	r->off = hsize;
	return 0;
}

struct sfile_reader *sfile_open_fd(int fd, const char *name, char *err, size_t errsz)
{
	struct sfile_reader *r = calloc(1, sizeof(*r));
	struct stat sb;

	if (!r || !(r->name = strdup(name))) {
		sfile_msg(err, errsz, "%s: out of memory", name);
		free(r);
		return NULL;
	}
	r->fd = fd;
	r->lastattr = SIZE_MAX;
	if (fstat(fd, &sb)) {
		sfile_msg(err, errsz, "cannot read %s: %s", name, strerror(errno));
		goto fail;
	}
	if (S_ISDIR(sb.st_mode)) {
		sfile_msg(err, errsz, "cannot read %s: %s", name, strerror(EISDIR));
		goto fail;
	}
	if (!S_ISREG(sb.st_mode)) {
		sfile_msg(err, errsz, "cannot read %s: not a regular file", name);
		goto fail;
	}
	r->size = (uint64_t)sb.st_size;
	r->st.file_bytes = r->size;
	if (check_header(r, err, errsz))
		goto fail;
	return r;
fail:
	free(r->name);
	free(r);
	return NULL;
}

/* A pipe's or device's bytes, read to the end, in a memory file (the
 * reader seeks); fd is closed.  -1 with errno on failure. */
static int spool(int fd)
{
	int mfd = memfd_create("vpmu-input", MFD_CLOEXEC), e;
	char buf[65536];
	ssize_t n;

	while (mfd >= 0 && (n = read(fd, buf, sizeof(buf))) != 0) {
		ssize_t k = 0;

		if (n < 0 && errno == EINTR)
			continue;
		for (ssize_t off = 0; n > 0 && off < n && k >= 0; off += k)
			k = write(mfd, buf + off, (size_t)(n - off));
		if (n < 0 || k < 0) {
			e = errno;
			close(mfd);
			mfd = -1;
			errno = e;
		}
	}
	e = errno;
	close(fd);
	if (mfd >= 0 && lseek(mfd, 0, SEEK_SET) < 0) {
		e = errno;
		close(mfd);
		mfd = -1;
	}
	errno = e;
	return mfd;
}

struct sfile_reader *sfile_open(const char *path, char *err, size_t errsz)
{
	int fd = !strcmp(path, "-") ? fcntl(0, F_DUPFD_CLOEXEC, 3) :
				      open(path, O_RDONLY | O_CLOEXEC);
	struct sfile_reader *r;
	struct stat sb;

	if (fd >= 0 && !fstat(fd, &sb) && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode))
		fd = spool(fd);
	if (fd < 0) {
		sfile_msg(err, errsz, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	r = sfile_open_fd(fd, path, err, errsz);
	if (!r) {
		close(fd);
		return NULL;
	}
	r->ownfd = 1;
	return r;
}

const struct sfile_damage *sfile_damage(const struct sfile_reader *r, size_t *n)
{
	*n = r->ndmg;
	return r->dmg;
}

const char *sfile_damage_str(const struct sfile_damage *d, char *buf, size_t n)
{
	if (d->bytes)
		sfile_msg(buf, n, "offset %" PRIu64 ": %" PRIu64 " bytes skipped (%s)", d->offset,
			  d->bytes, d->why);
	else
		sfile_msg(buf, n, "block at offset %" PRIu64 ": %s", d->offset, d->why);
	if (d->records) {
		size_t l = strlen(buf);

		sfile_msg(buf + l, n - l, ", %" PRIu64 " record%s lost", d->records,
			  d->records == 1 ? "" : "s");
	}
	return buf;
}

int sfile_finished(const struct sfile_reader *r)
{
	return r->finished;
}

void sfile_version(const struct sfile_reader *r, unsigned *major, unsigned *minor)
{
	*major = r->major;
	*minor = r->minor;
}

void sfile_rstats(const struct sfile_reader *r, struct sfile_rstats *st)
{
	*st = r->st;
}

const char *sfile_rerror(const struct sfile_reader *r)
{
	return r->err;
}

void sfile_rclose(struct sfile_reader *r)
{
	if (!r)
		return;
	if (r->ownfd)
		close(r->fd);
	for (size_t i = 0; i < r->nattrs; i++) {
		free(r->attrs[i]->name);
		free(r->attrs[i]->machine);
		free(r->attrs[i]);
	}
	free(r->attrs);
	free(r->arena.p);
	free(r->cbuf);
	free(r->ubuf);
	free(r->name);
	free(r);
}
