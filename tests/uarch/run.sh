#!/usr/bin/env bash
# run.sh BUILD — the cache model against cachegrind.
#
# For each freestanding program tests/progs/cg_*_nolibc.c and each I1/D1/LL
# geometry below, run the program under `valgrind --tool=cachegrind` and
# under cgsim (tests/uarch/cgsim.c: the emulator feeding emu/uarch/cache.c
# caches the way cachegrind feeds its own), and require the nine totals
# (Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw), the program's output and its
# exit status to be identical.  Skipped, with a message, when valgrind is
# not installed.  Last line: "N passed, N failed"; exit status 1 on failure.
set -u
cd "$(dirname "$0")/../.." || exit 2
BUILD=${1:-${BUILD:-build}}
OUT=$BUILD/uarch
CGSIM=$OUT/cgsim
PROGS=(cg_stride_nolibc cg_chase_nolibc cg_transpose_nolibc cg_icache_nolibc)
# I1 D1 LL, each SIZE,ASSOC,LINE as cachegrind takes them
GEOMS=(
	"32768,8,64 32768,8,64 262144,8,64"
	"8192,4,64 8192,4,64 2097152,16,64"
	"1024,2,64 1024,2,64 262144,8,64"
	"4096,1,32 4096,1,32 65536,4,64"
	"2048,32,64 2048,32,64 131072,2,128"
	"16384,4,128 8192,2,32 1048576,8,128"
)

if ! command -v valgrind >/dev/null 2>&1; then
	echo "cachegrind comparison skipped: valgrind is not installed"
	echo "0 passed, 0 failed"
	exit 0
fi

mkdir -p "$OUT"
targets=("$BUILD/libvpmu.a")
for p in "${PROGS[@]}"; do targets+=("$BUILD/progs/$p"); done
if ! make -s BUILD="$BUILD" "${targets[@]}" >"$OUT/make.log" 2>&1; then
	cat "$OUT/make.log"
	echo "0 passed, 1 failed"
	exit 1
fi
if [ ! -x "$CGSIM" ] || [ tests/uarch/cgsim.c -nt "$CGSIM" ] || [ "$BUILD/libvpmu.a" -nt "$CGSIM" ]; then
	if ! ${CC:-gcc} -O2 -g -fno-lto -std=gnu11 -Wall -Wextra -I. -o "$CGSIM" tests/uarch/cgsim.c \
		"$BUILD/libvpmu.a" -lZydis -lZycore -lm; then
		echo "0 passed, 1 failed"
		exit 1
	fi
fi

pass=0 fail=0
for g in "${GEOMS[@]}"; do
	read -r i1 d1 ll <<<"$g"
	for p in "${PROGS[@]}"; do
		bin=$BUILD/progs/$p
		tag="$p I1=$i1 D1=$d1 LL=$ll"
		rm -f "$OUT/vg.out" "$OUT/cg.out"
		valgrind --tool=cachegrind --cache-sim=yes --I1="$i1" --D1="$d1" --LL="$ll" \
			--cachegrind-out-file="$OUT/vg.out" "$bin" >"$OUT/vg.stdout" 2>"$OUT/vg.log"
		vrc=$?
		"$CGSIM" --I1="$i1" --D1="$d1" --LL="$ll" -o "$OUT/cg.out" "$bin" >"$OUT/cg.stdout" \
			2>"$OUT/cg.log"
		crc=$?
		want=$(sed -n 's/^summary: *//p' "$OUT/vg.out" 2>/dev/null)
		got=$(sed -n 's/^summary: *//p' "$OUT/cg.out" 2>/dev/null)
		status=$(sed -n 's/^status: *//p' "$OUT/cg.out" 2>/dev/null)
		if [ -z "$want" ]; then
			echo "FAIL $tag: cachegrind produced no summary (exit $vrc)"
			tail -n 3 "$OUT/vg.log"
			fail=$((fail + 1))
		elif [ "$crc" -ne 0 ] || [ -z "$got" ]; then
			echo "FAIL $tag: cgsim failed (exit $crc)"
			cat "$OUT/cg.log"
			fail=$((fail + 1))
		elif [ "$want" != "$got" ]; then
			echo "FAIL $tag"
			echo "  events:     Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw"
			echo "  cachegrind: $want"
			echo "  cgsim:      $got"
			fail=$((fail + 1))
		elif ! cmp -s "$OUT/vg.stdout" "$OUT/cg.stdout" || [ "$status" != "$vrc" ]; then
			echo "FAIL $tag: program output or exit status differ ($vrc vs $status)"
			fail=$((fail + 1))
		else
			echo "ok   $tag: $got"
			pass=$((pass + 1))
		fi
	done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
