/* Unit tests for the sample-file writer's file handling: the previous file
 * kept as .old, a killed run, an unwritable directory, a full disk (a small
 * tmpfs in a private mount namespace, /dev/full), a write error at every
 * size (RLIMIT_FSIZE), caller errors, statistics. */
#define _GNU_SOURCE /* unshare */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tests/unit/test_core_sfile_util.h"

static const char PREVIOUS[] = "the previous vpmu.data, which must survive";

struct fixture {
	char *dir;
	char path[512], old[520];
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	fx->dir = t_tmpdir();
	if (!fx->dir)
		return -1;
	snprintf(fx->path, sizeof(fx->path), "%s/vpmu.data", fx->dir);
	snprintf(fx->old, sizeof(fx->old), "%s.old", fx->path);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	t_rmtree(fx->dir);
	free(fx->dir);
	free(fx);
	return 0;
}

/* Does path hold exactly s? */
static int holds(const char *path, const char *s)
{
	uint8_t *b;
	size_t n;
	int ok;

	if (t_read_file(path, &b, &n))
		return 0;
	ok = n == strlen(s) && !memcmp(b, s, n);
	free(b);
	return ok;
}

/* Names in dir, sorted, space-separated. */
static void listing(const char *dir, char *buf, size_t n)
{
	struct dirent **ents;
	int k = scandir(dir, &ents, NULL, alphasort);

	buf[0] = 0;
	for (int i = 0; i < k; i++) {
		if (ents[i]->d_name[0] != '.' || ents[i]->d_name[1] > '.') {
			size_t l = strlen(buf);

			snprintf(buf + l, n - l, "%s%s", l ? " " : "", ents[i]->d_name);
		}
		free(ents[i]);
	}
	if (k >= 0)
		free(ents);
}

/* n LOST records: more of a stream whose attrs are written. */
static int write_lost(struct sfile_writer *w, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		if (sfile_add_lost(w, &(struct sfile_lost){ 1, k }))
			return -1;
	return 0;
}

/* Write records 0..n-1 of the test stream; flush every `every`. */
static int write_n(struct sfile_writer *w, unsigned n, unsigned every)
{
	for (unsigned k = 0; k < n; k++) {
		struct sfile_rec r;

		t_record(k, &r);
		if (t_add(w, &r))
			return -1;
		if (every && (k + 1) % every == 0 && sfile_flush(w))
			return -1;
	}
	return 0;
}

/* Records a good file at path holds, or -1; *finished set. */
static long count_records(const char *path, int *finished, size_t *ndamage)
{
	char err[256];
	struct sfile_reader *r = sfile_open(path, err, sizeof(err));
	struct sfile_rec rec;
	long n = 0;

	if (!r)
		return -1;
	while (sfile_next(r, &rec) == 1)
		n++;
	*finished = sfile_finished(r);
	sfile_damage(r, ndamage);
	sfile_rclose(r);
	return n;
}

