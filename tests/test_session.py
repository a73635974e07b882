"""build_session turns live options into sources: tools, MCP servers, skills, HTTP tools."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.sources.helpers import MISBEHAVING
from workbench.config import WorkbenchConfig, load_config
from workbench.session import LiveOptions, SetupError, build_session
from workbench.sources.http_source import HttpToolSource
from workbench.sources.mcp_source import McpSource
from workbench.sources.python_source import PythonToolSource
from workbench.surfaces.registry import SurfaceKind


@pytest.fixture(autouse=True)
def quiet_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in (
        "WORKBENCH_WEB_ONLINE",
        "WORKBENCH_SEARXNG_URL",
        "WORKBENCH_WEB_ALLOW",
        "WORKBENCH_SKILLS_PATH",
        "WORKBENCH_TASK_DATABASE",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def write_config(path: Path, servers: object) -> Path:
    path.write_text(json.dumps({"mcpServers": servers}, indent=2))
    return path


def test_build_session_makes_one_source_per_option(tmp_path: Path) -> None:
    config = write_config(
        tmp_path / "mcp.json", {"flaky": {"command": sys.executable, "args": [str(MISBEHAVING)]}}
    )
    session = build_session(
        LiveOptions(
            mcp=[f"{sys.executable} {MISBEHAVING}", "http://127.0.0.1:9/mcp"],
            config_files=[config],
            include_demo=True,
            approval="headless",
            allow=["calculator.*"],
            workspace=tmp_path,
        )
    )
    sources = session.manager.sources
    assert [(type(source).__name__, source.name) for source in sources] == [
        ("PythonToolSource", "python"),
        ("McpSource", "demo"),
        ("McpSource", "mcp"),
        ("McpSource", "mcp-2"),
        ("McpSource", "flaky"),
    ]
    demo, stdio, http, flaky = (source for source in sources if isinstance(source, McpSource))
    assert demo.spec.transport == "in-process"
    assert (stdio.spec.command, stdio.spec.args) == (sys.executable, [str(MISBEHAVING)])
    assert http.spec.url == "http://127.0.0.1:9/mcp"
    assert flaky.spec.name == "flaky"
    assert (
        session.policy.mode == "headless"
        and session.policy.allow_list == frozenset({"calculator.*"})
        and session.policy.workspace == tmp_path.resolve()
    )
    assert session.services.workspace == tmp_path.resolve()
    assert "calculator" in session.registry.tools()
    assert session.problems == []


def test_build_session_without_bundled_tools_has_no_python_source(tmp_path: Path) -> None:
    session = build_session(LiveOptions(include_bundled=False, include_demo=True))
    assert [source.name for source in session.manager.sources] == ["demo"]


def test_bad_options_are_setup_errors(tmp_path: Path) -> None:
    with pytest.raises(SetupError, match="--mcp needs a command or a URL"):
        build_session(LiveOptions(mcp=["  "]))
    with pytest.raises(SetupError, match="not a directory"):
        build_session(LiveOptions(skills=[tmp_path / "nope"]))


def test_a_broken_tool_module_is_a_problem_not_an_error() -> None:
    session = build_session(LiveOptions(tool_modules=["no_such_module_for_workbench_tests"]))
    assert session.problems == [
        "no_such_module_for_workbench_tests: cannot load tool package "
        "no_such_module_for_workbench_tests (--tools no_such_module_for_workbench_tests): "
        "ModuleNotFoundError: No module named 'no_such_module_for_workbench_tests'"
    ]
    assert [source.name for source in session.manager.sources] == ["python"]


async def test_a_skills_folder_named_like_a_bundled_tool_is_a_conflict_not_a_replacement(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "calculator"
    (folder / "greet").mkdir(parents=True)
    (folder / "greet" / "SKILL.md").write_text(
        "---\nname: greet\ndescription: Say hello\n---\nSay hello politely.\n"
    )
    session = build_session(LiveOptions(skills=[folder], workspace=tmp_path))
    manager = session.manager
    assert [(type(source).__name__, source.name) for source in manager.sources] == [
        ("PythonToolSource", "python"),
        ("PythonToolSource", "python-2"),
    ]
    await manager.start()
    try:
        assert manager.conflicts() == {"calculator": ["python", "python-2"]}
        assert manager.resolve("python/calculator.calculate").api.name == "calculate"
        assert manager.resolve("python-2/calculator.activateSkill").entry.source.name == "python-2"
        # The bundled calculator still works: the skills folder did not replace it.
        assert manager.resolve("calculator.calculate").entry.source.name == "python"
    finally:
        await manager.stop()
    # Surfaces are looked up by tool identifier: as in `workbench` on fixtures, the first
    # package of a name keeps it, and none of the later package's surfaces mix into its card.
    assert session.registry.has_own("calculator", "calculate", SurfaceKind.INSPECTOR)
    assert not session.registry.has_own("calculator", "activateSkill", SurfaceKind.INSPECTOR)


def test_http_manifests_in_fixture_dirs_become_an_http_source(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.workbench]\nfixtures = ["fx"]\ninclude_bundled = false\n'
    )
    (tmp_path / "fx" / "remote").mkdir(parents=True)
    (tmp_path / "fx" / "remote" / "manifest.yaml").write_text(
        "identifier: remote\nmeta: {title: Remote}\napi:\n  - name: lookup\n    url: http://127.0.0.1:9/lookup\n"
    )
    (tmp_path / "fx" / "plain").mkdir()
    (tmp_path / "fx" / "plain" / "manifest.yaml").write_text(
        "identifier: plain\nmeta: {title: Plain}\napi:\n  - name: nothing\n"
    )
    config = load_config(tmp_path)
    assert isinstance(config, WorkbenchConfig)
    session = build_session(LiveOptions(allow_hosts=["127.0.0.1"]), config=config)
    [http] = session.manager.sources
    assert isinstance(http, HttpToolSource)
    assert [manifest.identifier for manifest in http.manifests] == ["remote"]
    assert http.allow == ["127.0.0.1"]
    assert session.fixture_dir == (tmp_path / "fx").resolve()
    assert not any(isinstance(source, PythonToolSource) for source in session.manager.sources)
