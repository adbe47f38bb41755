/* Unit tests for core/systab.c, core/systrace.c, cmd/trace_chain.c and
 * cmd/trace_summary.c: the system calls vpmu trace prints — names and
 * numbers, each kind of argument as perf trace prints it, results and
 * errors; a call's message sent by a guest's tracer and read back, with
 * its call chain and the images that name it, and damaged ones refused;
 * the summary's sums. */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <errno.h>
#include <link.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <cmocka.h>

#include "cmd/trace.h"
#include "core/systab.h"
#include "core/systrace.h"
#include "emu/linux/linux.h"

static void test_names(void **state)
{
	char buf[32];
	(void)state;
	assert_int_equal(systab_find("openat"), 257);
	assert_int_equal(systab_find("read"), 0);
	assert_int_equal(systab_find("exit_group"), 231);
	assert_int_equal(systab_find("no_such_call"), -1);
	assert_string_equal(systab_name(59, buf, sizeof(buf)), "execve");
	assert_string_equal(systab_name(4, buf, sizeof(buf)), "stat"); /* the kernel's newstat */
	assert_string_equal(systab_name(500, buf, sizeof(buf)), "syscall_500");
	assert_string_equal(systab_name(-3, buf, sizeof(buf)), "syscall_-3");
	assert_null(systab_call(SYSTAB_MAX));
	assert_string_equal(systab_closest("opnat"), "openat");
	assert_string_equal(systab_closest("exit_grop"), "exit_group");
	assert_null(systab_closest("qqqqqqqqqq"));
	assert_int_equal(systab_strings(257), 1u << 1);		 /* openat's filename */
	assert_int_equal(systab_strings(82), 1u << 0 | 1u << 1); /* rename's two */
	assert_int_equal(systab_strings(0), 0);			 /* read's buf is no string */
}

static void call(long nr, const uint64_t a[6], const char *const str[6], const char *want)
{
	char buf[512];
	size_t n = systab_format_call(buf, sizeof(buf), nr, a, str);
	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
}

