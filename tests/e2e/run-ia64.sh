#!/usr/bin/env bash
# run-ia64.sh — whole-command tests of the Itanium 2 counter hardware
# (`-a ia64`): PMC fields through raw images (plm splits guest time at
# level 3 from system calls at level 0, ism splits IA-32 guest code from
# the IA-64 kernel, threshold counts cycles of multi-occurrence events,
# pm is refused), named events against the timing model, unsupported
# events with their reason, and the data EAR's latency threshold on a
# program mixing L2 hits and memory misses.
#
# Environment: VPMU (binary), PROGS (built tests/progs).  Run by make check.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

val() {
	awk -v n="$1" '$2 == n { gsub(",", "", $1); print $1; exit }' err
}

# r1209: CPU_CYCLES (es 0x12) at levels 0 and 3; r1208 level 3; r1201 level 0
plm_user_vs_syscalls() {
	run_vpmu stat -a ia64 --exact -e r1209,r1208,r1201,CPU_CYCLES:u,CPU_CYCLES:k,CPU_CPL_CHANGES,CPU_CYCLES "$PROGS/e2e_loop"
	expect_rc 0 || return 1
	all=$(val r1209) u=$(val r1208) k=$(val r1201) nu=$(val CPU_CYCLES:u) nk=$(val CPU_CYCLES:k)
	cpl=$(val CPU_CPL_CHANGES) cyc=$(val CPU_CYCLES)
	[ -n "$all" ] && [ "$u" -gt 0 ] && [ "$k" -gt 0 ] && [ $((u + k)) = "$all" ] ||
		fail "plm: both $all, user $u, kernel $k"
	[ "$nu" = "$u" ] && [ "$nk" = "$k" ] && [ "$cyc" = "$all" ] ||
		fail ":u $nu :k $nk (raw $u $k), CPU_CYCLES $cyc"
	# two privilege changes per system call
	run_vpmu stat -a ia64 -v "$PROGS/e2e_loop"
	sys=$(awk '$1 == "syscalls" { gsub(",", "", $2); print $2; exit }' err)
	[ -n "$sys" ] && [ "$cpl" = $((2 * sys)) ] || fail "CPU_CPL_CHANGES $cpl, syscalls $sys"
}

# ism: bit 24 set excludes IA-64 code (the kernel), bit 25 IA-32 code (the
# guest); both set: nothing.  IA32_INST_RETIRED counts, IA64_INST_RETIRED not.
ism_instruction_sets() {
	run_vpmu stat -a ia64 --exact -e r1208,r1201,r1001209,r2001209,r3001209,IA32_INST_RETIRED,IA64_INST_RETIRED "$PROGS/e2e_loop"
	expect_rc 0 || return 1
	[ "$(val r1001209)" = "$(val r1208)" ] || fail "ism 01: $(val r1001209), user $(val r1208)"
	[ "$(val r2001209)" = "$(val r1201)" ] || fail "ism 10: $(val r2001209), kernel $(val r1201)"
	[ "$(val r3001209)" = 0 ] || fail "ism 11: $(val r3001209)"
	[ "$(val IA32_INST_RETIRED)" -gt 100000 ] && [ "$(val IA64_INST_RETIRED)" = 0 ] ||
		fail "IA-32 $(val IA32_INST_RETIRED), IA-64 $(val IA64_INST_RETIRED)"
}

# IA32_INST_RETIRED (es 0x59) with threshold 0, 1, 2, 5: cycles retiring
# more than the threshold, fewer as it grows; 5 needs PMC4/5
threshold_multi_occurrence() {
	run_vpmu stat -a ia64 --exact -e r5909,r105909,r205909,r505909,CPU_CYCLES "$PROGS/e2e_loop"
	expect_rc 0 || return 1
	n=$(val r5909) t1=$(val r105909) t2=$(val r205909) t5=$(val r505909) c=$(val CPU_CYCLES)
	[ -n "$n" ] && [ "$t1" -gt 0 ] && [ "$t1" -lt "$c" ] && [ $((2 * t1)) -le "$n" ] ||
		fail "threshold 1: $t1 (sum $n, cycles $c)"
	[ "$t2" -lt "$t1" ] && [ "$t5" -lt "$t2" ] || fail "thresholds 1 2 5: $t1 $t2 $t5"
}

bad_specs() {
	run_vpmu stat -a ia64 -e r1249 "$PROGS/e2e_loop"
	[ "$rc" = 1 ] && grep -q "sets pm" err && [ "$(wc -l <err)" = 1 ] || fail "pm: rc $rc $(cat err)"
	run_vpmu stat -a ia64 -e RSE_EVENT_RETIRED "$PROGS/e2e_loop"
	[ "$rc" = 1 ] && grep -q "not supported: the register stack engine" err ||
		fail "RSE: rc $rc $(cat err)"
	# FE (1) and L1D_FPU_RSE (2) OR to 3, none of BACK_END_BUBBLE's values
	run_vpmu stat -a ia64 -e BACK_END_BUBBLE:FE:L1D_FPU_RSE "$PROGS/e2e_loop"
	[ "$rc" = 1 ] && grep -q "exclusive" err || fail "exclusive masks: rc $rc $(cat err)"
	run_vpmu stat -a ia64 -e DATA_EAR_EVENTS:CACHE_LAT4,DATA_EAR_EVENTS:CACHE_LAT64 -e '{DATA_EAR_EVENTS:CACHE_LAT4,DATA_EAR_EVENTS:CACHE_LAT8}' "$PROGS/e2e_loop"
	[ "$rc" = 1 ] && grep -q "one PMC11" err || fail "two D-EAR settings: rc $rc $(cat err)"
}

