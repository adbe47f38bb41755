#!/usr/bin/env python3
"""model_fuzz.py VPMU PROGS TRIALS [SEED] — the timing model under machine
descriptions nobody chose: each trial takes a machine, changes one to six
of its figures (`--set`) to values drawn from edge cases and random ones,
and runs a program on it.  vpmu may refuse a description (exit 1, one line
naming what is wrong); if it takes it, then:
  - the program's output and exit status are the native ones,
  - the instructions retired are the functional count (timing never
    changes what the program does; on two logical processors, with
    --smt, threads interleave otherwise),
  - a second run counts the same cycles and instructions,
  - vpmu neither crashes nor runs past the timeout.
A quarter of the trials record instead (vpmu record with one of the
machine's sampling events) and must leave the program's output and
status alone and a sample file that report, script and annotate read
(exit 0, or 1 with one line for a file without samples).
Prints each failure with the command to repeat it and a summary line;
exits 1 if any trial failed."""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

VPMU, PROGS, TRIALS = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
MACHINES = ["p4", "ia64", "xscale", "alpha"]
PROGRAMS = [
    [f"{PROGS}/bench_qsort", "3000"],
    [f"{PROGS}/e2e_loop", "100"],
    [f"{PROGS}/ua_chase", "262144", "2000"],
    [f"{PROGS}/sse_math"],
    [f"{PROGS}/lx_threads"],
]
ENUMS = {
    "policy": ["lru", "rr", "random"],
    "write": ["back-allocate", "back-noallocate", "through-allocate", "through-noallocate"],
    "context": ["adaptive", "shared"],
    "kind": ["static", "bimodal", "gshare", "tournament"],
}
FLAGS = {"ooo", "replay", "inclusive", "classify", "tc", "pf_adjacent"}
SAMPLED = {
    "p4": ["cycles", "instructions:u", "uops", "L1-dcache-load-misses:pp"],
    "ia64": ["cycles", "instructions", "DATA_EAR_EVENTS:CACHE_LAT4"],
    "xscale": ["cycles", "instructions", "DCACHE_MISS"],
    "alpha": ["cycles", "PROFILEME:pp"],
}
READERS = [["report", "--stdio"], ["report", "--stdio", "--sort", "sym,srcline"], ["script"],
           ["annotate", "--stdio", "main"]]
TIMEOUT = 120
WORK = tempfile.mkdtemp(prefix="model_fuzz.")
DATA = os.path.join(WORK, "vpmu.data")


def run(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT)
        return p.returncode, p.stdout, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return None, b"", "timeout"


def params(machine):
    _, _, err = run([VPMU, "stat", "-a", machine, "-v", "--", f"{PROGS}/e2e_loop", "1"])
    return re.findall(r"^  ([a-z0-9]+\.[a-z0-9_.]+) +(\S+)$", err, re.M)


def value(field, default):
    if field in ENUMS:
        return rng.choice(ENUMS[field])
    if field in FLAGS:
        return rng.choice(["0", "1"])
    d = int(default)
    return str(rng.choice([0, 1, 2, 3, d // 2, d * 2, d + 1, 1 << rng.randrange(17),
                           rng.randrange(1, 5000)]))


def counts(err):
    c = {}
    for line in err.splitlines():
        f = line.split(",")
        if len(f) > 2 and f[0].isdigit():
            c[f[2]] = int(f[0])
    return c


native = {}
for prog in PROGRAMS:
    p = subprocess.run(prog, capture_output=True)
    native[prog[0]] = (p.returncode, p.stdout)
functional = {}
keys = {m: params(m) for m in MACHINES}
failed = taken = refused = recorded = 0
for trial in range(TRIALS):
    machine = rng.choice(MACHINES)
    prog = rng.choice(PROGRAMS)
    picks = rng.sample(keys[machine], rng.randint(1, 6))
    sets = {k: value(k.rsplit(".", 1)[-1], v) for k, v in picks}
    # the two logical processors of p4 (or of any core given them)
    smt = ["--smt"] if (machine == "p4" or sets.get("core.threads") == "2") and \
        rng.random() < 0.3 else []
    record = rng.random() < 0.25
    how = ["record", "-e", rng.choice(SAMPLED[machine]), "-c", str(rng.choice([97, 1000, 10007])),
           "-o", DATA] if record else ["stat"]
    for _ in range(4):
        spec = ",".join(f"{k}={v}" for k, v in sets.items())
        cmd = [VPMU, how[0], "-a", machine, "--set", spec] + smt + how[1:] + (
            [] if record else ["-x,", "-e", "instructions,cycles"]) + ["--"] + prog
        rc, out, err = run(cmd)
        # a value out of its key's range: draw again inside it
        m = re.search(r"value \S+ for (\S+) out of range \((\d+)\.\.(\d+)\)", err)
        if rc != 1 or not m:
            break
        lo, hi = int(m[2]), int(m[3])
        sets[m[1]] = str(rng.randint(lo, min(hi, lo + 4096)))
    why = None
    if rc == 1 and re.fullmatch(r"vpmu (stat|record): [^\n]+\n", err) and not out:
        refused += 1
        continue
    taken += 1
    if record:
        recorded += 1
        if rc is None:
            why = "timed out"
        elif (rc, out) != native[prog[0]]:
            why = f"exit {rc} or output differs from native: {err[-300:]}"
        for reader in READERS if not why else []:
            rrc, _, rerr = run([VPMU] + reader + ["-i", DATA])
            if rrc != 0 and not (rrc == 1 and re.fullmatch(r"vpmu [a-z]+: [^\n]+\n", rerr)):
                why = f"vpmu {' '.join(reader)}: exit {rrc}: {rerr[-300:]}"
                break
        if why:
            failed += 1
            print(f"FAIL {' '.join(cmd)}\n     {why}")
        continue
    if prog[0] not in functional:
        _, _, ferr = run([VPMU, "stat", "--no-timing", "-x,", "--"] + prog)
        functional[prog[0]] = counts(ferr).get("instructions")
    c = counts(err)
    if rc is None:
        why = "timed out"
    elif (rc, out) != native[prog[0]]:
        why = f"exit {rc} or output differs from native {native[prog[0]][0]}: {err[-300:]}"
    # (on two processors threads interleave otherwise)
    elif not smt and c.get("instructions") != functional[prog[0]]:
        why = f"instructions {c.get('instructions')}, functional {functional[prog[0]]}"
    else:
        rc2, _, err2 = run(cmd)
        if counts(err2) != c:
            why = f"second run differs: {counts(err2)} vs {c}"
    if why:
        failed += 1
        print(f"FAIL {' '.join(cmd)}\n     {why}")
shutil.rmtree(WORK)
print(f"model_fuzz: {TRIALS} trials, {refused} descriptions refused, {taken} run "
      f"({recorded} recorded), {failed} failed")
sys.exit(1 if failed else 0)
