#!/usr/bin/env bash
# run-annotate.sh — vpmu annotate on sample files with known samples,
# written by tests/tools/annogen.c (built here) as `vpmu record` lays them
# out: sym_hot (-O2 -g, PIE) mapped at a typical PIE address, a shared
# library built here at another, samples of two events on chosen
# instructions.  Checks: the instruction text against `objdump -d`,
# per-instruction counts against the
# samples written and their sums against the header, percentages, the
# default (hottest) function, jump-target marks, source lines and
# --no-source, -M intel, a library function, a binary without debug info,
# colour on a terminal, and the one-line errors.
#
# Comparing text with objdump, only two differences are normalised (as in
# run-symbols.sh): runs of blanks, and objdump's <name> after the address
# a %rip-relative operand names when that address is outside every symbol
# (objdump names any address by the nearest symbol before it, even past
# that symbol's end); where annotate prints no <name> there, objdump's is
# dropped.
#
# Environment: BUILD (with libvpmu.a), PROGS (built tests/progs), VPMU.
set -u
cd "$(dirname "$0")/../.." || exit 1
SRC=$PWD
. tests/e2e/lib.sh
unset DEBUGINFOD_URLS

BUILD=${BUILD:-build}
GEN=$E2E_SCRATCH/annogen
HOT=$PROGS/sym_hot
LIB=$E2E_SCRATCH/libsymlib.so
BASE=555555554000 # where the main program is mapped (its lowest page)
LIBBASE=7f0000000000
build_log=$E2E_SCRATCH/build.log
{
	gcc -O2 -g -fno-lto -std=gnu11 -Wall -Wextra -I"$SRC" -o "$GEN" "$SRC/tests/tools/annogen.c" \
		"$BUILD/libvpmu.a" -ldw -lelf -lz -lstdc++ -lpthread -lm &&
		gcc -O2 -g -shared -fPIC -DSYM_LIB_SHARED -o "$LIB" "$SRC/tests/progs/sym_lib.c"
} >"$build_log" 2>&1

have_tools() {
	[ -x "$GEN" ] && [ -f "$LIB" ] || fail "test tools did not build: $(head -c 600 "$build_log")"
}

# sym_addr FILE NAME: the symbol's file address (hex); sym_size likewise.
sym_addr() { nm -S "$1" | awk -v n="$2" '$4 == n { print $1; exit }'; }
sym_size() { nm -S "$1" | awk -v n="$2" '$4 == n { print $2; exit }'; }

# insn_addrs FILE NAME: the addresses (hex) of the function's instructions.
insn_addrs() {
	local a s
	a=$(sym_addr "$1" "$2")
	s=$(sym_size "$1" "$2")
	objdump -d --no-show-raw-insn --start-address=0x$a --stop-address=$((0x$a + 0x$s)) "$1" |
		awk -F'\t' '/^ *[0-9a-f]+:\t/ { a = $1; gsub(/[ :]/, "", a); print a }'
}

# rt BASE ADDR: the runtime address of file address ADDR (hex in, hex out)
rt() { printf '%x' $((0x$1 + 0x$2)); }

