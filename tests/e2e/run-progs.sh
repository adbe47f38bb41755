#!/usr/bin/env bash
# run-progs.sh — every guest program in tests/progs (signals, threads,
# fork/exec, self-modifying code, faults, long double, SSE math, ...) must
# behave under vpmu exactly as natively: same stdout bytes, same exit
# status (a death by signal included).  One test per program.
#
# Programs named e2e_* (whole-command tests), bench_* (benchmarks) and
# example are run by other suites.  Environment: VPMU, PROGS.
set -u
cd "$(dirname "$0")/../.." || exit 1
E2E_TIMEOUT=${E2E_TIMEOUT:-120}
. tests/e2e/lib.sh

prog() { # path
	local p=$1 n=${1##*/} nrc vrc
	# output capped so a runaway program cannot fill the disk
	timeout -k 5 "$E2E_TIMEOUT" "$p" </dev/null 2>native.err | head -c 64M >native
	nrc=${PIPESTATUS[0]}
	timeout -k 5 "$E2E_TIMEOUT" "$VPMU" stat -o /dev/null -- "$p" </dev/null 2>vpmu.err |
		head -c 64M >vpmu
	vrc=${PIPESTATUS[0]}
	[ "$nrc" -eq "$vrc" ] ||
		fail "$n: exit status $vrc under vpmu, $nrc natively; $(head -c 600 vpmu.err)" ||
		return 1
	cmp -s native vpmu ||
		fail "$n: stdout differs: $(diff native vpmu | head -n 8)"
}

for p in "$PROGS"/*; do
	n=${p##*/}
	case $n in
	e2e_* | bench_* | example) continue ;;
	esac
	[ -f "$p" ] && [ -x "$p" ] || continue
	eval "test_$n() { prog \"$p\"; }"
	t "$n" "test_$n"
done
summary
