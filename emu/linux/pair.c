/* pair.c — two programs on the two logical processors of one core
 * (vpmu stat --smt -- A : B).
 *
 * Guest memory is host memory at fixed addresses, so two programs cannot
 * share a host process; each runs in one of its own, as every guest
 * process does, and the two share the model instead.  This process builds
 * the core's model — and attaches the counter hardware — in an arena
 * mapped shared before it forks the two (emu/uarch/mem.h: every pointer
 * of the model means the same in both), then waits for them.  One of them
 * uses the model at a time: before each block, the one whose logical
 * processor's clock is ahead hands the turn to the other, the rule --smt
 * applies to two threads of one process (thread.c), so the interleaving
 * depends on the model's clocks alone, never on the host's.  (The timing
 * hooks look after each block the model has timed, and stop the run once
 * this one is ahead: timing.c.)  The model counts per logical processor
 * into the first program's slot; each process has its own copy of the
 * counter hardware (made before the fork, at the same address), which
 * sees the deliveries of its own instructions, and the two are summed as
 * any two processes' are.
 *
 * A program that forks: the child runs on a core of its own (a new model
 * from cycle 0).  A program that executes another leaves the core.
 */
#define _GNU_SOURCE
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../uarch/model.h"
#include "lx_proc.h"

/* Room for the model: reserved, only touched pages cost memory. */
#define PAIR_ARENA (1ull << 30)
#define PAIR_WAIT_NS 20000000 /* look at the other's state this often while waiting */
/* Looks at the turn before sleeping on it, when the other program can
 * run meanwhile (more than one CPU): a turn usually lasts a block (a
 * microsecond or so), far shorter than going through the kernel to sleep
 * and to be woken. */
#define PAIR_SPIN 4096

/* The two programs' pids, for the forwarding handler (which has no other
 * way to reach them). */
static volatile pid_t pair_pid[2] = { -1, -1 };

static void futex_wait(volatile int32_t *w, int32_t val)
{
	struct timespec ts = { 0, PAIR_WAIT_NS };

	syscall(SYS_futex, w, FUTEX_WAIT, val, &ts, NULL, 0L);
}

static void futex_wake(volatile int32_t *w)
{
	syscall(SYS_futex, w, FUTEX_WAKE, 1, NULL, NULL, 0L);
}

static void give_turn(struct lx_pair *pr, int to)
{
	__atomic_store_n(&pr->turn, to, __ATOMIC_SEQ_CST);
	/* it sets asleep before it looks at the turn a last time (both
	 * sequentially consistent): it sees the turn, or it is woken */
	if (__atomic_load_n(&pr->asleep[to], __ATOMIC_SEQ_CST))
		futex_wake(&pr->turn);
}

void lx_pair_slot(struct lx_proc *p)
{
	uint32_t i = p->pair->slot[p->pair_lp];

	p->slot = i < LX_MAX_SLOTS ? &p->sh->slot[i] : NULL;
	if (p->slot) {
		p->slot->pid = p->pid;
		__atomic_store_n(&p->slot->state, LX_SLOT_RUNNING, __ATOMIC_SEQ_CST);
	}
	for (int k = 0; k < p->nth; k++)
		p->th[k]->cpu.cnt = p->slot ? &p->slot->cnt : &p->own_cnt;
}

int lx_pair_ahead(const struct lx_proc *p)
{
	const struct lx_pair *pr = p->pair;
	int me = p->pair_lp, peer = !me;

	return pr->turn == me && !__atomic_load_n(&pr->done[peer], __ATOMIC_SEQ_CST) &&
	       uarch_now(pr->u, me) > uarch_now(pr->u, peer);
}

void lx_pair_turn(struct lx_proc *p)
{
	struct lx_pair *pr = p->pair;
	int me = p->pair_lp, peer = !me;

	if (!pr)
		return;
	if (p->pair_left) {
		lx_pair_detach(p); /* an execve failed after leaving */
		return;
	}
	if (lx_pair_ahead(p))
		give_turn(pr, peer);
	for (unsigned spin = 0; __atomic_load_n(&pr->turn, __ATOMIC_SEQ_CST) != me; spin++) {
		if (__atomic_load_n(&pr->done[peer], __ATOMIC_SEQ_CST)) {
			__atomic_store_n(&pr->turn, me, __ATOMIC_SEQ_CST);
			break;
		}
		if (spin < pr->spin) {
			__builtin_ia32_pause();
			continue;
		}
		__atomic_store_n(&pr->asleep[me], 1, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&pr->turn, __ATOMIC_SEQ_CST) != me)
			futex_wait(&pr->turn, peer);
		__atomic_store_n(&pr->asleep[me], 0, __ATOMIC_SEQ_CST);
	}
}

void lx_pair_leave(struct lx_proc *p)
{
	struct lx_pair *pr = p->pair;

	if (!pr || p->pair_left || p->pid != p->pair_pid)
		return;
	p->pair_left = 1;
	/* the other runs alone from now on: single-thread mode */
	uarch_set_active(pr->u, 1u << !p->pair_lp);
	__atomic_store_n(&pr->done[p->pair_lp], 1, __ATOMIC_SEQ_CST);
	give_turn(pr, !p->pair_lp);
}

