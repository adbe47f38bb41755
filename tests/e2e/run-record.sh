#!/usr/bin/env bash
# run-record.sh — whole-command tests of vpmu record: PEBS samples and
# data addresses, call chains with fp and dwarf, a killed guest, errors.
set -u
. "$(dirname "$0")/lib.sh"

L1MISS="--set l1d.size=8192,l1d.assoc=4 -e L1-dcache-load-misses:pp -c 100000"

pebs_on_the_load() { # every PEBS sample names the missing load, ≈ 100 of them
	"$VPMU" record -q $L1MISS "$PROGS/ua_l1miss" 65536 1250000 1 8192 || fail "record failed"
	"$VPMU" report --sort sym,srcline -n >rep 2>&1 || fail "report failed"
	grep -q '100.00%  *100  *\[\.\] run  *ua_l1miss.c:21' rep || { cat rep; fail "not all on the load"; }
}

data_addresses() { # seed 004 Table 1: 8 addresses 8 KB apart, same low 12 bits, ≈1/8 each
	"$VPMU" record -q $L1MISS "$PROGS/ua_l1miss" 65536 1250000 1 8192 || fail "record failed"
	"$VPMU" report --sort daddr -n >rep 2>&1 || fail "report failed"
	rows=$(sed -n 's/^ *\([0-9.]*\)% *\([0-9]*\) *\[\.\] 0x\([0-9a-f]*\).*/\1 \2 \3/p' rep | sort -k3)
	[ "$(wc -l <<<"$rows")" -eq 8 ] || { cat rep; fail "not 8 distinct addresses"; }
	first=$(head -n1 <<<"$rows" | cut -d' ' -f3)
	k=0
	while read -r pct n a; do
		[ $((0x$a - 0x$first)) -eq $((k * 8192)) ] || fail "address $a is not $k x 8 KB past $first"
		[ "$n" -ge 10 ] && [ "$n" -le 15 ] || fail "address $a has $n of 100 samples, not about 1/8"
		k=$((k + 1))
	done <<<"$rows"
	"$VPMU" report --sort daddr -n >rep2 2>&1
	"$VPMU" record -q $L1MISS "$PROGS/ua_l1miss" 65536 1250000 1 8192
	"$VPMU" report --sort daddr -n >rep3 2>&1
	cmp -s rep2 rep3 || fail "a rerun gave other samples"
}

jittered_periods() { # --period-jitter: still all on the load, still 8 KB apart
	"$VPMU" record -q --period-jitter 4 $L1MISS "$PROGS/ua_l1miss" 65536 1250000 1 8192 ||
		fail "record failed"
	"$VPMU" report --sort daddr -n >rep 2>&1 || fail "report failed"
	addrs=$(sed -n 's/.*\[\.\] 0x\([0-9a-f]*\).*/\1/p' rep | sort)
	[ "$(wc -l <<<"$addrs")" -ge 6 ] || { cat rep; fail "fewer than 6 distinct addresses"; }
	for a in $addrs; do
		[ $((0x$a % 8192)) -eq $((0x$(head -n1 <<<"$addrs") % 8192)) ] ||
			fail "address $a not 8 KB apart from the others"
	done
}

pebs_vs_iebs() { # seed 004 Figure 5: PEBS names the missing load, IEBS lands tens of instructions on
	"$VPMU" record -q -e L1-dcache-load-misses:pp -c 1000 "$PROGS/ua_skid" 100000 >/dev/null ||
		fail "record :pp failed"
	n=$("$VPMU" script -F sym | grep -c . ) at=$("$VPMU" script -F sym | grep -c '^ *miss_load$')
	[ "$at" -ge 99 ] && [ $((at * 100)) -ge $((n * 99)) ] || fail "PEBS: $at of $n samples on the load"
	"$VPMU" record -q -e L1-dcache-load-misses -c 1000 "$PROGS/ua_skid" 100000 >/dev/null ||
		fail "record failed"
	"$VPMU" script -F sym,symoff >s
	grep -q 'miss_load' s && fail "IEBS sample on the missing load"
	# the most frequent place, as instructions after the load (hit_block+3k is k+1 on)
	off=$(sed -n 's/.*hit_block+0x\([0-9a-f]*\).*/\1/p' s | sort | uniq -c | sort -rn | head -n1 | awk '{print $2}')
	[ -n "$off" ] || { head s; fail "no IEBS sample in the block of hits"; }
	skid=$((0x$off / 3 + 1))
	[ "$skid" -ge 20 ] && [ "$skid" -le 99 ] || fail "IEBS skid $skid instructions, not tens"
}

