"""A host's model rule applied to content: what is kept, where it was cut, what is said."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.hosts import HostProfile, bundled_hosts, model_view
from workbench.hosts.tokens import approximation, tokenizer

HOSTS = bundled_hosts()
LONG = "ERROR first\n" + "\n".join(f"row {i}: " + "x" * 40 for i in range(20_000)) + "\nTOTAL 20000"


def host(name: str) -> HostProfile:
    return HOSTS.get(name)


def test_every_bundled_profile_loads_and_names_a_source_for_every_number() -> None:
    assert HOSTS.problems == []
    assert {"claude-code", "codex", "gemini-cli", "opencode", "crush", "none"} <= set(
        HOSTS.profiles
    )
    for profile in HOSTS.profiles.values():
        for cap in profile.model.caps:
            assert cap.source.strip()
        if profile.user is not None:
            assert profile.user.source.strip()


def test_short_content_reaches_every_model_whole() -> None:
    for profile in HOSTS.profiles.values():
        view = model_view("42 rows found.", profile)
        assert not view.cut and view.text == "42 rows found."


def test_gemini_keeps_a_fifth_from_the_start_and_the_rest_from_the_end() -> None:
    view = model_view(LONG, host("gemini-cli"))
    assert view.cut and view.cap is not None and view.cap.limit == 40_000
    assert len(view.head) == 8_000 and len(view.tail) == 32_000
    assert view.text.startswith("Output too large. Showing first 8,000 and last 32,000 characters.")
    assert "characters omitted] ..." in view.text
    assert view.keeps("ERROR first") and view.keeps("TOTAL 20000")
    assert view.omitted == len(LONG) - 40_000


def test_opencode_keeps_the_head_under_both_caps_and_loses_the_last_line() -> None:
    view = model_view(LONG, host("opencode"))
    assert view.cut and view.tail == ""
    assert len(view.head.encode()) <= 50 * 1024 and view.head.count("\n") < 2000
    assert view.keeps("ERROR first") and not view.keeps("TOTAL 20000")
    assert view.resumes_at_line is None and view.cut_after_line == view.head.count("\n") + 1


def test_claude_code_spills_past_its_token_cap_and_warns_past_the_lower_one() -> None:
    view = model_view(LONG, host("claude-code"))
    assert view.cut and view.warned
    assert "Full output saved to" in view.text
    assert len(view.head) <= 2_000 and not view.keeps("TOTAL 20000")
    medium = "word " * 12_000  # past 10,000 tokens, under 25,000
    warned = model_view(medium, host("claude-code"))
    assert warned.warned and not warned.cut


def test_a_rule_for_shell_results_leaves_an_mcp_result_whole() -> None:
    view = model_view(LONG, host("crush"), kind="mcp")
    assert not view.applies and not view.cut and view.text == LONG
    shell = model_view(LONG, host("crush"), kind="shell")
    assert shell.cut and "lines truncated] ..." in shell.text


def test_a_host_that_reads_structured_content_gets_the_state() -> None:
    profile = host("none").model_copy(
        update={"model": host("none").model.model_copy(update={"reads": "structured"})}
    )
    view = model_view("3 rows", profile, state={"rows": [1, 2, 3]})
    assert view.text == '{"rows": [1, 2, 3]}'


def test_tokens_are_counted_offline_by_a_named_tokenizer() -> None:
    counted = tokenizer()
    assert counted.exact and counted.name == "cl100k_base"
    assert counted.count("hello world") == 2
    rough = approximation()
    assert not rough.exact and rough.count("12345678") == 2


@settings(max_examples=60, deadline=None)
@given(
    text=st.text(min_size=0, max_size=3000),
    name=st.sampled_from(["codex", "gemini-cli", "opencode", "crush", "claude-code"]),
    limit=st.integers(1, 400),
)
def test_whatever_the_text_the_kept_parts_come_from_it_and_fit_the_cap(
    text: str, name: str, limit: int
) -> None:
    base = host(name)
    caps = tuple(cap.model_copy(update={"limit": limit}) for cap in base.model.caps)
    profile = base.model_copy(update={"model": base.model.model_copy(update={"caps": caps})})
    view = model_view(text, profile, kind="shell", tokens=approximation())
    assert text.startswith(view.head) or view.head in text
    assert text.endswith(view.tail)
    if view.cut and view.cap is not None and profile.model.over_cap == "cut":
        unit = view.cap.unit
        kept = view.original.in_unit(unit) - view.omitted
        assert kept <= view.cap.limit + (1 if unit == "lines" else 0)
    else:
        assert view.text == text or view.cut


def test_a_stray_brace_in_a_projects_wording_is_shown_as_written() -> None:
    base = host("gemini-cli")
    profile = base.model_copy(
        update={"model": base.model.model_copy(update={"notice": "cut {here"})}
    )
    view = model_view(LONG, profile)
    assert view.cut and view.text.startswith("cut {here\n")
