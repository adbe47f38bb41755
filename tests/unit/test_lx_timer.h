/* test_lx_timer.h — the fixture of the emulated-clock timer tests
 * (test_lx_itimer.c, test_lx_timerfd.c) and of test_lx_hold.c: one
 * process under --vtime, its first thread running, whose clock the tests
 * move by hand. */
#ifndef VPMU_TEST_LX_TIMER_H
#define VPMU_TEST_LX_TIMER_H

#include <string.h>

#include "emu/linux/lx_proc.h"

static struct {
	struct lx_config cfg;
	struct lx_proc p;
	struct lx_thread t, t2;
	struct lx_thread *th[2];
	struct x86_counts cnt;
} f;

static int setup(void **state)
{
	(void)state;
	memset(&f, 0, sizeof(f));
	f.cfg.vtime = 1;
	f.p.cfg = &f.cfg;
	f.p.pid = f.t.tid = 1000;
	f.p.th = f.th;
	f.p.nth = 1;
	f.th[0] = &f.t;
	f.t.p = &f.p;
	f.t.cpu.cnt = &f.cnt;
	f.t.cpu.os = &f.t;
	lx_itimer_init(&f.p);
	return 0;
}

static inline void run(uint64_t insns)
{
	f.cnt.insns += insns;
}

#endif
