#!/usr/bin/env bash
# run-ia64.sh — whole-command tests of the Itanium 2 counter hardware
# (`-a ia64`): PMC fields through raw images (plm splits guest time at
# level 3 from system calls at level 0, ism splits IA-32 guest code from
# the IA-64 kernel, threshold counts cycles of multi-occurrence events,
# pm is refused), named events against the timing model, unsupported
# events with their reason, the data EAR's latency threshold on a
# program mixing L2 hits and memory misses and its TLB mode, the
# instruction EAR on a program bigger than the L1I, and the branch trace
# buffer's records against the program's code (objdump) and its predictor,
# the TLB events of both levels, the I/O agents' bus transactions by
# direction, the stall accounting (BACK_END_BUBBLE and its causes) and the
# L3's references by kind.
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

# The instruction EAR: ia64_icache's 40 KB loop misses the 16 KB L1I on
# every line, from the L2 after the first pass (5 cycles, machine_ia64.c)
iear_latency() {
	run_vpmu stat -a ia64 -e L1I_EAR_EVENTS:CACHE_LAT0 -e L2_INST_DEMAND_READS "$PROGS/ia64_icache" 50
	expect_rc 0 || return 1
	all=$(val L1I_EAR_EVENTS:CACHE_LAT0) dem=$(val L2_INST_DEMAND_READS)
	# every miss of a retired instruction's fetch (wrong-path fetches are not)
	[ "$all" -gt 30000 ] && [ "$all" -le "$dem" ] && [ $((all + 100)) -ge "$dem" ] ||
		fail "LAT0 captures $all, L1I misses $dem"
	run_vpmu record -a ia64 -e L1I_EAR_EVENTS:CACHE_LAT4 -c 97 -o i4 "$PROGS/ia64_icache" 50
	expect_rc 0 || return 1
	run_vpmu script -i i4 -F sym,weight
	expect_rc 0 || return 1
	nf=0 n=0 n5=0
	while read -r w sym; do
		n=$((n + 1))
		[ "$w" -ge 4 ] || fail "captured $sym with latency $w < 4"
		case $sym in f[0-9]*) nf=$((nf + 1)) ;; esac
		[ "$w" = 5 ] && n5=$((n5 + 1))
	done <out
	[ "$n" -ge 300 ] && [ $((nf * 10)) -ge $((n * 9)) ] && [ $((n5 * 10)) -ge $((n * 9)) ] ||
		fail "LAT4: $n samples, $nf in the chain, $n5 at the L2's 5 cycles"
	# local_weight: the latency histogram, the L2's 5 cycles first
	run_vpmu report -i i4 -s local_weight
	awk '$1 ~ /%$/ { print $2; exit }' out | grep -qx 5 || fail "local_weight: $(head -12 out)"
	# at 8 cycles the L2 hits are gone: only the first pass's misses
	run_vpmu record -a ia64 -e L1I_EAR_EVENTS:CACHE_LAT8 -c 1 -o i8 "$PROGS/ia64_icache" 50
	run_vpmu script -i i8 -F weight
	[ "$(awk '$1 < 8' out | wc -l)" = 0 ] && [ "$(wc -l <out)" -lt 2000 ] ||
		fail "LAT8: $(wc -l <out) samples, $(awk '$1 < 8' out | wc -l) below 8"
}

