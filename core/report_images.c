/* report_images.c — the images a sample file names, with the build-id
 * each had when it was recorded and the one its file on disk has now: a
 * program rebuilt since the recording resolves the old addresses against
 * new code, so report, annotate and script say so rather than show wrong
 * symbols quietly (perf's build-id check). */
#include <stdio.h>
#include <string.h>

#include "core/report_priv.h"
#include "core/sym.h"

const struct sfile_mmap *report_images(const struct report *r, size_t *n)
{
	*n = r->priv->nmmaps;
	return r->priv->mmaps;
}

size_t report_image_build_id_now(const struct report *r, size_t i, uint8_t *id, size_t max)
{
	return sym_file_build_id(r->priv->mmaps[i].path, id, max);
}

/* Whether image i's file is not the one recorded. */
static int stale(const struct report *r, size_t i)
{
	const struct sfile_mmap *m = &r->priv->mmaps[i];
	uint8_t now[SFILE_BUILD_ID_MAX];
	size_t n;

	if (!m->build_id_len)
		return 0; /* nothing to compare with */
	n = report_image_build_id_now(r, i, now, sizeof(now));
	return n != m->build_id_len || memcmp(now, m->build_id, n);
}

const char *report_stale_str(const struct report *r, char *buf, size_t n)
{
	const struct report_priv *p = r->priv;
	size_t nstale = 0, len = 0;
	int w;

	for (size_t i = 0; i < p->nmmaps; i++) {
		int seen = 0;

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(p->mmaps[j].path, p->mmaps[i].path);
		if (seen || !stale(r, i))
			continue;
		if (!nstale++) {
			w = snprintf(buf, n,
				     "warning: images differ from those recorded (rebuilt or gone: "
				     "their symbols and code may be wrong):");
			len = w > 0 ? (size_t)w : 0;
		}
		if (len < n) {
			w = snprintf(buf + len, n - len, "%s %s", nstale > 1 ? "," : "",
				     p->mmaps[i].path);
			len += w > 0 ? (size_t)w : 0;
		}
	}
	return nstale ? buf : NULL;
}
