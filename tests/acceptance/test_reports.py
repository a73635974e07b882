"""The HTML and Markdown review reports: what they hold, what they escape, where the pictures
go; the page in a browser is tested in test_report_browser.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import invoke
from workbench.acceptance import markdown_report
from workbench.acceptance.build import build_board
from workbench.acceptance.markdown_report import render_markdown
from workbench.project import open_project


def test_the_html_report_is_a_small_page_with_its_pictures_beside_it(
    reviewed_project: Path,
) -> None:
    invoke("review", "--report", "out/report.html")
    page = (reviewed_project / "out" / "report.html").read_text()
    folder = reviewed_project / "out" / "report_files"
    pictures = sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*.svg"))
    # Every case once, and the committed picture of each changed one.
    assert len(pictures) == 20 + 4
    assert "calculator/calculate/add/done-60-dark.committed.svg" in pictures
    sources = re.findall(r'<img src="([^"]+)" width="(\d+)" height="(\d+)" loading="lazy"', page)
    assert len(sources) == len(pictures)
    assert {source for source, _, _ in sources} == {f"report_files/{p}" for p in pictures}
    # Each at its real size: a 60-column card is narrower than a 100-column one.
    widths = {source.rsplit("/", 1)[1]: int(width) for source, width, _ in sources}
    assert widths["done-60-dark.svg"] == 750 and widths["done-100-dark.svg"] == 1238
    assert "data:image" not in page and len(page) < 60_000
    # Contents, counts and filters.
    assert 'href="#api-calculator-calculate"' in page
    assert '<button type="button" data-filter="to-review">To review <span class="count">4' in page
    assert '<button type="button" data-filter="rejected">Rejected <span class="count">1' in page
    assert "body data-default-filter='to-review'" in page


def test_what_fixtures_and_reviewers_wrote_is_text_in_the_page(reviewed_project: Path) -> None:
    invoke("review", "--report", "report.html")
    page = (reviewed_project / "report.html").read_text()
    assert "<img src=x" not in page and "</article> " not in page
    assert "&lt;img src=x onerror=alert(1)&gt; &amp; &lt;/article&gt;" in page
    assert "<script>alert(2)" not in page and "&lt;script&gt;alert(2)&lt;/script&gt; red" in page
    assert "Rejected by Bo on" in page and "Ann &lt;Lee&gt;" in page
    assert page.count("<script>") == 1  # the page's own


def test_a_report_never_deletes_a_folder_it_did_not_write(reviewed_project: Path) -> None:
    (reviewed_project / "report_files").mkdir()
    (reviewed_project / "report_files" / "mine.txt").write_text("keep")
    from click.testing import CliRunner

    from workbench.cli import main

    result = CliRunner().invoke(main, ["review", "--report", "report.html"])
    assert result.exit_code == 2
    assert "report_files exists and was not written by Workbench" in result.stderr
    assert (reviewed_project / "report_files" / "mine.txt").read_text() == "keep"
    # Its own folder is replaced on the next run.
    (reviewed_project / "report_files" / "mine.txt").unlink()
    (reviewed_project / "report_files").rmdir()
    invoke("review", "--report", "report.html")
    invoke("review", "--report", "report.html")


def test_the_markdown_report_lists_what_needs_a_reviewer_with_diffs(reviewed_project: Path) -> None:
    invoke("review", "--report", "review.md")
    text = (reviewed_project / "review.md").read_text()
    assert text.startswith("## Workbench review\n")
    assert "| calculator | calculate | 20 | 4 | 1 | 15 | 0 |" in text
    assert "### Needs a reviewer (5)" in text
    assert "#### `calculator/calculate/add/done-60-dark`" in text
    assert "```diff\n@@" in text and "-│ = 2" in text and "+│ = 3" in text
    assert "\\<script\\>alert(2)\\</script\\> red" in text


def test_the_markdown_report_fits_a_pull_request_comment(
    reviewed_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = build_board(open_project())
    monkeypatch.setattr(markdown_report, "MAX_CHARS", 2500)
    text = render_markdown(board)
    assert len(text) < 2500 + 300
    assert re.search(r"_Showing [1-4] of 5 cases that need a reviewer", text)
