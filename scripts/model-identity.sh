#!/usr/bin/env bash
# model-identity.sh — whether two builds of vpmu count alike: every model
# event (vpmu stat -v) of a set of workloads on all five machines, a
# two-thread and a two-program SMT run, and the reports and samples of
# PEBS, ProfileMe and ia64 (EARs, BTB) sample files, from OLD and NEW,
# compared line by line but for wall-clock figures.  A change meant only to make vpmu faster
# must leave every one alone.
#
#   scripts/model-identity.sh OLD_VPMU [NEW_VPMU]
#
# NEW_VPMU defaults to build/vpmu; build OLD_VPMU from an earlier commit
# (git worktree add /tmp/old COMMIT && make -C /tmp/old).  Each build runs
# as a copy at the same path, in the same directory, with the same few
# environment variables (what a guest finds in its environment moves its
# stack and feeds its hashes), and time system calls report emulated time
# (--vtime: the host's clock would reach the registers that mispredicted
# paths form addresses from).  Prints what differs; exits 1 if anything
# does.
#
# Environment: PROGS (default build/progs).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: scripts/model-identity.sh OLD_VPMU [NEW_VPMU]" >&2; exit 2; }
for b in "$@"; do
	if [ ! -f "$b" ] || [ ! -x "$b" ]; then
		echo "model-identity.sh: $b is not an executable" >&2
		exit 2
	fi
done
OLD=$(realpath "$1")
NEW=$(realpath "${2:-$(dirname "$0")/../build/vpmu}")
cd "$(dirname "$0")/.."
: "${PROGS:=$PWD/build/progs}"
if [ ! -x /bin/gzip ] || [ ! -x /usr/bin/python3 ]; then
	echo "model-identity.sh: /bin/gzip and /usr/bin/python3 are needed (scripts/deps.sh)" >&2
	exit 2
fi
export LC_ALL=C
WORK=$(mktemp -d "${TMPDIR:-/tmp}/vpmu-identity.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# 300 KB of text that compresses like prose
awk 'BEGIN { srand(1); w = "alpha beta gamma delta epsilon zeta eta theta"
	for (i = 0; i < 6000; i++) { s = ""
		for (j = 0; j < 8; j++) s = s substr(w, 1 + int(rand() * 40), 5) " "
		print s } }' >"$WORK/in.txt"

# run VPMU OUT: every workload, its outputs in directory OUT
run() {
	local v=$WORK/bin/vpmu out=$2 p=$PROGS in=$WORK/in.txt a
	cp "$1" "$v"
	rm -rf "$WORK/run"
	mkdir -p "$WORK/run" "$out"
	cd "$WORK/run"
	# the guest's environment: these variables alone
	local env=(env -i PATH=/usr/bin:/bin LC_ALL=C HOME=/)
	st() { "${env[@]}" "$v" stat -v --vtime "$@" >/dev/null 2>&1 || true; }
	for a in p4 alpha xscale xscale2 ia64; do
		st -a $a -o $a.qsort -- "$p/bench_qsort" 20000
		st -a $a -o $a.gzip -- /bin/gzip -9 -c "$in"
		st -a $a -o $a.wp -- "$p/ua_wrongpath_nolibc"
		st -a $a -o $a.wbuf -- "$p/xs_wbuf_nolibc"
		st -a $a -o $a.fsb -- "$p/fsb_stream"
		st -a $a -o $a.chase -- "$p/ua_chase"
		st -a $a -o $a.exit3 -- "$p/e2e_exit3"
		# (vpmu ends as its guest did: by the signal)
		(st -a $a -o $a.segv -- "$p/e2e_segv") 2>/dev/null
	done
	st -o p4.python -- /usr/bin/python3 -c 'x = 0
for i in range(30000): x += i * i
print(x)'
	st --smt -o p4.smt -- "$p/lx_threads"
	st --smt -o p4.corun -- "$p/ua_fpadd" : "$p/ua_l1miss"
	st -a xscale --mode data-cache-efficiency -o xscale.mode -- "$p/bench_qsort" 20000
	st -e cycles,instructions,branch-misses,cache-misses,LLC-load-misses,dTLB-load-misses \
		-o p4.generic -- /bin/gzip -9 -c "$in"
	rec() { # name record-args...
		local n=$1
		shift
		"${env[@]}" "$v" record -q --vtime -o "$n.data" "$@" >/dev/null 2>&1 || true
		"$v" report -i "$n.data" --stdio >"$n.report" 2>&1 || true
		# every sample (not its pid)
		"$v" script -i "$n.data" -F event,period,ip,sym,addr,brstack >"$n.script" 2>&1 || true
	}
	rec p4.pebs -e mem_load_retired:pp -- "$p/bench_qsort" 20000
	rec alpha.profileme -a alpha -- "$p/bench_qsort" 20000
	rec ia64.ear -a ia64 -- /bin/gzip -9 -c "$in"
	# the EARs and the BTB take their events one by one, the counters
	# beside them sums: freezes must stop both alike
	rec ia64.dear -a ia64 -e DATA_EAR_EVENTS,cycles -- /bin/gzip -9 -c "$in"
	rec ia64.brev -a ia64 -e BRANCH_EVENT,DATA_EAR_EVENTS -F 20000 -- "$p/bench_qsort" 20000
	rec ia64.brstack -a ia64 -b -- /bin/gzip -9 -c "$in"
	rm -f ./*.data
	mv ./* "$out"
}

mkdir -p "$WORK/bin"
run "$OLD" "$WORK/a/out"
run "$NEW" "$WORK/b/out"
# wall-clock figures, and the pids a process's end is reported with
drop='seconds (time elapsed|user|sys)|guest MIPS|guest process [0-9]+|Captured and wrote'
differ=0
if ! diff <(ls "$WORK/a/out") <(ls "$WORK/b/out") >"$WORK/d"; then
	echo "== outputs written"
	cat "$WORK/d"
	differ=1
fi
for f in "$WORK"/a/out/*; do
	n=$(basename "$f")
	[ -f "$WORK/b/out/$n" ] || continue
	if ! diff <(grep -Ev "$drop" "$f") <(grep -Ev "$drop" "$WORK/b/out/$n") >"$WORK/d"; then
		echo "== $n"
		head -20 "$WORK/d"
		differ=1
	fi
done
count=$(find "$WORK/a/out" -type f | wc -l)
if [ $differ = 0 ]; then
	echo "model-identity.sh: all $count outputs alike"
else
	echo "model-identity.sh: outputs differ" >&2
fi
exit $differ
