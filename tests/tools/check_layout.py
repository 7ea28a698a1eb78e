#!/usr/bin/env python3
"""check_layout.py DIR [MAX_COLUMNS] — the report's layout, read from the files `pmucheck report` wrote:
  tables    every Markdown table of report.md has at most MAX_COLUMNS (default 10) columns
  captions  each figure's caption names a marker exactly when its gnuplot script draws it: grey dashed
            reported sizes, red dotted measured limits, black circles for noisy points, a right axis,
            x = 0 at a tick labelled 0; every cache-limit line lies inside the data's x range
  y range   a fixed linear y range leaves room above the highest point (no curve on the top frame)
  legends   no size in thousands of KiB ("262144 KiB"): sizes are in KiB/MiB/GiB
Prints one line per problem, exits 1 if there was any."""
import os
import re
import sys


def blocks(gp):
    """The inline data blocks of a script: name -> [(x, y)]."""
    out, name = {}, None
    for line in gp.splitlines():
        m = re.match(r"^\$(\w+) << EOD$", line)
        if m:
            name, out[m.group(1)] = m.group(1), []
        elif line == "EOD":
            name = None
        elif name:
            x, y = line.split()
            out[name].append((float(x), float(y)))
    return out


def figures(md):
    """(stem, caption) of each figure: the image line, then its caption paragraph."""
    lines = md.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^!\[.*\]\(plots/(.+)\.png\)$", line)
        if m:
            yield m.group(1), lines[i + 2] if i + 2 < len(lines) else ""


def check_figure(d, stem, caption, problems):
    gp = open(os.path.join(d, "plots", stem + ".gp")).read()
    data = blocks(gp)
    pts = [p for k, v in data.items() if k != "noisy" for p in v]
    promises = {
        "Grey dashed lines": 'lc rgb "gray40"' in gp,
        "Red dotted lines": 'lc rgb "#b03030"' in gp,
        "Black circles": "$noisy using" in gp and bool(data.get("noisy")),
        "Right axis": "set y2range" in gp,
        "drawn at the tick labelled 0": re.search(r'set xtics \("0" ', gp) is not None,
    }
    for words, drawn in promises.items():
        if (words in caption) != drawn:
            problems.append(f"{stem}: caption {'promises' if words in caption else 'omits'} "
                            f"'{words}', the script {'draws' if drawn else 'does not draw'} it")
    if not pts:
        return
    xs = [x for x, _ in pts]
    for m in re.finditer(r"^set arrow from ([0-9.e+]+),", gp, re.M):
        if not min(xs) <= float(m.group(1)) <= max(xs):
            problems.append(f"{stem}: a cache-limit line at x = {m.group(1)} outside the data")
    m = re.search(r"^set yrange \[0:([0-9.e+]+)\]$", gp, re.M)
    top = max(y for _, y in pts)
    if m and "set logscale y" not in gp and not float(m.group(1)) >= 1.1 * top:
        problems.append(f"{stem}: y range ends at {m.group(1)}, the data reaches {top}")
    for t in re.findall(r"title '((?:[^']|'')*)'", gp) + re.findall(r'title "([^"]*)"', gp):
        if re.search(r"\b\d{4,} KiB\b", t):
            problems.append(f"{stem}: legend '{t}' gives a size in thousands of KiB")


def main():
    d, maxcols = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10
    md = open(os.path.join(d, "report.md")).read()
    problems = []
    for n, line in enumerate(md.splitlines(), 1):
        if line.startswith("|") and line.count("|") - 1 > maxcols:
            problems.append(f"report.md:{n}: a table of {line.count('|') - 1} columns (at most {maxcols})")
    for stem, caption in figures(md):
        check_figure(d, stem, caption, problems)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
