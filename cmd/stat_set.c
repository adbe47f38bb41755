/* stat_set.c — the rows of a `vpmu stat` report and the events behind
 * them: -e's events, or the machine's default set (through its counter
 * hardware when the machine has a backend, its timing model's own counts
 * otherwise, the interpreter's with --no-timing); what each run adds; the
 * derived figures. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/evspec.h"
#include "core/pmu_mux.h"
#include "stat.h"

/* The default set on a machine with counter hardware: perf's default
 * figures, each as a spec the backend counts.  On the p4, instructions,
 * µops and MISPRED_BRANCH_RETIRED all need CRU_ESCR0/1, so the
 * mispredictions are counted by BRANCH_RETIRED (mispredicted, taken or
 * not, retired: the same branches); trace-cache and L2 read misses have
 * no generic name there. */
struct stat_default {
	const char *backend, *name, *spec;
};
static const struct stat_default stat_defaults[] = {
	{ "p4", "cycles", "cycles" },
	{ "p4", "instructions", "instructions" },
	{ "p4", "uops", "uops" },
	{ "p4", "branches", "branches" },
	{ "p4", "branch-misses", "BRANCH_RETIRED:MMNM:MMTM" },
	{ "p4", "L1-dcache-load-misses", "L1-dcache-load-misses" },
	{ "p4", "L1-icache-load-misses", "BPU_FETCH_REQUEST:TCMISS" },
	{ "p4", "LLC-misses", "BSQ_CACHE_REFERENCE:RD_2ndL_MISS:RD_3rdL_MISS" },
	/* ia64: the guest's instructions are IA-32 ones; branch misses are
	 * two exclusive unit masks of BR_MISPRED_DETAIL (wrong path, wrong
	 * target), counted as correct ones subtracted from all in -e */
	{ "ia64", "cycles", "CPU_CYCLES" },
	{ "ia64", "instructions", "IA32_INST_RETIRED" },
	{ "ia64", "branches", "BR_MISPRED_DETAIL:ALL.ALL_PRED" },
	{ "ia64", "L1-dcache-load-misses", "L1D_READ_MISSES:ALL" },
	{ "ia64", "L1-icache-load-misses", "L2_INST_DEMAND_READS" },
	{ "ia64", "LLC-misses", "L3_MISSES" },
	/* the 21264: two counters whose inputs one select field picks (SL1) */
	{ "alpha", "cycles", "cycles" },
	{ "alpha", "instructions", "instructions" },
	{ "alpha", "LLC-misses", "BCACHE_MISS" },
	{ "alpha", "replay-traps", "MBOX_REPLAY" },
	/* the XScale's counters count loads and stores alike */
	{ "xscale", "cycles", "cycles" },
	{ "xscale", "instructions", "instructions" },
	{ "xscale", "branches", "branches" },
	{ "xscale", "branch-misses", "branch-misses" },
	{ "xscale", "L1-dcache-misses", "DCACHE_MISS" },
	{ "xscale", "L1-icache-load-misses", "L1-icache-load-misses" },
	{ "xscale2", "cycles", "cycles" },
	{ "xscale2", "instructions", "instructions" },
	{ "xscale2", "branches", "branches" },
	{ "xscale2", "branch-misses", "branch-misses" },
	{ "xscale2", "L1-dcache-misses", "DCACHE_MISS" },
	{ "xscale2", "L1-icache-load-misses", "L1-icache-load-misses" },
};

/* The default set from the timing model (row name, model event). */
static const char *const stat_model_rows[][2] = {
	{ "cycles", "cycles" },
	{ "instructions", "instructions" },
	{ "uops", "uops" },
	{ "branches", "branches" },
	{ "branch-misses", "branch-misses" },
	{ "L1-dcache-load-misses", "L1-dcache-load-misses" },
	{ "L1-icache-load-misses", "L1-icache-load-misses" },
	{ "LLC-misses", "cache-misses" },
	{ "dTLB-load-misses", "dTLB-load-misses" },
};

static const enum stat_func stat_func_order[] = { STAT_F_INSNS, STAT_F_BRANCHES, STAT_F_TAKEN,
						  STAT_F_LOADS, STAT_F_STORES,	 STAT_F_SYSCALLS };
static const char *func_name(enum stat_func f)
{
	static const char *const n[] = { "instructions", "branches", "taken-branches",
					 "loads",	 "stores",   "syscalls" };
	return n[f];
}

static struct stat_row *add_row(struct stat_report *rep, const char *name, int cpu,
				enum stat_src src)
{
	struct stat_row *w;

