#!/usr/bin/env bash
# run.sh — build and run the differential instruction tests.
#
#   tests/diff/run.sh [BUILD-DIR] [diff options: -n CASES -f SUBSTRING -v]
#
# Links the test program against BUILD-DIR/libvpmu.a (made first if it is
# missing) and runs it.  The last line is "N passed, N failed" over forms.
set -eu
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
	BUILD=$1
	shift
fi
lib=$BUILD/libvpmu.a
if [ ! -f "$lib" ]; then
	make -s BUILD="$BUILD" "$lib"
fi
out=$BUILD/diff
mkdir -p "$out"
${CC:-gcc} -O2 -g -std=gnu11 -Wall -Wextra -I. -o "$out/diff" \
	tests/diff/*.c tests/diff/*.S "$lib" \
	-lZydis -lZycore -ldw -lelf -lunwind-x86_64 -lunwind -lz -lstdc++ -lpthread -lm
exec "$out/diff" "$@"
