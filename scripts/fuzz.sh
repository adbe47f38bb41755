#!/usr/bin/env bash
# fuzz.sh — build every libFuzzer harness tests/fuzz/fuzz_NAME.c with clang
# (-fsanitize=fuzzer,address,undefined) and run each for a while.
#
#   scripts/fuzz.sh [SECONDS] [NAME...]   SECONDS per harness (default 10)
#
# Each harness first replays its seed corpus tests/fuzz/corpus/NAME, then
# fuzzes for SECONDS with a working corpus in $BUILD/fuzz/NAME (seeded from
# the committed one, which is never written to unless FUZZ_MERGE=1: then
# new inputs that add coverage are merged back into tests/fuzz/corpus/NAME).
# A crash leaves its input in $BUILD/fuzz/crash-NAME-*; replay it with
#   $BUILD/fuzz/fuzz_NAME FILE
#
# What a harness is built from, in this order:
#   - lines `fuzz-sources: FILES` (globs allowed), `fuzz-libs: FLAGS`,
#     `fuzz-options: FLAGS` (libFuzzer's) and `fuzz-sanitize: FLAGS` (instead
#     of -fsanitize=fuzzer,address,undefined) anywhere in the harness;
#   - otherwise the .c files named on the `clang ...` command line of its
#     header comment, and that comment's -max_len option.
#
# Prints one line per harness and, last, "N passed, N failed".  Exit status
# 1 when a harness failed to build or found a crash; 0 with a notice when
# clang cannot build fuzzers here (nothing ran).
set -u
cd "$(dirname "$0")/.." || exit 1
SECONDS_EACH=10
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then
	SECONDS_EACH=$1
	shift
fi
BUILD=${BUILD:-build}
OUT=$BUILD/fuzz
CC=${FUZZ_CC:-clang}
mkdir -p "$OUT"

pass=0
fail=0

probe=$OUT/.probe.c
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){(void)d;(void)n;return 0;}' >"$probe"
if ! "$CC" -fsanitize=fuzzer,address,undefined -o "$OUT/.probe" "$probe" 2>/dev/null; then
	echo "fuzz: $CC cannot build libFuzzer programs here (Debian: apt-get install clang); skipped"
	echo "0 passed, 0 failed"
	exit 0
fi

# Value of a `fuzz-KEY:` line of file $1, empty when absent.
field() {
	sed -n "s/.*fuzz-$2:[[:space:]]*//p" "$1" | head -n1 | sed 's/[[:space:]]*\*\/.*//'
}

# .c files on the clang command of the header comment (backslash-continued).
comment_sources() {
	awk '/^[ *]*clang /{on=1} on{print; if ($0 !~ /\\[[:space:]]*$/) exit}' "$1" |
		tr -s ' \134' '\n' | grep -E '\.c$' | grep -v "^$1\$" || true
}

harnesses=()
if [ $# -gt 0 ]; then
	for n in "$@"; do harnesses+=("tests/fuzz/fuzz_$n.c"); done
else
	harnesses=(tests/fuzz/fuzz_*.c)
fi

for h in "${harnesses[@]}"; do
	name=$(basename "$h" .c)
	name=${name#fuzz_}
	bin=$OUT/fuzz_$name
	log=$OUT/$name.log
	if [ ! -f "$h" ]; then
		echo "fuzz_$name: no such harness $h: 0 passed, 1 failed"
		fail=$((fail + 1))
		continue
	fi
	srcs=$(field "$h" sources)
	libs=$(field "$h" libs)
	opts=$(field "$h" options)
	san=$(field "$h" sanitize)
	san=${san:--fsanitize=fuzzer,address,undefined}
	if [ -z "$srcs" ]; then
		srcs=$(comment_sources "$h" | tr '\n' ' ')
		libs=${libs:-}
		opts=${opts:-$(grep -o -- '-max_len=[0-9]*' "$h" | head -n1)}
	fi
	# shellcheck disable=SC2086 # word splitting (and globs) intended
	if ! "$CC" -std=gnu11 -g -O1 $san -I. \
		-o "$bin" "$h" $srcs $libs >"$log" 2>&1; then
		sed 's/^/    | /' "$log" | tail -n 20
		echo "fuzz_$name: build failed: 0 passed, 1 failed"
		fail=$((fail + 1))
		continue
	fi
	seeds=tests/fuzz/corpus/$name
	work=$OUT/$name
	mkdir -p "$work" "$seeds"
	cp -n "$seeds"/* "$work"/ 2>/dev/null
	export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
	export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
	# shellcheck disable=SC2086
	"$bin" $opts -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$OUT/crash-$name-" "$work" >"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n1)
	if [ $rc -ne 0 ]; then
		sed 's/^/    | /' "$log" | grep -v '^    | #' | tail -n 40
		crash=$(sed -n 's/.*Test unit written to \(.*\)/\1/p' "$log" | tail -n1)
		if [ -n "$crash" ]; then
			echo "fuzz_$name: CRASH after ${runs:-?} inputs, input in $crash: 0 passed, 1 failed"
		else
			echo "fuzz_$name: stopped with exit status $rc: 0 passed, 1 failed"
		fi
		fail=$((fail + 1))
		continue
	fi
	if [ "${FUZZ_MERGE:-0}" = 1 ]; then
		# shellcheck disable=SC2086
		"$bin" $opts -merge=1 "$seeds" "$work" >>"$log" 2>&1
	fi
	echo "fuzz_$name: ${runs:-?} inputs in ${SECONDS_EACH}s, ${cov:-cov: ?}, corpus $(find "$work" -type f | wc -l): 1 passed, 0 failed"
	pass=$((pass + 1))
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
