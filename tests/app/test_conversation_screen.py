"""The conversation view (`workbench open TRANSCRIPT`) through its keys: next and previous
call, next error, the filter, folded thinking, nesting, replay, saving a call with F2, and a
10,000-call session opened without reading it all."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from textual.pilot import Pilot
from textual.widgets import Input, Markdown

from tests.app.test_approval_in_view import footer_entries
from workbench.app.app import WorkbenchApp
from workbench.app.screens.conversation_screen import ConversationScreen
from workbench.app.screens.save_fixture_screen import SaveFixtureScreen
from workbench.app.widgets.conversation_list import ConversationList
from workbench.app.widgets.tool_card import ToolCard
from workbench.project import open_project
from workbench.rendering.screen import screen_text, settle
from workbench.transcripts.conversation import CallRow, MessageRow, ProblemRow

SAMPLES = Path(__file__).resolve().parents[1] / "transcripts" / "samples"
CLAUDE = SAMPLES / "claude-code.jsonl"
CALCULATOR = Path(__file__).resolve().parents[1] / "snapshots" / "sessions" / "calculator.json"
SIZE = (120, 40)


def write_session(path: Path, calls: int, *, error_at: int | None = None) -> Path:
    """A Claude Code session of ``calls`` Bash calls, a prompt every 50; ``error_at`` fails."""
    with path.open("w", encoding="utf-8") as stream:
        for index in range(calls):
            if index % 50 == 0:
                prompt = {"type": "user", "message": {"role": "user", "content": f"step {index}"}}
                stream.write(json.dumps(prompt) + "\n")
            call_id = f"toolu_{index:06d}"
            use = {"type": "tool_use", "id": call_id, "name": "Bash"}
            use["input"] = {"command": f"make step-{index}"}
            stream.write(
                json.dumps(
                    {
                        "type": "assistant",
                        "timestamp": "2026-01-05T10:00:00.000Z",
                        "message": {"role": "assistant", "content": [use]},
                    }
                )
                + "\n"
            )
            result = {"type": "tool_result", "tool_use_id": call_id, "content": f"ok {index}"}
            result["is_error"] = index == error_at
            stream.write(
                json.dumps(
                    {
                        "type": "user",
                        "timestamp": "2026-01-05T10:00:00.100Z",
                        "message": {"role": "user", "content": [result]},
                    }
                )
                + "\n"
            )
    return path


async def wait_for(pilot: Pilot[None], predicate: Callable[[], bool], timeout: float = 20) -> None:
    started = time.perf_counter()
    while not predicate():
        assert time.perf_counter() - started < timeout, "condition not reached in time"
        await pilot.pause(0.05)


def app_on(path: Path) -> WorkbenchApp:
    return WorkbenchApp(open_project, transcript=path, animate=False)


async def opened(pilot: Pilot[None]) -> ConversationScreen:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConversationScreen))
    screen = pilot.app.screen
    assert isinstance(screen, ConversationScreen)
    await wait_for(pilot, lambda: screen.conversation is not None and screen.row_index is not None)
    await settle(pilot)
    return screen


def selected_inspector(screen: ConversationScreen, call_id: str) -> str:
    """The Inspector line of a call as its card draws it (plain text)."""
    row = next(r for r in screen.rows if isinstance(r, CallRow) and r.call.id == call_id)
    assert row.inspector
    return row.inspector


def selected(screen: ConversationScreen) -> CallRow:
    row = screen.selected_call
    assert row is not None
    return row


@pytest.fixture
def project_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text('[tool.workbench]\nfixtures = ["fixtures"]\n')
    (tmp_path / "fixtures").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


async def test_keys_walk_calls_errors_and_nesting(project_dir: Path) -> None:
    async with app_on(CLAUDE).run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        # The first call is selected at once, drawn as its card at its ending.
        assert selected(screen).call.name == "Bash"
        card = screen.query_one(ToolCard)
        assert card.call_state is not None and card.call_state.phase.value == "done"
        # Titled and drawn by the agent's own package, though no fixture of the project
        # calls it (not "generic surfaces").
        assert "Claude Code · Bash" in screen_text(pilot.app)
        assert "claude-code · Bash" not in screen_text(pilot.app)
        assert "generic surfaces" not in screen_text(pilot.app)
        await pilot.press("j")
        assert selected(screen).call.name == "Read"
        await pilot.press("k")
        assert selected(screen).call.id == "toolu_bash_ok"
        await pilot.press("x")  # The next error.
        assert (selected(screen).call.id, selected(screen).is_error) == ("toolu_read_err", True)
        await pilot.press("x")  # None after it: the selection stays.
        assert selected(screen).call.id == "toolu_read_err"
        # The subagent's call is listed right under the Task that started it, one level in.
        calls = [row for row in screen.rows if isinstance(row, CallRow)]
        names = [(row.call.id, row.depth) for row in calls]
        task = names.index(("toolu_task", 0))
        assert names[task + 1] == ("toolu_sub_bash", 1)
        listing = screen.query_one(ConversationList)

        def row_text(call_id: str) -> str:
            index = next(
                i
                for i, row in enumerate(screen.rows)
                if isinstance(row, CallRow) and row.call.id == call_id
            )
            return str(listing.get_option(str(index)).prompt)

        assert row_text("toolu_task").startswith("  ✓ ")
        assert row_text("toolu_sub_bash").startswith("    ✓ ")
        # Each call's row is its Inspector line, as its card opens with it.
        inspector = selected_inspector(screen, "toolu_sub_bash")
        assert row_text("toolu_sub_bash") == f"    ✓ {inspector}"
        listing.highlight_row(
            screen.rows.index(
                next(
                    r
                    for r in screen.rows
                    if isinstance(r, CallRow) and r.call.id == "toolu_sub_bash"
                )
            )
        )
        await settle(pilot)
        assert f"│ {inspector[:30]}" in screen_text(pilot.app)


@pytest.mark.parametrize("session", [CLAUDE, CALCULATOR], ids=["claude-code", "calculator"])
@pytest.mark.parametrize("size", [(60, 24), (80, 24), (120, 40)])
async def test_the_footer_leads_with_finding_a_call_and_never_cuts_an_entry(
    project_dir: Path, size: tuple[int, int], session: Path
) -> None:
    async with app_on(session).run_test(size=size) as pilot:
        screen = await opened(pilot)
        entries = footer_entries(pilot.app)  # Asserts each entry drawn is whole.
        # At 60 columns the tree folded itself: its key takes the filter's place (in the tree).
        third = "^b Show tree" if size[0] < 64 else "/ Filter"
        assert entries[:3] == ["j Next call", "x Next error", third]
        if size[0] < 64:
            await pilot.press("ctrl+b")  # The list's arrows are the tree's.
        await pilot.press("up")  # The model's words: fewer keys apply, others take the room.
        await settle(pilot)
        assert screen.selected_call is None
        assert footer_entries(pilot.app)[:3] == ["j Next call", "x Next error", "/ Filter"]


async def test_at_60_columns_the_tree_folds_and_the_card_keeps_a_readable_width(
    project_dir: Path,
) -> None:
    async with app_on(CLAUDE).run_test(size=(60, 24)) as pilot:
        screen = await opened(pilot)
        card = screen.query_one(ToolCard)
        assert not screen.query_one("#sidebar").display
        assert card.card_width >= 55  # The screen's width but the stage's gutter.
        assert "│ Ran: export OPENAI_API_KEY=[redacted] && make build" in screen_text(pilot.app)
        await pilot.press("j")  # The keys that find a call need no tree.
        await settle(pilot)
        assert selected(screen).call.name == "Read" and card.card_width >= 55
        await pilot.press("ctrl+b")  # Asked for, the tree comes back at its floor.
        await settle(pilot)
        assert screen.query_one("#sidebar").display and card.card_width >= 36
        await pilot.press("ctrl+b")
        await pilot.press("slash")  # The filter is the tree's: it brings the tree back.
        await settle(pilot)
        assert screen.query_one("#sidebar").display
        assert isinstance(screen.focused, Input)


async def test_the_models_words_are_listed_without_markdown_marks(project_dir: Path) -> None:
    async with app_on(CALCULATOR).run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        listing = screen.query_one(ConversationList)
        index = next(
            i
            for i, row in enumerate(screen.rows)
            if isinstance(row, MessageRow) and row.message.role == "assistant"
        )
        assert str(listing.get_option(str(index)).prompt) == "  · I will calculate both:"


async def test_a_problem_row_says_what_is_wrong_without_quoting(project_dir: Path) -> None:
    async with app_on(CLAUDE).run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        listing = screen.query_one(ConversationList)
        shown = [
            str(listing.get_option(str(index)).prompt)
            for index, row in enumerate(screen.rows)
            if isinstance(row, ProblemRow)
        ]
        assert shown == [
            "  ⚠ line 20: hologram: unknown record type",
            "  ⚠ line 21: not JSON (expecting value)",
        ]
        # Selected, it is told in full; nothing there folds, so no fold key is offered.
        listing.highlight_row(
            max(i for i, r in enumerate(screen.rows) if isinstance(r, ProblemRow))
        )
        await settle(pilot)
        assert "A line the reader could not use" in screen_text(pilot.app)
        assert not any(entry.startswith("e ") for entry in footer_entries(pilot.app))


async def test_filter_by_tool_error_and_words(project_dir: Path) -> None:
    async with app_on(CLAUDE).run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        listing = screen.query_one(ConversationList)

        def listed() -> list[str]:
            return [
                row.call.id
                for index in range(listing.option_count)
                if isinstance(
                    row := screen.rows[int(listing.get_option_at_index(index).id or 0)], CallRow
                )
            ]

        await pilot.press("slash")
        field = screen.query_one("#conversation-filter", Input)
        assert field.has_focus
        await pilot.press(*"tool:grep")
        await settle(pilot)
        assert listed() == ["toolu_grep_empty"]
        field.value = "error"
        await settle(pilot)
        assert listed() == ["toolu_read_err"]
        field.value = "compiler"  # Free words: the title, args or content.
        await settle(pilot)
        assert listed() == ["toolu_task", "toolu_sub_bash"]
        field.value = "tool:github"  # An MCP call by its server's name.
        await settle(pilot)
        assert listed() == ["toolu_mcp_issues"]
        await pilot.press("enter")
        assert listing.has_focus
        assert selected(screen).call.id == "toolu_mcp_issues"
        assert "1 match" in screen_text(pilot.app)
        await pilot.press("slash")
        assert field.has_focus
        await pilot.press("escape")  # Back to the list, the filter kept.
        assert listing.has_focus and field.value == "tool:github"
        field.value = ""
        await settle(pilot)
        assert len(listed()) == 8
        assert listing.option_count == len(screen.rows)


async def test_thinking_is_folded_until_e(project_dir: Path) -> None:
    async with app_on(CLAUDE).run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        listing = screen.query_one(ConversationList)
        thinking = next(
            index
            for index, row in enumerate(screen.rows)
            if getattr(getattr(row, "message", None), "role", None) == "thinking"
        )
        listing.highlight_row(thinking)
        await settle(pilot)
        assert "folded" in screen_text(pilot.app)
        assert "Run the build first." not in screen_text(pilot.app)
        await pilot.press("e")
        await settle(pilot)
        assert "Run the build first." in screen_text(pilot.app)


async def test_untrusted_text_is_never_markup_nor_a_secret(project_dir: Path) -> None:
    session = project_dir / "hostile.jsonl"
    lines = [
        {"type": "user", "message": {"role": "user", "content": "[@click=app.quit]Quit[/] me"}},
        {
            "type": "assistant",
            "message": {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "[bold red]not bold[/] \x1b]52;c;aGk=\x07 done"},
                    {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": "Bash",
                        "input": {"command": "export API_KEY=sk-proj-abcdefghijklmnopqrstuvwx"},
                    },
                ],
            },
        },
        {
            "type": "user",
            "message": {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "[link=x]y[/]"}
                ],
            },
        },
    ]
    session.write_text("".join(json.dumps(line) + "\n" for line in lines))
    async with app_on(session).run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        text = screen_text(pilot.app)
        assert "[@click=app.quit]Quit[/] me" in text
        assert "sk-proj-abcdefghijklmnopqrstuvwx" not in text
        screen.query_one(ConversationList).highlight_row(1)  # The assistant's words.
        await settle(pilot)
        shown = screen.query_one("#message-text", Markdown).source
        assert "[bold red]not bold[/]" in shown
        assert "\x1b" not in shown
        await pilot.press("j")
        await settle(pilot)
        text = screen_text(pilot.app)
        assert "[link=x]y[/]" in text
        assert "sk-proj-abcdefghijklmnopqrstuvwx" not in text
        assert pilot.app.is_running  # The [@click=...] never ran.


async def test_replay_steps_each_call_through_its_phases(project_dir: Path) -> None:
    async with app_on(CLAUDE).run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        card = screen.query_one(ToolCard)
        phases: list[str] = []
        calls: list[str] = []
        await pilot.press("s", "s", "s")  # x1 -> x2 -> x5 -> instant
        assert screen.call_view.stepper.speed == "instant"
        original = screen._show_state

        def noting(state):  # type: ignore[no-untyped-def]
            phases.append(state.phase.value)
            calls.append(selected(screen).call.id)
            original(state)

        screen._show_state = noting  # type: ignore[method-assign]
        await pilot.press("p")
        await wait_for(pilot, lambda: not screen.call_view.stepper.playing and len(calls) > 10)
        # Every call from the first to the last, each from its arguments to its ending.
        assert calls[0] == "toolu_bash_ok" and calls[-1] == "toolu_bash_long"
        assert phases[0] == "args-streaming"
        assert {"executing", "done", "failed", "skipped"} <= set(phases)
        assert card.call_state is not None and card.call_state.phase.value == "done"


async def test_replay_plays_a_subagents_calls_while_its_task_runs(project_dir: Path) -> None:
    async with app_on(CLAUDE).run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        seen: list[tuple[str, str]] = []
        await pilot.press("s", "s", "s")  # instant
        task = next(
            i
            for i, r in enumerate(screen.rows)
            if isinstance(r, CallRow) and r.call.id == "toolu_task"
        )
        screen.query_one(ConversationList).highlight_row(task)
        await settle(pilot)
        original = screen._show_state

        def noting(state):  # type: ignore[no-untyped-def]
            seen.append((selected(screen).call.id, state.phase.value))
            original(state)

        screen._show_state = noting  # type: ignore[method-assign]
        await pilot.press("p")
        await wait_for(pilot, lambda: not screen.call_view.stepper.playing and len(seen) > 3)
        order = [call for call, _ in seen]
        # The Task starts and runs, its subagent's Bash plays through its phases, then the Task
        # ends, then the next call: as the session recorded them, not as they are listed.
        assert order.index("toolu_sub_bash") > order.index("toolu_task")
        assert ("toolu_task", "executing") in seen[: order.index("toolu_sub_bash")]
        assert ("toolu_task", "done") not in seen[: order.index("toolu_sub_bash")]
        sub_phases = [phase for call, phase in seen if call == "toolu_sub_bash"]
        assert sub_phases[0] == "args-streaming" and sub_phases[-1] == "done"
        task_done = seen.index(("toolu_task", "done"))
        assert task_done > max(i for i, (call, _) in enumerate(seen) if call == "toolu_sub_bash")
        assert task_done < order.index("toolu_bash_long")
        assert order[-1] == "toolu_bash_long"


async def test_f2_saves_the_selected_call_as_a_fixture(project_dir: Path) -> None:
    async with app_on(CLAUDE).run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        assert selected(screen).call.id == "toolu_bash_ok"
        await pilot.press("f2")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SaveFixtureScreen))
        await settle(pilot)
        await pilot.press("ctrl+s")
        saved = project_dir / "recordings" / "claude-code" / "Bash.yaml"
        await wait_for(pilot, saved.exists)
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConversationScreen))
    data = yaml.safe_load(saved.read_text())
    [variant] = data["variants"]
    assert variant["id"] == "toolu_bash_ok"
    assert variant["args"]["command"].startswith("export OPENAI_API_KEY=[redacted]")
    assert "sk-proj" not in saved.read_text()
    catalog = open_project().catalog
    # The file checks: its tool has a manifest (the agents' package, or one written beside it).
    assert "claude-code" in catalog.tools
    assert catalog.resolve_ref(f"{saved}#toolu_bash_ok").variant.kind == "typical"


async def test_a_10000_call_session_opens_on_its_first_page(project_dir: Path) -> None:
    session = write_session(project_dir / "long.jsonl", 10_000, error_at=7_000)
    async with app_on(session).run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        assert screen.conversation is not None
        # Only a page is read and listed, not the session.
        assert not screen.conversation.done
        first_page = len(screen.rows)
        assert first_page < 1_000
        assert "so far" in screen_text(pilot.app)
        # The next error is 7,000 calls on: the view reads on until it finds it.
        await pilot.press("x")
        await wait_for(
            pilot, lambda: screen.selected_call is not None and selected(screen).is_error
        )
        assert selected(screen).call.id == "toolu_007000"
        # Inspector lines are drawn for the rows in view, not for every call read on the way.
        error = selected(screen)
        await wait_for(pilot, lambda: error.inspector is not None)
        calls = [row for row in screen.rows if isinstance(row, CallRow)]
        assert calls[0].inspector is not None  # The first screen's.
        assert calls[3_000].inspector is None
        assert sum(row.inspector is not None for row in calls) < 500
        assert not screen.conversation.done or len(screen.rows) > first_page
        await asyncio.sleep(0)


async def test_project_transcripts_are_in_the_tree_and_open_there(
    project_dir: Path,
) -> None:
    sessions = project_dir / "sessions"
    sessions.mkdir()
    (sessions / "build.jsonl").write_bytes(CLAUDE.read_bytes())
    (project_dir / "pyproject.toml").write_text(
        '[tool.workbench]\nfixtures = ["fixtures"]\ntranscripts = ["sessions/*.jsonl"]\n'
    )
    from workbench.app.screens.fixture_screen import FixtureScreen
    from workbench.app.widgets.tool_tree import ToolTree

    app = WorkbenchApp(open_project, animate=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, FixtureScreen))
        await app.workers.wait_for_complete()
        await settle(pilot)
        tree = pilot.app.screen.query_one(ToolTree)
        assert "💬 Transcripts" in screen_text(pilot.app)
        leaf = next(
            node
            for node in tree.nodes()
            if node.data == ("transcript", str(sessions.resolve() / "build.jsonl"))
        )
        tree.move_cursor(leaf)
        tree.focus()
        await pilot.press("enter")
        screen = await opened(pilot)
        assert selected(screen).call.name == "Bash"
        await pilot.press("backspace")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, FixtureScreen))


async def test_rows_take_the_new_theme_colours(project_dir: Path) -> None:
    from workbench.surfaces.context import DARK_PALETTE, LIGHT_PALETTE

    async with app_on(CLAUDE).run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        listing = screen.query_one(ConversationList)
        before = listing.highlighted

        def turn_colour() -> str:
            prompt = listing.get_option_at_index(0).prompt
            return str(getattr(prompt, "style", ""))

        assert DARK_PALETTE.accent in turn_colour()
        await pilot.press("t")
        await settle(pilot)
        assert LIGHT_PALETTE.accent in turn_colour()
        assert listing.highlighted == before
        assert selected(screen).call.id == "toolu_bash_ok"


async def test_a_read_that_fails_mid_session_keeps_what_was_read(
    project_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = write_session(project_dir / "long.jsonl", 2_000)
    async with app_on(session).run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        assert screen.conversation is not None and not screen.conversation.done
        listed = len(screen.rows)

        def broken(self: object, rows: int = 0) -> list[object]:
            raise OSError(5, "Input/output error")

        monkeypatch.setattr(type(screen.conversation), "load", broken)
        await pilot.press("x")  # No error yet: it reads on, and the read fails.
        await wait_for(pilot, lambda: screen.conversation is not None and screen.conversation.done)
        await settle(pilot)
        assert pilot.app.is_running
        assert len(screen.rows) == listed
        assert "stopped reading: Input/output error" in " ".join(
            str(notification.message) for notification in pilot.app._notifications
        )


async def test_replay_reads_on_past_what_is_read(
    project_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import workbench.app.screens.conversation_screen as module

    # The cursor on the last row read asks for no more by itself: the replay must.
    monkeypatch.setattr(module, "READ_AHEAD", 0)
    session = write_session(project_dir / "long.jsonl", 1_000)
    async with app_on(session).run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        assert screen.conversation is not None
        await wait_for(pilot, lambda: not screen._reading)  # The page read after the first.
        assert not screen.conversation.done
        last = max(i for i, row in enumerate(screen.rows) if isinstance(row, CallRow))
        read = len(screen.rows)
        screen.query_one(ConversationList).highlight_row(last)
        await settle(pilot)
        await pilot.press("s", "s")  # x5: paced, so the keys still get through
        await pilot.press("p")
        # The last call read replays, then the replay reads on to the next one.
        await wait_for(pilot, lambda: screen.row_index is not None and screen.row_index > last, 60)
        await pilot.press("p")  # Stop.
        assert len(screen.rows) > read


def test_only_paired_markdown_marks_leave_a_listed_line() -> None:
    """Code ticks and bold go, their words stay; a dunder name in ticks and ``a ** b`` keep
    their underscores and stars (all of them went before)."""
    from workbench.app.widgets.conversation_list import row_text
    from workbench.transcripts.conversation import MessageRow
    from workbench.transcripts.model import Message

    def listed(text: str) -> str:
        return row_text(MessageRow(Message("assistant", text, line=1)), {}).plain.strip()

    assert listed("I will **calculate** both:") == "· I will calculate both:"
    assert listed("Edit `__init__.py` first") == "· Edit __init__.py first"
    assert listed("a ** b is a power") == "· a ** b is a power"
    assert listed("## The plan") == "· The plan"
