#!/usr/bin/env bash
# run-report.sh — vpmu report and vpmu script on sample files written by
# tests/tools/mkdata.c (built here) that describe tests/progs/rp_hot: its
# real PIE image mapped at a chosen address and samples at addresses found
# with objdump and addr2line, so every expected figure is known: hot()
# ranked first, its HOT and MIX (inlined) lines, the callers in the call
# graph, the data symbols of the load samples.
#
# Environment: BUILD (with libvpmu.a), PROGS (built tests/progs), VPMU.
set -u
cd "$(dirname "$0")/../.." || exit 1
SRC=$PWD
. tests/e2e/lib.sh
unset DEBUGINFOD_URLS

BUILD=${BUILD:-build}
MKDATA=$E2E_SCRATCH/mkdata
PROG=$PROGS/rp_hot
START=0x555555554000
gcc -O2 -g -fno-lto -std=gnu11 -Wall -Wextra -I"$SRC" -o "$MKDATA" "$SRC/tests/tools/mkdata.c" \
	"$BUILD/libvpmu.a" -lZydis -lZycore -ldw -lelf -lz -lstdc++ -lpthread -lm \
	>"$E2E_SCRATCH/mkdata.log" 2>&1

# rt VADDR: the runtime address (hex) of a file vaddr at START.
rt() { printf '0x%x' $((START + 0x$1)); }
# fn_insns NAME: "vaddr<TAB>text" of NAME's instructions.
fn_insns() {
	objdump -d --no-show-raw-insn "$PROG" |
		awk -v f="<$1>:" '$2 == f { on = 1; next } on && /^$/ { exit }
			on { sub(/^ +/, ""); sub(/:\t/, "\t"); print }'
}
# after_call FN CALLEE: the vaddr after FN's call to CALLEE (a return address).
after_call() {
	fn_insns "$1" | awk -F'\t' -v c="<$2>" 'got { print $1; exit } index($2, c) && $2 ~ /^call/ { got = 1 }'
}
# line_addr FN LINE: the first instruction of FN that addr2line puts on LINE.
line_addr() {
	local a
	for a in $(fn_insns "$1" | cut -f1); do
		if addr2line -e "$PROG" "0x$a" | grep -Eq ":$2( |$)"; then
			echo "$a"
			return
		fi
	done
}
sym_vaddr() { nm "$PROG" | awk -v s="$1" '$3 == s { print $1 }'; }

HOT_LINE=$(grep -n '/\* HOT \*/' tests/progs/rp_hot.c | cut -d: -f1)
MIX_LINE=$(grep -n '/\* MIX \*/' tests/progs/rp_hot.c | cut -d: -f1)
HOT_IP=$(line_addr hot "$HOT_LINE")
MIX_IP=$(line_addr hot "$MIX_LINE")
LOAD_IP=$(fn_insns hot | awk -F'\t' '$2 ~ /^xor .*\(/ { print $1; exit }')
RET_A=$(after_call outer_a hot)
RET_B=$(after_call outer_b hot)
RET_MA=$(after_call main outer_a)
RET_MB=$(after_call main outer_b)
RET_MC=$(after_call main cold)
COLD=$(sym_vaddr cold)
TABLE=$(sym_vaddr rp_table)
OTHER=$(sym_vaddr rp_other)
LEN=$(readelf -lW "$PROG" | awk '$1 == "LOAD" { e = strtonum($3) + strtonum($6); if (e > m) m = e }
	END { printf "0x%x", m }')

# The standard file: 105 cycles samples (hot 90, cold 10, unknown 5) and
# 40 precise load samples with data addresses.
spec() {
	cat <<SPEC
cmdline vpmu record -e cycles,mem-loads:p -g -- $PROG
machine p4 core.mhz=3600 smt=0
attr 0 cycles 0 0x40 1000
attr 1 mem-loads:p 1 0x5 100
comm 100 100 rp_hot
mmap 100 $START $LEN $PROG
repeat 60
sample 0 100 100 0 $(rt "$HOT_IP") 5000 1000 chain=$(rt "$HOT_IP"),$(rt "$RET_A"),$(rt "$RET_MA")
repeat 30
sample 0 100 100 1 $(rt "$MIX_IP") 9000 1000 chain=$(rt "$MIX_IP"),$(rt "$RET_B"),$(rt "$RET_MB")
repeat 10
sample 0 100 100 0 $(rt "$COLD") 12000 1000 chain=$(rt "$COLD"),$(rt "$RET_MC")
repeat 5
sample 0 100 100 0 0x7000 15000 1000 chain=0x7000
repeat 20
sample 1 100 100 0 $(rt "$LOAD_IP") 20000 100 addr=$(rt "$TABLE")+16 regs=$(seq -s, 1 18)
repeat 10
sample 1 100 100 0 $(rt "$LOAD_IP") 30000 100 addr=$(rt "$TABLE")+2048
repeat 10
sample 1 100 100 0 $(rt "$LOAD_IP") 40000 100 addr=$(rt "$OTHER")+4
totals 0 105000 50000 50000
totals 1 4000 50000 25000
lost 0 3
SPEC
}

# mk FILE: the standard file; mk_spec FILE: the file of the spec on
# standard input (addr=X+N sums are done here).
mk() { spec | mk_spec "$1"; }
mk_spec() {
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^addr=0x[0-9a-f]+\+[0-9]+$/) {
		split(substr($i, 6), p, "+"); $i = sprintf("addr=0x%x", strtonum(p[1]) + p[2]) } print }' |
		"$MKDATA" "$1"
}

setup() {
	[ -x "$MKDATA" ] || fail "mkdata did not build: $(head -c 600 "$E2E_SCRATCH/mkdata.log")" || return 1
	[ -n "$HOT_IP" ] && [ -n "$MIX_IP" ] && [ -n "$RET_A" ] && [ -n "$RET_MB" ] ||
		fail "addresses not found in $PROG (hot $HOT_IP mix $MIX_IP)" || return 1
	mk vpmu.data || fail "mkdata failed"
}

# first_entry: the first entry line of a report in out.
first_entry() { grep -v '^#' out | grep -v '^$' | head -n1; }

