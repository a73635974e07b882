"""Every report a person may print or open holds hostile fixture text inert: the review gate
(text, JSON, JUnit), the HTML and Markdown reports, the audit (text, JSON, JUnit) and check.

The fixture's label, arguments and result carry OSC 52/0/8, DCS, C1, CSI, bidi overrides,
zero-width and tag characters and a carriage return; nothing of it may reach a file or the
terminal as anything but a visible mark (or a JSON escape a reader decodes back).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.hostile import raw_characters
from tests.testing.small_project import calculator_project, hostile_fixture
from workbench.cli import main


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    calculator_project(tmp_path, hostile_fixture(waivers=False))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def printed(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code in (0, 1), result.output
    assert raw_characters(result.output) == [], args
    return result.stdout


def test_reports_and_gates_show_hostile_text_inert(project: Path) -> None:
    printed("review", "--check")
    json.loads(printed("review", "--check", "--format", "json", "--junit", "junit.xml"))
    printed("review", "--report", "review.html")
    printed("review", "--report", "review.md")
    json.loads(printed("audit", "--format", "json"))
    printed("audit")
    printed("audit", "--format", "junit", "--output", "audit.xml")
    printed("check", "--format", "json")
    printed("check")
    written = ["junit.xml", "review.html", "review.md", "audit.xml"]
    for name in written:
        text = (project / name).read_text(encoding="utf-8")
        assert raw_characters(text) == [], name
    for path in (
        sorted((project / "review_files").rglob("*")) if (project / "review_files").is_dir() else []
    ):
        if path.is_file():
            assert raw_characters(path.read_text(encoding="utf-8")) == [], path
    # The hostile text was written (the label, the card), shown as visible marks.
    for name in ("junit.xml", "review.html", "review.md"):
        assert "⟨U+200B⟩" in (project / name).read_text(encoding="utf-8"), name
