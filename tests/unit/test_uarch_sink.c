/* test_uarch_sink.c — a listening PMU's view of the model (model.h
 * uarch_sink): events taken as sums up to a moving cut land in the same
 * turns of cycles as the same events taken one signal at a time, as
 * multiplexed counters need; the sums reach the sink only once the
 * model has passed the cut; sums stay within the sink's budget, and a
 * loud one sees every retirement; whatever the sink asks for, the model
 * counts the same, down mispredicted paths too; and the signals of a load
 * or a store name its access. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/mman.h>
#include <cmocka.h>

#include "emu/uarch/model.h"
#include "emu/x86/x86.h"

#define SLOT 397   /* cycles per turn: short, so turns end inside instructions */
#define NSLOT 8192 /* turns recorded */

static const unsigned wanted[] = {
	UARCH_EV_CYCLES,   UARCH_EV_INSNS,	 UARCH_EV_UOPS,		UARCH_EV_LOADS,
	UARCH_EV_STORES,   UARCH_EV_L1D_LD_MISS, UARCH_EV_LOAD_LAT,	UARCH_EV_STALL_ROB,
	UARCH_EV_L2_MISS,  UARCH_EV_BUS_BRL,	 UARCH_EV_MEM_READ_LAT, UARCH_EV_FP_UOPS,
	UARCH_EV_SYSCALLS,
};
#define NW (sizeof(wanted) / sizeof(wanted[0]))

/* Counts of each wanted event by turn, as a multiplexer keeps them. */
struct turns {
	uint64_t n[NW][NSLOT];
	uint64_t cut;	       /* the summing sink's uarch_sink.cut */
	uint64_t handed, late; /* sums handed over; signals at or past the cut */
	uint64_t front;	       /* the frontier at the last hand-over */
	int bad;	       /* sums before any cut, or the frontier going back */
};

static void add_span(struct turns *t, unsigned w, uint64_t n, uint64_t c, uint64_t dur)
{
	for (uint64_t end = c + dur; c < end;) {
		uint64_t edge = (c / SLOT + 1) * SLOT, stop = edge < end ? edge : end;
		if (c / SLOT < NSLOT)
			t->n[w][c / SLOT] += n * (stop - c);
		c = stop;
	}
}

static int index_of(unsigned ev)
{
	for (unsigned w = 0; w < NW; w++)
		if (wanted[w] == ev)
			return (int)w;
	return -1;
}

static void deliver(void *ctx, const struct uarch_delivery *d)
{
	struct turns *t = ctx;

	for (unsigned k = 0; k < d->nsig; k++) {
		int w = index_of(d->sig[k].ev);
		assert_true(w >= 0);
		if (d->sig[k].cycle + d->sig[k].dur > t->cut)
			t->late++;
		add_span(t, (unsigned)w, d->sig[k].n, d->sig[k].cycle, d->sig[k].dur);
	}
}

/* Everything summed belongs to the turn that ends at the cut; the cut then
 * moves to the end of the turn the model is in. */
static void sums(void *ctx, const struct uarch_sums *s)
{
	struct turns *t = ctx;

	for (unsigned w = 0; w < NW; w++) {
		uint64_t n = 0;
		for (int th = 0; th < 2; th++)
			n += s->n[wanted[w]][th][0] + s->n[wanted[w]][th][1];
		if (!n)
			continue;
		if (!t->cut || s->frontier < t->front)
			t->bad = 1;
		if ((t->cut - 1) / SLOT < NSLOT)
			t->n[w][(t->cut - 1) / SLOT] += n;
		t->handed += n;
	}
	t->front = s->frontier;
	if (s->frontier >= t->cut)
		t->cut = (s->frontier / SLOT + 1) * SLOT;
}