skid_field() { # each sample names the instruction whose miss raised it and the skid from there
	"$VPMU" record -q -e L1-dcache-load-misses:pp -c 1000 "$PROGS/ua_skid" 100000 >/dev/null ||
		fail "record :pp failed"
	"$VPMU" script -F trigger_ip,skid,ip,sym >s
	n=$(grep -c . s) z=$(awk '$2 == 0 && $1 == $3' s | grep -c .)
	[ "$n" -ge 100 ] && [ "$z" = "$n" ] || fail "PEBS: $z of $n samples with skid 0: $(head -3 s)"
	"$VPMU" report --sort skid >r
	grep -Eq '^ +100\.00%  0$' r || fail "PEBS skid buckets: $(cat r)"
	"$VPMU" record -q -e L1-dcache-load-misses -c 1000 "$PROGS/ua_skid" 100000 >/dev/null ||
		fail "record failed"
	"$VPMU" script -F trigger_ip,skid,ip,sym,symoff >s
	# hit_block+3k is k+1 instructions after miss_load, 2 bytes before hit_block
	awk '$4 ~ /^hit_block\+0x/ { off = strtonum(substr($4, 11)); n++
		if ($2 == off / 3 + 1 && strtonum("0x" $1) + 2 + off == strtonum("0x" $3)) ok++ }
		END { print ok + 0, n + 0 }' s >c
	read -r ok n <c
	[ "$n" -ge 99 ] && [ "$ok" = "$n" ] || fail "IEBS: $ok of $n samples with the known skid: $(head -3 s)"
	"$VPMU" report --sort skid >r
	grep -Eq '^ +9[0-9]\.[0-9]+%  64-127$' r || fail "IEBS skid buckets: $(cat r)"
}

calibrated() { # --calibrate N: N samples within 1%, the period printed
	"$VPMU" record --calibrate 300 --set l1d.size=8192,l1d.assoc=4 -e L1-dcache-load-misses:pp \
		"$PROGS/ua_l1miss" 65536 200000 1 8192 >out 2>err ||
		fail "record failed: $(cat err)"
	grep -q -- '--calibrate: L1-dcache-load-misses:pp counted [0-9]*; period [0-9]*$' err ||
		fail "no period reported: $(cat err)"
	n=$("$VPMU" script -F ip | grep -c .)
	[ "$n" -ge 297 ] && [ "$n" -le 303 ] || fail "$n samples, not 300 within 1%"
	"$VPMU" record --calibrate 0 true 2>err && fail "--calibrate 0 accepted"
	"$VPMU" record --calibrate 10 -c 5 true 2>err && fail "--calibrate with -c accepted"
	grep -q 'exclude' err || fail "$(cat err)"
}

chain_of() { # mode prog: the call chain of the hottest samples, as folded stacks
	"$VPMU" record -q --call-graph "$1" -c 200000 "$PROGS/$2" >/dev/null || fail "record failed"
	"$VPMU" report --format=folded 2>/dev/null | sort -t' ' -k2 -n | tail -n1
}

want="main;rec_a;rec_b;rec_c;rec_a;rec_b;rec_c;rec_a;rec_b;rec_c;rec_a;rec_b;rec_c;rec_leaf"
dwarf_chains() {
	for p in recurse recurse_nofp; do
		c=$(chain_of dwarf $p)
		case $c in *"$want "*) ;; *) fail "$p dwarf chain: $c" ;; esac
	done
}

fp_chains() { # with frame pointers every frame above the leaf's caller is found
	c=$(chain_of fp recurse)
	case $c in *"main;rec_a;rec_b;rec_c;rec_a;rec_b;rec_c;rec_a;rec_b;rec_c;rec_a;rec_b;"*) ;;
	*) fail "fp chain: $c" ;; esac
	c=$(chain_of fp recurse_nofp)
	case $c in *"main;"*) fail "fp walked a program without frame pointers: $c" ;; esac
	return 0
}

