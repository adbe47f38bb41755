#!/usr/bin/env bash
# run-commands.sh — whole-command tests of the vpmu binary: the
# dispatcher, `vpmu stat`'s output and exit statuses, and the way a guest's
# fate (exit, signal, unsupported instruction) becomes vpmu's.
#
# Environment: VPMU (binary), PROGS (built tests/progs).  Run by make check.
set -u
cd "$(dirname "$0")/../.." || exit 1
SRC=$PWD
. tests/e2e/lib.sh

COUNTERS="instructions branches taken-branches loads stores syscalls"

version() {
	run_vpmu --version
	expect_rc 0 && grep -Eq '^vpmu version [0-9]+\.[0-9]+' out || fail "got: $(cat out)"
}

usage() {
	run_vpmu --help
	expect_rc 0 || return 1
	grep -q '^   stat ' out || fail "no stat in --help: $(cat out)"
	grep -q '__exec' out && fail "hidden command listed"
	run_vpmu
	expect_rc 1 && grep -q '^usage: vpmu' err || fail "no usage without arguments"
}

unknown_command() {
	run_vpmu stst
	expect_rc 1 || return 1
	[ "$(cat err)" = "vpmu: 'stst' is not a vpmu command. Did you mean 'stat'?" ] ||
		fail "got: $(cat err)"
	run_vpmu frobnicate
	expect_rc 1 || return 1
	[ "$(cat err)" = "vpmu: 'frobnicate' is not a vpmu command. See 'vpmu --help'." ] ||
		fail "got: $(cat err)"
	run_vpmu --bogus
	expect_rc 1
}

help_pages() {
	command -v man >/dev/null || { echo "man is not installed"; return 1; }
	MANPAGER=cat MANWIDTH=80 timeout 60 "$VPMU" help stat >out 2>err
	rc=$?
	expect_rc 0 || return 1
	grep -q 'vpmu stat' out && grep -q 'seed' out || fail "not the stat page: $(head -5 out)"
	MANPAGER=cat timeout 60 "$VPMU" help help >out 2>err
	rc=$?
	expect_rc 0 && grep -q 'EXIT STATUS' out || fail "vpmu help help is not vpmu(1)"
	run_vpmu help stst
	expect_rc 1 && grep -q "Did you mean 'stat'" err || fail "help of a typo: $(cat err)"
	# without man(1), help names the page it would have shown
	timeout 60 env PATH=/nonexistent "$VPMU" help stat >out 2>err
	rc=$?
	expect_rc 1 || return 1
	grep -Eq "^vpmu: 'man' is not installed; the page is /.*/vpmu-stat\.1\$" err &&
		[ -f "$(sed 's/.*the page is //' err)" ] || fail "without man: $(cat err)"
}

# The options `vpmu CMD -h` lists are exactly those man/vpmu-CMD.1 documents.
help_matches_man() {
	run_vpmu "$1" -h
	expect_rc 0 || return 1
	{
		grep -o -- '--[a-z][a-z-]*' out
		grep -o -- '^ *-[a-zA-Z],' out | tr -d ' ,'
	} | sort -u >from-help
	{
		grep '^\.It Fl' "$SRC/man/vpmu-$1.1" | grep -o 'Fl \\-[a-z][a-z-]*' | sed 's/Fl \\-/--/'
		sed -n 's/^\.It Fl \([a-zA-Z]\) ,.*/-\1/p' "$SRC/man/vpmu-$1.1"
	} | sort -u >from-man
	[ -s from-help ] && diff from-help from-man >/dev/null ||
		fail "$1: options differ (help vs man): $(diff from-help from-man | tr '\n' ' ')"
}

