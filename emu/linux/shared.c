/* shared.c — the area of per-process counts shared by every guest process
 * of a run (and the parent that reports them).  A memfd, so it survives the
 * host execve() that a guest execve() becomes; its fd is moved high so the
 * guest, which sees it as closed, is unlikely to stumble on it.  The run's
 * limits (lx_limits.h) follow struct lx_shared on the next page.
 */
#define _GNU_SOURCE /* memfd_create */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "linux.h"
#include "lx_limits.h"
#include "lx_mm.h"
#include "lx_proc.h"

#define LX_SHARED_MAGIC 0x7670756du /* "vpum" */
#define LX_LIMITS_MAGIC 0x766c696du /* "vlim" */
#define LX_SHARED_FD_MIN 900
#define LX_LIMITS_OFF lx_page_up(sizeof(struct lx_shared))
#define LX_SHARED_SIZE (LX_PIPES_OFF + lx_page_up(sizeof(struct lx_pipes)))

struct lx_shared *lx_shared_create(int *fd)
{
	struct rlimit rl;
	int f, hi, lowfd;
	struct lx_shared *sh;

	lowfd = memfd_create("vpmu-counts", 0);
	if (lowfd < 0)
		return NULL;
	f = lowfd;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur > LX_SHARED_FD_MIN + 64) {
		hi = fcntl(lowfd, F_DUPFD, LX_SHARED_FD_MIN);
		if (hi >= 0) {
			close(lowfd);
			f = hi;
		}
	}
	if (ftruncate(f, (off_t)LX_SHARED_SIZE) < 0)
		goto fail;
	sh = mmap(NULL, LX_SHARED_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
	if (sh == MAP_FAILED)
		goto fail;
	sh->magic = LX_SHARED_MAGIC;
	sh->nslots = LX_MAX_SLOTS;
	sh->sample_fd = -1;
	lx_limits_of(sh)->magic = LX_LIMITS_MAGIC;
	*fd = f;
	return sh;
fail:;
	int e = errno;
	close(f);
	errno = e;
	return NULL;
}

struct lx_shared *lx_shared_map(int fd)
{
	struct lx_shared *sh;
	off_t size = lseek(fd, 0, SEEK_END);

	if (size < (off_t)LX_SHARED_SIZE) {
		errno = EINVAL;
		return NULL;
	}
	sh = mmap(NULL, LX_SHARED_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (sh == MAP_FAILED)
		return NULL;
	if (sh->magic != LX_SHARED_MAGIC || sh->nslots != LX_MAX_SLOTS ||
	    lx_limits_of(sh)->magic != LX_LIMITS_MAGIC) {
		munmap(sh, LX_SHARED_SIZE);
		errno = EINVAL;
		return NULL;
	}
	return sh;
}

void lx_shared_total(const struct lx_shared *sh, struct x86_counts *out)
{
	uint32_t n = sh->next < LX_MAX_SLOTS ? sh->next : LX_MAX_SLOTS;

	memset(out, 0, sizeof(*out));
	for (uint32_t i = 0; i < n; i++) {
		const struct x86_counts *c = &sh->slot[i].cnt;

		out->insns += c->insns;
		out->branches += c->branches;
		out->taken += c->taken;
		out->loads += c->loads;
		out->stores += c->stores;
		out->syscalls += c->syscalls;
	}
}

struct lx_limits *lx_limits_of(struct lx_shared *sh)
{
	return (struct lx_limits *)((char *)sh + LX_LIMITS_OFF);
}
