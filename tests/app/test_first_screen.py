"""The kept first screen: a start keeps its settled first frame; the next same start shows it
at once, hands over to the real screen without a visible change, and replays the keys typed
meanwhile; a frame drawn from anything that has changed since is never shown."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import sys
import threading
from collections.abc import Callable, Iterator
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
            outcome.seen = at_end(app)
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
    elif content == "foreign":  # Another start's file under this one's name.
        data["identity"]["cwd"] = "/elsewhere"
        file.write_text(json.dumps(data))
    else:
        assert isinstance(content, bytes)
        file.write_bytes(content)
    again = await start(project.open, store(), monkeypatch)
    assert not again.shown_kept
    assert (await start(project.open, store(), monkeypatch)).shown_kept


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
    await start(project.open, store(), monkeypatch)
    loading = threading.Event()

    def slow_load() -> Project:
        assert loading.wait(20)
        return project.open()

    async def filter_then_load(pilot: Any) -> None:
        await pilot.press("slash")  # The tree's filter takes the paste.
        pilot.app.post_message(events.Paste("blank"))
        await pilot.pause()
        assert isinstance(pilot.app.screen, StartScreen)
        loading.set()

    second = await start(
        slow_load,
        store(),
        monkeypatch,
        while_starting=filter_then_load,
        at_end=lambda app: app.screen.query_one("#filter", Input).value,
    )
    assert second.shown_kept
    assert second.seen == "blank"
