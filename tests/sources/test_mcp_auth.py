"""Streamable HTTP servers behind a token: bearer tokens and headers from the config file and
the environment, and no credential in a recorded fixture."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from mcp.server.mcpserver import Context, MCPServer

from tests.sources.helpers import run_call, serve_asgi
from workbench.cli import main
from workbench.config import ConfigError
from workbench.core.redact import REDACTED, Redactor
from workbench.fixtures.recorder import dump_fixture, variant_from_events
from workbench.session import LiveOptions, build_session
from workbench.sources.base import SourceState
from workbench.sources.mcp_config import read_mcp_config

TOKEN = "tok-3f9a1c7e5b2d4086"
COOKIE = "session=c00k1e-v4lue-8841"


def echo_server() -> MCPServer:
    server = MCPServer("header-echo", log_level="WARNING")

    @server.tool(structured_output=False)
    async def whoami(ctx: Context) -> str:
        headers = ctx.headers or {}
        seen = {name: headers.get(name) for name in ("authorization", "x-team", "cookie")}
        return json.dumps(seen)

    del whoami
    return server


def token_required(app: Any, token: str) -> Any:
    """``app`` behind a bearer-token check (401 and ``WWW-Authenticate`` without it)."""

    async def guarded(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = dict(scope["headers"])
            if headers.get(b"authorization") != f"Bearer {token}".encode():
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [(b"www-authenticate", b'Bearer realm="mcp"')],
                    }
                )
                await send({"type": "http.response.body", "body": b"token required"})
                return
        await app(scope, receive, send)

    return guarded


@pytest.fixture(scope="module")
def origin() -> Iterator[str]:
    with serve_asgi(token_required(echo_server().streamable_http_app(), TOKEN)) as url:
        yield url


def write_config(path: Path, entry: dict[str, Any]) -> Path:
    path.write_text(json.dumps({"mcpServers": {"remote": entry}}, indent=2), encoding="utf-8")
    return path


async def test_a_token_and_headers_from_the_environment_reach_the_server(
    origin: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REMOTE_TOKEN", TOKEN)
    monkeypatch.setenv("TEAM", "tools")
    monkeypatch.setenv("COOKIE", COOKIE)
    config = write_config(
        tmp_path / "mcp.json",
        {
            "url": f"{origin}/mcp",
            "bearerTokenEnv": "REMOTE_TOKEN",
            "headers": {"X-Team": "${TEAM}", "Cookie": "${env:COOKIE}"},
        },
    )
    assert TOKEN not in config.read_text() and COOKIE not in config.read_text()
    session = build_session(
        LiveOptions(config_files=[config], include_bundled=False, workspace=tmp_path)
    )
    await session.manager.start()
    try:
        [source] = session.manager.sources
        assert source.status.state is SourceState.READY, source.status
        run = await run_call(source, "remote", "whoami", {})
    finally:
        await session.manager.stop()
    assert json.loads(run.result.content) == {
        "authorization": f"Bearer {TOKEN}",
        "x-team": "tools",
        "cookie": COOKIE,
    }
    # Recorded as a fixture: no token, no cookie, wherever they turn up.
    variant = variant_from_events(
        run.events, variant_id="whoami", label="Who am I", redactor=Redactor(session.secrets)
    )
    text = dump_fixture(variant)
    assert TOKEN not in text and "c00k1e" not in text
    assert json.loads(variant["result"]["content"]) == {
        "authorization": REDACTED,
        "x-team": "tools",
        "cookie": REDACTED,
    }


async def test_without_the_token_the_server_says_401(origin: str, tmp_path: Path) -> None:
    config = write_config(tmp_path / "mcp.json", {"url": f"{origin}/mcp"})
    session = build_session(LiveOptions(config_files=[config], include_bundled=False))
    await session.manager.start()
    try:
        [source] = session.manager.sources
        assert source.status.state is SourceState.FAILED
        assert source.status.detail == f"HTTP 401 Unauthorized from {origin}/mcp"
    finally:
        await session.manager.stop()


def test_a_variable_that_is_not_set_is_a_problem_at_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NOT_SET_ANYWHERE", raising=False)
    config = write_config(
        tmp_path / "mcp.json",
        {
            "url": "https://example.invalid/mcp",
            "headers": {"Authorization": "Bearer ${NOT_SET_ANYWHERE}"},
        },
    )
    with pytest.raises(ConfigError) as caught:
        read_mcp_config(config)
    [problem] = caught.value.problems
    assert problem.line == 5 and "NOT_SET_ANYWHERE is not set" in problem.message
    config = write_config(
        tmp_path / "mcp.json",
        {"url": "https://example.invalid/mcp", "bearerTokenEnv": "NOT_SET_ANYWHERE"},
    )
    with pytest.raises(ConfigError, match="NOT_SET_ANYWHERE is not set"):
        read_mcp_config(config)


def test_the_header_option_takes_the_token_from_the_environment(
    origin: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MCP_TOKEN", TOKEN)
    runner = CliRunner()
    result = runner.invoke(
        main,
        [
            "call",
            "header-echo.whoami",
            "--mcp",
            f"{origin}/mcp",
            "--header",
            "Authorization: Bearer ${MCP_TOKEN}",
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["authorization"] == f"Bearer {TOKEN}"
    refused = runner.invoke(main, ["call", "header-echo.whoami", "--mcp", f"{origin}/mcp"])
    assert refused.exit_code == 2 and "HTTP 401 Unauthorized" in refused.stderr
    bad = runner.invoke(
        main, ["call", "x.y", "--mcp", f"{origin}/mcp", "--header", "no colon here"]
    )
    assert bad.exit_code == 2 and "expected 'Name: value'" in bad.stderr


def test_the_redactor_finds_credentials_in_text_and_data() -> None:
    redactor = Redactor([f"Bearer {TOKEN}"])
    data = {
        "headers": {"Authorization": "Bearer anything", "Set-Cookie": "a=b", "Accept": "*/*"},
        "log": f"sent token {TOKEN}\nCookie: {COOKIE}\nnext line",
        "list": [f"Authorization: Bearer {TOKEN}", "a bearer token in prose stays"],
    }
    cleaned = redactor.data(data)
    assert cleaned["headers"] == {
        "Authorization": REDACTED,
        "Set-Cookie": REDACTED,
        "Accept": "*/*",
    }
    assert cleaned["log"] == f"sent token {REDACTED}\nCookie: {REDACTED}\nnext line"
    assert cleaned["list"] == [f"Authorization: {REDACTED}", "a bearer token in prose stays"]
    assert TOKEN not in json.dumps(cleaned)
