/* textfile.c — a file whose text the emulator wrote, for the guest to
 * read where the host's would tell the host (/proc/cpuinfo, the emulated
 * clock's /proc/uptime): an anonymous memory file, reopened read-only
 * with the guest's flags so that it reads, seeks and stats like a file
 * and nothing else can write it; and the host's text of such a file,
 * which the emulator rewrites. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "lx_proc.h"

long lx_textfile_open(const char *name, const char *text, size_t len, long flags)
{
	char self[40];
	long fd, w, r;

	fd = lx_host_syscall(319, (long)name, MFD_CLOEXEC, 0, 0, 0, 0);
	if (fd < 0)
		return fd;
	w = lx_host_syscall(1, fd, (long)text, (long)len, 0, 0, 0);
	snprintf(self, sizeof(self), "/proc/self/fd/%ld", fd);
	r = w == (long)len ? lx_host_syscall(257, AT_FDCWD, (long)self, flags, 0, 0, 0) :
	    w < 0	   ? w :
			     -EIO;
	lx_host_syscall(3, fd, 0, 0, 0, 0, 0);
	return r;
}

char *lx_host_text(const char *path, size_t *len)
{
	long fd = lx_host_syscall(257, AT_FDCWD, (long)path, O_RDONLY | O_CLOEXEC, 0, 0, 0);
	size_t cap = 16384, n = 0;
	char *buf = NULL, *nb;
	long r = 1;

	if (fd < 0)
		return NULL;
	while (r > 0) {
		if (n + 1 >= cap || !buf) {
			if (buf)
				cap *= 2;
			if (cap > LX_HOST_TEXT_MAX || !(nb = realloc(buf, cap))) {
				r = -1;
				break;
			}
			buf = nb;
		}
		r = lx_host_syscall(0, fd, (long)(buf + n), (long)(cap - 1 - n), 0, 0, 0);
		if (r > 0)
			n += (size_t)r;
	}
	lx_host_syscall(3, fd, 0, 0, 0, 0, 0);
	if (r < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	*len = n;
	return buf;
}