descendants() { # pid: its children, grandchildren, ...
	local c
	for c in $(pgrep -P "$1"); do
		echo "$c"
		descendants "$c"
	done
}

killed_guest() { # SIGKILL mid-run: the file reads, with the samples sent so far
	"$VPMU" record -q -c 100000 "$PROGS/hd_spin" loop >/dev/null 2>&1 &
	sleep 3
	# the guest processes only: vpmu's descendants, not other runs' hd_spin
	kill -KILL $(descendants $!) 2>/dev/null
	wait $!
	[ -s vpmu.data ] || fail "no file"
	"$VPMU" script >s 2>err || true
	[ "$(wc -l <s)" -gt 0 ] || { cat err; fail "no samples read back"; }
}

errors() {
	"$VPMU" record -e cyclez true 2>err && fail "bad event accepted"
	grep -q "cycles" err || fail "no suggestion: $(cat err)"
	"$VPMU" record -c 10 -F 10 true 2>err && fail "-c with -F accepted"
	"$VPMU" record --call-graph lbr true 2>err && fail "bad call graph accepted"
	"$VPMU" record /nonexistent 2>err; [ $? -eq 127 ] || fail "missing program status"
	[ ! -e vpmu.data ] || fail "a file was left for a program that never ran"
}

every_period() { # -c on cycles: a sample per period, also past system calls' long spans
	"$VPMU" stat -x, -e cycles "$PROGS/bench_qsort" 1000 >/dev/null 2>st || fail "stat failed"
	cyc=$(cut -d, -f1 st)
	for a in p4 ia64 xscale alpha; do
		"$VPMU" record -q -a $a -c 10000 "$PROGS/bench_qsort" 1000 >/dev/null || fail "$a: record failed"
		n=$("$VPMU" script -F ip | grep -c .)
		[ "$a" = p4 ] || { [ "$n" -ge 40 ] || fail "$a: $n samples"; continue; }
		# each sample is taken up to an interrupt latency and one system call late
		[ $((n * 10000 * 100)) -ge $((cyc * 90)) ] && [ $((n * 10000)) -le "$cyc" ] ||
			fail "p4: $n samples of period 10000 over $cyc cycles"
	done
}

# A full file system while recording: the error is one line, the status 1,
# and the previous vpmu.data is kept (a small tmpfs in a mount namespace).
output_safety() {
	unshare -m true 2>/dev/null || { echo "skipped: no mount namespace here"; return 0; }
	"$VPMU" record -q -c 100000 "$PROGS/e2e_loop" >/dev/null || fail "record failed"
	mkdir small
	unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs small && cp vpmu.data small/ &&
		cd small && "$0" record -q -c 100 "$1/bench_qsort" 10000 >/dev/null 2>../err
		echo $? >../rc; cp vpmu.data ../kept; ls >../left' "$VPMU" "$PROGS"
	[ "$(cat rc)" = 1 ] || fail "exit status $(cat rc)"
	[ "$(grep -c . err)" -eq 1 ] && grep -q "cannot write vpmu.data: No space left on device" err ||
		fail "no one-line write error: $(cat err)"
	cmp -s vpmu.data kept || fail "the previous vpmu.data was not kept"
	[ "$(cat left)" = vpmu.data ] || fail "files left behind: $(cat left)"
	"$VPMU" report -i kept --stdio >/dev/null 2>&1 || fail "the kept file does not read"
}

old_kept() {
	"$VPMU" record -q -c 1000000 "$PROGS/e2e_loop" >/dev/null || fail "record 1"
	"$VPMU" record -q -c 1000000 -o vpmu.data "$PROGS/e2e_loop" >/dev/null || fail "record 2"
	[ -s vpmu.data.old ] || fail "no .old"
}

