"""What went wrong while the sources started: one account for ``workbench tools``, a headless
call's usage error and the live screen's problems panel."""

from __future__ import annotations

from dataclasses import dataclass

from workbench.core.problems import Problem
from workbench.sources.base import SourceState
from workbench.sources.manager import ToolManager


@dataclass(frozen=True)
class SourceHealth:
    """One source after its start: its state, why (if it failed) and what it warned about."""

    name: str
    state: SourceState
    detail: str
    problems: list[str]
    """What the source warned about while starting (a tool it could not list, ...)."""

    @property
    def failed(self) -> bool:
        return self.state is SourceState.FAILED


@dataclass(frozen=True)
class SourcesReport:
    """Every source's health, the tool packages that did not load, and the name conflicts."""

    sources: list[SourceHealth]
    packages: list[str]
    """Tool packages that did not load (a broken plugin, a bad ``--tools`` spec)."""
    conflicts: dict[str, list[str]]
    """Tool identifier -> the sources that all offer it."""

    @classmethod
    def of(cls, manager: ToolManager, package_problems: list[str]) -> SourcesReport:
        """The report once ``manager`` has started (or tried to start) its sources."""
        return cls(
            sources=[
                SourceHealth(source.name, SourceState(state), detail, list(source.problems))
                for source, state, detail in manager.statuses()
            ],
            packages=list(package_problems),
            conflicts=manager.conflicts(),
        )

    @property
    def failed(self) -> list[SourceHealth]:
        return [source for source in self.sources if source.failed]

    def as_problems(self) -> list[Problem]:
        """The problems panel's rows: failed sources, warnings of the ready ones, packages
        that did not load, then conflicts with how to address each tool."""
        problems = [
            Problem(file=f"source {source.name}", message=source.detail or "failed to start")
            for source in self.failed
        ]
        problems += [
            Problem(file=f"source {source.name}", message=item, severity="warning")
            for source in self.sources
            if source.state is SourceState.READY
            for item in source.problems
        ]
        problems += [Problem(file="tools", message=item) for item in self.packages]
        problems += [
            Problem(
                file=f"tool {tool}",
                message=f"offered by {', '.join(sources)}: call it as SOURCE/{tool}.API",
                severity="warning",
            )
            for tool, sources in self.conflicts.items()
        ]
        return problems
