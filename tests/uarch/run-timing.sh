#!/usr/bin/env bash
# run-timing.sh — the timing model against microbenchmarks with known
# answers (issue: "Time the emulated machine"):
#   - latency ladder: a pointer chase shows each level's configured
#     latency within 5%, on each of the four machines;
#   - dependent FP adds on p4 retire one per 5 cycles, independent ones
#     reach the adder's throughput (one per cycle);
#   - SMT (seed 004, "Benchmark results"): two copies of fp_add_latency in
#     dual-thread mode about double the combined µops per cycle; two copies
#     of l1_miss lose combined throughput; a thread's halted processor
#     resumes where the other stands when its thread is created or wakes
#     (woken, timed out or interrupted by a signal);
#   - branch predictors on guest programs: an alternating branch defeats a
#     2-bit counter and not gshare;
#   - wrong-path execution: loads shadowed by a mispredicted branch miss
#     the cache speculatively far more often than retired loads do;
#   - store forwarding on p4 and alpha: a load only partly overlapping the
#     store before it waits for the store's write, once per iteration;
#   - p4's hardware prefetchers read a sequential stream ahead, faster
#     than on demand; for a stride past the trigger distance the stream
#     prefetcher reads nothing, the adjacent-line fetch a sector a miss;
#   - the same run twice gives identical counts, also for a shell running
#     processes one after another (in a pid namespace, with --vtime);
#   - under --vtime, a parent waiting with no timeout for an answer from
#     a child it keeps running goes on when the answer comes;
#   - random machine descriptions (tests/tools/model_fuzz.py, a fixed
#     draw): each is refused with one line or runs the program as natively,
#     retiring its functional instruction count, the same way twice; a
#     quarter are recorded instead, and the sample file read back.
# Every figure comes from the difference of two runs that differ only in
# the length of the timed loop, so start-up costs cancel exactly.
#
#   tests/uarch/run-timing.sh   (VPMU and PROGS from the environment)
set -u
: "${VPMU:?VPMU must name the vpmu binary}" "${PROGS:?PROGS must name the guest programs}"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/vpmu-timing.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
pass=0 failn=0 failed=""

ok() { echo "ok   $1${2:+: $2}"; pass=$((pass + 1)); }
bad() { echo "FAIL $1: $2"; failn=$((failn + 1)); failed="$failed $1"; }

# stat OUT ARGS...: run vpmu stat -v, the counts into OUT
stat() {
	local out=$1
	shift
	"$VPMU" stat -v -o "$out" "$@" >/dev/null 2>"$WORK/stderr" || {
		echo "vpmu stat $* failed: $(cat "$WORK/stderr")" >&2
		return 1
	}
}
# ev NAME FILE [CPU]: an event from the per-processor table (CPU 0, 1, or both)
ev() {
	awk -v n="$1" -v c="${3:-both}" '$1 == n && NF == 3 {
		gsub(/,/, "", $2); gsub(/,/, "", $3)
		print (c == "0" ? $2 : c == "1" ? $3 : $2 + $3); exit }' "$2"
}
# param KEY FILE: a machine parameter from -v
param() { awk -v k="$1" '$1 == k { print $2; exit }' "$2"; }
# delta NAME A B [CPU]
delta() { echo $(($(ev "$1" "$3" "${4:-both}") - $(ev "$1" "$2" "${4:-both}"))); }
# within VALUE WANT PERCENT
within() { awk -v v="$1" -v w="$2" -v p="$3" 'BEGIN { d = v - w; if (d < 0) d = -d; exit !(d <= w * p / 100) }'; }

