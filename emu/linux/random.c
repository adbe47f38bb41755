/* random.c — the emulated system's randomness, all of it from the run's
 * seed (--seed): the AT_RANDOM bytes of a new process, what getrandom(2)
 * returns and what reads of /dev/random and /dev/urandom return, so that
 * the same run gives the same counts. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>

#include "lx_proc.h"

/* Linux caps one read at MAX_RW_COUNT (INT_MAX rounded down to a page,
 * include/linux/fs.h) and a vector at UIO_MAXIOV (include/uapi/linux/uio.h). */
#define RANDOM_MAX_RW 0x7ffff000ull
#define RANDOM_MAXIOV 1024

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void lx_random_bytes(uint64_t seed, uint8_t out[16])
{
	uint64_t s = seed, a = splitmix64(&s), b = splitmix64(&s);

	memcpy(out, &a, 8);
	memcpy(out + 8, &b, 8);
}

void lx_random_init(uint64_t *state, uint64_t seed)
{
	/* a stream apart from the AT_RANDOM one (bits of the square root of 2) */
	*state = seed ^ 0x6a09e667f3bcc908ull;
}

void lx_random_fill(uint64_t *state, void *buf, size_t n)
{
	uint8_t *b = buf;

	while (n) {
		uint64_t v = splitmix64(state);
		size_t k = n < 8 ? n : 8;

		memcpy(b, &v, k);
		b += k;
		n -= k;
	}
}

void lx_random_fork(uint64_t *parent, uint64_t *child)
{
	/* the child's stream starts where a draw of the parent's points, so
	 * parent and child differ, as they would from the kernel */
	*child = splitmix64(parent) ^ 0xbb67ae8584caa73bull;
}

/* Copy len bytes of the stream to guest memory at buf; what was copied
 * before a fault, or -EFAULT. */
static long random_out(struct lx_proc *p, uint64_t buf, uint64_t len)
{
	uint8_t chunk[256];
	uint64_t done = 0;

	while (done < len) {
		size_t n = len - done < sizeof(chunk) ? (size_t)(len - done) : sizeof(chunk);

		lx_random_fill(&p->rng, chunk, n);
		if (lx_copy_out(p, buf + done, chunk, n))
			return done ? (long)done : -EFAULT;
		done += n;
	}
	return (long)done;
}

long lx_sys_getrandom(struct lx_proc *p, uint64_t buf, uint64_t len, uint64_t flags)
{
	if (flags & ~7ull || (flags & 6) == 6) /* GRND_NONBLOCK|RANDOM|INSECURE */
		return -EINVAL;
	return random_out(p, buf, len < RANDOM_MAX_RW ? len : RANDOM_MAX_RW);
}

/* Is fd open on /dev/random or /dev/urandom?  Asked of the host at each
 * read, so a descriptor dup'ed, inherited or passed keeps its meaning
 * without a table of ours: the memory devices 1:8 and 1:9
 * (Documentation/admin-guide/devices.txt). */
static int random_device(long fd)
{
	struct stat st;

	if (lx_host_syscall(5 /* fstat */, fd, (long)&st, 0, 0, 0, 0) < 0 || !S_ISCHR(st.st_mode))
		return 0;
	return major(st.st_rdev) == 1 && (minor(st.st_rdev) == 8 || minor(st.st_rdev) == 9);
}

static long random_readv(struct lx_proc *p, uint64_t iov, long cnt)
{
	struct iovec v[64];
	uint64_t done = 0;

	if (cnt < 0 || cnt > RANDOM_MAXIOV)
		return -EINVAL;
	for (long k = 0; k < cnt; k += 64) {
		long n = cnt - k < 64 ? cnt - k : 64;

		if (lx_copy_in(p, v, iov + (uint64_t)k * sizeof(*v), (size_t)n * sizeof(*v)))
			return done ? (long)done : -EFAULT;
		for (long j = 0; j < n && done < RANDOM_MAX_RW; j++) {
			uint64_t want = v[j].iov_len, room = RANDOM_MAX_RW - done;
			long r = random_out(p, (uint64_t)v[j].iov_base, want < room ? want : room);

			if (r < 0)
				return done ? (long)done : r;
			done += (uint64_t)r;
			if ((uint64_t)r < want)
				return (long)done;
		}
	}
	return (long)done;
}

int lx_random_read(struct lx_proc *p, long nr, long fd, uint64_t buf, uint64_t len, long *ret)
{
	long fl;

	if (!random_device(fd))
		return 0;
	fl = lx_host_syscall(72 /* fcntl */, fd, F_GETFL, 0, 0, 0, 0);
	if (fl < 0 || (fl & O_PATH) || (fl & O_ACCMODE) == O_WRONLY)
		*ret = -EBADF;
	else if (nr == 19 || nr == 295 || nr == 327) /* readv, preadv, preadv2 */
		*ret = random_readv(p, buf, (long)len);
	else /* read, pread64: the devices have no position */
		*ret = random_out(p, buf, len < RANDOM_MAX_RW ? len : RANDOM_MAX_RW);
	return 1;
}
