"""Record the reference tools' fixtures from real calls.

    python scripts/record_reference.py [--out fixtures] [--only local-system/runCommand]

Every variant is a real call of the bundled runtime — in a freshly built sample workspace,
with a fresh task database — recorded through the same live-call path the TUI uses, then
written into ``fixtures/<tool>/<api>.yaml``. What is recorded (the recipes) is data, in
``reference_recipes.yaml`` beside this script. Hand-kept files (the calculator's) are left alone.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from reference_workspace import build_workspace, edit_target, seed_runnable, seed_tasks

from workbench.config import bundled_fixtures_dir
from workbench.core import events as ev
from workbench.core.runtime import RuntimeServices
from workbench.fixtures.models import FixtureFile
from workbench.fixtures.recorder import dump_fixture, variant_from_events
from workbench.policy.engine import PolicyContext
from workbench.policy.verdict import ApprovalDecision
from workbench.sources.live_start import prepare_call
from workbench.sources.manager import ResolvedCall, SourceTool
from workbench.sources.python_source import PythonToolSource
from workbench.sources.timeouts import CallTimeout
from workbench.tools import bundled_packages

RECIPES = Path(__file__).with_name("reference_recipes.yaml")

SETUPS: dict[str, Callable[[Path], None]] = {
    "edit_target": edit_target,
    "seed_runnable": seed_runnable,
}
"""Setups a recipe names as a word; ``{seed_tasks: N}`` takes a count."""

GENERATED: dict[str, Callable[[], Any]] = {
    "csv_rows_6000": lambda: "".join(
        f"{index},value-{index},{index * 3}\n" for index in range(1, 6001)
    ),
    "migration_steps_60": lambda: "\n".join(
        f"Step {index}: migrate table {index}, verify the row counts, and record the duration."
        for index in range(1, 61)
    ),
    "chapters_40": lambda: [
        {"name": f"Chapter {index}", "instruction": f"Write chapter {index} of the guide."}
        for index in range(1, 41)
    ],
}
"""Arguments too long to keep as data, written ``{generated: NAME}`` in a recipe."""


class Recipe(BaseModel):
    """One variant to record: a call of TOOL/API (the key it is listed under)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    label: str
    kind: str
    description: str = ""
    args: dict[str, Any]
    setup: str | dict[Literal["seed_tasks"], int] | None = None
    settings: dict[str, str] = Field(default_factory=dict)
    decision: Literal["approve", "skip"] = "approve"
    mode: Literal["manual", "headless"] = "manual"
    """The approval mode; ``headless`` turns a needed approval into a blocked call."""
    timeout_ms: int = 60_000
    cancel_after_ms: int | None = None
    """Cancel the call this long after it started (the user pressing escape)."""

    def prepare(self, workspace: Path) -> None:
        if isinstance(self.setup, dict):
            seed_tasks(self.setup["seed_tasks"])(workspace)
        elif self.setup is not None:
            SETUPS[self.setup](workspace)

    def call_args(self) -> dict[str, Any]:
        return {key: _generate(value) for key, value in self.args.items()}


class Recipes(BaseModel):
    model_config = ConfigDict(extra="forbid")

    waivers: dict[str, list[dict[str, str]]] = Field(default_factory=dict)
    """TOOL/API -> the waivers its fixture file carries."""
    recipes: dict[str, list[Recipe]]
    """TOOL/API -> its variants, in the order the fixture file lists them."""


def _generate(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"generated"}:
        return GENERATED[value["generated"]]()
    return value


def load_recipes(path: Path) -> Recipes:
    """The recipes file, or an exit naming what in it is wrong."""
    try:
        recipes = Recipes.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    except (OSError, yaml.YAMLError, ValidationError) as error:
        raise SystemExit(f"{path}: {error}") from None
    for key, items in recipes.recipes.items():
        for recipe in items:
            where = f"{path}: {key}#{recipe.id}"
            if isinstance(recipe.setup, str) and recipe.setup not in SETUPS:
                raise SystemExit(f"{where}: unknown setup {recipe.setup!r}")
            unknown = [
                value["generated"]
                for value in recipe.args.values()
                if isinstance(value, dict)
                and set(value) == {"generated"}
                and value["generated"] not in GENERATED
            ]
            if unknown:
                raise SystemExit(f"{where}: unknown generated value {unknown[0]!r}")
    return recipes


