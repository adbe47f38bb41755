/* session.c — run a guest program like perf runs a workload.
 *
 * The parent creates the shared area of counts, forks, and waits; the
 * child becomes the guest (lx_main never returns: the child exits or dies
 * the way the guest does).  The child keeps the user's stdin, stdout and
 * stderr, so the guest's output is exactly a native run's.  Every guest
 * process (fork, exec) counts into its own slot; the parent sums them.
 */
#define _GNU_SOURCE /* strchrnul, sigabbrev_np */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "emu/linux/linux.h"
#include "emu/linux/lx_limits.h"
#include "emu/uarch/events.h"
#include "emu/uarch/params.h"
#include "emu/x86/x86.h"
#include "evspec.h"
#include "pmu.h"
#include "systrace.h"
#include "session.h"
#include "session_chan.h"
#include "sym.h"

extern char **environ;

/* The guest's pid, for the forwarding handler: the one static this file
 * needs, since a signal handler has no other way to reach it. */
static volatile pid_t session_child = -1;

/* A signal sent to vpmu itself (kill, SI_USER/SI_QUEUE) is passed to the
 * guest, which then decides what happens.  A signal the terminal generated
 * (SI_KERNEL) already reached the guest through the process group, so it
 * is not sent twice.  vpmu itself waits for the guest either way. */
static void forward(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (session_child > 0 && si->si_code <= 0)
		kill(session_child, sig);
}

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

int session_resolve(const char *name, char *out, size_t outsz, char *msg, size_t msgsz)
{
	const char *path, *p;
	int denied = 0;

	if (!*name) {
		snprintf(msg, msgsz, "'': No such file or directory");
		return 127;
	}
	if (strchr(name, '/')) {
		if (snprintf(out, outsz, "%s", name) >= (int)outsz) {
			snprintf(msg, msgsz, "%.64s...: File name too long", name);
			return 126;
		}
		if (access(name, F_OK) != 0) {
			snprintf(msg, msgsz, "%s: %s", name, strerror(errno));
			return errno == ENOENT || errno == ENOTDIR ? 127 : 126;
		}
		if (is_dir(name)) {
			snprintf(msg, msgsz, "%s: Is a directory", name);
			return 126;
		}
		return 0;
	}
	/* execvp(3) semantics: an empty PATH entry is the current directory;
	 * a file found but not executable is remembered in case nothing else
	 * is found. */
	path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path;; p++) {
		const char *e = strchrnul(p, ':');
		int dlen = (int)(e - p);
		char cand[4096];

		int len = snprintf(cand, sizeof(cand), "%.*s%s%s", dlen, p, dlen ? "/" : "", name);

		if (len < (int)sizeof(cand) && !is_dir(cand) && access(cand, F_OK) == 0) {
			if (access(cand, X_OK) == 0) {
				snprintf(out, outsz, "%s", cand);
				return 0;
			}
			if (!denied)
				snprintf(out, outsz, "%s", cand);
			denied = 1;
		}
		if (!*e)
			break;
		p = e;
	}
	if (denied) {
		snprintf(msg, msgsz, "%s: Permission denied", out);
		return 126;
	}
	snprintf(msg, msgsz, "%s: command not found", name);
	return 127;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static struct sym *slot_syms(const struct lx_slot *sl)
{
	struct sym *s = sym_new();
	int n = sl->nimages < LX_MAX_IMAGES ? sl->nimages : LX_MAX_IMAGES;

	for (int i = 0; s && i < n; i++) {
		const struct lx_image *im = &sl->image[i];
		char path[sizeof(im->path) + 1];

		/* The slot is the guest's memory: never trust a terminator. */
		memcpy(path, im->path, sizeof(im->path));
		path[sizeof(im->path)] = 0;
		sym_add_image(s, path, im->start, im->end, im->bias);
	}
	return s;
}