static void test_arguments(void **state)
{
	const char *path[6] = { NULL, "/etc/ld.so.cache" };
	(void)state;
	/* AT_FDCWD, a path, flags; a zero mode left out */
	call(257, (uint64_t[6]){ (uint32_t)-100, 0x1000, 02000000, 0 }, path,
	     "openat(dfd: CWD, filename: \"/etc/ld.so.cache\", flags: RDONLY|CLOEXEC)");
	call(257, (uint64_t[6]){ 3, 0x1000, 0101 | 01000, 0644 }, path,
	     "openat(dfd: 3, filename: \"/etc/ld.so.cache\", flags: WRONLY|CREAT|TRUNC, mode: 0644)");
	/* unreadable: the pointer */
	call(257, (uint64_t[6]){ 3, 0x1000, 0, 0 }, NULL,
	     "openat(dfd: 3, filename: 0x1000, flags: RDONLY)");
	/* fd 0 is shown; ints in the low half of the register */
	call(0, (uint64_t[6]){ 0xdeadbeef00000000ull, 0x7ff0, 832 }, NULL,
	     "read(fd: 0, buf: 0x7ff0, count: 832)");
	call(61, (uint64_t[6]){ 0xffffffffull, 0x7ff0, 1 }, NULL,
	     "wait4(upid: -1, stat_addr: 0x7ff0, options: 1)");
	call(9, (uint64_t[6]){ 0, 8192, 3, 0x22, (uint64_t)-1, 0 }, NULL,
	     "mmap(len: 8192, prot: READ|WRITE, flags: PRIVATE|ANONYMOUS, fd: -1)");
	call(10, (uint64_t[6]){ 0x1000, 4096, 0 }, NULL,
	     "mprotect(start: 0x1000, len: 4096, prot: NONE)");
	call(62, (uint64_t[6]){ 42, 15 }, NULL, "kill(pid: 42, sig: TERM)");
	call(62, (uint64_t[6]){ 42, 0 }, NULL, "kill(pid: 42)");
	call(12, (uint64_t[6]){ 0 }, NULL, "brk()");
	/* a string escaped, a flag no name covers */
	const char *odd[6] = { "a\"b\n\\c\001" };
	call(21, (uint64_t[6]){ 0x10, 4 }, odd,
	     "access(filename: \"a\\\"b\\n\\\\c\\001\", mode: R)");
	call(9, (uint64_t[6]){ 0, 4096, 1, 0x2 | 0x80000000ull, 3, 0 }, NULL,
	     "mmap(len: 4096, prot: READ, flags: PRIVATE|0x80000000, fd: 3)");
	/* numbers that name something, 0 too; other flags */
	call(8, (uint64_t[6]){ 3, 0, 0 }, NULL, "lseek(fd: 3, whence: SET)");
	call(8, (uint64_t[6]){ 3, 10, 9 }, NULL, "lseek(fd: 3, offset: 10, whence: 9)");
	call(72, (uint64_t[6]){ 4, 1030, 3 }, NULL, "fcntl(fd: 4, cmd: DUPFD_CLOEXEC, arg: 0x3)");
	call(202, (uint64_t[6]){ 0x1000, 128, 1 }, NULL,
	     "futex(uaddr: 0x1000, op: WAIT|PRIVATE_FLAG, val: 1)");
	call(202, (uint64_t[6]){ 0x1000, 9 | 256, 1 }, NULL,
	     "futex(uaddr: 0x1000, op: WAIT_BITSET|CLOCK_REALTIME, val: 1)");
	call(228, (uint64_t[6]){ 1, 0x2000 }, NULL,
	     "clock_gettime(which_clock: MONOTONIC, tp: 0x2000)");
	call(228, (uint64_t[6]){ 0 }, NULL, "clock_gettime(which_clock: REALTIME)");
	call(228, (uint64_t[6]){ (uint32_t)-6 }, NULL, "clock_gettime(which_clock: -6)");
	call(14, (uint64_t[6]){ 0, 0x10, 0, 8 }, NULL,
	     "rt_sigprocmask(how: BLOCK, nset: 0x10, sigsetsize: 8)");
	call(158, (uint64_t[6]){ 0x1002, 0x7000 }, NULL,
	     "arch_prctl(option: SET_FS, arg2: 0x7000)");
	call(21, (uint64_t[6]){ 0x10, 0 }, NULL, "access(filename: 0x10, mode: F)");
	call(56, (uint64_t[6]){ 0x01200011 }, NULL,
	     "clone(clone_flags: CHILD_CLEARTID|CHILD_SETTID|CHLD)");
	call(262, (uint64_t[6]){ 3, 0x10, 0x20, 0x1100 }, (const char *[6]){ NULL, "" },
	     "newfstatat(dfd: 3, filename: \"\", statbuf: 0x20, flag: SYMLINK_NOFOLLOW|EMPTY_PATH)");
	call(263, (uint64_t[6]){ 3, 0x10, 0x200 }, NULL,
	     "unlinkat(dfd: 3, pathname: 0x10, flag: REMOVEDIR)");
	/* sockets and ioctl requests, as perf trace names them */
	call(41, (uint64_t[6]){ 1, 1 | 0x80000, 0 }, NULL,
	     "socket(family: LOCAL, type: STREAM|CLOEXEC)");
	call(41, (uint64_t[6]){ 10, 2 | 0x800 | 0x80000, 17 }, NULL,
	     "socket(family: INET6, type: DGRAM|CLOEXEC|NONBLOCK, protocol: 17)");
	call(41, (uint64_t[6]){ 0, 9, 0 }, NULL, "socket(family: UNSPEC, type: 9)");
	call(41, (uint64_t[6]){ 99, 3 | 0x40000000, 0 }, NULL,
	     "socket(family: 99, type: RAW|0x40000000)");
	call(53, (uint64_t[6]){ 1, 5, 0, 0x30 }, NULL,
	     "socketpair(family: LOCAL, type: SEQPACKET, usockvec: 0x30)");
	call(16, (uint64_t[6]){ 1, 0x5401, 0x40 }, NULL, "ioctl(fd: 1, cmd: TCGETS, arg: 0x40)");
	call(16, (uint64_t[6]){ 0, 0x5413, 0x40 }, NULL,
	     "ioctl(fd: 0, cmd: TIOCGWINSZ, arg: 0x40)");
	call(16, (uint64_t[6]){ 3, 0x80086601, 0x40 }, NULL,
	     "ioctl(fd: 3, cmd: 0x80086601, arg: 0x40)");
	/* a number no call has: all six, by place */
	call(499, (uint64_t[6]){ 1, 0, 3 }, NULL, "syscall_499(arg0: 0x1, arg2: 0x3)");
	/* cut short to the buffer */
	char small[8];
	systab_format_call(small, sizeof(small), 257, (uint64_t[6]){ 3 }, path);
	assert_string_equal(small, "openat(");
}

