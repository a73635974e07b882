"""What ``workbench call`` prints about a call besides its result: what the server asked and
what was answered, its log, and an MCP App's UI resource."""

from __future__ import annotations

from typing import Any

from workbench.core.call_record import CallRecord
from workbench.core.call_state import CallState
from workbench.core.interventions import ElicitationRequest, Exchange, SamplingRequest
from workbench.core.manifest import ToolApi, ToolManifest
from workbench.core.mcp_catalog import lacks_text_fallback
from workbench.sources.manager import ToolManager

MESSAGE_PREVIEW = 500
SERVER_MESSAGES_SHOWN = 50


def _manifest(manager: ToolManager, tool: str) -> ToolManifest | None:
    # Sources keep their manifest after they stop (an MCP source's list is empty by then).
    for source in manager.sources:
        manifest = getattr(source, "manifest", None)
        if isinstance(manifest, ToolManifest) and manifest.identifier == tool:
            return manifest
    for entry in manager.entries():
        if entry.tool == tool:
            return entry.manifest
    return None


def _request_json(request: ElicitationRequest | SamplingRequest) -> dict[str, Any]:
    if isinstance(request, ElicitationRequest):
        data: dict[str, Any] = {"kind": "elicitation", "mode": request.mode}
        data["message"] = request.message
        if request.mode == "url":
            data["url"] = request.url
            if request.elicitation_id:
                data["elicitationId"] = request.elicitation_id
        else:
            data["fields"] = request.field_names
            data["requestedSchema"] = request.schema
        if request.refused:
            data["refused"] = request.refused
        return data
    return {
        "kind": "sampling",
        "messages": [
            {
                "role": message.role,
                "text": message.text[:MESSAGE_PREVIEW],
                "chars": message.chars,
            }
            for message in request.messages
        ],
        "totalMessages": request.total_messages,
        "systemPrompt": request.system_prompt,
        "maxTokens": request.max_tokens,
        "temperature": request.temperature,
        "modelPreferences": dict(request.preferences) or None,
        "tools": list(request.tools) or None,
    }


def exchange_json(exchange: Exchange) -> dict[str, Any]:
    """One request and its answer, for ``--format json``."""
    data = {"key": exchange.key, **_request_json(exchange.request), "askedMs": exchange.asked_ms}
    answer = exchange.answer
    if answer is None:
        data["answer"] = None
    else:
        data["answer"] = {
            key: value
            for key, value in (
                ("action", answer.action),
                ("content", answer.content),
                ("reply", answer.reply),
                ("model", answer.model),
                ("by", answer.by),
                ("note", answer.note or None),
            )
            if value is not None
        }
        data["answeredMs"] = exchange.answered_ms
    return data


def exchange_lines(state: CallState) -> list[str]:
    """``asked elicitation-1 (form: name, email): "…" -> declined (…)``, one per request."""
    lines = []
    for exchange in state.exchanges:
        request = exchange.request
        if isinstance(request, ElicitationRequest):
            if request.mode == "url":
                what = f"to open {request.url}"
            else:
                names = request.field_names
                shown = ", ".join(names[:6]) + (", …" if len(names) > 6 else "")
                what = f"a form of {len(names)} field(s): {shown}" if names else "an empty form"
            asked = f"{request.message!r} ({what})"
        else:
            last = request.messages[-1].text if request.messages else ""
            asked = (
                f"a model's reply to {request.total_messages} message(s), up to "
                f"{request.max_tokens:,} tokens (last: {last[:120]!r})"
            )
        answer = exchange.answer
        answered = answer.summary(request) if answer is not None else "no answer (the call ended)"
        lines.append(f"asked {exchange.key}: {asked} -> {answered}")
    return lines


def ui_json(api: ToolApi, state: CallState) -> dict[str, Any] | None:
    """The UI resource of an MCP App tool, and whether its result has a text fallback."""
    if api.ui is None:
        return None
    data = api.ui.model_dump(mode="json", by_alias=True, exclude_none=True)
    result = state.result
    if result is not None and result.success:
        data["textFallback"] = not lacks_text_fallback(True, result.content, result.state)
    return data


def call_payload(record: CallRecord, manager: ToolManager) -> dict[str, Any]:
    """The JSON ``workbench call --format json`` prints."""
    state = record.state
    result = state.result
    assert result is not None
    payload: dict[str, Any] = {
        "tool": record.tool,
        "api": record.api,
        "phase": state.phase.value,
        "result": result.model_dump(mode="json"),
        "output": state.output.text() if not state.output.is_empty() else None,
        "timings": {"startedMs": state.timings.started_ms, "endedMs": state.timings.ended_ms},
    }
    if state.exchanges:
        payload["interventions"] = [exchange_json(item) for item in state.exchanges]
    messages = state.server_messages
    if messages.total:
        payload["serverMessages"] = {
            "total": messages.total,
            "shown": [
                {
                    key: value
                    for key, value in (
                        ("atMs", item.at_ms),
                        ("kind", item.kind),
                        ("level", item.level or None),
                        ("logger", item.logger or None),
                        ("text", item.text),
                    )
                    if value is not None
                }
                for item in list(messages.items)[-SERVER_MESSAGES_SHOWN:]
            ],
        }
    manifest = _manifest(manager, record.tool)
    api = manifest.get_api(record.api) if manifest is not None else None
    if api is not None:
        ui = ui_json(api, state)
        if ui is not None:
            payload["ui"] = ui
    return payload
