/* e2e_syschain.c — system calls made at known depths, for vpmu trace
 * --call-graph: main -> sc_outer -> sc_inner -> getppid(), sc_inner
 * calling it through sc_mid, which is inlined into it, in the process
 * and then in a forked child (whose chain names the same functions from
 * the images it inherited); with "exec", the child first runs this
 * program again (a new image under its pid), which makes the calls
 * through sc_again instead.
 * vpmu-cflags: -O1 -fno-omit-frame-pointer
 */
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static inline __attribute__((always_inline)) int sc_mid(int x)
{
	int v = (int)getppid() + x;

	__asm__ volatile("" : "+r"(v));
	return v;
}

__attribute__((noinline)) int sc_inner(int x)
{
	int v = sc_mid(x);

	__asm__ volatile("" : "+r"(v)); /* work after the call: no tail call */
	return v;
}

__attribute__((noinline)) int sc_outer(int x)
{
	int v = sc_inner(x + 1);

	__asm__ volatile("" : "+r"(v));
	return v;
}

__attribute__((noinline)) int sc_again(int x)
{
	int v = sc_inner(x + 2);

	__asm__ volatile("" : "+r"(v));
	return v;
}

int main(int argc, char **argv)
{
	int status;
	pid_t pid;

	if (argc > 1 && !strcmp(argv[1], "again"))
		return sc_again(argc) == -1;
	sc_outer(argc);
	pid = fork();
	if (pid == 0) {
		if (argc > 1 && !strcmp(argv[1], "exec"))
			execl(argv[0], argv[0], "again", (char *)NULL);
		_exit(sc_outer(argc) == -1);
	}
	return pid < 0 || waitpid(pid, &status, 0) != pid || status != 0;
}
