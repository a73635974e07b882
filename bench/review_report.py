"""How fast the review report opens in a browser, against one page with every picture inline.

Draws the bundled project's review board once, then writes
- ours: ``workbench review --report`` — a small page, each picture a file beside it, loaded
  when it scrolls into view;
- baseline: the same page with every picture inline as a data URL (what the snapshot gallery
  used to write: one page of ~15-20 MB);
and opens each in headless Chromium (Debian's ``chromium``), timing the load event and the
first screenful of decoded pictures, and checking that no picture is missing.

    python bench/review_report.py [-k TEXT] [--keep DIR]
"""

from __future__ import annotations

import argparse
import base64
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.acceptance.browser import INSTALL_HINT, Browser, find_chromium, pixel_stats
from workbench.acceptance.build import build_board
from workbench.acceptance.html_report import write_html_report
from workbench.project import open_project

FIRST_SCREEN = """
(async () => {
  const seen = [...document.querySelectorAll('img[data-zoom]')].filter((image) => {
    const box = image.getBoundingClientRect();
    return box.top < innerHeight && box.bottom > 0 && image.offsetParent !== null;
  });
  await Promise.all(seen.map((image) => image.decode().catch(() => null)));
  return seen.length;
})()
"""
BROKEN = """
(async () => {
  const images = [...document.querySelectorAll('img[data-zoom]')];
  for (const image of images) image.loading = 'eager';
  await Promise.all(images.map((image) => image.decode().catch(() => null)));
  return images.filter((image) => image.naturalWidth === 0).length;
})()
"""


def inline(page: Path, target: Path) -> None:
    """The same page with every picture as a data URL."""
    html = page.read_text(encoding="utf-8")
    folder = page.parent

    def embed(match: re.Match[str]) -> str:
        data = (folder / match.group(1)).read_bytes()
        return f'<img src="data:image/svg+xml;base64,{base64.b64encode(data).decode()}"'

    target.write_text(re.sub(r'<img src="([^"]+\.svg)"', embed, html), encoding="utf-8")


def open_page(browser: Browser, path: Path) -> tuple[float, float, int]:
    """(seconds to the load event, seconds to the first screenful decoded, pictures in it)."""
    browser.goto("about:blank")
    started = time.perf_counter()
    browser.goto(path.as_uri(), timeout=300)
    loaded = time.perf_counter() - started
    browser.click("button[data-filter=all]")
    shown = browser.evaluate(FIRST_SCREEN)
    return loaded, time.perf_counter() - started, int(shown)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", dest="select", default=None, help="only case ids containing this")
    parser.add_argument("--keep", type=Path, default=None, help="write the reports here")
    options = parser.parse_args()
    executable = find_chromium()
    if executable is None:
        raise SystemExit(INSTALL_HINT)
    project = open_project()
    started = time.perf_counter()
    board = build_board(project, select=options.select)
    print(f"drew {len(board.items)} cases in {time.perf_counter() - started:.1f} s")
    folder = options.keep or Path(tempfile.mkdtemp(prefix="review-report-"))
    folder.mkdir(parents=True, exist_ok=True)
    ours, baseline = folder / "review.html", folder / "inline.html"
    started = time.perf_counter()
    files, size = write_html_report(board, ours)
    print(
        f"ours: {ours.stat().st_size / 1e6:.2f} MB page + {files} pictures "
        f"({(size - ours.stat().st_size) / 1e6:.1f} MB), written in "
        f"{time.perf_counter() - started:.1f} s"
    )
    inline(ours, baseline)
    print(f"baseline: one {baseline.stat().st_size / 1e6:.1f} MB page, pictures inline")
    browser = Browser(executable, width=1400, height=1000)
    try:
        results = {}
        for name, path in (("ours", ours), ("baseline", baseline)):
            results[name] = open_page(browser, path)
            loaded, first, shown = results[name]
            print(
                f"{name}: load event {loaded:.2f} s, "
                f"first screenful ({shown} pictures) {first:.2f} s"
            )
        # The first screen as a reader sees it (before every picture is forced in below: a
        # screenshot of a page holding all of them decoded can take minutes on a busy machine).
        browser.goto(ours.as_uri())
        png = browser.screenshot()
        shot = pixel_stats(browser, png)
        if options.keep is not None:
            (folder / "first-screen.png").write_bytes(png)
        broken = browser.evaluate(BROKEN)
        print(
            f"ours: {broken} missing pictures; screenshot {shot.distinct} colours, "
            f"dominant {shot.dominant_share:.0%}"
        )
    finally:
        browser.close()
    ratio_load = results["baseline"][0] / max(results["ours"][0], 1e-3)
    ratio_first = results["baseline"][1] / max(results["ours"][1], 1e-3)
    print(f"ratio baseline/ours: load event {ratio_load:.1f}x, first screenful {ratio_first:.1f}x")
    if options.keep is None:
        shutil.rmtree(folder, ignore_errors=True)
    if broken:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
