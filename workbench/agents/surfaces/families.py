"""Each family's surfaces, and a tool's SurfaceSet from which family each of its APIs is."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from workbench.agents.surfaces import approvals, files, plans, search, shell, task, web
from workbench.agents.surfaces.portal import portal_for
from workbench.api import Surface, SurfaceSet


@dataclass(frozen=True)
class Family:
    """The surfaces of one kind of agent tool; the Streaming surface only where output flows,
    an Intervention of its own where the agent asks its user first (the rest ask with the
    generic one)."""

    inspector: Surface
    placeholder: Surface | None
    render: Surface
    streaming: Surface | None = None
    intervention: Surface | None = None


FAMILIES: dict[str, Family] = {
    "shell": Family(
        shell.inspector, shell.placeholder, shell.render, shell.streaming, approvals.shell
    ),
    "shell-output": Family(shell.output_inspector, shell.placeholder, shell.output_render),
    "shell-kill": Family(shell.kill_inspector, None, shell.kill_render),
    "read": Family(files.read_inspector, files.read_placeholder, files.read_render),
    "read-many": Family(files.many_inspector, files.many_placeholder, files.many_render),
    "write": Family(
        files.write_inspector,
        files.write_placeholder,
        files.write_render,
        intervention=approvals.write,
    ),
    "edit": Family(
        files.edit_inspector, files.edit_placeholder, files.edit_render, intervention=approvals.edit
    ),
    "notebook": Family(
        files.notebook_inspector,
        files.edit_placeholder,
        files.notebook_render,
        intervention=approvals.notebook,
    ),
    "image": Family(files.image_inspector, None, files.image_render),
    "grep": Family(search.grep_inspector, search.grep_placeholder, search.grep_render),
    "glob": Family(search.glob_inspector, search.glob_placeholder, search.glob_render),
    "list": Family(search.list_inspector, search.list_placeholder, search.list_render),
    "fetch": Family(
        web.fetch_inspector, web.fetch_placeholder, web.fetch_render, intervention=approvals.fetch
    ),
    "web-search": Family(web.search_inspector, web.search_placeholder, web.search_render),
    "todo": Family(plans.todo_inspector, plans.todo_placeholder, plans.todo_render),
    "plan": Family(
        plans.plan_inspector, plans.plan_placeholder, plans.plan_render, intervention=approvals.plan
    ),
    "ask": Family(
        plans.ask_inspector, plans.ask_placeholder, plans.ask_render, intervention=approvals.ask
    ),
    "memory": Family(plans.memory_inspector, None, plans.memory_render),
    "task": Family(task.inspector, task.placeholder, task.render),
}


def surface_set(families: Mapping[str, str]) -> SurfaceSet:
    """The surfaces of a tool whose API ``name`` is of family ``families[name]``."""
    chosen = {api: FAMILIES[family] for api, family in families.items()}
    return SurfaceSet(
        inspectors={api: family.inspector for api, family in chosen.items()},
        placeholders={
            api: family.placeholder for api, family in chosen.items() if family.placeholder
        },
        streamings={api: family.streaming for api, family in chosen.items() if family.streaming},
        renders={api: family.render for api, family in chosen.items()},
        interventions={
            api: family.intervention for api, family in chosen.items() if family.intervention
        },
        portal=portal_for(families),
    )
