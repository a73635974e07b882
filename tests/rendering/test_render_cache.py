"""The render cache never hides a change: each kind of input changed in turn draws exactly the
cases it can affect again, and nothing else; unreadable or foreign entries are drawn again."""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import shutil
import subprocess
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest
from click.testing import CliRunner

from tests.rendering.cache_cli import cli_with_cache, counting
from workbench.audit.runner import run_audit
from workbench.cli import main
from workbench.config import load_config
from workbench.project import open_project
from workbench.rendering import cache as render_cache
from workbench.rendering import renderer as renderer_module
from workbench.rendering.cache import RenderCache, RenderInputs
from workbench.rendering.matrix import snapshot_cases
from workbench.rendering.renderer import SnapshotRenderer
from workbench.review.decisions import make_decision, record_decisions
from workbench.surfaces import themes
from workbench.surfaces.themes import CaseTheme, ThemeFacts

_names = itertools.count()


@dataclasses.dataclass
class Run:
    """What one run drew: snapshot case ids, and the variants the audit drew."""

    snapshots: set[str]
    audited: set[str]
    all_snapshots: set[str]
    light_snapshots: set[str]
    all_variants: set[str]
    cache: RenderCache

    def of(self, tool: str) -> set[str]:
        return {case for case in self.all_snapshots if case.startswith(f"{tool}/")}

    def variants_of(self, tool: str) -> set[str]:
        return {variant for variant in self.all_variants if variant.startswith(f"{tool}/")}


@dataclasses.dataclass
class Project:
    root: Path
    alpha: str
    beta: str
    cache_dir: Path
    monkeypatch: pytest.MonkeyPatch

    def run(self) -> Run:
        """Open the project afresh and run the snapshots and the audit through the cache."""
        with counting(self.monkeypatch) as counted:
            project = open_project(config=load_config(self.root), installed=False)
            assert not project.catalog.problems
            cache = RenderCache(self.cache_dir, RenderInputs(project.catalog, project.registry))
            cases = snapshot_cases(project.catalog, project.registry)
            with SnapshotRenderer(project.catalog, project.registry, cache=cache) as renderer:
                for case in cases:
                    renderer.render(case)
            snapshots = counted.drawn_ids
            counted.drawn.clear()
            report = run_audit(project.catalog, project.registry, cache=cache)
        drawn = counted.drawn
        assert report.ok
        variants = {f"{ref.tool}/{ref.variant.id}" for ref, _ in report.subjects}
        return Run(
            snapshots=snapshots,
            audited={f"{case.tool}/{case.variant_id}" for case in drawn},
            all_snapshots={case.test_id for case in cases},
            light_snapshots={case.test_id for case in cases if case.theme is CaseTheme.LIGHT},
            all_variants=variants,
            cache=cache,
        )

    def fixture(self, tool: str) -> Path:
        return self.root / tool / "fixtures" / "lookup.yaml"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Project]:
    """Two tool packages made by `workbench new`; alpha's surfaces import a module of its own."""
    number = next(_names)
    alpha, beta = f"cachealpha{os.getpid()}x{number}", f"cachebeta{os.getpid()}x{number}"
    root = tmp_path / "project"
    root.mkdir()
    for name in (alpha, beta):
        result = CliRunner().invoke(main, ["new", name, "--dir", str(root), "--no-snapshots"])
        assert result.exit_code == 0, result.output
    surfaces = root / alpha / "surfaces.py"
    (root / alpha / "wording.py").write_text('RUNNING = "Looking up"\n', encoding="utf-8")
    text = surfaces.read_text(encoding="utf-8")
    text = text.replace(
        "from workbench.api import",
        f"from {alpha}.wording import RUNNING\nfrom workbench.api import",
    ).replace('"Looking up",', "RUNNING,", 1)
    surfaces.write_text(text, encoding="utf-8")
    yield Project(root, alpha, beta, tmp_path / "cache", monkeypatch)
    for name in list(sys.modules):
        if name.split(".")[0] in (alpha, beta):
            del sys.modules[name]