# ---- latency ladder -------------------------------------------------------
# The chase's cycles are split over the levels its loads were served from
# (the model's own hit counts per level), the other levels at their
# configured latency; what is left per access of the level under test is
# its latency as the program sees it.  Pages of 1 GB keep TLB misses out.
ladder() { # machine
	local m=$1 big="--set dtlb.page=1G,dtlb2.page=1G" a b ws level
	stat "$WORK/p" -a "$m" $big /bin/true || return
	local l1=$(param l1d.size "$WORK/p") l2=$(param l2.size "$WORK/p") l3=$(param l3.size "$WORK/p")
	local lat1=$(param l1d.latency "$WORK/p") lat2=$(param l2.latency "$WORK/p")
	local lat3=$(param l3.latency "$WORK/p") latm=$(param mem.latency "$WORK/p")
	local levels="l1:$((l1 / 2))"
	if [ "$l2" -gt 0 ]; then levels="$levels l2:$((l2 / 2))"; fi
	if [ "$l3" -gt 0 ]; then levels="$levels l3:$((l3 / 2))"; fi
	local last=$l3
	[ "$last" -gt 0 ] || last=$l2
	[ "$last" -gt 0 ] || last=$l1
	levels="$levels mem:$((last * 8 > 67108864 ? last * 8 : 67108864))"
	for lv in $levels; do
		level=${lv%%:*} ws=${lv#*:}
		stat "$WORK/a" -a "$m" $big "$PROGS/ua_chase" "$ws" 20000 &&
			stat "$WORK/b" -a "$m" $big "$PROGS/ua_chase" "$ws" 60000 || {
			bad "ladder_${m}_$level" "vpmu failed"
			continue
		}
		local n=40000 cyc m1 m2 m3 h1 h2 h3 hm want hits rest
		cyc=$(delta cycles "$WORK/a" "$WORK/b")
		m1=$(delta L1-dcache-load-misses "$WORK/a" "$WORK/b")
		# (an absent level is not counted: it passes every miss on)
		m2=$m1
		[ "$l2" -gt 0 ] && m2=$(delta l2-misses "$WORK/a" "$WORK/b")
		m3=$m2
		[ "$l3" -gt 0 ] && m3=$(delta l3-misses "$WORK/a" "$WORK/b")
		h1=$((n - m1)) h2=$((m1 - m2)) h3=$((m2 - m3))
		hm=$m3
		case $level in
		l1) want=$lat1 hits=$h1 rest=$((h2 * lat2 + h3 * lat3 + hm * latm)) ;;
		l2) want=$lat2 hits=$h2 rest=$((h1 * lat1 + h3 * lat3 + hm * latm)) ;;
		l3) want=$lat3 hits=$h3 rest=$((h1 * lat1 + h2 * lat2 + hm * latm)) ;;
		mem) want=$latm hits=$hm rest=$((h1 * lat1 + h2 * lat2 + h3 * lat3)) ;;
		esac
		if [ "$hits" -lt $((n / 2)) ]; then
			bad "ladder_${m}_$level" "only $hits of $n loads served by $level (ws $ws)"
			continue
		fi
		local got
		got=$(awk -v c="$cyc" -v r="$rest" -v h="$hits" 'BEGIN { printf "%.2f", (c - r) / h }')
		if within "$got" "$want" 5; then
			ok "ladder_${m}_$level" "ws $ws: $got cycles (configured $want; $hits/$n loads there)"
		else
			bad "ladder_${m}_$level" "ws $ws: $got cycles, configured $want ($hits/$n loads there)"
		fi
	done
}

# ---- FP adds ---------------------------------------------------------------
fpadd() {
	stat "$WORK/a" -a p4 "$PROGS/ua_fpadd" dep 20000 &&
		stat "$WORK/b" -a p4 "$PROGS/ua_fpadd" dep 40000 || { bad fpadd_dep "vpmu failed"; return; }
	local cyc=$(delta cycles "$WORK/a" "$WORK/b") uops=$(delta uops "$WORK/a" "$WORK/b")
	local per=$(awk -v c="$cyc" 'BEGIN { printf "%.3f", c / 320000 }')
	local upc=$(awk -v c="$cyc" -v u="$uops" 'BEGIN { printf "%.3f", u / c }')
	if within "$per" 5 2; then
		ok fpadd_dep "$per cycles per dependent add, $upc µops/cycle (seed: 0.21)"
	else
		bad fpadd_dep "$per cycles per dependent add, want 5"
	fi
	stat "$WORK/a" -a p4 "$PROGS/ua_fpadd" indep 20000 &&
		stat "$WORK/b" -a p4 "$PROGS/ua_fpadd" indep 40000 || { bad fpadd_indep "vpmu failed"; return; }
	cyc=$(delta cycles "$WORK/a" "$WORK/b")
	per=$(awk -v c="$cyc" 'BEGIN { printf "%.3f", 320000 / c }')
	local units=$(param core.units.fadd "$WORK/b") occ=$(param core.occupy.fadd "$WORK/b")
	local peak=$(awk -v u="$units" -v o="$occ" 'BEGIN { printf "%.3f", u / o }')
	if within "$per" "$peak" 2; then
		ok fpadd_indep "$per independent adds per cycle (adder throughput $peak)"
	else
		bad fpadd_indep "$per independent adds per cycle, adder throughput $peak"
	fi
}

