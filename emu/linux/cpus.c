/* cpus.c — the processors the guest sees: the emulated package (CPUID's
 * processor, with its logical processors), not the host's, wherever a
 * program asks how many there are or what they are — /proc/cpuinfo, the
 * files of /sys/devices/system (cpus_sys.c), sched_getaffinity(2) and
 * getcpu(2).  So a program that sizes its thread pool by them (nproc,
 * Python's os.cpu_count(), xz -T0) runs the same on every host.
 *
 * The files are read-only copies made at open (memfds); their text is
 * what Linux prints for such a processor (arch/x86/kernel/cpu/proc.c),
 * with the flags CPUID sets. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "lx_proc.h"

/* The names Linux gives CPUID's feature bits (arch/x86/include/asm/
 * cpufeatures.h), in its order: leaf 1 EDX, leaf 80000001h EDX, leaf 1
 * ECX, leaf 80000001h ECX; NULL for a bit it does not show. */
static const char *const flag_names[4][32] = {
	{ "fpu",  "vme",  "de",	  "pse", "tsc",	 "msr", "pae",	 "mce", "cx8",	   "apic", NULL,
	  "sep",  "mtrr", "pge",  "mca", "cmov", "pat", "pse36", "pn",	"clflush", NULL,   "dts",
	  "acpi", "mmx",  "fxsr", "sse", "sse2", "ss",	"ht",	 "tm",	"ia64",	   "pbe" },
	{ [11] = "syscall",
	  [19] = "mp",
	  [20] = "nx",
	  [22] = "mmxext",
	  [25] = "fxsr_opt",
	  [26] = "pdpe1gb",
	  [27] = "rdtscp",
	  [29] = "lm",
	  [30] = "3dnowext",
	  [31] = "3dnow" },
	{ "pni",    "pclmulqdq", "dtes64", "monitor", "ds_cpl",
	  "vmx",    "smx",	 "est",	   "tm2",     "ssse3",
	  "cid",    "sdbg",	 "fma",	   "cx16",    "xtpr",
	  "pdcm",   NULL,	 "pcid",   "dca",     "sse4_1",
	  "sse4_2", "x2apic",	 "movbe",  "popcnt",  "tsc_deadline_timer",
	  "aes",    "xsave",	 NULL,	   "avx",     "f16c",
	  "rdrand", "hypervisor" },
	{ "lahf_lm", "cmp_legacy", "svm", "extapic", "cr8_legacy", "abm", "sse4a", "misalignsse",
	  "3dnowprefetch" },
};

/* Bytes of text at most in a generated file. */
#define CPUS_TEXT 8192

/* The MHz of the brand string ("... 3.60GHz"), 0 if it names none. */
static unsigned brand_mhz(const char *brand)
{
	const char *g = strstr(brand, "GHz");
	unsigned whole = 0, frac = 0, scale = 1000;
	const char *s = g;

	if (!g)
		return 0;
	while (s > brand && ((s[-1] >= '0' && s[-1] <= '9') || s[-1] == '.'))
		s--;
	for (; *s >= '0' && *s <= '9'; s++)
		whole = whole * 10 + (unsigned)(*s - '0');
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9' && scale > 1; s++)
			frac += (unsigned)(*s - '0') * (scale /= 10);
	return whole * 1000 + frac;
}

/* /proc/cpuinfo for model m, into buf (n bytes): its length, 0 if it does
 * not fit. */
