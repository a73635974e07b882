"""OAuth around the SDK's providers: tokens kept readable by the user only, the loopback
callback, and mcp.json's "oauth" entries with located mistakes."""

from __future__ import annotations

import asyncio
import json
import stat
import urllib.request
from pathlib import Path

import pytest
from mcp.client.auth.exceptions import OAuthFlowError
from mcp.shared.auth import OAuthToken

from workbench.config import ConfigError
from workbench.sources.mcp_config import read_mcp_config
from workbench.sources.oauth import FileTokenStorage, LoopbackCallback, OAuthSettings, auth_for


async def test_tokens_are_kept_in_a_file_only_the_user_can_read(tmp_path: Path) -> None:
    storage = FileTokenStorage("https://mcp.example/mcp", tmp_path / "oauth")
    await storage.set_tokens(OAuthToken(access_token="at-secret", refresh_token="rt-secret"))
    assert stat.S_IMODE(storage.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(storage.folder.stat().st_mode) == 0o700
    again = await FileTokenStorage("https://mcp.example/mcp", tmp_path / "oauth").get_tokens()
    assert again is not None and again.access_token == "at-secret"
    assert set(storage.secrets()) == {"at-secret", "rt-secret"}
    other = FileTokenStorage("https://other.example/mcp", tmp_path / "oauth")
    assert await other.get_tokens() is None and other.path != storage.path
    assert [path.name for path in storage.folder.iterdir()] == [storage.path.name]


async def test_a_damaged_token_file_is_a_fresh_start(tmp_path: Path) -> None:
    storage = FileTokenStorage("https://mcp.example/mcp", tmp_path)
    storage.path.write_text("{not json")
    assert await storage.get_tokens() is None and storage.secrets() == []


def _visit(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as answer:
        return str(answer.read().decode())


async def test_the_loopback_callback_brings_back_the_code_and_state() -> None:
    callback = LoopbackCallback()
    assert callback.redirect_uri.startswith("http://127.0.0.1:")
    waiting = asyncio.create_task(callback.wait(5))
    await asyncio.sleep(0.05)
    page = await asyncio.to_thread(_visit, f"{callback.redirect_uri}?code=abc&state=xyz")
    result = await waiting
    assert (result.code, result.state) == ("abc", "xyz")
    assert "you can close this tab" in page
    callback.close()


async def test_a_refused_sign_in_and_a_browser_that_never_comes_back_fail_clearly() -> None:
    refused = LoopbackCallback()
    waiting = asyncio.create_task(refused.wait(5))
    await asyncio.sleep(0.05)
    await asyncio.to_thread(_visit, f"{refused.redirect_uri}?error=access_denied")
    with pytest.raises(OAuthFlowError, match="the sign-in was refused: access_denied"):
        await waiting
    silent = LoopbackCallback()
    with pytest.raises(OAuthFlowError, match="no sign-in came back within 0 s"):
        await silent.wait(0.2)


def test_the_authorization_code_provider_registers_its_loopback_redirect(tmp_path: Path) -> None:
    told: list[str] = []
    provider, close = auth_for(
        "https://mcp.example/mcp", OAuthSettings(token_dir=tmp_path), on_sign_in=told.append
    )
    metadata = provider.context.client_metadata  # type: ignore[attr-defined]
    [redirect] = metadata.redirect_uris
    assert str(redirect).startswith("http://127.0.0.1:") and str(redirect).endswith("/callback")
    assert metadata.token_endpoint_auth_method == "none"
    close()


def test_client_credentials_need_a_secret_or_a_key(tmp_path: Path) -> None:
    settings = OAuthSettings(grant="client_credentials", client_id="c", token_dir=tmp_path)
    with pytest.raises(ValueError, match="need a secret"):
        auth_for("https://mcp.example/mcp", settings, on_sign_in=print)


def test_mcp_json_oauth_entries_and_their_mistakes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_SECRET", "s3cret-value")
    path = tmp_path / "mcp.json"
    path.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "a": {"url": "https://a.example/mcp", "oauth": True},
                    "b": {
                        "url": "https://b.example/mcp",
                        "oauth": {
                            "grant": "client_credentials",
                            "clientId": "svc",
                            "clientSecretEnv": "MY_SECRET",
                        },
                    },
                }
            }
        )
    )
    a, b = read_mcp_config(path)
    assert a.oauth == OAuthSettings()
    assert b.oauth is not None and b.oauth.client_secret == "s3cret-value"
    path.write_text(
        '{"mcpServers": {\n  "c": {"url": "https://c.example/mcp",\n'
        '        "oauth": {"clientSecretEnv": "NOT_SET_ANYWHERE"}}}}'
    )
    with pytest.raises(ConfigError) as raised:
        read_mcp_config(path)
    [problem] = raised.value.problems
    assert problem.line == 3 and "NOT_SET_ANYWHERE is not set" in problem.message
    path.write_text(
        '{"mcpServers": {"d": {"url": "https://d.example/mcp",\n'
        ' "oauth": {"privateKeyFile": "missing.pem", "clientId": "x"}}}}'
    )
    with pytest.raises(ConfigError, match=r"privateKeyFile .*missing\.pem"):
        read_mcp_config(path)