# A bad option is one line naming it, from every command, status 1.
option_errors() {
	local c arg
	for c in stat:-e record:-o report:-i script:-i annotate:-i list:-a diff:-s mem:-t \
		buildid-list:-i evlist:-i trace:-e; do
		arg=${c#*:}
		c=${c%%:*}
		run_vpmu "$c" --frob
		expect_rc 1 && [ "$(cat err)" = "vpmu $c: unknown option '--frob' (vpmu $c -h lists them)" ] ||
			fail "$c --frob: $(cat err)"
		run_vpmu "$c" -Z
		expect_rc 1 && [ "$(cat err)" = "vpmu $c: unknown option '-Z' (vpmu $c -h lists them)" ] ||
			fail "$c -Z: $(cat err)"
		run_vpmu "$c" "$arg"
		expect_rc 1 && [ "$(cat err)" = "vpmu $c: option '$arg' needs an argument" ] ||
			fail "$c $arg: $(cat err)"
	done
}

stat_usage_errors() {
	run_vpmu stat
	expect_rc 1 && grep -q '^usage: vpmu stat' err || fail "no usage: $(cat err)"
	run_vpmu stat --seed banana -- "$PROGS/e2e_exit3"
	expect_rc 1 && grep -q 'seed' err || fail "bad seed accepted"
	run_vpmu stat --frob "$PROGS/e2e_exit3"
	expect_rc 1 || return 1
	run_vpmu stat -o /nonexistent/dir/file "$PROGS/e2e_exit3"
	expect_rc 1 && grep -q "cannot open '/nonexistent/dir/file'" err || fail "$(cat err)"
}

# The functional counts (--no-timing): exactly the six the emulator knows.
stat_output_shape() {
	"$PROGS/e2e_loop" 30000 >native
	run_vpmu stat --no-timing -- "$PROGS/e2e_loop" 30000
	expect_rc 0 || return 1
	cmp -s out native || fail "stdout differs from native"
	grep -q "^ Performance counter stats for '$PROGS/e2e_loop 30000':\$" err ||
		fail "no header: $(cat err)"
	for c in $COUNTERS; do
		grep -Eq "^ +[0-9][0-9,]*      $c( |\$)" err || fail "no $c line: $(cat err)"
	done
	[ "$(grep -Ec '^ +[0-9][0-9,]*      [a-z]' err)" -eq 6 ] || fail "not six counters"
	grep -Eq '^ +[0-9]+\.[0-9]{9} seconds time elapsed$' err || fail "no elapsed time"
	grep -Eq '^ +[0-9,]+      instructions +# +[0-9.]+ guest MIPS$' err || fail "no MIPS"
	local insns br taken
	insns=$(count instructions err) br=$(count branches err) taken=$(count taken-branches err)
	# 30000 iterations of a loop with a compare-and-branch: a floor, not a guess
	[ "${insns:-0}" -gt 120000 ] || fail "only $insns instructions"
	[ "${br:-0}" -gt 30000 ] && [ "${taken:-0}" -le "$br" ] || fail "branches $br taken $taken"
	grep -q '% of all branches' err || fail "no taken ratio"
}

# The default run times the program: same functional counts plus the model's.
stat_timed_shape() {
	run_vpmu stat --no-timing -- "$PROGS/e2e_loop" 30000
	cp err functional
	run_vpmu stat -- "$PROGS/e2e_loop" 30000
	expect_rc 0 || return 1
	for c in cycles instructions branches syscalls; do
		grep -Eq "^ +[0-9][0-9,]*      $c( |\$)" err || fail "no $c line: $(cat err)"
	done
	for c in instructions syscalls; do
		[ "$(count $c err)" = "$(count $c functional)" ] ||
			fail "$c: $(count $c err) timed, $(count $c functional) functional"
	done
	# on p4 the default set is counted by the PMU: the generic branches
	# (conditional, call, return, indirect, as Linux maps it) leave out
	# direct jumps
	[ "$(count branches err)" -gt 30000 ] &&
		[ "$(count branches err)" -le "$(count branches functional)" ] ||
		fail "branches: $(count branches err) timed, $(count branches functional) functional"
	grep -Eq '^ +[0-9]+\.[0-9]{9} seconds time elapsed$' err || fail "no elapsed time"
	# the Itanium 2's default set, counted exactly (it needs two groups of
	# its four counters), is the functional count
	run_vpmu stat -a ia64 --exact -- "$PROGS/e2e_loop" 30000
	expect_rc 0 || return 1
	for c in instructions branches syscalls; do
		[ "$(count $c err)" = "$(count $c functional)" ] ||
			fail "ia64 $c: $(count $c err) timed, $(count $c functional) functional"
	done
}

stat_output_file() {
	run_vpmu stat -o counts -- "$PROGS/e2e_loop" 1000
	expect_rc 0 || return 1
	[ ! -s err ] || fail "stderr not empty: $(cat err)"
	grep -q 'Performance counter stats' counts && [ "$(count instructions counts)" -gt 0 ] ||
		fail "no counts in the file"
}

exact_counts_nolibc() {
	run_vpmu stat --no-timing -- "$PROGS/e2e_hello_nolibc"
	expect_rc 7 || return 1
	[ "$(cat out)" = hello ] || fail "stdout: $(cat out)"
	local want="instructions=8 branches=0 taken-branches=0 loads=0 stores=0 syscalls=2" got=""
	for c in $COUNTERS; do
		got="$got $c=$(count "$c" err)"
	done
	[ "${got# }" = "$want" ] || fail "got${got}, want $want"
}

exit_status() {
	run_vpmu stat -- "$PROGS/e2e_exit3"
	expect_rc 3 || return 1
	[ "$(cat out)" = "exiting with 3" ] || fail "stdout: $(cat out)"
	[ "$(count instructions err)" -gt 0 ] || fail "no counts"
}

signal_death() {
	local shell_says
	run_vpmu stat -- "$PROGS/e2e_segv"
	expect_rc 139 || return 1
	[ "$(cat out)" = "about to fault" ] || fail "stdout: $(cat out)"
	grep -q ': Segmentation fault$' err || fail "no perf-style signal note: $(cat err)"
	[ "$(count instructions err)" -gt 0 ] || fail "no counts after the fault"
	# vpmu dies of the signal itself, so a shell reports it as for a native run
	shell_says=$(bash -c '"$1" stat -o /dev/null -- "$2" >/dev/null 2>&1; kill -l $?' _ \
		"$VPMU" "$PROGS/e2e_segv")
	[ "$shell_says" = SEGV ] || fail "shell saw $shell_says"
}

signal_forwarded() {
	timeout -k 5 120 "$VPMU" stat -- "$PROGS/e2e_sleep" 60 >out 2>err </dev/null &
	local pid=$! i
	for i in $(seq 200); do
		[ -s out ] && break
		sleep 0.1
	done
	[ -s out ] || { kill $pid; fail "guest never started"; return 1; }
	# timeout(1) is $pid: find vpmu, its child
	kill -TERM "$(pgrep -P $pid -x vpmu | head -n1)"
	wait $pid
	rc=$?
	expect_rc 143 || return 1
	[ "$(count instructions err)" -gt 0 ] || fail "no counts"
}

unsupported_instruction() {
	run_vpmu stat -- "$PROGS/e2e_avx_nolibc"
	expect_rc 132 || return 1
	local n
	n=$(grep -c '^vpmu: unsupported' err)
	[ "$n" -eq 1 ] || fail "$n unsupported lines: $(cat err)"
	grep -Eq '^vpmu: unsupported instruction at 0x[0-9a-f]+ \(_start\+0x2 in [^ ]*/e2e_avx_nolibc\): bytes c5 fd ef c0: vpxor' err ||
		fail "got: $(grep unsupported err)"
	[ "$(count instructions err)" = 1 ] || fail "instructions: $(count instructions err)"
}

missing_program() {
	run_vpmu stat -- ./no-such-program
	expect_rc 127 || return 1
	[ "$(wc -l <err)" -eq 1 ] && grep -q 'no-such-program' err || fail "stderr: $(cat err)"
	run_vpmu stat -- no-such-program-on-path
	expect_rc 127 && grep -q 'no-such-program-on-path' err || fail "stderr: $(cat err)"
}

not_elf() {
	printf 'just text\n' >script.txt
	chmod +x script.txt
	run_vpmu stat -- ./script.txt
	expect_rc 126 || return 1
	[ "$(wc -l <err)" -eq 1 ] && grep -q 'script.txt' err || fail "stderr: $(cat err)"
}

directory() {
	mkdir -p adir
	run_vpmu stat -- ./adir
	expect_rc 126 || return 1
	[ "$(wc -l <err)" -eq 1 ] && grep -q 'adir' err || fail "stderr: $(cat err)"
}

# every count line of a report: "value name"
counts_of() {
	awk '$1 ~ /^[0-9][0-9,]*$/ && $2 ~ /^[a-zA-Z]/ && $2 != "seconds" { print $1, $2 }' "$1"
}

determinism() {
	local c a b mode
	for mode in --no-timing --vpmu-default; do
		[ $mode = --vpmu-default ] && mode=
		"$VPMU" stat $mode -- "$PROGS/example" 20000 >/dev/null 2>one </dev/null || return 1
		"$VPMU" stat $mode -- "$PROGS/example" 20000 >/dev/null 2>two </dev/null || return 1
		counts_of one >one.c
		counts_of two >two.c
		[ "$(wc -l <one.c)" -ge 6 ] || fail "too few counts: $(cat one)"
		cmp -s one.c two.c || fail "${mode:-timed}: $(diff one.c two.c | tr '\n' ' ')"
		[ "$(count instructions one)" -gt 100000 ] || fail "too few instructions"
	done
}

seed_changes_nothing_visible() {
	# AT_RANDOM differs, the program's work does not: same instruction count
	"$VPMU" stat --seed 1 -- "$PROGS/e2e_loop" 5000 >/dev/null 2>one </dev/null || return 1
	"$VPMU" stat --seed 0x2a -- "$PROGS/e2e_loop" 5000 >/dev/null 2>two </dev/null || return 1
	[ "$(count instructions one)" = "$(count instructions two)" ] || fail "counts differ"
}

getrandom_is_seeded() {
	# getrandom(2) and /dev/[u]random serve the seed's stream: the same
	# seed prints the same bytes, another seed others, a forked child its own
	local g="$PROGS/e2e_getrandom"
	"$VPMU" stat -o /dev/null --no-timing -- "$g" >one 2>err </dev/null || fail "rc: $(cat err)"
	"$VPMU" stat -o /dev/null --no-timing -- "$g" >two 2>err </dev/null || fail "rc: $(cat err)"
	"$VPMU" stat -o /dev/null --no-timing --seed 7 -- "$g" >three 2>err </dev/null ||
		fail "rc: $(cat err)"
	cmp -s one two || fail "two runs differ: $(diff one two | tr '\n' ' ')"
	[ "$(head -1 one)" != "$(head -1 three)" ] || fail "--seed 7 gave the same bytes"
	grep -q '^bad flags: EINVAL$' one && grep -q '^random|insecure: EINVAL$' one ||
		fail "flags: $(cat one)"
	grep -q '^40 MiB: 41943040$' one || fail "large request: $(cat one)"
	[ "$(sed -n 's/^child://p' one)" != "$(sed -n 's/^parent://p' one)" ] ||
		fail "child and parent drew the same bytes"
	[ "$(grep -c '^u*random [a-z]*: ' one)" = 5 ] && grep -q '^write-only: EBADF$' one ||
		fail "devices: $(cat one)"
	[ "$(grep '^urandom read' one)" != "$(grep '^urandom read' three)" ] ||
		fail "--seed 7 read the same /dev/urandom bytes"
	# Perl seeds its hashes from /dev/urandom: the key order repeats
	if command -v perl >/dev/null; then
		local pl='my %h = map { $_ => 1 } "a" .. "p"; print join("", keys %h), "\n"'
		"$VPMU" stat -o /dev/null --no-timing -- perl -e "$pl" >l1 2>err </dev/null ||
			fail "perl: $(cat err)"
		"$VPMU" stat -o /dev/null --no-timing -- perl -e "$pl" >l2 2>err </dev/null ||
			fail "perl: $(cat err)"
		cmp -s l1 l2 || fail "perl differs: $(cat l1 l2 | tr '\n' ' ')"
	fi
	# Python seeds its hashes and random from getrandom: a run repeats
	"$VPMU" stat -o /dev/null --no-timing -- python3 -c \
		'import random; print(random.random(), hash("vpmu"))' >p1 2>err </dev/null ||
		fail "python3: $(cat err)"
	"$VPMU" stat -o /dev/null --no-timing -- python3 -c \
		'import random; print(random.random(), hash("vpmu"))' >p2 2>err </dev/null ||
		fail "python3: $(cat err)"
	cmp -s p1 p2 || fail "python3 differs: $(cat p1 p2 | tr '\n' ' ')"
}

# Run a program (with its arguments) twice under --vtime (output in one
# and two): the same.
vtime_twice() {
	"$VPMU" stat -o /dev/null --no-timing --vtime -- "$@" >one 2>err </dev/null ||
		fail "rc: $(cat err)"
	"$VPMU" stat -o /dev/null --no-timing --vtime -- "$@" >two 2>err </dev/null ||
		fail "rc: $(cat err)"
	cmp -s one two || fail "two runs differ: $(diff one two | tr '\n' ' ')"
}

cpus_are_emulated() {
	# the guest sees the emulated package's two logical processors, not the
	# host's: on one host CPU (taskset) as on all of them
	local py='import os, threading
print(os.cpu_count(), sorted(os.sched_getaffinity(0)), os.sysconf("SC_NPROCESSORS_CONF"))
os.sched_setaffinity(0, {1})
t = threading.Thread(target=lambda: print("thread", sorted(os.sched_getaffinity(0))))
t.start(); t.join()
try: os.sched_setaffinity(0, {5})
except OSError as e: print("errno", e.errno)'
	command -v taskset >/dev/null || { echo "skip: no taskset"; return 0; }
	run_vpmu stat -- python3 -c "$py"
	expect_rc 0 || return 1
	printf '2 [0, 1] 2\nthread [1]\nerrno 22\n' | cmp -s - out || fail "python3: $(cat out)"
	timeout -k 5 "$E2E_TIMEOUT" taskset -c 0 "$VPMU" stat -- python3 -c "$py" \
		>out 2>err </dev/null || fail "on one CPU: $(cat err)"
	printf '2 [0, 1] 2\nthread [1]\nerrno 22\n' | cmp -s - out || fail "on one CPU: $(cat out)"
	# the same instructions on one host CPU as on all (nproc: a program
	# whose work follows no host pid or clock, as a threaded Python's does)
	run_vpmu stat -x, -e instructions -- nproc
	cp err all.csv
	timeout -k 5 "$E2E_TIMEOUT" taskset -c 0 "$VPMU" stat -x, -e instructions -- nproc \
		>out 2>err </dev/null || fail "nproc on one CPU: $(cat err)"
	[ "$(cat out)" = 2 ] && [ "$(cut -d, -f1 all.csv)" = "$(cut -d, -f1 err)" ] ||
		fail "counts differ on one host CPU: $(cat out all.csv err)"
	run_vpmu stat -q -- sh -c 'nproc; getconf _NPROCESSORS_ONLN; cat /sys/devices/system/cpu/online'
	printf '2\n2\n0-1\n' | cmp -s - out || fail "nproc, getconf, online: $(cat out)"
	# /proc/cpuinfo is CPUID's processor, also opened relative to /proc (lscpu)
	run_vpmu stat -q -- sh -c 'cat /proc/cpuinfo; cd /proc && grep -c "^processor" cpuinfo'
	[ "$(grep -c '^processor' out)" = 2 ] && [ "$(tail -1 out)" = 2 ] &&
		grep -q '^model name.: Intel(R) Xeon(TM) CPU 3.60GHz$' out &&
		grep -q '^flags.*: fpu .* sse2 .* pni ' out && ! grep -q 'avx\|ssse3\|cx16' out ||
		fail "cpuinfo: $(head -30 out)"
	# each processor's topology and caches: one core of two threads,
	# CPUID's caches; the host's third cache level is none of the guest's
	run_vpmu stat -q -- sh -c 'cd /sys/devices/system/cpu &&
		cat cpu1/topology/thread_siblings_list cpu0/cache/index1/size cpu0/cache/index2/size'
	expect_rc 1 || return 1
	printf '0-1\n2048K\n' | cmp -s - out && grep -q 'index2/size: No such file' err ||
		fail "topology, caches: $(cat out err)"
	# listings and stat(2) there: the package's processors, caches, node
	run_vpmu stat -q -- sh -c 'cd /sys/devices/system/cpu && ls -d cpu[0-9]* && ls cpu0/cache &&
		ls -d ../node/node[0-9]*; test -e cpu0/cache/index1 && ! test -d cpu0/cache/index2 &&
		! stat cpu0/cache/index3 2>/dev/null && find cpu1/cache -name "index*" | sort'
	expect_rc 0 || return 1
	printf 'cpu0\ncpu1\nindex0\nindex1\n../node/node0\ncpu1/cache/index0\ncpu1/cache/index1\n' |
		cmp -s - <(grep -v uevent out) || fail "listings: $(cat out err)"
	# openat2(2) too (without resolve flags)
	local o2='import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
def o2(path):
    how = (ctypes.c_uint64 * 3)(os.O_RDONLY, 0, 0)
    fd = libc.syscall(437, -100, path.encode(), how, 24)
    if fd < 0: return "errno %d" % ctypes.get_errno()
    data = os.read(fd, 65536).decode(); os.close(fd); return data
print(o2("/proc/cpuinfo").count("Xeon(TM)"), o2("/sys/devices/system/cpu/cpu0/cache/index2/size"))'
	run_vpmu stat -q -- python3 -c "$o2"
	[ "$(cat out)" = "2 errno 2" ] || fail "openat2: $(cat out err)"
	# /proc/stat: a line for each of the package's processors, sharing out
	# the host's time; a task's status tells its affinity, which execve
	# keeps (taskset)
	run_vpmu stat -q -- sh -c 'grep "^cpu" /proc/stat; taskset -c 1 nproc
		taskset -c 1 grep "^Cpus_allowed" /proc/self/status
		grep "^Cpus_allowed" /proc/thread-self/status'
	expect_rc 0 || return 1
	[ "$(grep -c '^cpu' out)" = 3 ] && grep -q '^cpu0 ' out && grep -q '^cpu1 ' out &&
		awk '/^cpu/ { for (i = 2; i <= NF; i++) s[$1 == "cpu" ? 0 : 1, i] += $i }
			END { for (i = 2; i <= 11; i++) if (s[0, i] != s[1, i]) exit 1 }' out &&
		printf '1\nCpus_allowed:\t2\nCpus_allowed_list:\t1\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n' |
		cmp -s - <(grep -v '^cpu' out) || fail "/proc/stat, status: $(cat out err)"
	# and another process of the run reads and sets it (taskset -p)
	run_vpmu stat -q -- taskset -c 1 sh -c 'taskset -p $$; taskset -pc 0 $$ >/dev/null
		grep "^Cpus_allowed_list" /proc/$$/status; nproc'
	expect_rc 0 && grep -q "^pid [0-9]*'s current affinity mask: 2$" out &&
		[ "$(tail -2 out | tr '\n\t' '  ')" = "Cpus_allowed_list: 0 1 " ] || fail "taskset -p: $(cat out err)"
	if command -v lscpu >/dev/null; then
		run_vpmu stat -q -- lscpu
		grep -Eq '^Thread\(s\) per core: +2$' out && grep -Eq '^Core\(s\) per socket: +1$' out &&
			grep -Eq '^L1d cache: +16 KiB \(1 instance\)$' out &&
			grep -Eq '^L2 cache: +2 MiB \(1 instance\)$' out && ! grep -q '^L3' out ||
			fail "lscpu: $(cat out)"
	fi
}

vtime_is_emulated() {
	# --vtime: every clock tells emulated time, so a run repeats; without
	# it the host's clocks come through
	local g="$PROGS/e2e_vtime"
	vtime_twice "$g"
	grep -q '^before: realtime 2114380800\.' one && grep -q '^before: uptime 0 load 0$' one ||
		fail "clocks: $(cat one)"
	# and sysinfo's memory is the same every run: all free
	grep -q '^before: memory all free, 1 procs$' one && grep -q '^after: memory all free, 1 procs$' one ||
		fail "sysinfo memory: $(grep memory one)"
	grep -Eq '^after: times ([1-9][0-9]*) utime \1 stime 0$' one || fail "times: $(cat one)"
	grep -Eq '^after: rusage utime 0\.0[1-9][0-9]{4} stime 0\.000000 maxrss 0 children 0\.000000$' one ||
		fail "getrusage: $(cat one)"
	grep -q '^bad who: -1$' one || fail "getrusage(7): $(cat one)"
	# a timed wait ends on its deadline, where the clock then stands; the
	# ticker's 1 ms timeouts come as the main thread's work advances it
	grep -Eq '^after it: [0-9]{1,4} ns past$' one && grep -Eq '^after it: 100[0-9]{6} ns later$' one &&
		grep -Eq '^joined a 50 ms sleep: 0 after 50[0-9]{6} ns$' one &&
		grep -Eq '^after the poll: 20[0-9]{6} ns later$' one &&
		grep -Eq '^after the select: 10[0-9]{6} ns later$' one ||
		fail "sleeps: $(cat one)"
	grep -Eq '^1 ms timeouts while working: (2[5-9]|3[0-9]|4[0-5]) in 3[0-9]{7} ns$' one ||
		fail "timeouts: $(cat one)"
	# the clock goes on in a forked child and across execve
	awk '$1 == "before" && ($2 == "fork:" || $2 == "execve:") { at = $3 }
		$1 == "child:" || $1 == "after" && $2 == "execve:" { n++; if ($NF < at) bad = 1 }
		END { exit bad || n != 2 }' one || fail "fork, execve: $(tail -4 one)"
	grep -q '^CPU time after execve: goes on$' one || fail "CPU time: $(tail -1 one)"
	grep -Eq '^the child.s rusage: utime 0\.000[0-9]{3} stime 0\.000000 maxrss 0$' one ||
		fail "wait4's rusage: $(grep rusage one)"
	# a shell's children's times are the instructions of those it reaped
	"$VPMU" stat -o /dev/null --no-timing --vtime -- /bin/bash -c \
		'seq 20000 | sort -n >/dev/null; times' >kids 2>err </dev/null || fail "rc: $(cat err)"
	sed -n 2p kids | grep -Eq '^0m0\.0[1-9][0-9]s 0m0\.000s$' || fail "children: $(cat kids)"
	# a wait for a child ends where the child ended: the shell's clock
	# moves on to it (it stood still, and `time` read 0.000 s)
	"$VPMU" stat -o /dev/null --no-timing --vtime -- /bin/bash -c \
		'TIMEFORMAT=%3R; time sleep 0.25; time seq 30000 >/dev/null' >waits 2>&1 </dev/null ||
		fail "rc: $(cat waits)"
	sed -n 1p waits | grep -Eq '^0\.25[0-9]$' && sed -n 2p waits | grep -Eq '^0\.0([1-9][0-9]|0[1-9])$' ||
		fail "real time of waits: $(cat waits | tr '\n' ' ')"
	"$VPMU" stat -o /dev/null --no-timing -- "$g" >host 2>err </dev/null || fail "rc: $(cat err)"
	! grep -q '^before: realtime 2114380800\.' host || fail "host clock not read: $(cat host)"
	grep -q '^before: memory in use, ' host || fail "host memory not read: $(grep memory host)"
	# /proc/self/exe is the program, not vpmu
	grep -q '^after execve: ' host || fail "no execve of /proc/self/exe: $(tail -3 host)"
	# the sleeps, on the emulated clock, still last 0.48 s of the host's
	local t0 t1
	t0=$(date +%s%N)
	"$VPMU" stat -o /dev/null --no-timing --vtime -- "$g" >/dev/null 2>err </dev/null
	t1=$(date +%s%N)
	[ $(((t1 - t0) / 1000000)) -ge 480 ] || fail "the sleeps took $(((t1 - t0) / 1000000)) ms"
}

vtime_proc_files() {
	# --vtime: /proc's uptime, load and memory are the emulated system's,
	# as sysinfo(2) is (all memory free), the same every run (but the
	# host's pid in loadavg); without it the host's come through
	local sh='cat /proc/uptime; cut -d" " -f1-4 /proc/loadavg; cat /proc/meminfo; free -b
		cat /proc/vmstat
		python3 -c "import sys; sys.stdout.write(open(\"/proc/stat\").read() + open(\"/proc/uptime\").read())"'
	vtime_twice sh -c "$sh"
	local total
	total=$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo)
	grep -Eq '^0\.0[0-9] 0\.[0-9]{2}$' one && grep -q '^0.00 0.00 0.00 1/1$' one &&
		grep -Eq "^MemFree: +$total kB\$" one && grep -Eq "^MemAvailable: +$total kB\$" one &&
		grep -Eq '^Cached: +0 kB$' one && grep -Eq "^Mem: +$((total * 1024)) +0 +$((total * 1024)) " one ||
		fail "vtime /proc: $(cat one)"
	# the same fields, in the host's order and columns
	[ "$(grep -c 'kB$' one)" = "$(grep -c 'kB$' /proc/meminfo)" ] &&
		diff <(cut -c1-16 /proc/meminfo) <(grep -A1000 '^MemTotal:' one | head -n "$(wc -l </proc/meminfo)" | cut -c1-16) >/dev/null ||
		fail "meminfo fields differ from the host's"
	# /proc/vmstat: the host's names, every page free, no event yet
	grep -qx "nr_free_pages $((total / 4))" one && grep -qx 'pgfault 0' one &&
		[ "$(grep -Ec '^[a-z_0-9]+ [0-9]+$' one)" -ge "$(grep -c . /proc/vmstat)" ] ||
		fail "vtime /proc/vmstat: $(grep -E '^(nr_free_pages|pgfault) ' one)"
	# /proc/stat: booted at the emulated epoch; the two processors busy for
	# the process's CPU time (Python's start: some ticks of 10 ms), idle
	# the rest of their uptime, as /proc/uptime tells too
	awk '/^cpu / { busy = $2; idle = $5 } /^cpu[01] / { n++ }
		/^btime 2114380800$/ { bt = 1 } /^[0-9.]+ [0-9.]+$/ { up = $1 * 100; upidle = $2 * 100 }
		END { exit !(n == 2 && bt && busy > 0 && busy + idle == 2 * up && idle == upidle) }' one ||
		fail "vtime /proc/stat: $(grep -v kB one)"
	run_vpmu stat -q -- cat /proc/uptime
	grep -Eq '^0\.0[0-9] 0\.00$' out && fail "the host's uptime is not 0: $(cat out)"
	return 0
}