/* "0xADDR (sym+0xoff in path)" for a guest pc. */
static void where(const struct lx_slot *sl, uint64_t pc, char *buf, size_t n)
{
	struct sym *s = slot_syms(sl);
	char desc[512] = "";

	if (s)
		sym_describe(s, pc, desc, sizeof(desc));
	sym_free(s);
	if (desc[0])
		snprintf(buf, n, "0x%" PRIx64 " (%s)", pc, desc);
	else
		snprintf(buf, n, "0x%" PRIx64, pc);
}

static void report_unsupported(const struct lx_slot *sl, FILE *err)
{
	const struct x86_fault *f = &sl->fault;
	unsigned nb = f->nbytes < sizeof(f->bytes) ? f->nbytes : sizeof(f->bytes);
	char loc[700], bytes[16 * 3 + 1] = "", dis[128];

	where(sl, f->pc, loc, sizeof(loc));
	for (unsigned i = 0, at = 0; i < nb; i++)
		at += (unsigned)snprintf(bytes + at, sizeof(bytes) - at, "%s%02x", i ? " " : "",
					 f->bytes[i]);
	if (!nb || x86_format(f->pc, f->bytes, nb, 0, dis, sizeof(dis)) < 0)
		snprintf(dis, sizeof(dis), "(bad)");
	fprintf(err, "vpmu: unsupported instruction at %s: bytes %s: %s\n", loc,
		nb ? bytes : "(none)", dis);
}

static void report_fault(const struct lx_slot *sl, FILE *err)
{
	const struct x86_fault *f = &sl->fault;
	const char *name = sigabbrev_np(f->sig);
	char loc[700];

	where(sl, f->pc, loc, sizeof(loc));
	fprintf(err, "vpmu: guest process %d killed by SIG%s at %s, address 0x%" PRIx64 "\n",
		sl->pid, name ? name : "?", loc, f->addr);
}

static void report_nosys(const struct lx_slot *sl, FILE *err)
{
	int n = sl->nnosys < LX_MAX_NOSYS ? sl->nnosys : LX_MAX_NOSYS;

	for (int i = 0; i < n; i++)
		fprintf(err,
			"vpmu: guest process %d: unknown syscall %u returned ENOSYS (%u time%s)\n",
			sl->pid, sl->nosys[i].nr, sl->nosys[i].count,
			sl->nosys[i].count == 1 ? "" : "s");
}

/* Sum the slots and report what needs a word. */
static void gather(const struct lx_shared *sh, pid_t child, int verbose, struct session_result *r,
		   FILE *err)
{
	struct x86_counts t;
	uint32_t n = sh->next < LX_MAX_SLOTS ? sh->next : LX_MAX_SLOTS;

	lx_shared_total(sh, &t);
	r->cnt.insns = t.insns;
	r->cnt.branches = t.branches;
	r->cnt.taken = t.taken;
	r->cnt.loads = t.loads;
	r->cnt.stores = t.stores;
	r->cnt.syscalls = t.syscalls;
	r->nprocs = 0;
	r->ev.n = sh->timed ? UARCH_NEV : 0;
	for (uint32_t i = 0; i < n && sh->timed; i++)
		for (int e = 0; e < UARCH_NEV; e++)
			for (int t = 0; t < 2; t++)
				for (int k = 0; k < 2; k++)
					r->ev.v[e][t][k] += sh->slot[i].ev.n[e][t][k];
	for (uint32_t i = 0; i < n && sh->pmu_len; i++)
		for (int e = 0; e < LX_MAX_PMU; e++) {
			r->pmu[e] += sh->slot[i].pmu[e];
			r->pmu_time[e][0] += sh->slot[i].pmu_time[e][0];
			r->pmu_time[e][1] += sh->slot[i].pmu_time[e][1];
		}
	for (uint32_t i = 0; i < n; i++) {
		const struct lx_slot *sl = &sh->slot[i];

		switch (sl->state) {
		case LX_SLOT_FREE:
			continue;
		case LX_SLOT_UNSUPPORTED:
			report_unsupported(sl, err);
			if (sl->pid == child)
				r->unsupported = 1;
			break;
		case LX_SLOT_KILLED:
			if (sl->fault.sig)
				report_fault(sl, err);
			break;
		case LX_SLOT_RUNNING:
			/* every way out of the Linux layer updates the slot:
			 * only SIGKILL or a fault of vpmu itself do not */
			if (kill(sl->pid, 0) < 0 && errno == ESRCH)
				fprintf(err,
					"vpmu: guest process %d ended without a word (SIGKILL, or a "
					"failure of vpmu): its counts end at its last block\n",
					sl->pid);
			break;
		default:
			break;
		}
		if (sl->state != LX_SLOT_EXECED)
			r->nprocs++;
		if (verbose)
			report_nosys(sl, err);
	}
	if (sh->next > LX_MAX_SLOTS)
		fprintf(err, "vpmu: %u guest processes, only the first %d were counted\n", sh->next,
			LX_MAX_SLOTS);
}

