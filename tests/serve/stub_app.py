"""A stand-in for the served workbench: speaks textual-serve's protocol, starts in milliseconds.

    python stub_app.py [--stubborn] [--fail]

It starts a grandchild (so reaping must take the whole group) and answers keys with
``got KEYS``. ``--stubborn`` ignores the quit request, SIGTERM and the end of its stdin, as
an app stuck in a loop would. ``--fail`` writes escape sequences to stderr and exits before the
protocol starts. ``open:URL`` typed as keys makes it ask the browser to open URL.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

STUBBORN = "--stubborn" in sys.argv
out = sys.stdout.buffer


def packet(kind: bytes, payload: bytes) -> None:
    out.write(kind + len(payload).to_bytes(4, "big") + payload)
    out.flush()


def main() -> None:
    if "--fail" in sys.argv:
        sys.stderr.write("Traceback: \x1b]52;c;cGF3bmVk\x07\x1b[2Jbroken fixture\n")
        sys.exit(3)
    if STUBBORN:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    grandchild = [sys.executable, "-c", "import time; time.sleep(600)"]
    subprocess.Popen(grandchild, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    out.write(b"__GANGLION__\n")
    size = f"{os.environ.get('COLUMNS')}x{os.environ.get('ROWS')}"
    packet(b"D", f"stub ready {size} pid {os.getpid()}\r\n".encode())
    stdin = sys.stdin.buffer
    while True:
        head = stdin.read(5)
        if len(head) < 5:
            break
        kind, payload = head[:1], stdin.read(int.from_bytes(head[1:], "big"))
        if kind == b"D":
            if payload.startswith(b"open:"):
                url = payload[5:].decode()
                packet(b"M", json.dumps({"type": "open_url", "url": url, "new_tab": True}).encode())
            packet(b"D", b"got " + payload + b"\r\n")
        elif kind == b"M":
            meta = json.loads(payload)
            if meta["type"] == "resize":
                packet(b"D", f"size {meta['width']}x{meta['height']}\r\n".encode())
            elif meta["type"] == "quit" and not STUBBORN:
                packet(b"M", json.dumps({"type": "exit"}).encode())
                return
    while STUBBORN:  # stdin is gone; an app stuck in a loop would stay
        time.sleep(1)


if __name__ == "__main__":
    main()
