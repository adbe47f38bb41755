# lib.sh — helpers for the whole-command tests (sourced by tests/e2e/run-*.sh).
#
# A test is a shell function; `t NAME FUNCTION` runs it in a subshell with
# a fresh scratch directory as cwd and counts it: it passes when it returns
# 0 and never called `fail`, and fails with what it printed otherwise.
# `summary` prints the closing "N passed, N failed" line and sets the exit
# status.

: "${VPMU:?VPMU must name the vpmu binary}"
: "${PROGS:?PROGS must name the directory of built guest programs}"
export LC_ALL=C TZ=UTC
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
e2e_pass=0
e2e_fail=0
e2e_failed=""
E2E_SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/vpmu-e2e.XXXXXX")
trap 'rm -rf "$E2E_SCRATCH"' EXIT

t() { # name function [args]
	local name=$1 fn=$2 dir out rc
	dir=$E2E_SCRATCH/$name
	mkdir -p "$dir"
	shift 2
	out=$( (cd "$dir" && E2E_MARK=$dir/.failed "$fn" "$@") 2>&1)
	rc=$?
	if [ $rc -eq 0 ] && [ ! -e "$dir/.failed" ]; then
		e2e_pass=$((e2e_pass + 1))
		echo "ok   $name"
	else
		e2e_fail=$((e2e_fail + 1))
		e2e_failed="$e2e_failed $name"
		echo "FAIL $name"
		[ -n "$out" ] && printf '%s\n' "$out" | head -n 20 | sed 's/^/     /'
	fi
	return 0
}

summary() {
	[ -n "$e2e_failed" ] && echo "failed:$e2e_failed"
	echo "$e2e_pass passed, $e2e_fail failed"
	[ "$e2e_fail" -eq 0 ]
}

# fail MESSAGE: print, mark the running test failed (whatever it returns
# afterwards) and return 1; use as `cond || fail "why"`.
fail() {
	echo "$*"
	: >"${E2E_MARK:-/dev/null}"
	return 1
}

# run_vpmu ARGS...: vpmu with a timeout; stdout, stderr into out, err; rc.
run_vpmu() {
	timeout -k 5 "$E2E_TIMEOUT" "$VPMU" "$@" >out 2>err </dev/null
	rc=$?
	return 0
}

# count NAME FILE: the value of counter NAME in a `vpmu stat` report.
count() {
	awk -v n="$1" '$2 == n { gsub(",", "", $1); print $1; exit }' "$2"
}

expect_rc() { # want
	[ "$rc" -eq "$1" ] || fail "exit status $rc, expected $1; stderr: $(head -c 600 err)"
}
