/* annogen — write a sample file with known samples, as `vpmu record`
 * lays it out, for the annotate tests.
 *
 * usage: annogen -o FILE [-e EVENT]... [-m PID:START:PATH]... [-s EV:PID:ADDR:COUNT]...
 *   -e EVENT              an ATTR (id = its index among the -e, from 0)
 *   -m PID:START:PATH     an MMAP of the ELF image PATH in process PID at
 *                         START (hex, its lowest page), covering its
 *                         loadable segments, with its build-id; and a COMM
 *   -s EV:PID:ADDR:COUNT  COUNT samples of event EV at ADDR (hex)
 */
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/sfile.h"

static int die(const char *what, const char *arg)
{
	fprintf(stderr, "annogen: %s '%s'\n", what, arg);
	return 2;
}

/* Length of the mapping: lowest page to the end of the last segment. */
static uint64_t image_len(const char *path, uint8_t *id, uint32_t *idlen)
{
	int fd = open(path, O_RDONLY);
	uint64_t lo = UINT64_MAX, hi = 0;
	Elf *e;
	size_t n;
	GElf_Phdr ph;

	*idlen = 0;
	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && !elf_getphdrnum(e, &n)) {
		for (size_t i = 0; i < n; i++) {
			if (!gelf_getphdr(e, (int)i, &ph))
				continue;
			if (ph.p_type == PT_LOAD) {
				if ((ph.p_vaddr & ~0xfffull) < lo)
					lo = ph.p_vaddr & ~0xfffull;
				if (ph.p_vaddr + ph.p_memsz > hi)
					hi = ph.p_vaddr + ph.p_memsz;
			} else if (ph.p_type == PT_NOTE) {
				Elf_Data *d = elf_getdata_rawchunk(e, ph.p_offset, ph.p_filesz,
								   ELF_T_NHDR);
				GElf_Nhdr nh;
				size_t off = 0, no, doff;

				while (d && (off = gelf_getnote(d, off, &nh, &no, &doff)) > 0)
					if (nh.n_type == NT_GNU_BUILD_ID && nh.n_descsz <= 64) {
						memcpy(id, (char *)d->d_buf + doff, nh.n_descsz);
						*idlen = nh.n_descsz;
					}
			}
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return hi > lo ? hi - lo : 0;
}

int main(int argc, char **argv)
{
	const char *out = NULL;
	struct sfile_writer *w;
	char err[512];
	unsigned nev = 0;
	int c;

	while ((c = getopt(argc, argv, "o:e:m:s:")) != -1)
		if (c == 'o')
			out = optarg;
	if (!out)
		return die("usage:", "annogen -o FILE [-e EV]... [-m PID:START:PATH]... [-s ...]");
	w = sfile_create(out, err, sizeof(err));
	if (!w)
		return die(err, out);
	optind = 1;
	while ((c = getopt(argc, argv, "o:e:m:s:")) != -1) {
		if (c == 'e') {
			struct sfile_attr a = {
				.id = nev++, .period = 1000, .name = optarg, .machine = "p4"
			};

			if (sfile_add_attr(w, &a))
				return die(sfile_werror(w), optarg);
		} else if (c == 'm') {
			uint8_t id[64];
			unsigned pid;
			uint64_t start;
			int pos = 0;
			struct sfile_mmap m = { .prot = 5, .build_id = id };
			struct sfile_comm cm;

			if (sscanf(optarg, "%u:%" SCNx64 ":%n", &pid, &start, &pos) != 2 || !pos)
				return die("bad -m", optarg);
			m.pid = pid;
			m.start = start;
			m.path = optarg + pos;
			m.len = image_len(m.path, id, &m.build_id_len);
			if (!m.len)
				return die("cannot read", m.path);
			cm = (struct sfile_comm){ pid, pid,
						  strrchr(m.path, '/') ? strrchr(m.path, '/') + 1 :
									 m.path };
			if (sfile_add_mmap(w, &m) || sfile_add_comm(w, &cm))
				return die(sfile_werror(w), optarg);
		} else if (c == 's') {
			unsigned ev, pid;
			uint64_t addr, count;
			struct sfile_sample s = { .cpu = 0, .period = 1000 };

			if (sscanf(optarg, "%u:%u:%" SCNx64 ":%" SCNu64, &ev, &pid, &addr,
				   &count) != 4)
				return die("bad -s", optarg);
			s.id = ev;
			s.pid = s.tid = pid;
			s.ip = addr;
			for (uint64_t i = 0; i < count; i++) {
				s.time += 997;
				if (sfile_add_sample(w, &s))
					return die(sfile_werror(w), optarg);
			}
		}
	}
	if (sfile_close(w, err, sizeof(err)))
		return die(err, out);
	return 0;
}
