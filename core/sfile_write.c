/* sfile_write.c — write a sample file: records into blocks, blocks to disk,
 * and the dance that keeps the previous file (sfile.h explains the rules).
 *
 * Why the new file is moved into place at creation rather than at close:
 * a run that is killed must leave its blocks readable at path, so path has
 * to name the new file while the run goes on.  Creating it under a
 * temporary name first and writing its header there means that an
 * unwritable directory or a disk already full fails before the previous
 * file is touched; a write error later undoes the moves.
 */
#define _GNU_SOURCE /* mkostemp */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/sfile.h"
#include "core/sfile_rec.h"

struct wattr {
	uint32_t id;
	uint64_t sample_type;
};

struct sfile_writer {
	int fd;
	int placed; /* path names our file (rename dance done) */
	char *path; /* as given */
	char *old;  /* path.old when a previous file was moved there */
	dev_t dev;  /* our file, to recognise it before removing path */
	ino_t ino;
	struct sfile_enc pend; /* records of the block being built */
	uint32_t pend_count;
	uint8_t *zbuf;
	size_t zcap;
	uint32_t seq;
	int level;
	struct wattr *attrs;
	size_t nattrs, attrcap;
	struct sfile_wstats st;
	int failed;
	char err[512];
};

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0) {
			errno = ENOSPC;
			return -1;
		}
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Remove our file from path and put the previous one back, unless path
 * names something else by now. */
static void undo_place(struct sfile_writer *w)
{
	struct stat sb;

	if (!w->placed)
		return;
	w->placed = 0;
	if (lstat(w->path, &sb) || sb.st_dev != w->dev || sb.st_ino != w->ino)
		return;
	if (unlink(w->path))
		return;
	if (w->old)
		rename(w->old, w->path);
}

/* A write error: report it once, close, undo; later calls fail alike. */
static void fail_io(struct sfile_writer *w, const char *what)
{
	int e = errno;

	if (w->failed)
		return;
	w->failed = 1;
	sfile_msg(w->err, sizeof(w->err), "cannot write %s: %s%s", w->path, what, strerror(e));
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	undo_place(w);
}

static void file_header(uint8_t h[SFILE_HEADER_SIZE])
{
	memset(h, 0, SFILE_HEADER_SIZE);
	memcpy(h, SFILE_MAGIC, 8);
	sfile_put16(h + 8, SFILE_VERSION_MAJOR);
	sfile_put16(h + 10, SFILE_VERSION_MINOR);
	sfile_put32(h + 12, SFILE_BYTE_ORDER);
	sfile_put32(h + 16, SFILE_HEADER_SIZE);
	sfile_put32(h + 20, 0); /* flags */
	sfile_put32(h + 28, (uint32_t)crc32(0, h, 28));
}

/* Create the new file under a temporary name next to path, write the
 * header, then move the previous file to path.old and ours to path. */
static int place(struct sfile_writer *w, const uint8_t *hdr, char *err, size_t errsz)
{
	const char *slash = strrchr(w->path, '/');
	size_t dlen = slash ? (size_t)(slash - w->path) + 1 : 0;
	size_t plen = strlen(w->path);
	char *tmp = malloc(plen + 16);
	struct stat sb;

	w->old = malloc(plen + 5);
	if (!tmp || !w->old) {
		free(tmp);
		sfile_msg(err, errsz, "cannot create %s: out of memory", w->path);
		return -1;
	}
	snprintf(tmp, plen + 16, "%.*s.%s.XXXXXX", (int)dlen, w->path, w->path + dlen);
	snprintf(w->old, plen + 5, "%s.old", w->path);
	w->fd = mkostemp(tmp, O_CLOEXEC);
	if (w->fd < 0) {
		sfile_msg(err, errsz, "cannot create %s: %s", w->path, strerror(errno));
		goto fail;
	}
	if (write_all(w->fd, hdr, SFILE_HEADER_SIZE)) {
		sfile_msg(err, errsz, "cannot write %s: %s", w->path, strerror(errno));
		goto fail_unlink;
	}
	if (lstat(w->path, &sb) == 0) {
		if (rename(w->path, w->old)) {
			sfile_msg(err, errsz, "cannot keep %s as %s: %s", w->path, w->old,
				  strerror(errno));
			goto fail_unlink;
		}
	} else {
		free(w->old);
		w->old = NULL;
	}
	if (rename(tmp, w->path)) {
		sfile_msg(err, errsz, "cannot create %s: %s", w->path, strerror(errno));
		if (w->old)
			rename(w->old, w->path);
		goto fail_unlink;
	}
	if (fstat(w->fd, &sb) == 0) {
		w->dev = sb.st_dev;
		w->ino = sb.st_ino;
	}
	w->placed = 1;
	free(tmp);
	return 0;
fail_unlink:
	unlink(tmp);
	close(w->fd);
	w->fd = -1;
fail:
	free(tmp);
	return -1;
}