static void test_results(void **state)
{
	char buf[128];
	(void)state;
	systab_format_ret(buf, sizeof(buf), 257, 3);
	assert_string_equal(buf, "3");
	systab_format_ret(buf, sizeof(buf), 257, -ENOENT);
	assert_string_equal(buf, "-1 ENOENT (No such file or directory)");
	systab_format_ret(buf, sizeof(buf), 9, 0x7f0000001000);
	assert_string_equal(buf, "0x7f0000001000");
	systab_format_ret(buf, sizeof(buf), 9, -ENOMEM);
	assert_string_equal(buf, "-1 ENOMEM (Cannot allocate memory)");
	systab_format_ret(buf, sizeof(buf), 0, -4096); /* below the errors: a number */
	assert_string_equal(buf, "-4096");
}

/* A guest's memory, for the tracer: strings at 0x1000 and 0x2000, the
 * rest unreadable. */
static int guest_str(void *arg, char *dst, uint64_t src, size_t n)
{
	const char *s = src == 0x1000 ? "old" : src == 0x2000 ? arg : NULL;
	if (!s)
		return -1;
	snprintf(dst, n, "%s", s);
	return (int)strlen(dst);
}

static size_t send_and_read(const struct lx_sys_event *e, char *buf, size_t n)
{
	int sv[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	systrace_lx_ops.syscall(sv[0], e);
	ssize_t r = recv(sv[1], buf, n, 0);
	close(sv[0]);
	close(sv[1]);
	assert_true(r > 0);
	return (size_t)r;
}

static void test_message(void **state)
{
	union {
		struct recw_syscall m;
		char b[RECW_MAX];
	} u;
	char longname[2000];
	struct lx_sys_event e = { .pid = 7,
				  .tid = 8,
				  .comm = "a-rather-long-p",
				  .nr = 82, /* rename(oldname, newname) */
				  .a = { 0x1000, 0x3000 },
				  .ret = -EXDEV,
				  .start = 1234,
				  .dur = 56,
				  .str = guest_str,
				  .arg = longname };
	struct systrace_call c;
	(void)state;
	size_t len = send_and_read(&e, u.b, sizeof(u.b));
	assert_int_equal(systrace_decode(&u, len, &c), 0);
	assert_int_equal(c.m->pid, 7);
	assert_int_equal(c.m->tid, 8);
	assert_int_equal(c.m->nr, 82);
	assert_int_equal(c.m->ret, -EXDEV);
	assert_int_equal(c.m->start, 1234);
	assert_int_equal(c.m->dur, 56);
	assert_string_equal(c.m->comm, "a-rather-long-p");
	assert_string_equal(c.str[0], "old");
	assert_null(c.str[1]); /* not readable */
	/* a long one kept cut short */
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	e.a[1] = 0x2000;
	len = send_and_read(&e, u.b, sizeof(u.b));
	assert_int_equal(systrace_decode(&u, len, &c), 0);
	assert_int_equal(strlen(c.str[1]), RECW_MAX_STR - 1);
	/* damage: short, lengths that disagree, a string without its end */
	assert_int_equal(systrace_decode(&u, sizeof(u.m) - 1, &c), -1);
	assert_int_equal(systrace_decode(&u, len - 1, &c), -1);
	u.m.h.len--;
	u.m.nstr--;
	assert_int_equal(systrace_decode(&u, len - 1, &c), -1);
	/* a call without strings, its comm not terminated */
	e.nr = 0;
	len = send_and_read(&e, u.b, sizeof(u.b));
	assert_int_equal(len, sizeof(struct recw_syscall));
	assert_int_equal(systrace_decode(&u, len, &c), 0);
	memset(u.m.comm, 'y', sizeof(u.m.comm));
	assert_int_equal(systrace_decode(&u, len, &c), -1);
}

static void sockaddr_is(const void *sa, size_t len, const char *want)
{
	char buf[160];
	size_t n = systab_format_sockaddr(buf, sizeof(buf), sa, len);
	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
}

/* Socket addresses, as perf trace prints them; a connect's sent from a
 * guest's memory. */
static int guest_mem(void *arg, void *dst, uint64_t src, size_t n)
{
	if (src != 0x4000)
		return -1;
	memcpy(dst, arg, n);
	return 0;
}

static void test_sockaddr(void **state)
{
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(8080) };
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_port = htons(443) };
	struct sockaddr_un un = { .sun_family = AF_UNIX, .sun_path = "/run/x.sock" };
	struct sockaddr sa = { .sa_family = AF_NETLINK };
	char small[12];
	(void)state;
	inet_pton(AF_INET, "127.0.0.1", &in.sin_addr);
	inet_pton(AF_INET6, "2001:db8::1", &in6.sin6_addr);
	sockaddr_is(&in, sizeof(in), "{ .family: INET, port: 8080, addr: 127.0.0.1 }");
	sockaddr_is(&in6, sizeof(in6), "{ .family: INET6, port: 443, addr: 2001:db8::1 }");
	sockaddr_is(&un, offsetof(struct sockaddr_un, sun_path) + 12,
		    "{ .family: LOCAL, path: /run/x.sock }");
	/* abstract: a leading NUL, the name not terminated */
	memcpy(un.sun_path, "\0tmp\001x", 7);
	sockaddr_is(&un, offsetof(struct sockaddr_un, sun_path) + 7,
		    "{ .family: LOCAL, path: @tmp\\001x }");
	/* an address too short for its family: the family alone */
	sockaddr_is(&in, 8, "{ .family: INET }");
	sockaddr_is(&sa, sizeof(sa), "{ .family: NETLINK }");
	assert_int_equal(systab_format_sockaddr(small, sizeof(small), &in, 1), 0);
	assert_int_equal(systab_format_sockaddr(small, sizeof(small), &in, sizeof(in)), 11);
	assert_string_equal(small, "{ .family: ");

	/* connect's address read from the guest, as its text */
	union {
		struct recw_syscall m;
		char b[RECW_MAX];
	} u;
	struct lx_sys_event e = { .nr = 42, /* connect(fd, uservaddr, addrlen) */
				  .a = { 3, 0x4000, sizeof(in) },
				  .mem = guest_mem,
				  .arg = &in };
	struct systrace_call c;
	char buf[256];
	size_t len = send_and_read(&e, u.b, sizeof(u.b));
	assert_int_equal(systrace_decode(&u, len, &c), 0);
	systab_format_call(buf, sizeof(buf), 42, c.m->a, c.str);
	assert_string_equal(buf, "connect(fd: 3, uservaddr: { .family: INET, port: 8080, "
				 "addr: 127.0.0.1 }, addrlen: 16)");
	e.a[1] = 0x5000; /* unreadable: the pointer */
	len = send_and_read(&e, u.b, sizeof(u.b));
	assert_int_equal(systrace_decode(&u, len, &c), 0);
	systab_format_call(buf, sizeof(buf), 42, c.m->a, c.str);
	assert_string_equal(buf, "connect(fd: 3, uservaddr: 0x5000, addrlen: 16)");
}