void lx_pair_detach(struct lx_proc *p)
{
	char err[256];

	/* the copy of the counters and the model stay the pair's */
	p->pair = NULL;
	p->pmu = NULL;
	p->uarch = NULL;
	if (lx_timing_init(p, err, sizeof(err)) < 0)
		fprintf(stderr, "vpmu: %s\n", err);
}

static void forward(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	/* the terminal's signals reached both through the process group */
	for (int k = 0; k < 2 && si->si_code <= 0; k++)
		if (pair_pid[k] > 0)
			kill(pair_pid[k], sig);
}

static _Noreturn void die_of(int sig)
{
	struct rlimit no_core = { 0, 0 };
	sigset_t m;

	setrlimit(RLIMIT_CORE, &no_core);
	signal(sig, SIG_DFL);
	sigemptyset(&m);
	sigaddset(&m, sig);
	sigprocmask(SIG_UNBLOCK, &m, NULL);
	kill(getpid(), sig);
	_exit(128 + sig);
}

static __attribute__((noreturn)) void fail(const char *msg)
{
	fprintf(stderr, "vpmu: %s\n", msg);
	_exit(1);
}

/* The core: the model in the arena, counting into a's slot, with the
 * counter hardware attached. */
static void build(struct lx_pair *pr, struct lx_shared *sh, const struct lx_config *a)
{
	static struct lx_pmu_env env; /* outlives the attachment, as attach asks */
	struct uarch_machine m;
	char err[512];

	if (lx_timing_machine(sh, &m, err, sizeof(err)) < 0)
		fail(err);
	pr->u = uarch_new(&m, &sh->slot[pr->slot[0]].ev, a->seed);
	if (!pr->u)
		fail("out of memory for the timing model");
	uarch_set_active(pr->u, 3);
	if (!a->pmu || !sh->pmu_len)
		return;
	/* counting only: without a period nothing asks for a thread's state */
	env = (struct lx_pmu_env){
		.pid = getpid(), .sample_fd = sh->sample_fd, .exe = a->path, .shared = 1
	};
	pr->pmu = a->pmu->attach(pr->u, &env, sh->pmu_cfg, sh->pmu_len, err, sizeof(err));
	if (!pr->pmu)
		fail(err);
}

_Noreturn void lx_main_pair(const struct lx_config *a, const struct lx_config *b)
{
	const struct lx_config *cfg[2] = { a, b };
	static const int fwd[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };
	struct sigaction sa = { 0 }, old[sizeof(fwd) / sizeof(fwd[0])];
	struct lx_shared *sh = lx_shared_map(a->shared_fd);
	struct lx_pair *pr;
	int st[2] = { 0, 0 }, left = 2;
	cpu_set_t cpus;

	if (!sh)
		fail("cannot map the shared count area");
	if (!sh->timed)
		fail("two programs share a core of the timing model: it needs timing");
	pr = mmap(NULL, PAIR_ARENA, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (pr == MAP_FAILED)
		fail("cannot map memory for the shared core");
	pr->arena.size = PAIR_ARENA;
	pr->arena.used = sizeof(*pr);
	pr->spin = sched_getaffinity(0, sizeof(cpus), &cpus) == 0 && CPU_COUNT(&cpus) > 1 ?
			   PAIR_SPIN :
			   0;
	uarch_mem_arena(&pr->arena);
	for (int k = 0; k < 2; k++) {
		pr->slot[k] = __atomic_fetch_add(&sh->next, 1, __ATOMIC_SEQ_CST);
		if (pr->slot[k] >= LX_MAX_SLOTS)
			fail("no slot left in the shared count area");
		memset(&sh->slot[pr->slot[k]], 0, sizeof(sh->slot[0]));
	}
	build(pr, sh, a);

	sa.sa_sigaction = forward;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(fwd) / sizeof(fwd[0]); i++)
		sigaction(fwd[i], &sa, &old[i]);
	fflush(NULL);
	for (int k = 0; k < 2; k++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("vpmu: fork");
			if (k)
				kill(pair_pid[0], SIGKILL);
			_exit(1);
		}
		if (pid == 0) {
			struct lx_config c = *cfg[k];

			c.pair = pr;
			c.pair_lp = k;
			for (size_t i = 0; i < sizeof(fwd) / sizeof(fwd[0]); i++)
				sigaction(fwd[i], &old[i], NULL);
			lx_main(&c);
		}
		pair_pid[k] = pid;
	}
	while (left) {
		int s;
		pid_t w = waitpid(-1, &s, 0);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int k = 0; k < 2; k++) {
			if (w != pair_pid[k])
				continue;
			st[k] = s;
			left--;
			/* ended without leaving (SIGKILL): the other goes on */
			if (!__atomic_exchange_n(&pr->done[k], 1, __ATOMIC_SEQ_CST))
				give_turn(pr, !k);
		}
	}
	for (int k = 0; k < 2; k++) {
		if (WIFSIGNALED(st[k]))
			die_of(WTERMSIG(st[k]));
		if (WIFEXITED(st[k]) && WEXITSTATUS(st[k]))
			_exit(WEXITSTATUS(st[k]));
	}
	_exit(0);
}