# vpmu mem: record is record -e mem-loads:pp, the p4's PEBS L1 load misses
# (the same samples as L1-dcache-load-misses:pp), the ia64's data EAR with
# latencies; report sorts by latency, source, function and data object
mem_record_report() {
	local q="$PROGS/bench_qsort"
	"$VPMU" mem record -q -c 200 -o mem.data "$q" 20000 >/dev/null || fail "mem record failed"
	"$VPMU" record -q -e L1-dcache-load-misses:pp -c 200 -o l1.data "$q" 20000 >/dev/null ||
		fail "record failed"
	"$VPMU" script -i mem.data -F ip,addr,data_src >a 2>&1 && "$VPMU" script -i l1.data -F ip,addr,data_src >b 2>&1 &&
		[ "$(grep -c . a)" -ge 50 ] && cmp -s a b || fail "not the L1 load misses' samples: $(wc -l a b)"
	"$VPMU" mem report -i mem.data >rep 2>&1 || fail "mem report failed: $(cat rep)"
	grep -q "^# Samples: $(grep -c . a) of event 'mem-loads:pp'\$" rep &&
		grep -Eq '^# Overhead +Samples +Local Weight +Memory access +Symbol +Shared Object +Data Symbol +Data Object$' rep &&
		grep -Eq '^ +[0-9.]+% +[0-9]+ +0 +L2 +\[\.\] cmp +bench_qsort ' rep || fail "report: $(head -14 rep)"
	# a -s of one's own replaces the keys; -D is one line a sample
	"$VPMU" mem report -i mem.data -s sym >rep 2>&1
	grep -Eq '^# Overhead +Samples +Symbol$' rep || fail "-s: $(head -10 rep)"
	"$VPMU" mem -D -i mem.data >dump 2>&1 || fail "-D failed: $(cat dump)"
	[ "$(grep -c . dump)" = "$(grep -c . a)" ] && grep -q ' cmp$' dump || fail "-D: $(head -3 dump)"
	# the ia64: loads of 4 cycles or more, their latencies as weights
	"$VPMU" mem record -q -a ia64 -c 200 -o ia.data "$q" 20000 >/dev/null || fail "ia64 record failed"
	"$VPMU" mem report -i ia.data -q -s local_weight,mem >rep 2>&1 || fail "ia64 report failed"
	awk '$1 ~ /%$/ && $3 < 4 { bad = 1 } $1 ~ /%$/ { n++ } END { exit bad || n < 2 }' rep &&
		grep -Eq '^ +[0-9.]+% +[0-9]+ +[0-9]+ +memory$' rep || fail "ia64: $(cat rep)"
	# perf's --ldlat: the data EAR's threshold, after record or before it
	"$VPMU" mem record --ldlat 16 -q -a ia64 -c 50 -o lat.data "$q" 20000 >/dev/null &&
		"$VPMU" mem --ldlat=16 record -q -a ia64 -c 50 -o lat2.data "$q" 20000 >/dev/null &&
		"$VPMU" record -q -a ia64 -e DATA_EAR_EVENTS:CACHE_LAT16:pp -c 50 -o ear.data \
			"$q" 20000 >/dev/null || fail "--ldlat record failed"
	"$VPMU" script -i lat.data -F ip,addr,weight >a 2>&1 && "$VPMU" script -i lat2.data -F ip,addr,weight >b &&
		"$VPMU" script -i ear.data -F ip,addr,weight >c && [ "$(grep -c . a)" -ge 5 ] &&
		cmp -s a b && cmp -s a c && awk '$NF < 16 { exit 1 }' a || fail "--ldlat 16: $(wc -l a b c; head -3 a)"
	"$VPMU" mem report -i lat.data >rep 2>&1
	grep -q "^# Samples: $(grep -c . a) of event 'cpu/mem-loads,ldlat=16/pp'\$" rep || fail "--ldlat report: $(head -6 rep)"
	"$VPMU" mem record --ldlat 30 -a ia64 true >out 2>err
	[ $? = 1 ] && grep -q "ia64's thresholds are 4, 8, 16, 32, .* 4096 cycles (did you mean ldlat=32?)$" err ||
		fail "--ldlat 30: $(cat err)"
	"$VPMU" mem record --ldlat 32 true >out 2>err
	[ $? = 1 ] && [ "$(cat err)" = "vpmu record: 'cpu/mem-loads,ldlat=32/pp': p4 has no load-latency threshold" ] ||
		fail "--ldlat on p4: $(cat err)"
	# what no machine here samples, and machines without data addresses
	"$VPMU" mem -t store record true >out 2>err
	[ $? = 1 ] && [ "$(cat err)" = "vpmu record: generic event 'mem-stores' is not supported on p4" ] ||
		fail "stores: $(cat err)"
	"$VPMU" mem record -a xscale true >out 2>err
	[ $? = 1 ] && grep -q "'mem-loads' is not supported on xscale" err || fail "xscale: $(cat err)"
	"$VPMU" mem -t loads record true >out 2>err
	[ $? = 1 ] && grep -q "^vpmu mem: -t wants load, store or load,store, not 'loads'" err ||
		fail "bad type: $(cat err)"
	"$VPMU" mem frob >out 2>err
	[ $? = 1 ] && grep -q "^vpmu mem: unknown command 'frob'" err || fail "bad command: $(cat err)"
}

