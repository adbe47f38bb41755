/* sfile.h — the sample file (vpmu.data): writer and reader.
 *
 * Layout (man/vpmu-data.5 is the reference): a 32-byte uncompressed file
 * header, then blocks.  A block is a 32-byte header (magic, lengths, record
 * count, CRC-32 of the compressed bytes, CRC-32 of the header itself) and a
 * zlib stream of records.  A record is type u16, flags u16, payload length
 * u32, the payload, zero padding to 8 bytes.  Every number is
 * little-endian.
 *
 * The writer flushes a block whenever SFILE_BLOCK_SIZE bytes of records
 * are pending and on sfile_flush(), so a run that dies leaves a file that
 * reads up to its last complete block.  The reader checks every length and
 * checksum, skips what is damaged, resumes at the next good block and
 * keeps a list of what it skipped (sfile_damage).
 */
#ifndef VPMU_SFILE_H
#define VPMU_SFILE_H

#include <stddef.h>
#include <stdint.h>

#define SFILE_MAGIC "VPMUDATA"
#define SFILE_VERSION_MAJOR 1
#define SFILE_VERSION_MINOR 0
#define SFILE_HEADER_SIZE 32
#define SFILE_BYTE_ORDER 0x01020304u
#define SFILE_BLOCK_MAGIC 0x4b425056u /* "VPBK" */
#define SFILE_BLOCK_HEADER_SIZE 32

/* The writer flushes when this many uncompressed bytes are pending. */
#define SFILE_BLOCK_SIZE (256u * 1024)
/* Limits every reader enforces (and the writer respects). */
#define SFILE_BLOCK_MAX (16u * 1024 * 1024) /* uncompressed bytes of a block */
/* Payload bytes of one record: a full pending block plus one record still
 * fits SFILE_BLOCK_MAX. */
#define SFILE_RECORD_MAX (8u * 1024 * 1024)
#define SFILE_BUILD_ID_MAX 64
#define SFILE_STRING_MAX 65536 /* bytes of one string */

/* File header flags.  Bits 16-31 are incompatible: a reader refuses a file
 * with one it does not know.  Bits 0-15 may be ignored.  None defined yet. */
#define SFILE_HFLAG_INCOMPAT_MASK 0xffff0000u

enum sfile_type {
	SFILE_ATTR = 1,
	SFILE_CMDLINE = 2,
	SFILE_MACHINE = 3,
	SFILE_MMAP = 4,
	SFILE_COMM = 5,
	SFILE_SAMPLE = 6,
	SFILE_TOTALS = 7,
	SFILE_LOST = 8,
	SFILE_FINISHED = 9,
};

/* Optional sample fields (attr.sample_type).  A sample stores the present
 * ones after its fixed part in this bit order; future bits come last, so
 * a reader decodes the bits it knows and ignores the rest. */
#define SFILE_S_ADDR (1u << 0)	    /* data address */
#define SFILE_S_WEIGHT (1u << 1)    /* latency in cycles */
#define SFILE_S_REGS (1u << 2)	    /* PEBS general registers */
#define SFILE_S_EAR (1u << 3)	    /* event address register contents */
#define SFILE_S_BRANCHES (1u << 4)  /* branch trace (BTB) entries */
#define SFILE_S_PROFILEME (1u << 5) /* ProfileMe record, opaque bytes */
#define SFILE_S_CALLCHAIN (1u << 6) /* return addresses, innermost first */
#define SFILE_S_TRIGGER (1u << 7)   /* triggering instruction and skid */
#define SFILE_S_DSRC (1u << 8)	    /* where the instruction's loads found their data */
#define SFILE_S_KNOWN 0x1ffu

/* attr.flags */
#define SFILE_ATTR_FREQ 1u /* period is a frequency in emulated-time Hz */

struct sfile_attr {
	uint32_t id;	  /* what samples, totals and lost records refer to */
	uint16_t precise; /* :p count: 0 imprecise, 1-3 the machine's precise mechanism */
	uint16_t flags;	  /* SFILE_ATTR_* */
	uint64_t config;  /* raw control register value(s) the event programs */
	uint64_t config1; /* a second register where the machine needs one */
	uint64_t period;
	uint64_t sample_type; /* SFILE_S_* */
	const char *name;     /* event as the user wrote it */
	const char *machine;  /* p4, ia64, xscale, alpha */
};

struct sfile_cmdline {
	uint32_t argc;
	const char *const *argv; /* argc strings (reader: NULL-terminated too) */
};

struct sfile_param {
	const char *key, *value;
};