# With call chains in the file the default is perf's: Children and Self
# (test_children); --no-children gives each sample to its own function.
test_default() {
	setup || return
	run_vpmu report -e cycles
	expect_rc 0
	grep -q '^# Children      Self  Command  Shared Object  Symbol$' out &&
		first_entry | grep -Eq '^ +95\.24% +0\.00%  rp_hot +rp_hot +\[\.\] main$' ||
		fail "children by default: $(head -14 out)"
	# and, as perf, each entry's call graph; -g none leaves them out
	grep -A2 '\[\.\] main$' out | grep -Eq '^ +---main$' || fail "graph by default: $(cat out)"
	run_vpmu report -e cycles -g none
	expect_rc 0 && ! grep -Eq '^ +(\||---)' out && first_entry | grep -q 'main$' ||
		fail "-g none: $(cat out)"
	run_vpmu report -e cycles --no-children -g caller
	grep -A2 '\[\.\] hot$' out | grep -Eq '^ +---main$' || fail "-g caller: $(cat out)"
	# a file without call chains: one Overhead column, no graphs
	spec | sed 's/ chain=[^ ]*//' | "$MKDATA" flat.data || fail "mkdata"
	run_vpmu report -i flat.data -e cycles
	grep -q '^# Overhead  Command  Shared Object  Symbol$' out && ! grep -q -- '---' out ||
		fail "without chains: $(head -12 out)"
	run_vpmu report --no-children
	expect_rc 0
	grep -q "^# Samples: 105 of event 'cycles'\$" out || fail "no cycles section: $(head -20 out)"
	grep -q "^# Event count (approx.): 105000\$" out || fail "event count"
	grep -q "^# Samples: 40 of event 'mem-loads:p'\$" out || fail "no mem-loads section"
	grep -q '^# Overhead  Command  Shared Object  Symbol' out || fail "column header: $(grep Overhead out)"
	first_entry | grep -Eq '^ +85\.71%  rp_hot +rp_hot +\[\.\] hot$' ||
		fail "first entry: $(first_entry)"
	grep -Eq '^ +9\.52%  rp_hot +rp_hot +\[\.\] cold$' out || fail "cold: $(cat out)"
	grep -Eq '^ +4\.76%  rp_hot +\[unknown\] +\[\.\] 0x0*7000$' out ||
		fail "unknown address entry: $(cat out)"
	grep -q '^# Total Lost Samples: 3$' out || fail "lost samples"
	[ ! -s err ] || fail "stderr: $(cat err)"
}

test_srcline() {
	setup || return
	run_vpmu report --no-children -e cycles --sort srcline,sym
	expect_rc 0
	first_entry | grep -Eq "^ +57\.14%  rp_hot\.c:$HOT_LINE +\[\.\] hot\$" ||
		fail "HOT line: $(first_entry)"
	grep -Eq "^ +28\.57%  rp_hot\.c:$MIX_LINE +\[\.\] hot\$" out || fail "MIX line: $(cat out)"
	run_vpmu report --no-children -e cycles --sort srcfile
	grep -Eq '^ +95\.24%  rp_hot\.c$' out || fail "srcfile: $(cat out)"
}

test_symoff() {
	setup || return
	run_vpmu report --no-children -e cycles --sort symoff
	local off=$(printf '%x' $((0x$HOT_IP - 0x$(sym_vaddr hot))))
	first_entry | grep -Eq "^ +57\.14%  \[\.\] hot\+0x$off\$" || fail "symoff: $(first_entry)"
}

test_data() {
	setup || return
	run_vpmu report --no-children -e mem-loads:p --sort dsym
	expect_rc 0
	first_entry | grep -Eq '^ +75\.00%  \[\.\] rp_table$' || fail "dsym: $(cat out)"
	grep -Eq '^ +25\.00%  \[\.\] rp_other$' out || fail "rp_other: $(cat out)"
	run_vpmu report --no-children -e mem-loads:p --sort daddr -n
	first_entry | grep -Eq '^ +50\.00% +20  \[\.\] rp_table\+0x10$' || fail "daddr: $(cat out)"
	grep -Eq '^ +25\.00% +10  \[\.\] rp_table\+0x800$' out || fail "daddr 2: $(cat out)"
	run_vpmu report --no-children -e mem-loads:p --sort ddso,sym
	first_entry | grep -Eq '^ +100\.00%  rp_hot +\[\.\] hot$' || fail "ddso: $(cat out)"
	# perf's names of the data keys
	cp out want
	run_vpmu report --no-children -e mem-loads:p --sort dso_daddr,sym
	cmp -s want out || fail "dso_daddr: $(diff want out)"
	run_vpmu report --no-children -e mem-loads:p --sort symbol_daddr
	first_entry | grep -Eq '^ +75\.00%  \[\.\] rp_table$' || fail "symbol_daddr: $(cat out)"
	run_vpmu report --sort symbol_dadr
	expect_rc 1 && [ "$(cat err)" = "vpmu report: unknown sort key 'symbol_dadr'; did you mean 'symbol_daddr'?" ] ||
		fail "symbol_dadr: $(cat err)"
}

test_columns() {
	setup || return
	run_vpmu report --no-children -e cycles -n -t ';' --sort sym,dso
	expect_rc 0
	grep -q '^# Overhead;Samples;Symbol;Shared Object$' out || fail "header: $(grep Overhead out)"
	grep -qx '85.71%;90;\[\.\] hot;rp_hot' out || fail "-t line: $(cat out)"
	run_vpmu report --no-children -e cycles --percent-limit 5
	grep -q 'cold' out || fail "cold dropped at 5%"
	grep -q '0x0*7000' out && fail "4.76% entry kept under --percent-limit 5"
	run_vpmu report --no-children -e cycles --sort thread,cpu,event
	grep -Eq '^ +71\.43%  100/100 +000 +cycles$' out ||
		fail "thread/cpu/event: $(cat out)"
}

test_filters() {
	setup || return
	run_vpmu report -e cycles --symbols cold
	grep -c '%' out | grep -qx 1 || fail "--symbols: $(cat out)"
	run_vpmu report -e cycles --dso '[unknown]'
	first_entry | grep -q '0x0*7000' || fail "--dso [unknown]: $(cat out)"
	run_vpmu report -e cycles --comm nosuch
	grep -q '%' out && fail "--comm nosuch kept samples"
	run_vpmu report -e nosuch
	expect_rc 1
	[ "$(wc -l <err)" -eq 1 ] || fail "unknown event: $(cat err)"
}

