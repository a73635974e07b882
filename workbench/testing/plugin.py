"""The Workbench pytest plugin (registered through the ``pytest11`` entry point).

It generates the snapshot matrix from the fixtures named in ``[tool.workbench]``; a project
opts in with one line in a test module::

    from workbench.testing.snapshots import test_tool_ui_snapshot  # noqa: F401

The same import runs ``workbench audit`` too: one extra case per fixture variant checks every
phase, width and theme against the render principles. Nothing is loaded unless a test asks
for ``workbench_case``, so the plugin costs nothing in projects that do not use it.
"""

from __future__ import annotations

from collections.abc import Iterator
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
    from workbench.rendering.renderer import SnapshotRenderer

_PROJECT_KEY = pytest.StashKey["Project"]()


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


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if CASE_PARAM not in metafunc.fixturenames:
        return
    from workbench.rendering.matrix import audit_cases, snapshot_cases

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
    metafunc.parametrize(CASE_PARAM, cases, ids=[case.test_id for case in cases])


@pytest.fixture(scope="session")
def workbench_project(request: pytest.FixtureRequest) -> Project:
    """The project configured in ``[tool.workbench]``."""
    return _project(request.config)


@pytest.fixture(scope="session")
def workbench_renderer(workbench_project: Project) -> Iterator[SnapshotRenderer]:
    """One snapshot renderer for this session (or xdist worker): it draws every case directly."""
    from workbench.rendering.renderer import SnapshotRenderer

    with SnapshotRenderer(workbench_project.catalog, workbench_project.registry) as renderer:
        yield renderer


@pytest.fixture(scope="session")
def workbench_auditor(workbench_project: Project) -> Auditor:
    """The render audit, drawing with the snapshot renderer's drawer."""
    from workbench.audit import Auditor

    return Auditor(workbench_project.catalog, workbench_project.registry)


@pytest.fixture
def snapshot_text(snapshot: Any) -> Any:
    return shown_safely(snapshot.use_extension(TextSnapshotExtension))


@pytest.fixture
def snapshot_svg(snapshot: Any) -> Any:
    return shown_safely(snapshot.use_extension(SVGSnapshotExtension))
