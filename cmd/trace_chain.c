/* trace_chain.c — `vpmu trace --call-graph`: the images each guest
 * process has mapped, as it sends them (RECW_MMAP), and a call's chain
 * named from them, a frame a line under the call, as perf trace prints
 * it: the function and the image, unknown ones as their address, and
 * before each the functions inlined at its address ("name (inlined)"). */
#include <stdlib.h>
#include <string.h>

#include "core/sym.h"
#include "trace.h"

#define CHAIN_INDENT 39	    /* perf trace's left alignment (38) and a space */
#define TRACE_INLINE_MAX 16 /* functions inlined at one address, shown at most */

struct trace_chains {
	struct proc {
		uint32_t pid;
		struct sym *sym;
	} * p;
	size_t n, cap;
};

struct trace_chains *trace_chains_new(void)
{
	return calloc(1, sizeof(struct trace_chains));
}

void trace_chains_free(struct trace_chains *tc)
{
	if (!tc)
		return;
	for (size_t k = 0; k < tc->n; k++)
		sym_free(tc->p[k].sym);
	free(tc->p);
	free(tc);
}

static struct proc *find(struct trace_chains *tc, uint32_t pid)
{
	for (size_t k = 0; k < tc->n; k++)
		if (tc->p[k].pid == pid)
			return &tc->p[k];
	return NULL;
}

int trace_chains_mmap(struct trace_chains *tc, const struct recw_mmap *m)
{
	struct proc *p = find(tc, m->pid);

	if (m->end <= m->start || memchr(m->path, 0, sizeof(m->path)) == NULL)
		return -1;
	if (p && m->flags & RECW_MMAP_FIRST) {
		/* a new image of the process (execve), or a forked child with
		 * the pid of one gone */
		sym_free(p->sym);
		p->sym = NULL;
	}
	if (!p) {
		if (tc->n == tc->cap) {
			size_t cap = tc->cap ? 2 * tc->cap : 16;
			struct proc *np = realloc(tc->p, cap * sizeof(*np));
			if (!np)
				return -1;
			tc->p = np;
			tc->cap = cap;
		}
		p = &tc->p[tc->n++];
		*p = (struct proc){ m->pid, NULL };
	}
	if (!p->sym && !(p->sym = sym_new()))
		return -1;
	sym_add_image(p->sym, m->path, m->start, m->end, m->bias);
	return 0;
}

/* Text t (n bytes) after *out's *len bytes, grown as needed; 0, or -1
 * out of memory (*out freed). */
static int append(char **out, size_t *len, size_t *cap, const char *t, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t nc = *cap ? 2 * *cap : 4096;
		while (nc < *len + n + 1)
			nc *= 2;
		char *no = realloc(*out, nc);
		if (!no) {
			free(*out);
			*out = NULL;
			return -1;
		}
		*out = no;
		*cap = nc;
	}
	memcpy(*out + *len, t, n);
	*len += n;
	(*out)[*len] = 0;
	return 0;
}

/* One frame's line into buf (n bytes): its length. */
static size_t frame_line(char *buf, size_t n, const char *name, const char *where)
{
	int w = where ? snprintf(buf, n, "%*s%s (%s)\n", CHAIN_INDENT, "", name, where) :
			snprintf(buf, n, "%*s%s (inlined)\n", CHAIN_INDENT, "", name);

	return w < 0 ? 0 : (size_t)w < n ? (size_t)w : n - 1;
}

char *trace_chains_format(struct trace_chains *tc, const struct recw_syscall *m)
{
	struct proc *p = find(tc, m->pid);
	size_t len = 0, cap = 0;
	char *out = NULL;

	for (unsigned k = 0; k < m->nchain; k++) {
		struct sym_info si = { 0 };
		struct sym_frame fr[TRACE_INLINE_MAX];
		char frame[1024], addr[24];
		/* each a return address (the first, the call's): the byte
		 * before is the call's, in the caller's function even where
		 * the call ends it (a noreturn callee), as report names them */
		uint64_t at = m->chain[k] ? m->chain[k] - 1 : 0;
		int r = p && p->sym ? sym_lookup(p->sym, at, &si) : -1;
		int ninl = r == 0 ? sym_inlines(p->sym, at, fr, TRACE_INLINE_MAX) : 0;

		/* the functions inlined there first, innermost first (the last
		 * of the inline chain is the function itself) */
		for (int i = 0; i + 1 < ninl; i++) {
			size_t fl = frame_line(frame, sizeof(frame),
					       fr[i].func ? fr[i].func : "[inlined]", NULL);
			if (append(&out, &len, &cap, frame, fl) < 0)
				return NULL;
		}
		snprintf(addr, sizeof(addr), "[%#llx]", (unsigned long long)m->chain[k]);
		size_t fl = frame_line(frame, sizeof(frame), r == 0 ? si.name : addr,
				       r >= 0 && si.path ? si.path : "[unknown]");
		if (append(&out, &len, &cap, frame, fl) < 0)
			return NULL;
	}
	return out;
}
