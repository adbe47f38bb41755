/* report.h — a sample file loaded whole for the commands that read one
 * (report, script, annotate): its events, metadata, and every sample with
 * its instruction address (and data address, call chain) resolved to
 * image, symbol and, on demand, source line.
 *
 * Resolution follows the file in order: each process has an address space
 * built from its MMAP records (sym_add_image at the bias sym_image_bias
 * computes); a later image hides an earlier one where they overlap (an
 * exec maps the new program over the old); a process with no MMAP of its
 * own (a forked child) uses the mappings of every process.  Each address
 * space resolves an address once: a hash map from (space version, address)
 * to a report_loc, the version changing whenever an image is added.
 *
 * Typical use (annotate):
 *
 *	struct report *r = report_open("vpmu.data", 0, err, sizeof(err));
 *	for (size_t i = 0; i < r->nsamples; i++) {
 *		const struct report_sample *s = &r->samples[i];
 *		... s->loc->sym, s->loc->sym_start, s->loc->space ...
 *	}
 *	sym_code(report_space_sym(s->loc->space), addr, len);
 *	report_close(r);
 */
#ifndef VPMU_REPORT_H
#define VPMU_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "core/sfile.h"

struct sym;
struct report_space; /* one process's address space (opaque) */

/* One address resolved in one address space.  Strings live until
 * report_close. */
struct report_loc {
	uint64_t addr;
	struct report_space *space;
	const char *dso;    /* image's short name, NULL when no image holds addr */
	const char *path;   /* image path, NULL likewise */
	const char *sym;    /* symbol, NULL when none */
	uint64_t sym_start; /* runtime address of the symbol (0 without one) */
	uint64_t sym_size;
	uint64_t file_addr; /* addr as an ELF vaddr of its image */
	/* A return address of a call chain (symbol and line are those of
	 * addr - 1, the call); an inline frame (report_sample_frames: sym is
	 * the inlined function, srcfile:line the position in it). */
	int ret, inlined;
	/* Source position, filled by report_loc_line on first use. */
	int line_state; /* 0 not looked up, 1 known, -1 none */
	unsigned line;
	const char *srcfile;
};

/* One branch of a branch stack, both ends resolved (to is NULL for a
 * branch recorded not taken). */
struct report_branch {
	struct report_loc *from, *to;
	uint64_t flags; /* SFILE_BR_* */
};

#define REPORT_PM_NONE 0 /* no ProfileMe record */
#define REPORT_PM_RETIRED 1
#define REPORT_PM_ABORTED 2

struct report_sample {
	uint32_t ev; /* index into report.events */
	uint32_t pid, tid, cpu;
	uint64_t ip, time, period;
	uint64_t addr;		 /* data address (when ev has SFILE_S_ADDR) */
	uint64_t weight;	 /* latency in cycles (when ev has SFILE_S_WEIGHT) */
	const char *comm;	 /* the thread's name at the time of the sample */
	struct report_loc *loc;	 /* ip */
	struct report_loc *dloc; /* addr as data, NULL without one */
	uint32_t nchain;	 /* call chain: report.chains[chain .. chain+nchain) */
	uint32_t nregs;		 /* registers: report.regs[regs .. regs+nregs) */
	size_t chain, regs;
	uint32_t npm; /* ProfileMe record: report.pm[pm .. pm+npm) (REPORT_PROFILEME) */
	size_t pm;
	uint8_t pm_state; /* REPORT_PM_*: what a ProfileMe record says of the instruction */
	uint8_t dsrc;	  /* where its loads found their data (UARCH_DSRC_*; 0: not known) */
	/* The instruction whose count raised the sample and the instructions
	 * retired from it to ip (when the file names one: has_trigger). */
	uint64_t trigger_ip;
	uint64_t skid;
	int has_trigger;
	/* branch stack, newest first: report.branches[br .. br+nbr) */
	uint32_t nbr;
	size_t br;
	/* In a histogram of branches (report --branch-stack): the one entry
	 * of the stack this copy of the sample stands for; else NULL. */
	const struct report_branch *branch;
};

struct report_event {
	struct sfile_attr attr;	   /* strings owned by the report */
	uint64_t nsamples, period; /* samples read and the sum of their periods */
	uint64_t lost;		   /* from LOST records */
	int have_totals;
	struct sfile_totals totals;
};

/* A record beside the samples (script --show-mmap-events and the like):
 * an image mapped (SFILE_MMAP) or a thread's name (SFILE_COMM), read
 * after `before` samples. */
