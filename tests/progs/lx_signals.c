/* Guest program: signal handlers (plain and SA_SIGINFO), masks and pending
 * signals, sigsuspend, SA_RESETHAND, SA_RESTART, sigaltstack with a stack
 * overflow caught on it, raise, alarm, a fault handler that siglongjmps
 * out, the FP state saved and restored around a handler.  Output is
 * deterministic and the same natively. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t got, last_sig, last_code;
static volatile void *last_addr;
static sigjmp_buf jb;
static volatile int depth_reached;

static void plain(int sig)
{
	got++;
	last_sig = sig;
}

static void with_info(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	got++;
	last_sig = sig;
	last_code = si->si_code;
	/* the mask while running: this signal is blocked (no SA_NODEFER) */
	sigset_t cur;
	sigprocmask(SIG_BLOCK, NULL, &cur);
	printf("  in handler: sig %d code %d self-blocked %d uc-mask-has-usr2 %d\n", sig,
	       si->si_code, sigismember(&cur, sig), sigismember(&uc->uc_sigmask, SIGUSR2));
}

static void fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	last_sig = sig;
	last_addr = si->si_addr;
	last_code = si->si_code;
	siglongjmp(jb, 1);
}

static int on_alt(void)
{
	stack_t ss;

	sigaltstack(NULL, &ss);
	return (ss.ss_flags & SS_ONSTACK) != 0;
}

static void overflow_handler(int sig)
{
	last_sig = sig;
	last_code = on_alt();
	siglongjmp(jb, 2);
}

static int (*volatile recurse_ptr)(int);

/* endless: ends in SIGSEGV at the stack guard */
static int recurse(int n)
{
	volatile char buf[1024];

	buf[0] = (char)n;
	depth_reached = n;
	return recurse_ptr(n + 1) + buf[0];
}

static void fp_clobber(int sig)
{
	volatile double x = 1.0;

	(void)sig;
	for (int i = 0; i < 10; i++)
		x = x * 3.0 + 0.5;
	got = (int)x & 1;
}

int main(void)
{
	struct sigaction sa;
	sigset_t set, old;

	setvbuf(stdout, NULL, _IONBF, 0);

	/* 1. plain handler via raise */
	signal(SIGUSR1, plain);
	raise(SIGUSR1);
	printf("raise: got %d sig %d\n", got, last_sig);

	/* 2. SA_SIGINFO, kill to self, sa_mask */
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = with_info;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	sigaction(SIGUSR1, &sa, NULL);
	kill(getpid(), SIGUSR1);
	printf("kill: got %d code-is-user %d\n", got, last_code == SI_USER);

	/* 3. blocked signals stay pending until unblocked */
	got = 0;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	raise(SIGUSR1);
	sigset_t pend;
	sigpending(&pend);
	printf("blocked: got %d pending %d\n", got, sigismember(&pend, SIGUSR1));
	sigprocmask(SIG_SETMASK, &old, NULL);
	printf("unblocked: got %d\n", got);

	/* 4. sigsuspend */
	got = 0;
	sigprocmask(SIG_BLOCK, &set, &old);
	raise(SIGUSR1);
	sigset_t waitmask;
	sigemptyset(&waitmask);
	int r = sigsuspend(&waitmask);
	sigprocmask(SIG_BLOCK, NULL, &pend);
	printf("sigsuspend: ret %d errno-EINTR %d got %d mask-restored %d\n", r, errno == EINTR,
	       got, sigismember(&pend, SIGUSR1));
	sigprocmask(SIG_SETMASK, &old, NULL);

	/* 5. SA_RESETHAND: second delivery uses the default (ignored here) */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = plain;
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGCHLD, &sa, NULL);
	got = 0;
	raise(SIGCHLD);
	raise(SIGCHLD);
	sigaction(SIGCHLD, NULL, &sa);
	printf("resethand: got %d now-default %d\n", got, sa.sa_handler == SIG_DFL);

	/* 6. alarm interrupts pause */
	signal(SIGALRM, plain);
	got = 0;
	alarm(1);
	pause();
	printf("alarm: got %d sig %d\n", got, last_sig);

	/* 7. null pointer fault caught, siglongjmp out */
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fault;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	if (!sigsetjmp(jb, 1)) {
		volatile uintptr_t where = 16;
		*(volatile int *)where = 1;
		puts("not reached");
	}
	printf("segv: sig %d addr %p maperr %d\n", last_sig, (void *)last_addr,
	       last_code == SEGV_MAPERR);

	/* 8. integer division by zero */
	sigaction(SIGFPE, &sa, NULL);
	if (!sigsetjmp(jb, 1)) {
		volatile int z = 0, one = 1;
		printf("%d\n", one / z);
	}
	printf("fpe: sig %d intdiv %d\n", last_sig, last_code == FPE_INTDIV);

	/* 9. stack overflow caught on the alternate stack */
	stack_t ss = { .ss_sp = malloc(1 << 16), .ss_size = 1 << 16, .ss_flags = 0 };
	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = overflow_handler;
	sa.sa_flags = SA_ONSTACK;
	sigaction(SIGSEGV, &sa, NULL);
	int jr = sigsetjmp(jb, 1);
	recurse_ptr = recurse;
	if (!jr)
		recurse(0);
	printf("overflow: sig %d on-altstack %d deep %d back-on-altstack %d\n", last_sig, last_code,
	       depth_reached > 1000, on_alt());

	/* 10. the FP state a handler changes comes back */
	signal(SIGUSR2, fp_clobber);
	volatile double a = 1.5, b = 2.25;
	raise(SIGUSR2);
	printf("fp: %.4f\n", a * b + 0.125);

	/* 11. ignored signals vanish */
	signal(SIGUSR1, SIG_IGN);
	raise(SIGUSR1);
	puts("ignored: still here");
	return 0;
}
