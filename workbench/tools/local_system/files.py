"""Real file operations for the local-system tool, rooted at a workspace directory.

Paths are resolved against the workspace; whether a path outside it may be touched is the
approval policy's decision (``pathScopeAudit``), not this module's. Every limit is explicit and
reported (``total`` beside what is returned, ``truncated: true``).
"""

from __future__ import annotations

import builtins
import difflib
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

MAX_READ_BYTES = 4_000_000
MAX_READ_LINES = 2_000
MAX_LIST = 5_000
MAX_GREP_FILE_BYTES = 2_000_000
SKIPPED_DIRS = frozenset(
    {".git", "node_modules", "__pycache__", ".venv", "venv", ".mypy_cache", ".pytest_cache"}
)

LANGUAGES = {
    ".py": "python",
    ".js": "javascript",
    ".ts": "typescript",
    ".tsx": "tsx",
    ".json": "json",
    ".md": "markdown",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".toml": "toml",
    ".sh": "bash",
    ".rs": "rust",
    ".go": "go",
    ".html": "html",
    ".css": "css",
    ".sql": "sql",
    ".c": "c",
    ".h": "c",
    ".cpp": "cpp",
    ".java": "java",
    ".rb": "ruby",
    ".txt": "text",
}


class WorkspaceError(Exception):
    """A file operation failed; ``error_type`` is the stable code a Render can branch on."""

    def __init__(self, error_type: str, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.error_type = error_type
        self.message = message
        self.path = path


def language_for(path: str) -> str:
    return LANGUAGES.get(Path(path).suffix.lower(), "text")


def split_lines(text: str) -> list[str]:
    """Lines as editors and compilers count them: split at ``\\n``, ``\\r\\n`` and ``\\r`` only.

    ``str.splitlines`` also splits at form feeds, ``\\v`` and U+2028, which shifts line numbers.
    """
    lines = re.split(r"\r\n|\r|\n", text)
    if lines[-1] == "":
        lines.pop()
    return lines


def glob_regex(pattern: str) -> re.Pattern[str]:
    """A regex for a path glob: ``*`` and ``?`` stay within one directory, ``**`` crosses them.

    ``**/`` also matches no directory at all, so ``src/**/*.py`` finds ``src/a.py`` too.
    """
    parts: list[str] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith("**/", index):
            parts.append("(?:.*/)?")
            index += 3
        elif pattern.startswith("**", index):
            parts.append(".*")
            index += 2
        elif char == "*":
            parts.append("[^/]*")
            index += 1
        elif char == "?":
            parts.append("[^/]")
            index += 1
        elif char == "[":
            close = pattern.find("]", index + 2)
            if close == -1:
                parts.append(re.escape(char))
                index += 1
            else:
                body = pattern[index + 1 : close]
                if body.startswith("!"):
                    body = "^" + body[1:]
                parts.append("[" + body.replace("\\", "\\\\") + "]")
                index = close + 1
        else:
            parts.append(re.escape(char))
            index += 1
    return re.compile("".join(parts) + r"\Z")


def glob_matches(pattern: str, relative: str) -> bool:
    """Whether a workspace-relative path matches; a pattern without ``/`` matches the name."""
    if "/" not in pattern:
        return glob_regex(pattern).match(relative.rsplit("/", 1)[-1]) is not None
    return glob_regex(pattern).match(relative) is not None


class WorkspaceFiles:
    """File operations relative to ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = Path(os.path.realpath(root))

    def resolve(self, path: str | None) -> Path:
        candidate = Path(os.path.expanduser(path or "."))
        if not candidate.is_absolute():
            candidate = self.root / candidate
        return Path(os.path.abspath(candidate))

    def display(self, path: Path) -> str:
        """Workspace-relative when inside it (so results do not leak the machine's layout)."""
        try:
            relative = Path(os.path.realpath(path)).relative_to(self.root)
        except ValueError:
            return str(path)
        return str(relative) if str(relative) != "." else "."

    def _existing(self, path: str | None) -> Path:
        resolved = self.resolve(path)
        if not resolved.exists():
            raise WorkspaceError("FileNotFound", f"{path or '.'} does not exist", path)
        return resolved

    # --- list / read ---------------------------------------------------------------------

    def list(
        self,
        path: str | None,
        *,
        recursive: bool = False,
        include_hidden: bool = False,
        limit: int = 500,
    ) -> dict[str, Any]:
        directory = self._existing(path)
        if not directory.is_dir():
            raise WorkspaceError("NotADirectory", f"{path} is a file, not a directory", path)
        limit = max(1, min(limit, MAX_LIST))
        entries: list[dict[str, Any]] = []
        total = 0

        def visit(folder: Path) -> None:
            nonlocal total
            try:
                children = sorted(
                    folder.iterdir(), key=lambda child: (not child.is_dir(), child.name.lower())
                )
            except PermissionError:
                return
            for child in children:
                if not include_hidden and child.name.startswith("."):
                    continue
                total += 1
                if len(entries) < limit:
                    entries.append(self._entry(child))
                if (
                    recursive
                    and child.is_dir()
                    and not child.is_symlink()
                    and child.name not in SKIPPED_DIRS
                ):
                    visit(child)

        visit(directory)
        return {"entries": entries, "total": total, "truncated": total > len(entries)}

    def _entry(self, path: Path) -> dict[str, Any]:
        try:
            info = path.lstat()
        except OSError:
            return {"name": path.name, "path": self.display(path), "type": "unknown", "size": 0}
        kind = (
            "symlink"
            if stat.S_ISLNK(info.st_mode)
            else "dir"
            if stat.S_ISDIR(info.st_mode)
            else "file"
        )
        return {
            "name": path.name,
            "path": self.display(path),
            "type": kind,
            "size": info.st_size if kind == "file" else 0,
        }

    def read(
        self, path: str, *, start_line: int | None = None, end_line: int | None = None
    ) -> dict[str, Any]:
        file = self._existing(path)
        if file.is_dir():
            raise WorkspaceError("NotAFile", f"{path} is a directory; use listFiles", path)
        size = file.stat().st_size
        if size > MAX_READ_BYTES:
            raise WorkspaceError(
                "FileTooLarge",
                f"{path} is {size:,} bytes; readFile reads up to {MAX_READ_BYTES:,} "
                "(use startLine/endLine on a smaller file or grepContent)",
                path,
            )
        data = file.read_bytes()
        if b"\x00" in data[:8192]:
            raise WorkspaceError(
                "BinaryFile", f"{path} looks like a binary file ({size:,} bytes)", path
            )
        text = data.decode("utf-8", errors="replace")
        lines = split_lines(text)
        total = len(lines)
        first = max(1, start_line or 1)
        last = min(total, end_line or total)
        if first > max(total, 1):
            raise WorkspaceError(
                "LineOutOfRange",
                f"{path} has {total} lines; startLine {first} is past the end",
                path,
            )
        last_shown = min(last, first + MAX_READ_LINES - 1)
        selected = lines[first - 1 : last_shown]
        return {
            "content": "\n".join(selected),
            "startLine": first,
            "endLine": first + len(selected) - 1 if selected else first,
            "totalLines": total,
            "size": size,
            "language": language_for(path),
            "truncated": last_shown < last,
        }

    # --- write / edit --------------------------------------------------------------------

    def write(
        self,
        path: str,
        content: str,
        *,
        create_directories: bool = True,
        on_progress: Callable[[int, int], None] | None = None,
        chunk_bytes: int = 64 * 1024,
    ) -> dict[str, Any]:
        file = self.resolve(path)
        if file.is_dir():
            raise WorkspaceError("NotAFile", f"{path} is a directory", path)
        created = not file.exists()
        data = content.encode("utf-8")
        try:
            if not file.parent.exists():
                if not create_directories:
                    raise WorkspaceError(
                        "FileNotFound",
                        f"the directory {self.display(file.parent)} does not exist",
                        path,
                    )
                file.parent.mkdir(parents=True, exist_ok=True)
            with file.open("wb") as handle:
                for offset in range(0, len(data), chunk_bytes):
                    handle.write(data[offset : offset + chunk_bytes])
                    if on_progress is not None:
                        on_progress(min(len(data), offset + chunk_bytes), len(data))
        except PermissionError:
            raise WorkspaceError(
                "PermissionDenied", f"no permission to write {path}", path
            ) from None
        except (NotADirectoryError, FileExistsError):
            raise WorkspaceError(
                "NotADirectory", f"a parent of {path} is a file, not a directory", path
            ) from None
        return {
            "bytesWritten": len(data),
            "lines": content.count("\n") + (1 if content and not content.endswith("\n") else 0),
            "created": created,
        }

    def edit(self, path: str, old: str, new: str, *, replace_all: bool = False) -> dict[str, Any]:
        file = self._existing(path)
        if file.is_dir():
            raise WorkspaceError("NotAFile", f"{path} is a directory", path)
        # Bytes, not text mode: text mode would turn every CRLF of the file into LF on write.
        before = file.read_bytes().decode("utf-8", errors="replace")
        if not old:
            raise WorkspaceError(
                "InvalidEdit", "oldString is empty; use writeFile to create content", path
            )
        count = before.count(old)
        if count == 0:
            raise WorkspaceError("EditNotFound", f"oldString was not found in {path}", path)
        if count > 1 and not replace_all:
            raise WorkspaceError(
                "AmbiguousEdit",
                f"oldString appears {count} times in {path}; add context or set replaceAll",
                path,
            )
        after = before.replace(old, new) if replace_all else before.replace(old, new, 1)
        file.write_bytes(after.encode("utf-8"))
        display = self.display(file)
        diff = list(
            difflib.unified_diff(
                split_lines(before),
                split_lines(after),
                fromfile=f"a/{display}",
                tofile=f"b/{display}",
                lineterm="",
                n=2,
            )
        )
        added = sum(1 for line in diff if line.startswith("+") and not line.startswith("+++"))
        removed = sum(1 for line in diff if line.startswith("-") and not line.startswith("---"))
        return {
            "replacements": count if replace_all else 1,
            "diff": "\n".join(diff),
            "linesAdded": added,
            "linesRemoved": removed,
        }

    # --- search --------------------------------------------------------------------------

    # ``list`` is an API of this class: inside it, the builtin is spelled ``builtins.list``.
    def _walk_files(self, base: Path) -> builtins.list[Path]:
        found: builtins.list[Path] = []
        for folder, dirs, files in os.walk(base):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
            found.extend(Path(folder) / name for name in sorted(files))
        return found

    def glob(self, pattern: str, path: str | None = None, *, limit: int = 500) -> dict[str, Any]:
        base = self._existing(path)
        if not base.is_dir():
            raise WorkspaceError("NotADirectory", f"{path} is not a directory", path)
        limit = max(1, min(limit, MAX_LIST))
        matches: builtins.list[str] = []
        total = 0
        for file in self._walk_files(base):
            if glob_matches(pattern, file.relative_to(base).as_posix()):
                total += 1
                if len(matches) < limit:
                    matches.append(self.display(file))
        return {"matches": matches, "total": total, "truncated": total > len(matches)}

    def grep(
        self,
        pattern: str,
        path: str | None = None,
        *,
        glob: str | None = None,
        ignore_case: bool = False,
        limit: int = 200,
    ) -> dict[str, Any]:
        try:
            regex = re.compile(pattern, re.IGNORECASE if ignore_case else 0)
        except re.error as error:
            raise WorkspaceError(
                "InvalidPattern", f"not a valid regular expression: {error}"
            ) from None
        base = self._existing(path)
        files = [base] if base.is_file() else self._walk_files(base)
        limit = max(1, min(limit, MAX_LIST))
        matches: list[dict[str, Any]] = []
        total = 0
        matched_files: set[str] = set()
        for file in files:
            if glob and not glob_matches(
                glob, file.relative_to(base).as_posix() if base.is_dir() else file.name
            ):
                continue
            try:
                if file.stat().st_size > MAX_GREP_FILE_BYTES:
                    continue
                data = file.read_bytes()
            except OSError:
                continue
            if b"\x00" in data[:8192]:
                continue
            display = self.display(file)
            for number, line in enumerate(
                split_lines(data.decode("utf-8", errors="replace")), start=1
            ):
                if regex.search(line):
                    total += 1
                    matched_files.add(display)
                    if len(matches) < limit:
                        matches.append({"path": display, "line": number, "text": line[:400]})
        return {
            "matches": matches,
            "total": total,
            "files": len(matched_files),
            "truncated": total > len(matches),
        }
