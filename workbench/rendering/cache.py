"""The render cache: a case is drawn again only when something it is drawn from changed.

A drawing is a pure function of its inputs, so each cached drawing is filed under a hash of
all of them (:class:`RenderInputs`): the variant as loaded, the tool's manifest and every file
of its package's folder (the surfaces, the modules they import from it), Workbench's own
sources (the kit, the renderer, the rules), the Textual, Rich and Python versions, the
theme's colours, and the case's phase, width and surface. A changed input is a new key, so a
stale drawing is never found; nothing is ever invalidated by hand.

Entries are files (one per key, written atomically) in ``render/`` of the project's cache
folder, beside the catalog cache (:func:`workbench.fixtures.cache.cache_dir`:
``.workbench/cache/`` or ``$WORKBENCH_CACHE_DIR``); ``--no-cache``,
``WORKBENCH_NO_RENDER_CACHE=1`` or ``WORKBENCH_NO_CACHE=1`` (every cache) turn it off.
An entry that does not read back whole and of this format (corrupt, truncated, written by
another version) is ignored and drawn again. The folder is pruned, oldest first, when it
grows past its bound.

The snapshot run also remembers which cases' committed files matched their drawing
(:class:`MatchedSnapshots`): a case whose key and files' stamps are those it matched with
passes on a ``stat`` of its two files, without reading its drawing or its files.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import platform
import sys
import time
import zlib
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from workbench.fixtures.cache import RACY_WINDOW_NS, Stamp
from workbench.fixtures.catalog import Catalog, VariantRef
from workbench.rendering.matrix import SnapshotCase
from workbench.review.store import SnapshotStore, StoredSnapshot
from workbench.surfaces.registry import SURFACE_KINDS, SurfaceRegistry

CACHE_FORMAT = 1
"""Bumped when an entry's layout changes: entries of another format are never read."""
FOLDER_NAME = "render"
NO_RENDER_CACHE_ENV = "WORKBENCH_NO_RENDER_CACHE"
MAX_BYTES_ENV = "WORKBENCH_CACHE_MAX_MB"
DEFAULT_MAX_BYTES = 1024 * 1024 * 1024
"""1 GiB: about 200,000 compressed snapshot drawings."""
TOUCH_AFTER_S = 24 * 3600
"""An entry read is marked used when it was last marked longer ago than this."""
PRUNE_TO = 0.8
"""Pruning removes the oldest entries until the folder is this share of its bound."""
SIZE_FILE = "size.json"
"""The folder's size as last measured, plus what runs wrote since: a run far below the
bound adds to it instead of listing every entry."""
MEASURE_AFTER_S = 24 * 3600
"""The folder is measured again at least this often (runs at once can each miss the
others' writes)."""
MATCHED_FILE = f"matched-v{CACHE_FORMAT}.json"
WORKBENCH_ROOT = Path(__file__).resolve().parent.parent
KIT_EXCLUDED = ("app", "cli", "serve", "scaffold", "transcripts", "reload", "net")
"""Workbench folders no drawing reads (the TUI, the CLI, servers): editing them keeps the
cache. A test proves the renderer and the audit load nothing from them."""
SKIPPED_NAMES = ("__pycache__",)
SKIPPED_SUFFIXES = (".pyc", ".pyo")


def _digest(*parts: str) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(part.encode("utf-8", "surrogatepass"))
        hasher.update(b"\x00")
    return hasher.hexdigest()


def _files(folder: Path, *, skip: Iterable[Path] = ()) -> Iterator[Path]:
    """Every file under ``folder`` in a stable order, bytecode and ``skip`` folders left out."""
    skipped = {str(path) for path in skip}
    for directory, folders, names in os.walk(folder):
        folders[:] = sorted(
            name
            for name in folders
            if name not in SKIPPED_NAMES and os.path.join(directory, name) not in skipped
        )
        for name in sorted(names):
            if not name.endswith(SKIPPED_SUFFIXES):
                yield Path(directory, name)


def _hash_files(folder: Path, paths: Iterable[Path]) -> str:
    hasher = hashlib.sha256()
    for path in paths:
        hasher.update(path.relative_to(folder).as_posix().encode("utf-8", "surrogatepass"))
        hasher.update(b"\x00")
        with contextlib.suppress(OSError):
            hasher.update(hashlib.sha256(path.read_bytes()).digest())
    return hasher.hexdigest()