task_stat() {
	# a task's stat line: its logical processor (0, on host CPU 1 too);
	# under --vtime the emulated times (user ticks, no system time, no page
	# faults), the start since the emulated boot, the same every run
	local py='import os, threading
def show(path):
    f = open(path).read().rsplit(")", 1)[1].split()
    print(path.split("/")[2], *(f[k - 3] for k in (10, 12, 14, 15, 17, 22, 39)))
show("/proc/self/stat")
t = threading.Thread(target=lambda: show("/proc/thread-self/stat")); t.start(); t.join()
if os.fork() == 0:
    show("/proc/self/stat"); os._exit(0)
os.wait()'
	vtime_twice python3 -c "$py"
	# self: user time, the rest 0; the thread and the child began later
	awk 'NF != 8 || $2 $3 $5 $6 $8 != "00000" { bad = 1 }
		NR == 1 && ($4 < 1 || $7 != 0) { bad = 1 } NR > 1 && $7 < 1 { bad = 1 }
		END { exit bad || NR != 3 }' one || fail "vtime: $(cat one)"
	# the run's other processes (the shell), and one not of the run (init),
	# which began at the emulated boot
	local other='import os
for pid in (os.getppid(), 1):
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    print(f[22 - 3], *(f[10 - 3:16 - 3] if pid != 1 else ()))'
	vtime_twice sh -c "python3 -c '$other'; true"
	[ "$(cat one | tr '\n' ' ')" = "0 0 0 0 0 0 0 0 " ] || fail "others under --vtime: $(cat one)"
	# with --smt a second thread runs on logical processor 1
	local smt='import threading
show = lambda: print(open("/proc/thread-self/stat").read().rsplit(")", 1)[1].split()[39 - 3])
show(); t = threading.Thread(target=show); t.start(); t.join()'
	run_vpmu stat -q --smt -- python3 -c "$smt"
	[ "$(cat out | tr '\n' ' ')" = "0 1 " ] || fail "--smt processors: $(cat out err)"
	command -v taskset >/dev/null || return 0
	timeout -k 5 "$E2E_TIMEOUT" taskset -c 1 "$VPMU" stat -q -- \
		sh -c 'cut -d")" -f2 /proc/self/stat | cut -d" " -f38' >out 2>err </dev/null
	[ "$(cat out)" = 0 ] || fail "processor: $(cat out err)"
}