#define SESSION_GRACE 5.0 /* seconds a stopped guest gets before SIGKILL */
#define SESSION_POLL_NS 2000000

static void nap(void)
{
	struct timespec ts = { 0, SESSION_POLL_NS };

	nanosleep(&ts, NULL);
}

/* SIGKILL every guest process that still runs (a stop request was
 * ignored: stopped by a debugger, or stuck where no signal reaches). */
static void kill_running(struct lx_shared *sh)
{
	int32_t pids[LX_MAX_SLOTS];
	int n = lx_limits_running(sh, pids, LX_MAX_SLOTS);

	for (int i = 0; i < n && i < LX_MAX_SLOTS; i++)
		kill(pids[i], SIGKILL);
}

/* Wait for the guest under limits: stop the run when wall time is up or a
 * guest process reached the instruction limit, then wait for every guest
 * process (not only the child) to end, at most SESSION_GRACE seconds. */
static int wait_limited(const struct session_opts *o, struct lx_shared *sh, pid_t pid, int *st,
			double t0, int rfd)
{
	struct lx_limits *l = lx_limits_of(sh);
	double grace = 0;
	int done = 0;

	for (;;) {
		pid_t w = done ? 0 : waitpid(pid, st, WNOHANG);
		double t = now();

		if (w < 0 && errno != EINTR)
			return -1;
		if (w == pid)
			done = 1;
		if (!grace && (l->stop || (o->timeout > 0 && t - t0 >= o->timeout))) {
			lx_limits_stop(sh, l->stop ? LX_LIMIT_INSNS : LX_LIMIT_WALL);
			grace = t + SESSION_GRACE;
		}
		if (done && (!grace || !lx_limits_running(sh, NULL, 0)))
			return 0;
		if (grace && t >= grace) {
			kill_running(sh);
			if (!done)
				kill(pid, SIGKILL);
			grace = t + 3600; /* once */
		}
		if (rfd >= 0)
			session_chan_drain(rfd, SESSION_POLL_NS / 1000000, o->on_msg, o->rec_arg);
		else
			nap();
	}
}

/* The guest starts with the descriptors an execve would have left it:
 * those vpmu opened for itself are close-on-exec (its output files, the
 * sample channel's read end) and are closed. */
static void close_own_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int fds[64], n;

	if (!d)
		return;
	/* closing while reading the directory would change it: in batches */
	do {
		n = 0;
		rewinddir(d);
		while (n < 64 && (e = readdir(d))) {
			char *end;
			long fd = strtol(e->d_name, &end, 10);
			int fl;

			if (*end || e->d_name[0] == '.' || fd == dirfd(d))
				continue;
			fl = fcntl((int)fd, F_GETFD);
			if (fl >= 0 && (fl & FD_CLOEXEC))
				fds[n++] = (int)fd;
		}
		for (int i = 0; i < n; i++)
			close(fds[i]);
	} while (n == 64);
	closedir(d);
}

