#!/usr/bin/env bash
# run-symbols.sh — the symbol, source-line and disassembly library
# (core/sym.c, core/srcline.c, core/disasm.c) against binutils, through
# tests/tools/symtool.c built here: symbols against nm, lines and inline
# chains against addr2line -f -i, disassembly against objdump -d; on a -O2
# -g program, the same stripped with its debug file found by build-id (a
# Debian -dbgsym layout in a temporary directory) and by .gnu_debuglink, a
# binary with no symbols at all, and a shared library at a non-zero bias.
#
# Comparing text with objdump, only these differences are normalised:
#  - runs of blanks (objdump pads the mnemonic column and ends some lines
#    with blanks);
#  - objdump names any address by the nearest symbol before it, even past
#    that symbol's end (alignment padding, the PLT header, constants after
#    an array); symtool names only addresses inside a symbol, so where it
#    prints no <name> objdump's is dropped;
#  - objdump names GOT slots by their dynamic relocation's symbol@version,
#    symtool by the symbol table (_GLOBAL_OFFSET_TABLE_+off);
#  - for stripped binaries the <name> annotations are dropped on both sides,
#    and objdump's "0x" before targets (its style when a file has no
#    symbols at all) is dropped;
#  - an address with no line-table row is "??" on both sides (addr2line
#    writes ??:0, ??:? or the compilation unit's FILE:?).
#
# Environment: BUILD (with libvpmu.a), PROGS (built tests/progs), VPMU.
set -u
cd "$(dirname "$0")/../.." || exit 1
SRC=$PWD
. tests/e2e/lib.sh
unset DEBUGINFOD_URLS

BUILD=${BUILD:-build}
TOOL=$E2E_SCRATCH/symtool
HOT=$PROGS/sym_hot
LIB_SRC=$SRC/tests/progs/sym_lib.c
build_log=$E2E_SCRATCH/symtool-build.log
RATES=$E2E_SCRATCH/rates
gcc -O2 -g -fno-lto -std=gnu11 -Wall -Wextra -I"$SRC" -o "$TOOL" "$SRC/tests/tools/symtool.c" \
	"$BUILD/libvpmu.a" -lZydis -lZycore -ldw -lelf -lz -lstdc++ -lpthread -lm >"$build_log" 2>&1

have_tool() {
	[ -x "$TOOL" ] || fail "symtool did not build: $(head -c 600 "$build_log")"
}

# func_addrs FILE NAME: addresses (hex) of every instruction of NAME.
func_addrs() {
	"$TOOL" -m "$1" disasm "$2" | awk -F'\t' 'NR > 1 { print $1 }'
}

# text_section FILE: the address and size of .text, in hex.
text_section() {
	readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\] *//' | awk '$1 == ".text" { print $3, $5 }'
}

# objdump_text FILE [START END]: "addr<TAB>text", blanks squeezed.
objdump_text() {
	local range=()
	[ $# -ge 3 ] && range=(--start-address=0x$2 --stop-address=0x$3)
	objdump -d --no-show-raw-insn "${range[@]}" "$1" |
		awk -F'\t' '/^ *[0-9a-f]+:\t/ {
			a = $1; sub(/^ +/, "", a); sub(/:$/, "", a)
			t = $2; for (i = 3; i <= NF; i++) t = t " " $i
			gsub(/[ \t]+/, " ", t); sub(/ $/, "", t); print a "\t" t }'
}

