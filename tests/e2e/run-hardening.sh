#!/usr/bin/env bash
# run-hardening.sh — vpmu against programs that cannot run and programs
# that misbehave: bad executables (exit status 126/127 and one line naming
# the file), --timeout (wall clock and emulated instructions, functional
# and timed, every shape of guest that does not end by itself), SIGINT and
# SIGTERM to vpmu in timed mode, stack overflow, a fork bomb under
# `ulimit -u`, a guest that closes its standard output and error, code
# rewritten inside the running block, memory calls on vpmu's own mappings,
# and random bytes executed as code.
#
# Environment: VPMU (binary), PROGS (built tests/progs).  Run by make check.
# Arguments, if any, name the tests to run (all of them otherwise).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

# The 64 bytes of an ELF header: class (\\x01 32-bit, \\x02 64-bit) and
# machine (two little-endian bytes) as printf escapes, no program headers.
elf_header() { # class mach
	printf "\\x7fELF$1\\x01\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00"
	printf "\\x02\\x00$2\\x01\\x00\\x00\\x00"
	head -c 100 /dev/zero
}

one_line_naming() { # file
	[ "$(wc -l <err)" -eq 1 ] && grep -q -- "$1" err || fail "stderr: $(cat err)"
}

bad_programs() {
	elf_header '\x01' '\x03\x00' >i386 # EM_386
	elf_header '\x02' '\xb7\x00' >aarch64 # EM_AARCH64
	elf_header '\x02' '\x3e\x00' | head -c 30 >truncated
	elf_header '\x02' '\x3e\x00' >no-phdrs # EM_X86_64, e_phnum 0
	: >empty
	cp "$PROGS/e2e_exit3" noexec && chmod -x noexec
	mkdir adir
	chmod +x i386 aarch64 truncated no-phdrs empty
	local f
	for f in i386 aarch64 truncated no-phdrs empty noexec adir; do
		run_vpmu stat -- ./$f
		[ "$rc" -eq 126 ] || fail "$f: exit status $rc, expected 126: $(cat err)"
		one_line_naming "./$f"
	done
	run_vpmu stat -- ./i386
	grep -q '32-bit' err || fail "i386: $(cat err)"
	run_vpmu stat -- ./aarch64
	grep -q 'machine 183' err || fail "aarch64: $(cat err)"
	run_vpmu stat -- ./does-not-exist
	expect_rc 127 && one_line_naming ./does-not-exist
}