def test_a_second_run_draws_nothing_and_reads_back_the_same_drawings(project: Project) -> None:
    cold = project.run()
    assert cold.snapshots == cold.all_snapshots
    assert cold.audited == cold.all_variants
    assert cold.cache.stats.reused == 0

    warm = project.run()
    assert warm.snapshots == set()
    assert warm.audited == set()
    assert warm.cache.stats.drawn == 0
    assert warm.cache.stats.reused == len(cold.all_snapshots) + len(cold.all_variants)

    # What comes back is what a fresh drawing gives, byte for byte.
    loaded = open_project(config=load_config(project.root), installed=False)
    case = snapshot_cases(loaded.catalog, loaded.registry)[0]
    fresh = SnapshotRenderer(loaded.catalog, loaded.registry).render(case)
    cached = SnapshotRenderer(loaded.catalog, loaded.registry, cache=warm.cache).render(case)
    assert cached == fresh


def test_a_changed_variant_draws_only_that_variant_again(project: Project) -> None:
    project.run()
    fixture = project.fixture(project.alpha)
    text = fixture.read_text(encoding="utf-8")
    fixture.write_text(text.replace("query: pricing", "query: prices"), encoding="utf-8")

    run = project.run()
    changed = f"{project.alpha}/no-match"
    assert run.audited == {changed}
    prefix = f"{project.alpha}/lookup/no-match/"
    assert run.snapshots == {case for case in run.all_snapshots if case.startswith(prefix)}
    assert run.snapshots  # The variant has cases, and every one of them was drawn.


