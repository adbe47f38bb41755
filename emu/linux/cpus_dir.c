/* cpus_dir.c — the paths of the emulated package's files, and its
 * directories as a listing or stat(2) sees them: a processor, cache or
 * node the package lacks is not there (cpus_sys.c), even where the
 * host's /sys has it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "lx_proc.h"

int lx_cpus_path(int dirfd, const char *path, char full[LX_CPUS_PATH])
{
	const char *base = strrchr(path, '/');
	char dir[256], self[32];
	long n;

	if (path[0] == '/') {
		snprintf(full, LX_CPUS_PATH, "%s", path);
		return strlen(path) < LX_CPUS_PATH ? 0 : -1;
	}
	base = base ? base + 1 : path;
	/* (only the names of those files need the directory looked up) */
	if (strcmp(base, "cpuinfo") && strcmp(base, "stat") && strcmp(base, "status") &&
	    !lx_cpus_sys_name(base))
		return -1;
	/* relative: to the directory dirfd names (util-linux opens
	 * "cpuinfo" in /proc so), or to the working directory */
	if (dirfd == AT_FDCWD) {
		n = lx_host_syscall(79, (long)dir, sizeof(dir), 0, 0, 0, 0);
		n = n > 0 ? (long)strlen(dir) : -1;
	} else {
		snprintf(self, sizeof(self), "/proc/self/fd/%d", dirfd);
		n = lx_host_syscall(89, (long)self, (long)dir, sizeof(dir) - 1, 0, 0, 0);
	}
	if (n <= 0 || n >= (long)sizeof(dir))
		return -1;
	dir[n] = 0;
	n = snprintf(full, LX_CPUS_PATH, "%s/%s", strcmp(dir, "/") ? dir : "", path);
	return n > 0 && n < LX_CPUS_PATH ? 0 : -1;
}

/* The package's model. */
static const struct x86_model *model(const struct x86_cpu *c)
{
	return c->model ? c->model : &x86_model_p4_xeon;
}

int lx_cpus_absent(const struct x86_cpu *c, int dirfd, const char *path)
{
	char full[LX_CPUS_PATH], text[64];

	return !lx_cpus_path(dirfd, path, full) &&
	       lx_cpus_file(model(c), full, text, sizeof(text)) == -ENOENT;
}

/* Whether name is one a listing of the package's directories may have
 * to drop (cpu1, index2, node1). */
static int numbered(const char *name)
{
	return (!strncmp(name, "cpu", 3) || !strncmp(name, "index", 5) ||
		!strncmp(name, "node", 4)) &&
	       lx_cpus_sys_name(name);
}

long lx_cpus_getdents(const struct x86_cpu *c, int fd, uint8_t *buf, long len)
{
	char dir[LX_CPUS_PATH], self[32], path[2 * LX_CPUS_PATH], text[64];
	long k, out = 0, last = -1, n;
	uint16_t rec;

	/* linux_dirent64: d_ino, d_off, d_reclen (at 16), d_type, d_name (19) */
	for (k = 0; k + 20 <= len && (rec = *(uint16_t *)(buf + k + 16)) >= 20; k += rec)
		if (numbered((const char *)buf + k + 19))
			break;
	if (k + 20 > len)
		return len;
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	n = lx_host_syscall(89, (long)self, (long)dir, sizeof(dir) - 1, 0, 0, 0);
	if (n <= 0 || n >= (long)sizeof(dir))
		return len;
	dir[n] = 0;
	/* drop the entries that are absent, moving the others down; the
	 * d_off of the one before a dropped one goes past it (telldir) */
	for (k = 0; k + 20 <= len && (rec = *(uint16_t *)(buf + k + 16)) >= 20 && k + rec <= len;
	     k += rec) {
		const char *name = (const char *)buf + k + 19;

		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (!numbered(name) ||
		    lx_cpus_file(model(c), path, text, sizeof(text)) != -ENOENT) {
			memmove(buf + out, buf + k, rec);
			last = out;
			out += rec;
		} else if (last >= 0) {
			memcpy(buf + last + 8, buf + k + 8, 8);
		}
	}
	memmove(buf + out, buf + k, (size_t)(len - k)); /* (a malformed tail, as it was) */
	return out + (len - k);
}
