#!/usr/bin/env bash
# run-check.sh — run every test suite `make check` knows and print each
# runner's closing line, then the aggregate "N passed, N failed" as the
# last line.  Exit status 1 when anything failed.
#
# Environment (set by the Makefile): BUILD, VPMU (the binary), VPMU_CLANG
# (the same built by clang with UBSan; unset: not run), PROGS (the built
# guest programs).  Every runner's full output is kept in $BUILD/logs/; a
# failing runner's output is also shown.
set -u
BUILD=${BUILD:-build}
export VPMU=${VPMU:-$PWD/$BUILD/vpmu} PROGS=${PROGS:-$PWD/$BUILD/progs} BUILD
LOGS=$BUILD/logs
mkdir -p "$LOGS"
total_pass=0
total_fail=0

# Count from a runner's log: cmocka's summary, else the last
# "N passed, N failed" line.  A runner that printed neither failed as a whole.
tally() { # name log rc
	local name=$1 log=$2 rc=$3 run pass fail skip line
	run=$(sed -n 's/^\[==========\] \([0-9]*\) test(s) run\..*/\1/p' "$log" | tail -n1)
	if [ -n "$run" ]; then
		pass=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s)\..*/\1/p' "$log" | tail -n1)
		skip=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test(s)[.,].*/\1/p' "$log" | tail -n1)
		pass=${pass:-0}
		fail=$((run - pass - ${skip:-0}))
		line=$(grep -E '^\[  PASSED  \]' "$log" | tail -n1)
		line=${line:-"[  PASSED  ] 0 test(s)."}
		if [ "$fail" -gt 0 ]; then
			line="$line [  FAILED  ] $fail:$(sed -n 's/^\[  FAILED  \] \([A-Za-z_0-9]*\)$/ \1/p' "$log" |
				sort -u | tr -d '\n')"
		fi
	else
		line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$log" | tail -n1)
		if [ -n "$line" ]; then
			pass=$(sed -E 's/.*\b([0-9]+) passed, ([0-9]+) failed.*/\1/' <<<"$line")
			fail=$(sed -E 's/.*\b([0-9]+) passed, ([0-9]+) failed.*/\2/' <<<"$line")
		else
			pass=0 fail=1 line="(no summary line; exit status $rc)"
		fi
	fi
	# A runner that died after its summary (or crashed in teardown) failed.
	if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
		fail=1
		line="$line (exit status $rc)"
	fi
	if [ "$fail" -ne 0 ]; then
		sed 's/^/    | /' "$log" | tail -n 60
	fi
	printf '%-34s %s\n' "$name:" "$line"
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
}

run() { # name timeout-seconds command...
	local name=$1 t=$2 log rc
	shift 2
	log=$LOGS/$(tr '/ ' '__' <<<"$name").log
	timeout -k 10 "$t" "$@" >"$log" 2>&1 </dev/null
	rc=$?
	[ $rc -eq 124 ] && echo "timed out after ${t}s" >>"$log"
	tally "$name" "$log" $rc
}

export CMOCKA_MESSAGE_OUTPUT=stdout
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:print_summary=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

for t in "$BUILD"/unit/test_*; do
	[ -x "$t" ] || continue
	run "unit/${t##*/}" 300 "$t"
done
for t in "$BUILD"/san/unit/test_*; do
	[ -x "$t" ] || continue
	run "unit-asan/${t##*/}" 600 "$t"
done
if [ -x tests/diff/run.sh ]; then
	run "diff" 900 tests/diff/run.sh
fi
if [ -x scripts/fuzz.sh ]; then
	run "fuzz" 600 scripts/fuzz.sh 10
fi
if [ -x tests/uarch/run.sh ]; then
	run "uarch/cachegrind" 600 tests/uarch/run.sh "$BUILD"
fi
if [ -x tests/uarch/run-timing.sh ]; then
	run "uarch/timing" 900 tests/uarch/run-timing.sh
fi
# every suite, executable bit or not: a suite skipped silently is a gap
for t in tests/e2e/run-*.sh; do
	n=${t##*/run-}
	run "e2e/${n%.sh}" 900 bash "$t"
done
# the program comparisons and the random code again on vpmu built by clang
# with the undefined-behaviour sanitizer (the Makefile's second compiler)
if [ -n "${VPMU_CLANG:-}" ]; then
	for n in progs hardening; do
		run "e2e-clang/$n" 900 env VPMU="$VPMU_CLANG" bash tests/e2e/run-$n.sh
	done
fi

echo "$total_pass passed, $total_fail failed" | tee "$LOGS/summary"
[ "$total_fail" -eq 0 ]