vtime_make() {
	# --vtime: the wall clock is later than the files the host wrote, so
	# make finds none from the future (it warned of clock skew when the
	# clock started in 2023)
	command -v make >/dev/null || { echo "make is not installed"; return 1; }
	printf 'all: b\nb: a\n\tcp a b\n' >Makefile && echo x >a || return 1
	# (a make of its own, not one of make check's jobs)
	local m="env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make"
	timeout 60 "$VPMU" stat -o /dev/null --no-timing --vtime -- $m >out 2>err </dev/null ||
		fail "rc: $(cat err)"
	[ "$(cat out)" = "cp a b" ] && [ ! -s err ] && [ -f b ] || fail "make: $(cat out err)"
	timeout 60 "$VPMU" stat -o /dev/null --no-timing --vtime -- $m >out 2>err </dev/null ||
		fail "rc: $(cat err)"
	grep -q "Nothing to be done\|is up to date" out && [ ! -s err ] || fail "again: $(cat out err)"
}

vtime_timers() {
	# --vtime: interval timers go off on the emulated clock, at the same
	# instruction every run; a host wait (pause, read) ends at the expiry
	local g="$PROGS/e2e_itimer"
	vtime_twice "$g"
	grep -Eq '^1 ms ticks while working: (3[0-9]) in 3[0-9]{7} ns$' one &&
		grep -Eq '^tick 0: 1000[0-9]{3} ns after arming$' one &&
		grep -Eq '^tick 2: 3000[0-9]{3} ns after arming$' one ||
		fail "ITIMER_REAL: $(head -4 one)"
	grep -Eq '^5 ms virtual timer: after 500[0-9]{4} ns$' one || fail "ITIMER_VIRTUAL: $(cat one)"
	grep -q '^pause: -1 Interrupted system call, fired 1, 50000000 ns later$' one &&
		grep -q '^read: -1 Interrupted system call, fired 1, 30 ms later$' one ||
		fail "host waits: $(cat one)"
	grep -q '^alarm left: 100 s; getitimer: 2 s' one || fail "time left: $(cat one)"
	[ "$(grep -c '^sigwaitinfo [0-2]: SIGRTMIN value 42 code SI_TIMER 1, [246] ms$' one)" = 3 ] ||
		fail "POSIX timer: $(grep sigwait one)"
	grep -q '^overruns of a 1 ms timer over 10 ms of work: 5 or more$' one &&
		grep -Eq '^3 ms CPU-time timer: after 300[0-9]{4} ns$' one &&
		grep -q '^disarmed after: 0.000000000$' one || fail "timers: $(tail -4 one)"
	# a thread's CPU clock is its own
	grep -Eq '^CPU clocks: worker 1[0-9] ms, main 2[0-9] ms, process 3[0-9] ms$' one ||
		fail "CPU clocks: $(grep '^CPU clocks' one)"
	# and so are timers on it: they stand while the thread does not run
	grep -q "^5 ms timer on the worker's clock after the main thread's work: still ahead$" one &&
		grep -q "^after the worker's work: expired$" one &&
		grep -q "^2 ms timer on the main thread's clock, fired while it waited: no$" one &&
		grep -Eq '^then after 200[0-9]{4} ns of its own work$' one ||
		fail "thread CPU-clock timers: $(tail -4 one)"
	# timed, the counts repeat too
	"$VPMU" stat -x, --vtime -e instructions,cycles -- "$g" >/dev/null 2>c1 </dev/null &&
		"$VPMU" stat -x, --vtime -e instructions,cycles -- "$g" >/dev/null 2>c2 </dev/null ||
		fail "timed: $(cat c1 c2)"
	cmp -s c1 c2 || fail "timed counts differ: $(cat c1 c2 | tr '\n' ' ')"
	# an execve keeps ITIMER_REAL: sleep(1) dies of it, as natively
	local rc=0
	timeout 60 "$VPMU" stat -o /dev/null --no-timing --vtime -- /usr/bin/python3 -c \
		'import signal, os; signal.setitimer(signal.ITIMER_REAL, 0.05); os.execv("/bin/sleep", ["sleep", "5"])' \
		>/dev/null 2>err </dev/null || rc=$?
	[ $rc = 142 ] || fail "timer across execve: rc $rc: $(cat err)"
	# without --vtime the host's timers still work
	"$VPMU" stat -o /dev/null --no-timing -- "$g" >host 2>err </dev/null || fail "host: $(cat err)"
	grep -q '^disarmed after: 0.000000000$' host || fail "host timers: $(cat host)"
}

