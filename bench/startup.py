"""Time to the first screen, in a pseudo-terminal: `workbench` against a bare Textual app.

Each run starts a fresh interpreter on a pseudo-terminal of 120x40, feeds what it writes to a
terminal emulator (pyte) and stops the clock at the first frame that shows the goal:

- bare: a Textual app with a header, a tree and a footer; the goal is its tree's label;
- workbench: the `workbench` command on the bundled fixtures; the goal is the first useful
  frame: the tree (its first variant's row, "arithmetic  typical") and that variant's tool
  card (its title, "Calculator · calculate", and the card's frame below it) on one screen.

Workbench is timed in the starts a user meets:

- kept first screen (the usual start): the last start kept its first frame and nothing it was
  drawn from changed, so it is shown at once and the project loads behind it;
- first screen drawn: none is kept (a new terminal size, an edited fixture or tool, a new
  Workbench): the start loads the project and draws the screen, the catalog cache warm;
- with --cold, also no cache at all (every cache folder deleted before the start).

Runs alternate (bare, workbench, ...) so all see the same machine. Wall time is from spawn to
that frame; CPU time and peak RSS are the child's own (read from /proc at that moment, so they
do not include the teardown). Prints medians, the spread, and the ratios (goal: workbench /
bare <= 1.3). The first response is timed too: a key sent as soon as the first frame is out
(space opens the bare app's tree; down moves Workbench to the second variant, whose card says
the call failed), and the clock stops at the frame that shows its effect: what a user who
acts at once waits for, the real screen taking over included.

With --breakdown, further runs of each say where the CPU time to that frame goes: the child
notes its CPU time after importing Textual, after Workbench's own imports and, for the drawn
first screen, when the project has loaded and when the fixture screen is mounted; the frame's
own CPU time ends the list.

    python bench/startup.py [--runs 9] [--cold] [--breakdown]
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import select
import shutil
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pyte

REPO = Path(__file__).resolve().parents[1]
COLUMNS, ROWS = 120, 40
TIMEOUT_S = 60.0

BARE = """
from textual.app import App
from textual.widgets import Footer, Header, Tree

class Bare(App):
    def compose(self):
        yield Header()
        yield Tree("tools")
        yield Footer()

Bare().run()
"""


@dataclass(frozen=True)
class Goal:
    """What a frame must show to stop the clock: ``first``, ``below`` it each of ``below``,
    and each of ``anywhere``."""

    first: str
    below: tuple[str, ...] = ()
    anywhere: tuple[str, ...] = ()


BARE_GOAL = Goal("▶ tools")
WORKBENCH = "from workbench.cli import main; main()"
# The card (its title, its frame below) and the tree's first variant row: the card alone is
# not the first screen.
WORKBENCH_GOAL = Goal("Calculator · calculate", below=("╰",), anywhere=("arithmetic  typical",))

# --breakdown: the same programs, noting their CPU time (process_time) as they pass milestones.
MARKER = """
import os, time
_marks = open(os.environ["BENCH_MARKS"], "w", buffering=1)
def mark(name):
    _marks.write(f"{name} {time.process_time()}\\n")
import textual.app
mark("textual")
"""
BARE_MARKED = MARKER + BARE
KEPT_MARKED = (
    MARKER
    + """
import workbench.cli, workbench.app.app
mark("imports")
workbench.cli.main()
"""
)
DRAWN_MARKED = (
    MARKER
    + """
import workbench.cli, workbench.app.app
import workbench.app.screens.fixture_screen
mark("imports")
import workbench.project as project
from workbench.app.screens.fixture_screen import FixtureScreen
_open = project.open_project
def open_project(*args, **kwargs):
    try:
        return _open(*args, **kwargs)
    finally:
        mark("project")
project.open_project = open_project
_mount = FixtureScreen.on_mount
def on_mount(self):
    mark("screen")
    _mount(self)
