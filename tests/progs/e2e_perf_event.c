/* e2e_perf_event.c — opens counters as perf and counting libraries do,
 * and prints what the kernel answered.  Under vpmu the counter hardware
 * is the emulated machine's: hardware, cache and raw events and
 * breakpoints are not there (ENOENT, as on a virtual machine without a
 * virtual PMU); a software event is the host kernel's. */
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void try(const char *name, unsigned type, unsigned long long config)
{
	struct perf_event_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.disabled = 1;
	a.exclude_kernel = 1;
	if (type == PERF_TYPE_BREAKPOINT) {
		a.bp_type = HW_BREAKPOINT_W;
		a.bp_addr = (unsigned long)&a;
		a.bp_len = HW_BREAKPOINT_LEN_8;
	}
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	printf("%s: %s\n", name, fd < 0 ? strerror(errno) : "opened");
	if (fd >= 0)
		close((int)fd);
}

int main(int argc, char **argv)
{
	try("instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	try("L1-dcache-load-misses", PERF_TYPE_HW_CACHE,
	    PERF_COUNT_HW_CACHE_L1D | PERF_COUNT_HW_CACHE_OP_READ << 8 |
		    PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
	try("r00c0", PERF_TYPE_RAW, 0xc0);
	try("breakpoint", PERF_TYPE_BREAKPOINT, 0);
	try("pmu 8", 8, 0);
	if (argc > 1) /* (whether the host allows it varies) */
		try("task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	(void)argv;
	printf("bad attr: %s\n", syscall(SYS_perf_event_open, (void *)8, 0, -1, -1, 0) < 0 ?
					 strerror(errno) :
					 "opened");
	return 0;
}
