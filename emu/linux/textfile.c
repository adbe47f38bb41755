/* textfile.c — a file whose text the emulator wrote, for the guest to
 * read where the host's would tell the host (/proc/cpuinfo, the emulated
 * clock's /proc/uptime): an anonymous memory file, reopened read-only
 * with the guest's flags so that it reads, seeks and stats like a file
 * and nothing else can write it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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
