/* events.h — the event signals the timing model raises.  Every PMU backend
 * (under arch/) counts from these.  Each is counted per logical processor and
 * privilege level; "spec" events include wrong-path (speculative) work,
 * the others count retired work only. */
#ifndef VPMU_UARCH_EVENTS_H
#define VPMU_UARCH_EVENTS_H

#include <stdint.h>

#define UARCH_EVENTS(X)                                                                                   \
	X(CYCLES, "cycles", "core cycles")                                                                \
	X(INSNS, "instructions", "instructions retired")                                                  \
	X(UOPS, "uops", "µops retired")                                                                   \
	X(UOPS_SPEC, "uops-spec", "µops executed on a mispredicted path (never retired)")                 \
	X(BRANCHES, "branches", "branches retired")                                                       \
	X(BR_TAKEN, "branches-taken", "taken branches retired")                                           \
	X(BR_MISP, "branch-misses", "mispredicted branches retired")                                      \
	X(BR_COND, "branches-cond", "conditional branches retired")                                       \
	X(BR_COND_MISP, "branch-misses-cond", "mispredicted conditional branches retired")                \
	X(BR_IND, "branches-indirect", "indirect jumps and calls retired")                                \
	X(BR_CALL, "calls", "calls retired")                                                              \
	X(BR_RET, "returns", "returns retired")                                                           \
	X(BR_RET_MISP, "return-misses", "mispredicted returns retired")                                   \
	X(BTB_MISS, "btb-misses", "taken branches whose target the BTB did not hold")                     \
	X(LOADS, "loads", "load µops retired")                                                            \
	X(STORES, "stores", "store µops retired")                                                         \
	X(L1D_LD_MISS, "L1-dcache-load-misses", "retired loads that missed the L1 data cache")            \
	X(L1D_LD_MISS_SPEC, "L1-dcache-load-misses-spec",                                                 \
	  "loads that missed the L1 data cache, wrong path included")                                     \
	X(L1D_ST_MISS, "L1-dcache-store-misses", "stores that missed the L1 data cache")                  \
	X(L1I_ACCESS, "L1-icache-loads", "instruction-cache (or trace-cache) lookups")                    \
	X(L1I_MISS, "L1-icache-load-misses", "instruction-cache (or trace-cache) misses")                 \
	X(L2_ACCESS, "l2-references", "accesses to the second-level cache")                               \
	X(L2_MISS, "l2-misses", "second-level cache misses")                                              \
	X(L3_ACCESS, "l3-references", "accesses to the third-level cache")                                \
	X(L3_MISS, "l3-misses", "third-level cache misses")                                               \
	X(LLC_ACCESS, "cache-references", "accesses to the last-level cache")                             \
	X(LLC_MISS, "cache-misses", "last-level cache misses")                                            \
	X(DTLB_MISS, "dTLB-load-misses", "data TLB misses")                                               \
	X(ITLB_MISS, "iTLB-load-misses", "instruction TLB misses")                                        \
	X(WRITEBACKS, "writebacks", "dirty lines written back from the last-level cache")                 \
	X(BUS_BRL, "bus-read-line", "bus read-line transactions (BRL) on demand")                         \
	X(BUS_BRIL, "bus-read-invalidate",                                                                \
	  "bus read-invalidate-line transactions (BRIL) on demand")                                       \
	X(BUS_BWL, "bus-write-line", "bus write-line transactions (BWL, write-backs)")                    \
	X(BUS_BRP, "bus-read-partial", "bus partial reads (BRP)")                                         \
	X(BUS_BWP, "bus-write-partial", "bus partial writes (BWP)")                                       \
	X(BUS_IO, "bus-io", "bus transactions for I/O (data moved by syscalls)")                          \
	X(BUS_DATA_CYCLES, "bus-data-cycles", "bus clocks carrying data")                                 \
	X(BUS_ADDR_CYCLES, "bus-addr-cycles", "bus clocks carrying addresses")                            \
	X(MEM_READ_LAT, "mem-read-latency", "sum of memory read latencies, cycles")                       \
	X(MEM_READS, "mem-reads", "memory reads (line fills from memory)")                                \
	X(REPLAYS, "replays", "µops re-executed because a load they depended on missed")                  \
	X(STALL_ROB, "stall-rob", "cycles dispatch waited for a free reorder-buffer entry")               \
	X(STALL_IQ, "stall-issue-queue", "cycles dispatch waited for a free issue-queue entry")           \
	X(STALL_LQ, "stall-load-queue", "cycles dispatch waited for a free load-queue entry")             \
	X(STALL_SQ, "stall-store-queue",                                                                  \
	  "cycles dispatch waited for a free store-queue (store-buffer) entry")                           \
	X(STALL_WBUF, "stall-write-buffer",                                                               \
	  "cycles retirement waited for a free write-buffer entry for a store")                           \
	X(STALL_FETCH, "stall-fetch", "cycles the front end waited on instruction fetch misses")          \
	X(FP_UOPS, "fp-uops", "floating-point and SIMD µops retired")                                     \
	X(SYSCALLS, "syscalls", "system calls")                                                           \
	X(INSNS_WP, "instructions-wrong-path", "instructions fetched on a mispredicted path")             \
	X(L1D_LD_MISS_WP, "L1-dcache-load-misses-wrong-path",                                             \
	  "loads on a mispredicted path that missed the L1 data cache")                                   \
	X(BR_NT_PRED, "branches-not-taken-predicted", "not-taken branches retired, predicted")            \
	X(BR_NT_MISP, "branches-not-taken-mispredicted",                                                  \
	  "not-taken branches retired whose direction was mispredicted")                                  \
	X(BR_T_PRED, "branches-taken-predicted", "taken branches retired, predicted")                     \
	X(BR_T_MISP, "branches-taken-mispredicted",                                                       \
	  "taken branches retired whose direction or target was mispredicted")                            \
	X(BR_CALL_IND, "calls-indirect", "indirect calls retired")                                        \
	X(BR_JMP_IND, "jumps-indirect", "indirect jumps retired")                                         \
	X(BR_CALL_IND_MISP, "calls-indirect-misses", "mispredicted indirect calls retired")               \
	X(BR_JMP_IND_MISP, "jumps-indirect-misses", "mispredicted indirect jumps retired")                \
	X(ITLB_HIT, "iTLB-load-hits", "instruction TLB lookups that hit the first level")                 \
	X(L2_RD_HIT_CLEAN, "l2-read-hits-clean",                                                          \
	  "reads (loads, fetches, page walks) hitting an unmodified L2 line")                             \
	X(L2_RD_HIT_DIRTY, "l2-read-hits-modified",                                                       \
	  "reads (loads, fetches, page walks) hitting a modified L2 line")                                \
	X(LD_DTLB_MISS, "dTLB-load-misses-retired",                                                       \
	  "retired load µops that missed the first-level data TLB")                                       \
	X(ST_DTLB_MISS, "dTLB-store-misses-retired",                                                      \
	  "retired store µops that missed the first-level data TLB")                                      \
	X(LD_L2_MISS, "l2-load-misses-retired",                                                           \
	  "retired load µops that missed the second-level cache")                                         \
	X(LD_SPLIT, "loads-split",                                                                        \
	  "retired load µops whose access crosses a line of the L1 data cache")                           \
	X(ST_SPLIT, "stores-split",                                                                       \
	  "retired store µops whose access crosses a line of the L1 data cache")                          \
	X(LD_ST_OVERLAP, "loads-store-overlap",                                                           \
	  "loads partly overlapping an older store not yet written (no forwarding: they wait for it)")    \
	X(LOAD_LAT, "load-latency",                                                                       \
	  "sum of issue-to-data latencies of retired loads, cycles (as a signal: one per load "           \
	  "µop in program order, n its latency)")                                                         \
	X(STALL_DATA, "stall-data",                                                                       \
	  "cycles in-order issue waited for an operand (data-dependency stalls)")                         \
	X(STALL_FILLBUF, "stall-fill-buffer",                                                             \
	  "cycles a missing load waited for a free fill buffer (miss-status register)")                   \
	X(FETCH_LAT, "fetch-latency",                                                                     \
	  "sum of the latencies of instruction fetches that missed the L1 instruction cache, "            \
	  "cycles (as a signal: one per miss, n its latency)")                                            \
	X(ITLB_L2_HIT, "iTLB-l2-hits",                                                                    \
	  "fetches of retired instructions whose first-level ITLB miss the second level "                 \
	  "translated")                                                                                   \
	X(ITLB_WALK, "iTLB-walks",                                                                        \
	  "fetches of retired instructions whose first-level ITLB miss the page walker "                  \
	  "translated")                                                                                   \
	X(DTLB_L2_HIT, "dTLB-l2-hits",                                                                    \
	  "retired memory µops whose first-level DTLB miss the second level translated (as a "           \
	  "signal: right after the load's load-latency or the store's stores signal)")                    \
	X(DTLB_WALK, "dTLB-walks",                                                                        \
	  "retired memory µops whose first-level DTLB miss the page walker translated (as a "            \
	  "signal: placed as dTLB-l2-hits)")                                                              \
	X(BUS_IMPLICIT_WB, "bus-implicit-wb",                                                             \
	  "modified lines this processor supplied when an I/O agent's transaction snooped "               \
	  "them (HITM: data a system call moved out of or into a dirty line)")                            \
	X(L1D_LD_MISS_COMP, "L1-dcache-load-misses-compulsory",                                           \
	  "L1 data cache lines (sectors) loads missed, wrong path included, that it never held "          \
	  "before (l1d.classify)")                                                                        \
	X(L1D_LD_MISS_CAP, "L1-dcache-load-misses-capacity",                                              \
	  "L1 data cache lines loads missed that a fully associative LRU cache of its size "              \
	  "would miss too (l1d.classify)")                                                                \
	X(L1D_LD_MISS_CONF, "L1-dcache-load-misses-conflict",                                             \
	  "L1 data cache lines loads missed that a fully associative LRU cache of its size "              \
	  "would hold (l1d.classify)")                                                                    \
	X(L1I_MISS_COMP, "L1-icache-load-misses-compulsory",                                              \
	  "instruction-cache misses at a line it never held before (l1i.classify)")                       \
	X(L1I_MISS_CAP, "L1-icache-load-misses-capacity",                                                 \
	  "instruction-cache misses a fully associative LRU cache of its size would miss too "            \
	  "(l1i.classify)")                                                                               \
	X(L1I_MISS_CONF, "L1-icache-load-misses-conflict",                                                \
	  "instruction-cache misses a fully associative LRU cache of its size would hit "                 \
	  "(l1i.classify)")                                                                               \
	X(L2_MISS_COMP, "l2-misses-compulsory",                                                           \
	  "second-level cache misses at a line (sector) it never held before (l2.classify)")              \
	X(L2_MISS_CAP, "l2-misses-capacity",                                                              \
	  "second-level cache misses a fully associative LRU cache of its size would miss too "           \
	  "(l2.classify)")                                                                                \
	X(L2_MISS_CONF, "l2-misses-conflict",                                                             \
	  "second-level cache misses a fully associative LRU cache of its size would hit "                \
	  "(l2.classify)")                                                                                \
	X(L1D_ST_MISS_COMP, "L1-dcache-store-misses-compulsory",                                          \
	  "L1 data cache lines (sectors) stores missed that it never held before (l1d.classify)")         \
	X(L1D_ST_MISS_CAP, "L1-dcache-store-misses-capacity",                                             \
	  "L1 data cache lines stores missed that a fully associative LRU cache of its size "             \
	  "and write policy would miss too (l1d.classify)")                                               \
	X(L1D_ST_MISS_CONF, "L1-dcache-store-misses-conflict",                                            \
	  "L1 data cache lines stores missed that a fully associative LRU cache of its size "             \
	  "and write policy would hold (l1d.classify)")                                                   \
	X(L3_MISS_COMP, "l3-misses-compulsory",                                                           \
	  "third-level cache misses at a line (sector) it never held before (l3.classify)")               \
	X(L3_MISS_CAP, "l3-misses-capacity",                                                              \
	  "third-level cache misses a fully associative LRU cache of its size would miss too "            \
	  "(l3.classify)")                                                                                \
	X(L3_MISS_CONF, "l3-misses-conflict",                                                             \
	  "third-level cache misses a fully associative LRU cache of its size would hit "                 \
	  "(l3.classify)")                                                                                \
	X(L1D_ALIAS, "L1-dcache-alias-evictions",                                                         \
	  "L1 data cache lines dropped because a load or store referenced a line alike in the "           \
	  "address bits the tag compares (l1d.alias, l1d.context)")                                       \
	X(BUS_DATA_DRV, "bus-data-driven",                                                                \
	  "bus clocks carrying data this processor drives (write-backs, partial writes, and "             \
	  "modified lines an I/O agent's snoop hit)")                                                     \
	X(BUS_DATA_OWN, "bus-data-read", "bus clocks carrying data this processor reads")                 \
	X(BUS_DATA_OTHER, "bus-data-other",                                                               \
	  "bus clocks carrying data of an I/O agent's transaction, which this processor does "            \
	  "not sample")                                                                                   \
	X(L2_WB_MISS, "l2-writeback-misses",                                                              \
	  "dirty lines the L1 data cache wrote back whose lookup missed L2 (none when it writes "         \
	  "through)")                                                                                     \
	X(L3_RD_HIT_CLEAN, "l3-read-hits-clean",                                                          \
	  "reads (loads, fetches, page walks) hitting an unmodified L3 line")                             \
	X(L3_RD_HIT_DIRTY, "l3-read-hits-modified",                                                       \
	  "reads (loads, fetches, page walks) hitting a modified L3 line")                                \
	X(BUS_IO_RD, "bus-io-reads",                                                                      \
	  "I/O agents' bus transactions reading memory: the data syscalls write out (bus-io's "           \
	  "share)")                                                                                       \
	X(BUS_IO_WR, "bus-io-writes",                                                                     \
	  "I/O agents' bus transactions writing memory: the data syscalls read in (bus-io's "             \
	  "share)")                                                                                       \
	X(FP_X87, "x87-uops", "x87 floating-point µops, not data movement, retired")                      \
	X(FP_MMX, "mmx-uops", "integer SIMD µops on MMX registers retired")                               \
	X(FP_INT, "simd-int-uops", "integer SIMD µops on XMM registers retired")                          \
	X(FP_PS, "packed-single-uops", "packed single-precision µops retired")                            \
	X(FP_PD, "packed-double-uops", "packed double-precision µops retired")                            \
	X(FP_SS, "scalar-single-uops", "scalar single-precision µops retired")                            \
	X(FP_SD, "scalar-double-uops", "scalar double-precision µops retired")                            \
	X(FP_MOVE, "fp-move-uops", "x87 and SIMD store-data and register-move µops retired")              \
	X(FP_LOAD, "fp-load-uops", "x87 and SIMD load µops retired")                                      \
	X(FP_X87_WP, "x87-uops-wrong-path",                                                               \
	  "x87 floating-point µops, not data movement, on a mispredicted path")                           \
	X(FP_MMX_WP, "mmx-uops-wrong-path",                                                               \
	  "integer SIMD µops on MMX registers on a mispredicted path")                                    \
	X(FP_INT_WP, "simd-int-uops-wrong-path",                                                          \
	  "integer SIMD µops on XMM registers on a mispredicted path")                                    \
	X(FP_PS_WP, "packed-single-uops-wrong-path",                                                      \
	  "packed single-precision µops on a mispredicted path")                                          \
	X(FP_PD_WP, "packed-double-uops-wrong-path",                                                      \
	  "packed double-precision µops on a mispredicted path")                                          \
	X(FP_SS_WP, "scalar-single-uops-wrong-path",                                                      \
	  "scalar single-precision µops on a mispredicted path")                                          \
	X(FP_SD_WP, "scalar-double-uops-wrong-path",                                                      \
	  "scalar double-precision µops on a mispredicted path")                                          \
	X(FP_MOVE_WP, "fp-move-uops-wrong-path",                                                          \
	  "x87 and SIMD store-data and register-move µops on a mispredicted path")                        \
	X(FP_LOAD_WP, "fp-load-uops-wrong-path", "x87 and SIMD load µops on a mispredicted path")         \
	X(UOPQ_BUILD, "uops-tc-build",                                                                    \
	  "µops into the µop queue while the trace cache builds (a line it missed)")                      \
	X(UOPQ_DELIVER, "uops-tc-deliver", "µops into the µop queue the trace cache delivered")           \
	X(UOPQ_ROM, "uops-rom",                                                                           \
	  "µops into the µop queue from the microcode ROM (microcoded instructions)")                     \
	X(MS_XFER, "ms-rom-transfers",                                                                    \
	  "switches of µop delivery from the trace cache to the microcode ROM")                           \
	X(DTLB_L2_XFER, "dTLB-l2-transfers",                                                              \
	  "first-level DTLB misses the second level translated (every lookup)")                           \
	X(DTLB_L2_MISS, "dTLB-l2-misses",                                                                 \
	  "DTLB lookups missing both levels, so the page walker translated (every lookup)")               \
	X(ITLB_L2_XFER, "iTLB-l2-transfers",                                                              \
	  "first-level ITLB misses the second level translated (every lookup)")                           \
	X(ITLB_L2_MISS, "iTLB-l2-misses",                                                                 \
	  "ITLB lookups missing both levels, so the page walker translated (every lookup)")               \
	X(MC_SMC, "machine-clears-smc",                                                                   \
	  "pipeline clears for self-modifying code: a store into a code page the front end fetched from") \
	X(MC_CYCLES, "machine-clear-cycles", "cycles the pipeline is being cleared and refilled")         \
	X(MC_MO, "machine-clears-mo",                                                                     \
	  "pipeline clears for memory ordering: the other logical processor wrote a line a load in "      \
	  "flight had read")                                                                              \
	X(FP_ASSISTS, "fp-assists",                                                                       \
	  "floating-point instructions retired that microcode assisted (any cause below)")                \
	X(SSE_ASSIST_IN, "sse-input-assists",                                                             \
	  "SSE and SSE2 arithmetic retired with a denormal source, DAZ clear")                            \
	X(SSE_ASSIST_OUT, "sse-output-assists",                                                           \
	  "SSE and SSE2 arithmetic retired with a denormal result, FTZ clear")                            \
	X(X87_ASSIST_IN, "x87-input-assists", "x87 instructions retired with a denormal operand")         \
	X(X87_ASSIST_UNDER, "x87-underflow-assists",                                                      \
	  "x87 instructions retired whose result underflowed")                                            \
	X(X87_ASSIST_OVER, "x87-overflow-assists",                                                        \
	  "x87 instructions retired whose result overflowed")                                             \
	X(X87_ASSIST_SU, "x87-stack-underflows",                                                          \
	  "x87 instructions retired that read an empty register")                                         \
	X(X87_ASSIST_SO, "x87-stack-overflows",                                                           \
	  "x87 instructions retired that pushed onto a full stack")                                       \
	X(LD_FWD_WAIT, "loads-forward-wait",                                                              \
	  "loads whose data an older store forwards, issued before that store's data was ready")          \
	X(MEM_BRL_LAT, "mem-read-line-latency",                                                           \
	  "sum of demand read-line (BRL) latencies, cycles: those outstanding, each cycle")               \
	X(MEM_BRIL_LAT, "mem-rfo-latency",                                                                \
	  "sum of demand read-invalidate-line (BRIL) latencies, cycles: those outstanding, each "         \
	  "cycle")                                                                                        \
	X(TC_BUILD_CYCLES, "tc-build-cycles",                                                             \
	  "cycles the trace cache waits for a miss or delivers instructions it builds")                   \
	X(TC_ROM_CYCLES, "tc-rom-cycles",                                                                 \
	  "cycles the front end delivers microcode-ROM instructions instead of the trace cache")          \
	X(BUBBLE_FE, "bubbles-frontend",                                                                  \
	  "cycles an in-order core issues nothing: the next µop has not arrived from the front end")      \
	X(BUBBLE_FLUSH, "bubbles-flush",                                                                  \
	  "cycles an in-order core issues nothing: a mispredicted branch flushed the pipeline")           \
	X(BUBBLE_EXE, "bubbles-exe",                                                                      \
	  "cycles an in-order core issues nothing: the next µop waits for an operand, unit or entry")     \
	X(L3_LOAD_HIT, "l3-load-hits",                                                                    \
	  "third-level cache reads for data (not for ownership) that hit")                                \
	X(L3_LOAD_MISS, "l3-load-misses",                                                                 \
	  "third-level cache reads for data (not for ownership) that missed")                             \
	X(L3_IFETCH_HIT, "l3-ifetch-hits",                                                                \
	  "third-level cache reads for instruction fetches that hit")                                     \
	X(L3_IFETCH_MISS, "l3-ifetch-misses",                                                             \
	  "third-level cache reads for instruction fetches that missed")                                  \
	X(L3_STORE_HIT, "l3-store-hits",                                                                  \
	  "third-level cache writes for stores (their reads for ownership included) that hit")            \
	X(L3_STORE_MISS, "l3-store-misses",                                                               \
	  "third-level cache writes for stores (their reads for ownership included) that missed")         \
	X(L3_WB_HIT, "l3-writeback-hits",                                                                 \
	  "lines written back into the third-level cache that hit")                                       \
	X(L3_WB_MISS, "l3-writeback-misses",                                                              \
	  "lines written back into the third-level cache that missed")                                    \
	X(L3_REPLACED, "l3-replacements", "valid lines the third-level cache replaced")                   \
	X(LD_MISALIGNED, "loads-misaligned",                                                              \
	  "loads retired whose address is not a multiple of their size (2 to 16 bytes)")                  \
	X(ST_MISALIGNED, "stores-misaligned",                                                             \
	  "stores retired whose address is not a multiple of their size (2 to 16 bytes)")                 \
	X(HALTED, "halted-cycles",                                                                        \
	  "cycles a logical processor waited halted, no thread of its own to run (--smt)")                \
	X(BUBBLE_EXE_GR, "bubbles-exe-gr", "bubbles-exe waiting for an integer register")                 \
	X(BUBBLE_EXE_GRGR, "bubbles-exe-gr-op",                                                           \
	  "bubbles-exe waiting for an integer register an operation (not a load) writes")                 \
	X(BUBBLE_EXE_FR, "bubbles-exe-fr",                                                                \
	  "bubbles-exe waiting for a floating-point, MMX or SSE register")                                \
	X(BUBBLE_EXE_PR, "bubbles-exe-flags", "bubbles-exe waiting for the flags")                        \
	X(BUBBLE_EXE_ARCR, "bubbles-exe-fpctl",                                                           \
	  "bubbles-exe waiting for the floating-point control and status (MXCSR, x87)")                   \
	X(MEM_BWL_LAT, "mem-write-line-latency",                                                          \
	  "sum of write-back (BWL) latencies, cycles: those outstanding, each cycle")                     \
	X(MEM_BWP_LAT, "mem-write-partial-latency",                                                       \
	  "sum of partial-write (BWP) latencies, cycles: those outstanding, each cycle")                  \
	X(MEM_IO_RD_LAT, "mem-io-read-latency",                                                           \
	  "sum of I/O agents' memory-read latencies (data syscalls write out), cycles")                   \
	X(MEM_IO_WR_LAT, "mem-io-write-latency",                                                          \
	  "sum of I/O agents' memory-write latencies (data syscalls read in), cycles")                    \
	X(LD_FWD_SPLIT, "loads-forward-split",                                                            \
	  "loads covered by an older store not yet written that crosses a line and cannot forward "       \
	  "to them (they wait for its write)")                                                            \
	X(PF_BRL, "bus-read-line-prefetch",                                                               \
	  "bus read-line transactions (BRL) of the hardware prefetchers (bus-read-line: on demand)")      \
	X(PF_BRIL, "bus-read-invalidate-prefetch",                                                        \
	  "bus read-invalidate-line transactions (BRIL) of the hardware prefetchers, for stores")         \
	X(MEM_PF_BRL_LAT, "mem-read-line-prefetch-latency",                                               \
	  "sum of the prefetchers' read-line latencies, cycles: those outstanding, each cycle")           \
	X(MEM_PF_BRIL_LAT, "mem-rfo-prefetch-latency",                                                    \
	  "sum of the prefetchers' read-invalidate-line latencies, cycles: those outstanding, each "      \
	  "cycle")                                                                                        \
	X(PF_LATE, "prefetch-late",                                                                       \
	  "last-level hits whose sector a prefetch is still fetching (they wait for it)")                 \
	X(LD_FWD_ALIGN, "loads-forward-unaligned",                                                        \
	  "loads covered by an older store not yet written that starts elsewhere (or, 16-byte loads, "    \
	  "not 16-byte aligned) and cannot forward to them (core.fwd_start=1; they wait for its write)")  \
	X(TC_FLUSH, "tc-flushes",                                                                         \
	  "trace-cache flushes: a store into code the trace cache holds drops all of it")                 \
	X(LD_NO_STA, "loads-store-address-wait",                                                          \
	  "loads an older store covers or overlaps, issued before that store's address was known "        \
	  "(they wait for it)")

