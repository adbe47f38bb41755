#!/usr/bin/env bash
# run-metrics.sh — whole-command tests of `vpmu stat --metrics fsb`, the
# Itanium 2 front-side-bus metrics of HP Caliper's sysbus event set: a
# pipelined line stream keeps the data bus busy with eight reads in flight,
# a pointer chase leaves it idle with one read at a time that waits the
# configured memory latency, a store stream reads lines for ownership
# (BRIL) and writes them back (BWL), read() of a file moves its data as
# I/O transactions; formulas from the printed counts and the bus
# parameters (--set follows), -x and -j metric fields, one-line errors.
#
# Environment: VPMU (binary), PROGS (built tests/progs).  Run by make check.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

val() { # NAME: the raw count printed for event NAME
	awk -v n="$1" '$2 == n { gsub(",", "", $1); print $1; exit }' err
}
met() { # LABEL UNIT: a metric's value (UNIT: the first word of its unit)
	awk -v l="$1" -v u="$2" 'index($0, "  " l " ") == 1 {
		split($0, p, " = "); split(p[2], f, " ")
		if (f[2] == u) { print f[1]; exit } }' err
}
check() { # AWK-CONDITION MESSAGE VAR=VALUE...: fail unless the condition holds
	local cond=$1 msg=$2
	shift 2
	awk "$@" "BEGIN { exit !($cond) }" </dev/null || fail "$msg ($*)"
}
fsb() { # ARGS...: vpmu stat -a ia64 --metrics fsb ARGS, expecting success
	run_vpmu stat -a ia64 --metrics fsb "$@"
	expect_rc 0 || return 1
	grep -q 'front-side bus metrics' err || fail "no metrics report: $(head -c 400 err)"
}

stream_keeps_data_bus_busy() {
	fsb -- "$PROGS/fsb_stream" read 8 2 || return 1
	local du=$(met "data bus utilisation" %) out=$(met "average outstanding reads per cycle" reads)
	local lat=$(met "average memory read latency" core) cyc=$(val CPU_CYCLES)
	local rd=$(val BUS_MEM_READ:ALL_SELF) brl=$(val BUS_MEM_READ:BRL_SELF)
	check 'du > 60 && du <= 100' "stream data bus utilisation" -v du="$du"
	check 'o > 5 && o <= 8' "stream: eight fill buffers busy" -v o="$out"
	# each read waits the memory latency (180) plus its turn on the bus
	# behind up to seven others (20 core cycles a line)
	check 'l >= 180 && l < 180 + 7 * 20' "stream read latency" -v l="$lat"
	# 2 passes of 65536 lines; the reads overlap: a line every few dozen cycles
	check 'rd >= 131072 && brl >= 131072 && c / rd < 40' "stream reads, cycles per read" \
		-v rd="$rd" -v brl="$brl" -v c="$cyc"
}

# Caliper's data cycles (4 per line, 1 per partial) are what the model's
# bus carried: BUS_DATA_CYCLE agrees to the clock.
data_cycles_agree() {
	fsb -- "$PROGS/fsb_stream" write 4 1 || return 1
	local l=$(val BUS_MEMORY:EQ_128BYTE_ANY) p=$(val BUS_MEMORY:LT_128BYTE_ANY) h=$(val BUS_HITM)
	[ -n "$l" ] && [ -n "$h" ] && [ "$((4 * (l + h) + p))" = "$(val BUS_DATA_CYCLE)" ] ||
		fail "4 * ($l + $h) + $p data clocks, BUS_DATA_CYCLE $(val BUS_DATA_CYCLE)"
	[ "$(val BUS_ALL:ANY)" = "$(($(val BUS_ALL:SELF) + $(val BUS_ALL:IO)))" ] ||
		fail "ANY $(val BUS_ALL:ANY) is not SELF + IO"
}

chase_waits_memory_latency() {
	fsb --set mem.latency=240 -- "$PROGS/ua_chase" 16000000 200000 || return 1
	local du=$(met "data bus utilisation" %) out=$(met "average outstanding reads per cycle" reads)
	local lat=$(met "average memory read latency" core) lb=$(met "average memory read latency" bus)
	check 'du < 20' "chase data bus utilisation" -v du="$du"
	check 'o > 0.7 && o < 1.2' "chase: about one read outstanding" -v o="$out"
	check 'l >= 240 && l < 250' "chase latency near the configured 240" -v l="$lat"
	check 'b * 5 > l - 0.03 && b * 5 < l + 0.03' "bus-cycle latency = core / 5" -v b="$lb" -v l="$lat"
	grep -q 'R = 5 core clocks per bus clock' err || fail "no bus parameters: $(cat err)"
}