static void sink_for(struct turns *t, int summed, struct uarch_sink *s)
{
	memset(s, 0, sizeof(*s));
	s->deliver = deliver;
	s->ctx = t;
	for (unsigned w = 0; w < NW; w++) {
		s->want[wanted[w]] = 1;
		s->sum[wanted[w]] = (uint8_t)summed;
	}
	if (summed) {
		s->sums = sums;
		s->sum_max = UINT32_MAX;
		s->quiet = 1;
		s->cut = &t->cut;
	} else {
		t->cut = ~0ull;
	}
}

static void decode(const uint8_t *bytes, size_t n, uint64_t pc, struct x86_insn *i)
{
	assert_int_equal(x86_decode_one(pc, bytes, n, i), (int)n);
}

/* A loop of loads that miss to memory, a dependent add, a store and an
 * FP add (with DRIVE_BRANCH: and a conditional branch taken in an
 * irregular pattern; with DRIVE_STRING: and a rep stosq that stores
 * nothing every other time), with a system call now and then; with
 * DRIVE_BLOCKS, reported up to 7 at a time (uarch_retire_block()).  room:
 * NULL, or the instructions' room for the model (x86_insn.aux). */
enum { DRIVE_BRANCH = 1, DRIVE_STRING = 2, DRIVE_BLOCKS = 4, NDRIVE = 6 };
static void drive(struct uarch *u, int how, char *room)
{
	static const uint8_t ld[] = { 0x48, 0x8b, 0x03 }, /* mov rax, [rbx] */
		add[] = { 0x48, 0x01, 0xc1 },		  /* add rcx, rax */
		st[] = { 0x48, 0x89, 0x0a },		  /* mov [rdx], rcx */
		fp[] = { 0xf2, 0x0f, 0x58, 0xc1 },	  /* addsd xmm0, xmm1 */
		jne[] = { 0x75, 0xf1 },			  /* jne 0x401000 */
		stos[] = { 0xf3, 0x48, 0xab };		  /* rep stosq */
	struct x86_insn ins[NDRIVE];
	struct x86_trace blk[7];
	unsigned nblk = 0;
	int len = how & DRIVE_STRING ? 6 : how & DRIVE_BRANCH ? 5 : 4;

	decode(ld, sizeof(ld), 0x401000, &ins[0]);
	decode(add, sizeof(add), 0x401003, &ins[1]);
	decode(st, sizeof(st), 0x401006, &ins[2]);
	decode(fp, sizeof(fp), 0x401009, &ins[3]);
	decode(jne, sizeof(jne), 0x40100d, &ins[4]);
	decode(stos, sizeof(stos), 0x40100f, &ins[5]);
	for (int k = 0; room && k < NDRIVE; k++)
		ins[k].aux = room + k * uarch_insn_aux_size();
	for (int n = 0; n < 12000; n++) {
		const struct x86_insn *i = &ins[n % len];
		struct x86_trace t = { .i = i, .next = i->pc + i->len };
		if (i->xclass == X86_XC_JCC && ((uint32_t)(n / 5) * 2654435761u) >> 31) {
			t.taken = 1;
			t.next = 0x401000;
		}
		if (i->mact) {
			t.nmem = 1;
			t.addr[0] = (i->mact & 1 ? 0x10000000ull : 0x20000000ull) +
				    (uint64_t)n * 136 % (8u << 20);
			t.size[0] = 8;
			t.load = i->mact & 1;
			t.store = (uint8_t)(i->mact >> 1);
		}
		if (i->imp == X86_IMP_STOS && n / len % 2) {
			t.nmem = 1;
			t.addr[0] = 0x30000000ull + (uint64_t)n * 8 % (1u << 20);
			t.size[0] = 64;
			t.store = 1;
			t.reps = 8;
		}
		if (how & DRIVE_BLOCKS)
			blk[nblk++] = t;
		else
			uarch_retire(u, 0, &t);
		if (nblk == 7 || (nblk && n % 1000 == 999)) {
			uarch_retire_block(u, 0, blk, nblk);
			nblk = 0;
		}
		if (n % 1000 == 999)
			uarch_syscall(u, 0, 39, NULL);
	}
	if (nblk)
		uarch_retire_block(u, 0, blk, nblk);
	uarch_flush(u);
}