# ---- SMT ------------------------------------------------------------------
# combined µops per cycle of the timed loops, one copy and two copies
smt_upc() { # out-var program args-short args-long threads
	local a=$WORK/sa b=$WORK/sb
	stat "$a" -a p4 --smt "$PROGS/$2" $3 "$5" && stat "$b" -a p4 --smt "$PROGS/$2" $4 "$5" || return 1
	local u=$(($(delta uops "$a" "$b" 0) + $(delta uops "$a" "$b" 1)))
	local c0=$(delta cycles "$a" "$b" 0) c1=$(delta cycles "$a" "$b" 1)
	local c=$((c0 > c1 ? c0 : c1))
	printf -v "$1" '%s' "$(awk -v u="$u" -v c="$c" 'BEGIN { printf "%.3f", u / c }')"
}

smt() {
	local one two
	if smt_upc one ua_fpadd "dep 20000" "dep 40000" 1 && smt_upc two ua_fpadd "dep 20000" "dep 40000" 2; then
		if awk -v a="$one" -v b="$two" 'BEGIN { exit !(b > 1.8 * a && b < 2.2 * a) }'; then
			ok smt_fpadd "one copy $one, two copies $two µops/cycle combined (seed: 0.21 → 0.41)"
		else
			bad smt_fpadd "one copy $one, two copies $two µops/cycle: not about double"
		fi
	else
		bad smt_fpadd "vpmu failed"
	fi
	# each copy sweeps 1.25 MB: one fits the 2 MB L2, two do not
	if smt_upc one ua_l1miss "1310720 4" "1310720 8" 1 && smt_upc two ua_l1miss "1310720 4" "1310720 8" 2; then
		if awk -v a="$one" -v b="$two" 'BEGIN { exit !(b < a) }'; then
			ok smt_l1miss "one copy $one, two copies $two µops/cycle combined (seed: 1.23 → 0.65)"
		else
			bad smt_l1miss "one copy $one, two copies $two µops/cycle: two copies did not lose"
		fi
	else
		bad smt_l1miss "vpmu failed"
	fi
	# the second thread's processor is halted until the thread is
	# created: its cycles are the thread's own 320,000 dependent adds
	# (5 cycles each, and its start and exit), the time before are
	# halted cycles, and the emulated time is the later processor's
	# cycles and halted cycles
	local a=$WORK/sh c1 h1 end
	stat "$a" -a p4 --smt "$PROGS/ua_fpadd" dep 20000 2 || { bad smt_halted "vpmu failed"; return; }
	c1=$(ev cycles "$a" 1) h1=$(ev halted-cycles "$a" 1)
	end=$(awk -v mhz="$(param core.mhz "$a")" '/seconds emulated time/ { printf "%.0f", $1 * mhz * 1e6 }' "$a")
	[ -n "$c1" ] && [ -n "$h1" ] && [ -n "$end" ] || { bad smt_halted "no cycles or halted cycles"; return; }
	local e0=$(($(ev cycles "$a" 0) + $(ev halted-cycles "$a" 0))) e1=$((c1 + h1))
	if within "$c1" 1600000 8 && [ "$h1" -gt 0 ] && within "$end" $((e0 > e1 ? e0 : e1)) 0.01; then
		ok smt_halted "processor 1: $c1 cycles, $h1 halted before its thread; emulated $end cycles"
	else
		bad smt_halted "processor 1: $c1 cycles (want 1.6M), $h1 halted; emulated $end, processors $e0 $e1"
	fi
	# the second thread first sleeps 100 µs of emulated time (--vtime:
	# an instruction a nanosecond), which end when the main thread has
	# run 100,000 more instructions of 4.44 cycles (18 instructions in
	# 80 cycles): its processor resumes where the main thread's stands,
	# 444,444 cycles later than without the sleep; its cycles stay
	local b=$WORK/sl c1s h1s
	stat "$a" -a p4 --smt --vtime "$PROGS/ua_fpadd" dep 20000 2 &&
		stat "$b" -a p4 --smt --vtime "$PROGS/ua_fpadd" dep 20000 2 100 || { bad smt_sleep "vpmu failed"; return; }
	c1=$(ev cycles "$a" 1) h1=$(ev halted-cycles "$a" 1) c1s=$(ev cycles "$b" 1) h1s=$(ev halted-cycles "$b" 1)
	if within $((h1s - h1)) 444444 10 && within "$c1s" "$c1" 1; then
		ok smt_sleep "processor 1: $((h1s - h1)) more halted cycles while its thread slept (want 444,444), $c1s cycles"
	else
		bad smt_sleep "processor 1: $((h1s - h1)) more halted cycles (want 444,444), $c1s cycles (want $c1)"
	fi
	# the second thread waits instead until the main thread, its 320,000
	# dependent adds done (5 cycles each), interrupts it with a signal
	stat "$b" -a p4 --smt --vtime "$PROGS/ua_fpadd" dep 20000 2 signal || { bad smt_signal "vpmu failed"; return; }
	h1s=$(ev halted-cycles "$b" 1)
	if within $((h1s - h1)) 1600000 5; then
		ok smt_signal "processor 1: $((h1s - h1)) more halted cycles until the signal (want 1,600,000)"
	else
		bad smt_signal "processor 1: $((h1s - h1)) more halted cycles until the signal (want 1,600,000)"
	fi
}

