/* sym_buildid.c — the GNU build-id of an ELF file on disk, read from its
 * note segments (what the image mapped from it had, if it is the same
 * build). */
#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>

#include "core/sym.h"

/* The build-id note among the notes of data d: its length into id (max
 * bytes), 0 if none. */
static size_t note_build_id(Elf_Data *d, uint8_t *id, size_t max)
{
	size_t off = 0, name, desc, next;
	GElf_Nhdr nh;

	while (off < d->d_size && (next = gelf_getnote(d, off, &nh, &name, &desc)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((const char *)d->d_buf + name, "GNU", 4) && nh.n_descsz <= max) {
			memcpy(id, (const char *)d->d_buf + desc, nh.n_descsz);
			return nh.n_descsz;
		}
		off = next;
	}
	return 0;
}

size_t sym_file_build_id(const char *path, uint8_t *id, size_t max)
{
	size_t nph, n = 0;
	Elf *elf;
	int fd;

	if (elf_version(EV_CURRENT) == EV_NONE || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF && elf_getphdrnum(elf, &nph) == 0) {
		for (size_t i = 0; i < nph && !n; i++) {
			GElf_Phdr ph;
			Elf_Data *d;

			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE)
				continue;
			d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, ph.p_filesz,
						 ph.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR);
			if (d)
				n = note_build_id(d, id, max);
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return n;
}
