/* coverage.c — the table must keep up with the emulator: every mnemonic
 * that has a handler is run by some form of the table, or is listed below
 * with the reason it cannot be compared with the host.
 */
#include <Zydis/Zydis.h>
#include <stdio.h>
#include <stdlib.h>

#include "diff.h"
#include "emu/x86/decode.h"

extern const struct diff_form __start_diff_forms[], __stop_diff_forms[];

static const struct {
	ZydisMnemonic m;
	const char *why;
} excluded[] = {
	{ ZYDIS_MNEMONIC_CPUID, "reports the emulated processor (sys.c)" },
	{ ZYDIS_MNEMONIC_RDTSC, "the emulated time stamp counter (sys.c)" },
	{ ZYDIS_MNEMONIC_RDTSCP, "absent on the emulated processor (sys.c)" },
	{ ZYDIS_MNEMONIC_XGETBV, "absent on the emulated processor (sys.c)" },
	{ ZYDIS_MNEMONIC_SYSCALL, "needs the OS layer (guest programs cover it)" },
	{ ZYDIS_MNEMONIC_SYSEXIT, "#UD on AMD hosts, #GP on Intel ones" },
	{ ZYDIS_MNEMONIC_LZCNT, "never decoded: F3 0F BD is bsr on the emulated processor" },
	{ ZYDIS_MNEMONIC_TZCNT, "never decoded: F3 0F BC is bsf on the emulated processor" },
	/* MMX: outside the required set (SSE/SSE2/SSE3), and the emulator
	 * keeps the MMX registers apart from the x87 stack, the host does not */
	{ ZYDIS_MNEMONIC_EMMS, "MMX" },
	{ ZYDIS_MNEMONIC_MASKMOVQ, "MMX" },
	{ ZYDIS_MNEMONIC_MOVNTQ, "MMX" },
	{ ZYDIS_MNEMONIC_MOVQ2DQ, "MMX" },
	{ ZYDIS_MNEMONIC_MOVDQ2Q, "MMX" },
	{ ZYDIS_MNEMONIC_PSHUFW, "MMX" },
	{ ZYDIS_MNEMONIC_CVTPI2PS, "MMX" },
	{ ZYDIS_MNEMONIC_CVTPI2PD, "MMX" },
	{ ZYDIS_MNEMONIC_CVTPS2PI, "MMX" },
	{ ZYDIS_MNEMONIC_CVTTPS2PI, "MMX" },
	{ ZYDIS_MNEMONIC_CVTPD2PI, "MMX" },
	{ ZYDIS_MNEMONIC_CVTTPD2PI, "MMX" },
};

void diff_coverage(int verbose, unsigned *pass, unsigned *fail)
{
	struct x86_decoder *d = malloc(sizeof(*d));
	char *seen = calloc(X86_NMNEM, 1);
	unsigned missing = 0;

	if (!d || !seen) {
		fprintf(stderr, "diff: out of memory\n");
		exit(2);
	}
	x86_decoder_init(d);
	for (const struct diff_form *f = __start_diff_forms; f < __stop_diff_forms; f++) {
		struct x86_insn i;
		if (x86_decode_insn(d, DIFF_CODE, f->code, (size_t)(f->end - f->code), &i))
			seen[i.mnem] = 1;
	}
	for (size_t k = 0; k < sizeof(excluded) / sizeof(excluded[0]); k++)
		seen[excluded[k].m] = 1;
	for (int m = 0; m < X86_NMNEM; m++) {
		if (!d->tab[m] || seen[m])
			continue;
		if (!missing)
			printf("FAIL coverage: implemented, but no form runs them:");
		printf(" %s", ZydisMnemonicGetString((ZydisMnemonic)m));
		missing++;
	}
	if (missing) {
		printf("\n");
		(*fail)++;
	} else {
		if (verbose)
			printf("ok   coverage: every implemented mnemonic has forms\n");
		(*pass)++;
	}
	free(seen);
	free(d);
}
