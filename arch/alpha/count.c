/* count.c — one 21264 performance counter in aggregate mode ([hrm]
 * 6.10.2): it adds its input each cycle (PCTR0 up to 8 retires a cycle,
 * the rest caught up in later cycles, so none goes uncounted); with a
 * sampling period it is preloaded to overflow after that many events, and
 * each overflow leaves an interrupt pending. */
#include "alpha.h"

void alpha_ctr_add(struct alpha_ctr *c, int kernel, uint64_t n)
{
	if (!(c->qual >> (kernel ? 1 : 0) & 1) || !n)
		return;
	c->total += n;
	if (!c->period)
		return;
	while (n >= c->left) {
		n -= c->left;
		c->pending++;
		/* the handler writes the reload value: what counted past the
		 * overflow stays counted */
		c->period = c->reload;
		c->left = c->period;
	}
	c->left -= n;
}
