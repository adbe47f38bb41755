/* model_syscall.c — the kernel's cost model: a system call runs
 * serialised after everything in flight, in kernel mode, touches its
 * share of kernel lines, costs core.syscall_cycles and moves the data
 * of its I/O (vpmu-model(7), THE KERNEL). */
#include "model_priv.h"

void uarch_syscall(struct uarch *u, int th, long nr, const struct uarch_io *io)
{
	const struct uarch_core_cfg *cc = &u->m.core;
	struct uth *t = &u->th[th];
	struct uarch_req r = { th, 1, 0 };
	uint64_t now = max64(t->fetch, t->retire);

	/* the kernel runs serialised after everything in flight */
	u->sig_th = th;
	if (u->sig && u->sig->n)
		uarch_deliver(u, th, NULL, 0, NULL, 0);
	if (u->sig)
		uarch_sums_out(u);
	uarch_flush_thread(u, th);
	t->kernel = 1;
	count(u, t, th, UARCH_EV_SYSCALLS, 1, now);
	for (unsigned k = 0; k < cc->syscall_lines; k++) {
		int miss;
		uint64_t a = UARCH_KERNEL_BASE + ((uint64_t)(nr & 511) << 12) + (uint64_t)k * 64;
		now = max64(now, uarch_mem_load(&u->ms, &r, a, 8, now, &miss));
	}
	now += cc->syscall_cycles;
	if (io && io->len)
		uarch_mem_io(&u->ms, &r, io->addr, io->len, io->out, now);
	if (now > t->counted) {
		count_span(u, t, th, UARCH_EV_CYCLES, t->counted, now);
		t->counted = now;
	}
	t->retire = now;
	t->fetch = now;
	t->bub_from = now; /* (the kernel's cycles are no in-order core's bubbles) */
	t->fetched = 0;
	t->iline = ~0ull;
	uarch_flush_thread(u, th);
	if (u->sig) {
		uarch_deliver(u, th, NULL, now, NULL, 0);
		uarch_sums_out(u);
	}
	t->kernel = 0;
}
