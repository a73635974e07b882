"""The agents' UI-only tool packages: what they offer, that every API draws every ending
without an audit finding, and that they join a project only through its fixtures."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from workbench.cli import main
from workbench.config import WorkbenchConfig
from workbench.core.schema import sample_args
from workbench.coverage import coverage, coverage_problems
from workbench.fixtures.cache import CatalogCache
from workbench.project import open_project
from workbench.rendering.matrix import snapshot_cases
from workbench.surfaces.registry import SurfaceKind
from workbench.tools.agent_packages import AGENT_ORIGIN, agent_packages

REPO = Path(__file__).resolve().parents[2]
AGENTS = REPO / "workbench" / "agents"

EXPECTED_APIS = {
    "claude-code": {
        "Bash", "BashOutput", "KillShell", "Read", "Write", "Edit", "MultiEdit",
        "NotebookEdit", "Grep", "Glob", "LS", "WebFetch", "WebSearch", "TodoWrite", "Task",
        "ExitPlanMode", "AskUserQuestion",
        # Later names of the same tools: Task is Agent, KillShell was KillBash and is now
        # TaskStop (which stops subagents too), BashOutput is TaskOutput.
        "Agent", "KillBash", "TaskStop", "TaskOutput",
    },
    "codex": {
        "shell", "shell_command", "exec_command", "apply_patch", "update_plan", "web_search",
        "view_image",
    },
    "gemini-cli": {
        "run_shell_command", "read_file", "read_many_files", "write_file", "replace", "glob",
        "search_file_content", "grep_search", "list_directory", "web_fetch",
        "google_web_search", "save_memory",
    },
}  # fmt: skip


def _packages() -> dict[str, Any]:
    return {package.identifier: package for package in agent_packages()}


def test_each_agent_package_has_its_tools_surfaces_and_no_runtime() -> None:
    packages = _packages()
    assert set(packages) == set(EXPECTED_APIS)
    for identifier, package in packages.items():
        assert package.create_runtime is None
        apis = {api.name for api in package.manifest.api}
        assert apis == EXPECTED_APIS[identifier]
        for api in package.manifest.api:
            assert api.parameters.get("type") == "object", api.name
            # Today's required names, or the alternatives of the versions that renamed them.
            required = api.parameters.get("required") or api.parameters.get("anyOf")
            assert required, f"{identifier}.{api.name} requires nothing"
        assert set(package.surfaces.inspectors) == apis
        assert set(package.surfaces.renders) == apis


def test_the_packages_import_nothing_of_workbench_but_its_public_api() -> None:
    for path in AGENTS.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("workbench"):
                module = node.module or ""
                assert module == "workbench.api" or module.startswith("workbench.agents"), (
                    f"{path.relative_to(REPO)} imports {module}"
                )


def _write_every_ending(root: Path) -> int:
    """For every API of every agent package: a typical call (args from its schema), an empty
    result, a tool-call error and a long result, as an imported session would give them."""
    written = 0
    long_text = "\n".join(f"line {number}: some output of the tool" for number in range(60))
    for identifier, package in _packages().items():
        folder = root / identifier
        folder.mkdir(parents=True)
        for api in package.manifest.api:
            args = sample_args(api.parameters)
            variants = [
                {
                    "id": "typical",
                    "label": "A call that worked",
                    "kind": "typical",
                    "args": args,
                    "result": {"success": True, "content": "Done: three lines\nof the\nresult"},
                },
                {
                    "id": "empty",
                    "label": "A call that gave nothing back",
                    "kind": "empty",
                    "args": args,
                    "result": {"success": True, "content": ""},
                },
                {
                    "id": "error",
                    "label": "A call the agent reported as an error",
                    "kind": "error",
                    "args": args,
                    "result": {
                        "success": False,
                        "content": "Error: permission denied",
                        "error": {"type": "ToolError", "message": "permission denied"},
                    },
                },
                {
                    "id": "long",
                    "label": "A call with far more output than a card shows",
                    "kind": "truncated",
                    "args": args,
                    "result": {"success": True, "content": long_text},
                },
            ]
            document = {"tool": identifier, "api": api.name, "variants": variants}
            (folder / f"{api.name}.yaml").write_text(yaml.safe_dump(document), encoding="utf-8")
            written += len(variants)
    return written


def test_every_api_passes_the_audit_at_every_ending(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = _write_every_ending(tmp_path / "fixtures")
    assert written == 4 * sum(len(apis) for apis in EXPECTED_APIS.values())
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["audit", str(tmp_path / "fixtures")])
    assert result.exit_code == 0, result.output


def test_the_bundled_agent_fixtures_pass_the_audit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    folders = [f"fixtures/{identifier}" for identifier in EXPECTED_APIS]
    result = CliRunner().invoke(main, ["audit", *folders])
    assert result.exit_code == 0, result.output


def _project(root: Path) -> WorkbenchConfig:
    (root / "fixtures").mkdir(parents=True, exist_ok=True)
    return WorkbenchConfig(root=root, fixture_dirs=(root / "fixtures",), include_bundled=False)


def test_a_project_without_agent_fixtures_gains_no_tool_but_draws_them(tmp_path: Path) -> None:
    project = open_project(config=_project(tmp_path), cache=CatalogCache.disabled())
    assert not set(project.catalog.tools) & set(EXPECTED_APIS)
    assert not [row for row in coverage(project.catalog, project.registry) if row.tool == "codex"]
    assert not snapshot_cases(project.catalog, project.registry)
    # The surfaces are registered all the same, for an imported call shown anywhere.
    assert project.registry.has_own("codex", "apply_patch", SurfaceKind.RENDER)


def test_imported_calls_bring_only_their_apis_and_owe_no_kinds(tmp_path: Path) -> None:
    config = _project(tmp_path)
    call = {
        "id": "call-1",
        "label": "ls in the project",
        "kind": "typical",
        "args": {"command": "ls"},
        "result": {"success": True, "content": "README.md\nsrc"},
    }
    folder = tmp_path / "fixtures" / "claude-code"
    folder.mkdir()
    (folder / "Bash.yaml").write_text(
        yaml.safe_dump({"tool": "claude-code", "api": "Bash", "variants": [call]}),
        encoding="utf-8",
    )
    project = open_project(config=config, cache=CatalogCache.disabled())
    assert set(project.catalog.tools["claude-code"].apis) == {"Bash"}
    assert project.catalog.tools["claude-code"].origin == AGENT_ORIGIN
    assert "codex" not in project.catalog.tools
    rows = [row for row in coverage(project.catalog, project.registry) if row.tool == "claude-code"]
    assert [(row.api, row.observed, row.gaps) for row in rows] == [("Bash", True, [])]
    assert not coverage_problems(rows)
    cases = snapshot_cases(project.catalog, project.registry)
    assert cases and {case.tool for case in cases} == {"claude-code"}
    assert not project.catalog.problems


def test_a_projects_own_tool_of_that_name_wins(tmp_path: Path) -> None:
    """A project that ships its own ``codex`` tool (say, Codex as an MCP server) keeps it."""
    config = _project(tmp_path)
    (tmp_path / "fixtures" / "codex").mkdir()
    (tmp_path / "fixtures" / "codex" / "manifest.yaml").write_text(
        yaml.safe_dump(
            {
                "identifier": "codex",
                "meta": {"title": "Our Codex server"},
                "api": [{"name": "codex", "parameters": {"type": "object"}}],
            }
        ),
        encoding="utf-8",
    )
    project = open_project(config=config, cache=CatalogCache.disabled())
    tool = project.catalog.tools["codex"]
    assert tool.manifest.meta.title == "Our Codex server"
    assert set(tool.apis) == {"codex"}
    rows = [row for row in coverage(project.catalog, project.registry) if row.tool == "codex"]
    assert rows and not rows[0].observed


def test_the_bundled_snapshot_matrix_has_cases_for_every_agent_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(REPO)
    project = open_project(installed=False)
    tools = {case.tool for case in snapshot_cases(project.catalog, project.registry)}
    assert set(EXPECTED_APIS) <= tools
