/* hd_randcode.c — machine code nobody wrote: each piece runs in a forked
 * child, on a page of its own with every register zeroed and a fresh
 * stack, and the parent reports how the child ended (a signal, or an exit
 * status).  Under vpmu every piece must end as a guest signal or exit,
 * never as a crash or hang of the emulator.
 *
 * Without an argument: a fixed list whose endings are known (ud2 SIGILL,
 * hlt and a store to address 0 SIGSEGV, int3 SIGTRAP, division by zero
 * SIGFPE, exit(5) through syscall), the same natively and under vpmu.
 *
 * `hd_randcode SEED N`: N pages of bytes from a generator seeded with
 * SEED (xorshift64), with the byte pairs of syscall, sysenter and int 0x80
 * broken up so random code cannot reach the host kernel.  Each child has a
 * one-second alarm: an endless loop ends as SIGALRM.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE 4096
#define STACK (64 * 1024)

/* hd_enter(code, stack_top): zero every register and the flags, switch to
 * the stack and jump to code. */
void hd_enter(const void *code, void *stack_top) __attribute__((noreturn));
__asm__(".text\n"
	".globl hd_enter\n"
	".type hd_enter, @function\n"
	"hd_enter:\n"
	"\tmov %rsi, %rsp\n"
	"\tpush %rdi\n"
	"\tpushq $0x202\n"
	"\tpopfq\n"
	"\txor %eax, %eax\n\txor %ebx, %ebx\n\txor %ecx, %ecx\n\txor %edx, %edx\n"
	"\txor %esi, %esi\n\txor %edi, %edi\n\txor %ebp, %ebp\n"
	"\txor %r8d, %r8d\n\txor %r9d, %r9d\n\txor %r10d, %r10d\n\txor %r11d, %r11d\n"
	"\txor %r12d, %r12d\n\txor %r13d, %r13d\n\txor %r14d, %r14d\n\txor %r15d, %r15d\n"
	"\tret\n"
	".size hd_enter, .-hd_enter\n");

static const struct {
	const char *name;
	uint8_t len, bytes[15];
} known[] = {
	{ "ud2", 2, { 0x0f, 0x0b } },
	{ "hlt", 1, { 0xf4 } },
	{ "int3", 1, { 0xcc } },
	{ "store to 0", 7, { 0x89, 0x04, 0x25, 0x00, 0x00, 0x00, 0x00 } },
	{ "jump to 0", 2, { 0xff, 0xe0 } },
	{ "divide by 0", 2, { 0xf7, 0xf1 } },
	{ "exit(5)", 12, { 0xb8, 0x3c, 0, 0, 0, 0xbf, 5, 0, 0, 0, 0x0f, 0x05 } },
};

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void fill(uint8_t *p, uint64_t *s)
{
	for (int i = 0; i < PAGE; i += 8) {
		uint64_t v = next(s);

		memcpy(p + i, &v, 8);
	}
	/* syscall 0f 05, sysenter 0f 34, int 0x80 cd 80 */
	for (int i = 0; i + 1 < PAGE; i++)
		if ((p[i] == 0x0f && (p[i + 1] == 0x05 || p[i + 1] == 0x34)) ||
		    (p[i] == 0xcd && p[i + 1] == 0x80))
			p[i + 1] = 0x90;
}

/* Run the page at code in a child; "SIGSEGV", "exit 3"… into buf. */
static const char *run(const uint8_t *code, char *buf, size_t n)
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return "fork failed";
	if (pid == 0) {
		void *stack = mmap(NULL, STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				   -1, 0);

		if (stack == MAP_FAILED)
			_exit(100);
		alarm(1);
		hd_enter(code, (char *)stack + STACK - 64);
	}
	if (waitpid(pid, &st, 0) != pid)
		return "lost";
	if (WIFSIGNALED(st))
		snprintf(buf, n, "SIG%s",
			 sigabbrev_np(WTERMSIG(st)) ? sigabbrev_np(WTERMSIG(st)) : "?");
	else
		snprintf(buf, n, "exit %d", WEXITSTATUS(st));
	return buf;
}

int main(int argc, char **argv)
{
	uint8_t *code = mmap(NULL, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char buf[64];

	if (code == MAP_FAILED)
		return 1;
	if (argc < 3) {
		for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
			memset(code, 0xcc, PAGE);
			memcpy(code, known[i].bytes, known[i].len);
			printf("%s: %s\n", known[i].name, run(code, buf, sizeof(buf)));
		}
		return 0;
	}
	uint64_t seed = strtoull(argv[1], NULL, 0) | 1;
	long n = atol(argv[2]);

	for (long i = 0; i < n; i++) {
		fill(code, &seed);
		printf("page %ld: %s\n", i, run(code, buf, sizeof(buf)));
	}
	return 0;
}