store_stream_writes_back() {
	fsb -- "$PROGS/fsb_stream" write 8 2 || return 1
	local bril=$(val BUS_MEM_READ:BRIL_SELF) wb=$(val BUS_WR_WB:ALL_SELF) brl=$(val BUS_MEM_READ:BRL_SELF)
	# 2 passes of 65536 lines stored: each read for ownership once, each
	# written back unless still in the 3 MB L3 (24576 lines) at the end
	check 'bril >= 131072 && bril < 133000' "store misses read for ownership (BRIL)" -v bril="$bril"
	check 'wb >= 131072 - 24576 && wb <= bril' "write-backs (BWL)" -v wb="$wb" -v bril="$bril"
	check 'brl < bril / 10' "few plain line reads" -v brl="$brl" -v bril="$bril"
}

io_share_of_read() {
	head -c 1048576 /dev/zero >data || return 1
	fsb -- "$PROGS/fsb_stream" io data 4 || return 1
	local io=$(val BUS_ALL:IO) share=$(met "I/O share of transactions" %)
	local cpu=$(met "CPU share of transactions" %)
	# 4 MiB moved by read(): 32768 lines of 128 bytes, and the loader's reads
	check 'io >= 32768 && io < 33000' "I/O lines" -v io="$io"
	check 's > 50 && s + c > 99.99 && s + c < 100.01' "I/O share" -v s="$share" -v c="$cpu"
	# a program that reads no file has next to none
	fsb -- "$PROGS/fsb_stream" read 4 1 || return 1
	check 's < 1' "stream I/O share" -v s="$(met "I/O share of transactions" %)"
}

# Caliper's implicit write-backs: seq formats its output into a buffer
# (stores: modified lines) and write()s it; the I/O agent reading those
# lines finds them modified, about one HITM per 128-byte line written.
implicit_write_backs() {
	local bytes=$(seq 1 100000 | wc -c)
	fsb -- seq 1 100000 >/dev/null || return 1
	check 'h >= 0.9 * b / 128 && h <= 1.1 * b / 128 + 64' "HITM per line written" \
		-v h="$(val BUS_HITM)" -v b="$bytes"
	fsb -- "$PROGS/fsb_stream" read 4 1 || return 1
	[ "$(val BUS_HITM)" -lt 64 ] || fail "$(val BUS_HITM) HITM without output"
}

# The printed metrics are the formulas over the printed counts, with the
# bus --set makes.
formulas_follow_set() {
	fsb --set mem.bus_ratio=10 -- "$PROGS/fsb_stream" read 4 1 || return 1
	grep -q 'bus clock 100 MHz: R = 10 ' err || fail "ratio not followed: $(cat err)"
	local c=$(val CPU_CYCLES) any=$(val BUS_ALL:ANY) l=$(val BUS_MEMORY:EQ_128BYTE_ANY)
	local hi=$(val BUS_MEM_READ_OUT_HI) lo=$(val BUS_MEM_READ_OUT_LO) rd=$(val BUS_MEM_READ:ALL_SELF)
	local dc=$(val BUS_DATA_CYCLE) h=$(val BUS_HITM)
	want() { awk -v c="$c" -v any="$any" -v l="$l" -v hi="$hi" -v lo="$lo" -v rd="$rd" \
		-v dc="$dc" -v h="$h" "BEGIN { printf \"%.2f\", $1 }"; }
	[ "$(met "address bus utilisation" %)" = "$(want '100 * any * 3 / (c / 10)')" ] ||
		fail "address util $(met "address bus utilisation" %), want $(want '100 * any * 3 / (c / 10)')"
	[ "$(met "data bus utilisation" %)" = "$(want '100 * (l + h) * 4 / (c / 10)')" ] ||
		fail "data util"
	[ "$(met "average memory read latency" bus)" = "$(want '(hi * 8 + lo) / rd / 10')" ] ||
		fail "bus latency $(met "average memory read latency" bus)"
	[ "$(met "bus bandwidth (emulated time)" MB/s)" = "$(want 'dc * 32 / (c / 1000)')" ] ||
		fail "bandwidth"
	# a slower bus: each line takes 40 core cycles, latency grows
	check 'l > 200' "latency on a bus half as fast" -v l="$(met "average memory read latency" core)"
}