static void test_keeps_old(void **state)
{
	struct fixture *fx = *state;
	char err[256], ls[256];
	struct sfile_writer *w;
	int fin;
	size_t nd;
	struct stat a, b;

	w = sfile_create(fx->path, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(write_n(w, 20, 0), 0);
	assert_int_equal(sfile_close(w, err, sizeof(err)), 0);
	listing(fx->dir, ls, sizeof(ls));
	assert_string_equal(ls, "vpmu.data"); /* nothing to keep: no .old */

	assert_int_equal(t_write_file(fx->path, PREVIOUS, strlen(PREVIOUS)), 0);
	w = sfile_create(fx->path, err, sizeof(err));
	assert_non_null(w);
	assert_true(holds(fx->old, PREVIOUS)); /* moved aside at once */
	assert_int_equal(write_n(w, 30, 0), 0);
	assert_int_equal(sfile_close(w, err, sizeof(err)), 0);
	assert_true(holds(fx->old, PREVIOUS));
	assert_int_equal(count_records(fx->path, &fin, &nd), 31);
	assert_true(fin);
	listing(fx->dir, ls, sizeof(ls));
	assert_string_equal(ls, "vpmu.data vpmu.data.old");

	/* The next run keeps this one as .old. */
	assert_int_equal(stat(fx->path, &a), 0);
	w = sfile_create(fx->path, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(sfile_close(w, err, sizeof(err)), 0);
	assert_int_equal(stat(fx->old, &b), 0);
	assert_int_equal(a.st_ino, b.st_ino);
	assert_int_equal(count_records(fx->path, &fin, &nd), 1);
}

static void test_relative_path(void **state)
{
	struct fixture *fx = *state;
	char err[256], ls[256], cwd[512];
	struct sfile_writer *w;

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(fx->dir), 0);
	assert_int_equal(t_write_file("vpmu.data", PREVIOUS, strlen(PREVIOUS)), 0);
	w = sfile_create("vpmu.data", err, sizeof(err));
	assert_int_equal(chdir(cwd), 0);
	assert_non_null(w);
	assert_int_equal(sfile_close(w, err, sizeof(err)), 0);
	listing(fx->dir, ls, sizeof(ls));
	assert_string_equal(ls, "vpmu.data vpmu.data.old");
	assert_true(holds(fx->old, PREVIOUS));
}

/* Killed after a flush: the flushed blocks are at path, the rest lost. */
static void test_killed_run(void **state)
{
	struct fixture *fx = *state;
	char ls[256];
	pid_t pid;
	int status, fin;
	size_t nd;

	assert_int_equal(t_write_file(fx->path, PREVIOUS, strlen(PREVIOUS)), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char err[256];
		struct sfile_writer *w = sfile_create(fx->path, err, sizeof(err));

		if (!w || write_n(w, 100, 25) || write_lost(w, 10))
			_exit(1);
		raise(SIGKILL);
		_exit(2);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	assert_int_equal(count_records(fx->path, &fin, &nd), 100);
	assert_false(fin);
	assert_int_equal(nd, 0);
	assert_true(holds(fx->old, PREVIOUS));
	listing(fx->dir, ls, sizeof(ls));
	assert_string_equal(ls, "vpmu.data vpmu.data.old");
}

static void test_abort_restores(void **state)
{
	struct fixture *fx = *state;
	char err[256], ls[256];
	struct sfile_writer *w;

	assert_int_equal(t_write_file(fx->path, PREVIOUS, strlen(PREVIOUS)), 0);
	w = sfile_create(fx->path, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(write_n(w, 50, 10), 0);
	sfile_abort(w);
	assert_true(holds(fx->path, PREVIOUS));
	listing(fx->dir, ls, sizeof(ls));
	assert_string_equal(ls, "vpmu.data");
}

static void expect_create_error(const char *path, const char *what)
{
	char err[256];
	struct sfile_writer *w = sfile_create(path, err, sizeof(err));

	if (w)
		fail_msg("%s created; wanted \"%s\"", path, what);
	if (!strstr(err, what) || !strstr(err, path) || strchr(err, '\n'))
		fail_msg("message \"%s\" lacks \"%s\" or the path", err, what);
}

static void test_bad_paths(void **state)
{
	struct fixture *fx = *state;
	char p[600];

	snprintf(p, sizeof(p), "%s/no/such/dir/vpmu.data", fx->dir);
	expect_create_error(p, "No such file or directory");
	expect_create_error(fx->dir, "Is a directory");
	if (access("/dev/full", W_OK) == 0)
		expect_create_error("/dev/full", "No space left on device");
}

/* A writer to a FIFO (not a regular file) writes in place. */
static void test_fifo(void **state)
{
	struct fixture *fx = *state;
	char err[256], ls[256];
	pid_t pid;
	int status, fin;
	size_t nd;
	char out[600];

	snprintf(out, sizeof(out), "%s/copy.data", fx->dir);
	assert_int_equal(mkfifo(fx->path, 0600), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char cmd[1300];

		snprintf(cmd, sizeof(cmd), "cat '%s' > '%s'", fx->path, out);
		_exit(system(cmd) == 0 ? 0 : 1);
	}
	{
		struct sfile_writer *w = sfile_create(fx->path, err, sizeof(err));

		assert_non_null(w);
		assert_int_equal(write_n(w, 40, 7), 0);
		assert_int_equal(sfile_close(w, err, sizeof(err)), 0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(status, 0);
	assert_int_equal(count_records(out, &fin, &nd), 41);
	listing(fx->dir, ls, sizeof(ls));
	assert_string_equal(ls, "copy.data vpmu.data");
}

/* Reading from a FIFO: the reader takes its bytes to the end first. */
static void test_read_fifo(void **state)
{
	struct fixture *fx = *state;
	char err[256], src[600];
	struct sfile_writer *w;
	pid_t pid;
	int status, fin;
	size_t nd;

	snprintf(src, sizeof(src), "%s/src.data", fx->dir);
	w = sfile_create(src, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(write_n(w, 40, 7), 0);
	assert_int_equal(sfile_close(w, err, sizeof(err)), 0);
	assert_int_equal(mkfifo(fx->path, 0600), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char cmd[1300];

		snprintf(cmd, sizeof(cmd), "cat '%s' > '%s'", src, fx->path);
		_exit(system(cmd) == 0 ? 0 : 1);
	}
	assert_int_equal(count_records(fx->path, &fin, &nd), 41);
	assert_int_equal(fin, 1);
	assert_int_equal(nd, 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(status, 0);
}

/* A symbolic link (/dev/stdout is one) is written through: the link
 * stays, its target holds the file, nothing is kept as .old. */
static void test_symlink(void **state)
{
	struct fixture *fx = *state;
	char err[256], ls[256], target[600];
	struct sfile_writer *w;
	struct stat sb;
	int fin;
	size_t nd;

	snprintf(target, sizeof(target), "%s/target", fx->dir);
	assert_int_equal(t_write_file(target, PREVIOUS, strlen(PREVIOUS)), 0);
	assert_int_equal(symlink("target", fx->path), 0);
	w = sfile_create(fx->path, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(write_n(w, 40, 7), 0);
	assert_int_equal(sfile_close(w, err, sizeof(err)), 0);
	assert_int_equal(lstat(fx->path, &sb), 0);
	assert_true(S_ISLNK(sb.st_mode));
	assert_int_equal(count_records(target, &fin, &nd), 41);
	listing(fx->dir, ls, sizeof(ls));
	assert_string_equal(ls, "target vpmu.data");
}

/* ---- in a child: private tmpfs, write limits ------------------------------ */

#define CHILD_SKIP 77
#define CHECK(c)                                                                     \
	do {                                                                         \
		if (!(c)) {                                                          \
			printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
			fflush(stdout);                                              \
			_exit(1);                                                    \
		}                                                                    \
	} while (0)

static int write_id_map(const char *file, unsigned id)
{
	char buf[64];
	int fd = open(file, O_WRONLY);
	int n = snprintf(buf, sizeof(buf), "0 %u 1\n", id);
	int ok = fd >= 0 && write(fd, buf, (size_t)n) == n;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* In this (child) process, mount a tmpfs of `size` bytes over dir, in a
 * mount namespace of its own.  0, or -1 when the system does not allow it. */
static int private_tmpfs(const char *dir, size_t size)
{
	char opt[64];
	unsigned uid = (unsigned)getuid(), gid = (unsigned)getgid();

	if (unshare(CLONE_NEWNS)) {
		int fd;

		if (unshare(CLONE_NEWUSER | CLONE_NEWNS))
			return -1;
		fd = open("/proc/self/setgroups", O_WRONLY);
		if (fd >= 0) {
			if (write(fd, "deny", 4) != 4)
				return -1;
			close(fd);
		}
		if (write_id_map("/proc/self/uid_map", uid) ||
		    write_id_map("/proc/self/gid_map", gid))
			return -1;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -1;
	snprintf(opt, sizeof(opt), "size=%zu,mode=0700", size);
	return mount("tmpfs", dir, "tmpfs", 0, opt) ? -1 : 0;
}

/* Run fn(fx) in a child; its exit status says pass, fail or skip. */
static void in_child(struct fixture *fx, void (*fn)(struct fixture *), const char *skipmsg)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		fn(fx);
		fflush(stdout);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_SKIP) {
		printf("skipped: %s\n", skipmsg);
		skip();
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("child failed (status %#x)", status);
}

static void ro_dir_child(struct fixture *fx)
{
	char err[256], ls[256];

	if (private_tmpfs(fx->dir, 1 << 20))
		_exit(CHILD_SKIP);
	CHECK(t_write_file(fx->path, PREVIOUS, strlen(PREVIOUS)) == 0);
	CHECK(mount(NULL, fx->dir, NULL, MS_REMOUNT | MS_RDONLY, NULL) == 0);
	CHECK(sfile_create(fx->path, err, sizeof(err)) == NULL);
	printf("message: %s\n", err);
	CHECK(strstr(err, fx->path) && strstr(err, "Read-only file system"));
	CHECK(!strchr(err, '\n'));
	CHECK(holds(fx->path, PREVIOUS));
	listing(fx->dir, ls, sizeof(ls));
	CHECK(!strcmp(ls, "vpmu.data"));
}

static void test_readonly_dir(void **state)
{
	struct fixture *fx = *state;
	char err[256];

	if (geteuid() != 0) {
		/* Permissions stop an ordinary user; root needs a read-only mount. */
		assert_int_equal(t_write_file(fx->path, PREVIOUS, strlen(PREVIOUS)), 0);
		assert_int_equal(chmod(fx->dir, 0555), 0);
		assert_null(sfile_create(fx->path, err, sizeof(err)));
		assert_int_equal(chmod(fx->dir, 0755), 0);
		assert_non_null(strstr(err, "Permission denied"));
		assert_true(holds(fx->path, PREVIOUS));
	}
	in_child(fx, ro_dir_child, "cannot mount a private tmpfs here");
}

/* Disk full half-way: every later call fails alike; the previous file is
 * back at path; nothing else is left. */
static void enospc_child(struct fixture *fx)
{
	char err[256], ls[256];
	struct sfile_writer *w;
	struct sfile_attr a = { 7, 0, 0, 0, 0, 1, SFILE_S_CALLCHAIN, "x", "p4" };
	uint64_t chain[64], x = 88172645463325252ull;
	int rc = 0, k;

	if (private_tmpfs(fx->dir, 96 << 10))
		_exit(CHILD_SKIP);
	CHECK(t_write_file(fx->path, PREVIOUS, strlen(PREVIOUS)) == 0);
	w = sfile_create(fx->path, err, sizeof(err));
	CHECK(w != NULL);
	CHECK(sfile_add_attr(w, &a) == 0);
	/* Incompressible samples (xorshift) until the disk is full. */
	for (k = 0; k < 100000 && rc == 0; k++) {
		struct sfile_sample s = { .id = 7, .ncallchain = 64, .callchain = chain };

		for (int i = 0; i < 64; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			chain[i] = x;
		}
		rc = sfile_add_sample(w, &s);
		if (rc == 0 && k % 20 == 19)
			rc = sfile_flush(w);
	}
	CHECK(rc == -1);
	printf("failed after %d samples: %s\n", k, sfile_werror(w));
	CHECK(strstr(sfile_werror(w), "No space left on device"));
	CHECK(strstr(sfile_werror(w), fx->path));
	CHECK(holds(fx->path, PREVIOUS));
	listing(fx->dir, ls, sizeof(ls));
	CHECK(!strcmp(ls, "vpmu.data"));
	CHECK(sfile_add_lost(w, &(struct sfile_lost){ 7, 1 }) == -1);
	CHECK(sfile_flush(w) == -1);
	CHECK(sfile_close(w, err, sizeof(err)) == -1);
	CHECK(strstr(err, "No space left on device"));
	CHECK(holds(fx->path, PREVIOUS));
}

/* Disk already full: the header cannot be written; nothing is moved. */
static void full_at_create_child(struct fixture *fx)
{
	char err[256], ls[256], filler[600];
	static char junk[4096];
	FILE *f;

	if (private_tmpfs(fx->dir, 64 << 10))
		_exit(CHILD_SKIP);
	CHECK(t_write_file(fx->path, PREVIOUS, strlen(PREVIOUS)) == 0);
	snprintf(filler, sizeof(filler), "%s/filler", fx->dir);
	f = fopen(filler, "wb");
	CHECK(f != NULL);
	setvbuf(f, NULL, _IONBF, 0);
	while (fwrite(junk, 1, sizeof(junk), f) == sizeof(junk))
		;
	fclose(f);
	CHECK(sfile_create(fx->path, err, sizeof(err)) == NULL);
	printf("message: %s\n", err);
	CHECK(strstr(err, "No space left on device") && strstr(err, fx->path));
	CHECK(holds(fx->path, PREVIOUS));
	listing(fx->dir, ls, sizeof(ls));
	CHECK(!strcmp(ls, "filler vpmu.data"));
}

static void test_enospc(void **state)
{
	in_child(*state, enospc_child, "cannot mount a private tmpfs here");
}

static void test_full_at_create(void **state)
{
	in_child(*state, full_at_create_child, "cannot mount a private tmpfs here");
}

/* A write error at every file size (RLIMIT_FSIZE): either the whole file
 * fits, or the previous one is back at path and nothing else remains. */
static void test_write_error_everywhere(void **state)
{
	struct fixture *fx = *state;
	char err[256];
	struct sfile_writer *w = sfile_create(fx->path, err, sizeof(err));
	struct stat sb;
	off_t full;

	assert_non_null(w);
	assert_int_equal(write_n(w, 300, 30), 0);
	assert_int_equal(sfile_close(w, err, sizeof(err)), 0);
	assert_int_equal(stat(fx->path, &sb), 0);
	full = sb.st_size;
	assert_int_equal(unlink(fx->path), 0);
	for (off_t lim = 0; lim <= full + 64; lim += lim < 100 ? 1 : 97) {
		pid_t pid;
		int status;
		char ls[256];

		assert_int_equal(t_write_file(fx->path, PREVIOUS, strlen(PREVIOUS)), 0);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			struct rlimit rl = { (rlim_t)lim, (rlim_t)lim };
			int rc;

			signal(SIGXFSZ, SIG_IGN);
			setrlimit(RLIMIT_FSIZE, &rl);
			w = sfile_create(fx->path, err, sizeof(err));
			if (!w)
				_exit(strstr(err, "File too large") ? 3 : 1);
			rc = write_n(w, 300, 30);
			if (rc && !strstr(sfile_werror(w), "File too large"))
				_exit(1);
			rc = sfile_close(w, err, sizeof(err));
			if (rc && !strstr(err, "File too large"))
				_exit(1);
			_exit(rc ? 3 : 0);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		listing(fx->dir, ls, sizeof(ls));
		if (lim >= full) {
			int fin;
			size_t nd;

			assert_int_equal(WEXITSTATUS(status), 0);
			assert_int_equal(count_records(fx->path, &fin, &nd), 301);
			assert_true(holds(fx->old, PREVIOUS));
			assert_string_equal(ls, "vpmu.data vpmu.data.old");
			assert_int_equal(unlink(fx->old), 0);
		} else {
			if (WEXITSTATUS(status) != 3)
				fail_msg("limit %ld: status %d", (long)lim, WEXITSTATUS(status));
			assert_true(holds(fx->path, PREVIOUS));
			assert_string_equal(ls, "vpmu.data");
		}
	}
}

/* Bad records are refused with a reason; the file stays good. */
static void test_caller_errors(void **state)
{
	struct fixture *fx = *state;
	char err[256], *big = malloc(SFILE_STRING_MAX + 2);
	struct sfile_writer *w = sfile_create(fx->path, err, sizeof(err));
	struct sfile_sample s = { .id = 5 };
	struct sfile_attr a = T_ATTRS[1];
	struct sfile_mmap m = { .path = "/bin/x", .build_id_len = 65, .build_id = T_BUILD_ID };
	struct sfile_comm c = { 1, 1, NULL };
	struct sfile_cmdline cl = { 2, NULL };
	int fin;
	size_t nd;

	assert_non_null(w);
	assert_int_equal(sfile_add_sample(w, &s), -1);
	assert_string_equal(sfile_werror(w), "sample record not written: no attr for event id 5");
	assert_int_equal(sfile_add_attr(w, &a), 0);
	assert_int_equal(sfile_add_attr(w, &a), -1);
	assert_non_null(strstr(sfile_werror(w), "event id 2 is taken"));
	assert_int_equal(sfile_add_mmap(w, &m), -1);
	assert_non_null(strstr(sfile_werror(w), "build-id too long"));
	assert_int_equal(sfile_add_comm(w, &c), -1);
	assert_non_null(strstr(sfile_werror(w), "missing string"));
	assert_int_equal(sfile_add_cmdline(w, &cl), -1);
	assert_non_null(strstr(sfile_werror(w), "array without items"));
	memset(big, 'a', SFILE_STRING_MAX + 1);
	big[SFILE_STRING_MAX + 1] = 0;
	c.name = big;
	assert_int_equal(sfile_add_comm(w, &c), -1);
	assert_non_null(strstr(sfile_werror(w), "string too long"));
	big[SFILE_STRING_MAX] = 0;
	assert_int_equal(sfile_add_comm(w, &c), 0);
	s.id = 2;
	assert_int_equal(sfile_add_sample(w, &s), 0);
	assert_int_equal(sfile_close(w, err, sizeof(err)), 0);
	/* attr, comm, sample, finished */
	assert_int_equal(count_records(fx->path, &fin, &nd), 4);
	assert_true(fin);
	assert_int_equal(nd, 0);
	free(big);
}

static void test_stats(void **state)
{
	struct fixture *fx = *state;
	char err[256];
	struct sfile_writer *w = sfile_create(fx->path, err, sizeof(err));
	struct sfile_wstats st;
	struct stat sb;
	unsigned samples = 0;

	assert_non_null(w);
	sfile_wstats(w, &st);
	assert_int_equal(st.file_bytes, SFILE_HEADER_SIZE);
	assert_int_equal(write_n(w, 3000, 0), 0);
	for (unsigned k = 0; k < 3000; k++) {
		struct sfile_rec r;

		t_record(k, &r);
		samples += r.type == SFILE_SAMPLE;
	}
	assert_int_equal(sfile_flush(w), 0);
	sfile_wstats(w, &st);
	assert_int_equal(stat(fx->path, &sb), 0);
	assert_int_equal(st.file_bytes, sb.st_size);
	assert_int_equal(st.records, 3000);
	assert_int_equal(st.samples, samples);
	assert_true(st.blocks >= 2); /* more than SFILE_BLOCK_SIZE of records */
	assert_true(st.raw_bytes > SFILE_BLOCK_SIZE);
	assert_true(st.raw_bytes > 4 * st.file_bytes); /* repetitive: compresses */
	sfile_set_level(w, 0);
	assert_int_equal(write_lost(w, 100), 0);
	assert_int_equal(sfile_close(w, err, sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_keeps_old, setup, teardown),
		cmocka_unit_test_setup_teardown(test_relative_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_killed_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_abort_restores, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_paths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fifo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_fifo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink, setup, teardown),
		cmocka_unit_test_setup_teardown(test_readonly_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_enospc, setup, teardown),
		cmocka_unit_test_setup_teardown(test_full_at_create, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_error_everywhere, setup, teardown),
		cmocka_unit_test_setup_teardown(test_caller_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stats, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