static void test_sums_land_in_their_turns(void **state)
{
	struct turns *ref = calloc(1, sizeof(*ref)), *sum = calloc(1, sizeof(*sum));
	struct uarch_counts *c1 = calloc(1, sizeof(*c1)), *c2 = calloc(1, sizeof(*c2));
	const struct uarch_machine *m = uarch_machine_find("p4");
	struct uarch *u1, *u2;
	struct uarch_sink s;

	(void)state;
	assert_non_null(ref && sum && c1 && c2);
	u1 = uarch_new(m, c1, 1);
	u2 = uarch_new(m, c2, 1);
	assert_non_null(u1 && u2);
	sink_for(ref, 0, &s);
	assert_int_equal(uarch_set_sink(u1, &s), 0);
	sink_for(sum, 1, &s);
	assert_int_equal(uarch_set_sink(u2, &s), 0);
	drive(u1, 0, NULL);
	drive(u2, 0, NULL);
	/* the same model: the same counts, however the sink takes them */
	assert_memory_equal(c1, c2, sizeof(*c1));
	assert_true((c1->n[UARCH_EV_CYCLES][0][0] + c1->n[UARCH_EV_CYCLES][0][1]) / SLOT < NSLOT);
	for (unsigned w = 0; w < NW; w++)
		for (unsigned k = 0; k < NSLOT; k++)
			if (ref->n[w][k] != sum->n[w][k])
				fail_msg("%s in turn %u: %llu one signal at a time, %llu summed",
					 uarch_event_name(wanted[w]), k,
					 (unsigned long long)ref->n[w][k],
					 (unsigned long long)sum->n[w][k]);
	/* both ways were taken: most as sums, some as signals past the cut */
	assert_true(sum->handed > c1->n[UARCH_EV_INSNS][0][0] / 2);
	assert_true(sum->late > 0);
	assert_false(sum->bad);
	uarch_free(u1);
	uarch_free(u2);
	free(ref);
	free(sum);
	free(c1);
	free(c2);
}

static void ignore(void *ctx, const struct uarch_delivery *d)
{
	(void)ctx;
	(void)d;
}

static void ignore_sums(void *ctx, const struct uarch_sums *s)
{
	(void)ctx;
	(void)s;
}

static const char *const machines[] = { "p4", "alpha", "xscale", "ia64" };
#define NMACHINES (sizeof(machines) / sizeof(machines[0]))

/* Fail unless machine m counted every event in b as in a (b counted how). */
static void same_counts(const struct uarch_counts *a, const struct uarch_counts *b, unsigned m,
			const char *how)
{
	for (unsigned ev = 0; ev < UARCH_NEV; ev++)
		if (memcmp(a->n[ev], b->n[ev], sizeof(a->n[ev])))
			fail_msg("%s: %s differs %s", machines[m], uarch_event_name(ev), how);
}

/* The model compiles its work per instruction for the shape of core and
 * for what the sink asks (model.c RK_*): every machine counts the same
 * with no sink, with every event signalled, with every event signalled
 * and instruction records, and with every event summed. */
static void test_every_sink_counts_alike(void **state)
{
	struct uarch_counts *c = calloc(4, sizeof(*c));

	(void)state;
	assert_non_null(c);
	for (unsigned k = 0; k < NMACHINES; k++) {
		const struct uarch_machine *m = uarch_machine_find(machines[k]);
		assert_non_null(m);
		memset(c, 0, 4 * sizeof(*c));
		for (int v = 0; v < 4; v++) {
			struct uarch *u = uarch_new(m, &c[v], 1);
			struct uarch_sink s = { .deliver = ignore };
			assert_non_null(u);
			memset(s.want, 1, sizeof(s.want));
			if (v == 2)
				s.want_insn = 1;
			if (v == 3) {
				memset(s.sum, 1, sizeof(s.sum));
				s.sums = ignore_sums;
				s.sum_max = UINT32_MAX;
				s.quiet = 1;
			}
			if (v > 0)
				assert_int_equal(uarch_set_sink(u, &s), 0);
			drive(u, DRIVE_BRANCH, NULL);
			uarch_free(u);
		}
		assert_true(c[0].n[UARCH_EV_BR_T_PRED][0][0] > 0);
		assert_true(c[0].n[UARCH_EV_BR_NT_MISP][0][0] > 0);
		for (int v = 1; v < 4; v++) {
			char how[32];
			snprintf(how, sizeof(how), "with sink %d", v);
			same_counts(&c[0], &c[v], k, how);
		}
	}
	free(c);
}

