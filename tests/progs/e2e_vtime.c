/* Guest program: every clock a program can read, before and after a loop
 * of some 30 million instructions — clock_gettime (realtime, monotonic,
 * process CPU time), gettimeofday, time, times, getrusage (self and
 * children) and sysinfo's uptime and load — as raw syscalls; then timed
 * waits, each followed by the monotonic clock: an absolute clock_nanosleep
 * 0.3 s ahead, a relative nanosleep of 0.1 s, poll and select timeouts of
 * 20 and 10 ms, a thread's 1 ms condition-variable timeouts while the main
 * thread works, a 50 ms sleep of a thread the main thread joins, and a
 * 20 ms sleep of the main thread while another times out and ends.
 * Last, the monotonic clock before a fork and in the child, the child's
 * rusage from wait4, and before the
 * program executes itself again through /proc/self/exe and after (and
 * whether its CPU time went on).  Under
 * --vtime all of them tell emulated time, the waits end at the same points
 * of the run, and the clock goes on across fork and execve, so two runs
 * print the same. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <string.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void clocks(const char *when)
{
	struct timespec rt, mono, cpu;
	struct timeval tv;
	struct tms tm;
	struct rusage self, kids;
	struct sysinfo si;

	syscall(SYS_clock_gettime, CLOCK_REALTIME, &rt);
	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &mono);
	syscall(SYS_clock_gettime, CLOCK_PROCESS_CPUTIME_ID, &cpu);
	syscall(SYS_gettimeofday, &tv, NULL);
	long t = syscall(SYS_time, NULL);
	long ticks = syscall(SYS_times, &tm);
	syscall(SYS_getrusage, RUSAGE_SELF, &self);
	syscall(SYS_getrusage, RUSAGE_CHILDREN, &kids);
	syscall(SYS_sysinfo, &si);
	printf("%s: realtime %lld.%09ld monotonic %lld.%09ld cpu %lld.%09ld\n", when,
	       (long long)rt.tv_sec, rt.tv_nsec, (long long)mono.tv_sec, mono.tv_nsec,
	       (long long)cpu.tv_sec, cpu.tv_nsec);
	printf("%s: gettimeofday %lld.%06ld time %ld\n", when, (long long)tv.tv_sec,
	       (long)tv.tv_usec, t);
	printf("%s: times %ld utime %ld stime %ld\n", when, ticks, (long)tm.tms_utime,
	       (long)tm.tms_stime);
	printf("%s: rusage utime %ld.%06ld stime %ld.%06ld maxrss %ld children %ld.%06ld\n", when,
	       (long)self.ru_utime.tv_sec, (long)self.ru_utime.tv_usec, (long)self.ru_stime.tv_sec,
	       (long)self.ru_stime.tv_usec, self.ru_maxrss, (long)kids.ru_utime.tv_sec,
	       (long)kids.ru_utime.tv_usec);
	printf("%s: uptime %ld load %lu\n", when, si.uptime, si.loads[0]);
	printf("%s: memory %s, %u procs\n", when,
	       si.freeram == si.totalram && si.freeswap == si.totalswap && !si.sharedram &&
			       !si.bufferram ?
		       "all free" :
		       "in use",
	       (unsigned)si.procs);
}

static long long mono_ns(void)
{
	struct timespec t;

	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ll + t.tv_nsec;
}

static long long cpu_ns(void)
{
	struct timespec t;

	syscall(SYS_clock_gettime, CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec * 1000000000ll + t.tv_nsec;
}

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int done;

/* Wait on cv 1 ms at a time (its clock: CLOCK_REALTIME) until done. */
static void *ticker(void *arg)
{
	long *timeouts = arg;
	struct timespec d;

	pthread_mutex_lock(&mu);
	while (!done) {
		syscall(SYS_clock_gettime, CLOCK_REALTIME, &d);
		d.tv_nsec += 1000000;
		if (d.tv_nsec >= 1000000000) {
			d.tv_sec++;
			d.tv_nsec -= 1000000000;
		}
		if (pthread_cond_timedwait(&cv, &mu, &d))
			++*timeouts;
	}
	pthread_mutex_unlock(&mu);
	return NULL;
}

static void *sleeper(void *arg)
{
	struct timespec d = { 0, 50000000 };

	(void)arg;
	return (void *)syscall(SYS_nanosleep, &d, NULL);
}

