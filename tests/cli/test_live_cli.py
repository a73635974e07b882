"""``workbench call`` and ``workbench tools`` against real sources: exit codes, MCP servers, config
files, JSON."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.net.local_server import LocalServer, Reply, running_server
from tests.sources.helpers import FAULTY, MISBEHAVING
from workbench.cli import main

MISBEHAVING_COMMAND = shlex.join([sys.executable, str(MISBEHAVING)])
OPENAI_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> CliRunner:
    """A runner in an empty directory (bundled tools only), with no WORKBENCH_* settings."""
    for name in (
        "WORKBENCH_WEB_ONLINE",
        "WORKBENCH_SEARXNG_URL",
        "WORKBENCH_WEB_ALLOW",
        "WORKBENCH_SKILLS_PATH",
        "WORKBENCH_TASK_DATABASE",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return CliRunner()


def one_line_error(result: Result) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("workbench: error: "), lines[0]
    return lines[0]


# --- workbench call ------------------------------------------------------------------------------


def test_a_successful_call_exits_0(runner: CliRunner) -> None:
    result = runner.invoke(main, ["call", "calculator.calculate", "--args", '{"expression":"2+2"}'])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "2+2 = 4"
    assert result.stderr == ""


def test_a_failed_result_exits_1(runner: CliRunner) -> None:
    result = runner.invoke(main, ["call", "calculator.calculate", "--args", '{"expression":"1/0"}'])
    assert result.exit_code == 1
    assert result.stdout.strip() == "Could not calculate '1/0': division by zero at column 3."
    assert result.stderr.strip() == "[failed] DivisionByZero: division by zero"


AS_THE_PROGRAM = """
import atexit, sys
from pathlib import Path

folder = Path(sys.argv[1])


class Kept:
    def __del__(self) -> None:  # Runs only when the interpreter frees its modules.
        (folder / "torn-down").write_text("yes")


kept = Kept()
atexit.register(lambda: (folder / "atexit").write_text("yes"))
print("started", flush=True)
sys.argv = ["workbench", *sys.argv[2:]]
from workbench.cli import main

