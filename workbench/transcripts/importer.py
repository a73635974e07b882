"""Tool calls of a transcript into fixture variants, and those into fixture files.

:func:`variant_of` makes one variant (redacted) from a :class:`~.model.ToolCall`;
:func:`resolve` says which tool and API draws it; :func:`write_variants` adds the new variants
to ``DIR/TOOL/API.yaml`` as text (a hand-written file keeps its variants, comments and layout),
and reports what it added, found unchanged or found conflicting.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from workbench.core.file_writes import locked, temporary_name, write_atomically
from workbench.core.manifest import ToolApi, ToolManifest, ToolMeta
from workbench.core.source_map import SourceError, load_with_lines
from workbench.fixtures.list_append import AppendRefused, append_to_list
from workbench.fixtures.models import FixtureFile
from workbench.fixtures.recorder import (
    IMPORTED_API_DESCRIPTION,
    RecordingError,
    dump_fixture_fast,
    save_manifest_api,
)
from workbench.transcripts.fields import first_line, items
from workbench.transcripts.model import ToolCall
from workbench.transcripts.redaction import TranscriptRedactor

AGENT_TOOLS = {"claude-code": "claude-code", "codex": "codex", "gemini": "gemini-cli"}
"""Formats whose plain tool names are the agent's built-in tools (UI-only packages)."""

OUTCOMES = {
    "denied": ("skipped", "SkippedByUser"),
    "interrupted": ("cancelled", "Cancelled"),
    "cancelled": ("cancelled", "Cancelled"),
    "blocked": ("blocked", "BlockedByPolicy"),
}
"""The agent's word for a call that did not simply end -> the fixture outcome and error type."""

_SLUG_CHARACTERS = re.compile(r"[^A-Za-z0-9_.-]+")
_API_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")
LABEL_LIMIT = 100


@dataclass(frozen=True, slots=True)
class Target:
    """The tool and API that draw a call, and whether anyone knows them."""

    tool: str
    api: str
    known: bool


def slug(text: str, limit: int = 80) -> str:
    """``text`` as a fixture id or tool identifier (a long one keeps a hash of the rest)."""
    value = _SLUG_CHARACTERS.sub("-", text).strip("-._") or "call"
    if len(value) > limit:
        digest = hashlib.sha256(value.encode()).hexdigest()[:10]
        value = value[: limit - 11].rstrip("-._") + "-" + digest
    return value


def resolve(
    call: ToolCall,
    format: str,
    mapping: Mapping[str, str],
    known: Mapping[str, frozenset[str]],
) -> Target:
    """Which tool and API draw ``call``: an explicit map entry (``NAME`` or ``SERVER__TOOL``),
    an MCP server's tool (``mcp__SERVER__TOOL``), the agent's built-in tool, a project API of
    that name, or else a tool named after the call (``known`` is false: the summary lists it)."""
    names = [call.name]
    if call.server:
        names = [f"mcp__{call.server}__{call.name}", f"{call.server}__{call.name}", call.name]
    for name in names:
        if name in mapping:
            tool, _, api = mapping[name].partition(".")
            return Target(tool, api or call.name, True)
    server, tool_name = call.server, call.name
    if server is None and call.name.startswith("mcp__"):
        parts = call.name.split("__", 2)
        if len(parts) == 3 and parts[1] and parts[2]:
            server, tool_name = parts[1], parts[2]
    if server is not None:
        tool = slug(server, 128)
        return Target(tool, _api(tool_name), tool_name in known.get(tool, frozenset()))
    if format in AGENT_TOOLS:
        tool = AGENT_TOOLS[format]
        return Target(tool, _api(call.name), call.name in known.get(tool, frozenset()))
    if format == "acp":
        return Target("acp", _api(call.name), call.name in known.get("acp", frozenset()))
    owners = [tool for tool, apis in known.items() if call.name in apis]
    if len(owners) == 1:
        return Target(owners[0], call.name, True)
    return Target(slug(call.name, 128), _api(call.name), False)