/* Call chains (--call-graph fp): a stack of two frames in this
 * process's memory, which stands for the guest's. */
static uint64_t stk[6];

static int stack_mem(void *arg, void *dst, uint64_t src, size_t n)
{
	(void)arg;
	if (src < (uint64_t)stk || src + n > (uint64_t)(stk + 6))
		return -1;
	memcpy(dst, (const void *)src, n);
	return 0;
}

/* The messages one call sends: their number; the last (the call's) in u,
 * the first image's flags in *flags (~0: no image sent). */
static int call_messages(const struct lx_sys_event *e, void *u, size_t n, uint32_t *flags)
{
	int sv[2], k = 0;
	char buf[RECW_MAX];
	ssize_t r;

	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	systrace_lx_ops.syscall(sv[0], e);
	close(sv[0]);
	*flags = ~0u;
	while ((r = recv(sv[1], buf, sizeof(buf), 0)) > 0) {
		const struct recw_hdr *h = (const void *)buf;
		if (h->type == RECW_MMAP && *flags == ~0u)
			*flags = ((const struct recw_mmap *)(const void *)buf)->flags;
		memcpy(u, buf, (size_t)r < n ? (size_t)r : n);
		k++;
	}
	close(sv[1]);
	return k;
}

static void test_chain(void **state)
{
	union {
		struct recw_syscall m;
		char b[RECW_MAX];
	} u;
	struct lx_image img = { 0x400000, 0x500000, 0, "/bin/x" };
	uint64_t regs[16] = { 0 };
	void *tracer = NULL;
	struct lx_sys_event e = { .pid = 7,
				  .nr = 39, /* getpid */
				  .mem = stack_mem,
				  .callgraph = LX_CG_FP,
				  .regs = regs,
				  .ip = 0x400050,
				  .images = &img,
				  .nimages = 1,
				  .state = &tracer };
	struct systrace_call c;
	uint32_t flags;
	(void)state;
	/* rbp -> [caller's rbp, return address]: two frames, then the end */
	stk[0] = (uint64_t)&stk[2];
	stk[1] = 0x400100;
	stk[2] = 0;
	stk[3] = 0x400200;
	regs[X86_RSP] = regs[X86_RBP] = (uint64_t)stk;
	/* the first call sends the process's images before it */
	assert_int_equal(call_messages(&e, u.b, sizeof(u.b), &flags), 2);
	assert_int_equal(flags, RECW_MMAP_FIRST);
	assert_int_equal(systrace_decode(&u, u.m.h.len, &c), 0);
	assert_int_equal(c.m->nchain, 3);
	assert_int_equal(c.m->chain[0], 0x400050);
	assert_int_equal(c.m->chain[1], 0x400100);
	assert_int_equal(c.m->chain[2], 0x400200);
	/* the next only itself, cut to --max-stack */
	e.max_stack = 2;
	assert_int_equal(call_messages(&e, u.b, sizeof(u.b), &flags), 1);
	assert_int_equal(systrace_decode(&u, u.m.h.len, &c), 0);
	assert_int_equal(c.m->nchain, 2);
	/* a forked child (another pid, the same state) sends them again */
	e.pid = 9;
	assert_int_equal(call_messages(&e, u.b, sizeof(u.b), &flags), 2);
	assert_int_equal(flags, RECW_MMAP_FIRST);
	/* damage: more frames than a chain has */
	assert_int_equal(systrace_decode(&u, u.m.h.len, &c), 0);
	u.m.nchain = RECW_MAX_CHAIN + 1;
	assert_int_equal(systrace_decode(&u, u.m.h.len, &c), -1);
	/* without a call graph: no chain, no images */
	e.callgraph = LX_CG_NONE;
	e.pid = 10;
	assert_int_equal(call_messages(&e, u.b, sizeof(u.b), &flags), 1);
	assert_int_equal(flags, ~0u);
	assert_int_equal(u.m.nchain, 0);
	systrace_state_free(tracer);
}

