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

data_addresses() { # reconstructed addresses: 8 KB apart, same low 12 bits
	"$VPMU" record -q --period-jitter 4 $L1MISS "$PROGS/ua_l1miss" 65536 1250000 1 8192 ||
		fail "record failed"
	"$VPMU" report --sort daddr -n >rep 2>&1 || fail "report failed"
	addrs=$(sed -n 's/.*\[\.\] 0x\([0-9a-f]*\).*/\1/p' rep | sort)
	[ "$(wc -l <<<"$addrs")" -ge 4 ] || { cat rep; fail "fewer than 4 distinct addresses"; }
	for a in $addrs; do
		[ $((0x$a % 8192)) -eq $((0x$(head -n1 <<<"$addrs") % 8192)) ] ||
			fail "address $a not 8 KB apart from the others"
	done
	"$VPMU" report --sort daddr -n >rep2 2>&1
	"$VPMU" record -q --period-jitter 4 $L1MISS "$PROGS/ua_l1miss" 65536 1250000 1 8192
	"$VPMU" report --sort daddr -n >rep3 2>&1
	cmp -s rep2 rep3 || fail "a rerun gave other samples"
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

killed_guest() { # SIGKILL mid-run: the file reads, with the samples sent so far
	"$VPMU" record -q -c 100000 "$PROGS/hd_spin" loop >/dev/null 2>&1 &
	sleep 3
	pkill -KILL -f "__exec.*hd_spin" 2>/dev/null
	for pid in $(pgrep -f "hd_spin"); do [ "$pid" != $! ] && kill -KILL "$pid"; done
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

old_kept() {
	"$VPMU" record -q -c 1000000 "$PROGS/e2e_loop" >/dev/null || fail "record 1"
	"$VPMU" record -q -c 1000000 -o vpmu.data "$PROGS/e2e_loop" >/dev/null || fail "record 2"
	[ -s vpmu.data.old ] || fail "no .old"
}

t pebs_on_the_load pebs_on_the_load
t data_addresses data_addresses
t dwarf_chains dwarf_chains
t fp_chains fp_chains
t killed_guest killed_guest
t errors errors
t old_kept old_kept
summary