static void wfree(struct sfile_writer *w)
{
	if (w->fd >= 0)
		close(w->fd);
	free(w->path);
	free(w->old);
	free(w->pend.p);
	free(w->zbuf);
	free(w->attrs);
	free(w);
}

struct sfile_writer *sfile_create(const char *path, char *err, size_t errsz)
{
	struct sfile_writer *w = calloc(1, sizeof(*w));
	uint8_t hdr[SFILE_HEADER_SIZE];
	struct stat sb;

	if (!w || !(w->path = strdup(path))) {
		sfile_msg(err, errsz, "cannot create %s: out of memory", path);
		free(w);
		return NULL;
	}
	w->fd = -1;
	w->level = SFILE_LEVEL;
	file_header(hdr);
	if (!*path) {
		sfile_msg(err, errsz, "cannot create an output file with an empty name");
		goto fail;
	}
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		sfile_msg(err, errsz, "cannot create %s: %s", path, strerror(EISDIR));
		goto fail;
	}
	if (!strcmp(path, "-") || (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) ||
	    (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode))) {
		/* Standard output (-, perf's pipe mode), a FIFO or device, or
		 * what a symbolic link names (/dev/stdout, the link's target):
		 * written in place, nothing kept, nothing renamed. */
		w->fd = !strcmp(path, "-") ?
				fcntl(1, F_DUPFD_CLOEXEC, 3) :
				open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY,
				     0644);
		if (w->fd < 0) {
			sfile_msg(err, errsz, "cannot open %s: %s", path, strerror(errno));
			goto fail;
		}
		if (write_all(w->fd, hdr, SFILE_HEADER_SIZE)) {
			sfile_msg(err, errsz, "cannot write %s: %s", path, strerror(errno));
			goto fail;
		}
	} else if (place(w, hdr, err, errsz)) {
		goto fail;
	}
	w->st.file_bytes = SFILE_HEADER_SIZE;
	return w;
fail:
	wfree(w);
	return NULL;
}

void sfile_set_level(struct sfile_writer *w, int level)
{
	if (level >= Z_NO_COMPRESSION && level <= Z_BEST_COMPRESSION)
		w->level = level;
}

int sfile_flush(struct sfile_writer *w)
{
	uLongf clen;
	size_t need;
	uint8_t *h;

	if (w->failed)
		return -1;
	if (!w->pend_count)
		return 0;
	need = SFILE_BLOCK_HEADER_SIZE + compressBound(w->pend.len);
	if (need > w->zcap) {
		uint8_t *p = realloc(w->zbuf, need);

		if (!p) {
			errno = ENOMEM;
			fail_io(w, "");
			return -1;
		}
		w->zbuf = p;
		w->zcap = need;
	}
	clen = need - SFILE_BLOCK_HEADER_SIZE;
	if (compress2(w->zbuf + SFILE_BLOCK_HEADER_SIZE, &clen, w->pend.p, w->pend.len, w->level) !=
	    Z_OK) {
		errno = ENOMEM;
		fail_io(w, "zlib: ");
		return -1;
	}
	h = w->zbuf;
	sfile_put32(h, SFILE_BLOCK_MAGIC);
	sfile_put32(h + 4, w->seq);
	sfile_put32(h + 8, (uint32_t)clen);
	sfile_put32(h + 12, (uint32_t)w->pend.len);
	sfile_put32(h + 16, w->pend_count);
	sfile_put32(h + 20, 0); /* flags */
	sfile_put32(h + 24, (uint32_t)crc32(0, h + SFILE_BLOCK_HEADER_SIZE, (uInt)clen));
	sfile_put32(h + 28, (uint32_t)crc32(0, h, 28));
	if (write_all(w->fd, h, SFILE_BLOCK_HEADER_SIZE + clen)) {
		fail_io(w, "");
		return -1;
	}
	w->seq++;
	w->st.blocks++;
	w->st.raw_bytes += w->pend.len;
	w->st.file_bytes += SFILE_BLOCK_HEADER_SIZE + clen;
	w->pend.len = 0;
	w->pend_count = 0;
	return 0;
}

