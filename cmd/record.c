/* record.c — `vpmu record`: run a program on the emulated machine with
 * sampling events programmed and write what the counter hardware sampled
 * to a sample file (core/sfile.h), perf-record style.
 *
 * Samples are produced inside the guest processes (core/pmu_sample.c) and
 * reach this process through the session's sample channel while the guest
 * runs; the file is written here, flushed as it goes, so a guest that
 * crashes or is killed leaves every sample it sent. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "cmds.h"
#include "core/evspec.h"
#include "core/pmu.h"
#include "core/recwire.h"
#include "core/session.h"
#include "core/sfile.h"
#include "core/sym.h"
#include "opt.h"
#include "record.h"

#define RECORD_FREQ_DEFAULT 4000 /* Hz of emulated time, perf's default */
#define RECORD_FLUSH_SECONDS 1.0 /* a block at least this often while running */

static const char record_usage[] =
	"usage: vpmu record [-q] [-v] [-a MACHINE] [-e EVENTS]... [--all-user | --all-kernel]\n"
	"                   [-c PERIOD | -F FREQ | --calibrate N] [--period-jitter BITS]\n"
	"                   [-g | --call-graph fp|dwarf] [-b | -j FILTERS]\n"
	"                   [-o FILE] [--set KEY=VAL[,KEY=VAL...]] [--smt] [--seed N]\n"
	"                   [--vtime] [--timeout LIMIT] [--] PROGRAM [ARGS...]\n"
	"\n"
	"Run PROGRAM on the emulated machine and sample it with the machine's counter\n"
	"hardware into a sample file (see vpmu report, vpmu script).\n"
	"\n"
	"    -e, --event EVENTS sample these events (default: cycles); the syntax of\n"
	"                       vpmu stat -e; :p or :pp selects the machine's precise\n"
	"                       mechanism (PEBS on p4)\n"
	"        --all-user     every event without :u or :k counts at user level (:u)\n"
	"        --all-kernel   ... at kernel level (:k)\n"
	"    -c, --count PERIOD a sample every PERIOD events\n"
	"        --calibrate N  run PROGRAM first to count each event, then sample it\n"
	"                       with the period that gives N samples (within 1%)\n"
	"    -F, --freq FREQ    about FREQ samples per second of emulated time, the\n"
	"                       period adapting as the run goes (default 4000)\n"
	"        --period-jitter BITS\n"
	"                       vary the period of -c by a random amount below\n"
	"                       2^BITS around it at each sample (deterministic for a\n"
	"                       --seed), so a loop whose event count divides the\n"
	"                       period does not put every sample on one instruction\n"
	"    -g                 record call chains (frame pointers)\n"
	"        --call-graph fp|dwarf\n"
	"                       record call chains by walking frame pointers, or by\n"
	"                       unwinding with the images' DWARF CFI (programs built\n"
	"                       without frame pointers)\n"
	"    -b, --branch-any   record the taken branches before each sample (the\n"
	"                       branch stack; ia64: the branch trace buffer)\n"
	"    -j, --branch-filter FILTERS\n"
	"                       record the branch stack of the branches FILTERS name,\n"
	"                       a comma list of any, any_ret, u and k (perf's names)\n"
	"    -o, --output FILE  write FILE (default vpmu.data; an existing file is\n"
	"                       kept as FILE.old; - is standard output)\n"
	"    -a, --arch MACHINE machine: p4 (default), ia64, xscale, xscale2, alpha\n"
	"                       (alpha: -e profileme[:OPTIONS], ProfileMe instruction\n"
	"                       sampling, see vpmu-pmu(7))\n"
	"        --set KEY=VAL  override machine parameters\n"
	"        --smt          run the guest's threads on the two logical processors\n"
	"        --seed N       seed for AT_RANDOM and other guest randomness (default 0)\n"
	"        --vtime        time system calls report emulated, not host, time\n"
	"        --timeout LIMIT\n"
	"                       stop the program cleanly after LIMIT (wall-clock time\n"
	"                       such as 5s, or emulated instructions such as 1e9insn),\n"
	"                       keep what was sampled, exit with status 124\n"
	"    -q, --quiet        no summary line\n"
	"    -v, --verbose      also print the events as programmed\n"
	"    -h, --help         show this help\n";

