/* Unit tests for emu/linux/cpus.c, cpus_sys.c and cpus_proc.c: the files that
 * describe the processors tell the emulated package (CPUID's), one entry
 * per logical processor, its flags and caches those CPUID sets. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "emu/linux/lx_proc.h"

static size_t text(const struct x86_model *m, const char *path, char *buf, size_t n)
{
	long len = lx_cpus_file(m, path, buf, n);
	assert_true(len >= 0 && (size_t)len < n);
	buf[len] = 0;
	return (size_t)len;
}

/* One entry per logical processor, as Linux prints them for CPUID's
 * processor: the trimmed brand string, family 15 model 4 stepping 3, the
 * MHz it names, the 2 MB L2 of leaf 4, NetBurst's 128-byte alignment. */
static void test_cpuinfo_is_cpuid(void **state)
{
	static char buf[8192];
	const struct x86_model *m = &x86_model_p4_xeon;
	int procs = 0;
	(void)state;
	assert_true(text(m, "/proc/cpuinfo", buf, sizeof(buf)) > 0);
	for (const char *s = buf; (s = strstr(s, "processor\t: ")); s++)
		procs++;
	assert_int_equal(procs, m->logical);
	assert_non_null(strstr(buf, "processor\t: 1\n"));
	assert_non_null(strstr(buf, "\nmodel name\t: Intel(R) Xeon(TM) CPU 3.60GHz\n"));
	assert_non_null(strstr(buf, "\ncpu family\t: 15\nmodel\t\t: 4\n"));
	assert_non_null(strstr(buf, "\nstepping\t: 3\ncpu MHz\t\t: 3600.000\n"));
	assert_non_null(strstr(buf, "\ncache size\t: 2048 KB\n"));
	assert_non_null(strstr(buf, "\nsiblings\t: 2\n"));
	assert_non_null(strstr(buf, "\ncpuid level\t: 5\n"));
	assert_non_null(strstr(buf, "\nclflush size\t: 64\ncache_alignment\t: 128\n"));
	assert_non_null(strstr(buf, "\naddress sizes\t: 36 bits physical, 48 bits virtual\n"));
}

/* The flags are CPUID's, in Linux's order: leaf 1 EDX, then 80000001h
 * EDX, then leaf 1 ECX; nothing CPUID leaves clear (CMPXCHG16B, SSSE3,
 * AVX) and nothing of the host's. */
static void test_flags_are_cpuid(void **state)
{
	static char buf[8192];
	char *f, *end;
	(void)state;
	text(&x86_model_p4_xeon, "/proc/cpuinfo", buf, sizeof(buf));
	f = strstr(buf, "\nflags\t\t: ");
	assert_non_null(f);
	end = strchr(f + 1, '\n');
	assert_non_null(end);
	*end = 0;
	assert_non_null(strstr(f, ": fpu vme de pse tsc "));
	assert_non_null(strstr(f, " sse sse2 ss ht tm pbe syscall nx lm pni monitor "));
	assert_non_null(strstr(f, " cid xtpr"));
	assert_null(strstr(f, " cx16"));
	assert_null(strstr(f, " ssse3"));
	assert_null(strstr(f, " avx"));
	assert_null(strstr(f, " hypervisor"));
}

/* The CPU lists of /sys: the logical processors, 0-1; one alone is "0". */
static void test_cpu_lists(void **state)
{
	char buf[64];
	struct x86_model one = x86_model_p4_xeon;
	(void)state;
	text(&x86_model_p4_xeon, "/sys/devices/system/cpu/online", buf, sizeof(buf));
	assert_string_equal(buf, "0-1\n");
	text(&x86_model_p4_xeon, "/sys/devices/system/cpu/possible", buf, sizeof(buf));
	assert_string_equal(buf, "0-1\n");
	one.logical = 1;
	text(&one, "/sys/devices/system/cpu/present", buf, sizeof(buf));
	assert_string_equal(buf, "0\n");
	/* (too long for the room: none) */
	assert_int_equal(lx_cpus_file(&one, "/proc/cpuinfo", buf, sizeof(buf)), 0);
	assert_int_equal(lx_cpus_file(&one, "/proc/meminfo", buf, sizeof(buf)), 0);
	assert_int_equal(lx_cpus_file(&one, "/sys/devices/system/cpu/online2", buf, sizeof(buf)),
			 0);
}

/* Each logical processor's topology: one core of one package, both
 * processors its threads. */