# compare_disasm OBJDUMP MINE MODE: counts matches by address; MODE names
# (compare <sym> annotations) or strip (drop them).  Prints the rate and
# the first mismatches; fails below 100%.
compare_disasm() {
	awk -F'\t' -v mode="$3" '
	function names(t,   n, s) {
		n = 0; s = t
		while (match(s, / <[^>]*>/)) { n++; s = substr(s, RSTART + RLENGTH) }
		return n
	}
	function drop(t) { gsub(/ <[^>]*>/, "", t); return t }
	NR == FNR { obj[$1] = $2; next }
	{
		gsub(/[ \t]+/, " ", $2); sub(/ $/, "", $2)
		if (!($1 in obj)) next
		o = obj[$1]; m = $2; total++
		if (mode == "strip") {
			o = drop(o); m = drop(m)
			# with no symbols at all objdump writes targets as 0xADDR
			if (o ~ /^[a-z ]*(j[a-z]+|call|loop[a-z]*) 0x[0-9a-f]+$/) sub(/ 0x/, " ", o)
			sub(/# 0x/, "# ", o)
		}
		else {
			if (names(m) == 0) o = drop(o)
			if (o ~ /# [0-9a-f]+ <[^>]*@[^>]*>$/ && o !~ /@plt>$/) { o = drop(o); m = drop(m) }
		}
		if (o == m) ok++
		else if (bad++ < 8) printf "  %s: objdump \"%s\", vpmu \"%s\"\n", $1, o, m
	}
	END {
		printf "%d/%d instructions match objdump (%.2f%%)\n", ok, total,
			total ? 100 * ok / total : 0
		exit !(total > 0 && ok == total)
	}' "$1" "$2"
}

# --- symbols --------------------------------------------------------------

# Every function nm lists is found at its first and last byte, by one of
# the names nm gives its address.
functions_match_nm() {
	have_tool || return 1
	nm -S --defined-only "$HOT" | awk 'NF == 4 && $3 ~ /^[TtWi]$/ && $2 !~ /^0+$/' >funcs
	[ "$(wc -l <funcs)" -ge 6 ] || fail "nm lists only $(wc -l <funcs) functions"
	local addr size name first last got want
	while read -r addr size _ name; do
		first=$(printf %x $((0x$addr)))
		last=$(printf %x $((0x$addr + 0x$size - 1)))
		want=$(awk -v a="$addr" '$1 == a { print $4 }' funcs | sort -u | tr '\n' ' ')
		for at in $first $last; do
			got=$("$TOOL" -m "$HOT" sym "$at" | awk '{ print $2 }')
			case " $want" in
			*" ${got%+0x*} "*) ;;
			*) fail "0x$at: got $got, nm says $want" ;;
			esac
		done
		[ "$("$TOOL" -m "$HOT" sym "$last" | awk '{ print $3 }')" = "$(printf %x $((0x$size)))" ] ||
			fail "$name: size differs from nm's $size"
	done <funcs
	grep -q ' hot_loop$' funcs || fail "nm has no hot_loop"
}

data_match_nm() {
	have_tool || return 1
	nm -S --defined-only "$HOT" | awk 'NF == 4 && $3 ~ /^[BbDdRr]$/ && $2 !~ /^0+$/' >objs
	grep -q ' sym_table$' objs && grep -q ' sym_weights$' objs || fail "nm: $(cat objs)"
	local addr size name got
	while read -r addr size _ name; do
		got=$("$TOOL" -m "$HOT" data "$(printf %x $((0x$addr + 0x$size - 1)))" |
			awk '{ print $2 }')
		[ "$got" = "$name+0x$(printf %x $((0x$size - 1)))" ] ||
			fail "data at the end of $name: got $got"
	done <objs
	# a function address is no data object, a data address no function
	got=$("$TOOL" -m "$HOT" sym "$(awk '$4 == "sym_table" { print $1 }' objs)")
	[[ $got == *"[unknown] sym_hot" ]] || fail "sym_table as a function: $got"
}

# --- source lines -----------------------------------------------------------

