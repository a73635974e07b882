"""OAuth for streamable-HTTP MCP servers, on the ``mcp`` SDK's own providers.

The SDK does the protocol (discovery of the protected resource and authorization server
metadata, dynamic client registration or a client ID metadata document, PKCE, scope
step-up on 403, refresh); this module gives it what a terminal program needs around that:

- :class:`FileTokenStorage`: tokens and the registered client in one file per server,
  readable by the user only (a folder of mode 0700, files of mode 0600), never printed.
- :class:`LoopbackCallback`: the redirect target of the authorization-code flow, a one-shot
  HTTP listener on 127.0.0.1 (RFC 8252), bound before the client registers so its port is in
  the redirect URI.
- :func:`auth_for`: the SDK provider for a server's :class:`OAuthSettings`: authorization code
  with PKCE (the sign-in URL is printed, and opened in a browser when asked), or client
  credentials with a client secret or a private-key JWT.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import socket
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import parse_qs, urlsplit

if TYPE_CHECKING:
    import httpx2
    from mcp.shared.auth import (
        AuthorizationCodeResult,
        OAuthClientInformationFull,
        OAuthToken,
    )

SIGN_IN_TIMEOUT_S = 300.0
"""How long the authorization-code flow waits for the browser to come back."""
MAX_REQUEST_HEAD = 8192
CLIENT_NAME = "Workbench"
Grant = Literal["authorization_code", "client_credentials"]
AuthMethod = Literal["client_secret_basic", "client_secret_post", "none", "private_key_jwt"]


@dataclass(frozen=True)
class OAuthSettings:
    """How Workbench signs in to one server (``--oauth``, or ``"oauth"`` in mcp.json)."""

    grant: Grant = "authorization_code"
    client_id: str | None = None
    """A client registered beforehand; without it the client registers itself (or uses
    ``client_metadata_url`` where the server supports client ID metadata documents)."""
    client_secret: str | None = None
    token_endpoint_auth_method: AuthMethod | None = None
    private_key: str | None = None
    """A PEM private key: client credentials signed as a JWT (``private_key_jwt``)."""
    signing_algorithm: str = "ES256"
    scope: str | None = None
    issuer: str | None = None
    """The authorization server the client credentials belong to (checked when given)."""
    client_metadata_url: str | None = None
    redirect_port: int = 0
    """The loopback port of the redirect URI (0: any free port)."""
    open_browser: bool = False
    token_dir: Path | None = None

    @property
    def interactive(self) -> bool:
        """Whether a person has to sign in (the handshake then waits for them)."""
        return self.grant == "authorization_code"


def token_dir() -> Path:
    """Where tokens are kept: ``$XDG_STATE_HOME/workbench/oauth`` (``~/.local/state/...``)."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "workbench" / "oauth"


