"""Tasks: a SQLite task store with batch creation and runnable tasks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from workbench.api import RuntimeServices, ToolPackage
from workbench.tools.task.manifest import IDENTIFIER, MANIFEST
from workbench.tools.task.store import TaskStore
from workbench.tools.task.surfaces import SURFACES

if TYPE_CHECKING:
    from workbench.tools.task.runtime import TaskRuntime

DATABASE_NAME = ".workbench/tasks.db"


def create_runtime(services: RuntimeServices) -> TaskRuntime:
    """The runtime is imported here, not with the package: listing tools needs none."""
    from workbench.tools.local_system.commands import CommandRunner
    from workbench.tools.task.runtime import TaskRuntime

    path = services.settings.get("task.database")
    if path is None:
        path = str(services.workspace / DATABASE_NAME)  # Made at the first task operation.
    return TaskRuntime(TaskStore(path), CommandRunner(), services.workspace)


ENVIRONMENT = {"WORKBENCH_TASK_DATABASE": "task.database"}
"""The environment variables this tool reads, and the settings key each becomes."""

PACKAGE = ToolPackage(
    manifest=MANIFEST,
    surfaces=SURFACES,
    create_runtime=create_runtime,
    environment=ENVIRONMENT,
)


def __getattr__(name: str) -> Any:
    if name == "TaskRuntime":
        from workbench.tools.task.runtime import TaskRuntime

        return TaskRuntime
    raise AttributeError(name)


__all__ = ["IDENTIFIER", "MANIFEST", "PACKAGE", "TaskRuntime", "TaskStore"]
