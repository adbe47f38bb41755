/* pipe.c — how much a read of a pipe between guest processes returns
 * (--vtime), so that it does not depend on how far the writer had got.
 *
 * On Linux a blocking read of a pipe returns what is in it, up to the
 * count, once anything is: the bytes of one write or of several, as the
 * two processes happened to be scheduled.  A reader's instructions, and
 * so its counts, follow.  Every guest process records, in the shared
 * area, the end of each write it makes to a pipe (the total written to
 * that pipe so far, which the writes of all guest processes add to); a
 * guest's read of a pipe then returns the bytes up to the next recorded
 * end, or the count if fewer.  A read finds
 *   - an end recorded past what guest readers have taken: its bytes are
 *     in the pipe already (the writer records after its write);
 *   - none, but data there: a write not yet recorded.  The read waits for
 *     the record, or for the count to be there, or for the pipe to be
 *     full, or for the writers to be gone;
 *   - nothing there: it waits for data as the read would have.
 * A blocking write of more than LX_PIPE_CHUNK bytes by a process with one
 * thread goes in as writes of that many (a page, within PIPE_BUF: each
 * goes in whole), so that no write waits half done for a read that waits
 * for its end.
 *
 * A pipe no guest made (its writer is no guest of the run, or it is a
 * named FIFO), a non-blocking read, and a pipe whose unread ends
 * overflowed its record read as the host gives them, as does a read whose
 * record has not come after LX_PIPE_PATIENCE_NS (a writer stopped between
 * its write and the record).  Concurrent writers to one pipe interleave
 * as the host runs them: that order is the program's own race.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>

#include "lx_proc.h"

#define LX_PIPE_PROBE 8			 /* slots a pipe may take, from its hash on */
#define LX_PIPE_BUSY (~0ull)		 /* a slot being set up */
#define LX_PIPE_PATIENCE_NS 1000000000ll /* the longest wait for a record */
#define LX_PIPE_NAP_NS 50000		 /* between looks for it */
#define LX_PIPE_CHUNK 4096		 /* the most one write of the host puts in */

struct lx_pipes *lx_pipes_of(struct lx_shared *sh)
{
	return (struct lx_pipes *)((char *)sh + LX_PIPES_OFF);
}

/* The identity of fd if it is a pipe (a FIFO), else 0. */
static uint64_t pipe_id(long fd)
{
	struct stat st;

	if (lx_host_syscall(5, fd, (long)&st, 0, 0, 0, 0) < 0 || !S_ISFIFO(st.st_mode))
		return 0;
	/* (pipefs numbers its inodes from one counter; named FIFOs add
	 * their device) */
	uint64_t id = ((uint64_t)st.st_ino ^ (uint64_t)st.st_dev << 40) + 1;
	return id && id != LX_PIPE_BUSY ? id : 2;
}

/* The record of pipe id, NULL if it has none; with create, made if it
 * has none (on the slot used longest ago among its candidates when they
 * are all taken), with create 2 made anew (a new pipe that has the number
 * of one gone). */
static struct lx_pipe *find(struct lx_pipes *t, uint64_t id, int create)
{
	unsigned h = (unsigned)(id % LX_PIPES);
	struct lx_pipe *old = NULL;