# TLB modes: the two kinds of first-level TLB misses the model tells
# apart add up to both; faults are refused
ear_tlb_modes() {
	for ev in L1I_EAR_EVENTS:TLB_L2TLB L1I_EAR_EVENTS:TLB_VHPT L1I_EAR_EVENTS:TLB_L2TLB_OR_VHPT \
		DATA_EAR_EVENTS:TLB_L2DTLB DATA_EAR_EVENTS:TLB_VHPT DATA_EAR_EVENTS:TLB_L2DTLB_OR_VHPT; do
		run_vpmu stat -a ia64 -e "$ev" "$PROGS/ia64_icache" 5
		expect_rc 0 || return 1
		v=${ev%%_*}
		eval "n_${v}_${ev##*:}=\$(val $ev)"
	done
	i2=$n_L1I_TLB_L2TLB iw=$n_L1I_TLB_VHPT ia=$n_L1I_TLB_L2TLB_OR_VHPT
	d2=$n_DATA_TLB_L2DTLB dw=$n_DATA_TLB_VHPT da=$n_DATA_TLB_L2DTLB_OR_VHPT
	[ "$i2" -gt 0 ] && [ "$iw" -gt 0 ] && [ $((i2 + iw)) = "$ia" ] ||
		fail "I-EAR TLB: $i2 + $iw != $ia"
	[ "$d2" -gt 0 ] && [ "$dw" -gt 0 ] && [ $((d2 + dw)) = "$da" ] ||
		fail "D-EAR TLB: $d2 + $dw != $da"
	# every first-level ITLB miss of a retired instruction's fetch
	run_vpmu stat -a ia64 -e ITLB_MISSES_FETCH:L1ITLB "$PROGS/ia64_icache" 5
	[ "$(val ITLB_MISSES_FETCH:L1ITLB)" -ge "$ia" ] || fail "ITLB misses $(val ITLB_MISSES_FETCH:L1ITLB) < $ia"
	run_vpmu record -a ia64 -e DATA_EAR_EVENTS:TLB_VHPT -c 1 -o dt "$PROGS/ia64_icache" 5
	run_vpmu script -i dt -F ip,addr
	[ "$(wc -l <out)" -gt 0 ] && [ "$(awk '$2 == "0"' out | wc -l)" = 0 ] ||
		fail "D-EAR TLB samples without a data address: $(head -3 out)"
	run_vpmu stat -a ia64 -e L1I_EAR_EVENTS:TLB_ALL "$PROGS/e2e_loop"
	[ "$rc" = 1 ] && grep -q "software handler" err || fail "TLB_ALL: rc $rc $(cat err)"
	run_vpmu stat -a ia64 -e '{L1I_EAR_EVENTS:CACHE_LAT4,L1I_EAR_EVENTS:TLB_VHPT}' "$PROGS/e2e_loop"
	[ "$rc" = 1 ] && grep -q "one PMC10" err || fail "two I-EAR settings in a group: rc $rc $(cat err)"
}

