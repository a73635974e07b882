"""The kept first screen: a start keeps its settled first frame; the next same start shows it
at once, hands over to the real screen without a visible change, and replays the keys typed
meanwhile; a frame drawn from anything that has changed since is never shown."""

from __future__ import annotations

import asyncio
import importlib.util
import inspect
import json
import os
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual import events
from textual.app import App
from textual.widgets import Input

from tests.reload.conftest import DevProject, scaffolded
from workbench.app import first_screen
from workbench.app.app import WorkbenchApp, picture_of
from workbench.app.first_screen import FirstScreenStore, KeptFrame
from workbench.app.screens.fixture_screen import FixtureScreen
from workbench.app.screens.start_screen import StartScreen
from workbench.project import Project

SIZE = (100, 30)
COMMAND = ["--open=None", "watch=False"]


@dataclass
class Start:
    app: WorkbenchApp
    shown_kept: bool
    """The start's first screen was a kept picture."""
    frames: list[KeptFrame] = field(default_factory=list)
    """Every frame that reached the terminal, in order."""
    screen: Any = None
    """The screen at the end."""
    seen: Any = None
    """What ``at_end`` saw, before the app ended."""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[DevProject]:
    """A scaffolded project, started from a folder inside it (the config is found above)."""
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "project"
    root.mkdir()
    for made in scaffolded(root):
        (root / "work").mkdir()
        monkeypatch.chdir(root / "work")
        yield made


def store(command: list[str] = COMMAND) -> FirstScreenStore:
    kept = FirstScreenStore.for_start(command)
    assert kept is not None
    return kept


async def start(
    load: Callable[[], Project],
    kept: FirstScreenStore,
    monkeypatch: pytest.MonkeyPatch,
    *,
    size: tuple[int, int] = SIZE,
    while_starting: Callable[[Any], Any] | None = None,
    at_end: Callable[[WorkbenchApp], Any] | None = None,
) -> Start:
    """One start, until its first frame is out and kept; ``while_starting(pilot)`` runs
    right after the first frame."""
    path = list(sys.path)  # Loading a project adds its folder: a real start begins anew.
    app = WorkbenchApp(load, animate=False, first_screen=kept)
    outcome = Start(app, shown_kept=False)
    display = App._display

    def recording(self: App[Any], screen: Any, renderable: Any) -> None:
        if renderable is not None and screen is self.screen:
            if not outcome.frames:
                outcome.shown_kept = isinstance(screen, StartScreen)
            outcome.frames.append(picture_of(screen, self.theme))
        display(self, screen, renderable)

    monkeypatch.setattr(App, "_display", recording)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        if while_starting is not None:
            await while_starting(pilot)
        for _ in range(500):
            if app.first_frame is not None:
                break
            await asyncio.sleep(0.02)
        await app.workers.wait_for_complete()
        await pilot.pause()
        outcome.screen = app.screen
        if at_end is not None:
            seen = at_end(app)  # Awaited when it waits (held keys replay one at a time).
            outcome.seen = await seen if inspect.isawaitable(seen) else seen
    sys.path[:] = path
    return outcome