/* Instructions reported a block at a time count as one at a time, on
 * every machine, with and without a sink. */
static void test_blocks_count_alike(void **state)
{
	struct uarch_counts *c = calloc(2, sizeof(*c));

	(void)state;
	assert_non_null(c);
	for (unsigned k = 0; k < NMACHINES; k++) {
		for (int sink = 0; sink < 2; sink++) {
			memset(c, 0, 2 * sizeof(*c));
			for (int v = 0; v < 2; v++) {
				struct uarch *u =
					uarch_new(uarch_machine_find(machines[k]), &c[v], 1);
				struct uarch_sink s = { .deliver = ignore };
				assert_non_null(u);
				memset(s.want, 1, sizeof(s.want));
				if (sink)
					assert_int_equal(uarch_set_sink(u, &s), 0);
				drive(u, DRIVE_BRANCH | DRIVE_STRING | (v ? DRIVE_BLOCKS : 0),
				      NULL);
				uarch_free(u);
			}
			same_counts(&c[0], &c[1], k, sink ? "in blocks, with a sink" : "in blocks");
			assert_true(c[0].n[UARCH_EV_INSNS][0][0] > 0);
		}
	}
	free(c);
}

/* An instruction's µops are kept in its room once cracked (x86_insn.aux):
 * the counts are those of cracking it every time, also for a string
 * operation whose accesses differ from one time to the next. */
static void test_kept_uops_count_alike(void **state)
{
	struct uarch_counts *c = calloc(2, sizeof(*c));
	char *room = calloc(NDRIVE, uarch_insn_aux_size());

	(void)state;
	assert_non_null(c && room);
	for (unsigned k = 0; k < NMACHINES; k++) {
		memset(c, 0, 2 * sizeof(*c));
		memset(room, 0, NDRIVE * uarch_insn_aux_size());
		for (int v = 0; v < 2; v++) {
			struct uarch *u = uarch_new(uarch_machine_find(machines[k]), &c[v], 1);
			assert_non_null(u);
			drive(u, DRIVE_BRANCH | DRIVE_STRING, v ? room : NULL);
			uarch_free(u);
		}
		same_counts(&c[0], &c[1], k, "with kept µops");
		assert_true(c[0].n[UARCH_EV_STORES][0][0] > 0);
		/* every instruction's room was used */
		for (int i = 0; i < NDRIVE; i++) {
			const char *r = room + i * uarch_insn_aux_size();
			size_t z = 0;
			while (z < uarch_insn_aux_size() && !r[z])
				z++;
			assert_true(z < uarch_insn_aux_size());
		}
	}
	free(room);
	free(c);
}

static void to_model(void *arg, const struct x86_trace *t)
{
	uarch_retire(arg, 0, t);
}

static void to_model_block(void *arg, const struct x86_trace *t, unsigned n)
{
	uarch_retire_block(arg, 0, t, n);
}

/* A loop whose branch follows random data, run by the emulator into the
 * model, which walks down each mispredicted path (those need the cpu and
 * its decoded code); a block's instructions reported at once with
 * blocks. */
