/* Guest program: getrandom(2) as the emulated system serves it — 16 bytes,
 * refused flags, a request past the per-call limit, and 16 bytes in a
 * forked child (printed first: the parent waits), then 16 more in the
 * parent — and reads of /dev/urandom and /dev/random: read, pread, readv,
 * through a dup'ed descriptor, and a write-only one (EBADF).  The bytes
 * come from --seed, so two runs print the same. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static void hex(const char *who, const unsigned char *b)
{
	printf("%s:", who);
	for (int k = 0; k < 16; k++)
		printf(" %02x", b[k]);
	printf("\n");
	fflush(stdout);
}

static int devices(unsigned char *b)
{
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	int rnd = open("/dev/random", O_RDONLY);
	int wr = open("/dev/urandom", O_WRONLY);
	struct iovec v[2] = { { b, 6 }, { b + 6, 10 } };

	if (fd < 0 || rnd < 0 || wr < 0)
		return 2;
	if (read(fd, b, 16) != 16)
		return 3;
	hex("urandom read", b);
	if (pread(fd, b, 16, 4096) != 16)
		return 3;
	hex("urandom pread", b);
	if (readv(fd, v, 2) != 16)
		return 3;
	hex("urandom readv", b);
	int d = dup(fd);
	close(fd);
	if (read(d, b, 16) != 16)
		return 3;
	hex("urandom dup", b);
	if (read(rnd, b, 16) != 16)
		return 3;
	hex("random read", b);
	printf("write-only: %s\n", read(wr, b, 1) < 0 && errno == EBADF ? "EBADF" : "read");
	return 0;
}

int main(void)
{
	unsigned char b[16];
	static unsigned char big[40 << 20];
	int st;

	if (getrandom(b, sizeof(b), 0) != sizeof(b))
		return 1;
	hex("first", b);
	printf("bad flags: %s\n",
	       getrandom(b, 1, 0x80) < 0 && errno == EINVAL ? "EINVAL" : "taken");
	printf("random|insecure: %s\n",
	       getrandom(b, 1, GRND_RANDOM | 0x4) < 0 && errno == EINVAL ? "EINVAL" : "taken");
	printf("40 MiB: %zd\n", getrandom(big, sizeof(big), GRND_NONBLOCK));
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		getrandom(b, sizeof(b), 0);
		hex("child", b);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	getrandom(b, sizeof(b), 0);
	hex("parent", b);
	return devices(b);
}