# report and script --tid: a thread's samples alone, the same as by the
# tid sort key (perf's --pid and --tid)
tid_filter() {
	"$VPMU" record -q -c 20000 "$PROGS/lx_threads" >/dev/null || fail "record failed"
	local tid
	tid=$("$VPMU" script -F tid | sort -n | uniq | sed -n 2p | tr -d ' ')
	[ -n "$tid" ] || fail "no second thread: $("$VPMU" script -F tid | sort -u)"
	"$VPMU" report -q -n -s tid >all 2>&1 && "$VPMU" report -q -n -s tid --tid "$tid" >one 2>&1 ||
		fail "report failed: $(cat all one)"
	[ "$(grep -c % one)" = 1 ] && [ "$(grep "  $tid\$" all)" = "$(grep % one)" ] ||
		fail "--tid $tid: $(cat one) of $(cat all)"
	[ "$("$VPMU" script --tid "$tid" -F tid | sort -u | tr -d ' ')" = "$tid" ] || fail "script --tid"
}

# script's insn and disasm: each sampled instruction's bytes and text, as
# objdump -d prints them from the file
script_insn() {
	command -v objdump >/dev/null || { echo "skipped: no objdump"; return 0; }
	"$VPMU" record -q -c 50000 "$PROGS/bench_qsort" 20000 >/dev/null || fail "record failed"
	"$VPMU" script -F sym,symoff,insn,disasm >out 2>err || fail "script failed: $(cat err)"
	local n=0 sym off base at want
	while read -r where rest; do
		sym=${where%%+*}
		off=${where#*+}
		base=$(nm "$PROGS/bench_qsort" | awk -v s="$sym" '$3 == s { print $1; exit }')
		[ -n "$base" ] || continue
		at=$(printf '%x' $((0x$base + off)))
		# "  1234:	48 83 f8 02    	cmp    $0x2,%rax"
		want=$(objdump -d --start-address=0x$at --stop-address=$((0x$at + 15)) "$PROGS/bench_qsort" |
			awk -F'\t' -v a="$at:" '$1 ~ a"$" { gsub(/ +$/, "", $2); print "insn: " $2 " " $3 }')
		# (a branch's target is the runtime address, as the ip is; objdump's
		# the file's: compare the <symbol+offset> they both name)
		[ "$(sed 's/[0-9a-f]* </</' <<<"$rest")" = "$(sed 's/[0-9a-f]* </</' <<<"$want")" ] ||
			fail "$where: '$rest', objdump '$want'"
		n=$((n + 1))
	done < <(grep -E '^ *(cmp|main|fill)\+0x' out)
	[ "$n" -ge 5 ] || fail "$n samples in the program: $(head -5 out)"
}

# buildid-list: the images' build-ids as readelf reads them; a program
# replaced or removed after the recording is marked, and report warns.
# libc runs some 130,000 of the run's cycles: a sample every 10,000 puts
# a dozen there, where one every 100,000 put one or none, by path length.
buildid_list() {
	cp "$PROGS/e2e_loop" ./prog
	"$VPMU" record -q -c 10000 ./prog 20000 >/dev/null || fail "record failed"
	"$VPMU" buildid-list -H >out 2>err || fail "buildid-list failed: $(cat err)"
	local id
	id=$(readelf -n ./prog | awk '/Build ID:/ { print $3 }')
	[ -n "$id" ] && grep -qx "$id $PWD/prog" out && grep -q ' /.*libc\.so\.6$' out && [ ! -s err ] ||
		fail "ids: $(cat out err), readelf $id"
	"$VPMU" report -q >/dev/null 2>err && [ ! -s err ] || fail "a warning for the same files: $(cat err)"
	cp "$PROGS/e2e_exit3" ./prog
	"$VPMU" buildid-list >out 2>&1
	grep -qx "$id $PWD/prog (the file's is another: rebuilt)" out || fail "rebuilt: $(cat out)"
	"$VPMU" report -q >/dev/null 2>err
	[ "$(cat err)" = "vpmu report: warning: images differ from those recorded (rebuilt or gone: their symbols and code may be wrong): $PWD/prog" ] ||
		fail "report: $(cat err)"
	rm prog
	"$VPMU" buildid-list >out 2>&1
	grep -qx "$id $PWD/prog (the file is gone or has none)" out || fail "gone: $(cat out)"
	"$VPMU" script -F ip >/dev/null 2>err
	grep -q "^vpmu script: warning: images differ .*: $PWD/prog\$" err || fail "script: $(cat err)"
}

# script's time: seconds of the emulated clock (core.mhz), a sample
# every 900,000 cycles of the 3.6 GHz p4 every 250 µs
script_time() {
	"$VPMU" record -q -c 900000 -- "$PROGS/bench_qsort" 20000 >/dev/null || fail "record failed"
	"$VPMU" script -F time >t 2>&1 || fail "script failed: $(cat t)"
	awk '{ n++; if ($1 !~ /^[0-9]+\.[0-9]{9}:$/) bad = 1; v = $1 + 0
		if (n > 1 && (v - last < 0.000249 || v - last > 0.000251)) bad = 1; last = v }
		END { exit bad || n < 5 }' t || fail "times: $(head -5 t)"
	# an exec'd image's clock goes on from the image before it
	"$VPMU" record -q -c 100000 -o e.data -- sh -c "exec $PROGS/bench_qsort 3000" >/dev/null ||
		fail "record sh failed"
	"$VPMU" script -i e.data -F comm,time >t 2>&1 || fail "script failed: $(cat t)"
	awk '$1 == "sh" { sh = $2 + 0 } $1 == "bench_qsort" && !q { q = $2 + 0 }
		END { exit !(sh > 0 && q > sh) }' t ||
		fail "the exec'd image's times: $(grep -m1 sh t) $(grep -m1 bench_qsort t)"
}