#define TURNS 400
static void run_branchy(struct uarch *u, int blocks)
{
	static const uint8_t code[] = {
		0x48, 0x8b, 0x03,	/* 0: mov rax, [rbx] */
		0x48, 0x83, 0xc3, 0x08, /* add rbx, 8 */
		0xa8, 0x01,		/* test al, 1 */
		0x74, 0x03,		/* jz 14 */
		0x48, 0x03, 0x0b,	/* add rcx, [rbx] */
		0x48, 0xff, 0xca,	/* 14: dec rdx */
		0x75, 0xed,		/* jnz 0 */
		0x0f, 0x0b,		/* ud2 */
	};
	static uint64_t data[TURNS + 1];
	uint8_t *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct x86_cpu *cpu = calloc(1, sizeof(*cpu));
	struct x86_counts cnt = { 0 };
	uint64_t x = 88172645463325252ull;

	assert_true(page != MAP_FAILED);
	assert_non_null(cpu);
	memcpy(page, code, sizeof(code));
	for (unsigned k = 0; k <= TURNS; k++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		data[k] = x;
	}
	x86_cpu_init(cpu);
	cpu->cache = x86_cache_new();
	assert_non_null(cpu->cache);
	x86_cache_set_aux(cpu->cache, uarch_insn_aux_size());
	cpu->cnt = &cnt;
	cpu->rip = (uint64_t)page;
	cpu->r[X86_RBX] = (uint64_t)data;
	cpu->r[X86_RDX] = TURNS;
	cpu->trace = to_model;
	cpu->trace_block = blocks ? to_model_block : NULL;
	cpu->trace_arg = u;
	assert_int_equal(x86_run(cpu, 100000), X86_EXIT_FAULT);
	uarch_flush(u);
	x86_cache_free(cpu->cache);
	free(cpu);
	munmap(page, 4096);
}

/* The walks down mispredicted paths count alike when the events they
 * raise are only added (no sink) and when each is signalled. */
static void test_wrong_paths_count_alike(void **state)
{
	struct uarch_counts *c = calloc(2, sizeof(*c));

	(void)state;
	assert_non_null(c);
	for (unsigned k = 0; k < NMACHINES; k++) {
		memset(c, 0, 2 * sizeof(*c));
		for (int v = 0; v < 2; v++) {
			struct uarch *u = uarch_new(uarch_machine_find(machines[k]), &c[v], 1);
			struct uarch_sink s = { .deliver = ignore };

			assert_non_null(u);
			memset(s.want, 1, sizeof(s.want));
			if (v)
				assert_int_equal(uarch_set_sink(u, &s), 0);
			run_branchy(u, 0);
			uarch_free(u);
		}
		same_counts(&c[0], &c[1], k, "down mispredicted paths, with a sink");
		assert_true(c[0].n[UARCH_EV_BR_COND_MISP][0][0] > TURNS / 8);
		assert_true(c[0].n[UARCH_EV_INSNS_WP][0][0] > 0);
	}
	free(c);
}

/* Instruction records as a sink gets them (one at a time, each with the
 * frontier of its delivery), and how. */
struct records {
	struct uarch_insn *r;
	size_t n, cap, retired;
	unsigned deliveries, with_tr;
	int batched;
};

static void keep_records(void *ctx, const struct uarch_delivery *d)
{
	struct records *rs = ctx;

	rs->deliveries++;
	rs->with_tr += d->tr != NULL;
	for (unsigned k = 0; k < d->ninsn; k++) {
		if (rs->n == rs->cap) {
			rs->cap = rs->cap ? 2 * rs->cap : 1024;
			rs->r = realloc(rs->r, rs->cap * sizeof(*rs->r));
			assert_non_null(rs->r);
		}
		if (!rs->batched)
			assert_int_equal(d->insn[k].frontier, d->frontier);
		rs->retired += !(d->insn[k].flags & UARCH_I_ABORTED);
		rs->r[rs->n++] = d->insn[k];
	}
}

/* A sink that takes a block's records at once gets, on every machine,
 * the records one at a time would have brought, down mispredicted paths
 * too, each stamped with the frontier its own delivery would have had. */