# The branch trace buffer: bp_alternate's run() has two branches, jne to
# the odd arm (taken every other pass) and the loop's jne back; each
# record is one of them with its objdump target.  A bimodal predictor
# mispredicts the alternating one each time it is taken (M) and never the
# back edge (P).
btb_branches() {
	objdump -d --no-show-raw-insn "$PROGS/bp_alternate" >objd 2>/dev/null || { fail "objdump (binutils) is needed"; return 1; }
	run_vpmu record -a ia64 --set bp.kind=bimodal -b -e BR_MISPRED_DETAIL:ALL.ALL_PRED -c 1009 -o b1 "$PROGS/bp_alternate"
	expect_rc 0 || return 1
	run_vpmu script -i b1 -F ip,symoff,brstack
	expect_rc 0 || return 1
	grep -qE '^ *[0-9a-f]+ run\+0x[0-9a-f]+( 0x[0-9a-f]+/0x[0-9a-f]+/[MP]/-/-/0)+$' out ||
		fail "brstack format: $(grep run out | head -2)"
	read -r ip so _ <<<"$(grep ' run+' out | head -1)"
	runf=$(awk '/<run>:$/ { print $1; exit }' objd)
	bias=$((16#$ip - 16#$runf - ${so#run+}))
	# jump sites and targets of run() in file addresses
	sed -n '/<run>:$/,/^$/p' objd | awk '$2 ~ /^j/ && $2 != "jmp" { sub(":", "", $1); print $1, $3 }' >jumps
	grep ' run+' out | tr ' ' '\n' | grep '/-/-/0$' | sort | uniq -c >entries
	nm=0 np=0
	while read -r c e; do
		IFS=/ read -r from to f _ <<<"$e"
		ff=$(printf %x $((from - bias))) tf=$(printf %x $((to - bias)))
		grep -q "^$ff $tf\$" jumps || continue # ld.so's and libc's branches
		if [ "$f" = M ]; then nm=$((nm + c)); site_m=$ff; else np=$((np + c)); site_p=$ff; fi
	done <entries
	[ "$nm" -gt 100 ] && [ "$np" -gt 100 ] || fail "run's branches: $nm M, $np P ($(cat entries))"
	[ "${site_m:-}" != "${site_p:-x}" ] || fail "one site both predicted and mispredicted"
	# every record of run() is one of its branches with its target
	grep ' run+' out | tr ' ' '\n' | grep '/-/-/0$' | while IFS=/ read -r from to _; do
		ff=$(printf %x $((from - bias)))
		if grep -q "^$ff " jumps; then
			grep -q "^$ff $(printf %x $((to - bias)))\$" jumps || echo "$from/$to"
		fi
	done >wrong
	[ ! -s wrong ] || fail "targets not in objdump: $(head -3 wrong)"
	# the branch view: run -> run first
	run_vpmu report -i b1 --branch-stack -s symbol_from,symbol_to,mispredict
	expect_rc 0 || return 1
	grep -qE '^ +[0-9.]+%  \[\.\] run +\[\.\] run +[YN]' out || fail "report -b: $(sed -n 9,12p out)"
	run_vpmu report -i b1 -s symbol_to
	[ "$rc" = 1 ] && grep -q "needs --branch-stack" err || fail "symbol_to without -b: rc $rc"
	# BRANCH_EVENT counts what PMC12 takes: every branch by default;
	# taken only (raw, PMC12 tm = 10 in bits 63:32) as BR_PATH_PRED's taken
	run_vpmu stat -a ia64 --exact -e BRANCH_EVENT,BR_MISPRED_DETAIL:ALL.ALL_PRED "$PROGS/bp_alternate"
	[ "$(val BRANCH_EVENT)" = "$(val BR_MISPRED_DETAIL:ALL.ALL_PRED)" ] ||
		fail "BRANCH_EVENT $(val BRANCH_EVENT)"
	run_vpmu stat -a ia64 --exact -e r00003e0900001109,BR_PATH_PRED:ALL.MISPRED_NOTTAKEN,BR_PATH_PRED:ALL.OKPRED_TAKEN "$PROGS/bp_alternate"
	[ "$(val r00003e0900001109)" = $(($(val BR_PATH_PRED:ALL.MISPRED_NOTTAKEN) + $(val BR_PATH_PRED:ALL.OKPRED_TAKEN))) ] ||
		fail "taken-only BTB $(val r00003e0900001109)"
	run_vpmu record -a p4 -b -o bp4 "$PROGS/e2e_loop"
	[ "$rc" = 1 ] && grep -q "no branch stack" err || fail "p4 -b: rc $rc $(cat err)"
	run_vpmu record -a ia64 -j ind_call -o bj "$PROGS/e2e_loop"
	[ "$rc" = 1 ] && grep -q "not a branch filter" err || fail "-j ind_call: rc $rc $(cat err)"
}

# The I/O agents read memory with BRL (data written out) and write it with
# BWL (data read in): the IO unit masks split BUS_ALL:IO by direction.
io_by_direction() {
	head -c 1048576 /dev/zero >data || return 1
	run_vpmu stat -a ia64 --exact -e BUS_ALL:IO,BUS_RD_DATA:IO,BUS_MEM_READ:BRL_IO,BUS_WR_WB:ALL_IO,BUS_MEM_READ:ALL_SELF,BUS_MEM_READ:ALL_ANY,BUS_WR_WB:EQ_128BYTE_SELF,BUS_WR_WB:EQ_128BYTE_ANY -- "$PROGS/fsb_stream" io data 4
	expect_rc 0 || return 1
	local io=$(val BUS_ALL:IO) r=$(val BUS_RD_DATA:IO) w=$(val BUS_WR_WB:ALL_IO)
	# 4 MiB read: 32768 lines of 128 bytes, and the loader's reads
	[ -n "$w" ] && [ "$w" -ge 32768 ] && [ "$w" -lt 33000 ] && [ "$r" -lt 64 ] &&
		[ "$io" = $((r + w)) ] || fail "BUS_ALL:IO $io, reads $r, writes $w"
	[ "$(val BUS_MEM_READ:BRL_IO)" = "$r" ] &&
		[ "$(val BUS_MEM_READ:ALL_ANY)" = $(($(val BUS_MEM_READ:ALL_SELF) + r)) ] &&
		[ "$(val BUS_WR_WB:EQ_128BYTE_ANY)" = $(($(val BUS_WR_WB:EQ_128BYTE_SELF) + w)) ] ||
		fail "ANY is not SELF + IO: $(cat err)"
}

# Both TLB levels: each L1DTLB miss the L2DTLB translates (a transfer) or
# misses (the walker inserts the translation); the walks of retired
# accesses are a share of those
tlb_levels() {
	run_vpmu stat -a ia64 -v --exact -e L1DTLB_TRANSFER,L2DTLB_MISSES,DTLB_INSERTS_HPW,DTLB_INSERTS_HPW_RETIRED,ITLB_MISSES_FETCH:L1ITLB,ITLB_MISSES_FETCH:L2ITLB,L1ITLB_INSERTS_HPW -- \
		"$PROGS/bench_qsort" 20000
	expect_rc 0 || return 1
	local x=$(val L1DTLB_TRANSFER) m=$(val L2DTLB_MISSES) r=$(val DTLB_INSERTS_HPW_RETIRED)
	local all=$(awk '$1 == "dTLB-load-misses" && NF == 3 { gsub(",", "", $2); print $2 }' err)
	[ -n "$x" ] && [ "$x" -gt 0 ] && [ "$m" -gt 0 ] && [ $((x + m)) = "$all" ] &&
		[ "$(val DTLB_INSERTS_HPW)" = "$m" ] && [ "$r" -gt 0 ] && [ "$r" -le "$m" ] ||
		fail "transfers $x + L2 misses $m != L1 misses $all, or inserts $(val DTLB_INSERTS_HPW), retired $r"
	local i1=$(val ITLB_MISSES_FETCH:L1ITLB) i2=$(val ITLB_MISSES_FETCH:L2ITLB)
	[ "$i2" -gt 0 ] && [ "$i2" -lt "$i1" ] && [ "$(val L1ITLB_INSERTS_HPW)" = "$i2" ] ||
		fail "ITLB: L1 misses $i1, L2 misses $i2, inserts $(val L1ITLB_INSERTS_HPW)"
}

# The stall accounting: every cycle the in-order core issues nothing is a
# bubble of one cause, an EXE bubble by what it waits for.  ALL is their sum; each mispredicted branch
# flushes for bp.penalty cycles; a chain of dependent adds waits
# core.lat.fadd - 1 cycles per add in EXE bubbles, with no flush or
# front-end bubble in the loop (the second run's extra iterations).
stall_accounting() {
	local spec=BACK_END_BUBBLE:ALL,BACK_END_BUBBLE:FE,BE_FLUSH_BUBBLE:BRU,BE_EXE_BUBBLE,CPU_CYCLES
	local k prog n all fe fl ex m pen lat
	for prog in ua_shadow ua_fpadd; do
		for n in 20000 40000; do
			if [ $prog = ua_fpadd ]; then
				run_vpmu stat -a ia64 -v --exact -e $spec "$PROGS/$prog" dep $n
			else
				run_vpmu stat -a ia64 -v --exact -e $spec "$PROGS/$prog" $n
			fi
			expect_rc 0 || return 1
			all[n]=$(val BACK_END_BUBBLE:ALL) fe[n]=$(val BACK_END_BUBBLE:FE)
			fl[n]=$(val BE_FLUSH_BUBBLE:BRU) ex[n]=$(val BE_EXE_BUBBLE)
			m[n]=$(awk '$1 == "branch-misses" && NF == 3 { gsub(",", "", $2); print $2 }' err)
			[ "${all[n]}" = $((fe[n] + fl[n] + ex[n])) ] && [ "${all[n]}" -lt "$(val CPU_CYCLES)" ] ||
				fail "$prog $n: ALL ${all[n]} = FE ${fe[n]} + flush ${fl[n]} + EXE ${ex[n]}?"
		done
		pen=$(awk '$1 == "bp.penalty" { print $2 }' err) lat=$(awk '$1 == "core.lat.fadd" { print $2 }' err)
		if [ $prog = ua_shadow ]; then
			k=$(((fl[40000] - fl[20000]) * 100 / (pen * (m[40000] - m[20000]))))
			[ "$k" -ge 98 ] && [ "$k" -le 102 ] ||
				fail "flush: $((fl[40000] - fl[20000])) cycles for $((m[40000] - m[20000])) mispredictions, penalty $pen"
		else
			# 20000 more iterations of 16 adds
			k=$(((ex[40000] - ex[20000]) * 100 / 320000))
			[ "$k" -ge $(((lat - 1) * 95)) ] && [ "$k" -le $(((lat - 1) * 100)) ] &&
				[ "${fl[40000]}" = "${fl[20000]}" ] && [ "${fe[40000]}" = "${fe[20000]}" ] ||
				fail "dependent adds: EXE $k/100 a add (latency $lat), flush ${fl[*]}, FE ${fe[*]}"
		fi
	done
	# what EXE bubbles wait for: the chase's loads for the load before
	# (GRALL, not GRGR), the adds for the add before (FRALL)
	local gr gg fr
	for prog in "ua_chase 4194304" "ua_fpadd dep"; do
		for n in 20000 40000; do
			run_vpmu stat -a ia64 --exact -e BE_EXE_BUBBLE,BE_EXE_BUBBLE:GRALL,BE_EXE_BUBBLE:GRGR,BE_EXE_BUBBLE:FRALL $PROGS/$prog $n
			expect_rc 0 || return 1
			ex[n]=$(val BE_EXE_BUBBLE) gr[n]=$(val BE_EXE_BUBBLE:GRALL)
			gg[n]=$(val BE_EXE_BUBBLE:GRGR) fr[n]=$(val BE_EXE_BUBBLE:FRALL)
		done
		local dex=$((ex[40000] - ex[20000])) dgr=$((gr[40000] - gr[20000]))
		local dgg=$((gg[40000] - gg[20000])) dfr=$((fr[40000] - fr[20000]))
		# (within 0.1%: the runs' ends differ a little too)
		case $prog in
		ua_chase*) [ "$dex" -gt 1000000 ] && [ $(((dgr - dex) * (dgr - dex))) -le $((dex * dex / 1000000)) ] &&
			[ "$dgg" -le $((dex / 1000)) ] ;;
		*) [ "$dex" -gt 900000 ] && [ $(((dfr - dex) * (dfr - dex))) -le $((dex * dex / 1000000)) ] &&
			[ "$dgr" -le $((dex / 1000)) ] ;;
		esac || fail "$prog: 20000 more iterations, EXE $dex: GRALL $dgr (GRGR $dgg), FRALL $dfr"
	done
}

