/* sfile_rec.h — record payloads of the sample file: encoding (writer) and
 * bounds-checked decoding (reader).  Internal to core/sfile_*.c.
 *
 * Payload building blocks (man/vpmu-data.5): little-endian integers at
 * their natural alignment from the payload start; a string or byte string
 * is a u32 length, the bytes, zero padding to the next multiple of 8; an
 * array is a u32 count, a zero u32, then the items.
 */
#ifndef VPMU_SFILE_REC_H
#define VPMU_SFILE_REC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/sfile.h"

#define SFILE_REC_HEADER 8
#define SFILE_PROFILEME_MAX 1024

static inline uint16_t sfile_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t sfile_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t sfile_get64(const uint8_t *p)
{
	return (uint64_t)sfile_get32(p) | (uint64_t)sfile_get32(p + 4) << 32;
}

static inline void sfile_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void sfile_put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static inline void sfile_put64(uint8_t *p, uint64_t v)
{
	sfile_put32(p, (uint32_t)v);
	sfile_put32(p + 4, (uint32_t)(v >> 32));
}

/* A growing byte buffer; records are appended to it whole. */
struct sfile_enc {
	uint8_t *p;
	size_t len, cap;
	const char *why; /* set when an append failed */
};

/* Append one record (header, payload, padding) to e.  sample_type is the
 * attr's, used for SAMPLE only.  0, or -1 with e->why set and e->len
 * unchanged. */
int sfile_enc_record(struct sfile_enc *e, uint16_t type, const void *view, uint64_t sample_type);

/* Scratch memory the decoded views point into. */
struct sfile_arena {
	uint8_t *p;
	size_t len, cap;
};

typedef const struct sfile_attr *(*sfile_attr_fn)(void *ctx, uint32_t id);

/* Decode payload p[0..len) of a record of a known type into out (type,
 * flags, size and block are the caller's).  0, or -1 with *why set. */
int sfile_dec_record(uint16_t type, const uint8_t *p, size_t len, struct sfile_arena *a,
		     sfile_attr_fn attr, void *ctx, struct sfile_rec *out, const char **why);

/* Format a one-line message into err (when err and errsz allow). */
void sfile_msg(char *err, size_t errsz, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