class FileTokenStorage:
    """The SDK's ``TokenStorage``: one JSON file per server URL, mode 0600, in a 0700 folder."""

    def __init__(self, server_url: str, folder: Path | None = None) -> None:
        self.server_url = server_url
        self.folder = folder or token_dir()
        name = hashlib.sha256(server_url.encode("utf-8")).hexdigest()[:24]
        self.path = self.folder / f"{name}.json"

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) and data.get("server") == self.server_url else {}

    def _write(self, data: dict[str, Any]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        with contextlib.suppress(OSError):
            os.chmod(self.folder, 0o700)
        # mkstemp creates the file 0600: the token never exists readable by anyone else.
        handle, temporary = tempfile.mkstemp(prefix=".token.", dir=self.folder)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                json.dump({**data, "server": self.server_url}, stream)
            os.replace(temporary, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise

    def secrets(self) -> list[str]:
        """The access and refresh tokens and the client secret kept here."""
        data = self._read()
        tokens = data.get("tokens")
        client = data.get("client")
        found: list[Any] = []
        if isinstance(tokens, dict):
            found += [tokens.get("access_token"), tokens.get("refresh_token")]
        if isinstance(client, dict):
            found.append(client.get("client_secret"))
        return [value for value in found if isinstance(value, str) and value]

    async def get_tokens(self) -> OAuthToken | None:
        from mcp.shared.auth import OAuthToken

        raw = self._read().get("tokens")
        return OAuthToken.model_validate(raw) if isinstance(raw, dict) else None

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self._write({**self._read(), "tokens": tokens.model_dump(mode="json", exclude_none=True)})

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        from mcp.shared.auth import OAuthClientInformationFull

        raw = self._read().get("client")
        return OAuthClientInformationFull.model_validate(raw) if isinstance(raw, dict) else None

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        client = client_info.model_dump(mode="json", exclude_none=True)
        self._write({**self._read(), "client": client})


class LoopbackCallback:
    """A one-shot listener on 127.0.0.1 for the authorization server's redirect."""

    def __init__(self, port: int = 0) -> None:
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind(("127.0.0.1", port))
        self._socket.listen(8)
        self._socket.setblocking(False)
        self.port: int = self._socket.getsockname()[1]
        self.redirect_uri = f"http://127.0.0.1:{self.port}/callback"

    async def wait(self, timeout_s: float = SIGN_IN_TIMEOUT_S) -> AuthorizationCodeResult:
        """The code and state the browser brings back (``OAuthFlowError`` on a refusal)."""
        from mcp.client.auth.exceptions import OAuthFlowError
        from mcp.shared.auth import AuthorizationCodeResult

        arrived: asyncio.Future[dict[str, list[str]]] = asyncio.get_running_loop().create_future()

        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
                writer.close()
                return
            request_line = head[:MAX_REQUEST_HEAD].split(b"\r\n", 1)[0].decode("latin-1")
            parts = request_line.split(" ")
            target = urlsplit(parts[1]) if len(parts) >= 2 else urlsplit("/")
            found = target.path == "/callback"
            status = "200 OK" if found else "404 Not Found"
            body = (
                b"<!doctype html><title>Workbench</title><p>Signed in: you can close this tab."
                if found
                else b"not found"
            )
            writer.write(
                f"HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
                + body
            )
            with contextlib.suppress(OSError):
                await writer.drain()
            writer.close()
            if found and not arrived.done():
                arrived.set_result(parse_qs(target.query))

        server = await asyncio.start_server(serve, sock=self._socket)
        try:
            query = await asyncio.wait_for(arrived, timeout_s)
        except TimeoutError:
            raise OAuthFlowError(
                f"no sign-in came back within {timeout_s:.0f} s (the browser never reached "
                f"{self.redirect_uri})"
            ) from None
        finally:
            server.close()
        if "error" in query:
            described = (query.get("error_description") or [""])[0]
            raise OAuthFlowError(f"the sign-in was refused: {query['error'][0]} {described}")
        if "code" not in query:
            raise OAuthFlowError("the sign-in came back without a code")
        state = query["state"][0] if query.get("state") else None
        issuer = query["iss"][0] if query.get("iss") else None
        return AuthorizationCodeResult(code=query["code"][0], state=state, iss=issuer)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._socket.close()


def auth_for(
    server_url: str, settings: OAuthSettings, *, on_sign_in: Callable[[str], None]
) -> tuple[httpx2.Auth, Callable[[], None]]:
    """The SDK's OAuth provider for ``settings``, and what to call when the source stops.

    ``on_sign_in(url)`` is told the authorization URL a person must open (the provider opens
    it in a browser too when ``open_browser`` is set).
    """
    from mcp.client.auth import OAuthClientProvider
    from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata
    from pydantic import AnyUrl

    storage = FileTokenStorage(server_url, settings.token_dir)
    if settings.grant == "client_credentials":
        return _client_credentials(server_url, settings, storage), lambda: None
    callback = LoopbackCallback(settings.redirect_port)

    async def redirect(url: str) -> None:
        on_sign_in(url)
        if settings.open_browser:
            import webbrowser

            await asyncio.to_thread(webbrowser.open, url)

    method = settings.token_endpoint_auth_method or (
        "client_secret_basic" if settings.client_secret else "none"
    )
    metadata = OAuthClientMetadata(
        client_name=CLIENT_NAME,
        redirect_uris=[AnyUrl(callback.redirect_uri)],
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method=method,
        scope=settings.scope,
    )
    provider = OAuthClientProvider(
        server_url,
        metadata,
        storage,
        redirect_handler=redirect,
        callback_handler=callback.wait,
        client_metadata_url=settings.client_metadata_url,
    )
    if settings.client_id:
        # A client registered beforehand: no dynamic registration.
        fixed = OAuthClientInformationFull(
            client_id=settings.client_id,
            client_secret=settings.client_secret,
            redirect_uris=[AnyUrl(callback.redirect_uri)],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method=method,
            scope=settings.scope,
        )
        _store_client(storage, fixed)
    return provider, callback.close


def _store_client(storage: FileTokenStorage, client: OAuthClientInformationFull) -> None:
    data = storage._read()
    data["client"] = client.model_dump(mode="json", exclude_none=True)
    storage._write(data)


def _client_credentials(
    server_url: str, settings: OAuthSettings, storage: FileTokenStorage
) -> httpx2.Auth:
    from mcp.client.auth.extensions.client_credentials import (
        ClientCredentialsOAuthProvider,
        PrivateKeyJWTOAuthProvider,
        SignedJWTParameters,
    )

    if not settings.client_id:
        raise ValueError('client credentials need a client id ("clientId")')
    if settings.private_key:
        jwt = SignedJWTParameters(
            issuer=settings.client_id,
            subject=settings.client_id,
            signing_key=settings.private_key,
            signing_algorithm=settings.signing_algorithm,
        )
        return PrivateKeyJWTOAuthProvider(
            server_url,
            storage,
            client_id=settings.client_id,
            assertion_provider=jwt.create_assertion_provider(),
            scope=settings.scope,
            issuer=settings.issuer,
        )
    if not settings.client_secret:
        raise ValueError('client credentials need a secret ("clientSecretEnv") or a private key')
    method = settings.token_endpoint_auth_method
    return ClientCredentialsOAuthProvider(
        server_url,
        storage,
        client_id=settings.client_id,
        client_secret=settings.client_secret,
        token_endpoint_auth_method=(
            "client_secret_post" if method == "client_secret_post" else "client_secret_basic"
        ),
        scope=settings.scope,
        issuer=settings.issuer,
    )
