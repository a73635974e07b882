"""The embedded demo server speaks the parts of the protocol a client may try on it: log
levels, resource subscriptions and completions (the conformance suite's server scenarios)."""

from __future__ import annotations

import warnings

import mcp_types as types
from mcp import Client

from workbench.sources.demo_server import NOTES_URI, build_server


async def test_capabilities_announce_logging_completions_and_subscriptions() -> None:
    async with Client(build_server(), mode="legacy") as client:
        capabilities = client.server_capabilities
        assert capabilities is not None
        assert capabilities.logging is not None and capabilities.completions is not None
        assert capabilities.resources is not None and capabilities.resources.subscribe


async def test_a_log_level_keeps_the_lines_below_it_from_being_sent() -> None:
    received: list[str] = []

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        received.append(params.level)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # logging is deprecated at 2026-07-28
        async with Client(build_server(), mode="legacy", logging_callback=on_log) as client:
            await client.set_logging_level("warning")
            result = await client.call_tool("chatty", {})
    assert received == ["warning", "error"]
    [text] = [block.text for block in result.content if isinstance(block, types.TextContent)]
    assert text.startswith("Logged 2 of 4 lines (level warning)")


async def test_an_update_is_sent_only_for_a_subscribed_resource() -> None:
    updated: list[str] = []

    async def on_message(message: object) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            updated.append(str(message.params.uri))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        async with Client(build_server(), mode="legacy", message_handler=on_message) as client:
            await client.call_tool("chatty", {})
            assert updated == []
            await client.subscribe_resource(NOTES_URI)
            await client.call_tool("chatty", {})
            await client.unsubscribe_resource(NOTES_URI)
            await client.call_tool("chatty", {})
    assert updated == [NOTES_URI]


async def test_completions_for_the_prompt_and_the_resource_template() -> None:
    async with Client(build_server(), mode="legacy") as client:
        focus = await client.complete(
            types.PromptReference(type="ref/prompt", name="review_code"),
            {"name": "focus", "value": "re"},
        )
        assert focus.completion.values == ["readability"]
        chapters = await client.complete(
            types.ResourceTemplateReference(type="ref/resource", uri="demo://chapters/{number}"),
            {"name": "number", "value": "1"},
        )
        assert chapters.completion.values == ["1", "10", "11", "12"]
        nothing = await client.complete(
            types.PromptReference(type="ref/prompt", name="review_code"),
            {"name": "code", "value": ""},
        )
        assert nothing.completion.values == []
