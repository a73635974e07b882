"""What a server asks mid-call, judged and cleaned: URLs, form schemas, sampling requests."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from workbench.core.interventions import (
    MAX_SAMPLING_MESSAGES,
    MAX_SAMPLING_TEXT_CHARS,
    InputAnswer,
    ServerMessage,
    ServerMessages,
    clipped_text,
    elicitation_request,
    form_schema,
    sampling_request,
    schema_problem,
    url_refusal,
    url_warnings,
)

EVERYTHING_SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "Your full, legal name"},
        "check": {"type": "boolean"},
        "email": {"type": "string", "format": "email"},
        "integer": {"type": "integer", "minimum": 1, "maximum": 100, "default": 42},
        "untitled": {"type": "string", "enum": ["Monica", "Rachel"]},
        "multi": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
        "titled": {
            "type": "string",
            "oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}],
        },
        "titledMulti": {
            "type": "array",
            "items": {"anyOf": [{"const": "x", "title": "Ex"}, {"const": "y", "title": "Why"}]},
        },
    },
    "required": ["name"],
}


def test_hostile_urls_are_refused_and_web_urls_are_offered() -> None:
    for url in (
        "javascript:alert(1)",
        "JavaScript:alert(document.cookie)",
        "file:///etc/passwd",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox",
        "ftp://example.com/x",
        "https://",
        "example.com/no-scheme",
        "https://exa mple.com/",
        "https://example.com/\x1b]8;;evil\x07",
        "https://example.com/" + "a" * 5000,
    ):
        assert url_refusal(url) is not None, url
    assert "javascript: refused" in (url_refusal("javascript:alert(1)") or "")
    assert "file: refused" in (url_refusal("file:///etc/passwd") or "")
    assert url_refusal("https://example.com/login?x=1") is None
    assert url_refusal("http://127.0.0.1:8080/cb") is None


@given(st.text(max_size=200))
def test_an_offered_url_is_always_http_with_a_host(url: str) -> None:
    if url_refusal(url) is None:
        assert url.lower().startswith(("http://", "https://"))
        assert not any(ord(character) < 0x21 for character in url)


def test_url_warnings_point_at_what_deceives() -> None:
    [userinfo] = [
        warning
        for warning in url_warnings("https://bank.com@evil.example/")
        if "before '@'" in warning
    ]
    assert "evil.example" in userinfo
    assert any("not encrypted" in item for item in url_warnings("http://example.com/"))
    assert url_warnings("http://localhost:3000/") == []
    assert any("internationalised" in item for item in url_warnings("https://xn--pple-43d.com/"))


def test_a_refused_url_elicitation_keeps_a_clean_url_and_says_why() -> None:
    request = elicitation_request(
        "Sign in\x1b[31m now", mode="url", url="javascript:alert(1)", elicitation_id="e1"
    )
    assert request.mode == "url" and request.message == "Sign in␛[31m now"
    assert request.refused is not None and "javascript" in request.refused


def test_the_schemas_of_the_spec_make_forms_and_others_are_refused() -> None:
    assert schema_problem(EVERYTHING_SCHEMA) is None
    assert schema_problem({"type": "object", "properties": {}}) is None
    assert "type 'object'" in (
        schema_problem({"type": "object", "properties": {"a": {"type": "object"}}}) or ""
    )
    assert "multi-select" in (
        schema_problem({"type": "object", "properties": {"a": {"type": "array"}}}) or ""
    )
    assert schema_problem({"type": "array"}) is not None
    assert schema_problem("nope") is not None
    assert schema_problem(
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": "a"}
    )
    many = {
        "type": "object",
        "properties": {f"f{index}": {"type": "string"} for index in range(60)},
    }
    assert "60 fields" in (schema_problem(many) or "")
    request = elicitation_request("Fill", schema={"type": "object", "properties": {"a": []}})
    assert request.refused is not None and "cannot be shown" in request.refused


def test_titled_enums_become_plain_enums_for_the_form_and_keep_their_titles() -> None:
    schema = form_schema(EVERYTHING_SCHEMA)
    assert schema["properties"]["titled"] == {
        "type": "string",
        "enum": ["r", "g"],
        "enumNames": ["Red", "Green"],
    }
    assert schema["properties"]["titledMulti"]["items"] == {
        "type": "string",
        "enum": ["x", "y"],
        "enumNames": ["Ex", "Why"],
    }
    assert schema["properties"]["name"] == EVERYTHING_SCHEMA["properties"]["name"]


def test_a_ten_megabyte_sampling_request_is_kept_cut_with_its_true_size() -> None:
    text = "x" * 10_000_000
    request = sampling_request(
        {
            "messages": [{"role": "user", "content": {"type": "text", "text": text}}],
            "maxTokens": 100,
            "systemPrompt": "s" * 20_000,
            "modelPreferences": {"hints": [{"name": "claude"}], "costPriority": 0.5},
        }
    )
    [message] = request.messages
    assert len(message.text) == MAX_SAMPLING_TEXT_CHARS and message.chars == 10_000_000
    assert message.truncated
    assert request.total_chars == 10_000_000
    assert (
        request.system_prompt is not None and len(request.system_prompt) == MAX_SAMPLING_TEXT_CHARS
    )
    assert request.system_prompt_chars == 20_000
    assert request.preferences == [("model hints", "claude"), ("cost priority", "0.5")]


def test_a_sampling_request_with_many_messages_keeps_the_first_and_counts_all() -> None:
    messages = [
        {"role": "user", "content": [{"type": "text", "text": f"m{index}"}]} for index in range(100)
    ]
    messages.append(
        {"role": "assistant", "content": {"type": "image", "data": "AAAA", "mimeType": "image/png"}}
    )
    request = sampling_request({"messages": messages, "maxTokens": 5})
    assert len(request.messages) == MAX_SAMPLING_MESSAGES
    assert request.total_messages == 101
    image = sampling_request({"messages": messages[-1:], "maxTokens": 5}).messages[0]
    assert image.text.startswith("[image: image/png")


def test_answers_say_what_happened_in_words() -> None:
    assert InputAnswer("accept", content={"name": "Ada"}).summary() == 'accepted: {"name": "Ada"}'
    assert InputAnswer("decline", note="no answer").summary() == "declined (no answer)"
    sampling = sampling_request({"messages": [], "maxTokens": 1})
    assert InputAnswer("decline").summary(sampling) == "rejected"
    assert (
        InputAnswer("accept", reply="4", model="m").summary(sampling) == "approved, reply '4' as m"
    )


def test_server_messages_keep_the_latest_and_count_all() -> None:
    messages = ServerMessages(limit=3)
    for index in range(10):
        messages = messages.add(ServerMessage(index, "log", f"line {index}"))
    assert messages.total == 10 and messages.dropped == 7
    assert [item.text for item in messages.items] == ["line 7", "line 8", "line 9"]


@given(st.text(max_size=300), st.integers(min_value=1, max_value=200))
def test_clipped_text_is_clean_and_says_when_it_cut(value: str, limit: int) -> None:
    shown = clipped_text(value, limit)
    assert not any(ord(character) < 0x20 and character not in "\n\t" for character in shown)
    cut = shown.endswith(" characters]") and "… [showing " in shown
    assert cut or len(shown) <= limit


def test_clipped_text_names_both_counts() -> None:
    assert clipped_text("x" * 2_500, 2_000) == "x" * 2_000 + "… [showing 2,000 of 2,500 characters]"
