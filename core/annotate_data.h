/* annotate_data.h — a sample file read for annotation (through
 * report_open, as every reader of sample files): its events, the ELF
 * images its samples fell in, and sample counts per image, file address
 * and event.
 *
 * Each image gets a symbol session of its own in which it is mapped at
 * load bias 0, so that addresses, branch targets and symbol names are the
 * file's, as `objdump -d` prints them, whatever the processes' load
 * addresses were. */
#ifndef VPMU_ANNOTATE_DATA_H
#define VPMU_ANNOTATE_DATA_H

#include <stddef.h>
#include <stdint.h>

struct sym;
struct report;

struct annot_image {
	const char *path; /* owned by the report */
	uint64_t lo, hi;  /* file vaddr span of the loadable segments */
	int readable;	  /* the file is ELF and its segments were read */
	struct sym *sym;  /* made by annot_sym() on first use */
};

/* Samples of one event at one file address of one image. */
struct annot_hit {
	unsigned img, ev;
	uint64_t addr;
	uint64_t n;
};

struct annot_data {
	unsigned nev;
	const char **evname; /* [nev]: events in the order of their ATTR records */
	unsigned nimg;
	struct annot_image *img; /* in the order of their first MMAP */
	size_t nhit;
	struct annot_hit *hit; /* sorted by img, addr, ev; one per triple */
	uint64_t samples;      /* every sample read */
	uint64_t unmapped;     /* samples in no image or of an unknown event */
	uint64_t damaged;      /* bytes of the file the reader had to skip */
	struct report *r;      /* the file as report_open read it */
	int raw_names;	       /* symbol names not demangled */
};

/* Read the file at path (raw_names: C++ names not demangled).  0, or -1
 * with a one-line message in err. */
int annot_load(struct annot_data *d, const char *path, int raw_names, char *err, size_t errsz);
void annot_release(struct annot_data *d);

/* Image i's symbol session (bias 0); NULL when out of memory. */
struct sym *annot_sym(struct annot_data *d, unsigned i);

#endif
