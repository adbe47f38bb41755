/* Guest program: interval timers, each followed by the monotonic clock.
 * A 1 ms ITIMER_REAL ticking while the program works some 30 million
 * instructions; a one-shot ITIMER_VIRTUAL of 5 ms of CPU time; a 50 ms
 * ITIMER_REAL that ends a pause() and one that interrupts a read() of an
 * empty pipe (no SA_RESTART); alarm() and getitimer() telling the time
 * left; a POSIX timer on CLOCK_MONOTONIC every 2 ms taken with
 * sigwaitinfo(), one on CLOCK_PROCESS_CPUTIME_ID, and the overruns of a
 * 1 ms timer whose signal is blocked while the program works; a
 * thread's CPU clock beside its process's; last, timers on threads' CPU
 * clocks.  Under
 * --vtime every timer is on the emulated clock, so two runs print the
 * same. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static volatile int ticks, fired;
static long long first_tick[3];

static long long mono_ns(void)
{
	struct timespec t;

	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ll + t.tv_nsec;
}

static void on_tick(int sig)
{
	(void)sig;
	if (ticks < 3)
		first_tick[ticks] = mono_ns();
	ticks++;
}

static void on_fire(int sig)
{
	(void)sig;
	fired++;
}

static volatile unsigned long sink;

static void work(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 7;
}

static long long clock_ns(clockid_t clk)
{
	struct timespec t;

	clock_gettime(clk, &t);
	return t.tv_sec * 1000000000ll + t.tv_nsec;
}

/* Work, then tell the thread's CPU time. */
static void *spin(void *arg)
{
	work(2000000);
	*(long long *)arg = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	return NULL;
}

static void handle(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigaction(sig, &sa, NULL);
}

/* Work until the thread's CPU clock has moved ns. */
static void work_for(long long ns)
{
	long long t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);

	while (clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0 < ns)
		work(1000);
}

/* Wait for a byte on the pipe *arg, then work 6 ms. */
static void *gated_spin(void *arg)
{
	char b;

	if (read(*(int *)arg, &b, 1) != 1)
		return NULL;
	work_for(6000000);
	return NULL;
}

/* Timers on a thread's CPU clock run only while that thread runs: one on
 * a worker's clock while the main thread works, then while the worker
 * does; one on the main thread's own clock while it waits for a worker. */
static int thread_clock_timers(void)
{
	struct sigevent ev = { .sigev_notify = SIGEV_NONE };
	struct itimerspec its = { { 0, 0 }, { 0, 5000000 } };
	int pp[2];
	clockid_t wclk;
	timer_t id;
	pthread_t th;
	long long t0;

	if (pipe(pp) || pthread_create(&th, NULL, gated_spin, &pp[0]) ||
	    pthread_getcpuclockid(th, &wclk))
		return 4;
	if (timer_create(wclk, &ev, &id)) {
		/* vpmu without --vtime: the host has no clock of a guest thread */
		printf("timer on the worker's clock: %s\n", strerror(errno));
		return 0;
	}
	timer_settime(id, 0, &its, NULL);
	work_for(6000000);
	timer_gettime(id, &its);
	printf("5 ms timer on the worker's clock after the main thread's work: %s\n",
	       its.it_value.tv_nsec > 4000000 ? "still ahead" : "gone by");
	if (write(pp[1], "x", 1) != 1)
		return 4;
	pthread_join(th, NULL);
	timer_gettime(id, &its);
	printf("after the worker's work: %s\n",
	       its.it_value.tv_sec || its.it_value.tv_nsec ? "still ahead" : "expired");
	timer_delete(id);

	handle(SIGUSR1, on_fire, 0);
	fired = 0;
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGUSR1;
	if (timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &id) ||
	    pthread_create(&th, NULL, gated_spin, &pp[0]))
		return 4;
	its = (struct itimerspec){ { 0, 0 }, { 0, 2000000 } };
	t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	timer_settime(id, 0, &its, NULL);
	if (write(pp[1], "x", 1) != 1)
		return 4;
	pthread_join(th, NULL);
	printf("2 ms timer on the main thread's clock, fired while it waited: %s\n",
	       fired ? "yes" : "no");
	while (!fired)
		work(1000);
	printf("then after %lld ns of its own work\n", clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0);
	timer_delete(id);
	return 0;
}

static void arm(int which, long value_us, long interval_us)
{
	struct itimerval v = { { interval_us / 1000000, interval_us % 1000000 },
			       { value_us / 1000000, value_us % 1000000 } };

	setitimer(which, &v, NULL);
}

