/* sys.c — the instructions that deliberately differ from the host: CPUID
 * reports the emulated processor, RDTSC its own time stamp counter, and
 * XGETBV does not exist (CPUID.OSXSAVE = 0).  Checked on their own terms:
 * CPUID answers the same on every run, names the model and offers the
 * baseline feature set (x86-64 v1 + SSE3, nothing newer); RDTSC never goes
 * backwards; XGETBV raises #UD.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "diff.h"

static const uint8_t code_cpuid[] = { 0x0f, 0xa2, 0x0f, 0x0b };
/* rdtsc; mov %eax,%esi; mov %edx,%edi; rdtsc; ud2 */
static const uint8_t code_rdtsc[] = { 0x0f, 0x31, 0x89, 0xc6, 0x89, 0xd7, 0x0f, 0x31, 0x0f, 0x0b };
/* xor %ecx,%ecx; xgetbv; ud2 */
static const uint8_t code_xgetbv[] = { 0x31, 0xc9, 0x0f, 0x01, 0xd0, 0x0f, 0x0b };
/* xor %ecx,%ecx; rdtscp; ud2 */
static const uint8_t code_rdtscp[] = { 0x31, 0xc9, 0x0f, 0x01, 0xf9, 0x0f, 0x0b };

static int report(const char *name, int bad, unsigned long n, int verbose, unsigned *pass,
		  unsigned *fail)
{
	if (bad) {
		printf("FAIL %-40s %d problems in %lu cases\n", name, bad, n);
		(*fail)++;
	} else {
		if (verbose)
			printf("ok   %-40s %lu cases\n", name, n);
		(*pass)++;
	}
	return bad;
}

/* Run cpuid for leaf/sub with random other register contents. */
static int run_cpuid(struct diff_runner *r, struct diff_rng *g, uint32_t leaf, uint32_t sub,
		     uint32_t out[4])
{
	struct x86_cpu c;
	int bad = 0;

	x86_cpu_init(&c);
	for (unsigned i = 0; i < 16; i++)
		c.r[i] = diff_gen_gpr(g);
	c.r[X86_RSP] = DIFF_STACK;
	c.r[X86_RAX] = (c.r[X86_RAX] & ~0xffffffffull) | leaf;
	c.r[X86_RCX] = (c.r[X86_RCX] & ~0xffffffffull) | sub;
	diff_run_code(r, &c, code_cpuid, sizeof(code_cpuid));
	if (c.fault.pc != DIFF_CODE + 2) {
		printf("FAIL cpuid leaf %#x: stopped at %#llx (signal %d), not at the ud2 after it\n",
		       leaf, (unsigned long long)c.fault.pc, c.fault.sig);
		return 1;
	}
	static const int regs[4] = { X86_RAX, X86_RBX, X86_RCX, X86_RDX };
	for (unsigned i = 0; i < 4; i++) {
		if (c.r[regs[i]] >> 32) {
			printf("FAIL cpuid leaf %#x: upper half of register %d not cleared\n", leaf,
			       regs[i]);
			bad++;
		}
		out[i] = (uint32_t)c.r[regs[i]];
	}
	return bad;
}

static int check_bit(const char *what, uint32_t reg, int bit, int want)
{
	if (!!(reg & (1u << bit)) == want)
		return 0;
	printf("FAIL cpuid: %s %s\n", what, want ? "missing" : "reported");
	return 1;
}

