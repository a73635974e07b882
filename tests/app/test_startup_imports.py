"""What `workbench` loads before its first screen: only what that screen draws.

The first frame (tree, tool card, status line, footer) is what a start waits for
(`bench/startup.py` times it). Modules for what a key or a later event opens are imported
when first used, and the core's pydantic models build their validators on first use: a
start pays for neither.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

NOT_FOR_THE_FIRST_SCREEN = (
    # The hosts' first looks and model views: `h` and the Model tab.
    "workbench.hosts",
    "workbench.surfaces.host_look",
    # An MCP App's part of a Portal.
    "workbench.surfaces.mcp_views",
    "workbench.core.mcp_catalog",
    # The approval bar and its text fields: a call that asks for approval.
    "workbench.app.widgets.intervention_bar",
    "textual.widgets._text_area",
    # The details tabs, mounted after the first frame.
    "textual.widgets._tabbed_content",
    # Heavy libraries of other commands and later steps.
    "yaml",
    "jsonschema",
    "pygments",
    "mcp",
    "httpx",
    "tiktoken",
)

CORE_MODELS = {
    "workbench.core.result": "ToolResult",
    "workbench.core.manifest": "ToolManifest",
    "workbench.fixtures.models": "FixtureFile",
    "workbench.config": "WorkbenchTable",
    "workbench.hosts.profile": "HostProfile",
}


def _after_importing_the_tui(check: str, env: dict[str, str] | None = None) -> object:
    """The JSON value ``answer`` that ``check`` (statements) sets, in a fresh interpreter that
    imported what `workbench` imports before it runs the app (with ``env`` added to its
    environment)."""
    code = (
        "import importlib, json, sys\n"
        "import workbench.cli, workbench.app.app\n"
        f"{check}\n"
        "print(json.dumps(answer))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
        env={**os.environ, **(env or {})},
    )
    return json.loads(result.stdout)


def _loaded_too_early(steps: str = "", modules: str = "sys.modules", **env: str) -> object:
    """Which of :data:`NOT_FOR_THE_FIRST_SCREEN` are among ``modules`` (an expression) after
    the TUI's imports and ``steps``."""
    return _after_importing_the_tui(
        f"{steps}names = {NOT_FOR_THE_FIRST_SCREEN!r}\n"
        f"answer = sorted(m for m in {modules}"
        " if any(m == n or m.startswith(n + '.') for n in names))",
        env,
    )


@pytest.fixture
def warm_cache(tmp_path: Path) -> dict[str, str]:
    """The environment of a start whose catalog cache is warm, as it usually is."""
    env = {"WORKBENCH_CACHE_DIR": str(tmp_path)}
    _after_importing_the_tui(
        "from workbench.project import open_project\nopen_project()\nanswer = 0", env
    )
    return env


def test_starting_the_tui_imports_nothing_the_first_screen_does_not_draw() -> None:
    assert _loaded_too_early() == []


def test_loading_the_project_from_a_warm_cache_imports_nothing_more(
    warm_cache: dict[str, str],
) -> None:
    # What the start does next, in its worker thread: the catalog comes from the cache (no
    # YAML), the bundled and the agents' manifests skip the JSON Schema check (the suite runs
    # it: tests/tools/test_bundled_manifests.py).
    steps = "from workbench.project import open_project\nopen_project()\n"
    assert _loaded_too_early(steps, **warm_cache) == []


def test_core_models_build_their_validators_when_first_used() -> None:
    # Imported after the TUI's modules (the hosts' profile model is not among them).
    built = _after_importing_the_tui(
        f"models = {CORE_MODELS!r}\n"
        "answer = {name: getattr(importlib.import_module(module), name).__pydantic_complete__"
        " for module, name in models.items()}"
    )
    assert built == dict.fromkeys(CORE_MODELS.values(), False)


def test_a_deferred_model_validates_as_strictly_on_first_use() -> None:
    # The first validation builds the validator: the same rules, the same errors.
    outcome = _after_importing_the_tui(
        "import pydantic\n"
        "from workbench.core.result import ToolResult\n"
        "try:\n"
        "    ToolResult.model_validate({'success': True, 'content': 'ok', 'bogus': 1})\n"
        "    refused = None\n"
        "except pydantic.ValidationError as error:\n"
        "    refused = [item['type'] for item in error.errors()]\n"
        "answer = [refused, ToolResult.model_validate({'success': True, 'content': 'ok'}).content]"
    )
    assert outcome == [["extra_forbidden"], "ok"]


def test_the_first_frame_imports_nothing_it_does_not_draw(warm_cache: dict[str, str]) -> None:
    # The whole start, headless: the modules loaded when the first card is drawn (the host
    # profiles, for `h` and the Model tab, come after it).
    steps = (
        "import asyncio\n"
        "from workbench.app.app import WorkbenchApp\n"
        "from workbench.app.widgets.tool_card import ToolCard\n"
        "first: list[set[str]] = []\n"
        "render = ToolCard.render\n"
        "def noting_render(card):\n"
        "    if card.call_state is not None and not first:\n"
        "        first.append(set(sys.modules))\n"
        "    return render(card)\n"
        "ToolCard.render = noting_render\n"
        "async def start():\n"
        "    app = WorkbenchApp(animate=False)\n"
        "    async with app.run_test(size=(120, 40)) as pilot:\n"
        "        for _ in range(500):\n"
        "            if first:\n"
        "                break\n"
        "            await pilot.pause(0.01)\n"
        "asyncio.run(start())\n"
    )
    assert _loaded_too_early(steps, "first[0]", **warm_cache) == []


def test_a_kept_first_screen_is_drawn_before_the_models_and_the_project_load(
    tmp_path: Path,
) -> None:
    # Two starts in fresh interpreters: the first keeps its frame, the second draws it. What
    # the second had imported when the picture was first drawn: no model, project or surface.
    start = (
        "import asyncio\n"
        "from workbench.app.app import WorkbenchApp\n"
        "from workbench.app.first_screen import FirstScreenStore\n"
        "from workbench.app.widgets.frame_picture import FramePicture\n"
        "first: list[set[str]] = []\n"
        "draw = FramePicture.render_line\n"
        "def noting_draw(picture, y):\n"
        "    if not first:\n"
        "        first.append(set(sys.modules))\n"
        "    return draw(picture, y)\n"
        "FramePicture.render_line = noting_draw\n"
        "async def start():\n"
        "    app = WorkbenchApp(animate=False, first_screen=FirstScreenStore.for_start(['x']))\n"
        "    async with app.run_test(size=(120, 40)) as pilot:\n"
        "        for _ in range(500):\n"
        "            if app.first_frame is not None:\n"
        "                break\n"
        "            await pilot.pause(0.01)\n"
        "        await app.workers.wait_for_complete()\n"
        "asyncio.run(start())\n"
    )
    env = {"WORKBENCH_CACHE_DIR": str(tmp_path)}
    assert _after_importing_the_tui(start + "answer = bool(first)", env) is False
    heavy = ("pydantic", "workbench.project", "workbench.surfaces", "workbench.core.call_state")
    loaded = _after_importing_the_tui(
        start + f"answer = sorted(m for m in first[0] if m.startswith({heavy!r}))", env
    )
    assert loaded == []
