"""One call without a UI: resolve, validate, run, and record it (events and final state)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.core.call_record import CallRecord
from workbench.core.schema import validate_args
from workbench.policy.engine import PolicyContext, check_approval
from workbench.sources.answers import ScriptedAnswers
from workbench.sources.call_runner import InputGate, LiveCall
from workbench.sources.manager import ResolutionError, ToolManager
from workbench.sources.timeouts import resolve_call_timeout


class UsageProblem(ValueError):
    """The call cannot be made as asked (unknown tool, arguments that break the schema)."""


# Keywords that assert nothing (jsonschema checks "format" only when given a format checker,
# which validate_args does not pass).
_ANNOTATIONS = frozenset(
    (
        "title",
        "description",
        "default",
        "examples",
        "$comment",
        "deprecated",
        "readOnly",
        "writeOnly",
        "format",
        "$schema",
        "$id",
        "$defs",  # Definitions assert nothing until a $ref uses one, and $ref is not handled.
        "definitions",
    )
)
_KEYWORDS = _ANNOTATIONS | {"type", "properties", "required", "additionalProperties", "items"}
# Drafts whose "type"/"properties"/"required"/"items" mean the same as 2020-12's for the cases
# accepted below (draft 4 counts 1.0 as no integer, draft 3 puts "required" on properties).
_SCHEMAS = frozenset(
    (
        "https://json-schema.org/draft/2020-12/schema",
        "https://json-schema.org/draft/2019-09/schema",
        "http://json-schema.org/draft-07/schema#",
        "http://json-schema.org/draft-07/schema",
        "http://json-schema.org/draft-06/schema#",
        "http://json-schema.org/draft-06/schema",
    )
)
_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "object": (dict,),
    "array": (list,),
    "null": (type(None),),
}


def plainly_valid(schema: Any, value: Any, depth: int = 0) -> bool:
    """True only when ``value`` surely meets ``schema``, judged without jsonschema.

    Most tool schemas are an object of typed properties; proving those valid here keeps
    jsonschema (about 60 ms of imports) off a headless call. Anything this does not fully
    understand (another keyword, $ref, a boolean subschema, an old draft) or any doubt
    returns False, and :func:`validate_args` decides and explains, exactly as before.
    """
    if not isinstance(schema, Mapping) or depth > 8 or not _KEYWORDS.issuperset(schema):
        return False
    if "$schema" in schema and schema["$schema"] not in _SCHEMAS:
        return False
    if "type" in schema:
        names = schema["type"]
        names = [names] if isinstance(names, str) else names
        if not isinstance(names, list) or not names:
            return False
        kinds: list[type] = []
        for name in names:
            if not isinstance(name, str) or name not in _TYPES:
                return False  # Unknown type names: jsonschema reports the schema's error.
            kinds.extend(_TYPES[name])
        # bool is an int to Python but not an integer or a number to JSON Schema.
        if isinstance(value, bool) and bool not in kinds:
            return False
        if not isinstance(value, tuple(kinds)):
            return False
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    extra = schema.get("additionalProperties", True)
    if (
        not isinstance(properties, Mapping)
        or not isinstance(required, list)
        or not isinstance(extra, (bool, Mapping))
    ):
        return False
    if isinstance(value, dict):
        if not all(isinstance(key, str) and key in value for key in required):
            return False
        for key, item in value.items():
            if key in properties:
                if not plainly_valid(properties[key], item, depth + 1):
                    return False
            elif extra is False or (
                extra is not True and not plainly_valid(extra, item, depth + 1)
            ):
                return False
    if "items" in schema:
        items = schema["items"]
        if not isinstance(items, (bool, Mapping)):
            return False  # Draft 7's tuple form: left to jsonschema.
        if items is True:
            return True
        if isinstance(value, list) and not all(
            plainly_valid(items, item, depth + 1) for item in value
        ):
            return False
    return True


async def call_once(
    manager: ToolManager,
    policy: PolicyContext,
    name: str,
    args: dict[str, Any],
    *,
    timeout_s: float | None = None,
    extend_on_progress_s: float | None = None,
    input_gate: InputGate | None = None,
) -> CallRecord:
    """Start the sources, make one call, stop them; raises :class:`UsageProblem` for bad input.

    ``timeout_s`` is a hard limit on the whole call; progress restarts it only when
    ``extend_on_progress_s`` is given, and never past that. What the server asks mid-call
    goes to ``input_gate`` (default: decline everything, saying how to script an answer).
    """
    await manager.start()
    try:
        try:
            resolved = manager.resolve(name)
        except ResolutionError as error:
            failed = [
                f"{source.name}: {source.status.detail}"
                for source in manager.sources
                if source.status.state.value == "failed"
            ]
            suffix = f" (sources that failed to start: {'; '.join(failed)})" if failed else ""
            raise UsageProblem(f"{error}{suffix}") from None
        parameters = resolved.api.parameters
        problems = [] if plainly_valid(parameters, args) else validate_args(parameters, args)
        if problems:
            lines = "; ".join(
                f"{'.'.join(map(str, path)) or '(args)'}: {message}"
                for path, message in problems[:5]
            )
            raise UsageProblem(f"arguments do not match {resolved.label}'s schema: {lines}")
        check = check_approval(resolved.entry.manifest, resolved.api.name, args, policy)
        timeout = resolve_call_timeout(
            args, resolved.api, override_s=timeout_s, extend_on_progress_s=extend_on_progress_s
        )
        record = CallRecord.start(resolved.entry.tool, resolved.api.name)
        call = LiveCall(
            resolved.entry.source,
            resolved.entry.manifest,
            resolved.entry.tool,
            resolved.api.name,
            args,
            on_event=record.add,
            timeout_ms=timeout.limit_ms,
            extend_on_progress_max_ms=timeout.extend_on_progress_max_ms,
            approval=check,
            approval_gate=None,
            workspace=policy.workspace,
            input_gate=input_gate if input_gate is not None else ScriptedAnswers(),
        )
        await call.run()
        return record
    finally:
        await manager.stop()
