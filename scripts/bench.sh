#!/usr/bin/env bash
# bench.sh — guest MIPS of vpmu on CPU-bound workloads, next to a native
# run, valgrind --tool=none and valgrind --tool=cachegrind (cache and branch
# simulation, as the timing model does both), all measured in this run on
# this machine.
#
# The instruction count of a workload is the one vpmu stat reports (exact
# for the emulated processor); every runner's MIPS is that count divided
# by its own wall time, so the columns compare like with like.
#
# Environment: VPMU, PROGS (set by `make bench`); BENCH_SCALE=N divides
# the workload sizes by N for a quick look; BENCH_RUNNERS limits the runners
# (default "native vpmu vpmu-timed vpmu-record vg-none cachegrind"; vpmu is
# the functional mode, --no-timing, vpmu-timed the default run on the
# model, vpmu-record the default vpmu record: cycles sampled at 4000 Hz of
# emulated time into a sample file).  The recording overhead over
# vpmu-timed is printed after the table.  BENCH_REPEAT=N runs every runner
# on every workload N times, in N rounds, and takes each one's fastest
# run: wall times on a shared host vary by some 10% from run to run.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${VPMU:=$PWD/build/vpmu}" "${PROGS:=$PWD/build/progs}"
SCALE=${BENCH_SCALE:-1}
RUNNERS=${BENCH_RUNNERS:-native vpmu vpmu-timed vpmu-record vg-none cachegrind}
REPEAT=${BENCH_REPEAT:-1}
# a fixed hash seed: every runner, vpmu's included, runs the same python3
export LC_ALL=C PATH=/usr/bin:/bin PYTHONHASHSEED=0
WORK=$(mktemp -d "${TMPDIR:-/tmp}/vpmu-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

for t in valgrind gzip python3; do
	command -v $t >/dev/null || { echo "bench.sh: $t is not installed (scripts/deps.sh)" >&2; exit 1; }
done
[ -x "$VPMU" ] && [ -x "$PROGS/bench_qsort" ] || { echo "bench.sh: run 'make bench'" >&2; exit 1; }

# 20 MB (divided by SCALE) of text that compresses like real text
MB=$((20 / SCALE > 0 ? 20 / SCALE : 1))
awk -v n=$((MB * 1048576)) 'BEGIN {
	srand(1)
	split("the of and to in is that for it as with was on be by this are from or at", w)
	while (size < n) { line = ""
		for (i = 0; i < 12; i++) line = line w[1 + int(rand() * 20)] " " int(rand() * 1000) " "
		print line; size += length(line) + 1 }
}' | head -c $((MB * 1048576)) >"$WORK/input.txt"

QSORT_N=$((2000000 / SCALE))
PY_N=$((3000000 / SCALE))
declare -A CMD
CMD[qsort]="$PROGS/bench_qsort $QSORT_N"
CMD[gzip]="gzip -9 -c $WORK/input.txt"
CMD[python3]="python3 -c 'import sys
s = 0
for i in range($PY_N):
    s += (i * i) % 7 if i & 1 else i // 3
print(s)'"
ORDER="qsort gzip python3"
declare -A overhead against

now() { date +%s.%N; }

# run RUNNER WORKLOAD: wall seconds on stdout; vpmu's report kept in $WORK.
run() {
	local r=$1 w=$2 t0 t1
	t0=$(now)
	case $r in
	native) eval "${CMD[$w]}" >/dev/null ;;
	vpmu) eval "\"$VPMU\" stat --no-timing -o \"$WORK/$w.stat\" -- ${CMD[$w]}" >/dev/null ;;
	vpmu-timed) eval "\"$VPMU\" stat -o \"$WORK/$w.timed\" -- ${CMD[$w]}" >/dev/null ;;
	vpmu-record) eval "\"$VPMU\" record -q -o \"$WORK/$w.data\" -- ${CMD[$w]}" >/dev/null ;;
	vg-none) eval "valgrind -q --tool=none ${CMD[$w]}" >/dev/null ;;
	cachegrind) eval "valgrind -q --tool=cachegrind --branch-sim=yes --cachegrind-out-file=/dev/null ${CMD[$w]}" \
		>/dev/null 2>&1 ;;
	esac
	t1=$(now)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}

printf '%-8s %12s' "" ""
for r in $RUNNERS; do printf ' %22s' "$r"; done
printf '\n%-8s %12s' workload "insns (M)"
for r in $RUNNERS; do printf ' %8s %7s %6s' seconds MIPS x; done
printf '\n'
for w in $ORDER; do
	declare -A secs=()
	for ((k = 0; k < REPEAT; k++)); do
		for r in $RUNNERS; do
			[ "${secs[$r]:-}" = fail ] && continue
			if ! s=$(run "$r" "$w"); then
				secs[$r]=fail
			elif [ -z "${secs[$r]:-}" ] || awk -v a="$s" -v b="${secs[$r]}" 'BEGIN { exit !(a < b) }'; then
				secs[$r]=$s
			fi
		done
	done
	insns=0
	for f in "$WORK/$w.stat" "$WORK/$w.timed"; do
		if [ -s "$f" ]; then
			insns=$(awk '$2 == "instructions" { gsub(",", "", $1); print $1; exit }' "$f")
			break
		fi
	done
	printf '%-8s %12.1f' "$w" "$(awk -v i="${insns:-0}" 'BEGIN { print i / 1e6 }')"
	for r in $RUNNERS; do
		s=${secs[$r]}
		if [ "$s" = fail ]; then
			printf ' %22s' failed
			continue
		fi
		# seconds, guest MIPS, slowdown against native
		awk -v s="$s" -v i="${insns:-0}" -v n="${secs[native]:-0}" 'BEGIN {
			mips = s > 0 ? i / s / 1e6 : 0
			x = (n != "fail" && n > 0) ? s / n : 0
			printf " %8.2f %7.1f %5.1fx", s, mips, x }'
	done
	printf '\n'
	if [ -n "${secs[vpmu-timed]:-}" ] && [ -n "${secs[vpmu-record]:-}" ] &&
		[ "${secs[vpmu-timed]}" != fail ] && [ "${secs[vpmu-record]}" != fail ]; then
		overhead[$w]=$(awk -v t="${secs[vpmu-timed]}" -v r="${secs[vpmu-record]}" \
			'BEGIN { printf "%+.1f%%", (t > 0 ? 100 * (r - t) / t : 0) }')
		overhead[$w]="${overhead[$w]} ($(stat -c %s "$WORK/$w.data") bytes of samples)"
	fi
	if [ -n "${secs[vpmu-timed]:-}" ] && [ -n "${secs[cachegrind]:-}" ] &&
		[ "${secs[vpmu-timed]}" != fail ] && [ "${secs[cachegrind]}" != fail ]; then
		against[$w]=$(awk -v t="${secs[vpmu-timed]}" -v c="${secs[cachegrind]}" \
			'BEGIN { printf "%.3f", (t > 0 ? c / t : 0) }')
	fi
	unset secs
done
for w in $ORDER; do
	[ -n "${overhead[$w]:-}" ] && echo "recording overhead on $w (vpmu-record over vpmu-timed): ${overhead[$w]}"
done
for w in $ORDER; do
	if [ -n "${against[$w]:-}" ]; then
		echo "speed of the full p4 model on $w against cachegrind: ${against[$w]} (target 0.333)"
	fi
done
echo "MIPS: guest instructions (vpmu's count) per wall second; x: wall time / native wall time"