# The samples: hot_loop gets 50 + 30 + 11 of event 0 on its 2nd, 5th and
# last instructions and 7 of event 1 on the 5th; classify 20 of event 0;
# lib_sum_squares 13 of event 0 and 4 of event 1.  main gets none.
make_data() {
	local h c l
	mapfile -t h < <(insn_addrs "$HOT" hot_loop)
	mapfile -t c < <(insn_addrs "$HOT" classify)
	mapfile -t l < <(insn_addrs "$LIB" lib_sum_squares)
	[ ${#h[@]} -gt 6 ] && [ ${#c[@]} -gt 3 ] && [ ${#l[@]} -gt 3 ] || {
		fail "no instructions from objdump"
		return 1
	}
	HOT_A=${h[1]} HOT_B=${h[4]} HOT_C=${h[${#h[@]} - 1]} LIB_A=${l[2]}
	"$GEN" -o vpmu.data -e cycles -e instructions \
		-m "100:$BASE:$HOT" -m "100:$LIBBASE:$LIB" \
		-s "0:100:$(rt $BASE "$HOT_A"):50" -s "0:100:$(rt $BASE "$HOT_B"):30" \
		-s "0:100:$(rt $BASE "$HOT_C"):11" -s "1:100:$(rt $BASE "$HOT_B"):7" \
		-s "0:100:$(rt $BASE "${c[2]}"):20" \
		-s "0:100:$(rt $LIBBASE "$LIB_A"):13" -s "1:100:$(rt $LIBBASE "$LIB_A"):4" ||
		fail "annogen failed"
}

# insn_lines: from an annotate listing on stdin, "ADDR<TAB>TEXT" per
# instruction, blanks squeezed.
insn_lines() {
	awk -F'\t' '/^[ 0-9.]* :[ >] +[0-9a-f]+:\t/ {
		a = $1; sub(/.*:[ >] +/, "", a); sub(/:$/, "", a)
		t = $2; for (i = 3; i <= NF; i++) t = t " " $i
		gsub(/[ \t]+/, " ", t); sub(/ $/, "", t); print a "\t" t }'
}

# objdump_lines FILE NAME: the same from objdump -d.  same_text compares
# such lists, dropping objdump's names where annotate has none.
objdump_lines() {
	local a s
	a=$(sym_addr "$1" "$2")
	s=$(sym_size "$1" "$2")
	objdump -d --no-show-raw-insn --start-address=0x$a --stop-address=$((0x$a + 0x$s)) "$1" |
		awk -F'\t' '/^ *[0-9a-f]+:\t/ {
			a = $1; sub(/^ +/, "", a); sub(/:$/, "", a)
			t = $2; for (i = 3; i <= NF; i++) t = t " " $i
			gsub(/[ \t]+/, " ", t); sub(/ $/, "", t); print a "\t" t }'
}

same_text() { # OBJDUMP MINE
	awk -F'\t' 'NR == FNR { obj[FNR] = $0; next }
	{
		o = obj[FNR]
		if (o != $0 && $2 !~ / <[^>]*>$/ && o ~ / # [0-9a-f]+ <[^>]*>$/)
			sub(/ <[^>]*>$/, "", o)
		if (o != $0) { print FNR ": " obj[FNR] " | " $0; bad = 1 }
	}
	END { if (FNR != length(obj)) { print "line counts differ"; bad = 1 }; exit bad }' "$1" "$2"
}

# count_at ADDR COLUMN: the count in an -n listing (file out) at ADDR.
count_at() {
	awk -v a="$1" -v c="$2" '/ :[ >] +[0-9a-f]+:\t/ {
		split($0, p, " :"); n = split(p[1], f, " ")
		x = $0; sub(/.*:[ >] +/, "", x); sub(/:\t.*/, "", x)
		if (x == a) { v = (c == 1 ? substr(p[1], 1, 8) : substr(p[1], 9)) + 0; print v; exit } }' out
}

objdump_match() {
	have_tools && make_data || return 1
	for f in hot_loop classify; do
		run_vpmu annotate --stdio --no-source "$f"
		expect_rc 0 || return 1
		insn_lines <out >mine
		objdump_lines "$HOT" "$f" >theirs
		[ -s theirs ] && same_text theirs mine >d || fail "$f differs from objdump: $(head -5 d)"
	done
	run_vpmu annotate --stdio --no-source lib_sum_squares
	expect_rc 0 || return 1
	insn_lines <out >mine
	objdump_lines "$LIB" lib_sum_squares >theirs
	[ -s theirs ] && same_text theirs mine >d || fail "library differs from objdump: $(head -5 d)"
	grep -q "^Samples in lib_sum_squares ($LIB, " out || fail "header: $(head -1 out)"
}

sums() {
	have_tools && make_data || return 1
	run_vpmu annotate --stdio -n hot_loop
	expect_rc 0 || return 1
	grep -qx "Samples in hot_loop ($HOT, 0x$(sym_addr "$HOT" hot_loop | sed 's/^0*//')-0x[0-9a-f]*): cycles 91, instructions 7" out ||
		fail "header: $(head -1 out)"
	# columns are 8 wide (7 and a blank) for these names
	[ "$(count_at "$HOT_A" 1)" = 50 ] && [ "$(count_at "$HOT_B" 1)" = 30 ] &&
		[ "$(count_at "$HOT_C" 1)" = 11 ] && [ "$(count_at "$HOT_B" 2)" = 7 ] ||
		fail "counts at the sampled addresses: $(grep -E '^ +[0-9]' out)"
	awk '/ :[ >] +[0-9a-f]+:\t/ { split($0, p, " :")
		s1 += substr(p[1], 1, 8); s2 += substr(p[1], 9) } END { print s1, s2 }' out >s
	[ "$(cat s)" = "91 7" ] || fail "sums $(cat s), expected 91 7"
	[ "$(grep -Ec '^ +[0-9]+ ' out)" -eq 3 ] || fail "counts on unsampled instructions"
	# percentages of each event add up to 100
	run_vpmu annotate --stdio hot_loop
	awk '/ :[ >] +[0-9a-f]+:\t/ { split($0, p, " :")
		s1 += substr(p[1], 1, 8); s2 += substr(p[1], 9) }
		END { exit !(s1 > 99.9 && s1 < 100.1 && s2 > 99.9 && s2 < 100.1) }' out ||
		fail "percentages do not add up: $(grep -E '^ +[0-9]' out)"
	grep -Eq "^ +32\.97 +100\.00 :[ >] +$HOT_B:" out || fail "percent of $HOT_B: $(cat out)"
}

