#!/usr/bin/env python3
"""html_width.py FILE.html WIDTH — renders FILE in headless Chromium at WIDTH px and prints the page's
scroll width and every table, figure or text block whose right edge lies past the window ("TABLE:1750"),
so that a test can assert that nothing runs off the right edge. Exits 2 when Chromium gives no answer."""
import os
import re
import subprocess
import sys
import tempfile

PROBE = """<script>
var over = [];
document.querySelectorAll('table,img,figure,pre,p,h1,h2,h3,li,code').forEach(function (e) {
  var r = e.getBoundingClientRect();
  if (r.right > window.innerWidth + 0.5) over.push(e.tagName + ':' + Math.round(r.right));
});
document.body.setAttribute('data-layout', document.documentElement.scrollWidth + ' ' +
  window.innerWidth + ' ' + over.join(','));
</script></body>"""


def main():
    src, width = sys.argv[1], int(sys.argv[2])
    html = open(src).read().replace("</body>", PROBE)
    with tempfile.TemporaryDirectory() as tmp:
        page = os.path.join(tmp, "probe.html")
        open(page, "w").write(html)
        out = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                              f"--window-size={width},2000", "--dump-dom", page],
                             capture_output=True, text=True, timeout=120,
                             env=dict(os.environ, HOME=tmp)).stdout
    m = re.search(r'data-layout="([^"]*)"', out)
    if not m:
        print("chromium gave no layout")
        return 2
    print(m.group(1).strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
