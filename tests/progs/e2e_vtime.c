/* Guest program: every clock a program can read, before and after a loop
 * of some 30 million instructions — clock_gettime (realtime, monotonic,
 * process CPU time), gettimeofday, time, times, getrusage (self and
 * children) and sysinfo's uptime and load — as raw syscalls, then an
 * absolute clock_nanosleep 0.3 s ahead.  Under --vtime all of them tell
 * emulated time, so two runs print the same. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/times.h>
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
}

int main(void)
{
	volatile unsigned long x = 0;

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
	return x == 0;
}