def _api(name: str) -> str:
    return name if _API_NAME.match(name) and len(name) <= 128 else slug("_" + name, 128)


def _label(call: ToolCall) -> str:
    """What the user asked, then what the call did."""
    did = call.title or _args_summary(call.args) or call.name
    asked = first_line(call.prompt or "", 50)
    text = f"{asked} — {did}" if asked else did
    return first_line(text, LABEL_LIMIT) or call.name


def _args_summary(args: dict[str, Any]) -> str:
    for value in args.values():
        if isinstance(value, str) and value.strip():
            return first_line(value, 60)
    return ""


def kind_of(call: ToolCall) -> str:
    """error, empty, truncated (when the agent says it cut the output) or typical; a call that
    did not simply end keeps the agent's word (denied, interrupted, cancelled, blocked)."""
    if call.outcome in OUTCOMES:
        return call.outcome
    if call.outcome == "failed":
        return "error"
    if not (call.content or "").strip():
        return "empty"  # The model read nothing back, whatever the structured state holds.
    if call.truncated:
        return "truncated"
    return "typical"


def variant_of(call: ToolCall, redactor: TranscriptRedactor) -> dict[str, Any]:
    """The fixture variant of ``call``, every string redacted by ``redactor``."""
    result: dict[str, Any]
    kind = kind_of(call)
    if call.outcome in ("done", "unfinished") and kind != "error":
        result = {"success": True, "content": call.content or ""}
    else:
        _, error_type = OUTCOMES.get(call.outcome, (None, "ToolExecutionFailed"))
        message = call.error or call.content or "The tool reported an error"
        result = {
            "success": False,
            "content": call.content or message,
            "error": {"type": call.error_type or error_type, "message": message},
        }
    if call.state not in (None, {}, []):
        result["state"] = call.state
    if call.duration_ms is not None:
        result["after_ms"] = call.duration_ms
    variant: dict[str, Any] = {
        "id": slug(call.id),
        "label": _label(call),
        "kind": kind,
        "args": call.args,
        "result": result,
    }
    if call.outcome in OUTCOMES:
        variant["outcome"] = OUTCOMES[call.outcome][0]
    redacted: dict[str, Any] = redactor.value(variant)
    redacted["id"] = variant["id"]  # An id is a call id, never a secret; keep it stable.
    return redacted


@dataclass
class FileReport:
    """What happened to one fixture file."""

    path: Path
    tool: str
    api: str
    added: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    conflicting: list[str] = field(default_factory=list)
    created: bool = False
    refused: str | None = None
    manifest: Path | None = None
    """The manifest written (or extended) beside the file, for a tool nobody knows."""


def fixture_path(root: Path, tool: str, api: str) -> Path:
    """``ROOT/TOOL/API.yaml`` (or the ``.json`` file of that name when one exists)."""
    json_path = root / tool / f"{api}.json"
    return json_path if json_path.exists() else root / tool / f"{api}.yaml"


def _normal(value: Any) -> Any:
    """A value as it reads back from YAML (what comparing with a file needs)."""
    return load_with_lines(dump_fixture_fast(value)).data


def _valid(document: dict[str, Any], report: FileReport) -> bool:
    try:
        FixtureFile.model_validate(document)
    except ValueError as error:
        report.refused = f"the result would not be a valid fixture file ({error})"
        report.added.clear()
        return False
    return True


def _append_atomically(path: Path, text: str) -> None:
    """``text`` added at the end of ``path``, replacing the file in one step (as
    :func:`write_atomically` does) without holding the file in memory: a long import's file
    grows by a batch at a time."""
    temporary = path.parent / temporary_name(path)
    try:
        with path.open("rb") as source, temporary.open("xb") as target:
            shutil.copyfileobj(source, target)
            target.write(text.encode("utf-8"))
        shutil.copymode(path, temporary)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


