/* report_priv.h — between the files of core/report*.c (and the hash map
 * for core/hist_chain.c) only: the address spaces, the resolution cache
 * and the string arena behind struct report. */
#ifndef VPMU_REPORT_PRIV_H
#define VPMU_REPORT_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "core/report.h"

/* Open-addressing map from a pair of u64 to a pointer. */
struct report_map {
	struct report_slot *slot;
	size_t cap, n; /* cap a power of two, 0 when empty */
};

struct report_space {
	struct sym *sym;
	uint32_t pid;
	uint32_t version; /* changes with every image added: cache key */
	size_t nimages;
};

struct report_chunk;

struct report_priv {
	struct report_space **spaces;
	size_t nspaces, spacecap;
	struct report_space *all; /* every process's mappings, made on demand */
	struct report_map pids;	  /* pid -> its space */
	struct report_map locs;	  /* (version<<2 | kind, addr) -> loc */
	struct report_map comms;  /* tid -> name */
	struct report_map inl;	  /* loc -> its inline frames (report_frames.c) */
	uint32_t versions;
	struct report_chunk *chunks; /* arena for locs and strings */
	size_t chunk_used;
	/* every MMAP, to build the shared space when a process lacks one */
	struct sfile_mmap *mmaps;
	size_t nmmaps, mmapcap;
	unsigned flags;
	size_t samplecap, chaincap, regcap, pmcap, sidecap;
	size_t chainused, regused, pmused;
	size_t brcap, brused; /* report.branches */
	size_t lastev;
};

void *report_alloc(struct report_priv *p, size_t n);
char *report_strdup(struct report_priv *p, const char *s);

void *report_map_get(const struct report_map *m, uint64_t a, uint64_t b);
int report_map_put(struct report_map *m, uint64_t a, uint64_t b, void *v);
void report_map_free(struct report_map *m);

/* Add an MMAP to its process's space (and the shared one); 0 or -1 when
 * out of memory. */
int report_add_mmap(struct report_priv *p, const struct sfile_mmap *m);
/* addr of pid resolved as kind; NULL when out of memory. */
enum report_res_kind {
	REPORT_RES_CODE, /* an instruction */
	REPORT_RES_DATA, /* a data address */
	REPORT_RES_RET,	 /* a return address in a call chain: looked up at addr - 1 */
};
struct report_loc *report_resolve(struct report_priv *p, uint32_t pid, uint64_t addr, int kind);
void report_spaces_free(struct report_priv *p);

#endif