def bundled_tool_folders() -> list[Path]:
    """The bundled tool packages' folders: each is its tools' input, not the kit's."""
    tools = WORKBENCH_ROOT / "tools"
    return [path for path in sorted(tools.iterdir()) if (path / "__init__.py").is_file()]


def kit_digest() -> str:
    """Workbench's own sources a drawing or an audit reads, and its version."""
    skip = [WORKBENCH_ROOT / name for name in KIT_EXCLUDED] + bundled_tool_folders()
    sources = _hash_files(WORKBENCH_ROOT, _files(WORKBENCH_ROOT, skip=skip))
    return _digest(package_version("workbench"), sources)


def package_version(name: str) -> str:
    """An installed distribution's version (what the cache keys on for a dependency)."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "-"


def dependency_versions() -> dict[str, str]:
    """The libraries a drawing depends on, and the Python whose Unicode tables it uses."""
    return {
        "textual": package_version("textual"),
        "rich": package_version("rich"),
        "python": platform.python_version(),
    }


def surface_folder(surface: object) -> Path | None:
    """The folder of the package a surface is defined in (its own file, for a lone module)."""
    surface = getattr(surface, "func", surface)  # A functools.partial: the function's module.
    module = sys.modules.get(getattr(surface, "__module__", None) or "")
    file = module.__file__ if module is not None else None
    if module is None or file is None:
        return None
    path = Path(file).resolve()
    # A module of a package: the whole package folder (what it imports from its own package).
    return path.parent if path.name == "__init__.py" or module.__package__ else path


class RenderInputs:
    """The hash of everything a case or an audit is drawn from, each part computed once."""

    def __init__(self, catalog: Catalog, registry: SurfaceRegistry) -> None:
        self.catalog = catalog
        self.registry = registry
        self._environment: str | None = None
        self._tools: dict[str, str] = {}
        self._variants: dict[tuple[str, str], str] = {}
        self._themes: dict[str, str] = {}
        self._fixture_files = {fixture.path.resolve() for fixture in catalog.fixture_files}

    @property
    def environment(self) -> str:
        if self._environment is None:
            versions = json.dumps(dependency_versions(), sort_keys=True)
            self._environment = _digest(str(CACHE_FORMAT), kit_digest(), versions)
        return self._environment

    def tool(self, tool: str) -> str:
        """The tool's manifest and every file of the folders its own surfaces come from."""
        found = self._tools.get(tool)
        if found is not None:
            return found
        entry = self.catalog.tools.get(tool)
        manifest = entry.manifest.model_dump_json() if entry is not None else "-"
        apis = sorted(entry.apis) if entry is not None else []
        folders: set[Path] = set()
        for api in apis:
            for kind in SURFACE_KINDS:
                resolved = self.registry.resolve(tool, api, kind)
                if not resolved.fallback:
                    folder = surface_folder(resolved.surface)
                    if folder is not None:
                        folders.add(folder)
        parts = [manifest]
        for folder in sorted(folders):
            # A package's own fixture files are keyed variant by variant, not as its source.
            files = [folder] if folder.is_file() else list(_files(folder))
            files = [path for path in files if path.resolve() not in self._fixture_files]
            parts += [str(folder), _hash_files(folder.parent, files)]
        found = self._tools[tool] = _digest(*parts)
        return found

    def variant(self, ref: VariantRef) -> str:
        """The variant as loaded (every field, defaults included), with its tool and API."""
        key = (str(ref.fixture.path), ref.variant.id)
        found = self._variants.get(key)
        if found is None:
            data = json.dumps(ref.variant.model_dump(mode="json"), sort_keys=True)
            found = self._variants[key] = _digest(ref.tool, ref.api, data)
        return found

    def theme(self, name: str) -> str:
        """The theme's palette and the Textual theme's colours, as the renderer reads them."""
        found = self._themes.get(name)
        if found is None:
            from textual.theme import BUILTIN_THEMES

            from workbench.surfaces.themes import theme_facts

            facts = theme_facts(name)
            theme = BUILTIN_THEMES[facts.textual_name]
            variables = json.dumps(theme.to_color_system().generate(), sort_keys=True)
            found = self._themes[name] = _digest(name, repr(facts), repr(theme), variables)
        return found

    def case(self, case: SnapshotCase) -> str:
        """One snapshot case's key."""
        return _digest(
            "snapshot",
            self.environment,
            self.tool(case.tool),
            self.variant(case.ref),
            self.theme(case.theme),
            case.phase.value,
            str(case.width),
            case.surface,
            case.title,
        )

    def audit(self, ref: VariantRef, settings: str, themes: Iterable[str]) -> str:
        """One variant's audit key: ``settings`` names the rules, widths and hosts."""
        return _digest(
            "audit",
            self.environment,
            self.tool(ref.tool),
            self.variant(ref),
            settings,
            *(self.theme(name) for name in themes),
        )