static void test_batched_records_come_as_alone(void **state)
{
	(void)state;
	for (unsigned k = 0; k < NMACHINES; k++) {
		struct records rs[2] = { { 0 } };
		struct uarch_counts *c = calloc(2, sizeof(*c));

		assert_non_null(c);
		for (int v = 0; v < 2; v++) {
			struct uarch *u = uarch_new(uarch_machine_find(machines[k]), &c[v], 1);
			struct uarch_sink s = { .deliver = keep_records, .ctx = &rs[v] };

			assert_non_null(u);
			rs[v].batched = v;
			s.want[UARCH_EV_L2_MISS] = 1;
			s.want_insn = 1;
			s.insn_batch = (uint8_t)v;
			assert_int_equal(uarch_set_sink(u, &s), 0);
			run_branchy(u, v);
			uarch_free(u);
		}
		same_counts(&c[0], &c[1], k, "with records in batches");
		assert_true(rs[0].retired > 4 * TURNS && rs[0].n > rs[0].retired);
		assert_int_equal(rs[0].n, rs[1].n);
		for (size_t i = 0; i < rs[0].n; i++)
			if (memcmp(&rs[0].r[i], &rs[1].r[i], sizeof(rs[0].r[i])))
				fail_msg("%s: record %zu (pc %#llx) differs in a batch",
					 machines[k], i, (unsigned long long)rs[0].r[i].pc);
		/* one at a time: a delivery for each retirement; in batches, a
		 * few for each block */
		assert_int_equal(rs[0].with_tr, rs[0].retired);
		assert_int_equal(rs[1].with_tr, 0);
		assert_true(rs[1].deliveries * 2 < rs[0].deliveries);
		free(rs[0].r);
		free(rs[1].r);
		free(c);
	}
}

/* A sink that sums within a budget, as a sampling counter does: it asks
 * for the sums (cut 0) when an event it budgets comes signalled, and
 * every fourth hand-over goes loud for 50 retirements. */
#define BUDGET 500
struct budgeted {
	struct uarch_budget bud;
	uint64_t cut;
	uint64_t got[UARCH_NEV]; /* signalled and summed */
	uint64_t given[UARCH_NEV];
	unsigned handovers, loud_left, over;
	unsigned expect; /* index of the instruction the next delivery should be */
	unsigned skipped, loud_retired;
	int len, fresh; /* fresh: the retirements before were not all seen */
};

static void budgeted_deliver(void *ctx, const struct uarch_delivery *d)
{
	struct budgeted *b = ctx;
	unsigned at;

	for (unsigned k = 0; k < d->nsig; k++) {
		b->got[d->sig[k].ev] += (uint64_t)d->sig[k].n * d->sig[k].dur;
		if (b->bud.n[d->sig[k].ev] != ~0ull)
			b->cut = 0;
	}
	if (!d->tr)
		return;
	/* the driven loop's instructions, in order: at 0x401000 + 3 × 0..4
	 * (the fourth is longer, the fifth the branch) */
	at = (unsigned)((d->tr->i->pc - 0x401000) / 3);
	if (b->bud.loud && !b->fresh) {
		b->skipped += at != b->expect % (unsigned)b->len;
		b->loud_retired++;
	}
	b->fresh = 0;
	b->expect = at + 1;
	if (b->loud_left && !--b->loud_left)
		b->cut = 0; /* back to quiet: the budget is set anew at the sums */
}

static void budgeted_sums(void *ctx, const struct uarch_sums *s)
{
	struct budgeted *b = ctx;

	for (unsigned ev = 0; ev < UARCH_NEV; ev++) {
		uint64_t n = s->n[ev][0][0] + s->n[ev][0][1] + s->n[ev][1][0] + s->n[ev][1][1];
		b->got[ev] += n;
		if (n > b->given[ev])
			b->over++;
	}
	b->handovers++;
	b->fresh = 1;
	b->bud.loud = b->handovers % 4 == 0;
	b->loud_left = b->bud.loud ? 50 : 0;
	/* loud, the budget is unlimited: only loudness delivers a retirement
	 * that raised no signal */
	for (unsigned w = 0; w < NW; w++)
		b->given[wanted[w]] = b->bud.n[wanted[w]] = b->bud.loud ? ~0ull : BUDGET;
	b->cut = ~0ull;
}