hottest_default() {
	have_tools && make_data || return 1
	run_vpmu annotate --stdio
	expect_rc 0 && grep -q '^Samples in hot_loop ' out || fail "default: $(head -1 out) $(cat err)"
}

jump_targets() {
	have_tools && make_data || return 1
	run_vpmu annotate --stdio --no-source hot_loop
	local a s lo hi tgt
	a=$(sym_addr "$HOT" hot_loop)
	s=$(sym_size "$HOT" hot_loop)
	lo=$((0x$a))
	hi=$((0x$a + 0x$s))
	objdump_lines "$HOT" hot_loop | awk -F'\t' '$2 ~ /^j/ { split($2, w, " "); print w[2] }' |
		sort -u >targets
	[ -s targets ] || fail "no jumps in hot_loop"
	while read -r tgt; do
		[ $((0x$tgt)) -ge $lo ] && [ $((0x$tgt)) -lt $hi ] || continue
		grep -Eq "^ *[0-9. ]* :> +$tgt:" out || fail "jump target $tgt not marked"
	done <targets
	# and only those
	grep -E ' :> +[0-9a-f]+:' out | sed 's/.*:> *//; s/:.*//' | sort -u >marked
	diff marked <(sort -u targets) >/dev/null || fail "marks $(tr '\n' ' ' <marked)"
}

source_lines() {
	have_tools && make_data || return 1
	run_vpmu annotate --stdio hot_loop
	expect_rc 0 || return 1
	grep -Eq ':   sym_hot\.c:[0-9]+   h = mix\(h, sym_table\[i & 255\] \+ i\); /\* HOT \*/$' out ||
		fail "no HOT source line: $(head -12 out)"
	run_vpmu annotate --stdio --no-source hot_loop
	expect_rc 0 || return 1
	grep -q 'sym_hot\.c' out && fail "source with --no-source"
	[ ! -s err ] || fail "stderr: $(cat err)"
	run_vpmu annotate --stdio --no-source --source hot_loop
	grep -q 'sym_hot\.c' out || fail "no source with --source last"
}

