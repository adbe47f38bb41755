/* cpus_proc.c — the emulated package's processors in the /proc files
 * that list the host's: /proc/stat has a line per logical processor of
 * the package (the host's time shared out among them), and a task's
 * status tells its sched_setaffinity(2) set (Cpus_allowed, _list), as
 * sched_getaffinity(2) does.  So top, vmstat, psutil and libraries that
 * count the processors from those files see the package's (cpus.c). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lx_proc.h"

/* Append text to buf (n bytes) at *len; past n only *len grows. */
static __attribute__((format(printf, 4, 5))) void out(char *buf, size_t n, size_t *len,
						      const char *fmt, ...)
{
	va_list ap;
	int w;

	va_start(ap, fmt);
	w = vsnprintf(buf + *len, *len < n ? n - *len : 0, fmt, ap);
	va_end(ap);
	*len += w > 0 ? (size_t)w : 0;
}

/* Share k of v split among ncpu as evenly as whole ticks go: the shares
 * add up to v. */
static unsigned long long share(unsigned long long v, unsigned k, unsigned ncpu)
{
	return v / ncpu + (k < v % ncpu);
}

size_t lx_cpus_stat_lines(const unsigned long long *f, unsigned nf, unsigned ncpu, char *buf,
			  size_t n)
{
	size_t len = 0;

	out(buf, n, &len, "cpu ");
	for (unsigned j = 0; j < nf; j++)
		out(buf, n, &len, " %llu", f[j]);
	for (unsigned k = 0; k < ncpu; k++) {
		out(buf, n, &len, "\ncpu%u", k);
		for (unsigned j = 0; j < nf; j++)
			out(buf, n, &len, " %llu", share(f[j], k, ncpu));
	}
	out(buf, n, &len, "\n");
	return len < n ? len : 0;
}

/* The fields of a "cpu" line (after its name) into f[LX_STAT_FIELDS]:
 * how many. */
static unsigned stat_fields(const char *s, unsigned long long *f)
{
	unsigned nf = 0;
	char *end;

	while (nf < LX_STAT_FIELDS) {
		f[nf] = strtoull(s, &end, 10);
		if (end == s || (*end && *end != ' ' && *end != '\n'))
			break;
		nf++;
		s = end;
	}
	return nf;
}

size_t lx_cpus_proc_stat(const char *host, unsigned ncpu, char *buf, size_t n)
{
	unsigned long long f[LX_STAT_FIELDS];
	size_t len = 0, w;
	int done = 0;

	for (const char *l = host; *l;) {
		const char *eol = strchr(l, '\n');
		size_t ll = eol ? (size_t)(eol - l) : strlen(l);

		if (!strncmp(l, "cpu ", 4) && !done) {
			/* the aggregate, then the package's processors */
			w = lx_cpus_stat_lines(f, stat_fields(l + 4, f), ncpu, buf + len,
					       len < n ? n - len : 0);
			if (!w)
				return 0;
			len += w;
			done = 1;
		} else if (strncmp(l, "cpu", 3) || l[3] < '0' || l[3] > '9') {
			out(buf, n, &len, "%.*s\n", (int)ll, l);
		}
		l += ll + (eol != NULL);
	}
	return done && len < n ? len : 0;
}

/* Bits as Linux lists a CPU set ("0-1,3"). */
static void cpu_list(char *buf, size_t n, size_t *len, uint64_t bits)
{
	const char *sep = "";

	for (unsigned k = 0; k < 64; k++) {
		unsigned last = k;
		if (!(bits >> k & 1))
			continue;
		while (last < 63 && bits >> (last + 1) & 1)
			last++;
		if (last > k)
			out(buf, n, len, "%s%u-%u", sep, k, last);
		else
			out(buf, n, len, "%s%u", sep, k);
		sep = ",";
		k = last;
	}
}