# perf's names: -c/--comms, -d/--dsos, -S/--symbols (the prefixes --comm
# and --dso above still work), -U/--hide-unresolved, -q/--quiet.
test_perf_filter_names() {
	setup || return
	run_vpmu report --no-children -g none -e cycles -c rp_hot -d rp_hot -S hot,cold
	expect_rc 0 && [ "$(grep -c '%' out)" = 2 ] || fail "-c -d -S: $(cat out)"
	run_vpmu report --no-children -g none -e cycles --comms rp_hot --dsos '[unknown]'
	[ "$(grep -c '%' out)" = 1 ] && first_entry | grep -q '0x0*7000' || fail "--comms --dsos: $(cat out)"
	# perf's --percentage relative: of the samples kept (hot 90 and cold
	# 10 of 100 resolved), the header's totals too
	run_vpmu report --no-children -g none -e cycles -U --percentage relative -s sym
	grep -Eq '^ +90\.00%  \[\.\] hot$' out && grep -Eq '^ +10\.00%  \[\.\] cold$' out &&
		grep -q "^# Samples: 100 of event 'cycles'\$" out &&
		grep -q '^# Event count (approx.): 100000$' out || fail "--percentage relative: $(cat out)"
	run_vpmu report -e cycles -g none --symbols outer_a --percentage relative -s sym
	grep -Eq '^ +100\.00% +0\.00%  \[\.\] outer_a$' out || fail "relative children: $(cat out)"
	run_vpmu report -e cycles --percentage=absolute -U -g none --no-children -s sym
	grep -Eq '^ +85\.71%  \[\.\] hot$' out || fail "--percentage absolute: $(cat out)"
	# perf's --time, in seconds of the 3.6 GHz clock (the samples a 1000
	# cycles apart): from 17.5 µs (63000 cycles) hot's last two, to 2 µs
	# (7200 cycles) its first three
	run_vpmu report --no-children -g none -e cycles -q -s sym --time 0.0000175,
	[ "$(grep -c '%' out)" = 1 ] && grep -Eq '^ +1\.90%  \[\.\] hot$' out || fail "--time: $(cat out)"
	run_vpmu script -F sym --time ,0.000002
	[ "$(grep -c . out)" = 3 ] && [ "$(sort -u out | tr -d ' ')" = hot ] || fail "script --time: $(cat out)"
	run_vpmu report --time 2,1
	expect_rc 1 && grep -q "^vpmu report: --time wants START,STOP in seconds" err || fail "--time 2,1: $(cat err)"
	spec | sed 's/ core.mhz=3600//' | mk_spec noclock.data
	run_vpmu script -i noclock.data --time 0,1
	expect_rc 1 && [ "$(cat err)" = "vpmu script: --time: noclock.data names no clock (core.mhz)" ] ||
		fail "no clock: $(cat err)"
	# perf's --max-stack: two frames leave main cold's samples alone; one
	# leaves no chains
	run_vpmu report -e cycles -g none -q -s sym --max-stack 2
	grep -Eq '^ +9\.52% +0\.00%  \[\.\] main$' out || fail "--max-stack 2: $(cat out)"
	run_vpmu report -e cycles -g none -s sym --max-stack 1
	grep -q '^# Overhead  Symbol$' out || fail "--max-stack 1: $(cat out)"
	run_vpmu script -e cycles -F ip,callchain --max-stack 2
	[ "$(sed -n 2,4p out | grep -c .)" = 2 ] || fail "script --max-stack: $(head -5 out)"
	run_vpmu report --max-stack 0
	expect_rc 1 && [ "$(cat err)" = "vpmu report: --max-stack wants a number of frames (1 or more), not '0'" ] ||
		fail "--max-stack 0: $(cat err)"
	# script's -F +FIELD,-FIELD and -G
	run_vpmu script -e cycles -F +addr,-cpu,tid -G
	head -1 out | grep -Eq '^ +rp_hot +100 0\.000001389: +1000 cycles: +0 +[0-9a-f]+ hot\+0x[0-9a-f]+ \(' &&
		[ "$(grep -c . out)" = 105 ] || fail "script -F +addr,-cpu,tid -G: $(head -3 out)"
	run_vpmu report --percentage rel
	expect_rc 1 && [ "$(cat err)" = "vpmu report: --percentage wants relative or absolute, not 'rel'" ] ||
		fail "--percentage rel: $(cat err)"
	run_vpmu report --no-children -g none -e cycles -U
	expect_rc 0 && [ "$(grep -c '%' out)" = 2 ] && ! grep -q '0x0*7000' out ||
		fail "-U kept the unresolved: $(cat out)"
	run_vpmu report --no-children -g none -q -e cycles
	expect_rc 0 && ! grep -q '^#' out && [ "$(grep -c '%' out)" = 3 ] &&
		grep -Eq '^ +85\.71%  rp_hot +rp_hot +\[\.\] hot$' out || fail "-q: $(cat out)"
	# perf's --show-total-period: each entry's events (hot: 90 samples of 1000)
	run_vpmu report --no-children -g none -e cycles -n --show-total-period -s sym
	grep -Eq '^# Overhead  Samples  Period  Symbol$' out &&
		grep -Eq '^ +85\.71% +90 +90000  \[\.\] hot$' out || fail "--show-total-period: $(cat out)"
	# perf's --pid and --tid (every sample is pid 100's, tid 100's)
	run_vpmu report --no-children -g none -q -e cycles --pid 7,0100 --tid 100
	expect_rc 0 && [ "$(grep -c "%" out)" = 3 ] || fail "--pid 100: $(cat out)"
	run_vpmu report --no-children -g none -q -e cycles --tid 101
	expect_rc 0 && [ "$(grep -c '%' out)" = 0 ] || fail "--tid 101: $(cat out)"
	run_vpmu script --pid 100 -F ip
	[ "$(grep -c . out)" = 145 ] || fail "script --pid: $(wc -l <out)"
	run_vpmu report --pid 1x
	expect_rc 1 && [ "$(cat err)" = "vpmu report: --pid wants process IDs (comma-separated), not '1x'" ] ||
		fail "--pid 1x: $(cat err)"
}

