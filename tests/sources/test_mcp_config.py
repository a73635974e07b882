"""read_mcp_config: the mcpServers format other MCP clients use, with mistakes located by line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench.config import ConfigError
from workbench.sources.mcp_config import read_mcp_config


def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data, indent=2))
    return path


def problems(path: Path) -> list[str]:
    with pytest.raises(ConfigError) as raised:
        read_mcp_config(path)
    return [problem.format() for problem in raised.value.problems]


def test_stdio_and_http_entries_become_specs(tmp_path: Path) -> None:
    config = write(
        tmp_path / "mcp.json",
        {
            "mcpServers": {
                "files": {
                    "command": "npx",
                    "args": ["-y", "server", 3],
                    "env": {"TOKEN": 42},
                    "cwd": "/srv",
                    "inheritEnv": False,
                    "tools": ["read"],
                    "policies": {"read": "never"},
                    "type": "stdio",  # what another client adds: ignored, not an error
                },
                "remote": {
                    "url": "http://127.0.0.1:9/mcp",
                    "headers": {"Authorization": "Bearer x"},
                    "tools": ["search"],
                },
            },
            "globalShortcut": "ctrl+space",
        },
    )
    files, remote = read_mcp_config(config)
    assert (
        files.name,
        files.command,
        files.args,
        files.env,
        files.cwd,
        files.inherit_env,
        files.tools,
        files.policies,
        files.transport,
    ) == (
        "files",
        "npx",
        ["-y", "server", "3"],
        {"TOKEN": "42"},
        "/srv",
        False,
        ["read"],
        {"read": "never"},
        "stdio",
    )
    assert (remote.name, remote.url, remote.headers, remote.tools, remote.transport) == (
        "remote",
        "http://127.0.0.1:9/mcp",
        {"Authorization": "Bearer x"},
        ["search"],
        "http",
    )
    # Unset: the session decides (--inherit-env), and it keeps the environment minimal.
    unset = read_mcp_config(write(tmp_path / "b.json", {"mcpServers": {"x": {"command": "s"}}}))
    assert unset[0].inherit_env is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"mcpServers": {\n  "a": }', ":2: not valid JSON: Expecting value"),
        ('["not", "an", "object"]', ":1: expected an object with an mcpServers mapping"),
        ('{"servers": {}}', ":1: expected an object with an mcpServers mapping"),
        (
            '{\n  "mcpServers": {\n    "broken": {"args": []}\n  }\n}',
            ":3: mcpServers.broken: needs",
        ),
        (
            '{"mcpServers": {\n  "ok": {"command": "x"},\n  "my server": {"command": "x"}\n}}',
            ":3: mcpServers.my server: a server's key must be letters, digits",
        ),
        (
            '{"mcpServers": {"s": {\n  "command": "x",\n  "policies": {\n    "echo": "ask"\n}}}}',
            ":4: mcpServers.s.policies.echo: Input should be 'never', 'required' or 'always'",
        ),
        (
            '{"mcpServers": {"s": {\n  "command": "x",\n  "args": [\n    "a",\n    ["b"]\n  ]\n}}}',
            ":5: mcpServers.s.args[1]: Input should be a valid string",
        ),
        (
            '{"mcpServers": {"s": {"url": "http://h/mcp",\n  "headers": ["x"]}}}',
            ":2: mcpServers.s.headers: Input should be a valid dictionary",
        ),
    ],
)
def test_mistakes_name_the_file_line_and_key(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(text)
    [problem] = problems(path)
    assert problem.startswith(f"{path}{expected}"), problem


def test_every_mistake_is_reported_at_once(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text('{"mcpServers": {\n  "a": {},\n  "b": {"command": "x", "tools": "all"}\n}}')
    assert problems(path) == [
        f"{path}:2: mcpServers.a: needs a command or a url",
        f"{path}:3: mcpServers.b.tools: Input should be a valid list",
    ]


def test_an_unreadable_file_is_a_config_error(tmp_path: Path) -> None:
    [problem] = problems(tmp_path / "missing.json")
    assert problem == f"{tmp_path / 'missing.json'}: cannot read: No such file or directory"


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(), st.lists, max_leaves=8))
def test_any_json_value_in_a_server_entry_is_a_spec_or_a_located_problem(value: object) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "mcp.json"
        path.write_text(json.dumps({"mcpServers": {"s": {"command": "x", "args": value}}}))
        try:
            [spec] = read_mcp_config(path)
        except ConfigError as error:
            assert error.problems and all(problem.line for problem in error.problems)
        else:
            assert all(isinstance(arg, str) for arg in spec.args)


def test_every_config_file_says_alike_that_it_cannot_be_read(tmp_path: Path) -> None:
    """The mcp.json, an answers file and pyproject.toml are read by one function: a file that
    is not UTF-8 is the same one-line problem in each."""
    from workbench.config import load_config
    from workbench.sources.answers import ScriptedAnswers

    def problem_of(path: Path, read: Callable[[Path], object]) -> str:
        path.write_bytes(b"\xff\xfe not text")
        with pytest.raises(ConfigError) as raised:
            read(path)
        [problem] = raised.value.problems
        return problem.format()

    def load_pyproject(path: Path) -> object:
        return load_config(path.parent)

    for name, read in (
        ("mcp.json", read_mcp_config),
        ("answers.yaml", ScriptedAnswers.load),
        ("pyproject.toml", load_pyproject),
    ):
        message = problem_of(tmp_path / name, read)
        assert message.startswith(f"{tmp_path / name}: cannot read: 'utf-8' codec can't decode")