	for (unsigned k = 0; k < LX_PIPE_PROBE; k++) {
		struct lx_pipe *e = &t->p[(h + k) % LX_PIPES];
		uint64_t have = __atomic_load_n(&e->id, __ATOMIC_ACQUIRE);
		if (have == id && create < 2)
			return e;
		if (have == id) {
			old = e;
			break;
		}
		if (have != LX_PIPE_BUSY && (!old || e->stamp < old->stamp))
			old = e;
	}
	if (!create || !old)
		return NULL;
	uint64_t was = __atomic_load_n(&old->id, __ATOMIC_ACQUIRE);
	if (was == LX_PIPE_BUSY || !__atomic_compare_exchange_n(&old->id, &was, LX_PIPE_BUSY, 0,
								__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return NULL;
	old->written = old->taken = 0;
	old->nends = 0;
	old->lost = 0;
	for (unsigned k = 0; k < LX_PIPE_PIDS; k++)
		old->writer[k] = old->reader[k] = 0;
	for (unsigned k = 0; k < LX_PIPE_ENDS; k++)
		old->ends[k] = 0;
	old->stamp = __atomic_add_fetch(&t->clock, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&old->id, id, __ATOMIC_RELEASE);
	return old;
}

uint64_t lx_pipe_next_end(const struct lx_pipe *e, uint64_t taken)
{
	uint64_t best = 0;

	for (unsigned k = 0; k < LX_PIPE_ENDS; k++) {
		uint64_t v = __atomic_load_n(&e->ends[k], __ATOMIC_ACQUIRE);
		if (v > taken && (!best || v < best))
			best = v;
	}
	return best;
}

/* Note process pid among those of set (LX_PIPE_PIDS, the oldest going). */
static void note(int32_t *set, int pid)
{
	for (unsigned k = 0; k < LX_PIPE_PIDS; k++)
		if (__atomic_load_n(&set[k], __ATOMIC_RELAXED) == pid)
			return;
	for (unsigned k = LX_PIPE_PIDS - 1; k > 0; k--)
		__atomic_store_n(&set[k], __atomic_load_n(&set[k - 1], __ATOMIC_RELAXED),
				 __ATOMIC_RELAXED);
	__atomic_store_n(&set[0], pid, __ATOMIC_RELEASE);
}

static int noted(const int32_t *set, int pid)
{
	for (unsigned k = 0; k < LX_PIPE_PIDS; k++)
		if (__atomic_load_n(&set[k], __ATOMIC_ACQUIRE) == pid)
			return 1;
	return 0;
}

int lx_pipe_feeds(struct lx_shared *sh, int w, int r)
{
	const struct lx_pipes *t = lx_pipes_of(sh);

	for (unsigned k = 0; k < LX_PIPES; k++) {
		const struct lx_pipe *e = &t->p[k];
		uint64_t id = __atomic_load_n(&e->id, __ATOMIC_ACQUIRE);
		if (id && id != LX_PIPE_BUSY && noted(e->writer, w) && noted(e->reader, r))
			return 1;
	}
	return 0;
}

/* n bytes written to pipe id by process pid: record the end of the
 * write. */
static void wrote(struct lx_pipes *t, uint64_t id, long n, int pid)
{
	struct lx_pipe *e = find(t, id, 1);

	if (!e)
		return;
	note(e->writer, pid);
	uint64_t end = __atomic_add_fetch(&e->written, (uint64_t)n, __ATOMIC_ACQ_REL);
	uint64_t k = __atomic_fetch_add(&e->nends, 1, __ATOMIC_ACQ_REL);
	/* the slot's end must have been read past, or it is lost */
	uint64_t over = __atomic_load_n(&e->ends[k % LX_PIPE_ENDS], __ATOMIC_ACQUIRE);
	if (over > __atomic_load_n(&e->taken, __ATOMIC_ACQUIRE))
		__atomic_store_n(&e->lost, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&e->ends[k % LX_PIPE_ENDS], end, __ATOMIC_RELEASE);
	e->stamp = __atomic_add_fetch(&t->clock, 1, __ATOMIC_RELAXED);
}

int lx_pipe_write(struct lx_proc *p, const struct x86_cpu *c, const uint64_t a[3], long *r)
{
	long fd = (long)a[0], fl;
	uint64_t id, n = a[2], done = 0;

	/* (threads of one process share a host thread: one that waits in a
	 * write of many pages would stop the thread that is to read them) */
	if (!p->cfg->vtime || !p->sh || p->nth != 1 || n <= LX_PIPE_CHUNK || !(id = pipe_id(fd)))
		return 0;
	fl = lx_host_syscall(72, fd, F_GETFL, 0, 0, 0, 0);
	if (fl < 0 || (fl & O_NONBLOCK))
		return 0;
	struct lx_pipes *t = lx_pipes_of(p->sh);
	while (done < n) {
		long k = n - done < LX_PIPE_CHUNK ? (long)(n - done) : LX_PIPE_CHUNK;
		lx_itimer_host_arm(p, c); /* (a full pipe waits, as the write would) */
		long w = lx_host_syscall(1, fd, (long)(a[1] + done), k, 0, 0, 0);
		lx_itimer_host_disarm(p);
		if (w <= 0) {
			/* (a signal or a reader gone after some bytes: those,
			 * as the kernel's write returns them) */
			*r = done ? (long)done : w;
			return 1;
		}
		wrote(t, id, w, p->pid);
		done += (uint64_t)w;
	}
	*r = (long)done;
	return 1;
}

/* The bytes waiting in pipe fd, -1 if it cannot tell. */
static long in_pipe(long fd)
{
	int n = 0;

	return lx_host_syscall(16, fd, FIONREAD, (long)&n, 0, 0, 0) < 0 ? -1 : n;
}

/* Whether no one has pipe fd open for writing any more. */
static int hung_up(long fd)
{
	struct pollfd pf = { (int)fd, POLLIN, 0 };

	return lx_host_syscall(7, (long)&pf, 1, 0, 0, 0, 0) > 0 && (pf.revents & POLLHUP);
}

long lx_pipe_want(uint64_t taken, uint64_t end, uint64_t count, long avail, long size, int hup)
{
	if (end) {
		uint64_t w = end - taken < count ? end - taken : count;
		return (uint64_t)avail >= w ? (long)w : -1;
	}
	if ((uint64_t)avail >= count || (avail > 0 && (avail >= size || hup)))
		return (long)count;
	return 0;
}

int lx_pipe_read(struct lx_proc *p, const struct x86_cpu *c, const uint64_t a[3], long *r)
{
	long fd = (long)a[0], fl;
	uint64_t id, count = a[2];
	struct lx_pipe *e;
	int64_t since = -1;

	if (!p->cfg->vtime || !p->sh || !count || !(id = pipe_id(fd)))
		return 0;
	fl = lx_host_syscall(72, fd, F_GETFL, 0, 0, 0, 0);
	if (fl < 0 || (fl & O_NONBLOCK) || !(e = find(lx_pipes_of(p->sh), id, 0)))
		return 0;
	long size = lx_host_syscall(72, fd, F_GETPIPE_SZ, 0, 0, 0, 0);
	for (;;) {
		if (__atomic_load_n(&e->lost, __ATOMIC_ACQUIRE) ||
		    __atomic_load_n(&e->id, __ATOMIC_ACQUIRE) != id)
			return 0;
		uint64_t taken = __atomic_load_n(&e->taken, __ATOMIC_ACQUIRE);
		uint64_t end = lx_pipe_next_end(e, taken);
		long avail = in_pipe(fd);
		if (avail < 0)
			return 0;
		long want = lx_pipe_want(taken, end, count, avail, size, !end && hung_up(fd));
		if (want < 0)
			return 0; /* bytes were taken by a reader that is no guest */
		if (want > 0) {
			*r = lx_host_syscall(0, fd, (long)a[1], want, 0, 0, 0);
			if (*r == -EFAULT && p->mm.nwprot) {
				/* (as dispatch(): pages write-protected for
				 * self-modifying code) */
				lx_code_unprotect_all(p);
				*r = lx_host_syscall(0, fd, (long)a[1], want, 0, 0, 0);
			}
			if (*r >= 0)
				note(e->reader, p->pid);
			if (*r > 0)
				__atomic_add_fetch(&e->taken, (uint64_t)*r, __ATOMIC_ACQ_REL);
			return 1;
		}
		if (!avail) {
			/* nothing there: wait for data as the read would */
			struct pollfd pf = { (int)fd, POLLIN, 0 };
			lx_itimer_host_arm(p, c);
			long w = lx_host_syscall(7, (long)&pf, 1, -1, 0, 0, 0);
			lx_itimer_host_disarm(p);
			if (w < 0) {
				*r = w;
				return 1;
			}
			if ((pf.revents & (POLLHUP | POLLERR)) && !(pf.revents & POLLIN))
				return 0; /* the read sees the end */
			continue;
		}
		/* data without its end recorded yet */
		int64_t now = lx_now_ns();
		if (since < 0)
			since = now;
		else if (now - since > LX_PIPE_PATIENCE_NS)
			return 0;
		struct timespec nap = { 0, LX_PIPE_NAP_NS };
		lx_host_syscall(35, (long)&nap, 0, 0, 0, 0, 0);
	}
}

void lx_pipe_done(struct lx_proc *p, long nr, const uint64_t a[6], long r)
{
	long out;

	if (!p->cfg->vtime || !p->sh || r < 0)
		return;
	struct lx_pipes *t = lx_pipes_of(p->sh);
	uint64_t id;
	if (nr == 22 || nr == 293) {
		/* a pipe made: recorded from the start, so that a read before
		 * the first write knows that a guest writes */
		int fd;
		if (!lx_copy_in(p, &fd, a[0], sizeof(fd)) && (id = pipe_id(fd)))
			find(t, id, 2);
		return;
	}
	if (!r)
		return;
	switch (nr) {
	case 1:	  /* write */
	case 20:  /* writev */
	case 40:  /* sendfile */
	case 278: /* vmsplice */
		out = (long)a[0];
		break;
	case 275: /* splice */
		out = (long)a[2];
		break;
	case 276: /* tee */
		out = (long)a[1];
		break;
	default:
		out = -1;
		break;
	}
	if (out >= 0 && (id = pipe_id(out)))
		wrote(t, id, r, p->pid);
	/* what guest readers took without lx_pipe_read: readv, splice */
	if ((nr == 0 || nr == 19 || nr == 275) && (id = pipe_id((long)a[0]))) {
		struct lx_pipe *e = find(t, id, 0);
		if (e) {
			note(e->reader, p->pid);
			__atomic_add_fetch(&e->taken, (uint64_t)r, __ATOMIC_ACQ_REL);
		}
	}
}