intel() {
	have_tools && make_data || return 1
	run_vpmu annotate --stdio --no-source -M intel hot_loop
	expect_rc 0 || return 1
	insn_lines <out | cut -f1 >intel_addrs
	objdump_lines "$HOT" hot_loop | cut -f1 >att_addrs
	diff att_addrs intel_addrs >/dev/null || fail "intel listing has other addresses"
	insn_lines <out | cut -f2 | grep -q '%' && fail "AT&T registers in -M intel"
	insn_lines <out | grep -q "	mov ecx, 0x811c9dc5" || fail "no Intel operand order: $(cat out)"
	run_vpmu annotate -M arm hot_loop
	expect_rc 1 && [ "$(wc -l <err)" -eq 1 ] && grep -q "'att' or 'intel'" err ||
		fail "bad -M: $(cat err)"
}

no_samples() {
	have_tools && make_data || return 1
	run_vpmu annotate --stdio main
	expect_rc 1 || return 1
	[ "$(cat err)" = "vpmu annotate: no samples fall in 'main' ($HOT); the file has 135 samples" ] ||
		fail "message: $(cat err)"
	[ ! -s out ] || fail "output: $(head -3 out)"
}

unknown_symbol() {
	have_tools && make_data || return 1
	run_vpmu annotate hot_lop
	expect_rc 1 || return 1
	[ "$(cat err)" = "vpmu annotate: no function 'hot_lop' in the profiled images (did you mean 'hot_loop'?)" ] ||
		fail "typo: $(cat err)"
	run_vpmu annotate lib_sum_sqares
	expect_rc 1 && grep -q "did you mean 'lib_sum_squares'" err || fail "library typo: $(cat err)"
	# a name cut short: the one function it begins
	run_vpmu annotate lib_sum_sq
	expect_rc 1 && grep -q "did you mean 'lib_sum_squares'" err || fail "cut short: $(cat err)"
	run_vpmu annotate zzzzzzzzzzzzzzzzzz
	expect_rc 1 || return 1
	[ "$(cat err)" = "vpmu annotate: no function 'zzzzzzzzzzzzzzzzzz' in the profiled images" ] ||
		fail "far name: $(cat err)"
}

no_debug_info() {
	have_tools || return 1
	local nodbg=$PWD/sym_hot.nodbg a
	strip --strip-debug -o "$nodbg" "$HOT" || return 1
	a=$(sym_addr "$nodbg" hot_loop)
	"$GEN" -o vpmu.data -e cycles -m "7:$BASE:$nodbg" -s "0:7:$(rt $BASE "$a"):5" || return 1
	run_vpmu annotate --stdio
	expect_rc 0 || return 1
	[ "$(cat err)" = "vpmu annotate: no debug line information for 'hot_loop' in '$nodbg': disassembly only" ] ||
		fail "note: $(cat err)"
	insn_lines <out >mine
	objdump_lines "$nodbg" hot_loop >theirs
	same_text theirs mine >d || fail "disassembly without debug info differs: $(head -5 d)"
}

colour() {
	have_tools && make_data || return 1
	command -v script >/dev/null || {
		echo "script(1) is not installed"
		return 1
	}
	script -qec "'$VPMU' annotate hot_loop" /dev/null >tty </dev/null
	grep -q $'\033\\[31m.*'"$HOT_A:" tty || fail "hot line not red on a terminal"
	script -qec "'$VPMU' annotate --stdio hot_loop" /dev/null >tty </dev/null
	grep -q $'\033' tty && fail "colour with --stdio"
	return 0
}

usage_errors() {
	run_vpmu annotate -i nonexistent.data
	expect_rc 1 && [ "$(wc -l <err)" -eq 1 ] && grep -q '^vpmu annotate: .*nonexistent.data' err ||
		fail "missing file: $(cat err)"
	run_vpmu annotate --frob
	expect_rc 1 && grep -q "unknown option '--frob'" err || fail "$(cat err)"
	run_vpmu annotate a b
	expect_rc 1 && [ "$(wc -l <err)" -eq 1 ] || fail "two symbols: $(cat err)"
	have_tools || return 1
	"$GEN" -o empty.data -e cycles -m "1:$BASE:$HOT" || return 1
	run_vpmu annotate -i empty.data
	expect_rc 1 && [ "$(cat err)" = "vpmu annotate: no samples in 'empty.data'" ] ||
		fail "empty: $(cat err)"
}