enum uarch_ev {
#define UARCH_EV_ENUM(id, name, desc) UARCH_EV_##id,
	UARCH_EVENTS(UARCH_EV_ENUM)
#undef UARCH_EV_ENUM
		UARCH_NEV
};

/* [event][logical processor][privilege: 0 user, 1 kernel] */
struct uarch_counts {
	uint64_t n[UARCH_NEV][2][2];
};

/* One event signal, as the PMUs see it: n occurrences of ev in each cycle
 * of [cycle, cycle + dur) (dur 1: an event; more: an occupancy, such as a
 * bus data transfer) by logical processor th at privilege kernel; raised
 * by the pipeline for a load or store of the retiring instruction (its
 * load latency, its stores, its DTLB misses...), the access's index in
 * x86_trace.addr[], else UARCH_SIG_NOMEM. */
struct uarch_sig {
	uint64_t cycle;
	uint32_t n, dur;
	uint16_t ev;
	uint8_t th, kernel;
	uint8_t mem;
};
#define UARCH_SIG_NOMEM 0xff

/* Signals collected between two deliveries to a sink (model.h). */
#define UARCH_SIGBUF 4096
#define UARCH_WANT_SIG 1 /* want[]: each signal */
#define UARCH_WANT_SUM 2 /* want[]: only the sum of n × dur (uarch_sink.sum) */
struct uarch_sigbuf {
	unsigned n;
	uint8_t want[UARCH_NEV]; /* which events the sink asked for, and how */
	uint32_t sum_max;	 /* larger n are signalled even for a summed event */
	uint64_t cut;		 /* so are events reaching this cycle (uarch_sink.cut) */
	void (*full)(void *arg); /* deliver now: the buffer is full */
	void *arg;
	uint64_t sum[UARCH_NEV][2][2]; /* summed events not handed over yet */
	/* what uarch_sig_push() may still sum of each (the budget's half:
	 * uarch_budget; ~0 without one) */
	uint64_t left[UARCH_NEV];
	struct uarch_sig s[UARCH_SIGBUF];
};

