/* string.c — MOVS, STOS, LODS, CMPS, SCAS (byte, word, dword, qword) with
 * REP / REPE / REPNE.
 *
 * SDM vol. 2, "REP/REPE/REPZ/REPNE/REPNZ" and each instruction: rSI/rDI
 * step by ±size after every element (DF), rCX counts down, a fault in the
 * middle leaves the registers describing the elements done so far, so the
 * instruction restarts where it stopped.  The address size (0x67) selects
 * ESI/EDI/ECX, whose writes zero-extend.  The source may carry a segment
 * override (FS/GS base); the destination is always ES (base 0).
 * F2 on MOVS/STOS/LODS repeats like F3, as on Intel processors.
 *
 * Fast paths (DF = 0, 64-bit addresses): MOVS and STOS work in chunks that
 * stay inside one source page and one destination page, so a fault can only
 * happen on a chunk's first element, before the chunk changed anything;
 * REPNE SCASB uses memchr on the same terms.
 */
#include <Zydis/Zydis.h>

#include "int2.h"

#define PAGE 4096ull

/* Keep register updates in memory before the next guest access: a host
 * fault leaves through longjmp and must find them there. */
#define STR_BARRIER() __asm__ volatile("" ::: "memory")

static inline uint64_t areg(const struct x86_cpu *c, const struct x86_insn *i, unsigned r)
{
	return i->asz == 4 ? (uint32_t)c->r[r] : c->r[r];
}

static inline void aput(struct x86_cpu *c, const struct x86_insn *i, unsigned r, uint64_t v)
{
	c->r[r] = i->asz == 4 ? (uint32_t)v : v;
}

static inline uint64_t src_addr(const struct x86_cpu *c, const struct x86_insn *i)
{
	return areg(c, i, X86_RSI) + c->seg_base[i->seg];
}

static inline int64_t step(const struct x86_cpu *c, unsigned size)
{
	return (c->eflags & X86_DF) ? -(int64_t)size : (int64_t)size;
}

static inline int repeated(const struct x86_insn *i)
{
	return (i->flags & (X86_I_REP | X86_I_REPNE)) != 0;
}

static inline uint64_t page_room(uint64_t a)
{
	return PAGE - (a & (PAGE - 1));
}

/* ---- MOVS ----------------------------------------------------------------- */

static inline void movs_one(struct x86_cpu *c, const struct x86_insn *i, unsigned size)
{
	int64_t d = step(c, size);
	x86_st(areg(c, i, X86_RDI), size, x86_ld(src_addr(c, i), size));
	aput(c, i, X86_RSI, c->r[X86_RSI] + (uint64_t)d);
	aput(c, i, X86_RDI, c->r[X86_RDI] + (uint64_t)d);
}

/* Elements one at a time, each retiring completely. */
static void movs_slow(struct x86_cpu *c, const struct x86_insn *i, unsigned size, uint64_t n)
{
	for (; n; n--) {
		movs_one(c, i, size);
		aput(c, i, X86_RCX, c->r[X86_RCX] - 1);
		STR_BARRIER();
	}
}

static X86_GUEST_MEM void movs_fast(struct x86_cpu *c, const struct x86_insn *i, unsigned size)
{
	uint64_t n = c->r[X86_RCX];

	while (n) {
		uint64_t s = src_addr(c, i), d = c->r[X86_RDI];
		uint64_t room = page_room(s) < page_room(d) ? page_room(s) : page_room(d);
		uint64_t k = room / size, bytes;

		if (!k) { /* an element straddles a page boundary */
			movs_slow(c, i, size, 1);
			n--;
			continue;
		}
		if (k > n)
			k = n;
		bytes = k * size;
		if (d > s && d - s < bytes) {
			/* destination ahead of the source inside the chunk: the
			 * forward element-by-element copy replicates a pattern,
			 * which memmove would not */
			movs_slow(c, i, size, k);
		} else {
			memmove((void *)d, (const void *)s, bytes);
			c->r[X86_RSI] += bytes;
			c->r[X86_RDI] += bytes;
			c->r[X86_RCX] -= k;
			STR_BARRIER();
		}
		n -= k;
	}
}

static inline void do_movs(struct x86_cpu *c, const struct x86_insn *i, unsigned size)
{
	if (!repeated(i))
		movs_one(c, i, size);
	else if (!(c->eflags & X86_DF) && i->asz == 8)
		movs_fast(c, i, size);
	else
		movs_slow(c, i, size, areg(c, i, X86_RCX));
}

/* ---- STOS ----------------------------------------------------------------- */