FixtureScreen.on_mount = on_mount
workbench.cli.main()
"""
)
BARE_STEPS = (("interpreter and Textual's imports", "textual"), ("the rest, to the frame", None))
KEPT_STEPS = (
    ("interpreter and Textual's imports", "textual"),
    ("Workbench's imports for the start", "imports"),
    ("the rest, to the frame", None),
)
DRAWN_STEPS = (
    ("interpreter and Textual's imports", "textual"),
    ("Workbench's own imports", "imports"),
    ("loading the project (worker thread)", "project"),
    ("composing and mounting the screen", "screen"),
    ("the rest, to the frame", None),
)


@dataclass(frozen=True)
class Response:
    """A key sent once the first frame is out, and what the screen shows once it has acted."""

    key: bytes
    goal: Goal


# The bare app's tree opens its root; Workbench's cursor moves to the second variant, whose
# card says its call failed.
BARE_RESPONSE = Response(b" ", Goal("▼ tools"))
WORKBENCH_RESPONSE = Response(b"\x1b[B", Goal("Calculation failed", below=("╰",)))


@dataclass
class Run:
    wall_s: float
    cpu_s: float
    rss_kib: int
    response_s: float | None = None
    """From the start to the frame that shows the answer to a key sent at the first frame."""


def _cpu_and_rss(pid: int) -> tuple[float, int]:
    with open(f"/proc/{pid}/stat", "rb") as handle:
        fields = handle.read().rsplit(b")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks  # utime + stime
    rss = 0
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmHWM:"):
                rss = int(line.split()[1])
    return cpu, rss


def _shows(screen: pyte.Screen, goal: Goal) -> bool:
    text = "\n".join(screen.display)
    if goal.first not in text or not all(part in text for part in goal.anywhere):
        return False
    # The rest of the goal must appear below the first part (the card's frame is drawn).
    rest = text[text.index(goal.first) :]
    return all(part in rest for part in goal.below)


def run_once(
    code: str,
    goal: Goal,
    env: dict[str, str],
    cwd: Path,
    *,
    response: Response | None = None,
    kept: Callable[[], bool] | None = None,
) -> Run:
    """Start ``code`` on a pty and return when the screen first shows ``goal`` (then, with
    ``response``, sends its key and waits for its goal; with ``kept``, lets the program run
    until ``kept()``)."""
    screen = pyte.Screen(COLUMNS, ROWS)
    stream = pyte.ByteStream(screen)
    started = time.perf_counter()
    pid, master = pty.fork()
    if pid == 0:  # The child: become the program.
        try:
            os.chdir(cwd)
            os.execve(sys.executable, [sys.executable, "-c", code], env)
        finally:
            os._exit(127)
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    try:
        while True:
            remaining = TIMEOUT_S - (time.perf_counter() - started)
            if remaining <= 0:
                raise TimeoutError(f"no frame showing {goal} in {TIMEOUT_S:g} s")
            ready, _, _ = select.select([master], [], [], remaining)
            if not ready:
                continue
            try:
                data = os.read(master, 1 << 16)
            except OSError:  # EIO: the child closed the terminal
                raise RuntimeError("the program exited before showing its first screen") from None
            stream.feed(data)
            if _shows(screen, goal):
                break
        wall = time.perf_counter() - started
        cpu, rss = _cpu_and_rss(pid)
        run = Run(wall, cpu, rss)
        if response is not None:
            os.write(master, response.key)
            _read_until(master, stream, started, lambda: _shows(screen, response.goal))
            run.response_s = time.perf_counter() - started
        if kept is not None:
            _read_until(master, stream, started, kept)
        return run
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(master)


def _read_until(
    master: int, stream: pyte.ByteStream, started: float, done: Callable[[], bool]
) -> None:
    """Feed what the program writes to ``stream`` until ``done()``."""
    while not done():
        remaining = TIMEOUT_S - (time.perf_counter() - started)
        if remaining <= 0:
            raise TimeoutError(f"not done in {TIMEOUT_S:g} s")
        ready, _, _ = select.select([master], [], [], min(remaining, 0.05))
        if ready:
            try:
                stream.feed(os.read(master, 1 << 16))
            except OSError:
                raise RuntimeError("the program exited before it was done") from None


def _environment() -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("TEXTUAL", "COLUMNS", "LINES"))
    }
    env.update(TERM="xterm-256color", COLORTERM="truecolor", COLUMNS=str(COLUMNS), LINES=str(ROWS))
    # An installed package has its bytecode: without it every run would time compiling ours.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _summary(name: str, runs: list[Run]) -> tuple[float, float, float]:
    walls = [run.wall_s * 1000 for run in runs]
    cpus = [run.cpu_s * 1000 for run in runs]
    rss = [run.rss_kib / 1024 for run in runs]
    print(
        f"{name:<30} wall median {statistics.median(walls):6.0f} ms "
        f"(min {min(walls):.0f}, max {max(walls):.0f})   "
        f"cpu median {statistics.median(cpus):6.0f} ms "
        f"(min {min(cpus):.0f}, max {max(cpus):.0f})   "
        f"peak RSS {statistics.median(rss):5.1f} MiB"
    )
    return statistics.median(walls), statistics.median(cpus), statistics.median(rss)


def _response(name: str, runs: list[Run]) -> float:
    times = [run.response_s * 1000 for run in runs if run.response_s is not None]
    print(
        f"{name:<30} first response median {statistics.median(times):6.0f} ms "
        f"(min {min(times):.0f}, max {max(times):.0f})"
    )
    return statistics.median(times)


def breakdown(
    code: str,
    goal: Goal,
    steps: tuple[tuple[str, str | None], ...],
    runs: int,
    env: dict[str, str],
    cwd: Path,
    before: Callable[[], None] = lambda: None,
) -> tuple[list[tuple[str, float]], int]:
    """The median CPU time of each step of ``steps`` (milestone names the child marks;
    ``None``: up to the frame that shows ``goal``) over ``runs`` starts (each after
    ``before()``), then of the whole, and how many starts passed the milestones out of that
    order."""
    spans: dict[str, list[float]] = {label: [] for label, _ in steps}
    totals: list[float] = []
    out_of_order = 0
    marks_file = cwd / "marks.txt"
    for _ in range(runs):
        before()
        run = run_once(code, goal, {**env, "BENCH_MARKS": str(marks_file)}, cwd)
        marks = dict(line.split() for line in marks_file.read_text().splitlines())
        previous = 0.0
        in_order = True
        for label, milestone in steps:
            at = float(marks[milestone]) if milestone is not None else run.cpu_s
            spans[label].append(at - previous)
            in_order = in_order and at >= previous
            previous = at
        out_of_order += not in_order
        totals.append(run.cpu_s)
    medians = [(label, statistics.median(values)) for label, values in spans.items()]
    return [*medians, ("in all (CPU to the frame)", statistics.median(totals))], out_of_order


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--cold", action="store_true", help="also measure starts with no cache")
    parser.add_argument(
        "--breakdown", action="store_true", help="also say where the CPU time to the frame goes"
    )
    options = parser.parse_args()
    env = _environment()
    # A project of its own (the bundled fixtures), so the caches live in a directory we own.
    with tempfile.TemporaryDirectory(prefix="workbench-startup-") as scratch:
        project = Path(scratch)
        # No pyproject.toml here: the caches go to the user's cache directory.
        cache = project / "xdg-cache"
        pictures = cache / "workbench" / "first-screen"
        env["XDG_CACHE_HOME"] = str(cache)
        env.pop("WORKBENCH_CACHE_DIR", None)
        env.pop("WORKBENCH_NO_CACHE", None)

        def kept() -> bool:
            return any(pictures.glob("*.json"))

        def forget_first_screen() -> None:
            shutil.rmtree(pictures, ignore_errors=True)

        def workbench_start(*, kept_before: bool = False) -> Run:
            # A key typed before a drawn first screen settles keeps it from being kept (the
            # key changed it): such a start is followed by one that keeps it, untimed.
            if kept_before and not kept():
                raise RuntimeError("no first screen was kept for this start")
            run = run_once(WORKBENCH, WORKBENCH_GOAL, env, project, response=WORKBENCH_RESPONSE)
            if not kept():
                keep_first_screen()
            return run

        def keep_first_screen() -> None:
            run_once(WORKBENCH, WORKBENCH_GOAL, env, project, kept=kept)

        # Warm the file cache and every cache so no side pays for a first read.
        run_once(BARE, BARE_GOAL, env, project)
        keep_first_screen()
        bare: list[Run] = []
        usual: list[Run] = []
        drawn: list[Run] = []
        cold: list[Run] = []
        for _ in range(options.runs):
            bare.append(run_once(BARE, BARE_GOAL, env, project, response=BARE_RESPONSE))
            usual.append(workbench_start(kept_before=True))
            forget_first_screen()
            drawn.append(workbench_start())
            if options.cold:
                shutil.rmtree(cache, ignore_errors=True)
                cold.append(workbench_start())
        spans: list[tuple[str, tuple[list[tuple[str, float]], int]]] = []
        if options.breakdown:
            keep_first_screen()  # The caches warm again.
            spans.append(
                (
                    "bare Textual app",
                    breakdown(BARE_MARKED, BARE_GOAL, BARE_STEPS, options.runs, env, project),
                )
            )
            spans.append(
                (
                    "workbench, kept first screen",
                    breakdown(KEPT_MARKED, WORKBENCH_GOAL, KEPT_STEPS, options.runs, env, project),
                )
            )
            spans.append(
                (
                    "workbench, first screen drawn",
                    breakdown(
                        DRAWN_MARKED,
                        WORKBENCH_GOAL,
                        DRAWN_STEPS,
                        options.runs,
                        env,
                        project,
                        before=forget_first_screen,
                    ),
                )
            )
    load = os.getloadavg()[0]
    print(
        f"{options.runs} runs each, alternating, {COLUMNS}x{ROWS} pty; "
        f"load average {load:.1f} on {os.cpu_count()} CPUs"
    )
    print(
        "timed to the first frame showing the bare app's tree / Workbench's tree "
        f"({WORKBENCH_GOAL.anywhere[0]!r}) with the first variant's card "
        f"({WORKBENCH_GOAL.first!r}, framed)"
    )
    bare_wall, bare_cpu, bare_rss = _summary("bare Textual app", bare)
    for name, runs in (
        ("workbench, kept first screen", usual),
        ("workbench, first screen drawn", drawn),
        ("workbench, no cache", cold),
    ):
        if not runs:
            continue
        wall, cpu, rss = _summary(name, runs)
        print(
            f"  ratio to bare: wall {wall / bare_wall:.2f}  cpu {cpu / bare_cpu:.2f}  "
            f"peak RSS {rss / bare_rss:.2f}   (goal for the usual start: wall <= 1.3)"
        )
    print("first response: a key sent at the first frame, until the frame that shows its effect")
    bare_response = _response("bare Textual app", bare)
    for name, runs in (
        ("workbench, kept first screen", usual),
        ("workbench, first screen drawn", drawn),
        ("workbench, no cache", cold),
    ):
        if runs:
            print(f"  ratio to bare: {_response(name, runs) / bare_response:.2f}")

    if spans:
        print(f"where the CPU time to the frame goes (medians of {options.runs} more runs each)")
        for name, (steps, out_of_order) in spans:
            print(name)
            for label, seconds in steps:
                print(f"  {label:<38} {seconds * 1000:6.0f} ms")
            if out_of_order:
                # A project slower than the start's wait: the screen opened on a loading tree
                # and the project came after it (a step then counts negative).
                print(
                    f"  ({out_of_order} of {options.runs} starts opened the screen before the "
                    "project had loaded)"
                )


if __name__ == "__main__":
    main()
