"""Real reference MCP servers over stdio: mcp-server-time (PyPI) and server-everything (npm),
rendered by the generic card."""

from __future__ import annotations

import asyncio
import fcntl
import json
import re
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from datetime import datetime
from pathlib import Path

import pytest
import pytest_asyncio

from tests.sources.helpers import render_card, run_call
from workbench.core import events as ev
from workbench.sources.base import SourceState
from workbench.sources.mcp_source import McpServerSpec, McpSource

EVERYTHING_PACKAGE = "@modelcontextprotocol/server-everything"
EVERYTHING_VERSION = "2026.8.31"
CACHE = Path.home() / ".cache" / "workbench-tests"
BOUND_S = 30.0

# One event loop for the module, so each server process serves all of its tests.
pytestmark = pytest.mark.asyncio(loop_scope="module")


async def started(spec: McpServerSpec) -> McpSource:
    source = McpSource(spec, handshake_timeout_s=20)
    await asyncio.wait_for(source.start(), timeout=BOUND_S)
    assert source.status.state is SourceState.READY, source.status
    return source


# --- mcp-server-time (a test dependency from PyPI) -----------------------------------------------


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def time_server() -> AsyncIterator[McpSource]:
    source = await started(
        McpServerSpec(
            name="time",
            command=sys.executable,
            args=["-m", "mcp_server_time", "--local-timezone", "UTC"],
        )
    )
    yield source
    await asyncio.wait_for(source.stop(), timeout=BOUND_S)


async def test_time_server_lists_its_tools(time_server: McpSource) -> None:
    assert time_server.server_name == "mcp-time"
    [manifest] = time_server.list_tools()
    assert manifest.identifier == "time"
    assert manifest.api_names() == ["get_current_time", "convert_time"]
    current = manifest.get_api("get_current_time")
    assert current is not None and current.parameters["required"] == ["timezone"]
    convert = manifest.get_api("convert_time")
    assert convert is not None and set(convert.parameters["required"]) == {
        "source_timezone",
        "time",
        "target_timezone",
    }


async def test_get_current_time_is_a_successful_result_rendered_by_the_generic_card(
    time_server: McpSource,
) -> None:
    run = await asyncio.wait_for(
        run_call(time_server, "time", "get_current_time", {"timezone": "UTC"}), timeout=BOUND_S
    )
    assert isinstance(run.terminal, ev.Completed)
    result = run.result
    assert result.success is True and result.error is None
    assert result.state["timezone"] == "UTC"
    moment = datetime.fromisoformat(result.state["datetime"])
    assert moment.utcoffset() is not None and moment.utcoffset().total_seconds() == 0  # type: ignore[union-attr]
    assert json.loads(result.content)["datetime"] == result.state["datetime"]
    text = render_card(run.state(), time_server.list_tools()[0])
    assert "get_current_time" in text and "UTC" in text and result.state["day_of_week"] in text
    assert "done" in text