# PT_INTERP naming a file that does not exist: 127 and the interpreter's name.
missing_interpreter() {
	local interp=$PWD/no-such-ld.so
	# the program's own interpreter path, replaced by one of the same length
	local orig
	orig=$(grep -ao '/lib64/ld-linux-x86-64.so.2' "$PROGS/e2e_exit3" | head -n1)
	[ -n "$orig" ] || { fail "no interpreter in e2e_exit3"; return 1; }
	interp=$(printf '/nonexistent/%*s' $((${#orig} - 13)) '' | tr ' ' x)
	sed "s|$orig|$interp|" "$PROGS/e2e_exit3" >prog
	chmod +x prog
	grep -aq "$interp" prog || { fail "could not rewrite the interpreter"; return 1; }
	run_vpmu stat -- ./prog
	expect_rc 127 && one_line_naming "$interp"
}

spin_out() { # mode: vpmu stat ARGS... hd_spin mode
	local mode=$1
	shift
	# stdin: a FIFO open for reading and writing, so `blocked` waits in
	# read(2) forever and nothing else has to keep a writer alive
	[ -p fifo ] || mkfifo fifo
	timeout -k 5 60 "$VPMU" stat "$@" -- "$PROGS/hd_spin" "$mode" >out 2>err 0<>fifo
	rc=$?
	return 0
}

timeout_wall() {
	local mode t0 t1 timing
	for timing in --no-timing ""; do
		for mode in loop fork threads blocked pause; do
			t0=$(date +%s%N)
			spin_out $mode $timing --timeout 500ms
			t1=$(date +%s%N)
			[ "$rc" -eq 124 ] || fail "$mode ${timing:-timed}: exit status $rc: $(head -c 300 err)"
			grep -q "hd_spin: stopped by --timeout after 0.500 s of wall-clock time" err ||
				fail "$mode: no note: $(head -c 300 err)"
			[ "$(count instructions err)" -gt 50000 ] || fail "$mode: no counts: $(cat err)"
			[ $(((t1 - t0) / 1000000)) -lt 5000 ] || fail "$mode: took $(((t1 - t0) / 1000000)) ms"
			grep -q 'ended without a word' err && fail "$mode: $(grep 'without' err)"
			if [ -z "$timing" ]; then
				[ "$(count cycles err)" -gt 50000 ] || fail "$mode: cycles $(count cycles err)"
			fi
		done
	done
	# nothing of the run is left behind
	sleep 0.5
	pgrep -f "$PROGS/hd_spin" >/dev/null && fail "guest processes left: $(pgrep -af "$PROGS/hd_spin")"
	return 0
}

# An instruction limit stops a single process at the same block every time.
timeout_insns() {
	local timing n a b
	for timing in --no-timing ""; do
		spin_out loop $timing --timeout 2000000insn
		[ "$rc" -eq 124 ] || fail "exit status $rc: $(head -c 300 err)"
		grep -q "stopped by --timeout after 2000000 emulated instructions" err || fail "$(cat err)"
		n=$(count instructions err)
		[ "$n" -ge 2000000 ] && [ "$n" -lt 2000100 ] || fail "${timing:-timed}: $n instructions"
		cp err one
		spin_out loop $timing --timeout 2e6insn
		a=$(grep -E '^ +[0-9,]+ +[a-zA-Z]' one | grep -v 'time\|MIPS' | awk '{print $1, $2}')
		b=$(grep -E '^ +[0-9,]+ +[a-zA-Z]' err | grep -v 'time\|MIPS' | awk '{print $1, $2}')
		[ "$a" = "$b" ] || fail "${timing:-timed} counts differ: $a / $b"
	done
	# over a process tree: the sum of both processes
	spin_out fork --no-timing --timeout 3000000insn
	[ "$rc" -eq 124 ] && [ "$(count instructions err)" -ge 3000000 ] || fail "fork: $rc $(cat err)"
	# both kinds at once: the first reached wins
	spin_out loop --no-timing --timeout 1000000insn --timeout 30s
	[ "$rc" -eq 124 ] && grep -q 'emulated instructions' err || fail "both: $(cat err)"
}

timeout_unreached() {
	run_vpmu stat --no-timing -- "$PROGS/e2e_loop" 20000
	cp err plain
	run_vpmu stat --no-timing --timeout 60s --timeout 1e12insn -- "$PROGS/e2e_loop" 20000
	expect_rc 0 || return 1
	grep -q 'stopped by' err && fail "note without a timeout"
	[ "$(count instructions err)" = "$(count instructions plain)" ] || fail "counts changed"
}

timeout_usage() {
	local v
	for v in 0 -1 5x 1.5insn abc 0x10 inf 1e99; do
		run_vpmu stat --timeout "$v" -- "$PROGS/e2e_exit3"
		[ "$rc" -eq 1 ] && grep -q -- "--timeout" err || fail "'$v' accepted: $rc $(cat err)"
	done
}

# SIGINT/SIGTERM to vpmu in timed mode: the guest dies of it through the
# Linux layer, which flushes the model's batched events.
signal_timed() {
	local sig pid i ipc
	for sig in INT TERM; do
		# a background job starts with SIGINT ignored: undo that, as a
		# terminal's foreground job would have it
		env --default-signal=INT "$VPMU" stat -- "$PROGS/hd_spin" loop >out 2>err </dev/null &
		pid=$!
		sleep 1
		kill -$sig $pid
		for i in $(seq 100); do
			kill -0 $pid 2>/dev/null || break
			sleep 0.1
		done
		kill -0 $pid 2>/dev/null && { kill -KILL $pid; fail "$sig: vpmu did not stop"; return 1; }
		wait $pid
		rc=$?
		[ "$rc" -eq $((128 + $(kill -l $sig))) ] || fail "$sig: exit status $rc"
		[ "$(count instructions err)" -gt 1000000 ] || fail "$sig: $(cat err)"
		ipc=$(awk '$2 == "instructions" && $5 == "insn" { print $4 }' err)
		awk -v x="${ipc:-0}" 'BEGIN { exit !(x > 0.05 && x < 4) }' ||
			fail "$sig: implausible IPC '$ipc': $(cat err)"
		[ "$(count branches err)" -gt 100000 ] || fail "$sig: no branches"
		# vpmu record: the samples so far are written and read back
		env --default-signal=INT "$VPMU" record -c 100000 -- "$PROGS/hd_spin" loop \
			>out 2>err </dev/null &
		pid=$!
		sleep 1
		kill -$sig $pid
		wait $pid
		rc=$?
		[ "$rc" -eq $((128 + $(kill -l $sig))) ] || fail "record $sig: exit status $rc"
		grep -q "Captured and wrote" err || fail "record $sig: no summary: $(cat err)"
		"$VPMU" report --stdio --sort sym 2>&1 | grep -q '% .*\[\.\] run$' ||
			fail "record $sig: no samples in run"
	done
}

stack_overflow() {
	run_vpmu stat -- "$PROGS/hd_stack" plain
	expect_rc 139 || return 1
	grep -q 'killed by SIGSEGV at .*recurse' err || fail "$(cat err)"
	run_vpmu stat -- "$PROGS/hd_stack"
	expect_rc 0 && grep -q 'caught SIGSEGV on the alternate stack' out || fail "$(cat out err)"
}

# The limit on processes ends the bomb with EAGAIN; vpmu neither crashes
# nor hangs, and every process is gone within seconds.  root ignores
# RLIMIT_NPROC, so it runs as nobody then.
fork_bomb() {
	local as=() dir
	if [ "$(id -u)" -eq 0 ]; then
		command -v setpriv >/dev/null || { echo "skipped: root without setpriv"; return 0; }
		as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
	fi
	dir=$(mktemp -d "${TMPDIR:-/tmp}/vpmu-bomb.XXXXXX")
	chmod 777 "$dir"
	timeout -k 5 60 "${as[@]}" bash -c \
		'ulimit -u 40 && exec "$1" stat -o "$2/counts" -- "$3/hd_forkbomb" bomb' _ \
		"$VPMU" "$dir" "$PROGS" >out 2>err </dev/null
	rc=$?
	expect_rc 0 || { rm -rf "$dir"; return 1; }
	grep -q 'fork failed: Resource temporarily unavailable' out || fail "stdout: $(cat out)"
	grep -q 'Performance counter stats' "$dir/counts" || fail "no counts"
	grep -v 'killed by SIGALRM' err | grep -q . && fail "stderr: $(grep -v SIGALRM err | head -5)"
	rm -rf "$dir"
	# the last ones were born up to 3 s ago with a 3 s alarm
	local i
	for i in $(seq 150); do
		pgrep -f "$PROGS/hd_forkbomb" >/dev/null || return 0
		sleep 0.1
	done
	fail "left after 15 s: $(pgrep -af hd_forkbomb | head -3)"
}

std_fds() {
	"$PROGS/hd_fds" >native </dev/null 2>/dev/null
	run_vpmu stat -o counts -- "$PROGS/hd_fds"
	expect_rc 0 || return 1
	cmp -s out native || fail "stdout: $(diff native out)"
	[ ! -s err ] || fail "stderr: $(cat err)"
	[ "$(count instructions counts)" -gt 0 ] || fail "no counts in -o file"
	# the guest faults with its stderr closed: vpmu's messages still appear
	run_vpmu stat -o counts -- "$PROGS/hd_fds" segv
	expect_rc 139 || return 1
	grep -q 'killed by SIGSEGV' err && grep -q ': Segmentation fault$' err || fail "$(cat err)"
}

smc_same_block() {
	local timing
	"$PROGS/hd_smc" >native
	for timing in --no-timing ""; do
		run_vpmu stat $timing -o /dev/null -- "$PROGS/hd_smc"
		expect_rc 0 && cmp -s out native || fail "${timing:-timed}: $(diff native out)"
	done
}

foreign_memory() {
	run_vpmu stat -o /dev/null -- "$PROGS/hd_foreign" hostile
	expect_rc 0 || return 1
	grep -Eq '^attacked [1-9][0-9]* mappings, ([0-9]+) of \1 calls refused; child exited 42$' out ||
		fail "$(cat out)"
	"$PROGS/hd_foreign" >native
	run_vpmu stat -o /dev/null -- "$PROGS/hd_foreign"
	cmp -s out native || fail "unowned ranges: $(diff native out)"
}

# Random pages: each ends as natively, except where the emulator stops at
# an instruction it lacks (exit 132).
random_code() {
	local seed n=250 lines
	"$PROGS/hd_randcode" >native
	run_vpmu stat -o /dev/null -- "$PROGS/hd_randcode"
	cmp -s out native || fail "known pieces: $(diff native out)"
	for seed in 1 12345 987654321; do
		"$PROGS/hd_randcode" $seed $n >native 2>/dev/null
		run_vpmu stat -o /dev/null -- "$PROGS/hd_randcode" $seed $n
		expect_rc 0 || return 1
		lines=$(grep -Ec '^page [0-9]+: (SIG[A-Z0-9]+|exit [0-9]+)$' out)
		[ "$lines" -eq $n ] || fail "seed $seed: $lines of $n pages reported"
		paste -d '|' native out | awk -F'|' '$1 != $2 && $2 !~ /exit 132$/' >mismatch
		[ ! -s mismatch ] || fail "seed $seed: $(head -3 mismatch)"
		grep -q 'without a word' err && fail "seed $seed: $(grep 'without a word' err | head -2)"
	done
	return 0
}

# With arguments, only the tests they name.
run_test() {
	if [ $# -gt 0 ] && [ -n "$only" ] && [[ " $only " != *" $1 "* ]]; then
		return 0
	fi
	t "$1" "$2"
}
only="$*"

run_test bad_programs bad_programs
run_test missing_interpreter missing_interpreter
run_test timeout_wall timeout_wall
run_test timeout_insns timeout_insns
run_test timeout_unreached timeout_unreached
run_test timeout_usage timeout_usage
run_test signal_timed signal_timed
run_test stack_overflow stack_overflow
run_test fork_bomb fork_bomb
run_test std_fds std_fds
run_test smc_same_block smc_same_block
run_test foreign_memory foreign_memory
run_test random_code random_code
summary