vtime_timerfd() {
	# --vtime: a timerfd's expiries come on the emulated clock, a read or
	# an epoll_wait on the host ends at the expiry; the errors are Linux's
	local g="$PROGS/e2e_timerfd"
	vtime_twice "$g" -t
	grep -Eq '^read 0: 100[0-9]{4} ns after arming, 1 expiries$' one &&
		grep -Eq '^read 2: 300[0-9]{4} ns after arming, 1 expiries$' one ||
		fail "reads: $(head -6 one)"
	# 1 ns an instruction: some 18 ms of work, an expiry each ms
	awk '$1 == "after" && $2 == "work:" && $3 ~ /^[0-9]+$/ {
		ok = $3 >= 10 && $3 <= 30 && $6 >= $3 * 1000000 && $6 < ($3 + 1) * 1000000 }
		END { exit !ok }' one || fail "piled up: $(grep '^after work' one)"
	grep -Eq '^epoll_wait: 1 ready, the one-shot timer$' one &&
		grep -Eq '^epoll_wait: 200[0-9]{4} ns after arming$' one &&
		grep -q '^one-shot: 1 expiry, then disarmed$' one ||
		fail "epoll: $(grep -e epoll -e one-shot one)"
	grep -Eq '^absolute: 300[0-9]{4} ns after$' one &&
		grep -q '^non-blocking before expiry: EAGAIN$' one &&
		grep -q '^interval: 1000000 ns, value within it$' one &&
		grep -q '^disarmed: 0.000000000$' one || fail "settings: $(cat one)"
	grep -q '^bad clock: Invalid argument$' one && grep -q '^bad flags: Invalid argument$' one &&
		grep -q '^not a timerfd: Invalid argument$' one &&
		grep -q '^closed: Bad file descriptor$' one && grep -q '^again: 1 expiry$' one ||
		fail "errors: $(tail -5 one)"
	grep -q '^dup: 1 expiry$' one && grep -q '^F_DUPFD: 1 expiry, dup2: 1 expiry$' one &&
		grep -q '^all closed: Bad file descriptor$' one || fail "duplicates: $(tail -3 one)"
	# the lines without times are a native run's, but for the work's
	"$g" -t | grep -v -e ' ns' -e '^after work' >native
	grep -v -e ' ns' -e '^after work' one >emulated
	cmp -s native emulated || fail "against native: $(diff native emulated | tr '\n' ' ')"
	# timed, the counts repeat too
	"$VPMU" stat -x, --vtime -e instructions,cycles -- "$g" >/dev/null 2>c1 </dev/null &&
		"$VPMU" stat -x, --vtime -e instructions,cycles -- "$g" >/dev/null 2>c2 </dev/null ||
		fail "timed: $(cat c1 c2)"
	cmp -s c1 c2 || fail "timed counts differ: $(cat c1 c2 | tr '\n' ' ')"
	# without --vtime the host's timerfds still work
	"$VPMU" stat -o /dev/null --no-timing -- "$g" >host 2>err </dev/null || fail "host: $(cat err)"
	grep -q '^again: 1 expiry$' host || fail "host timerfd: $(cat host)"
}

signal_while_all_wait() {
	# a thread ended while the main thread sleeps: SIGTERM still ends the
	# run at once (the host's mask was the ended thread's, all blocked)
	local rc=0 t0 t1
	t0=$(date +%s%N)
	timeout -k 10 1 "$VPMU" stat -o /dev/null --no-timing -- "$PROGS/e2e_idle_signal" \
		>/dev/null 2>err </dev/null || rc=$?
	t1=$(date +%s%N)
	[ $rc = 124 ] && [ $(((t1 - t0) / 1000000)) -lt 5000 ] ||
		fail "rc $rc after $(((t1 - t0) / 1000000)) ms: $(cat err)"
}

vtime_timed_waits() {
	# xz -T2 waits for its worker with timeouts from the clock it reads:
	# under --vtime they are on the emulated clock (it spun forever when
	# the host took them on its own)
	seq 1 12000 >in
	xz -T2 -c in >native
	timeout 60 "$VPMU" stat -o /dev/null --no-timing --vtime -- xz -T2 -c in >out 2>err </dev/null ||
		fail "rc $?: $(head -c 300 err)"
	cmp -s native out || fail "output differs from native"
}