# vpmu diff: the standard file against one with 40 fewer samples in hot
# and the unknown ones moved from 0x7000 to 0x7100.
test_diff() {
	setup || return
	mk base.data || return 1
	spec | sed -e '0,/^repeat 60$/s//repeat 20/' -e 's/ 0x7000 15000 1000 chain=0x7000$/ 0x7100 15000 1000 chain=0x7100/' \
		-e 's/^totals 0 105000 /totals 0 65000 /' | mk_spec new.data || return 1
	run_vpmu diff base.data new.data
	expect_rc 0 || return 1
	grep -q '^#  \[0\] base.data (Baseline)$' out && grep -q "^# Event 'cycles'\$" out &&
		grep -Eq '^# Baseline  Delta Abs  Shared Object +Symbol$' out || fail "header: $(head -12 out)"
	# cycles, the largest change first: hot 85.71% -> 76.92%, 0x7100 new
	# (7.69%), cold 9.52% -> 15.38%, 0x7000 gone (4.76%)
	awk '/^# Event .cycles/ { on = 1; next } /^# Event/ { on = 0 } on && !/^#/ && NF' out >cyc
	grep -Eq '^ +85\.71% +-8\.79%  rp_hot +\[\.\] hot$' cyc && grep -Eq '^ +9\.52% +\+5\.86%  rp_hot +\[\.\] cold$' cyc &&
		grep -Eq '^ +\+7\.69%  \[unknown\] +\[\.\] 0x0*7100$' cyc &&
		grep -Eq '^ +4\.76% +-4\.76%  \[unknown\] +\[\.\] 0x0*7000$' cyc &&
		[ "$(awk '{ print $NF }' cyc | tr '\n' ' ')" = "hot 0x0000000000007100 cold 0x0000000000007000 " ] ||
		fail "cycles rows: $(cat cyc)"
	# the precise loads did not change: no delta
	grep -Eq '^ +100\.00%  +rp_hot +\[\.\] hot$' out || fail "unchanged loads: $(cat out)"
	run_vpmu diff -c ratio -q -t ';' -s sym base.data new.data
	expect_rc 0 && ! grep -q '^#' out && grep -qx '85.71%;0.555556;\[\.\] hot' out &&
		grep -qx '9.52%;1.000000;\[\.\] cold' out && grep -qx ';;\[\.\] 0x0*7100' out ||
		fail "ratio: $(cat out)"
	run_vpmu diff -c delta -S cold base.data new.data
	[ "$(grep -c '%  rp_hot' out)" = 1 ] && grep -Eq '^ +9\.52% +\+5\.86%  rp_hot +\[\.\] cold$' out ||
		fail "-S cold: $(cat out)"
	# the default files: what record kept, and the new one
	cp base.data vpmu.data.old && cp new.data vpmu.data
	run_vpmu diff -q -t ';' -s sym
	expect_rc 0 && grep -qx '85.71%;-8.79%;\[\.\] hot' out || fail "default files: $(cat out) $(cat err)"
	run_vpmu diff base.data nosuch.data
	expect_rc 1 && [ "$(wc -l <err)" = 1 ] && grep -q 'nosuch.data' err || fail "missing: $(cat err)"
	# --time: the whole span is no filter; a part of it, fewer samples
	run_vpmu diff -q -t ';' -s sym base.data new.data
	cp out whole
	run_vpmu diff -q -t ';' -s sym --time 0%-100% base.data new.data
	cmp -s out whole || fail "--time 0%-100%: $(cat out)"
	run_vpmu diff -q -t ';' -s sym --time 10%/11 base.data new.data
	expect_rc 1 && grep -q -- '--time wants' err || fail "--time 10%/11: $(cat err)"
	run_vpmu diff -q -t ';' -s sym --time 50%-100% base.data new.data
	expect_rc 0 && ! cmp -s out whole && grep -q 'hot$' out || fail "--time 50%-100%: $(cat out)"
	run_vpmu diff -c frob base.data new.data
	expect_rc 1 && grep -q "delta-abs, delta, ratio or wdiff:W1,W2 (whole weights below a million), not 'frob'" err ||
		fail "-c frob: $(cat err)"
	run_vpmu diff -s dso_from base.data new.data
	expect_rc 1 && grep -q "branches" err || fail "branch key: $(cat err)"
	# perf's periods and formulas, its weighted diff, -o 0 and -b
	run_vpmu diff -p -F base.data new.data
	grep -Eq '^# Baseline  Base period  Delta Abs  Period +Formula  Shared Object +Symbol$' out &&
		grep -Eq '^ +85\.71% +90000 +-8\.79% +50000 +76\.92 % - 85\.71 %  rp_hot +\[\.\] hot$' out &&
		grep -Eq '^ +0 +\+7\.69% +5000 +7\.69 % - 0\.00 %  \[unknown\] +\[\.\] 0x0*7100$' out ||
		fail "-p -F: $(cat out)"
	run_vpmu diff -c wdiff:1,2 -F -q -t ';' -s sym base.data new.data
	[ "$(head -4 out | tr '\n' ' ')" = "85.71%;10000;50000 * 2 - 90000 * 1;[.] hot 9.52%;10000;10000 * 2 - 10000 * 1;[.] cold ;10000;5000 * 2 - 0 * 1;[.] 0x0000000000007100 4.76%;-5000;0 * 2 - 5000 * 1;[.] 0x0000000000007000 " ] ||
		fail "wdiff: $(cat out)"
	run_vpmu diff -o 0 -b -q -s sym base.data new.data
	[ "$(awk '{ print $NF }' out | head -3 | tr '\n' ' ')" = "hot cold 0x0000000000007000 " ] &&
		! grep -q 7100 out || fail "-o 0 -b: $(cat out)"
	run_vpmu diff -c ratio -p -F -q -t ';' -s sym base.data new.data
	grep -qx '85.71%;90000;0.555556;50000;50000 / 90000;\[\.\] hot' out || fail "ratio -p -F: $(cat out)"
	run_vpmu diff -o 2 base.data new.data
	expect_rc 1 && grep -q "^vpmu diff: -o takes 0 (the baseline) to 1 (the last file), not '2'" err ||
		fail "-o 2: $(cat err)"
	# perf's several files: a column each; the baseline again changes
	# nothing, and -o 2 sorts by the third file's column
	run_vpmu diff -s sym base.data new.data base.data
	grep -q '^#  \[2\] base.data$' out &&
		grep -Eq '^# Baseline  Delta Abs  Delta Abs  Symbol$' out &&
		grep -Eq '^ +85\.71% +-8\.79% +\[\.\] hot$' out || fail "three files: $(cat out)"
	run_vpmu diff -c wdiff:1,2 -o 2 -q -t ';' -s sym base.data base.data new.data
	[ "$(head -2 out | tr '\n' ' ')" = "85.71%;90000;10000;[.] hot 9.52%;10000;10000;[.] cold " ] ||
		fail "-o 2 of three: $(cat out)"
	spec | grep -v '^attr 1\|^sample 1\|^totals 1' | mk_spec cycles.data
	run_vpmu diff -q -s sym base.data new.data cycles.data
	expect_rc 0 && grep -qx "vpmu diff: event 'mem-loads:p' is not in cycles.data" err ||
		fail "an event not in the third: $(cat err)"
	run_vpmu diff -o 3 base.data new.data base.data
	expect_rc 1 && grep -q "^vpmu diff: -o takes 0 (the baseline) to 2 (the last file), not '3'" err ||
		fail "-o 3: $(cat err)"
	run_vpmu diff 1 2 3 4 5 6 7 8 9
	expect_rc 1 && [ "$(cat err)" = "vpmu diff: 8 files at most ('9' is one more)" ] || fail "nine files: $(cat err)"
}

