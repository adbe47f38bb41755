/* mem.c — `vpmu mem`: perf mem's shorthand for sampling memory accesses
 * with their data addresses and reading where they fell.  `mem record`
 * is `vpmu record -e mem-loads:pp`, the machine's precise load sampling
 * (the P4's PEBS, the Itanium 2's data EAR); `mem report` is `vpmu
 * report` sorted by latency, data source, function and data object;
 * `mem -D` prints the samples one per line (`vpmu script`). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "opt.h"

static const char mem_usage[] =
	"usage: vpmu mem [-t load|store|load,store] [--ldlat N] record [RECORD OPTIONS]\n"
	"                [--] PROGRAM [ARGS...]\n"
	"       vpmu mem report [REPORT OPTIONS]\n"
	"       vpmu mem -D [-i FILE]\n"
	"\n"
	"Sample a program's memory accesses with their data addresses, and show\n"
	"where they fell (perf mem).\n"
	"\n"
	"    -t, --type TYPE    the accesses to sample: load (the default), store,\n"
	"                       or both (load,store); each machine's precise memory\n"
	"                       sampling: mem-loads:pp (p4: PEBS's L1 load misses;\n"
	"                       ia64: the data EAR's loads of 4 cycles or more), and\n"
	"                       mem-stores:pp, which no machine here has\n"
	"        --ldlat N      sample the loads of N cycles or more:\n"
	"                       cpu/mem-loads,ldlat=N/pp (ia64: N a power of two from\n"
	"                       4 to 4096; p4's PEBS has no threshold); also right\n"
	"                       after record\n"
	"    -D, --dump-raw-samples\n"
	"                       print the samples one per line: thread, address,\n"
	"                       function, data address, latency and data source\n"
	"    -i, --input FILE   with -D: the sample file (default vpmu.data)\n"
	"    -h, --help         show this help\n"
	"\n"
	"record takes vpmu record's options (-c, -F, -a, -o, -g, ...), report\n"
	"vpmu report's (a -s of its own replaces the default keys\n"
	"local_weight,mem,sym,dso,dsym,ddso).\n";

/* argv[1..argc) after the words pre[0..npre): a new vector for a command. */
static char **with(const char *const *pre, int npre, int argc, char **argv)
{
	char **v = calloc((size_t)(npre + argc + 1), sizeof(*v));

	if (!v)
		return NULL;
	for (int k = 0; k < npre; k++)
		v[k] = (char *)pre[k];
	for (int k = 1; k < argc; k++)
		v[npre + k - 1] = argv[k];
	return v;
}

/* Run fn on the words pre followed by argv[1..argc). */
static int run(int (*fn)(int, char **), const char *const *pre, int npre, int argc, char **argv)
{
	char **v = with(pre, npre, argc, argv);
	int rc;

	if (!v) {
		fprintf(stderr, "vpmu mem: out of memory\n");
		return 1;
	}
	rc = fn(npre + argc - 1, v);
	free(v);
	return rc;
}

int cmd_mem(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "type", required_argument, NULL, 't' },
		{ "dump-raw-samples", no_argument, NULL, 'D' },
		{ "ldlat", required_argument, NULL, 'L' },
		{ "input", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *input = "vpmu.data", *ldlat = NULL;
	int c, load = 1, store = 0, dump = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:t:Di:h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			load = !strcmp(optarg, "load") || !strcmp(optarg, "load,store") ||
			       !strcmp(optarg, "store,load");
			store = !strcmp(optarg, "store") || !strcmp(optarg, "load,store") ||
				!strcmp(optarg, "store,load");
			if (!load && !store) {
				fprintf(stderr,
					"vpmu mem: -t wants load, store or load,store, not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'D':
			dump = 1;
			break;
		case 'L':
			ldlat = optarg;
			break;
		case 'i':
			input = optarg;
			break;
		case 'h':
			fputs(mem_usage, stdout);
			return 0;
		case ':':
		default:
			opt_bad("mem", c, argv);
			return 1;
		}
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (dump) {
		const char *const pre[] = { "script", "-i", input, "-F",
					    "comm,pid,tid,ip,sym,addr,weight,data_src" };

		if (argc > 1) {
			fprintf(stderr, "vpmu mem: -D takes no command ('%s')\n", argv[1]);
			return 1;
		}
		return run(cmd_script, pre, 5, argc, argv);
	}
	if (argc < 2) {
		fprintf(stderr, "vpmu mem: record or report? (vpmu mem -h)\n");
		return 1;
	}
	if (!strcmp(argv[1], "record")) {
		const char *pre[5] = { "record" };
		char loads[64];
		int n = 1;

		/* perf mem record --ldlat N: right after record */
		while (argc > 2 && !strncmp(argv[2], "--ldlat", 7) &&
		       (argv[2][7] == '=' || !argv[2][7])) {
			if (!argv[2][7] && argc < 4) {
				fprintf(stderr, "vpmu mem: --ldlat wants a number of cycles\n");
				return 1;
			}
			int eq = argv[2][7] == '=';
			ldlat = eq ? argv[2] + 8 : argv[3];
			argv[eq ? 2 : 3] = argv[1];
			argv += eq ? 1 : 2;
			argc -= eq ? 1 : 2;
		}
		if (ldlat && strlen(ldlat) > 20) {
			fprintf(stderr, "vpmu mem: --ldlat wants a number of cycles, not '%s'\n",
				ldlat);
			return 1;
		}
		snprintf(loads, sizeof(loads), ldlat ? "cpu/mem-loads,ldlat=%s/pp" : "mem-loads:pp",
			 ldlat);
		if (load) {
			pre[n++] = "-e";
			pre[n++] = loads;
		}
		if (store) {
			pre[n++] = "-e";
			pre[n++] = "mem-stores:pp";
		}
		return run(cmd_record, pre, n, argc - 1, argv + 1);
	}
	if (!strcmp(argv[1], "report")) {
		/* (a -s of the user's comes later: getopt takes the last) */
		const char *const pre[] = { "report", "-n", "--sort",
					    "local_weight,mem,sym,dso,dsym,ddso" };

		return run(cmd_report, pre, 4, argc - 1, argv + 1);
	}
	fprintf(stderr, "vpmu mem: unknown command '%s' (record, report)\n", argv[1]);
	return 1;
}