main()
"""


@pytest.mark.parametrize(
    ("expression", "code", "output"), [("2+2", 0, "2+2 = 4"), ("1/0", 1, "Could not calculate")]
)
def test_call_as_the_program_ends_after_atexit_without_the_teardown(
    tmp_path: Path, expression: str, code: int, output: str
) -> None:
    """Once the result is out and nothing it started runs, ``workbench call`` ends the
    process: its exit code and what it printed stand, atexit handlers (logging's, a
    coverage tool's) run, and no time goes into freeing every module one by one."""
    args = ["call", "calculator.calculate", "--args", json.dumps({"expression": expression})]
    done = subprocess.run(
        [sys.executable, "-c", AS_THE_PROGRAM, str(tmp_path), *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == code, done.stderr
    assert done.stdout.startswith("started\n") and output in done.stdout
    assert (tmp_path / "atexit").read_text() == "yes"
    assert not (tmp_path / "torn-down").exists()


def test_tools_as_the_program_ends_without_the_teardown(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", AS_THE_PROGRAM, str(tmp_path), "tools", "--format", "json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    listing = json.loads(done.stdout.removeprefix("started\n"))
    assert "calculator" in {tool["tool"] for tool in listing["tools"]}
    assert (tmp_path / "atexit").read_text() == "yes"
    assert not (tmp_path / "torn-down").exists()


SPAWN_WATCH = """
import sys
import anyio

open_process = anyio.open_process


async def watched(*args, **kwargs):
    print("sdk imported at spawn:", "mcp" in sys.modules, file=sys.stderr, flush=True)
    return await open_process(*args, **kwargs)


anyio.open_process = watched
sys.argv = ["workbench", *sys.argv[1:]]
from workbench.cli import main

main()
"""


def test_a_stdio_server_starts_before_the_sdk_is_imported(tmp_path: Path) -> None:
    """The server boots (node: most of a second) while the SDK loads (half a second)."""
    server = shlex.join([sys.executable, str(FAULTY)])
    done = subprocess.run(
        [sys.executable, "-c", SPAWN_WATCH, "tools", "--mcp", server],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "[ready] faulty" in done.stdout
    assert "sdk imported at spawn: False" in done.stderr.splitlines()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            ["calculator.calculate", "--args", '{"expression":'],
            "workbench: error: --args is not valid JSON: Expecting value at column 15",
        ),
        (
            ["calculator.calculate", "--args", "[1, 2]"],
            "workbench: error: --args must be a JSON object",
        ),
        (
            ["calculator.calculate", "--args", '{"expression": 5}'],
            "workbench: error: arguments do not match calculator.calculate's "
            "schema: expression: 5 is not of type 'string'",
        ),
        (
            ["calculator.calculate", "--args", "{}"],
            "workbench: error: arguments do not match calculator.calculate's "
            "schema: (args): 'expression' is a required property",
        ),
    ],
)
def test_usage_errors_exit_2_with_one_line(
    runner: CliRunner, arguments: list[str], message: str
) -> None:
    result = runner.invoke(main, ["call", *arguments])
    assert result.exit_code == 2
    assert one_line_error(result) == message
    assert result.stdout == ""


def test_an_unknown_tool_exits_2_listing_what_exists(runner: CliRunner) -> None:
    result = runner.invoke(main, ["call", "nope.nothing"])
    assert result.exit_code == 2
    line = one_line_error(result)
    assert line.startswith(
        "workbench: error: no tool API 'nope.nothing' (available: calculator.calculate, "
    )


def test_an_unknown_tool_names_the_sources_that_failed(runner: CliRunner) -> None:
    result = runner.invoke(
        main,
        [
            "call",
            "misbehaving-server.ok",
            "--mcp",
            f"{MISBEHAVING_COMMAND} --exit-before-handshake 3",
        ],
    )
    assert result.exit_code == 2
    # The first line says what is wrong; the failed server's stderr tail follows.
    assert result.stderr.startswith("workbench: error: no tool API 'misbehaving-server.ok'")
    assert (
        "sources that failed to start: mcp: the server exited with code 3 "
        "before the handshake; stderr:" in result.stderr
    )
    assert "fatal: config file missing (pretend)" in result.stderr


def test_call_an_mcp_server_from_the_command_line(runner: CliRunner) -> None:
    result = runner.invoke(
        main,
        [
            "call",
            "misbehaving-server.ok",
            "--mcp",
            MISBEHAVING_COMMAND,
            "--args",
            '{"text": "from the cli"}',
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "ok: from the cli"


def test_call_an_mcp_server_from_a_config_file(runner: CliRunner, tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "flaky": {
                        "command": sys.executable,
                        "args": [str(MISBEHAVING)],
                        "env": {"FLAKY_LEVEL": "3"},
                    }
                }
            }
        )
    )
    result = runner.invoke(
        main, ["call", "flaky.getenv", "--config", str(config), "--args", '{"name": "FLAKY_LEVEL"}']
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "3"
    prefixed = runner.invoke(main, ["call", "flaky/flaky.ok", "--config", str(config)])
    assert prefixed.exit_code == 0 and prefixed.stdout.strip() == "ok: fine"


def test_a_broken_config_file_exits_2(runner: CliRunner, tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text('{"mcpServers": {"x": {"args": []}}}')
    result = runner.invoke(main, ["call", "x.ok", "--config", str(config)])
    assert result.exit_code == 2
    assert (
        one_line_error(result)
        == f"workbench: error: {config}:1: mcpServers.x: needs a command or a url"
    )


def test_every_mcp_json_mistake_is_a_located_line_never_a_traceback(
    runner: CliRunner, tmp_path: Path
) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(
        '{\n  "mcpServers": {\n    "x": {"command": "srv", "env": ["A=1"]},\n'
        '    "bad name": {"url": "http://127.0.0.1:9/mcp"}\n  }\n}\n'
    )
    for command in (["tools", "--config", str(config)], ["live", "--config", str(config)]):
        result = runner.invoke(main, command)
        assert result.exit_code == 2, result.output
        assert ("Traceback" not in result.output and result.exception is None) or isinstance(
            result.exception, SystemExit
        )
        assert result.stderr.splitlines() == [
            f"workbench: error: {config}:3: mcpServers.x.env: Input should be a valid dictionary",
            f"workbench: error: {config}:4: mcpServers.bad name: a server's key must be letters, "
            "digits, '_', '.' or '-' (it becomes the tool's name in TOOL.API)",
        ]


def test_json_format(runner: CliRunner) -> None:
    ok = runner.invoke(
        main, ["call", "calculator.calculate", "--args", '{"expression":"6*7"}', "--format", "json"]
    )
    assert ok.exit_code == 0, ok.output
    payload = json.loads(ok.stdout)
    assert (payload["tool"], payload["api"], payload["phase"]) == (
        "calculator",
        "calculate",
        "done",
    )
    assert payload["result"]["success"] is True and "42" in payload["result"]["content"]
    assert payload["output"] is None
    assert (
        payload["timings"]["startedMs"] is not None
        and payload["timings"]["endedMs"] >= payload["timings"]["startedMs"]
    )
    failed = runner.invoke(
        main, ["call", "calculator.calculate", "--args", '{"expression":"1/0"}', "--format", "json"]
    )
    assert failed.exit_code == 1
    assert json.loads(failed.stdout)["result"]["error"]["type"] == "DivisionByZero"


def test_timeout_over_stdio_exits_1_as_timed_out(runner: CliRunner) -> None:
    result = runner.invoke(
        main,
        [
            "call",
            "misbehaving-server.hang",
            "--mcp",
            MISBEHAVING_COMMAND,
            "--timeout",
            "0.2",
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 1
    payload = json.loads(result.stdout)
    assert payload["phase"] == "timed-out"
    assert payload["result"]["error"]["type"] == "Timeout"
    assert "(limit 1 s)" in payload["result"]["content"]  # --timeout is clamped to at least 1 s.


def test_a_crashing_server_exits_1_with_connection_closed(runner: CliRunner) -> None:
    result = runner.invoke(
        main,
        [
            "call",
            "misbehaving-server.crash_mid_call",
            "--mcp",
            MISBEHAVING_COMMAND,
            "--args",
            '{"after": 0.05}',
        ],
    )
    assert result.exit_code == 1
    assert "misbehaving-server exited with code 7 while crash_mid_call was running" in result.stdout
    assert result.stderr.startswith("[failed] ConnectionClosed:")


def test_approval_headless_blocks_and_auto_run_runs(runner: CliRunner) -> None:
    blocked = runner.invoke(
        main, ["call", "demo.delete_file", "--demo", "--args", '{"path": "a.txt"}']
    )
    assert blocked.exit_code == 1
    assert blocked.stdout.startswith("Blocked by policy: demo.delete_file needs approval")
    assert blocked.stderr.startswith("[blocked] BlockedByPolicy:")
    allowed = runner.invoke(
        main,
        [
            "call",
            "demo.delete_file",
            "--demo",
            "--approval",
            "auto-run",
            "--args",
            '{"path": "a.txt"}',
        ],
    )
    assert allowed.exit_code == 0, allowed.output
    assert allowed.stdout.strip() == "pretended to delete a.txt"
    listed = runner.invoke(
        main,
        [
            "call",
            "demo.delete_file",
            "--demo",
            "--approval",
            "allow-list",
            "--allow",
            "demo.delete_*",
            "--args",
            '{"path": "b.txt"}',
        ],
    )
    assert listed.exit_code == 0 and listed.stdout.strip() == "pretended to delete b.txt"


@pytest.fixture
def http_project(tmp_path: Path) -> Iterator[LocalServer]:
    """A project whose fixture directory has an HTTP tool pointing at a local endpoint."""
    with running_server() as endpoint:
        endpoint.routes["/lookup"] = lambda received: Reply.json(
            {
                "success": True,
                "content": f"looked up {json.loads(received.body)['q']}",
                "state": {"hits": 2},
            }
        )
        (tmp_path / "pyproject.toml").write_text(
            '[tool.workbench]\nfixtures = ["fx"]\ninclude_bundled = false\n'
        )
        (tmp_path / "fx" / "remote").mkdir(parents=True)
        (tmp_path / "fx" / "remote" / "manifest.yaml").write_text(
            "identifier: remote\nmeta: {title: Remote}\napi:\n  - name: lookup\n "
            f"   url: {endpoint.url('/lookup')}\n    parameters: {{type: object, "
            "properties: {q: {type: string}}, required: [q]}\n"
        )
        yield endpoint


def test_an_http_tool_needs_its_private_host_allowed(
    runner: CliRunner, http_project: LocalServer
) -> None:
    refused = runner.invoke(main, ["call", "remote.lookup", "--args", '{"q": "cats"}'])
    assert refused.exit_code == 1
    assert refused.stderr.startswith(
        "[failed] RequestRefused: refused 127.0.0.1 (127.0.0.1): a loopback address"
    )
    assert http_project.paths() == []
    allowed = runner.invoke(
        main,
        [
            "call",
            "remote.lookup",
            "--allow-host",
            "127.0.0.1",
            "--args",
            '{"q": "cats"}',
            "--format",
            "json",
        ],
    )
    assert allowed.exit_code == 0, allowed.output
    payload = json.loads(allowed.stdout)
    assert payload["result"]["content"] == "looked up cats" and payload["result"]["state"] == {
        "hits": 2
    }
    assert http_project.paths() == ["/lookup"]


# --- workbench tools -----------------------------------------------------------------------------


def test_tools_lists_sources_tools_and_apis(runner: CliRunner) -> None:
    result = runner.invoke(main, ["tools", "--demo"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "[ready] python"
    assert "    calculator — bundled with Workbench (workbench.tools.calculator)" in lines
    assert "      .calculate" in lines
    assert "[ready] demo — 14 tools over in-process" in lines
    assert "    demo — MCP server demo" in lines
    assert "      .delete_file" in lines
    assert "conflict" not in result.output


def test_tools_json_shows_failed_sources(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(
        main,
        [
            "tools",
            "--format",
            "json",
            "--mcp",
            str(tmp_path / "missing-server"),
            "--mcp",
            MISBEHAVING_COMMAND,
        ],
    )
    # The listing is printed whole; a server that did not start still fails the command.
    assert result.exit_code == 1, result.output
    listing = json.loads(result.stdout)
    sources = {source["name"]: source for source in listing["sources"]}
    assert sources["mcp"] == {
        "name": "mcp",
        "state": "failed",
        "detail": f"command not found: {tmp_path / 'missing-server'}",
        "problems": [],
    }
    assert sources["misbehaving-server"]["state"] == "ready"
    tools = {entry["tool"]: entry for entry in listing["tools"]}
    assert tools["misbehaving-server"]["source"] == "misbehaving-server"
    assert set(tools["misbehaving-server"]["apis"]) == {
        "ok",
        "getenv",
        "crash_mid_call",
        "hang",
        "huge",
        "slow_progress",
    }
    assert listing["conflicts"] == {}


def test_tools_openai_prints_valid_function_schemas(runner: CliRunner) -> None:
    result = runner.invoke(main, ["tools", "--openai", "--demo"])
    assert result.exit_code == 0, result.output
    functions = json.loads(result.stdout)
    names = [function["function"]["name"] for function in functions]
    assert (
        "calculator__calculate" in names and "demo__echo" in names and "demo__delete_file" in names
    )
    assert len(names) == len(set(names))
    for function in functions:
        assert function["type"] == "function"
        assert OPENAI_NAME.match(function["function"]["name"]), function["function"]["name"]
        assert isinstance(function["function"]["description"], str)
        assert function["function"]["parameters"]["type"] == "object"
    echo = next(function for function in functions if function["function"]["name"] == "demo__echo")
    assert echo["function"]["parameters"]["required"] == ["text"]


@pytest.fixture
def calculator_skills(tmp_path: Path) -> Path:
    """A skills folder named like the bundled calculator tool."""
    folder = tmp_path / "calculator"
    (folder / "greet").mkdir(parents=True)
    (folder / "greet" / "SKILL.md").write_text(
        "---\nname: greet\ndescription: Say hello\n---\nSay hello politely.\n"
    )
    return folder


def test_tools_shows_conflicts(runner: CliRunner, calculator_skills: Path) -> None:
    result = runner.invoke(main, ["tools", "--skills", str(calculator_skills)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert (
        "    calculator — bundled with Workbench (workbench.tools.calculator)"
        "  ⚠ conflict: also in python-2"
    ) in lines
    assert f"    calculator — --skills {calculator_skills}  ⚠ conflict: also in python" in lines
    assert "[ready] python-2" in lines
    assert result.stderr.strip() == "1 name conflict(s): address them as SOURCE/TOOL.API"
    listing = json.loads(
        runner.invoke(
            main, ["tools", "--skills", str(calculator_skills), "--format", "json"]
        ).stdout
    )
    assert listing["conflicts"] == {"calculator": ["python", "python-2"]}
    functions = json.loads(
        runner.invoke(main, ["tools", "--skills", str(calculator_skills), "--openai"]).stdout
    )
    names = [function["function"]["name"] for function in functions]
    assert (
        "python__calculator__calculate" in names and "python-2__calculator__activateSkill" in names
    )
    assert "calculator__calculate" not in names


def test_call_addresses_a_conflicting_tool_by_source(
    runner: CliRunner, calculator_skills: Path
) -> None:
    result = runner.invoke(
        main,
        [
            "call",
            "python/calculator.calculate",
            "--skills",
            str(calculator_skills),
            "--args",
            '{"expression": "1+1"}',
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "1+1 = 2"
    skill = runner.invoke(
        main,
        [
            "call",
            "python-2/calculator.activateSkill",
            "--skills",
            str(calculator_skills),
            "--args",
            '{"name": "greet"}',
        ],
    )
    assert skill.exit_code == 0, skill.output
    assert "Say hello politely." in skill.stdout


# --- timeouts: a hard limit unless progress is explicitly allowed to extend it ---------------


FLOOD = shlex.join([sys.executable, str(FAULTY)])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("options", "limit", "message"),
    [
        # "after N s" is measured (2.1 s on a loaded machine); the limit is what must show.
        (["--timeout", "2"], 2.0, "(limit 2 s)"),
        (
            ["--timeout", "1", "--extend-on-progress", "3"],
            3.0,
            "(limit 1 s, extended by progress up to 3 s)",
        ),
    ],
)
def test_timeout_is_a_hard_limit_on_a_server_that_reports_progress_forever(
    runner: CliRunner, options: list[str], limit: float, message: str
) -> None:
    started = time.monotonic()
    result = runner.invoke(
        main,
        ["call", "faulty.progress_flood", "--args", '{"count": 0}', "--mcp", FLOOD, *options],
    )
    elapsed = time.monotonic() - started
    assert result.exit_code == 1, result.output
    assert "timed out after " in result.stdout and message in result.stdout
    assert "[timed-out] Timeout:" in result.stderr
    # The limit, then stopping the server (stdin EOF, SIGTERM, SIGKILL within 2 s); the measure
    # also holds starting the server, seconds on a loaded machine. Without a hard limit the
    # call would never end (the server reports progress forever).
    assert limit < elapsed < limit + 10, elapsed


def test_help_names_the_hard_timeout_and_the_progress_extension(runner: CliRunner) -> None:
    for command in ("call", "live"):
        text = " ".join(runner.invoke(main, [command, "--help"]).stdout.split())
        assert "--timeout S Hard limit in seconds on each call" in text
        assert "--extend-on-progress MAX Let each progress report restart the --timeout" in text


def test_tools_lists_a_servers_malformed_tools_as_its_problems(runner: CliRunner) -> None:
    server = shlex.join([sys.executable, str(FAULTY), "--bad-tools"])
    result = runner.invoke(main, ["tools", "--format", "json", "--mcp", server])
    assert result.exit_code == 0, result.output
    listing = json.loads(result.stdout)
    faulty = next(source for source in listing["sources"] if source["name"] == "faulty")
    assert faulty["state"] == "ready"
    assert faulty["problems"] == [
        "tool #2 'no_type' left out: inputSchema.type: Field required",
        "tool #4 'not_an_object' left out: inputSchema: Input should be a valid dictionary or "
        "instance of InputSchema",
        "tool #16 left out: name: Field required",
    ]
    apis = next(tool["apis"] for tool in listing["tools"] if tool["tool"] == "faulty")
    assert "echo" in apis and "no_type" not in apis