def write_variants(
    path: Path,
    tool: str,
    api: str,
    variants: Iterable[dict[str, Any]],
    *,
    dry_run: bool,
    own_file: bool = False,
) -> FileReport:
    """Add the variants whose id the file lacks; same id and content is unchanged, same id and
    other content is conflicting (the file's variant stays). Nothing is written on a dry run.

    ``own_file``: this import created the file (its ``variants`` list is the last thing in
    it, as :func:`dump_fixture_fast` wrote it), so a later batch is added at its end without
    parsing it again; ``variants`` hold no id it has.
    """
    report = FileReport(path, tool, api)
    incoming = list(variants)
    with locked(path) if not dry_run else contextlib.nullcontext():
        if own_file:
            report.added = [variant["id"] for variant in incoming]
            if not _valid({"tool": tool, "api": api, "variants": incoming}, report):
                return report
            if not dry_run:
                _append_atomically(path, dump_fixture_fast(incoming))
            return report
        if path.exists():
            try:
                text = path.read_bytes().decode("utf-8")
                data = load_with_lines(text).data
            except (OSError, UnicodeDecodeError, SourceError) as error:
                report.refused = f"cannot read it ({getattr(error, 'message', error)})"
                return report
            if not isinstance(data, dict) or data.get("tool") != tool or data.get("api") != api:
                report.refused = f"it does not hold {tool}/{api}"
                return report
        else:
            text, data = "", None
            report.created = True
        existing = {
            str(item.get("id")): item
            for item in items((data or {}).get("variants"))
            if isinstance(item, dict)
        }
        new: list[dict[str, Any]] = []
        for variant in incoming:
            old = existing.get(variant["id"])
            if old is None:
                existing[variant["id"]] = variant
                new.append(variant)
                report.added.append(variant["id"])
            elif _normal(old) == _normal(variant):
                report.unchanged.append(variant["id"])
            else:
                report.conflicting.append(variant["id"])
        if not new:
            return report
        if data is None:
            document = {"tool": tool, "api": api, "variants": new}
            if _valid(document, report) and not dry_run:
                write_atomically(path, dump_fixture_fast(document))
            return report
        candidate = text
        try:
            for variant in new:
                # As text at the end of the list: the author's bytes around it stay as they were.
                candidate = append_to_list(
                    candidate,
                    "variants",
                    variant,
                    json_file=path.suffix.lower() == ".json",
                    dump_yaml=dump_fixture_fast,
                )
        except AppendRefused as error:
            report.refused = str(error)
            report.added.clear()
            return report
        try:
            reloaded = (
                json.loads(candidate)
                if path.suffix.lower() == ".json"
                else load_with_lines(candidate).data
            )
        except (ValueError, SourceError) as error:
            report.refused = f"the result would not parse ({error})"
            report.added.clear()
            return report
        if _valid(reloaded, report) and not dry_run:
            write_atomically(path, candidate)
    return report


BATCH = 500
"""Variants of one file held before they are written: memory stays bounded on a long session."""


@dataclass
class ImportSummary:
    """Everything ``workbench import`` reports."""

    files: dict[Path, FileReport] = field(default_factory=dict)
    calls: int = 0
    unfinished: int = 0
    formats: set[str] = field(default_factory=set)
    unknown: dict[str, int] = field(default_factory=dict)
    """``TOOL.API`` nobody knows -> how many calls (drawn by the generic surfaces)."""

    def count(self, what: str) -> int:
        return sum(len(getattr(report, what)) for report in self.files.values())


NESTED_CALLS = 200
"""The most of a subagent's calls kept on the call that started it (the card shows a few)."""


def with_nested_calls(call: ToolCall, nested: list[ToolCall]) -> ToolCall:
    """``call`` with the calls of the subagent it started as its state's ``calls`` (what the
    agents' Task card nests: name, input, whether it failed), unless its state already says."""
    if not nested or not isinstance(call.state, dict | None) or "calls" in (call.state or {}):
        return call
    calls = [
        {"name": item.name, "input": item.args, "isError": kind_of(item) == "error"}
        for item in nested[:NESTED_CALLS]
    ]
    return replace(call, state={**(call.state or {}), "calls": calls})


