"""A project of a demo tool whose Render draws in a fixed grey (a contrast finding in both
themes, for every variant), for tests of the audit's command line."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

WAIVERS = (
    "waivers:\n"
    "  - {kind: empty, reason: a lookup always finds something}\n"
    "  - {kind: error, reason: the demo never fails}\n"
    "  - {kind: truncated, reason: the demo returns three items}\n"
)
"""The kinds of variant the demo's fixture files do without."""


def demo_tool(apis: tuple[str, ...]) -> str:
    """The demo tool's module: the same surfaces for each of ``apis``."""
    return textwrap.dedent(
        f'''\
        """A tool for the audit's CLI tests: its Render draws in a fixed grey."""

        from rich.text import Text

        from workbench.core.manifest import ToolManifest
        from workbench.surfaces import kit
        from workbench.surfaces.registry import SurfaceSet
        from workbench.tools.package import ToolPackage

        APIS = {apis!r}


        def inspector(ctx):
            return kit.status_line(
                ctx, "Looking up", "Looked up", kit.text(ctx.args.get("query", ""))
            )


        def render(ctx):
            return Text("3 items found", style="#777777")


        PACKAGE = ToolPackage(
            manifest=ToolManifest.model_validate(
                {{
                    "identifier": "demo",
                    "meta": {{"title": "Demo"}},
                    "api": [{{"name": name, "parameters": {{"type": "object"}}}} for name in APIS],
                }}
            ),
            surfaces=SurfaceSet(
                inspectors={{name: inspector for name in APIS}},
                renders={{name: render for name in APIS}},
            ),
        )
        '''
    )


def demo_project(
    root: Path, monkeypatch: pytest.MonkeyPatch, module: str, fixtures: dict[str, str]
) -> Path:
    """``root`` as a project of the demo tool (importable as ``module``, a name of the test
    file's own: a module stays imported) with a fixture file per API, and the current folder."""
    apis = tuple(fixtures)
    (root / f"{module}.py").write_text(demo_tool(apis), encoding="utf-8")
    monkeypatch.syspath_prepend(str(root))
    (root / "pyproject.toml").write_text(
        '[tool.workbench]\nfixtures = ["fixtures"]\ninclude_bundled = false\n'
        f'tools = ["{module}:PACKAGE"]\n',
        encoding="utf-8",
    )
    (root / "fixtures").mkdir()
    for api, text in fixtures.items():
        (root / "fixtures" / f"{api}.yaml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(root)
    return root
