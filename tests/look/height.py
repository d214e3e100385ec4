#!/usr/bin/python3
"""The rendered height of an HTML page in headless Chromium, in CSS px:
the page's scrollHeight after layout, at the given window width.
    height.py PAGE.html [WIDTH]"""
import os
import re
import subprocess
import sys
import tempfile


def height(page, width=900):
    src = open(page, encoding="utf-8").read()
    probe = ("<script>window.addEventListener('load',function(){"
             "var d=document.createElement('div');d.id='pv-height';"
             "d.textContent=String(Math.ceil(document.body.getBoundingClientRect().height));"
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
    print(height(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 900))