static void test_sys_topology(void **state)
{
	char buf[64];
	struct x86_model one = x86_model_p4_xeon;
	(void)state;
	text(&x86_model_p4_xeon, "/sys/devices/system/cpu/cpu1/topology/thread_siblings", buf,
	     sizeof(buf));
	assert_string_equal(buf, "3\n");
	text(&x86_model_p4_xeon, "/sys/devices/system/cpu/cpu0/topology/core_siblings_list", buf,
	     sizeof(buf));
	assert_string_equal(buf, "0-1\n");
	text(&x86_model_p4_xeon, "/sys/devices/system/cpu/cpu1/topology/core_id", buf, sizeof(buf));
	assert_string_equal(buf, "0\n");
	text(&x86_model_p4_xeon, "/sys/devices/system/node/node0/cpulist", buf, sizeof(buf));
	assert_string_equal(buf, "0-1\n");
	one.logical = 1;
	text(&one, "/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", buf, sizeof(buf));
	assert_string_equal(buf, "0\n");
	text(&one, "/sys/devices/system/node/node0/cpumap", buf, sizeof(buf));
	assert_string_equal(buf, "1\n");
	/* processors and nodes the package lacks are absent; other files
	 * (and the cpufreq directory) are the host's */
	assert_int_equal(lx_cpus_file(&one, "/sys/devices/system/cpu/cpu1/topology/core_id", buf,
				      sizeof(buf)),
			 -ENOENT);
	assert_int_equal(lx_cpus_file(&one, "/sys/devices/system/cpu/cpu1", buf, sizeof(buf)),
			 -ENOENT);
	assert_int_equal(lx_cpus_file(&one, "/sys/devices/system/node/node1", buf, sizeof(buf)),
			 -ENOENT);
	assert_int_equal(
		lx_cpus_file(&one, "/sys/devices/system/cpu/cpu0/online", buf, sizeof(buf)), 0);
	assert_int_equal(
		lx_cpus_file(&one, "/sys/devices/system/cpu/cpufreq/boost", buf, sizeof(buf)), 0);
	assert_int_equal(lx_cpus_file(&one, "/sys/devices/system/cpu/cpu0x/topology/core_id", buf,
				      sizeof(buf)),
			 0);
}

/* The caches are leaf 4's: a 16 KB 8-way L1 data cache and a 2 MB 8-way
 * L2 of two 64-byte sectors a line, both shared by the two processors;
 * no third (the host's L3 is not the guest's). */
static void test_sys_caches(void **state)
{
	static const struct {
		const char *file, *text;
	} want[] = {
		{ "index0/level", "1\n" },
		{ "index0/type", "Data\n" },
		{ "index0/size", "16K\n" },
		{ "index0/ways_of_associativity", "8\n" },
		{ "index0/number_of_sets", "32\n" },
		{ "index0/coherency_line_size", "64\n" },
		{ "index0/shared_cpu_map", "3\n" },
		{ "index1/level", "2\n" },
		{ "index1/type", "Unified\n" },
		{ "index1/size", "2048K\n" },
		{ "index1/physical_line_partition", "2\n" },
		{ "index1/number_of_sets", "2048\n" },
		{ "index1/shared_cpu_list", "0-1\n" },
		{ "index1/id", "0\n" },
	};
	char path[128], buf[64];
	(void)state;
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu1/cache/%s", want[k].file);
		text(&x86_model_p4_xeon, path, buf, sizeof(buf));
		assert_string_equal(buf, want[k].text);
	}
	assert_int_equal(lx_cpus_file(&x86_model_p4_xeon,
				      "/sys/devices/system/cpu/cpu0/cache/index2/size", buf,
				      sizeof(buf)),
			 -ENOENT);
	assert_int_equal(lx_cpus_file(&x86_model_p4_xeon,
				      "/sys/devices/system/cpu/cpu0/cache/index3", buf,
				      sizeof(buf)),
			 -ENOENT);
	/* the directory of a cache it has is the host's */
	assert_int_equal(lx_cpus_file(&x86_model_p4_xeon,
				      "/sys/devices/system/cpu/cpu0/cache/index1", buf,
				      sizeof(buf)),
			 0);
}

/* The names a relative open is looked at for: the files and the
 * numbered directories, not others. */
static void test_sys_names(void **state)
{
	(void)state;
	assert_true(lx_cpus_sys_name("thread_siblings_list"));
	assert_true(lx_cpus_sys_name("coherency_line_size"));
	assert_true(lx_cpus_sys_name("possible"));
	assert_true(lx_cpus_sys_name("index3"));
	assert_true(lx_cpus_sys_name("cpu12"));
	assert_false(lx_cpus_sys_name("cpufreq"));
	assert_false(lx_cpus_sys_name("core_cpus_lst"));
	assert_false(lx_cpus_sys_name("Makefile"));
}

