"""Property tests: any mix of valid and malformed records never raises and loses no valid call;
redaction takes out a secret whatever text surrounds it."""

from __future__ import annotations

import io
import json
import string
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.transcripts.gemini import SHELL_TAIL, shell_state
from workbench.transcripts.importer import variant_of
from workbench.transcripts.locating import DEPTH, LocatedDocument, decode_located
from workbench.transcripts.model import ToolCall, TranscriptProblem
from workbench.transcripts.readers import read_records, read_transcript, records_of
from workbench.transcripts.records import Record, jsonl_records
from workbench.transcripts.redaction import TranscriptRedactor

json_scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=20)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def malformed(format: str) -> st.SearchStrategy[bytes]:
    """Lines a reader must report and pass over: not JSON, not objects, or misshapen records."""
    known_types = {
        "claude-code": ["user", "assistant", "summary", "wormhole"],
        "codex": ["response_item", "event_msg", "session_meta", "wormhole"],
        "openai-chat": ["user", "assistant", "tool", "narrator"],
    }[format]
    type_key = "role" if format == "openai-chat" else "type"
    misshapen = st.builds(
        lambda kind, value, key: {type_key: kind, key: value},
        st.sampled_from(known_types),
        json_values,
        st.sampled_from(["message", "payload", "content", "tool_calls", "other"]),
    )
    as_line = st.one_of(
        st.binary(max_size=40),
        st.text(max_size=40).map(lambda text: text.encode("utf-8", "surrogatepass")),
        json_values.map(lambda value: json.dumps(value).encode()),
        misshapen.map(lambda value: json.dumps(value).encode()),
        misshapen.map(lambda value: json.dumps(value).encode()[:-3]),  # cut short
    )
    return as_line.map(lambda line: line.replace(b"\n", b" ").replace(b"\r", b" "))


