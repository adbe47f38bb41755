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

int sym_image_bias(const char *path, uint64_t start, uint64_t *bias)
{
	uint64_t lo = UINT64_MAX;
	size_t nph;
	Elf *elf;
	int fd;

	*bias = start;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && elf_getphdrnum(elf, &nph) == 0) {
		for (size_t i = 0; i < nph; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
			    ph.p_vaddr < lo)
				lo = ph.p_vaddr;
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	if (lo == UINT64_MAX)
		return -1;
	*bias = sym_bias_from_vaddr(start, lo);
	return 0;
}
