/* pmu_sample.c — samples of a guest process to the sample channel. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>

#include "daddr.h"
#include "pmu_mux.h"
#include "pmu_sample.h"
#include "recwire.h"
#include "sfile.h"
#include "unwind.h"

struct pmu_sampler {
	const struct pmu_set *set;
	struct lx_pmu_env *env;
	struct pmu_mux *mux; /* the hardware whose periods change */
	int comm_sent;
	int images_sent;	       /* of env->images */
	uint64_t last[ARCH_MAX_EVSEL]; /* cycle of the event's previous sample */
	uint64_t lost[ARCH_MAX_EVSEL];
	uint64_t rng;	   /* period jitter: xorshift64 state */
	struct unwind *uw; /* call chains (set->callgraph) */
	int nimages;	   /* images the unwinder knows */
	struct unwind_image img[LX_MAX_IMAGES];
};

struct pmu_sampler *pmu_sampler_new(const struct pmu_set *s, struct lx_pmu_env *env)
{
	struct pmu_sampler *ps = calloc(1, sizeof(*ps));

	if (!ps)
		return NULL;
	ps->set = s;
	ps->env = env;
	/* from the seed alone: a rerun gives the same samples (pids differ) */
	ps->rng = (s->seed ^ 0x9e3779b97f4a7c15ull) | 1;
	for (unsigned i = 0; i < s->n; i++) {
		int pre = s->b->sample_pre && s->b->sample_pre(&s->ev[i]);

		/* of the machine's state when a sample is taken, only a call
		 * chain and a record of registers read more than the model
		 * says (the instruction, its cycle, the PMU's record): without
		 * them the emulator may hand the model whole blocks */
		env->keep_pre |= pre;
		env->per_insn |= s->ev[i].period && (pre || s->callgraph != PMU_CG_NONE);
	}
	if (s->callgraph != PMU_CG_NONE) {
		struct unwind_mem mem = { env->read, env->arg };

		ps->uw = unwind_new(&mem);
		if (!ps->uw) {
			free(ps);
			return NULL;
		}
	}
	return ps;
}

void pmu_sampler_bind(struct pmu_sampler *ps, struct pmu_mux *mux)
{
	ps->mux = mux;
}

/* One message, one datagram: 0, or -1 when the channel is gone or full
 * of a dead reader (the sample is lost, the guest goes on). */
static int send_msg(struct pmu_sampler *ps, const void *m, size_t len)
{
	ssize_t w;

	do
		w = send(ps->env->sample_fd, m, len, MSG_NOSIGNAL);
	while (w < 0 && errno == EINTR);
	return w == (ssize_t)len ? 0 : -1;
}

static void send_comm(struct pmu_sampler *ps, int tid)
{
	struct recw_comm c;
	const char *exe = ps->env->exe ? ps->env->exe : "";
	const char *base = strrchr(exe, '/');

	memset(&c, 0, sizeof(c));
	c.h.type = RECW_COMM;
	c.h.len = sizeof(c);
	c.pid = (uint32_t)ps->env->pid;
	c.tid = (uint32_t)tid;
	/* the kernel's name of the process, as ps and perf show it (the path
	 * executed, not the file a link leads to; PR_SET_NAME's), if it has one */
	if (prctl(PR_GET_NAME, c.name, 0, 0, 0) < 0 || !c.name[0])
		strncpy(c.name, base ? base + 1 : exe, sizeof(c.name) - 1);
	if (!send_msg(ps, &c, sizeof(c)))
		ps->comm_sent = 1;
}

/* Images mapped since the last sample, before it. */
static void send_images(struct pmu_sampler *ps)
{
	int n = 0;
	const struct lx_image *im = ps->env->images(ps->env->arg, &n);
	struct recw_mmap m;

	for (; ps->images_sent < n; ps->images_sent++) {
		const struct lx_image *i = &im[ps->images_sent];

		memset(&m, 0, sizeof(m));
		m.h.type = RECW_MMAP;
		m.h.len = sizeof(m);
		m.pid = (uint32_t)ps->env->pid;
		m.start = i->start;
		m.end = i->end;
		m.bias = i->bias;
		memcpy(m.path, i->path,
		       sizeof(m.path) < sizeof(i->path) ? sizeof(m.path) - 1 : sizeof(i->path) - 1);
		if (send_msg(ps, &m, sizeof(m)) < 0)
			break;
	}
}

