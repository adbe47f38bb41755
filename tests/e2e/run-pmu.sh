#!/usr/bin/env bash
# run-pmu.sh — whole-command tests of the Pentium 4 counter hardware
# through `vpmu stat -e` (issue: the PMU framework and the P4 backend):
# generic, native and raw forms of one event give one count; events that
# do not fit are refused or, with --exact, counted in separate runs;
# replay tagging separates retired from speculative L1 misses (seed 004,
# "Obtaining nonspeculative event counts"); bad specs are one-line errors.
#
# Environment: VPMU (binary), PROGS (built tests/progs).  Run by make check.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

# val NAME: the count printed for event NAME in out/err
val() {
	awk -v n="$1" '$2 == n { gsub(",", "", $1); print $1; exit }' err
}

# model NAME: the timing model's count of NAME in stat -v's table (logical
# processor 0's)
model() {
	awk -v n="$1" '$1 == n && NF == 3 { gsub(",", "", $2); print $2; exit }' err
}

same_count_three_forms() {
	run_vpmu stat -e instructions,INSTR_RETIRED:NBOGUSNTAG:NBOGUSTAG,p4::instr_retired:nbogusntag:nbogustag "$PROGS/bp_alternate" 20000
	expect_rc 0 || return 1
	a=$(val instructions) b=$(val INSTR_RETIRED:NBOGUSNTAG:NBOGUSTAG)
	c=$(val p4::instr_retired:nbogusntag:nbogustag)
	[ -n "$a" ] && [ "$a" -gt 100000 ] && [ "$a" = "$b" ] && [ "$a" = "$c" ] ||
		fail "instructions: $a, native $b, prefixed $c"
	run_vpmu stat -e L1-dcache-load-misses,r4a00020000000001 "$PROGS/ua_shadow" 50000
	expect_rc 0 || return 1
	a=$(val L1-dcache-load-misses) b=$(val r4a00020000000001)
	[ -n "$a" ] && [ "$a" -gt 1000 ] && [ "$a" = "$b" ] || fail "L1 misses: $a, raw $b"
	run_vpmu stat -e branch-misses,MISPRED_BRANCH_RETIRED:NBOGUS "$PROGS/bp_alternate" 20000
	a=$(val branch-misses) b=$(val MISPRED_BRANCH_RETIRED:NBOGUS)
	[ -n "$a" ] && [ "$a" = "$b" ] || fail "branch-misses $a, native $b"
}

# counts equal the timing model's own events
matches_model() {
	run_vpmu stat -v -o model.txt "$PROGS/bp_alternate" 20000
	run_vpmu stat -e cycles,instructions "$PROGS/bp_alternate" 20000
	expect_rc 0 || return 1
	m=$(awk '$1 == "cycles" && NF == 3 { gsub(",", "", $2); gsub(",", "", $3); print $2 + $3; exit }' model.txt)
	i=$(awk '$1 == "instructions" && NF == 3 { gsub(",", "", $2); gsub(",", "", $3); print $2 + $3; exit }' model.txt)
	[ "$(val cycles)" = "$m" ] && [ "$(val instructions)" = "$i" ] ||
		fail "cycles $(val cycles) vs model $m, instructions $(val instructions) vs $i"
}

speculative_vs_retired() {
	run_vpmu stat -e r4a00020000000001,r4a00060000000001 "$PROGS/ua_shadow" 100000
	expect_rc 0 || return 1
	ret=$(val r4a00020000000001) all=$(val r4a00060000000001)
	[ -n "$ret" ] && [ "$all" -gt $((ret * 13 / 10)) ] ||
		fail "retired $ret, with wrong path $all"
}

no_fit_and_exact() {
	# multiplexed by default; with perf's 4 ms turns the second group never
	# runs in so short a program
	run_vpmu stat --mux-interval 4 -e instructions,branch-misses,uops "$PROGS/e2e_exit3"
	expect_rc 3 && grep -q '2 event groups multiplexed' err &&
		grep -Eq '^ +<not counted> +uops +# .*--exact' err || fail "$(cat err)"
	# a steady program: the scaled estimates of the default 0.1 ms turns
	# are within 5% of the exact counts (1.2% here: 24 turns, long enough
	# that the start-up's own rates weigh little); instructions fits
	# beside either group, so it counts all the time, exactly
	run_vpmu stat -x, -e instructions,branch-misses,uops "$PROGS/bp_alternate" 2000000
	grep -q ',uops,.*,[1-9][0-9]\.[0-9]*,' err || fail "not multiplexed: $(cat err)"
	grep -q ',instructions,.*,100\.00,' err || fail "instructions not in both groups: $(cat err)"
	mi=$(sed -n 's/^\([0-9]*\),,instructions,.*/\1/p' err) mu=$(sed -n 's/^\([0-9]*\),,uops,.*/\1/p' err)
	run_vpmu stat -x, --exact -e instructions,branch-misses,uops "$PROGS/bp_alternate" 2000000
	ei=$(sed -n 's/^\([0-9]*\),,instructions,.*/\1/p' err) eu=$(sed -n 's/^\([0-9]*\),,uops,.*/\1/p' err)
	[ "$mi" = "$ei" ] || fail "instructions counted all along $mi, exact $ei"
	for p in "$mu $eu"; do
		set -- $p
		[ $((($1 - $2) * 20)) -le "$2" ] && [ $((($2 - $1) * 20)) -le "$2" ] ||
			fail "multiplexed $1 vs exact $2"
	done
	run_vpmu stat --exact -e instructions,branch-misses,uops "$PROGS/bp_alternate" 20000
	expect_rc 0 || return 1
	grep -q '2 deterministic runs' err && [ "$(val uops)" -gt "$(val instructions)" ] ||
		fail "$(cat err)"
	one=$(val instructions)
	run_vpmu stat -e instructions "$PROGS/bp_alternate" 20000
	[ "$(val instructions)" = "$one" ] || fail "exact run differs: $one vs $(val instructions)"
}