# ---- branch predictors ----------------------------------------------------
predictors() {
	stat "$WORK/a" -a p4 --set bp.kind=bimodal "$PROGS/bp_alternate" &&
		stat "$WORK/b" -a p4 --set bp.kind=gshare "$PROGS/bp_alternate" || { bad bp_alternate "vpmu failed"; return; }
	local bi=$(ev branch-misses-cond "$WORK/a") gs=$(ev branch-misses-cond "$WORK/b")
	if [ "$gs" -lt $((bi / 4)) ]; then
		ok bp_alternate "conditional mispredicts: bimodal $bi, gshare $gs"
	else
		bad bp_alternate "conditional mispredicts: bimodal $bi, gshare $gs"
	fi
}

# wrong-path execution: loads in the shadow of a mispredicted branch miss
# the cache without retiring (the seed's point about speculative counts)
shadow() {
	stat "$WORK/a" -a p4 "$PROGS/ua_shadow" 200000 || { bad shadow "vpmu failed"; return; }
	local ret=$(ev L1-dcache-load-misses "$WORK/a") spec=$(ev L1-dcache-load-misses-spec "$WORK/a")
	local wp=$(ev uops-spec "$WORK/a")
	if [ "$wp" -gt 0 ] && [ "$spec" -gt $((ret * 13 / 10)) ]; then
		ok shadow "L1 load misses: $ret retired, $spec with the wrong path; $wp wrong-path µops"
	else
		bad shadow "L1 load misses: $ret retired, $spec with the wrong path; $wp wrong-path µops"
	fi
}

# store forwarding: a load inside the bytes of the store before it takes
# its data; one that only partly overlaps it (a 4-byte store, an 8-byte
# load) waits until the store has been written, and counts once
stfwd() {
	local m k cov part n
	for m in p4 alpha; do
		for k in covered partial; do
			stat "$WORK/a" -a $m "$PROGS/ua_stfwd" $k 10000 &&
				stat "$WORK/b" -a $m "$PROGS/ua_stfwd" $k 20000 || { bad stfwd_$m "vpmu failed"; continue 2; }
			local per=$(awk -v c="$(delta cycles "$WORK/a" "$WORK/b")" 'BEGIN { printf "%.2f", c / 10000 }')
			if [ $k = covered ]; then cov=$per; else part=$per; fi
			[ $k = partial ] && n=$(delta loads-store-overlap "$WORK/a" "$WORK/b")
		done
		if [ "$n" -eq 10000 ] && awk -v c="$cov" -v p="$part" 'BEGIN { exit !(p > c + 1) }'; then
			ok stfwd_$m "cycles per iteration: forwarded $cov, partly overlapping $part; $n overlapping loads of 10,000"
		else
			bad stfwd_$m "cycles per iteration: forwarded $cov, partly overlapping $part; $n overlapping loads of 10,000"
		fi
	done
}

