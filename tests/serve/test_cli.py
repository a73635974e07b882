"""`workbench serve` on the command line: what it refuses, what it asks, what it serves, and
that stopping or killing it ends every session's processes."""

from __future__ import annotations

import asyncio
import importlib
import signal
import sys
from pathlib import Path
from typing import Any

import aiohttp
import click
import pytest
from click.testing import CliRunner

from tests.serve.helpers import (
    WebTerminal,
    launcher_argv,
    marked_processes,
    served,
    stub_argv,
    wait_until_gone,
)
from workbench.cli import main
from workbench.cli.live import live as live_command

# The package exports the `serve` command under the module's name: reach the module itself.
serve_module = importlib.import_module("workbench.cli.serve")

pytestmark = pytest.mark.timeout(90)


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What `workbench serve` would have served, instead of serving it."""
    calls: list[dict[str, Any]] = []

    def fake_run(argv: list[str], host: str, port: int, *rest: Any) -> None:
        calls.append({"argv": argv, "host": host, "port": port, "rest": rest})

    monkeypatch.setattr(serve_module, "_run", fake_run)
    return calls


def invoke(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(main, ["serve", *args], input=input)


def test_by_default_it_serves_the_fixture_workbench_on_loopback(runs: list[dict[str, Any]]) -> None:
    result = invoke()
    assert result.exit_code == 0, result.output
    [run] = runs
    assert run["argv"] == [sys.executable, "-m", "workbench"]
    assert run["host"] == "127.0.0.1" and run["port"] == 0


def test_fixtures_are_passed_on_as_absolute_paths(runs: list[dict[str, Any]]) -> None:
    assert invoke("--fixtures", "fixtures/calculator").exit_code == 0
    assert runs[0]["argv"][3:] == ["--fixtures", str(Path("fixtures/calculator").resolve())]


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.1", "example.org"])
def test_other_addresses_than_loopback_need_expose(runs: list[dict[str, Any]], host: str) -> None:
    result = invoke("--host", host)
    assert result.exit_code == 2
    assert "reachable from other machines: add --expose" in result.output
    assert runs == []


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "::1", "[::1]"])
def test_loopback_addresses_need_nothing_more(runs: list[dict[str, Any]], host: str) -> None:
    assert invoke("--host", host).exit_code == 0
    assert runs[0]["host"] in ("127.0.0.1", "::1")


def test_expose_warns_before_it_listens() -> None:
    # 192.0.2.1 (TEST-NET-1) is no address of this machine: the warning comes, then the bind
    # fails, and nothing is ever reachable.
    result = invoke("--host", "192.0.2.1", "--expose")
    assert result.exit_code == 2
    assert "warning: serving on 192.0.2.1 to other machines, over plain HTTP" in result.output
    assert "cannot listen on 192.0.2.1:0" in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["--approval", "manual"],
        ["--no-demo"],
        ["--mcp", "python -m server"],
        ["--allow", "calculator"],
        ["--timeout", "5"],
    ],
)
def test_live_options_need_live(runs: list[dict[str, Any]], args: list[str]) -> None:
    result = invoke(*args)
    assert result.exit_code == 2 and "only apply to --live" in result.output
    assert runs == []


def test_review_and_live_are_exclusive(runs: list[dict[str, Any]]) -> None:
    result = invoke("--review", "--live")
    assert result.exit_code == 2 and "pick one" in result.output


def test_review_serves_workbench_review(
    runs: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    if "review" not in main.list_commands(click.Context(main)):
        result = invoke("--review")
        assert result.exit_code == 2
        assert "`workbench review`, which this version does not have" in result.output
        # Once the command exists, --review serves it.
        monkeypatch.setitem(main.commands, "review", click.Command("review"))
    result = invoke("--review")
    assert result.exit_code == 0, result.output
    assert runs[-1]["argv"] == [sys.executable, "-m", "workbench", "review"]


def test_live_serves_workbench_live_with_manual_approval(runs: list[dict[str, Any]]) -> None:
    assert invoke("--live", "--no-demo").exit_code == 0
    argv = runs[0]["argv"]
    assert argv[3:6] == ["live", "--approval", "manual"]


def test_the_live_arguments_mean_what_the_serve_options_meant(
    runs: list[dict[str, Any]], tmp_path: Path
) -> None:
    config = tmp_path / "mcp.json"
    config.write_text('{"mcpServers": {}}')
    (tmp_path / "skills").mkdir()
    options = [
        "--mcp",
        "python -m my_server",
        "--config",
        str(config),
        "--tools",
        "workbench.tools.calculator:PACKAGE",
        "--skills",
        str(tmp_path / "skills"),
        "--workspace",
        str(tmp_path),
        "--approval",
        "allow-list",
        "--allow",
        "calculator.*",
        "--allow-host",
        "10.0.0.0/8",
        "--handshake-timeout",
        "7",
        "--timeout",
        "30",
        "--extend-on-progress",
        "90",
        "--no-demo",
    ]
    # The served command's options, parsed by `workbench live` itself, equal what
    # `workbench live` makes of the same options typed directly.
    direct = live_command.make_context("live", list(options))
    assert invoke("--live", *options).exit_code == 0, runs
    served_args = runs[0]["argv"][4:]
    through_serve = live_command.make_context("live", served_args)
    assert through_serve.params == direct.params


@pytest.mark.parametrize(
    "args",
    [
        ["--approval", "auto-run"],
        ["--approval", "allow-list", "--allow", "*"],
        ["--approval", "allow-list", "--allow", "*.*"],
    ],
)
@pytest.mark.parametrize("answer", [None, "", "y\n", "yes\n", "auto run\n"])
def test_auto_run_is_refused_unless_confirmed(
    runs: list[dict[str, Any]], args: list[str], answer: str | None
) -> None:
    result = invoke("--live", "--no-demo", *args, input=answer)
    assert result.exit_code == 2
    assert "anyone with the URL can then run tools" in result.output
    assert "not confirmed" in result.output
    assert runs == []


@pytest.mark.parametrize(
    "args",
    [
        ["--approval", "auto-run"],
        ["--approval", "allow-list", "--allow", "*"],
    ],
)
def test_auto_run_is_served_when_asked_twice(runs: list[dict[str, Any]], args: list[str]) -> None:
    result = invoke("--live", "--no-demo", *args, input="auto-run\n")
    assert result.exit_code == 0, result.output
    assert runs[0]["argv"][3:6] == ["live", "--approval", args[1]]


def test_a_narrow_allow_list_needs_no_confirmation(runs: list[dict[str, Any]]) -> None:
    result = invoke("--live", "--no-demo", "--approval", "allow-list", "--allow", "calculator.*")
    assert result.exit_code == 0, result.output
    assert "anyone with the URL" not in result.output


def test_bad_live_options_fail_once_at_start(runs: list[dict[str, Any]], tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text('{"mcpServers": ')
    result = invoke("--live", "--config", str(config))
    assert result.exit_code == 2
    assert "mcp.json" in result.output
    assert runs == []


# -- the real command -----------------------------------------------------------------------


def test_the_command_prints_a_url_that_opens_the_page() -> None:
    with served([sys.executable, "-m", "workbench", "serve"]) as server:
        assert server.host == "127.0.0.1"

        async def load() -> tuple[str, int, str, int]:
            async with aiohttp.ClientSession() as http:
                async with http.get(server.base + "/") as bare:
                    bare_page = await bare.text()
                async with http.get(server.url) as page:
                    status, text = page.status, await page.text()
                try:  # a WebSocket without the token: refused, and logged
                    await http.ws_connect(server.base + "/ws", headers={"Origin": server.base})
                except aiohttp.WSServerHandshakeError as error:
                    return bare_page, status, text, error.status
                raise AssertionError("a WebSocket without the token was let in")

        bare_page, status, page, refused = asyncio.run(load())
        assert "This address needs its token" in bare_page
        assert status == 200 and refused == 403
        assert f"ws://127.0.0.1:{server.port}/ws" in page
    assert server.process.returncode == 0  # SIGTERM is a clean stop
    assert "refused GET /ws: no token" in server.final_stderr  # logged as it happened
    assert "refused 1 requests (1 no token)" in server.final_stderr  # and summed up at the end
    assert server.token not in server.final_stderr


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_stopping_or_killing_the_server_leaves_no_process(signum: int) -> None:
    """Sessions of a stubborn app (ignores quit, SIGTERM and the end of its input); the server
    stops (SIGTERM, ctrl+c) or is killed outright (SIGKILL: the group leader notices)."""
    with served(launcher_argv(stub_argv("--stubborn"))) as server:

        async def open_sessions() -> None:
            async with aiohttp.ClientSession() as http:
                terminals = [await WebTerminal.open(http, server) for _ in range(2)]
                for terminal in terminals:
                    await terminal.wait_for("stub ready", timeout=15)
                server.process.send_signal(signum)
                for terminal in terminals:
                    await terminal.pump(0.1)

        asyncio.run(open_sessions())
        server.process.wait(timeout=20)
        assert wait_until_gone(server.mark, 15) == []
    assert marked_processes(server.mark) == []