spec_errors() {
	run_vpmu stat -e cyclse "$PROGS/e2e_exit3"
	expect_rc 1 && grep -q "unknown event 'cyclse' (did you mean 'cycles'?)" err || fail "$(cat err)"
	run_vpmu stat -e branch_retired:frob "$PROGS/e2e_exit3"
	expect_rc 1 && grep -q "FROB\|frob" err || fail "$(cat err)"
	run_vpmu stat -e instructions:pp "$PROGS/e2e_exit3"
	expect_rc 1 && grep -q "no precise" err || fail "$(cat err)"
	# what the model cannot produce is a row, as perf prints it; the rest counts
	run_vpmu stat -e B2B_CYCLES,instructions "$PROGS/e2e_exit3"
	expect_rc 3 && grep -q "<not supported> *B2B_CYCLES *# .*not documented" err &&
		[ "$(count instructions err)" -gt 1000 ] || fail "$(cat err)"
	run_vpmu stat -e rzz "$PROGS/e2e_exit3"
	expect_rc 1 && [ "$(wc -l <err)" -eq 1 ] || fail "$(cat err)"
	run_vpmu stat -a alpah -e cycles "$PROGS/e2e_exit3"
	expect_rc 1 && [ "$(wc -l <err)" -eq 1 ] && grep -q "alpha" err || fail "$(cat err)"
}

# vpmu list: every native event of the machine with counters and unit
# masks; each one it calls supported counts, each it marks <not supported>
# is refused by stat with that reason; patterns and errors.
list_events() {
	run_vpmu list -a p4
	expect_rc 0 || return 1
	awk '/native events:/ { n = 1 } n && /^  [A-Z0-9]/ { print $1 }' out >names
	# the events of oprofile's i386_p4 and i386_p4-ht tables (the SDM's
	# list adds the tagging and bus events)
	for ev in 128BIT_MMX_UOP 64BIT_MMX_UOP BPU_FETCH_REQUEST BRANCH_RETIRED \
		BSQ_ACTIVE_ENTRIES BSQ_ALLOCATION BSQ_CACHE_REFERENCE FSB_DATA_ACTIVITY \
		GLOBAL_POWER_EVENTS INSTR_RETIRED IOQ_ACTIVE_ENTRIES IOQ_ALLOCATION ITLB_REFERENCE \
		LOAD_PORT_REPLAY MACHINE_CLEAR MEMORY_CANCEL MEMORY_COMPLETE MISPRED_BRANCH_RETIRED \
		MOB_LOAD_REPLAY PACKED_DP_UOP PACKED_SP_UOP PAGE_WALK_TYPE RETIRED_BRANCH_TYPE \
		RETIRED_MISPRED_BRANCH_TYPE SCALAR_DP_UOP SCALAR_SP_UOP SSE_INPUT_ASSIST \
		STORE_PORT_REPLAY TC_DELIVER_MODE TC_MS_XFER UOPS_RETIRED UOP_QUEUE_WRITES UOP_TYPE \
		X87_ASSIST X87_FP_UOP X87_SIMD_MOVES_UOP; do
		grep -qx "$ev" names || fail "$ev not listed"
	done
	grep -q 'counters: ' out && grep -q 'unit masks' out || fail "no counters or unit masks"
	# the reason follows the name, on its line or alone on the next
	awk '/native events:/ { n = 1 } n && /^  [A-Z0-9]/ { e = $1 }
	     n && (/^      <not supported/ || /^  [A-Z0-9][^ ]*  *<not supported/) && e { print e; e = "" }' \
		out | sort -u >unsup
	[ -s unsup ] || fail "no event marked not supported"
	for ev in $(comm -23 <(sort names) unsup); do
		run_vpmu stat -x, -e "$ev" "$PROGS/e2e_exit3"
		grep -q "^[0-9][0-9]*,,$ev," err || grep -q "$ev needs a replay-tagging metric" err ||
			fail "$ev: listed as supported, stat says $(cat err)"
	done
	for ev in $(cat unsup); do
		run_vpmu stat -x, -e "$ev" "$PROGS/e2e_exit3"
		grep -q "^<not supported>,,$ev," err || fail "$ev: listed as not supported, stat: $(cat err)"
	done
	run_vpmu list 'bsq*'
	[ "$(grep -c '^  [A-Z]' out)" -eq 3 ] || fail "glob: $(grep '^  [A-Z]' out)"
	run_vpmu list -a nosuch
	expect_rc 1 && grep -q "^vpmu list: unknown machine 'nosuch'; the machines are: p4, .*xscale2" err ||
		fail "bad machine: $(cat err)"
	# stat and record name the closest machine too
	run_vpmu stat -a xscal true
	expect_rc 1 && grep -q "^vpmu stat: unknown machine 'xscal' (did you mean 'xscale'?); the machines are: " err ||
		fail "machine typo: $(cat err)"
	run_vpmu list zzzz
	grep -q "no event matches 'zzzz'" err || fail "no match: $(cat err)"
	# perf list's classes
	run_vpmu list hw
	grep -q '^  cycles ' out && grep -q '^  branch-misses ' out && ! grep -q 'L1-dcache' out &&
		! grep -q 'native events' out || fail "hw: $(cat out)"
	run_vpmu list cache
	grep -q '^  L1-dcache-load-misses ' out && ! grep -q '^  cycles ' out &&
		! grep -q 'native events' out || fail "cache: $(cat out)"
	run_vpmu list pmu
	grep -q '^  mem-loads ' out && grep -q '^p4 native events:' out && ! grep -q '^  cycles ' out ||
		fail "pmu: $(head out)"
	run_vpmu list sw
	expect_rc 0 && [ ! -s out ] && grep -q 'no software events' err || fail "sw: $(cat out err)"
}