@dataclass
class CacheStats:
    """What one run did with the cache: the ``drawn`` count is what it could not reuse."""

    reused: int = 0
    drawn: int = 0
    ignored: int = 0
    """Entries that were there but unreadable or of another format (drawn again)."""
    write_error: str | None = None
    pruned: int = 0
    unchanged: int = 0
    """Reused snapshot cases whose committed files had not changed since they matched:
    passed on their files' stamps, nothing read or compared."""
    written: int = 0
    """Bytes of entries this run wrote."""

    def summary(self) -> str:
        unchanged = f" ({self.unchanged} on unchanged snapshot files)" if self.unchanged else ""
        text = f"render cache: {self.reused} reused{unchanged}, {self.drawn} drawn"
        if self.ignored:
            text += f", {self.ignored} unreadable entr{'y' if self.ignored == 1 else 'ies'} ignored"
        if self.pruned:
            text += f", {self.pruned} old entries pruned"
        if self.write_error:
            text += f" (not saved: {self.write_error})"
        return text


@dataclass
class RenderCache:
    """Drawings and audit results on disk, filed by the hash of their inputs."""

    directory: Path
    inputs: RenderInputs
    max_bytes: int = DEFAULT_MAX_BYTES
    stats: CacheStats = field(default_factory=CacheStats)

    @property
    def entries(self) -> Path:
        return self.directory / f"v{CACHE_FORMAT}"

    def path_for(self, key: str) -> Path:
        return self.entries / key[:2] / key

    def get(self, key: str) -> Any | None:
        """The value filed under ``key``, or ``None`` (missing, corrupt or foreign)."""
        path = self.path_for(key)
        try:
            with path.open("rb") as stream:
                data = stream.read()
                # Pruning goes least recently used first; a day's precision saves a write.
                if time.time() - os.fstat(stream.fileno()).st_mtime > TOUCH_AFTER_S:
                    os.utime(stream.fileno())
        except OSError:
            return None
        try:
            entry = json.loads(zlib.decompress(data))
            if entry["format"] != CACHE_FORMAT or entry["key"] != key:
                raise ValueError("foreign entry")
            value = entry["value"]
        except (ValueError, KeyError, TypeError, zlib.error, RecursionError):
            self.stats.ignored += 1
            return None
        return value

    def put(self, key: str, value: Any) -> None:
        """File ``value`` under ``key``; a cache that cannot be written is only slower."""
        if self.stats.write_error is not None:
            return
        from workbench.core.file_writes import write_atomically

        entry = json.dumps({"format": CACHE_FORMAT, "key": key, "value": value})
        data = zlib.compress(entry.encode("utf-8"), 1)
        try:
            self._mark_folder()
            write_atomically(self.path_for(key), data)
        except OSError as error:
            self.stats.write_error = f"{self.directory}: {error.strerror or error}"
        else:
            self.stats.written += len(data)

    def _mark_folder(self) -> None:
        """A cache folder ignores itself in git and says what it is to backup tools."""
        ignore = self.directory / ".gitignore"
        if ignore.exists():
            return
        from workbench.core.file_writes import write_atomically

        self.directory.mkdir(parents=True, exist_ok=True)
        write_atomically(
            self.directory / "CACHEDIR.TAG",
            "Signature: 8a477f597d28d172789f06886806bc55\n"
            "# The Workbench render cache: safe to delete (https://bford.info/cachedir/).\n",
        )
        write_atomically(ignore, "# The Workbench render cache: never committed.\n*\n")

    def prune(self) -> int:
        """Remove the least recently used entries while the folder exceeds its bound.

        The folder is listed only when its size as last measured plus what was written since
        could exceed the bound, or a day after it was last measured."""
        size_file = self.directory / SIZE_FILE
        known = _read_size(size_file)
        if known is not None and time.time() - known[1] < MEASURE_AFTER_S:
            estimate = known[0] + self.stats.written
            if estimate <= self.max_bytes:
                if self.stats.written:
                    self._write_size(estimate, known[1])
                return 0
        found: list[tuple[float, int, Path]] = []
        total = 0
        for path in self.entries.glob("*/*"):
            try:
                status = path.stat()
            except OSError:
                continue
            found.append((status.st_mtime, status.st_size, path))
            total += status.st_size
        removed = 0
        for _, size, path in sorted(found) if total > self.max_bytes else ():
            if total <= self.max_bytes * PRUNE_TO:
                break
            with contextlib.suppress(OSError):
                path.unlink()
                total -= size
                removed += 1
        self.stats.pruned += removed
        if found:
            self._write_size(total, time.time())
        return removed

    def _write_size(self, total: int, measured: float) -> None:
        from workbench.core.file_writes import write_atomically

        with contextlib.suppress(OSError):
            body = json.dumps({"format": CACHE_FORMAT, "bytes": total, "measured": measured})
            write_atomically(self.directory / SIZE_FILE, body)

    def matched_snapshots(self) -> MatchedSnapshots:
        """Which snapshot cases' files matched their drawing. One memo whatever the folder
        the files are in (a CI job checks out the project where it likes): an entry vouches
        only for files with its stamps or its texts."""
        return MatchedSnapshots.load(self.directory / MATCHED_FILE, self)

    def remember(self, key: str, draw: Callable[[], Any], *, valid: type = dict) -> Any:
        """The value under ``key`` if it is there, else ``draw()`` (which is then filed)."""
        value = self.get(key)
        if isinstance(value, valid):
            self.stats.reused += 1
            return value
        self.stats.drawn += 1
        value = draw()
        self.put(key, value)
        return value