/* Signal n events ev in each of dur cycles from cycle (dur 0: one), for
 * access mem (uarch_sig). */
static inline void uarch_sig_add(struct uarch_sigbuf *b, unsigned ev, int th, int kernel,
				 uint64_t n, uint64_t cycle, uint64_t dur, uint8_t mem)
{
	if (b->n == UARCH_SIGBUF)
		b->full(b->arg);
	b->s[b->n++] = (struct uarch_sig){ cycle,	 (uint32_t)n, (uint32_t)(dur ? dur : 1),
					   (uint16_t)ev, (uint8_t)th, (uint8_t)kernel,
					   mem };
}

/* The same, summed instead if the sink takes the event as a sum (and
 * its budget has room for it). */
static inline void uarch_sig_push(struct uarch_sigbuf *b, unsigned ev, int th, int kernel,
				  uint64_t n, uint64_t cycle, uint64_t dur)
{
	uint64_t d = dur ? dur : 1;

	if (b->want[ev] == UARCH_WANT_SUM && n <= b->sum_max && cycle + d <= b->cut &&
	    n * d <= b->left[ev]) {
		b->sum[ev][th][kernel] += n * d;
		b->left[ev] -= n * d;
		return;
	}
	uarch_sig_add(b, ev, th, kernel, n, cycle, dur, UARCH_SIG_NOMEM);
}

/* Name (perf-style where perf has one) and description of an event. */
const char *uarch_event_name(unsigned ev);
const char *uarch_event_desc(unsigned ev);

/* The miss-class events of a cache (UARCH_L1D: its loads', UARCH_L1I,
 * UARCH_L2 or UARCH_L3 of params.h), one per class in enum uarch_miss
 * order from compulsory: the first of the three, or -1 if the cache has
 * none.  The L1D's stores have their own: UARCH_EV_L1D_ST_MISS_COMP on. */
int uarch_event_miss_class(int cache);

struct uarch_machine;
/* Whether machine m counts event ev: NULL if it does, else why not (the
 * miss classes of a cache that does not classify; the events of a cache,
 * a second-level TLB or a mechanism the machine does not have). */
const char *uarch_event_uncounted(const struct uarch_machine *m, unsigned ev);

#endif