user_kernel() {
	# GLOBAL_POWER_EVENTS has two ESCRs: :u and :k take both
	run_vpmu stat -e cycles:u,cycles:k "$PROGS/e2e_exit3"
	u=$(val cycles:u) k=$(val cycles:k)
	run_vpmu stat -e cycles "$PROGS/e2e_exit3"
	a=$(val cycles)
	[ -n "$u" ] && [ "$k" -gt 0 ] && [ $((u + k)) = "$a" ] || fail "u $u + k $k != $a"
	# --all-user, --all-kernel: every event naming no level takes one,
	# the defaults too, with perf's ratios between counts of one level
	run_vpmu stat --all-user -e cycles,instructions,cycles:k,'{branches,branch-misses}' \
		"$PROGS/e2e_exit3"
	[ "$(val cycles:u)" = "$u" ] && [ "$(val cycles:k)" = "$k" ] &&
		[ -n "$(val instructions:u)" ] && [ -n "$(val branch-misses:u)" ] &&
		grep -q 'instructions:u  *# .* insn per cycle' err &&
		grep -q 'branch-misses:u  *# .* of all branches' err || fail "--all-user: $(cat err)"
	run_vpmu stat --all-kernel "$PROGS/e2e_exit3"
	[ "$(val cycles:k)" = "$k" ] && [ -n "$(val instructions:k)" ] && ! grep -q 'cycles ' err ||
		fail "--all-kernel: $(cat err)"
	run_vpmu record --all-user -o u.data -c 1000 "$PROGS/e2e_exit3"
	"$VPMU" evlist -i u.data >out 2>&1 && [ "$(cat out)" = "cycles:u" ] || fail "record: $(cat out)"
}

# FSB_DATA_ACTIVITY splits the model's bus data clocks by whose data they
# are; perf's bus-cycles counts this processor's transfers, edge-detected
bus_data() {
	run_vpmu stat -v --exact -e bus-cycles,FSB_DATA_ACTIVITY:DRDY_DRV,FSB_DATA_ACTIVITY:DRDY_OWN,FSB_DATA_ACTIVITY:DRDY_OTHER,FSB_DATA_ACTIVITY -- \
		"$PROGS/bench_qsort" 20000
	expect_rc 0 || return 1
	local b=$(val bus-cycles) d=$(val FSB_DATA_ACTIVITY:DRDY_DRV) o=$(val FSB_DATA_ACTIVITY:DRDY_OWN)
	local x=$(val FSB_DATA_ACTIVITY:DRDY_OTHER) all=$(val FSB_DATA_ACTIVITY)
	local m=$(model bus-data-cycles)
	[ -n "$b" ] && [ "$b" -gt 0 ] && [ "$b" -lt $((d + o)) ] && [ "$o" -gt 0 ] && [ "$x" -gt 0 ] ||
		fail "bus-cycles $b, DRDY_DRV $d, DRDY_OWN $o, DRDY_OTHER $x"
	[ "$all" = $((d + o + x)) ] && [ "$all" = "$m" ] ||
		fail "FSB_DATA_ACTIVITY $all, its bits $d + $o + $x, model bus-data-cycles $m"
}

# perf's cache-misses on p4 (Linux's mapping): L2 and L3 read misses and
# the L1 data cache's write-back lookups that miss L2 -- none with the
# p4 machine's write-through L1, some with a write-back one and an L2
# too small to keep what it holds
cache_misses() {
	local c l w r
	run_vpmu stat -v --exact -e cache-misses,LLC-misses,cache-references -- "$PROGS/bench_qsort" 20000
	expect_rc 0 || return 1
	c=$(val cache-misses) l=$(val LLC-misses) r=$(val cache-references)
	[ -n "$c" ] && [ "$c" -gt 0 ] && [ "$c" = "$l" ] || fail "cache-misses $c, LLC-misses $l"
	# cache-references: the L2 (and L3) read hits, exclusive or modified
	# (none shared: no other cache holds a line); perf's percentage
	[ -n "$r" ] && [ "$r" -gt 0 ] &&
		[ "$r" = $(($(model l2-read-hits-clean) + $(model l2-read-hits-modified))) ] ||
		fail "cache-references $r: $(grep l2-read-hits err)"
	grep -Eq "^ +[0-9,]+ +cache-misses +# +[0-9.]+% of all cache refs" err ||
		fail "no share of cache refs: $(grep cache-misses err)"
	run_vpmu stat --exact --set l1d.write=back-allocate,l2.size=65536 \
		-e cache-misses,LLC-misses,BSQ_CACHE_REFERENCE:WR_2ndL_MISS -- "$PROGS/bench_qsort" 20000
	expect_rc 0 || return 1
	c=$(val cache-misses) l=$(val LLC-misses) w=$(val BSQ_CACHE_REFERENCE:WR_2ndL_MISS)
	[ -n "$w" ] && [ "$w" -gt 0 ] && [ "$c" = $((l + w)) ] ||
		fail "write-back L1: cache-misses $c, LLC-misses $l, WR_2ndL_MISS $w"
}