struct sfile_machine {
	const char *name;
	uint32_t nparams;
	const struct sfile_param *params;
};

struct sfile_mmap {
	uint32_t pid;
	uint32_t prot; /* PROT_* bits */
	uint64_t start, len, pgoff;
	uint32_t build_id_len; /* 0 when unknown, at most SFILE_BUILD_ID_MAX */
	const uint8_t *build_id;
	const char *path;
};

struct sfile_comm {
	uint32_t pid, tid;
	const char *name;
};

/* Itanium 2 event address register (data or instruction EAR). */
struct sfile_ear {
	uint16_t kind;	  /* 0 data EAR, 1 instruction EAR */
	uint16_t level;	  /* where the access was satisfied, machine-defined */
	uint32_t latency; /* cycles */
	uint64_t iaddr;	  /* instruction address */
	uint64_t daddr;	  /* data address (data EAR) */
};

struct sfile_branch {
	uint64_t from, to;
	uint64_t flags; /* SFILE_BR_* */
};
#define SFILE_BR_MISPRED 1u
#define SFILE_BR_PREDICTED 2u

struct sfile_sample {
	uint32_t id; /* attr id */
	uint32_t pid, tid;
	uint32_t cpu; /* logical processor */
	uint64_t ip;
	uint64_t time; /* emulated cycles since the start of the run */
	uint64_t period;
	/* Optional fields; which are present is the attr's sample_type. */
	uint64_t addr;
	uint64_t weight;
	uint32_t nregs;
	const uint64_t *regs;
	struct sfile_ear ear;
	uint32_t nbranches;
	const struct sfile_branch *branches;
	uint32_t profileme_len;
	const uint8_t *profileme;
	uint32_t ncallchain;
	const uint64_t *callchain;
	/* The instruction whose event count raised the sample (0: unknown)
	 * and the instructions retired after it up to ip (0: ip is it). */
	uint64_t trigger_ip;
	uint64_t skid;
	/* Where the sampled instruction's loads found their data, as the
	 * timing model tells it (emu/uarch/uarch.h UARCH_DSRC_*; 0: not
	 * known, or no load). */
	uint8_t dsrc;
	/* Reader only: the optional fields decoded (sample_type & known
	 * bits), and the attr of id (NULL when the file has none: then no
	 * optional field could be decoded). */
	uint64_t fields;
	const struct sfile_attr *attr;
};

struct sfile_totals {
	uint32_t id;
	uint64_t value;	  /* counted events */
	uint64_t enabled; /* emulated cycles the event was enabled */
	uint64_t running; /* emulated cycles it was on a counter */
};

struct sfile_lost {
	uint32_t id;
	uint64_t count; /* samples lost (buffer full, throttled, ...) */
};

struct sfile_finished {
	uint64_t records; /* records before this one */
	uint64_t samples;
};

/* One decoded record; its pointers stay valid until the next sfile_next,
 * except sample.attr, which (like sfile_attr's) lives until sfile_rclose. */
struct sfile_rec {
	uint16_t type; /* enum sfile_type */
	uint16_t flags;
	uint32_t size;	/* payload bytes */
	uint64_t block; /* file offset of the block holding it */
	union {
		struct sfile_attr attr;
		struct sfile_cmdline cmdline;
		struct sfile_machine machine;
		struct sfile_mmap mmap;
		struct sfile_comm comm;
		struct sfile_sample sample;
		struct sfile_totals totals;
		struct sfile_lost lost;
		struct sfile_finished finished;
	};
};

/* ---- writing ------------------------------------------------------------
 *
 * Output path and the previous file, like perf: an existing regular file
 * at path is kept as path.old.  sfile_create writes the file header to a
 * new file in path's directory; only when that succeeded does it move the
 * old file to path.old and the new one to path, so every block flushed
 * later is readable at path even if the process is killed.  A write error
 * at any later point (ENOSPC, EIO, ...) removes the new file, moves
 * path.old back to path and makes every later call fail with the same
 * message: the previous data is where it was.  A path that exists and is
 * not a regular file (a FIFO, /dev/null), or is a symbolic link
 * (/dev/stdout), is written in place, through the link; "-" is standard
 * output. */

struct sfile_writer;

struct sfile_wstats {
	uint64_t records, samples, blocks;
	uint64_t raw_bytes;  /* record bytes before compression */
	uint64_t file_bytes; /* bytes written to the file */
};

/* NULL with a one-line message in err on failure. */
struct sfile_writer *sfile_create(const char *path, char *err, size_t errsz);
/* zlib level 0-9 for later blocks.  The default, SFILE_LEVEL, keeps most
 * of level 6's ratio at more than twice its speed (5.9 against 6.3 on
 * a stream of samples, 860k against 375k records/s). */
