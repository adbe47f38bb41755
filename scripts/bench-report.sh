#!/usr/bin/env bash
# bench-report.sh — how long vpmu report takes on a million samples.
#
# tests/tools/mkdata.c writes a file of 1,000,000 samples at pseudo-random
# addresses over the whole .text of the vpmu binary itself (about a
# quarter of a million distinct addresses, far more than a real profile
# has, so the resolution cache is tested at its worst), then report runs
# with the default keys, with srcline (DWARF lines), and with -g on a
# second file whose samples carry four-frame call chains.  Prints the
# seconds of each run; the target is under 2 s for the default report.
#
# Environment: BUILD (default build, with libvpmu.a and vpmu), N (samples).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
N=${N:-1000000}
VPMU=$PWD/$BUILD/vpmu
export LC_ALL=C
WORK=$(mktemp -d "${TMPDIR:-/tmp}/vpmu-bench-report.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

make -s "$BUILD/vpmu" "$BUILD/libvpmu.a"
gcc -O2 -fno-lto -std=gnu11 -I. -o "$WORK/mkdata" tests/tools/mkdata.c "$BUILD/libvpmu.a" \
	-lZydis -lZycore -ldw -lelf -lz -lstdc++ -lpthread -lm

START=0x555555554000
read -r taddr tsize < <(readelf -SW "$VPMU" | sed 's/^ *\[ *[0-9]*\] *//' |
	awk '$1 == ".text" { print $3, $5 }')
lo=$((START + 0x$taddr))
hi=$((lo + 0x$tsize))
head() {
	printf 'machine p4 mhz=3600\nattr 0 cycles 0 0x40 1000\ncomm 1 1 vpmu\n'
	printf 'mmap 1 %s 0x1000000 %s\n' "$START" "$VPMU"
}
{ head; echo "spread $N 0 1 $lo $hi 1000"; } | "$WORK/mkdata" "$WORK/flat.data"
{ head; echo "spread $N 0 1 $lo $hi 1000 4"; } | "$WORK/mkdata" "$WORK/chain.data"

run() { # label args...
	local label=$1 t0 t1
	shift
	t0=$(date +%s.%N)
	"$VPMU" report "$@" >"$WORK/out"
	t1=$(date +%s.%N)
	grep -q "^# Samples: $N of event" "$WORK/out" || { echo "bench-report.sh: $label: wrong output" >&2; exit 1; }
	printf '%-28s %6.2f s\n' "$label" "$(echo "$t1 - $t0" | bc -l)"
}
echo "vpmu report on $N samples ($(stat -c %s "$WORK/flat.data") bytes):"
run "report (comm,dso,sym)" -i "$WORK/flat.data"
run "report --sort srcline" -i "$WORK/flat.data" --sort srcline
run "report -g (4 frames)" -i "$WORK/chain.data" -g --no-children --sort sym