# The I/O agents' transactions by direction: read() brings data in (the
# agent writes memory), write() takes it out (the agent reads memory).
# IOQ_ALLOCATION counts them under OTHER, this processor's under OWN, and
# nothing with neither bit (SDM: one bit of each field).
io_direction() {
	local ioq=IOQ_ALLOCATION:DEFAULT:MEM_WB
	local spec=IOQ_ALLOCATION,$ioq:ALL_READ:OTHER,$ioq:ALL_WRITE:OTHER,$ioq:ALL_READ:ALL_WRITE:OWN
	head -c 1048576 /dev/zero >data || return 1
	run_vpmu stat -v --exact -e "$spec,$ioq:ALL_READ:ALL_WRITE" -- "$PROGS/fsb_stream" io data 4
	expect_rc 0 || return 1
	local w=$(model bus-io-writes) r=$(model bus-io-reads) io=$(model bus-io)
	local own=$(($(model bus-read-line) + $(model bus-read-invalidate) + $(model bus-write-line)))
	# 4 MiB read: 32768 lines of 128 bytes, and the loader's reads
	[ -n "$w" ] && [ "$w" -ge 32768 ] && [ "$w" -lt 33000 ] && [ "$r" -lt 64 ] &&
		[ "$io" = $((r + w)) ] || fail "read(): bus-io $io = reads $r + writes $w?"
	[ "$(val $ioq:ALL_WRITE:OTHER)" = "$w" ] && [ "$(val $ioq:ALL_READ:OTHER)" = "$r" ] ||
		fail "OTHER: $(val $ioq:ALL_READ:OTHER) reads, $(val $ioq:ALL_WRITE:OTHER) writes"
	[ "$(val $ioq:ALL_READ:ALL_WRITE:OWN)" = "$own" ] && [ "$(val IOQ_ALLOCATION)" = $((own + io)) ] ||
		fail "OWN $(val $ioq:ALL_READ:ALL_WRITE:OWN) of $own, default $(val IOQ_ALLOCATION)"
	[ "$(val $ioq:ALL_READ:ALL_WRITE)" = 0 ] || fail "no source bit: $(val $ioq:ALL_READ:ALL_WRITE)"
	# the agents' transactions are outstanding in the in-order queue
	# until their line has crossed the bus: 72 cycles each at least
	local act=IOQ_ACTIVE_ENTRIES:DEFAULT:MEM_WB:ALL_READ:ALL_WRITE:OTHER
	run_vpmu stat -v --exact -e "$act" -- "$PROGS/fsb_stream" io data 4
	expect_rc 0 || return 1
	local ia=$(val $act) il=$(($(model mem-io-read-latency) + $(model mem-io-write-latency)))
	[ "$ia" = "$il" ] && [ "$ia" -ge $((72 * $(model bus-io))) ] ||
		fail "$act $ia, I/O agents' latencies $il for $(model bus-io) transactions"
	# 100000 numbers written out 4096 bytes a call, each call's buffer
	# on one line more when it is not line-aligned
	local bytes=$(seq 1 100000 | wc -c)
	run_vpmu stat -v --exact -e "$spec" -- seq 1 100000
	expect_rc 0 || return 1
	r=$(model bus-io-reads)
	[ -n "$r" ] && [ "$r" -ge $((bytes / 128)) ] && [ "$r" -le $((bytes / 128 + bytes / 4096 + 64)) ] &&
		[ "$(val $ioq:ALL_READ:OTHER)" = "$r" ] ||
		fail "write(): bus-io-reads $r for $bytes bytes, OTHER reads $(val $ioq:ALL_READ:OTHER)"
}