# a load the store before it covers, issued before that store's address is
# known (late: its index comes from a chain of multiplies), waits for it
# and counts once (MOB_LOAD_REPLAY's NO_STA); 32 bytes away from the store
# (elsewhere) it neither waits nor counts
store_address() {
	local m k n=() lat=()
	for m in p4 alpha; do
		n=() lat=()
		for k in late elsewhere; do
			stat "$WORK/a" -a $m "$PROGS/ua_stfwd" $k 10000 &&
				stat "$WORK/b" -a $m "$PROGS/ua_stfwd" $k 20000 || { bad store_address_$m "vpmu failed"; continue 2; }
			n+=("$(delta loads-store-address-wait "$WORK/a" "$WORK/b")")
			lat+=("$(($(delta load-latency "$WORK/a" "$WORK/b") / 10000))")
		done
		local msg="10,000 loads: ${n[0]} waited for the store's address, ${lat[0]} cycles each from issue to data; 32 bytes away ${n[1]}, ${lat[1]} cycles"
		if [ "${n[0]}" -eq 10000 ] && [ "${n[1]}" -eq 0 ] && [ "${lat[0]}" -gt $((lat[1] * 10)) ]; then
			ok store_address_$m "$msg"
		else
			bad store_address_$m "$msg"
		fi
	done
}