static size_t cpuinfo(const struct x86_model *m, char *buf, size_t n)
{
	uint32_t l0[4], l1[4], e1[4], e8[4], c4[4];
	unsigned mhz = brand_mhz(m->brand), ncpu = m->logical ? m->logical : 1;
	unsigned cache_kb = 0, clflush;
	const char *brand = m->brand;
	size_t len = 0;

	x86_cpuid(m, 0, 0, l0);
	x86_cpuid(m, 1, 0, l1);
	x86_cpuid(m, 0x80000001, 0, e1);
	x86_cpuid(m, 0x80000008, 0, e8);
	/* the last cache level of leaf 4: ways x partitions x line x sets */
	for (uint32_t sub = 0; sub < 8; sub++) {
		x86_cpuid(m, 4, sub, c4);
		if (!(c4[0] & 31))
			break;
		cache_kb = ((c4[1] >> 22) + 1) * ((c4[1] >> 12 & 0x3ff) + 1) *
			   ((c4[1] & 0xfff) + 1) * (c4[2] + 1) / 1024;
	}
	clflush = (l1[1] >> 8 & 0xff) * 8;
	while (*brand == ' ') /* Linux shows the brand string trimmed */
		brand++;
	const uint32_t words[4] = { l1[3], e1[3], l1[2], e1[2] };
#define OUT(...)                                                                  \
	do {                                                                      \
		int w_ = snprintf(buf + len, len < n ? n - len : 0, __VA_ARGS__); \
		len += w_ > 0 ? (size_t)w_ : 0;                                   \
	} while (0)
	for (unsigned cpu = 0; cpu < ncpu; cpu++) {
		OUT("processor\t: %u\nvendor_id\t: %s\ncpu family\t: %u\nmodel\t\t: %u\n", cpu,
		    m->vendor, (l1[0] >> 8 & 15) + (l1[0] >> 20 & 0xff),
		    (l1[0] >> 4 & 15) | (l1[0] >> 12 & 0xf0));
		OUT("model name\t: %s\nstepping\t: %u\ncpu MHz\t\t: %u.000\n", brand, l1[0] & 15,
		    mhz);
		OUT("cache size\t: %u KB\nphysical id\t: 0\nsiblings\t: %u\ncore id\t\t: 0\n",
		    cache_kb, ncpu);
		OUT("cpu cores\t: 1\napicid\t\t: %u\ninitial apicid\t: %u\n", cpu, l1[1] >> 24);
		OUT("fpu\t\t: yes\nfpu_exception\t: yes\ncpuid level\t: %u\nwp\t\t: yes\nflags\t\t:",
		    l0[0]);
		for (int w = 0; w < 4; w++)
			for (int b = 0; b < 32; b++)
				if (words[w] >> b & 1 && flag_names[w][b])
					OUT(" %s", flag_names[w][b]);
		/* BogoMIPS of a TSC-calibrated delay loop: twice the MHz;
		 * NetBurst moves 128-byte chunks (Linux doubles its
		 * cache_alignment over the CLFLUSH size, family 15) */
		OUT("\nbogomips\t: %u.00\nclflush size\t: %u\ncache_alignment\t: %u\n", mhz * 2,
		    clflush, (l1[0] >> 8 & 15) == 15 ? clflush * 2 : clflush);
		OUT("address sizes\t: %u bits physical, %u bits virtual\npower management:\n\n",
		    e8[0] & 0xff, e8[0] >> 8 & 0xff);
	}
#undef OUT
	return len < n ? len : 0;
}

long lx_cpus_file(const struct x86_model *m, const char *path, char *buf, size_t n)
{
	if (!strcmp(path, "/proc/cpuinfo"))
		return (long)cpuinfo(m, buf, n);
	return lx_cpus_sys(m, path, buf, n);
}

int lx_cpus_open(const struct x86_cpu *c, const char *path, long flags, long *fd)
{
	char text[CPUS_TEXT];
	long len;

	len = lx_cpus_file(c->model ? c->model : &x86_model_p4_xeon, path, text, sizeof(text));
	if (len == -ENOENT) { /* not in the emulated package, whatever the host has */
		*fd = len;
		return 1;
	}
	if ((flags & O_ACCMODE) != O_RDONLY || (flags & (O_DIRECTORY | O_CREAT)) || len <= 0)
		return 0;
	*fd = lx_textfile_open("cpus", text, (size_t)len, flags);
	return 1;
}

int lx_cpus_openat(const struct x86_cpu *c, int dirfd, const char *path, long flags, long *fd)
{
	char full[LX_CPUS_PATH];

	if (path[0] == '/')
		return lx_cpus_open(c, path, flags, fd);
	return !lx_cpus_path(dirfd, path, full) && lx_cpus_open(c, full, flags, fd);
}

/* The logical processors, a bit each. */
static uint64_t all_cpus(const struct x86_cpu *c)
{
	const struct x86_model *m = c->model ? c->model : &x86_model_p4_xeon;
	unsigned ncpu = m->logical ? m->logical : 1;

	return ncpu >= 64 ? ~0ull : (1ull << ncpu) - 1;
}