	if (rep->nrow >= STAT_MAX_ROWS)
		return NULL;
	w = &rep->row[rep->nrow++];
	memset(w, 0, sizeof(*w));
	snprintf(w->name, sizeof(w->name), "%s", name);
	w->cpu = cpu;
	w->src = src;
	return w;
}

/* Rows cpu0, cpu1 and the combined one, or the combined one alone. */
static void add_rows(struct stat_report *rep, const char *name, enum stat_src src, int i0, int i1,
		     int per_thread, int shared)
{
	struct stat_row *w;

	for (int c = 0; per_thread && c < 2; c++)
		if ((w = add_row(rep, name, c, src))) {
			w->idx[0] = c ? i1 : i0;
			w->nidx = 1;
		}
	/* the core's: the processors' sum, or either's when each counts
	 * both processors' events (shared) */
	if ((w = add_row(rep, name, -1, src))) {
		w->idx[0] = i0;
		w->idx[1] = i1;
		w->nidx = per_thread && src == STAT_PMU && !shared ? 2 : 1;
	}
}

/* Each event group of user[] once per logical processor (thread masks
 * T0, T1) into set, or as it is; at[k][th] is user event k's index in set
 * (of its copy for thread th). */
static int expand(struct pmu_set *set, const struct arch_evsel *user, unsigned n, int per_thread,
		  int (*at)[2], char *err, size_t errsz)
{
	unsigned i = 0;

	while (i < n) {
		unsigned end = i + 1;
		while (end < n && user[end].group == user[i].group)
			end++;
		for (int th = 0; th < (per_thread ? 2 : 1); th++) {
			unsigned base = set->n;
			if (set->n + (end - i) > ARCH_MAX_EVSEL) {
				snprintf(err, errsz, "too many events (at most %d%s)",
					 ARCH_MAX_EVSEL,
					 per_thread ? ", counting each once per logical processor" :
						      "");
				return -1;
			}
			for (unsigned k = i; k < end; k++) {
				struct arch_evsel *e = &set->ev[set->n++];
				*e = user[k];
				e->group = (int)base;
				e->thread = per_thread ? (uint8_t)(1u << th) : 0;
				at[k][th] = (int)(base + k - i);
			}
		}
		i = end;
	}
	return 0;
}

/* An event of -e the machine cannot produce: a <not supported> row
 * printed before user event `before`, as perf prints it in place. */
struct stat_absent {
	unsigned before;
	char name[128], why[256];
};

/* Parse the -e specs item by item (a {group} is one item), so that an
 * event the model cannot produce becomes a row of its own instead of
 * stopping the run.  0, or -1 with the message of a bad spec. */
static int parse_user(const struct arch_backend *b, const struct stat_opts *so,
		      struct arch_evsel *user, unsigned *n, struct stat_absent *absent,
		      unsigned *nabsent, char *err, size_t errsz)
{
	for (unsigned k = 0; k < so->nspecs; k++) {
		const char *p = so->specs[k];

		while (*p) {
			size_t len = (size_t)(evspec_item_end(p) - p);
			char item[sizeof(absent->name)];
			int rc;

			if (len >= sizeof(item)) {
				snprintf(err, errsz, "event spec too long: '%.40s...'", p);
				return -1;
			}
			memcpy(item, p, len);
			item[len] = 0;
			p += len + (p[len] == ',');
			rc = evspec_parse_levels(b, item, so->levels, user, ARCH_MAX_EVSEL, n, err,
						 errsz);
			if (rc == EVSPEC_NOTSUP && *nabsent < ARCH_MAX_EVSEL) {
				struct stat_absent *a = &absent[(*nabsent)++];
				a->before = *n;
				snprintf(a->name, sizeof(a->name), "%s", item);
				snprintf(a->why, sizeof(a->why), "%s", err);
			} else if (rc < 0) {
				return -1;
			}
		}
	}
	return 0;
}

/* -d, -dd, -ddd: perf's detailed events (builtin-stat.c), added after the
 * others but for those counted already; the machine's table may lack
 * some (not supported, as in perf). */
