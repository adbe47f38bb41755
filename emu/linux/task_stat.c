/* task_stat.c — a task's stat line (/proc/PID/stat, /proc/PID/task/TID/
 * stat, proc(5)) as the emulated machine tells it: the processor it last
 * ran on (field 39) is its logical processor, and under --vtime its
 * times are the emulated clock's, as times(2) and getrusage(2) tell them
 * (vtime.c): user time its instructions, no system time, its reaped
 * children's, its start since the emulated boot, and page faults none.
 * So ps and psutil read the same every run.  Under --vtime the run's
 * other processes' lines tell their times and start too, and a process
 * not of the run began at that boot (ps's elapsed time is the uptime);
 * else other processes' lines are the host's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lx_proc.h"

size_t lx_task_stat(const char *host, const struct lx_stat_fields *v, char *buf, size_t n)
{
	const char *comm_end = strrchr(host, ')'), *s;
	size_t len;
	int w;

	if (!comm_end || (size_t)(comm_end - host) + 1 >= n)
		return 0;
	len = (size_t)(comm_end - host) + 1;
	memcpy(buf, host, len);
	s = comm_end + 1;
	/* fields 3 on, each after one space (fs/proc/array.c, do_task_stat) */
	for (int k = 3; *s == ' '; k++) {
		size_t fl = strcspn(s + 1, " \n");
		const char *f = s + 1;
		unsigned long long val = 0;
		int mine = 0;

		if (k == 39 && v->processor >= 0)
			val = (unsigned long long)v->processor, mine = 1;
		else if (v->times && k >= 10 && k <= 17) /* faults; user and system times */
			val = k == 14 ? v->utime : k == 16 ? v->cutime : 0, mine = 1;
		else if (v->has_start && k == 22)
			val = v->start, mine = 1;
		if (mine)
			w = snprintf(buf + len, n - len, " %llu", val);
		else
			w = snprintf(buf + len, n - len, " %.*s", (int)fl, f);
		if (w < 0 || (size_t)w >= n - len)
			return 0;
		len += (size_t)w;
		s = f + fl;
	}
	w = snprintf(buf + len, n - len, "%s", s);
	return w >= 0 && (size_t)w < n - len ? len + (size_t)w : 0;
}

/* Under --vtime, the line of process pid, one of the run's (its slots'
 * times) or not (it began at the emulated boot: the rest is the host's). */
static void other_process(const struct lx_proc *p, long pid, struct lx_stat_fields *v)
{
	int64_t ran, children, start = 0;

	v->processor = -1;
	v->has_start = 1;
	if ((v->times = lx_vtime_of_pid(p, (int)pid, &ran, &children, &start))) {
		v->utime = (unsigned long long)(ran / LX_TICK_NS);
		v->cutime = (unsigned long long)(children / LX_TICK_NS);
	}
	v->start = (unsigned long long)(start / LX_TICK_NS);
}

int lx_task_stat_open(const struct lx_proc *p, const struct x86_cpu *c, int dirfd, const char *path,
		      long flags, long *fd)
{
	char full[LX_CPUS_PATH], *host, buf[4096];
	const struct lx_thread *t;
	struct lx_stat_fields v = { 0 };
	long pid, tid;
	size_t hlen, len;

	if ((flags & O_ACCMODE) != O_RDONLY || (flags & (O_DIRECTORY | O_CREAT)) ||
	    lx_cpus_path(dirfd, path, full) || !lx_task_path(full, "stat", &pid, &tid))
		return 0;
	if ((t = lx_task(p, c, pid, tid))) {
		v.processor = t->lp;
		if ((v.times = v.has_start = p->cfg->vtime)) {
			/* the process's line: all its threads' time; a task's its own */
			v.utime =
				(unsigned long long)((tid < 0 ? lx_vtime_cpu(p, c) :
								lx_vtime_thread_cpu(p, c, t->tid)) /
						     LX_TICK_NS);
			v.cutime = (unsigned long long)(lx_vtime_children(p) / LX_TICK_NS);
			v.start = (unsigned long long)(t->vt_start / LX_TICK_NS);
		}
	} else if (p->cfg->vtime && pid && pid != p->pid) {
		other_process(p, pid, &v);
	} else {
		return 0;
	}
	if (!(host = lx_host_text(full, &hlen)))
		return 0;
	len = lx_task_stat(host, &v, buf, sizeof(buf));
	free(host);
	if (!len)
		return 0;
	*fd = lx_textfile_open("stat", buf, len, flags);
	return 1;
}
