"""The Workbench pytest plugin (registered through the ``pytest11`` entry point).

It generates the snapshot matrix from the fixtures named in ``[tool.workbench]``; a project
opts in as with any plugin's fixture, by a test that asks for it::

    def test_tool_ui(tool_ui_snapshot):
        tool_ui_snapshot()  # every surface as approved; every variant passes the audit

The same test runs ``workbench audit`` too: one extra case per fixture variant checks every
phase, width and theme against the render principles. Nothing is loaded unless a test asks
for ``tool_ui_snapshot`` (or ``workbench_case``), so the plugin costs nothing in projects that
do not use it.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from workbench.testing.extension import (
    CASE_PARAM,
    SnapshotRoot,
    SVGSnapshotExtension,
    TextSnapshotExtension,
    shown_safely,
)

if TYPE_CHECKING:
    from workbench.audit import Auditor
    from workbench.project import Project
    from workbench.rendering.cache import MatchedSnapshots, RenderCache
    from workbench.rendering.renderer import SnapshotRenderer
    from workbench.review.shards import Shard

_PROJECT_KEY = pytest.StashKey["Project"]()
_CASE_IDS_KEY = pytest.StashKey[set[str]]()
"""Every snapshot case of the matrix, once this session has generated them."""
_DELETED_KEY = pytest.StashKey[list[Path]]()
_CACHE_KEY = pytest.StashKey["RenderCache"]()


def _project(config: pytest.Config) -> Project:
    project = config.stash.get(_PROJECT_KEY, None)
    if project is None:
        from workbench.config import load_config
        from workbench.project import open_project

        workbench_config = load_config(config.rootpath)
        project = open_project(config=workbench_config, installed=False)
        SnapshotRoot.path = workbench_config.snapshot_dir
        config.stash[_PROJECT_KEY] = project
    return project


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("workbench").addoption(
        "--shard",
        "--workbench-shard",
        dest="workbench_shard",
        type=_shard,
        default=None,
        metavar="K/N",
        help="Run only shard K of N of the Workbench snapshot and audit cases (split evenly, "
        "the same way on every machine), for a CI matrix.",
    )
    parser.getgroup("workbench").addoption(
        "--workbench-no-cache",
        action="store_true",
        help="Draw every snapshot and audit case, reading and writing no render cache.",
    )


def _shard(text: str) -> Shard:
    from workbench.review.shards import Shard, ShardSpecError

    try:
        return Shard.parse(text)
    except ShardSpecError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if CASE_PARAM not in metafunc.fixturenames:
        return
    from workbench.rendering.matrix import SnapshotCase, audit_cases, snapshot_cases

    project = _project(metafunc.config)
    errors = [problem for problem in project.catalog.problems if problem.severity == "error"]
    if errors:
        details = "\n".join(problem.format() for problem in errors[:20])
        raise pytest.UsageError(
            f"the fixtures do not load cleanly; run `workbench check`:\n{details}"
        )
    # The snapshot matrix, then one render audit per variant: a project that opts into the
    # snapshots gets the audit in CI without another line.
    cases: list[Any] = [
        *snapshot_cases(project.catalog, project.registry),
        *audit_cases(project.catalog),
    ]
    # Every snapshot case of the matrix, not only this shard's, decides which files are unused.
    metafunc.config.stash[_CASE_IDS_KEY] = {
        case.test_id for case in cases if isinstance(case, SnapshotCase)
    }
    shard = metafunc.config.getoption("workbench_shard", None)
    if shard is not None:
        from workbench.audit.runner import AUDIT_THEMES, AUDIT_WIDTHS

        def cost(case: Any) -> int:
            """About how many drawings a case takes: a snapshot one, an audit one per phase,
            width and theme."""
            if isinstance(case, SnapshotCase):
                return 1
            phases = len(project.catalog.script_for(case.ref).phases)
            return phases * len(AUDIT_WIDTHS) * len(AUDIT_THEMES)

        cases = shard.select(cases, lambda case: case.test_id, cost)
    metafunc.parametrize(CASE_PARAM, cases, ids=[case.test_id for case in cases])


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """On ``--snapshot-update``, delete the snapshot files of cases that no longer exist, as
    ``workbench snapshot --update`` does (only files named like a case; a README stays).

    The whole matrix decides, not the tests this run selected: a file of a case that exists
    is never deleted, whatever ``-k`` chose."""
    config = session.config
    case_ids = config.stash.get(_CASE_IDS_KEY, None)
    if (
        case_ids is None
        or not config.getoption("update_snapshots", False)
        or config.getoption("no_cleanup", False)
        or config.getoption("disable_unused_snapshots", False)
        or exitstatus not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED)
    ):
        return
    from workbench.testing.unused import delete_unused_snapshots

    config.stash[_DELETED_KEY] = delete_unused_snapshots(SnapshotRoot.path, case_ids)


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    cache = config.stash.get(_CACHE_KEY, None)
    if cache is not None and (cache.stats.reused or cache.stats.drawn):
        terminalreporter.write_line(
            f"workbench: {cache.stats.summary()} (snapshot and audit cases)"
        )
    deleted = config.stash.get(_DELETED_KEY, [])
    if deleted:
        terminalreporter.write_line(
            f"workbench: deleted {len(deleted)} unused snapshot file(s) "
            "(no case draws them any more):"
        )
        for path in deleted:
            terminalreporter.write_line(f"  {path}")


@pytest.fixture(scope="session")
def workbench_project(request: pytest.FixtureRequest) -> Project:
    """The project configured in ``[tool.workbench]``."""
    return _project(request.config)


@pytest.fixture(scope="session")
def workbench_render_cache(
    workbench_project: Project, request: pytest.FixtureRequest
) -> Iterator[RenderCache | None]:
    """The project's render cache (``None`` with ``--workbench-no-cache``), pruned at the end."""
    from workbench.rendering.cache import open_cache

    config = workbench_project.config
    try:
        cache = open_cache(
            config.root,
            workbench_project.catalog,
            workbench_project.registry,
            enabled=not request.config.getoption("workbench_no_cache", False),
            project=config.pyproject is not None,
        )
    except ValueError as error:
        raise pytest.UsageError(str(error)) from None
    if cache is not None:
        request.config.stash[_CACHE_KEY] = cache
    yield cache
    if cache is not None:
        cache.prune()