# C++ names demangled in report, script and annotate, as perf shows them;
# --no-demangle keeps the files' names, with the same samples
cxx_names() {
	"$VPMU" record -q -c 20000 -- "$PROGS/lx_throw" >/dev/null || fail "record failed"
	"$VPMU" report --stdio --sort sym >d 2>&1 || fail "report failed: $(cat d)"
	"$VPMU" report --stdio --sort sym --no-demangle >m 2>&1 || fail "report failed: $(cat m)"
	grep -q '% *\[\.\] lx::mix(long)$' d || fail "no lx::mix(long): $(head -12 d)"
	grep -q '_ZN2lx3mixEl' d && fail "a mangled name shown: $(grep _Z d | head -3)"
	grep -q '% *\[\.\] <lx::Wrap as core::fmt::Display>::fmt$' d &&
		grep -q '% *\[\.\] _ZN47_\$LT\$lx\.\.Wrap.*GT\$3fmt17h0123456789abcdefE$' m ||
		fail "Rust name: $(grep -e fmt d m)"
	grep -q '% *\[\.\] <lx::wrap::Wrap>::total$' d &&
		grep -q '% *\[\.\] _RNvMNtCs1_2lx4wrapNtNtCs1_2lx4wrap4Wrap5total$' m ||
		fail "Rust v0 name: $(grep -e total d m)"
	"$VPMU" report --stdio --sort sym --no-demangle --demangle 2>&1 | diff - d >/dev/null ||
		fail "--demangle after --no-demangle"
	[ "$(grep 'lx::mix(long)$' d | awk '{ print $1 }')" = \
		"$(grep '_ZN2lx3mixEl$' m | awk '{ print $1 }')" ] &&
		[ "$(grep -c . d)" = "$(grep -c . m)" ] || fail "--no-demangle: $(grep mix m)"
	"$VPMU" script -F sym >d 2>&1 && "$VPMU" script -F sym --no-demangle >m 2>&1 ||
		fail "script failed: $(cat d m)"
	"$VPMU" script -F sym --no-demangle --demangle | diff - d >/dev/null || fail "script --demangle"
	[ "$(grep -c '^ *lx::mix(long)$' d)" -gt 0 ] &&
		[ "$(grep -c '^ *lx::mix(long)$' d)" = "$(grep -c '^ *_ZN2lx3mixEl$' m)" ] ||
		fail "script: $(grep -c 'mix' d) against $(grep -c mix m)"
	"$VPMU" annotate --stdio 'lx::mix(long)' >d 2>&1 &&
		"$VPMU" annotate --stdio --no-demangle _ZN2lx3mixEl >m 2>&1 ||
		fail "annotate failed: $(head -3 d m)"
	head -1 d | grep -q '^Samples in lx::mix(long) (' || fail "annotate: $(head -1 d)"
	sed 's/_ZN2lx3mixEl/lx::mix(long)/' m | diff - d >/dev/null || fail "annotate --no-demangle"
	"$VPMU" annotate --stdio --no-demangle --demangle 'lx::mix(long)' 2>&1 | diff - d >/dev/null ||
		fail "annotate --demangle"
	"$VPMU" annotate --stdio lx::mix >d 2>&1 && fail "lx::mix annotated"
	grep -q "did you mean 'lx::mix(long)'" d || fail "no suggestion: $(cat d)"
	# an inlined function's frame, named by DWARF's linkage name
	"$VPMU" report --stdio -g --sort sym >d 2>&1 &&
		"$VPMU" report --stdio -g --sort sym --no-demangle >m 2>&1 ||
		fail "report -g failed: $(head -3 d m)"
	grep -q -- '--lx::step(long, long) (inlined)$' d &&
		grep -q -- '--_ZN2lx4stepEll (inlined)$' m || fail "inlined: $(grep -m3 inlined d m)"
}