async def test_the_next_start_shows_the_kept_frame_and_the_real_screen_takes_over_unseen(
    project: DevProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await start(project.open, store(), monkeypatch)
    assert not first.shown_kept
    assert first.app.first_frame is not None
    kept = store()
    written = kept.file.stat()
    picture = kept.picture(*SIZE, first.app.theme)
    assert picture == first.app.first_frame
    text = "\n".join("".join(text for text, _ in line) for line in picture.lines)
    assert "several-matches  typical" in text and "Looked up:" in text, text

    second = await start(project.open, store(), monkeypatch)
    assert second.shown_kept
    # What reached the terminal was the kept frame, then the settled real screen: the same.
    assert second.frames and all(frame == picture for frame in second.frames)
    assert isinstance(second.screen, FixtureScreen)
    assert second.app.first_frame == picture
    # Nothing new to keep: the file is as the first start wrote it.
    assert kept.file.stat().st_mtime_ns == written.st_mtime_ns


async def test_keys_typed_while_the_kept_frame_shows_act_on_the_real_screen(
    project: DevProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await start(project.open, store(), monkeypatch)
    screen = first.screen
    assert isinstance(screen, FixtureScreen) and screen.catalog is not None
    refs = list(screen.catalog.all_variants())
    assert len(refs) > 1 and screen.ref == refs[0]
    loading = threading.Event()

    def slow_load() -> Project:
        assert loading.wait(20)
        return project.open()

    async def type_then_load(pilot: Any) -> None:
        await pilot.press("down")
        await pilot.pause()
        assert isinstance(pilot.app.screen, StartScreen)  # Held, not lost.
        loading.set()

    second = await start(slow_load, store(), monkeypatch, while_starting=type_then_load)
    assert second.shown_kept
    screen = second.screen
    assert isinstance(screen, FixtureScreen)
    assert screen.ref is not None and screen.ref.key == refs[1].key


async def test_a_key_before_a_drawn_first_screen_settles_acts_and_nothing_is_kept(
    project: DevProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    loading = threading.Event()

    def slow_load() -> Project:
        assert loading.wait(20)
        return project.open()

    async def type_then_load(pilot: Any) -> None:
        await pilot.press("ctrl+t")  # The theme: a key the start acts on at once.
        loading.set()

    first = await start(slow_load, store(), monkeypatch, while_starting=type_then_load)
    assert not first.shown_kept
    assert first.app.theme == "textual-light"
    assert not store().file.exists()


def _edit_fixture(project: DevProject) -> None:
    fixture = next((project.package / "fixtures").glob("*.yaml"))
    fixture.write_text(fixture.read_text().replace("label: ", "label: Edited "))


def _add_fixture(project: DevProject) -> None:
    fixture = next((project.package / "fixtures").glob("*.yaml"))
    (fixture.parent / "more.yaml").write_text(fixture.read_text())


def _edit_surface(project: DevProject) -> None:
    surfaces = project.package / "surfaces.py"
    surfaces.write_text(surfaces.read_text() + "\n# edited\n")


def _write_config_nearer(project: DevProject) -> None:
    (project.root / "work" / "pyproject.toml").write_text("[project]\nname = 'x'\n")


CHANGES: dict[str, Callable[[DevProject], None]] = {
    "a fixture file edited": _edit_fixture,
    "a fixture file added": _add_fixture,
    "a surface module edited": _edit_surface,
    "a config file where the start looks for one": _write_config_nearer,
}


@pytest.mark.parametrize("change", list(CHANGES))
async def test_a_frame_is_never_shown_once_a_file_it_came_from_changed(
    project: DevProject, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    await start(project.open, store(), monkeypatch)
    assert store().picture(*SIZE, "textual-dark") is not None
    CHANGES[change](project)
    assert store().picture(*SIZE, "textual-dark") is None
    again = await start(project.open, store(), monkeypatch)
    assert not again.shown_kept


async def test_a_frame_is_shown_only_to_the_same_command_environment_and_size(
    project: DevProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    await start(project.open, store(), monkeypatch)
    assert not (await start(project.open, store(["--open=x#y"]), monkeypatch)).shown_kept
    assert not (await start(project.open, store(), monkeypatch, size=(120, 40))).shown_kept
    # Both sizes are kept now; the first is still shown.
    assert (await start(project.open, store(), monkeypatch)).shown_kept
    monkeypatch.setenv("WORKBENCH_SOMETHING", "1")
    assert not (await start(project.open, store(), monkeypatch)).shown_kept


@pytest.mark.parametrize(
    "content",
    [
        b"not json",
        b'{"identity": 1}',
        "control",
        "foreign",
        "stamps",
        "style",
    ],
)
async def test_a_broken_or_foreign_kept_file_is_ignored_and_replaced(
    project: DevProject, monkeypatch: pytest.MonkeyPatch, content: bytes | str
) -> None:
    await start(project.open, store(), monkeypatch)
    file = store().file
    data = json.loads(file.read_bytes())
    if content == "control":  # A picture that would write an escape sequence raw.
        data["pictures"][0]["lines"][0][0][0] = "\x1b]0;owned\x07"
        file.write_text(json.dumps(data))
    elif content == "stamps":  # Valid JSON, but a stamp that is not one.
        data["inputs"]["files"][0] = ["only a path"]
        file.write_text(json.dumps(data))
    elif content == "style":  # A style Rich cannot parse.
        data["pictures"][0]["styles"][0] = "not a (style"
        file.write_text(json.dumps(data))
    elif content == "foreign":  # Another start's file under this one's name.
        data["identity"]["cwd"] = "/elsewhere"
        file.write_text(json.dumps(data))
    else:
        assert isinstance(content, bytes)
        file.write_bytes(content)
    again = await start(project.open, store(), monkeypatch)
    assert not again.shown_kept
    assert (await start(project.open, store(), monkeypatch)).shown_kept


def test_a_start_with_no_home_folder_keeps_nothing_and_does_not_fail(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A container's user with no passwd entry and no HOME: Path.home() raises.
    import pwd

    def no_entry(uid: int) -> Any:
        raise KeyError(uid)

    for name in ("HOME", "XDG_CACHE_HOME", "WORKBENCH_CACHE_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(pwd, "getpwuid", no_entry)
    assert FirstScreenStore.for_start(COMMAND) is None


printable = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=8)


@given(
    styles=st.lists(st.sampled_from(["", "bold", "#ff0000 on #000000", "italic underline"])),
    lines=st.lists(st.lists(st.tuples(printable, st.integers(0, 3)), max_size=5), max_size=5),
)
def test_a_picture_reads_back_as_it_was_written(
    styles: list[str], lines: list[list[tuple[str, int]]]
) -> None:
    styles = styles or [""]
    picture = KeptFrame(
        width=10,
        height=len(lines),
        theme="textual-dark",
        styles=tuple(styles),
        lines=tuple(
            tuple((text, index % len(styles)) for text, index in line if text.isprintable())
            for line in lines
        ),
    )
    assert KeptFrame.from_json(json.loads(json.dumps(picture.to_json()))) == picture


def test_the_folder_keeps_the_most_recent_files_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(first_screen, "MAX_FILES", 3)
    frame = KeptFrame(1, 1, "textual-dark", ("",), ((("x", 0),),))
    files = []
    for number in range(5):
        kept = store([f"--open=file#{number}"])
        assert kept.save(frame, [], [])
        os.utime(kept.file, ns=(number * 10**9, number * 10**9))  # Written in this order.
        files.append(kept.file)
    remaining = sorted(path.name for path in files[0].parent.iterdir())
    # The fifth save pruned: the three newest stay (the fifth, the fourth, the third).
    assert remaining == sorted(path.name for path in files[2:])


def test_a_frame_of_another_size_is_kept_beside_one_drawn_from_other_modules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A start that showed a kept frame imports modules the one that drew it did not: the
    # frames of both sizes stay, and a change to either start's files drops both.
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    small = KeptFrame(1, 1, "textual-dark", ("",), ((("a", 0),),))
    large = KeptFrame(2, 2, "textual-dark", ("",), ((("b", 0),), (("c", 0),)))
    assert store().save(small, [], [])
    module = tmp_path / "first_screen_extra_module.py"
    module.write_text("VALUE = 1\n")
    # Imported without a new sys.path entry (that would make it another start's file).
    spec = importlib.util.spec_from_file_location("first_screen_extra_module", module)
    assert spec is not None and spec.loader is not None
    sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sys.modules[spec.name])
    try:
        assert store().save(large, [], [])
        assert store().picture(1, 1, "textual-dark") == small
        assert store().picture(2, 2, "textual-dark") == large
        module.write_text("VALUE = 2\n")
        assert store().picture(1, 1, "textual-dark") is None
    finally:
        sys.modules.pop("first_screen_extra_module", None)


async def test_text_pasted_while_the_kept_frame_shows_reaches_the_real_screen(
    project: DevProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def filter_then_paste(pilot: Any) -> None:
        await pilot.press("slash")  # The tree's filter takes the paste.
        pilot.app.post_message(events.Paste("blank"))

    def typed(app: WorkbenchApp) -> str:
        return app.screen.query_one("#filter", Input).value

    async def once_replayed(app: WorkbenchApp) -> str:
        await _until(lambda: typed(app) == "blank")(app)
        return typed(app)

    second = await _start_typing(project, monkeypatch, filter_then_paste, once_replayed)
    assert second.seen == "blank"


# --- Defects a review found in the kept first screen, each fixed -------------------------


def _text(picture: KeptFrame) -> str:
    return "\n".join("".join(text for text, _ in line) for line in picture.lines)


async def test_a_file_edited_while_the_start_loads_does_not_keep_the_old_frame(
    project: DevProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An editor (or `git checkout`) saves a fixture just after the load read it: the frame
    # shows the old text, but the stamps, taken after the frame settled, are the new file's.
    def load_then_edit() -> Project:
        loaded = project.open()
        _edit_fixture(project)
        return loaded

    first = await start(load_then_edit, store(), monkeypatch)
    assert first.app.first_frame is not None
    assert "Edited" not in _text(first.app.first_frame)
    second = await start(project.open, store(), monkeypatch)
    # What the second start showed first was the old frame; the real one (edited) replaced it.
    assert not second.shown_kept, "the frame drawn before the edit was shown as current"


async def test_a_plugin_installed_since_the_last_start_is_not_shown_stale(
    project: DevProject, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # `pip install some-workbench-plugin` adds a dist-info to site-packages: the project then
    # loads one more tool package (here one that fails, so the problems panel says so).
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delenv("WORKBENCH_NO_PLUGINS", raising=False)
    first = await start(project.open, store(), monkeypatch)
    info = site / "review6_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: review6-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[workbench.tools]\nreview6 = review6_no_such_module:TOOLS\n"
    )
    second = await start(project.open, store(), monkeypatch)
    assert second.frames[-1] != first.app.first_frame  # The real screen differs ...
    assert not second.shown_kept, "... but the frame without the plugin was shown first"


async def test_a_transcript_added_where_the_config_globs_for_them_is_not_shown_stale(
    project: DevProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `transcripts = ["sessions/*.jsonl"]`: the tree lists each match under "Transcripts"; an
    # agent run writes a new session there.
    sessions = project.root / "sessions"
    sessions.mkdir()
    (sessions / "first.jsonl").write_text("{}\n")
    config = project.root / "pyproject.toml"
    config.write_text(
        config.read_text().replace(
            "[tool.workbench]\n", '[tool.workbench]\ntranscripts = ["sessions/*.jsonl"]\n'
        )
    )
    first = await start(project.open, store(), monkeypatch)
    assert first.app.first_frame is not None and "first.jsonl" in _text(first.app.first_frame)
    (sessions / "second.jsonl").write_text("{}\n")
    second = await start(project.open, store(), monkeypatch)
    assert "second.jsonl" in _text(second.frames[-1])  # The real screen lists it ...
    assert not second.shown_kept, "... but the frame without it was shown first"


async def test_a_kept_file_with_malformed_stamps_is_ignored_not_a_crash(
    project: DevProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    await start(project.open, store(), monkeypatch)
    file = store().file
    data = json.loads(file.read_bytes())
    for files, absent in ([[1]], []), ([[None, None]], []), ([], [None]):
        data["inputs"] = {"files": files, "absent": absent}
        file.write_text(json.dumps(data))
        assert store().picture(*SIZE, "textual-dark") is None


async def test_a_frame_with_a_no_break_space_or_an_emoji_sequence_is_kept_and_shown(
    project: DevProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The sanitizer draws both as they are (they are writing, not controls).
    fixture = next((project.package / "fixtures").glob("*.yaml"))
    fixture.write_text(
        fixture.read_text().replace("label: ", "label: 10\u00a0km \U0001f468\u200d\U0001f469 ", 1)
    )
    first = await start(project.open, store(), monkeypatch)
    assert first.app.first_frame is not None
    assert "10\u00a0km" in _text(first.app.first_frame)
    assert store().picture(*SIZE, "textual-dark") == first.app.first_frame
    assert (await start(project.open, store(), monkeypatch)).shown_kept


async def test_a_frame_that_cannot_be_kept_leaves_the_app_running(
    project: DevProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Keeping the frame is a cache, written on a worker thread after the first frame: an
    # error there (any bug in it, a project whose folders cannot be listed) must not end
    # the session the user just started.
    failed = threading.Event()

    def failing(*args: Any, **kwargs: Any) -> bool:
        failed.set()
        raise RuntimeError("the save failed")

    monkeypatch.setattr(FirstScreenStore, "save", failing)
    app = WorkbenchApp(project.open, animate=False, first_screen=store())
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(500):
            if failed.is_set():
                break
            await asyncio.sleep(0.02)
        assert failed.is_set()
        await asyncio.sleep(0.2)
        await pilot.pause()
        assert app.is_running and app.return_code is None, "the app ended"
        assert isinstance(app.screen, FixtureScreen)


def _until(condition: Callable[[], bool]) -> Callable[[WorkbenchApp], Awaitable[None]]:
    """An ``at_end`` that waits (up to 5 s) for ``condition``: held keys are replayed one
    refresh apart."""

    async def waiting(app: WorkbenchApp) -> None:
        for _ in range(250):
            if condition():
                return
            await asyncio.sleep(0.02)

    return waiting


def _record_typing(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Each key and paste the app acts on (not held), with the screen it acts on."""
    from textual import events

    acted: list[tuple[str, str]] = []
    seen: set[int] = set()  # A key no widget took comes back to the app: once is enough.
    on_event = App.on_event

    async def recording(self: App[Any], event: events.Event) -> None:
        if isinstance(event, events.Key | events.Paste) and id(event) not in seen:
            seen.add(id(event))
            name = event.key if isinstance(event, events.Key) else f"paste {event.text}"
            acted.append((type(self.screen).__name__, name))
        await on_event(self, event)

    monkeypatch.setattr(App, "on_event", recording)
    return acted


async def _start_typing(
    project: DevProject,
    monkeypatch: pytest.MonkeyPatch,
    typing: Callable[[Any], Any],
    at_end: Callable[[WorkbenchApp], Awaitable[Any]] | None = None,
) -> Start:
    """A start that shows the kept frame while ``typing(pilot)`` types, then loads."""
    await start(project.open, store(), monkeypatch)
    loading = threading.Event()

    def slow_load() -> Project:
        assert loading.wait(20)
        return project.open()

    async def type_then_load(pilot: Any) -> None:
        await typing(pilot)
        await pilot.pause()
        assert isinstance(pilot.app.screen, StartScreen)
        loading.set()

    second = await start(
        slow_load, store(), monkeypatch, while_starting=type_then_load, at_end=at_end
    )
    assert second.shown_kept
    return second


async def test_a_key_queued_at_the_hand_over_acts_after_the_held_keys(
    project: DevProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textual import events

    acted = _record_typing(monkeypatch)
    hand_over = WorkbenchApp._first_frame_out

    def key_arrives_meanwhile(self: WorkbenchApp) -> None:
        # The driver queued the next key typed ("x") while the screen was settling.
        if self._held is not None:
            self.post_message(events.Key("x", "x"))
        hand_over(self)

    monkeypatch.setattr(WorkbenchApp, "_first_frame_out", key_arrives_meanwhile)
    await _start_typing(
        project, monkeypatch, lambda pilot: pilot.press("slash"), _until(lambda: len(acted) >= 2)
    )
    assert acted == [("FixtureScreen", "slash"), ("FixtureScreen", "x")]
