"""`workbench show TRANSCRIPT` prints the conversation, each call at its ending; `workbench
open` refuses what it cannot read in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.transcripts.test_import_cli import SECRETS
from workbench.cli import main

SAMPLES = Path(__file__).resolve().parents[1] / "transcripts" / "samples"


@pytest.fixture(autouse=True)
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text('[tool.workbench]\nfixtures = ["fixtures"]\n')
    (tmp_path / "fixtures").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def show(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["show", *args])
    return result.exit_code, result.stdout, result.stderr


def test_a_session_prints_its_turns_messages_and_every_call_at_its_ending() -> None:
    code, out, err = show(str(SAMPLES / "claude-code.jsonl"), "--width", "80")
    assert code == 0, err
    assert out.startswith("turn 1 ─")
    assert "Why does the build fail?" in out
    assert "▸ thinking (1 line, folded)" in out
    assert "Run the build first." not in out  # Thinking stays folded.
    # The agent's own package titles its calls, though no fixture of the project calls it.
    for title in ("Claude Code · Bash", "Claude Code · Read", "github · list_issues"):
        assert title in out
    assert "claude-code ·" not in out
    # Each call at its ending: done, failed, skipped.
    assert "done · 2,500 ms" in out and "failed · 100 ms" in out and "skipped" in out
    # The subagent's prompt and call are indented under the Task that started them.
    task = out.index("Claude Code · Task")
    assert "\n  subagent prompt\n  Find which compiler the CI uses" in out[task:]
    assert "\n  ╭─  ✳ Claude Code · Bash" in out[task:]
    # Problems are located lines that never quote the line.
    assert "claude-code.jsonl:20: hologram: unknown record type" in " ".join(out.split())
    assert max(len(line) for line in out.splitlines()) <= 80


@pytest.mark.parametrize("sample", sorted(path.name for path in SAMPLES.iterdir()))
def test_every_format_prints_without_a_secret(sample: str) -> None:
    code, out, err = show(str(SAMPLES / sample), "--width", "100")
    assert code == 0, err
    assert "╭─" in out  # At least one call's card.
    for secret in SECRETS:
        assert secret not in out
    assert "\x1b" not in out


def test_width_is_kept(project: Path) -> None:
    code, out, _ = show(str(SAMPLES / "codex.jsonl"), "--width", "50")
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 50


def test_markup_in_a_session_is_printed_as_written(project: Path) -> None:
    session = project / "markup.jsonl"
    records = [
        {"type": "user", "message": {"role": "user", "content": "[bold]hi[/bold] [@click=x]"}},
        {
            "type": "assistant",
            "message": {"role": "assistant", "content": [{"type": "text", "text": "\x1b[31mred"}]},
        },
    ]
    session.write_text("".join(json.dumps(record) + "\n" for record in records))
    code, out, _ = show(str(session))
    assert code == 0
    assert "[bold]hi[/bold] [@click=x]" in out
    assert "\x1b" not in out and "␛[31mred" in out


def test_an_unknown_format_is_one_line_and_exit_2(project: Path) -> None:
    other = project / "notes.jsonl"
    other.write_text('{"hello": "world"}\n')
    code, _, err = show(str(other))
    assert code == 2
    assert err.startswith("workbench: error: ") and "name one with --format" in err
    assert len(err.strip().splitlines()) == 1
    result = CliRunner().invoke(main, ["open", str(other)])
    assert result.exit_code == 2 and "name one with --format" in result.stderr
    missing = CliRunner().invoke(main, ["open", str(project / "gone.jsonl")])
    assert missing.exit_code == 2 and "not a file" in missing.stderr


def test_phase_options_are_for_fixtures(project: Path) -> None:
    code, _, err = show(str(SAMPLES / "claude-code.jsonl"), "--phase", "done")
    assert code == 2 and "a transcript prints whole" in err


def test_a_long_message_is_capped_with_its_count(project: Path) -> None:
    session = project / "long.jsonl"
    text = "\n".join(f"line {number}" for number in range(1, 101))
    session.write_text(json.dumps({"type": "user", "message": {"role": "user", "content": text}}))
    code, out, _ = show(str(session))
    assert code == 0
    assert "line 30\nshowing 30 of 100 lines" in out
    assert "line 31" not in out