#define SFILE_LEVEL 3
void sfile_set_level(struct sfile_writer *w, int level);

/* Each returns 0, or -1 with the reason in sfile_werror(w).  Strings must
 * not be NULL (use "") and must fit SFILE_STRING_MAX. */
int sfile_add_attr(struct sfile_writer *w, const struct sfile_attr *a);
int sfile_add_cmdline(struct sfile_writer *w, const struct sfile_cmdline *c);
int sfile_add_machine(struct sfile_writer *w, const struct sfile_machine *m);
int sfile_add_mmap(struct sfile_writer *w, const struct sfile_mmap *m);
int sfile_add_comm(struct sfile_writer *w, const struct sfile_comm *c);
/* The optional fields written are those of the attr of s->id (added
 * before); s->fields and s->attr are ignored. */
int sfile_add_sample(struct sfile_writer *w, const struct sfile_sample *s);
int sfile_add_totals(struct sfile_writer *w, const struct sfile_totals *t);
int sfile_add_lost(struct sfile_writer *w, const struct sfile_lost *l);
/* Compress and write the pending records as one block. */
int sfile_flush(struct sfile_writer *w);

const char *sfile_werror(const struct sfile_writer *w);
void sfile_wstats(const struct sfile_writer *w, struct sfile_wstats *st);

/* Write FINISHED, flush, close.  0, or -1 with a one-line message in err
 * (the previous file is then back at path).  Frees w either way. */
int sfile_close(struct sfile_writer *w, char *err, size_t errsz);
/* Give up: remove the new file, put the previous one back, free w. */
void sfile_abort(struct sfile_writer *w);

/* ---- reading ---------------------------------------------------------- */

struct sfile_reader;

/* What the reader skipped: where, how much, why. */
struct sfile_damage {
	uint64_t offset; /* file offset of the skipped bytes */
	uint64_t bytes;
	uint64_t records; /* records known lost (0 when unknown) */
	const char *why;  /* static text: "CRC mismatch", "truncated block", ... */
};

#define SFILE_NTYPES (SFILE_FINISHED + 1) /* record types, 0 unused */

/* The name of record type t ("sample"), "?" for one unknown. */
const char *sfile_type_name(unsigned t);

struct sfile_rstats {
	uint64_t blocks, records, samples;
	uint64_t by_type[SFILE_NTYPES]; /* the records read well, by type */
	uint64_t unknown;		/* records of types this reader does not know */
	uint64_t damaged_bytes;		/* sum over the damage list */
	uint64_t damaged_blocks;	/* blocks skipped */
	uint64_t bad_records;		/* records skipped inside good blocks */
	uint64_t file_bytes;
	uint64_t raw_bytes; /* uncompressed bytes of the good blocks */
};

/* NULL with a one-line message in err when the file cannot be read at
 * all: missing, not a vpmu data file, newer major version, ...  "-" is
 * standard input; a pipe's or device's bytes are read to the end first. */
struct sfile_reader *sfile_open(const char *path, char *err, size_t errsz);
/* The same on an open, seekable fd (not closed by the reader); name is
 * for messages. */
struct sfile_reader *sfile_open_fd(int fd, const char *name, char *err, size_t errsz);

/* Next record: 1 and *rec filled, 0 at the end, -1 on a read error (see
 * sfile_rerror).  Damage is not an error: it is skipped and listed.
 * Records of unknown types are skipped and counted. */
int sfile_next(struct sfile_reader *r, struct sfile_rec *rec);

/* Everything skipped so far; *n entries (at most 256 are kept, the
 * stats count them all). */
const struct sfile_damage *sfile_damage(const struct sfile_reader *r, size_t *n);
/* "offset 1234: 5678 bytes skipped (CRC mismatch), 12 records lost" */
const char *sfile_damage_str(const struct sfile_damage *d, char *buf, size_t n);
/* 1 once a FINISHED record has been read: the run ended cleanly. */
int sfile_finished(const struct sfile_reader *r);
void sfile_version(const struct sfile_reader *r, unsigned *major, unsigned *minor);
/* The attr of id seen so far, or NULL. */
const struct sfile_attr *sfile_attr(const struct sfile_reader *r, uint32_t id);
void sfile_rstats(const struct sfile_reader *r, struct sfile_rstats *st);
const char *sfile_rerror(const struct sfile_reader *r);
void sfile_rclose(struct sfile_reader *r);

#endif
