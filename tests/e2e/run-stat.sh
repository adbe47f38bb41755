#!/usr/bin/env bash
# run-stat.sh — whole-command tests of `vpmu stat` as perf stat's
# counterpart: the default set counted by the P4 counter hardware and equal
# to the timing model's own counts, the human, -x and -j shapes (parsed
# with python3's csv and json), identical runs, -r with and without
# --seed, multiplexing and --exact, per-processor rows, -I intervals
# (adding up to the totals, reproducible), two programs co-run with
# --smt A : B (seed 004's SMT gain and loss), exit status and signal
# death, a failed exec counted once, --append and -q, and every one-line error.
#
# Environment: VPMU (binary), PROGS (built tests/progs).  Run by make check.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

DEFAULT="cycles instructions uops branches branch-misses L1-dcache-load-misses L1-icache-load-misses LLC-misses syscalls"

# model NAME FILE: an event of the -v per-processor table, both processors
model() {
	awk -v n="$1" '$1 == n && NF == 3 { gsub(",", "", $2); gsub(",", "", $3); print $2 + $3; exit }' "$2"
}

# -B (the default) groups digits, --no-big-num does not: the same counts
# as -x prints; -M is --metrics.
big_num() {
	run_vpmu stat -B -x, -e cycles,instructions -- "$PROGS/bp_alternate" 20000
	expect_rc 0 || return 1
	cut -d, -f1,3 err >csv
	run_vpmu stat --no-big-num -e cycles,instructions -- "$PROGS/bp_alternate" 20000
	awk '$2 == "cycles" || $2 == "instructions" { print $1 "," $2 }' err >plain
	[ "$(wc -l <plain)" = 2 ] && cmp -s csv plain || fail "--no-big-num: $(cat plain) vs $(cat csv)"
	run_vpmu stat -B -e cycles -- "$PROGS/bp_alternate" 20000
	grep -Eq '^ +[0-9]{1,3}(,[0-9]{3})+      cycles ' err || fail "-B: $(cat err)"
	run_vpmu stat -a ia64 -M fsb --no-big-num -- "$PROGS/bp_alternate" 2000
	expect_rc 0 && grep -q 'front-side bus metrics (--metrics fsb' err &&
		grep -Eq '^ +[0-9]{4,}      CPU_CYCLES ' err || fail "-M fsb: $(head -8 err)"
}

default_shape() {
	run_vpmu stat -v -- "$PROGS/bp_alternate" 20000
	expect_rc 0 || return 1
	grep -q "^ Performance counter stats for '$PROGS/bp_alternate 20000' (machine p4):\$" err ||
		fail "no header: $(head -3 err)"
	# the rows, in order, each "count  name"
	got=$(awk '$1 ~ /^[0-9][0-9,]*$/ && $2 ~ /^[a-zA-Z]/ && NF >= 2 && $2 != "seconds" && $2 != "guest" { print $2 }' err |
		head -n 9 | tr '\n' ' ')
	[ "$got" = "$DEFAULT " ] || fail "rows: $got"
	grep -Eq '^ +[0-9,]+      cycles +# +3\.600 GHz \(emulated clock\)$' err || fail "no GHz"
	grep -Eq '^ +[0-9,]+      instructions +# +[0-9.]+ insn per cycle$' err || fail "no IPC"
	grep -Eq '^ +[0-9,]+      uops +# +[0-9.]+ µops per cycle$' err || fail "no µops/cycle"
	grep -Eq '^ +[0-9,]+      branch-misses +# +[0-9.]+% of all branches$' err || fail "no miss %"
	grep -Eq '^ +[0-9]+\.[0-9]{9} seconds emulated time$' err || fail "no emulated time"
	grep -Eq '^ +[0-9]+\.[0-9]{9} seconds time elapsed$' err || fail "no elapsed time"
	grep -Eq '^ +[0-9.]+ guest MIPS$' err || fail "no MIPS"
	# counted by the PMU, equal to the model's own events
	for pair in cycles:cycles instructions:instructions uops:uops branch-misses:branch-misses \
		L1-dcache-load-misses:L1-dcache-load-misses L1-icache-load-misses:L1-icache-load-misses \
		LLC-misses:cache-misses; do
		row=${pair%%:*} ev=${pair#*:}
		[ "$(count "$row" err)" = "$(model "$ev" err)" ] ||
			fail "$row $(count "$row" err), model $ev $(model "$ev" err)"
	done
}

csv_shape() {
	run_vpmu stat -x, -- "$PROGS/bp_alternate" 20000
	expect_rc 0 || return 1
	python3 - err "$DEFAULT" <<'EOF' || fail "$(cat err)"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
rows = [r for r in rows if r and not r[0].startswith('bp_alternate')]
assert [r[2] for r in rows] == sys.argv[2].split(), [r[2] for r in rows]
for r in rows:
    assert len(r) == 7, r                     # no variance field without -r
    int(r[0]); int(r[3])
    assert r[1] == '' and float(r[4]) == 100.0, r
m = {r[2]: r for r in rows}
assert m['cycles'][5:] == ['3.60', 'GHz'], m['cycles']
assert m['instructions'][6] == 'insn per cycle'
ipc = int(m['instructions'][0]) / int(m['cycles'][0])
assert abs(float(m['instructions'][5]) - ipc) < 0.01, (ipc, m['instructions'])
assert m['branches'][5:] == ['', '']
EOF
	run_vpmu stat -r 3 -x ';' -e cycles,instructions -- "$PROGS/e2e_loop" 1000
	expect_rc 0 || return 1
	python3 - err <<'EOF' || fail "$(cat err)"
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1]), delimiter=';') if len(r) > 1]
assert [r[2] for r in rows] == ['cycles', 'instructions'], rows
for r in rows:
    assert len(r) == 8 and r[3] == '0.00%', r   # variance after the name