@pytest.fixture(scope="session")
def workbench_matched_snapshots(
    workbench_render_cache: RenderCache | None, request: pytest.FixtureRequest
) -> Iterator[MatchedSnapshots | None]:
    """Which cases' snapshot files last matched their drawing (``None`` without a cache):
    such a case passes on a stat of its files. Saved at the end (each xdist worker adds its
    own)."""
    if workbench_render_cache is None:
        yield None
        return
    matched = workbench_render_cache.matched_snapshots()
    yield matched
    matched.save(request.config.stash.get(_CASE_IDS_KEY, None))


@pytest.fixture(scope="session")
def workbench_renderer(
    workbench_project: Project, workbench_render_cache: RenderCache | None
) -> Iterator[SnapshotRenderer]:
    """One snapshot renderer for this session (or xdist worker): it draws a case directly,
    unless the render cache holds it drawn from the same inputs."""
    from workbench.rendering.renderer import SnapshotRenderer

    with SnapshotRenderer(
        workbench_project.catalog, workbench_project.registry, cache=workbench_render_cache
    ) as renderer:
        yield renderer


@pytest.fixture(scope="session")
def workbench_auditor(
    workbench_project: Project, workbench_render_cache: RenderCache | None
) -> Auditor:
    """The render audit, drawing with the snapshot renderer's drawer (and the same cache)."""
    from workbench.audit import Auditor

    return Auditor(
        workbench_project.catalog, workbench_project.registry, cache=workbench_render_cache
    )


@pytest.fixture
def snapshot_text(snapshot: Any) -> Any:
    return shown_safely(snapshot.use_extension(TextSnapshotExtension))


@pytest.fixture
def snapshot_svg(snapshot: Any) -> Any:
    return shown_safely(snapshot.use_extension(SVGSnapshotExtension))


@pytest.fixture
def tool_ui_snapshot(
    workbench_case: Any,
    workbench_renderer: SnapshotRenderer,
    snapshot_text: Any,
    snapshot_svg: Any,
    request: pytest.FixtureRequest,
) -> Callable[[], None]:
    """Check this case of the matrix when called: the test asking for it is run once per
    snapshot case (variant x phase x width x theme) and once per variant's render audit."""
    from workbench.testing.snapshots import check_case

    def check() -> None:
        check_case(workbench_case, workbench_renderer, snapshot_text, snapshot_svg, request)

    return check