# perf's evlist: the events as given, their rates, how they sampled
evlist() {
	"$VPMU" record -q -e cycles:u,L1-dcache-load-misses:pp -c 2000 -- "$PROGS/bench_qsort" 20000 \
		>/dev/null || fail "record failed"
	"$VPMU" evlist >out 2>err && [ "$(cat out)" = "cycles:u
L1-dcache-load-misses:pp" ] || fail "evlist: $(cat out err)"
	"$VPMU" evlist -F >out && [ "$(cat out)" = "cycles:u: sample_period=2000
L1-dcache-load-misses:pp: sample_period=2000" ] || fail "-F: $(cat out)"
	"$VPMU" evlist -v >out
	n=$("$VPMU" script -e L1-dcache-load-misses:pp -F ip | grep -c .)
	grep -Eq '^cycles:u: machine=p4, config=0x[0-9a-f]+, sample_period=2000, precise_ip=0, sample_type=IP\|TID\|TIME\|PERIOD\|TRIGGER, samples=[1-9][0-9]*, lost=0$' out &&
		grep -Eq "^L1-dcache-load-misses:pp: machine=p4, .*precise_ip=2, sample_type=IP\|TID\|TIME\|PERIOD\|ADDR\|REGS.*, samples=$n, lost=0\$" out &&
		[ "$n" -gt 0 ] || fail "-v: $(cat out) ($n samples)"
	"$VPMU" record -q -F 1000 -o f.data -- true && "$VPMU" evlist -F -i f.data >out &&
		[ "$(cat out)" = "cycles: sample_freq=1000" ] || fail "-F 1000: $(cat out)"
	# perf's terms: an event's own name and rate, over -c
	"$VPMU" record -q -c 2000 -o t.data -e 'cpu/cycles,period=100000,name=cyc/,cpu/instructions,freq=100/u' \
		-- "$PROGS/bench_qsort" 20000 >/dev/null && "$VPMU" evlist -F -i t.data >out &&
		[ "$(cat out)" = "cyc: sample_period=100000
cpu/instructions,freq=100/u: sample_freq=100" ] || fail "terms: $(cat out)"
	n=$("$VPMU" script -i t.data -e cyc -F period | sort -u | tr -d " ")
	[ "$n" = 100000 ] || fail "cyc's periods: $n"
	"$VPMU" evlist -i nosuch.data >out 2>err
	[ $? = 1 ] && grep -q '^vpmu evlist: cannot open nosuch.data' err || fail "no file: $(cat err)"
}

# -F starts at a period of 1 as perf's: a rare event samples too (11,000
# L1 load misses in 10.8 million cycles), and the periods then approach
# the frequency's (4000 a second: a sample every 900,000 cycles)
freq_mode() {
	"$VPMU" record -q -e cycles,L1-dcache-load-misses:pp -- "$PROGS/bench_qsort" 20000 >/dev/null ||
		fail "record failed"
	"$VPMU" script -F event,period >s
	n=$(grep -c 'L1-dcache-load-misses' s)
	[ "$n" -ge 5 ] || fail "$n L1 miss samples: $(cat s)"
	[ "$(grep -m1 cycles s | awk '{ print $1 }')" = 1 ] &&
		grep cycles s | tail -1 | awk '{ exit !($1 > 700000 && $1 < 1100000) }' ||
		fail "cycles periods: $(grep cycles s | tr '\n' ' ')"
	# ProfileMe's records come late, and the 21264's counters overflow in
	# bursts: they start at the period of an event a cycle (667 MHz)
	for e in profileme cycles; do
		"$VPMU" record -q -a alpha -e $e -o a.data -- "$PROGS/bench_qsort" 20000 >/dev/null &&
			"$VPMU" script -i a.data -F time,period >s && n=$(grep -c . s) &&
			[ "$n" -ge 20 ] && [ "$(awk 'NR == 1 { print $2 }' s)" = 166750 ] &&
			[ "$(awk '{ print $1 }' s | sort | uniq -d | wc -l)" = 0 ] ||
			fail "alpha $e: $n samples: $(head -3 s)"
	done
}

# perf's pipe mode, -o - and -i -; /dev/stdout and other symbolic links
# written through, never replaced
pipe_mode() {
	local cmd="$PROGS/e2e_loop 10 >/dev/null"
	"$VPMU" record -q -c 100000 -o file.data -- sh -c "$cmd" || fail "record failed"
	"$VPMU" report -i file.data --no-children >want 2>&1
	"$VPMU" record -q -c 100000 -o - -- sh -c "$cmd" | "$VPMU" report -i - --no-children >got 2>err &&
		[ ! -s err ] && cmp -s want got || fail "-o - | -i -: $(diff want got | head -5) $(cat err)"
	[ ! -e ./- ] || fail "a file named -"
	# not onto a terminal (script(1) gives the command one)
	if command -v script >/dev/null; then
		script -qec "$VPMU record -q -o - -- true" /dev/null >tty.out 2>&1
		grep -q 'vpmu record: -o -: standard output is a terminal' tty.out || fail "onto a tty: $(cat tty.out)"
	fi
	"$VPMU" record -q -c 100000 -o /dev/stdout -- sh -c "$cmd" >out.data &&
		[ -L /dev/stdout ] && "$VPMU" report -i out.data --no-children >got 2>&1 && cmp -s want got ||
		fail "-o /dev/stdout: $(ls -l /dev/stdout) $(diff want got | head -5)"
	"$VPMU" script -i - -F ip <out.data >got 2>&1 && "$VPMU" script -i out.data -F ip >ips &&
		[ -s ips ] && cmp -s ips got || fail "script -i -: $(head -3 got)"
	echo 'not a sample file' | "$VPMU" report -i - >out 2>err
	[ $? = 1 ] && [ "$(cat err)" = "vpmu report: -: not a vpmu data file" ] || fail "garbage on stdin: $(cat err)"
	cp file.data target.data
	ln -sf target.data link.data
	"$VPMU" record -q -c 100000 -o link.data -- sh -c "$cmd" &&
		[ -L link.data ] && [ ! -e link.data.old ] && "$VPMU" report -i target.data --no-children >got 2>&1 &&
		cmp -s want got || fail "a symbolic link: $(ls -l link.data*) $(diff want got | head -3)"
}

t pebs_on_the_load pebs_on_the_load
t data_addresses data_addresses
t jittered_periods jittered_periods
t pebs_vs_iebs pebs_vs_iebs
t skid_field skid_field
t calibrated calibrated
t dwarf_chains dwarf_chains
t fp_chains fp_chains
t killed_guest killed_guest
t errors errors
t old_kept old_kept
t every_period every_period
t output_safety output_safety
t mem_record_report mem_record_report
t tid_filter tid_filter
t script_insn script_insn
t script_time script_time
t evlist evlist
t cxx_names cxx_names
t freq_mode freq_mode
t pipe_mode pipe_mode
t buildid_list buildid_list
summary
