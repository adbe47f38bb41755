/* vtime_proc.c — under --vtime, the /proc files that tell the host's
 * time, load and memory tell the emulated system's, as sysinfo(2) does
 * (vtime.c): it booted when the run began and runs nothing else.
 * /proc/uptime is the emulated uptime, idle but for the process's CPU
 * time, as is /proc/stat's time of each logical processor; /proc/loadavg
 * reads zero with the one process running, /proc/meminfo keeps the
 * host's sizes with all the memory and swap free, and /proc/vmstat counts
 * nothing yet.  So libuv's os.freemem(), free(1), uptime(1), top and
 * vmstat read the same every run. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lx_proc.h"

#define VT_PROC_TEXT 16384

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
	char key[64], *host;
	size_t len = 0, hlen;

	if (!(host = lx_host_text("/proc/meminfo", &hlen)))
		return 0;
	for (const char *l = host; *l;) {
		const char *colon = strchr(l, ':'), *eol = strchr(l, '\n'), *num;
		size_t klen, pad;
		int w;

		if (!eol)
			eol = l + strlen(l);
		if (!colon || colon > eol || (size_t)(colon - l) >= sizeof(key)) {
			free(host);
			return 0;
		}
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
	free(host);
	return len < n ? len : 0;
}

/* The host's setting at path (a number), def if it cannot be read. */
static unsigned long long setting(const char *path, unsigned long long def)
{
	size_t len;
	char *text = lx_host_text(path, &len);
	unsigned long long v = text && *text ? strtoull(text, NULL, 10) : def;

	free(text);
	return v;
}

/* /proc/vmstat of a system that has just booted with all its memory free,
 * as meminfo() tells it: every page free (nr_free_pages), the dirty-page
 * thresholds the host's vm.dirty_ratio and vm.dirty_background_ratio give
 * for them (mm/page-writeback.c, domain_dirty_limits), every other count
 * and event zero. */
static size_t vmstat(char *buf, size_t n)
{
	char *host, *meminfo;
	size_t len = 0, hlen;
	unsigned long long free_pages = 0, v;
	int w;

	if (!(host = lx_host_text("/proc/vmstat", &hlen)))
		return 0;
	if ((meminfo = lx_host_text("/proc/meminfo", &hlen)))
		free_pages = field(meminfo, "MemTotal") / 4; /* (kB in 4 KB pages) */
	free(meminfo);
	for (const char *l = host; *l;) {
		const char *eol = strchr(l, '\n'), *sp = strchr(l, ' ');
		size_t ll = eol ? (size_t)(eol - l) : strlen(l);

		if (!sp || sp > l + ll) {
			len = n; /* (not "name value": leave the file to the host) */
			break;
		}
		if (!strncmp(l, "nr_free_pages ", 14))
			v = free_pages;
		else if (!strncmp(l, "nr_dirty_threshold ", 19))
			v = free_pages * setting("/proc/sys/vm/dirty_ratio", 20) / 100;
		else if (!strncmp(l, "nr_dirty_background_threshold ", 30))
			v = free_pages * setting("/proc/sys/vm/dirty_background_ratio", 10) / 100;
		else
			v = 0;
		w = snprintf(buf + len, len < n ? n - len : 0, "%.*s %llu\n", (int)(sp - l), l, v);
		len += w > 0 ? (size_t)w : 0;
		l += ll + (eol != NULL);
	}
	free(host);
	return len < n ? len : 0;
}

/* /proc/stat of a system that booted at wall-clock time boot (ns) and
 * has run only this process: its CPU time (cpu ns) as user time, the
 * rest of each logical processor's uptime (up ns) idle, shared among the
 * ncpu of them. */
static size_t stat_text(int64_t up, int64_t cpu, int64_t boot, unsigned ncpu, char *buf, size_t n)
{
	unsigned long long f[10] = { 0 };
	size_t len;
	int w;

	f[0] = (unsigned long long)(cpu / LX_TICK_NS);
	f[3] = (unsigned long long)(up / LX_TICK_NS) * ncpu - f[0];
	len = lx_cpus_stat_lines(f, 10, ncpu, buf, n);
	if (!len)
		return 0;
	w = snprintf(buf + len, n - len,
		     "intr 0\nctxt 0\nbtime %lld\nprocesses 1\nprocs_running 1\n"
		     "procs_blocked 0\nsoftirq 0 0 0 0 0 0 0 0 0 0 0\n",
		     (long long)(boot / 1000000000));
	return w > 0 && (size_t)w < n - len ? len + (size_t)w : 0;
}

long lx_vtime_proc_file(const struct lx_proc *p, const struct x86_cpu *c, const char *path,
			char *buf, size_t n)
{
	const struct x86_model *m = c->model ? c->model : &x86_model_p4_xeon;
	unsigned ncpu = m->logical ? m->logical : 1;
	int64_t up = lx_clock_ns(p, c, CLOCK_BOOTTIME), cpu = lx_vtime_cpu(p, c);
	/* (the kernel's idle time is in whole ticks, summed over processors) */
	int64_t idle = (up / LX_TICK_NS) * ncpu - cpu / LX_TICK_NS;
	int w = -1;

	if (!strcmp(path, "/proc/uptime"))
		w = snprintf(buf, n, "%lld.%02lld %lld.%02lld\n", (long long)(up / 1000000000),
			     (long long)(up / 10000000 % 100), (long long)(idle / 100),
			     (long long)(idle % 100));
	else if (!strcmp(path, "/proc/loadavg"))
		w = snprintf(buf, n, "0.00 0.00 0.00 1/1 %d\n", p->pid);
	else if (!strcmp(path, "/proc/meminfo"))
		return (long)meminfo(buf, n);
	else if (!strcmp(path, "/proc/vmstat"))
		return (long)vmstat(buf, n);
	else if (!strcmp(path, "/proc/stat"))
		return (long)stat_text(up, cpu, lx_clock_ns(p, c, CLOCK_REALTIME) - up, ncpu, buf,
				       n);
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