# Every instruction of the hot function: file:line and the inline chain
# exactly as addr2line -f -i prints them.
inline_chain_matches_addr2line() {
	have_tool || return 1
	func_addrs "$HOT" hot_loop >addrs
	[ "$(wc -l <addrs)" -ge 8 ] || fail "hot_loop has $(wc -l <addrs) instructions"
	# shellcheck disable=SC2046
	addr2line -f -i -e "$HOT" $(cat addrs) | sed 's/ (discriminator [0-9]*)$//' >want
	# shellcheck disable=SC2046
	"$TOOL" -m "$HOT" inline $(cat addrs) >got
	diff want got >d || fail "inline chains differ from addr2line: $(head -n 12 d)"
	# and the chain has the expected shape: rotl in mix in hot_loop
	grep -qx rotl got && grep -qx mix got || fail "no inlined rotl/mix: $(sort -u got | head)"
	local rotl mix hot
	rotl=$(grep -n '/\* ROTL \*/' "$SRC/tests/progs/sym_hot.c" | cut -d: -f1)
	mix=$(grep -n '/\* MIX \*/' "$SRC/tests/progs/sym_hot.c" | cut -d: -f1)
	hot=$(grep -n '/\* HOT \*/' "$SRC/tests/progs/sym_hot.c" | cut -d: -f1)
	awk 'NR % 2' got | paste -d' ' - <(awk 'NR % 2 == 0' got) >pairs
	grep -q "^rotl .*/tests/progs/sym_hot.c:$rotl\$" pairs &&
		grep -q "^mix .*/tests/progs/sym_hot.c:$mix\$" pairs &&
		grep -q "^hot_loop .*/tests/progs/sym_hot.c:$hot\$" pairs ||
		fail "no rotl@$rotl / mix@$mix / hot_loop@$hot call chain: $(sort -u pairs | head)"
}

lines_match_addr2line() {
	have_tool || return 1
	local p
	for p in "$HOT" "$PROGS/sym_lib"; do
		"$TOOL" -m "$p" disasm-all | cut -f1 >addrs
		# shellcheck disable=SC2046
		addr2line -e "$p" $(cat addrs) | sed 's/ (discriminator [0-9]*)$//; s/^.*:[0?]$/??/' >want
		# shellcheck disable=SC2046
		"$TOOL" -m "$p" line $(cat addrs) | sed 's/^??:?$/??/' >got
		diff want got >d || fail "${p##*/}: lines differ from addr2line: $(head -n 8 d)"
		grep -q "^/.*/tests/progs/${p##*/}.c:[0-9]*\$" got || fail "${p##*/}: no absolute lines"
	done
}

source_interleaved() {
	have_tool || return 1
	local hot
	hot=$(grep -n '/\* HOT \*/' "$SRC/tests/progs/sym_hot.c" | cut -d: -f1)
	"$TOOL" -S -m "$HOT" disasm hot_loop >out || fail "disasm -S failed"
	grep -q "^; $SRC/tests/progs/sym_hot.c:$hot	.*h = mix(h, sym_table" out ||
		fail "no HOT source line: $(head -n 8 out)"
	grep -q "^; .*sym_hot.c:[0-9]*	.*ROTL" out || fail "no inlined source line"
}

# --- disassembly --------------------------------------------------------------

disasm_matches_objdump() {
	have_tool || return 1
	local p
	for p in "$HOT" "$PROGS/sym_lib" "$PROGS/example"; do
		[ -x "$p" ] || continue
		objdump_text "$p" >obj
		"$TOOL" -m "$p" disasm-all >mine
		compare_disasm obj mine names >rate || fail "${p##*/}: disassembly differs"
		echo "${p##*/} (every function): $(tail -n 1 rate)" >>"$RATES"
		cat rate
	done
}

# /bin/ls is stripped: its whole .text, decoded from start to end.
disasm_matches_objdump_ls() {
	have_tool || return 1
	local bin=/bin/ls start size
	read -r start size < <(text_section "$bin")
	[ -n "$start" ] || { fail "no .text in $bin"; return 1; }
	objdump_text "$bin" >obj
	"$TOOL" -m "$bin" range "$start" "$(printf %x $((0x$start + 0x$size)))" >mine
	compare_disasm obj mine strip >rate || fail "$bin: disassembly differs"
	echo "$bin (.text): $(tail -n 1 rate)" >>"$RATES"
	cat rate
}

