/* hd_stack.c — stack overflow.  Deep recursion runs into the end of the
 * stack: the kernel's SIGSEGV.  With a handler on an alternate stack
 * (sigaltstack) the fault is caught there and the program exits 0; that
 * is the default.  `hd_stack plain` has no handler and dies of SIGSEGV.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile unsigned long depth;

static unsigned long recurse(unsigned long n)
{
	volatile char frame[1024];

	frame[0] = (char)n;
	depth = n;
	if (n == ~0ul) /* never: keeps the compiler from calling it infinite */
		return 0;
	return recurse(n + 1) + frame[0];
}

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	static const char msg[] = "caught SIGSEGV on the alternate stack\n";
	stack_t ss;

	(void)si;
	(void)uc;
	/* the handler runs on the alternate stack, as the kernel promises */
	if (sig != SIGSEGV || sigaltstack(NULL, &ss) != 0 || !(ss.ss_flags & SS_ONSTACK))
		_exit(3);
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(4);
	_exit(depth > 1000 ? 0 : 5);
}

int main(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "plain") != 0) {
		static char alt[64 * 1024];
		stack_t ss = { .ss_sp = alt, .ss_size = sizeof(alt) };
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_segv;
		sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
		if (sigaltstack(&ss, NULL) || sigaction(SIGSEGV, &sa, NULL))
			return 2;
	}
	printf("recursing\n");
	fflush(stdout);
	return (int)recurse(0);
}
