"""``workbench new``: a tool package that works at once, made from the template package.

The plan is computed first (every file, the pyproject.toml edit, every conflict); nothing is
written while anything it would write already exists.
"""

from __future__ import annotations

import importlib.util
import keyword
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from workbench.config import find_pyproject
from workbench.core.file_writes import newline_of, write_atomically
from workbench.scaffold.pyproject import PyprojectEdit, edit_pyproject
from workbench.scaffold.render import (
    ApiNames,
    ToolNames,
    render_fixture,
    render_template,
    snake_case,
)

TEMPLATE_DIR = Path(__file__).resolve().parent / "template"
TEMPLATE_FIXTURE = TEMPLATE_DIR / "fixtures" / "findItems.yaml"
PACKAGE_FILES: dict[str, str] = {
    "__init__.py": "PACKAGE: manifest, runtime, surfaces, fixtures",
    "manifest.py": "the APIs, their JSON Schema parameters, approval policy",
    "runtime.py": "one async method per API, results through to_result",
    "surfaces.py": "Inspector, Placeholder and Render of each API",
}
DEFAULT_API = "lookup"
MAX_NAME_CHARS = 30
MAX_API_CHARS = 30
"""An API's snake_case name starts function names (``search_pages_render``): longer ones
would not fit a line, and the generated code must pass ruff format as it is."""
SNAPSHOT_TEST = '''"""Snapshots and the render audit of every tool's fixtures."""

from collections.abc import Callable


def test_tool_ui(tool_ui_snapshot: Callable[[], None]) -> None:
    """Every surface looks as approved; every fixture variant passes the render audit."""
    tool_ui_snapshot()
'''
SNAPSHOT_IMPORT = "tool_ui_snapshot"
"""Found in a test module that runs the snapshot suite: the plugin's fixture, or the test
imported the way before API 1.3 (``test_tool_ui_snapshot``)."""
RESERVED_API_NAMES = frozenset({"invoke", "has_api", "api_names"})
"""Attributes of ``BaseRuntime``: an API method of that name would replace them."""
SKIPPED_DIRS = frozenset({".venv", "venv", "node_modules", "__pycache__", "build", "dist"})

_TOOL_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)*$")
_API_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


class ScaffoldError(ValueError):
    """A name that cannot become a tool or an API; the message says why and what would do."""


@dataclass(frozen=True)
class PlannedFile:
    path: Path
    content: str
    purpose: str


@dataclass
class ScaffoldPlan:
    """What ``workbench new`` would write, and what stands in its way."""

    root: Path
    """The project: the directory of its pyproject.toml."""
    tool: ToolNames
    apis: list[ApiNames]
    package_dir: Path
    files: list[PlannedFile] = field(default_factory=list)
    pyproject: PyprojectEdit | None = None
    existing_suite: Path | None = None
    """A test module that already runs the snapshot suite (it covers the new tool too)."""
    conflicts: list[str] = field(default_factory=list)

    @property
    def spec(self) -> str:
        return f"{self.tool.module}:PACKAGE"


def tool_names(name: str) -> ToolNames:
    """``my-tool`` -> identifier ``my-tool``, module ``my_tool``, class ``MyTool``."""
    if not _TOOL_NAME.match(name) or len(name) > MAX_NAME_CHARS:
        raise ScaffoldError(
            f"{name!r} cannot name a tool: use letters and digits, words joined by - or _, "
            f"starting with a letter, at most {MAX_NAME_CHARS} characters (e.g. my-tool)"
        )
    words = re.split(r"[-_]", name.lower())
    module = "_".join(words)
    if keyword.iskeyword(module):
        raise ScaffoldError(f"{name!r} is a Python keyword: it cannot name a package")
    return ToolNames(
        identifier="-".join(words),
        module=module,
        class_name="".join(word.capitalize() for word in words),
        title=" ".join(words).capitalize(),
    )


def api_names(names: Sequence[str]) -> list[ApiNames]:
    """Each ``--api`` as a method name and a snake_case name; duplicates are refused."""
    apis: list[ApiNames] = []
    for name in names or [DEFAULT_API]:
        if not _API_NAME.match(name) or len(snake_case(name)) > MAX_API_CHARS:
            raise ScaffoldError(
                f"--api {name!r}: name an API as a Python method is named: letters, digits "
                "and _, starting with a letter (e.g. searchPages or search_pages), at most "
                f"{MAX_API_CHARS} characters once spelled as a function name "
                "(searchPages: search_pages)"
            )
        if keyword.iskeyword(name) or name in RESERVED_API_NAMES:
            raise ScaffoldError(f"--api {name!r}: that name is taken in Python or by BaseRuntime")
        snake = snake_case(name)
        clash = next((api for api in apis if snake in (api.name, api.snake)), None)
        if clash is not None:
            raise ScaffoldError(f"--api {name!r} and --api {clash.name!r} name the same API")
        apis.append(ApiNames(name, snake))
    return apis


