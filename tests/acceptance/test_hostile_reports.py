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
import yaml
from click.testing import CliRunner

from tests.hostile import ALL_HOSTILE, HOSTILE, raw_characters
from workbench.cli import main

VARIANT = {
    "id": "hostile",
    "label": "Adds " + ALL_HOSTILE,
    "kind": "typical",
    "args": {"expression": "1 + 1 #" + HOSTILE["carriage-return"]},
    "result": {
        "success": True,
        "content": "1 + 1 = 2 " + ALL_HOSTILE,
        "state": {"value": "2", "type": "integer", "digits": 1},
    },
}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.workbench]\nfixtures = ["fixtures"]\nsnapshots = "snaps"\ninclude_bundled '
        '= false\ntools = ["workbench.tools.calculator:PACKAGE"]\n'
    )
    (tmp_path / "fixtures").mkdir()
    document = {"tool": "calculator", "api": "calculate", "variants": [VARIANT]}
    (tmp_path / "fixtures" / "calc.yaml").write_text(yaml.safe_dump(document), encoding="utf-8")
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