/* stat(2) and access(2) find no processor, cache or node the package
 * lacks; other paths are the host's to answer. */
static void test_sys_absent(void **state)
{
	static struct x86_cpu c; /* (no model: the Xeon) */
	(void)state;
	assert_true(lx_cpus_absent(&c, AT_FDCWD, "/sys/devices/system/cpu/cpu0/cache/index2"));
	assert_true(lx_cpus_absent(&c, AT_FDCWD, "/sys/devices/system/cpu/cpu7"));
	assert_true(lx_cpus_absent(&c, AT_FDCWD, "/sys/devices/system/node/node1/cpulist"));
	assert_false(lx_cpus_absent(&c, AT_FDCWD, "/sys/devices/system/cpu/cpu0/cache/index1"));
	assert_false(lx_cpus_absent(&c, AT_FDCWD, "/sys/devices/system/cpu/cpu1"));
	assert_false(lx_cpus_absent(&c, AT_FDCWD, "/etc/passwd"));
	assert_false(lx_cpus_absent(&c, AT_FDCWD, "Makefile"));
}

/* A host's /proc/stat with four processors: the aggregate stays, its
 * time is shared among the package's two (adding up to it, field by
 * field), the host's processor lines go, the other lines stay. */
static void test_proc_stat(void **state)
{
	static const char host[] = "cpu  101 0 7 4000 3 0 1 0 0 0\n"
				   "cpu0 25 0 2 1000 1 0 0 0 0 0\n"
				   "cpu1 25 0 2 1000 1 0 1 0 0 0\n"
				   "cpu2 26 0 2 1000 1 0 0 0 0 0\n"
				   "cpu3 25 0 1 1000 0 0 0 0 0 0\n"
				   "intr 9 0 1\nctxt 77\nbtime 1700000000\nprocesses 5\n";
	char buf[512];
	size_t len;
	(void)state;
	len = lx_cpus_proc_stat(host, 2, buf, sizeof(buf));
	assert_true(len > 0 && len < sizeof(buf));
	assert_string_equal(buf, "cpu  101 0 7 4000 3 0 1 0 0 0\n"
				 "cpu0 51 0 4 2000 2 0 1 0 0 0\n"
				 "cpu1 50 0 3 2000 1 0 0 0 0 0\n"
				 "intr 9 0 1\nctxt 77\nbtime 1700000000\nprocesses 5\n");
	/* one processor: all of it; too small a buffer: nothing */
	assert_true(lx_cpus_proc_stat(host, 1, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "\ncpu0 101 0 7 4000 3 0 1 0 0 0\nintr"));
	assert_null(strstr(buf, "cpu1"));
	assert_int_equal(lx_cpus_proc_stat(host, 2, buf, 40), 0);
	assert_int_equal(lx_cpus_proc_stat("intr 0\n", 2, buf, sizeof(buf)), 0);
}

/* A status file tells the set it is given, as a mask of the package's
 * processors and as a list; the other lines are the host's. */
static void test_proc_status(void **state)
{
	static const char host[] = "Name:\tcat\nPid:\t42\n"
				   "Cpus_allowed:\tffffffff,ffffffff\n"
				   "Cpus_allowed_list:\t0-63\n"
				   "Mems_allowed:\t1\nMems_allowed_list:\t0\n";
	char buf[512];
	(void)state;
	assert_true(lx_cpus_proc_status(host, 3, 2, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "Name:\tcat\nPid:\t42\nCpus_allowed:\t3\n"
				 "Cpus_allowed_list:\t0-1\n"
				 "Mems_allowed:\t1\nMems_allowed_list:\t0\n");
	assert_true(lx_cpus_proc_status(host, 2, 2, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "\nCpus_allowed:\t2\nCpus_allowed_list:\t1\n"));
	assert_true(lx_cpus_proc_status(host, 0x2d, 8, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "\nCpus_allowed:\t2d\nCpus_allowed_list:\t0,2-3,5\n"));
	assert_int_equal(lx_cpus_proc_status(host, 3, 2, buf, 30), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpuinfo_is_cpuid), cmocka_unit_test(test_flags_are_cpuid),
		cmocka_unit_test(test_cpu_lists),	 cmocka_unit_test(test_sys_topology),
		cmocka_unit_test(test_sys_caches),	 cmocka_unit_test(test_sys_names),
		cmocka_unit_test(test_sys_absent),	 cmocka_unit_test(test_proc_stat),
		cmocka_unit_test(test_proc_status),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
