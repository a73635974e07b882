"""mcp.json: the ``mcpServers`` mapping other MCP clients use, parsed by pydantic models.

```json
{"mcpServers": {
  "files": {"command": "npx", "args": ["-y", "server"], "env": {"TOKEN": "x"}, "cwd": "/srv",
            "inheritEnv": false, "tools": ["read"], "policies": {"read": "never"}},
  "remote": {"url": "https://host/mcp", "headers": {"X-Team": "${TEAM_ID}"},
             "bearerTokenEnv": "REMOTE_MCP_TOKEN"}
}}
```

Header values may name environment variables as ``${NAME}`` (or ``${env:NAME}``), so a token
stays out of the file; ``bearerTokenEnv`` sends ``Authorization: Bearer $NAME``. A variable
that is not set is a problem at its line, not an empty header.

Keys other clients add (``type``, ``disabled``, ...) are ignored, so one file serves them all.
A mistake is a :class:`~workbench.config.ConfigError` whose problems read
``mcp.json:LINE: mcpServers.NAME.KEY: message``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from workbench.config import ConfigError, read_config_text
from workbench.core.limits import Limits, LimitsError
from workbench.core.problems import Problem, problems_from_validation
from workbench.core.source_map import SourceError, SourceMap, load_with_lines
from workbench.sources.mcp_source import SERVER_NAME, McpServerSpec
from workbench.sources.oauth import OAuthSettings


def _scalar_text(value: object) -> object:
    # Other clients accept numbers and booleans where a string is meant ("args": ["-p", 8080]).
    if isinstance(value, (int, float, bool)):
        return str(value)
    return value


def _server_name(name: str) -> str:
    if not SERVER_NAME.match(name):
        raise ValueError(
            "a server's key must be letters, digits, '_', '.' or '-' "
            "(it becomes the tool's name in TOOL.API)"
        )
    return name


_ENV_REFERENCE = re.compile(r"\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}")
_HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")


def expand_env(
    value: str, *, where: str = "value", environ: Mapping[str, str] | None = None
) -> str:
    """``value`` with each ``${NAME}`` (or ``${env:NAME}``) replaced from the environment."""
    env = os.environ if environ is None else environ

    def substitute(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in env:
            raise ValueError(f"{where}: the environment variable {name} is not set")
        return env[name]

    expanded = _ENV_REFERENCE.sub(substitute, value)
    if any(character in expanded for character in "\r\n\x00"):
        raise ValueError(f"{where}: a header value may not contain line breaks")
    return expanded


def parse_header(text: str) -> tuple[str, str]:
    """``'Name: value'`` -> ``("Name", "value")``; a clear error otherwise."""
    name, colon, value = text.partition(":")
    name = name.strip()
    if not colon or not _HEADER_NAME.match(name):
        raise ValueError(f"--header {text.split(':')[0]!r}: expected 'Name: value'")
    return name, value.strip()


Text = Annotated[str, BeforeValidator(_scalar_text)]
ServerName = Annotated[str, AfterValidator(_server_name)]


def _variable_set(value: str | None) -> str | None:
    """A setting that names an environment variable holding a secret: it must be set."""
    if value is not None and not os.environ.get(value):
        raise ValueError(f"the environment variable {value} is not set (or is empty)")
    return value


class OAuthEntry(BaseModel):
    """``"oauth"`` of one server: how Workbench signs in (see :mod:`workbench.sources.oauth`)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)

    grant: Literal["authorization_code", "client_credentials"] = "authorization_code"
    client_id: str | None = Field(default=None, alias="clientId")
    client_secret_env: str | None = Field(default=None, alias="clientSecretEnv")
    """The environment variable holding the client secret (never the secret itself)."""
    token_endpoint_auth_method: (
        Literal["client_secret_basic", "client_secret_post", "none", "private_key_jwt"] | None
    ) = Field(default=None, alias="tokenEndpointAuthMethod")
    private_key_file: str | None = Field(default=None, alias="privateKeyFile")
    """A PEM private key to sign client credentials with (``private_key_jwt``)."""
    signing_algorithm: str = Field(default="ES256", alias="signingAlgorithm")
    scope: str | None = None
    issuer: str | None = None
    client_metadata_url: str | None = Field(default=None, alias="clientMetadataUrl")
    redirect_port: int = Field(default=0, ge=0, le=65535, alias="redirectPort")
    open_browser: bool = Field(default=False, alias="openBrowser")

    _secret_set = field_validator("client_secret_env")(_variable_set)

    def settings(self, base: Path | None) -> OAuthSettings:
        key = None
        if self.private_key_file:
            path = (base or Path.cwd()) / Path(self.private_key_file).expanduser()
            try:
                key = path.read_text(encoding="utf-8")
            except OSError as error:
                raise ValueError(f"privateKeyFile {path}: {error.strerror or error}") from None
        return OAuthSettings(
            grant=self.grant,
            client_id=self.client_id,
            client_secret=os.environ[self.client_secret_env] if self.client_secret_env else None,
            token_endpoint_auth_method=self.token_endpoint_auth_method,
            private_key=key,
            signing_algorithm=self.signing_algorithm,
            scope=self.scope,
            issuer=self.issuer,
            client_metadata_url=self.client_metadata_url,
            redirect_port=self.redirect_port,
            open_browser=self.open_browser,
        )