# p4's hardware prefetchers on a stream of loads over 8 MB (four times
# the L2).  One load per 64-byte sector: with the prefetchers, the sectors
# are read ahead instead of on demand and a sector costs fewer cycles.
# One load every 512 bytes, longer than the distance that starts a stream
# (256): the stream prefetcher reads nothing (the cycles are those
# without it), the adjacent-line fetch reads the other half of each
# 128-byte line a load misses, one sector per miss.
prefetch() {
	local none=mem.pf_streams=0,mem.pf_adjacent=0 streams=mem.pf_adjacent=0
	local run s set c=() r=() d=() n=131072
	for run in "64 $none" "64 " "512 $none" "512 $streams" "512 "; do
		s=${run%% *} set=${run#* }
		stat "$WORK/a" -a p4 ${set:+--set $set} "$PROGS/ua_l1miss" 8388608 1 1 $s &&
			stat "$WORK/b" -a p4 ${set:+--set $set} "$PROGS/ua_l1miss" 8388608 2 1 $s ||
			{ bad prefetch "vpmu failed"; return; }
		c+=("$(delta cycles "$WORK/a" "$WORK/b")")
		d+=("$(delta bus-read-line "$WORK/a" "$WORK/b")")
		# (with neither, the machine does not count their reads)
		if [ "$set" = "$none" ]; then
			grep -q 'bus-read-line-prefetch.*not counted' "$WORK/b" && r+=(0) || r+=(-1)
		else
			r+=("$(delta bus-read-line-prefetch "$WORK/a" "$WORK/b")")
		fi
	done
	local msg="8 MB stream: $(awk -v a="${c[0]}" -v b="${c[1]}" -v n=$n \
		'BEGIN { printf "%.1f cycles a sector without prefetching, %.1f with", a / n, b / n }'), ${r[1]} of $n sectors prefetched, ${d[1]} on demand"
	if [ "${r[0]}" -eq 0 ] && [ "${r[1]}" -ge $((n * 9 / 10)) ] && [ "${d[1]}" -le $((n / 10)) ] &&
		awk -v a="${c[0]}" -v b="${c[1]}" 'BEGIN { exit !(b < 0.9 * a) }'; then
		ok prefetch "$msg"
	else
		bad prefetch "$msg"
	fi
	# (the demand reads include the page walks')
	msg="every 512 bytes: streams ${r[3]} sectors, cycles ${c[2]} without, ${c[3]} with; adjacent lines ${r[4]} sectors for $((n / 8)) loads, ${d[4]} demand reads"
	if [ "${r[3]}" -eq 0 ] && [ "${c[2]}" -eq "${c[3]}" ] && [ "${r[4]}" -eq $((n / 8)) ] &&
		[ "${d[4]}" -ge $((n / 8)) ]; then
		ok prefetch_stride "$msg"
	else
		bad prefetch_stride "$msg"
	fi
}

determinism() {
	stat "$WORK/a" -a p4 "$PROGS/ua_chase" 262144 10000 && stat "$WORK/b" -a p4 "$PROGS/ua_chase" 262144 10000 || {
		bad determinism "vpmu failed"
		return
	}
	if diff <(grep -v 'seconds\|MIPS' "$WORK/a") <(grep -v 'seconds\|MIPS' "$WORK/b") >/dev/null; then
		ok determinism "two runs, identical counts"
	else
		bad determinism "counts differ between two runs"
	fi
	# processes run one after another, with the same process IDs each run
	# (a pid namespace) and the emulated clock, give the same counts
	if ! unshare --pid --fork true 2>/dev/null; then
		echo "skip determinism_fork: no pid namespace here (unshare --pid needs root)"
		return
	fi
	# (dash lets SIGCHLD in while it waits; bash blocks it around its
	# waits, so that it comes at the unblocking after: emu/linux/hold.c)
	# (and a pipeline: its reads, emu/linux/pipe.c; the order its two
	# processes are reaped in, reap.c)
	local script='for i in 1 2 3; do /bin/true; done; (exit 3); x=$(echo "$$ $?"); echo "$x" >/dev/null; seq 3000 | wc -l >/dev/null'
	local sh shells=/bin/sh
	[ -x /bin/bash ] && shells="$shells /bin/bash"
	for sh in $shells; do
		for f in a b; do
			unshare --pid --fork "$VPMU" stat --vtime -v -o "$WORK/$f" $sh -c "$script" >/dev/null 2>&1 ||
				{ bad determinism_fork "$sh: vpmu failed"; return; }
		done
		diff <(grep -v 'seconds\|MIPS' "$WORK/a") <(grep -v 'seconds\|MIPS' "$WORK/b") >/dev/null ||
			{
				bad determinism_fork "$sh running seven processes: counts differ between two runs"
				return
			}
	done
	ok determinism_fork "$shells, each running seven processes, two of them a pipeline, twice: identical counts"
}

# A child's SIGCHLD reaching a parent that computes before it waits
# (emu/linux/hold.c): its handler runs after the wait, or ends a pause,
# wherever the host put the child's exit; one the parent spins for comes.
# Under --vtime (emu/linux/wake.c) it comes at the parent's first look
# past the child's end on the emulated clock, during the loop; two
# children's come at two looks.
sigchld() {
	local m f out msg
	out=$(timeout 120 "$VPMU" stat --no-timing -o /dev/null "$PROGS/e2e_sigchld" spin 2>&1)
	if [ "$out" = "spin: handler 1, status 7" ]; then
		ok sigchld_spin "a parent spinning on its handler's flag gets the signal"
	else
		bad sigchld_spin "spin: $out"
	fi
	out=$(timeout 120 "$VPMU" stat --vtime --no-timing -o /dev/null "$PROGS/e2e_sigchld" spin 2>&1)
	[ "$out" = "spin: handler 1, status 7" ] || bad sigchld_spin "spin under --vtime: $out"
	local pidns=1
	unshare --pid --fork true 2>/dev/null || pidns=0
	msg=""
	for m in wait pause two; do
		for f in a b; do
			if [ $pidns = 1 ]; then
				out=$(unshare --pid --fork "$VPMU" stat --vtime -v -o "$WORK/$m$f" "$PROGS/e2e_sigchld" $m 2000000 2>&1)
			else
				out=$("$VPMU" stat -o /dev/null "$PROGS/e2e_sigchld" $m 2000000 2>&1)
			fi
			case "$pidns:$m:$out" in
			"0:wait:wait: handler before 0, after 1, status 7" | *":pause:pause: handler 1, status 7") ;;
			"1:wait:wait: handler before 1, after 1, status 7") ;;
			# each child's SIGCHLD at the wait that reaps it, never merged
			"0:two:two: handler before 0, after the waits 1 2") ;;
			"1:two:two: handler before 2, after the waits 2 2") ;;
			*)
				bad sigchld_order "$m: $out"
				return
				;;
			esac
		done
		[ $pidns = 1 ] || continue
		diff <(grep -v 'seconds\|MIPS' "$WORK/${m}a") <(grep -v 'seconds\|MIPS' "$WORK/${m}b") >/dev/null ||
			{
				bad sigchld_order "$m: counts differ between two runs"
				return
			}
		msg="$msg, $m: identical counts"
	done
	[ $pidns = 1 ] || msg=" (no pid namespace here: counts not compared)"
	ok sigchld_order "the handler runs after waitpid (with --vtime, at the end on the clock), or ends pause(), once a child$msg"
}

