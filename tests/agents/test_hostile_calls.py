"""Imported calls carry whatever the agent (or a damaged transcript) wrote: no args, args of
the wrong type, any state, control sequences in the content. The agents' surfaces draw all
of it without raising and pass no escape sequence through."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.console import Console

from workbench.core.call_state import CallState, Phase
from workbench.core.result import ToolError, ToolResult
from workbench.surfaces.context import SurfaceContext
from workbench.tools.agent_packages import agent_packages

PACKAGES = agent_packages()
SURFACES = [
    (package.identifier, api.name, package.surfaces)
    for package in PACKAGES
    for api in package.manifest.api
]
ARG_NAMES = [
    "command", "cmd", "file_path", "path", "dir_path", "pattern", "query", "url", "prompt",
    "content", "old_string", "new_string", "edits", "input", "todos", "plan", "questions",
    "include", "description", "subagent_type", "offset", "limit", "start_line", "end_line",
    "fact", "new_source", "output_mode", "names_only", "bash_id", "explanation",
    "timeout", "timeout_ms", "workdir", "directory", "sandbox_permissions", "justification",
    "with_escalated_permissions", "replace_all", "allow_multiple", "instruction", "paths",
    "absolute_path", "run_in_background", "edit_mode", "cell_id", "prompt",
]  # fmt: skip
HOSTILE = st.text(alphabet=st.sampled_from("ab \n\t\x1b[31m\x07]8;;\u202e→1:/"), max_size=60)
STATE_KEYS = [
    *ARG_NAMES, "stdout", "stderr", "exit_code", "file", "numLines", "startLine", "totalLines",
    "filenames", "numFiles", "results", "calls", "totalToolUseCount", "status", "step", "name",
    "isError", "code", "title",
]  # fmt: skip
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**6) | HOSTILE,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(STATE_KEYS), inner, max_size=5)
    ),
    max_leaves=12,
)


def _drawn(ctx: SurfaceContext, surface: Any) -> str:
    console = Console(width=ctx.width, record=True, color_system=None, file=None)
    with console.capture():
        console.print(surface(ctx))
    return console.export_text()


READ = next(entry for entry in SURFACES if entry[:2] == ("claude-code", "Read"))
ASK = next(entry for entry in SURFACES if entry[:2] == ("claude-code", "AskUserQuestion"))


@settings(max_examples=150, deadline=None)
@example(
    which=READ,
    args={"file_path": 3},
    state={"file": {"numLines": 2, "startLine": "one", "totalLines": "many"}},
    content="\x1b]52;c;aGk=\x07two",
    failed=False,
    width=60,
)
@example(
    which=ASK,
    args={"questions": [{"question": 3, "options": 7, "multiSelect": "yes"}]},
    state=None,
    content="x",
    failed=False,
    width=60,
)
@given(
    which=st.sampled_from(SURFACES),
    args=st.dictionaries(st.sampled_from(ARG_NAMES), JSON, max_size=6),
    state=JSON,
    content=HOSTILE,
    failed=st.booleans(),
    width=st.sampled_from([30, 60, 100]),
)
def test_any_call_is_drawn_without_raising_or_escapes(
    which: tuple[str, str, Any],
    args: dict[str, Any],
    state: Any,
    content: str,
    failed: bool,
    width: int,
) -> None:
    tool, api, surfaces = which
    error = ToolError(type="ToolError", message=content or "failed") if failed else None
    result = ToolResult(success=not failed, content=content or "x", state=state, error=error)
    for phase, call_result in ((Phase.EXECUTING, None), (Phase.DONE, result)):
        if failed and phase is Phase.DONE:
            phase = Phase.FAILED
        call = CallState(tool=tool, api=api, phase=phase, args=args, result=call_result)
        ctx = SurfaceContext(state=call, width=width)
        kinds = (
            surfaces.inspectors,
            surfaces.placeholders,
            surfaces.renders,
            surfaces.interventions,
            {api: surfaces.portal} if surfaces.portal is not None else {},
        )
        for kind in kinds:
            surface = kind.get(api)
            if surface is None:
                continue
            text = _drawn(ctx, surface)
            assert "\x1b" not in text and "\x07" not in text, (tool, api, text)
