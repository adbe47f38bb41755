#!/usr/bin/env bash
# run-xscale.sh — whole-command tests of the Intel XScale counter hardware
# (-a xscale, -a xscale2): the performance monitoring modes of the XScale
# Core Developer's Manual §8.4 through `vpmu stat --mode` (a loop that fits
# the I-cache misses ≈never, a 32-byte stride through 1 MiB misses the
# D-cache ≈always, CPI is CCNT/PMN0), the clock counter's divide-by-64,
# fill-buffer stalls, two event counters multiplexed or rerun with
# --exact, four on xscale2, sampling with vpmu record, and one-line errors.
#
# Environment: VPMU (binary), PROGS (built tests/progs).  Run by make check.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

val() { # NAME: the count printed for event NAME in err (perf layout)
	awk -v n="$1" '$2 == n { gsub(",", "", $1); print $1; exit }' err
}
reg() { # PMN0|PMN1|CCNT: the register's count in a --mode report
	awk -v n="$1" '$1 == n { gsub(",", "", $2); print $2; exit }' err
}
stat_of() { # LABEL: a derived statistic's value in a --mode report
	awk -v l="$1" 'index($0, l) == 3 { v = $NF; sub("%", "", v); print v; exit }' err
}

icache_efficiency_small_loop() {
	run_vpmu stat -a xscale --mode instruction-cache-efficiency "$PROGS/xs_iloop_nolibc"
	expect_rc 0 || return 1
	grep -q 'instruction cache efficiency mode' err || fail "no mode title: $(cat err)"
	p0=$(reg PMN0) p1=$(reg PMN1) rate=$(stat_of "instruction cache miss rate")
	[ -n "$p0" ] && [ "$p0" -gt 20000000 ] || fail "PMN0 (instructions) $p0"
	# cold misses only: a few lines of a loop run 2 million times
	[ -n "$p1" ] && [ "$p1" -gt 0 ] && [ "$p1" -lt 100 ] || fail "PMN1 (fetches) $p1"
	awk -v r="$rate" 'BEGIN { exit !(r != "" && r < 0.001) }' || fail "I-cache miss rate $rate%"
}

dcache_efficiency_stride() {
	run_vpmu stat -a xscale --mode data-cache-efficiency "$PROGS/xs_stride_nolibc"
	expect_rc 0 || return 1
	p0=$(reg PMN0) p1=$(reg PMN1) rate=$(stat_of "data cache miss rate")
	# 8 passes of 32768 reads
	[ -n "$p0" ] && [ "$p0" -ge 262144 ] && [ "$p0" -lt 263000 ] || fail "PMN0 (accesses) $p0"
	awk -v r="$rate" 'BEGIN { exit !(r != "" && r > 99.5 && r <= 100) }' ||
		fail "D-cache miss rate $rate%"
	# the loop that fits misses the D-cache ≈never: it makes no accesses
	run_vpmu stat -a xscale --mode data-cache-efficiency "$PROGS/xs_iloop_nolibc"
	[ "$(reg PMN0)" -lt 200 ] || fail "iloop accesses $(reg PMN0)"
}

cpi_is_ccnt_over_pmn0() {
	for m in instruction-cache-efficiency instruction-tlb-efficiency; do
		run_vpmu stat -a xscale --mode $m "$PROGS/xs_stride_nolibc"
		expect_rc 0 || return 1
		p0=$(reg PMN0) cc=$(reg CCNT) cpi=$(stat_of "cycles per instruction (CPI)")
		want=$(awk -v a="$cc" -v b="$p0" 'BEGIN { printf "%.4f", a / b }')
		[ -n "$cpi" ] && [ "$cpi" = "$want" ] || fail "$m: CPI $cpi, CCNT/PMN0 $want"
	done
	# the registers are the machine's cycles and instructions
	run_vpmu stat -a xscale -e cycles,instructions "$PROGS/xs_stride_nolibc"
	[ "$(val cycles)" = "$cc" ] && [ "$(val instructions)" = "$p0" ] ||
		fail "CCNT $cc PMN0 $p0, cycles $(val cycles) instructions $(val instructions)"
	awk -v c="$cpi" 'BEGIN { exit !(c > 5) }' || fail "a run of misses at CPI $cpi"
}