static inline void stos_one(struct x86_cpu *c, const struct x86_insn *i, unsigned size)
{
	x86_st(areg(c, i, X86_RDI), size, c->r[X86_RAX]);
	aput(c, i, X86_RDI, c->r[X86_RDI] + (uint64_t)step(c, size));
}

static X86_GUEST_MEM void stos_fast(struct x86_cpu *c, unsigned size)
{
	uint64_t n = c->r[X86_RCX], v = c->r[X86_RAX];

	while (n) {
		uint64_t d = c->r[X86_RDI], k = page_room(d) / size, bytes;

		if (!k) { /* straddles a page boundary */
			x86_st(d, size, v);
			c->r[X86_RDI] += size;
			c->r[X86_RCX]--;
			STR_BARRIER();
			n--;
			continue;
		}
		if (k > n)
			k = n;
		bytes = k * size;
		if (size == 1) {
			memset((void *)d, (int)(v & 0xff), bytes);
		} else {
			for (uint64_t o = 0; o < bytes; o += size)
				memcpy((void *)(d + o), &v, size); /* little-endian: low bytes */
		}
		c->r[X86_RDI] += bytes;
		c->r[X86_RCX] -= k;
		STR_BARRIER();
		n -= k;
	}
}

static inline void do_stos(struct x86_cpu *c, const struct x86_insn *i, unsigned size)
{
	if (!repeated(i)) {
		stos_one(c, i, size);
	} else if (!(c->eflags & X86_DF) && i->asz == 8) {
		stos_fast(c, size);
	} else {
		for (uint64_t n = areg(c, i, X86_RCX); n; n--) {
			stos_one(c, i, size);
			aput(c, i, X86_RCX, c->r[X86_RCX] - 1);
			STR_BARRIER();
		}
	}
}

/* ---- LODS ----------------------------------------------------------------- */

static inline void lods_one(struct x86_cpu *c, const struct x86_insn *i, unsigned size)
{
	x86_put_gpr(c, X86_RAX, size, x86_ld(src_addr(c, i), size));
	aput(c, i, X86_RSI, c->r[X86_RSI] + (uint64_t)step(c, size));
}

static inline void do_lods(struct x86_cpu *c, const struct x86_insn *i, unsigned size)
{
	if (!repeated(i)) {
		lods_one(c, i, size);
		return;
	}
	for (uint64_t n = areg(c, i, X86_RCX); n; n--) {
		lods_one(c, i, size);
		aput(c, i, X86_RCX, c->r[X86_RCX] - 1);
		STR_BARRIER();
	}
}

/* ---- CMPS / SCAS -----------------------------------------------------------
 * Flags as CMP: CMPS compares [rSI] with [rDI] (source minus destination),
 * SCAS the accumulator with [rDI].  REPE stops after an element that
 * differs, REPNE after one that is equal; rCX = 0 on entry does nothing and
 * leaves the flags alone. */

/* One compare; returns whether the operands were equal. */
static inline int cmps_one(struct x86_cpu *c, const struct x86_insn *i, unsigned size)
{
	int64_t d = step(c, size);
	uint64_t a = x86_ld(src_addr(c, i), size), b = x86_ld(areg(c, i, X86_RDI), size);

	x86_setlf(c, X86_LF_SUB, size, a, b, a - b);
	aput(c, i, X86_RSI, c->r[X86_RSI] + (uint64_t)d);
	aput(c, i, X86_RDI, c->r[X86_RDI] + (uint64_t)d);
	return a == b;
}

static inline int scas_one(struct x86_cpu *c, const struct x86_insn *i, unsigned size)
{
	uint64_t a = c->r[X86_RAX] & x86_mask(size), b = x86_ld(areg(c, i, X86_RDI), size);

	x86_setlf(c, X86_LF_SUB, size, a, b, a - b);
	aput(c, i, X86_RDI, c->r[X86_RDI] + (uint64_t)step(c, size));
	return a == b;
}

static inline void do_cmps(struct x86_cpu *c, const struct x86_insn *i, unsigned size)
{
	int until_equal = (i->flags & X86_I_REPNE) != 0;

	if (!repeated(i)) {
		cmps_one(c, i, size);
		return;
	}
	for (uint64_t n = areg(c, i, X86_RCX); n; n--) {
		int eq = cmps_one(c, i, size);
		aput(c, i, X86_RCX, c->r[X86_RCX] - 1);
		STR_BARRIER();
		if (eq == until_equal)
			break;
	}
}

