/* systrace.c — the tracer in each guest process, and its messages read
 * back. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "emu/linux/linux.h"
#include "systrace.h"
#include "unwind.h"

_Static_assert(LX_SYS_MAX == SYSTAB_MAX, "one mask of system calls");
_Static_assert(sizeof(struct recw_syscall) + RECW_MAX_CHAIN * 8 + 2 * (RECW_MAX_STR + 1) <=
		       RECW_MAX,
	       "a call with its chain and two strings fits");

/* What the tracer keeps in a guest process that wants call chains: the
 * process it was made in or last sent images from (a forked child sends
 * them all again, as its own), the images sent, and the unwinder with
 * the images it knows. */
struct systrace_state {
	int pid;
	int sent;
	struct unwind *uw;
	int known;
	struct unwind_image img[LX_MAX_IMAGES];
};

void systrace_state_free(void *state)
{
	struct systrace_state *st = state;

	if (st)
		unwind_free(st->uw);
	free(st);
}

static int send_all(int fd, const void *m, size_t len)
{
	ssize_t w;

	do
		w = send(fd, m, len, MSG_NOSIGNAL);
	while (w < 0 && errno == EINTR);
	return w == (ssize_t)len ? 0 : -1;
}

/* The images mapped since the last call, before it: the reader needs
 * them to name the chain's addresses. */
static void send_images(int fd, const struct lx_sys_event *e, struct systrace_state *st)
{
	struct recw_mmap m;

	for (; st->sent < e->nimages; st->sent++) {
		const struct lx_image *i = &e->images[st->sent];

		memset(&m, 0, sizeof(m));
		m.h.type = RECW_MMAP;
		m.h.len = sizeof(m);
		m.pid = (uint32_t)e->pid;
		m.flags = st->sent ? 0 : RECW_MMAP_FIRST;
		m.start = i->start;
		m.end = i->end;
		m.bias = i->bias;
		_Static_assert(sizeof(m.path) == sizeof(i->path), "one path size");
		memcpy(m.path, i->path, sizeof(m.path) - 1);
		if (send_all(fd, &m, sizeof(m)) < 0)
			break;
	}
}

/* e's call chain into chain (at most e->max_stack entries): their
 * number, 0 when there is none. */
static unsigned call_chain(int fd, const struct lx_sys_event *e, uint64_t *chain)
{
	struct systrace_state *st = *e->state;
	struct unwind_regs regs;
	unsigned max = e->max_stack && e->max_stack < RECW_MAX_CHAIN ? e->max_stack :
								       RECW_MAX_CHAIN;
	int n;

	if (!st) {
		struct unwind_mem mem = { e->mem, e->arg };
		if (!(st = calloc(1, sizeof(*st))) || !(st->uw = unwind_new(&mem))) {
			free(st);
			return 0;
		}
		st->pid = e->pid;
		*e->state = st;
	}
	if (st->pid != e->pid) {
		st->pid = e->pid;
		st->sent = 0;
	}
	send_images(fd, e, st);
	if (e->nimages != st->known) {
		for (int k = 0; k < e->nimages; k++)
			st->img[k] = (struct unwind_image){ e->images[k].start, e->images[k].end,
							    e->images[k].bias, e->images[k].path };
		if (!unwind_set_images(st->uw, st->img, (unsigned)e->nimages))
			st->known = e->nimages;
	}
	memcpy(regs.r, e->regs, sizeof(regs.r));
	regs.rip = e->ip;
	n = e->callgraph == LX_CG_DWARF ? unwind_dwarf(st->uw, &regs, chain, (int)max) :
					  unwind_fp(st->uw, &regs, chain, (int)max);
	return n > 0 ? (unsigned)n : 0;
}

/* Argument k, a socket address whose length is argument k + 1, as its
 * text into dst (n bytes): its length, or -1 where it is not readable. */
static int sockaddr_text(const struct lx_sys_event *e, int k, char *dst, size_t n)
{
	unsigned char raw[sizeof(struct sockaddr_storage)];
	size_t len = (uint32_t)e->a[k + 1];

	if (len > sizeof(raw))
		len = sizeof(raw); /* (the kernel refuses more: EINVAL) */
	if (!e->a[k] || e->mem(e->arg, raw, e->a[k], len) < 0)
		return -1;
	len = systab_format_sockaddr(dst, n, raw, len);
	return len ? (int)len : -1;
}

static void send_call(int fd, const struct lx_sys_event *e)
{
	union {
		struct recw_syscall m;
		char b[RECW_MAX];
	} u;
	struct recw_syscall *m = &u.m;
	unsigned strs = systab_strings(e->nr);
	const struct systab_call *c = systab_call(e->nr);
	size_t len = sizeof(*m), slen;

	memset(m, 0, sizeof(*m));
	if (e->callgraph != LX_CG_NONE && e->state) {
		m->nchain = (uint16_t)call_chain(fd, e, m->chain);
		len += m->nchain * sizeof(*m->chain);
	}
	slen = len;
	m->h.type = RECW_SYSCALL;
	m->pid = (uint32_t)e->pid;
	m->tid = (uint32_t)e->tid;
	m->nr = (int32_t)e->nr;
	m->noreturn = (uint8_t)e->noreturn;
	m->host_clock = (uint8_t)e->host_clock;
	memcpy(m->a, e->a, sizeof(m->a));
	m->ret = e->ret;
	m->start = e->start;
	m->dur = e->dur;
	memcpy(m->comm, e->comm, sizeof(m->comm) - 1);
	for (int k = 0; k < 6 && strs; k++) {
		if (!(strs >> k & 1))
			continue;
		if (len + 1 + RECW_MAX_STR > RECW_MAX)
			break;
		int n = k < 5 && c->arg[k].kind == SYSTAB_A_SOCKADDR ?
				sockaddr_text(e, k, u.b + len + 1, RECW_MAX_STR) :
				e->str(e->arg, u.b + len + 1, e->a[k], RECW_MAX_STR);
		u.b[len] = n >= 0;
		len += n >= 0 ? 1 + (size_t)n + 1 : 1;
	}
	m->nstr = (uint16_t)(len - slen);
	m->h.len = (uint16_t)len;
	send_all(fd, m, len);
}

const struct lx_sys_ops systrace_lx_ops = { send_call };

int systrace_decode(const void *msg, size_t len, struct systrace_call *c)
{
	const struct recw_syscall *m = msg;
	const char *s, *end;
	unsigned strs;

	memset(c, 0, sizeof(*c));
	if (len < sizeof(*m) || m->h.len != len || m->nchain > RECW_MAX_CHAIN ||
	    sizeof(*m) + m->nchain * sizeof(*m->chain) + m->nstr != len ||
	    memchr(m->comm, 0, sizeof(m->comm)) == NULL)
		return -1;
	c->m = m;
	s = (const char *)(m->chain + m->nchain);
	end = s + m->nstr;
	strs = systab_strings(m->nr);
	for (int k = 0; k < 6 && s < end; k++) {
		if (!(strs >> k & 1))
			continue;
		if (*s++ != 1)
			continue;
		const char *nul = memchr(s, 0, (size_t)(end - s));
		if (!nul)
			return -1;
		c->str[k] = s;
		s = nul + 1;
	}
	return s == end ? 0 : -1;
}
