"""The importer on its own: batches, and what a variant keeps of a call."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from workbench.core.source_map import load_with_lines
from workbench.fixtures.models import FixtureFile
from workbench.transcripts import importer
from workbench.transcripts.model import ToolCall
from workbench.transcripts.redaction import TranscriptRedactor


def test_a_long_import_grows_its_file_a_batch_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importer, "BATCH", 3)
    run = importer.Importer(tmp_path, redactor=TranscriptRedactor())
    for index in range(8):
        call = ToolCall(f"c{index}", "Bash", {"command": f"echo {index}"}, 1)
        call.content, call.outcome = f"out {index}", "done"
        run.add(call, "claude-code")
    summary = run.finish()
    path = tmp_path / "claude-code" / "Bash.yaml"
    loaded = FixtureFile.model_validate(load_with_lines(path.read_text()).data)
    assert [variant.id for variant in loaded.variants] == [f"c{index}" for index in range(8)]
    assert summary.count("added") == 8
    assert not [name for name in path.parent.iterdir() if name.suffix == ".wb-tmp"]


def test_a_variant_keeps_the_time_and_redacts_but_its_id() -> None:
    call = ToolCall(
        "call_sk-proj-ABCDEFGHIJKLMNOPQRST",
        "fetch",
        {"headers": {"Authorization": "Bearer FAKEFAKEFAKEFAKE"}},
        3,
        content="",
        outcome="denied",
        error="The user said no",
        started=datetime(2026, 1, 1, 10, 0, 0, tzinfo=UTC),
        ended=datetime(2026, 1, 1, 10, 0, 1, 250_000, tzinfo=UTC),
        prompt="Fetch the page",
    )
    redactor = TranscriptRedactor()
    variant = importer.variant_of(call, redactor)
    assert variant["id"] == "call_sk-proj-ABCDEFGHIJKLMNOPQRST"
    assert variant["args"] == {"headers": {"Authorization": "[redacted]"}}
    assert variant["kind"] == "denied" and variant["outcome"] == "skipped"
    assert variant["result"] == {
        "success": False,
        "content": "The user said no",
        "error": {"type": "SkippedByUser", "message": "The user said no"},
        "after_ms": 1250,
    }
    assert variant["label"] == "Fetch the page — fetch"
    assert redactor.secrets == 1
