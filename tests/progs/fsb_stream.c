/* fsb_stream.c — front-side-bus workloads (vpmu stat --metrics fsb).
 *
 *   fsb_stream read  MIB PASSES   sequential read of an MIB MiB array
 *   fsb_stream write MIB PASSES   sequential stores over it
 *   fsb_stream io    FILE PASSES  read() FILE to its end, PASSES times
 *
 * The read stream takes the array line by line (one word of each 128-byte
 * line, the bus's unit of transfer), each load issued eight lines before
 * its value is used, as a compiler software-pipelines such a loop for an
 * in-order core: eight line misses stay in flight.  The write stream
 * stores every word.  Prints a sum that depends only on the arguments. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LINE_WORDS 16 /* 128-byte lines (Itanium 2 L2 and L3) */
#define AHEAD 8	      /* lines in flight */

/* One word of each line in order, loaded AHEAD lines before its value is
 * added: each add waits for the load issued eight loads earlier, so eight
 * misses stay in flight (a rotating-register pipeline by hand). */
#define STEP(r, k)                                     \
	do {                                           \
		s += r;                                \
		r = a[i + (AHEAD + (k)) * LINE_WORDS]; \
	} while (0)
static uint64_t stream_read(const uint64_t *a, size_t n)
{
	uint64_t s = 0, r0 = a[0], r1 = a[1 * LINE_WORDS], r2 = a[2 * LINE_WORDS],
		 r3 = a[3 * LINE_WORDS], r4 = a[4 * LINE_WORDS], r5 = a[5 * LINE_WORDS],
		 r6 = a[6 * LINE_WORDS], r7 = a[7 * LINE_WORDS];
	size_t i;

	for (i = 0; i + 2 * AHEAD * LINE_WORDS <= n; i += AHEAD * LINE_WORDS) {
		STEP(r0, 0);
		STEP(r1, 1);
		STEP(r2, 2);
		STEP(r3, 3);
		STEP(r4, 4);
		STEP(r5, 5);
		STEP(r6, 6);
		STEP(r7, 7);
		/* keep each load where it is, ahead of its use */
		__asm__ volatile(""
				 : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3), "+r"(r4), "+r"(r5),
				   "+r"(r6), "+r"(r7));
	}
	return s + r0 + r1 + r2 + r3 + r4 + r5 + r6 + r7;
}

static int run_io(const char *path, long passes)
{
	static char buf[65536];
	uint64_t s = 0;

	for (long p = 0; p < passes; p++) {
		int fd = open(path, O_RDONLY);
		ssize_t got;
		if (fd < 0) {
			perror(path);
			return 1;
		}
		while ((got = read(fd, buf, sizeof(buf))) > 0)
			s += (uint64_t)got + (unsigned char)buf[got - 1];
		close(fd);
	}
	printf("%llu\n", (unsigned long long)s);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 4 ||
	    (strcmp(argv[1], "read") && strcmp(argv[1], "write") && strcmp(argv[1], "io"))) {
		fprintf(stderr, "usage: fsb_stream read|write MIB PASSES | io FILE PASSES\n");
		return 2;
	}
	long passes = strtol(argv[3], NULL, 0);
	if (!strcmp(argv[1], "io"))
		return run_io(argv[2], passes);

	size_t n = (size_t)strtoul(argv[2], NULL, 0) << 17; /* words in MIB MiB */
	uint64_t *a = aligned_alloc(4096, n * sizeof(*a)), s = 0;
	if (!n || !a)
		return 2;
	for (long p = 0; p < passes; p++) {
		if (!strcmp(argv[1], "read")) {
			/* fresh anonymous memory reads as zero: no stores to fill it,
			 * so the bus carries the stream's reads alone */
			s += stream_read(a, n) + (uint64_t)p;
		} else {
			for (size_t i = 0; i < n; i++)
				a[i] = i + (uint64_t)p;
			s += a[n / 2];
		}
	}
	printf("%llu\n", (unsigned long long)s);
	return 0;
}