# L3_READS and L3_WRITES split the L3's references by kind (reads: loads,
# instruction fetches; writes: stores, L2 write-backs), each hit or miss:
# reads and stores are L3_REFERENCES, their misses L3_MISSES.  A read
# stream misses once a line and, its loads past the L3's lines, replaces
# one each time; a write stream's dirty lines come back from the L2.
l3_kinds() {
	local r=L3_READS w=L3_WRITES lines=$((3145728 / 128))
	run_vpmu stat -a ia64 --exact -e $r:ALL.ALL,$r:ALL.MISS,$w:DATA_WRITE.ALL,$w:DATA_WRITE.MISS,L3_REFERENCES,L3_MISSES,$r:DATA_READ.MISS,L3_LINES_REPLACED,$w:L2_WB.MISS "$PROGS/fsb_stream" read 8 1
	expect_rc 0 || return 1
	local m=$(val L3_MISSES) rep=$(val L3_LINES_REPLACED)
	[ $(($(val $r:ALL.ALL) + $(val $w:DATA_WRITE.ALL))) = "$(val L3_REFERENCES)" ] &&
		[ $(($(val $r:ALL.MISS) + $(val $w:DATA_WRITE.MISS))) = "$m" ] ||
		fail "reads and stores $(val $r:ALL.ALL) + $(val $w:DATA_WRITE.ALL) of $(val L3_REFERENCES), misses $(val $r:ALL.MISS) + $(val $w:DATA_WRITE.MISS) of $m"
	[ "$(val $r:DATA_READ.MISS)" -ge 65536 ] && [ "$rep" -ge $(($(val $r:DATA_READ.MISS) - lines)) ] &&
		[ "$rep" -le $((m + $(val $w:L2_WB.MISS))) ] ||
		fail "read stream: $(val $r:DATA_READ.MISS) load misses, $rep of $m misses replace"
	run_vpmu stat -a ia64 --exact -e $w:DATA_WRITE.ALL,$w:L2_WB.ALL "$PROGS/fsb_stream" write 8 1
	expect_rc 0 || return 1
	[ "$(val $w:DATA_WRITE.ALL)" -ge 65536 ] && [ "$(val $w:L2_WB.ALL)" -ge 60000 ] ||
		fail "write stream: stores $(val $w:DATA_WRITE.ALL), L2 write-backs $(val $w:L2_WB.ALL)"
}