own_fds_stay_own() {
	# the guest gets the descriptors it would get natively: vpmu's output
	# files are not among them, so its first open is fd 3
	local p='open(my $f, "<", "/dev/null") or die; print fileno($f), "\n"'
	[ "$(perl -e "$p")" = 3 ] || fail "natively: $(perl -e "$p")"
	[ "$("$VPMU" stat -o st.txt -- perl -e "$p" 2>err)" = 3 ] || fail "stat -o: $(cat err)"
	[ "$("$VPMU" record -q -o rec.data -- perl -e "$p" 2>err)" = 3 ] || fail "record: $(cat err)"
	grep -q ' instructions ' st.txt || fail "no counts: $(cat st.txt)"
	# nor do vpmu's own descriptors show in /proc/self/fd (or fdinfo)
	local ls='ls /proc/self/fd /proc/self/fdinfo'
	[ "$("$VPMU" record -q -o rec.data -- sh -c "$ls" 2>err)" = "$(sh -c "$ls")" ] ||
		fail "/proc/self/fd: $("$VPMU" record -q -o rec.data -- sh -c "$ls" 2>&1 | tr '\n' ' ')"
}

comm_is_the_program() {
	# ps and /proc/self/comm show the program's name (a script's own), not vpmu's
	printf '#!/bin/sh\ncat /proc/$$/comm\n' >myscript.sh
	chmod +x myscript.sh
	[ "$("$VPMU" stat -o /dev/null -- cat /proc/self/comm 2>err)" = cat ] || fail "cat: $(cat err)"
	[ "$("$VPMU" stat -o /dev/null -- ./myscript.sh 2>err)" = myscript.sh ] || fail "script: $(cat err)"
}

stdin_passthrough() {
	printf 'line one\nline two\n' >in
	timeout "$E2E_TIMEOUT" "$VPMU" stat -o /dev/null -- cat <in >out 2>err
	rc=$?
	expect_rc 0 && cmp -s in out || fail "cat did not copy stdin"
}

# A trace's lines without their process and thread IDs (comm/TID, and the
# results that are one).
trace_calls_of() {
	awk '{ if (match($0, /ms\): [^ ]*\/[0-9]+ /)) {
		id = substr($0, RSTART + 5, RLENGTH - 6); sub(/.*\//, "", id)
		sub("/" id " ", " "); sub("= " id "$", "= TID") }
		print }' "$1"
}

# vpmu trace: each call with its arguments and result, the program's own
# output left alone; the same calls on every run, and as many as stat counts.
trace_calls() {
	local re n
	run_vpmu trace -- "$PROGS/e2e_hello_nolibc"
	expect_rc 7 || return 1
	[ "$(cat out)" = hello ] || fail "the program's output: $(cat out)"
	re='^ +[0-9]+\.[0-9]{3} \( *[0-9]+\.[0-9]{6} ms\): e2e_hello_nolib/[0-9]+ '
	[ "$(wc -l <err)" -eq 2 ] &&
		grep -Eq "${re}write\(fd: 1, buf: 0x[0-9a-f]+, count: 6\) + = 6\$" err &&
		grep -Eq "${re}exit_group\(error_code: 7\) + = \?\$" err ||
		fail "trace: $(cat err)"
	# (the emulated clock starts with the program: 5 instructions before)
	grep -q '^     0\.001 ' err || fail "the first call is not at 0.001: $(head -1 err)"
	# the calls of ls: the same twice, but for the pid; as many as stat counts
	run_vpmu trace -o t1 -- ls /
	expect_rc 0 || return 1
	run_vpmu trace -o t2 -- ls /
	trace_calls_of t1 >a
	trace_calls_of t2 >b
	cmp -s a b || fail "two runs differ: $(diff a b | head -5)"
	grep -q 'openat(dfd: CWD, filename: "/etc/ld.so.cache", flags: RDONLY|CLOEXEC) *= 3$' t1 ||
		fail "no openat of ld.so.cache: $(head -5 t1)"
	grep -Eq 'getdents64\(fd: 3, dirent: 0x[0-9a-f]+, count: [0-9]+\) *= [1-9]' t1 ||
		fail "no getdents64: $(grep getdents t1)"
	run_vpmu stat -x, --no-timing -- ls /
	n=$(awk -F, '$3 == "syscalls" { print $1 }' err)
	[ -n "$n" ] && [ "$(wc -l <t1)" -eq "$n" ] || fail "$(wc -l <t1) calls traced, stat counts $n"
	# untimed: the host's times, the same calls
	run_vpmu trace --no-timing -o t3 -- ls /
	sed 's|^.*ms): ||' a >a1
	trace_calls_of t3 | sed 's|^.*ms): ||' >b
	mv a1 a
	cmp -s a b || fail "--no-timing traced other calls: $(diff a b | head -5)"
	# errors
	grep -q ' = -1 ENOENT (No such file or directory)$' t1 || fail "no ENOENT in $(cat t1)"
}

# the addresses connect and bind are given, as perf trace prints them
trace_sockaddr() {
	run_vpmu trace -e socket,bind,connect -- "$PROGS/e2e_connect"
	expect_rc 0 || return 1
	grep -q ' bind(fd: 3, umyaddr: { .family: INET, port: 0, addr: 127\.0\.0\.1 }, addrlen: 16) *= 0$' err &&
		grep -q ' connect(fd: 3, uservaddr: { .family: INET, port: 9, addr: 127\.0\.0\.1 }, addrlen: 16) *= 0$' err &&
		grep -q ' connect(fd: [0-9], uservaddr: { .family: LOCAL, path: /nonexistent/vpmu\.sock }, addrlen: 110) *= -1 ENOENT ' err ||
		fail "trace: $(cat err)"
}

# --call-graph: each call's chain under it, named from the images of its
# own process: a forked child's from those it inherited, an execve's from
# the new image's, with the functions inlined at each frame; --max-stack
# cuts it, and alone means dwarf.
trace_callgraph() {
	local frames='s/^ {39}([^ ]*getppid|[^ ]+) \((.*\/)?([^/]*)\)$/\1 \3/p'
	run_vpmu trace -e getppid --call-graph dwarf -- "$PROGS/e2e_syschain" exec
	expect_rc 0 || return 1
	[ "$(grep -c 'getppid()' err)" = 2 ] || fail "calls: $(cat err)"
	grep -A5 'getppid()' err | sed -nE "$frames" | sed 's/^[^ ]*getppid /getppid /' >chains
	printf '%s\n' 'getppid libc.so.6' 'sc_mid inlined' 'sc_inner e2e_syschain' \
		'sc_outer e2e_syschain' 'main e2e_syschain' 'getppid libc.so.6' 'sc_mid inlined' \
		'sc_inner e2e_syschain' 'sc_again e2e_syschain' 'main e2e_syschain' |
		diff - chains >/dev/null || fail "dwarf chains: $(cat err)"
	# a fork without exec: the child names its frames from the images
	# it inherited
	run_vpmu trace -e getppid --max-stack 2 -- "$PROGS/e2e_syschain"
	[ "$(grep -c '^ \{39\}sc_inner (' err)" = 2 ] && ! grep -q ' sc_outer (' err &&
		! grep -q '\[unknown\]' err || fail "--max-stack 2: $(cat err)"
	# frame pointers: getppid's wrapper makes no frame, so its caller is
	# skipped, the rest found
	run_vpmu trace -e getppid --call-graph fp -- "$PROGS/e2e_syschain"
	[ "$(grep -A2 'getppid()' err | grep -c ' sc_outer (')" = 2 ] || fail "fp: $(cat err)"
	run_vpmu trace -e getppid --no-comm -- "$PROGS/e2e_syschain"
	grep -Eq '^ +[0-9.]+ \( *[0-9.]+ ms\): [0-9]+ getppid\(\)' err && ! grep -q 'e2e_syschain/' err ||
		fail "--no-comm: $(cat err)"
	run_vpmu trace --call-graph lbr true
	expect_rc 1 && grep -q "fp or dwarf, not 'lbr'" err || fail "bad mode: $(cat err)"
	run_vpmu trace --max-stack 0 true
	expect_rc 1 || fail "--max-stack 0 accepted"
	# --min-stack: the calls of deep chains alone (getppid's are 7 deep)
	run_vpmu trace -e getppid,exit_group --min-stack 7 -- "$PROGS/e2e_syschain"
	[ "$(grep -c 'getppid()' err)" = 2 ] && ! grep -q 'exit_group(' err ||
		fail "--min-stack 7: $(cat err)"
	run_vpmu trace -e getppid --min-stack 8 -S -- "$PROGS/e2e_syschain"
	! grep -q 'getppid()' err && grep -Eq '^ +getppid +1 ' err || fail "--min-stack 8: $(cat err)"
}

