"""Web browsing: search and crawl, offline by default (manifest, runtime, surfaces)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from workbench.api import RuntimeServices, ToolPackage
from workbench.tools.web_browsing.manifest import IDENTIFIER, MANIFEST
from workbench.tools.web_browsing.surfaces import SURFACES

if TYPE_CHECKING:
    from workbench.tools.web_browsing.runtime import WebBrowsingRuntime


def create_runtime(services: RuntimeServices) -> WebBrowsingRuntime:
    """Offline corpus by default; ``web.online`` switches to SearXNG and real fetches.

    The runtime (and httpx) is imported here, not at package import: the workbench lists
    tools long before it runs one.
    """
    from workbench.tools.web_browsing.runtime import WebBrowsingRuntime
    from workbench.tools.web_browsing.services import (
        HttpPageFetcher,
        OfflinePageFetcher,
        OfflineSearchService,
        SearxngSearchService,
    )

    online = (
        services.settings.get("web.online", "0") not in ("", "0", "false") or not services.offline
    )
    if not online:
        latency = int(services.settings.get("web.offline_latency_ms", "0") or 0)
        return WebBrowsingRuntime(OfflineSearchService(), OfflinePageFetcher(latency_ms=latency))
    from workbench.api import safe_client  # Imports httpx: online runs only.

    allow = [item for item in services.settings.get("web.allow", "").split(",") if item]
    client = safe_client(allow=allow)
    cap = services.limits.max_body_bytes
    return WebBrowsingRuntime(
        SearxngSearchService(services.settings.get("web.searxng_url"), client, max_bytes=cap),
        HttpPageFetcher(client, max_bytes=cap),
    )


ENVIRONMENT = {
    "WORKBENCH_WEB_ONLINE": "web.online",
    "WORKBENCH_SEARXNG_URL": "web.searxng_url",
    "WORKBENCH_WEB_ALLOW": "web.allow",
}
"""The environment variables this tool reads, and the settings key each becomes."""

PACKAGE = ToolPackage(
    manifest=MANIFEST,
    surfaces=SURFACES,
    create_runtime=create_runtime,
    environment=ENVIRONMENT,
)


def __getattr__(name: str) -> Any:
    if name == "WebBrowsingRuntime":
        from workbench.tools.web_browsing.runtime import WebBrowsingRuntime

        return WebBrowsingRuntime
    raise AttributeError(name)


__all__ = ["IDENTIFIER", "MANIFEST", "PACKAGE", "WebBrowsingRuntime"]
