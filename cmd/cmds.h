/* cmds.h — the commands `vpmu CMD` dispatches to (table in cmd/vpmu.c).
 * Each takes its own argv (argv[0] is the command name) and returns the
 * process exit status. */
#ifndef VPMU_CMDS_H
#define VPMU_CMDS_H

struct vpmu_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary; /* one line for `vpmu --help`; NULL: hidden */
};

int cmd_stat(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_mem(int argc, char **argv);
int cmd_buildid(int argc, char **argv);
int cmd_evlist(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_exec(int argc, char **argv);

#endif
