from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field

import httpx
import pytest

from tests.net.local_server import LocalServer, running_server
from workbench.core.events import OutputStream
from workbench.core.runtime import CallContext
from workbench.net.ssrf import safe_client
from workbench.tools.web_browsing.runtime import WebBrowsingRuntime
from workbench.tools.web_browsing.services import HttpPageFetcher, SearxngSearchService


@dataclass
class Recorder:
    """A CallContext whose output and progress land in lists."""

    output: list[tuple[OutputStream, str]] = field(default_factory=list)
    progress: list[tuple[float | None, float | None, str | None]] = field(default_factory=list)

    def ctx(self) -> CallContext:
        return CallContext(
            emit=lambda text, stream: self.output.append((stream, text)),
            progress=lambda done, total, message: self.progress.append((done, total, message)),
        )

    def text(self, stream: OutputStream) -> str:
        return "".join(text for kind, text in self.output if kind == stream)


@pytest.fixture
def server() -> Iterator[LocalServer]:
    with running_server() as local:
        yield local


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    """The SSRF-safe client with the local test server (127.0.0.1) allow-listed."""
    async with safe_client(allow=["127.0.0.1"], timeout=5) as guarded:
        yield guarded


@pytest.fixture
def online(server: LocalServer, client: httpx.AsyncClient) -> WebBrowsingRuntime:
    """The runtime with its online services pointed at the local server."""
    return WebBrowsingRuntime(SearxngSearchService(server.origin, client), HttpPageFetcher(client))


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()