static int add(struct sfile_writer *w, uint16_t type, const void *view, uint64_t st)
{
	if (w->failed)
		return -1;
	if (sfile_enc_record(&w->pend, type, view, st)) {
		/* A bad record is the caller's error; the file stays good. */
		sfile_msg(w->err, sizeof(w->err), "%s record not written: %s",
			  sfile_type_name(type), w->pend.why);
		return -1;
	}
	w->pend_count++;
	w->st.records++;
	if (w->pend.len >= SFILE_BLOCK_SIZE)
		return sfile_flush(w);
	return 0;
}

static const struct wattr *find_attr(const struct sfile_writer *w, uint32_t id)
{
	for (size_t i = 0; i < w->nattrs; i++)
		if (w->attrs[i].id == id)
			return &w->attrs[i];
	return NULL;
}

int sfile_add_attr(struct sfile_writer *w, const struct sfile_attr *a)
{
	if (w->failed)
		return -1;
	if (find_attr(w, a->id)) {
		sfile_msg(w->err, sizeof(w->err), "attr record not written: event id %u is taken",
			  a->id);
		return -1;
	}
	if (w->nattrs == w->attrcap) {
		size_t cap = w->attrcap ? 2 * w->attrcap : 8;
		struct wattr *p = realloc(w->attrs, cap * sizeof(*p));

		if (!p) {
			sfile_msg(w->err, sizeof(w->err), "attr record not written: out of memory");
			return -1;
		}
		w->attrs = p;
		w->attrcap = cap;
	}
	if (add(w, SFILE_ATTR, a, 0))
		return -1;
	w->attrs[w->nattrs].id = a->id;
	w->attrs[w->nattrs++].sample_type = a->sample_type;
	return 0;
}

int sfile_add_sample(struct sfile_writer *w, const struct sfile_sample *s)
{
	const struct wattr *a;

	if (w->failed)
		return -1;
	a = find_attr(w, s->id);
	if (!a) {
		sfile_msg(w->err, sizeof(w->err),
			  "sample record not written: no attr for event id %u", s->id);
		return -1;
	}
	if (add(w, SFILE_SAMPLE, s, a->sample_type))
		return -1;
	w->st.samples++;
	return 0;
}

int sfile_add_cmdline(struct sfile_writer *w, const struct sfile_cmdline *c)
{
	return add(w, SFILE_CMDLINE, c, 0);
}

int sfile_add_machine(struct sfile_writer *w, const struct sfile_machine *m)
{
	return add(w, SFILE_MACHINE, m, 0);
}

int sfile_add_mmap(struct sfile_writer *w, const struct sfile_mmap *m)
{
	return add(w, SFILE_MMAP, m, 0);
}

int sfile_add_comm(struct sfile_writer *w, const struct sfile_comm *c)
{
	return add(w, SFILE_COMM, c, 0);
}

int sfile_add_totals(struct sfile_writer *w, const struct sfile_totals *t)
{
	return add(w, SFILE_TOTALS, t, 0);
}

int sfile_add_lost(struct sfile_writer *w, const struct sfile_lost *l)
{
	return add(w, SFILE_LOST, l, 0);
}

const char *sfile_werror(const struct sfile_writer *w)
{
	return w->err;
}

void sfile_wstats(const struct sfile_writer *w, struct sfile_wstats *st)
{
	*st = w->st;
}

int sfile_close(struct sfile_writer *w, char *err, size_t errsz)
{
	struct sfile_finished f = { w->st.records, w->st.samples };
	int rc = 0;

	if (!w->failed && add(w, SFILE_FINISHED, &f, 0) == 0 && sfile_flush(w) == 0) {
		/* close() can report a delayed write error (NFS, quotas). */
		int fd = w->fd;

		w->fd = -1;
		if (close(fd))
			fail_io(w, "");
	}
	if (w->failed || w->fd >= 0) {
		sfile_msg(err, errsz, "%s", w->err);
		rc = -1;
		if (!w->failed) /* FINISHED itself could not be encoded */
			undo_place(w);
	}
	wfree(w);
	return rc;
}

void sfile_abort(struct sfile_writer *w)
{
	if (!w)
		return;
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	undo_place(w);
	wfree(w);
}
