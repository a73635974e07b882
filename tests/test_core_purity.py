"""The pure core imports no Textual (checked in a fresh interpreter)."""

from __future__ import annotations

import subprocess
import sys

CORE_MODULES = [
    "workbench.core.manifest",
    "workbench.core.reducer",
    "workbench.core.sanitize",
    "workbench.core.runtime",
    "workbench.fixtures.catalog",
    "workbench.fixtures.replay",
    "workbench.project",
    "workbench.surfaces.card",
    "workbench.tools",
    "workbench.cli.check",
    "workbench.core.form_spec",
    "workbench.policy.engine",
    "workbench.sources.call_runner",
    "workbench.sources.manager",
    "workbench.sources.mcp_source",
    "workbench.sources.http_source",
    "workbench.sources.session",
    "workbench.sources.headless",
    "workbench.sources.demo_server",
    "workbench.net.ssrf",
    "workbench.fixtures.coverage",
    "workbench.fixtures.recorder",
]


def test_core_imports_no_textual() -> None:
    code = (
        "import sys\n"
        f"for name in {CORE_MODULES!r}:\n"
        "    __import__(name)\n"
        "from workbench.tools import bundled_packages\n"
        "bundled_packages()\n"
        "leaked = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print(','.join(leaked))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "", f"textual imported by the core: {result.stdout}"
