"""The local-system file APIs (list, read, write, edit, glob, grep) on real temporary
directories."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.tools.runtime_calls import error_type
from workbench.core.runtime import CallContext
from workbench.tools.local_system import MANIFEST, LocalSystemRuntime
from workbench.tools.local_system.files import (
    MAX_READ_BYTES,
    MAX_READ_LINES,
    WorkspaceError,
    WorkspaceFiles,
)


def write(root: Path, relative: str, text: str = "") -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# --- the package ---------------------------------------------------------------------------


def test_runtime_serves_exactly_the_manifest_apis(runtime: LocalSystemRuntime) -> None:
    assert set(runtime.api_names) == {api.name for api in MANIFEST.api}
    assert all(runtime.has_api(name) for name in runtime.api_names)


async def test_unknown_api_is_a_typed_failure(runtime: LocalSystemRuntime) -> None:
    result = await runtime.invoke("deleteEverything", {})
    assert error_type(result) == "ApiNotFound"


def test_workspace_given_through_a_symlink_still_displays_relative_paths(
    tmp_path: Path, workspace: Path
) -> None:
    link = tmp_path / "link-to-ws"
    link.symlink_to(workspace, target_is_directory=True)
    files = WorkspaceFiles(link)
    assert files.root == Path(os.path.realpath(workspace))
    assert files.display(files.resolve("src/a.py")) == "src/a.py"
    assert files.display(files.resolve(".")) == "."


# --- listFiles -----------------------------------------------------------------------------


async def test_list_puts_directories_first_sorted_case_insensitively(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    write(workspace, "b.txt", "12345")
    write(workspace, "A.md", "x")
    write(workspace, "zdir/inner.txt")
    write(workspace, "Adir/inner.txt")
    write(workspace, ".hidden", "secret")
    result = await runtime.invoke("listFiles", {"path": "."})
    assert result.success
    entries = result.state["entries"]
    assert [entry["name"] for entry in entries] == ["Adir", "zdir", "A.md", "b.txt"]
    assert entries[0] == {"name": "Adir", "path": "Adir", "type": "dir", "size": 0}
    assert entries[3] == {"name": "b.txt", "path": "b.txt", "type": "file", "size": 5}
    assert result.state["total"] == 4 and result.state["truncated"] is False
    assert result.content.splitlines() == ["4 entries in .:", "Adir/", "zdir/", "A.md", "b.txt"]


async def test_list_defaults_to_the_workspace_root(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    write(workspace, "only.txt")
    result = await runtime.invoke("listFiles", {})
    assert [entry["path"] for entry in result.state["entries"]] == ["only.txt"]


async def test_list_includes_hidden_entries_only_when_asked(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    write(workspace, ".env", "X=1")
    write(workspace, "visible.txt")
    hidden = await runtime.invoke("listFiles", {"path": ".", "includeHidden": True})
    shown = await runtime.invoke("listFiles", {"path": "."})
    assert [entry["name"] for entry in hidden.state["entries"]] == [".env", "visible.txt"]
    assert [entry["name"] for entry in shown.state["entries"]] == ["visible.txt"]


async def test_list_recursive_walks_subdirectories_but_not_skipped_or_hidden_ones(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    write(workspace, "src/app.py")
    write(workspace, "src/pkg/mod.py")
    write(workspace, "node_modules/left-pad/index.js")
    write(workspace, ".git/config")
    result = await runtime.invoke("listFiles", {"path": ".", "recursive": True})
    paths = [entry["path"] for entry in result.state["entries"]]
    assert paths == ["node_modules", "src", "src/pkg", "src/pkg/mod.py", "src/app.py"]
    assert result.state["total"] == 5
    with_hidden = await runtime.invoke(
        "listFiles", {"path": ".", "recursive": True, "includeHidden": True}
    )
    hidden_paths = [entry["path"] for entry in with_hidden.state["entries"]]
    assert ".git" in hidden_paths and ".git/config" not in hidden_paths


async def test_list_of_a_subdirectory_reports_workspace_relative_paths(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    write(workspace, "src/pkg/mod.py", "print()\n")
    result = await runtime.invoke("listFiles", {"path": "src", "recursive": True})
    assert [entry["path"] for entry in result.state["entries"]] == ["src/pkg", "src/pkg/mod.py"]
    assert result.content.startswith("2 entries in src:")


async def test_list_symlinks_are_typed_and_not_followed(
    runtime: LocalSystemRuntime, workspace: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    write(outside, "secret.txt", "s")
    (workspace / "link").symlink_to(outside, target_is_directory=True)
    result = await runtime.invoke("listFiles", {"path": ".", "recursive": True})
    entries = result.state["entries"]
    assert len(entries) == 1
    assert (
        entries[0]["name"] == "link" and entries[0]["type"] == "symlink" and entries[0]["size"] == 0
    )


async def test_list_limit_reports_total_and_truncated(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    for index in range(12):
        write(workspace, f"file{index:02}.txt")
    result = await runtime.invoke("listFiles", {"path": ".", "limit": 5})
    assert result.success
    assert [entry["name"] for entry in result.state["entries"]] == [
        f"file{index:02}.txt" for index in range(5)
    ]
    assert result.state["total"] == 12 and result.state["truncated"] is True
    assert result.content.endswith("… 7 more (showing 5 of 12)")


async def test_list_of_an_empty_directory(runtime: LocalSystemRuntime, workspace: Path) -> None:
    (workspace / "empty").mkdir()
    result = await runtime.invoke("listFiles", {"path": "empty"})
    assert result.success
    assert result.state == {"entries": [], "total": 0, "truncated": False}
    assert result.content == "empty is empty."


async def test_list_of_a_missing_directory(runtime: LocalSystemRuntime) -> None:
    result = await runtime.invoke("listFiles", {"path": "nope"})
    assert error_type(result) == "FileNotFound"
    assert result.error is not None and result.error.body == {"path": "nope"}
    assert "nope does not exist" in result.content


async def test_list_of_a_file_is_not_a_directory(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    write(workspace, "notes.txt", "hi")
    result = await runtime.invoke("listFiles", {"path": "notes.txt"})
    assert error_type(result) == "NotADirectory"


async def test_list_outside_the_workspace_shows_absolute_paths(
    runtime: LocalSystemRuntime, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    write(outside, "x.txt")
    result = await runtime.invoke("listFiles", {"path": str(outside)})
    assert result.success
    assert result.state["entries"][0]["path"] == str(outside / "x.txt")


# --- readFile ------------------------------------------------------------------------------


async def test_read_whole_file(runtime: LocalSystemRuntime, workspace: Path) -> None:
    write(workspace, "src/app.py", "import os\n\nprint(os.name)\n")
    result = await runtime.invoke("readFile", {"path": "src/app.py"})
    assert result.success
    assert result.content == "import os\n\nprint(os.name)"
    assert result.state == {
        "content": "import os\n\nprint(os.name)",
        "startLine": 1,
        "endLine": 3,
        "totalLines": 3,
        "size": 26,
        "language": "python",
        "truncated": False,
    }


@pytest.mark.parametrize(
    ("start", "end", "content", "first", "last"),
    [
        (3, 5, "line 3\nline 4\nline 5", 3, 5),
        (9, None, "line 9\nline 10", 9, 10),
        (None, 2, "line 1\nline 2", 1, 2),
        (10, 99, "line 10", 10, 10),
        (4, 4, "line 4", 4, 4),
    ],
)
async def test_read_line_ranges(
    runtime: LocalSystemRuntime,
    workspace: Path,
    start: int | None,
    end: int | None,
    content: str,
    first: int,
    last: int,
) -> None:
    write(workspace, "ten.txt", "".join(f"line {number}\n" for number in range(1, 11)))
    args: dict[str, Any] = {"path": "ten.txt"}
    if start is not None:
        args["startLine"] = start
    if end is not None:
        args["endLine"] = end
    result = await runtime.invoke("readFile", args)
    assert result.success
    assert result.state["content"] == content
    assert (result.state["startLine"], result.state["endLine"], result.state["totalLines"]) == (
        first,
        last,
        10,
    )
    assert result.state["truncated"] is False
    assert "[truncated" not in result.content


async def test_read_start_line_past_the_end(runtime: LocalSystemRuntime, workspace: Path) -> None:
    write(workspace, "three.txt", "a\nb\nc\n")
    result = await runtime.invoke("readFile", {"path": "three.txt", "startLine": 4})
    assert error_type(result) == "LineOutOfRange"
    assert "has 3 lines" in result.content


async def test_read_caps_at_2000_lines_and_says_how_to_go_on(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    write(workspace, "big.log", "".join(f"row {number}\n" for number in range(1, 2501)))
    first = await runtime.invoke("readFile", {"path": "big.log"})
    assert first.success
    assert first.state["truncated"] is True
    assert (first.state["startLine"], first.state["endLine"], first.state["totalLines"]) == (
        1,
        MAX_READ_LINES,
        2500,
    )
    assert first.state["content"].splitlines()[-1] == "row 2000"
    assert first.content.endswith(
        "[truncated: showing lines 1-2000 of 2500; read further with startLine]"
    )
    rest = await runtime.invoke("readFile", {"path": "big.log", "startLine": 2001})
    assert rest.state["truncated"] is False
    assert (rest.state["startLine"], rest.state["endLine"]) == (2001, 2500)
    assert len(rest.state["content"].splitlines()) == 500


async def test_read_of_exactly_2000_lines_is_not_truncated(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    write(workspace, "exact.txt", "x\n" * MAX_READ_LINES)
    result = await runtime.invoke("readFile", {"path": "exact.txt"})
    assert result.state["truncated"] is False and result.state["endLine"] == MAX_READ_LINES


async def test_read_empty_file(runtime: LocalSystemRuntime, workspace: Path) -> None:
    write(workspace, "empty.txt", "")
    result = await runtime.invoke("readFile", {"path": "empty.txt"})
    assert result.success
    assert result.content == "empty.txt is empty (0 bytes)."
    assert (
        result.state["totalLines"] == 0
        and result.state["content"] == ""
        and result.state["size"] == 0
    )


async def test_read_binary_file_is_refused(runtime: LocalSystemRuntime, workspace: Path) -> None:
    (workspace / "image.png").write_bytes(
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))
    )
    result = await runtime.invoke("readFile", {"path": "image.png"})
    assert error_type(result) == "BinaryFile"
    assert "binary" in result.content


async def test_read_missing_file(runtime: LocalSystemRuntime) -> None:
    result = await runtime.invoke("readFile", {"path": "missing.txt"})
    assert error_type(result) == "FileNotFound"
    assert result.error is not None and result.error.body == {"path": "missing.txt"}


async def test_read_a_directory_is_refused(runtime: LocalSystemRuntime, workspace: Path) -> None:
    (workspace / "dir").mkdir()
    result = await runtime.invoke("readFile", {"path": "dir"})
    assert error_type(result) == "NotAFile"


async def test_read_too_large_file_is_refused_without_reading_it(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    big = workspace / "huge.txt"
    with big.open("wb") as handle:
        handle.truncate(MAX_READ_BYTES + 1)  # sparse: instant and takes no disk
    result = await runtime.invoke("readFile", {"path": "huge.txt"})
    assert error_type(result) == "FileTooLarge"
    assert f"{MAX_READ_BYTES + 1:,} bytes" in result.content


async def test_read_handles_crlf_and_invalid_utf8(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    (workspace / "dos.txt").write_bytes(b"one\r\ntwo\r\ncaf\xe9\r\n")
    result = await runtime.invoke("readFile", {"path": "dos.txt"})
    assert result.success
    assert result.state["content"] == "one\ntwo\ncaf\ufffd"
    assert result.state["totalLines"] == 3


async def test_read_counts_lines_like_an_editor(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    """Form feeds and U+2028 inside a line do not start a new line (``str.splitlines`` would)."""
    (workspace / "odd.js").write_bytes("a\x0cb\nconst s = 'x\u2028y';\nlast\n".encode())
    result = await runtime.invoke("readFile", {"path": "odd.js", "startLine": 3})
    assert result.state["totalLines"] == 3
    assert result.state["content"] == "last"


async def test_read_absolute_path_outside_the_workspace(
    runtime: LocalSystemRuntime, tmp_path: Path
) -> None:
    outside = write(tmp_path, "outside/notes.md", "# hi\n")
    result = await runtime.invoke("readFile", {"path": str(outside)})
    assert result.success and result.content == "# hi" and result.state["language"] == "markdown"


# --- writeFile -----------------------------------------------------------------------------


class ProgressLog:
    def __init__(self) -> None:
        self.calls: list[tuple[float | None, float | None, str | None]] = []

    def __call__(self, progress: float | None, total: float | None, message: str | None) -> None:
        self.calls.append((progress, total, message))


async def test_write_creates_file_and_parent_directories(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    result = await runtime.invoke(
        "writeFile", {"path": "deep/er/new.py", "content": "a = 1\nb = 2\n"}
    )
    assert result.success
    assert (workspace / "deep/er/new.py").read_text() == "a = 1\nb = 2\n"
    assert result.state == {"bytesWritten": 12, "lines": 2, "created": True}
    assert result.content == "Created deep/er/new.py (12 bytes, 2 lines)."


async def test_write_overwrites_an_existing_file(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    write(workspace, "config.toml", "old = true\nmore = 1\n")
    result = await runtime.invoke("writeFile", {"path": "config.toml", "content": "new = true"})
    assert result.success
    assert result.state == {"bytesWritten": 10, "lines": 1, "created": False}
    assert result.content.startswith("Overwrote config.toml")
    assert (workspace / "config.toml").read_text() == "new = true"


async def test_write_counts_utf8_bytes_and_writes_exactly(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    content = "héllo ✓\r\nzwei\n"
    result = await runtime.invoke("writeFile", {"path": "u.txt", "content": content})
    assert result.state["bytesWritten"] == len(content.encode("utf-8"))
    assert (workspace / "u.txt").read_bytes() == content.encode("utf-8")


async def test_write_empty_content_creates_an_empty_file_without_progress(
    workspace: Path, runtime: LocalSystemRuntime
) -> None:
    progress = ProgressLog()
    result = await runtime.invoke(
        "writeFile",
        {"path": "empty.txt", "content": ""},
        CallContext(workspace=workspace, progress=progress),
    )
    assert result.success and result.state == {"bytesWritten": 0, "lines": 0, "created": True}
    assert (workspace / "empty.txt").read_bytes() == b""
    assert progress.calls == []


async def test_write_reports_progress_through_the_call_context(
    workspace: Path, runtime: LocalSystemRuntime
) -> None:
    progress = ProgressLog()
    content = "x" * 200_000
    result = await runtime.invoke(
        "writeFile",
        {"path": "big.txt", "content": content},
        CallContext(workspace=workspace, progress=progress),
    )
    assert result.success
    assert [(done, total) for done, total, _ in progress.calls] == [
        (65_536, 200_000),
        (131_072, 200_000),
        (196_608, 200_000),
        (200_000, 200_000),
    ]
    assert progress.calls[0][2] == "65,536 of 200,000 bytes written"
    assert progress.calls[-1][2] == "200,000 of 200,000 bytes written"
    assert (workspace / "big.txt").stat().st_size == 200_000


def test_write_service_progress_uses_the_chunk_size(workspace: Path) -> None:
    calls: list[tuple[int, int]] = []
    WorkspaceFiles(workspace).write(
        "f.txt",
        "abcdefghij",
        on_progress=lambda done, total: calls.append((done, total)),
        chunk_bytes=4,
    )
    assert calls == [(4, 10), (8, 10), (10, 10)]


async def test_write_without_create_directories_refuses_a_missing_parent(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    result = await runtime.invoke(
        "writeFile", {"path": "nodir/f.txt", "content": "x", "createDirectories": False}
    )
    assert error_type(result) == "FileNotFound"
    assert not (workspace / "nodir").exists()


async def test_write_onto_a_directory_is_refused(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    (workspace / "dir").mkdir()
    result = await runtime.invoke("writeFile", {"path": "dir", "content": "x"})
    assert error_type(result) == "NotAFile"
    assert (workspace / "dir").is_dir()


@pytest.mark.parametrize("path", ["notes.txt/inner.txt", "notes.txt/deeper/inner.txt"])
async def test_write_below_a_file_is_a_typed_error(
    runtime: LocalSystemRuntime, workspace: Path, path: str
) -> None:
    write(workspace, "notes.txt", "keep")
    result = await runtime.invoke("writeFile", {"path": path, "content": "x"})
    assert error_type(result) == "NotADirectory"
    assert (workspace / "notes.txt").read_text() == "keep"


# --- editFile ------------------------------------------------------------------------------

SOURCE = "def greet(name):\n    print('hello', name)\n\n\ndef main():\n    greet('world')\n"


async def test_edit_replaces_once_and_returns_a_unified_diff(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    write(workspace, "src/app.py", SOURCE)
    result = await runtime.invoke(
        "editFile",
        {
            "path": "src/app.py",
            "oldString": "print('hello', name)",
            "newString": "print('hi', name)",
        },
    )
    assert result.success
    assert (workspace / "src/app.py").read_text() == SOURCE.replace("'hello'", "'hi'")
    diff = result.state["diff"].splitlines()
    assert diff[:3] == ["--- a/src/app.py", "+++ b/src/app.py", "@@ -1,4 +1,4 @@"]
    assert "-    print('hello', name)" in diff and "+    print('hi', name)" in diff
    assert result.state["replacements"] == 1
    assert (result.state["linesAdded"], result.state["linesRemoved"]) == (1, 1)
    assert result.content.startswith(
        "Edited src/app.py: 1 replacement, +1 -1 lines.\n--- a/src/app.py"
    )


async def test_edit_multi_line_replacement_counts_lines(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    write(workspace, "app.py", SOURCE)
    result = await runtime.invoke(
        "editFile",
        {
            "path": "app.py",
            "oldString": "def main():\n    greet('world')\n",
            "newString": "def main():\n    greet('a')\n    greet('b')\n    greet('c')\n",
        },
    )
    assert result.success
    assert (result.state["linesAdded"], result.state["linesRemoved"]) == (3, 1)


async def test_edit_not_found_leaves_the_file_alone(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    file = write(workspace, "app.py", SOURCE)
    result = await runtime.invoke(
        "editFile", {"path": "app.py", "oldString": "goodbye", "newString": "x"}
    )
    assert error_type(result) == "EditNotFound"
    assert file.read_text() == SOURCE


async def test_edit_ambiguous_snippet_is_refused(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    file = write(workspace, "app.py", SOURCE)
    result = await runtime.invoke(
        "editFile", {"path": "app.py", "oldString": "greet", "newString": "welcome"}
    )
    assert error_type(result) == "AmbiguousEdit"
    assert "appears 2 times" in result.content and "replaceAll" in result.content
    assert file.read_text() == SOURCE


async def test_edit_replace_all(runtime: LocalSystemRuntime, workspace: Path) -> None:
    file = write(workspace, "app.py", SOURCE)
    result = await runtime.invoke(
        "editFile",
        {"path": "app.py", "oldString": "greet", "newString": "welcome", "replaceAll": True},
    )
    assert result.success
    assert result.state["replacements"] == 2
    assert file.read_text() == SOURCE.replace("greet", "welcome")
    assert (result.state["linesAdded"], result.state["linesRemoved"]) == (2, 2)


async def test_edit_with_empty_old_string_is_refused(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    file = write(workspace, "app.py", SOURCE)
    result = await runtime.invoke(
        "editFile", {"path": "app.py", "oldString": "", "newString": "prefix"}
    )
    assert error_type(result) == "InvalidEdit"
    assert file.read_text() == SOURCE


async def test_edit_missing_file(runtime: LocalSystemRuntime) -> None:
    result = await runtime.invoke(
        "editFile", {"path": "nope.py", "oldString": "a", "newString": "b"}
    )
    assert error_type(result) == "FileNotFound"


async def test_edit_a_directory_is_refused(runtime: LocalSystemRuntime, workspace: Path) -> None:
    (workspace / "dir").mkdir()
    result = await runtime.invoke("editFile", {"path": "dir", "oldString": "a", "newString": "b"})
    assert error_type(result) == "NotAFile"


async def test_edit_keeps_crlf_line_endings(runtime: LocalSystemRuntime, workspace: Path) -> None:
    file = workspace / "dos.txt"
    file.write_bytes(b"one\r\ntwo\r\nthree\r\n")
    result = await runtime.invoke(
        "editFile", {"path": "dos.txt", "oldString": "two", "newString": "TWO"}
    )
    assert result.success
    assert file.read_bytes() == b"one\r\nTWO\r\nthree\r\n"
    assert (result.state["linesAdded"], result.state["linesRemoved"]) == (1, 1)


async def test_edit_can_match_across_crlf(runtime: LocalSystemRuntime, workspace: Path) -> None:
    file = workspace / "dos.txt"
    file.write_bytes(b"one\r\ntwo\r\n")
    result = await runtime.invoke(
        "editFile", {"path": "dos.txt", "oldString": "one\r\ntwo", "newString": "1\r\n2"}
    )
    assert result.success
    assert file.read_bytes() == b"1\r\n2\r\n"


# --- globFiles -----------------------------------------------------------------------------


@pytest.fixture
def tree(workspace: Path) -> Path:
    for relative in [
        "top.py",
        "README.md",
        "src/a.py",
        "src/b.ts",
        "src/sub/c.py",
        "src/sub/deep/d.py",
        "docs/guide.md",
        "node_modules/pkg/index.py",
        ".venv/lib/site.py",
        ".hidden/x.py",
    ]:
        write(workspace, relative, f"# {relative}\n")
    return workspace


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("*.py", ["src/a.py", "src/sub/c.py", "src/sub/deep/d.py", "top.py"]),
        ("**/*.py", ["src/a.py", "src/sub/c.py", "src/sub/deep/d.py", "top.py"]),
        ("src/**/*.py", ["src/a.py", "src/sub/c.py", "src/sub/deep/d.py"]),
        ("src/**/deep/*.py", ["src/sub/deep/d.py"]),
        ("src/**/sub/**/*.py", ["src/sub/c.py", "src/sub/deep/d.py"]),
        ("docs/*.md", ["docs/guide.md"]),
        ("*.ts", ["src/b.ts"]),
        ("README.md", ["README.md"]),
        ("*.[jt]s", ["src/b.ts"]),
    ],
)
async def test_glob_patterns(
    runtime: LocalSystemRuntime, tree: Path, pattern: str, expected: list[str]
) -> None:
    result = await runtime.invoke("globFiles", {"pattern": pattern})
    assert result.success
    assert sorted(result.state["matches"]) == expected
    assert result.state["total"] == len(expected) and result.state["truncated"] is False
    assert result.content.startswith(f"{len(expected)} files match:")


async def test_glob_from_a_subdirectory_reports_workspace_relative_paths(
    runtime: LocalSystemRuntime, tree: Path
) -> None:
    result = await runtime.invoke("globFiles", {"pattern": "*.py", "path": "src/sub"})
    assert sorted(result.state["matches"]) == ["src/sub/c.py", "src/sub/deep/d.py"]


async def test_glob_limit_reports_total_and_truncated(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    for index in range(7):
        write(workspace, f"m{index}.txt")
    result = await runtime.invoke("globFiles", {"pattern": "*.txt", "limit": 3})
    assert len(result.state["matches"]) == 3
    assert result.state["total"] == 7 and result.state["truncated"] is True


async def test_glob_without_matches(runtime: LocalSystemRuntime, tree: Path) -> None:
    result = await runtime.invoke("globFiles", {"pattern": "*.rs"})
    assert result.success
    assert result.state == {"matches": [], "total": 0, "truncated": False}
    assert result.content == "No files match '*.rs'."


async def test_glob_missing_base_and_file_base(runtime: LocalSystemRuntime, tree: Path) -> None:
    missing = await runtime.invoke("globFiles", {"pattern": "*", "path": "nope"})
    assert error_type(missing) == "FileNotFound"
    file_base = await runtime.invoke("globFiles", {"pattern": "*", "path": "top.py"})
    assert error_type(file_base) == "NotADirectory"


# --- grepContent ---------------------------------------------------------------------------


@pytest.fixture
def code(workspace: Path) -> Path:
    write(
        workspace,
        "src/app.py",
        "import os\n# TODO: tidy\ndef run():\n    return os.getcwd()  # todo later\n",
    )
    write(workspace, "src/util.ts", "// TODO port\nexport const x = 1;\n")
    write(workspace, "notes.md", "nothing to do\n")
    write(workspace, "node_modules/lib/index.py", "# TODO vendored\n")
    write(workspace, ".git/HEAD", "TODO in git\n")
    (workspace / "blob.bin").write_bytes(b"TODO\x00\x01\x02")
    return workspace


async def test_grep_regex_finds_lines_with_path_and_number(
    runtime: LocalSystemRuntime, code: Path
) -> None:
    result = await runtime.invoke("grepContent", {"pattern": r"TODO\b"})
    assert result.success
    assert result.state["matches"] == [
        {"path": "src/app.py", "line": 2, "text": "# TODO: tidy"},
        {"path": "src/util.ts", "line": 1, "text": "// TODO port"},
    ]
    assert (result.state["total"], result.state["files"], result.state["truncated"]) == (
        2,
        2,
        False,
    )
    assert result.content.splitlines() == [
        "2 matches in 2 files:",
        "src/app.py:2: # TODO: tidy",
        "src/util.ts:1: // TODO port",
    ]


async def test_grep_ignore_case(runtime: LocalSystemRuntime, code: Path) -> None:
    result = await runtime.invoke("grepContent", {"pattern": "todo", "ignoreCase": True})
    assert [(match["path"], match["line"]) for match in result.state["matches"]] == [
        ("src/app.py", 2),
        ("src/app.py", 4),
        ("src/util.ts", 1),
    ]
    sensitive = await runtime.invoke("grepContent", {"pattern": "todo"})
    assert [(match["path"], match["line"]) for match in sensitive.state["matches"]] == [
        ("src/app.py", 4)
    ]


async def test_grep_glob_filter(runtime: LocalSystemRuntime, code: Path) -> None:
    result = await runtime.invoke("grepContent", {"pattern": "TODO", "glob": "*.ts"})
    assert [match["path"] for match in result.state["matches"]] == ["src/util.ts"]


async def test_grep_a_single_file(runtime: LocalSystemRuntime, code: Path) -> None:
    result = await runtime.invoke("grepContent", {"pattern": "os", "path": "src/app.py"})
    assert [match["line"] for match in result.state["matches"]] == [1, 4]


async def test_grep_invalid_regex(runtime: LocalSystemRuntime, code: Path) -> None:
    result = await runtime.invoke("grepContent", {"pattern": "([unclosed"})
    assert error_type(result) == "InvalidPattern"
    assert "not a valid regular expression" in result.content


async def test_grep_missing_path(runtime: LocalSystemRuntime) -> None:
    result = await runtime.invoke("grepContent", {"pattern": "x", "path": "nope"})
    assert error_type(result) == "FileNotFound"


async def test_grep_limit_reports_total_and_files(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    write(workspace, "a.txt", "hit\n" * 5)
    write(workspace, "b.txt", "hit\n" * 4)
    result = await runtime.invoke("grepContent", {"pattern": "hit", "limit": 3})
    assert len(result.state["matches"]) == 3
    assert (result.state["total"], result.state["files"], result.state["truncated"]) == (9, 2, True)


async def test_grep_without_matches(runtime: LocalSystemRuntime, code: Path) -> None:
    result = await runtime.invoke("grepContent", {"pattern": "zebra"})
    assert result.success
    assert result.state == {"matches": [], "total": 0, "files": 0, "truncated": False}
    assert result.content == "No matches for 'zebra'."


async def test_grep_line_numbers_match_read_file(
    runtime: LocalSystemRuntime, workspace: Path
) -> None:
    (workspace / "ff.c").write_bytes(b"int a;\x0c\nint b;\nint needle;\n")
    grep = await runtime.invoke("grepContent", {"pattern": "needle"})
    line = grep.state["matches"][0]["line"]
    read = await runtime.invoke("readFile", {"path": "ff.c", "startLine": line, "endLine": line})
    assert line == 3 and read.state["content"] == "int needle;"


def test_service_errors_carry_stable_codes(workspace: Path) -> None:
    files = WorkspaceFiles(workspace)
    with pytest.raises(WorkspaceError) as caught:
        files.read("missing")
    assert caught.value.error_type == "FileNotFound" and caught.value.path == "missing"