int main(void)
{
	long long t0, t1;

	/* a periodic ITIMER_REAL while working */
	handle(SIGALRM, on_tick, SA_RESTART);
	t0 = mono_ns();
	arm(ITIMER_REAL, 1000, 1000);
	work(6000000);
	arm(ITIMER_REAL, 0, 0);
	t1 = mono_ns();
	printf("1 ms ticks while working: %d in %lld ns\n", ticks, t1 - t0);
	for (int k = 0; k < 3 && k < ticks; k++)
		printf("tick %d: %lld ns after arming\n", k, first_tick[k] - t0);

	/* ITIMER_VIRTUAL: CPU time */
	handle(SIGVTALRM, on_fire, 0);
	t0 = mono_ns();
	arm(ITIMER_VIRTUAL, 5000, 0);
	while (!fired)
		work(1000);
	printf("5 ms virtual timer: after %lld ns\n", mono_ns() - t0);

	/* pause() ended by a 50 ms ITIMER_REAL */
	handle(SIGALRM, on_fire, 0);
	fired = 0;
	t0 = mono_ns();
	arm(ITIMER_REAL, 50000, 0);
	int r = pause();
	printf("pause: %d %s, fired %d, %lld ns later\n", r, strerror(errno), fired,
	       (mono_ns() - t0) / 1000000 * 1000000);

	/* a read of an empty pipe interrupted by one */
	int fd[2];
	char c;
	if (pipe(fd))
		return 1;
	fired = 0;
	t0 = mono_ns();
	arm(ITIMER_REAL, 30000, 0);
	long n = read(fd[0], &c, 1);
	printf("read: %ld %s, fired %d, %lld ms later\n", n, strerror(errno), fired,
	       (mono_ns() - t0) / 1000000);

	/* alarm and getitimer tell the time left */
	struct itimerval left;
	unsigned prev;
	alarm(100);
	work(100000);
	prev = alarm(0);
	arm(ITIMER_REAL, 2500000, 0);
	getitimer(ITIMER_REAL, &left);
	printf("alarm left: %u s; getitimer: %ld s, value set 2.5 s\n", prev,
	       (long)left.it_value.tv_sec);
	arm(ITIMER_REAL, 0, 0);

	/* a POSIX timer every 2 ms, its signal taken by sigwaitinfo */
	sigset_t set;
	siginfo_t si;
	struct sigevent ev;
	timer_t id;
	struct itimerspec its = { { 0, 2000000 }, { 0, 2000000 } };
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &set, NULL);
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGRTMIN;
	ev.sigev_value.sival_int = 42;
	if (timer_create(CLOCK_MONOTONIC, &ev, &id))
		return 2;
	t0 = mono_ns();
	timer_settime(id, 0, &its, NULL);
	for (int k = 0; k < 3; k++) {
		int sig = sigwaitinfo(&set, &si);
		printf("sigwaitinfo %d: %s value %d code SI_TIMER %d, %lld ms\n", k,
		       sig == SIGRTMIN ? "SIGRTMIN" : "other", si.si_value.sival_int,
		       si.si_code == SI_TIMER, (mono_ns() - t0) / 1000000);
	}

	/* its overruns while the signal stays blocked through 10 ms of work */
	its = (struct itimerspec){ { 0, 1000000 }, { 0, 1000000 } };
	timer_settime(id, 0, &its, NULL);
	work(2000000);
	sigwaitinfo(&set, &si);
	printf("overruns of a 1 ms timer over 10 ms of work: %s\n",
	       si.si_overrun >= 5 && timer_getoverrun(id) == si.si_overrun ? "5 or more" :
									     "too few");
	timer_delete(id);

	/* a POSIX timer on the process's CPU clock */
	handle(SIGUSR1, on_fire, 0);
	fired = 0;
	ev.sigev_signo = SIGUSR1;
	if (timer_create(CLOCK_PROCESS_CPUTIME_ID, &ev, &id))
		return 3;
	its = (struct itimerspec){ { 0, 0 }, { 0, 3000000 } };
	t0 = mono_ns();
	timer_settime(id, 0, &its, NULL);
	while (!fired)
		work(1000);
	printf("3 ms CPU-time timer: after %lld ns\n", mono_ns() - t0);
	timer_gettime(id, &its);
	printf("disarmed after: %ld.%09ld\n", (long)its.it_value.tv_sec, its.it_value.tv_nsec);
	timer_delete(id);

	/* a thread's CPU clock counts its own work, the process's everyone's */
	long long worker = 0, main0 = clock_ns(CLOCK_THREAD_CPUTIME_ID),
		  proc0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	pthread_t th;
	pthread_create(&th, NULL, spin, &worker);
	work(4000000);
	pthread_join(th, NULL);
	printf("CPU clocks: worker %lld ms, main %lld ms, process %lld ms\n", worker / 1000000,
	       (clock_ns(CLOCK_THREAD_CPUTIME_ID) - main0) / 1000000,
	       (clock_ns(CLOCK_PROCESS_CPUTIME_ID) - proc0) / 1000000);
	return thread_clock_timers();
}