# a parent reading a pipe its child writes to: under --vtime each read
# returns one write (emu/linux/pipe.c), whatever the host's scheduling
pipes() {
	local pfx=() w out n
	unshare --pid --fork true 2>/dev/null && pfx=(unshare --pid --fork)
	for w in 3000 100000; do
		for f in a b; do
			out=$("${pfx[@]}" "$VPMU" stat --vtime -v -o "$WORK/$f" "$PROGS/e2e_pipe" 64 $w 2>&1) ||
				{ bad pipe_reads "vpmu failed: $out"; return; }
			[ "$f" = a ] && n=$out
			[ "$out" = "$n" ] || { bad pipe_reads "writes of up to $w bytes: $n, then $out"; return; }
		done
		case "$w:$n" in
		"3000:reads 64, bytes 97696" | "100000:reads 514, bytes 1969696") ;;
		*)
			bad pipe_reads "writes of up to $w bytes: $n"
			return
			;;
		esac
		[ ${#pfx[@]} = 0 ] ||
			diff <(grep -v 'seconds\|MIPS' "$WORK/a") <(grep -v 'seconds\|MIPS' "$WORK/b") >/dev/null ||
			{ bad pipe_reads "writes of up to $w bytes: counts differ between two runs"; return; }
	done
	ok pipe_reads "one read a write (a page of a larger one), identical counts"
}

# A wait for any child reports the child that ended first on the emulated
# clock: e2e_reap's child a takes more host time (page faults) but fewer
# instructions than b, so the host ends b first.
reap_order() {
	local pfx=() f out n
	unshare --pid --fork true 2>/dev/null && pfx=(unshare --pid --fork)
	for f in a b; do
		out=$("${pfx[@]}" "$VPMU" stat --vtime --no-timing -v -o "$WORK/$f" "$PROGS/e2e_reap" 20 10000000 2>&1) ||
			{ bad reap_order "vpmu failed: $out"; return; }
		[ "$out" = "first: a" ] || { bad reap_order "run $f: $out (want first: a)"; return; }
	done
	[ ${#pfx[@]} = 0 ] ||
		diff <(grep -v 'seconds\|MIPS' "$WORK/a") <(grep -v 'seconds\|MIPS' "$WORK/b") >/dev/null ||
		{ bad reap_order "counts differ between two runs"; return; }
	# the parent that polls with WNOHANG finds a's end when its own clock
	# has got there, one that waits in sigsuspend or select, or spins,
	# gets a's SIGCHLD (the host gives b's), and so does one whose
	# children run the work in children of their own, and one whose
	# selects time out or that sleeps: the same polls, turns, timeouts
	# and counts every run
	local how got=()
	for how in poll suspend select spin nested timed sleep; do
		for f in a b; do
			out=$("${pfx[@]}" "$VPMU" stat --vtime --no-timing -v -o "$WORK/$how$f" \
				"$PROGS/e2e_reap" 20 10000000 $how 2>&1) ||
				{ bad reap_order "$how: vpmu failed: $out"; return; }
			[[ $out == "first: a"* ]] || { bad reap_order "$how, run $f: $out (want first: a)"; return; }
			got+=("$out")
		done
		[ "${got[-1]}" = "${got[-2]}" ] || { bad reap_order "$how: ${got[-2]}, then ${got[-1]}"; return; }
		[ ${#pfx[@]} = 0 ] ||
			diff <(grep -v 'seconds\|MIPS' "$WORK/${how}a") <(grep -v 'seconds\|MIPS' "$WORK/${how}b") >/dev/null ||
			{ bad reap_order "$how: counts differ between two runs"; return; }
	done
	# twenty children, child n doing 3000 * (n % 7) additions: os.wait()
	# gives them in the order of their work, the same twice
	local py='import os
pids = []
for n in range(20):
    p = os.fork()
    if p == 0:
        x = 0
        for i in range(3000 * (n % 7)):
            x += i
        os._exit(0)
    pids.append(p)
print(" ".join(str(pids.index(os.wait()[0])) for _ in pids))' o1 o2
	o1=$("${pfx[@]}" "$VPMU" stat --vtime --no-timing -o /dev/null python3 -c "$py" 2>&1) &&
		o2=$("${pfx[@]}" "$VPMU" stat --vtime --no-timing -o /dev/null python3 -c "$py" 2>&1) ||
		{ bad reap_order "python3: $o1 $o2"; return; }
	[ "$o1" = "$o2" ] && awk '{ for (i = 2; i <= NF; i++) if ($i % 7 < $(i - 1) % 7) exit 1 }' <<<"$o1" ||
		{ bad reap_order "python3's twenty children: $o1, then $o2 (want by their work)"; return; }
	# a select loop woken through signal.set_wakeup_fd: the children by
	# their work, seq 1000, 20000, then 30000, though forked the other way
	py='import os, signal, select, subprocess
r, w = os.pipe()
os.set_blocking(w, False)
signal.set_wakeup_fd(w)
signal.signal(signal.SIGCHLD, lambda *a: None)
ps = [subprocess.Popen(["seq", str(n)], stdout=subprocess.DEVNULL) for n in (30000, 1000, 20000)]
done = []
while len(done) < 3:
    select.select([r], [], [])
    os.read(r, 100)
    for i, p in enumerate(ps):
        if i not in done and p.poll() is not None:
            done.append(i)
print(done)'
	local s1 s2
	s1=$("${pfx[@]}" "$VPMU" stat --vtime --no-timing -o /dev/null python3 -c "$py" 2>&1) &&
		s2=$("${pfx[@]}" "$VPMU" stat --vtime --no-timing -o /dev/null python3 -c "$py" 2>&1) ||
		{ bad reap_order "python3 select: $s1 $s2"; return; }
	[ "$s1" = "[1, 2, 0]" ] && [ "$s2" = "$s1" ] ||
		{ bad reap_order "python3's select loop: $s1, then $s2 (want [1, 2, 0])"; return; }
	ok reap_order "first: a (the host ends b first), twice, identical counts; so when polling ${got[0]#first: a }, in sigsuspend, in select, spinning ${got[6]#first: a }, a level down, in timed selects ${got[10]#first: a } and sleeping ${got[12]#first: a }; twenty children by their work: $o1; woken by set_wakeup_fd: $s1"
}

# A parent with a SIGCHLD handler that waits with no timeout for a child
# it keeps running (its answers on a pipe) goes on when the answer comes,
# not at the next child's end, which would come only after the last
# answer; and does so the same way twice.
kept_child() {
	local pfx=() how f out
	unshare --pid --fork true 2>/dev/null && pfx=(unshare --pid --fork)
	for how in select pselect poll ppoll epoll; do
		for f in a b; do
			out=$(timeout 120 "${pfx[@]}" "$VPMU" stat --vtime --no-timing -v -o "$WORK/co$how$f" \
				"$PROGS/e2e_coproc" $how 2>&1)
			[ "$out" = "ONE TWO THREE done" ] ||
				{ bad kept_child "$how, run $f: ${out:-no output} (want ONE TWO THREE done)"; return; }
		done
		[ ${#pfx[@]} = 0 ] ||
			diff <(grep -v 'seconds\|MIPS' "$WORK/co${how}a") <(grep -v 'seconds\|MIPS' "$WORK/co${how}b") >/dev/null ||
			{ bad kept_child "$how: counts differ between two runs"; return; }
	done
	ok kept_child "select, pselect, poll, ppoll and epoll_wait each go on at the child's answer, twice, identical counts"
}

descriptions() {
	local out
	if out=$(python3 "$(dirname "$0")/../tools/model_fuzz.py" "$VPMU" "$PROGS" 80 1 2>&1); then
		ok descriptions "$(tail -1 <<<"$out")"
	else
		bad descriptions "$(head -c 800 <<<"$out")"
	fi
}

for m in p4 ia64 xscale alpha; do
	ladder "$m"
done
fpadd
smt
predictors
shadow
stfwd
store_address
prefetch
determinism
sigchld
pipes
reap_order
kept_child
descriptions
[ -z "$failed" ] || echo "failed:$failed"
echo "$pass passed, $failn failed"
[ "$failn" -eq 0 ]
