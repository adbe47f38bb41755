/* report_load.c — read a sample file whole into a struct report: events,
 * metadata, threads' names, and samples resolved as they come (so every
 * sample sees the mappings its process had at that point of the file). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/alpha/profileme.h"
#include "core/report_priv.h"

static int grow(void **p, size_t *cap, size_t need, size_t item)
{
	size_t cap2 = *cap ? *cap : 1024;
	void *q;

	if (need <= *cap)
		return 0;
	while (cap2 < need)
		cap2 *= 2;
	q = realloc(*p, cap2 * item);
	if (!q)
		return -1;
	*p = q;
	*cap = cap2;
	return 0;
}

static int event_of(struct report *r, uint32_t id)
{
	struct report_priv *p = r->priv;

	if (p->lastev < r->nevents && r->events[p->lastev].attr.id == id)
		return (int)p->lastev;
	for (size_t i = 0; i < r->nevents; i++)
		if (r->events[i].attr.id == id) {
			p->lastev = i;
			return (int)i;
		}
	return -1;
}

static int add_attr(struct report *r, const struct sfile_attr *a)
{
	struct report_priv *p = r->priv;
	struct report_event *e;
	int i = event_of(r, a->id);

	if (i < 0) {
		e = realloc(r->events, (r->nevents + 1) * sizeof(*e));
		if (!e)
			return -1;
		r->events = e;
		i = (int)r->nevents++;
		memset(&e[i], 0, sizeof(e[i]));
	}
	/* The newest ATTR of an id describes it, as for the reader. */
	e = &r->events[i];
	e->attr = *a;
	e->attr.name = report_strdup(p, a->name);
	e->attr.machine = report_strdup(p, a->machine);
	return e->attr.name && e->attr.machine ? 0 : -1;
}

static int add_cmdline(struct report *r, const struct sfile_cmdline *c)
{
	char **v = report_alloc(r->priv, (c->argc + 1) * sizeof(*v));

	if (!v)
		return -1;
	for (uint32_t i = 0; i < c->argc; i++)
		if (!(v[i] = report_strdup(r->priv, c->argv[i])))
			return -1;
	v[c->argc] = NULL;
	r->argv = v;
	r->argc = c->argc;
	return 0;
}

static int add_machine(struct report *r, const struct sfile_machine *m)
{
	struct sfile_param *pa = report_alloc(r->priv, (m->nparams + 1) * sizeof(*pa));

	if (!pa || !(r->machine = report_strdup(r->priv, m->name)))
		return -1;
	for (uint32_t i = 0; i < m->nparams; i++) {
		pa[i].key = report_strdup(r->priv, m->params[i].key);
		pa[i].value = report_strdup(r->priv, m->params[i].value);
		if (!pa[i].key || !pa[i].value)
			return -1;
	}
	r->params = pa;
	r->nparams = m->nparams;
	return 0;
}

static int add_comm(struct report *r, const struct sfile_comm *c)
{
	char *name = report_strdup(r->priv, c->name);

	return name ? report_map_put(&r->priv->comms, c->tid, 0, name) : -1;
}

