/* vtime_proc.c — under --vtime, the /proc files that tell the host's
 * time, load and memory tell the emulated system's, as sysinfo(2) does
 * (vtime.c): it booted when the run began and runs nothing else.
 * /proc/uptime is the emulated uptime (no idle time), /proc/loadavg
 * reads zero with the one process running, and /proc/meminfo keeps the
 * host's sizes with all the memory and swap free.  So libuv's
 * os.freemem(), free(1) and uptime(1) read the same every run. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lx_proc.h"

#define VT_PROC_TEXT 8192

/* The host's file at path into buf (n bytes, NUL-terminated): its length,
 * or 0. */
static size_t host_text(const char *path, char *buf, size_t n)
{
	long fd = lx_host_syscall(257, AT_FDCWD, (long)path, O_RDONLY | O_CLOEXEC, 0, 0, 0);
	size_t len = 0;
	long r = 1;

	if (fd < 0)
		return 0;
	while (len + 1 < n &&
	       (r = lx_host_syscall(0, fd, (long)(buf + len), (long)(n - 1 - len), 0, 0, 0)) > 0)
		len += (size_t)r;
	lx_host_syscall(3, fd, 0, 0, 0, 0, 0);
	buf[len] = 0;
	return r < 0 || len + 1 >= n ? 0 : len;
}

/* The value in kB of field key ("MemTotal") of meminfo text, 0 if absent. */
static unsigned long long field(const char *text, const char *key)
{
	size_t klen = strlen(key);

	for (const char *l = text; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
		if (!strncmp(l, key, klen) && l[klen] == ':')
			return strtoull(l + klen + 1, NULL, 10);
	return 0;
}

/* What meminfo's field key reads when everything is free: the sizes
 * stay, the free figures are the sizes, and the rest (caches, buffers,
 * pages in use) is zero. */
static unsigned long long free_value(const char *host, const char *key)
{
	static const char *const sizes[] = { "MemTotal",     "SwapTotal",	"CommitLimit",
					     "VmallocTotal", "HugePages_Total", "Hugepagesize",
					     "Hugetlb",	     "DirectMap4k",	"DirectMap2M",
					     "DirectMap1G" };

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
		if (!strcmp(key, sizes[k]))
			return field(host, key);
	if (!strcmp(key, "MemFree") || !strcmp(key, "MemAvailable"))
		return field(host, "MemTotal");
	if (!strcmp(key, "SwapFree"))
		return field(host, "SwapTotal");
	if (!strcmp(key, "HugePages_Free"))
		return field(host, "HugePages_Total");
	return 0;
}

/* The host's /proc/meminfo with free_value()s, each right-aligned where
 * the host's was. */
static size_t meminfo(char *buf, size_t n)
{
	char host[VT_PROC_TEXT], key[64];
	size_t len = 0;

	if (!host_text("/proc/meminfo", host, sizeof(host)))
		return 0;
	for (const char *l = host; *l;) {
		const char *colon = strchr(l, ':'), *eol = strchr(l, '\n'), *num;
		size_t klen, pad;
		int w;

		if (!eol)
			eol = l + strlen(l);
		if (!colon || colon > eol || (size_t)(colon - l) >= sizeof(key))
			return 0;
		klen = (size_t)(colon - l);
		memcpy(key, l, klen);
		key[klen] = 0;
		for (num = colon + 1; *num == ' '; num++)
			;
		pad = (size_t)(num - colon - 1) + strspn(num, "0123456789");
		w = snprintf(buf + len, len < n ? n - len : 0, "%s:%*llu%.*s\n", key, (int)pad,
			     free_value(host, key), (int)(eol - num - strspn(num, "0123456789")),
			     num + strspn(num, "0123456789"));
		len += w > 0 ? (size_t)w : 0;
		l = *eol ? eol + 1 : eol;
	}
	return len < n ? len : 0;
}

long lx_vtime_proc_file(const struct lx_proc *p, const struct x86_cpu *c, const char *path,
			char *buf, size_t n)
{
	int64_t up = lx_clock_ns(p, c, CLOCK_BOOTTIME);
	int w = -1;

	if (!strcmp(path, "/proc/uptime"))
		w = snprintf(buf, n, "%lld.%02lld 0.00\n", (long long)(up / 1000000000),
			     (long long)(up / 10000000 % 100));
	else if (!strcmp(path, "/proc/loadavg"))
		w = snprintf(buf, n, "0.00 0.00 0.00 1/1 %d\n", p->pid);
	else if (!strcmp(path, "/proc/meminfo"))
		return (long)meminfo(buf, n);
	return w > 0 && (size_t)w < n ? w : 0;
}

int lx_vtime_proc_open(const struct lx_proc *p, const struct x86_cpu *c, const char *path,
		       long flags, long *fd)
{
	char text[VT_PROC_TEXT];
	long len;

	if (!p->cfg->vtime || (flags & O_ACCMODE) != O_RDONLY || (flags & O_DIRECTORY) ||
	    (len = lx_vtime_proc_file(p, c, path, text, sizeof(text))) <= 0)
		return 0;
	*fd = lx_textfile_open("vtime", text, (size_t)len, flags);
	return 1;
}
