/* trace_summary.c — `vpmu trace -s`: each thread's system calls summed,
 * in perf trace's table. */
#define _GNU_SOURCE /* qsort_r */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/systab.h"
#include "trace.h"

#define SUM_ERRNOS 8 /* distinct errors kept per call (the rest only counted) */

struct call_sum {
	uint64_t calls, errors;
	int64_t total, min, max;
	double mean, m2; /* Welford's running mean and sum of squared deviations */
	struct {
		uint16_t err; /* errno, ascending */
		uint32_t n;
	} errs[SUM_ERRNOS];
	unsigned nerrs;
};

struct thread_sum {
	uint32_t tid;
	char comm[16];
	uint64_t calls;
	struct call_sum *nr; /* SYSTAB_MAX of them */
};

struct trace_summary {
	struct thread_sum *th;
	size_t n, cap;
	uint64_t calls;
	struct call_sum *all; /* SYSTAB_MAX: every thread's together */
};

struct trace_summary *trace_summary_new(void)
{
	return calloc(1, sizeof(struct trace_summary));
}

void trace_summary_free(struct trace_summary *s)
{
	for (size_t k = 0; s && k < s->n; k++)
		free(s->th[k].nr);
	if (s) {
		free(s->th);
		free(s->all);
	}
	free(s);
}

static struct thread_sum *thread_of(struct trace_summary *s, const char *comm, uint32_t tid)
{
	for (size_t k = 0; k < s->n; k++)
		if (s->th[k].tid == tid && !strcmp(s->th[k].comm, comm))
			return &s->th[k];
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 8;
		struct thread_sum *th = realloc(s->th, cap * sizeof(*th));
		if (!th)
			return NULL;
		s->th = th;
		s->cap = cap;
	}
	struct thread_sum *t = &s->th[s->n];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->nr = calloc(SYSTAB_MAX, sizeof(*t->nr));
	if (!t->nr)
		return NULL;
	s->n++;
	return t;
}

static void count_errno(struct call_sum *c, unsigned err)
{
	unsigned k = 0;

	while (k < c->nerrs && c->errs[k].err < err)
		k++;
	if (k < c->nerrs && c->errs[k].err == err) {
		c->errs[k].n++;
		return;
	}
	if (c->nerrs == SUM_ERRNOS)
		return;
	memmove(&c->errs[k + 1], &c->errs[k], (c->nerrs - k) * sizeof(c->errs[0]));
	c->errs[k].err = (uint16_t)err;
	c->errs[k].n = 1;
	c->nerrs++;
}

/* One call that returned ret after dur ns into c. */
static void add_call(struct call_sum *c, int64_t ret, int64_t dur)
{
	c->calls++;
	if (ret < 0 && ret >= -4095) {
		c->errors++;
		count_errno(c, (unsigned)-ret);
	}
	c->total += dur;
	c->min = c->calls == 1 || dur < c->min ? dur : c->min;
	c->max = dur > c->max ? dur : c->max;
	double d = (double)dur - c->mean;
	c->mean += d / (double)c->calls;
	c->m2 += d * ((double)dur - c->mean);
}

int trace_summary_add(struct trace_summary *s, const char *comm, uint32_t tid, long nr, int64_t ret,
		      int64_t dur)
{
	struct thread_sum *t;

	if (nr < 0 || nr >= SYSTAB_MAX)
		return 0;
	t = thread_of(s, comm, tid);
	if (!t || (!s->all && !(s->all = calloc(SYSTAB_MAX, sizeof(*s->all)))))
		return -1;
	add_call(&t->nr[nr], ret, dur);
	add_call(&s->all[nr], ret, dur);
	t->calls++;
	s->calls++;
	return 0;
}

/* The standard deviation of the mean, in percent of it (perf's stddev
 * column). */
static double rel_stddev(const struct call_sum *c)
{
	if (c->calls < 2 || c->mean <= 0)
		return 0;
	return 100.0 * sqrt(c->m2 / (double)(c->calls - 1) / (double)c->calls) / c->mean;
}

static int by_total(const void *a, const void *b, void *arg)
{
	const struct call_sum *sum = arg;
	const struct call_sum *x = &sum[*(const int *)a], *y = &sum[*(const int *)b];

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return *(const int *)a - *(const int *)b;
}

/* perf trace's table of the calls in nr[] (SYSTAB_MAX), the largest
 * total time first, with errnos each call's errors by name. */
static void print_table(FILE *f, const struct call_sum *nr, int errnos)
{
	int order[SYSTAB_MAX], n = 0;
	char buf[32];

	fprintf(f, "   syscall            calls  errors      total        min        avg"
		   "        max   stddev\n"
		   "                                        (msec)     (msec)     (msec)"
		   "     (msec)      (%%)\n"
		   "   --------------- --------  ------ ---------- ---------- ----------"
		   " ---------- --------\n");
	for (int k = 0; k < SYSTAB_MAX; k++)
		if (nr[k].calls)
			order[n++] = k;
	qsort_r(order, (size_t)n, sizeof(order[0]), by_total, (void *)nr);
	for (int i = 0; i < n; i++) {
		const struct call_sum *c = &nr[order[i]];
		fprintf(f, "   %-15s %8llu  %6llu %10.6f %10.6f %10.6f %10.6f %7.2f%%\n",
			systab_name(order[i], buf, sizeof(buf)), (unsigned long long)c->calls,
			(unsigned long long)c->errors, (double)c->total / 1e6, (double)c->min / 1e6,
			c->mean / 1e6, (double)c->max / 1e6, rel_stddev(c));
		for (unsigned e = 0; errnos && e < c->nerrs; e++) {
			const char *name = strerrorname_np(c->errs[e].err);
			if (name)
				fprintf(f, "\t\t\t%s: %u\n", name, c->errs[e].n);
			else
				fprintf(f, "\t\t\terrno %u: %u\n", c->errs[e].err, c->errs[e].n);
		}
	}
}

void trace_summary_print(const struct trace_summary *s, FILE *f, int errnos, int total)
{
	fprintf(f, "\n Summary of events:\n");
	if (total) {
		fprintf(f, "\n total, %llu syscalls\n\n", (unsigned long long)s->calls);
		if (s->all)
			print_table(f, s->all, errnos);
		return;
	}
	for (size_t k = 0; k < s->n; k++) {
		const struct thread_sum *t = &s->th[k];

		fprintf(f, "\n %s (%u), %llu syscalls, %.1f%%\n\n", t->comm, t->tid,
			(unsigned long long)t->calls, 100.0 * (double)t->calls / (double)s->calls);
		print_table(f, t->nr, errnos);
	}
}