static void add_detailed(const struct arch_backend *b, int level, int levels,
			 struct arch_evsel *user, unsigned *n, struct stat_absent *absent,
			 unsigned *nabsent)
{
	static const char *const detailed[3][6] = {
		{ "L1-dcache-loads", "L1-dcache-load-misses", "LLC-loads", "LLC-load-misses" },
		{ "L1-icache-loads", "L1-icache-load-misses", "dTLB-loads", "dTLB-load-misses",
		  "iTLB-loads", "iTLB-load-misses" },
		{ "L1-dcache-prefetches", "L1-dcache-prefetch-misses" },
	};

	for (int l = 0; l < level; l++)
		for (int k = 0; k < 6 && detailed[l][k]; k++) {
			const char *d = detailed[l][k];
			char why[sizeof(absent->why)];
			unsigned j;
			for (j = 0; j < *n && strcmp(user[j].name, d); j++)
				;
			if (j < *n)
				continue;
			if (evspec_parse_levels(b, d, levels, user, ARCH_MAX_EVSEL, n, why,
						sizeof(why)) < 0 &&
			    *nabsent < ARCH_MAX_EVSEL) {
				struct stat_absent *a = &absent[(*nabsent)++];
				a->before = *n;
				snprintf(a->name, sizeof(a->name), "%s", d);
				snprintf(a->why, sizeof(a->why), "%s", why);
			}
		}
}

int stat_setup(struct stat_report *rep, struct pmu_set *set, const struct stat_opts *so,
	       const struct session_opts *o, char *err, size_t errsz)
{
	static struct arch_evsel user[ARCH_MAX_EVSEL];
	static struct stat_absent absent[ARCH_MAX_EVSEL];
	unsigned nabsent = 0, next = 0;
	int at[ARCH_MAX_EVSEL][2], per = so->per_thread;
	const char *name[ARCH_MAX_EVSEL];
	const struct arch_backend *b = o->timed ? arch_find(o->arch) : NULL;
	unsigned n = 0;
	int g;

	memset(rep, 0, sizeof(*rep));
	memset(set, 0, sizeof(*set));
	rep->arch = o->arch;
	rep->set = o->set;
	rep->argv = o->argv;
	rep->timed = o->timed;
	rep->mhz = o->timed ? session_machine_mhz(o->arch, o->set) : 0;
	rep->exact_runs = rep->mux_groups = 1;
	if (so->null) { /* perf's null run: no rows, the times alone */
		rep->functional_only = !o->timed;
		return o->timed ? session_check_machine(o->arch, o->set, o->smt, err, errsz) : 0;
	}
	if (!o->timed) {
		if (so->nspecs || so->detailed) {
			snprintf(err, errsz,
				 "%s counts the timing model's events: drop --no-timing",
				 so->nspecs ? "-e" : "-d");
			return -1;
		}
		rep->functional_only = 1;
		for (unsigned f = 0; f < sizeof(stat_func_order) / sizeof(stat_func_order[0]); f++)
			add_rows(rep, func_name(stat_func_order[f]), STAT_FUNC,
				 (int)stat_func_order[f], 0, 0, 0);
		return 0;
	}
	if (o->timed && session_check_machine(o->arch, o->set, o->smt, err, errsz) < 0)
		return -1;
	if ((so->nspecs || so->detailed) && !b) {
		snprintf(err, errsz,
			 "machine '%s' has no counter hardware model yet; %s needs -a p4", o->arch,
			 so->nspecs ? "-e" : "-d");
		return -1;
	}
	if (!b) {
		for (unsigned k = 0; k < sizeof(stat_model_rows) / sizeof(stat_model_rows[0]);
		     k++) {
			int ev = session_event_find(stat_model_rows[k][1]);
			add_rows(rep, stat_model_rows[k][0], STAT_MODEL, ev, ev, per, 0);
		}
		add_rows(rep, "syscalls", STAT_FUNC, STAT_F_SYSCALLS, 0, 0, 0);
		return 0;
	}
	set->b = b;
	if (parse_user(b, so, user, &n, absent, &nabsent, err, errsz) < 0)
		return -1;
	if (!so->nspecs) {
		/* what the machine cannot count is shown as not supported */
		for (unsigned k = 0; k < sizeof(stat_defaults) / sizeof(stat_defaults[0]); k++) {
			const struct stat_default *d = &stat_defaults[k];
			char why[256];
			if (strcmp(d->backend, b->name))
				continue;
			if (evspec_parse_levels(b, d->spec, so->levels, user, ARCH_MAX_EVSEL, &n,
						why, sizeof(why)) < 0) {
				struct stat_row *w = add_row(rep, d->name, -1, STAT_UNSUPPORTED);
				if (w)
					snprintf(w->why, sizeof(w->why), "%s", why);
				continue;
			}
			snprintf(user[n - 1].name, sizeof(user[n - 1].name), "%s%s", d->name,
				 so->levels == EVSPEC_USER   ? ":u" :
				 so->levels == EVSPEC_KERNEL ? ":k" :
							       "");
		}
	}
	add_detailed(b, so->detailed, so->levels, user, &n, absent, &nabsent);
	for (unsigned k = 0; k < n; k++)
		name[k] = user[k].name;
	if (expand(set, user, n, per, at, err, errsz) < 0)
		return -1;
	for (unsigned k = 0; k <= n; k++) {
		for (; next < nabsent && absent[next].before == k; next++) {
			struct stat_row *w = add_row(rep, absent[next].name, -1, STAT_UNSUPPORTED);
			if (w)
				snprintf(w->why, sizeof(w->why), "%s", absent[next].why);
		}
		if (k < n)
			add_rows(rep, name[k], STAT_PMU, at[k][0], at[k][1], per,
				 b->shared && b->shared(&user[k]));
	}
	if (!so->nspecs)
		add_rows(rep, "syscalls", STAT_FUNC, STAT_F_SYSCALLS, 0, 0, 0);
	set->mux_cycles = (uint64_t)(so->mux_ms * rep->mhz * 1000.0);
	if (!set->mux_cycles)
		set->mux_cycles = 1;
	g = pmu_mux_plan(set, err, errsz);
	if (g < 0)
		return -1;
	if (so->exact)
		rep->exact_runs = g;
	else
		rep->mux_groups = g;
	rep->mux_cycles = set->mux_cycles;
	return 0;
}