test_event_key() {
	setup || return
	run_vpmu report --no-children --sort event,sym
	expect_rc 0
	grep -q '^# Samples: 145 of 2 events$' out || fail "combined: $(head out)"
	grep -Eq '^ +100\.00%  mem-loads:p +\[\.\] hot$' out || fail "mem-loads row: $(cat out)"
}

test_header() {
	setup || return
	run_vpmu report --header-only
	expect_rc 0
	grep -q '^# machine : p4$' out || fail "machine: $(cat out)"
	grep -q '^#   core.mhz = 3600$' out || fail "core.mhz"
	grep -q "^# cmdline : vpmu record -e cycles,mem-loads:p -g -- $PROG\$" out || fail "cmdline"
	grep -q '^#   total : 105,000 events' out || fail "totals"
	grep -q 'samples : 105, lost : 3' out || fail "lost"
	grep -q '%' out && fail "--header-only printed entries"
	run_vpmu report --header
	grep -q '^# machine' out && grep -q 'hot$' out || fail "--header without entries"
}

# --symbol-filter: functions whose name holds the text (hot, not cold).
test_symbol_filter() {
	setup || return
	run_vpmu report --no-children -e cycles -g none --symbol-filter ho -q
	expect_rc 0 || return 1
	grep -q '\[\.\] hot$' out && ! grep -q 'cold$' out && [ "$(grep -c . out)" = 1 ] ||
		fail "--symbol-filter: $(cat out)"
}

# --stats: the file's records by type, each event's samples (perf's).
test_stats() {
	setup || return
	run_vpmu report --stats
	expect_rc 0 || return 1
	grep -Eq '^ +TOTAL events: +155$' out && grep -Eq '^ +SAMPLE events: +145  \(93\.5%\)$' out &&
		grep -Eq '^ +LOST events: +1  \( 0\.6%\)$' out && grep -q '^cycles stats:$' out &&
		grep -A2 '^cycles stats:$' out | grep -Eq '^ +LOST samples: +3$' &&
		grep -A1 '^mem-loads:p stats:$' out | grep -Eq '^ +SAMPLE events: +40$' &&
		! grep -q '%  *\[' out || fail "stats: $(cat out)"
}

test_callgraph() {
	setup || return
	run_vpmu report --no-children -e cycles -g --sort sym --no-inline
	expect_rc 0
	grep -A12 '\[\.\] hot$' out >g
	grep -Eq '^ +---hot$' g || fail "graph root: $(cat g)"
	grep -Eq '\|--57\.14%--outer_a$' g || fail "outer_a branch: $(cat g)"
	grep -Eq ' --28\.57%--outer_b$' g || fail "outer_b branch: $(cat g)"
	grep -Eq '^ +\| +main$' g || fail "main under outer_a: $(cat g)"
	run_vpmu report --no-children -e cycles -G --sort sym
	grep -A8 '\[\.\] hot$' out | grep -Eq '^ +---main$' || fail "caller order: $(cat out)"
	run_vpmu report --no-children -e cycles --call-graph callee,30 --sort sym --no-inline
	grep -q 'outer_b' out && fail "30% limit kept outer_b"
	grep -q 'outer_a' out || fail "30% limit dropped outer_a"
	# perf's other forms and values: hot's 90 samples, 60 through outer_a
	run_vpmu report --no-children -e cycles -g fractal --sort sym --no-inline
	grep -Eq '\|--66\.67%--outer_a$' out && grep -Eq ' --33\.33%--outer_b$' out ||
		fail "fractal: $(cat out)"
	run_vpmu report --no-children -e cycles -g folded --sort sym --no-inline
	grep -A2 '\[\.\] hot$' out | sed -n 2,3p | tr '\n' '|' >g
	[ "$(cat g)" = ' 57.14% hot;outer_a;main| 28.57% hot;outer_b;main|' ] || fail "folded: $(cat out)"
	run_vpmu report --no-children -e cycles -g flat,count --sort sym --no-inline
	grep -A4 '\[\.\] hot$' out | sed -n 2,5p | tr '\n' '|' >g
	[ "$(cat g)" = '           60|                hot|                outer_a|                main|' ] ||
		fail "flat,count: $(cat out)"
	run_vpmu report --no-children -e cycles -g graph,period,caller --sort sym --no-inline
	grep -A3 '\[\.\] hot$' out | grep -Eq '^ +---main$' && ! grep -q '%--' out &&
		grep -Eq -- '--60000--outer_a$' out || fail "graph,period,caller: $(cat out)"
	run_vpmu report -g folded,sideways
	expect_rc 1 && grep -q "not 'sideways'" err || fail "bad word: $(cat err)"
	# a tree whose top branches (no sort by function) draw a single '|'
	run_vpmu report --no-children -e cycles -g --sort dso --no-inline
	grep -A2 'rp_hot$' out | sed -n 2,3p | grep -c '^ *|$' | grep -qx 1 || fail "top: $(cat out)"
}