static _Noreturn void child_main(const struct session_opts *o, const char *path, const char *path2,
				 int fd, const struct sigaction *old, const struct sigaction *xfsz,
				 const sigset_t *mask)
{
	struct lx_config cfg = {
		.path = path,
		.argv = o->argv,
		.envp = environ,
		.seed = o->seed,
		.verbose = o->verbose,
		.shared_fd = fd,
		.vtime = o->vtime,
		.pmu = &pmu_lx_ops,
		.sys = &systrace_lx_ops,
	};

	close_own_fds();
	if (o->mute) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (null >= 0) {
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
			close(null);
		}
	}
	/* the guest starts with the dispositions and mask vpmu was given */
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaction(forwarded[i], &old[i], NULL);
	sigaction(SIGXFSZ, xfsz, NULL);
	sigprocmask(SIG_SETMASK, mask, NULL);
	if (path2) {
		struct lx_config cfg2 = cfg;

		cfg2.path = path2;
		cfg2.argv = o->argv2;
		lx_main_pair(&cfg, &cfg2);
	}
	lx_main(&cfg);
}

static const char *machine_name(const char *arch);

int session_run(const struct session_opts *o, struct session_result *r, FILE *err)
{
	char path[4096], path2[4096], msg[4352];
	struct sigaction sa = { 0 }, old[sizeof(forwarded) / sizeof(forwarded[0])], xfsz;
	sigset_t oldmask;
	struct lx_shared *sh;
	int fd, st, rc, rfd = -1, wfd = -1;
	pid_t pid;
	double t0;

	memset(r, 0, sizeof(*r));
	rc = session_resolve(o->prog, path, sizeof(path), msg, sizeof(msg));
	if (!rc)
		rc = lx_check_program(path, msg, sizeof(msg));
	if (!rc && o->prog2) {
		rc = session_resolve(o->prog2, path2, sizeof(path2), msg, sizeof(msg));
		if (!rc)
			rc = lx_check_program(path2, msg, sizeof(msg));
	}
	if (rc) {
		fprintf(err, "vpmu: %s\n", msg);
		return rc;
	}
	if ((o->timed || o->smt) &&
	    session_check_machine(o->arch, o->set, o->smt, msg, sizeof(msg)) < 0) {
		fprintf(err, "vpmu: %s\n", msg);
		return 1;
	}
	if (o->prog2 && o->pmu && pmu_check_pair(o->pmu, msg, sizeof(msg)) < 0) {
		fprintf(err, "vpmu: %s\n", msg);
		return 1;
	}
	/* vpmu sizes its shared area and writes its output files: a file-size limit
	 * must become EFBIG, reported as a write error that keeps the old
	 * file, not kill vpmu; the guest gets the disposition vpmu was given. */
	sigaction(SIGXFSZ, &(struct sigaction){ .sa_handler = SIG_IGN }, &xfsz);

	sh = lx_shared_create(&fd);
	if (!sh) {
		fprintf(err, "vpmu: cannot create the shared count area: %s\n", strerror(errno));
		return 1;
	}
	if (o->on_msg) {
		if (session_chan_open(&rfd, &wfd) < 0) {
			fprintf(err, "vpmu: cannot create the sample channel: %s\n",
				strerror(errno));
			close(fd);
			return 1;
		}
		sh->sample_fd = wfd;
	}
	if (o->sys_mask)
		memcpy(sh->sys_mask, o->sys_mask, sizeof(sh->sys_mask));
	sh->sys_callgraph = (uint8_t)o->sys_callgraph;
	sh->sys_max_stack = (uint16_t)o->sys_max_stack;
	sh->timed = o->timed;
	sh->smt = o->smt && !o->prog2; /* two programs: each one processor's */
	snprintf(sh->arch, sizeof(sh->arch), "%s", machine_name(o->arch));
	snprintf(sh->set, sizeof(sh->set), "%s", o->set ? o->set : "");
	if (o->pmu && o->pmu->n) {
		sh->pmu_len = (uint32_t)pmu_pack(o->pmu, sh->pmu_cfg, sizeof(sh->pmu_cfg));
		if (!sh->pmu_len) {
			fprintf(err, "vpmu: too many events\n");
			if (rfd >= 0) {
				close(rfd);
				close(wfd);
			}
			close(fd);
			return 1;
		}
	}
	if (o->timeout > 0 || o->max_insns) {
		lx_limits_of(sh)->owner = getpid();
		lx_limits_of(sh)->max_insns = o->max_insns;
	}

	/* Blocked until the child's pid is known, so none is lost in between. */
	sa.sa_sigaction = forward;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++) {
		sigaction(forwarded[i], &sa, &old[i]);
		sigaddset(&sa.sa_mask, forwarded[i]);
	}
	sigprocmask(SIG_BLOCK, &sa.sa_mask, &oldmask);

	fflush(NULL);
	t0 = now();
	pid = fork();
	if (pid < 0) {
		fprintf(err, "vpmu: fork: %s\n", strerror(errno));
		rc = 1;
		goto out;
	}
	if (pid == 0) {
		if (rfd >= 0)
			close(rfd);
		child_main(o, path, o->prog2 ? path2 : NULL, fd, old, &xfsz, &oldmask);
	}
	session_child = pid;
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	if (wfd >= 0)
		close(wfd); /* the channel ends when every guest process closed it */
	wfd = -1;
	if (lx_limits_of(sh)->owner || rfd >= 0) {
		if (wait_limited(o, sh, pid, &st, t0, rfd) < 0) {
			fprintf(err, "vpmu: waitpid: %s\n", strerror(errno));
			rc = 1;
			goto out;
		}
	} else {
		while (waitpid(pid, &st, 0) < 0) {
			if (errno != EINTR) {
				fprintf(err, "vpmu: waitpid: %s\n", strerror(errno));
				rc = 1;
				goto out;
			}
		}
	}
	r->seconds = now() - t0;
	r->timeout = lx_limits_of(sh)->fired == LX_LIMIT_INSNS ? SESSION_TIMEOUT_INSNS :
		     lx_limits_of(sh)->fired == LX_LIMIT_WALL  ? SESSION_TIMEOUT_WALL :
								 SESSION_RAN;
	if (WIFEXITED(st)) {
		r->exited = 1;
		r->code = WEXITSTATUS(st);
	} else if (WIFSIGNALED(st)) {
		r->sig = WTERMSIG(st);
	}
	if (rfd >= 0)
		session_chan_drain(rfd, 0, o->on_msg, o->rec_arg);
	gather(sh, pid, o->verbose, r, err);