# The BSQ events' mask encodes one request kind (SDM: an encoding for each
# sub-group): each of the model's kinds counts under its own, its entries
# active each cycle those outstanding; a kind the model does not make is
# refused with why, a mask that is no encoding is an error
bsq_kinds() {
	local c=:REQ_CACHE_TYPE:REQ_DEM_TYPE:MEM_TYPE1:MEM_TYPE2
	local rfo=BSQ_ALLOCATION:REQ_TYPE0:REQ_LEN0:REQ_LEN1$c
	local wb=BSQ_ALLOCATION:REQ_TYPE0:REQ_TYPE1:REQ_LEN0:REQ_LEN1$c
	# a read stream, one load a 128-byte line (32768 lines): its reads on
	# demand (the default mask) and the hardware prefetcher's
	# (REQ_DEM_TYPE clear), which also reads sectors no load touches:
	# together at least one a line
	local pf=BSQ_ALLOCATION:REQ_LEN0:REQ_LEN1:REQ_CACHE_TYPE:MEM_TYPE1:MEM_TYPE2
	local pfa=BSQ_ACTIVE_ENTRIES:${pf#*:}
	local ioq=IOQ_ALLOCATION:DEFAULT:ALL_READ:MEM_WB:OWN
	run_vpmu stat -v --exact -e "BSQ_ALLOCATION,BSQ_ACTIVE_ENTRIES,$pf,$pfa,$ioq,$ioq:PREFETCH" -- "$PROGS/fsb_stream" read 4 1
	expect_rc 0 || return 1
	# IOQ_ALLOCATION's PREFETCH adds the prefetchers' reads, lines and
	# for ownership
	[ $(($(val $ioq:PREFETCH) - $(val $ioq))) = \
		$(($(model bus-read-line-prefetch) + $(model bus-read-invalidate-prefetch))) ] ||
		fail "IOQ reads $(val $ioq), with PREFETCH $(val $ioq:PREFETCH): $(grep -E 'prefetch' err)"
	local n=$(val BSQ_ALLOCATION) a=$(val BSQ_ACTIVE_ENTRIES) p=$(val "$pf") pa=$(val "$pfa")
	[ "$n" -gt 0 ] && [ "$n" = "$(model bus-read-line)" ] &&
		[ "$a" -gt $((n * 100)) ] && [ "$a" = "$(model mem-read-line-latency)" ] &&
		[ "$p" -gt 8192 ] && [ $((n + p)) -ge 32768 ] && [ "$p" = "$(model bus-read-line-prefetch)" ] &&
		[ "$pa" -gt $((p * 360)) ] && [ "$pa" = "$(model mem-read-line-prefetch-latency)" ] ||
		fail "reads: BSQ_ALLOCATION $n and $p prefetched, BSQ_ACTIVE_ENTRIES $a and $pa: $(grep -E 'bus-read-line|mem-read-line' err)"
	# a store stream: its reads for ownership, each waiting the memory
	# latency (360) and its turn on the bus, behind no more than the
	# eight miss-status registers let out (36 cycles a sector), and its
	# write-backs, outstanding until their data has crossed the bus
	local rfoa=BSQ_ACTIVE_ENTRIES:${rfo#*:} wba=BSQ_ACTIVE_ENTRIES:${wb#*:}
	local ioqw=IOQ_ACTIVE_ENTRIES:ALL_WRITE:OWN:MEM_WB pfo=${rfo/:REQ_DEM_TYPE/}
	run_vpmu stat -v --exact -e "$rfo,$wb,$rfoa,$wba,$ioqw,$pfo" -- "$PROGS/fsb_stream" write 4 1
	expect_rc 0 || return 1
	local r=$(val "$rfo") w=$(val "$wb") ra=$(val "$rfoa") wa=$(val "$wba") pr=$(val "$pfo")
	# every word stored: 65536 sectors, most read for ownership ahead
	[ "$pr" = "$(model bus-read-invalidate-prefetch)" ] && [ $((r + pr)) -ge 65536 ] ||
		fail "RFO $r on demand, $pr prefetched: $(grep -E 'bus-read-inv' err)"
	[ "$(val $ioqw)" = $((wa + $(model mem-write-partial-latency))) ] ||
		fail "$ioqw $(val $ioqw), write-backs $wa active: $(grep -E 'mem-write' err)"
	[ "$r" -gt 0 ] && [ "$r" = "$(model bus-read-invalidate)" ] &&
		[ "$w" -gt 8192 ] && [ "$w" = "$(model bus-write-line)" ] &&
		[ "$ra" = "$(model mem-rfo-latency)" ] && [ "$ra" -ge $((r * 360)) ] &&
		[ "$ra" -le $((r * (360 + 8 * 36))) ] &&
		[ "$wa" = "$(model mem-write-line-latency)" ] && [ "$wa" -gt "$w" ] ||
		fail "RFO $r, $ra active; write-backs $w, $wa active: $(grep -E 'bus-read-inv|bus-write-line|mem-rfo|mem-write' err)"
	run_vpmu stat -e BSQ_ALLOCATION:REQ_TYPE0:REQ_IO_TYPE -- "$PROGS/e2e_exit3"
	expect_rc 3 && grep -q "<not supported>.*BSQ_ALLOCATION:0x21 is not supported: memory types" err ||
		fail "refused kinds: $(cat err)"
	run_vpmu stat -e BSQ_ALLOCATION:REQ_LEN1 -- "$PROGS/e2e_exit3"
	expect_rc 1 && [ "$(wc -l <err)" -eq 1 ] && grep -q "request length 2 is not an encoding" err ||
		fail "no encoding: $(cat err)"
}

# TC_DELIVER_MODE: each bit the cycles a pair of the processors' modes
# holds.  Alone, processor 1 is inactive: processor 0's cycles are DI and
# BI but for those in microcode or clearing (no bit counts both
# inactive), BI its build cycles.  Two threads deliver together.
tc_modes() {
	local all=TC_DELIVER_MODE:DD:DB:DI:BD:BB:BI:ID:IB
	run_vpmu stat -v --exact -e TC_DELIVER_MODE,TC_DELIVER_MODE:BI,$all,cycles -- "$PROGS/bench_qsort" 20000
	expect_rc 0 || return 1
	local di=$(val TC_DELIVER_MODE) bi=$(val TC_DELIVER_MODE:BI) c=$(model cycles)
	local idle=$(($(model tc-rom-cycles) + $(model machine-clear-cycles)))
	[ "$bi" -gt 0 ] && [ "$bi" = "$(model tc-build-cycles)" ] && [ $((di + bi + idle)) = "$c" ] &&
		[ "$(val $all)" = $((di + bi)) ] ||
		fail "alone: DI $di, BI $bi, all $(val $all), cycles $c, in microcode or clearing $idle"
	local act1=TC_DELIVER_MODE:DD:DB:BD:BB:ID:IB act0=TC_DELIVER_MODE:DD:DB:DI:BD:BB:BI
	local b1=TC_DELIVER_MODE:DB:BB:IB b0=TC_DELIVER_MODE:BD:BB:BI
	run_vpmu stat --smt -v --exact -e TC_DELIVER_MODE:DD,$all,$act0,$act1,$b0,$b1 -- \
		"$PROGS/ua_fpadd" dep 20000 2
	expect_rc 0 || return 1
	local dd=$(val TC_DELIVER_MODE:DD) n=$(val $all)
	local c0 c1 i0 i1
	read -r c0 c1 < <(awk '$1 == "cycles" && NF == 3 { gsub(",", ""); print $2, $3 }' err)
	read -r i0 i1 < <(awk '$1 ~ /^(tc-rom-cycles|machine-clear-cycles)$/ && NF == 3 {
		gsub(",", ""); a += $2; b += $3 } END { print a, b }' err)
	# (a processor's cycles leave out those it waits halted, as the main
	# thread does in pthread_join: every cycle of the run has one active)
	c=$((c0 > c1 ? c0 : c1))
	[ "$dd" -gt $((c1 / 2)) ] && [ "$n" -le $((c0 + c1)) ] && [ "$n" -ge $((c - i0 - i1)) ] ||
		fail "two threads: DD $dd, all $n, cycles $c0 and $c1, in microcode or clearing $i0 and $i1"
	# each processor is active in every cycle it counts, but for those in
	# microcode or clearing, and builds in its build cycles: none lost
	# while the other runs alone or before the one woken has run
	local t0 t1
	read -r t0 t1 < <(awk '$1 == "tc-build-cycles" && NF == 3 { gsub(",", ""); print $2, $3 }' err)
	[ "$(val $act0)" = $((c0 - i0)) ] && [ "$(val $act1)" = $((c1 - i1)) ] &&
		[ "$(val $b0)" = "$t0" ] && [ "$(val $b1)" = "$t1" ] ||
		fail "per processor: active $(val $act0) and $(val $act1) of $((c0 - i0)) and $((c1 - i1)), building $(val $b0) and $(val $b1) of $t0 and $t1"
	# two programs count with a copy of the counters each: refused, before running
	run_vpmu stat --smt -e TC_DELIVER_MODE:DD -- "$PROGS/e2e_exit3" : "$PROGS/e2e_exit3"
	expect_rc 1 && [ "$(wc -l <err)" -eq 1 ] && ! grep -q "exiting with" out err &&
		grep -q "TC_DELIVER_MODE cannot be counted for two programs" err || fail "two programs: $(cat err)"
}

# Execution tagging: SCALAR_DP_UOP with tag enable and tag value 1 (a raw
# image: event 19, mask bit 15, tag 1, tag enable) marks the 16 dependent
# addsd of each of ua_fpadd's iterations; EXECUTION_EVENT:NBOGUS0 counts
# those that retire, BOGUS0 those on a mispredicted path
execution_tagging() {
	run_vpmu stat -v --exact -e r2700003000000000,EXECUTION_EVENT:NBOGUS0,EXECUTION_EVENT:BOGUS0,SCALAR_DP_UOP -- \
		"$PROGS/ua_fpadd" dep 10000
	expect_rc 0 || return 1
	local t=$(val r2700003000000000) nb=$(val EXECUTION_EVENT:NBOGUS0) b=$(val EXECUTION_EVENT:BOGUS0)
	[ "$nb" = 160000 ] && [ "$nb" = "$(model scalar-double-uops)" ] &&
		[ "$b" = "$(model scalar-double-uops-wrong-path)" ] && [ "$b" -gt 0 ] ||
		fail "NBOGUS0 $nb, BOGUS0 $b: $(grep scalar-double err)"
	[ "$t" = $((nb + b)) ] && [ "$(val SCALAR_DP_UOP)" = "$t" ] ||
		fail "the tagger counts $t, SCALAR_DP_UOP $(val SCALAR_DP_UOP), tagged $nb + $b"
}

# The µop queue is written by every µop the front end delivers, retired or
# on a mispredicted path: from the trace cache, building or delivering, or
# from the microcode ROM, each microcoded instruction one switch to it
uop_queue() {
	run_vpmu stat -v --exact -e UOP_QUEUE_WRITES,UOP_QUEUE_WRITES:FROM_TC_BUILD,UOP_QUEUE_WRITES:FROM_ROM,TC_MS_XFER,BPU_FETCH_REQUEST:TCMISS -- \
		"$PROGS/bench_qsort" 20000
	expect_rc 0 || return 1
	local all=$(val UOP_QUEUE_WRITES) b=$(val UOP_QUEUE_WRITES:FROM_TC_BUILD)
	local rom=$(val UOP_QUEUE_WRITES:FROM_ROM) x=$(val TC_MS_XFER) miss=$(val BPU_FETCH_REQUEST:TCMISS)
	[ -n "$all" ] && [ "$all" = $(($(model uops) + $(model uops-spec))) ] ||
		fail "UOP_QUEUE_WRITES $all, uops $(model uops) + uops-spec $(model uops-spec)"
	[ "$b" -ge "$miss" ] && [ "$b" -lt $((all / 100)) ] && [ "$x" -gt 0 ] && [ "$rom" -ge "$x" ] ||
		fail "built $b on $miss trace-cache misses; ROM $rom µops in $x switches"
	run_vpmu stat -a alpha -v -- "$PROGS/e2e_exit3"
	grep -Eq '^ +uops-tc-build +<not counted> +<not counted> +\(the machine has no trace cache\)$' err ||
		fail "alpha: $(grep uops-tc err)"
}

# Under --smt a thread-independent event (SCALAR_DP_UOP) counts both
# processors' µops on each processor's row, and the core's row counts them
# once; a thread-specific one (UOP_QUEUE_WRITES) splits and sums
shared_events() {
	run_vpmu stat -v --smt --exact -e SCALAR_DP_UOP,UOP_QUEUE_WRITES -- \
		"$PROGS/ua_fpadd" dep 1000 : "$PROGS/ua_fpadd" dep 2000
	expect_rc 0 || return 1
	row() { awk -v c="$1" -v n="$2" '$1 == c && $3 == n { gsub(",", "", $2); print $2; exit }
		c == "" && $2 == n && $1 ~ /^[0-9]/ { gsub(",", "", $1); print $1; exit }' err; }
	local s0=$(row CPU0 SCALAR_DP_UOP) s1=$(row CPU1 SCALAR_DP_UOP) s=$(row "" SCALAR_DP_UOP)
	local q0=$(row CPU0 UOP_QUEUE_WRITES) q1=$(row CPU1 UOP_QUEUE_WRITES) q=$(row "" UOP_QUEUE_WRITES)
	# 16 addsd an iteration: 1000 and 2000 iterations, and those of the
	# wrong paths (the model's events, both processors')
	both() { awk -v n="$1" '$1 == n && NF == 3 { gsub(",", ""); print $2 + $3; exit }' err; }
	local sd=$(both scalar-double-uops) wp=$(both scalar-double-uops-wrong-path)
	[ -n "$s" ] && [ "$s" = "$s0" ] && [ "$s" = "$s1" ] && [ "$sd" = 48000 ] && [ "$s" = $((sd + wp)) ] ||
		fail "SCALAR_DP_UOP: CPU0 $s0, CPU1 $s1, core $s; retired $sd, wrong path $wp"
	[ -n "$q" ] && [ "$q" = $((q0 + q1)) ] && [ "$q0" != "$q1" ] ||
		fail "UOP_QUEUE_WRITES: CPU0 $q0 + CPU1 $q1 != $q"
}

# MEMORY_CANCEL:64K_CONF counts the L1 data cache's aliasing conflicts:
# two lines 4 MB apart (alike in bits 21:6) read in turn drop each other
aliasing_conflicts() {
	run_vpmu stat -v --exact -e MEMORY_CANCEL:64K_CONF -- "$PROGS/ua_l1miss" 4194368 20000 1 4194304
	expect_rc 0 || return 1
	local c=$(val MEMORY_CANCEL:64K_CONF)
	[ -n "$c" ] && [ "$c" -ge 40000 ] && [ "$c" = "$(model L1-dcache-alias-evictions)" ] ||
		fail "64K_CONF $c, alias evictions $(model L1-dcache-alias-evictions)"
	run_vpmu stat --exact --set l1d.alias=0 -e MEMORY_CANCEL:64K_CONF -- \
		"$PROGS/ua_l1miss" 4194368 20000 1 4194304
	[ "$(val MEMORY_CANCEL:64K_CONF)" = 0 ] || fail "whole tags: $(val MEMORY_CANCEL:64K_CONF)"
}

# MACHINE_CLEAR: lx_smc rewrites code it has called, in place, five times
# (four rounds and once more): each store into the fetched page clears the
# pipeline; CLEAR counts the cycles; a program that writes no code clears
# nothing
machine_clears() {
	run_vpmu stat -v --exact -e MACHINE_CLEAR:SMCLEAR,MACHINE_CLEAR:CLEAR -- "$PROGS/lx_smc"
	expect_rc 0 || return 1
	local n=$(val MACHINE_CLEAR:SMCLEAR) c=$(val MACHINE_CLEAR:CLEAR)
	[ "$n" = 5 ] && [ "$n" = "$(model machine-clears-smc)" ] && [ "$c" -ge $((5 * 31)) ] &&
		[ "$c" = "$(model machine-clear-cycles)" ] || fail "SMCLEAR $n, CLEAR $c"
	grep -q '^sum 1010$' out || fail "lx_smc output: $(cat out)"
	# (an interrupt comes with the count after the overflow: not every clear
	# is sampled at period 1)
	run_vpmu record -e MACHINE_CLEAR:SMCLEAR -c 1 -o smc.data -- "$PROGS/lx_smc"
	expect_rc 0 || return 1
	grep -Eq '\([1-5] samples' err || fail "record: $(cat err)"
	run_vpmu stat --exact -e MACHINE_CLEAR:SMCLEAR -- "$PROGS/bench_qsort" 20000
	[ "$(val MACHINE_CLEAR:SMCLEAR)" = 0 ] || fail "bench_qsort: $(val MACHINE_CLEAR:SMCLEAR)"
}

# MOB_LOAD_REPLAY:NO_STA: ua_stfwd late's loads issue before the address
# of the store that covers them is known, one an iteration; elsewhere's
# load is not the store's
mob_no_sta() {
	run_vpmu stat -v --exact -e MOB_load_replay:NO_STA -- "$PROGS/ua_stfwd" late 5000
	expect_rc 0 || return 1
	local n=$(val MOB_load_replay:NO_STA)
	[ -n "$n" ] && [ "$n" -ge 5000 ] && [ "$n" -lt 5100 ] &&
		[ "$n" = "$(model loads-store-address-wait)" ] || fail "late: NO_STA $n"
	run_vpmu stat --exact -e MOB_load_replay:NO_STA -- "$PROGS/ua_stfwd" elsewhere 5000
	[ "$(val MOB_load_replay:NO_STA)" -lt 100 ] || fail "elsewhere: $(val MOB_load_replay:NO_STA)"
}

# TC_MISC:FLUSH: a store into code the trace cache holds flushes all of it
# (SDM vol. 3A, 11.6).  lx_smc's first rewrite comes after its first printf,
# whose code has pushed the called code out of the 12 KB trace cache: four
# flushes in five clears; with a trace cache that keeps it, five.
tc_flush() {
	run_vpmu stat -v --exact -e TC_MISC:FLUSH,MACHINE_CLEAR:SMCLEAR -- "$PROGS/lx_smc"
	expect_rc 0 || return 1
	[ "$(val TC_MISC:FLUSH)" = 4 ] && [ "$(model tc-flushes)" = 4 ] &&
		[ "$(val MACHINE_CLEAR:SMCLEAR)" = 5 ] ||
		fail "FLUSH $(val TC_MISC:FLUSH), SMCLEAR $(val MACHINE_CLEAR:SMCLEAR)"
	run_vpmu stat --exact --set l1i.size=1048576 -e TC_MISC:FLUSH -- "$PROGS/lx_smc"
	[ "$(val TC_MISC:FLUSH)" = 5 ] || fail "1 MB trace cache: $(val TC_MISC:FLUSH)"
	run_vpmu stat --exact -e TC_MISC:FLUSH -- "$PROGS/bench_qsort" 20000
	[ "$(val TC_MISC:FLUSH)" = 0 ] || fail "bench_qsort: $(val TC_MISC:FLUSH)"
}

# Floating-point assists: each operation on a denormal (or an empty x87
# register) counts once and costs core.assist cycles; DAZ and FTZ take
# them away; the program prints what it prints natively.
fp_assists() {
	local n=2000 base
	run_vpmu stat --exact -e cycles,SSE_INPUT_ASSIST,MACHINE_CLEAR:CLEAR -- "$PROGS/ua_assist" normal $n
	expect_rc 0 || return 1
	base=$(val cycles)
	[ "$(val SSE_INPUT_ASSIST)" = 0 ] && [ "$(val MACHINE_CLEAR:CLEAR)" = 0 ] ||
		fail "normal: $(cat err)"
	for m in sse-in:SSE_INPUT_ASSIST sse-out:MACHINE_CLEAR:CLEAR/150 x87-in:X87_ASSIST:PREA \
		x87-stack:X87_ASSIST:FPSU sse-daz:SSE_INPUT_ASSIST=0 sse-ftz:MACHINE_CLEAR:CLEAR=0 \
		sse-cmp:SSE_INPUT_ASSIST sse-cvt:MACHINE_CLEAR:CLEAR/150; do
		local mode=${m%%:*} e=${m#*:} want=$n div=1
		case $e in *=0) e=${e%=0} want=0 ;; */150) e=${e%/150} div=150 ;; esac
		run_vpmu stat -v --exact -e cycles,$e -- "$PROGS/ua_assist" $mode $n
		expect_rc 0 || return 1
		[ "$(($(val $e) / div))" = "$want" ] && [ "$(model fp-assists)" = "$want" ] ||
			{ fail "$mode: $e $(val $e), fp-assists $(model fp-assists)"; continue; }
		[ "$want" = 0 ] || [ "$(val cycles)" -ge $((base + n * 150)) ] ||
			fail "$mode: $(val cycles) cycles, $base without assists"
		"$PROGS/ua_assist" $mode $n >native.out
		cmp -s out native.out || fail "$mode: output $(cat out), native $(cat native.out)"
	done
	# sixteen in one block, each counted and cleared
	run_vpmu stat --exact -e SSE_INPUT_ASSIST,MACHINE_CLEAR:CLEAR -- "$PROGS/ua_assist" sse-in16 $n
	[ "$(val SSE_INPUT_ASSIST)" = $((16 * n)) ] && [ "$(val MACHINE_CLEAR:CLEAR)" = $((16 * n * 150)) ] ||
		fail "sse-in16: $(cat err)"
	# a machine that takes none counts the conditions without a clear
	run_vpmu stat -v --exact --set core.assist=0 -e cycles,SSE_INPUT_ASSIST -- "$PROGS/ua_assist" sse-in $n
	[ "$(val SSE_INPUT_ASSIST)" = $n ] && [ "$(model fp-assists)" = 0 ] &&
		[ "$(val cycles)" -lt $((base + n * 20)) ] || fail "core.assist=0: $(cat err)"
}

# Memory-ordering clears (SMT): a spin-wait loop without PAUSE has loads
# in flight when the other processor's store ends the wait, one clear a
# hand-over; PAUSE keeps them out, and the pair runs faster; one logical
# processor clears nothing.
memory_ordering() {
	local r=200 c n
	run_vpmu stat --smt --exact -e cycles,MACHINE_CLEAR:MOCLEAR -- "$PROGS/ua_pingpong" nopause $r 1000
	expect_rc 0 || return 1
	c=$(val cycles) n=$(val MACHINE_CLEAR:MOCLEAR)
	[ "$n" -ge $((2 * r * 9 / 10)) ] && [ "$n" -le $((2 * r)) ] || fail "nopause: $n clears"
	grep -q "^$r rounds, turn 0$" out || fail "nopause output: $(cat out)"
	run_vpmu stat --smt --exact -e cycles,MACHINE_CLEAR:MOCLEAR -- "$PROGS/ua_pingpong" pause $r 1000
	[ "$(val MACHINE_CLEAR:MOCLEAR)" -lt $((n / 10)) ] && [ "$(val cycles)" -lt "$c" ] ||
		fail "pause: $(val MACHINE_CLEAR:MOCLEAR) clears, $(val cycles) cycles; $c without"
	run_vpmu stat --exact -e MACHINE_CLEAR:MOCLEAR -- "$PROGS/ua_pingpong" nopause 20 1000
	[ "$(val MACHINE_CLEAR:MOCLEAR)" = 0 ] || fail "one processor: $(cat err)"
}

exit_status_kept() {
	run_vpmu stat -e instructions "$PROGS/e2e_exit3"
	expect_rc 3 || return 1
}

t same_count_three_forms same_count_three_forms
t matches_model matches_model
t speculative_vs_retired speculative_vs_retired
t no_fit_and_exact no_fit_and_exact
t spec_errors spec_errors
t list_events list_events
t user_kernel user_kernel
t bus_data bus_data
t cache_misses cache_misses
t io_direction io_direction
t bsq_kinds bsq_kinds
t tc_modes tc_modes
t execution_tagging execution_tagging
t uop_queue uop_queue
t shared_events shared_events
t aliasing_conflicts aliasing_conflicts
t machine_clears machine_clears
t tc_flush tc_flush
t mob_no_sta mob_no_sta
t fp_assists fp_assists
t memory_ordering memory_ordering
t exit_status_kept exit_status_kept
summary
