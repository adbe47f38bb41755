/* cpus_sys.c — the emulated package under /sys/devices/system: the CPU
 * lists, each logical processor's topology and caches, and the NUMA
 * node's CPUs, as Linux writes them (drivers/base/cpu.c, topology.c,
 * cacheinfo.c, node.c), so that lscpu, hwloc and programs that size
 * their blocks by the caches see CPUID's processor: one core, its two
 * logical processors sharing it and its caches (leaf 4).  A processor,
 * cache or node the package does not have is absent (ENOENT), even where
 * the host has one; other files are the host's. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lx_proc.h"

/* The leaf-4 caches looked at at most (the Xeon has two). */
#define SYS_CACHES 8

/* Text into buf (n bytes): its length, 0 if it does not fit. */
static __attribute__((format(printf, 3, 4))) long put(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	int w;

	va_start(ap, fmt);
	w = vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	return w > 0 && (size_t)w < n ? w : 0;
}

/* Logical processors first..last as Linux lists them ("0-1", "0"). */
static long cpu_list(char *buf, size_t n, unsigned first, unsigned last)
{
	return first == last ? put(buf, n, "%u\n", first) : put(buf, n, "%u-%u\n", first, last);
}

/* The same as a mask of nr bits, in hexadecimal digits enough for nr
 * (Linux's "%*pb"; up to 32 processors). */
static long cpu_mask(char *buf, size_t n, unsigned first, unsigned last, unsigned nr)
{
	unsigned bits = (last >= 31 ? ~0u : (1u << (last + 1)) - 1) & ~((1u << first) - 1);

	return put(buf, n, "%0*x\n", (int)(nr + 3) / 4, bits);
}

long lx_cpus_number(const char **s)
{
	long v = 0;

	if (**s < '0' || **s > '9')
		return -1;
	for (; **s >= '0' && **s <= '9' && v < 100000000; ++*s)
		v = v * 10 + (**s - '0');
	return v;
}

/* The files of a processor's topology/: CPU sets (each also as a list,
 * NAME_list), and identifiers. */
static const char *const topo_sets[] = { "thread_siblings", "core_cpus", "core_siblings",
					 "package_cpus",    "die_cpus",	 "cluster_cpus" };
static const char *const topo_ids[] = { "core_id", "physical_package_id", "die_id", "cluster_id" };
#define NSETS (sizeof(topo_sets) / sizeof(topo_sets[0]))
#define NIDS (sizeof(topo_ids) / sizeof(topo_ids[0]))

/* The files of a cache's directory, in cache()'s order. */
enum cache_file {
	CF_LEVEL,
	CF_TYPE,
	CF_SIZE,
	CF_WAYS,
	CF_SETS,
	CF_LINE,
	CF_PARTS,
	CF_ID,
	CF_MAP,
	CF_LIST,
	CF_N
};
static const char *const cache_files[CF_N] = {
	"level",
	"type",
	"size",
	"ways_of_associativity",
	"number_of_sets",
	"coherency_line_size",
	"physical_line_partition",
	"id",
	"shared_cpu_map",
	"shared_cpu_list",
};

/* The files of the CPU and node directories themselves. */
static const char *const dir_files[] = { "online", "possible", "present", "cpumap", "cpulist" };

/* Index of name in names[n], -1 if absent. */
static int among(const char *name, const char *const *names, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (!strcmp(name, names[k]))
			return (int)k;
	return -1;
}

/* Whether name is prefix and a number (cpu1, index0). */
static int numbered(const char *name, const char *prefix)
{
	size_t len = strlen(prefix);

	if (strncmp(name, prefix, len) || !name[len])
		return 0;
	for (name += len; *name; name++)
		if (*name < '0' || *name > '9')
			return 0;
	return 1;
}

int lx_cpus_sys_name(const char *name)
{
	size_t len;

	for (size_t k = 0; k < NSETS; k++) {
		len = strlen(topo_sets[k]);
		if (!strncmp(name, topo_sets[k], len) &&
		    (!name[len] || !strcmp(name + len, "_list")))
			return 1;
	}
	return among(name, topo_ids, NIDS) >= 0 || among(name, cache_files, CF_N) >= 0 ||
	       among(name, dir_files, sizeof(dir_files) / sizeof(dir_files[0])) >= 0 ||
	       numbered(name, "cpu") || numbered(name, "index") || numbered(name, "node");
}

/* The file NAME of directory topology/ of a processor of a package of
 * ncpu logical processors on one core. */
static long topology(const char *name, char *buf, size_t n, unsigned ncpu)
{
	size_t len;

	for (size_t k = 0; k < NSETS; k++) {
		len = strlen(topo_sets[k]);
		if (!strncmp(name, topo_sets[k], len) && !name[len])
			return cpu_mask(buf, n, 0, ncpu - 1, ncpu);
		if (!strncmp(name, topo_sets[k], len) && !strcmp(name + len, "_list"))
			return cpu_list(buf, n, 0, ncpu - 1);
	}
	return among(name, topo_ids, NIDS) >= 0 ? put(buf, n, "0\n") : 0;
}