EOF
}

json_shape() {
	run_vpmu stat -x, -- "$PROGS/bp_alternate" 20000
	cp err csv
	run_vpmu stat -j -- "$PROGS/bp_alternate" 20000
	expect_rc 0 || return 1
	python3 - err csv <<'EOF' || fail "$(cat err)"
import csv, json, sys
objs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
rows = [r for r in csv.reader(open(sys.argv[2])) if len(r) > 2]
assert len(objs) == len(rows) == 9, (len(objs), len(rows))
for o, r in zip(objs, rows):
    assert o['event'] == r[2] and float(o['counter-value']) == int(r[0]), (o, r)
    assert o['unit'] == '' and o['pcnt-running'] == 100.0 and o['event-runtime'] == int(r[3])
    if r[5]:
        assert o['metric-unit'] == r[6] and abs(float(o['metric-value']) - float(r[5])) < 0.01
    else:
        assert 'metric-value' not in o
EOF
}

identical_runs() {
	"$VPMU" stat -x, -- "$PROGS/example" 20000 >/dev/null 2>one </dev/null || return 1
	"$VPMU" stat -x, -- "$PROGS/example" 20000 >/dev/null 2>two </dev/null || return 1
	[ "$(wc -l <one)" -eq 9 ] || fail "$(cat one)"
	cmp -s one two || fail "$(diff one two | tr '\n' ' ')"
}

repeat_variance() {
	run_vpmu stat -r 5 -- "$PROGS/e2e_loop" 2000
	expect_rc 0 || return 1
	grep -q "(machine p4, 5 runs):\$" err || fail "no run count: $(head -3 err)"
	[ "$(grep -c '( +-  0\.00% )$' err)" -eq 9 ] || fail "not nine rows of 0 spread: $(cat err)"
	# a given seed varies run to run: the program loops by its AT_RANDOM
	run_vpmu stat -r 4 --seed 1 -x, -e instructions -- "$PROGS/e2e_random"
	expect_rc 0 || return 1
	v=$(awk -F, '$3 == "instructions" { sub("%", "", $4); print $4 }' err)
	awk -v v="$v" 'BEGIN { exit !(v > 0.5) }' || fail "spread $v: $(cat err)"
	[ "$(sort -u out | wc -l)" -eq 4 ] || fail "four seeds, loops: $(cat out)"
}

multiplexing() {
	local set=instructions,branch-misses,uops
	run_vpmu stat --exact -x, -e $set -- "$PROGS/ua_fpadd" dep 200000
	expect_rc 0 || return 1
	cp err exact
	run_vpmu stat --mux-interval 0.02 -e $set -- "$PROGS/ua_fpadd" dep 200000
	expect_rc 0 || return 1
	cp err human
	grep -q '2 event groups multiplexed on the counters, rotated every 72000 cycles' human ||
		fail "no mux line: $(cat human)"
	grep -Eq '^ +[0-9,]+      uops +\([0-9]+\.[0-9]{2}%\)$' human || fail "no share: $(cat human)"
	run_vpmu stat --mux-interval 0.02 -x, -e $set -- "$PROGS/ua_fpadd" dep 200000
	cp err mux
	python3 - exact mux <<'EOF' || fail "$(cat exact mux)"
import csv, sys
ex = {r[2]: r for r in csv.reader(open(sys.argv[1])) if len(r) > 2}
mx = {r[2]: r for r in csv.reader(open(sys.argv[2])) if len(r) > 2}
# instructions fits beside either group: counted all the time, exactly
assert float(mx['instructions'][4]) == 100.0, mx['instructions']
assert mx['instructions'][0] == ex['instructions'][0], (ex, mx)
for ev in ('instructions', 'branch-misses', 'uops'):
    pct = float(mx[ev][4])
    assert ev == 'instructions' or 0 < pct < 100, mx[ev]
    assert float(ex[ev][4]) == 100.0
    # scaled estimate of a steady loop: near the exact count; the few
    # thousand branch misses come mostly from start-up, not the loop, so
    # their estimate depends on which turns start-up fell in
    e, m = int(ex[ev][0]), int(mx[ev][0])
    assert abs(m - e) <= (0.5 if ev == 'branch-misses' else 0.15) * e, (ev, e, m)
EOF
	# rotation is on emulated cycles: reproducible
	run_vpmu stat --mux-interval 0.02 -x, -e $set -- "$PROGS/ua_fpadd" dep 200000
	cmp -s err mux || fail "multiplexed runs differ"
	grep -q '(exact)' exact && fail "-x printed a human note"
	run_vpmu stat --exact -e $set -- "$PROGS/ua_fpadd" dep 200000
	[ "$(grep -c '  (exact)$' err)" -eq 3 ] && grep -q '2 deterministic runs' err ||
		fail "$(cat err)"
}

