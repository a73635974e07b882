"""HTTP tools: an API with a ``url`` is POSTed its args as JSON, through the SSRF guard.

The endpoint may answer with the result contract itself (``{success, content, state,
error}``), which is used as is, or with any JSON (kept as ``state``) or text (``content``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import httpx

from workbench.core.limits import LimitExceeded, format_size
from workbench.core.manifest import ToolManifest
from workbench.core.result import ErrorType, ToolError, ToolResult, failure, to_result
from workbench.core.runtime import CallContext
from workbench.net.ssrf import (
    DEFAULT_MAX_BYTES,
    RequestRefused,
    read_capped,
    safe_client,
)
from workbench.sources.base import SourceState, SourceStatus, ToolSource
from workbench.sources.mcp_results import MAX_CONTENT_CHARS

BODY_TAIL = 2_000


def _for_model(text: str) -> str:
    """At most :data:`MAX_CONTENT_CHARS` of ``text``, saying how much there was."""
    if len(text) <= MAX_CONTENT_CHARS:
        return text
    return (
        text[:MAX_CONTENT_CHARS]
        + f"\n[truncated: showing {MAX_CONTENT_CHARS:,} of {len(text):,} characters]"
    )


class HttpToolSource(ToolSource):
    """Tools whose APIs each name an HTTP endpoint."""

    kind = "http"

    def __init__(
        self,
        name: str,
        manifests: Sequence[ToolManifest],
        *,
        allow: Sequence[str] = (),
        headers: dict[str, str] | None = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        super().__init__(name)
        self.manifests = [
            manifest for manifest in manifests if any(api.url for api in manifest.api)
        ]
        self.allow = list(allow)
        self.headers = headers or {}
        self.max_bytes = max_bytes
        self._client = client
        self._owns_client = client is None

    async def start(self) -> None:
        if self._client is None:
            self._client = safe_client(allow=self.allow, headers=self.headers)
        count = sum(1 for manifest in self.manifests for api in manifest.api if api.url)
        self.status = SourceStatus(SourceState.READY, f"{count} HTTP endpoints")

    async def stop(self) -> None:
        if self._client is not None and self._owns_client:
            await self._client.aclose()
            self._client = None
        self.status = SourceStatus(SourceState.STOPPED)

    def list_tools(self) -> list[ToolManifest]:
        if self.status.state is not SourceState.READY:
            return []
        return [
            manifest.model_copy(
                update={"api": [api for api in manifest.api if api.url], "type": "http"}
            )
            for manifest in self.manifests
        ]

    async def invoke(
        self, tool: str, api: str, args: dict[str, Any], ctx: CallContext
    ) -> ToolResult:
        manifest = next((item for item in self.manifests if item.identifier == tool), None)
        endpoint = manifest.get_api(api) if manifest is not None else None
        if endpoint is None or not endpoint.url or self._client is None:
            return failure(ErrorType.API_NOT_FOUND, f"{self.name} has no HTTP API {tool}.{api}")
        url = endpoint.url
        try:
            # No deadline from the caller: the client's own timeout, never none at all.
            timeout = ctx.timeout_s if ctx.timeout_s is not None else httpx.USE_CLIENT_DEFAULT
            # No redirects: a 307/308 would re-send the arguments to wherever it points.
            async with self._client.stream(
                "POST", url, json=args, timeout=timeout, follow_redirects=False
            ) as response:
                body, truncated = await read_capped(response, self.max_bytes)
                status = response.status_code
                content_type = response.headers.get("content-type", "")
                location = response.headers.get("location", "")
        except RequestRefused as error:
            return failure(ErrorType.REQUEST_REFUSED, str(error), body={"url": url})
        except httpx.TimeoutException:
            return failure(ErrorType.TIMEOUT, f"{url} did not answer in time", body={"url": url})
        except httpx.HTTPError as error:
            return failure(ErrorType.HTTP_ERROR, f"cannot reach {url}: {error}", body={"url": url})
        text = body.decode("utf-8", errors="replace")
        if truncated and 200 <= status < 300:
            # A cut answer is not the answer: the model reads what arrived and why it stops.
            cut = LimitExceeded("max_body_bytes", self.max_bytes, what=f"the answer of {url}")
            return to_result(
                success=False,
                content=f"{_for_model(text)}\n[{cut}]",
                error=ToolError(
                    type=ErrorType.LIMIT_EXCEEDED, message=str(cut), body=cut.to_body()
                ),
            )
        note = f"\n[response cut at {format_size(self.max_bytes)}]" if truncated else ""
        if 300 <= status < 400:
            return to_result(
                success=False,
                content=f"{url} redirected (HTTP {status}) to {location or 'nowhere'}; the "
                "arguments were not re-sent there",
                error=ToolError(
                    type=ErrorType.HTTP_ERROR,
                    message=f"HTTP {status} redirect from {url}",
                    body={"status": status, "location": location},
                ),
            )
        if status >= 400:
            return to_result(
                success=False,
                content=f"{url} answered HTTP {status}{note}",
                error=ToolError(
                    type=ErrorType.HTTP_ERROR,
                    message=f"HTTP {status} from {url}",
                    body={"status": status, "body": text[-BODY_TAIL:]},
                ),
            )
        data: Any = None
        if "json" in content_type or text.lstrip()[:1] in ("{", "["):
            try:
                data = json.loads(text)
            except json.JSONDecodeError:
                data = None
        if (
            isinstance(data, dict)
            and isinstance(data.get("success"), bool)
            and ("content" in data or "error" in data)
        ):
            reported = data.get("error")
            return to_result(
                success=data["success"],
                content=(_for_model(str(data.get("content") or "")) + note) or None,
                state=data.get("state"),
                error=reported if isinstance(reported, (dict, str)) else None,
            )
        if data is not None:
            return to_result(
                success=True,
                content=_for_model(json.dumps(data, ensure_ascii=False)) + note,
                state=data,
            )
        return to_result(
            success=True,
            content=(_for_model(text) + note)
            if text
            else f"{url} answered {status} with an empty body",
        )
