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
    assert "20,000 non-JSON-RPC line(s) ignored (first: 'not json 0 ')" in summary


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


# --- well-formed answers that are wrong: an id, an error code, a string, a tool list -----------


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def protocol_faults() -> AsyncIterator[McpSource]:
    source = await started(faulty_spec("--protocol-faults", name="protocol"))
    yield source
    await asyncio.wait_for(source.stop(), timeout=BOUND_S)


async def test_an_answer_with_a_wrong_id_fails_the_call_at_once_naming_the_id(
    protocol_faults: McpSource,
) -> None:
    result, seconds = await timed(protocol_faults, "wrong_id", id=424242)
    assert seconds < FAST_S
    assert result.error is not None and result.error.type == ErrorType.MISMATCHED_ID
    assert "mismatched response id: the server answered id 424242" in result.content
    assert result.error.body == {"received_id": 424242}
    after, _ = await timed(protocol_faults, "echo", text="still here")
    assert after.content == "still here"


async def test_an_error_without_an_id_goes_to_the_call_waiting(protocol_faults: McpSource) -> None:
    result, seconds = await timed(protocol_faults, "error_without_id")
    assert seconds < FAST_S
    assert result.error is not None and result.error.type == ErrorType.PROTOCOL_ERROR
    assert "with error -32600: unreadable" in result.content


@pytest.mark.parametrize("code", [-32000, -32001])
async def test_a_servers_own_error_code_keeps_its_code_and_message(
    protocol_faults: McpSource, code: int
) -> None:
    result, seconds = await timed(protocol_faults, "server_error", code=code, message="db down")
    assert seconds < FAST_S
    assert result.error is not None and result.error.type == ErrorType.PROTOCOL_ERROR
    assert result.content == f"protocol answered server_error with error {code}: db down"
    assert result.error.body == {"code": code, "data": {"why": "the server's"}}
    assert protocol_faults.status.state is SourceState.READY


@pytest.mark.parametrize("code", [-32000, -32001])
async def test_a_handshake_refused_with_an_sdk_code_says_what_the_server_said(code: int) -> None:
    source = McpSource(faulty_spec("--initialize-error", str(code)), handshake_timeout_s=15.0)
    try:
        await asyncio.wait_for(source.start(), timeout=BOUND_S)
        assert source.status.state is SourceState.FAILED
        assert f"answered the handshake with error {code}: not today" in source.status.detail
    finally:
        await source.stop()


async def test_lone_surrogates_in_a_result_are_shown_as_replacement_characters(
    protocol_faults: McpSource,
) -> None:
    result, seconds = await timed(protocol_faults, "surrogate")
    assert seconds < FAST_S
    assert result.success, result.content
    assert result.content == "before \ufffd middle \ufffd after"
    assert result.state == {"k\ufffd": "v"}


async def test_a_huge_tool_list_is_cut_to_the_first_thousand_and_says_so() -> None:
    source = await started(faulty_spec("--many-tools", "20000", name="many"))
    try:
        assert source.manifest is not None and len(source.manifest.api) == 1_000
        summary = "\n".join(source.problems)
        assert "showing 1,000 of 20,013 tools the server listed in one answer" in summary
        assert source.status.detail.startswith(
            "1000 tools over stdio (showing 1,000 of 20,013 listed)"
        )
        result, _ = await timed(source, "echo", text="listed")
        assert result.content == "listed"
    finally:
        await source.stop()


async def test_http_a_huge_tool_list_is_cut_to_the_first_thousand_and_says_so(
    http_origin: str,
) -> None:
    source = await started(McpServerSpec(name="many", url=f"{http_origin}/mcp?many=20000"))
    try:
        assert source.manifest is not None and len(source.manifest.api) == 1_000
        summary = "\n".join(source.problems)
        assert "showing 1,000 of 20,009 tools the server listed in one answer" in summary
    finally:
        await source.stop()


@pytest.mark.parametrize("sse", [False, True], ids=["json", "sse"])
async def test_http_an_answer_with_a_wrong_id_is_never_the_result(
    faulty_http: McpSource, sse: bool
) -> None:
    result, seconds = await timed(faulty_http, "wrong_id", id=424242, sse=sse)
    assert seconds < FAST_S
    assert result.error is not None and result.error.type == ErrorType.MISMATCHED_ID
    assert "mismatched response id: the server answered id 424242" in result.content


@pytest.mark.parametrize("sse", [False, True], ids=["json", "sse"])
@pytest.mark.parametrize("code", [-32000, -32001])
async def test_http_a_servers_own_error_code_keeps_its_code_and_message(
    faulty_http: McpSource, code: int, sse: bool
) -> None:
    result, _ = await timed(faulty_http, "server_error", code=code, message="db down", sse=sse)
    assert result.error is not None and result.error.type == ErrorType.PROTOCOL_ERROR
    assert result.content == f"web answered server_error with error {code}: db down"
    assert faulty_http.status.state is SourceState.READY


@pytest.mark.parametrize("sse", [False, True], ids=["json", "sse"])
async def test_http_lone_surrogates_are_shown_as_replacement_characters(
    faulty_http: McpSource, sse: bool
) -> None:
    result, _ = await timed(faulty_http, "surrogate", sse=sse)
    assert result.success, result.content
    assert result.content == "before \ufffd after"