/* Read the instruction at ip: up to 15 bytes, fewer where its page ends
 * the mapping. */
static size_t read_code(struct pmu_sampler *ps, uint64_t ip, uint8_t *code)
{
	size_t n = 15;

	while (n && ps->env->read(ps->env->arg, code, ip, n) < 0)
		n--;
	return n;
}

/* Frequency mode: choose the next period so that the event, at the rate
 * it ran since its last sample, overflows freq times per emulated
 * second; halfway there per step, as perf's adjustment smooths. */
static void adapt_period(struct pmu_sampler *ps, const struct arch_sample *s)
{
	unsigned i = s->evsel;
	uint64_t dt = s->cycle - ps->last[i], hz = ps->set->freq[i];
	double want, next;

	ps->last[i] = s->cycle;
	if (!dt || !hz || !ps->set->mhz || !ps->mux)
		return;
	want = (double)s->period / (double)dt * (ps->set->mhz * 1e6 / (double)hz);
	next = ((double)s->period + want) / 2;
	if (next < 1)
		next = 1;
	if (next > (double)(1ull << 38))
		next = (double)(1ull << 38);
	pmu_mux_period(ps->mux, i, (uint64_t)next);
}

/* The chain of the sampled thread: from the precise record's registers
 * when there is one, else from the thread's registers as the interrupt
 * finds them. */
static uint16_t callchain(struct pmu_sampler *ps, const struct arch_sample *s,
			  const struct x86_cpu *cpu, uint64_t *chain)
{
	/* the record's order (daddr.h) to emu/x86's */
	static const int order[16] = { X86_RAX, X86_RBX, X86_RCX, X86_RDX, X86_RSI, X86_RDI,
				       X86_RBP, X86_RSP, 8,	  9,	   10,	    11,
				       12,	13,	 14,	  15 };
	struct unwind_regs regs;
	const struct lx_image *im;
	int n = 0;

	im = ps->env->images(ps->env->arg, &n);
	if (n != ps->nimages && n <= LX_MAX_IMAGES) {
		for (int k = 0; k < n; k++)
			ps->img[k] = (struct unwind_image){ im[k].start, im[k].end, im[k].bias,
							    im[k].path };
		if (!unwind_set_images(ps->uw, ps->img, (unsigned)n))
			ps->nimages = n;
	}
	if (s->nregs == DADDR_NREGS)
		for (int k = 0; k < 16; k++)
			regs.r[order[k]] = s->regs[DADDR_RAX + k];
	else
		memcpy(regs.r, cpu->r, sizeof(regs.r));
	regs.rip = s->ip;
	n = ps->set->callgraph == PMU_CG_DWARF ?
		    unwind_dwarf(ps->uw, &regs, chain, RECW_MAX_CHAIN) :
		    unwind_fp(ps->uw, &regs, chain, RECW_MAX_CHAIN);
	return (uint16_t)(n > 0 ? n : 0);
}

/* Fixed period ± a random amount in [-2^(jitter-1), 2^(jitter-1)): the
 * mean stays the period, and a loop whose event count divides the period
 * no longer puts every sample on the same instruction. */
static void jitter_period(struct pmu_sampler *ps, unsigned i)
{
	uint64_t half = 1ull << (ps->set->jitter - 1), p = ps->set->ev[i].period;

	ps->rng ^= ps->rng << 13;
	ps->rng ^= ps->rng >> 7;
	ps->rng ^= ps->rng << 17;
	p = p + (ps->rng & (2 * half - 1)) - half;
	pmu_mux_period(ps->mux, i, p > 0 && p < (1ull << 39) ? p : ps->set->ev[i].period);
}