per_thread() {
	run_vpmu stat --smt --exact -e instructions,cycles -- "$PROGS/lx_threads"
	expect_rc 0 || return 1
	a=$(awk '$1 == "CPU0" && $3 == "instructions" { gsub(",", "", $2); print $2 }' err)
	b=$(awk '$1 == "CPU1" && $3 == "instructions" { gsub(",", "", $2); print $2 }' err)
	[ "${a:-0}" -gt 100000 ] && [ "${b:-0}" -gt 100000 ] || fail "CPU0 $a CPU1 $b: $(cat err)"
	[ $((a + b)) = "$(count instructions err)" ] || fail "$a + $b != $(count instructions err)"
	run_vpmu stat --smt -x, -e instructions -- "$PROGS/lx_threads"
	grep -q "^CPU1,$b,,instructions," err || fail "CSV per-processor row: $(cat err)"
	# perf's -A (--no-aggr) is --per-thread
	run_vpmu stat --smt -A -x, -e instructions -- "$PROGS/lx_threads"
	grep -q "^CPU1,$b,,instructions," err || fail "-A: $(cat err)"
	# combined the same as counted without the T0/T1 split
	run_vpmu stat --smt -e instructions -o plain -- "$PROGS/lx_threads"
	[ "$(count instructions plain)" = $((a + b)) ] || fail "$(cat plain)"
	# a lone thread has the core to itself (single-thread mode): the
	# cycles of a run without --smt
	run_vpmu stat -x, -e cycles -- "$PROGS/bench_qsort" 2000
	a=$(awk -F, '$3 == "cycles" { print $1; exit }' err)
	run_vpmu stat --smt -x, -e cycles -- "$PROGS/bench_qsort" 2000
	grep -q "^CPU0,$a,,cycles," err || fail "one thread under --smt: $(cat err), $a without"
	# a machine of one logical processor has no second to run threads on,
	# unless the model is given one
	run_vpmu stat -a alpha --smt -e cycles -- "$PROGS/lx_threads"
	expect_rc 1 || return 1
	[ "$(cat err)" = "vpmu stat: --smt: machine 'alpha' has one logical processor per core (core.threads=1)" ] ||
		fail "alpha --smt: $(cat err)"
	run_vpmu record -a xscale2 --smt -o rec.data -- "$PROGS/lx_threads"
	expect_rc 1 || return 1
	grep -q "machine 'xscale2' has one logical processor" err || fail "xscale2 record --smt: $(cat err)"
	run_vpmu stat -a ia64 --set core.threads=2 --smt -x, -e instructions -- "$PROGS/lx_threads"
	expect_rc 0 || return 1
	grep -q '^CPU1,' err || fail "ia64 with core.threads=2: $(cat err)"
}