static uint64_t model_of(const struct session_result *r, int k, int cpu)
{
	const uint64_t(*v)[2] = r->ev.v[k];

	if (k < 0 || k >= r->ev.n)
		return 0;
	return cpu < 0 ? v[0][0] + v[0][1] + v[1][0] + v[1][1] : v[cpu][0] + v[cpu][1];
}

static uint64_t func_of(const struct session_result *r, int f)
{
	const struct session_counts *c = &r->cnt;
	const uint64_t v[] = { c->insns, c->branches, c->taken, c->loads, c->stores, c->syscalls };

	return v[f];
}

void stat_add(struct stat_report *rep, const uint64_t *val, const uint64_t (*time)[2],
	      const struct session_result *r, int exact)
{
	/* emulated time: the later processor's cycles, those it waited
	 * halted included */
	int kc = session_event_find("cycles"), kh = session_event_find("halted-cycles");
	uint64_t c0 = model_of(r, kc, 0) + model_of(r, kh, 0),
		 c1 = model_of(r, kc, 1) + model_of(r, kh, 1);

	if (rep->walls)
		rep->walls[rep->runs] = r->seconds;
	rep->runs++;
	rep->wall += r->seconds;
	rep->wallsq += r->seconds * r->seconds;
	rep->insns += (double)r->cnt.insns;
	rep->cycles += (double)(c0 > c1 ? c0 : c1);
	rep->nprocs = r->nprocs;
	rep->nmodel = r->ev.n;
	for (int k = 0; k < r->ev.n; k++)
		for (int c = -1; c < 2; c++)
			rep->model[k][c < 0 ? 2 : c] += (double)model_of(r, k, c);
	for (int i = 0; i < rep->nrow; i++) {
		struct stat_row *w = &rep->row[i];
		double v = 0;
		int counted = 1;

		switch (w->src) {
		case STAT_PMU:
			for (int j = 0; j < w->nidx; j++) {
				int x = w->idx[j];
				uint64_t e = time[x][0], u = time[x][1];
				w->ena += e;
				w->run += u;
				if (e && !u)
					counted = 0;
				else
					v += e ? (double)val[x] * (double)e / (double)u :
						 (double)val[x];
			}
			w->exact = exact;
			break;
		case STAT_MODEL:
			v = (double)model_of(r, w->idx[0], w->cpu);
			break;
		case STAT_FUNC:
			v = (double)func_of(r, w->idx[0]);
			break;
		default:
			counted = 0;
		}
		if (!counted)
			continue;
		if (!w->nrun)
			w->shift = v;
		w->sum += v - w->shift;
		w->sumsq += (v - w->shift) * (v - w->shift);
		w->nrun++;
	}
}

double stat_mean(const struct stat_row *w)
{
	return w->nrun ? w->shift + w->sum / w->nrun : 0;
}

double stat_noise(const struct stat_row *w)
{
	double n = w->nrun, var, mean = stat_mean(w);

	if (w->nrun < 2 || mean == 0)
		return 0;
	var = (w->sumsq - w->sum * w->sum / n) / (n - 1);
	return var > 0 ? 100.0 * sqrt(var / n) / fabs(mean) : 0;
}