void pmu_sampler_sample(void *arg, const struct arch_sample *s)
{
	struct pmu_sampler *ps = arg;
	uint64_t buf[RECW_MAX / 8];
	struct recw_sample *m = (struct recw_sample *)buf;
	const struct x86_cpu *cpu;
	int tid;

	if (s->evsel >= ps->set->n)
		return;
	cpu = ps->env->thread(ps->env->arg, &tid);
	if (!ps->comm_sent)
		send_comm(ps, tid);
	send_images(ps);
	memset(m, 0, sizeof(*m));
	m->h.type = RECW_SAMPLE;
	m->evsel = s->evsel;
	m->pid = (uint32_t)ps->env->pid;
	m->tid = (uint32_t)tid;
	m->cpu = s->th;
	m->ip = s->ip;
	m->time = ps->env->clock_base + s->cycle;
	m->period = s->period;
	m->flags = (s->kernel ? RECW_F_KERNEL : 0) | (s->precise ? RECW_F_PRECISE : 0);
	if (s->nregs == DADDR_NREGS) {
		uint8_t code[15];
		size_t n = read_code(ps, s->ip, code);

		m->nregs = s->nregs;
		memcpy(m->regs, s->regs, sizeof(m->regs));
		if (n && !daddr_of(code, n, s->ip, s->regs, cpu->seg_base[X86_SEG_FS],
				   cpu->seg_base[X86_SEG_GS], &m->addr))
			m->flags |= RECW_F_ADDR;
	} else if (s->addr) {
		m->addr = s->addr;
		m->flags |= RECW_F_ADDR;
	}
	if (s->latency) {
		m->weight = s->latency;
		m->flags |= RECW_F_WEIGHT;
	}
	if (s->dsrc) {
		m->dsrc = s->dsrc;
		m->flags |= RECW_F_DSRC;
	}
	if (s->has_trigger) {
		m->trigger_ip = s->trigger_ip;
		m->skid = s->skid;
		m->flags |= RECW_F_TRIGGER;
	}
	if (ps->uw)
		m->nchain = callchain(ps, s, cpu, m->chain);
	m->h.len = (uint16_t)(sizeof(*m) + m->nchain * sizeof(m->chain[0]));
	if (s->raw && s->nraw && s->nraw <= RECW_MAX_RAW) {
		memcpy((uint8_t *)m + m->h.len, s->raw, s->nraw);
		m->nraw = s->nraw;
		m->h.len = (uint16_t)(m->h.len + s->nraw);
	}
	if (s->nbr && s->br) {
		size_t at = RECW_BR_OFFSET(m);
		struct recw_branch *b = (struct recw_branch *)((uint8_t *)m + at);

		m->nbr = s->nbr < RECW_MAX_BR ? s->nbr : RECW_MAX_BR;
		for (unsigned k = 0; k < m->nbr; k++)
			b[k] = (struct recw_branch){ s->br[k].from, s->br[k].to,
						     s->br[k].mispred ? SFILE_BR_MISPRED :
									SFILE_BR_PREDICTED };
		m->h.len = (uint16_t)(at + m->nbr * sizeof(*b));
	}
	if (send_msg(ps, m, m->h.len) < 0)
		ps->lost[s->evsel]++;
	if (ps->set->freq[s->evsel])
		adapt_period(ps, s);
	else if (ps->set->jitter && ps->mux)
		jitter_period(ps, s->evsel);
}

void pmu_sampler_flush(struct pmu_sampler *ps)
{
	struct recw_lost l;

	for (unsigned i = 0; i < ps->set->n; i++)
		if (ps->lost[i]) {
			memset(&l, 0, sizeof(l));
			l.h.type = RECW_LOST;
			l.h.len = sizeof(l);
			l.evsel = i;
			l.count = ps->lost[i];
			if (!send_msg(ps, &l, sizeof(l)))
				ps->lost[i] = 0;
		}
}

void pmu_sampler_free(struct pmu_sampler *ps)
{
	if (ps && ps->uw)
		unwind_free(ps->uw);
	free(ps);
}