exact_runs_match_direct_counts() {
	fsb -- "$PROGS/fsb_stream" read 2 1 || return 1
	grep -q '4 deterministic runs (--exact)' err || fail "not exact runs: $(cat err)"
	local any=$(val BUS_ALL:ANY) hi=$(val BUS_MEM_READ_OUT_HI)
	run_vpmu stat -a ia64 -e BUS_ALL:ANY,BUS_MEM_READ_OUT_HI -- "$PROGS/fsb_stream" read 2 1
	[ "$(val BUS_ALL:ANY)" = "$any" ] && [ "$(val BUS_MEM_READ_OUT_HI)" = "$hi" ] ||
		fail "--metrics $any/$hi, -e $(val BUS_ALL:ANY)/$(val BUS_MEM_READ_OUT_HI)"
}

csv_and_json_carry_metrics() {
	fsb -- "$PROGS/fsb_stream" read 2 1 || return 1
	local du=$(met "data bus utilisation" %)
	run_vpmu stat -a ia64 --metrics fsb -x, -- "$PROGS/fsb_stream" read 2 1
	expect_rc 0 || return 1
	grep -q '^[0-9]*,,BUS_ALL:ANY,[0-9]*,100.00,,$' err || fail "no BUS_ALL:ANY row: $(cat err)"
	[ "$(grep -c '^,,,,,[0-9.]*,' err)" = 8 ] || fail "not 8 metric lines: $(cat err)"
	grep -qx ",,,,,$du,%  fsb_data_util" err || fail "CSV data util, want $du: $(cat err)"
	run_vpmu stat -a ia64 --metrics fsb -j -- "$PROGS/fsb_stream" read 2 1
	expect_rc 0 || return 1
	[ "$(grep -c '^{"metric-value" : "[0-9.]*", "metric-unit" : "[^"]*"}$' err)" = 8 ] ||
		fail "not 8 JSON metrics: $(cat err)"
	grep -q '"metric-unit" : "MB/s  fsb_bandwidth"' err || fail "no bandwidth object"
	grep -q '"event" : "BUS_DATA_CYCLE"' err || fail "no count objects"
}

one_line_errors() {
	run_vpmu stat -a ia64 --metrics bus -- "$PROGS/e2e_exit3"
	expect_rc 1 && [ "$(wc -l <err)" = 1 ] && grep -q "unknown --metrics 'bus'.*valid: fsb" err ||
		fail "unknown group: $(cat err)"
	run_vpmu stat -a p4 --metrics fsb -- "$PROGS/e2e_exit3"
	expect_rc 1 && [ "$(wc -l <err)" = 1 ] && grep -q "needs -a ia64, not 'p4'" err ||
		fail "other machine: $(cat err)"
	run_vpmu stat --metrics fsb -- "$PROGS/e2e_exit3"
	expect_rc 1 && [ "$(wc -l <err)" = 1 ] || fail "default machine: $(cat err)"
	run_vpmu stat -a ia64 --metrics fsb -e cycles -- "$PROGS/e2e_exit3"
	expect_rc 1 && grep -q 'drop -e' err || fail "-e accepted: $(cat err)"
	run_vpmu stat -a ia64 --metrics fsb --no-timing -- "$PROGS/e2e_exit3"
	expect_rc 1 && grep -q 'drop --no-timing' err || fail "--no-timing accepted: $(cat err)"
	run_vpmu stat -a ia64 --metrics
	expect_rc 1 && grep -q "needs an argument" err || fail "no argument: $(cat err)"
}

t stream_keeps_data_bus_busy stream_keeps_data_bus_busy
t data_cycles_agree data_cycles_agree
t chase_waits_memory_latency chase_waits_memory_latency
t store_stream_writes_back store_stream_writes_back
t io_share_of_read io_share_of_read
t implicit_write_backs implicit_write_backs
t formulas_follow_set formulas_follow_set
t exact_runs_match_direct_counts exact_runs_match_direct_counts
t csv_and_json_carry_metrics csv_and_json_carry_metrics
t one_line_errors one_line_errors
summary