intervals() {
	local set=cycles,instructions,uops,branches
	run_vpmu stat -x, -e $set -- "$PROGS/ua_fpadd" dep 200000
	expect_rc 0 || return 1
	cp err total
	run_vpmu stat -I 1 -x, -e $set -- "$PROGS/ua_fpadd" dep 200000
	expect_rc 0 || return 1
	cp err ival
	# rows of each interval add up to the totals; ceil(cycles / 3.6M) intervals
	python3 - total ival <<'EOF' || fail "$(cat total ival)"
import csv, sys
tot = {r[2]: int(r[0]) for r in csv.reader(open(sys.argv[1])) if len(r) > 2}
rows = [r for r in csv.reader(open(sys.argv[2])) if len(r) > 2]
times = sorted({float(r[0]) for r in rows})
want = -(-tot['cycles'] // 3600000)
assert len(times) == want > 2, (len(times), want)
assert all(abs(t - 0.001 * (i + 1)) < 1e-9 for i, t in enumerate(times[:-1])), times
assert abs(times[-1] - tot['cycles'] / 3.6e9) < 1e-9, times[-1]
assert len(rows) == 4 * want, len(rows)
for ev, v in tot.items():
    assert sum(int(r[1]) for r in rows if r[3] == ev) == v, ev
# every interval but the last holds exactly its cycles: each event is
# counted in the interval of its cycle
full = [int(r[1]) for r in rows if r[3] == 'cycles' and float(r[0]) < times[-1]]
assert full == [3600000] * (want - 1), full
EOF
	run_vpmu stat -I 1 -x, -e $set -- "$PROGS/ua_fpadd" dep 200000
	cmp -s err ival || fail "two runs' intervals differ"
	# --interval-count: the first intervals alone
	run_vpmu stat -I 1 --interval-count 2 -x, -e $set -- "$PROGS/ua_fpadd" dep 200000
	expect_rc 0 && head -8 ival | cmp -s - err || fail "--interval-count 2: $(cat err)"
	run_vpmu stat --interval-count 2 -e cycles -- "$PROGS/ua_fpadd" dep 200000
	expect_rc 1 && [ "$(wc -l <err)" -eq 1 ] || fail "--interval-count without -I: $(cat err)"
	run_vpmu stat -I 1 --interval-count 0 -e cycles -- "$PROGS/ua_fpadd" dep 200000
	expect_rc 1 && grep -q "interval-count wants a number" err || fail "0: $(cat err)"
	# --summary: the intervals, a blank line, then the run's counts as
	# without -I
	run_vpmu stat -I 1 --summary -x, -e $set -- "$PROGS/ua_fpadd" dep 200000
	expect_rc 0 && { cat ival; echo; cat total; } | cmp -s - err || fail "--summary: $(cat err)"
	run_vpmu stat --summary -e cycles -- "$PROGS/ua_fpadd" dep 200000
	expect_rc 1 && grep -q -- "--summary sums up the intervals of -I: give -I" err ||
		fail "--summary without -I: $(cat err)"
	# --metric-only: each interval's figures, as its rows have them
	run_vpmu stat -I 1 --metric-only -x, -e $set -- "$PROGS/ua_fpadd" dep 200000
	expect_rc 0 && [ "$(head -1 err)" = "time,GHz,insn per cycle,µops per cycle" ] ||
		fail "-I --metric-only heads: $(head -2 err)"
	awk -F, '$4 == "instructions" { print $1 "," $7 }' ival >a
	tail -n +2 err | cut -d, -f1,3 >b
	[ -s a ] && cmp -s a b || fail "-I --metric-only: $(diff a b | head -3)"
	run_vpmu stat -I 1 --metric-only -- "$PROGS/ua_fpadd" dep 200000
	expect_rc 0 && grep -Eq '^#           time +GHz +insn per cycle' err &&
		grep -Eq '^ +0\.001000000 +3\.600 +0\.[0-9]{2} ' err || fail "-I --metric-only: $(head -3 err)"
	# -D: the counts less those of the first millisecond; with -I, the
	# intervals after it
	run_vpmu stat -D 1 -x, -e $set -- "$PROGS/ua_fpadd" dep 200000
	expect_rc 0 || return 1
	for ev in ${set//,/ }; do
		a=$(awk -F, -v e=$ev '$3 == e { print $1 }' total)
		b=$(awk -F, -v e=$ev '$4 == e && $1 == "0.001000000" { print $2 }' ival)
		c=$(awk -F, -v e=$ev '$3 == e { print $1 }' err)
		[ -n "$a" ] && [ -n "$b" ] && [ "$c" = $((a - b)) ] || fail "-D 1 $ev: $c, not $a - $b"
	done
	# a short delay: many intervals after it, one kept
	run_vpmu stat -D 0.001 -x, -e cycles -- "$PROGS/ua_fpadd" dep 200000
	a=$(awk -F, '$3 == "cycles" { print $1 }' total)
	[ "$(cut -d, -f1 err)" = $((a - 3600)) ] || fail "-D 0.001: $(cat err), not $a - 3600"
	run_vpmu stat -D 1 -- "$PROGS/ua_fpadd" dep 200000
	grep -q '<not supported> *syscalls *# *counted by the emulator' err || fail "-D syscalls: $(cat err)"
	run_vpmu stat -D 2 -I 1 -x, -e $set -- "$PROGS/ua_fpadd" dep 200000
	expect_rc 0 && tail -n +9 ival | cmp -s - err || fail "-D 2 -I 1: $(head -3 err)"
	run_vpmu stat -D 1.5 -I 1 -e cycles -- "$PROGS/ua_fpadd" dep 200000
	expect_rc 1 && grep -q 'whole number of intervals' err || fail "-D 1.5 -I 1: $(cat err)"
	run_vpmu stat -D 1 --no-timing -- "$PROGS/ua_fpadd" dep 200000
	expect_rc 1 && [ "$(cat err)" = "vpmu stat: -D starts the counter hardware late: drop --no-timing" ] ||
		fail "-D --no-timing: $(cat err)"
	run_vpmu stat -I 2 -e cycles,instructions -- "$PROGS/ua_fpadd" dep 200000
	head -1 err | grep -q '^#           time             counts unit events$' || fail "$(head -2 err)"
	grep -Eq '^ +0\.002000000 +[0-9,]+      instructions +# +[0-9.]+ insn per cycle$' err ||
		fail "no row: $(cat err)"
	run_vpmu stat -I 2 -j -e instructions -- "$PROGS/ua_fpadd" dep 200000
	python3 -c '
import json
o = [json.loads(l) for l in open("err") if l.startswith("{")]
assert o[0]["interval"] == 0.002 and o[0]["event"] == "instructions", o[0]
' || fail "$(cat err)"
	# multiplexed: every interval has a scaled row of each group
	run_vpmu stat -I 1 --mux-interval 0.02 -x, -e instructions,branch-misses,uops -- \
		"$PROGS/ua_fpadd" dep 200000
	expect_rc 0 && [ "$(awk -F, '$4 == "uops" && $6 > 0 && $6 < 100' err | wc -l)" -eq 5 ] ||
		fail "multiplexed: $(cat err)"
	# per processor: CPU1's intervals add up to its count
	run_vpmu stat -I 0.2 --smt -x, -e instructions -- "$PROGS/lx_threads"
	a=$(awk -F, '$2 == "CPU1" { s += $3 } END { print s }' err)
	run_vpmu stat --smt -x, -e instructions -- "$PROGS/lx_threads"
	grep -q "^CPU1,$a,,instructions," err || fail "CPU1 intervals sum to $a: $(cat err)"
}

# upc VAR MODE PROG SHORT LONG: combined µops per cycle of the long run less
# the short one (start-up removed), one copy (MODE one) or two co-run (pair)
upc() {
	local v=$1 mode=$2 prog=$PROGS/$3 k
	for k in 4 5; do
		if [ "$mode" = one ]; then
			"$VPMU" stat --smt -x, -e uops,cycles -- "$prog" ${!k} >/dev/null 2>"run$k" </dev/null
		else
			"$VPMU" stat --smt -x, -e uops,cycles -- "$prog" ${!k} : "$prog" ${!k} \
				>/dev/null 2>"run$k" </dev/null
		fi || return 1
	done
	printf -v "$v" '%s' "$(python3 - run4 run5 <<'EOF'
import csv, sys
a, b = ({(r[0], r[3]): int(r[1]) for r in csv.reader(open(f)) if len(r) > 3 and r[0].startswith('CPU')}
        for f in sys.argv[1:])
u = sum(b[(c, 'uops')] - a[(c, 'uops')] for c in ('CPU0', 'CPU1'))
cy = max(b[(c, 'cycles')] - a[(c, 'cycles')] for c in ('CPU0', 'CPU1'))
print('%.3f' % (u / cy))
EOF
)"
}

# seed 004: two dependent FP add chains co-run at about twice one's
# throughput; two streams of L1-missing loads lose combined throughput,
# each sweeping 1.25 MB (two overflow the 2 MB L2) and as the seed's
# benchmark, hitting L2
smt_pair() {
	local one two
	upc one one ua_fpadd "dep 20000" "dep 40000" && upc two pair ua_fpadd "dep 20000" "dep 40000" ||
		fail "vpmu failed: $(cat run4 run5)"
	awk -v a="$one" -v b="$two" 'BEGIN { exit !(b > 1.8 * a && b < 2.2 * a) }' ||
		fail "fp add: one copy $one, two copies $two µops/cycle: not about double"
	upc one one ua_l1miss "1310720 4" "1310720 8" && upc two pair ua_l1miss "1310720 4" "1310720 8" ||
		fail "vpmu failed: $(cat run4 run5)"
	awk -v a="$one" -v b="$two" 'BEGIN { exit !(b < 0.8 * a) }' ||
		fail "l1 miss: one copy $one, two copies $two µops/cycle: two copies did not lose"
	# the seed's own pattern (its Table 1: lines of one L1 set, all in L2;
	# here 16 lines 2 KB apart): two programs lose on the L2's 32 bytes a
	# cycle, where they gain with a line a cycle
	upc one one ua_l1miss "32768 400 1 2048" "32768 800 1 2048" &&
		upc two pair ua_l1miss "32768 400 1 2048" "32768 800 1 2048" ||
		fail "vpmu failed: $(cat run4 run5)"
	awk -v a="$one" -v b="$two" 'BEGIN { exit !(b < a) }' ||
		fail "seed's l1_miss: one copy $one, two copies $two µops/cycle: two copies did not lose"
	# the shape: per processor rows and the combined one, both programs named
	run_vpmu stat --smt -e instructions -- "$PROGS/ua_fpadd" dep 1000 : "$PROGS/e2e_loop" 10
	expect_rc 0 || return 1
	grep -q "^ Performance counter stats for '$PROGS/ua_fpadd dep 1000 : $PROGS/e2e_loop 10' (machine p4):\$" err ||
		fail "header: $(head -3 err)"
	a=$(awk '$1 == "CPU0" && $3 == "instructions" { gsub(",", "", $2); print $2 }' err)
	b=$(awk '$1 == "CPU1" && $3 == "instructions" { gsub(",", "", $2); print $2 }' err)
	[ "${a:-0}" -gt 0 ] && [ "${b:-0}" -gt 0 ] && [ $((a + b)) = "$(count instructions err)" ] ||
		fail "CPU0 $a CPU1 $b: $(cat err)"
	# each processor counts what its program alone retires there
	run_vpmu stat --smt -e instructions -- "$PROGS/e2e_loop" 10
	[ "$(awk '$1 == "CPU0" && $3 == "instructions" { gsub(",", "", $2); print $2 }' err)" = "$b" ] ||
		fail "e2e_loop alone: $(cat err), with ua_fpadd: $b"
	# deterministic
	run_vpmu stat --smt -x, -e instructions,cycles -- "$PROGS/ua_fpadd" dep 1000 : "$PROGS/e2e_loop" 10
	cp err first
	run_vpmu stat --smt -x, -e instructions,cycles -- "$PROGS/ua_fpadd" dep 1000 : "$PROGS/e2e_loop" 10
	cmp -s err first || fail "co-runs differ: $(diff first err | tr '\n' ' ')"
	# the status: the first program's unless 0, else the second's
	run_vpmu stat --smt -x, -- "$PROGS/e2e_loop" 10 : "$PROGS/e2e_exit3"
	expect_rc 3 || return 1
	run_vpmu stat --smt -x, -- "$PROGS/e2e_segv" : "$PROGS/e2e_exit3"
	expect_rc 139 || return 1
	grep -q ': Segmentation fault$' err || fail "no signal note: $(cat err)"
}

# Each row of the default set is an event -e takes, counting the same.
default_names_are_events() {
	local a name n
	for a in p4 ia64 xscale xscale2 alpha; do
		run_vpmu stat -a $a --exact -x, -- "$PROGS/e2e_loop" 1000
		expect_rc 0 || return 1
		awk -F, '$3 != "syscalls" && $1 ~ /^[0-9]+$/ { print $3 "," $1 }' err >rows
		[ "$(wc -l <rows)" -ge 4 ] || fail "$a: default rows: $(cat err)"
		while IFS=, read -r name n; do
			run_vpmu stat -a $a -x, -e "$name" -- "$PROGS/e2e_loop" 1000
			[ "$(awk -F, -v e="$name" '$3 == e { print $1 }' err)" = "$n" ] ||
				fail "$a: default row $name $n, with -e $name: $(head -c 300 err)"
			# and as perf's PMU/EVENT/ form
			run_vpmu stat -a $a -x, -e "cpu/$name/" -- "$PROGS/e2e_loop" 1000
			[ "$(awk -F, -v e="cpu/$name/" '$3 == e { print $1 }' err)" = "$n" ] ||
				fail "$a: default row $name $n, with -e cpu/$name/: $(head -c 300 err)"
		done <rows
	done
}

exit_and_signal() {
	run_vpmu stat -x, -- "$PROGS/e2e_exit3"
	expect_rc 3 || return 1
	run_vpmu stat -j -- "$PROGS/e2e_segv"
	expect_rc 139 || return 1
	grep -q ': Segmentation fault$' err || fail "no signal note: $(cat err)"
	python3 -c '
import json, sys
o = [json.loads(l) for l in open("err") if l.startswith("{")]
assert float(next(x for x in o if x["event"] == "instructions")["counter-value"]) > 0
' || fail "$(cat err)"
	run_vpmu stat -q -- "$PROGS/e2e_exit3"
	expect_rc 3 && [ ! -s err ] || fail "-q printed: $(cat err)"
}

# --exact on a program that dies of its own fault: it dies the same way in
# every run, so every group is counted, each as in a run of its own.
exact_on_fault() {
	run_vpmu stat -x, --exact -e instructions,branch-misses,uops -- "$PROGS/e2e_segv"
	expect_rc 139 || return 1
	grep -q 'not counted' err && fail "a group was not counted: $(cat err)"
	run_vpmu stat -x, -e uops -- "$PROGS/e2e_segv"
	one=$(grep ',uops,' err | cut -d, -f1)
	run_vpmu stat -x, --exact -e instructions,branch-misses,uops -- "$PROGS/e2e_segv"
	[ "$(grep ',uops,' err | cut -d, -f1)" = "$one" ] || fail "uops $(cat err), alone $one"
}

# An exec the host refuses after vpmu's own checks: the process goes on,
# and the model counts each instruction once, as the emulator does.
failed_exec() {
	run_vpmu stat --no-timing -- "$PROGS/e2e_exec_fail"
	expect_rc 0 || return 1
	[ "$(grep -c 'Argument list too long' out)" -eq 3 ] || fail "stdout: $(cat out)"
	want=$(count instructions err)
	run_vpmu stat -e instructions -- "$PROGS/e2e_exec_fail"
	expect_rc 0 || return 1
	[ -n "$want" ] && [ "$(count instructions err)" = "$want" ] ||
		fail "model $(count instructions err), emulator $want"
}

append_output() {
	run_vpmu stat -o counts -- "$PROGS/e2e_exit3"
	run_vpmu stat -o counts --append -x, -- "$PROGS/e2e_exit3"
	expect_rc 3 || return 1
	[ ! -s err ] && grep -q 'Performance counter stats' counts && grep -q '^[0-9]*,,cycles,' counts ||
		fail "$(cat counts)"
	run_vpmu stat -o counts -x, -- "$PROGS/e2e_exit3"
	grep -q 'Performance counter stats' counts && fail "not replaced"
	return 0
}

# one_line RC PATTERN ARGS...: vpmu stat ARGS fails with RC and one line
one_line() {
	local want=$1 pat=$2
	shift 2
	run_vpmu stat "$@"
	[ "$rc" -eq "$want" ] && [ "$(wc -l <err)" -eq 1 ] && grep -q -- "$pat" err ||
		fail "stat $*: rc $rc: $(cat err)"
}

# -v splits the misses of a cache that classifies (--set <cache>.classify=1)
# into compulsory, capacity and conflict misses, which add up to its
# misses; a cache not asked to reads <not counted> with the reason, and
# classifying changes no other count.
miss_classes() {
	run_vpmu stat -v -- "$PROGS/bench_qsort" 3000
	expect_rc 0 || return 1
	mv err plain
	for c in compulsory capacity conflict; do
		grep -Eq "^ +L1-dcache-load-misses-$c +<not counted> +<not counted>  \(needs --set l1d.classify=1\)\$" plain ||
			fail "L1D $c row: $(grep -- "-$c" plain | head -1)"
	done
	run_vpmu stat -v --set l1d.classify=1,l1i.classify=1,l2.classify=1 -- "$PROGS/bench_qsort" 3000
	expect_rc 0 || return 1
	local sum=0 n
	for c in compulsory capacity conflict; do
		n=$(model "L1-icache-load-misses-$c" err)
		[ -n "$n" ] || { fail "no L1-icache-load-misses-$c"; return 1; }
		sum=$((sum + n))
	done
	[ "$sum" = "$(model L1-icache-load-misses err)" ] ||
		fail "I-cache classes $sum, misses $(model L1-icache-load-misses err)"
	sum=0
	for c in compulsory capacity conflict; do
		sum=$((sum + $(model "l2-misses-$c" err)))
	done
	[ "$sum" = "$(model l2-misses err)" ] || fail "L2 classes $sum, misses $(model l2-misses err)"
	sum=0
	for c in compulsory capacity conflict; do
		sum=$((sum + $(model "L1-dcache-store-misses-$c" err)))
	done
	[ "$sum" = "$(model L1-dcache-store-misses err)" ] ||
		fail "L1D store classes $sum, misses $(model L1-dcache-store-misses err)"
	[ "$(model L1-dcache-load-misses-compulsory err)" -gt 0 ] || fail "no compulsory L1D misses"
	for e in cycles instructions L1-dcache-load-misses l2-misses; do
		[ "$(model $e err)" = "$(model $e plain)" ] ||
			fail "$e $(model $e err) classifying, $(model $e plain) not"
	done
	# Itanium 2's L3
	run_vpmu stat -v -a ia64 --set l3.classify=1 -- "$PROGS/bench_qsort" 3000
	expect_rc 0 || return 1
	sum=0
	for c in compulsory capacity conflict; do
		sum=$((sum + $(model "l3-misses-$c" err)))
	done
	[ "$sum" -gt 0 ] && [ "$sum" = "$(model l3-misses err)" ] ||
		fail "L3 classes $sum, misses $(model l3-misses err)"
}

# Down a mispredicted path the front end follows the branches it meets
# where the predictors point: past ua_wrongpath's always-taken branch into
# its 48 adds, until the mispredicted branch resolves (p4: about 19 cycles
# of 3 instructions), not stopping at the first branch (2-3 per miss).
wrong_path() {
	run_vpmu stat -v "$PROGS/ua_wrongpath_nolibc"
	expect_rc 0 || return 1
	local miss wp
	miss=$(model branch-misses err) wp=$(model instructions-wrong-path err)
	[ -n "$miss" ] && [ "$miss" -ge 9000 ] && [ "$miss" -le 11000 ] || fail "branch-misses $miss"
	[ -n "$wp" ] && [ "$wp" -ge $((miss * 20)) ] && [ "$wp" -le $((miss * 128)) ] ||
		fail "$wp wrong-path instructions for $miss misses"
}

# P4's first-level data conflict: lines alike in address bits 21:6 cannot
# both be in L1 (two loads 4 MB apart miss each time, one alias eviction
# each, none with l1d.alias=0); two programs on the core, whose data lie
# at the same addresses, alias only in shared context mode, and then
# thrash (SDM 3A 11.5.6).
l1_aliasing() {
	run_vpmu stat -v -- "$PROGS/ua_l1miss" 4194368 20000 1 4194304
	expect_rc 0 || return 1
	local al miss
	al=$(model L1-dcache-alias-evictions err) miss=$(model L1-dcache-load-misses err)
	[ -n "$al" ] && [ "$al" -ge 40000 ] && [ "$miss" -ge "$al" ] || fail "4 MB apart: $al evictions, $miss misses"
	run_vpmu stat -v --set l1d.alias=0 -- "$PROGS/ua_l1miss" 4194368 20000 1 4194304
	grep -Eq '^ +L1-dcache-alias-evictions +<not counted> +<not counted> +\(the L1 data cache compares whole tags: l1d.alias=0\)$' err &&
		[ "$(model L1-dcache-load-misses err)" -lt 5000 ] ||
		fail "whole tags: $(model L1-dcache-load-misses err) misses; $(grep alias-evictions err)"
	run_vpmu stat -v --smt -- "$PROGS/ua_l1miss" 4096 20000 1 64 : "$PROGS/ua_l1miss" 4096 20000 1 64
	expect_rc 0 || return 1
	miss=$(model L1-dcache-load-misses err)
	[ -n "$miss" ] && [ "$miss" -lt 20000 ] || fail "adaptive: $miss misses"
	run_vpmu stat -v --smt --set l1d.context=shared -- "$PROGS/ua_l1miss" 4096 20000 1 64 : \
		"$PROGS/ua_l1miss" 4096 20000 1 64
	expect_rc 0 || return 1
	al=$(model L1-dcache-alias-evictions err)
	[ -n "$al" ] && [ "$al" -ge 2000000 ] || fail "shared: $al alias evictions"
}

# -d, -dd, -ddd: perf's detailed events after the default set, each once,
# those the machine lacks not supported
detailed() {
	run_vpmu stat -d --exact -- "$PROGS/bp_alternate" 20000
	expect_rc 0 || return 1
	got=$(awk '($1 ~ /^[0-9][0-9,]*$/ || $1 == "<not") && $2 ~ /^[a-zA-Z]/ && $2 != "seconds" &&
		$2 != "guest" && $2 != "deterministic" { print ($1 == "<not" ? $3 : $2) }' err | tr '\n' ' ')
	[ "$got" = "${DEFAULT% syscalls} L1-dcache-loads LLC-loads LLC-load-misses syscalls " ] ||
		fail "-d rows: $got"
	grep -Eq "^ +<not supported> +LLC-loads +# +generic event 'LLC-loads' is not supported on p4" err ||
		fail "LLC-loads on p4: $(grep LLC-loads err)"
	run_vpmu stat -a ia64 -ddd --exact -e cycles -- "$PROGS/bp_alternate" 20000
	expect_rc 0 || return 1
	grep -Eq '^ +[0-9,]+ +LLC-load-misses +# +[0-9.]+% of all LL-cache accesses' err &&
		grep -Eq '^ +[0-9,]+ +L1-icache-loads ' err && grep -Eq '^ +<not supported> +L1-dcache-prefetch-misses ' err ||
		fail "ia64 -ddd: $(cat err)"
	[ "$(grep -E '^ +(<not supported>|[0-9,]+) +[a-zA-Z]' err | grep -vc deterministic)" = $((1 + 12)) ] ||
		fail "-ddd rows: $(cat err)"
	one_line 1 "-d counts the timing model's events: drop --no-timing" -d --no-timing "$PROGS/e2e_exit3"
}

# --table: each run's time elapsed, its difference to the mean and a bar
stat_table() {
	run_vpmu stat -r 3 --table -e cycles -- "$PROGS/e2e_hello_nolibc"
	expect_rc 7 || return 1
	grep -q '^ *# Table of individual measurements:$' err &&
		[ "$(grep -Ec '^ +[0-9]+\.[0-9]{9} \([+-][0-9]+\.[0-9]{9}\) #+$' err)" -eq 3 ] &&
		grep -q '^ *# Final result:$' err || fail "--table: $(cat err)"
	python3 - err <<'EOF' || fail "the table's mean: $(cat err)"
import re, sys
t = open(sys.argv[1]).read()
runs = [(float(a), float(d)) for a, d in re.findall(r'^ +([0-9.]+) \(([+-][0-9.]+)\) #', t, re.M)]
mean = float(re.search(r'^ +([0-9.]+) seconds time elapsed', t, re.M).group(1))
assert abs(sum(a for a, _ in runs) / 3 - mean) < 2e-9, (runs, mean)
assert all(abs(a - mean - d) < 2e-9 for a, d in runs), runs
EOF
	run_vpmu stat --table -e cycles -- "$PROGS/e2e_hello_nolibc"
	! grep -q 'Table' err || fail "a table of one run: $(cat err)"
}

# perf's -n (the times alone) and --pre/--post hooks around each run
null_and_hooks() {
	run_vpmu stat -n -- "$PROGS/e2e_loop" 10
	expect_rc 0 && grep -q 'seconds emulated time$' err && ! grep -Eq '^ +[0-9,]+ +[a-z]' err ||
		fail "-n: $(cat err)"
	run_vpmu stat -n -x, -- "$PROGS/e2e_loop" 10
	expect_rc 0 && [ ! -s err ] || fail "-n -x,: $(cat err)"
	one_line 1 "-n counts nothing: drop -e" -n -e cycles "$PROGS/e2e_loop" 10
	run_vpmu stat -r 3 --pre 'echo pre >>hooks' --post 'echo post >>hooks' -e instructions -- \
		"$PROGS/e2e_loop" 10
	expect_rc 0 && [ "$(tr '\n' ' ' <hooks)" = "pre post pre post pre post " ] || fail "hooks: $(cat hooks)"
	# perf's --metric-only: the figures of the default rows, a column each
	run_vpmu stat -x, -- "$PROGS/e2e_loop" 10
	ipc=$(awk -F, '$3 == "instructions" { print $6 }' err) mr=$(awk -F, '$3 == "branch-misses" { print $6 }' err)
	run_vpmu stat --metric-only -x, -- "$PROGS/e2e_loop" 10
	expect_rc 0 && [ "$(wc -l <err)" = 2 ] && head -1 err | grep -q '^GHz,insn per cycle,' &&
		[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "insn per cycle") c = i } NR == 2 { print $c }' err)" = "$ipc" ] &&
		[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "branch-misses of all branches") c = i } NR == 2 { print $c }' err)" = "$mr" ] ||
		fail "--metric-only -x,: ipc $ipc, misses $mr: $(cat err)"
	run_vpmu stat --metric-only -j -- "$PROGS/e2e_loop" 10
	python3 -c 'import json,sys; d=json.load(open("err")); sys.exit(d["insn per cycle"] != sys.argv[1])' "$ipc" ||
		fail "--metric-only -j: $(cat err)"
	run_vpmu stat --metric-only -- "$PROGS/e2e_loop" 10
	grep -Eq '^ +GHz +insn per cycle +' err && grep -Eq "^ +3\.600 +$ipc " err || fail "--metric-only: $(cat err)"
	one_line 1 "--metric-only prints the default figures: drop -n" --metric-only -n "$PROGS/e2e_loop" 10
	one_line 1 "--pre 'false' failed (status 1)" --pre false "$PROGS/e2e_loop" 10
	one_line 1 "--post 'exit 3' failed (status 3)" --post 'exit 3' "$PROGS/e2e_loop" 10
}

