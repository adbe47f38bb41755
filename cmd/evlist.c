/* evlist.c — `vpmu evlist`: the events a sample file was recorded with,
 * one per line as they were given (perf evlist); -v adds how each was
 * programmed and what it sampled, -F the sampling rate. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "opt.h"
#include "core/report.h"

static const char evlist_usage[] =
	"usage: vpmu evlist [-i FILE] [-F] [-v]\n"
	"\n"
	"List the events of a sample file written by vpmu record, as they were\n"
	"given.\n"
	"\n"
	"    -i, --input FILE   the sample file (default vpmu.data)\n"
	"    -F, --freq         each event's sampling rate: sample_freq=N (-F) or\n"
	"                       sample_period=N (-c)\n"
	"    -v, --verbose      also its machine, register images, precise level,\n"
	"                       sampled data, samples read and samples lost\n"
	"    -h, --help         show this help\n";

/* The sampled data of sample_type t, perf-style names joined by '|'. */
static void sample_type(uint64_t t)
{
	static const char *const names[] = { "ADDR",	  "WEIGHT",	  "REGS",
					     "EAR",	  "BRANCH_STACK", "PROFILEME",
					     "CALLCHAIN", "TRIGGER",	  "DATA_SRC" };

	printf("IP|TID|TIME|PERIOD");
	for (unsigned k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if (t >> k & 1)
			printf("|%s", names[k]);
}

static void rate(const struct sfile_attr *a)
{
	printf("%s=%" PRIu64, a->flags & SFILE_ATTR_FREQ ? "sample_freq" : "sample_period",
	       a->period);
}

int cmd_evlist(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "freq", no_argument, NULL, 'F' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *input = "vpmu.data";
	int c, freq = 0, verbose = 0, rc = 0;
	char err[1024];
	struct report *r;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:Fvh", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'F':
			freq = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'h':
			fputs(evlist_usage, stdout);
			return 0;
		case ':':
		default:
			opt_bad("evlist", c, argv);
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr,
			"vpmu evlist: unexpected argument '%s' (the file is given with -i)\n",
			argv[optind]);
		return 1;
	}
	if (!(r = report_open(input, REPORT_NO_CHAINS | REPORT_NO_DATA, err, sizeof(err)))) {
		fprintf(stderr, "vpmu evlist: %s\n", err);
		return 1;
	}
	if (report_damage_str(r, err, sizeof(err)))
		fprintf(stderr, "vpmu evlist: %s\n", err);
	for (size_t i = 0; i < r->nevents; i++) {
		const struct report_event *e = &r->events[i];
		const struct sfile_attr *a = &e->attr;

		printf("%s", a->name);
		if (verbose) {
			printf(": machine=%s, config=0x%" PRIx64, a->machine ? a->machine : "?",
			       a->config);
			if (a->config1)
				printf(", config1=0x%" PRIx64, a->config1);
			printf(", ");
			rate(a);
			printf(", precise_ip=%u, sample_type=", a->precise);
			sample_type(a->sample_type);
			printf(", samples=%" PRIu64 ", lost=%" PRIu64, e->nsamples, e->lost);
		} else if (freq) {
			printf(": ");
			rate(a);
		}
		printf("\n");
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "vpmu evlist: cannot write the output\n");
		rc = 1;
	}
	report_close(r);
	return rc;
}