def _read_size(path: Path) -> tuple[int, float] | None:
    """The folder's size and when it was measured, from ``path`` (``None``: not known)."""
    try:
        found = json.loads(path.read_bytes())
        if found["format"] == CACHE_FORMAT and isinstance(found["bytes"], int):
            return found["bytes"], float(found["measured"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None


class MatchedSnapshots:
    """Snapshot cases whose committed files were found equal to their drawing: the case's
    key, the stamps (size, mtime_ns, ctime_ns, inode) the files had then, the picture hash,
    and a hash of each file's text.

    A case whose key and both stamps are the same again would compare equal again: it passes
    on a ``stat`` of its files. Anything that could change the answer changes one of them: an
    input of the drawing changes the key; an edit, a delete, a ``git checkout`` or a restored
    copy gives a file a new change time (which no one can set back) or inode. A stamp taken
    within :data:`RACY_WINDOW_NS` of now is not kept, as a second edit in the same tick of a
    coarse clock could keep it. The stamps are taken before the files are read, so a change
    during the read is a new stamp too. When only the stamps differ (a fresh checkout in CI:
    every file is new), the files are read and their texts' hashes decide: the drawing is not
    read back nor compared. Unreadable or foreign memos are ignored.
    """

    def __init__(self, path: Path, cache: RenderCache, entries: dict[str, Any]) -> None:
        self.path = path
        self.cache = cache
        self.entries = entries
        self.added: dict[str, list[Any]] = {}
        self.now_ns = time.time_ns()

    @classmethod
    def load(cls, path: Path, cache: RenderCache) -> MatchedSnapshots:
        try:
            found = json.loads(path.read_bytes())
            entries = found["cases"] if found["format"] == CACHE_FORMAT else {}
        except (OSError, ValueError, KeyError, TypeError, RecursionError):
            entries = {}
        return cls(path, cache, entries if isinstance(entries, dict) else {})

    def stamp(self, case: SnapshotCase, store: SnapshotStore) -> CaseFiles:
        """``case``'s key and its committed files' stamps, taken now (before they are read)."""
        address = case.address
        return CaseFiles(
            self,
            address.id,
            self.cache.inputs.case(case),
            store.stamps(address),
            lambda: store.read(address),
        )

    def picture(
        self,
        case_id: str,
        key: str,
        stamps: tuple[Stamp | None, Stamp | None],
        read: Callable[[], StoredSnapshot],
    ) -> str | None:
        """The picture hash the case matched with, if its key and its files' stamps (or,
        failing those, their texts: ``read``) are as they were."""
        entry = self.entries.get(case_id)
        if (
            not isinstance(entry, list)
            or len(entry) != 6
            or entry[0] != key
            or None in stamps
            or not isinstance(entry[3], str)
        ):
            return None
        if entry[1:3] != [list(stamp) for stamp in stamps if stamp is not None]:
            committed = read()
            if [_text_hash(committed.text), _text_hash(committed.svg)] != entry[4:6]:
                return None
            self.remember(case_id, key, stamps, entry[3], committed)
        self.cache.stats.reused += 1
        self.cache.stats.unchanged += 1
        return entry[3]

    def remember(
        self,
        case_id: str,
        key: str,
        stamps: tuple[Stamp | None, Stamp | None],
        picture: str,
        committed: StoredSnapshot,
    ) -> None:
        """The case's files (stamped before they were read as ``committed``) matched its
        drawing under ``key``."""
        if committed.text is None or committed.svg is None:
            return
        kept: list[Any] = [list(stamp) if stamp else [] for stamp in stamps]
        if any(self.now_ns - max(stamp[1], stamp[2]) < RACY_WINDOW_NS for stamp in stamps if stamp):
            kept = [[], []]  # Changed just now: a same-size edit in the same clock tick would hide.
        entry = [key, *kept, picture, _text_hash(committed.text), _text_hash(committed.svg)]
        if self.entries.get(case_id) != entry:
            self.entries[case_id] = self.added[case_id] = entry

    def save(self, case_ids: Collection[str] | None = None) -> None:
        """Add what this run found to the file (as others left it: shards and pytest-xdist
        workers share it), keeping only cases in ``case_ids`` if given (the whole matrix);
        a failed write is only slower."""
        if not self.added or self.cache.stats.write_error is not None:
            return
        from workbench.core.file_writes import locked, write_atomically

        try:
            self.cache._mark_folder()
            # Shards and xdist workers save at once: merged under the lock, none drops another's.
            with locked(self.path):
                entries = MatchedSnapshots.load(self.path, self.cache).entries
                entries.update(self.added)
                cases = {
                    case_id: entry
                    for case_id, entry in entries.items()
                    if case_ids is None or case_id in case_ids
                }
                body = json.dumps({"format": CACHE_FORMAT, "cases": cases}, separators=(",", ":"))
                write_atomically(self.path, body)
        except OSError as error:
            self.cache.stats.write_error = f"{self.path}: {error.strerror or error}"
        self.added.clear()


def _text_hash(text: str | None) -> str | None:
    if text is None:
        return None
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class CaseFiles:
    """A case's key and its committed files' stamps, taken before the files are read."""

    memo: MatchedSnapshots
    case_id: str
    key: str
    stamps: tuple[Stamp | None, Stamp | None]
    read: Callable[[], StoredSnapshot]
    """The files as the comparison reads them."""

    def unchanged(self) -> str | None:
        """The picture hash the files matched with, if neither they nor the case changed."""
        return self.memo.picture(self.case_id, self.key, self.stamps, self.read)

    def matched(self, picture: str, committed: StoredSnapshot) -> None:
        """The files, as stamped and then read (``committed``), held the case's drawing."""
        self.memo.remember(self.case_id, self.key, self.stamps, picture, committed)


def cache_folder(root: Path, *, project: bool = True) -> Path | None:
    """Where the project at ``root`` keeps its drawings, or ``None`` when that is turned off."""
    from workbench.fixtures.cache import cache_dir

    if os.environ.get(NO_RENDER_CACHE_ENV, "").strip() not in ("", "0"):
        return None
    folder = cache_dir(root, project=project)
    return folder / FOLDER_NAME if folder is not None else None


def max_bytes_from_environment() -> int:
    """``WORKBENCH_CACHE_MAX_MB`` in bytes; ``ValueError`` naming it if it is no size."""
    text = os.environ.get(MAX_BYTES_ENV, "").strip()
    if not text:
        return DEFAULT_MAX_BYTES
    try:
        megabytes = float(text)
    except ValueError:
        megabytes = -1.0
    if not 0 < megabytes < 1 << 40:
        raise ValueError(f"{MAX_BYTES_ENV}={text!r}: give the cache's bound in megabytes, e.g. 512")
    return int(megabytes * 1024 * 1024)


def open_cache(
    root: Path,
    catalog: Catalog,
    registry: SurfaceRegistry,
    *,
    enabled: bool = True,
    project: bool = True,
) -> RenderCache | None:
    """The render cache of the project at ``root`` (``None`` when turned off); ``project``
    false: no pyproject.toml there, so the user's cache folder."""
    folder = cache_folder(root, project=project) if enabled else None
    if folder is None:
        return None
    return RenderCache(
        folder.resolve(), RenderInputs(catalog, registry), max_bytes=max_bytes_from_environment()
    )
