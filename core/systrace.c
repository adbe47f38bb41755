/* systrace.c — the tracer in each guest process, and its messages read
 * back. */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "emu/linux/linux.h"
#include "systrace.h"

_Static_assert(LX_SYS_MAX == SYSTAB_MAX, "one mask of system calls");
_Static_assert(sizeof(struct recw_syscall) + 2 * (RECW_MAX_STR + 1) <= RECW_MAX,
	       "a call with two strings fits");

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
	size_t len = sizeof(*m);
	ssize_t w;

	memset(m, 0, sizeof(*m));
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
	m->nstr = (uint16_t)(len - sizeof(*m));
	m->h.len = (uint16_t)len;
	do
		w = send(fd, m, len, MSG_NOSIGNAL);
	while (w < 0 && errno == EINTR);
}

const struct lx_sys_ops systrace_lx_ops = { send_call };

int systrace_decode(const void *msg, size_t len, struct systrace_call *c)
{
	const struct recw_syscall *m = msg;
	const char *s, *end;
	unsigned strs;

	memset(c, 0, sizeof(*c));
	if (len < sizeof(*m) || m->h.len != len || sizeof(*m) + m->nstr != len ||
	    memchr(m->comm, 0, sizeof(m->comm)) == NULL)
		return -1;
	c->m = m;
	s = m->str;
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