async def test_convert_time_is_a_successful_result(time_server: McpSource) -> None:
    run = await asyncio.wait_for(
        run_call(
            time_server,
            "time",
            "convert_time",
            {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"},
        ),
        timeout=BOUND_S,
    )
    result = run.result
    assert result.success is True
    assert result.state["time_difference"] == "+9.0h"
    assert datetime.fromisoformat(result.state["source"]["datetime"]).hour == 12
    target = datetime.fromisoformat(result.state["target"]["datetime"])
    assert (target.hour, target.utcoffset().total_seconds()) == (21, 9 * 3600)  # type: ignore[union-attr]
    text = render_card(run.state(), time_server.list_tools()[0])
    assert "Asia/Tokyo" in text and "+9.0h" in text


async def test_a_bad_timezone_is_an_mcp_tool_error(time_server: McpSource) -> None:
    run = await asyncio.wait_for(
        run_call(time_server, "time", "get_current_time", {"timezone": "Mars/Olympus_Mons"}),
        timeout=BOUND_S,
    )
    assert run.result.success is False
    assert run.result.error is not None and run.result.error.type == "McpToolError"
    assert "Mars/Olympus_Mons" in run.result.error.message
    assert "the tool reported an error" in render_card(run.state(), time_server.list_tools()[0])


# --- @modelcontextprotocol/server-everything (installed from npm into a cache) -------------------


def install_everything() -> Path:
    """Install the pinned server-everything once into the cache (a file lock guards parallel
    runs)."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail(
            f"npm is not on PATH: these tests install {EVERYTHING_PACKAGE}@{EVERYTHING_VERSION} "
            "with npm; install Node.js and npm (e.g. apt-get install nodejs npm)",
            pytrace=False,
        )
    if shutil.which("node") is None:
        pytest.fail(
            "node is not on PATH: install Node.js to run the server-everything tests", pytrace=False
        )
    prefix = CACHE / f"server-everything-{EVERYTHING_VERSION}"
    entry = prefix / "node_modules" / EVERYTHING_PACKAGE / "dist" / "index.js"
    complete = prefix / ".installed"
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / "server-everything.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not (entry.is_file() and complete.is_file()):
                prefix.mkdir(parents=True, exist_ok=True)
                done = subprocess.run(
                    [
                        npm,
                        "install",
                        "--no-audit",
                        "--no-fund",
                        "--prefix",
                        str(prefix),
                        f"{EVERYTHING_PACKAGE}@{EVERYTHING_VERSION}",
                    ],
                    capture_output=True,
                    text=True,
                    timeout=600,
                    check=False,
                )
                if done.returncode != 0 or not entry.is_file():
                    pytest.fail(
                        f"npm install {EVERYTHING_PACKAGE}@{EVERYTHING_VERSION} failed (exit "
                        f"{done.returncode}):\n{done.stderr[-3000:]}",
                        pytrace=False,
                    )
                complete.write_text(f"{EVERYTHING_PACKAGE}@{EVERYTHING_VERSION}\n")
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return entry


@pytest.fixture(scope="session")
def everything_entry() -> Iterator[Path]:
    yield install_everything()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def everything(everything_entry: Path) -> AsyncIterator[McpSource]:
    node = shutil.which("node")
    assert node is not None
    source = await started(
        McpServerSpec(
            name="", command=node, args=[str(everything_entry), "stdio"], env={"NODE_ENV": "test"}
        )
    )
    yield source
    await asyncio.wait_for(source.stop(), timeout=BOUND_S)


async def test_everything_is_named_after_its_handshake(everything: McpSource) -> None:
    assert everything.server_name == "mcp-servers/everything"
    assert everything.name == "mcp-servers-everything"
    [manifest] = everything.list_tools()
    assert manifest.identifier == "mcp-servers-everything"
    assert {
        "echo",
        "get-sum",
        "get-tiny-image",
        "get-resource-links",
        "get-structured-content",
    } <= set(manifest.api_names())
    get_sum = manifest.get_api("get-sum")
    assert get_sum is not None and set(get_sum.parameters["properties"]) == {"a", "b"}


async def test_everything_echo_and_sum(everything: McpSource) -> None:
    echo = await run_call(everything, everything.name, "echo", {"message": "hello everything"})
    assert echo.result.success is True and echo.result.content == "Echo: hello everything"
    total = await run_call(everything, everything.name, "get-sum", {"a": 2, "b": 40})
    assert total.result.content == "The sum of 2 and 40 is 42."
    assert "The sum of 2 and 40 is 42." in render_card(total.state(), everything.list_tools()[0])


async def test_everything_tiny_image_is_summarised_with_type_and_size(
    everything: McpSource,
) -> None:
    run = await run_call(everything, everything.name, "get-tiny-image", {})
    assert run.result.success is True
    [image] = [block for block in run.result.state["blocks"] if block["type"] == "image"]
    assert image["mimeType"] == "image/png"
    assert (image["width"], image["height"]) == (20, 20)
    assert image["bytes"] > 1000
    assert f"[image: image/png, {image['bytes']:,} bytes, 20x20]" in run.result.content
    text = render_card(run.state(), everything.list_tools()[0])
    assert "image" in text and "image/png" in text
    assert re.search(r"20\s*[×x]\s*20", text), text
    assert "iVBOR" not in text  # Never the base64 itself.


async def test_everything_resource_links_are_listed_with_names_and_uris(
    everything: McpSource,
) -> None:
    run = await run_call(everything, everything.name, "get-resource-links", {"count": 3})
    links = [block for block in run.result.state["blocks"] if block["type"] == "resource_link"]
    assert len(links) == 3
    assert all(link["uri"].startswith("demo://resource/") for link in links)
    assert [link["name"] for link in links] == [
        "Blob Resource 1",
        "Text Resource 2",
        "Blob Resource 3",
    ]
    text = render_card(run.state(), everything.list_tools()[0], width=120)
    for link in links:
        assert link["name"] in text and link["uri"] in text, text


async def test_everything_structured_content_becomes_state(everything: McpSource) -> None:
    run = await run_call(
        everything, everything.name, "get-structured-content", {"location": "New York"}
    )
    assert run.result.success is True
    assert run.result.state == {"temperature": 33, "conditions": "Cloudy", "humidity": 82}
    text = render_card(run.state(), everything.list_tools()[0])
    assert "temperature" in text and "Cloudy" in text


async def test_everything_research_query_runs_as_a_task(everything: McpSource) -> None:
    # taskSupport "required": answered with a task, polled, its result fetched.
    assert "simulate-research-query" in everything.task_tools
    run = await run_call(everything, everything.name, "simulate-research-query", {"topic": "owls"})
    assert run.result.success is True, run.result
    assert run.result.content is not None
    assert run.result.content.startswith("# Research Report: owls")
    assert "Status progressed: `working` → `completed`" in run.result.content
    statuses = [event.message for event in run.events if isinstance(event, ev.Progress)]
    assert any((message or "").startswith("task working") for message in statuses)


async def test_the_npm_cache_is_reused(everything_entry: Path) -> None:
    assert str(everything_entry).startswith(str(CACHE))
    assert (everything_entry.parents[4] / ".installed").is_file()
    before = everything_entry.stat().st_mtime_ns
    assert install_everything() == everything_entry  # Installed already: npm does not run again.
    assert everything_entry.stat().st_mtime_ns == before