out:
	if (rfd >= 0)
		close(rfd);
	if (wfd >= 0)
		close(wfd);
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	session_child = -1;
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaction(forwarded[i], &old[i], NULL);
	close(fd);
	return rc;
}

_Static_assert(UARCH_NEV <= SESSION_MAX_EVENTS, "session_events too small");

const char *session_event_name(int k)
{
	return uarch_event_name((unsigned)k);
}

int session_event_count(void)
{
	return UARCH_NEV;
}

const char *session_event_desc(int k)
{
	return uarch_event_desc((unsigned)k);
}

int session_event_find(const char *name)
{
	for (int k = 0; k < UARCH_NEV; k++)
		if (!strcmp(uarch_event_name((unsigned)k), name))
			return k;
	return -1;
}

void session_machine_unknown(const char *arch, char *msg, size_t msgsz)
{
	const struct arch_backend *const *all = arch_all();
	struct evspec_match near;
	size_t len;

	evspec_match_init(&near, arch);
	for (size_t i = 0; all[i]; i++)
		evspec_match_try(&near, all[i]->name);
	len = (size_t)snprintf(msg, msgsz, "unknown machine '%s'", arch);
	if (evspec_match_best(&near) && len < msgsz)
		len += (size_t)snprintf(msg + len, msgsz - len, " (did you mean '%s'?)",
					evspec_match_best(&near));
	for (size_t i = 0; all[i] && len < msgsz; i++)
		len += (size_t)snprintf(msg + len, msgsz - len, "%s %s",
					i ? "," : "; the machines are:", all[i]->name);
}

/* The timing model's machine for -a arch: a PMU backend names the machine
 * it is timed as (xscale2 is an xscale); otherwise arch is a machine. */
