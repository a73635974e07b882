"""The audit never holds an MCP server's own wording against the project: a finding on text a
recorded server wrote ("1 directories") is reported as the server's and fails neither
`audit` nor `check`; the same words from the project's own tool still fail."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from workbench.cli import main

MANIFEST = """\
identifier: files
meta:
  title: server-filesystem
  emoji: 🔌
api:
- name: list_dir
  description: List a directory.
  parameters:
    type: object
    properties:
      path: {type: string}
  humanIntervention: never
"""
FIXTURE = """\
tool: files
api: list_dir
variants:
- id: one
  label: one dir
  kind: typical
  args: {path: /srv}
  result:
    success: true
    content: Listed what is under /srv
    state:
      dirs: 1
      note: found 1 directories here
waivers:
- {kind: empty, reason: a recording}
- {kind: error, reason: a recording}
- {kind: truncated, reason: a recording}
"""


def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, mcp: bool) -> None:
    folder = tmp_path / "recordings" / "files"
    folder.mkdir(parents=True)
    (folder / "manifest.yaml").write_text(
        MANIFEST + ("type: mcp\n" if mcp else ""), encoding="utf-8"
    )
    (folder / "list_dir.yaml").write_text(FIXTURE, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.workbench]\nfixtures = ["recordings"]\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)


def test_a_servers_own_wording_is_reported_as_the_servers_and_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project(tmp_path, monkeypatch, mcp=True)
    runner = CliRunner()
    audit = runner.invoke(main, ["audit"])
    assert audit.exit_code == 0, audit.output
    assert "“1 directories”" in audit.stdout
    assert "the server's own text (server-filesystem): not counted" in audit.stdout
    assert "1 on servers' own text" in audit.output
    [finding] = json.loads(runner.invoke(main, ["audit", "--format", "json"]).stdout)["findings"]
    assert finding["serverText"] == "server-filesystem"
    check = runner.invoke(main, ["check"])
    assert check.exit_code == 0, check.output
    assert "1 directories" in check.output and "not counted" in check.output


def test_the_same_words_from_the_projects_own_tool_still_fail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project(tmp_path, monkeypatch, mcp=False)
    runner = CliRunner()
    audit = runner.invoke(main, ["audit"])
    assert audit.exit_code == 1 and "“1 directories”" in audit.stdout
    assert "not counted" not in audit.stdout
    assert runner.invoke(main, ["check"]).exit_code == 1