/* Wait 1 ms for a condition nobody signals, then end. */
static void *brief(void *arg)
{
	static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	struct timespec d;

	(void)arg;
	syscall(SYS_clock_gettime, CLOCK_REALTIME, &d);
	d.tv_nsec += 1000000;
	if (d.tv_nsec >= 1000000000) {
		d.tv_sec++;
		d.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&m);
	pthread_cond_timedwait(&c, &m, &d);
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(int argc, char **argv)
{
	volatile unsigned long x = 0;

	if (argc > 1 && !strcmp(argv[1], "again")) {
		printf("after execve: %lld\n", mono_ns());
		printf("CPU time after execve: %s\n",
		       cpu_ns() >= atoll(argv[2]) ? "goes on" : "restarted");
		return 0;
	}

	clocks("before");
	for (long i = 0; i < 6000000; i++)
		x += (unsigned long)i;
	clocks("after");
	printf("bad who: %ld\n", syscall(SYS_getrusage, 7, NULL));
	/* an absolute sleep on the program's clock lasts the time left on it */
	struct timespec until;
	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &until);
	until.tv_nsec += 300000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	printf("sleep until +0.3 s: %ld\n",
	       syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL));
	printf("after it: %lld ns past\n",
	       mono_ns() - (until.tv_sec * 1000000000ll + until.tv_nsec));
	long long t0 = mono_ns();
	struct timespec rel = { 0, 100000000 };
	printf("sleep 0.1 s: %ld\n", syscall(SYS_nanosleep, &rel, NULL));
	printf("after it: %lld ns later\n", mono_ns() - t0);
	t0 = mono_ns();
	printf("poll 20 ms: %ld\n", syscall(SYS_poll, NULL, 0, 20));
	printf("after the poll: %lld ns later\n", mono_ns() - t0);
	struct timeval tv = { 0, 10000 };
	t0 = mono_ns();
	printf("select 10 ms: %ld\n", syscall(SYS_select, 0, NULL, NULL, NULL, &tv));
	printf("after the select: %lld ns later\n", mono_ns() - t0);

	/* threads: timeouts while another thread runs, then a sleep while
	 * the only other thread waits for it */
	pthread_t t;
	long timeouts = 0;
	void *r;
	t0 = mono_ns();
	if (pthread_create(&t, NULL, ticker, &timeouts))
		return 2;
	for (long i = 0; i < 6000000; i++)
		x += (unsigned long)i;
	pthread_mutex_lock(&mu);
	done = 1;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&mu);
	pthread_join(t, NULL);
	printf("1 ms timeouts while working: %ld in %lld ns\n", timeouts, mono_ns() - t0);
	t0 = mono_ns();
	if (pthread_create(&t, NULL, sleeper, NULL))
		return 2;
	pthread_join(t, &r);
	printf("joined a 50 ms sleep: %ld after %lld ns\n", (long)r, mono_ns() - t0);
	/* a thread that timed out and ended while the main thread sleeps */
	struct timespec twenty = { 0, 20000000 };
	t0 = mono_ns();
	if (pthread_create(&t, NULL, brief, NULL))
		return 3;
	syscall(SYS_nanosleep, &twenty, NULL);
	pthread_join(t, NULL);
	printf("slept 20 ms while a thread timed out and ended: %lld ms\n",
	       (mono_ns() - t0) / 1000000);

	printf("before fork: %lld\n", mono_ns());
	fflush(stdout);
	pid_t pid = fork();
	if (!pid) {
		printf("child: %lld\n", mono_ns());
		return 0;
	}
	struct rusage ru;
	int st;
	syscall(SYS_wait4, pid, &st, 0, &ru);
	printf("the child's rusage: utime %ld.%06ld stime %ld.%06ld maxrss %ld\n",
	       (long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec, (long)ru.ru_stime.tv_sec,
	       (long)ru.ru_stime.tv_usec, ru.ru_maxrss);
	printf("before execve: %lld\n", mono_ns());
	fflush(stdout);
	char cpu[32];
	snprintf(cpu, sizeof(cpu), "%lld", cpu_ns());
	execl("/proc/self/exe", argv[0], "again", cpu, (char *)NULL);
	return x == 0;
}