def _display(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix() + ("/" if path.is_dir() else "")
    except ValueError:
        return str(path)


def _tests_dir(root: Path, pyproject_text: str) -> Path:
    import tomllib

    try:
        options = tomllib.loads(pyproject_text).get("tool", {}).get("pytest", {})
    except tomllib.TOMLDecodeError:
        options = {}
    testpaths = (
        options.get("ini_options", {}).get("testpaths") if isinstance(options, dict) else None
    )
    if isinstance(testpaths, list) and testpaths and isinstance(testpaths[0], str):
        return root / testpaths[0]
    return root / "tests"


def _existing_suite(tests_dir: Path) -> Path | None:
    """A test module that already runs the snapshot suite, if there is one."""
    if not tests_dir.is_dir():
        return None
    for path in sorted(tests_dir.rglob("*.py")):
        if SKIPPED_DIRS & set(path.relative_to(tests_dir).parts):
            continue
        try:
            if SNAPSHOT_IMPORT in path.read_text(encoding="utf-8"):
                return path
        except (OSError, UnicodeDecodeError):
            continue
    return None


def _shadowed(module: str, package_dir: Path) -> str | None:
    """Where a module of the same name already lives (the new package would hide it)."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    origin = spec.origin or next(iter(spec.submodule_search_locations or [""]))
    if origin and Path(origin).resolve().is_relative_to(package_dir.resolve()):
        return None
    return origin or "a namespace package"


def plan_scaffold(
    name: str,
    apis: Sequence[str] = (),
    directory: Path | None = None,
    *,
    existing_tools: dict[str, str] | None = None,
    snapshot_dir: Path | None = None,
) -> ScaffoldPlan:
    """Everything ``workbench new NAME`` would do in ``directory``; raises :class:`ScaffoldError`
    for a name that cannot be used. ``existing_tools`` (identifier -> origin) are the tools the
    project has already, which the new one must not shadow."""
    tool = tool_names(name)
    api_list = api_names(apis)
    directory = (directory or Path.cwd()).resolve()
    pyproject = find_pyproject(directory) or directory / "pyproject.toml"
    root = pyproject.parent
    package_dir = directory / tool.module
    plan = ScaffoldPlan(root=root, tool=tool, apis=api_list, package_dir=package_dir)

    for file_name, purpose in PACKAGE_FILES.items():
        template = (TEMPLATE_DIR / file_name).read_text(encoding="utf-8")
        plan.files.append(
            PlannedFile(package_dir / file_name, render_template(template, tool, api_list), purpose)
        )
    fixture_template = TEMPLATE_FIXTURE.read_text(encoding="utf-8")
    for api in api_list:
        plan.files.append(
            PlannedFile(
                package_dir / "fixtures" / f"{api.name}.yaml",
                render_fixture(fixture_template, tool, api),
                "typical, empty, error and truncated variants",
            )
        )
    pyproject_text = pyproject.read_text(encoding="utf-8") if pyproject.is_file() else ""
    tests_dir = _tests_dir(root, pyproject_text)
    plan.existing_suite = _existing_suite(tests_dir)
    if plan.existing_suite is None:
        plan.files.append(
            PlannedFile(
                tests_dir / "test_tool_ui.py",
                SNAPSHOT_TEST,
                "the snapshot suite and render audit, under pytest",
            )
        )
    try:
        plan.pyproject = edit_pyproject(pyproject, pyproject_text, plan.spec, directory)
    except ValueError as error:
        plan.conflicts.append(f"{_display(pyproject, root)}: {error}")

    if package_dir.exists():
        plan.conflicts.append(f"{_display(package_dir, root)} already exists")
    plan.conflicts.extend(
        f"{_display(planned.path, root)} already exists"
        for planned in plan.files
        if planned.path.exists() and not planned.path.is_relative_to(package_dir)
    )
    shadowed = _shadowed(tool.module, package_dir)
    if shadowed is not None:
        plan.conflicts.append(
            f"a module named {tool.module} is already importable ({shadowed}): the new "
            "package would hide it, or it would hide the package; pick another name"
        )
    if snapshot_dir is not None and (snapshot_dir / tool.identifier).exists():
        plan.conflicts.append(
            f"{_display(snapshot_dir / tool.identifier, root)} already exists (snapshots of "
            "an earlier tool of that name?)"
        )
    origin = (existing_tools or {}).get(tool.identifier)
    if origin is not None:
        plan.conflicts.append(f"the project already has a tool named {tool.identifier} ({origin})")
    return plan


def write_plan(plan: ScaffoldPlan) -> None:
    """Write every planned file, then the pyproject.toml edit; refuses if there are conflicts."""
    if plan.conflicts:
        raise ScaffoldError("; ".join(plan.conflicts))
    for planned in plan.files:
        planned.path.parent.mkdir(parents=True, exist_ok=True)
        # "x": never replace a file that appeared since the plan was made.
        with planned.path.open("x", encoding="utf-8", newline="\n") as handle:
            handle.write(planned.content)
    if plan.pyproject is not None:
        # The edit was made on the text read with universal newlines: a CRLF file stays CRLF.
        path, text = plan.pyproject.path, plan.pyproject.text
        before = path.read_bytes().decode("utf-8", errors="replace") if path.is_file() else ""
        write_atomically(path, text.replace("\n", newline_of(before)))
