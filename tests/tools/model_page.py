#!/usr/bin/env python3
"""model_page.py MANPAGE P4 IA64 XSCALE ALPHA — whether man/vpmu-model.7
documents exactly the parameters `vpmu stat -v` prints, and whether its
MACHINES table holds each machine's values.  Each of P4.. is the stderr
of `vpmu stat -v -a MACHINE`.  Prints what differs; exits 1 if anything
does."""
import re
import sys

page = open(sys.argv[1], encoding="utf-8").read()
machines = ["p4", "ia64", "xscale", "alpha"]
params = {}
for name, path in zip(machines, sys.argv[2:6]):
    params[name] = dict(
        m.groups()
        for m in re.finditer(r"^  ([a-z0-9]+\.[a-z0-9_.]+) +(\S+)$",
                             open(path, encoding="utf-8").read(), re.M))
bad = []
if not all(params.values()):
    bad.append("no parameters in a `vpmu stat -v` output")

# the µop classes, and each PARAMETERS subsection's fields
classes = set(re.findall(r"^\.Cm ([a-z_]+)",
                         page.split(".Ss µops")[1].split(".Ss")[0], re.M))
section = page.split(".Sh PARAMETERS")[1].split(".Sh ")[0]
documented = {}  # structure -> fields; "lat.*" for per-class fields
for sub in section.split(".Ss ")[1:]:
    names = sub.split("\n", 1)[0].split(", ")
    fields = set()
    for line in re.findall(r"^\.It Li (.*)$", sub, re.M):
        for f in line.split(" , "):
            fields.add(re.sub(r" Ns Ar class$", "*", f.strip()))
    for n in names:
        documented.setdefault(n, set()).update(fields)

printed = set().union(*[set(p) for p in params.values()])
for key in sorted(printed):
    sec, field = key.split(".", 1)
    fields = documented.get(sec, set())
    head, _, cls = field.partition(".")
    per_class = cls in classes and head + ".*" in fields
    if field not in fields and key not in fields and not per_class:
        bad.append(f"{key}: printed by vpmu stat -v, not in PARAMETERS")
for sec, fields in documented.items():
    for f in sorted(fields):
        if f.endswith("*"):
            ok = any(k.startswith(f"{sec}.{f[:-1]}") for k in printed)
        else:
            ok = (f if "." in f else f"{sec}.{f}") in printed
        if not ok:
            bad.append(f"{sec}: {f} documented, not printed")

# the MACHINES table
rows = re.findall(r"^\.It Li (\S+) Ta (.*)$", page.split(".Sh MACHINES")[1], re.M)
if not rows:
    bad.append("no MACHINES table")
for key, rest in rows:
    values = [v.strip() for v in rest.split(" Ta ")]
    for name, want in zip(machines, values):
        got = params[name].get(key)
        if got != want:
            bad.append(f"MACHINES {key} {name}: page {want}, vpmu {got}")

for b in bad:
    print(b)
sys.exit(1 if bad else 0)