# --children (perf's Children and Self): main called everything but the
# unknown address, outer_a 60 samples' worth, hot is in 90 itself.
test_children() {
	setup || return
	run_vpmu report -e cycles --children -g none
	expect_rc 0
	grep -q '^# Children      Self  Command  Shared Object  Symbol$' out ||
		fail "header: $(grep Children out)"
	grep -q '^# \.\.\.\.\.\.\.\.  \.\.\.\.\.\.\.\.  ' out || fail "underline: $(grep '^# \.' out)"
	grep -v '^#' out | grep '%' | awk '{ print $1, $2, $NF }' >rows
	printf '%s\n' '95.24% 0.00% main' '85.71% 85.71% hot' '57.14% 0.00% outer_a' \
		'28.57% 0.00% outer_b' '9.52% 9.52% cold' >want
	head -5 rows | cmp -s - want || fail "rows: $(cat rows)"
	# the call graph of a caller's entry runs from it outwards
	run_vpmu report -e cycles --children -g --no-inline
	grep -A4 '\[\.\] outer_a$' out | grep -Eq '^ +---outer_a$' &&
		grep -A4 '\[\.\] outer_a$' out | grep -Eq '^ +main$' || fail "outer_a's graph: $(cat out)"
	run_vpmu report -e cycles --children -g none -t ';' --sort sym
	grep -q '^# Children;Self;Symbol$' out && grep -qx '57.14%;0.00%;\[\.\] outer_a' out ||
		fail "-t: $(cat out)"
	# a sample counts once in a function it is in twice (recursion)
	spec | sed "s|chain=$(rt "$COLD"),$(rt "$RET_MC")|chain=$(rt "$COLD"),$(rt "$RET_MC"),$(rt "$RET_MC")|" |
		"$MKDATA" rec.data || fail "mkdata"
	run_vpmu report -i rec.data -e cycles --children -g none --sort sym
	grep -Eq '^ +95\.24% +0\.00%  \[\.\] main$' out || fail "recursion: $(cat out)"
	# filters pick functions: outer_a with what it called, not its own samples
	run_vpmu report -e cycles --children -g none --symbols outer_a --sort sym
	grep '%' out | grep -v '^#' >rows
	[ "$(wc -l <rows)" = 1 ] && grep -Eq '^ +57\.14% +0\.00%  \[\.\] outer_a$' rows ||
		fail "--symbols: $(cat out)"
	run_vpmu report -e cycles --children --no-children
	grep -q '^# Overhead  ' out || fail "--no-children: $(grep Overhead out)"
	run_vpmu report -e cycles --children --format=json
	python3 -c 'import json,sys; d=json.load(open("out")); e=d["tables"][0]["entries"][0]; sys.exit(not (e["sym"]=="main" and e["self"]==0 and abs(e["overhead"]-95.2381)<0.01))' ||
		fail "json: $(head -c 600 out)"
}

# mix() is inlined into hot(): the samples on its line have a frame of
# their own above hot, unless --no-inline.
test_inline_frames() {
	setup || return
	run_vpmu report -e cycles -g --sort sym
	expect_rc 0
	grep -A14 '\[\.\] hot$' out >g
	grep -Eq '\|--57\.14%--hot$' g || fail "hot branch: $(cat g)"
	grep -Eq ' --28\.57%--mix \(inlined\)$' g || fail "inline frame: $(cat g)"
	grep -A3 'mix (inlined)' g | grep -Eq '^ +hot$' || fail "hot under mix: $(cat g)"
	run_vpmu report -e cycles --format=folded --no-inline
	grep -q 'inlined' out && fail "--no-inline: $(cat out)"
	grep -qx 'rp_hot;main;outer_b;hot 30' out || fail "--no-inline folded: $(cat out)"
}

test_folded() {
	setup || return
	run_vpmu report -e cycles --format=folded
	expect_rc 0
	grep -qx 'rp_hot;main;outer_a;hot 60' out || fail "folded: $(cat out)"
	grep -qx 'rp_hot;main;outer_b;hot;mix (inlined) 30' out || fail "folded b: $(cat out)"
	[ "$(awk '{ s += $NF } END { print s }' out)" = 105 ] || fail "counts do not sum to 105"
	run_vpmu report --format=folded
	[ "$(awk '{ s += $NF } END { print s }' out)" = 145 ] || fail "all events do not sum to 145"
}

test_callgrind() {
	setup || return
	run_vpmu report -e cycles --format=callgrind
	expect_rc 0
	cp out cg.out
	callgrind_annotate cg.out >ann 2>ann.err || fail "callgrind_annotate: $(head -c 600 ann.err)"
	# the first function line after the header is the top function
	grep -qx 'Events recorded:  cycles' ann || fail "events: $(head -20 ann)"
	awk '/file:function/ { on = 1; next } on && /%\)/ { print; exit }' ann |
		grep -Eq '^90,000 \(85\.71%\) +.*:hot ' ||
		fail "top function: $(head -40 ann)"
	grep -Eq '^ *105,000 .*PROGRAM TOTALS' ann || fail "totals: $(head -30 ann)"
	callgrind_annotate --inclusive=yes cg.out >inc 2>&1
	grep -E 'main' inc | grep -q '90,000\|100,000' || fail "inclusive main: $(cat inc | head -40)"
}

test_json() {
	setup || return
	run_vpmu report --no-children --format=json --sort sym,srcline
	expect_rc 0
	python3 - out <<'PY' || fail "json: $(head -c 800 out)"
import json, sys
d = json.load(open(sys.argv[1]))
t = d["tables"][0]
assert t["event"] == "cycles", t["event"]
e = t["entries"][0]
assert e["sym"] == "hot" and e["samples"] == 60, e
assert abs(sum(x["samples"] for x in t["entries"]) - 105) == 0
assert d["machine"] == "p4" and d["parameters"]["core.mhz"] == "3600"
assert d["events"][0]["lost"] == 3
PY
}

test_damaged() {
	setup || return
	# many blocks, then cut the file in the middle of one
	{ spec | sed '/^repeat/,$d'; for i in $(seq 1 40); do
		echo "repeat 2000"
		echo "sample 0 100 100 0 $(rt "$HOT_IP") 5000 1000"
		echo flush
	done; } | "$MKDATA" big.data || fail "mkdata"
	local size=$(stat -c %s big.data)
	head -c $((size * 2 / 3)) big.data >cut.data
	run_vpmu report -i cut.data
	expect_rc 0
	[ "$(wc -l <err)" -eq 1 ] || fail "warning lines: $(cat err)"
	grep -q 'warning: cut.data is damaged: [0-9]* bytes skipped' err || fail "warning: $(cat err)"
	first_entry | grep -q '100.00%.*hot' || fail "partial output: $(head -20 out)"
	local n=$(sed -n "s/^# Samples: \([0-9]*\) of event 'cycles'/\1/p" out)
	[ "$n" -gt 0 ] && [ "$n" -lt 80000 ] || fail "samples read: $n"
	# diff reads it as far as it can too, with the same warning
	run_vpmu diff -q -s sym big.data cut.data
	expect_rc 0 && [ "$(wc -l <err)" -eq 1 ] && grep -q 'warning: cut.data is damaged' err &&
		grep -Eq '^ +100\.00% +\[\.\] hot$' out || fail "diff of a damaged file: $(cat out err)"
}