/* REPNE SCASB, DF = 0: memchr a page at a time. */
static X86_GUEST_MEM void scasb_repne_fast(struct x86_cpu *c)
{
	uint64_t n = c->r[X86_RCX];
	uint8_t al = (uint8_t)c->r[X86_RAX];

	while (n) {
		uint64_t d = c->r[X86_RDI], k = page_room(d);
		const uint8_t *hit;
		uint64_t done;

		if (k > n)
			k = n;
		hit = memchr((const void *)d, al, k);
		done = hit ? (uint64_t)(hit - (const uint8_t *)d) + 1 : k;
		x86_setlf(c, X86_LF_SUB, 1, al, x86_ld8(d + done - 1), al - x86_ld8(d + done - 1));
		c->r[X86_RDI] += done;
		c->r[X86_RCX] -= done;
		STR_BARRIER();
		if (hit)
			return;
		n -= k;
	}
}

static inline void do_scas(struct x86_cpu *c, const struct x86_insn *i, unsigned size)
{
	int until_equal = (i->flags & X86_I_REPNE) != 0;

	if (!repeated(i)) {
		scas_one(c, i, size);
		return;
	}
	if (size == 1 && until_equal && !(c->eflags & X86_DF) && i->asz == 8) {
		scasb_repne_fast(c);
		return;
	}
	for (uint64_t n = areg(c, i, X86_RCX); n; n--) {
		int eq = scas_one(c, i, size);
		aput(c, i, X86_RCX, c->r[X86_RCX] - 1);
		STR_BARRIER();
		if (eq == until_equal)
			break;
	}
}

/* ---- handlers ---------------------------------------------------------------- */

#define STR_SIZE(sfx, size)                                                  \
	static void h_movs##sfx(struct x86_cpu *c, const struct x86_insn *i) \
	{                                                                    \
		do_movs(c, i, size);                                         \
	}                                                                    \
	static void h_stos##sfx(struct x86_cpu *c, const struct x86_insn *i) \
	{                                                                    \
		do_stos(c, i, size);                                         \
	}                                                                    \
	static void h_lods##sfx(struct x86_cpu *c, const struct x86_insn *i) \
	{                                                                    \
		do_lods(c, i, size);                                         \
	}                                                                    \
	static void h_cmps##sfx(struct x86_cpu *c, const struct x86_insn *i) \
	{                                                                    \
		do_cmps(c, i, size);                                         \
	}                                                                    \
	static void h_scas##sfx(struct x86_cpu *c, const struct x86_insn *i) \
	{                                                                    \
		do_scas(c, i, size);                                         \
	}

STR_SIZE(b, 1)
STR_SIZE(w, 2)
STR_SIZE(d, 4)
STR_SIZE(q, 8)

void x86_str_movsd(struct x86_cpu *c, const struct x86_insn *i)
{
	h_movsd(c, i);
}

void x86_str_cmpsd(struct x86_cpu *c, const struct x86_insn *i)
{
	h_cmpsd(c, i);
}

void x86_str_register(x86_fn *tab)
{
	tab[ZYDIS_MNEMONIC_MOVSB] = h_movsb;
	tab[ZYDIS_MNEMONIC_MOVSW] = h_movsw;
	tab[ZYDIS_MNEMONIC_MOVSQ] = h_movsq;
	tab[ZYDIS_MNEMONIC_STOSB] = h_stosb;
	tab[ZYDIS_MNEMONIC_STOSW] = h_stosw;
	tab[ZYDIS_MNEMONIC_STOSD] = h_stosd;
	tab[ZYDIS_MNEMONIC_STOSQ] = h_stosq;
	tab[ZYDIS_MNEMONIC_LODSB] = h_lodsb;
	tab[ZYDIS_MNEMONIC_LODSW] = h_lodsw;
	tab[ZYDIS_MNEMONIC_LODSD] = h_lodsd;
	tab[ZYDIS_MNEMONIC_LODSQ] = h_lodsq;
	tab[ZYDIS_MNEMONIC_CMPSB] = h_cmpsb;
	tab[ZYDIS_MNEMONIC_CMPSW] = h_cmpsw;
	tab[ZYDIS_MNEMONIC_CMPSQ] = h_cmpsq;
	tab[ZYDIS_MNEMONIC_SCASB] = h_scasb;
	tab[ZYDIS_MNEMONIC_SCASW] = h_scasw;
	tab[ZYDIS_MNEMONIC_SCASD] = h_scasd;
	tab[ZYDIS_MNEMONIC_SCASQ] = h_scasq;
	/* MOVSD and CMPSD are shared with SSE2: the SSE handlers own those
	 * slots and call x86_str_movsd / x86_str_cmpsd for the string form. */
}
