#!/usr/bin/env python3
"""check_report.py DIR — checks what `pmucheck report DIR` wrote:
  every plots/*.png is a real PNG (signature, IHDR of at least 300x200 pixels, > 2 KiB),
  every plots/*.svg parses as XML with an <svg> root and has text (axes labels, legend),
  report.html refers to nothing outside itself (every src is a data: URI) and inlines one image
  per PNG report.md shows, and every figure report.md names exists.
Prints one line per problem, exits 1 if there was any."""
import os
import re
import struct
import sys
import xml.etree.ElementTree as ET


def check_png(path, problems):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        problems.append(f"{path}: not a PNG")
        return
    w, h = struct.unpack(">II", data[16:24])
    if w < 300 or h < 200 or len(data) < 2048:
        problems.append(f"{path}: {w}x{h} pixels, {len(data)} bytes: too small to be a figure")


def check_svg(path, problems):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        problems.append(f"{path}: not XML: {e}")
        return
    if not root.tag.endswith("svg"):
        problems.append(f"{path}: root element is {root.tag}, not svg")
    texts = ["".join(t.itertext()) for t in root.iter() if t.tag.endswith("text")]
    texts = [t for t in texts if t.strip()]
    if len(texts) < 5:
        problems.append(f"{path}: only {len(texts)} text elements (axes, legend missing?)")


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    d = sys.argv[1]
    problems = []
    plots = os.path.join(d, "plots")
    names = sorted(os.listdir(plots)) if os.path.isdir(plots) else []
    for n in names:
        if n.endswith(".png"):
            check_png(os.path.join(plots, n), problems)
        elif n.endswith(".svg"):
            check_svg(os.path.join(plots, n), problems)
    with open(os.path.join(d, "report.md")) as f:
        md = f.read()
    shown = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md)
    for s in shown:
        if not os.path.isfile(os.path.join(d, s)):
            problems.append(f"report.md shows {s}, which does not exist")
    with open(os.path.join(d, "report.html")) as f:
        html = f.read()
    for src in re.findall(r"""\bsrc\s*=\s*["']?([^"' >]+)""", html):
        if not src.startswith("data:"):
            problems.append(f"report.html loads {src[:80]} from outside itself")
    if re.search(r"<link\b[^>]*\bhref", html):
        problems.append("report.html links an external stylesheet")
    inlined = len(re.findall(r'src="data:image/png;base64,[A-Za-z0-9+/=]{100,}"', html))
    if inlined != len(shown):
        problems.append(f"report.html inlines {inlined} images, report.md shows {len(shown)}")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