ccnt_divide_by_64() {
	run_vpmu stat -a xscale --exact -e CPU_CYCLES,CPU_CYCLES:DIV64,r8000000fe "$PROGS/xs_stride_nolibc"
	expect_rc 0 || return 1
	c=$(val CPU_CYCLES) d=$(val CPU_CYCLES:DIV64) r=$(val r8000000fe)
	[ -n "$c" ] && [ "$c" -gt 1000000 ] || fail "CCNT $c"
	[ "$d" = "$((c / 64))" ] && [ "$r" = "$d" ] || fail "CCNT $c, divided $d (want $((c / 64))), raw $r"
}

two_counters_multiplex_or_rerun() {
	ev=INSN_EXECUTED,DCACHE_ACCESS,DCACHE_MISS,DTLB_MISS
	run_vpmu stat -a xscale -e $ev "$PROGS/xs_stride_nolibc"
	expect_rc 0 || return 1
	grep -q '2 event groups multiplexed' err || fail "not multiplexed: $(cat err)"
	grep -q 'DCACHE_MISS .*(.*%)' err || fail "no share of time shown: $(cat err)"
	run_vpmu stat -a xscale --exact -e $ev "$PROGS/xs_stride_nolibc"
	expect_rc 0 || return 1
	grep -q '2 deterministic runs' err || fail "not rerun: $(cat err)"
	for e in ${ev//,/ }; do
		a=$(val $e)
		cp err exact.txt
		run_vpmu stat -a xscale -e $e "$PROGS/xs_stride_nolibc"
		[ -n "$a" ] && [ "$a" = "$(val $e)" ] || fail "$e: --exact $a, alone $(val $e)"
		cp exact.txt err
	done
	# xscale2 has four event counters: the same four fit at once
	run_vpmu stat -a xscale2 -e $ev,cycles "$PROGS/xs_stride_nolibc"
	expect_rc 0 || return 1
	grep -q 'multiplexed' err && fail "xscale2 multiplexed: $(cat err)"
	[ "$(val DTLB_MISS)" -ge 2048 ] || fail "xscale2 DTLB_MISS $(val DTLB_MISS)"
}

buffer_full_mode() {
	# six misses in flight per iteration, four fill buffers: one stall each
	run_vpmu stat -a xscale --mode data-bus-request-buffer-full "$PROGS/xs_fillbuf_nolibc"
	expect_rc 0 || return 1
	p0=$(reg PMN0) p1=$(reg PMN1) avg=$(stat_of "average cycles per buffer-full stall")
	[ -n "$p1" ] && [ "$p1" -ge 20000 ] && [ "$p1" -le 22000 ] || fail "stalls $p1 (21844 iterations)"
	awk -v a="$avg" -v p0="$p0" -v p1="$p1" \
		'BEGIN { exit !(a > 1 && a == sprintf("%.4f", p0 / p1)) }' || fail "average $avg"
	# one miss at a time never waits for a buffer
	run_vpmu stat -a xscale --mode data-bus-request-buffer-full "$PROGS/xs_stride_nolibc"
	[ "$(reg PMN0)" = 0 ] && [ "$(reg PMN1)" = 0 ] || fail "stride: $(cat err)"
	# bursts of 24 store misses, eight write-buffer entries: about one
	# stall per burst (4096), none with room for a whole burst
	run_vpmu stat -a xscale --mode data-bus-request-buffer-full "$PROGS/xs_wbuf_nolibc"
	p0=$(reg PMN0) p1=$(reg PMN1)
	[ -n "$p1" ] && [ "$p1" -ge 3000 ] && [ "$p1" -le 4096 ] && [ "$p0" -ge "$p1" ] ||
		fail "write buffer: $p0 cycles, $p1 stalls"
	run_vpmu stat -a xscale --set mem.wbuf=32 --mode data-bus-request-buffer-full \
		"$PROGS/xs_wbuf_nolibc"
	[ "$(reg PMN0)" = 0 ] && [ "$(reg PMN1)" = 0 ] || fail "32 entries: $(cat err)"
}

every_mode_runs() {
	for m in instruction-cache-efficiency data-cache-efficiency instruction-fetch-latency \
		data-bus-request-buffer-full stall-writeback instruction-tlb-efficiency \
		data-tlb-efficiency; do
		run_vpmu stat -a xscale2 --mode $m "$PROGS/xs_stride_nolibc"
		expect_rc 0 || return 1
		[ -n "$(reg PMN0)" ] && [ -n "$(reg PMN1)" ] && [ "$(reg CCNT)" -gt 0 ] ||
			fail "$m: $(cat err)"
		grep -Eq '(PMN[01]|CCNT)( / (PMN[01]|CCNT))? += ' err || fail "$m: no statistic"
	done
	run_vpmu stat -a xscale --mode instruction-fetch-latency "$PROGS/xs_iloop_nolibc"
	[ "$(reg PMN0)" -gt 0 ] || fail "no fetch stall cycles: $(cat err)"
}

record_samples() {
	run_vpmu record -a xscale -e DCACHE_MISS -c 1000 "$PROGS/xs_stride_nolibc"
	expect_rc 0 || return 1
	run_vpmu report --stdio
	expect_rc 0 || return 1
	grep -q "Samples: 26[0-9] of event 'DCACHE_MISS'" out || fail "$(head -20 out)"
	grep -q 'cg_main' out || fail "no cg_main: $(cat out)"
}

errors() {
	run_vpmu stat -a p4 --mode data-cache-efficiency "$PROGS/xs_iloop_nolibc"
	expect_rc 1 && [ "$(wc -l <err)" -eq 1 ] && grep -q 'xscale' err || fail "p4: $(cat err)"
	run_vpmu stat -a xscale --mode data-cache-eficiency "$PROGS/xs_iloop_nolibc"
	expect_rc 1 && grep -q "did you mean 'data-cache-efficiency'" err || fail "typo: $(cat err)"
	run_vpmu stat -a xscale --mode data-cache-efficiency -e cycles "$PROGS/xs_iloop_nolibc"
	expect_rc 1 && grep -q 'drop -e' err || fail "-e: $(cat err)"
	run_vpmu stat -a xscale -e cycles:u "$PROGS/xs_iloop_nolibc"
	expect_rc 1 && [ "$(wc -l <err)" -eq 1 ] || fail ":u: $(cat err)"
	run_vpmu stat -a xscale -e BCU_FULL "$PROGS/xs_iloop_nolibc"
	expect_rc 1 && grep -q 'not supported' err || fail "BCU_FULL: $(cat err)"
	run_vpmu stat -a xscale -e r77 "$PROGS/xs_iloop_nolibc"
	expect_rc 1 && grep -q 'no XScale event' err || fail "r77: $(cat err)"
	run_vpmu list -a xscale
	expect_rc 0 && grep -q 'CPU_CYCLES' out && grep -q 'DIV64' out || fail "list: $(cat out)"
}

t icache_efficiency_small_loop icache_efficiency_small_loop
t dcache_efficiency_stride dcache_efficiency_stride
t cpi_is_ccnt_over_pmn0 cpi_is_ccnt_over_pmn0
t ccnt_divide_by_64 ccnt_divide_by_64
t two_counters_multiplex_or_rerun two_counters_multiplex_or_rerun
t buffer_full_mode buffer_full_mode
t every_mode_runs every_mode_runs
t record_samples record_samples
t errors errors
summary
