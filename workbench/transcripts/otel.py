"""OpenTelemetry GenAI spans exported as OTLP JSON (a document, or one per line).

Each ``execute_tool`` span (``gen_ai.operation.name``) is a call: ``gen_ai.tool.name``,
``gen_ai.tool.call.id``, ``gen_ai.tool.call.arguments``, ``gen_ai.tool.call.result``,
``error.type`` (and the span status) for a failure, the span's own start and end for its time.
A call under another call's span (through any spans between, such as a subagent's
``invoke_agent``) is nested under it. The spans of one export are read together.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from workbench.transcripts.fields import arguments, items, nanos, says_truncated, string
from workbench.transcripts.model import Entry, ToolCall, TranscriptProblem
from workbench.transcripts.records import Record

FORMAT = "otel"
STATUS_ERROR = 2


def looks_like(data: dict[str, Any]) -> bool:
    return isinstance(data.get("resourceSpans"), list)


def _value(value: Any) -> Any:
    if not isinstance(value, dict):
        return None
    for key in ("stringValue", "boolValue", "doubleValue"):
        if key in value:
            return value[key]
    if "intValue" in value:
        try:
            return int(value["intValue"])
        except (TypeError, ValueError):
            return None
    if "arrayValue" in value:
        return [_value(item) for item in _values(value["arrayValue"])]
    if "kvlistValue" in value:  # A structured attribute (arguments sent as an object).
        return {
            str(item.get("key")): _value(item.get("value"))
            for item in _values(value["kvlistValue"])
            if isinstance(item, dict)
        }
    return None


def _values(container: Any) -> list[Any]:
    return items(container.get("values")) if isinstance(container, dict) else []


def _attributes(span: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for attribute in items(span.get("attributes")):
        if isinstance(attribute, dict) and isinstance(attribute.get("key"), str):
            found[attribute["key"]] = _value(attribute.get("value"))
    return found


def _spans(record: Record, file: str) -> Iterator[Any]:
    for resource in items(record.data.get("resourceSpans")):
        scopes = items(resource.get("scopeSpans")) if isinstance(resource, dict) else []
        for scope in scopes:
            spans = scope.get("spans") if isinstance(scope, dict) else None
            if not isinstance(spans, list):
                line = record.line_of(scope)
                yield TranscriptProblem(file, line, "scopeSpans", "no `spans` list")
                continue
            yield from spans


def read(records: Iterable[Record | TranscriptProblem], file: str) -> Iterator[Entry]:
    for record in records:
        if isinstance(record, TranscriptProblem):
            yield record
            continue
        if not looks_like(record.data):
            yield TranscriptProblem(file, record.line, record.where or "line", "no `resourceSpans`")
            continue
        parents: dict[str, str] = {}  # span id -> parent span id
        tool_spans: dict[str, str] = {}  # span id -> call id
        calls: list[tuple[str, ToolCall]] = []
        for index, span in enumerate(_spans(record, file)):
            if isinstance(span, TranscriptProblem):
                yield span
                continue
            if not isinstance(span, dict):
                yield TranscriptProblem(file, record.line, f"span {index}", "not an object")
                continue
            line = record.line_of(span)
            span_id = str(span.get("spanId", ""))
            parents[span_id] = str(span.get("parentSpanId") or "")
            attributes = _attributes(span)
            operation = attributes.get("gen_ai.operation.name")
            if operation != "execute_tool" and not str(span.get("name", "")).startswith(
                "execute_tool"
            ):
                continue
            name = string(attributes.get("gen_ai.tool.name"))
            call_id = string(attributes.get("gen_ai.tool.call.id")) or span_id
            if name is None or not call_id:
                yield TranscriptProblem(file, line, "execute_tool span", "no `gen_ai.tool.name`")
                continue
            args, _ = arguments(attributes.get("gen_ai.tool.call.arguments"))
            call = ToolCall(
                call_id,
                name,
                args,
                line or 0,
                started=nanos(span.get("startTimeUnixNano")),
                ended=nanos(span.get("endTimeUnixNano")),
                title=string(attributes.get("gen_ai.tool.description")),
            )
            result = attributes.get("gen_ai.tool.call.result")
            call.content = result if isinstance(result, str) or result is None else str(result)
            found_status = span.get("status")
            status: dict[str, Any] = found_status if isinstance(found_status, dict) else {}
            error_type = string(attributes.get("error.type"))
            if error_type or status.get("code") in (STATUS_ERROR, "STATUS_CODE_ERROR"):
                call.outcome = "failed"
                call.error_type = error_type
                call.error = string(status.get("message")) or call.content or error_type
                if error_type == "cancelled":
                    call.outcome = "cancelled"
            else:
                call.outcome = "done"
            call.truncated = says_truncated(call.content)
            tool_spans[span_id] = call_id
            calls.append((span_id, call))
        for span_id, call in calls:
            ancestor = parents.get(span_id, "")
            seen: set[str] = set()
            while ancestor and ancestor not in tool_spans and ancestor not in seen:
                seen.add(ancestor)
                ancestor = parents.get(ancestor, "")
            call.parent_call = tool_spans.get(ancestor)
            yield call
