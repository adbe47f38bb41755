/* hd_foreign.c — memory calls on memory the program does not own.
 *
 * Without an argument: munmap, mprotect, madvise, mremap, msync and
 * mlock on an address range nothing maps, natively and under vpmu alike;
 * then a SysV segment attached, written, detached.  Prints each result.
 *
 * `hd_foreign hostile VPMU`: run under vpmu only.  Every mapping of
 * /proc/self/maps outside the guest's address range (lx_mm.h: everything
 * the guest owns is below 4 GiB or in [0x200000000000, 0x400000000000))
 * is vpmu's own; attack each with madvise(DONTNEED/DONTFORK/REMOVE),
 * mprotect(PROT_NONE), munmap, mremap, shmat(SHM_REMAP), mseal and brk,
 * then prove vpmu still works by forking, allocating and printing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *res(long r)
{
	static char buf[64];

	if (r == -1)
		snprintf(buf, sizeof(buf), "-1 %s", strerrorname_np(errno));
	else
		snprintf(buf, sizeof(buf), "%ld", r);
	return buf;
}

static int segment(void)
{
	int id = shmget(IPC_PRIVATE, 8192, IPC_CREAT | 0600);
	char *m;

	if (id < 0) {
		printf("shmget: %s\n", strerrorname_np(errno));
		return 0;
	}
	m = shmat(id, NULL, 0);
	shmctl(id, IPC_RMID, NULL);
	if (m == (void *)-1) {
		printf("shmat: %s\n", strerrorname_np(errno));
		return 1;
	}
	strcpy(m + 4096, "segment");
	printf("shmat: %s, mprotect %s", m + 4096, res(mprotect(m, 4096, PROT_READ)));
	printf(", shmdt %s\n", res(shmdt(m)));
	return 0;
}

static void unowned(void)
{
	/* nothing maps this natively (above the usual mmap area of a 47-bit
	 * space, below the stack) nor under vpmu */
	char *a = (char *)0x7e0000000000ull;
	size_t n = 1 << 20;

	printf("mprotect: %s\n", res(mprotect(a, n, PROT_READ)));
	printf("madvise: %s\n", res(madvise(a, n, MADV_DONTNEED)));
	printf("mremap: %s\n", res((long)mremap(a, n, 2 * n, MREMAP_MAYMOVE)));
	printf("msync: %s\n", res(msync(a, n, MS_SYNC)));
	printf("mlock: %s\n", res(mlock(a, n)));
	printf("munmap: %s\n", res(munmap(a, n)));
}

static int guests(uint64_t lo)
{
	return lo < (1ull << 32) || (lo >= 0x200000000000ull && lo < 0x400000000000ull);
}

static int hostile(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int n = 0, refused = 0;
	int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);

	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx", &lo, &hi) != 2 || guests(lo) || strstr(line, "[v"))
			continue;
		void *a = (void *)lo;
		size_t len = hi - lo;
		long r[8] = {
			madvise(a, len, MADV_DONTNEED),
			madvise(a, len, MADV_DONTFORK),
			madvise(a, len, MADV_REMOVE),
			mprotect(a, len, PROT_NONE),
			(long)mremap(a, len, len, MREMAP_MAYMOVE | MREMAP_FIXED,
				     (void *)0x300000000000),
			id >= 0 ? (long)shmat(id, a, SHM_REMAP) : -1,
			syscall(462, a, len, 0), /* mseal */
			syscall(SYS_brk, a),
		};
		n++;
		for (int i = 0; i < 7; i++)
			refused += r[i] == -1;
		if (r[7] == (long)lo) {
			printf("brk moved to %#lx\n", lo);
			return 1;
		}
		munmap(a, len);
	}
	fclose(f);
	if (id >= 0)
		shmctl(id, IPC_RMID, NULL);
	/* vpmu must still be whole: a fork, the heap, output */
	pid_t pid = fork();
	int st = -1;
	if (pid == 0) {
		char *m = malloc(1 << 20);
		memset(m, 1, 1 << 20);
		_exit(m[12345] + 41);
	}
	waitpid(pid, &st, 0);
	printf("attacked %d mappings, %d of %d calls refused; child exited %d\n", n, refused, 7 * n,
	       WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return !(n > 0 && refused == 7 * n && WIFEXITED(st) && WEXITSTATUS(st) == 42);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "hostile"))
		return hostile();
	unowned();
	return segment();
}
