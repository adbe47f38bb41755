/* Guest program: timerfd_create(2) timers, each step followed by the
 * monotonic clock.  A 1 ms periodic timer read three times (a blocking
 * read ends at the expiry); expiries that pile up while the program works
 * come in one read; a non-blocking timer not yet expired (EAGAIN);
 * epoll_wait woken by a 2 ms one-shot timer; timerfd_gettime; an
 * absolute time on CLOCK_REALTIME; setting a timer anew drops expiries
 * not read; disarming; errors (a bad clock, flags, a descriptor that is
 * no timerfd, a closed one); duplicates (dup, F_DUPFD, dup2) that keep
 * the timer after the first descriptor closes.  With -t it also prints the times, which
 * under --vtime are on the emulated clock, so two runs print the same. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

static int timed;

static long long now_ns(clockid_t clk)
{
	struct timespec t;

	syscall(SYS_clock_gettime, clk, &t);
	return t.tv_sec * 1000000000ll + t.tv_nsec;
}

static void arm(int fd, int flags, long long value, long long interval)
{
	struct itimerspec v = { { interval / 1000000000, interval % 1000000000 },
				{ value / 1000000000, value % 1000000000 } };

	if (timerfd_settime(fd, flags, &v, NULL))
		perror("timerfd_settime");
}

static uint64_t take(int fd)
{
	uint64_t n = 0;

	if (read(fd, &n, sizeof(n)) != sizeof(n))
		printf("read: %s\n", strerror(errno));
	return n;
}

static void work(long n)
{
	for (volatile long i = 0; i < n; i++)
		;
}

int main(int argc, char **argv)
{
	timed = argc > 1 && !strcmp(argv[1], "-t");
	setvbuf(stdout, NULL, _IONBF, 0);

	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	long long t0 = now_ns(CLOCK_MONOTONIC);
	arm(fd, 0, 1000000, 1000000);
	for (int k = 0; k < 3; k++) {
		uint64_t n = take(fd);
		printf("read %d: %s\n", k, n >= 1 ? "expired" : "nothing");
		if (timed)
			printf("read %d: %lld ns after arming, %llu expiries\n", k,
			       now_ns(CLOCK_MONOTONIC) - t0, (unsigned long long)n);
	}
	/* expiries pile up while the program works */
	t0 = now_ns(CLOCK_MONOTONIC);
	work(3000000);
	long long spent = now_ns(CLOCK_MONOTONIC) - t0;
	uint64_t n = take(fd);
	printf("after work: %s\n", n >= 2 ? "several expiries in one read" : "one expiry");
	if (timed)
		printf("after work: %llu expiries in %lld ns\n", (unsigned long long)n, spent);

	struct itimerspec cur;
	timerfd_gettime(fd, &cur);
	printf("interval: %ld ns, value %s\n", cur.it_interval.tv_nsec,
	       cur.it_value.tv_sec == 0 && cur.it_value.tv_nsec > 0 &&
			       cur.it_value.tv_nsec <= 1000000 ?
		       "within it" :
		       "out of range");
	/* setting it anew drops what was not read */
	work(1000000);
	arm(fd, 0, 5000000000ll, 0);
	uint64_t left = 0;
	int fl = 0;
	struct epoll_event ev = { .events = EPOLLIN };
	int nb = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	arm(nb, 0, 100000000, 0);
	printf("non-blocking before expiry: %s\n",
	       read(nb, &left, sizeof(left)) < 0 && errno == EAGAIN ? "EAGAIN" : "data");
	(void)fl;

	/* epoll_wait woken by a 2 ms one-shot timer */
	int ep = epoll_create1(EPOLL_CLOEXEC), once = timerfd_create(CLOCK_BOOTTIME, 0);
	ev.data.fd = once;
	epoll_ctl(ep, EPOLL_CTL_ADD, once, &ev);
	ev.data.fd = fd;
	epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	t0 = now_ns(CLOCK_MONOTONIC);
	arm(once, 0, 2000000, 0);
	struct epoll_event got[2];
	int k = epoll_wait(ep, got, 2, -1);
	printf("epoll_wait: %d ready, the %s timer\n", k,
	       k == 1 && got[0].data.fd == once ? "one-shot" : "wrong");
	if (timed)
		printf("epoll_wait: %lld ns after arming\n", now_ns(CLOCK_MONOTONIC) - t0);
	printf("one-shot: %llu expiry, then %s\n", (unsigned long long)take(once),
	       (timerfd_gettime(once, &cur), cur.it_value.tv_sec | cur.it_value.tv_nsec) ?
		       "armed" :
		       "disarmed");

	/* an absolute time on the wall clock, 3 ms ahead */
	int wall = timerfd_create(CLOCK_REALTIME, 0);
	long long w0 = now_ns(CLOCK_REALTIME);
	arm(wall, TFD_TIMER_ABSTIME, w0 + 3000000, 0);
	printf("absolute: %llu expiry\n", (unsigned long long)take(wall));
	if (timed)
		printf("absolute: %lld ns after\n", now_ns(CLOCK_REALTIME) - w0);

	/* disarmed, the long one reads nothing */
	arm(fd, 0, 0, 0);
	timerfd_gettime(fd, &cur);
	printf("disarmed: %ld.%09ld\n", (long)cur.it_value.tv_sec, cur.it_value.tv_nsec);

	/* errors */
	printf("bad clock: %s\n",
	       timerfd_create(CLOCK_PROCESS_CPUTIME_ID, 0) < 0 ? strerror(errno) : "made");
	printf("bad flags: %s\n",
	       timerfd_create(CLOCK_MONOTONIC, 0x4) < 0 ? strerror(errno) : "made");
	printf("not a timerfd: %s\n", timerfd_gettime(ep, &cur) < 0 ? strerror(errno) : "read");
	close(once);
	printf("closed: %s\n", timerfd_gettime(once, &cur) < 0 ? strerror(errno) : "read");
	/* a closed timer's slot is free again */
	int again = timerfd_create(CLOCK_MONOTONIC, 0);
	arm(again, 0, 1000000, 0);
	printf("again: %llu expiry\n", (unsigned long long)take(again));

	/* duplicates keep the timer when the first descriptor closes, and
	 * set and read it; the last one's close ends it */
	int d1 = dup(again), d2 = fcntl(again, F_DUPFD_CLOEXEC, 40), d3 = dup2(again, 50);
	close(again);
	arm(d1, 0, 1000000, 0);
	printf("dup: %llu expiry\n", (unsigned long long)take(d1));
	close(d1);
	arm(d2, 0, 1000000, 0);
	printf("F_DUPFD: %llu expiry, ", (unsigned long long)take(d2));
	close(d2);
	arm(d3, 0, 1000000, 0);
	printf("dup2: %llu expiry\n", (unsigned long long)take(d3));
	close(d3);
	printf("all closed: %s\n", timerfd_gettime(d3, &cur) < 0 ? strerror(errno) : "read");
	return 0;
}