class McpServerEntry(BaseModel):
    """One server: a command to run over stdio, or a streamable-HTTP URL."""

    # Built at the first --config file read, not at import (every live command imports this).
    model_config = ConfigDict(extra="ignore", populate_by_name=True, defer_build=True)

    command: str | None = None
    args: list[Text] = Field(default_factory=list)
    env: dict[str, Text] = Field(default_factory=dict)
    cwd: str | None = None
    inherit_env: bool | None = Field(default=None, alias="inheritEnv")
    """``true``: the server gets this process's whole environment; unset: as ``--inherit-env``
    says (default: the SDK's minimum plus ``env``)."""
    roots: list[str] | None = None
    """Folders this server is offered as roots (``roots/list``), instead of ``--root``."""
    url: str | None = None
    headers: dict[str, Text] = Field(default_factory=dict)
    """Sent with every request; ``${NAME}`` in a value is read from the environment."""
    oauth: OAuthEntry | None = None
    """Sign in with OAuth when the server asks (``true``: authorization code in a browser)."""

    @field_validator("oauth", mode="before")
    @classmethod
    def _oauth_flag(cls, value: Any) -> Any:
        # `"oauth": true` is the short form of the defaults; `false` is no sign-in.
        if value is True:
            return {}
        return None if value is False else value

    bearer_token_env: str | None = Field(default=None, alias="bearerTokenEnv")
    """The environment variable holding a bearer token (``Authorization: Bearer ...``)."""
    tools: list[str] | None = None
    """Allow-list of MCP tool names (omitted: all)."""
    policies: dict[str, Literal["never", "required", "always"]] = Field(default_factory=dict)
    limits: dict[str, Any] = Field(default_factory=dict)
    """This server's own size caps, over ``[tool.workbench.limits]``."""
    protocol: Literal["auto", "legacy", "2026-07-28"] = "auto"
    """How to connect: ``auto`` probes for the 2026-07-28 protocol and falls back to the
    ``initialize`` handshake; ``legacy`` uses the handshake at once (for servers that ask
    the client things only that way)."""

    @model_validator(mode="after")
    def _reachable(self) -> McpServerEntry:
        if not self.url and not self.command:
            raise ValueError("needs a command or a url")
        return self

    @field_validator("headers")
    @classmethod
    def _expand_headers(cls, value: dict[str, str]) -> dict[str, str]:
        expanded = {}
        for name, text in value.items():
            if not _HEADER_NAME.match(name):
                raise ValueError(f"{name!r} is not a valid header name")
            expanded[name] = expand_env(text, where=f"header {name}")
        return expanded

    _token_set = field_validator("bearer_token_env")(_variable_set)

    @field_validator("limits")
    @classmethod
    def _known_limits(cls, value: dict[str, Any]) -> dict[str, Any]:
        try:
            Limits().overridden(value, where="limits")
        except LimitsError as error:
            raise ValueError(str(error)) from None
        return value

    def to_spec(self, name: str, base: Path | None = None) -> McpServerSpec:
        """The spec of server ``name``; relative ``roots`` are read from ``base`` (the file's
        folder)."""
        policies: dict[str, str] = dict(self.policies)

        def folder(root: str) -> Path:
            return ((base or Path.cwd()) / Path(root).expanduser()).resolve()

        if self.url:
            headers = dict(self.headers)
            if self.bearer_token_env:
                headers["Authorization"] = f"Bearer {os.environ[self.bearer_token_env]}"
            oauth = self.oauth
            return McpServerSpec(
                name=name,
                url=self.url,
                headers=headers,
                oauth=oauth.settings(base) if oauth is not None else None,
                tools=self.tools,
                policies=policies,
                limits=dict(self.limits),
                mode=self.protocol,
            )
        return McpServerSpec(
            name=name,
            command=self.command,
            args=list(self.args),
            env=dict(self.env),
            cwd=self.cwd,
            inherit_env=self.inherit_env,
            roots=[
                ((base or Path.cwd()) / Path(root).expanduser()).resolve() for root in self.roots
            ]
            if self.roots is not None
            else None,
            tools=self.tools,
            policies=policies,
            limits=dict(self.limits),
            mode=self.protocol,
        )