static int add_sample(struct report *r, const struct sfile_sample *in)
{
	struct report_priv *p = r->priv;
	struct report_sample *s;
	int ev = event_of(r, in->id);
	char pidname[16];

	if (ev < 0) {
		r->unknown_event_samples++;
		return 0;
	}
	if (grow((void **)&r->samples, &p->samplecap, r->nsamples + 1, sizeof(*s)))
		return -1;
	s = &r->samples[r->nsamples];
	memset(s, 0, sizeof(*s));
	s->ev = (uint32_t)ev;
	s->pid = in->pid;
	s->tid = in->tid;
	s->cpu = in->cpu;
	s->ip = in->ip;
	s->time = in->time;
	s->period = in->period;
	s->comm = report_map_get(&p->comms, in->tid, 0);
	if (!s->comm)
		s->comm = report_map_get(&p->comms, in->pid, 0);
	if (!s->comm) {
		/* perf names a thread it never saw a COMM for by its tid */
		snprintf(pidname, sizeof(pidname), ":%" PRIu32, in->tid);
		s->comm = report_strdup(p, pidname);
		if (!s->comm || report_map_put(&p->comms, in->tid, 0, (void *)s->comm))
			return -1;
	}
	if (!(s->loc = report_resolve(p, in->pid, in->ip, REPORT_RES_CODE)))
		return -1;
	if (in->fields & SFILE_S_WEIGHT)
		s->weight = in->weight;
	if (in->fields & SFILE_S_DSRC)
		s->dsrc = in->dsrc;
	if ((in->fields & SFILE_S_TRIGGER) && in->trigger_ip) {
		s->has_trigger = 1;
		s->trigger_ip = in->trigger_ip;
		s->skid = in->skid;
	}
	if ((in->fields & SFILE_S_ADDR) && !(p->flags & REPORT_NO_DATA)) {
		s->addr = in->addr;
		if (!(s->dloc = report_resolve(p, in->pid, in->addr, REPORT_RES_DATA)))
			return -1;
	}
	if ((in->fields & SFILE_S_CALLCHAIN) && in->ncallchain && !(p->flags & REPORT_NO_CHAINS)) {
		size_t base = p->chainused;

		if (grow((void **)&r->chains, &p->chaincap, base + in->ncallchain,
			 sizeof(*r->chains)))
			return -1;
		/* entry 0 is the sampled instruction, the rest return addresses */
		for (uint32_t k = 0; k < in->ncallchain; k++)
			if (!(r->chains[base + k] =
				      report_resolve(p, in->pid, in->callchain[k],
						     k ? REPORT_RES_RET : REPORT_RES_CODE)))
				return -1;
		s->chain = base;
		s->nchain = in->ncallchain;
		p->chainused = base + in->ncallchain;
	}
	if ((in->fields & SFILE_S_REGS) && in->nregs && (p->flags & REPORT_REGS)) {
		size_t base = p->regused;

		if (grow((void **)&r->regs, &p->regcap, base + in->nregs, sizeof(*r->regs)))
			return -1;
		memcpy(r->regs + base, in->regs, in->nregs * sizeof(*r->regs));
		s->regs = base;
		s->nregs = in->nregs;
		p->regused = base + in->nregs;
	}
	if ((in->fields & SFILE_S_PROFILEME) && in->profileme_len) {
		struct alpha_pm_rec pm;

		if (!alpha_pm_decode(in->profileme, in->profileme_len, &pm)) {
			s->pm_state = pm.flags & ALPHA_PMF_ABORTED ? REPORT_PM_ABORTED :
								     REPORT_PM_RETIRED;
			/* its latency: fetch to retirement (or to being killed) */
			if (!(in->fields & SFILE_S_WEIGHT) && pm.retire >= pm.fetch)
				s->weight = pm.retire - pm.fetch;
		}
	}
	if ((in->fields & SFILE_S_PROFILEME) && in->profileme_len &&
	    (p->flags & REPORT_PROFILEME)) {
		size_t base = p->pmused;

		if (grow((void **)&r->pm, &p->pmcap, base + in->profileme_len, 1))
			return -1;
		memcpy(r->pm + base, in->profileme, in->profileme_len);
		s->pm = base;
		s->npm = in->profileme_len;
		p->pmused = base + in->profileme_len;
	}
	if ((in->fields & SFILE_S_BRANCHES) && in->nbranches) {
		size_t base = p->brused;

		if (grow((void **)&r->branches, &p->brcap, base + in->nbranches,
			 sizeof(*r->branches)))
			return -1;
		for (uint32_t k = 0; k < in->nbranches; k++) {
			struct report_branch *b = &r->branches[base + k];

			b->flags = in->branches[k].flags;
			b->to = NULL;
			if (!(b->from = report_resolve(p, in->pid, in->branches[k].from, 0)) ||
			    (in->branches[k].to &&
			     !(b->to = report_resolve(p, in->pid, in->branches[k].to, 0))))
				return -1;
		}
		s->br = base;
		s->nbr = in->nbranches;
		p->brused = base + in->nbranches;
	}
	r->events[ev].nsamples++;
	r->events[ev].period += in->period;
	r->nsamples++;
	return 0;
}

/* A record beside the samples, kept for REPORT_SIDE. */
static int add_side(struct report *r, const struct sfile_rec *rec)
{
	struct report_side *s;
	const char *t = rec->type == SFILE_MMAP ? rec->mmap.path : rec->comm.name;

	if (grow((void **)&r->side, &r->priv->sidecap, r->nside + 1, sizeof(*s)))
		return -1;
	s = &r->side[r->nside];
	memset(s, 0, sizeof(*s));
	s->type = rec->type;
	s->before = r->nsamples;
	if (rec->type == SFILE_MMAP) {
		s->pid = s->tid = rec->mmap.pid;
		s->start = rec->mmap.start;
		s->len = rec->mmap.len;
		s->pgoff = rec->mmap.pgoff;
		s->prot = rec->mmap.prot;
	} else {
		s->pid = rec->comm.pid;
		s->tid = rec->comm.tid;
	}
	if (!(s->text = report_strdup(r->priv, t ? t : "")))
		return -1;
	r->nside++;
	return 0;
}