static int own_image(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct recw_mmap *m = arg;
	(void)size;
	for (int k = 0; k < info->dlpi_phnum; k++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[k];
		uint64_t a = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type != PT_LOAD)
			continue;
		if (!m->start || a < m->start)
			m->start = a;
		if (a + ph->p_memsz > m->end)
			m->end = a + ph->p_memsz;
	}
	m->bias = info->dlpi_addr;
	return 1; /* (the first is the program) */
}

/* The chains named from the images sent: this test program's own. */
static void test_chain_names(void **state)
{
	struct trace_chains *tc = trace_chains_new();
	struct recw_mmap m = { .h = { RECW_MMAP, sizeof(m) }, .pid = 5, .flags = RECW_MMAP_FIRST };
	union {
		struct recw_syscall m;
		uint64_t room[64];
	} u = { .m = { .pid = 5, .nchain = 2 } };
	char want[256], *text;
	(void)state;
	assert_non_null(tc);
	dl_iterate_phdr(own_image, &m);
	snprintf(m.path, sizeof(m.path), "/proc/self/exe");
	assert_int_equal(trace_chains_mmap(tc, &m), 0);
	/* a return address just after a function's start names it; one
	 * at a function's end, its call the byte before, too */
	u.m.chain[0] = (uint64_t)test_chain + 1;
	u.m.chain[1] = 0x10;
	text = trace_chains_format(tc, &u.m);
	snprintf(want, sizeof(want), "%39stest_chain (/proc/self/exe)\n%39s[0x10] ([unknown])\n",
		 "", "");
	assert_string_equal(text, want);
	free(text);
	/* a new image list (an execve): the old images are gone */
	m.flags = RECW_MMAP_FIRST;
	m.start = 0x1000;
	m.end = 0x2000;
	snprintf(m.path, sizeof(m.path), "/nonexistent");
	assert_int_equal(trace_chains_mmap(tc, &m), 0);
	text = trace_chains_format(tc, &u.m);
	assert_non_null(strstr(text, "[unknown]"));
	assert_null(strstr(text, "test_chain"));
	free(text);
	/* another process's chain: nothing known */
	u.m.pid = 6;
	text = trace_chains_format(tc, &u.m);
	assert_non_null(strstr(text, "([unknown])"));
	free(text);
	/* no chain, no text; a range that is none is refused */
	u.m.nchain = 0;
	assert_null(trace_chains_format(tc, &u.m));
	m.end = m.start;
	assert_int_equal(trace_chains_mmap(tc, &m), -1);
	trace_chains_free(tc);
}