/* The file NAME of cache/index<idx>/ of processor cpu: leaf 4's
 * sub-leaf idx; -ENOENT past its last cache. */
static long cache(const struct x86_model *m, unsigned cpu, unsigned idx, const char *name,
		  char *buf, size_t n, unsigned ncpu)
{
	static const char *const types[] = { "", "Data", "Instruction", "Unified" };
	uint32_t r[4];
	unsigned ways, parts, line, sets, share, first;

	if (idx >= SYS_CACHES)
		return -ENOENT;
	for (unsigned k = 0; k <= idx; k++) {
		x86_cpuid(m, 4, k, r);
		if (!(r[0] & 31) || (r[0] & 31) > 3)
			return -ENOENT;
	}
	ways = (r[1] >> 22) + 1;
	parts = (r[1] >> 12 & 0x3ff) + 1;
	line = (r[1] & 0xfff) + 1;
	sets = r[2] + 1;
	/* the logical processors sharing it: aligned groups of that many */
	share = (r[0] >> 14 & 0xfff) + 1;
	if (share > ncpu)
		share = ncpu;
	first = cpu / share * share;
	switch (among(name, cache_files, CF_N)) {
	case CF_LEVEL:
		return put(buf, n, "%u\n", r[0] >> 5 & 7);
	case CF_TYPE:
		return put(buf, n, "%s\n", types[r[0] & 3]);
	case CF_SIZE:
		return put(buf, n, "%uK\n", ways * parts * line * sets / 1024);
	case CF_WAYS:
		return put(buf, n, "%u\n", ways);
	case CF_SETS:
		return put(buf, n, "%u\n", sets);
	case CF_LINE:
		return put(buf, n, "%u\n", line);
	case CF_PARTS:
		return put(buf, n, "%u\n", parts);
	case CF_ID: /* the initial APIC ID of its first sharer, shifted */
		return put(buf, n, "%u\n", cpu / share);
	case CF_MAP:
		return cpu_mask(buf, n, first, first + share - 1, ncpu);
	case CF_LIST:
		return cpu_list(buf, n, first, first + share - 1);
	default:
		return 0;
	}
}

/* What follows /sys/devices/system/cpu/cpu<cpu>. */
static long cpu_file(const struct x86_model *m, unsigned cpu, const char *rest, char *buf, size_t n,
		     unsigned ncpu)
{
	long idx;

	if (!strncmp(rest, "/topology/", 10))
		return topology(rest + 10, buf, n, ncpu);
	if (!strncmp(rest, "/cache/index", 12)) {
		rest += 12;
		idx = lx_cpus_number(&rest);
		if (idx < 0 || (*rest && *rest != '/'))
			return 0;
		if (*rest != '/') /* the directory: there or not */
			return cache(m, cpu, (unsigned)idx, "level", buf, n, ncpu) < 0 ? -ENOENT :
											 0;
		return cache(m, cpu, (unsigned)idx, rest + 1, buf, n, ncpu);
	}
	return 0;
}

long lx_cpus_sys(const struct x86_model *m, const char *path, char *buf, size_t n)
{
	static const char cpu_dir[] = "/sys/devices/system/cpu/",
			  node_dir[] = "/sys/devices/system/node/";
	unsigned ncpu = m->logical ? m->logical : 1;
	const char *s;
	long k;

	if (!strncmp(path, cpu_dir, sizeof(cpu_dir) - 1)) {
		s = path + sizeof(cpu_dir) - 1;
		if (!strcmp(s, "online") || !strcmp(s, "possible") || !strcmp(s, "present"))
			return cpu_list(buf, n, 0, ncpu - 1);
		if (strncmp(s, "cpu", 3))
			return 0;
		s += 3;
		if ((k = lx_cpus_number(&s)) < 0 || (*s && *s != '/'))
			return 0; /* (cpufreq, cpuidle) */
		if (k >= ncpu)
			return -ENOENT;
		return cpu_file(m, (unsigned)k, s, buf, n, ncpu);
	}
	if (!strncmp(path, node_dir, sizeof(node_dir) - 1)) {
		s = path + sizeof(node_dir) - 1;
		if (strncmp(s, "node", 4))
			return 0;
		s += 4;
		if ((k = lx_cpus_number(&s)) < 0 || (*s && *s != '/'))
			return 0;
		if (k > 0)
			return -ENOENT;
		if (!strcmp(s, "/cpumap"))
			return cpu_mask(buf, n, 0, ncpu - 1, ncpu);
		if (!strcmp(s, "/cpulist"))
			return cpu_list(buf, n, 0, ncpu - 1);
	}
	return 0;
}