# -s names the function as the argument does; -d picks the images: the
# hottest function of the library alone, and a function not in them is
# none.
symbol_and_dsos() {
	have_tools && make_data || return 1
	run_vpmu annotate --stdio --no-source hot_loop
	cp out plain
	run_vpmu annotate --stdio --no-source -s hot_loop
	expect_rc 0 && cmp -s plain out || fail "-s differs from the argument"
	run_vpmu annotate -s hot_loop classify
	expect_rc 1 && [ "$(cat err)" = "vpmu annotate: one symbol at a time ('hot_loop' and 'classify' given)" ] ||
		fail "-s and an argument: $(cat err)"
	run_vpmu annotate --stdio --no-source -n -d "$(basename "$LIB")"
	expect_rc 0 && head -1 out | grep -q "^Samples in lib_sum_squares ($LIB, .*cycles 13, instructions 4\$" ||
		fail "hottest of -d: $(head -1 out) $(cat err)"
	run_vpmu annotate --stdio --no-source -d "nosuch.so,$HOT" hot_loop
	expect_rc 0 && cmp -s plain out || fail "-d by path: $(cat err)"
	run_vpmu annotate --stdio -d "$(basename "$LIB")" hot_loop
	expect_rc 1 && [ "$(cat err)" = "vpmu annotate: no function 'hot_loop' in the profiled images" ] ||
		fail "outside -d: $(cat err)"
}

# --asm-raw: each instruction's bytes, as objdump -d --insn-width=15 shows them.
asm_raw() {
	have_tools && make_data || return 1
	local a s
	run_vpmu annotate --stdio --no-source --asm-raw hot_loop
	expect_rc 0 || return 1
	awk -F'\t' '/ :[ >] +[0-9a-f]+:\t/ { a = $1; sub(/.*:[ >] +/, "", a); print a $2 }' out >mine
	a=$(sym_addr "$HOT" hot_loop)
	s=$(sym_size "$HOT" hot_loop)
	objdump -d --insn-width=15 --start-address=0x$a --stop-address=$((0x$a + 0x$s)) "$HOT" |
		awk -F'\t' '/^ *[0-9a-f]+:\t/ { a = $1; sub(/^ +/, "", a); print a $2 }' >theirs
	[ -s theirs ] && diff theirs mine >d || fail "bytes differ from objdump: $(head -4 d)"
}

# The options `vpmu annotate -h` lists are exactly those the man page documents.
help_matches_man() {
	run_vpmu annotate -h
	expect_rc 0 || return 1
	{
		grep -o -- '--[a-z][a-z-]*' out
		grep -o -- '^ *-[a-zA-Z],' out | tr -d ' ,'
	} | sort -u >from-help
	{
		grep '^\.It Fl' "$SRC/man/vpmu-annotate.1" | grep -o 'Fl \\-[a-z][a-z-]*' |
			sed 's/Fl \\-/--/'
		sed -n 's/^\.It Fl \([a-zA-Z]\) ,.*/-\1/p' "$SRC/man/vpmu-annotate.1"
	} | sort -u >from-man
	[ -s from-help ] && diff from-help from-man >/dev/null ||
		fail "options differ (help vs man): $(diff from-help from-man | tr '\n' ' ')"
}

t objdump_match objdump_match
t sums sums
t hottest_default hottest_default
t jump_targets jump_targets
t source_lines source_lines
t intel intel
t no_samples no_samples
t unknown_symbol unknown_symbol
t no_debug_info no_debug_info
t colour colour
t usage_errors usage_errors
t symbol_and_dsos symbol_and_dsos
t asm_raw asm_raw
t help_matches_man help_matches_man
summary
