"""Headless Chromium over the DevTools protocol on ``--remote-debugging-pipe``, to look at a
report as a person's browser shows it (standard library only: no driver, no port), and the
colours of a screenshot counted in the browser's canvas, to tell a drawn page from a blank one.

``chromium --screenshot`` shoots before a page's script has run; here the test waits for
what it needs (the document loaded, every image decoded) and then takes the picture.
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import Any

FLAGS = (
    "--headless",
    "--no-sandbox",  # CI runs as root; the page is our own report
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--mute-audio",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
)
INSTALL_HINT = (
    "Chromium is not installed: apt-get install -y chromium fonts-firacode fonts-noto-cjk "
    "fonts-noto-color-emoji (.ci/run installs it when it runs as root)"
)


def find_chromium() -> str | None:
    """Debian's ``chromium`` (or ``$CHROMIUM``), if installed."""
    override = os.environ.get("CHROMIUM")
    if override:
        return shutil.which(override)
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


class CdpError(RuntimeError):
    """The browser answered with an error, or not at all."""


class Browser:
    """One headless Chromium with a fresh profile and one page; ``close()`` removes both."""

    def __init__(self, executable: str, *, width: int = 1400, height: int = 1000) -> None:
        self.profile = tempfile.mkdtemp(prefix="workbench-chromium-")
        to_browser_read, self._to_browser = os.pipe()
        self._from_browser, from_browser_write = os.pipe()

        def child_fds() -> None:
            # The protocol reads on fd 3 and writes on fd 4. Duplicate first: dup2(3, 3) would
            # keep the close-on-exec flag os.pipe() sets.
            read_end, write_end = os.dup(to_browser_read), os.dup(from_browser_write)
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        self.process = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            close_fds=False,  # 3 and 4 must survive into the browser
            preexec_fn=child_fds,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._ids = itertools.count(1)
        self._replies: dict[int, queue.Queue[dict[str, Any]]] = {}
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        self.send("Page.enable", session=self.session)
        self.send("Runtime.enable", session=self.session)
        self.resize(width, height)

    def _read(self) -> None:
        buffer = b""
        with os.fdopen(self._from_browser, "rb", buffering=0) as pipe:
            while chunk := pipe.read(1 << 16):
                buffer += chunk
                while b"\0" in buffer:
                    raw, buffer = buffer.split(b"\0", 1)
                    message = json.loads(raw)
                    reply = self._replies.get(message.get("id", -1))
                    if reply is not None:
                        reply.put(message)

    def send(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        session: str | None = None,
        timeout: float = 60.0,
    ) -> dict[str, Any]:
        call_id = next(self._ids)
        reply: queue.Queue[dict[str, Any]] = queue.Queue()
        self._replies[call_id] = reply
        message: dict[str, Any] = {"id": call_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        with self._lock:
            os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        try:
            answer = reply.get(timeout=timeout)
        except queue.Empty:
            raise CdpError(f"{method}: no answer in {timeout} s") from None
        finally:
            del self._replies[call_id]
        if "error" in answer:
            raise CdpError(f"{method}: {answer['error']}")
        result: dict[str, Any] = answer.get("result", {})
        return result

    def page(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.send(method, params, session=self.session)

    def resize(self, width: int, height: int) -> None:
        self.page(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )

    def goto(self, url: str, timeout: float = 60.0) -> float:
        """Open ``url`` and wait for its load event (scripts run, eager images in); seconds."""
        started = time.perf_counter()
        self.page("Page.navigate", {"url": url})
        self.wait_until("document.readyState === 'complete'", timeout)
        return time.perf_counter() - started

    def evaluate(self, expression: str) -> Any:
        result = self.page(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
        )
        if "exceptionDetails" in result:
            raise CdpError(str(result["exceptionDetails"]))
        return result["result"].get("value")

    def wait_until(self, expression: str, timeout: float = 60.0) -> float:
        started = time.perf_counter()
        while time.perf_counter() - started < timeout:
            with contextlib.suppress(CdpError):  # mid-navigation: no document yet
                if self.evaluate(expression):
                    return time.perf_counter() - started
            time.sleep(0.02)
        raise TimeoutError(f"not true after {timeout} s: {expression}")

    def click(self, selector: str) -> None:
        """Click the element as a person would: a mouse press at its centre."""
        box = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)}); "
            "e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect(); "
            "return [r.left + r.width / 2, r.top + r.height / 2]; })()"
        )
        x, y = box
        for kind in ("mousePressed", "mouseReleased"):
            self.page(
                "Input.dispatchMouseEvent",
                {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1},
            )

    def screenshot(self) -> bytes:
        return base64.b64decode(self.page("Page.captureScreenshot", {"format": "png"})["data"])

    def close(self) -> None:
        with contextlib.suppress(CdpError, OSError):
            self.send("Browser.close", timeout=5)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                os.killpg(self.process.pid, 9)
            self.process.wait()
        with contextlib.suppress(OSError):
            os.close(self._to_browser)
        shutil.rmtree(self.profile, ignore_errors=True)


@dataclass(frozen=True)
class Pixels:
    """What a screenshot holds, counted by the browser itself (no imaging library needed)."""

    width: int
    height: int
    distinct: int
    """Distinct colours."""
    dominant_share: float
    """How much of the picture its most common colour covers (1.0: blank)."""
    shares: dict[str, float]
    """Share of the picture per ``#rrggbb`` colour, for the 20 most common."""


_PIXEL_STATS = """
(async (data) => {
  const image = new Image();
  image.src = 'data:image/png;base64,' + data;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.naturalWidth; canvas.height = image.naturalHeight;
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
  const counts = new Map();
  for (let i = 0; i < pixels.length; i += 4) {
    const key = (pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2];
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  const total = canvas.width * canvas.height;
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20);
  return {width: canvas.width, height: canvas.height, distinct: counts.size,
    shares: Object.fromEntries(top.map(([key, count]) =>
      ['#' + key.toString(16).padStart(6, '0'), count / total]))};
})
"""


def pixel_stats(browser: Browser, png: bytes) -> Pixels:
    """Count the colours of ``png`` in the browser's own canvas."""
    data = base64.b64encode(png).decode("ascii")
    found = browser.evaluate(f"{_PIXEL_STATS.strip()}({json.dumps(data)})")
    shares = {key: float(value) for key, value in found["shares"].items()}
    return Pixels(
        width=int(found["width"]),
        height=int(found["height"]),
        distinct=int(found["distinct"]),
        dominant_share=max(shares.values()),
        shares=shares,
    )