static const char *machine_name(const char *arch)
{
	const struct arch_backend *b = arch_find(arch ? arch : "p4");

	return b && b->machine ? b->machine : arch ? arch : "p4";
}

static int machine_of(const char *arch, const char *set, struct uarch_machine *m, char *msg,
		      size_t msgsz)
{
	const struct uarch_machine *base = uarch_machine_find(machine_name(arch));

	if (!base) {
		session_machine_unknown(arch, msg, msgsz);
		return -1;
	}
	*m = *base;
	if (set && *set && uarch_params_set(m, set, msg, msgsz) < 0)
		return -1;
	if (strlen(set ? set : "") >= sizeof(((struct lx_shared *)0)->set)) {
		snprintf(msg, msgsz, "--set: the list of overrides is too long");
		return -1;
	}
	return uarch_params_check(m, msg, msgsz);
}

int session_check_machine(const char *arch, const char *set, int smt, char *msg, size_t msgsz)
{
	struct uarch_machine m;

	if (machine_of(arch, set, &m, msg, msgsz) < 0)
		return -1;
	if (smt && m.core.threads < 2) {
		snprintf(msg, msgsz,
			 "--smt: machine '%s' has one logical processor per core (core.threads=%u)",
			 arch ? arch : "p4", m.core.threads);
		return -1;
	}
	return 0;
}

unsigned session_machine_mhz(const char *arch, const char *set)
{
	struct uarch_machine m;
	char msg[256];

	return machine_of(arch, set, &m, msg, sizeof(msg)) < 0 ? 0 : m.core.mhz;
}

const char *session_event_uncounted(const char *arch, const char *set, int k)
{
	struct uarch_machine m;
	char msg[256];

	if (machine_of(arch, set, &m, msg, sizeof(msg)) < 0)
		return NULL;
	return uarch_event_uncounted(&m, (unsigned)k);
}

int session_machine_params(const char *arch, const char *set,
			   void (*fn)(void *arg, const char *key, const char *value), void *arg)
{
	struct uarch_machine m;
	char msg[256];

	if (machine_of(arch, set, &m, msg, sizeof(msg)) < 0)
		return -1;
	uarch_params_each(&m, fn, arg);
	return 0;
}

int session_status(const struct session_result *r)
{
	if (r->timeout)
		return SESSION_TIMEOUT_STATUS;
	if (r->unsupported)
		return 132;
	if (r->sig)
		return 128 + r->sig;
	return r->code;
}

_Noreturn void session_exit(const struct session_result *r)
{
	if (!r->timeout && !r->unsupported && r->sig) {
		struct rlimit no_core = { 0, 0 };
		sigset_t set;

		/* Die of the same signal so the shell says what it would have
		 * said natively; vpmu's own core file would only mislead. */
		fflush(NULL);
		setrlimit(RLIMIT_CORE, &no_core);
		signal(r->sig, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, r->sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(r->sig);
	}
	exit(session_status(r));
}

_Noreturn void session_continue(const struct session_opts *o, int shared_fd)
{
	struct lx_config cfg = {
		.path = o->prog,
		.argv = o->argv,
		.envp = environ,
		.seed = o->seed,
		.verbose = o->verbose,
		.shared_fd = shared_fd,
		.vtime = o->vtime,
		.vtime_base = o->vtime_base,
		.vtime_cpu = o->vtime_cpu,
		.vtime_start = o->vtime_start,
		.vtime_slept = o->vtime_slept,
		.cpus = o->cpus,
		.clock_base = o->clock_base,
		.itimer = { { o->itimer[0][0], o->itimer[0][1] },
			    { o->itimer[1][0], o->itimer[1][1] },
			    { o->itimer[2][0], o->itimer[2][1] } },
		.pmu = &pmu_lx_ops,
		.sys = &systrace_lx_ops,
	};

	if (fcntl(shared_fd, F_GETFD) < 0) {
		fprintf(stderr, "vpmu: __exec: fd %d is not open: %s\n", shared_fd,
			strerror(errno));
		exit(1);
	}
	lx_main(&cfg);
}