def test_a_changed_surface_module_draws_only_its_tool_again(project: Project) -> None:
    project.run()
    surfaces = project.root / project.alpha / "surfaces.py"
    surfaces.write_text(surfaces.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")

    run = project.run()
    assert run.snapshots == run.of(project.alpha)
    assert run.audited == run.variants_of(project.alpha)


def test_a_changed_module_the_surfaces_import_draws_only_its_tool_again(project: Project) -> None:
    project.run()
    (project.root / project.alpha / "wording.py").write_text(
        'RUNNING = "Searching"\n', encoding="utf-8"
    )

    run = project.run()
    assert run.snapshots == run.of(project.alpha)
    assert run.audited == run.variants_of(project.alpha)


def test_a_changed_manifest_draws_only_its_tool_again(project: Project) -> None:
    project.run()
    manifest = project.root / project.beta / "manifest.py"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")

    run = project.run()
    assert run.snapshots == run.of(project.beta)
    assert run.audited == run.variants_of(project.beta)


def test_a_changed_kit_draws_everything_again_and_the_tui_nothing(
    project: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The kit's sources as the cache reads them: a copy we may edit.
    copy = tmp_path / "workbench"
    shutil.copytree(render_cache.WORKBENCH_ROOT, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(render_cache, "WORKBENCH_ROOT", copy)
    project.run()

    app_module = next((copy / "app").rglob("*.py"))
    app_module.write_text(app_module.read_text(encoding="utf-8") + "\n# edited\n", "utf-8")
    assert project.run().snapshots == set()

    kit = copy / "surfaces" / "kit" / "__init__.py"
    kit.write_text(kit.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    run = project.run()
    assert run.snapshots == run.all_snapshots
    assert run.audited == run.all_variants


@pytest.mark.parametrize("library", ["textual", "rich"])
def test_a_new_dependency_version_draws_everything_again(
    project: Project, monkeypatch: pytest.MonkeyPatch, library: str
) -> None:
    project.run()
    real = render_cache.package_version
    monkeypatch.setattr(
        render_cache,
        "package_version",
        lambda name: "999.0" if name == library else real(name),
    )

    run = project.run()
    assert run.snapshots == run.all_snapshots
    assert run.audited == run.all_variants


def test_a_changed_theme_draws_its_cases_again(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    project.run()
    light = themes.THEME_TABLE[CaseTheme.LIGHT]
    table = dict(themes.THEME_TABLE)
    table[CaseTheme.LIGHT] = ThemeFacts(
        light.textual_name, dataclasses.replace(light.palette, muted="#505050")
    )
    monkeypatch.setattr(themes, "THEME_TABLE", MappingProxyType(table))
    renderer_module.theme_colours.cache_clear()
    try:
        run = project.run()
    finally:
        renderer_module.theme_colours.cache_clear()
    assert run.snapshots == run.light_snapshots
    # The audit draws every variant in both themes.
    assert run.audited == run.all_variants


def test_unreadable_and_foreign_entries_are_drawn_again(project: Project) -> None:
    cold = project.run()
    entries = sorted(path for path in (project.cache_dir / "v1").glob("*/*"))
    assert len(entries) == len(cold.all_snapshots) + len(cold.all_variants)
    entries[0].write_bytes(entries[0].read_bytes()[:10])  # Truncated.
    entries[1].write_bytes(b"not zlib at all")
    entries[2].write_bytes(zlib.compress(b'{"format": 0, "key": "x", "value": {}}'))
    entries[3].write_bytes(zlib.compress(b"[1, 2]"))

    run = project.run()
    assert len(run.snapshots) + len(run.audited) == 4
    assert run.cache.stats.ignored == 4
    # Drawn again, they are whole again.
    assert project.run().cache.stats.ignored == 0


def test_the_folder_is_pruned_oldest_first_to_its_bound(project: Project) -> None:
    run = project.run()
    entries = sorted((project.cache_dir / "v1").glob("*/*"))
    sizes = sum(path.stat().st_size for path in entries)
    for age, path in enumerate(entries):
        os.utime(path, (1_000_000 + age, 1_000_000 + age))
    cache = RenderCache(project.cache_dir, run.cache.inputs, max_bytes=sizes // 2)

    removed = cache.prune()
    left = sorted((project.cache_dir / "v1").glob("*/*"))
    assert removed == len(entries) - len(left) > 0
    assert sum(path.stat().st_size for path in left) <= sizes // 2
    assert set(left) == set(entries[-len(left) :])  # The newest stayed.


def test_the_cli_reuses_drawings_and_no_cache_draws_everything(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = cli_with_cache(monkeypatch, project.root, project.cache_dir.parent / "cli-cache")

    first = runner.invoke(main, ["audit", "--jobs", "1"])
    assert first.exit_code == 0, first.output
    assert "from the cache" not in first.output
    second = runner.invoke(main, ["audit", "--jobs", "1"])
    assert second.exit_code == 0, second.output
    assert "· 0 renders · " in second.output and "variants from the cache" in second.output
    again = runner.invoke(main, ["check", "--no-cache"])
    assert again.exit_code == 0, again.output
    assert "render cache" not in again.output

    snapshot = runner.invoke(main, ["snapshot", "--update"])
    assert snapshot.exit_code == 0, snapshot.output
    assert "render cache: 0 reused" in snapshot.output
    snapshot = runner.invoke(main, ["snapshot"])
    assert snapshot.exit_code == 0, snapshot.output
    assert ", 0 drawn" in snapshot.output
    review = runner.invoke(main, ["review", "--check"])
    assert ", 0 drawn" in review.output
    assert (project.cache_dir.parent / "cli-cache" / "render" / ".gitignore").is_file()


def test_the_pytest_plugin_reuses_drawings_on_its_second_run(project: Project) -> None:
    env = {key: value for key, value in os.environ.items() if key != "WORKBENCH_NO_RENDER_CACHE"}
    env["WORKBENCH_CACHE_DIR"] = str(project.cache_dir.parent / "pytest-cache")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"]

    def pytest_run(*arguments: str) -> str:
        done = subprocess.run(
            [*command, *arguments],
            cwd=project.root,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0, done.stdout[-3000:]
        return done.stdout

    first = pytest_run("--snapshot-update")
    assert "render cache: 0 reused" in first
    second = pytest_run()
    assert ", 0 drawn (snapshot and audit cases)" in second
    assert "render cache" not in pytest_run("--workbench-no-cache")


def test_the_environment_turns_the_cache_off(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WORKBENCH_NO_RENDER_CACHE", raising=False)
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(project.cache_dir))
    assert render_cache.cache_folder(project.root) == project.cache_dir / "render"
    monkeypatch.setenv("WORKBENCH_NO_CACHE", "1")
    assert render_cache.cache_folder(project.root) is None
    monkeypatch.delenv("WORKBENCH_NO_CACHE")
    monkeypatch.setenv("WORKBENCH_NO_RENDER_CACHE", "1")
    assert render_cache.cache_folder(project.root) is None


def test_a_bound_that_is_no_size_is_a_usage_error(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WORKBENCH_NO_RENDER_CACHE", raising=False)
    monkeypatch.setenv("WORKBENCH_CACHE_MAX_MB", "lots")
    monkeypatch.chdir(project.root)
    result = CliRunner().invoke(main, ["audit"])
    assert result.exit_code == 2
    assert "WORKBENCH_CACHE_MAX_MB='lots': give the cache's bound in megabytes" in result.output


def test_drawing_and_auditing_read_nothing_the_kit_key_leaves_out() -> None:
    """The folders left out of the kit's key (the TUI, the CLI, servers) are never loaded by
    a drawing or an audit, so editing them cannot change one."""
    script = (
        "import sys\n"
        "from workbench.audit.runner import Auditor, audit_refs\n"
        "from workbench.project import open_project\n"
        "from workbench.rendering.matrix import snapshot_cases\n"
        "from workbench.rendering.renderer import SnapshotRenderer\n"
        "project = open_project(installed=False)\n"
        "renderer = SnapshotRenderer(project.catalog, project.registry)\n"
        "cases = snapshot_cases(project.catalog, project.registry)\n"
        "for case in {case.surface: case for case in cases}.values():\n"
        "    renderer.render(case)\n"
        "auditor = Auditor(project.catalog, project.registry)\n"
        "for ref in audit_refs(project.catalog)[:40]:\n"
        "    auditor.check(ref)\n"
        "print('\\n'.join(name for name in sys.modules if name.startswith('workbench.')))\n"
    )
    repo = render_cache.WORKBENCH_ROOT.parent
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    loaded = {name.split(".")[1] for name in done.stdout.split()}
    assert "surfaces" in loaded and "audit" in loaded
    assert loaded.isdisjoint(render_cache.KIT_EXCLUDED), loaded & set(render_cache.KIT_EXCLUDED)


@dataclasses.dataclass
class Checked:
    """One `workbench review --check --format json`: its verdict per case, and what it drew
    and which cases' snapshot files it read."""

    code: int
    report: dict[str, Any]
    drawn: set[str]
    read: set[str]
    stderr: str

    @property
    def failing(self) -> set[str]:
        return {case["id"] for case in self.report["cases"] if case["gate"] == "fail"}


def review_check(project: Project, runner: CliRunner, *options: str) -> Checked:
    with counting(project.monkeypatch) as counted:
        result = runner.invoke(main, ["review", "--check", "--format", "json", *options])
    assert result.exit_code in (0, 1), result.output
    return Checked(
        result.exit_code,
        json.loads(result.stdout),
        counted.drawn_ids,
        counted.read_ids(project.root / "snapshots"),
        result.stderr,
    )


@pytest.fixture
def reviewed(project: Project, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """The project's snapshots recorded and matched once by `workbench snapshot`: its match
    memo is what `review --check` reuses. Files of this test are seconds old, not the racy
    window's two."""
    monkeypatch.setattr(render_cache, "RACY_WINDOW_NS", 0)
    runner = cli_with_cache(monkeypatch, project.root, project.cache_dir)
    for arguments in (["snapshot", "--update"], ["snapshot"]):
        result = runner.invoke(main, arguments)
        assert result.exit_code == 0, result.output
    return runner


def same_verdicts(project: Project, runner: CliRunner, cached: Checked) -> Checked:
    """``cached`` says what a run that reuses nothing says, case by case."""
    fresh = review_check(project, runner, "--no-cache")
    assert fresh.report == cached.report and fresh.code == cached.code
    assert "render cache" not in fresh.stderr
    every = {case["id"] for case in fresh.report["cases"]}
    assert fresh.drawn == fresh.read == every  # --no-cache: everything drawn and read.
    return fresh


def test_review_check_after_nothing_changed_draws_and_reads_nothing(
    project: Project, reviewed: CliRunner
) -> None:
    checked = review_check(project, reviewed)
    cases = len(checked.report["cases"])
    assert checked.code == 0 and cases
    assert checked.drawn == checked.read == set()
    assert f"{cases} reused ({cases} on unchanged snapshot files), 0 drawn" in checked.stderr
    same_verdicts(project, reviewed, checked)


def test_review_check_draws_and_reads_only_a_changed_fixtures_cases(
    project: Project, reviewed: CliRunner
) -> None:
    fixture = project.fixture(project.alpha)
    text = fixture.read_text(encoding="utf-8")
    fixture.write_text(text.replace("query: pricing", "query: prices"), encoding="utf-8")

    checked = review_check(project, reviewed)
    prefix = f"{project.alpha}/lookup/no-match/"
    variant = {case["id"] for case in checked.report["cases"] if case["id"].startswith(prefix)}
    assert checked.drawn == checked.read == variant and variant
    assert checked.code == 1 and checked.failing and checked.failing <= variant
    same_verdicts(project, reviewed, checked)


def test_review_check_draws_a_changed_surfaces_tool_and_fails_what_it_changed(
    project: Project, reviewed: CliRunner
) -> None:
    surfaces = project.root / project.alpha / "surfaces.py"
    text = surfaces.read_text(encoding="utf-8")
    surfaces.write_text(text.replace('"Looked up",', '"Found",', 1), encoding="utf-8")
    for name in [name for name in sys.modules if name.split(".")[0] == project.alpha]:
        del sys.modules[name]  # As a new process would: the edited module is imported again.

    checked = review_check(project, reviewed)
    alpha = {case["id"] for case in checked.report["cases"] if case["tool"] == project.alpha}
    assert checked.drawn == checked.read == alpha
    assert checked.code == 1 and checked.failing and checked.failing < alpha
    assert all("/done-" in case for case in checked.failing)  # What says "Looked up".
    same_verdicts(project, reviewed, checked)


def test_review_check_reads_a_snapshot_file_edited_in_place_and_fails_it(
    project: Project, reviewed: CliRunner
) -> None:
    case = f"{project.beta}/lookup/several-matches/done-60-dark"
    path = project.root / "snapshots" / f"{case}.txt"
    before = path.stat()
    text = path.read_text(encoding="utf-8")
    edited = text.replace("•", "*", 1)
    assert edited != text
    path.write_text(edited, encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # As rsync -t leaves it.

    checked = review_check(project, reviewed)
    assert checked.code == 1 and checked.failing == {case}
    assert checked.read == {case} and checked.drawn == set()
    same_verdicts(project, reviewed, checked)


def test_review_check_sees_a_new_decision_without_drawing_or_reading(
    project: Project, reviewed: CliRunner
) -> None:
    case = f"{project.alpha}/lookup/several-matches/done-60-dark"
    first = review_check(project, reviewed)
    picture = next(item["hash"] for item in first.report["cases"] if item["id"] == case)
    decision = make_decision(case, "rejected", picture, "Ann Lee", "the bullets are too faint")
    record_decisions(project.root / "snapshots" / "reviews.yaml", [decision])

    checked = review_check(project, reviewed)
    assert checked.code == 1 and checked.failing == {case}
    reason = next(item["reason"] for item in checked.report["cases"] if item["id"] == case)
    assert reason == "rejected by Ann Lee: the bullets are too faint"
    assert checked.drawn == checked.read == set()
    same_verdicts(project, reviewed, checked)