const char *stat_absent(const struct stat_row *w)
{
	if (w->src == STAT_UNSUPPORTED)
		return "<not supported>";
	return w->nrun ? NULL : "<not counted>";
}

static const struct stat_row *find_row(const struct stat_report *rep, const char *name, int cpu)
{
	for (int i = 0; i < rep->nrow; i++)
		if (rep->row[i].cpu == cpu && !strcmp(rep->row[i].name, name) &&
		    !stat_absent(&rep->row[i]))
			return &rep->row[i];
	return NULL;
}

/* The model's count of event name per run, for cpu (-1 both). */
static double model_mean(const struct stat_report *rep, const char *name, int cpu)
{
	int k = session_event_find(name);

	return k < 0 || k >= rep->nmodel || !rep->runs ?
		       0 :
		       rep->model[k][cpu < 0 ? 2 : cpu] / rep->runs;
}

int stat_metric(const struct stat_report *rep, const struct stat_row *w, double *val,
		const char **unit)
{
	/* name, unit, base row (or NULL), base model event (or NULL), percent */
	static const struct {
		const char *name, *unit, *row, *model;
		int pct;
	} m[] = {
		{ "instructions", "insn per cycle", "cycles", NULL, 0 },
		{ "uops", "µops per cycle", "cycles", NULL, 0 },
		{ "branch-misses", "of all branches", "branches", NULL, 1 },
		{ "cache-misses", "of all cache refs", "cache-references", NULL, 1 },
		{ "L1-dcache-load-misses", "of all loads", NULL, "loads", 1 },
		{ "L1-icache-load-misses", "of all I-cache lookups", NULL, "L1-icache-loads", 1 },
		{ "LLC-misses", "of all LLC references", NULL, "cache-references", 1 },
		/* perf's, over the loads -d counts beside them */
		{ "LLC-load-misses", "of all LL-cache accesses", "LLC-loads", NULL, 1 },
		{ "dTLB-load-misses", "of all dTLB cache accesses", "dTLB-loads", NULL, 1 },
		{ "iTLB-load-misses", "of all iTLB cache accesses", "iTLB-loads", NULL, 1 },
	};
	double v = stat_mean(w), base = 0;
	/* an event with levels (instructions:u) over its base event with the
	 * same (cycles:u), as perf pairs counts of one context */
	const char *mod = strchr(w->name, ':');
	size_t blen = mod ? (size_t)(mod - w->name) : strlen(w->name);
	char brow[sizeof(w->name) + 32];

	if (stat_absent(w))
		return 0;
	if (rep->functional_only) {
		const struct stat_row *br = find_row(rep, "branches", w->cpu);
		if (!strcmp(w->name, "instructions") && rep->wall > 0) {
			*val = rep->insns / rep->wall / 1e6;
			*unit = "guest MIPS";
			return 1;
		}
		if (!strcmp(w->name, "taken-branches") && br && stat_mean(br) > 0) {
			*val = 100.0 * v / stat_mean(br);
			*unit = "of all branches";
			return 1;
		}
		return 0;
	}
	if (!strcmp(w->name, "cycles") && rep->mhz && v > 0) {
		*val = rep->mhz / 1000.0;
		*unit = "GHz";
		return 1;
	}
	for (size_t k = 0; k < sizeof(m) / sizeof(m[0]); k++) {
		const struct stat_row *b;
		if (strlen(m[k].name) != blen || strncmp(w->name, m[k].name, blen))
			continue;
		snprintf(brow, sizeof(brow), "%s%s", m[k].row ? m[k].row : "", mod ? mod : "");
		if (m[k].row)
			base = (b = find_row(rep, brow, w->cpu)) ? stat_mean(b) : 0;
		else if (!mod) /* (the model's counts are of both levels) */
			base = model_mean(rep, m[k].model, w->cpu);
		if (base <= 0)
			return 0;
		*val = (m[k].pct ? 100.0 : 1.0) * v / base;
		*unit = m[k].unit;
		return 1;
	}
	return 0;
}

void stat_running(const struct stat_report *rep, const struct stat_row *w, uint64_t *run,
		  double *pct)
{
	int n = rep->runs ? rep->runs : 1;

	if (w->ena) {
		*run = w->run / (uint64_t)n;
		*pct = 100.0 * (double)w->run / (double)w->ena;
	} else {
		*run = stat_absent(w) ? 0 : (uint64_t)(rep->cycles / n);
		*pct = stat_absent(w) ? 0 : 100.0;
	}
}