# -e, --failure, --duration choose what is printed; -s and -S sum it up.
trace_filters() {
	local calls
	run_vpmu trace -e 'open*,close' -o t -- ls /
	expect_rc 0 || return 1
	[ -s t ] && ! grep -Ev ': ls/[0-9]+ (openat|close)\(' t || fail "-e: $(head -5 t)"
	run_vpmu trace -e '!openat,mmap' -o t -- ls /
	grep -q 'read(' t && ! grep -Eq ' (openat|mmap)\(' t || fail "-e !: $(head -5 t)"
	# lists add up
	run_vpmu trace -e openat -e close -o t -- ls /
	grep -q ' openat(' t && grep -q ' close(' t && ! grep -Ev ' (openat|close)\(' t ||
		fail "-e -e: $(head -5 t)"
	run_vpmu trace -e '!openat' -e '!mmap' -o t -- ls /
	grep -q 'read(' t && ! grep -Eq ' (openat|mmap)\(' t || fail "-e ! -e !: $(head -5 t)"
	run_vpmu trace -e 'open*,close' -e '!openat' -o t -- ls /
	grep -q ' close(' t && ! grep -Ev ' close\(' t || fail "-e -e !: $(head -5 t)"
	run_vpmu trace --failure -o t -- ls /
	[ -s t ] && ! grep -v ' = -1 E[A-Z]* (' t || fail "--failure: $(head -5 t)"
	run_vpmu trace --duration 1000 -o t -- ls /
	expect_rc 0 && [ ! -s t ] || fail "--duration 1000: $(head -3 t)"
	# the summary: every call of the run that returned, once
	run_vpmu trace -o all -- ls /
	run_vpmu trace -s -o sum -- ls /
	expect_rc 0 || return 1
	grep -q '^ Summary of events:$' sum && ! grep -q ' ms): ' sum || fail "-s: $(head -5 sum)"
	calls=$(grep -vc ' = ?$' all)
	grep -Eq "^ ls \([0-9]+\), $calls syscalls, 100\.0%\$" sum || fail "-s: $(grep syscalls sum)"
	[ "$(awk '$1 == "openat" { print $2 }' sum)" = "$(grep -c ' openat(' all)" ] ||
		fail "openat calls: $(grep '^ *openat' sum)"
	[ "$(awk '$1 == "openat" { print $3 }' sum)" = "$(grep ' openat(' all | grep -c ' = -1 ')" ] ||
		fail "openat errors: $(grep '^ *openat' sum)"
	run_vpmu trace -s --errno-summary -o sum -- ls /nonexistent
	grep -A1 '^   access ' sum | grep -Eq '^	{3}ENOENT: [0-9]+$' || fail "--errno-summary: $(cat sum)"
	run_vpmu trace --errno-summary -- ls /
	expect_rc 1 && [ "$(wc -l <err)" -eq 1 ] || fail "--errno-summary without -s: $(cat err)"
	# --max-events: the first lines; --sort-events: the same lines by time
	run_vpmu trace --max-events 3 -o t -- ls /
	expect_rc 0 && trace_calls_of t >a && trace_calls_of all | head -3 >b && cmp -s a b ||
		fail "--max-events 3: $(cat t)"
	run_vpmu trace --sort-events -o t -- sh -c 'ls / >/dev/null; ls / >/dev/null'
	run_vpmu trace -o u -- sh -c 'ls / >/dev/null; ls / >/dev/null'
	awk '{ if ($1 + 0 < last) exit 1; last = $1 + 0 }' t || fail "--sort-events: not by time: $(head t)"
	sed 's|/[0-9]* | |; s|= [0-9]*$|= N|' t | sort >a
	sed 's|/[0-9]* | |; s|= [0-9]*$|= N|' u | sort >b
	cmp -s a b || fail "--sort-events: other lines: $(diff a b | head -5)"
	run_vpmu trace -S -o both -- ls /
	grep -q ' ms): ' both && grep -q '^ Summary of events:$' both || fail "-S: $(tail -3 both)"
	# the last of -s and -S counts
	run_vpmu trace -s -S -o both2 -- ls /
	[ "$(grep -c ' ms): ' both2)" -eq "$(grep -c ' ms): ' both)" ] &&
		grep -q '^ Summary of events:$' both2 || fail "-s -S is not -S: $(head -3 both2)"
	run_vpmu trace -S -s -o both2 -- ls /
	! grep -q ' ms): ' both2 && grep -q '^ Summary of events:$' both2 ||
		fail "-S -s is not -s: $(head -3 both2)"
	# bad input: one line each
	run_vpmu trace -e opnat -- ls /
	expect_rc 1 && [ "$(cat err)" = "vpmu trace: -e: no system call 'opnat'. Did you mean 'openat'?" ] ||
		fail "-e opnat: $(cat err)"
	for e in '!' ',' '!,,'; do
		run_vpmu trace -e "$e" -- ls /
		expect_rc 1 && [ "$(cat err)" = "vpmu trace: -e wants system call names" ] ||
			fail "-e $e: $(cat err)"
	done
	run_vpmu trace --duration soon -- ls /
	expect_rc 1 && [ "$(wc -l <err)" -eq 1 ] || fail "--duration soon: $(cat err)"
	run_vpmu trace -o /nonexistent/dir/t -- ls /
	expect_rc 1 && [ "$(cat err)" = "vpmu trace: /nonexistent/dir/t: No such file or directory" ] ||
		fail "-o: $(cat err)"
	# --summary-mode total: one table of every thread's calls
	run_vpmu trace -s --summary-mode total -o t -- sh -c 'ls / >/dev/null'
	expect_rc 0 && grep -Eq '^ total, [0-9]+ syscalls$' t && ! grep -Eq '^ (sh|ls) \(' t &&
		[ "$(grep -c '^   execve ' t)" = 1 ] || fail "--summary-mode total: $(cat t)"
	run_vpmu trace --summary-mode total -- ls /
	expect_rc 1 && grep -q -- '--summary-mode is of the summary' err || fail "without -s: $(cat err)"
	run_vpmu trace -s --summary-mode process -- ls /
	expect_rc 1 && grep -q "thread or total, not 'process'" err || fail "bad mode: $(cat err)"
}

# Processes: a child's calls are its own, an execve that replaces its image
# is one line (= 0, or its error) and the new image's times go on from it;
# a program that crashes keeps the calls it made.
trace_processes() {
	local t_exec t_exit
	run_vpmu trace -e execve,exit_group -o t -- sh -c "exec $PROGS/e2e_hello_nolibc"
	expect_rc 7 || return 1
	[ "$(grep -c ' execve(' t)" -eq 1 ] &&
		grep -q "execve(filename: \"$PROGS/e2e_hello_nolibc\", argv: 0x[0-9a-f]*, envp: 0x[0-9a-f]*) *= 0\$" t &&
		grep -q ': e2e_hello_nolib/[0-9]* exit_group(error_code: 7) *= ?$' t || fail "exec: $(cat t)"
	t_exec=$(awk '/ execve\(/ { print $1 }' t)
	t_exit=$(awk '/ exit_group\(/ { print $1 }' t)
	awk -v a="$t_exec" -v b="$t_exit" 'BEGIN { exit !(b > a) }' ||
		fail "the new image's clock restarted: execve at $t_exec, exit_group at $t_exit"
	run_vpmu trace -e execve -o t -- sh -c 'exec /nonexistent/prog'
	[ "$(grep -c ' execve(' t)" -eq 1 ] &&
		grep -q 'execve(filename: "/nonexistent/prog".* = -1 ENOENT (No such file or directory)$' t ||
		fail "a failed exec: $(cat t)"
	run_vpmu trace -e write,exit_group -o t -- sh -c "$PROGS/e2e_hello_nolibc; exit 3"
	expect_rc 3 || return 1
	[ "$(grep ' exit_group(' t | sed 's|.*: [^ ]*/\([0-9]*\) .*|\1|' | sort -u | wc -l)" -eq 2 ] &&
		grep -q 'e2e_hello_nolib/[0-9]* write(fd: 1' t || fail "child: $(cat t)"
	run_vpmu trace -e write -o t -- "$PROGS/e2e_segv"
	expect_rc 139 && grep -q 'e2e_segv/[0-9]* write(fd: 1' t || fail "crash: rc $rc $(cat t err)"
	# a signal to itself: a kill that returns, and one that does not
	run_vpmu trace -e kill -o t -- sh -c 'kill -0 $$; kill -TERM $$; echo not here'
	expect_rc 143 && [ "$(wc -l <t)" -eq 2 ] && grep -Eq ' kill\(pid: [0-9]+\) +\= 0$' t &&
		grep -Eq ' kill\(pid: [0-9]+, sig: TERM\) += \?$' t || fail "kill: rc $rc $(cat t)"
}