static void test_summary(void **state)
{
	struct trace_summary *s = trace_summary_new();
	char *text = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);
	(void)state;
	assert_non_null(s);
	/* read: 1, 2 and 3 µs; openat: three failed calls of 10, 1 and 1 µs */
	assert_int_equal(trace_summary_add(s, "prog", 10, 0, 5, 1000), 0);
	assert_int_equal(trace_summary_add(s, "prog", 10, 0, 5, 2000), 0);
	assert_int_equal(trace_summary_add(s, "prog", 10, 0, 0, 3000), 0);
	assert_int_equal(trace_summary_add(s, "prog", 10, 257, -ENOENT, 10000), 0);
	assert_int_equal(trace_summary_add(s, "kid", 11, 1, 1, 500), 0);
	assert_int_equal(trace_summary_add(s, "prog", 10, 257, -EACCES, 1000), 0);
	assert_int_equal(trace_summary_add(s, "prog", 10, 257, -ENOENT, 1000), 0);
	/* a write of prog's and one of kid's: apart by thread, together in
	 * total */
	assert_int_equal(trace_summary_add(s, "prog", 10, 1, 1, 1500), 0);
	trace_summary_print(s, f, 1, 0);
	fclose(f);
	assert_non_null(strstr(text, "   write                  1       0   0.000500"));
	assert_null(strstr(text, "total, "));
	free(text);
	f = open_memstream(&text, &n);
	trace_summary_print(s, f, 0, 1);
	fclose(f);
	assert_non_null(strstr(text, "\n Summary of events:\n\n total, 8 syscalls\n\n"));
	assert_non_null(strstr(text, "   write                  2       0   0.002000   0.000500   "
				     "0.001000   0.001500   50.00%\n"));
	assert_null(strstr(text, "prog (10)"));
	assert_null(strstr(text, "ENOENT"));
	free(text);
	f = open_memstream(&text, &n);
	trace_summary_print(s, f, 1, 0);
	fclose(f);
	trace_summary_free(s);
	assert_non_null(strstr(text, "\n prog (10), 7 syscalls, 87.5%\n"));
	assert_non_null(strstr(text, "\n kid (11), 1 syscalls, 12.5%\n"));
	/* openat first, by total, its errors by errno after it; the stddev
	 * of the mean: read's 1 / sqrt(3) / 2, openat's 5196 / sqrt(3) / 4000 */
	const char *o = strstr(text, "   openat                 3       3   0.012000   0.001000   "
				     "0.004000   0.010000   75.00%\n"
				     "\t\t\tENOENT: 2\n\t\t\tEACCES: 1\n");
	const char *r = strstr(text, "   read                   3       0   0.006000   0.001000   "
				     "0.002000   0.003000   28.87%\n");
	assert_non_null(o);
	assert_non_null(r);
	assert_true(o < r);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),	    cmocka_unit_test(test_arguments),
		cmocka_unit_test(test_results),	    cmocka_unit_test(test_message),
		cmocka_unit_test(test_sockaddr),    cmocka_unit_test(test_chain),
		cmocka_unit_test(test_chain_names), cmocka_unit_test(test_summary),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
