/* sym_bias.c — load bias of a mapped ELF image (see sym_bias.h). */
#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

#include "core/sym_bias.h"

#define PAGE 4096u

uint64_t sym_bias_from_vaddr(uint64_t start, uint64_t min_vaddr)
{
	return start - (min_vaddr & ~(uint64_t)(PAGE - 1));
}

int sym_image_span(const char *path, uint64_t *lo, uint64_t *hi)
{
	size_t nph;
	Elf *elf;
	int fd;

	*lo = UINT64_MAX;
	*hi = 0;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF && elf_getphdrnum(elf, &nph) == 0) {
		for (size_t i = 0; i < nph; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
				continue;
			if (ph.p_vaddr < *lo)
				*lo = ph.p_vaddr;
			if (ph.p_vaddr + ph.p_memsz > *hi)
				*hi = ph.p_vaddr + ph.p_memsz;
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	if (*lo == UINT64_MAX || *hi <= *lo)
		return -1;
	*lo &= ~(uint64_t)(PAGE - 1);
	return 0;
}

int sym_image_bias(const char *path, uint64_t start, uint64_t *bias)
{
	uint64_t lo, hi;

	*bias = start;
	if (sym_image_span(path, &lo, &hi))
		return -1;
	*bias = start - lo;
	return 0;
}