async def record(tool: str, api: str, recipe: Recipe) -> dict[str, Any]:
    args = recipe.call_args()
    with tempfile.TemporaryDirectory(prefix="workbench-record-") as directory:
        workspace = Path(directory)
        build_workspace(workspace)
        recipe.prepare(workspace)
        packages = [package for package in bundled_packages() if package.identifier == tool]
        services = RuntimeServices(
            workspace=workspace,
            offline=recipe.settings.get("web.online") != "1",
            settings=recipe.settings,
        )
        source = PythonToolSource("bundled", packages, services)
        await source.start()
        manifest = packages[0].manifest
        [tool_api] = [item for item in manifest.api if item.name == api]

        async def gate(request: ev.ApprovalRequested) -> ApprovalDecision:
            await asyncio.sleep(0)
            if recipe.decision == "skip":
                return ApprovalDecision("skip", reason="not now: outside what I asked for")
            return ApprovalDecision("approve", args=args)

        prepared = prepare_call(
            ResolvedCall(SourceTool(source, manifest), tool_api),
            args,
            policy=PolicyContext(mode=recipe.mode, workspace=workspace),
            timeout=CallTimeout(recipe.timeout_ms),
            approval_gate=gate,
        )
        call = prepared.call
        try:
            if recipe.cancel_after_ms is None:
                await call.run()
            else:
                running = asyncio.ensure_future(call.run())
                await asyncio.sleep(recipe.cancel_after_ms / 1000)
                call.cancel("stopped by the user")
                await running
        finally:
            await source.stop()
        variant = variant_from_events(
            prepared.record.events,
            variant_id=recipe.id,
            label=recipe.label,
            kind=recipe.kind,
            description=recipe.description,
        )
        scrubbed: dict[str, Any] = _scrub(variant, str(workspace))
        return scrubbed


def _scrub(value: Any, workspace: str) -> Any:
    """Replace the temporary workspace path so recordings do not depend on the machine."""
    if isinstance(value, str):
        return value.replace(workspace, "/workspace")
    if isinstance(value, list):
        return [_scrub(item, workspace) for item in value]
    if isinstance(value, dict):
        return {key: _scrub(item, workspace) for key, item in value.items()}
    return value


async def main_async(out: Path, only: set[str], recipes: Recipes) -> int:
    for key, items in recipes.recipes.items():
        tool, _, api = key.partition("/")
        if only and key not in only and tool not in only:
            continue
        variants = []
        for recipe in items:
            print(f"recording {key}#{recipe.id} …", file=sys.stderr)
            variants.append(await record(tool, api, recipe))
        data = {
            "tool": tool,
            "api": api,
            "variants": variants,
            "waivers": recipes.waivers.get(key, []),
        }
        FixtureFile.model_validate(data)
        path = out / tool / f"{api}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        header = (
            "# Recorded from real calls by `python scripts/record_reference.py`; "
            "edit labels freely.\n"
        )
        path.write_text(header + dump_fixture(data), encoding="utf-8")
        print(f"wrote {path} ({len(variants)} variants)", file=sys.stderr)
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=bundled_fixtures_dir())
    parser.add_argument(
        "--only", action="append", default=[], help="tool or tool/api to record (repeatable)"
    )
    parser.add_argument("--recipes", type=Path, default=RECIPES, help="the recipes file")
    options = parser.parse_args()
    if shutil.which("sh") is None:
        raise SystemExit("recording needs /bin/sh")
    recipes = load_recipes(options.recipes)
    raise SystemExit(asyncio.run(main_async(options.out, set(options.only), recipes)))


if __name__ == "__main__":
    main()
