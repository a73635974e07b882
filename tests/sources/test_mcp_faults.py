"""MCP servers that break the protocol: every fault ends in a clear result, fast, within caps.

A raw stdio server (``servers/faulty.py``) and a raw streamable-HTTP one
(``servers/faulty_http.py``) send invalid UTF-8, nesting past the depth cap, garbage,
broken JSON, answers past the size cap (plain, gzip bombs, endless), floods of notifications
and of stderr, and malformed tools.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from tests.sources.helpers import faulty_spec, serve_asgi
from workbench.core.limits import KIB, MIB, Limits
from workbench.core.result import ErrorType, ToolResult
from workbench.core.runtime import CallContext
from workbench.sources.base import SourceState
from workbench.sources.mcp_source import McpServerSpec, McpSource

pytestmark = pytest.mark.asyncio(loop_scope="module")

BOUND_S = 30.0
"""No call here may take this long: a silent wait for a timeout fails the test."""
FAST_S = BOUND_S / 3
"""A fault ends its call well before any timeout. Not a speed check (``bench/faults.py`` times
faults): generous so that a loaded CI machine cannot fail it, tight enough to catch a wait."""


async def started(spec: McpServerSpec, **options: object) -> McpSource:
    source = McpSource(spec, handshake_timeout_s=15.0, **options)  # type: ignore[arg-type]
    await asyncio.wait_for(source.start(), timeout=BOUND_S)
    assert source.status.state is SourceState.READY, source.status
    return source


async def timed(source: McpSource, api: str, **args: object) -> tuple[ToolResult, float]:
    started_at = time.monotonic()
    result = await asyncio.wait_for(
        source.invoke(source.name, api, dict(args), CallContext()), timeout=BOUND_S
    )
    return result, time.monotonic() - started_at


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def faulty() -> AsyncIterator[McpSource]:
    source = await started(faulty_spec("--bad-tools", "--deep-tools", "100"))
    yield source
    await asyncio.wait_for(source.stop(), timeout=BOUND_S)


# --- tools/list ------------------------------------------------------------------------------


async def test_malformed_tools_are_left_out_as_problems_and_the_valid_ones_work(
    faulty: McpSource,
) -> None:
    assert faulty.manifest is not None
    names = {api.name for api in faulty.manifest.api}
    assert {"echo", "big", "hang"} <= names
    assert not names & {"no_type", "not_an_object", "deep_schema"}
    problems = "\n".join(faulty.problems)
    assert "tool #2 'no_type' left out: inputSchema.type: Field required" in problems
    assert "tool #4 'not_an_object' left out: inputSchema:" in problems
    assert "left out: name: Field required" in problems
    assert "'deep_schema' left out: nested deeper than max_json_depth = 100" in problems
    assert faulty.status.detail == (
        "13 tools over stdio; 4 malformed tool(s) left out (listed as problems)"
    )
    # The SDK re-lists tools when it meets a name it has not validated: that works too.
    result, _ = await timed(faulty, "echo", text="still callable")
    assert result.success and result.content == "still callable"


# --- unusable answers end the call at once ----------------------------------------------------


async def test_invalid_utf8_fails_the_call_at_once(faulty: McpSource) -> None:
    result, seconds = await timed(faulty, "bad_utf8")
    assert seconds < FAST_S
    assert result.error is not None and result.error.type == ErrorType.PROTOCOL_ERROR
    assert "not valid UTF-8 (byte 0xff at offset" in result.content


@pytest.mark.parametrize("depth", [150, 300, 5_000])
async def test_a_result_nested_past_the_cap_fails_at_once_naming_it(
    faulty: McpSource, depth: int
) -> None:
    result, seconds = await timed(faulty, "deep", depth=depth)
    assert seconds < FAST_S
    assert result.error is not None and result.error.type == ErrorType.LIMIT_EXCEEDED
    assert result.error.body["cap"] == "max_json_depth"
    assert "nested deeper than max_json_depth = 100" in result.content
    assert "max_json_depth = 200 under [tool.workbench.limits]" in result.content


@pytest.mark.parametrize(
    ("api", "message"),
    [
        ("garbled", "not valid UTF-8"),
        ("broken_json", "the server sent a line that is not JSON"),
    ],
)
async def test_a_garbled_answer_fails_the_call_at_once(
    faulty: McpSource, api: str, message: str
) -> None:
    result, seconds = await timed(faulty, api)
    assert seconds < FAST_S
    assert result.error is not None and result.error.type == ErrorType.PROTOCOL_ERROR
    assert message in result.content
    after, _ = await timed(faulty, "echo", text="after")
    assert after.content == "after"


async def test_garbage_lines_are_counted_not_traced(
    faulty: McpSource, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):
        result, seconds = await timed(faulty, "garbage", lines=20_000)
    assert result.success and result.content == "after garbage"
    assert seconds < FAST_S
    assert not [record for record in caplog.records if record.exc_info]
    assert sum(len(record.getMessage()) for record in caplog.records) < 10_000
    summary = faulty.problems[-1]
    # The line's escape is shown as a visible mark, not acted on nor dropped.
    assert "20,000 non-JSON-RPC line(s) ignored (first: 'not json 0 ␛[2J')" in summary


async def test_an_answer_past_the_cap_stops_there_and_says_how_to_raise_it(
    faulty: McpSource,
) -> None:
    result, seconds = await timed(faulty, "big", mb=50)
    assert seconds < FAST_S
    assert result.error is not None and result.error.type == ErrorType.LIMIT_EXCEEDED
    body = result.error.body
    assert (body["cap"], body["limit"]) == ("max_message_bytes", 16 * MIB)
    assert body["seen"] > 50_000_000  # Counted to the end of the line, kept only to the cap.
    assert "exceeded max_message_bytes = 16 MiB (counted after decompression)" in result.content
    assert '"limits" in mcp.json' in result.content


async def test_a_servers_own_limit_raises_its_cap() -> None:
    source = await started(faulty_spec(limits={"max_message_bytes": "32MiB"}))
    try:
        assert source.limits.max_message_bytes == 32 * MIB
        result, _ = await timed(source, "big", mb=20)
        assert result.success
    finally:
        await source.stop()


async def test_a_progress_flood_is_throttled_and_its_last_value_arrives(faulty: McpSource) -> None:
    reports: list[float | None] = []
    ctx = CallContext(progress=lambda value, total, message: reports.append(value))
    # 50,000 notifications are CPU work: on a loaded machine they alone can take FAST_S, so
    # this call is bounded by BOUND_S only; that the flood is throttled is counted below.
    result = await asyncio.wait_for(
        faulty.invoke("faulty", "progress_flood", {"count": 50_000}, ctx), timeout=BOUND_S
    )
    assert result.success
    assert len(reports) < 5_000
    assert reports[-1] == 50_000


async def test_kept_stderr_is_bounded() -> None:
    source = await started(faulty_spec(), limits=Limits(max_stderr_bytes=16 * KIB))
    try:
        result, _ = await timed(source, "stderr_flood", mb=20)
        assert result.success
        stderr = source._stderr
        assert stderr.total == 20 * MIB
        assert len(stderr.text().encode()) < 17 * KIB
        assert stderr.text().startswith(f"[{20 * MIB - 16 * KIB:,} earlier bytes of stderr")
    finally:
        await source.stop()


async def test_a_crash_with_a_grandchild_holding_stdout_still_ends_the_call(
    tmp_path: object,
) -> None:
    source = await started(faulty_spec("--grandchild", "holds-stdout"))
    try:
        result, seconds = await timed(source, "crash")
        assert seconds < FAST_S + 1
        assert result.error is not None and result.error.type == ErrorType.CONNECTION_CLOSED
        assert "exited with code 3" in result.content
    finally:
        await source.stop()


# --- streamable HTTP ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def http_origin() -> Iterator[str]:
    from tests.sources.servers.faulty_http import app

    with serve_asgi(app) as origin:
        yield origin


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def faulty_http(http_origin: str) -> AsyncIterator[McpSource]:
    source = await started(McpServerSpec(name="web", url=f"{http_origin}/mcp"))
    yield source
    await asyncio.wait_for(source.stop(), timeout=BOUND_S)


@pytest.mark.parametrize(
    ("api", "args"),
    [
        ("huge", {"mb": 200}),
        ("bomb", {"mb": 256}),
        ("endless", {}),
        ("sse_big", {"mb": 20}),
    ],
)
async def test_http_answers_past_the_cap_fail_that_call_only(
    faulty_http: McpSource, api: str, args: dict[str, object]
) -> None:
    result, _ = await timed(faulty_http, api, **args)
    assert result.error is not None and result.error.type == ErrorType.LIMIT_EXCEEDED
    assert "max_message_bytes = 16 MiB" in result.content
    after, _ = await timed(faulty_http, "echo", text="connection lives")
    assert after.content == "connection lives"
    assert faulty_http.status.state is SourceState.READY


async def test_an_http_event_larger_than_the_sdks_default_passes(faulty_http: McpSource) -> None:
    # The SDK caps one event at 1 MiB by default, which fails real results.
    result, _ = await timed(faulty_http, "sse_big", mb=2)
    assert result.success
    assert result.content.endswith(f"showing 400,000 of {2 * MIB:,} characters]")


@pytest.mark.parametrize("depth", [150, 300])
async def test_http_answers_nested_past_the_cap_fail_naming_it(
    faulty_http: McpSource, depth: int
) -> None:
    result, _ = await timed(faulty_http, "deep", depth=depth)
    assert result.error is not None and result.error.type == ErrorType.LIMIT_EXCEEDED
    assert "max_json_depth = 100" in result.content
