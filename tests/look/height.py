#!/usr/bin/python3
"""The rendered height of an HTML page in headless Chromium, in CSS px,
at the given window width; with --expanded, every <details> opened, the
number of tables wider than their column (0 when everything fits).
    height.py PAGE.html [WIDTH]
    height.py --expanded PAGE.html [WIDTH]"""
import os
import re
import subprocess
import sys
import tempfile


HEIGHT = "String(Math.ceil(document.body.getBoundingClientRect().height))"
OVERFLOW = ("String(Array.prototype.filter.call(document.querySelectorAll('table'),"
            "function(t){return t.scrollWidth>t.clientWidth+1;}).length)")


def height(page, width=900, expanded=False):
    src = open(page, encoding="utf-8").read()
    if expanded:
        src = src.replace("<details>", "<details open>")
    probe = ("<script>window.addEventListener('load',function(){"
             "var d=document.createElement('div');d.id='pv-height';"
             "d.textContent=" + (OVERFLOW if expanded else HEIGHT) + ";"
             "document.body.appendChild(d);});</script>")
    src = src.replace("</body>", probe + "</body>", 1)
    with tempfile.TemporaryDirectory() as tmp:
        f = os.path.join(tmp, "page.html")
        with open(f, "w", encoding="utf-8") as out:
            out.write(src)
        dom = subprocess.run(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--user-data-dir=" + os.path.join(tmp, "u"),
             "--window-size=%d,600" % width, "--virtual-time-budget=2000",
             "--dump-dom", "file://" + f],
            capture_output=True, text=True, timeout=120).stdout
    m = re.search(r'id="pv-height">(\d+)<', dom)
    if not m:
        raise SystemExit("height.py: no height in the DOM of " + page)
    return int(m.group(1))


if __name__ == "__main__":
    args = sys.argv[1:]
    exp = args[:1] == ["--expanded"]
    args = args[1:] if exp else args
    print(height(args[0], int(args[1]) if len(args) > 1 else 900, exp))