# MISALIGNED_LOADS_RETIRED and MISALIGNED_STORES_RETIRED: each of
# ua_misalign's iterations makes two misaligned loads and one misaligned
# store (and one aligned of each)
misaligned() {
	local n
	for n in 10000 20000; do
		run_vpmu stat -a ia64 --exact -e MISALIGNED_LOADS_RETIRED,MISALIGNED_STORES_RETIRED "$PROGS/ua_misalign" $n
		expect_rc 0 || return 1
		ld[n]=$(val MISALIGNED_LOADS_RETIRED) st[n]=$(val MISALIGNED_STORES_RETIRED)
	done
	[ $((ld[20000] - ld[10000])) = 20000 ] && [ $((st[20000] - st[10000])) = 10000 ] ||
		fail "10000 more iterations: $((ld[20000] - ld[10000])) loads, $((st[20000] - st[10000])) stores"
}

t plm_user_vs_syscalls plm_user_vs_syscalls
t ism_instruction_sets ism_instruction_sets
t threshold_multi_occurrence threshold_multi_occurrence
t bad_specs bad_specs
t matches_model matches_model
t dear_latency_threshold dear_latency_threshold
t iear_latency iear_latency
t ear_tlb_modes ear_tlb_modes
t btb_branches btb_branches
t io_by_direction io_by_direction
t tlb_levels tlb_levels
t stall_accounting stall_accounting
t l3_kinds l3_kinds
t misaligned misaligned
summary
