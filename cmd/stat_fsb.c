/* stat_fsb.c — the front-side-bus metrics of `vpmu stat --metrics fsb`
 * (stat_metrics.h), as HP Caliper's sysbus event set defines them (HP
 * Caliper 5.3 User Guide, 5900-1558, February 2011, "sysbus Event Set",
 * p. 247-248; seed 003) [cal]:
 *
 *   ADRS UTIL = 100 * (transactions/s * 3.0) / bus cycles/s, 3.0 the
 *   address cycles of each transaction;
 *   DATA UTIL = 100 * ((BRL + BRIL + BWL + implicit WB)/s * 4.0 +
 *   (nonzero-byte BRP/BWP)/s * 1.0) / bus cycles/s, a lower bound: four
 *   data cycles per line, one assumed per partial;
 *   Avg Lat, the CPU cycles a line read spends from the bus request
 *   queue's view; Avg Outstand, the reads outstanding per cycle;
 *   CPU and I/O, each originator's share of all transactions.
 *
 * The constants 3.0 and 4.0 come from the machine here (mem.addr_cycles
 * and a line over the bus width), equal to Caliper's on the default ia64
 * machine and following --set.  Implicit write-backs are HITM snoop
 * responses (BUS_HITM): here an I/O agent's transaction finding a line
 * the processor modified, which it supplies.  The outstanding-read
 * count is the 5-bit per-cycle value the Itanium 2 splits in two events
 * (BUS_MEM_READ_OUT_HI bits 4:3, _LO bits 2:0): HI * 8 + LO is the sum
 * over cycles of the reads outstanding. */
#include <stdlib.h>
#include <string.h>

#include "stat_metrics.h"

#define OUTSTANDING "(BUS_MEM_READ_OUT_HI * 8 + BUS_MEM_READ_OUT_LO)"

const struct stat_fsb_metric stat_fsb_metrics[STAT_FSB_NMETRIC] = {
	[STAT_FSB_ADDR_UTIL] = { "fsb_addr_util", "address bus utilisation",
				 "100 * BUS_ALL:ANY * A / (CPU_CYCLES / R)", "%" },
	[STAT_FSB_DATA_UTIL] = { "fsb_data_util", "data bus utilisation",
				 "100 * ((BUS_MEMORY:EQ_128BYTE_ANY + BUS_HITM) * D + "
				 "BUS_MEMORY:LT_128BYTE_ANY * 1) / (CPU_CYCLES / R)",
				 "%" },
	[STAT_FSB_LAT_CORE] = { "fsb_read_latency", "average memory read latency",
				OUTSTANDING " / BUS_MEM_READ:ALL_SELF", "core cycles" },
	[STAT_FSB_LAT_BUS] = { "fsb_read_latency_bus", "average memory read latency",
			       OUTSTANDING " / BUS_MEM_READ:ALL_SELF / R", "bus cycles" },
	[STAT_FSB_OUTSTANDING] = { "fsb_outstanding_reads", "average outstanding reads per cycle",
				   OUTSTANDING " / CPU_CYCLES", "reads" },
	[STAT_FSB_CPU_SHARE] = { "fsb_cpu_share", "CPU share of transactions",
				 "100 * BUS_ALL:SELF / BUS_ALL:ANY", "%" },
	[STAT_FSB_IO_SHARE] = { "fsb_io_share", "I/O share of transactions",
				"100 * BUS_ALL:IO / BUS_ALL:ANY", "%" },
	[STAT_FSB_BANDWIDTH] = { "fsb_bandwidth", "bus bandwidth (emulated time)",
				 "BUS_DATA_CYCLE * W / (CPU_CYCLES / MHz)", "MB/s" },
};

double stat_fsb_bus_clocks(const struct stat_fsb_counts *c, const struct stat_fsb_bus *b)
{
	return b->ratio ? c->cycles / b->ratio : 0;
}

void stat_fsb_compute(const struct stat_fsb_counts *c, const struct stat_fsb_bus *b, double *v,
		      int *ok)
{
	double bus = stat_fsb_bus_clocks(c, b), out = c->out_hi * 8 + c->out_lo;

	memset(ok, 0, STAT_FSB_NMETRIC * sizeof(*ok));
	memset(v, 0, STAT_FSB_NMETRIC * sizeof(*v));
	if (bus > 0) {
		v[STAT_FSB_ADDR_UTIL] = 100.0 * c->all_any * b->addr_clocks / bus;
		v[STAT_FSB_DATA_UTIL] =
			100.0 *
			((c->lines + c->hitm) * b->line_clocks + c->partials * b->partial_clocks) /
			bus;
		ok[STAT_FSB_ADDR_UTIL] = ok[STAT_FSB_DATA_UTIL] = 1;
	}
	if (c->reads > 0 && b->ratio) {
		v[STAT_FSB_LAT_CORE] = out / c->reads;
		v[STAT_FSB_LAT_BUS] = out / c->reads / b->ratio;
		ok[STAT_FSB_LAT_CORE] = ok[STAT_FSB_LAT_BUS] = 1;
	}
	if (c->cycles > 0) {
		v[STAT_FSB_OUTSTANDING] = out / c->cycles;
		ok[STAT_FSB_OUTSTANDING] = 1;
		if (b->mhz) {
			/* bytes per emulated microsecond: MB/s (10^6 bytes) */
			v[STAT_FSB_BANDWIDTH] =
				c->data_clocks * b->bytes_per_clock / (c->cycles / b->mhz);
			ok[STAT_FSB_BANDWIDTH] = 1;
		}
	}
	if (c->all_any > 0) {
		v[STAT_FSB_CPU_SHARE] = 100.0 * c->all_self / c->all_any;
		v[STAT_FSB_IO_SHARE] = 100.0 * c->all_io / c->all_any;
		ok[STAT_FSB_CPU_SHARE] = ok[STAT_FSB_IO_SHARE] = 1;
	}
}

void stat_fsb_bus_param(struct stat_fsb_bus *b, const char *key, const char *value)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "core.mhz", offsetof(struct stat_fsb_bus, mhz) },
		{ "mem.bus_ratio", offsetof(struct stat_fsb_bus, ratio) },
		{ "mem.addr_cycles", offsetof(struct stat_fsb_bus, addr_clocks) },
		{ "mem.bus_width", offsetof(struct stat_fsb_bus, width) },
		{ "mem.pump", offsetof(struct stat_fsb_bus, pump) },
	};
	unsigned long v = strtoul(value, NULL, 10);

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (!strcmp(key, keys[k].key))
			*(unsigned *)((char *)b + keys[k].off) = (unsigned)v;
	/* the bus moves lines of the last cache level: the deepest of l2, l3,
	 * l4 present (they come in level order, an absent one's line 0) */
	if (key[0] == 'l' && key[1] >= '2' && key[1] <= '9' && !strcmp(key + 2, ".line") && v)
		b->line = (unsigned)v;
}

int stat_fsb_bus_done(struct stat_fsb_bus *b)
{
	if (!b->ratio || !b->width || !b->line)
		return -1;
	b->bytes_per_clock = b->width * (b->pump ? b->pump : 1);
	b->line_clocks = (b->line + b->bytes_per_clock - 1) / b->bytes_per_clock;
	b->partial_clocks = 1;
	return 0;
}