size_t lx_cpus_proc_status(const char *host, uint64_t bits, unsigned ncpu, char *buf, size_t n)
{
	size_t len = 0;

	for (const char *l = host; *l;) {
		const char *eol = strchr(l, '\n');
		size_t ll = eol ? (size_t)(eol - l) : strlen(l);

		/* (Linux's "%*pb" and "%*pbl" of nr_cpu_ids bits:
		 * fs/proc/array.c, task_cpus_allowed) */
		if (!strncmp(l, "Cpus_allowed:", 13)) {
			out(buf, n, &len, "Cpus_allowed:\t%0*llx\n", (int)(ncpu + 3) / 4,
			    (unsigned long long)bits);
		} else if (!strncmp(l, "Cpus_allowed_list:", 18)) {
			out(buf, n, &len, "Cpus_allowed_list:\t");
			cpu_list(buf, n, &len, bits);
			out(buf, n, &len, "\n");
		} else {
			out(buf, n, &len, "%.*s\n", (int)ll, l);
		}
		l += ll + (eol != NULL);
	}
	return len < n ? len : 0;
}

int lx_task_path(const char *path, const char *file, long *pid, long *tid)
{
	const char *s = path + 6;
	size_t n = strlen(file);

	*pid = 0;
	*tid = -1;
	if (strncmp(path, "/proc/", 6))
		return 0;
	if (!strncmp(s, "thread-self/", 12) && !strcmp(s + 12, file))
		return !(*tid = 0);
	if (!strncmp(s, "self/", 5))
		s += 5;
	else if ((*pid = lx_cpus_number(&s)) <= 0 || *s++ != '/')
		return 0;
	if (!strcmp(s, file))
		return 1;
	if (strncmp(s, "task/", 5))
		return 0;
	s += 5;
	return (*tid = lx_cpus_number(&s)) > 0 && *s == '/' && !strncmp(s + 1, file, n) &&
	       !s[1 + n];
}

const struct lx_thread *lx_task_of(const struct lx_proc *p, long tid)
{
	for (int k = 0; k < p->nth; k++)
		if (p->th[k]->tid == tid && p->th[k]->state != LX_T_DEAD)
			return p->th[k];
	return NULL;
}

const struct lx_thread *lx_task(const struct lx_proc *p, const struct x86_cpu *c, long pid,
				long tid)
{
	if (pid && pid != p->pid)
		return NULL;
	return tid ? lx_task_of(p, tid < 0 ? p->pid : tid) : c->os;
}

/* The processors task tid (lx_task_path()) of process pid may run on: its
 * sched_setaffinity(2) set, that of the run's process pid, else all (as
 * sched_getaffinity(2) tells: cpus.c). */
static uint64_t allowed(const struct lx_proc *p, const struct x86_cpu *c, long pid, long tid,
			unsigned ncpu)
{
	uint64_t all = ncpu >= 64 ? ~0ull : (1ull << ncpu) - 1;
	const struct lx_thread *t = lx_task(p, c, pid, tid);

	if (pid && pid != p->pid)
		return lx_cpus_of_pid(p, pid, all);
	return t && lx_cpus_of(p, t) ? lx_cpus_of(p, t) : all;
}

int lx_cpus_proc_open(const struct lx_proc *p, const struct x86_cpu *c, int dirfd, const char *path,
		      long flags, long *fd)
{
	const struct x86_model *m = c->model ? c->model : &x86_model_p4_xeon;
	unsigned ncpu = m->logical ? m->logical : 1;
	char full[LX_CPUS_PATH], *host, *buf;
	size_t hlen, n, len = 0;
	long pid = 0, tid = -1;
	int stat;

	if ((flags & O_ACCMODE) != O_RDONLY || (flags & (O_DIRECTORY | O_CREAT)) ||
	    lx_cpus_path(dirfd, path, full))
		return 0;
	stat = !strcmp(full, "/proc/stat");
	if (!stat && !lx_task_path(full, "status", &pid, &tid))
		return 0;
	if (!(host = lx_host_text(full, &hlen)))
		return 0;
	n = hlen + 64 * (ncpu + 2);
	if ((buf = malloc(n)))
		len = stat ? lx_cpus_proc_stat(host, ncpu, buf, n) :
			     lx_cpus_proc_status(host, allowed(p, c, pid, tid, ncpu), ncpu, buf, n);
	if (len)
		*fd = lx_textfile_open(stat ? "stat" : "status", buf, len, flags);
	free(buf);
	free(host);
	return len > 0;
}
