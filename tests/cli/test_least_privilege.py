"""A stdio server gets only what it needs: a minimal environment and no folder nobody named."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from workbench.cli import main

SERVER = textwrap.dedent(
    """\
    import os, warnings
    warnings.simplefilter("ignore")
    from mcp.server.mcpserver import Context, MCPServer

    server = MCPServer("envy")

    @server.tool(description="The names of this process's environment variables.")
    def names() -> str:
        return " ".join(sorted(os.environ))

    @server.tool(description="The client's roots.")
    async def roots(ctx: Context) -> str:
        result = await ctx.session.list_roots()
        return ", ".join(str(root.uri) for root in result.roots) or "no roots"

    server.run()
    """
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WORKBENCH_TEST_API_KEY", "sk-test-not-for-servers")
    (tmp_path / "server.py").write_text(SERVER)
    return tmp_path


def config(tmp_path: Path, **entry: object) -> str:
    server = {
        "command": sys.executable,
        "args": [str(tmp_path / "server.py")],
        "protocol": "legacy",
    }
    (tmp_path / "mcp.json").write_text(json.dumps({"mcpServers": {"envy": {**server, **entry}}}))
    return str(tmp_path / "mcp.json")


def call(*args: str) -> str:
    result = CliRunner().invoke(main, ["call", *args])
    assert result.exit_code == 0, result.output
    return result.stdout.strip()


def test_a_server_gets_a_minimal_environment_plus_its_own_env(project: Path) -> None:
    names = call("envy.names", "--config", config(project, env={"ONLY_MINE": "1"})).split()
    assert "WORKBENCH_TEST_API_KEY" not in names
    assert "ONLY_MINE" in names and "PATH" in names
    assert set(names) <= {"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "ONLY_MINE"} | {
        name for name in names if name.startswith(("LC_", "PYTHON", "__CF", "VIRTUAL_ENV"))
    }


def test_inherit_env_passes_everything_from_the_flag_or_the_config(project: Path) -> None:
    flagged = call("envy.names", "--config", config(project), "--inherit-env").split()
    assert "WORKBENCH_TEST_API_KEY" in flagged
    configured = call("envy.names", "--config", config(project, inheritEnv=True)).split()
    assert "WORKBENCH_TEST_API_KEY" in configured
    refused = call(
        "envy.names", "--config", config(project, inheritEnv=False), "--inherit-env"
    ).split()
    assert "WORKBENCH_TEST_API_KEY" not in refused  # the server's own setting wins


def test_roots_come_from_the_flag_or_the_servers_config_only(project: Path) -> None:
    assert call("envy.roots", "--config", config(project)) == "no roots"
    (project / "data").mkdir()
    offered = call("envy.roots", "--config", config(project, roots=["data"]))
    assert offered == (project / "data").resolve().as_uri()
    flagged = call("envy.roots", "--config", config(project), "--root", str(project / "data"))
    assert flagged == (project / "data").resolve().as_uri()
