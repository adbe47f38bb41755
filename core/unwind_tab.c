/* unwind_tab.c — read an ELF file's .eh_frame_hdr and .eh_frame once.
 *
 * The header is found through PT_GNU_EH_FRAME (present in every linked
 * object, even without section headers); .eh_frame through the section
 * table when there is one.  Both are copied, so the walk reads the tables
 * from the file and only the stack from guest memory.  libunwind's remote
 * table search accepts only the binary search table linkers write
 * (datarel|sdata4 entries); anything else leaves the table unusable.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unwind_tab.h"

#define PE_OMIT 0xff
#define PE_TABLE 0x3b /* DW_EH_PE_datarel | DW_EH_PE_sdata4 */

/* Decode a DW_EH_PE value at p (the application bits are not needed for
 * the fields read here, only the sizes).  Returns its size, 0 when the
 * encoding is not one of the fixed-size forms. */
static size_t pe_read(uint8_t enc, const uint8_t *p, const uint8_t *end, uint64_t *val)
{
	size_t sz;
	uint64_t v = 0;

	switch (enc & 0x0f) {
	case 0x00: /* absptr */
	case 0x04: /* udata8 */
	case 0x0c: /* sdata8 */
		sz = 8;
		break;
	case 0x03: /* udata4 */
	case 0x0b: /* sdata4 */
		sz = 4;
		break;
	case 0x02: /* udata2 */
	case 0x0a: /* sdata2 */
		sz = 2;
		break;
	default:
		return 0;
	}
	if ((size_t)(end - p) < sz)
		return 0;
	for (size_t i = 0; i < sz; i++)
		v |= (uint64_t)p[i] << (8 * i);
	*val = v;
	return sz;
}

static int copy_sec(struct unwind_sec *s, Elf_Data *d, uint64_t vaddr)
{
	if (!d || !d->d_buf || !d->d_size)
		return -1;
	s->data = malloc(d->d_size);
	if (!s->data)
		return -1;
	memcpy(s->data, d->d_buf, d->d_size);
	s->len = d->d_size;
	s->vaddr = vaddr;
	return 0;
}

/* .eh_frame_hdr through the program headers. */
static int load_hdr(Elf *e, struct unwind_tab *t)
{
	size_t nph;
	GElf_Phdr ph;

	if (elf_getphdrnum(e, &nph))
		return -1;
	for (size_t i = 0; i < nph; i++) {
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_GNU_EH_FRAME)
			continue;
		Elf_Data *d = elf_getdata_rawchunk(e, ph.p_offset, ph.p_filesz, ELF_T_BYTE);

		return copy_sec(&t->hdr, d, ph.p_vaddr);
	}
	return -1;
}

static void load_eh_frame(Elf *e, struct unwind_tab *t)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(e, &shstrndx))
		return;
	while ((scn = elf_nextscn(e, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
			continue;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".eh_frame")) {
			copy_sec(&t->eh, elf_getdata(scn, NULL), sh.sh_addr);
			return;
		}
	}
}

/* Version, encodings, eh_frame_ptr, fde_count, then the table. */
static void parse_hdr(struct unwind_tab *t)
{
	const uint8_t *p = t->hdr.data, *end = p + t->hdr.len;
	uint64_t ehp, count;
	size_t a, b;

	if (t->hdr.len < 4 || p[0] != 1 || p[1] == PE_OMIT || p[2] == PE_OMIT || p[3] != PE_TABLE)
		return;
	a = pe_read(p[1], p + 4, end, &ehp);
	if (!a)
		return;
	b = pe_read(p[2], p + 4 + a, end, &count);
	if (!b || count == 0 || count > (uint64_t)(end - (p + 4 + a + b)) / 8)
		return;
	t->table_off = 4 + a + b;
	t->fde_count = count;
	t->ok = 1;
}

struct unwind_tab *unwind_tab_load(const char *path)
{
	struct unwind_tab *t = calloc(1, sizeof(*t));
	Elf *e;
	int fd;

	if (!t)
		return NULL;
	t->path = strdup(path);
	if (!t->path) {
		free(t);
		return NULL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return t;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && elf_kind(e) == ELF_K_ELF && gelf_getclass(e) == ELFCLASS64 && !load_hdr(e, t)) {
		load_eh_frame(e, t);
		parse_hdr(t);
	}
	if (e)
		elf_end(e);
	close(fd);
	return t;
}

void unwind_tab_free(struct unwind_tab *t)
{
	if (!t)
		return;
	free(t->hdr.data);
	free(t->eh.data);
	free(t->path);
	free(t);
}

static int sec_read(const struct unwind_sec *s, uint64_t v, void *dst, size_t n)
{
	if (v < s->vaddr || v - s->vaddr > s->len || s->len - (v - s->vaddr) < n)
		return -1;
	memcpy(dst, s->data + (v - s->vaddr), n);
	return 0;
}

int unwind_tab_read(const struct unwind_tab *t, uint64_t v, void *dst, size_t n)
{
	if (!sec_read(&t->hdr, v, dst, n) || !sec_read(&t->eh, v, dst, n))
		return 0;
	return -1;
}
