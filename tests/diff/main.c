/* main.c — differential instruction tests: every form of the table
 * (forms_*.S) runs on the host CPU and in the emulator from the same random
 * state, many seeds per form, and every architectural result must match:
 * general registers, the flags the SDM defines for that form and those
 * inputs, RIP, x87 registers/status/tags, MXCSR, XMM registers and the
 * scratch memory.
 *
 * usage: diff [-n CASES] [-f SUBSTRING] [-v]
 * Prints the first mismatches of each failing form, then
 * "diff: N forms, M cases checked" and "N passed, N failed" (per form).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "diff.h"

/* the form table: section diff_forms, filled by the macros of forms.h */
extern const struct diff_form __start_diff_forms[], __stop_diff_forms[];

#define SHOW_PER_FORM 3

static uint64_t hash_text(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
	return h;
}

/* Run every case of one form; returns 1 when all matched. */
static int run_form(struct diff_runner *r, const struct diff_form *f, unsigned ncases, int verbose,
		    unsigned long *cases)
{
	static struct diff_state in;
	static struct diff_out host, emu;
	static uint8_t mem[DIFF_BUFSZ];
	unsigned bad = 0, k;
	uint64_t h = hash_text(f->text);

	diff_runner_form(r, f);
	for (k = 0; k < ncases; k++) {
		struct diff_rng g = { h ^ (k * 0x9e3779b97f4a7c15ull) };
		diff_gen(&g, f, &in, mem);
		diff_run_emu(r, f, &in, mem, &emu);
		if (emu.unsupported) {
			printf("FAIL %-40s unsupported by the emulator\n", f->text);
			return 0;
		}
		diff_run_native(r, f, &in, mem, &host);
		(*cases)++;
		if (diff_compare(f, &in, mem, &host, &emu, 0)) {
			if (bad < SHOW_PER_FORM) {
				printf("FAIL %s  [", f->text);
				for (const uint8_t *p = f->code; p < f->end; p++)
					printf("%s%02x", p == f->code ? "" : " ", *p);
				printf("]  case %u\n", k);
				diff_compare(f, &in, mem, &host, &emu, 1);
			}
			bad++;
		}
	}
	if (bad)
		printf("FAIL %-40s %u of %u cases differ\n", f->text, bad, ncases);
	else if (verbose)
		printf("ok   %-40s %u cases\n", f->text, ncases);
	return bad == 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: diff [-n CASES] [-f SUBSTRING] [-v]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned ncases = 300, pass = 0, fail = 0, forms = 0, skipped = 0;
	uint32_t id[4];
	unsigned long cases = 0;
	const char *filter = NULL;
	int verbose = 0, opt;
	struct diff_runner *r;

	while ((opt = getopt(argc, argv, "n:f:v")) != -1) {
		switch (opt) {
		case 'n': {
			char *end;
			long v = strtol(optarg, &end, 10);
			if (*end || v <= 0 || v > 1000000) {
				fprintf(stderr, "diff: bad case count '%s'\n", optarg);
				return 2;
			}
			ncases = (unsigned)v;
			break;
		}
		case 'f':
			filter = optarg;
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	r = diff_runner_new();
	if (!r)
		return 2;
	/* forms needing a feature the emulated processor does not report are
	 * not part of its instruction set */
	x86_cpuid(&x86_model_p4_xeon, 1, 0, id);
	for (const struct diff_form *f = __start_diff_forms; f < __stop_diff_forms; f++) {
		if (filter && !strstr(f->text, filter))
			continue;
		if ((f->opts & O_CX16) && !(id[2] & (1u << 13))) {
			if (verbose)
				printf("skip %-40s the emulated CPUID has no CX16\n", f->text);
			skipped++;
			continue;
		}
		forms++;
		if (run_form(r, f, ncases, verbose, &cases))
			pass++;
		else
			fail++;
	}
	if (!filter || strstr("cpuid rdtsc xgetbv rdtscp", filter)) {
		unsigned p0 = pass, f0 = fail;
		diff_sys_tests(r, verbose, &pass, &fail, &cases);
		forms += (pass - p0) + (fail - f0);
	}
	if (!filter) {
		diff_coverage(verbose, &pass, &fail);
		forms++;
	}
	diff_runner_free(r);
	printf("diff: %u forms, %lu cases checked", forms, cases);
	if (skipped)
		printf(" (%u forms skipped: features the emulated CPUID does not report)", skipped);
	printf("\n");
	printf("%u passed, %u failed\n", pass, fail);
	return fail ? 1 : 0;
}