class McpConfigFile(BaseModel):
    """The file: an object whose ``mcpServers`` maps server names to entries."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    servers: dict[ServerName, McpServerEntry] = Field(alias="mcpServers")

    @model_validator(mode="before")
    @classmethod
    def _has_servers(cls, data: Any) -> Any:
        if not isinstance(data, dict) or "mcpServers" not in data:
            raise ValueError("expected an object with an mcpServers mapping")
        return data


# JSON spells a character beyond the BMP as a surrogate pair (\uD83D\uDE00) and YAML refuses
# surrogates; \U0001F600 means the same to both, and a lone surrogate becomes \uFFFD.
_ESCAPED = r"(?<!\\)((?:\\\\)*)"  # an even run of backslashes: the next one escapes
_PAIR = re.compile(_ESCAPED + r"\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})")
_LONE = re.compile(_ESCAPED + r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _astral(match: re.Match[str]) -> str:
    high, low = int(match.group(2), 16) - 0xD800, int(match.group(3), 16) - 0xDC00
    return f"{match.group(1)}\\U{0x10000 + (high << 10) + low:08x}"


def _yaml_safe(text: str) -> str:
    return _LONE.sub(r"\1\\ufffd", _PAIR.sub(_astral, text))


def _json_lines(text: str) -> SourceMap:
    """Lines of every key (JSON is YAML as far as positions go); none if that reading fails."""
    try:
        return load_with_lines(_yaml_safe(text)).source
    except SourceError:
        return SourceMap()


def read_mcp_config(path: Path) -> list[McpServerSpec]:
    """The servers of an mcp.json; raises :class:`ConfigError` naming file, line and key."""
    file = str(path)
    text = read_config_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        problem = Problem(
            file=file, line=error.lineno, message=f"not valid JSON: {error.msg}", code="syntax"
        )
        raise ConfigError([problem]) from None
    try:
        config = McpConfigFile.model_validate(data)
    except ValidationError as error:
        raise ConfigError(problems_from_validation(error, file, _json_lines(text))) from None
    specs = []
    for name, entry in config.servers.items():
        try:
            specs.append(entry.to_spec(name, path.parent))
        except ValueError as error:
            line = _json_lines(text).line_for(("mcpServers", name, "oauth"))
            field = f"mcpServers.{name}.oauth"
            problem = Problem(file=file, line=line, field=field, message=str(error))
            raise ConfigError([problem]) from None
    return specs
