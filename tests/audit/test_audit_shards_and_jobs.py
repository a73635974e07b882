"""``workbench audit --shard K/N`` and ``--jobs``: the parts of a split audit add up to the
whole one, and an audit shared among processes reports exactly what a serial one does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.audit.demo_project import WAIVERS, demo_project
from workbench.cli import main
from workbench.cli.audit import default_jobs

APIS = ("lookup", "search", "fetch", "count")
VARIANTS = ("found", "many", "few", "one")


def fixture_file(api: str) -> str:
    variants = "".join(
        f"  - id: {variant}\n    label: Finds {variant}\n    kind: typical\n"
        f"    args: {{query: {variant}}}\n    result: {{success: true, content: {variant}}}\n"
        for variant in VARIANTS
    )
    audit_waivers = ""
    if api == "search":
        # One waiver that applies, one that matches nothing: both judged in one shard.
        audit_waivers = (
            "audit_waivers:\n"
            "  - {rule: contrast, variant: many, reason: the grey of the old brand}\n"
            "  - {rule: plurals, reason: nothing here counts anything}\n"
        )
    return f"tool: demo\napi: {api}\nvariants:\n{variants}{WAIVERS}{audit_waivers}"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    fixtures = {api: fixture_file(api) for api in APIS}
    return demo_project(tmp_path, monkeypatch, "sharded_demo_tool", fixtures)


def audit_json(*args: str) -> tuple[int, dict[str, Any], str]:
    result = CliRunner().invoke(main, ["audit", "--format", "json", *args])
    assert result.exit_code in (0, 1), result.output
    report = json.loads(result.stdout)
    report.pop("seconds")
    return result.exit_code, report, result.stderr


def test_a_parallel_audit_reports_exactly_what_a_serial_one_does(project: Path) -> None:
    serial_code, serial, serial_err = audit_json("--jobs", "1")
    parallel_code, parallel, parallel_err = audit_json("--jobs", "3")
    assert serial_code == parallel_code == 1
    assert len(serial["findings"]) >= 16 and serial["unusedWaivers"]
    assert parallel == serial
    # The text report and the unused-waiver lines too (minus the timing in the summary).
    assert parallel_err.rsplit("·", 1)[0] == serial_err.rsplit("·", 1)[0]
    text = [CliRunner().invoke(main, ["audit", "--jobs", jobs]).stdout for jobs in ("1", "4")]
    assert text[0] == text[1] and text[0].count("rule 13 (contrast)") >= 16


def test_a_cold_audit_uses_every_core_by_default() -> None:
    import os

    assert default_jobs() == len(os.sched_getaffinity(0))


def test_the_shards_of_an_audit_add_up_to_the_whole(project: Path) -> None:
    code, whole, _ = audit_json()
    shards = [audit_json("--shard", f"{index}/3") for index in (1, 2, 3)]
    apis = [{finding["api"] for finding in part["findings"]} for _, part, _ in shards]
    # Whole tool APIs per shard, disjoint, together every API; each shard has some.
    assert all(apis) and set.union(*apis) == set(APIS)
    assert sum(len(part) for part in apis) == len(APIS)
    assert sorted(
        json.dumps(finding, sort_keys=True) for _, part, _ in shards for finding in part["findings"]
    ) == sorted(json.dumps(finding, sort_keys=True) for finding in whole["findings"])
    assert sum(part["renders"] for _, part, _ in shards) == whole["renders"]
    # The unused waiver is reported once, by the shard that audits its file.
    unused = [item for _, part, _ in shards for item in part["unusedWaivers"]]
    assert unused == whole["unusedWaivers"] and len(unused) == 1
    # A shard fails on its own findings: each has some here.
    assert code == 1 and all(shard_code == 1 for shard_code, _, _ in shards)


@pytest.mark.parametrize("spec", ["0/3", "4/3", "2", "a/b", "1/0", "-1/2"])
def test_a_bad_shard_is_a_usage_error(project: Path, spec: str) -> None:
    result = CliRunner().invoke(main, ["audit", "--shard", spec])
    assert result.exit_code == 2
    assert "--shard" in result.stderr and "K/N" in result.stderr