intel_syntax() {
	have_tool || return 1
	"$TOOL" -M intel -m "$HOT" disasm hot_loop >intel || fail "-M intel failed"
	"$TOOL" -m "$HOT" disasm hot_loop >att
	[ "$(wc -l <intel)" -eq "$(wc -l <att)" ] || fail "instruction counts differ"
	! tail -n +2 intel | grep -q '%' || fail "AT&T register in Intel text: $(grep '%' intel | head -3)"
	grep -Eq '	j[a-z]+ 0x[0-9a-f]+ <hot_loop\+0x[0-9a-f]+>$' intel ||
		fail "no named jump target: $(cat intel)"
	grep -q 'imul eax, r8d, 0x9e3779b1\|imul eax, r8d, 0x9E3779B1' intel ||
		fail "no Intel imul: $(cat intel)"
}

# --- debug files --------------------------------------------------------------

# A Debian -dbgsym layout: the program stripped of .symtab and DWARF, the
# debug file under DIR/.build-id/xx/rest.debug.
debug_by_build_id() {
	have_tool || return 1
	local id dbg at got
	cp "$HOT" prog && objcopy --only-keep-debug prog prog.debug &&
		strip --strip-unneeded prog || { fail "objcopy/strip failed"; return 1; }
	id=$(readelf -n prog | awk '/Build ID:/ { print $3 }')
	[ -n "$id" ] || { fail "no build-id"; return 1; }
	mkdir -p "dbg/.build-id/${id:0:2}" && mv prog.debug "dbg/.build-id/${id:0:2}/${id:2}.debug"
	[ "$("$TOOL" -m prog buildid 0)" = "$id" ] || fail "build-id: $("$TOOL" -m prog buildid 0)"
	at=$(nm "$HOT" | awk '$3 == "hot_loop" { print $1 }')
	got=$("$TOOL" -d "$PWD/empty" -m prog sym "$at")
	[[ $got == *"[unknown] prog" ]] || fail "symbol without the debug file: $got"
	got=$("$TOOL" -d "$PWD/dbg" -m prog sym "$at")
	[[ $got == *" hot_loop+0x0 "* ]] || fail "not found by build-id: $got"
	func_addrs "$HOT" hot_loop >addrs
	# shellcheck disable=SC2046
	addr2line -f -i -e "$HOT" $(cat addrs) | sed 's/ (discriminator [0-9]*)$//' >want
	# shellcheck disable=SC2046
	"$TOOL" -d "$PWD/dbg" -m prog inline $(cat addrs) >got
	diff want got >d || fail "lines via build-id differ: $(head -n 8 d)"
	"$TOOL" -d "$PWD/dbg" -S -m prog disasm hot_loop | grep -q '^; /.*sym_hot.c:' ||
		fail "no source lines in the stripped program's disassembly"
}

debug_by_debuglink() {
	have_tool || return 1
	local at got
	mkdir -p bin/.debug dbg
	cp "$HOT" bin/prog && objcopy --only-keep-debug bin/prog prog.debug &&
		strip --strip-unneeded bin/prog &&
		objcopy --add-gnu-debuglink=prog.debug bin/prog || { fail "objcopy failed"; return 1; }
	at=$(nm "$HOT" | awk '$3 == "hot_loop" { print $1 }')
	# the file's own .debug directory...
	cp prog.debug bin/.debug/prog.debug
	got=$("$TOOL" -d "$PWD/dbg" -m bin/prog sym "$at")
	[[ $got == *" hot_loop+0x0 "* ]] || fail "not found in bin/.debug: $got"
	# ...and a debug root holding the binary's directory path
	rm bin/.debug/prog.debug
	got=$("$TOOL" -d "$PWD/dbg" -m "$PWD/bin/prog" sym "$at")
	[[ $got == *"[unknown] prog" ]] || fail "found with no debug file: $got"
	mkdir -p "dbg$PWD/bin" && cp prog.debug "dbg$PWD/bin/prog.debug"
	got=$("$TOOL" -d "$PWD/dbg" -m "$PWD/bin/prog" sym "$at")
	[[ $got == *" hot_loop+0x0 "* ]] || fail "not found under the debug root: $got"
	got=$("$TOOL" -d "$PWD/dbg" -m "$PWD/bin/prog" line "$at")
	[ "$got" = "$(addr2line -e "$HOT" "$at" | sed 's/ (discriminator [0-9]*)$//')" ] ||
		fail "line via debuglink: $got"
}

