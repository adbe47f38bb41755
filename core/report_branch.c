/* report_branch.c — the branch histogram of `vpmu report --branch-stack`
 * (report_branch.h). */
#include <stdio.h>
#include <stdlib.h>

#include "core/report_branch.h"

int report_branch_view(const struct report *r, struct report *view, char *err, size_t errsz)
{
	size_t total = 0, k = 0;
	struct report_sample *out;

	*view = *r;
	view->samples = NULL;
	view->events = NULL;
	for (size_t i = 0; i < r->nsamples; i++)
		total += r->samples[i].nbr;
	if (!total) {
		snprintf(err, errsz,
			 "%s holds no branch stacks (vpmu record -b records them, on machines "
			 "with one)",
			 r->path);
		return -1;
	}
	out = malloc(total * sizeof(*out));
	view->events = malloc(r->nevents * sizeof(*view->events));
	if (!out || !view->events) {
		free(out);
		free(view->events);
		view->events = NULL;
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	for (size_t e = 0; e < r->nevents; e++) {
		view->events[e] = r->events[e];
		view->events[e].nsamples = view->events[e].period = 0;
	}
	for (size_t i = 0; i < r->nsamples; i++) {
		const struct report_sample *s = &r->samples[i];

		for (uint32_t b = 0; b < s->nbr; b++, k++) {
			out[k] = *s;
			out[k].branch = &r->branches[s->br + b];
			out[k].period = 1;
			out[k].nchain = 0; /* a branch has no call chain of its own */
			view->events[s->ev].nsamples++;
			view->events[s->ev].period++;
		}
	}
	view->samples = out;
	view->nsamples = k;
	return 0;
}

void report_branch_free(struct report *view)
{
	free(view->samples);
	free(view->events);
	view->samples = NULL;
	view->events = NULL;
}

int report_branch_keys(const struct hist_key *const *keys, int nkeys, int branch, char *err,
		       size_t errsz)
{
	for (int i = 0; i < nkeys && !branch; i++)
		if (hist_key_is_branch(keys[i])) {
			snprintf(err, errsz, "sort key '%s' is a branch's: it needs --branch-stack",
				 keys[i]->name);
			return -1;
		}
	return 0;
}
