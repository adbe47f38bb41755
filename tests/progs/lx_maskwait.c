/* Guest program: waits that swap in a signal mask of their own
 * (pselect, ppoll, epoll_pwait), as GNU make waits for its jobs.  With
 * SIGCHLD blocked, a child exits; the wait's empty mask lets the signal
 * through, so the wait ends with EINTR after the handler ran, and the
 * thread's own mask (SIGCHLD blocked) is back afterwards.  Then the same
 * once more while a second thread sleeps. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t handled, masked_in_handler;

static void on_chld(int sig)
{
	sigset_t now;

	(void)sig;
	handled++;
	/* the wait's mask plus the signal itself, as the kernel runs it */
	sigprocmask(SIG_BLOCK, NULL, &now);
	masked_in_handler = sigismember(&now, SIGCHLD) && !sigismember(&now, SIGUSR1);
}

static void report(const char *what, int rc, int err)
{
	sigset_t now;

	sigprocmask(SIG_BLOCK, NULL, &now);
	printf("%s: rc %d %s, handled %d, mask in handler %s, SIGCHLD blocked after: %d\n", what,
	       rc, err == EINTR ? "EINTR" : "other", (int)handled,
	       masked_in_handler ? "ok" : "wrong", sigismember(&now, SIGCHLD));
	handled = 0;
	masked_in_handler = 0;
}

static pid_t child(void)
{
	pid_t p = fork();

	if (!p)
		_exit(0);
	return p;
}

static void *sleeper(void *arg)
{
	struct timespec d = { 0, 200000000 };

	(void)arg;
	nanosleep(&d, NULL);
	return NULL;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_chld };
	sigset_t block, empty;
	int rc, err;
	pid_t p;

	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, NULL);
	sigemptyset(&empty);

	struct timespec ts = { 5, 0 };
	p = child();
	rc = pselect(0, NULL, NULL, NULL, &ts, &empty);
	err = errno;
	waitpid(p, NULL, 0);
	report("pselect", rc, err);

	int fds[2];
	if (pipe(fds))
		return 2;
	struct pollfd pf = { fds[0], POLLIN, 0 };
	p = child();
	rc = ppoll(&pf, 1, &ts, &empty);
	err = errno;
	waitpid(p, NULL, 0);
	report("ppoll", rc, err);

	int ep = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN }, out;
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fds[0], &ev))
		return 2;
	p = child();
	rc = epoll_pwait(ep, &out, 1, 5000, &empty);
	err = errno;
	waitpid(p, NULL, 0);
	report("epoll_pwait", rc, err);

	pthread_t th;
	if (pthread_create(&th, NULL, sleeper, NULL))
		return 2;
	p = child();
	rc = pselect(0, NULL, NULL, NULL, &ts, &empty);
	err = errno;
	waitpid(p, NULL, 0);
	report("pselect beside a sleeping thread", rc, err);
	p = child();
	rc = ppoll(&pf, 1, &ts, &empty);
	err = errno;
	waitpid(p, NULL, 0);
	report("ppoll beside a sleeping thread", rc, err);
	pthread_join(th, NULL);
	return 0;
}
