/* hd_nullmem — instructions of every kind that reach memory, each aimed
 * at address 0 in a child of its own: each child dies of SIGSEGV, under
 * vpmu as natively (a sanitized vpmu must let the host's fault through
 * to the guest rather than stop at the null pointer it sees).
 * vpmu-cflags: -O1 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static void load(void)
{
	__asm__ volatile("mov 0, %%rax" : : : "rax", "memory");
}
static void store(void)
{
	__asm__ volatile("movl $1, 0" : : : "memory");
}
static void sse_load(void)
{
	__asm__ volatile("movdqu 0, %%xmm0" : : : "xmm0", "memory");
}
static void sse_store(void)
{
	__asm__ volatile("movups %%xmm0, 0" : : : "memory");
}
static void lock_xadd(void)
{
	__asm__ volatile("mov $1, %%eax; lock xadd %%eax, 0" : : : "rax", "memory");
}
static void lock_cmpxchg(void)
{
	__asm__ volatile("xor %%eax, %%eax; mov $1, %%ecx; lock cmpxchg %%ecx, 0"
			 :
			 :
			 : "rax", "rcx", "memory");
}
static void xchg(void)
{
	__asm__ volatile("xchg %%rax, 0" : : : "rax", "memory");
}
static void lock_bts(void)
{
	__asm__ volatile("lock btsl $3, 0" : : : "memory");
}
static void rep_stosb(void)
{
	__asm__ volatile("xor %%edi, %%edi; mov $64, %%ecx; xor %%eax, %%eax; cld; rep stosb"
			 :
			 :
			 : "rdi", "rcx", "rax", "memory");
}
static void rep_movsb(void)
{
	__asm__ volatile("xor %%esi, %%esi; lea -256(%%rsp), %%rdi; mov $64, %%ecx; cld; rep movsb"
			 :
			 :
			 : "rsi", "rdi", "rcx", "memory");
}
static void repne_scasb(void)
{
	__asm__ volatile("xor %%edi, %%edi; mov $64, %%ecx; mov $7, %%eax; cld; repne scasb"
			 :
			 :
			 : "rdi", "rcx", "rax", "cc", "memory");
}
static void x87_load(void)
{
	__asm__ volatile("fldl 0; fstp %%st(0)" : : : "memory");
}
static void x87_store(void)
{
	__asm__ volatile("fldz; fstpt 0" : : : "memory");
}
static void fnsave(void)
{
	__asm__ volatile("fnsave 0; fninit" : : : "memory");
}
static void fxsave(void)
{
	__asm__ volatile("fxsave 0" : : : "memory");
}
static void fetch(void)
{
	__asm__ volatile("xor %%eax, %%eax; call *%%rax" : : : "rax", "memory");
}

static const struct {
	const char *name;
	void (*fn)(void);
} cases[] = {
	{ "load", load },
	{ "store", store },
	{ "sse load", sse_load },
	{ "sse store", sse_store },
	{ "lock xadd", lock_xadd },
	{ "lock cmpxchg", lock_cmpxchg },
	{ "xchg", xchg },
	{ "lock bts", lock_bts },
	{ "rep stosb", rep_stosb },
	{ "rep movsb", rep_movsb },
	{ "repne scasb", repne_scasb },
	{ "x87 load", x87_load },
	{ "x87 store", x87_store },
	{ "fnsave", fnsave },
	{ "fxsave", fxsave },
	{ "fetch", fetch },
};

int main(void)
{
	for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		int st;
		pid_t p;

		fflush(stdout);
		p = fork();
		if (p < 0)
			return 2;
		if (p == 0) {
			cases[k].fn();
			_exit(0);
		}
		if (waitpid(p, &st, 0) != p)
			return 3;
		if (WIFSIGNALED(st))
			printf("%s: signal %d\n", cases[k].name, WTERMSIG(st));
		else
			printf("%s: exit %d\n", cases[k].name, WEXITSTATUS(st));
	}
	return 0;
}
