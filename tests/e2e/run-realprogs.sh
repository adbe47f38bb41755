#!/usr/bin/env bash
# run-realprogs.sh — programs nobody here wrote must behave under vpmu
# exactly as natively: each case runs a command natively and as
# `vpmu stat -o /dev/null -- command`, in the same directory with the same
# input, and compares stdout byte for byte and the exit status; and the
# same timed run of some of them twice must give the same counts.
#
# Environment: VPMU (binary), PROGS (unused here).  Run by make check.
# Each case is one test; a case with several steps passes when all do.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh
export PYTHONHASHSEED=0 PYTHONDONTWRITEBYTECODE=1
# The Debian programs deps.sh installs, not whatever else a PATH may offer.
export PATH=/usr/bin:/bin

DATA=$E2E_SCRATCH/data

# A fixed tree: fixed contents, modes and mtimes, so ls and tar output
# depends on nothing but the program.
make_data() {
	mkdir -p "$DATA/tree/sub"
	awk 'BEGIN {
		srand(7)
		split("alpha beta gamma delta epsilon zeta eta theta iota kappa", w)
		for (i = 1; i <= 4000; i++)
			printf "%s:%d:%s %s:%.3f\n", w[1 + int(rand() * 10)], int(rand() * 100000),
				w[1 + int(rand() * 10)], w[1 + int(rand() * 10)], rand() * 1000
	}' >"$DATA/records.txt"
	seq 1 20000 | awk '{ print ($1 * 7919) % 10007 }' >"$DATA/numbers.txt"
	# 1 MB of compressible, not trivial text
	for i in $(seq 40); do cat "$DATA/records.txt"; done | head -c 1048576 >"$DATA/big.txt"
	printf 'hello\n' >"$DATA/tree/a.txt"
	printf 'some more text\n' >"$DATA/tree/b.txt"
	printf '#!/bin/sh\necho hi\n' >"$DATA/tree/run.sh"
	head -c 3000 "$DATA/records.txt" >"$DATA/tree/sub/c.txt"
	chmod 644 "$DATA"/tree/*.txt "$DATA/tree/sub/c.txt"
	chmod 755 "$DATA/tree/run.sh" "$DATA/tree/sub"
	ln -sf a.txt "$DATA/tree/link"
	find "$DATA/tree" -exec touch -h -d '2020-02-29 12:34:56 UTC' {} +
	cat >"$DATA/query.sql" <<'SQL'
CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, v REAL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
INSERT INTO t SELECT i, printf('name%04d', (i * 37) % 2000), (i * 1.5) / 7 FROM n;
CREATE INDEX t_name ON t(name);
SELECT count(*), sum(v), min(name), max(name) FROM t;
SELECT name, round(v, 3) FROM t WHERE name LIKE 'name01%' ORDER BY name LIMIT 5;
SELECT id % 10 AS k, count(*), round(avg(v), 4) FROM t GROUP BY k ORDER BY k;
SQL
	cat >"$DATA/script.py" <<'PY'
import json, math, re, hashlib, collections
words = open("records.txt").read().split()
c = collections.Counter(w.split(":")[0] for w in words if ":" in w)
print(json.dumps(sorted(c.items()), sort_keys=True))
print(sum(math.sqrt(i) for i in range(1, 20000)))
print(hashlib.sha1(" ".join(words[:500]).encode()).hexdigest())
print([m.group(0) for m in re.finditer(r"\d{5}", " ".join(words[:50]))][:8])
print(sorted({i * i % 97 for i in range(300)})[:10], 2 ** 200, 10 / 3)
PY
	cat >"$DATA/script.pl" <<'PL'
use strict; use warnings;
my %n; open(my $f, '<', 'records.txt') or die;
while (<$f>) { my ($w, $x) = split /:/; $n{$w} += $x; }
printf "%s %d\n", $_, $n{$_} for sort keys %n;
my $s = join ',', map { $_ ** 2 } grep { $_ % 7 == 3 } 1 .. 200;
print length($s), " ", substr($s, 0, 40), "\n";
printf "%.10f\n", atan2(1, 1) * 4;
PL
	# parallel jobs: make waits for them in pselect with SIGCHLD let through
	printf 'all: a b c d\n\t@cat a.out b.out c.out d.out\na b c d:\n\t@sort -n numbers.txt | head -n 3 >$@.out; echo $@ >>$@.out\n' \
		>"$DATA/Makefile"
	cat >"$DATA/script.lua" <<'LUA'
local t = {}
for line in io.lines("numbers.txt") do t[#t + 1] = tonumber(line) end
table.sort(t)
local s = 0
for i = 1, #t do s = s + t[i] * i end
print(#t, t[1], t[#t], s)
print(string.format("%.6f", math.sin(1) + math.log(10)), ("x"):rep(5), 7 // 2, 2 ^ 0.5)
local words = {}
for w in io.open("records.txt"):read("a"):gmatch("%a+") do words[w] = (words[w] or 0) + 1 end
local k = {}
for w in pairs(words) do k[#k + 1] = w end
table.sort(k)
print(table.concat(k, " "))
LUA
}

# same NAME CMD...: run CMD natively and under vpmu in $DATA, stdin from
# /dev/null unless IN names a file; compare stdout and exit status.
same() {
	local name=$1 nrc vrc
	shift
	(cd "$DATA" && timeout -k 5 "$E2E_TIMEOUT" "$@" <"${IN:-/dev/null}" >"$OUT/$name.native" 2>/dev/null)
	nrc=$?
	(cd "$DATA" && timeout -k 5 "$E2E_TIMEOUT" "$VPMU" stat -o /dev/null -- "$@" \
		<"${IN:-/dev/null}" >"$OUT/$name.vpmu" 2>"$OUT/$name.err")
	vrc=$?
	[ "$nrc" -eq "$vrc" ] || fail "$name: exit status $vrc under vpmu, $nrc natively; $(head -c 400 "$OUT/$name.err")" || return 1
	cmp -s "$OUT/$name.native" "$OUT/$name.vpmu" ||
		fail "$name: stdout differs: $(cmp "$OUT/$name.native" "$OUT/$name.vpmu" 2>&1); $(head -c 400 "$OUT/$name.err")"
}

# twice NAME CMD...: two timed runs of CMD in $DATA with --vtime give the
# same counts, every digit (the programs seed themselves from getrandom,
# /dev/urandom and the clocks)
twice() {
	local name=$1 k
	shift
	for k in 1 2; do
		(cd "$DATA" && timeout -k 5 "$E2E_TIMEOUT" "$VPMU" stat -x, --vtime -o "$OUT/$name.$k" \
			-- "$@" </dev/null >/dev/null 2>"$OUT/$name.err") ||
			fail "$name: $(head -c 400 "$OUT/$name.err")" || return 1
	done
	grep -q ',cycles,' "$OUT/$name.1" || fail "$name: no cycles: $(cat "$OUT/$name.1")" || return 1
	cmp -s "$OUT/$name.1" "$OUT/$name.2" ||
		fail "$name: counts differ: $(diff "$OUT/$name.1" "$OUT/$name.2" | tr '\n' ' ')"
}

OUT=$E2E_SCRATCH/out
mkdir -p "$OUT"
make_data

ls_l() { same ls ls -l --time-style=long-iso tree tree/sub; }
sort_() { same sort sort records.txt && same sort_n sort -n -r numbers.txt; }
wc_() { same wc wc records.txt numbers.txt big.txt; }
md5sum_() { same md5sum md5sum records.txt big.txt; }
sha256sum_() { same sha256sum sha256sum records.txt big.txt; }
seq_() { same seq seq -f '%.3f' 1 0.25 2000; }
tr_() { IN=$DATA/records.txt same tr tr 'a-z:' 'A-Z\t'; }
cut_() { same cut cut -d: -f1,3 records.txt; }
uniq_() {
	sort -t: -k1,1 "$DATA/records.txt" | cut -d: -f1 >"$DATA/sorted.txt"
	same uniq uniq -c sorted.txt
}
gzip_roundtrip() {
	IN=$DATA/big.txt same gzip_c gzip -9 -c || return 1
	cp "$OUT/gzip_c.native" "$DATA/big.txt.gz"
	same gzip_d gzip -d -c big.txt.gz && cmp -s "$OUT/gzip_d.vpmu" "$DATA/big.txt"
}
bzip2_roundtrip() {
	# not big.txt: forty copies of one text are the worst case of bzip2's
	# block sort (2.4 billion instructions)
	IN=$DATA/records.txt same bzip2_c bzip2 -9 -c || return 1
	cp "$OUT/bzip2_c.native" "$DATA/records.txt.bz2"
	same bzip2_d bzip2 -d -c records.txt.bz2 && cmp -s "$OUT/bzip2_d.vpmu" "$DATA/records.txt"
}
xz_roundtrip() {
	IN=$DATA/records.txt same xz_c xz -6 -c -T1 || return 1
	cp "$OUT/xz_c.native" "$DATA/records.txt.xz"
	same xz_d xz -d -c records.txt.xz
}
grep_() {
	same grep grep -E -n 'gamma:[0-9]+:(delta|eta) ' records.txt &&
		same grep_c grep -c -v -i ALPHA records.txt &&
		same grep_none grep -q nothing-like-this records.txt
}
sed_() { same sed sed -E -e 's/([a-z]+):([0-9]+)/\2=\1/' -e '/^9/d' -e '100q' records.txt; }
awk_() {
	same awk gawk -F: '{ n[$1] += $2; s += $4 } END { for (k in n) print k, n[k]; printf "%.4f\n", s }' \
		records.txt
}
tar_() {
	same tar_c tar -C tree --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - . ||
		return 1
	cp "$OUT/tar_c.native" "$DATA/tree.tar"
	same tar_t tar -tvf tree.tar
}
find_() { same find find tree -printf '%p %y %s %m %TY-%Tm-%Td\n'; }
sqlite3_() { IN=$DATA/query.sql same sqlite3 sqlite3 ':memory:'; }
python3_() { same python3 python3 script.py; }
perl_() { same perl perl script.pl; }
lua_() { same lua lua5.4 script.lua; }
make_() { same make make -s -j2; }

# the same run twice gives the same counts
repeat() {
	local ok=0
	twice perl perl -e 'my %h = map { $_ => 1 } "a" .. "z"; print keys %h, "\n"' || ok=1
	twice sqlite3 sqlite3 ':memory:' 'SELECT count(*) FROM (SELECT randomblob(8));' || ok=1
	twice python3 env -u PYTHONHASHSEED python3 -c 'import random; print(random.random())' || ok=1
	twice gzip gzip -9 -c records.txt || ok=1
	# two threads whose timed waits end on the emulated clock
	twice xz-T2 xz -T2 -1 -c numbers.txt || ok=1
	return $ok
}

t ls-l ls_l
t sort sort_
t wc wc_
t md5sum md5sum_
t sha256sum sha256sum_
t seq seq_
t tr tr_
t cut cut_
t uniq uniq_
t gzip gzip_roundtrip
t bzip2 bzip2_roundtrip
t xz xz_roundtrip
t grep grep_
t sed sed_
t awk awk_
t tar tar_
t find find_
t sqlite3 sqlite3_
t python3 python3_
t perl perl_
t lua5.4 lua_
t make make_
t repeat repeat
summary
