"""Settings every test process shares, and a small reviewed project: every kind of case a
review shows — unchanged and accepted, changed since accepted, rejected with a note, and a
variant whose label tries to be HTML."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, settings

from tests.testing.small_project import ADD, calculator_fixture, calculator_project
from workbench.cli import main
from workbench.review.decisions import make_decision, record_decisions

_OWN_CACHE: list[str] = []

# Property tests judge what the code does, not how fast a loaded CI machine runs it: no
# per-example deadline and no "too slow" health check (both failed runs at load 10-15 that
# passed alone). A test that means to bound time says so in its own settings.
settings.register_profile("workbench", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("workbench")


def pytest_configure(config: pytest.Config) -> None:
    # The catalog cache stays on, as users run it, but in a folder of this test process: tests
    # never write to the user's cache or the repo's .workbench/, nor share entries across runs.
    if "WORKBENCH_CACHE_DIR" not in os.environ:
        _OWN_CACHE.append(tempfile.mkdtemp(prefix="workbench-test-cache-"))
        os.environ["WORKBENCH_CACHE_DIR"] = _OWN_CACHE[0]
    # The suite tests Workbench, not the tool packages installed beside it (examples/glossary
    # once CI or an author installed it): installed plugins load only where a test asks.
    os.environ.setdefault("WORKBENCH_NO_PLUGINS", "1")
    # Drawings are not cached across a test's runs: tests count renders and time what a cold
    # run costs; the render cache's own tests turn it on in a folder of their own.
    os.environ.setdefault("WORKBENCH_NO_RENDER_CACHE", "1")


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _OWN_CACHE:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop("WORKBENCH_CACHE_DIR", None)


HOSTILE = (
    "  - id: hostile\n"
    '    label: "<img src=x onerror=alert(1)> & </article>"\n'
    "    kind: error\n"
    '    args: {expression: "1/0"}\n'
    "    result:\n"
    "      success: false\n"
    '      content: "division by zero"\n'
    "      state: {column: 3, stage: evaluate}\n"
    "      error: {type: DivisionByZero, message: division by zero}\n"
)
"""A failing variant whose label tries to be HTML."""
FIXTURE = calculator_fixture(ADD, HOSTILE)


def invoke(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code in (0, 1), result.output
    return result.stdout


@pytest.fixture
def reviewed_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Baseline accepted; then ``add`` changes (its ending: 4 cases to review) and one
    ``hostile`` case is rejected."""
    calculator_project(tmp_path, FIXTURE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WORKBENCH_REVIEWER", "Ann <Lee>")
    invoke("review", "--accept-all", "--note", "baseline")
    (tmp_path / "fixtures" / "calc.yaml").write_text(FIXTURE.replace('value: "2"', 'value: "3"'))
    cases = json.loads(invoke("review", "--check", "--format", "json"))["cases"]
    [target] = [case for case in cases if case["id"].endswith("hostile/failed-60-light")]
    record_decisions(
        tmp_path / "snaps" / "reviews.yaml",
        [
            make_decision(
                target["id"], "rejected", target["hash"], "Bo", "<script>alert(2)</script> red"
            )
        ],
    )
    return tmp_path