static int test_cpuid(struct diff_runner *r, unsigned long *cases)
{
	static const uint32_t leaves[] = { 0,	       1,	   7,	       0x80000000,
					   0x80000001, 0x80000002, 0x80000003, 0x80000004 };
	struct diff_rng g = { 0xc0ffee };
	const struct x86_model *m = &x86_model_p4_xeon;
	uint32_t v[8][4], again[4], direct[4];
	char vendor[13], brand[49];
	int bad = 0;

	for (unsigned k = 0; k < 8; k++) {
		bad += run_cpuid(r, &g, leaves[k], 0, v[k]);
		(*cases)++;
		for (unsigned rep = 0; rep < 20; rep++) {
			/* same answer whatever the other registers hold */
			bad += run_cpuid(r, &g, leaves[k], 0, again);
			(*cases)++;
			if (memcmp(again, v[k], sizeof(again))) {
				printf("FAIL cpuid leaf %#x: answers differ between runs\n",
				       leaves[k]);
				bad++;
				break;
			}
		}
		x86_cpuid(m, leaves[k], 0, direct);
		if (memcmp(direct, v[k], sizeof(direct))) {
			printf("FAIL cpuid leaf %#x: instruction and x86_cpuid() differ\n",
			       leaves[k]);
			bad++;
		}
	}
	/* leaf 0: vendor in EBX, EDX, ECX */
	memcpy(vendor, &v[0][1], 4);
	memcpy(vendor + 4, &v[0][3], 4);
	memcpy(vendor + 8, &v[0][2], 4);
	vendor[12] = 0;
	if (strcmp(vendor, m->vendor)) {
		printf("FAIL cpuid: vendor '%s', model says '%s'\n", vendor, m->vendor);
		bad++;
	}
	for (unsigned k = 0; k < 3; k++)
		memcpy(brand + 16 * k, v[5 + k], 16);
	brand[48] = 0;
	if (!strstr(brand, m->brand) || !m->brand[0]) {
		printf("FAIL cpuid: brand string '%s' does not name '%s'\n", brand, m->brand);
		bad++;
	}
	if (v[3][0] < 0x80000004) {
		printf("FAIL cpuid: max extended leaf %#x has no brand string\n", v[3][0]);
		bad++;
	}
	if (v[1][0] != m->signature) {
		printf("FAIL cpuid: signature %#x, model says %#x\n", v[1][0], m->signature);
		bad++;
	}
	/* Baseline features (leaf 1 EDX/ECX, SDM vol. 2A CPUID tables) */
	bad += check_bit("TSC", v[1][3], 4, 1);
	bad += check_bit("CX8", v[1][3], 8, 1);
	bad += check_bit("CMOV", v[1][3], 15, 1);
	bad += check_bit("FXSR", v[1][3], 24, 1);
	bad += check_bit("SSE", v[1][3], 25, 1);
	bad += check_bit("SSE2", v[1][3], 26, 1);
	bad += check_bit("SSE3", v[1][2], 0, 1);
	bad += check_bit("SSSE3", v[1][2], 9, 0);
	bad += check_bit("FMA", v[1][2], 12, 0);
	bad += check_bit("SSE4.1", v[1][2], 19, 0);
	bad += check_bit("SSE4.2", v[1][2], 20, 0);
	bad += check_bit("MOVBE", v[1][2], 22, 0);
	bad += check_bit("POPCNT", v[1][2], 23, 0);
	bad += check_bit("XSAVE", v[1][2], 26, 0);
	bad += check_bit("OSXSAVE", v[1][2], 27, 0);
	bad += check_bit("AVX", v[1][2], 28, 0);
	bad += check_bit("BMI1", v[2][1], 3, 0);
	bad += check_bit("AVX2", v[2][1], 5, 0);
	bad += check_bit("BMI2", v[2][1], 8, 0);
	bad += check_bit("LM", v[4][3], 29, 1);
	bad += check_bit("LZCNT", v[4][2], 5, 0);
	return bad;
}

static int test_rdtsc(struct diff_runner *r, unsigned long *cases)
{
	struct x86_cpu c;
	uint64_t last = 0;
	int bad = 0;

	x86_cpu_init(&c);
	c.r[X86_RSP] = DIFF_STACK;
	for (unsigned k = 0; k < 200 && bad < 3; k++) {
		c.r[X86_RAX] = c.r[X86_RDX] = ~0ull;
		(*cases)++;
		diff_run_code(r, &c, code_rdtsc, sizeof(code_rdtsc));
		if (c.fault.pc != DIFF_CODE + 8) {
			printf("FAIL rdtsc: stopped at %#llx (signal %d)\n",
			       (unsigned long long)c.fault.pc, c.fault.sig);
			return bad + 1;
		}
		if ((c.r[X86_RAX] | c.r[X86_RDX]) >> 32) {
			printf("FAIL rdtsc: upper halves of rax/rdx not cleared\n");
			bad++;
		}
		uint64_t t0 = (c.r[X86_RDI] & 0xffffffff) << 32 | (c.r[X86_RSI] & 0xffffffff);
		uint64_t t1 = (c.r[X86_RDX] & 0xffffffff) << 32 | (c.r[X86_RAX] & 0xffffffff);
		if (t0 < last || t1 < t0) {
			printf("FAIL rdtsc: went backwards: %llu, then %llu, then %llu\n",
			       (unsigned long long)last, (unsigned long long)t0,
			       (unsigned long long)t1);
			bad++;
		}
		last = t1;
	}
	return bad;
}

/* An instruction the emulated processor lacks (CPUID says so) raises #UD. */
static int test_absent(struct diff_runner *r, const char *name, const uint8_t *code, size_t n,
		       unsigned long *cases)
{
	struct x86_cpu c;
	enum x86_exit why;

	x86_cpu_init(&c);
	c.r[X86_RSP] = DIFF_STACK;
	(*cases)++;
	why = diff_run_code(r, &c, code, n);
	if (why != X86_EXIT_FAULT || c.fault.pc != DIFF_CODE + 2 || c.fault.sig != SIGILL) {
		printf("FAIL %s: expected SIGILL at the instruction (absent from CPUID), got "
		       "exit %d signal %d at %#llx\n",
		       name, (int)why, c.fault.sig, (unsigned long long)c.fault.pc);
		return 1;
	}
	return 0;
}

void diff_sys_tests(struct diff_runner *r, int verbose, unsigned *pass, unsigned *fail,
		    unsigned long *cases)
{
	unsigned long n;

	n = *cases;
	report("cpuid", test_cpuid(r, cases), *cases - n, verbose, pass, fail);
	n = *cases;
	report("rdtsc", test_rdtsc(r, cases), *cases - n, verbose, pass, fail);
	n = *cases;
	report("xgetbv (absent)", test_absent(r, "xgetbv", code_xgetbv, sizeof(code_xgetbv), cases),
	       *cases - n, verbose, pass, fail);
	n = *cases;
	report("rdtscp (absent)", test_absent(r, "rdtscp", code_rdtscp, sizeof(code_rdtscp), cases),
	       *cases - n, verbose, pass, fail);
}