test_errors() {
	setup || return
	run_vpmu report --sort sym,dsoo
	expect_rc 1
	[ "$(cat err)" = "vpmu report: unknown sort key 'dsoo'; did you mean 'dso'?" ] ||
		fail "sort key error: $(cat err)"
	run_vpmu report -i nosuch.data
	expect_rc 1
	[ "$(wc -l <err)" -eq 1 ] && grep -q nosuch.data err || fail "missing file: $(cat err)"
	head -c 100 /dev/urandom >junk.data
	run_vpmu report -i junk.data
	expect_rc 1
	[ "$(wc -l <err)" -eq 1 ] || fail "junk file: $(cat err)"
	run_vpmu script -F ip,nosuch
	expect_rc 1
	[ "$(wc -l <err)" -eq 1 ] || fail "script field: $(cat err)"
}

test_nosyms() {
	setup || return
	cp "$PROG" bare && strip -s bare
	spec | sed "s|$PROG\$|$PWD/bare|; /^sample 1/d; /^repeat/d" | "$MKDATA" bare.data ||
		fail "mkdata"
	run_vpmu report --no-children -i bare.data --sort dso,sym,srcline
	expect_rc 0
	# (the address in the image, as objdump shows it, as perf prints it)
	grep -Eq "^ +25\.00%  bare +\[\.\] 0x0*$HOT_IP  \?\?:0\$" out ||
		fail "stripped: $(cat out)"
	# an image that is not there: its name, addresses for symbols
	spec | sed "s|$PROG\$|/nonexistent/prog|; /^repeat/d" | "$MKDATA" gone.data
	run_vpmu report --no-children -i gone.data --sort dso,sym
	expect_rc 0
	grep -q 'prog .*\[\.\] 0x' out || fail "missing image: $(cat out)"
}

test_script() {
	setup || return
	run_vpmu script
	expect_rc 0
	[ "$(grep -c 'cycles:' out)" = 105 ] || fail "cycles lines: $(grep -c 'cycles:' out)"
	# the header line of a sample with a chain, then its frames
	grep -A3 -m1 'cycles:' out >first
	grep -Eq '^ +rp_hot +100/100 +\[000\] 0\.000001389: +1000 cycles:$' first ||
		fail "script header line: $(cat first)"
	grep -Eq "^\s+$(printf '%x' $((START + 0x$HOT_IP))) hot\+0x[0-9a-f]+ \($PROG\)\$" first ||
		fail "frame line: $(cat first)"
	grep -Eq "^\s+[0-9a-f]+ outer_a\+0x[0-9a-f]+ \($PROG\)\$" first || fail "caller line: $(cat first)"
	run_vpmu script -e mem-loads:p -F comm,pid,tid,ip,sym,addr,regs,srcline
	expect_rc 0
	head -n2 out >l
	grep -Eq "^ +rp_hot +100/100 +[0-9a-f]+ +[0-9a-f]+ hot flags:0x1 ip:0x2 ax:0x3" l ||
		fail "regs/addr line: $(cat l)"
	grep -Eq "^  .*rp_hot\.c:[0-9]+\$" l || fail "srcline: $(cat l)"
	run_vpmu script -F event,sym --symbols cold
	[ "$(sort -u out)" = " cycles: cold" ] || fail "filtered fields: $(sort -u out | head)"
	# perf's --reltime, --deltatime (the samples 1000 cycles of 3.6 GHz
	# apart), --header
	run_vpmu script -F time --reltime
	[ "$(head -3 out | tr -d '\n')" = ' 0.000000000: 0.000000278: 0.000000556:' ] ||
		fail "--reltime: $(head -3 out)"
	run_vpmu script -F time --deltatime
	[ "$(head -3 out | tr -d '\n')" = ' 0.000000000: 0.000000278: 0.000000278:' ] ||
		fail "--deltatime: $(head -3 out)"
	run_vpmu script -F time --header --ns
	head -3 out | grep -q '^# machine : p4$' && grep -q '^ 0\.000001389:$' out ||
		fail "--header: $(head -5 out)"
	# the file's COMM and MMAP records, where they were recorded
	run_vpmu script --show-comm-events --show-mmap-events -F comm,sym
	head -3 out | tr -s ' ' >side
	[ "$(cat side)" = " rp_hot 100/100 PERF_RECORD_COMM: rp_hot:100/100
 rp_hot 100/100 PERF_RECORD_MMAP 100/100: [0x555555554000(0x5140) @ 0]: x $PROG
 rp_hot hot" ] || fail "--show-*-events: $(head -4 out)"
	run_vpmu script --show-mmap-events -F sym
	[ "$(grep -c PERF_RECORD out)" = 1 ] && ! grep -q COMM out || fail "mmap only: $(head -3 out)"
}

# The options -h lists are exactly those the manual page documents.
test_help_matches_man() {
	local cmd
	for cmd in report script; do
		run_vpmu "$cmd" -h
		expect_rc 0 || return 1
		{
			grep -o -- '--[a-z][a-z-]*' out
			grep -Eo -- '^ +-[a-zA-Z]([, ]|$)' out | tr -d ' ,'
		} | sort -u >from-help
		{
			grep '^\.It Fl' "$SRC/man/vpmu-$cmd.1" | grep -o 'Fl \\-[a-z][a-z-]*' |
				sed 's/Fl \\-/--/'
			sed -n 's/^\.It Fl \([a-zA-Z]\)\( ,.*\| Op .*\)*$/-\1/p' "$SRC/man/vpmu-$cmd.1"
		} | sort -u >from-man
		[ "$(wc -l <from-help)" -gt 5 ] && diff from-help from-man >/dev/null ||
			fail "$cmd options differ (help vs man): $(diff from-help from-man | tr '\n' ' ')"
	done
}

# stackcollapse-perf.pl reads `perf script` stacks; when FlameGraph is
# installed, its folded output must match report's.
test_stackcollapse() {
	setup || return
	run_vpmu script -e cycles
	stackcollapse-perf.pl out | sort >sc
	run_vpmu report -e cycles --format=folded --no-inline
	sed 's/;0x[0-9a-f]*/;[unknown]/' out | sort >rf
	diff -u rf sc >d || fail "stackcollapse differs: $(cat d)"
}

# A recorded run of rp_inline (DWARF call chains): the hot loop of
# churn(), inlined into spin(), is a frame of its own, and its samples'
# line is churn's; finish()'s call of the noreturn die() is its last
# instruction, so the return address is after_finish's first byte, and
# only the lookup at the call itself names finish.
test_recorded_chains() {
	local churn ret
	churn=$(grep -n '/\* CHURN \*/' "$SRC/tests/progs/rp_inline.c" | cut -d: -f1)
	ret=$(objdump -d --no-show-raw-insn "$PROGS/rp_inline" |
		awk '/<finish>:/ { on = 1; next } on && /^$/ { exit } on { l = $0 } END { print l }')
	case $ret in *call*'<die>'*) ;; *) fail "finish does not end with its call of die: $ret" ;; esac
	run_vpmu record -q --call-graph dwarf -c 100000 "$PROGS/rp_inline" 1000000
	expect_rc 0
	run_vpmu report --format=folded
	grep -Eq ';main;spin;churn \(inlined\) [0-9]+$' out || fail "inline frame: $(cat out)"
	grep -Eq ';main;finish;die [0-9]+$' out || fail "noreturn caller: $(cat out)"
	grep -q 'after_finish;' out && fail "return address named the next function: $(cat out)"
	run_vpmu report -g --sort sym
	grep -A4 '\[\.\] spin$' out | grep -Eq -- '---churn \(inlined\)$' ||
		fail "inline frame in -g: $(cat out)"
	run_vpmu script -F ip,sym,callchain
	grep -Eq '^[[:space:]]+[0-9a-f]+ finish$' out || fail "script caller of die: $(grep -A3 ' die$' out | head)"
	run_vpmu report --sort srcline,sym
	grep -Eq "rp_inline\.c:$churn +\[\.\] spin\$" out || fail "churn's line: $(cat out)"
	# a sample on after_finish's first instruction, then finish's frame,
	# whose return address is that instruction, unwinds the same
	run_vpmu record -q --call-graph dwarf -e instructions -c 1 "$PROGS/rp_inline" 10
	expect_rc 0
	run_vpmu report --format=folded
	grep -Eq ';main;after_finish [0-9]+$' out || fail "no sample in after_finish: $(cat out)"
	grep -Eq ';main;finish;die [0-9]+$' out && ! grep -Eq '[0-9a-fx]+;finish;die' out ||
		fail "finish's caller after a sample in after_finish: $(grep ';die' out)"
}