struct report_side {
	uint16_t type;
	uint32_t pid, tid; /* (MMAP: the process's) */
	size_t before;
	uint64_t start, len, pgoff; /* MMAP */
	uint32_t prot;
	const char *text; /* the path, or the name */
};

struct report {
	const char *path;
	struct report_event *events; /* in the order of their ATTRs */
	size_t nevents;
	struct report_sample *samples; /* in file order */
	size_t nsamples;
	struct report_loc **chains;	/* call chain entries of all samples */
	uint64_t *regs;			/* registers (only with REPORT_REGS) */
	uint8_t *pm;			/* ProfileMe records (only with REPORT_PROFILEME) */
	struct report_branch *branches; /* branch stack entries of all samples */
	struct report_side *side;	/* MMAP and COMM records (only with REPORT_SIDE) */
	size_t nside;
	/* CMDLINE (argv NULL-terminated) and MACHINE, when present */
	char **argv;
	size_t argc;
	const char *machine;
	struct sfile_param *params;
	size_t nparams;
	/* How the file read */
	int finished; /* a FINISHED record was read */
	struct sfile_rstats stats;
	size_t ndamage;
	struct sfile_damage first_damage; /* valid when ndamage > 0 */
	uint64_t unknown_event_samples;	  /* samples whose id has no ATTR */
	struct report_priv *priv;
};

/* report_open flags */
#define REPORT_REGS 1u	       /* keep sample registers */
#define REPORT_NO_DATA 2u      /* do not resolve data addresses */
#define REPORT_NO_CHAINS 4u    /* do not keep call chains */
#define REPORT_PROFILEME 8u    /* keep ProfileMe records */
#define REPORT_NO_INLINE 16u   /* report_sample_frames without inline frames */
#define REPORT_NO_DEMANGLE 32u /* symbol names as the files have them (sym_set_demangle) */
#define REPORT_SIDE 64u	       /* keep the MMAP and COMM records in report.side */

/* Load and resolve the whole file; NULL with a one-line message in err
 * when it cannot be read at all (missing, not a vpmu data file, a read
 * error, out of memory).  Damage is not an error (see ndamage). */
struct report *report_open(const char *path, unsigned flags, char *err, size_t errsz);
void report_close(struct report *r);

/* Fill l->srcfile and l->line from DWARF if not done yet; 0 when known. */
int report_loc_line(struct report_loc *l);
/* The symbol session of an address space (for sym_code, sym_inlines,
 * sym_foreach_func on the addresses of its locs). */
struct sym *report_space_sym(struct report_space *sp);

/* The frames of s into out[0..max), innermost first: its call chain (its
 * own ip without one), each entry preceded by the functions inlined at
 * its address as frames of their own (inlined set; not with
 * REPORT_NO_INLINE).  Returns the count. */
#define REPORT_MAX_FRAMES 1024
size_t report_sample_frames(const struct report *r, const struct report_sample *s,
			    struct report_loc **out, size_t max);

/* The name the file gave thread tid last (a COMM record), or NULL. */
const char *report_comm(const struct report *r, uint32_t tid);

/* "prog" "[unknown]": the image name perf would show for a loc. */
const char *report_loc_dso(const struct report_loc *l);
/* "hot", or into buf "0x0000000000001234" (perf's style for an address
 * with no symbol: in an image, the image's address); returns the symbol
 * itself when there is one. */
const char *report_loc_sym(const struct report_loc *l, char *buf, size_t n);

/* One line about damage ("warning: ... skipped ...") into buf, or NULL
 * when the file read cleanly. */
const char *report_damage_str(const struct report *r, char *buf, size_t n);

/* report_images.c: the image of each MMAP record, in file order (path,
 * range, build-id as recorded): *n of them. */
const struct sfile_mmap *report_images(const struct report *r, size_t *n);
/* The build-id image i's file on disk has now into id (max bytes): its
 * length; 0 when the file has none or cannot be read. */
size_t report_image_build_id_now(const struct report *r, size_t i, uint8_t *id, size_t max);
/* One line ("warning: ...") naming the images whose file on disk is not
 * the one recorded (another build-id, or gone) into buf; NULL when every
 * recorded build-id matches. */
const char *report_stale_str(const struct report *r, char *buf, size_t n);

/* Index of the event named name (as the user wrote it), or -1. */
int report_event_find(const struct report *r, const char *name);

/* The emulated clock in GHz, from the machine's core.mhz parameter (mhz
 * in files older than the parameters' structure names); 0 if none. */
double report_clock_ghz(const struct report *r);

/* perf's --max-stack: the samples' call chains cut to max frames (the
 * sampled one first). */
void report_max_stack(struct report *r, uint32_t max);

#endif
