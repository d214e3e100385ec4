#!/usr/bin/python3
"""Serves DIR over HTTP on 127.0.0.1 at a free port and writes that port to
PORTFILE (through a rename, so a reader never sees half of it); runs
until killed.

    install_release_server.py "$tmp/srv" "$tmp/port"

Run by tests/check_install_release.sh.
"""
import functools, http.server, sys
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a):
        pass
h = functools.partial(Quiet, directory=sys.argv[1])
s = http.server.HTTPServer(("127.0.0.1", 0), h)
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write(str(s.server_address[1]))
import os; os.rename(sys.argv[2] + ".tmp", sys.argv[2])
s.serve_forever()