# named events equal the timing model's own counts
matches_model() {
	run_vpmu stat -a ia64 -v -o model.txt "$PROGS/e2e_loop"
	run_vpmu stat -a ia64 --exact -e IA32_INST_RETIRED,BR_MISPRED_DETAIL:ALL.ALL_PRED,L1D_READ_MISSES:ALL,LOADS_RETIRED "$PROGS/e2e_loop"
	expect_rc 0 || return 1
	m() { awk -v n="$1" '$1 == n && NF == 3 { gsub(",", "", $2); gsub(",", "", $3); print $2 + $3; exit }' model.txt; }
	[ "$(val IA32_INST_RETIRED)" = "$(m instructions)" ] || fail "instructions $(val IA32_INST_RETIRED) vs $(m instructions)"
	[ "$(val BR_MISPRED_DETAIL:ALL.ALL_PRED)" = "$(m branches)" ] || fail "branches"
	[ "$(val L1D_READ_MISSES:ALL)" = "$(m L1-dcache-load-misses)" ] || fail "L1D misses"
	[ "$(val LOADS_RETIRED)" = "$(m loads)" ] || fail "loads $(val LOADS_RETIRED) vs $(m loads)"
}

# in-range ADDR LO HI (hex)
in_range() { [ $((16#$1)) -ge $((16#$2)) ] && [ $((16#$1)) -lt $((16#$3)) ]; }

# The data EAR with a threshold between the L2 hit (5 cycles,
# machine_ia64.c) and memory (180) captures only the memory misses, with
# the model's latency; at 4 cycles it takes the L2 hits too.
dear_latency_threshold() {
	run_vpmu record -a ia64 -e DATA_EAR_EVENTS:CACHE_LAT64 -c 51 -o d64 "$PROGS/e2e_ia64_mixlat" 20000
	expect_rc 0 || return 1
	read -r _ slo shi <<<"$(grep '^small' out)"
	read -r _ blo bhi <<<"$(grep '^big' out)"
	run_vpmu script -i d64 -F addr,weight
	expect_rc 0 || return 1
	nbig=0 nsmall=0 n180=0
	while read -r a w; do
		if in_range "$a" "$blo" "$bhi"; then
			nbig=$((nbig + 1))
			[ "$w" -ge 180 ] || fail "memory miss at $a with latency $w"
			[ "$w" = 180 ] && n180=$((n180 + 1))
		elif in_range "$a" "$slo" "$shi"; then
			# only the ring's first, cold pass misses to memory
			nsmall=$((nsmall + 1))
			[ "$w" -ge 180 ] || fail "ring load at $a captured with latency $w"
		fi
		[ "$w" -ge 64 ] || fail "captured $a below the threshold: $w"
	done <out
	# 20000 memory misses / 51 per sample; 512 cold ring lines at most
	[ "$nbig" -ge 380 ] && [ "$nsmall" -le 12 ] || fail "threshold 64: big $nbig, small $nsmall"
	# the model's memory latency, plus a page walk for some (how many
	# depends on where the environment puts the stack and heap)
	[ $((n180 * 4)) -ge $((nbig * 3)) ] || fail "latency 180 in $n180 of $nbig"
	run_vpmu record -a ia64 -e DATA_EAR_EVENTS:CACHE_LAT4 -c 51 -o d4 "$PROGS/e2e_ia64_mixlat" 20000
	run_vpmu script -i d4 -F addr,weight
	nsmall=0
	while read -r a w; do
		if in_range "$a" "$slo" "$shi"; then
			nsmall=$((nsmall + 1))
			[ "$w" = 5 ] || [ "$w" -ge 180 ] || fail "L2 hit at $a with latency $w"
		fi
	done <out
	[ "$nsmall" -ge 300 ] || fail "threshold 4: $nsmall L2-hit samples"
	run_vpmu stat -a ia64 -e DATA_EAR_EVENTS:CACHE_LAT64 "$PROGS/e2e_ia64_mixlat" 20000
	n=$(val DATA_EAR_EVENTS:CACHE_LAT64)
	[ "$n" -ge 20000 ] && [ "$n" -lt 21000 ] || fail "captures at 64: $n"
}

t plm_user_vs_syscalls plm_user_vs_syscalls
t ism_instruction_sets ism_instruction_sets
t threshold_multi_occurrence threshold_multi_occurrence
t bad_specs bad_specs
t matches_model matches_model
t dear_latency_threshold dear_latency_threshold
summary
