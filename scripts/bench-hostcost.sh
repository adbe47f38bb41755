#!/usr/bin/env bash
# bench-hostcost.sh — where the timed model's host time goes: host
# instructions per guest instruction, by part of vpmu, counted by
# cachegrind (exact and repeatable, unlike wall time on a shared machine).
#
#   scripts/bench-hostcost.sh [-a MACHINE[,MACHINE...]] [--] [PROGRAM ARGS...]
#
# Runs `vpmu stat` (its default events) on PROGRAM (default: bench_qsort
# 20000) under valgrind --tool=cachegrind, once timed on each MACHINE
# (default p4) and once with --no-timing, and prints for each run the host
# instructions per guest instruction of: the functional emulator
# (emu/x86), the pipeline (emu/uarch/model*: fetch, µops, windows, units,
# retirement, the walk down mispredicted paths), the memory system
# (caches, TLBs, bus), the branch predictors, the Linux layer and the PMU,
# and the rest (start-up, libraries).  The host runs this many times the instructions per
# emulated one; on an out-of-order host at a few instructions per cycle,
# the totals are what a speed-up has to cut.
#
# Environment: VPMU, PROGS (default build/vpmu, build/progs).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${VPMU:=$PWD/build/vpmu}" "${PROGS:=$PWD/build/progs}"
ARCH=p4
if [ "${1:-}" = -a ]; then
	ARCH=$2
	shift 2
fi
[ "${1:-}" = -- ] && shift
[ $# -gt 0 ] || set -- "$PROGS/bench_qsort" 20000
command -v valgrind >/dev/null || { echo "bench-hostcost.sh: valgrind is not installed" >&2; exit 1; }
[ -x "$VPMU" ] || { echo "bench-hostcost.sh: build vpmu first (make)" >&2; exit 1; }
export LC_ALL=C
WORK=$(mktemp -d "${TMPDIR:-/tmp}/vpmu-hostcost.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# the guest instructions, from the functional run's count
"$VPMU" stat -x, -o "$WORK/n" --no-timing -- "$@" >/dev/null
insns=$(awk -F, '$3 == "instructions" { print $1 }' "$WORK/n")
[ -n "$insns" ] && [ "$insns" -gt 0 ] || { echo "bench-hostcost.sh: no instruction count" >&2; exit 1; }

# one run: cachegrind's per-function counts of the process that emulates
# (the largest of vpmu's processes), summed by part, per guest instruction
# of that run (valgrind's environment reaches the guest, which then runs a
# few instructions more than without it)
cost() { # label vpmu-options...
	local label=$1 n
	shift
	rm -f "$WORK"/cg.*
	valgrind -q --tool=cachegrind --cache-sim=no --trace-children=yes \
		--cachegrind-out-file="$WORK/cg.%p" "$VPMU" stat -x, -o "$WORK/run" "$@" -- \
		"${PROG[@]}" >/dev/null 2>"$WORK/vg" </dev/null ||
		{ echo "bench-hostcost.sh: the $label run failed: $(tail -3 "$WORK/vg")" >&2; exit 1; }
	n=$(awk -F, '$3 == "instructions" { print $1 }' "$WORK/run")
	[ -n "$n" ] && [ "$n" -gt 0 ] || { echo "bench-hostcost.sh: the $label run counted no instructions" >&2; exit 1; }
	local f
	f=$(ls -S "$WORK"/cg.* | head -1)
	cg_annotate --auto=no --threshold=0 "$f" 2>/dev/null | awk -v n="$n" -v label="$label" '
		# "COUNT ( PCT%) FILE:FUNCTION"; inline code of a header counts
		# where it was inlined (the calendar of the units in uarch_retire)
		$2 ~ /^\(/ && $NF ~ /:/ {
			v = $1; gsub(",", "", v); what = $NF; fn = what; sub(/.*:/, "", fn)
			if (what ~ /emu\/x86\//) p = "emulator"
			else if (what ~ /emu\/uarch\/model/ || fn == "uarch_retire") p = "pipeline"
			else if (what ~ /emu\/uarch\/(memsys|cache|tlb|cal|mem)\./) p = "memory"
			else if (what ~ /emu\/uarch\/bpred/) p = "predictors"
			else if (what ~ /emu\/linux\/|arch\/|core\/pmu/) p = "linux+pmu"
			else p = "other"
			part[p] += v; all += v
		}
		END {
			printf "%-10s", label
			split("emulator pipeline memory predictors linux+pmu other", k, " ")
			for (i = 1; i <= 6; i++) printf " %10.1f", part[k[i]] / n
			printf " %10.1f\n", all / n
		}'
}

PROG=("$@")
printf '%s: %s guest instructions; host instructions per guest instruction\n' "$*" "$insns"
printf '%-10s %10s %10s %10s %10s %10s %10s %10s\n' run emulator pipeline memory predictors \
	linux+pmu other total
for a in ${ARCH//,/ }; do
	cost "$a" -a "$a"
done
cost functional --no-timing