static void test_budget_bounds_sums(void **state)
{
	struct uarch_counts *c = calloc(2, sizeof(*c));
	struct budgeted *b = calloc(1, sizeof(*b));
	struct uarch *u0, *u1;
	struct uarch_sink s;

	(void)state;
	assert_non_null(c && b);
	u0 = uarch_new(uarch_machine_find("p4"), &c[0], 1);
	u1 = uarch_new(uarch_machine_find("p4"), &c[1], 1);
	assert_non_null(u0 && u1);
	memset(&s, 0, sizeof(s));
	s.deliver = budgeted_deliver;
	s.sums = budgeted_sums;
	s.ctx = b;
	s.sum_max = UINT32_MAX;
	s.quiet = 1;
	s.cut = &b->cut;
	s.budget = &b->bud;
	for (unsigned w = 0; w < NW; w++) {
		s.want[wanted[w]] = 1;
		s.sum[wanted[w]] = 1;
		b->given[wanted[w]] = b->bud.n[wanted[w]] = BUDGET;
	}
	b->cut = ~0ull;
	b->len = 5;
	assert_int_equal(uarch_set_sink(u1, &s), 0);
	assert_true(b->bud.on);
	drive(u0, DRIVE_BRANCH, NULL);
	drive(u1, DRIVE_BRANCH, NULL);
	same_counts(&c[0], &c[1], 0, "summed within a budget");
	/* the sink got every event, never more as sums than it allowed */
	for (unsigned w = 0; w < NW; w++) {
		uint64_t n = 0;
		for (int th = 0; th < 2; th++)
			n += c[0].n[wanted[w]][th][0] + c[0].n[wanted[w]][th][1];
		assert_int_equal(b->got[wanted[w]], n);
	}
	assert_int_equal(b->over, 0);
	assert_true(b->handovers > 12000 / BUDGET);
	/* loud, no retirement is left out */
	assert_true(b->loud_retired > 100);
	assert_int_equal(b->skipped, 0);
	uarch_free(u0);
	uarch_free(u1);
	free(b);
	free(c);
}

/* What a sink that looks at accesses saw. */
struct accesses {
	unsigned min;	  /* sig_min of LOAD_LAT */
	uint64_t lat[2];  /* load-latency signals by access */
	uint64_t slow[2]; /* of them, those over 100 cycles */
	uint64_t under;	  /* load-latency signals below min */
	uint64_t stores;  /* stores signals naming the store */
	uint64_t wrong;	  /* a signal naming no access it was for, or one it was not for */
	uint64_t dtlb;	  /* DTLB signals naming an access */
};

static void access_deliver(void *ctx, const struct uarch_delivery *d)
{
	struct accesses *a = ctx;

	for (unsigned k = 0; k < d->nsig; k++) {
		const struct uarch_sig *s = &d->sig[k];
		int mem = s->mem != UARCH_SIG_NOMEM;
		int load = d->tr && mem && s->mem < d->tr->nmem && d->tr->load >> s->mem & 1;
		int store = d->tr && mem && s->mem < d->tr->nmem && d->tr->store >> s->mem & 1;

		switch (s->ev) {
		case UARCH_EV_LOAD_LAT:
			if (!load) {
				a->wrong++;
				break;
			}
			a->lat[s->mem]++;
			a->slow[s->mem] += s->n > 100;
			a->under += s->n < a->min;
			break;
		case UARCH_EV_STORES:
			a->stores += store;
			a->wrong += !store;
			break;
		case UARCH_EV_DTLB_L2_HIT:
		case UARCH_EV_DTLB_WALK:
			a->dtlb += load || store;
			a->wrong += !(load || store);
			break;
		default:
			a->wrong += mem; /* (cycles, instructions: no access) */
		}
	}
}