errors() {
	one_line 1 "unknown event 'instrutcions' (did you mean 'instructions'?)" \
		-e instrutcions "$PROGS/e2e_exit3"
	# a name cut short: the one it begins
	one_line 1 "unknown event 'BSQ_CACHE' (did you mean 'BSQ_CACHE_REFERENCE'?)" \
		-e BSQ_CACHE "$PROGS/e2e_exit3"
	one_line 1 "unknown --mode 'instruction-cache' (did you mean 'instruction-cache-efficiency'?)" \
		-a xscale --mode instruction-cache "$PROGS/e2e_exit3"
	# perf's own names a machine lacks are counted as not supported
	run_vpmu stat -a alpha -e cycles,cache-references,L1-dcache-loads:u -- "$PROGS/e2e_exit3"
	expect_rc 3 && grep -Eq "^ +<not supported> +cache-references +# +generic event 'cache-references' is not supported on alpha" err &&
		grep -Eq "^ +<not supported> +L1-dcache-loads:u " err && grep -Eq "^ +[0-9,]+ +cycles " err ||
		fail "alpha without cache-references: $(cat err)"
	one_line 1 "'branch-misses' does not fit with the events before it: its ESCRs (CRU_ESCR0" \
		-e '{instructions,uops,branch-misses}' "$PROGS/e2e_exit3"
	one_line 1 "bad modifier 'z' in 'cycles:z'" -e cycles:z "$PROGS/e2e_exit3"
	one_line 1 "usage: vpmu stat .*no program given"
	one_line 127 "no-such-program" -- ./no-such-program
	printf 'just text\n' >script
	chmod +x script
	one_line 126 "script" -- ./script
	one_line 1 "choose one" -x, -j "$PROGS/e2e_exit3"
	one_line 1 "-r wants" -r 0 "$PROGS/e2e_exit3"
	one_line 1 "unknown option '--frob'" --frob "$PROGS/e2e_exit3"
	one_line 1 "drop --no-timing" --no-timing --per-thread "$PROGS/e2e_exit3"
	one_line 1 "-I wants emulated milliseconds" -I 0 "$PROGS/e2e_exit3"
	one_line 1 "':' separates two programs .* it needs --smt" -- "$PROGS/e2e_exit3" : "$PROGS/e2e_exit3"
	one_line 1 "no program before ':'" --smt -- : "$PROGS/e2e_exit3"
	one_line 1 "no program after ':'" --smt -- "$PROGS/e2e_exit3" :
	one_line 127 "no-such-program" --smt -- "$PROGS/e2e_exit3" : ./no-such-program
	one_line 127 "no-such-program" --smt -- ./no-such-program : "$PROGS/e2e_exit3"
	one_line 1 "-I prints one run's counts.*drop -r" -I 1 -r 2 "$PROGS/e2e_exit3"
	one_line 1 "-I prints one run's counts.*drop --exact" -I 1 --exact "$PROGS/e2e_exit3"
}

t default_shape default_shape
t big_num big_num
t csv_shape csv_shape
t json_shape json_shape
t identical_runs identical_runs
t repeat_variance repeat_variance
t multiplexing multiplexing
t per_thread per_thread
t intervals intervals
t smt_pair smt_pair
t default_names_are_events default_names_are_events
t exit_and_signal exit_and_signal
t exact_on_fault exact_on_fault
t failed_exec failed_exec
t append_output append_output
t miss_classes miss_classes
t wrong_path wrong_path
t l1_aliasing l1_aliasing
t detailed detailed
t errors errors
t null_and_hooks null_and_hooks
t stat_table stat_table
summary