# --- no symbols, bad files ----------------------------------------------------

no_symbols() {
	have_tool || return 1
	local entry start size got
	gcc -O2 -static -s -o nosyms "$SRC/tests/progs/sym_hot.c" || { fail "gcc -static"; return 1; }
	[ -z "$(nm nosyms 2>/dev/null)" ] || fail "nosyms has symbols"
	entry=$(readelf -h nosyms | awk '/Entry point/ { sub(/^0x/, "", $4); print $4 }')
	got=$("$TOOL" -m nosyms sym "$entry") || fail "sym failed"
	[ "$got" = "$entry [unknown] nosyms" ] || fail "sym: $got"
	[ "$("$TOOL" -m nosyms inline "$entry" | tr '\n' ' ')" = "?? ??:0 " ] || fail "inline"
	[ "$("$TOOL" -m nosyms line "$entry")" = "??:?" ] || fail "line"
	[ "$("$TOOL" -m nosyms data "$entry" | awk '{ print $2 }')" = "[unknown]" ] || fail "data"
	"$TOOL" -m nosyms funcs >funcs && [ ! -s funcs ] || fail "functions listed: $(head -3 funcs)"
	"$TOOL" -m nosyms disasm "$entry" 2>err
	[ $? -eq 1 ] && grep -q "cannot disassemble" err || fail "disasm of no symbol: $(cat err)"
	# the code is still disassembled by address
	read -r start size < <(text_section nosyms)
	objdump_text nosyms "$start" "$(printf %x $((0x$start + 0x400)))" >obj
	"$TOOL" -m nosyms range "$start" "$(printf %x $((0x$start + 0x400)))" >mine
	compare_disasm obj mine strip >rate || fail "nosyms: $(cat rate)"
	# files that are not ELF images, or not there
	got=$("$TOOL" -m /etc/passwd sym 10 2>err)
	[ "$got" = "10 [unknown] passwd" ] || fail "/etc/passwd: $got $(cat err)"
	"$TOOL" -m /nonexistent sym 10 2>err
	[ $? -eq 1 ] && grep -q "cannot open" err || fail "missing file: $(cat err)"
	got=$("$TOOL" -m "$HOT" sym ffffffff00000000)
	[ "$got" = "ffffffff00000000 [unknown] [unknown]" ] || fail "outside every image: $got"
}

# --- a shared library at a load bias --------------------------------------------