/* cmpsq reads two places, one the same line again and again, the other
 * a new line of a large region each time; a store writes a third.  The
 * signals of each access name it, and a sink's minimum keeps the loads
 * below it from being raised at all, without changing what is counted. */
static void test_signals_name_their_access(void **state)
{
	static const uint8_t cmps[] = { 0x48, 0xa7 }, /* cmpsq */
		st[] = { 0x48, 0x89, 0x0a };	      /* mov [rdx], rcx */
	static const unsigned evs[] = { UARCH_EV_LOAD_LAT,  UARCH_EV_STORES, UARCH_EV_DTLB_L2_HIT,
					UARCH_EV_DTLB_WALK, UARCH_EV_CYCLES, UARCH_EV_INSNS };
	struct uarch_counts *c = calloc(2, sizeof(*c));
	struct accesses a[2] = { { 0 }, { .min = 50 } };
	struct x86_insn ins[2];

	(void)state;
	assert_non_null(c);
	decode(cmps, sizeof(cmps), 0x401000, &ins[0]);
	decode(st, sizeof(st), 0x401002, &ins[1]);
	for (int k = 0; k < 2; k++) {
		struct uarch *u = uarch_new(uarch_machine_find("ia64"), &c[k], 1);
		struct uarch_sink s;

		assert_non_null(u);
		memset(&s, 0, sizeof(s));
		s.deliver = access_deliver;
		s.ctx = &a[k];
		for (unsigned e = 0; e < sizeof(evs) / sizeof(evs[0]); e++)
			s.want[evs[e]] = 1;
		s.sig_min[UARCH_EV_LOAD_LAT] = a[k].min;
		assert_int_equal(uarch_set_sink(u, &s), 0);
		for (int n = 0; n < 4000; n++) {
			const struct x86_insn *i = &ins[n % 2];
			struct x86_trace t = { .i = i, .next = i->pc + i->len, .nmem = 1 };
			t.size[0] = t.size[1] = 8;
			if (n % 2 == 0) {
				t.nmem = 2;
				t.load = 3;
				t.addr[0] = 0x10000000;
				t.addr[1] = 0x40000000ull + (uint64_t)n * 4160 % (64u << 20);
			} else {
				t.store = 1;
				t.addr[0] = 0x20000000ull + (uint64_t)n * 8;
			}
			uarch_retire(u, 0, &t);
		}
		uarch_flush(u);
		uarch_free(u);
	}
	same_counts(&c[0], &c[1], 3, "with a minimum load latency");
	for (int k = 0; k < 2; k++) {
		assert_int_equal(a[k].wrong, 0);
		assert_int_equal(a[k].under, 0);
		assert_int_equal(a[k].stores, 2000);
		assert_true(a[k].dtlb > 0);
		/* the far access misses, the near one hits */
		assert_true(a[k].slow[1] > 1900);
		assert_true(a[k].slow[0] < 10);
	}
	assert_int_equal(a[0].lat[0], 2000);
	assert_int_equal(a[0].lat[1], 2000);
	/* the minimum: what is left of the near loads is their first misses */
	assert_true(a[1].lat[0] < 10);
	assert_int_equal(a[1].lat[1], a[0].lat[1]);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sums_land_in_their_turns),
		cmocka_unit_test(test_every_sink_counts_alike),
		cmocka_unit_test(test_kept_uops_count_alike),
		cmocka_unit_test(test_wrong_paths_count_alike),
		cmocka_unit_test(test_batched_records_come_as_alone),
		cmocka_unit_test(test_blocks_count_alike),
		cmocka_unit_test(test_budget_bounds_sums),
		cmocka_unit_test(test_signals_name_their_access),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