class Importer:
    """Turns calls into variants and writes them, a batch per file at a time."""

    def __init__(
        self,
        root: Path,
        *,
        redactor: TranscriptRedactor,
        mapping: Mapping[str, str] | None = None,
        known: Mapping[str, frozenset[str]] | None = None,
        dry_run: bool = False,
    ) -> None:
        self.root = root
        self.redactor = redactor
        self.mapping = dict(mapping or {})
        self.known = dict(known or {})
        self.dry_run = dry_run
        self.summary = ImportSummary()
        self._batches: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self._unknown: dict[tuple[str, str], bool] = {}  # (tool, api) -> an MCP server's?
        self._seen: dict[tuple[str, str], set[str]] = {}
        self._children: dict[str, list[ToolCall]] = {}
        """A subagent's calls, by the call that started it, until that call ends (a reader
        gives a call when its result comes, so the subagent's come first)."""

    def add(self, call: ToolCall, format: str) -> None:
        self.summary.formats.add(format)
        if call.parent_call is not None and call.outcome != "unfinished":
            nested = self._children.setdefault(call.parent_call, [])
            if len(nested) < NESTED_CALLS:
                nested.append(call)
        call = with_nested_calls(call, self._children.pop(call.id, []))
        if call.outcome == "unfinished":
            self.summary.unfinished += 1
            return
        self.summary.calls += 1
        target = resolve(call, format, self.mapping, self.known)
        key = (target.tool, target.api)
        if not target.known:
            name = f"{target.tool}.{target.api}"
            self.summary.unknown[name] = self.summary.unknown.get(name, 0) + 1
            self._unknown[key] = call.server is not None or call.name.startswith("mcp__")
        variant = variant_of(call, self.redactor)
        seen = self._seen.setdefault(key, set())
        if variant["id"] in seen:
            # The same call twice in this run (a transcript given twice): it is already handled.
            self._report(key).unchanged.append(variant["id"])
            return
        seen.add(variant["id"])
        batch = self._batches.setdefault(key, [])
        batch.append(variant)
        if len(batch) >= BATCH:
            self._flush(key)

    def _report(self, key: tuple[str, str]) -> FileReport:
        path = fixture_path(self.root, *key)
        if path not in self.summary.files:
            self.summary.files[path] = FileReport(path, *key)
        return self.summary.files[path]

    def _flush(self, key: tuple[str, str]) -> None:
        variants = self._batches.pop(key, [])
        if not variants:
            return
        report = self._report(key)
        own_file = report.created and bool(report.added) and not self.dry_run
        written = write_variants(
            report.path, *key, variants, dry_run=self.dry_run, own_file=own_file
        )
        report.created = report.created or written.created
        report.added += written.added
        report.unchanged += written.unchanged
        report.conflicting += written.conflicting
        report.refused = report.refused or written.refused

    def finish(self) -> ImportSummary:
        for key in list(self._batches):
            self._flush(key)
        for key, mcp in self._unknown.items():
            report = self._report(key)
            if report.added and not report.refused and not self.dry_run:
                self._describe(report, mcp=mcp)
        return self.summary

    def _describe(self, report: FileReport, *, mcp: bool) -> None:
        """Give a tool nobody knows a manifest beside its fixtures (as F2 does for a live
        server's), naming only the imported API, so the files check and draw generically."""
        manifest = ToolManifest(
            identifier=report.tool,
            meta=ToolMeta(
                title=report.tool,
                description="Imported from agent transcripts by `workbench import`.",
            ),
            api=[ToolApi(name=report.api, description=IMPORTED_API_DESCRIPTION)],
            type="mcp" if mcp else "builtin",
        )
        path = report.path.parent / "manifest.yaml"
        try:
            save_manifest_api(path, manifest, report.api)
        except RecordingError as error:
            report.refused = str(error)
            return
        report.manifest = path