shared_library_bias() {
	have_tool || return 1
	local bias=7f1234560000 v got a2l sv
	gcc -O2 -g -shared -fPIC -DSYM_LIB_SHARED -o libsymlib.so "$LIB_SRC" ||
		{ fail "gcc -shared"; return 1; }
	v=$(nm libsymlib.so | awk '$3 == "lib_sum_squares" { print $1 }')
	# the program at bias 0 and the library high up, in one session
	got=$("$TOOL" -m "$HOT" -m "libsymlib.so@$bias" sym "$(printf %x $((0x$v + 0x$bias + 2)))")
	[[ $got == *" lib_sum_squares+0x2 "*" libsymlib.so" ]] || fail "library symbol: $got"
	got=$("$TOOL" -m "$HOT" -m "libsymlib.so@$bias" find lib_sum_squares)
	[ "${got%% *}" = "$(printf %x $((0x$v + 0x$bias)))" ] || fail "find: $got"
	got=$("$TOOL" -m "$HOT" -m "libsymlib.so@$bias" sym "$(nm "$HOT" | awk '$3 == "hot_loop" { print $1 }')")
	[[ $got == *" hot_loop+0x0 "* ]] || fail "program symbol next to the library: $got"
	# lines and inline chains at every instruction, against addr2line at
	# the file address
	"$TOOL" -m libsymlib.so disasm lib_sum_squares | awk -F'\t' 'NR > 1 { print $1 }' >faddrs
	gawk -v b=$((0x$bias)) '{ printf "%x\n", strtonum("0x" $1) + b }' faddrs >raddrs
	# shellcheck disable=SC2046
	addr2line -f -i -e libsymlib.so $(cat faddrs) | sed 's/ (discriminator [0-9]*)$//' >want
	# shellcheck disable=SC2046
	"$TOOL" -m "libsymlib.so@$bias" inline $(cat raddrs) >got
	diff want got >d || fail "library inline chains: $(head -n 8 d)"
	grep -qx lib_square got || fail "lib_square not inlined: $(sort -u got)"
	sv=$(nm -S libsymlib.so | awk '$4 == "lib_counter" { print $1 }')
	got=$("$TOOL" -m "libsymlib.so@$bias" data "$(printf %x $((0x$sv + 0x$bias + 1)))")
	[[ $got == *" lib_counter+0x1 4 libsymlib.so" ]] || fail "library data: $got"
	# disassembly at the bias: same text as objdump at file addresses once
	# the addresses are rebased
	"$TOOL" -m "libsymlib.so@$bias" disasm lib_sum_squares >dis
	head -n 1 dis | grep -q "^$(printf %x $((0x$v + 0x$bias))) <lib_sum_squares>:" ||
		fail "disasm header: $(head -n 1 dis)"
	"$TOOL" -m libsymlib.so disasm lib_sum_squares | tail -n +2 | cut -f2- >at0
	tail -n +2 dis | cut -f2- | gawk -v b=$((0x$bias)) '{
		if (match($0, /^j[a-z]+ +[0-9a-f]+ /)) {
			split(substr($0, 1, RLENGTH - 1), f, / +/)
			t = sprintf("%x", strtonum("0x" f[2]) - b)
			sub(/ [0-9a-f]+ /, " " t " ")
		}
		if (match($0, /# [0-9a-f]+/)) {
			t = sprintf("%x", strtonum("0x" substr($0, RSTART + 2, RLENGTH - 2)) - b)
			$0 = substr($0, 1, RSTART + 1) t substr($0, RSTART + RLENGTH)
		}
		print }' >rebased
	diff at0 rebased >d || fail "biased disassembly differs: $(head -n 6 d)"
}

lookup_speed() {
	have_tool || return 1
	"$TOOL" -m "$HOT" bench 1000000 >bench || fail "bench failed"
	echo "$(cat bench)"
	[ "$(wc -l <bench)" -eq 3 ] || fail "bench: $(cat bench)"
	awk '$(NF - 1) >= 2.0 { bad = 1 } END { exit bad }' bench ||
		fail "a million lookups took over 2 s: $(cat bench)"
	awk '$3 == "inline" && $5 == 0 { exit 1 }' bench || fail "no inline chains seen"
}

t functions_match_nm functions_match_nm
t data_match_nm data_match_nm
t inline_chain_matches_addr2line inline_chain_matches_addr2line
t lines_match_addr2line lines_match_addr2line
t source_interleaved source_interleaved
t disasm_matches_objdump disasm_matches_objdump
t disasm_matches_objdump_ls disasm_matches_objdump_ls
t intel_syntax intel_syntax
t debug_by_build_id debug_by_build_id
t debug_by_debuglink debug_by_debuglink
t no_symbols no_symbols
t shared_library_bias shared_library_bias
t lookup_speed lookup_speed
[ -s "$RATES" ] && sed 's/^/disassembly: /' "$RATES"
summary