static int add_record(struct report *r, const struct sfile_rec *rec)
{
	int ev;

	if ((r->priv->flags & REPORT_SIDE) &&
	    (rec->type == SFILE_MMAP || rec->type == SFILE_COMM) && add_side(r, rec))
		return -1;

	switch (rec->type) {
	case SFILE_ATTR:
		return add_attr(r, &rec->attr);
	case SFILE_CMDLINE:
		return add_cmdline(r, &rec->cmdline);
	case SFILE_MACHINE:
		return add_machine(r, &rec->machine);
	case SFILE_MMAP:
		return report_add_mmap(r->priv, &rec->mmap);
	case SFILE_COMM:
		return add_comm(r, &rec->comm);
	case SFILE_SAMPLE:
		return add_sample(r, &rec->sample);
	case SFILE_TOTALS:
		ev = event_of(r, rec->totals.id);
		if (ev >= 0) {
			r->events[ev].totals = rec->totals;
			r->events[ev].have_totals = 1;
		}
		return 0;
	case SFILE_LOST:
		ev = event_of(r, rec->lost.id);
		if (ev >= 0)
			r->events[ev].lost += rec->lost.count;
		return 0;
	default:
		return 0;
	}
}

struct report *report_open(const char *path, unsigned flags, char *err, size_t errsz)
{
	struct sfile_reader *rd = sfile_open(path, err, errsz);
	struct report *r;
	struct sfile_rec rec;
	const struct sfile_damage *d;
	int rc;

	if (!rd)
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r || !(r->priv = calloc(1, sizeof(*r->priv)))) {
		free(r);
		sfile_rclose(rd);
		snprintf(err, errsz, "out of memory");
		return NULL;
	}
	r->priv->flags = flags;
	r->path = report_strdup(r->priv, path);
	while ((rc = sfile_next(rd, &rec)) > 0) {
		if (add_record(r, &rec)) {
			snprintf(err, errsz, "%s: out of memory", path);
			rc = -2;
			break;
		}
	}
	if (rc == -1)
		snprintf(err, errsz, "%s", sfile_rerror(rd));
	if (rc < 0 || !r->path) {
		sfile_rclose(rd);
		report_close(r);
		return NULL;
	}
	r->finished = sfile_finished(rd);
	sfile_rstats(rd, &r->stats);
	d = sfile_damage(rd, &r->ndamage);
	if (r->ndamage)
		r->first_damage = *d;
	sfile_rclose(rd);
	return r;
}

void report_close(struct report *r)
{
	if (!r)
		return;
	free(r->events);
	free(r->samples);
	free(r->chains);
	free(r->regs);
	free(r->pm);
	free(r->branches);
	free(r->side);
	if (r->priv)
		report_spaces_free(r->priv);
	free(r->priv);
	free(r);
}

const char *report_comm(const struct report *r, uint32_t tid)
{
	return report_map_get(&r->priv->comms, tid, 0);
}

const char *report_loc_dso(const struct report_loc *l)
{
	return l->dso ? l->dso : "[unknown]";
}

const char *report_loc_sym(const struct report_loc *l, char *buf, size_t n)
{
	if (l->sym)
		return l->sym;
	/* as perf: an address in an image is the image's own (what objdump
	 * shows), one in no image the runtime address */
	snprintf(buf, n, "0x%016" PRIx64, l->dso ? l->file_addr : l->addr);
	return buf;
}

const char *report_damage_str(const struct report *r, char *buf, size_t n)
{
	char one[160];

	if (!r->ndamage && !r->stats.bad_records)
		return NULL;
	snprintf(buf, n,
		 "warning: %s is damaged: %" PRIu64 " bytes skipped (%" PRIu64 " blocks, %" PRIu64
		 " bad records), first at %s",
		 r->path, r->stats.damaged_bytes, r->stats.damaged_blocks, r->stats.bad_records,
		 r->ndamage ? sfile_damage_str(&r->first_damage, one, sizeof(one)) : "?");
	return buf;
}

int report_event_find(const struct report *r, const char *name)
{
	for (size_t i = 0; i < r->nevents; i++)
		if (!strcmp(r->events[i].attr.name, name))
			return (int)i;
	return -1;
}

double report_clock_ghz(const struct report *r)
{
	for (size_t i = 0; i < r->nparams; i++)
		if (!strcmp(r->params[i].key, "core.mhz") || !strcmp(r->params[i].key, "mhz"))
			return strtod(r->params[i].value, NULL) / 1000.0;
	return 0;
}

void report_max_stack(struct report *r, uint32_t max)
{
	for (size_t i = 0; i < r->nsamples; i++)
		if (r->samples[i].nchain > max)
			r->samples[i].nchain = max;
}
