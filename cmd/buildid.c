/* buildid.c — `vpmu buildid-list`: the build-id each image a sample file
 * names had when it was recorded, and its path (perf buildid-list), to
 * check that the files on disk are the ones the samples fell in. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "opt.h"
#include "core/report.h"

static const char buildid_usage[] =
	"usage: vpmu buildid-list [-i FILE] [-H]\n"
	"\n"
	"Print the build-id of each image a sample file names, as recorded, and\n"
	"its path; a build-id the file on disk no longer has is marked.\n"
	"\n"
	"    -i, --input FILE   the sample file (default vpmu.data)\n"
	"    -H, --with-hits    only the images samples fell in\n"
	"    -h, --help         show this help\n";

/* Whether a sample of r fell in the image at path. */
static int hit(const struct report *r, const char *path)
{
	const char *last = NULL; /* (the paths of a run's samples are few) */

	for (size_t i = 0; i < r->nsamples; i++) {
		const char *p = r->samples[i].loc->path;

		if (p && p != last && !strcmp(p, path))
			return 1;
		last = p;
	}
	return 0;
}

int cmd_buildid(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "with-hits", no_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *input = "vpmu.data";
	const struct sfile_mmap *m;
	char err[1024];
	struct report *r;
	int c, hits = 0;
	size_t n;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:Hh", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'H':
			hits = 1;
			break;
		case 'h':
			fputs(buildid_usage, stdout);
			return 0;
		case ':':
		default:
			opt_bad("buildid-list", c, argv);
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr,
			"vpmu buildid-list: unexpected argument '%s' (the file is given with -i)\n",
			argv[optind]);
		return 1;
	}
	if (!(r = report_open(input, REPORT_NO_CHAINS | REPORT_NO_DATA, err, sizeof(err)))) {
		fprintf(stderr, "vpmu buildid-list: %s\n", err);
		return 1;
	}
	if (report_damage_str(r, err, sizeof(err)))
		fprintf(stderr, "vpmu buildid-list: %s\n", err);
	m = report_images(r, &n);
	for (size_t i = 0; i < n; i++) {
		uint8_t now[SFILE_BUILD_ID_MAX];
		size_t len;
		int seen = 0;

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(m[j].path, m[i].path) &&
			       m[j].build_id_len == m[i].build_id_len &&
			       !memcmp(m[j].build_id, m[i].build_id, m[i].build_id_len);
		if (seen || !m[i].build_id_len || (hits && !hit(r, m[i].path)))
			continue;
		for (size_t k = 0; k < m[i].build_id_len; k++)
			printf("%02x", m[i].build_id[k]);
		len = report_image_build_id_now(r, i, now, sizeof(now));
		printf(" %s%s\n", m[i].path,
		       len == m[i].build_id_len && !memcmp(now, m[i].build_id, len) ? "" :
		       len ? " (the file's is another: rebuilt)" :
			     " (the file is gone or has none)");
	}
	report_close(r);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "vpmu buildid-list: cannot write the output\n");
		return 1;
	}
	return 0;
}
