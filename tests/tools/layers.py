#!/usr/bin/env python3
"""layers.py TOP — the include graph of pmucheck's sources against docs/architecture.md.

Prints one line per violation and exits 1 when there is any:
  - a quoted #include that does not resolve inside the layers its file may see
    (commands -> harness, analysis, kernels, common; harness/<part> -> harness, kernels, common;
     analysis -> analysis, kernels, common; kernels -> kernels; common -> common);
  - a header name defined twice (flat include names must be unique to resolve one way);
  - a cycle between folders (harness's parts included);
  - an include between two of harness's parts that docs/architecture.md's sentence "Inside harness the parts
    form no cycle: run → {plan, ...}; ..." does not name, or one it names that no source has.
"""
import collections
import glob
import os
import re
import sys

top = sys.argv[1]
os.chdir(top)
sources = sorted(glob.glob("commands/*.[ch]") + glob.glob("common/*.[ch]") + glob.glob("kernels/*.[ch]") +
                 glob.glob("harness/*/*.[ch]") + glob.glob("analysis/*.[ch]"))
stray = sorted(glob.glob("harness/*.[ch]"))


def layer(folder):
    return folder.split("/")[0]


SEES = {
    "commands": {"commands", "harness", "analysis", "kernels", "common"},
    "harness": {"harness", "kernels", "common"},
    "analysis": {"analysis", "kernels", "common"},
    "kernels": {"kernels"},
    "common": {"common"},
}

bad = [f"{f}: harness/ holds only its parts' folders (config, counters, ...)" for f in stray]
where = collections.defaultdict(list)
for f in sources:
    where[os.path.basename(f)].append(os.path.dirname(f))
for name, dirs in where.items():
    if len(dirs) > 1:
        bad.append(f"{name} exists in {', '.join(dirs)}")

edges = collections.defaultdict(set)
for f in sources:
    d = os.path.dirname(f)
    for n, line in enumerate(open(f, encoding="utf-8"), 1):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if not m:
            continue
        inc = m.group(1)
        if "/" in inc:
            bad.append(f"{f}:{n}: #include \"{inc}\": include by name, the Makefile gives each layer its folders")
            continue
        targets = where.get(inc)
        if not targets:
            continue  # a test fixture or generated header is not part of the graph
        t = targets[0]
        if layer(t) not in SEES[layer(d)]:
            bad.append(f"{f}:{n}: {layer(d)} includes {inc} from {t}")
        if t != d:
            edges[d].add(t)

# Folders on a cycle: depth-first search with colours.
state = {}


def visit(n, path):
    state[n] = 1
    for m in sorted(edges[n]):
        if state.get(m) == 1:
            bad.append("cycle: " + " -> ".join(path[path.index(m):] + [m]))
        elif m not in state:
            visit(m, path + [m])
    state[n] = 2


for n in sorted(edges):
    if n not in state:
        visit(n, [n])


# The edges between harness's parts that docs/architecture.md states, against those the sources have.
def doc_edges(text):
    m = re.search(r"Inside harness the parts form no cycle:(.*?)\.(\s|$)", " ".join(text.split()))
    if not m:
        return None
    out = set()
    for clause in re.sub(r"\([^)]*\)", "", m.group(1)).split(";"):
        lhs, _, rhs = clause.partition("→")
        src = [w for w in re.split(r",|\band\b", lhs) if w.strip()]
        dst = [w for w in rhs.strip(" {}").split(",") if w.strip()]
        out |= {("harness/" + a.strip(), "harness/" + b.strip(" {}")) for a in src for b in dst}
    return out


arch = os.path.join("docs", "architecture.md")
stated = doc_edges(open(arch, encoding="utf-8").read()) if os.path.exists(arch) else None
if stated is None:
    bad.append(f"{arch}: no sentence 'Inside harness the parts form no cycle: ...'")
else:
    actual = {(a, b) for a in edges for b in edges[a] if a.startswith("harness/") and b.startswith("harness/")}
    for a, b in sorted(actual - stated):
        bad.append(f"{arch} does not say that {a} includes {b}")
    for a, b in sorted(stated - actual):
        bad.append(f"{arch} says that {a} includes {b}, which no source there does")

for b in bad:
    print(b)
sys.exit(1 if bad else 0)
