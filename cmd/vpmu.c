/* vpmu.c — the dispatcher: `vpmu CMD [ARGS...]`, like git's builtins.
 *
 * The command table is the one place a new command is added.  Commands
 * without a summary are hidden: not listed, never suggested.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmds.h"
#include "core/fmt.h"

#ifndef VPMU_VERSION
#define VPMU_VERSION "unknown"
#endif

static int cmd_help(int argc, char **argv);

static const struct vpmu_cmd commands[] = {
	{ "stat", cmd_stat, "Run a program and print the event counts it produced" },
	{ "record", cmd_record, "Run a program and sample it into vpmu.data" },
	{ "list", cmd_list, "List the events -e accepts on a machine" },
	{ "annotate", cmd_annotate, "Show a function's instructions with the samples on each" },
	{ "report", cmd_report, "Read a sample file and print where the samples fell" },
	{ "script", cmd_script, "Print the samples of a sample file one by one" },
	{ "diff", cmd_diff, "Compare the samples of sample files" },
	{ "buildid-list", cmd_buildid, "List the build-ids of the images a sample file names" },
	{ "evlist", cmd_evlist, "List the events a sample file was recorded with" },
	{ "mem", cmd_mem, "Sample memory accesses with their data addresses (perf mem)" },
	{ "trace", cmd_trace, "Run a program and print the system calls it makes" },
	{ "help", cmd_help, "Show the manual page of a command" },
	{ "__exec", cmd_exec, NULL }, /* a guest's execve(): see cmd/exec.c */
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: vpmu [--version] [-h | --help] COMMAND [ARGS...]\n\n"
		   "vpmu runs unmodified x86-64 Linux programs on an emulated machine\n"
		   "and counts what they do.\n\nCommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (commands[i].summary)
			fprintf(f, "   %-13s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nSee 'vpmu help COMMAND' for the manual page of a command.\n");
}

static const struct vpmu_cmd *find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static int unknown(const char *name)
{
	const struct vpmu_cmd *best = NULL;
	unsigned bestd = ~0u;

	for (size_t i = 0; i < NCOMMANDS; i++) {
		unsigned d;

		if (!commands[i].summary)
			continue;
		d = fmt_distance(name, commands[i].name);
		if (d < bestd) {
			bestd = d;
			best = &commands[i];
		}
	}
	/* Close enough to be a typo: at most two edits, and fewer than half
	 * the letters of the shorter word. */
	if (best && bestd <= 2 && 2 * bestd < (unsigned)strlen(best->name) &&
	    2 * bestd < (unsigned)strlen(name))
		fprintf(stderr, "vpmu: '%s' is not a vpmu command. Did you mean '%s'?\n", name,
			best->name);
	else
		fprintf(stderr, "vpmu: '%s' is not a vpmu command. See 'vpmu --help'.\n", name);
	return 1;
}

static int is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The page shipped with this binary: an installed prefix (bin/vpmu ->
 * share/man/man1), the source tree next to it (./vpmu, build/vpmu), or the
 * source tree it was built from (out-of-tree build directories). */
static int find_page(const char *page, char *out, size_t n)
{
	static const char *const rel[] = { "../share/man/man1", "man", "../man" };
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (len > 0) {
		exe[len] = 0;
		slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
		for (size_t i = 0; slash && i < sizeof(rel) / sizeof(rel[0]); i++)
			if (snprintf(out, n, "%s/%s/%s.1", exe, rel[i], page) < (int)n &&
			    is_file(out))
				return 0;
	}
#ifdef VPMU_SRCDIR
	if (snprintf(out, n, "%s/man/%s.1", VPMU_SRCDIR, page) < (int)n && is_file(out))
		return 0;
#endif
	return -1;
}

/* Run man with args; returns its exit status, or -1 when man cannot run. */
static int run_man(char *const args[])
{
	int st;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execvp(args[0], args);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (!WIFEXITED(st))
		return 1;
	return WEXITSTATUS(st) == 127 ? -1 : WEXITSTATUS(st);
}

static int cmd_help(int argc, char **argv)
{
	char page[64], path[PATH_MAX + 64];
	int rc;

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	if (argc > 2) {
		fprintf(stderr, "usage: vpmu help [COMMAND]\n");
		return 1;
	}
	if (strcmp(argv[1], "help") != 0) {
		const struct vpmu_cmd *c = find(argv[1]);

		if (!c || !c->summary)
			return unknown(argv[1]);
		snprintf(page, sizeof(page), "vpmu-%s", c->name);
	} else {
		snprintf(page, sizeof(page), "vpmu");
	}

	if (find_page(page, path, sizeof(path)) == 0) {
		char *args[] = { "man", "-l", path, NULL };

		rc = run_man(args);
		if (rc >= 0)
			return rc;
		fprintf(stderr, "vpmu: 'man' is not installed; the page is %s\n", path);
		return 1;
	} else {
		char *args[] = { "man", page, NULL };

		rc = run_man(args);
		if (rc >= 0)
			return rc;
		fprintf(stderr, "vpmu: 'man' is not installed and %s.1 was not found\n", page);
		return 1;
	}
}

int main(int argc, char **argv)
{
	const struct vpmu_cmd *c;

	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("vpmu version %s\n", VPMU_VERSION);
		return 0;
	}
	if (argv[1][0] == '-') {
		fprintf(stderr, "vpmu: unknown option '%s'\n", argv[1]);
		usage(stderr);
		return 1;
	}
	c = find(argv[1]);
	if (!c)
		return unknown(argv[1]);
	return c->fn(argc - 1, argv + 1);
}