def call_lines(format: str, index: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The line that starts call ``index`` and the line that ends it."""
    call_id = f"call_{index}"
    if format == "claude-code":
        use = {
            "type": "assistant",
            "message": {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": call_id, "name": "Bash", "input": {}}],
            },
        }
        result = {
            "type": "user",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": call_id, "content": "ok"}],
            },
        }
    elif format == "codex":
        use = {
            "type": "response_item",
            "payload": {
                "type": "function_call",
                "name": "shell",
                "arguments": "{}",
                "call_id": call_id,
            },
        }
        result = {
            "type": "response_item",
            "payload": {"type": "function_call_output", "call_id": call_id, "output": "ok"},
        }
    else:
        use = {
            "role": "assistant",
            "tool_calls": [{"id": call_id, "function": {"name": "f", "arguments": "{}"}}],
        }
        result = {"role": "tool", "tool_call_id": call_id, "content": "ok"}
    return use, result


@st.composite
def sessions(draw: st.DrawFn) -> tuple[str, bytes, set[str]]:
    format = draw(st.sampled_from(["claude-code", "codex", "openai-chat"]))
    count = draw(st.integers(min_value=0, max_value=6))
    parallel = draw(st.booleans())
    pairs = [call_lines(format, index) for index in range(count)]
    valid = (
        [use for use, _ in pairs] + [result for _, result in pairs]
        if parallel
        else [line for pair in pairs for line in pair]
    )
    lines: list[bytes] = []
    for line in valid:
        lines.extend(draw(st.lists(malformed(format), max_size=3)))
        lines.append(json.dumps(line).encode())
    lines.extend(draw(st.lists(malformed(format), max_size=3)))
    return format, b"\n".join(lines) + b"\n", {f"call_{index}" for index in range(count)}


@given(sessions())
def test_any_mix_never_raises_and_loses_no_valid_call(session: tuple[str, bytes, set[str]]) -> None:
    format, data, expected = session
    found = list(read_records(jsonl_records(io.BytesIO(data), "s.jsonl"), format, "s.jsonl"))
    done = {entry.id for entry in found if isinstance(entry, ToolCall) and entry.outcome == "done"}
    assert expected <= done
    for entry in found:
        if isinstance(entry, TranscriptProblem):
            assert entry.format().startswith("s.jsonl:")


SECRETS = st.one_of(
    st.text(string.ascii_letters + string.digits, min_size=20, max_size=40).map(
        lambda body: "sk-proj-" + body
    ),
    st.text(string.ascii_letters + string.digits, min_size=36, max_size=36).map(
        lambda body: "ghp_" + body
    ),
    st.text(string.ascii_letters + string.digits, min_size=16, max_size=16).map(
        lambda body: "AKIA" + body.upper()
    ),
)


@given(st.text(max_size=60), SECRETS, st.text(max_size=60))
def test_a_secret_is_redacted_whatever_surrounds_it(before: str, secret: str, after: str) -> None:
    redacted = TranscriptRedactor(home=None).text(f"{before} {secret} {after}")
    assert secret not in redacted


@given(
    st.sampled_from(["Authorization", "Cookie", "X-Api-Key"]),
    st.text(string.ascii_letters + string.digits + "=;._-", min_size=8, max_size=40),
)
def test_a_header_value_is_redacted(header: str, value: str) -> None:
    redacted = TranscriptRedactor().value({"headers": f"{header}: {value}", "raw": {header: value}})
    assert value not in json.dumps(redacted)


SAMPLES = Path(__file__).parent / "samples"
SAMPLE_FORMATS = {
    "claude-code.jsonl": "claude-code",
    "codex.jsonl": "codex",
    "gemini.json": "gemini",
    "acp.jsonl": "acp",
    "openai-chat.json": "openai-chat",
    "openai-responses.json": "openai-responses",
    "anthropic.json": "anthropic",
    "otel.json": "otel",
}


def mutated(data: st.DataObject, value: Any, depth: int = 0) -> Any:
    """``value`` with one part somewhere inside it replaced by any JSON value."""
    if depth > 8 or not isinstance(value, dict | list) or not value or data.draw(st.booleans()):
        return data.draw(json_values)
    if isinstance(value, dict):
        key = data.draw(st.sampled_from(sorted(value)))
        return {**value, key: mutated(data, value[key], depth + 1)}
    index = data.draw(st.integers(0, len(value) - 1))
    return [*value[:index], mutated(data, value[index], depth + 1), *value[index + 1 :]]


@settings(max_examples=400)
@given(st.sampled_from(sorted(SAMPLE_FORMATS)), st.data())
def test_a_record_of_any_shape_never_stops_a_reader(name: str, data: st.DataObject) -> None:
    records = [record for record in records_of(SAMPLES / name, name) if isinstance(record, Record)]
    index = data.draw(st.integers(0, len(records) - 1))
    changed = mutated(data, records[index].data)
    if not isinstance(changed, dict):
        changed = {"value": changed}
    records[index] = Record(records[index].line, changed, records[index].where)
    entries = list(read_records(records, SAMPLE_FORMATS[name], name))
    redactor = TranscriptRedactor()
    for entry in entries:
        if isinstance(entry, ToolCall):
            variant = variant_of(entry, redactor)
            assert variant["id"] and variant["label"]


WHITESPACE = st.lists(st.sampled_from([" ", "\t", "\n", "\r\n", "  \n"]), max_size=3).map("".join)


@st.composite
def gemini_documents(draw: st.DrawFn) -> tuple[str, list[tuple[str, int]]]:
    """A gemini-cli recording laid out any way JSON allows, and what each record should yield
    with the line where it starts (counted from the text, not from a parser)."""
    text = "{" + draw(WHITESPACE) + '"sessionId": "s",' + draw(WHITESPACE) + '"messages": ['
    expected: list[tuple[str, int]] = []
    items = draw(st.lists(st.integers(0, 3), max_size=8))
    calls = 0
    for index, shape in enumerate(items):
        text += draw(WHITESPACE)
        item: Any
        if shape == 0:
            item = draw(json_scalars | st.lists(json_scalars, max_size=2))
        elif shape == 1:
            item = {"type": "wormhole", "extra": draw(json_values)}
        elif shape == 2:
            item = {"type": "user", "content": "hi", "extra": draw(json_values)}
        else:
            names = [f"call-{calls + number}" for number in range(draw(st.integers(0, 3)))]
            calls += len(names)
            item = {
                "type": "gemini",
                "extra": draw(json_values),
                "toolCalls": [
                    {"id": name, "name": "read_file", "args": {"v": draw(json_values)}}
                    for name in names
                ],
            }
        layout = draw(st.sampled_from([None, 0, 1, 2]))
        serialised = json.dumps(item, indent=layout)
        start = text.count("\n") + 1
        text += serialised + draw(WHITESPACE) + ("," if index < len(items) - 1 else "")
        if shape in (0, 1):
            expected.append(("problem", start))
        elif shape == 2:
            expected.append(("user", start))
        else:
            for call in item["toolCalls"]:
                # The call's object opens at the brace just before its (first) "id" key.
                opening = text.rfind("{", 0, text.index(json.dumps(call["id"]) + ","))
                expected.append(("call", text.count("\n", 0, opening) + 1))
    text += draw(WHITESPACE) + "]" + draw(WHITESPACE) + "}" + draw(WHITESPACE)
    return text, expected


@settings(max_examples=200)
@given(gemini_documents())
def test_a_record_of_a_document_is_named_by_the_line_it_starts_on(
    document: tuple[str, list[tuple[str, int]]],
) -> None:
    text, expected = document
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "session.json"
        path.write_text(text)
        found: list[tuple[str, int | None]] = []
        for entry in read_transcript(path, "gemini"):
            if isinstance(entry, TranscriptProblem):
                found.append(("problem", entry.line))
                assert entry.format().startswith(f"{path}:{entry.line}: ")
            elif isinstance(entry, ToolCall):
                found.append(("call", entry.line))
            elif entry.role == "user":
                found.append(("user", entry.line))
    assert found == expected


@settings(max_examples=300)
@given(json_values, st.sampled_from([None, 0, 2]))
def test_a_located_document_decodes_as_json_loads_does(value: Any, indent: int | None) -> None:
    text = json.dumps(value, indent=indent)
    assert decode_located(text).root == json.loads(text)


# Text that a scanner of JSON could take for structure: quotes, escapes, brackets, commas.
TRICKY_TEXT = st.text(alphabet='ab"\\{}[],:\n\u00e9 ', max_size=8)
tricky_values = st.recursive(
    st.none() | st.booleans() | st.integers() | TRICKY_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TRICKY_TEXT, inner, max_size=4),
    max_leaves=40,
)
BLANKS = st.sampled_from(["", " ", "\n", "\n  ", "\t", "\r\n"])


class _Layout:
    """Writes a value as JSON laid out any way, noting where a located document must say its
    upper objects and list items start (lists down to DEPTH, objects that are list items)."""

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw
        self.text = ""
        self.expected: dict[tuple[str, tuple[Any, ...]], Any] = {}

    def blank(self) -> None:
        self.text += self.draw(BLANKS)

    def line(self) -> int:
        return self.text.count("\n") + 1

    def whole(self, value: Any) -> None:
        self.text += json.dumps(value, indent=self.draw(st.sampled_from([None, 1])))

    def members(self, pairs: list[tuple[Any, Any]], write: Any) -> None:
        for index, (key, item) in enumerate(pairs):
            self.text += "," if index else ""
            self.blank()
            write(key, item)
            self.blank()
        if not pairs:
            self.blank()

    def value(self, value: Any, depth: int, path: tuple[Any, ...], *, item: bool) -> None:
        if isinstance(value, list) and depth <= DEPTH:
            lines: list[int] = []

            def write_item(index: int, item: Any) -> None:
                lines.append(self.line())
                self.value(item, depth + 1, (*path, index), item=True)

            self.text += "["
            self.members(list(enumerate(value)), write_item)
            self.text += "]"
            self.expected["items", path] = lines
        elif isinstance(value, dict) and depth <= DEPTH and item:

            def write_member(key: str, member: Any) -> None:
                self.text += json.dumps(key)
                self.blank()
                self.text += ":"
                self.blank()
                if isinstance(member, list) and depth < DEPTH:
                    self.value(member, depth + 1, (*path, key), item=False)
                else:
                    self.whole(member)

            self.expected["object", path] = self.line()
            self.text += "{"
            self.members(list(value.items()), write_member)
            self.text += "}"
        else:
            self.whole(value)


@st.composite
def laid_out_documents(draw: st.DrawFn) -> tuple[str, dict[tuple[str, tuple[Any, ...]], Any]]:
    """Any JSON document, some nested past DEPTH, and the lines where its upper parts start
    (counted as it is written, not by a parser)."""
    value = draw(tricky_values)
    for wrapper in draw(st.lists(st.sampled_from(["list", "object"]), max_size=DEPTH + 1)):
        value = [value] if wrapper == "list" else {draw(TRICKY_TEXT): value}
    layout = _Layout(draw)
    layout.blank()
    layout.value(value, 0, (), item=True)
    layout.blank()
    return layout.text, layout.expected


def _noted(located: LocatedDocument) -> dict[tuple[str, tuple[Any, ...]], Any]:
    """Every line the located document gives, by the path of the value it is for."""
    found: dict[tuple[str, tuple[Any, ...]], Any] = {}

    def visit(value: Any, path: tuple[Any, ...]) -> None:
        if located.line_of(value) is not None:
            found["object", path] = located.line_of(value)
        if located.item_lines(value) is not None:
            found["items", path] = located.item_lines(value)
        children = value.items() if isinstance(value, dict) else enumerate(value)
        for key, child in children:
            if isinstance(child, (dict, list)):
                visit(child, (*path, key))

    if isinstance(located.root, (dict, list)):
        visit(located.root, ())
    return found


@settings(max_examples=300)
@given(laid_out_documents())
def test_a_located_document_gives_the_line_each_upper_part_starts_on(
    document: tuple[str, dict[tuple[str, tuple[Any, ...]], Any]],
) -> None:
    text, expected = document
    located = decode_located(text)
    assert located.root == json.loads(text)
    assert _noted(located) == expected


def test_a_duplicated_key_is_located_where_the_value_json_loads_keeps_is() -> None:
    text = '{"messages": [{"a": [1]}, 5, 6],\n "messages": [\n {"b": 2},\n {"c": [\n 4]}]}'
    located = decode_located(text)
    messages = located.root["messages"]
    assert located.item_lines(messages) == [3, 4]
    assert [located.line_of(message) for message in messages] == [3, 4]
    assert located.item_lines(messages[1]["c"]) == [5]


SHELL_LABELS = tuple(f"{label}: " for label in (*SHELL_TAIL, "Stderr"))
SHELL_LINE = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"))


@given(
    st.lists(SHELL_LINE, min_size=1, max_size=6).filter(
        lambda lines: (
            bool(lines[-1])
            and not lines[-1].startswith(SHELL_LABELS)
            and not any(line.startswith("Stderr: ") for line in lines[1:])
        )
    ),
    st.integers(-255, 255),
)
def test_a_gemini_command_result_gives_back_what_was_printed_and_its_exit_code(
    printed: list[str], code: int
) -> None:
    stdout = "\n".join(printed)
    text = (
        f"Command: run it\nDirectory: (root)\nOutput: {stdout}\nError: (none)\n"
        f"Exit Code: {code}\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 7"
    )
    state = shell_state(text)
    assert state["exit_code"] == code
    assert state["stdout"] == ("" if stdout.strip() == "(empty)" else stdout)
