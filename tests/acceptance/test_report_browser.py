"""The review report in a real browser (headless Chromium): the page draws, every picture
loads, at its real size or fitted to the page, the filters, the zoom and the flip work; and a
missing picture is caught, so this test can fail."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.acceptance.browser import INSTALL_HINT, Browser, find_chromium, pixel_stats
from tests.conftest import invoke
from workbench.rendering.renderer import theme_colours

pytestmark = pytest.mark.slow

BROKEN_IMAGES = """
(async () => {
  const images = [...document.querySelectorAll('img[data-zoom]')];
  for (const image of images) image.loading = 'eager';
  await Promise.all(images.map((image) => image.decode().catch(() => null)));
  return images.filter((image) => !image.complete || image.naturalWidth === 0)
    .map((image) => image.getAttribute('src'));
})()
"""
VISIBLE = "document.querySelectorAll('article.case:not(.hidden-by-filter)').length"


@pytest.fixture
def browser() -> Iterator[Browser]:
    executable = find_chromium()
    if executable is None:
        pytest.skip(INSTALL_HINT)
    opened = Browser(executable, width=1400, height=1000)
    try:
        yield opened
    finally:
        opened.close()


def test_the_report_draws_in_chromium_with_every_picture(
    reviewed_project: Path, browser: Browser
) -> None:
    invoke("review", "--report", "report.html")
    page = reviewed_project / "report.html"
    browser.goto(page.as_uri())
    # Opens on what needs a person: the 4 changed cases.
    assert browser.evaluate(VISIBLE) == 4
    assert browser.evaluate("document.querySelector('.filters button.on').dataset.filter") == (
        "to-review"
    )
    assert browser.evaluate(BROKEN_IMAGES) == []
    sizes = browser.evaluate(
        "[...document.querySelectorAll('article.case:not(.hidden-by-filter) img[data-zoom]')]"
        ".map((image) => [image.getAttribute('src'), image.getBoundingClientRect().width, "
        "Number(image.getAttribute('width'))])"
    )
    naturals = {source.rsplit("/", 1)[1]: natural for source, _, natural in sizes}
    assert naturals["done-60-dark.svg"] == 750 and naturals["done-100-dark.svg"] == 1238
    # Each picture at its real size, or scaled down to fit its half of the case.
    assert all(0.4 * natural <= shown <= natural for _, shown, natural in sizes), sizes

    shot = pixel_stats(browser, browser.screenshot())
    assert shot.distinct > 300 and shot.dominant_share < 0.8, shot
    # The cards themselves are in the picture: the dark theme's background covers a part.
    dark = str(theme_colours("dark").background.hex).lower()
    assert shot.shares.get(dark, 0) > 0.02, (dark, shot.shares)

    browser.click("button[data-filter=all]")
    assert browser.evaluate(VISIBLE) == 20
    browser.click("button[data-filter=rejected]")
    assert browser.evaluate(VISIBLE) == 1
    # The reviewer's note is shown as the text it is.
    assert "Note: <script>alert(2)</script> red" in browser.evaluate("document.body.innerText")
    browser.evaluate(
        "document.getElementById('search').value = 'done-60'; "
        "document.getElementById('search').dispatchEvent(new Event('input'))"
    )
    browser.click("button[data-filter=all]")
    assert browser.evaluate(VISIBLE) == 2  # add's ending at 60 columns, dark and light

    # Click a picture scaled to fit: it opens at its real size (750 px for 60 columns).
    browser.click("article.case:not(.hidden-by-filter) img[data-zoom]")
    assert browser.evaluate("document.getElementById('zoom').open") is True
    assert browser.evaluate("document.querySelector('#zoom img').width") == 750
    browser.evaluate("document.getElementById('zoom').close()")

    # Flip: the committed and the new picture over each other; a click swaps them.
    case = json.dumps("calculator/calculate/add/done-60-dark")
    browser.click(f"[id={case}] button[data-mode=flip]")
    hidden = f"[...document.getElementById({case}).querySelectorAll('.pair figure')]" + (
        ".map((figure) => figure.classList.contains('hidden'))"
    )
    assert browser.evaluate(hidden) == [True, False]
    browser.click(f"[id={case}] .pair figure:not(.hidden) img")
    assert browser.evaluate(hidden) == [False, True]


def test_a_missing_picture_is_caught(reviewed_project: Path, browser: Browser) -> None:
    invoke("review", "--report", "report.html")
    missing = "report_files/calculator/calculate/add/done-60-dark.svg"
    (reviewed_project / missing).unlink()
    browser.goto((reviewed_project / "report.html").as_uri())
    assert browser.evaluate(BROKEN_IMAGES) == [missing]


def test_a_blank_page_is_caught(tmp_path: Path, browser: Browser) -> None:
    blank = tmp_path / "blank.html"
    blank.write_text("<!doctype html><title>x</title><body></body>")
    browser.goto(blank.as_uri())
    shot = pixel_stats(browser, browser.screenshot())
    assert shot.dominant_share > 0.99 and shot.distinct < 5


PAIR_BOXES = """
((id) => {
  const article = document.getElementById(id);
  article.scrollIntoView({block: 'start'});
  const header = document.querySelector('header').getBoundingClientRect().bottom;
  return {header, width: innerWidth, height: innerHeight,
    boxes: [...article.querySelectorAll('.pair img')].map((image) => {
      const box = image.getBoundingClientRect();
      return {left: box.left, right: box.right, top: box.top, bottom: box.bottom,
        natural: Number(image.getAttribute('width'))};
    })};
})
"""


@pytest.mark.parametrize(("width", "side_by_side"), [(1400, True), (1000, False)])
def test_both_pictures_of_a_changed_case_are_inside_the_window(
    reviewed_project: Path, browser: Browser, width: int, side_by_side: bool
) -> None:
    """A 100-column case (1,238 px at 1:1) with its committed picture: both fit the page,
    side by side when there is room, one above the other when not; a click shows 1:1."""
    invoke("review", "--report", "report.html")
    browser.resize(width, 1000)
    browser.goto((reviewed_project / "report.html").as_uri())
    case = json.dumps("calculator/calculate/add/done-100-dark")
    seen = browser.evaluate(f"{PAIR_BOXES}({case})")
    boxes = seen["boxes"]
    assert len(boxes) == 2, seen
    for box in boxes:
        assert box["natural"] == 1238, seen
        assert box["left"] >= 0 and box["right"] <= seen["width"], seen
        assert seen["header"] <= box["top"] and box["bottom"] <= seen["height"], seen
        # Scaled to fit, not to a thumbnail.
        assert box["right"] - box["left"] >= 0.4 * box["natural"], seen
    committed, now = boxes
    if side_by_side:
        assert committed["top"] == now["top"] and committed["right"] <= now["left"], seen
    else:
        assert committed["bottom"] <= now["top"], seen

    # A scaled picture opens at its real size (1:1).
    browser.click(f"[id={case}] .pair img")
    assert browser.evaluate("document.getElementById('zoom').open") is True
    assert browser.evaluate("document.querySelector('#zoom img').width") == 1238