# The mem and missclass keys of PEBS samples: seed 004's l1_miss shape
# (sixteen lines 8 KB apart, one set of the 8-way L1D, hitting L2) misses
# L1 by conflict, a 64 KB sweep (four times the L1D) by capacity; a
# recording that did not ask for classes names the level only.  The same
# from Itanium 2 data EAR and 21264 ProfileMe samples.
test_mem_keys() {
	local args
	for args in "conflict 131072 2000 1 8192" "capacity 65536 100 1 64"; do
		set -- $args
		local want=$1
		shift
		run_vpmu record -q -e L1-dcache-load-misses:pp -c 100 --set l1d.classify=1 \
			-o "$want.data" "$PROGS/ua_l1miss" "$@"
		expect_rc 0 || return 1
		run_vpmu report -i "$want.data" -s sym,mem,missclass -t,
		expect_rc 0 || return 1
		grep -v '^#' out | grep -v '^$' | head -1 | grep -Eq "^[0-9.]+%,\[\.\] run,L2,$want\$" ||
			fail "$want: $(grep -v '^#' out | head -3)"
		run_vpmu script -i "$want.data" -F data_src,sym --symbols run
		grep -Eq "^ L2\|$want +run\$" out || fail "script $want: $(head -3 out)"
	done
	# the Itanium 2 data EAR latches its load with the model's answer
	run_vpmu record -q -a ia64 -e DATA_EAR_EVENTS:CACHE_LAT4 -c 100 --set l1d.classify=1 \
		-o ear.data "$PROGS/ua_l1miss" 131072 2000 1 8192
	expect_rc 0 || return 1
	run_vpmu report -i ear.data -s sym,mem,missclass -t,
	grep -v '^#' out | grep -v '^$' | head -1 | grep -Eq '^[0-9.]+%,\[\.\] run,L2,conflict$' ||
		fail "data EAR: $(grep -v '^#' out | head -3)"
	# ProfileMe profiles any instruction: its loads in run by conflict
	# (the 21264's L1D is two-way), the rest names no data
	run_vpmu record -q -a alpha -e profileme -c 500 --set l1d.classify=1 -o pm.data \
		"$PROGS/ua_l1miss" 131072 2000 1 8192
	expect_rc 0 || return 1
	run_vpmu report -i pm.data -s sym,mem,missclass -t,
	grep -Eq '^[0-9.]+%,\[\.\] run,L2,conflict$' out &&
		grep -Eq '^[0-9.]+%,\[\.\] run,\[unknown\],\[unknown\]$' out ||
		fail "ProfileMe: $(grep -v '^#' out | head -3)"
	run_vpmu record -q -e L1-dcache-load-misses:pp -c 100 -o plain.data "$PROGS/ua_l1miss" 65536 100 1 64
	run_vpmu report -i plain.data -s sym,mem,missclass -t,
	grep -v '^#' out | grep -v '^$' | head -1 | grep -Eq '^[0-9.]+%,\[\.\] run,L2,\[unknown\]$' ||
		fail "unclassified: $(grep -v '^#' out | head -3)"
}

t default test_default
t srcline test_srcline
t symoff test_symoff
t data test_data
t columns test_columns
t filters test_filters
t perf_filter_names test_perf_filter_names
t diff test_diff
t event_key test_event_key
t header test_header
t callgraph test_callgraph
t stats test_stats
t symbol_filter test_symbol_filter
t children test_children
t inline_frames test_inline_frames
t recorded_chains test_recorded_chains
t folded test_folded
t callgrind test_callgrind
t json test_json
t damaged test_damaged
t mem_keys test_mem_keys
t errors test_errors
t nosyms test_nosyms
t script test_script
t help_matches_man test_help_matches_man
command -v stackcollapse-perf.pl >/dev/null && t stackcollapse test_stackcollapse
summary