struct rec {
	struct sfile_writer *w;
	const struct pmu_set *set;
	struct sym *sym; /* build-ids of the images */
	uint64_t samples[ARCH_MAX_EVSEL], lost[ARCH_MAX_EVSEL];
	uint64_t bad; /* messages that made no sense */
	int failed;
	double flushed;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void writer_failed(struct rec *rc)
{
	if (!rc->failed)
		fprintf(stderr, "vpmu record: %s\n", sfile_werror(rc->w));
	rc->failed = 1;
}

static void put_sample(struct rec *rc, const struct recw_sample *m, size_t len)
{
	struct sfile_sample s = { 0 };
	struct sfile_branch br[RECW_MAX_BR];

	if (len < sizeof(*m) || m->evsel >= rc->set->n || m->nchain > RECW_MAX_CHAIN ||
	    m->nregs > 18 || m->nraw > RECW_MAX_RAW || m->nbr > RECW_MAX_BR ||
	    len != (m->nbr ? RECW_BR_OFFSET(m) + m->nbr * sizeof(struct recw_branch) :
			     sizeof(*m) + m->nchain * sizeof(m->chain[0]) + m->nraw)) {
		rc->bad++;
		return;
	}
	if (m->nbr) {
		const struct recw_branch *b =
			(const struct recw_branch *)((const uint8_t *)m + RECW_BR_OFFSET(m));

		for (unsigned k = 0; k < m->nbr; k++)
			br[k] = (struct sfile_branch){ b[k].from, b[k].to, b[k].flags };
		s.nbranches = m->nbr;
		s.branches = br;
	}
	s.id = m->evsel;
	s.pid = m->pid;
	s.tid = m->tid;
	s.cpu = m->cpu;
	s.ip = m->ip;
	s.time = m->time;
	s.period = m->period;
	s.addr = m->addr;
	s.weight = m->weight;
	s.nregs = m->nregs;
	s.regs = m->regs;
	s.ncallchain = m->nchain;
	s.callchain = m->chain;
	s.profileme_len = m->nraw;
	s.profileme = (const uint8_t *)(m->chain + m->nchain);
	if (m->flags & RECW_F_TRIGGER) {
		s.trigger_ip = m->trigger_ip;
		s.skid = m->skid;
	}
	if (m->flags & RECW_F_DSRC)
		s.dsrc = m->dsrc;
	if (sfile_add_sample(rc->w, &s) < 0)
		writer_failed(rc);
	rc->samples[m->evsel]++;
}

static void put_image(struct rec *rc, int pid, const char *path, uint64_t start, uint64_t end,
		      uint64_t bias)
{
	struct sfile_mmap m = { 0 };
	const uint8_t *id = NULL;

	if (rc->failed)
		return;
	m.pid = (uint32_t)pid;
	m.prot = PROT_READ | PROT_EXEC;
	m.start = start;
	m.len = end - start;
	m.pgoff = 0; /* start is the image's first page: file offset 0 */
	m.path = path;
	if (rc->sym && sym_add_image(rc->sym, path, start, end, bias) == 0) {
		size_t n = sym_build_id(rc->sym, start, &id);

		if (n <= SFILE_BUILD_ID_MAX)
			m.build_id_len = (uint32_t)n;
	}
	m.build_id = id;
	if (sfile_add_mmap(rc->w, &m) < 0)
		writer_failed(rc);
}

static void on_msg(void *arg, const void *msg, size_t len)
{
	struct rec *rc = arg;
	const struct recw_hdr *h = msg;

	if (rc->failed)
		return;
	if (len < sizeof(*h) || h->len != len) {
		rc->bad++;
		return;
	}
	switch (h->type) {
	case RECW_SAMPLE:
		put_sample(rc, msg, len);
		break;
	case RECW_COMM: {
		const struct recw_comm *m = msg;
		struct sfile_comm c = { m->pid, m->tid, m->name };

		if (len != sizeof(*m) || memchr(m->name, 0, sizeof(m->name)) == NULL)
			rc->bad++;
		else if (sfile_add_comm(rc->w, &c) < 0)
			writer_failed(rc);
		break;
	}
	case RECW_MMAP: {
		const struct recw_mmap *m = msg;

		if (len != sizeof(*m) || memchr(m->path, 0, sizeof(m->path)) == NULL ||
		    m->end <= m->start)
			rc->bad++;
		else
			put_image(rc, (int)m->pid, m->path, m->start, m->end, m->bias);
		break;
	}
	case RECW_LOST: {
		const struct recw_lost *m = msg;

		if (len != sizeof(*m) || m->evsel >= rc->set->n)
			rc->bad++;
		else
			rc->lost[m->evsel] += m->count;
		break;
	}
	default:
		rc->bad++;
	}
	if (!rc->failed && now() - rc->flushed >= RECORD_FLUSH_SECONDS) {
		if (sfile_flush(rc->w) < 0)
			writer_failed(rc);
		rc->flushed = now();
	}
}

#define RECORD_MAX_PARAMS 256

struct params {
	struct sfile_param p[RECORD_MAX_PARAMS];
	char key[RECORD_MAX_PARAMS][64], value[RECORD_MAX_PARAMS][192];
	unsigned n;
};

static void put_param(void *arg, const char *key, const char *value)
{
	struct params *pm = arg;

	if (pm->n >= RECORD_MAX_PARAMS)
		return;
	snprintf(pm->key[pm->n], sizeof(pm->key[0]), "%s", key);
	snprintf(pm->value[pm->n], sizeof(pm->value[0]), "%s", value);
	pm->p[pm->n].key = pm->key[pm->n];
	pm->p[pm->n].value = pm->value[pm->n];
	pm->n++;
}

/* Everything known before the run: a killed run still has it. */
static int write_head(struct rec *rc, int argc, char **argv, const struct session_opts *o)
{
	struct sfile_cmdline cl = { (uint32_t)argc, (const char *const *)argv };
	struct params *pm = calloc(1, sizeof(*pm));
	int r = pm ? 0 : -1;

	for (unsigned i = 0; i < rc->set->n && !r; i++) {
		const struct arch_evsel *e = &rc->set->ev[i];
		struct sfile_attr a = { 0 };

		a.id = i;
		a.precise = e->precise;
		a.flags = rc->set->freq[i] ? SFILE_ATTR_FREQ : 0;
		a.config = e->config;
		a.period = rc->set->freq[i] ? rc->set->freq[i] : e->period;
		/* P4 PEBS records hold the registers; the data address is
		 * reconstructed from them and the instruction */
		a.sample_type = e->precise ? SFILE_S_REGS | SFILE_S_ADDR : 0;
		if (rc->set->b->sample_addr && rc->set->b->sample_addr(e))
			a.sample_type = SFILE_S_ADDR | SFILE_S_WEIGHT;
		/* a PEBS sample names the instruction as it retires, a data
		 * EAR latches it, ProfileMe profiles it: the model says where
		 * its loads' data came from */
		if (a.sample_type & (SFILE_S_REGS | SFILE_S_WEIGHT))
			a.sample_type |= SFILE_S_DSRC;
		if (rc->set->callgraph != PMU_CG_NONE)
			a.sample_type |= SFILE_S_CALLCHAIN;
		if (e->branch_sample)
			a.sample_type |= SFILE_S_BRANCHES;
		if (rc->set->b->profileme && rc->set->b->profileme(e))
			a.sample_type |= SFILE_S_PROFILEME | SFILE_S_DSRC;
		if (rc->set->b->sample_trigger && rc->set->b->sample_trigger(e))
			a.sample_type |= SFILE_S_TRIGGER;
		a.name = e->name;
		a.machine = rc->set->b->name;
		r = sfile_add_attr(rc->w, &a);
	}
	if (!r)
		r = sfile_add_cmdline(rc->w, &cl);
	if (!r) {
		struct sfile_machine m = { o->arch, 0, pm->p };

		session_machine_params(o->arch, o->set, put_param, pm);
		m.nparams = pm->n;
		r = sfile_add_machine(rc->w, &m);
	}
	free(pm);
	if (!r)
		r = sfile_flush(rc->w);
	return r;
}

/* TOTALS and LOST: every event ran the whole run (no multiplexing). */
static int write_tail(struct rec *rc, const struct session_result *r)
{
	int cyc = session_event_find("cycles");
	uint64_t cycles = 0;

	for (int t = 0; cyc >= 0 && t < 2; t++)
		cycles += r->ev.v[cyc][t][0] + r->ev.v[cyc][t][1];
	for (unsigned i = 0; i < rc->set->n; i++) {
		struct sfile_totals t = { i, r->pmu[i], cycles, cycles };
		struct sfile_lost l = { i, rc->lost[i] };

		if (sfile_add_totals(rc->w, &t) < 0 || (l.count && sfile_add_lost(rc->w, &l) < 0))
			return -1;
	}
	return 0;
}

static void summary(const char *path, struct sfile_writer *w, const struct rec *rc)
{
	struct sfile_wstats st;
	uint64_t n = 0, lost = 0;

	sfile_wstats(w, &st);
	for (unsigned i = 0; i < rc->set->n; i++) {
		n += rc->samples[i];
		lost += rc->lost[i];
	}
	fprintf(stderr,
		"[ vpmu record: Captured and wrote %.3f MB %s (%llu samples, %.1fx "
		"compressed) ]\n",
		(double)st.file_bytes / (1024 * 1024), path, (unsigned long long)n,
		st.file_bytes ? (double)st.raw_bytes / (double)st.file_bytes : 0.0);
	if (lost)
		fprintf(stderr, "vpmu record: %llu samples lost\n", (unsigned long long)lost);
}

/* -e specs into set, with the period or frequency every event samples at. */
static int build_events(struct pmu_set *set, const char *arch, const char **specs, unsigned n,
			int levels, uint64_t period, uint64_t freq, const char *setstr,
			uint32_t branch)
{
	char err[512];

	set->b = arch_find(arch);
	if (!set->b) {
		fprintf(stderr, "vpmu record: machine '%s' has no counter hardware model yet\n",
			arch);
		return -1;
	}
	for (unsigned k = 0; k < n; k++)
		if (evspec_parse_levels(set->b, specs[k], levels, set->ev, ARCH_MAX_EVSEL, &set->n,
					err, sizeof(err)) < 0) {
			fprintf(stderr, "vpmu record: %s\n", err);
			return -1;
		}
	if (record_set_branches(set, branch) < 0)
		return -1;
	if (set->b->assign(set->ev, set->n, set->ctr, err, sizeof(err)) < 0) {
		fprintf(stderr, "vpmu record: %s\n", err);
		return -1;
	}
	set->mhz = session_machine_mhz(arch, setstr);
	for (unsigned i = 0; i < set->n; i++) {
		int late = set->b->burst_overflows ||
			   (set->b->profileme && set->b->profileme(&set->ev[i]));

		const struct arch_evsel *e = &set->ev[i];
		/* the event's own period= or freq= term comes first */
		uint64_t p = e->term_period ? e->term_period : e->term_freq ? 0 : period;
		uint64_t f = e->term_freq ? e->term_freq : freq;

		set->freq[i] = p ? 0 : (uint32_t)f;
		/* frequency mode starts at a period of 1, as perf's does
		 * (perf_event_alloc()), and adapts from the first sample on:
		 * an event rarer than one a cycle samples from the start.
		 * Where the first samples cannot adapt it in time (counters
		 * overflowing in bursts; ProfileMe's records, which come when
		 * the profiled instruction leaves the pipeline) it starts as
		 * if the event came once a cycle */
		set->ev[i].period = p	     ? p :
				    !late    ? 1 :
				    set->mhz ? set->mhz * 1000000ull / f :
					       100000;
		if (!set->ev[i].period)
			set->ev[i].period = 1;
	}
	return 0;
}

int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "count", required_argument, NULL, 'c' },
		{ "freq", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "arch", required_argument, NULL, 'a' },
		{ "set", required_argument, NULL, 'S' },
		{ "smt", no_argument, NULL, 'T' },
		{ "seed", required_argument, NULL, 's' },
		{ "vtime", no_argument, NULL, 't' },
		{ "timeout", required_argument, NULL, 'L' },
		{ "call-graph", required_argument, NULL, 'G' },
		{ "period-jitter", required_argument, NULL, 'J' },
		{ "calibrate", required_argument, NULL, 'C' },
		{ "branch-any", no_argument, NULL, 'b' },
		{ "branch-filter", required_argument, NULL, 'j' },
		{ "all-user", no_argument, NULL, 'U' },
		{ "all-kernel", no_argument, NULL, 'K' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct session_opts o = { .timed = 1, .arch = "p4" };
	static struct session_result r;
	static struct pmu_set set;
	struct rec rc = { 0 };
	const char *outpath = "vpmu.data", *specs[ARCH_MAX_EVSEL];
	unsigned nspecs = 0;
	uint64_t period = 0, freq = 0, jitter = 0, calibrate = 0;
	int c, quiet = 0, status, callgraph = PMU_CG_NONE, levels = EVSPEC_BOTH;
	uint32_t branch = 0;
	char err[512];

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:e:c:F:o:a:gbj:qvh", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (nspecs < ARCH_MAX_EVSEL)
				specs[nspecs++] = optarg;
			break;
		case 'U':
		case 'K': /* (the last of the two counts) */
			levels = c == 'U' ? EVSPEC_USER : EVSPEC_KERNEL;
			break;
		case 'c':
			if (opt_u64(optarg, &period) || !period || period >= (1ull << 39)) {
				fprintf(stderr,
					"vpmu record: -c wants a period from 1 to 2^39-1, not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'F':
			if (opt_u64(optarg, &freq) || !freq || freq > 100000000) {
				fprintf(stderr,
					"vpmu record: -F wants samples per second from 1 to 1e8, not "
					"'%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'a':
			o.arch = optarg;
			break;
		case 'S':
			o.set = optarg;
			break;
		case 'T':
			o.smt = 1;
			break;
		case 's':
			if (opt_seed("record", optarg, &o))
				return 1;
			break;
		case 't':
			o.vtime = 1;
			break;
		case 'L':
			if (opt_timeout("record", optarg, &o))
				return 1;
			break;
		case 'g':
			callgraph = PMU_CG_FP;
			break;
		case 'G':
			if (!strcmp(optarg, "fp"))
				callgraph = PMU_CG_FP;
			else if (!strcmp(optarg, "dwarf"))
				callgraph = PMU_CG_DWARF;
			else {
				fprintf(stderr,
					"vpmu record: --call-graph wants fp or dwarf, not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'C':
			if (opt_u64(optarg, &calibrate) || !calibrate || calibrate > 100000000) {
				fprintf(stderr,
					"vpmu record: --calibrate wants a sample count from 1 to "
					"100000000, not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'J':
			if (opt_u64(optarg, &jitter) || jitter > 16) {
				fprintf(stderr,
					"vpmu record: --period-jitter wants bits from 0 to 16, not "
					"'%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'b':
			branch |= ARCH_BR_ANY;
			break;
		case 'j': {
			uint32_t v = record_branch_filter(optarg);

			if (!v)
				return 1;
			branch |= v;
			break;
		}
		case 'q':
			quiet = 1;
			break;
		case 'v':
			o.verbose = 1;
			break;
		case 'h':
			fputs(record_usage, stdout);
			return 0;
		case ':':
		default:
			opt_bad("record", c, argv);
			return 1;
		}
	}
	if (optind >= argc) {
		fputs(record_usage, stderr);
		return 1;
	}
	if (jitter && !period && !calibrate) {
		fprintf(stderr, "vpmu record: --period-jitter needs a fixed period (-c or "
				"--calibrate)\n");
		return 1;
	}
	if ((period != 0) + (freq != 0) + (calibrate != 0) > 1) {
		fprintf(stderr, "vpmu record: -c, -F and --calibrate exclude each other\n");
		return 1;
	}
	if (calibrate)
		period = 1; /* until calibrated */
	if (!period && !freq)
		freq = RECORD_FREQ_DEFAULT;
	if (!nspecs)
		specs[nspecs++] = "cycles";
	if (session_check_machine(o.arch, o.set, o.smt, err, sizeof(err)) < 0) {
		fprintf(stderr, "vpmu record: %s\n", err);
		return 1;
	}
	if (build_events(&set, o.arch, specs, nspecs, levels, period, freq, o.set, branch) < 0)
		return 1;
	set.jitter = (uint8_t)jitter;
	set.callgraph = (uint8_t)callgraph;
	set.seed = o.seed;
	o.prog = argv[optind];
	o.argv = &argv[optind];
	if (calibrate) {
		status = record_calibrate(&o, &set, calibrate, quiet);
		if (status)
			return status;
	}
	if (o.verbose)
		for (unsigned i = 0; i < set.n; i++)
			fprintf(stderr, "vpmu record: %s: config %#llx, %s %llu\n", set.ev[i].name,
				(unsigned long long)set.ev[i].config,
				set.freq[i] ? "frequency" : "period",
				(unsigned long long)(set.freq[i] ? set.freq[i] : set.ev[i].period));
	o.pmu = &set;
	o.on_msg = on_msg;
	o.rec_arg = &rc;
	rc.set = &set;
	if (!strcmp(outpath, "-") && isatty(1)) {
		fprintf(stderr, "vpmu record: -o -: standard output is a terminal (pipe it "
				"into vpmu report -i -)\n");
		return 1;
	}
	rc.sym = sym_new();
	rc.w = sfile_create(outpath, err, sizeof(err));
	if (!rc.w) {
		fprintf(stderr, "vpmu record: %s\n", err);
		sym_free(rc.sym);
		return 1;
	}
	if (write_head(&rc, argc, argv, &o) < 0) {
		writer_failed(&rc);
		sfile_abort(rc.w);
		sym_free(rc.sym);
		return 1;
	}
	rc.flushed = now();
	status = session_run(&o, &r, stderr);
	if (status) {
		/* the program never started: nothing worth keeping */
		sfile_abort(rc.w);
		sym_free(rc.sym);
		return status;
	}
	if (!rc.failed && write_tail(&rc, &r) < 0)
		writer_failed(&rc);
	sym_free(rc.sym);
	if (rc.bad)
		fprintf(stderr, "vpmu record: %llu malformed messages from the guest ignored\n",
			(unsigned long long)rc.bad);
	if (!rc.failed && sfile_flush(rc.w) < 0)
		writer_failed(&rc);
	if (!quiet && !rc.failed)
		summary(outpath, rc.w, &rc);
	if (rc.failed) {
		sfile_abort(rc.w);
		return 1;
	}
	if (sfile_close(rc.w, err, sizeof(err)) < 0) {
		fprintf(stderr, "vpmu record: %s\n", err);
		return 1;
	}
	if (r.timeout)
		opt_timeout_note(&o, &r);
	else if (r.sig && !r.unsupported)
		fprintf(stderr, "%s: %s\n", o.prog, strsignal(r.sig));
	session_exit(&r);
}