uint64_t lx_cpus_of(const struct lx_proc *p, const struct lx_thread *t)
{
	return t->tid == p->pid && p->slot ? p->slot->cpus : t->cpus;
}

/* Set thread t's (0: all). */
static void set_cpus(struct lx_proc *p, struct lx_thread *t, uint64_t bits)
{
	t->cpus = bits;
	if (t->tid == p->pid && p->slot)
		p->slot->cpus = bits;
}

/* The slot of the run's process pid, NULL if none. */
static struct lx_slot *slot_of(const struct lx_proc *p, long pid)
{
	uint32_t n = p->sh ? (p->sh->next < LX_MAX_SLOTS ? p->sh->next : LX_MAX_SLOTS) : 0;

	while (n--) {
		struct lx_slot *s = &p->sh->slot[n];
		int32_t st = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);
		if (s->pid == pid && (st == LX_SLOT_RUNNING || st == LX_SLOT_EXECED))
			return s;
	}
	return NULL;
}

uint64_t lx_cpus_of_pid(const struct lx_proc *p, long pid, uint64_t all)
{
	const struct lx_slot *s = slot_of(p, pid);

	return s && s->cpus ? s->cpus : all;
}

/* The thread of p whose affinity pid names (0: the caller), NULL if it is
 * not one of p's (*other: the run's process pid's slot, if it is one);
 * -ESRCH in *err if the host knows no such task either. */
static struct lx_thread *affine(struct lx_proc *p, const struct x86_cpu *c, long pid,
				struct lx_slot **other, long *err)
{
	uint64_t scratch[16];

	*err = 0;
	*other = NULL;
	if (!pid)
		return c->os;
	for (int k = 0; k < p->nth; k++)
		if (p->th[k]->tid == pid && p->th[k]->state != LX_T_DEAD)
			return p->th[k];
	/* another process of the run, or the host's: its threads see the
	 * same processors */
	if ((*other = slot_of(p, pid)))
		return NULL;
	*err = lx_host_syscall(204, pid, sizeof(scratch), (long)scratch, 0, 0, 0);
	if (*err > 0)
		*err = 0;
	return NULL;
}

/* The kernel's cpumask is a whole number of longs. */
long lx_cpus_getaffinity(struct lx_proc *p, const struct x86_cpu *c, long pid, uint64_t size,
			 uint64_t mask)
{
	uint64_t bits = all_cpus(c);
	struct lx_slot *other;
	struct lx_thread *t;
	long err;

	if (size < 8 || size & 7)
		return -EINVAL;
	t = affine(p, c, pid, &other, &err);
	if (err)
		return err;
	if (t && lx_cpus_of(p, t))
		bits = lx_cpus_of(p, t);
	if (other && other->cpus)
		bits = other->cpus;
	return lx_copy_out(p, mask, &bits, 8) ? -EFAULT : 8;
}

/* Remembered for sched_getaffinity; where the threads run is the
 * emulator's to say, so nothing moves. */
long lx_cpus_setaffinity(struct lx_proc *p, const struct x86_cpu *c, long pid, uint64_t size,
			 uint64_t mask)
{
	uint64_t bits = 0;
	struct lx_slot *other;
	struct lx_thread *t;
	long err;

	if (size && lx_copy_in(p, &bits, mask, size < 8 ? size : 8))
		return -EFAULT;
	bits &= all_cpus(c);
	if (!bits)
		return -EINVAL;
	t = affine(p, c, pid, &other, &err);
	if (err)
		return err;
	bits = bits == all_cpus(c) ? 0 : bits;
	if (t)
		set_cpus(p, t, bits);
	if (other)
		other->cpus = bits;
	return 0;
}

long lx_cpus_getcpu(struct lx_proc *p, const struct lx_thread *t, uint64_t cpu, uint64_t node)
{
	uint32_t lp = (uint32_t)t->lp, zero = 0;

	if ((cpu && lx_copy_out(p, cpu, &lp, 4)) || (node && lx_copy_out(p, node, &zero, 4)))
		return -EFAULT;
	return 0;
}