# perf's options for a running process or the host's CPUs: refused with
# why, by every command that runs a program; report's --pid stays a filter.
attach_refused() {
	local c a
	for c in stat record trace mem; do
		for a in "-p 1" "--pid=1" "-C 0" "--all-cpus" $([ $c = mem ] || echo "-t"); do
			run_vpmu $c $a true
			expect_rc 1 && grep -q "^vpmu $c: .* vpmu measures only a program it runs on its emulated machine: vpmu $c \[OPTIONS\] PROGRAM \[ARGS\]$" err ||
				fail "$c $a: $(cat err)"
		done
	done
	run_vpmu report --pid 1 -i /nonexistent
	grep -q 'measures only' err && fail "report --pid: $(cat err)"
	return 0
}

# --vtime: a timed wait takes its time on the trace's clock, a reaped
# child's run too, and an executed image's clock goes on after them;
# without it a sleep takes only the kernel cost model's time.
trace_vtime_waits() {
	local t
	run_vpmu trace --vtime -e clock_nanosleep,wait4,execve -o t -- \
		sh -c 'sleep 0.2; exec sleep 0.1'
	expect_rc 0 || return 1
	# durations: each sleep's, to the µs; the wait4 that reaped the
	# first sleep, at least its sleep
	awk '/clock_nanosleep\(/ { gsub(/[()]/, "", $2); d[n++] = $2 }
		END { exit !(n == 2 && d[0] >= 200 && d[0] < 200.01 && d[1] >= 100 && d[1] < 100.01) }' t &&
		awk '/ wait4\(.*= [0-9]+$/ { gsub(/[()]/, "", $2); ok = $2 >= 200 } END { exit !ok }' t ||
		fail "durations: $(cat t)"
	# the exec'd image's sleep starts after the first one
	t=$(awk '/clock_nanosleep\(/ { s = $1 } END { print s }' t)
	awk -v t="$t" 'BEGIN { exit !(t > 200) }' || fail "times: $(cat t)"
	run_vpmu trace -e clock_nanosleep -o t -- sleep 0.1
	awk '/clock_nanosleep\(/ { gsub(/[()]/, "", $2); exit !($2 < 1) }' t ||
		fail "without --vtime: $(cat t)"
}

# man/vpmu-model.7 documents every parameter `vpmu stat -v` prints, and
# its table of the machines' figures is what vpmu uses.
model_page_matches() {
	for a in p4 ia64 xscale alpha; do
		run_vpmu stat -a $a -v -- "$PROGS/e2e_loop" 1
		expect_rc 0 || return 1
		cp err "v.$a"
	done
	python3 "$SRC/tests/tools/model_page.py" "$SRC/man/vpmu-model.7" v.p4 v.ia64 v.xscale v.alpha \
		>differ || fail "man/vpmu-model.7 and vpmu stat -v: $(cat differ)"
}

# vpmu list --model names the events vpmu stat -v prints, in its order,
# and marks those the machine never raises as it does.
list_model() {
	run_vpmu list --model -a xscale
	expect_rc 0 || return 1
	awk '/^  [^ ]/ { print $1 }' out >listed
	grep -q '^  l2-references  <not counted: the machine has no such cache>$' out &&
		grep -q '^  stall-data$' out || fail "xscale: $(grep -A1 'l2-references\|stall-data' out)"
	run_vpmu stat -a xscale -v -- "$PROGS/e2e_loop" 1
	awk '/^ +event +cpu0 +cpu1$/ { on = 1; next } on && !NF { exit } on { print $1 }' err >printed
	[ -s printed ] && diff listed printed >/dev/null ||
		fail "list --model and stat -v differ: $(diff listed printed | head -5 | tr '\n' ' ')"
	grep -q '^ *l2-references *<not counted> *<not counted> *(the machine has no such cache)$' err ||
		fail "stat -v: $(grep l2-references err)"
	run_vpmu list --model -a p4 'stall-d*'
	[ "$(grep -c '^  [^ ]' out)" = 1 ] &&
		grep -A1 '^  stall-data' out | grep -q '<not counted: an out-of-order core does not stall on use' ||
		fail "p4 stall-d*: $(cat out)"
}

no_protection_keys() {
	run_vpmu stat -o /dev/null -- "$PROGS/e2e_pkeys"
	expect_rc 0 || return 1
	printf '%s\n' 'pkey_alloc(0, 0): No space left on device' \
		'pkey_alloc(1, 0): Invalid argument' 'pkey_alloc(0, 4): Invalid argument' \
		'pkey_free(1): Invalid argument' 'pkey_mprotect(key 0): 0' \
		'pkey_mprotect(key -1): 0' 'pkey_mprotect(key 1): Invalid argument' \
		'page still reads k' >want
	cmp -s out want || fail "pkeys: $(diff want out | tr '\n' ' ')"
}

no_tracing() {
	run_vpmu stat -o /dev/null -- "$PROGS/e2e_ptrace"
	expect_rc 0 || return 1
	[ "$(cat out)" = "PTRACE_TRACEME: Operation not permitted" ] || fail "ptrace: $(cat out)"
}

# a guest's perf_event_open: no hardware events of the host's (they would
# count the emulator), as on a virtual machine without a virtual PMU
no_host_counters() {
	run_vpmu stat -o /dev/null -- "$PROGS/e2e_perf_event"
	expect_rc 0 || return 1
	[ "$(cat out)" = "instructions: No such file or directory
L1-dcache-load-misses: No such file or directory
r00c0: No such file or directory
breakpoint: No such file or directory
pmu 8: No such file or directory
bad attr: Bad address" ] || fail "perf_event_open: $(cat out)"
}

verbose_lists_unknown_syscalls() {
	"$PROGS/e2e_nosys" >native
	run_vpmu stat -v -- "$PROGS/e2e_nosys"
	expect_rc 0 || return 1
	cmp -s out native || fail "stdout differs: $(cat out)"
	grep -Eq '^vpmu: guest process [0-9]+: unknown syscall 1000 returned ENOSYS \(2 times\)$' err ||
		fail "no unknown-syscall line: $(cat err)"
	grep -Eq '^ +1 guest process$' err || fail "no process count"
	run_vpmu stat -- "$PROGS/e2e_nosys"
	grep -q 'unknown syscall' err && fail "listed without -v"
	return 0
}

t version version
t usage usage
t unknown_command unknown_command
t help_pages help_pages
t stat_help_matches_man help_matches_man stat
t record_help_matches_man help_matches_man record
t report_help_matches_man help_matches_man report
t script_help_matches_man help_matches_man script
t annotate_help_matches_man help_matches_man annotate
t list_help_matches_man help_matches_man list
t diff_help_matches_man help_matches_man diff
t mem_help_matches_man help_matches_man mem
t buildid-list_help_matches_man help_matches_man buildid-list
t evlist_help_matches_man help_matches_man evlist
t trace_help_matches_man help_matches_man trace
t stat_usage_errors stat_usage_errors
t option_errors option_errors
t stat_output_shape stat_output_shape
t stat_timed_shape stat_timed_shape
t stat_output_file stat_output_file
t exact_counts_nolibc exact_counts_nolibc
t exit_status exit_status
t signal_death signal_death
t signal_forwarded signal_forwarded
t unsupported_instruction unsupported_instruction
t missing_program missing_program
t not_elf not_elf
t directory directory
t determinism determinism
t seed_changes_nothing_visible seed_changes_nothing_visible
t getrandom_is_seeded getrandom_is_seeded
t cpus_are_emulated cpus_are_emulated
t vtime_is_emulated vtime_is_emulated
t vtime_proc_files vtime_proc_files
t task_stat task_stat
t vtime_make vtime_make
t vtime_timers vtime_timers
t vtime_timerfd vtime_timerfd
t vtime_timed_waits vtime_timed_waits
t signal_while_all_wait signal_while_all_wait
t own_fds_stay_own own_fds_stay_own
t comm_is_the_program comm_is_the_program
t stdin_passthrough stdin_passthrough
t no_protection_keys no_protection_keys
t no_tracing no_tracing
t no_host_counters no_host_counters
t verbose_lists_unknown_syscalls verbose_lists_unknown_syscalls
t model_page_matches model_page_matches
t list_model list_model
t trace_calls trace_calls
t trace_sockaddr trace_sockaddr
t trace_callgraph trace_callgraph
t trace_filters trace_filters
t trace_processes trace_processes
t trace_vtime_waits trace_vtime_waits
t attach_refused attach_refused
summary
